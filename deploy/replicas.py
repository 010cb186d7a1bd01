"""Serve the lab from several Streamlit processes behind nginx: ``./lab.sh serve --replicas N [--port 8501]``.

One Streamlit process runs Python on one core at a time (the GIL); N processes on N cores serve N times as many
sessions. nginx (Debian's package) listens on ``127.0.0.1:PORT`` and passes each browser tab to one replica,
``127.0.0.1:PORT+1 …``, and keeps it there:

* **Affinity by cookie.** A first request without the ``dplab_replica`` cookie gets a random key (nginx's
  ``$request_id``) and the cookie; every later request of that browser (the page's files and its websocket, where the
  session lives) is hashed on the cookie to the same replica (``hash … consistent``). Not ``ip_hash``: a campus NAT
  puts a whole class behind one address, which would put it on one replica.
* **A replica dies.** Its sessions' websockets close; Streamlit's page shows "Connecting" and reconnects within
  seconds. nginx finds the dead replica refusing connections and passes the reconnection to the next one
  (``proxy_next_upstream``), where the page reruns from its URL (every control lives in the URL), so a student loses
  nothing but the seconds of reconnection. New sessions go to the live replicas. If none is left, every request gets
  a short page saying the lab is restarting, which retries by itself (never a hang). The page is written into
  nginx's configuration, not read from a file: nginx's workers run as an unprivileged user and could not read it
  from a private folder (a home folder, a ``mktemp -d``).
* **Warm before the class.** ``./lab.sh serve`` has each replica open every page once (:meth:`Deployment.warm`,
  :mod:`deploy.warm`) before it prints the address, and again after a restart: a class opening the lab together
  finds the libraries imported and the figures its pages open on already drawn. A replica that cannot be warmed
  (it died meanwhile) is left to the supervisor; nothing stops.
* **The supervisor** (:meth:`Deployment.supervise`, what ``./lab.sh serve`` runs) starts a replica again when it
  exits, after a pause that doubles with each exit in a row (1 s, 2 s, 4 s, … at most 30 s; back to 1 s once it has
  run a minute), and says so on the terminal. nginx and the other replicas keep serving meanwhile. It stops only on
  Ctrl+C (or SIGTERM, or SIGHUP: the terminal closed), or when nginx itself dies.
* **No orphan.** Each replica runs in a session and process group of its own, with its sweep worker and
  multiprocessing's resource tracker. When a replica exits, the supervisor sends its group SIGTERM at once and SIGKILL
  before starting it again (after the pause: the resource tracker ignores SIGTERM); stopping (Ctrl+C) sends every
  group SIGTERM, then SIGKILL to any group with a process left after :data:`STOP_SECONDS`, and returns once every
  group is empty. The worker also dies with its replica by itself (:mod:`deploy.lifeline`), as under ``./lab.sh app``.
* **Compressed bytes.** nginx sends Streamlit's static files itself, gzip- and brotli-compressed once beforehand
  (:mod:`deploy.static_files`; a phone's first page drops from about 8 MiB to 2.4, 2.9 over plain http), and gzips
  the replicas' HTML and JSON as they pass. Streamlit leaves compression to the proxy in front of it.
* Each answer names the replica that gave it (header ``X-Replica``, a loopback address), for whoever debugs this.
* **Uploads.** nginx refuses a request body above the app's upload limit (:data:`UPLOAD_MB` MiB, the figure at which
  the app refuses it too, ``ui.upload_limits``) with 413: on its Content-Length, which a browser's upload sends,
  before a replica sees a byte; a chunked body, once past the limit. It passes a body on as it arrives (no temporary
  file: under root, nginx's workers could not write one in a private folder).
* **The client's address.** The replica reads it in ``X-Real-IP`` (``X-Forwarded-For`` ends with it), for limits per
  client; the app trusts these headers only from a loopback peer (nginx). Behind an outer nginx over several machines
  (:mod:`deploy.hosts`), ``--outer-proxy ADDRESS`` has nginx take that proxy's ``X-Real-IP`` as the client's address
  (else every student would be the proxy, and share its limits).
* **Loopback only** by default (``--host`` to change it, e.g. ``0.0.0.0`` for a classroom network).
* **The address students reach.** ``--public-url http://192.168.1.20:8501`` (this machine as the classroom network
  sees it, or a proxy's address) is checked at start (:func:`deploy.public_url.parse_public_url`: http or https, a
  host that is not ``localhost``; a bad one is refused with a message) and handed to every replica as
  ``DPLAB_PUBLIC_URL``: the pages' "Share with the class" QR code uses it instead of the teacher's ``localhost``.
  Without ``--host``, it also opens nginx to the network (``0.0.0.0``), since students could not reach it otherwise.

Python's side: :func:`nginx_config` (the configuration, a pure function of the ports) and :class:`Deployment` (start,
wait until healthy, stop), used by the command line here and by the tests and ``benchmarks/load.py --replicas``.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from classroom import teacher_key

from .public_url import ENV, parse_public_url
from .static_files import chart_module, compressed_copy
from .warm import healthy, warm

__all__ = ["COOKIE", "UPLOAD_MB", "UNAVAILABLE", "NGINX", "nginx_config", "nginx_string", "Deployment", "spawn",
           "stop_groups", "parse_args", "main"]

ROOT = Path(__file__).resolve().parents[1]
UNAVAILABLE = Path(__file__).resolve().with_name("unavailable.html")  #: the "restarting" page (served inline)
COOKIE = "dplab_replica"  #: the affinity cookie
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: Debian's brotli_static module for nginx (libnginx-mod-http-brotli-static), loaded when installed
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 30.0  #: seconds before a replica that exited starts again (doubling in a row)
STEADY_SECONDS = 60.0  #: a replica running this long has recovered: its next exit waits FIRST_PAUSE again
STOP_SECONDS = 10.0  #: how long stopping waits for the processes to exit on SIGTERM, all together, before SIGKILL
#: The app's upload limit, Streamlit's ``server.maxUploadSize``, in megabytes as Streamlit counts them (2**20 bytes).
UPLOAD_MB = 20


def nginx_config(port: int, replica_ports: list[int], prefix: Path, host: str = "127.0.0.1",
                 static: Path | None = None, brotli_module: Path | None = None, preload: str | None = None,
                 outer_proxies: Sequence[str] = ()) -> str:
    """The nginx configuration: listen on ``host:port``, pass each browser to one of ``replica_ports`` (on
    loopback) by the ``dplab_replica`` cookie, websockets included; runtime files under ``prefix``. A request from
    one of ``outer_proxies`` (addresses or networks: the outer nginx of several machines, :mod:`deploy.hosts`) names
    its client in ``X-Real-IP``, taken as the client's address (otherwise every student would be that proxy).

    Compression: answers of the replicas (the HTML page, JSON) are gzipped as they pass. With ``static`` (the folder
    :func:`deploy.static_files.compressed_copy` makes), nginx sends Streamlit's static files itself, compressed once
    beforehand (``.gz``; ``.br`` too when ``brotli_module`` is nginx's brotli_static module, loaded), immutable for a
    year as Streamlit marks them (their names carry their content's hash); a file missing there is asked of a
    replica. With ``preload`` (:func:`deploy.static_files.chart_module`), the page's head names that module for the
    browser to fetch at once (``<link rel="modulepreload">``, written in as the page passes)."""
    page = "" if preload is None else (
        "\n# The page's head names the chart module (fetched from the start, not after the first chart arrives); the"
        "\n# page asked of the replica uncompressed, so that nginx can write into it (then gzips it)."
        '\nproxy_set_header Accept-Encoding "";'
        f"\nsub_filter '</head>' '<link rel=\"modulepreload\" crossorigin href=\"./{preload}\"></head>';"
        "\nsub_filter_once on;")
    proxy = (_PROXY + page).replace("\n", "\n            ")
    load = f"load_module {brotli_module};\n" if brotli_module else ""
    real_ip = "".join(f"\n    set_real_ip_from {ipaddress.ip_network(proxy, strict=False)};"
                      for proxy in outer_proxies) + ("\n    real_ip_header X-Real-IP;" if outer_proxies else "")
    brotli = "\n            brotli_static on;" if brotli_module else ""
    static_files = "" if static is None else f"""
        location /static/ {{
            root {static};
            types {{
                application/javascript js mjs;
                text/css css;
                application/json json map;
                image/svg+xml svg;
                image/png png;
                image/gif gif;
                font/woff2 woff2;
                font/woff woff;
                font/ttf ttf;
                application/wasm wasm;
                text/plain txt;
                text/html html;
            }}
            default_type application/octet-stream;
            gzip_static on;{brotli}
            add_header Cache-Control "public, immutable, max-age=31536000" always;
            try_files $uri @lab;
        }}
        location @lab {{
            {proxy}
        }}"""
    head = nginx_head(prefix, COOKIE, "replica", "lab", [f"127.0.0.1:{p}" for p in replica_ports], settings=real_ip)
    return f"""\
{load}{head}
    server {{
        listen {host}:{port};
        # The app refuses an upload whose Content-Length is above UPLOAD_MB MiB before reading it (ui.upload_limits):
        # the same figure here, so a body is refused or taken alike with or without nginx, and a refused one (413, on
        # its Content-Length) never reaches a replica.
        client_max_body_size {UPLOAD_MB}m;
        # Answers compressed as they pass (the HTML page, JSON); not websockets, which negotiate their own.
        gzip on;
        gzip_proxied any;
        gzip_comp_level 5;
        gzip_min_length 1024;
        gzip_vary on;
        gzip_types application/json application/javascript text/css text/plain image/svg+xml;
        location / {{
            {proxy}
        }}{static_files}
{unavailable_location()}
    }}
}}
"""


_PROXY = """\
proxy_pass http://lab;
proxy_http_version 1.1;
proxy_set_header Upgrade $http_upgrade;
proxy_set_header Connection $connection_upgrade;
proxy_set_header Host $host;
# The client's address, for limits per client (the app trusts these only from a loopback peer: nginx).
# X-Forwarded-For keeps what the client sent before nginx's own entry, the last one.
proxy_set_header X-Real-IP $remote_addr;
proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
proxy_buffering off;
# Bodies go to the replica as they arrive: no temporary file (under root, nginx's workers run as an
# unprivileged user that cannot write in a private folder, and every upload over 16 KB was a 500).
proxy_request_buffering off;
proxy_connect_timeout 2s;
proxy_read_timeout 1d;
proxy_send_timeout 1d;
proxy_next_upstream error timeout;
add_header Set-Cookie $replica_cookie always;
add_header X-Replica $upstream_addr always;
proxy_intercept_errors on;
error_page 502 503 504 /unavailable.html;"""  # how nginx passes a request to a replica (every location that does)


def nginx_head(prefix: Path, cookie: str, key: str, upstream: str, servers: list[str], settings: str = "") -> str:
    """What every nginx of the lab opens with, up to its ``server`` block: one worker, its runtime files under
    ``prefix``, websocket upgrades, and affinity by ``cookie``: ``$<key>_key`` is the cookie's value, or a fresh random
    one on a browser's first request (``$<key>_cookie`` then sends it back as the cookie), hashed consistently over
    ``servers`` (``address:port``, each set aside for 5 s after one failure) in the upstream ``upstream``.
    ``settings``: more lines of the ``http`` block, each starting with a newline."""
    temp = "\n".join(f"    {kind}_temp_path {prefix}/{kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    lines = "\n".join(f"        server {server} max_fails=1 fail_timeout=5s;" for server in servers)
    return f"""\
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
{temp}{settings}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    # Affinity: the cookie's key, or a fresh random one (sent back as the cookie) on a browser's first request.
    map $cookie_{cookie} ${key}_key {{ "" $request_id; default $cookie_{cookie}; }}
    map $cookie_{cookie} ${key}_cookie {{ "" "{cookie}=$request_id; Path=/; SameSite=Lax; HttpOnly"; default ""; }}
    upstream {upstream} {{
        hash ${key}_key consistent;
{lines}
    }}"""


def unavailable_location() -> str:
    """The ``location`` that answers the "restarting" page (502, retried by itself) when no server behind answers."""
    return f"""\
        location = /unavailable.html {{
            internal;
            default_type "text/html; charset=utf-8";
            add_header Cache-Control no-store always;
            add_header Retry-After 5 always;
            return 502 {nginx_string(UNAVAILABLE.read_text(encoding="utf-8"))};
        }}"""


def nginx_string(text: str) -> str:
    """``text`` as a double-quoted nginx string: quotes and backslashes escaped, ``$`` as an HTML entity (nginx
    would read it as a variable)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "&#36;") + '"'


class Deployment:
    """N Streamlit replicas and nginx in front of them, on loopback; a context manager that stops them all.

    Parameters
    ----------
    replicas : int
        Number of Streamlit processes (≥ 1).
    port : int
        nginx's port; the replicas take ``port + 1 … port + replicas``.
    host : str
        nginx's address (the replicas always listen on loopback only).
    logs : Path, optional
        Directory for the logs and nginx's runtime files (default: a temporary directory).
    public_url : str, optional
        The address students reach (checked by :func:`deploy.public_url.parse_public_url`), given to every replica
        as ``DPLAB_PUBLIC_URL``.
    environment : dict of str to str, optional
        Variables set for every replica over this process's environment, e.g. a host's own ``DPLAB_DATA_DIR``
        (``benchmarks/two_hosts.py`` runs two hosts side by side on one machine).
    outer_proxies : sequence of str
        The addresses (or networks) of an outer nginx in front of several machines (:mod:`deploy.hosts`), whose
        ``X-Real-IP`` names the client (:func:`nginx_config`).
    """

    def __init__(self, replicas: int, port: int, host: str = "127.0.0.1", logs: Path | None = None,
                 public_url: str | None = None, environment: dict[str, str] | None = None,
                 outer_proxies: Sequence[str] = ()) -> None:
        if not isinstance(replicas, int) or replicas < 1:
            raise ValueError(f"replicas must be an integer >= 1; got {replicas!r}")
        if not 1024 <= port <= 65535 - replicas:
            raise ValueError(f"port must be in [1024, {65535 - replicas}]; got {port!r}")
        self.port, self.host = port, host
        self.public_url = None if public_url is None else parse_public_url(public_url)
        self.replica_ports = [port + 1 + i for i in range(replicas)]
        self.logs = logs or Path(tempfile.mkdtemp(prefix="dplab-serve-"))
        self.replicas: list[subprocess.Popen] = []
        self.nginx: subprocess.Popen | None = None
        self.environment = dict(environment or {})
        self.outer_proxies = [str(ipaddress.ip_network(proxy, strict=False)) for proxy in outer_proxies]
        #: the lab's teacher key, the same for every replica: DPLAB_TEACHER_KEY, else one made here (printed by main)
        self.teacher_key = (os.environ | self.environment).get(teacher_key.ENV) or teacher_key.new_key()

    @property
    def url(self) -> str:
        """The address a browser opens."""
        return f"http://{'127.0.0.1' if self.host == '0.0.0.0' else self.host}:{self.port}"

    def replica_url(self, index: int) -> str:
        """The direct address of replica ``index`` (loopback)."""
        return f"http://127.0.0.1:{self.replica_ports[index]}"

    def start(self, wait: float = 120.0) -> Deployment:
        """Start the replicas and nginx; return once every replica and nginx answer their health check."""
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.logs / kind).mkdir(parents=True, exist_ok=True)
        self.replicas = [self._spawn_replica(port) for port in self.replica_ports]
        config = self.logs / "nginx.conf"
        static = compressed_copy(say=lambda message: print(message, file=sys.stderr))
        config.write_text(nginx_config(self.port, self.replica_ports, self.logs, self.host, static,
                                       BROTLI_MODULE if BROTLI_MODULE.exists() else None, chart_module(static),
                                       self.outer_proxies))
        self.nginx = spawn([NGINX, "-p", str(self.logs), "-c", str(config), "-e", str(self.logs / "error.log"),
                            "-g", "daemon off;"], self.logs / "nginx.log")
        deadline = time.monotonic() + wait
        for url, process in [*zip(map(self.replica_url, range(len(self.replicas))), self.replicas),
                             (self.url, self.nginx)]:
            while not healthy(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"{url} did not start; see the logs in {self.logs}")
                time.sleep(0.2)
        return self

    def warm(self, timeout: float = 300.0) -> list[str]:
        """Open every page once on every replica, all replicas at once (:func:`deploy.warm.warm`); return what failed
        (a replica that died meanwhile: the supervisor starts it again, and warms it then). Nothing is stopped."""
        failures: list[str] = []

        def warm_one(index: int) -> None:
            try:
                warm(self.replica_url(index), timeout)
            except RuntimeError as exc:
                failures.append(f"replica on port {self.replica_ports[index]}: {exc}")
        threads = [threading.Thread(target=warm_one, args=(index,), daemon=True) for index in range(len(self.replicas))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return failures

    def replica_environment(self) -> dict[str, str]:
        """The environment of each replica: this process's with the deployment's ``environment`` over it,
        ``DPLAB_PUBLIC_URL`` set to the public URL (or removed, when there is none, so that one left in the shell does
        not reach the pages unchecked), and ``DPLAB_TEACHER_KEY`` set to the deployment's one teacher key (a replica
        left to make its own would take another key than the others)."""
        environment = {key: value for key, value in (os.environ | self.environment).items() if key != ENV}
        if self.public_url:
            environment[ENV] = self.public_url
        environment[teacher_key.ENV] = self.teacher_key
        return environment

    def _spawn_replica(self, port: int, append: bool = False) -> subprocess.Popen:
        return spawn([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                       "--server.address", "127.0.0.1", "--server.port", str(port), "--server.fileWatcherType", "none",
                       "--browser.gatherUsageStats", "false"], self.logs / f"replica-{port}.log", append,
                      self.replica_environment())

    def supervise(self, say: Callable[[str], None] = print, poll: float = 0.5) -> None:
        """Keep the lab serving: start again each replica that exits, after a pause of :data:`FIRST_PAUSE` seconds
        doubling with each exit in a row up to :data:`LONGEST_PAUSE` (back to the first once it has run
        :data:`STEADY_SECONDS`), telling ``say`` what happens. Returns when nginx has stopped."""
        count = len(self.replicas)
        pause, started, due = [FIRST_PAUSE] * count, [time.monotonic()] * count, [None] * count
        while self.nginx is not None and self.nginx.poll() is None:
            now = time.monotonic()
            for index, process in enumerate(self.replicas):
                port = self.replica_ports[index]
                if process.poll() is None:
                    if now - started[index] >= STEADY_SECONDS:
                        pause[index] = FIRST_PAUSE
                elif due[index] is None:
                    due[index] = now + pause[index]
                    _signal(process, signal.SIGTERM)  # what it leaves: its sweep worker, the resource tracker
                    say(f"The replica on port {port} stopped (exit code {process.returncode}); the others keep "
                        f"serving. Starting it again in {pause[index]:g} s.")
                elif now >= due[index]:
                    _signal(process, signal.SIGKILL)  # whatever outlived SIGTERM (the resource tracker ignores it)
                    self.replicas[index] = self._spawn_replica(port, append=True)
                    started[index], due[index] = now, None
                    pause[index] = min(2 * pause[index], LONGEST_PAUSE)
                    say(f"The replica on port {port} started again.")
                    threading.Thread(target=_warm_quietly, args=(self.replica_url(index),), daemon=True).start()
            time.sleep(poll)

    def kill_replica(self, index: int) -> None:
        """Stop replica ``index`` and its process group at once (SIGKILL), as a crash would."""
        stop_groups([self.replicas[index]], signal.SIGKILL)

    def stop(self) -> None:
        """Stop nginx and every replica, each with its process group (a replica's sweep worker and resource tracker,
        nginx's workers), all at once: SIGTERM, then SIGKILL to any group with a process still running after
        :data:`STOP_SECONDS` (a busy replica may take long to finish its run; Ctrl+C never waits longer)."""
        stop_groups([process for process in [self.nginx, *self.replicas] if process is not None], signal.SIGTERM)

    def __enter__(self) -> Deployment:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _warm_quietly(url: str) -> None:
    """Warm a restarted replica; if it dies meanwhile, the supervisor starts (and warms) it again."""
    try:
        warm(url)
    except RuntimeError:
        pass


def spawn(command: list[str], log: Path, append: bool = False,
          environment: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``command`` in the repository, in a session (and process group) of its own, its output to ``log``.

    Parameters
    ----------
    command : list of str
        The program and its arguments.
    log : Path
        The file that receives its standard output and error (appended to with ``append``, else written anew).
    append : bool
        Whether to add to ``log`` (a process started again) rather than start it afresh.
    environment : dict of str to str, optional
        Its environment (default: this process's).

    Returns
    -------
    subprocess.Popen
        The process, leader of its group (:func:`stop_groups` stops it with its children).
    """
    with log.open("ab" if append else "wb") as out:
        return subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env=environment)


def stop_groups(processes: list[subprocess.Popen], how: signal.Signals) -> None:
    """Send ``how`` to the process group of each of ``processes`` (each started in a session of its own, so its
    children share its group), all at once; SIGKILL the groups with a process still running after
    :data:`STOP_SECONDS` in all; return once every group is empty (after at most another :data:`STOP_SECONDS`)."""
    for process in processes:
        _signal(process, how)
    _wait(processes, STOP_SECONDS)
    if how != signal.SIGKILL:
        for process in _running(processes):
            _signal(process, signal.SIGKILL)
        _wait(processes, STOP_SECONDS)


def _wait(processes: list[subprocess.Popen], seconds: float) -> None:
    """Wait up to ``seconds`` for every process of the groups of ``processes`` to end."""
    deadline = time.monotonic() + seconds
    while _running(processes) and time.monotonic() < deadline:
        time.sleep(0.05)


def _running(processes: list[subprocess.Popen]) -> list[subprocess.Popen]:
    """Those of ``processes`` still running, or with a process of their group still running (each leader is reaped
    here when it has exited)."""
    groups = _groups()
    return [process for process in processes if process.poll() is None or _in(process.pid, groups)]


def _groups() -> set[int] | None:
    """The process groups with a process still running (a zombie, dead and waiting for its parent or init to reap it,
    does not count), from ``/proc``; ``None`` without ``/proc`` (not Linux)."""
    if not os.path.isdir("/proc/self"):
        return None
    groups = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold spaces
            except OSError:
                continue
            if fields[0] != b"Z":
                groups.add(int(fields[2]))
    return groups


def _in(group: int, groups: set[int] | None) -> bool:
    """Whether process group ``group`` has a process still running (:func:`_groups`; without ``/proc``, whether the
    system still knows the group)."""
    if groups is not None:
        return group in groups
    try:
        os.killpg(group, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _signal(process: subprocess.Popen, how: signal.Signals) -> None:
    """Send ``how`` to the process group of ``process`` if a process of it still runs. Its leader's id names the
    group; the id stays the group's while any member lives, so once the group is empty no other process is hit."""
    if process.poll() is None or _in(process.pid, _groups()):
        try:
            os.killpg(process.pid, how)
        except ProcessLookupError:
            pass


def _public_url(text: str) -> str:
    try:
        return parse_public_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _network(text: str) -> str:
    try:
        return str(ipaddress.ip_network(text, strict=False))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"an address or a network (10.0.0.5, 10.0.0.0/24); got {text!r}") from exc


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=os.cpu_count() or 1, help="Streamlit processes (default: "
                        "one per core)")
    parser.add_argument("--port", type=int, default=8501, help="nginx's port (default 8501); the replicas take the "
                        "next ones")
    parser.add_argument("--host", default=None, help="nginx's address (default 127.0.0.1, loopback only; 0.0.0.0 "
                        "with --public-url)")
    parser.add_argument("--public-url", type=_public_url, default=None, metavar="URL", help="the address students "
                        "reach, e.g. http://192.168.1.20:8501 (this machine on the classroom network): the pages' "
                        "QR codes use it instead of localhost")
    parser.add_argument("--outer-proxy", type=_network, action="append", default=[], metavar="ADDRESS",
                        help="the address of an outer nginx in front of several machines (python -m deploy.hosts, "
                        "docs/deploy.md), whose X-Real-IP names the client (repeatable)")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``./lab.sh serve``; a bad ``--public-url`` ends it with a message (exit code 2). Without
    ``--host``, nginx listens on loopback, or on every interface (``0.0.0.0``) when a public URL is given."""
    args = _parser().parse_args(argv)
    if args.host is None:
        args.host = "0.0.0.0" if args.public_url else "127.0.0.1"
    return args


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parse_args(argv)
    if args.public_url and args.host in ("127.0.0.1", "localhost", "::1"):
        print(f"Note: nginx listens on {args.host} only, so students reach {args.public_url} only through a proxy on "
              "this machine; --host 0.0.0.0 opens the lab to the network.", file=sys.stderr, flush=True)
    try:
        deployment = Deployment(args.replicas, args.port, args.host, public_url=args.public_url,
                                outer_proxies=args.outer_proxy).start()
    except (ValueError, RuntimeError) as exc:
        parser.error(str(exc))
    for stopping in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl+C: stop every replica's group (the finally below)
        signal.signal(stopping, lambda *_: sys.exit(0))
    try:  # Ctrl+C or SIGTERM while warming stops everything too
        print("Opening every page once on each replica, so that the first visitors do not wait...", flush=True)
        for failure in deployment.warm():
            print(f"Could not warm the {failure}; it serves anyway.", file=sys.stderr, flush=True)
        if not os.environ.get(teacher_key.ENV):  # ./lab.sh serve sets it and says so; python -m deploy.replicas not
            print(f"Teacher key: {deployment.teacher_key}  (type it once in the teacher view, ?teacher=1)", flush=True)
        students = f"; students open {deployment.public_url}" if deployment.public_url else ""
        print(f"Private Estimation Lab: {deployment.url} ({args.replicas} replicas{students}; logs in "
              f"{deployment.logs}). Ctrl+C stops it.", flush=True)
        deployment.supervise(say=lambda line: print(line, file=sys.stderr, flush=True))
        print(f"nginx stopped; the lab is down. See {deployment.logs / 'error.log'}.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        deployment.stop()


if __name__ == "__main__":
    sys.exit(main())
