"""Uploads bounded where the server receives them (ui.upload_limits), on a real `streamlit run app.py`: uploads sent
over HTTP as a browser sends them (benchmarks/upload_client.py), what the server's upload manager holds read from
``/_stcore/metrics``, its memory and open files from ``/proc``.

The server keeps a closed tab's session ``server.disconnectedSessionTTL`` seconds; here 4, so a closed tab's file is
dropped after 2 s (ui.upload_limits.KEPT_SECONDS, at most half that) and the test takes seconds, not minutes.
"""

import os
import sys
import threading
import time
import tomllib

import pytest
from conftest import APP_DIR
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(APP_DIR / "benchmarks"))
import load  # noqa: E402
from upload_client import UploadTab, uploaded_bytes  # noqa: E402

from ui.upload import MAX_MEGABYTES  # noqa: E402
from ui.upload_limits import LIMIT_BYTES  # noqa: E402

MB = 1024 * 1024
ROWS = b"income,age\n" + b"".join(b"%d,%d\n" % (1000 + 37 * i % 5000, 18 + i % 70) for i in range(20_000))


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL", "4")
    port = load.free_port()
    process = load.start_server(port, tmp_path / "server.log")
    yield f"http://127.0.0.1:{port}", process.pid
    load.stop_server(process)


def held(base: str, expected: int, timeout: float = 20.0) -> int:
    """The bytes the upload manager holds, once they equal ``expected`` (the metrics are recomputed every 5 s), or
    what it holds after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while (found := uploaded_bytes(base)) != expected and time.monotonic() < deadline:
        time.sleep(1.0)
    return found


def peak_growth(pid: int, action) -> float:
    """Run ``action``; the growth (MB) of the server's peak resident memory meanwhile (``VmHWM``, reset first)."""
    def status(key: str) -> float:
        with open(f"/proc/{pid}/status") as lines:
            return next(int(line.split()[1]) for line in lines if line.startswith(key)) / 1024

    with open(f"/proc/{pid}/clear_refs", "w") as refs:
        refs.write("5")  # the peak starts again from the current resident memory
    before = status("VmRSS")
    action()
    return status("VmHWM") - before


def test_the_server_and_the_page_have_one_limit():
    """``server.maxUploadSize`` is the page's MAX_MEGABYTES, in Streamlit's megabytes of 1,048,576 bytes: the byte
    figure nginx's client_max_body_size must match."""
    with open(APP_DIR / ".streamlit" / "config.toml", "rb") as file:
        assert tomllib.load(file)["server"]["maxUploadSize"] == MAX_MEGABYTES == 20
    assert LIMIT_BYTES == 20_971_520


def test_a_body_beyond_the_limit_is_refused_by_the_server_and_never_held(server):
    base, pid = server
    with UploadTab(base) as tab:
        tab.open()
        too_big = b"7" * (3 * LIMIT_BYTES)  # 63 MB
        statuses = {}
        growth = peak_growth(pid, lambda: statuses.update(told=tab.put(too_big, tab.address())))
        assert statuses["told"] == 413 and growth < 10, growth  # refused on its Content-Length, before its body
        chunks = (too_big[start:start + MB] for start in range(0, len(too_big), MB))
        growth = peak_growth(pid, lambda: statuses.update(streamed=tab.put(chunks, tab.address())))
        assert statuses["streamed"] == 413 and growth < 40, growth  # cut off once 21 MiB had come, not 63 MB
        assert held(base, 0) == 0
        under = b"x\n" + b"1\n" * ((LIMIT_BYTES - 4096) // 2)  # 20 MiB less 4 KiB: under the limit, framing too
        assert tab.put(under, tab.address()) == 204
        assert held(base, len(under)) == len(under)


def test_a_file_of_several_mebibytes_never_touches_the_disk(server):
    """Starlette spools a part of more than 1 MiB to a temporary file unless ui.upload_limits raised its threshold:
    during a slow 3 MB upload, the server opens no file (a temporary file shows as ``/tmp/#123 (deleted)``)."""
    base, pid = server
    opened: set[str] = set()

    def slowly():
        for _ in range(30):  # 30 chunks of 100 kB, 50 ms apart
            yield b"1,2\n" * 25_000
            for descriptor in os.listdir(f"/proc/{pid}/fd"):
                try:
                    opened.add(os.readlink(f"/proc/{pid}/fd/{descriptor}"))
                except OSError:
                    continue
            time.sleep(0.05)

    with UploadTab(base) as tab:
        tab.open()
        assert tab.put(slowly(), tab.address(), size=3_000_000) == 204
        assert held(base, 3_000_000) == 3_000_000
    files = {target for target in opened if target.startswith("/") and not target.startswith("/dev/")}
    assert not [target for target in files if "(deleted)" in target or not target.endswith("server.log")], files


def test_a_tab_keeps_only_its_newest_file(server):
    base, _ = server
    with UploadTab(base) as tab, UploadTab(base) as other:
        tab.open()
        assert not tab.upload(ROWS, "first.csv").failed
        for size in (300_000, 200_000, 100_000):  # files no widget names, as a script may send
            assert tab.put(b"x\n" + b"5\n" * size, tab.address()) == 204
        assert held(base, 200_002) == 200_002  # the last one only
        other.open()  # another tab's file is its own
        assert not other.upload(ROWS).failed
        assert held(base, 200_002 + len(ROWS)) == 200_002 + len(ROWS)


def test_a_small_file_keeps_the_data_file_and_a_new_data_file_drops_both(server):
    """A progress file or a receipt (at most 1 MiB) loaded beside the data file: the data file stays; a second small
    file replaces the first; a new data file replaces them all."""
    base, _ = server
    data = b"x\n" + b"5\n" * 600_000  # 1.2 MB
    progress = [b"{}" + b" " * size for size in (1_000, 2_000)]
    with UploadTab(base) as tab:
        tab.open()
        assert tab.put(data, tab.address()) == 204
        for small in progress:
            assert tab.put(small, tab.address("dp-lab-progress.json"), "dp-lab-progress.json") == 204
        assert held(base, len(data) + len(progress[1])) == len(data) + len(progress[1])
        assert tab.put(data, tab.address()) == 204
        assert held(base, len(data)) == len(data)


def test_choosing_a_bundled_data_set_drops_the_file(server):
    base, _ = server
    with UploadTab(base) as tab:
        tab.open()
        run = tab.upload(ROWS)
        assert not run.failed and held(base, len(ROWS)) == len(ROWS)
        radio = next(proto for name, proto in run.elements if name == "radio" and proto.id.endswith("-w_data"))
        assert not tab.rerun([WidgetState(id=radio.id, string_value="Household incomes (Engel 1857)")]).failed
        assert held(base, 0) == 0


def test_a_closed_tab_releases_its_file_on_a_quiet_server(server):
    """Streamlit alone forgot a closed tab's session after its time to live but left its file in memory until another
    session ended (on a quiet server, for ever); here it goes after KEPT_SECONDS (2 s with a 4 s time to live)."""
    base, _ = server
    with UploadTab(base) as first, UploadTab(base) as second:
        for tab in (first, second):
            tab.open()
        uploads = [threading.Thread(target=tab.upload, args=(ROWS,)) for tab in (first, second)]
        for upload in uploads:
            upload.start()
        for upload in uploads:
            upload.join()
        assert held(base, 2 * len(ROWS)) == 2 * len(ROWS)
        first.close()
        assert held(base, len(ROWS)) == len(ROWS)  # the open tab keeps its file
        second.close()
        assert held(base, 0) == 0  # no session arrives or ends meanwhile
