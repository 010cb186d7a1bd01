"""Processes read from ``/proc`` (Linux), for the tests that check that nothing outlives the lab's servers.

A process is named by its id and its start time, so an id the system gave to another process meanwhile never counts
as one left behind; a zombie (dead, not yet reaped by init) holds nothing and does not count either.
"""

import os
import signal
import time
from pathlib import Path

__all__ = ["Tree", "process_tree", "still_running", "wait_until_gone", "kill_left", "sweep_helpers"]

Tree = dict[int, tuple[int, str]]  # pid -> (start time in clock ticks since boot, command line)


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and start time (fields 3 and 22 of ``/proc/PID/stat``), or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the command name, in parentheses, may hold spaces
    return fields[0], int(fields[19])


def process_tree(pid: int) -> Tree:
    """Process ``pid`` and every descendant, each with its start time and command line."""
    tree, stack = {}, [pid]
    while stack:
        current = stack.pop()
        try:
            command = Path(f"/proc/{current}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            children = [int(child) for task in Path(f"/proc/{current}/task").iterdir()
                        for child in (task / "children").read_text().split()]
        except OSError:
            continue
        stat = _stat(current)
        if stat is not None:
            tree[current] = stat[1], command
            stack += children
    return tree


def still_running(tree: Tree) -> list[str]:
    """The processes of ``tree`` still running (the same id and start time, not a zombie)."""
    return [f"{pid} {command}" for pid, (started, command) in tree.items()
            if (stat := _stat(pid)) is not None and stat[1] == started and stat[0] != "Z"]


def wait_until_gone(tree: Tree, seconds: float) -> list[str]:
    """Wait up to ``seconds`` for every process of ``tree`` to end; return those still running."""
    deadline = time.monotonic() + seconds
    while (left := still_running(tree)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def kill_left(tree: Tree) -> None:
    """SIGKILL what is left of ``tree`` (a failed test's cleanup), one process by its id."""
    for line in still_running(tree):
        try:
            os.kill(int(line.split()[0]), signal.SIGKILL)
        except ProcessLookupError:
            pass


def sweep_helpers(tree: Tree) -> tuple[list[int], list[int]]:
    """The sweep worker processes and multiprocessing's resource tracker in ``tree``."""
    return ([pid for pid, (_, command) in tree.items() if "--multiprocessing-fork" in command],
            [pid for pid, (_, command) in tree.items() if "resource_tracker" in command])
