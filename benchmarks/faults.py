"""Faults a class may meet, on loopback: the sweep worker killed during a run, a replica killed under a session.

What it measures
    1. **A killed worker.** A fresh server; one session opens the truncation page at the top trial count (its
       bias-correction sweep runs for half a minute on the shared worker), then the worker is killed (SIGKILL) a few
       seconds into the run. Printed: whether the page settled (the requested runs finished on a new worker, the page
       redrawn by itself), in how many seconds after the kill, and the exceptions shown (0 expected).
    2. **A killed replica.** Two replicas behind nginx (``deploy/replicas.py``). A browser-like session (nginx's
       affinity cookie) opens the home page; the replica that served it is killed; the same browser reconnects, as
       Streamlit's page does, and nginx passes it to the other replica. Printed: the seconds until the page is back,
       and nginx's health answers meanwhile (every 0.2 s: all 200 expected).

Run: ``.venv/bin/python benchmarks/faults.py [--timeout 300]``. Loopback only; bounded by ``--timeout`` per fault.
Exits 1 if a fault left a page unsettled, showed an exception or a refused request.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from interaction_latency import Session, find_widgets, free_port, start_server, stop_server
from load import descendants, free_port_block
from websockets.sync.client import connect

from deploy.replicas import Deployment  # noqa: E402 (after interaction_latency puts the repository on sys.path)

KILL_AFTER = 4.0  # seconds into the worker's run


def killed_worker(timeout: float) -> dict:
    """The truncation page at its top trial count, its worker killed KILL_AFTER seconds into the run."""
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
    try:
        with connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                     ping_interval=None) as ws:
            session = Session(ws, "truncation-bias")
            widgets, _ = find_widgets(session.rerun([], timeout))
            states = [widget.state(widget.options[-1] if widget.key == "w_trials" else widget.value)
                      for widget in widgets]
            workers = descendants(server.pid)
            killer = threading.Timer(KILL_AFTER, lambda: [os.kill(pid, signal.SIGKILL) for pid in workers])
            killer.start()
            run = session.rerun(states, timeout)
            killer.join()
            replaced = set(descendants(server.pid)) - set(workers)
            return {"settled": run.settled - KILL_AFTER if run.status.startswith("FINISHED") else None,
                    "exceptions": len(run.exceptions), "killed": len(workers), "new workers": len(replaced)}
    finally:
        stop_server(server)


def _get(url: str, cookie: str = "") -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)
    except OSError:
        return 0, {}


def killed_replica(timeout: float) -> dict:
    """A session on one of two replicas; that replica killed; the same browser back on the other."""
    with Deployment(2, free_port_block(3)) as deployment:
        status, headers = _get(deployment.url)
        cookie = headers.get("Set-Cookie", "").split(";")[0]
        served = headers.get("X-Replica", "")
        stream = deployment.url.replace("http", "ws") + "/_stcore/stream"

        def open_home() -> bool:
            with connect(stream, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                         additional_headers={"Cookie": cookie}) as ws:
                return Session(ws, "").rerun([], timeout).status.startswith("FINISHED")
        assert status == 200 and cookie and open_home(), "the home page did not open through nginx"
        index = [f"127.0.0.1:{port}" for port in deployment.replica_ports].index(served)
        health, polling = [], threading.Event()

        def poll() -> None:
            while not polling.is_set():
                health.append(_get(f"{deployment.url}/_stcore/health", cookie)[0])
                time.sleep(0.2)
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        killed = time.monotonic()
        deployment.kill_replica(index)
        back = None
        while back is None and time.monotonic() - killed < timeout:
            try:
                back = time.monotonic() - killed if open_home() else None
            except OSError:
                time.sleep(0.2)
        polling.set()
        poller.join()
        return {"back": back, "polls": len(health), "refused": sum(code != 200 for code in health),
                "now on": _get(deployment.url, cookie)[1].get("X-Replica", "")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per fault (default 300)")
    args = parser.parse_args(argv)
    print("\n## Faults")
    worker = killed_worker(args.timeout)
    settled = "did not settle" if worker["settled"] is None else f"settled {worker['settled']:.1f} s after the kill"
    print(f"worker killed {KILL_AFTER:g} s into a run: {worker['killed']} of its processes killed, "
          f"{worker['new workers']} started again; "
          f"the page {settled}; exceptions {worker['exceptions']}", flush=True)
    replica = killed_replica(args.timeout)
    back = "never came back" if replica["back"] is None else f"was back in {replica['back']:.1f} s"
    print(f"replica killed under a session: the page {back} (now on {replica['now on']}); nginx health "
          f"{replica['polls'] - replica['refused']} of {replica['polls']} polls answered 200", flush=True)
    failed = worker["settled"] is None or worker["exceptions"] or replica["back"] is None or replica["refused"]
    print("PASS" if not failed else "FAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
