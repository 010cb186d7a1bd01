"""One address over several machines: ``python -m deploy.hosts --port 8500 10.0.0.11:8501 10.0.0.12:8501``.

Each machine (a *host*) runs ``./lab.sh serve`` (nginx and its replicas, :mod:`deploy.replicas`) with the same
``DPLAB_TEACHER_KEY`` and ``DPLAB_SECRET`` and one PostgreSQL poll store (``--poll-store URL``, or
``DPLAB_POLL_STORE``): no disk is shared. An outer nginx, on one more machine or on one of them, gives the class one
address and passes each browser to one host's nginx, which passes it to one of its replicas:

* **Affinity by a cookie of its own.** A first request without the ``dplab_host`` cookie gets a random key (nginx's
  ``$request_id``) and the cookie; every later request of that browser is hashed on it to the same host (``hash …
  consistent``), where the host's own cookie (``dplab_replica``) picks the replica. Not ``ip_hash``: a campus NAT puts
  a class behind one address.
* **A host dies.** Its browsers' websockets close and Streamlit's page reconnects; the outer nginx cannot connect to
  the dead host within :data:`CONNECT_SECONDS` (``error timeout``), or the host answers 502 or 503 (its nginx is up
  and every replica down), and passes the request to the next host (``proxy_next_upstream``). There the page reruns
  from its URL, and a student's voter id, a cookie of the browser, finds the vote in the shared store. New browsers go
  to the live hosts; with none left, every request gets the "restarting" page of :mod:`deploy.replicas`.
* **WebSockets and lessons.** The upgrade is passed on, and a connection may stay idle for a day (a lesson's tab
  waiting between two moves), as within a host.
* **The client's address** is passed on in ``X-Real-IP`` and ``X-Forwarded-For``; a host started with
  ``--outer-proxy ADDRESS`` (this nginx's address) takes it as the client's, for the limits per client.
* Each answer names the host that gave it (header ``X-Host``), beside the host's own ``X-Replica``.

How to run it on real machines: docs/deploy.md, "Several machines". Python's side: :func:`outer_config` (the
configuration, a pure function of the addresses) and :class:`OuterBalancer` (start, wait until it answers, stop), used
by the command line here, ``tests/e2e/test_two_hosts.py`` and ``benchmarks/two_hosts.py``.
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .replicas import NGINX, UPLOAD_MB, nginx_head, spawn, stop_groups, unavailable_location
from .warm import healthy

__all__ = ["COOKIE", "HEADER", "CONNECT_SECONDS", "parse_host", "outer_config", "OuterBalancer", "main"]

COOKIE = "dplab_host"  #: the outer affinity cookie (a host's nginx keeps its own, ``dplab_replica``)
HEADER = "X-Host"  #: the answer's header naming the host that gave it
CONNECT_SECONDS = 2  #: how long the outer nginx tries to connect to a host before passing the request to the next
_HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}")


def parse_host(text: str) -> str:
    """A host's address as ``name:port`` (a name, an IPv4 address or a bracketed IPv6 one, and a port).

    Parameters
    ----------
    text : str
        The address as typed, e.g. ``10.0.0.11:8501``.

    Returns
    -------
    str
        The same address; ``ValueError`` with a sentence when it is not of that form.
    """
    if not _HOST.fullmatch(text) or not 1 <= int(text.rsplit(":", 1)[1]) <= 65535:
        raise ValueError(f"a host is name:port, e.g. 10.0.0.11:8501 (its ./lab.sh serve); got {text!r}")
    return text


def outer_config(port: int, hosts: list[str], prefix: Path, listen: str = "127.0.0.1") -> str:
    """The outer nginx's configuration: listen on ``listen:port`` and pass each browser to one of ``hosts``.

    Parameters
    ----------
    port : int
        The port the class reaches.
    hosts : list of str
        Each host's nginx as ``name:port`` (:func:`parse_host`).
    prefix : Path
        The folder of nginx's runtime files (its pid, error log and temporary folders).
    listen : str
        The address nginx listens on (``0.0.0.0``: every interface).

    Returns
    -------
    str
        The configuration, for ``nginx -c``.
    """
    head = nginx_head(prefix, COOKIE, "host", "hosts", [parse_host(host) for host in hosts])
    return f"""\
{head}
    server {{
        listen {listen}:{port};
        client_max_body_size {UPLOAD_MB}m;
        location / {{
            proxy_pass http://hosts;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off;
            proxy_request_buffering off;
            # A dead host refuses or ignores the connection; a host whose replicas are all down answers 502 or 503:
            # either way the request goes to the next host.
            proxy_connect_timeout {CONNECT_SECONDS}s;
            proxy_next_upstream error timeout http_502 http_503;
            # A lesson's websocket may stay idle between two moves.
            proxy_read_timeout 1d;
            proxy_send_timeout 1d;
            add_header Set-Cookie $host_cookie always;
            add_header {HEADER} $upstream_addr always;
            proxy_intercept_errors on;
            error_page 502 503 504 /unavailable.html;
        }}
{unavailable_location()}
    }}
}}
"""


class OuterBalancer:
    """The outer nginx over several hosts; a context manager that stops it.

    Parameters
    ----------
    port : int
        The port the class reaches.
    hosts : list of str
        Each host's nginx as ``name:port``.
    listen : str
        The address nginx listens on.
    logs : Path, optional
        The folder of its configuration, logs and runtime files (default: a temporary folder).
    """

    def __init__(self, port: int, hosts: list[str], listen: str = "127.0.0.1", logs: Path | None = None) -> None:
        if not hosts:
            raise ValueError("the outer nginx needs at least one host")
        self.port, self.listen, self.hosts = port, listen, [parse_host(host) for host in hosts]
        self.logs = logs or Path(tempfile.mkdtemp(prefix="dplab-hosts-"))
        self.nginx: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The address a browser opens."""
        return f"http://{'127.0.0.1' if self.listen == '0.0.0.0' else self.listen}:{self.port}"

    def start(self, wait: float = 30.0) -> OuterBalancer:
        """Write the configuration and start nginx; return once a health check through it is answered (a host is
        up), or raise ``RuntimeError`` after ``wait`` seconds."""
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.logs / kind).mkdir(parents=True, exist_ok=True)
        config = self.logs / "nginx.conf"
        config.write_text(outer_config(self.port, self.hosts, self.logs, self.listen))
        self.nginx = spawn([NGINX, "-p", str(self.logs), "-c", str(config), "-e", str(self.logs / "error.log"),
                            "-g", "daemon off;"], self.logs / "nginx.log")
        deadline = time.monotonic() + wait
        while not healthy(self.url):
            if self.nginx.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the outer nginx on {self.url} did not answer; see the logs in {self.logs}")
            time.sleep(0.2)
        return self

    def stop(self) -> None:
        """Stop nginx and its workers (its process group: SIGTERM, then SIGKILL if need be)."""
        if self.nginx is not None:
            stop_groups([self.nginx], signal.SIGTERM)

    def __enter__(self) -> OuterBalancer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _host(text: str) -> str:
    try:
        return parse_host(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hosts", nargs="+", type=_host, metavar="host:port", help="each host's ./lab.sh serve")
    parser.add_argument("--port", type=int, default=8500, help="the port the class reaches (default 8500)")
    parser.add_argument("--listen", default="127.0.0.1", help="the address it listens on (default 127.0.0.1; "
                        "0.0.0.0 for a classroom network)")
    parser.add_argument("--print", action="store_true", help="print the configuration and stop (to install it "
                        "in a system nginx)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line: print the outer nginx's configuration, or run it until Ctrl+C (or until nginx stops)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.print:
        print(outer_config(args.port, args.hosts, Path(tempfile.mkdtemp(prefix="dplab-hosts-")), args.listen))
        return 0
    try:
        balancer = OuterBalancer(args.port, args.hosts, args.listen).start()
    except (ValueError, RuntimeError) as exc:
        parser.error(str(exc))
    for stopping in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl+C: stop nginx (the finally below)
        signal.signal(stopping, lambda *_: sys.exit(0))
    try:
        print(f"Private Estimation Lab on {len(args.hosts)} hosts: {balancer.url} (logs in {balancer.logs}). "
              "Ctrl+C stops it.", flush=True)
        balancer.nginx.wait()
        print(f"nginx stopped. See {balancer.logs / 'error.log'}.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        balancer.stop()


if __name__ == "__main__":
    sys.exit(main())
