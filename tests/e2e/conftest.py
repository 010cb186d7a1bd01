"""End-to-end fixtures: a real `streamlit run` server and Debian's /usr/bin/chromium driven by Playwright.

`playwright install` cannot download a browser here, so the launch points at the system chromium.
Screenshots of every page go to $SCREENSHOT_DIR (default: artifacts/screenshots).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

APP_DIR = Path(__file__).resolve().parents[2]
if str(APP_DIR) not in sys.path:  # the tests read the page registry (registry.py, at the repo root)
    sys.path.insert(0, str(APP_DIR))
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# streamlit/streamlit#7074: a deep link to a sub-page first probes <page>/_stcore/... and gets a 404.
BENIGN_CONSOLE_URLS = ("/_stcore/health", "/_stcore/host-config")


def pytest_collection_modifyitems(items):
    for item in items:
        if "e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_healthy(url: str, process: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            raise RuntimeError(f"streamlit did not become healthy:\n{log.read()}")
        time.sleep(0.1)


@contextmanager
def running_server(log_dir: Path, app_dir: Path = APP_DIR) -> Iterator[str]:
    """A fresh `streamlit run app.py` in ``app_dir`` on a free loopback port. Yields its URL as soon as it is
    healthy (no page has been requested from it yet); stops it (its own process group only) on exit."""
    port = _free_port()
    with open(log_dir / "server.log", "w+") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none", "--server.runOnSave", "false"],
            cwd=app_dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_healthy(url, process, log)
            yield url
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory):
    """One server shared by the tests that do not need a fresh one."""
    with running_server(tmp_path_factory.mktemp("streamlit")) as url:
        yield url


@pytest.fixture
def fresh_server(tmp_path):
    """A server of the test's own that no one has visited yet (its URL): for what only a first request shows."""
    with running_server(tmp_path) as url:
        yield url


def keep_teacher_key(context, base_url: str) -> None:
    """Make ``context`` the teacher's browser: it keeps what typing the lab's teacher key keeps (the key's token as
    the ``dplab_teacher`` cookie, classroom.teacher), so ``?teacher=1`` opens the teacher view at once. The servers
    of the tests share the test process's DPLAB_TEACHER_KEY (tests/conftest.py); test_class_poll_browser types it."""
    from classroom import teacher_key
    context.add_cookies([{"name": "dplab_teacher", "value": teacher_key.browser_token(), "url": base_url}])


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url(streamlit_server):
    return streamlit_server


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1000}}


@pytest.fixture(scope="session")
def screenshot_dir():
    path = Path(os.environ.get("SCREENSHOT_DIR", APP_DIR / "artifacts" / "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def console_errors(page):
    errors = []

    def record(message):
        url = message.location.get("url") or ""
        if message.type == "error" and not url.endswith(BENIGN_CONSOLE_URLS):
            errors.append(f"{message.text} @ {url}")

    page.on("console", record)
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    return errors
