"""Syntax trees built by two threads at once (ui.ast_lock): on CPython before 3.11.8 the second thread's tree broke the
first's with ``SystemError: AST constructor recursion depth mismatch`` (python/cpython#106905); the app makes
``ast.parse`` take one lock before any page runs.

The race needs the interpreter lock to pass to another thread in the middle of a tree's construction, which a garbage
collection there allows: a ``gc`` callback that sleeps a moment makes it happen at every collection, and a low
threshold makes collections frequent, so the race is met on every tree (not once in thousands of links)."""

import ast
import gc
import threading
import time

import pytest
from helpers import APP, ROOT, run

from ui import ast_lock

SOURCE = (ROOT / "classroom" / "share.py").read_text(encoding="utf-8")  # a module of the lab: a few hundred lines


def race(trees: int = 3) -> list[SystemError]:
    """Build ``trees`` trees of :data:`SOURCE` while another thread builds small ones from a deeper stack, the
    interpreter lock handed over at every garbage collection; the ``SystemError`` raised in either thread."""
    errors: list[SystemError] = []
    done = threading.Event()

    def hand_over(phase: str, info: dict) -> None:
        time.sleep(1e-4)  # Python code in a collection: the other thread may run

    def deeper(depth: int) -> ast.AST:
        return deeper(depth - 1) if depth else ast.parse("x = [1, (2, 3)]")

    def other() -> None:
        while not done.is_set():
            try:
                deeper(30)
            except SystemError as exc:
                errors.append(exc)

    thresholds = gc.get_threshold()
    gc.callbacks.append(hand_over)
    gc.set_threshold(50)
    thread = threading.Thread(target=other)
    thread.start()
    try:
        for _ in range(trees):
            try:
                ast.parse(SOURCE)
            except SystemError as exc:
                errors.append(exc)
    finally:
        done.set()
        thread.join()
        gc.callbacks.remove(hand_over)
        gc.set_threshold(*thresholds)
    return errors


@pytest.fixture
def unguarded(monkeypatch):
    monkeypatch.setattr(ast, "parse", ast_lock._UNGUARDED)


@pytest.fixture
def guarded(monkeypatch):
    monkeypatch.setattr(ast, "parse", ast_lock._UNGUARDED)
    ast_lock.serialise()
    assert ast_lock.serialised() is ast_lock.NEEDED


def test_trees_built_by_two_threads_at_once_never_raise(guarded):
    assert race() == []


@pytest.mark.skipif(not ast_lock.NEEDED, reason="this interpreter has no race to show")
def test_without_the_lock_this_interpreter_raises_so_the_race_above_is_met(unguarded):
    errors = race()
    assert errors and all("AST constructor recursion depth mismatch" in str(error) for error in errors)


def test_the_app_takes_the_lock_before_any_page_runs(unguarded):
    at = run(APP, answered=False)
    assert not at.exception
    assert ast_lock.serialised() is ast_lock.NEEDED


def test_a_tree_is_the_same_through_the_lock(guarded):
    assert ast.dump(ast.parse(SOURCE)) == ast.dump(ast_lock._UNGUARDED(SOURCE))
    assert ast.literal_eval("{'descr': '<f8', 'shape': (3,)}") == {"descr": "<f8", "shape": (3,)}  # numpy's headers


def magic_lines(script: str) -> list[int]:
    """The lines of ``script`` that Streamlit's magic would draw: bare expressions other than calls and docstrings."""
    tree = ast_lock._UNGUARDED((ROOT / script).read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Expr)
            and not isinstance(node.value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)
            and not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))]


def test_the_page_scripts_compile_without_a_syntax_tree(monkeypatch):
    """Streamlit's magic is off (``.streamlit/config.toml``), which no page used: it compiles ``app.py`` and each page
    script straight from their source (again each time its last session leaves), never through ``ast.parse``."""
    import tomllib

    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    from registry import PAGES

    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert settings["runner"]["magicEnabled"] is False
    scripts = ["app.py", *(info.script for info in PAGES)]
    assert {script: magic_lines(script) for script in scripts} == dict.fromkeys(scripts, [])

    def no_tree(*args, **kwargs):
        raise AssertionError("a syntax tree was built")
    monkeypatch.setattr(ast, "parse", no_tree)
    cache = ScriptCache()
    for script in scripts:
        assert cache.get_bytecode(str(ROOT / script)) is not None
