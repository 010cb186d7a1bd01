"""Warming a fresh server (deploy/warm.py): every page opens at its defaults and on a projector, over the websocket,
without an error; a server that does not answer is reported, not waited for forever."""

import socket
import time

import pytest

from deploy.warm import healthy, warm


def test_a_fresh_server_opens_every_page_and_is_then_warm(fresh_server):
    seconds = warm(fresh_server, timeout=300)
    assert 0 < seconds < 300 and healthy(fresh_server)


def test_a_server_that_does_not_answer_is_reported_within_the_timeout():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once the socket closes
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="health check"):
        warm(f"http://127.0.0.1:{port}", timeout=1.0)
    assert time.monotonic() - start < 10
