"""A server gives back what its sessions held: open and close 100 sessions, and its threads and open file descriptors
return to their level (benchmarks/load.py --sequential prints them for 200: they level off at about 400 descriptors).

Streamlit keeps a closed session for reconnection (``server.disconnectedSessionTTL``, 120 s; at most 128 sessions,
three descriptors each: its script thread's event loop), then drops it and Python's collector frees it. Here the time
to live is one second, so the test takes seconds, not minutes.
"""

import sys
import threading
import time

import pytest
from conftest import APP_DIR

sys.path.insert(0, str(APP_DIR / "benchmarks"))
import load  # noqa: E402

from registry import PAGES  # noqa: E402


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL", "1")
    port = load.free_port()
    process = load.start_server(port, tmp_path / "server.log")
    yield f"ws://127.0.0.1:{port}", process.pid
    load.stop_server(process)


def open_and_close(url: str, count: int, first: int) -> None:
    for i in range(first, first + count):
        result = load.run_session(url, PAGES[i % len(PAGES)].url_path, 0, i, 120, threading.Barrier(1))
        assert not result.exceptions and not result.disconnected, result


def settled(url: str, pid: int) -> tuple[int, int]:
    """Threads and descriptors once the closed sessions are forgotten (their time to live passed; a new session's
    arrival makes Streamlit drop them) and collected."""
    time.sleep(1.5)
    open_and_close(url, 1, 10_000)
    time.sleep(3)
    return load.handles([pid])


def test_a_hundred_closed_sessions_give_back_their_threads_and_descriptors(server):
    url, pid = server
    open_and_close(url, 14, 0)  # every page once or twice: imports, worker, caches
    threads, descriptors = settled(url, pid)
    open_and_close(url, 100, 100)
    after_threads, after_descriptors = settled(url, pid)
    assert after_threads <= threads + 1, (threads, after_threads)
    assert after_descriptors <= descriptors + 6, (descriptors, after_descriptors)  # was + 3 per session: + 300
