"""Two replicas behind nginx (deploy/replicas.py): every page through nginx in a real browser, one browser tab kept on
one replica by its cookie, a replica that dies leaves its tabs reconnected to the other and new visitors served, and
under ``./lab.sh serve`` (the supervisor) it is started again while nginx and the other keep serving.
"""

import gzip
import hashlib
import http.client
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import brotli
import pytest
from playwright.sync_api import Browser, expect
from test_deep_links import CHART, PAGE_TIMEOUT, wait_until_rendered
from websockets.sync.client import connect

from classroom import teacher_key
from deploy import replicas as replicas_module
from deploy import static_files
from deploy.public_url import ENV
from deploy.replicas import COOKIE, NGINX, ROOT, UPLOAD_MB, Deployment, nginx_config, parse_args
from registry import PAGES
from tests.processes import Tree, kill_left, process_tree, still_running, sweep_helpers, wait_until_gone

ERROR_BOX = '[data-testid="stException"], [data-testid="stAlertContentError"]'
PUBLIC = "http://192.0.2.10:8501"  # the address students reach (a documentation address: RFC 5737)


def _free_block(size: int) -> int:
    """A port p with p … p + size - 1 free on loopback."""
    for _ in range(50):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            start = sock.getsockname()[1]
        if start + size < 65535 and all(_free(port) for port in range(start, start + size)):
            return start
    raise RuntimeError("no block of free ports")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def connections(port: int) -> int:
    """Established TCP connections to 127.0.0.1:``port`` (from /proc/net/tcp: nginx's connections to a replica)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for row in rows if row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "01")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """Two replicas behind nginx, shared by the tests that kill nothing; started with a public URL, as
    ``./lab.sh serve --public-url`` does."""
    with Deployment(2, _free_block(3), logs=tmp_path_factory.mktemp("replicas"), public_url=PUBLIC + "/") as running:
        yield running


@pytest.fixture
def doomed(tmp_path):
    """Two replicas behind nginx for a test that kills them; nginx's runtime folder private (mode 700), as in a home
    folder: its workers, running as an unprivileged user, cannot read files there."""
    tmp_path.chmod(0o700)
    with Deployment(2, _free_block(3), logs=tmp_path) as running:
        yield running


def _health(url: str) -> int:
    """The HTTP status of ``url``'s health check (0: no answer)."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def _replica_pid(port: int) -> int | None:
    """The process of the Streamlit replica serving on ``port`` (from /proc), if one runs."""
    wanted = f"--server.port\0{port}\0".encode()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"streamlit" in (command := (entry / "cmdline").read_bytes()) \
                    and wanted in command:
                return int(entry.name)
        except OSError:
            continue
    return None


def test_under_lab_sh_serve_a_dead_replica_starts_again_while_the_lab_keeps_serving_and_leaves_no_process(tmp_path):
    """With the app's sweep worker a process (as ``./lab.sh serve`` runs it): a replica killed with SIGKILL leaves
    nothing running once the supervisor has started it again (not its worker, not multiprocessing's resource
    tracker), and Ctrl+C leaves nothing of any replica."""
    port = _free_block(3)
    nginx, replicas = f"http://127.0.0.1:{port}", [f"http://127.0.0.1:{port + i}" for i in (1, 2)]
    said = tmp_path / "serve.log"
    trees: list[Tree] = []
    with said.open("wb") as out:
        serve = subprocess.Popen([str(ROOT / "lab.sh"), "serve", "--replicas", "2", "--port", str(port)], cwd=ROOT,
                                 stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                 env={**os.environ, "DPLAB_QUICK_SECONDS": "0.2"})  # the app's own setting
    try:
        deadline = time.monotonic() + 240  # up, warmed and announced: the supervisor is watching
        while not (all(_health(url) == 200 for url in [nginx, *replicas])
                   and f"Private Estimation Lab: {nginx}" in said.read_text()):
            assert serve.poll() is None and time.monotonic() < deadline, said.read_text()
            time.sleep(0.5)
        trees = [process_tree(_replica_pid(port + i)) for i in (1, 2)]
        assert all(list(map(len, sweep_helpers(tree))) == [1, 1] for tree in trees), trees  # warming started them
        dead = _replica_pid(port + 1)
        os.kill(dead, signal.SIGKILL)
        answers, back = [], None
        deadline = time.monotonic() + 120
        while back is None and time.monotonic() < deadline:
            answers.append((_health(nginx), _health(replicas[1])))
            if _health(replicas[0]) == 200 and _replica_pid(port + 1) not in (None, dead):
                back = time.monotonic()
            time.sleep(0.25)
        assert back is not None, f"the dead replica did not come back within 120 s:\n{said.read_text()}"
        assert serve.poll() is None
        assert answers and all(answer == (200, 200) for answer in answers), answers  # never a refused request
        left = wait_until_gone(trees[0], 5)
        assert not left, f"left behind by the killed replica: {left}"
        log = said.read_text()
        assert f"The replica on port {port + 1} stopped (exit code -9)" in log and "started again" in log, log
        assert log.index("Opening every page once on each replica") < log.index(f"Private Estimation Lab: {nginx}")
        trees.append(process_tree(_replica_pid(port + 1)))  # the new replica (and its worker, once warmed)
    finally:
        os.killpg(serve.pid, signal.SIGINT)  # Ctrl+C: the supervisor stops nginx and the replicas
        serve.wait(30)
        left = [line for tree in trees for line in wait_until_gone(tree, 10)]
        for tree in trees:
            kill_left(tree)
    assert serve.returncode == 0
    assert all(_health(url) == 0 for url in [nginx, *replicas])
    assert not left, f"left behind after Ctrl+C: {left}"


def test_the_configuration_listens_on_loopback_with_cookie_affinity_and_websockets(tmp_path):
    config = nginx_config(8501, [8502, 8503], tmp_path)
    assert "listen 127.0.0.1:8501;" in config
    assert "hash $replica_key consistent;" in config and "ip_hash" not in config
    assert config.count("server 127.0.0.1:") == 2
    assert "proxy_set_header Upgrade $http_upgrade;" in config
    # the client's address for the app (trusted only from loopback), uploads up to the app's limit plus framing
    assert "proxy_set_header X-Real-IP $remote_addr;" in config
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in config
    assert f"client_max_body_size {UPLOAD_MB}m;" in config and UPLOAD_MB == 20
    app = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert app["server"].get("maxUploadSize", UPLOAD_MB) == UPLOAD_MB  # the app's limit, where it is set, is nginx's
    assert "proxy_request_buffering off;" in config
    with pytest.raises(ValueError, match="replicas must be an integer >= 1"):
        Deployment(0, 8501)
    with pytest.raises(ValueError, match="port must be in"):
        Deployment(2, 80)


def test_the_command_line_checks_the_public_url_and_opens_nginx_to_the_network_with_it(capsys):
    args = parse_args(["--replicas", "2"])
    assert (args.replicas, args.port, args.host, args.public_url) == (2, 8501, "127.0.0.1", None)
    args = parse_args(["--public-url", "HTTP://192.168.1.20:8501/"])
    assert (args.host, args.public_url) == ("0.0.0.0", "http://192.168.1.20:8501")
    args = parse_args(["--public-url=https://lab.example.edu/dp", "--host", "127.0.0.1", "--port", "9000"])
    assert (args.host, args.port, args.public_url) == ("127.0.0.1", 9000, "https://lab.example.edu/dp")
    for bad, words in [("192.168.1.20:8501", "(did you mean http://192.168.1.20:8501?)"),
                       ("http://localhost:8501", "not localhost (that names each phone itself)"),
                       ("http://192.168.1.20:8501/?eps=1", "without ?… or #…")]:
        with pytest.raises(SystemExit) as refused:
            parse_args(["--public-url", bad])
        said = " ".join(capsys.readouterr().err.split())  # argparse wraps its message
        assert refused.value.code == 2
        assert "error: argument --public-url: the public URL" in said and words in said
    with pytest.raises(ValueError, match="must start with http:// or https://"):
        Deployment(1, 8501, public_url="lab.example.edu")


def test_each_replica_is_given_the_public_url_and_never_a_stale_one(monkeypatch, tmp_path):
    spawned = {}
    monkeypatch.setattr(replicas_module, "spawn", lambda command, log, append=False, environment=None:
                        spawned.setdefault(command[command.index("--server.port") + 1], environment))
    monkeypatch.setenv(ENV, "http://stale.example:1")  # left in the teacher's shell from another day
    Deployment(1, 8501, logs=tmp_path, public_url="http://10.0.0.5:8501/")._spawn_replica(8502)
    Deployment(1, 8601, logs=tmp_path)._spawn_replica(8602)
    assert spawned["8502"][ENV] == "http://10.0.0.5:8501"
    assert ENV not in spawned["8602"] and spawned["8602"]["PATH"] == os.environ["PATH"]


def test_each_replica_is_given_the_deployments_environment_over_this_process(monkeypatch, tmp_path):
    spawned = {}
    monkeypatch.setattr(replicas_module, "spawn", lambda command, log, append=False, environment=None:
                        spawned.setdefault(command[command.index("--server.port") + 1], environment))
    monkeypatch.setenv("DPLAB_DATA_DIR", "/a/shared/folder")
    Deployment(1, 8501, logs=tmp_path, environment={"DPLAB_DATA_DIR": str(tmp_path / "own")})._spawn_replica(8502)
    assert spawned["8502"]["DPLAB_DATA_DIR"] == str(tmp_path / "own") and spawned["8502"]["PATH"] == os.environ["PATH"]


def test_every_replica_is_given_the_one_teacher_key(monkeypatch, tmp_path):
    spawned = {}
    monkeypatch.setattr(replicas_module, "spawn", lambda command, log, append=False, environment=None:
                        spawned.setdefault(command[command.index("--server.port") + 1], environment))
    monkeypatch.delenv(teacher_key.ENV, raising=False)  # started without ./lab.sh: the deployment makes one key
    made = Deployment(2, 8501, logs=tmp_path)
    for port in made.replica_ports:
        made._spawn_replica(port)
    keys = {spawned[str(port)][teacher_key.ENV] for port in made.replica_ports}
    assert keys == {made.teacher_key} and teacher_key.normalise(made.teacher_key)
    monkeypatch.setenv(teacher_key.ENV, "my-department-key-2026")  # set by whoever runs the lab: passed on as it is
    Deployment(1, 8601, logs=tmp_path)._spawn_replica(8602)
    assert spawned["8602"][teacher_key.ENV] == "my-department-key-2026"


def test_through_nginx_the_share_control_encodes_the_public_url_and_opens_by_keyboard(deployment: Deployment,
                                                                                     browser: Browser, screenshot_dir):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{deployment.url}/truncation-bias?eps=0.5&present=1", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.locator('[data-testid="stExpander"] summary', has_text="Share with the class: QR code and address").focus()
    page.keyboard.press("Enter")
    qr = page.locator("img.dplab-qr")
    expect(qr).to_be_visible(timeout=PAGE_TIMEOUT)
    assert qr.evaluate("image => image.complete && image.naturalWidth > 0")  # the SVG drew, from the page itself
    label = qr.get_attribute("alt")
    assert label.startswith(f"QR code of the address {PUBLIC}/truncation-bias?") and "eps=0.5" in label
    assert "present=" not in label
    expect(page.locator(".dplab-share-address")).to_have_text(f"{PUBLIC}/truncation-bias")
    box = qr.bounding_box()
    assert box["width"] >= 300 and box["width"] == pytest.approx(box["height"], abs=1)  # big on the projector
    assert page.locator('[data-testid="stAlertContentWarning"]').count() == 0
    page.screenshot(path=str(screenshot_dir / "share_public_url_projector.png"))
    page.close()


def test_every_page_opens_through_nginx_and_stays_on_one_replica(deployment: Deployment, browser: Browser):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    for info in PAGES:
        page.goto(f"{deployment.url}/{info.url_path}", timeout=PAGE_TIMEOUT)
        wait_until_rendered(page)
        expect(page.locator(ERROR_BOX)).to_have_count(0)
        assert page.locator(CHART).count() >= 1, info.title
    cookie = {c["name"]: c["value"] for c in context.cookies()}
    assert len(cookie.get(COOKIE, "")) == 32  # nginx's $request_id: 32 hex digits
    # The tab's websocket (one session) is on exactly one replica: the cookie's.
    home = int(replica_of(deployment, cookie[COOKIE]).rsplit(":", 1)[1])
    assert [connections(port) > 0 for port in deployment.replica_ports] == [port == home for port in
                                                                            deployment.replica_ports]
    context.close()


def replica_of(deployment: Deployment, cookie: str) -> str:
    """The replica (its loopback address, from nginx's X-Replica header) that serves a browser with ``cookie``."""
    request = urllib.request.Request(f"{deployment.url}/_stcore/health", headers={"Cookie": f"{COOKIE}={cookie}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["X-Replica"]


def test_the_cookie_decides_the_replica(deployment: Deployment):
    """Each cookie value always reaches the same replica, its websocket too, and visitors spread over both."""
    replicas = {f"127.0.0.1:{port}" for port in deployment.replica_ports}
    # Keys like nginx's own ($request_id: 32 random hex digits); 24 of them all on one replica: odds 2**-23.
    placement = {key: replica_of(deployment, key) for key in [hashlib.md5(bytes([i])).hexdigest() for i in range(24)]}
    assert set(placement.values()) == replicas, placement
    for key, replica in placement.items():
        assert replica_of(deployment, key) == replica
        with connect(f"ws://127.0.0.1:{deployment.port}/_stcore/stream", subprotocols=["streamlit"],
                     additional_headers={"Cookie": f"{COOKIE}={key}"}) as ws:
            assert ws.response.headers["X-Replica"] == replica


def test_a_dead_replica_leaves_its_tabs_reconnected_and_new_visitors_served(doomed: Deployment, browser: Browser):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.goto(f"{doomed.url}/truncation-bias?seed=7", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    home = doomed.replica_ports.index(int(replica_of(doomed, cookie).rsplit(":", 1)[1]))
    other = doomed.replica_ports[1 - home]
    before = connections(other)
    doomed.kill_replica(home)
    # The tab reconnects through nginx to the other replica (within Streamlit's retry time), and reruns its page
    # from the URL.
    for _ in range(60):
        if connections(other) > before:
            break
        page.wait_for_timeout(500)
    assert connections(other) > before, "the tab did not reconnect to the live replica within 30 s"
    wait_until_rendered(page)
    assert "seed=7" in page.url
    assert replica_of(doomed, cookie) == f"127.0.0.1:{other}"  # nginx passes the cookie on to the live one
    expect(page.locator(ERROR_BOX)).to_have_count(0)
    # A new visitor is served by the live replica.
    fresh = browser.new_context().new_page()
    fresh.goto(f"{doomed.url}/", timeout=PAGE_TIMEOUT)
    wait_until_rendered(fresh)
    fresh.context.close()
    context.close()


def test_with_no_replica_left_a_visitor_reads_that_the_lab_is_restarting(doomed: Deployment):
    for index in range(len(doomed.replicas)):
        doomed.kill_replica(index)
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(f"{doomed.url}/truncation-bias", timeout=10)
    assert answer.value.code == 502
    text = answer.value.read().decode()
    assert "Private Estimation Lab is restarting" in text and 'http-equiv="refresh" content="5"' in text


def test_stopping_waits_for_all_processes_together_then_kills_the_stubborn(monkeypatch):
    """Ctrl+C stops nginx and every replica at once: three processes that ignore SIGTERM are killed after one grace
    period in all (here 1 s), not one per process."""
    import sys

    from deploy import replicas
    monkeypatch.setattr(replicas, "STOP_SECONDS", 1.0)
    stubborn = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(1, flush=True); "
                "time.sleep(60)")
    processes = [subprocess.Popen([sys.executable, "-c", stubborn], stdout=subprocess.PIPE, start_new_session=True)
                 for _ in range(3)]
    for process in processes:
        process.stdout.readline()  # its handler is in place
    started = time.monotonic()
    replicas.stop_groups(processes, signal.SIGTERM)
    assert time.monotonic() - started < 2.5
    assert [process.returncode for process in processes] == [-signal.SIGKILL] * 3


# A stand-in replica for the supervisor's tests: it starts a helper that ignores SIGTERM, as multiprocessing's resource
# tracker does, which writes its process id to argv[1] once its handler is in place.
FAKE_REPLICA = """\
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import os, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                  "open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); os.rename(sys.argv[1] + '.tmp', "
                  "sys.argv[1]); time.sleep(120)", sys.argv[1]])
time.sleep(120)
"""


def _helper(pid_file: Path, seconds: float = 20) -> Tree:
    """The stand-in replica's helper, once it has written its id."""
    deadline = time.monotonic() + seconds
    while not pid_file.exists():
        assert time.monotonic() < deadline, "the stand-in replica's helper did not start"
        time.sleep(0.05)
    return process_tree(int(pid_file.read_text()))


def test_stopping_ends_every_process_of_a_replica_not_only_the_replica(monkeypatch, tmp_path):
    """Ctrl+C: a replica's helper that ignores SIGTERM is killed after the grace period (here 1 s), with its
    replica."""
    monkeypatch.setattr(replicas_module, "STOP_SECONDS", 1.0)
    replica = replicas_module.spawn([sys.executable, "-c", FAKE_REPLICA, str(tmp_path / "helper")],
                                     tmp_path / "replica.log")
    helper = _helper(tmp_path / "helper")
    try:
        started = time.monotonic()
        replicas_module.stop_groups([replica], signal.SIGTERM)
        assert time.monotonic() - started < 3.5
        assert replica.returncode == -signal.SIGTERM
        assert not still_running(helper), helper
    finally:
        kill_left(helper)
        replicas_module.stop_groups([replica], signal.SIGKILL)


def test_the_supervisor_stops_what_a_dead_replica_left_before_starting_it_again(monkeypatch, tmp_path):
    """A replica killed alone (a crash, the out-of-memory killer) leaves a helper that ignores SIGTERM: the supervisor
    ends the replica's whole process group before it starts the replica again."""
    monkeypatch.setattr(replicas_module, "FIRST_PAUSE", 0.5)
    monkeypatch.setattr(replicas_module, "STOP_SECONDS", 1.0)
    monkeypatch.setattr(replicas_module, "_warm_quietly", lambda url: None)  # nothing to warm
    pid_files = iter(tmp_path / f"helper-{i}" for i in range(10))
    monkeypatch.setattr(Deployment, "_spawn_replica", lambda self, port, append=False: replicas_module.spawn(
        [sys.executable, "-c", FAKE_REPLICA, str(next(pid_files))], tmp_path / "replica.log", append))
    deployment = Deployment(1, _free_block(2), logs=tmp_path)  # stand-ins for the replica and nginx
    deployment.replicas = [deployment._spawn_replica(deployment.replica_ports[0])]
    deployment.nginx = replicas_module.spawn([sys.executable, "-c", "import time; time.sleep(120)"],
                                              tmp_path / "nginx.log")
    said: list[str] = []
    supervisor = threading.Thread(target=deployment.supervise, args=(said.append, 0.05), daemon=True)
    helpers = [_helper(tmp_path / "helper-0")]
    try:
        supervisor.start()
        os.kill(deployment.replicas[0].pid, signal.SIGKILL)  # the replica alone, not its group
        deadline = time.monotonic() + 10
        while not any("started again" in line for line in said):
            assert time.monotonic() < deadline, said
            time.sleep(0.05)
        helpers.append(_helper(tmp_path / "helper-1"))
        assert not wait_until_gone(helpers[0], 2), "the dead replica's helper outlived it"
        assert "stopped (exit code -9)" in said[0]
    finally:
        replicas_module.stop_groups([deployment.nginx], signal.SIGTERM)  # the supervisor returns once nginx is gone
        supervisor.join(10)
        deployment.stop()
        for helper in helpers:
            kill_left(helper)
    assert not supervisor.is_alive()


@pytest.fixture
def nginx_to_a_stub(tmp_path):
    """nginx with the lab's configuration in front of a stand-in replica that records each request reaching it (its
    method, headers, the body bytes it received, whether whole) and answers a whole one with 200; nginx's runtime
    folder private (mode 700), as in a home folder. Yields nginx's port and the list of requests."""
    received: list[dict] = []

    class Stub(http.server.BaseHTTPRequestHandler):
        def do_request(self) -> None:
            request = {"method": self.command, "headers": dict(self.headers), "size": 0, "whole": False}
            received.append(request)
            length = int(self.headers.get("Content-Length") or 0)
            try:
                if self.headers.get("Transfer-Encoding") == "chunked":
                    while chunk := int(self.rfile.readline(), 16):
                        request["size"] += len(self.rfile.read(chunk + 2)) - 2
                    self.rfile.readline()
                else:
                    request["size"] = len(self.rfile.read(length))
            except ValueError:  # cut off by nginx
                return
            if request["size"] < length:
                return
            request["whole"] = True
            answer = json.dumps({"body": request["size"]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        do_GET = do_PUT = do_POST = do_request

        def log_message(self, *args) -> None:
            pass

    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    tmp_path.chmod(0o700)
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / kind).mkdir()
    port = _free_block(1)
    (tmp_path / "nginx.conf").write_text(nginx_config(port, [stub.server_address[1]], tmp_path))
    nginx = replicas_module.spawn([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e",
                                    str(tmp_path / "error.log"), "-g", "daemon off;"], tmp_path / "nginx.log")
    try:
        deadline = time.monotonic() + 20
        while _free(port):
            assert nginx.poll() is None and time.monotonic() < deadline, (tmp_path / "nginx.log").read_text()
            time.sleep(0.05)
        yield port, received
    finally:
        replicas_module.stop_groups([nginx], signal.SIGTERM)
        stub.shutdown()
        stub.server_close()


def _put(port: int, size: int, send: int | None = None, chunked: bool = False) -> tuple[int, str | None]:
    """PUT an upload of ``size`` bytes through nginx (only the headers when ``send`` is 0, the body in 1 MiB chunks
    when ``chunked``); nginx's status and ``X-Replica`` header."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        if chunked:
            body = (bytes(min(2**20, size - start)) for start in range(0, size, 2**20))
            connection.request("PUT", "/_stcore/upload_file/session/file", body=body, encode_chunked=True)
        else:
            connection.putrequest("PUT", "/_stcore/upload_file/session/file")
            connection.putheader("Content-Length", str(size))
            connection.endheaders()
            if send is None or send:
                connection.send(bytes(size if send is None else send))
        answer = connection.getresponse()
        answer.read()
        return answer.status, answer.getheader("X-Replica")
    finally:
        connection.close()


def test_nginx_refuses_an_upload_above_the_limit_before_a_replica_and_passes_the_client_address(nginx_to_a_stub):
    """Through a real nginx: a body of the app's 20 MiB (the figure at which the app refuses one too) reaches the
    replica whole (streamed: no temporary file, which nginx's workers could not write in a private folder
    under root); one byte more is refused by nginx with 413 on its Content-Length (what a browser's upload says), and
    no replica sees a byte of it; a chunked body (no length said first) is refused once past the limit, never whole.
    The replica reads the client's address in X-Real-IP, and X-Forwarded-For ends with it."""
    port, received = nginx_to_a_stub
    limit = UPLOAD_MB * 2**20
    status, replica = _put(port, limit)
    assert status == 200 and replica and received[-1]["whole"] and received[-1]["size"] == limit, (status, replica)
    count = len(received)
    assert _put(port, limit + 1, send=0) == (413, None)
    assert len(received) == count  # the replica never saw the request
    assert _put(port, limit + 2**20, chunked=True)[0] == 413
    assert not any(request["whole"] for request in received[count:])
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"X-Forwarded-For": "203.0.113.9"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    headers = received[-1]["headers"]
    assert headers["X-Real-IP"] == "127.0.0.1"
    assert headers["X-Forwarded-For"] == "203.0.113.9, 127.0.0.1"  # what the client said, then nginx's own entry


def _get(url: str, encoding: str) -> tuple[dict[str, str], bytes]:
    """The headers (names in lower case) and the body, as sent, of a GET of ``url`` accepting ``encoding``."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return {name.lower(): value for name, value in answer.headers.items()}, answer.read()


def test_static_files_leave_nginx_compressed_once_and_immutable_and_the_page_gzipped(deployment: Deployment):
    """Streamlit's scripts and styles come from nginx precompressed (brotli to a browser that asks for it, else gzip,
    else as they are), byte for byte Streamlit's own once decoded, cached for a year; the HTML page is gzipped."""
    headers, page = _get(f"{deployment.url}/truncation-bias", "gzip")
    assert headers["content-encoding"] == "gzip"
    page = gzip.decompress(page).decode()
    scripts = re.findall(r'(?:src|href)="\./(static/(?:js|css)/[^"]+)"', page)
    assert len(scripts) >= 5, page
    # The chart module is named in the head, once, for the browser to fetch at once; it is Streamlit's own file.
    chart = static_files.chart_module()
    assert page.count(f'<link rel="modulepreload" crossorigin href="./{chart}">') == 1
    assert page.index(chart) < page.index("</head>") and chart in scripts
    raw = sent = 0
    for script in scripts:
        original = (static_files.SOURCE / script).read_bytes()
        for encoding, decode in [("gzip, deflate, br", brotli.decompress), ("gzip", gzip.decompress),
                                 ("", lambda body: body)]:
            headers, body = _get(f"{deployment.url}/{script}", encoding)
            assert headers.get("content-encoding", "") == encoding.rpartition(" ")[2].strip(",")
            assert decode(body) == original
            assert headers["content-type"] == ("text/css" if script.endswith(".css") else "application/javascript")
            assert headers["cache-control"] == "public, immutable, max-age=31536000"
            assert "X-Replica".lower() not in headers  # sent by nginx itself, not asked of a replica
        raw, sent = raw + len(original), sent + len(_get(f"{deployment.url}/{script}", "br")[1])
    assert sent < 0.3 * raw, (sent, raw)
    # A file nginx does not hold is asked of a replica (Streamlit answers it as before).
    headers, _ = _get(f"{deployment.url}/static/js/no-such-file.js", "gzip")
    assert "x-replica" in headers


def test_the_compressed_copy_holds_every_text_file_beside_its_gzip_and_brotli():
    """Made once (Deployment.start made it): every compressible file of Streamlit's static folder is there with a
    ``.gz`` and a ``.br`` that decode to it, readable by every user (nginx's workers); fonts and images as they are."""
    copy = static_files.compressed_copy()
    assert copy == static_files.compressed_copy()  # found, not built again
    texts = [path for path in static_files.SOURCE.rglob("*") if path.suffix in static_files.COMPRESSIBLE]
    assert len(texts) > 100
    for path in texts:
        original, kept = path.read_bytes(), copy / path.relative_to(static_files.SOURCE)
        assert kept.read_bytes() == original
        assert gzip.decompress(kept.with_name(kept.name + ".gz").read_bytes()) == original
        assert brotli.decompress(kept.with_name(kept.name + ".br").read_bytes()) == original
        assert kept.stat().st_mode & 0o004 and kept.with_name(kept.name + ".br").stat().st_mode & 0o004
    font = next(static_files.SOURCE.rglob("*.woff2"))
    kept = copy / font.relative_to(static_files.SOURCE)
    assert kept.read_bytes() == font.read_bytes() and not kept.with_name(kept.name + ".gz").exists()


def test_the_configuration_serves_static_files_precompressed_with_brotli_only_when_its_module_is_there(tmp_path):
    plain = nginx_config(8501, [8502], tmp_path)
    assert "gzip on;" in plain and "gzip_proxied any;" in plain and "location /static/" not in plain
    static = nginx_config(8501, [8502], tmp_path, static=tmp_path / "copy")
    assert f"root {tmp_path / 'copy'};" in static and "gzip_static on;" in static
    assert "brotli" not in static and "try_files $uri @lab;" in static
    module = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
    both = nginx_config(8501, [8502], tmp_path, static=tmp_path / "copy", brotli_module=module)
    assert both.startswith(f"load_module {module};\n") and "brotli_static on;" in both
    assert both.count("proxy_pass http://lab;") == 2  # the fallback passes a request on as / does
    assert "sub_filter" not in both
    named = nginx_config(8501, [8502], tmp_path, static=tmp_path / "copy", preload="static/js/PlotlyChart.x.js")
    assert """sub_filter '</head>' '<link rel="modulepreload" crossorigin href="./static/js/PlotlyChart.x.js">""" \
        """</head>';""" in named and 'proxy_set_header Accept-Encoding "";' in named
