"""A class at once, on real servers over Streamlit's websocket (benchmarks/load.py, docs/testing.md §8).

* A freshly started server opened by many sessions together: none sees an exception or loses its connection.
  Before ``ui.preload``, 10 of 12 such sessions showed Plotly's ``partially initialized module 'pandas'`` error (one
  session drew a figure while another was still importing pandas).
* Shared state: the caches shared by sessions (stored sweeps, the figure cache, lru-cached one-run computations,
  the worker's result store) hold immutable values and every draw comes from a seed, so pages computed on a fresh
  server by concurrent sessions draw exactly what they draw when computed one at a time on another fresh server.
"""

import sys
import threading
from contextlib import contextmanager

from conftest import APP_DIR

sys.path.insert(0, str(APP_DIR / "benchmarks"))
import load  # noqa: E402
from interaction_latency import SUCCESS, Session  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

SESSIONS = 18  # three per page: enough to overlap every page's first imports and first figures
LINKS = {"scheffe-tournament": "seed=11&eps=0.3", "exponential-mechanism": "seed=12&n=300",
         "partitioning-rounds": "seed=13&d=64", "truncation-bias": "seed=14&family=pareto"}


@contextmanager
def fresh_server(tmp_path):
    server = load.start_server(load.free_port(), tmp_path / f"server-{load.free_port()}.log")
    try:
        yield f"ws://127.0.0.1:{server.args[server.args.index('--server.port') + 1]}", server.pid
    finally:
        load.stop_server(server)


def test_many_sessions_on_a_fresh_server_see_no_exception_and_no_disconnect(tmp_path):
    with fresh_server(tmp_path) as (url, pid):
        result = load.wave(url, [pid], SESSIONS, changes=2, state="cold", timeout=300)
    summary = result.summary()
    assert summary["exceptions"] == 0 and summary["disconnects"] == 0 and summary["timeouts"] == 0, summary
    assert all(len(session.reruns) == 2 for session in result.results)  # every session opened and moved twice
    assert {session.page for session in result.results} == {page.url_path for page in load.PAGES}


def figures(url: str, page: str, query: str) -> list[str]:
    """The Plotly specs a session opening ``page?query`` receives."""
    with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=60,
                 ping_interval=None) as ws:
        session = Session(ws, page)
        session.query = query
        run = session.rerun([], 300)
    assert run.status in SUCCESS and not run.exceptions, (page, run.status, run.exceptions)
    return [proto.spec for name, proto in run.elements if name == "plotly_chart"]


def test_pages_computed_concurrently_draw_what_they_draw_computed_one_at_a_time(tmp_path):
    with fresh_server(tmp_path) as (url, _):
        alone = {page: figures(url, page, query) for page, query in LINKS.items()}
    together, errors = {}, []

    def open_page(page: str, copy: int) -> None:
        try:
            together[page, copy] = figures(url, page, LINKS[page])
        except Exception as error:  # a thread's failure must reach the assertion below
            errors.append(repr(error))
    with fresh_server(tmp_path) as (url, _):
        threads = [threading.Thread(target=open_page, args=(page, copy)) for page in LINKS for copy in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert all(together[page, copy] == alone[page] and alone[page] for page, copy in together)
