"""Quick passes (ui.progressive): a slow setting answers at once with fewer trials, says so on the page, and ends at
the numbers a cold run computes for the same URL.

The test suite runs with the quick pass off (tests/conftest.py); these tests turn it on with a tiny budget, so the
requested runs (a few seconds each) are always still running when the page is drawn. Nothing here is timed: the
benchmarks measure speed (benchmarks/interaction_latency.py).
"""

import concurrent.futures
import functools
import inspect
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from helpers import charts, complete_frames, page_path, run, texts

import ui
from dpcore import viz
from dpcore.experiments import run_now
from dpcore.lessons import noise_tradeoff
from registry import PAGES
from tests.processes import kill_left, process_tree, sweep_helpers, wait_until_gone
from ui import progressive
from ui.drawn import Drawn

PARAMS = dict(n_values=[100, 1000], dimensions=[1, 8], epsilons=[0.5, 1.0], delta=1e-6, trials=400, seed=3)


@pytest.fixture
def quick(monkeypatch):
    """The quick pass on, with a budget so small that a quick pass is always computed small, a fresh shared store and
    figure cache (no requested run of an earlier test is at hand), and the worker pool held until the test opens the
    returned gate: no requested run finishes while the page is drawn, whatever the machine's speed."""
    monkeypatch.setattr(progressive, "QUICK_SECONDS", 1e-3)
    monkeypatch.setattr(progressive, "WAIT_SECONDS", 0.0)
    fresh = progressive.Progressive(workers=2)
    gate = threading.Event()
    for _ in range(2):
        fresh._pool.submit(gate.wait, 600)
    monkeypatch.setattr(ui.compute, "_progressive", lambda: fresh)
    figures = progressive.LruMap(128)
    monkeypatch.setattr(ui.compute, "_figures", lambda: figures)
    yield gate
    for line in list(fresh._waiting.values()):  # no run of this test computes (and is stored) after it
        for future, _ in line:
            future.cancel()
    gate.set()


def assert_same_sweep(left, right):
    for name in ("median", "lower", "upper", "mean", "rmse"):
        np.testing.assert_array_equal(getattr(left, name), getattr(right, name))
    np.testing.assert_array_equal(left.trials, right.trials)


def test_quick_pass_is_the_same_sweep_with_fewer_trials_and_the_requested_run_is_the_cold_run(quick):
    state = progressive.Progressive(workers=1)
    blocker = state._pool.submit(lambda: concurrent.futures.wait([concurrent.futures.Future()], timeout=1.0))
    shown, preview = state.run("key", lambda **p: noise_tradeoff.error_sweep(**p), PARAMS)
    assert preview is not None and progressive.MIN_TRIALS == preview.trials < preview.requested == 400
    assert_same_sweep(shown, noise_tradeoff.error_sweep(**{**PARAMS, "trials": preview.trials}))
    blocker.result()
    requested = preview.future.result(timeout=120)
    assert_same_sweep(requested, noise_tradeoff.error_sweep(**PARAMS))
    again, none = state.run("key", lambda **p: noise_tradeoff.error_sweep(**p), PARAMS)
    assert none is None and again is requested  # served from the shared store, not recomputed


def test_quick_trials_fill_the_budget_and_stay_in_range():
    assert progressive.quick_trials(0.2, 2, 2000, 0.4) == 4       # 0.1 s per trial: 4 fit in 0.4 s
    assert progressive.quick_trials(0.2, 2, 3, 0.4) == 3          # never more than requested
    assert progressive.quick_trials(5.0, 2, 2000, 0.4) == 2       # never fewer than a band needs
    assert progressive.quick_trials(0.0, 2, 2000, 0.4) == 2000    # free: everything at once


def test_bounded_map_forgets_the_least_recently_used():
    store = progressive.LruMap(2)
    store.put("a", 1), store.put("b", 2), store.get("a"), store.put("c", 3)
    assert (store.get("a"), store.get("b"), store.get("c")) == (1, None, 3)


def test_page_says_it_previews_then_refines_to_the_cold_numbers(quick):
    query = dict(trials="1000", seed="5")  # not stored: a few seconds of Monte Carlo per sweep
    at = run(page_path("noise_tradeoff.py"), timeout=300, **query)
    assert not at.exception
    notes = [text for text in texts(at.caption) if text.startswith("Quick preview from")]
    assert notes and all("of 1,000 Monte Carlo trials" in note for note in notes)
    assert any(text.startswith("Quick preview:") for text in texts(at.info))
    assert_refines_to_the_cold_run(at, quick)


def assert_refines_to_the_cold_run(at, gate):
    """Once the requested runs are ready, the page's rerun shows no preview and every figure equals a cold run."""
    pending = at.session_state["_sweep_previews"]
    assert pending
    gate.set()
    concurrent.futures.wait([preview.future for preview in pending], timeout=300)
    at.run()  # what the page's poll triggers once the requested runs are ready
    assert not at.exception
    assert not [text for text in texts(at.caption) + texts(at.info) if "review" in text]
    shown = charts(at)
    for key, (builder, kwargs) in at.session_state[ui.FIGURE_CALLS].items():
        runner = {"run": run_now} if "run" in inspect.signature(builder).parameters else {}
        cold = complete_frames(Drawn.of(builder(**kwargs, **runner)).sent)  # as the browser draws it (float32)
        assert viz.figure_table_csv(go.Figure(shown[key])) == viz.figure_table_csv(go.Figure(cold)), key


def test_a_fresh_monte_carlo_run_is_previewed_by_the_stored_one_then_replaced_by_its_own_numbers(quick):
    at = run(page_path("noise_tradeoff.py"), timeout=300, mc="8")
    assert not at.exception
    note = ("Preview from Monte Carlo run 0 (200 Monte Carlo trials per point): run 8, with 200, replaces it by "
            "itself when ready.")
    assert texts(at.caption).count(note) == 3  # error vs n, error vs d, and the takeaways read off them
    banner = next(text for text in texts(at.info) if text.startswith("Quick preview:"))
    assert " of 2 done." in banner  # two requested runs: the takeaways reuse the figures' sweeps
    assert_refines_to_the_cold_run(at, quick)


def test_fewer_trials_than_stored_are_previewed_by_the_stored_run(quick):
    at = run(page_path("noise_tradeoff.py"), timeout=300, trials="100")
    assert not at.exception
    note = ("Preview from a stored run with 200 Monte Carlo trials per point: the run with the 100 you asked for "
            "replaces it by itself when ready.")
    assert texts(at.caption).count(note) == 3
    assert_refines_to_the_cold_run(at, quick)


def test_a_stored_run_with_fewer_trials_is_the_quick_pass(quick):
    at = run(page_path("noise_tradeoff.py"), timeout=300, trials="1000")  # the default seed: 200 trials are stored
    assert not at.exception
    notes = [text for text in texts(at.caption) if text.startswith("Quick preview from")]
    assert notes and all(note.startswith("Quick preview from 200 of 1,000 Monte Carlo trials") for note in notes)
    quick.set()
    concurrent.futures.wait([preview.future for preview in at.session_state["_sweep_previews"]], timeout=300)


TOPIC_PAGES = [info.script.removeprefix("app_pages/") for info in PAGES if info.url_path]


@pytest.mark.parametrize("script", TOPIC_PAGES)
def test_a_new_seed_redraws_the_pictures_without_recomputing_a_sweep(script, computed_sweeps):
    at = run(page_path(script), timeout=600)
    assert not at.exception
    computed_sweeps.clear()
    again = run(page_path(script), timeout=600, seed="424242")
    assert not again.exception and again.query_params["seed"] == "424242"
    assert computed_sweeps == []
    assert charts(again) != charts(at)  # the one-run pictures did change


def test_a_fresh_monte_carlo_run_is_asked_for_with_its_own_control(computed_sweeps):
    at = run(page_path("noise_tradeoff.py"), timeout=600, mc="8")
    assert not at.exception
    assert computed_sweeps.count("error_sweep") == 2  # error vs n and error vs d, with the new random numbers


def test_a_sweep_sized_by_a_sample_budget_is_previewed_by_its_stored_smaller_budget(quick):
    at = run(page_path("truncation.py"), timeout=300, trials="2000")  # budget 4,000,000; 400,000 stored
    assert not at.exception
    notes = [text for text in texts(at.caption) if text.startswith("Quick preview from")]
    budget = ("Quick preview from 400,000 of 4,000,000 Monte Carlo simulated samples per point (bands are wider than "
              "they will be): it refines to all 4,000,000 by itself.")
    trials = ("Quick preview from 200 of 2,000 Monte Carlo trials per point (bands are wider than they will be): it "
              "refines to all 2,000 by itself.")
    assert notes[:2] == [budget, trials]  # error vs n (a budget), then the bias correction (trials)
    quick.set()
    concurrent.futures.wait([preview.future for preview in at.session_state["_sweep_previews"]], timeout=600)


def test_the_queue_ahead_of_a_page_and_cancelling_runs_it_moved_away_from():
    state = progressive.Progressive(workers=1)
    gate = threading.Event()
    first = state._future("a", lambda: gate.wait(60))
    second = state._future("b", lambda: "b")
    third = state._future("c", lambda: "c")
    assert (state.ahead([first]), state.ahead([second, third]), state.ahead([third])) == (0, 1, 2)
    state.cancel([first, second])  # the running one cannot be cancelled, the queued one is
    assert not first.cancelled() and second.cancelled() and state.ahead([third]) == 1
    gate.set()
    assert third.result(timeout=60) == "c" and state.ahead([third]) == 0
    assert state._result("b", lambda: "b again", timeout=60) == "b again"  # a cancelled run is resubmitted on request


def test_a_worker_process_computes_the_same_sweep_and_one_that_died_is_replaced():
    state = progressive.Progressive(workers=1, processes=True)
    call = functools.partial(noise_tradeoff.error_sweep, **PARAMS)
    assert_same_sweep(state._result("sweep", call, timeout=120), noise_tradeoff.error_sweep(**PARAMS))
    died = state._future("exit", functools.partial(os._exit, 1))
    assert isinstance(died.exception(timeout=120), concurrent.futures.BrokenExecutor)
    again = state._result("sweep again", call, timeout=120)  # a fresh worker process
    assert_same_sweep(again, noise_tradeoff.error_sweep(**PARAMS))


# A server in miniature: a short-lived thread starts the worker pool (as a page's script run does in the app), then
# ends; the worker must still answer. Prints the worker's id, then waits to be killed.
SERVER = """\
import os, threading, time
from ui import progressive
made = []
thread = threading.Thread(target=lambda: made.append(progressive.Progressive(workers=1, processes=True)))
thread.start()
thread.join()
time.sleep(0.5)
print(made[0]._result("pid", os.getpid, timeout=60), flush=True)
time.sleep(120)
"""


def test_a_worker_outlives_the_thread_that_started_it_and_dies_with_its_server():
    """Linux's parent-death signal fires when the *thread* that started a process exits: the worker processes are
    started by one thread that lasts as long as the server, so a script run's thread may end; the server killed
    with SIGKILL takes its worker and multiprocessing's resource tracker with it."""
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=Path(progressive.__file__).parents[1],
                              stdout=subprocess.PIPE, text=True, start_new_session=True)
    tree = {}
    try:
        worker = int(server.stdout.readline() or 0)  # bounded: the script waits at most 60 s for its answer
        tree = process_tree(server.pid)
        workers, trackers = sweep_helpers(tree)
        assert workers == [worker] and len(trackers) == 1, tree
        server.kill()  # SIGKILL, the server alone
        server.wait(10)
        assert not wait_until_gone(tree, 10)
    finally:
        kill_left(tree)
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
        server.stdout.close()


def test_the_worker_serves_the_least_served_visitor_first_and_drops_a_visitors_oldest_waiting_runs():
    state = progressive.Progressive(workers=1)
    gate, started, extra = threading.Event(), [], 3

    def run(name: str):
        return lambda: started.append(name) or gate.wait(60) and name
    first = state._future("heavy-0", run("heavy-0"), session="heavy")  # running
    heavy = [state._future(f"heavy-{i}", run(f"heavy-{i}"), session="heavy")
             for i in range(1, progressive.MAX_WAITING + extra + 1)]
    student = state._future("student", run("student"), session="student")
    # the heavy visitor keeps its newest MAX_WAITING runs waiting; the older ones are dropped
    assert [future.cancelled() for future in heavy] == [True] * extra + [False] * progressive.MAX_WAITING
    # only the running run is ahead of the student's: the heavy visitor has been served one run already
    assert state.ahead([student]) == 1 and state.ahead([heavy[-1]]) == 1 + (progressive.MAX_WAITING - 1) + 1
    gate.set()
    assert student.result(timeout=60) == "student" and first.result(timeout=60) == "heavy-0"
    assert [future.result(timeout=60) for future in heavy[extra:]] == [f"heavy-{i}" for i in range(
        extra + 1, progressive.MAX_WAITING + extra + 1)]
    assert started[:3] == ["heavy-0", "student", f"heavy-{extra + 1}"]


def test_a_visitor_who_took_the_worker_long_waits_behind_one_who_did_not():
    state = progressive.Progressive(workers=1)
    state._result("long", lambda: time.sleep(0.3) or "long", session="heavy")
    state._result("short", lambda: "short", session="student")
    gate, started = threading.Event(), []
    blocker = state._future("blocker", lambda: gate.wait(60), session="third")
    for i, session in enumerate(("heavy", "student", "heavy", "student")):
        state._future(f"{session}-{i}", lambda session=session: started.append(session), session=session)
    gate.set()
    blocker.result(timeout=60)
    deadline = time.monotonic() + 60
    while len(started) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started == ["student", "student", "heavy", "heavy"]


def test_sweeps_joined_into_one_result_are_previewed_by_one_monte_carlo_run(quick):
    """The partitioning page joins two sweeps (the ε-DP methods, and the Gaussian with δ). At a Monte Carlo run and a δ
    nobody stored, one part has a stored run 0 at hand and the other none: both parts are previewed by run 0 (the
    other part computed now at run 0), never one by run 0 and one by run 2, which cannot be joined."""
    at = run(page_path("partition_rounds.py"), timeout=300, mc="2", eps="2", delta="1e-3")
    assert not at.exception
    assert not at.error, texts(at.error)
    notes = [text for text in texts(at.caption) if text.startswith("Preview from Monte Carlo run 0")]
    assert notes and all("run 2, with 30, replaces it" in note for note in notes)


def test_a_budget_sweep_nobody_stored_is_previewed_by_its_smallest_run(quick):
    """Two moves from the truncation page's defaults (ε and the family): no stored run is near, and the requested
    run takes half a minute; its smallest run (every point at 20 trials) is the preview, never a page with nothing."""
    at = run(page_path("truncation.py"), timeout=300, eps="0.3", family="student-t")
    assert not at.exception and not at.error
    assert "error_vs_n" in charts(at)
    assert ("Quick preview from 1,000 of 400,000 Monte Carlo simulated samples per point (bands are wider than they "
            "will be): it refines to all 400,000 by itself.") in texts(at.caption)


def test_a_run_two_tabs_wait_for_is_cancelled_only_when_both_moved_on():
    state = progressive.Progressive(workers=1)
    gate = threading.Event()
    state._future("blocker", lambda: gate.wait(60))
    shared = state._future("shared", lambda: "shared", session="a", tab="tab-1")
    assert state._future("shared", lambda: "shared", session="b", tab="tab-2") is shared
    state.cancel([shared], "tab-1")
    assert not shared.cancelled()  # tab-2 still waits for it
    state.cancel([shared], "tab-2")
    assert shared.cancelled()
    gate.set()


def test_runs_only_closed_tabs_waited_for_are_dropped_not_computed():
    open_tabs = {"tab-1", "tab-2"}
    state = progressive.Progressive(workers=1, alive=lambda tab: tab in open_tabs)
    gate, started = threading.Event(), []
    state._future("blocker", lambda: gate.wait(60), tab="tab-1")
    left = state._future("left", lambda: started.append("left"), session="a", tab="tab-2")
    stays = state._future("stays", lambda: started.append("stays"), session="b", tab="tab-1")
    open_tabs.discard("tab-2")  # the tab closed: nobody waits for its run any more
    assert state.queued() == 2
    gate.set()
    stays.result(timeout=60)
    assert left.cancelled() and started == ["stays"]


def test_the_whole_line_is_bounded_and_the_longest_line_gives_way(monkeypatch):
    monkeypatch.setattr(progressive, "MAX_QUEUED", 5)
    state = progressive.Progressive(workers=1)
    gate = threading.Event()
    state._future("blocker", lambda: gate.wait(60))
    heavy = [state._future(f"heavy-{i}", lambda: None, session="heavy") for i in range(4)]
    light = [state._future(f"light-{i}", lambda: None, session="light") for i in range(2)]
    assert state.queued() == 5 and state.full()
    assert [future.cancelled() for future in heavy + light] == [True, False, False, False, False, False]
    gate.set()


def test_a_part_of_a_join_previewed_by_another_run_stays_on_that_run_even_when_its_requested_run_is_ready(quick):
    """A join's first part was previewed by run 0: a later part answers from run 0 too, although its own requested
    run (run 2) is ready; the page shows run 2 once every part has its requested run."""
    state = progressive.Progressive(workers=1)

    def sweep(trials, seed):
        return ("sweep", seed, trials)
    assert state._result("part", functools.partial(sweep, trials=40, seed=2)) == ("sweep", 2, 40)
    shown, preview = state.run("part", sweep, dict(trials=40, seed=2), quick_run=0)
    assert shown[1] == 0 and (preview.run, preview.requested_run) == (0, 2) and preview.ready
    exact, none = state.run("part", sweep, dict(trials=40, seed=2), quick_run=None)
    assert exact == ("sweep", 2, 40) and none is None


def test_a_run_whose_worker_stopped_starts_over_and_the_page_says_so(quick):
    state = progressive.Progressive(workers=1, processes=True)
    died = state._future("sweep", functools.partial(os._exit, 1))
    assert isinstance(died.exception(timeout=120), concurrent.futures.BrokenExecutor)
    gate = state._future("blocker", functools.partial(time.sleep, 5))  # the fresh worker is busy: a quick pass
    shown, preview = state.run("sweep", noise_tradeoff.error_sweep, PARAMS)
    assert preview is not None and preview.restarted and preview.future is not died
    banner = ui.page._refining_text([preview], ahead=1)
    assert banner.startswith("The computing process had stopped (for example, out of memory) and was started again")
    state.cancel([preview.future]), gate.result(timeout=60)


def test_a_line_the_bound_empties_leaves_the_worker_serving_the_others(monkeypatch):
    """Many visitors with one run each: the bound drops a whole line; the worker still serves every other line."""
    monkeypatch.setattr(progressive, "MAX_QUEUED", 3)
    state = progressive.Progressive(workers=1)
    gate = threading.Event()
    state._future("blocker", lambda: gate.wait(60))
    runs = [state._future(f"run-{i}", lambda i=i: i, session=f"visitor-{i}") for i in range(4)]
    assert runs[0].cancelled() and state.queued() == 3
    gate.set()
    assert [run.result(timeout=60) for run in runs[1:]] == [1, 2, 3]
