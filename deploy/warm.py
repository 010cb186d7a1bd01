"""Open every page once on a freshly started server, before a class does.

A fresh Streamlit process has imported nothing and drawn nothing: the first visitor's session imports the numerical
libraries (seconds, during which every other session waits for the same imports) and each page's first visitor
builds its figures. When a class opens the lab together on a fresh server, all of them wait for that. So
``./lab.sh serve`` opens each page once itself, as a browser would over Streamlit's websocket, at its default settings
and in presentation mode, before it gives out the address (and again after the supervisor restarts a replica): the
imports are done and every figure a page opens on is in the server's shared cache. It sends no widget state, so the
pages run at their defaults; nothing it does is visible to anyone.

``python -m deploy.warm URL`` does the same from a shell (the container's entry script, ``deploy/entrypoint.sh``):
it prints how many page runs it made and in how long, or what failed (exit status 1).
"""

from __future__ import annotations

import sys
import time
import urllib.request

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from registry import PAGES

__all__ = ["QUERIES", "healthy", "warm", "main"]

QUERIES = ("", "present=1")  #: each page is opened at these query strings: its defaults, and on a projector


def warm(url: str, timeout: float = 300.0) -> float:
    """Wait for the server at ``url`` (``http://host:port``) to answer its health check, then open every page of the
    registry at each of :data:`QUERIES` in turn, each until its script run finishes; return the seconds it took.

    Raises
    ------
    RuntimeError
        The server did not answer, a page did not finish, or a run ended with an error, within ``timeout`` seconds
        in all.
    """
    start = time.monotonic()
    deadline = start + timeout
    while not healthy(url):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer its health check within {timeout:g} s")
        time.sleep(0.2)
    stream = url.replace("http", "ws", 1) + "/_stcore/stream"
    for page in PAGES:
        for query in QUERIES:
            _open(stream, page.url_path, query, deadline)
    return time.monotonic() - start


def _open(stream: str, page: str, query: str, deadline: float) -> None:
    """Run page ``page`` once with ``query`` in a new session; raise RuntimeError unless it finishes successfully."""
    where = f"/{page}?{query}" if query else f"/{page}"
    try:
        with connect(stream, subprotocols=["streamlit"], max_size=None, open_timeout=10, ping_interval=None) as ws:
            ws.send(BackMsg(rerun_script=ClientState(query_string=query, page_name=page)).SerializeToString())
            while (left := deadline - time.monotonic()) > 0:
                message = ForwardMsg.FromString(ws.recv(timeout=left))
                if message.WhichOneof("type") != "script_finished":
                    continue
                if message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the page reran itself; its next run follows
                if message.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    name = ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)
                    raise RuntimeError(f"{where} finished with {name}")
                return
    except (OSError, TimeoutError, WebSocketException) as exc:
        raise RuntimeError(f"{where} did not open: {exc}") from exc
    raise RuntimeError(f"{where} did not finish in time")


def healthy(url: str) -> bool:
    """Whether the Streamlit server at ``url`` answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    """``python -m deploy.warm URL [TIMEOUT]``: warm the server at ``URL``; exit status 0 once every page opened, 1
    with the reason when one did not (or the server never answered), 2 for a bad command line."""
    args = sys.argv[1:] if argv is None else argv
    try:
        if not 1 <= len(args) <= 2:
            raise ValueError
        url, timeout = args[0].rstrip("/"), float(args[1]) if len(args) == 2 else 300.0
    except ValueError:
        print("usage: python -m deploy.warm URL [TIMEOUT_SECONDS]", file=sys.stderr)
        return 2
    try:
        seconds = warm(url, timeout)
    except RuntimeError as exc:
        print(f"Could not warm {url}: {exc}", file=sys.stderr)
        return 1
    print(f"Warmed {url}: {len(PAGES) * len(QUERIES)} page runs ({len(PAGES)} pages) in {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
