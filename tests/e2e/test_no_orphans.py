"""No orphan processes: a Streamlit server's sweep worker and multiprocessing's resource tracker die with it, however
it dies (here SIGKILL, which no handler sees). ``test_replicas.py`` checks the same under ``./lab.sh serve``, and
``tests/app/test_progressive.py`` the worker alone.
"""

import os
import signal
import subprocess
import sys
import time

from conftest import APP_DIR, _free_port, _wait_until_healthy

from deploy.warm import _open
from tests.processes import Tree, kill_left, process_tree, sweep_helpers, wait_until_gone


def test_a_bare_streamlit_server_killed_leaves_no_worker_behind(tmp_path):
    """``./lab.sh app`` (``streamlit run app.py``) killed with SIGKILL: its sweep worker gets the parent-death signal
    and the resource tracker, its pipe closed, exits. The worker is started by the first visit's script run, whose
    thread then ends: the worker must outlive that thread (Linux sends the signal when the parent *thread* exits)."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with (tmp_path / "server.log").open("w+") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port",
             str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=APP_DIR, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "DPLAB_QUICK_SECONDS": "0.2"})  # the app's own setting: the worker is a process
        tree: Tree = {}
        try:
            _wait_until_healthy(url, server, log)
            _open(url.replace("http", "ws") + "/_stcore/stream", "", "", time.monotonic() + 120)  # the first visit
            time.sleep(1.0)  # its script thread has ended
            tree = process_tree(server.pid)
            workers, trackers = sweep_helpers(tree)
            assert len(workers) == 1 and len(trackers) == 1, tree
            os.kill(server.pid, signal.SIGKILL)
            server.wait(10)
            left = wait_until_gone(tree, 10)
            assert not left, f"left behind by the killed server: {left}"
        finally:
            kill_left(tree)
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(10)
