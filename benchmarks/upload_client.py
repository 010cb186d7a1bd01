"""A student's upload as a browser sends it, without a browser (docs/testing.md §8): a websocket session on the
real-data page, the file sent over HTTP to Streamlit's upload route, then the rerun that gives it to the page.

A browser tab choosing a file in ``st.file_uploader`` asks its session for an upload address (``file_urls_request``
on the websocket; the answer, ``file_urls_response``, names a file id and ``/_stcore/upload_file/<session>/<file>``),
PUTs the file there as ``multipart/form-data`` with the XSRF token of its cookie in the ``X-Xsrftoken`` header, then
sends ``rerun_script`` with the uploader's state naming that file. :class:`UploadTab` does the same, step by step, so
a test can also send what no browser sends (a body beyond the limit, files no widget names, a body without a
``Content-Length``). :func:`uploaded_bytes` reads what the server's upload manager holds from ``/_stcore/metrics``.

Used by ``tests/e2e/test_upload_limits.py`` (the limits of ``ui.upload_limits`` on a real server) and
``benchmarks/upload_memory.py`` (a 1,000,000-row file read by one session, and by five at once).
"""

from __future__ import annotations

import http.client
import itertools
import re
import time
import urllib.request
import uuid
from collections.abc import Iterable

from interaction_latency import Run, Session
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import FileUploaderState, FileURLs, FileURLsRequest, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

PAGE, QUERY = "real-data", "data=upload"  #: the page holding the file uploader, opened on "your own CSV file"
XSRF_COOKIE = "_streamlit_xsrf"  #: Streamlit's double-submit cookie (its value goes in the X-Xsrftoken header)
_METRIC = re.compile(r'^cache_memory_bytes\{cache_type="UploadedFileManager"[^}]*\}\s+(\d+)', re.MULTILINE)


def xsrf_token(base: str) -> str:
    """The XSRF cookie the server at ``base`` (``http://host:port``) sets, as a browser receives it with its first
    answer (here the health check's)."""
    with urllib.request.urlopen(f"{base}/_stcore/health", timeout=10) as answer:
        cookies = answer.headers.get_all("Set-Cookie") or []
    return next(cookie.split(";")[0].split("=", 1)[1] for cookie in cookies if cookie.startswith(f"{XSRF_COOKIE}="))


def uploaded_bytes(base: str) -> int:
    """The bytes the server's upload manager holds for every session together (``/_stcore/metrics``, which Streamlit
    recomputes at most every 5 s); 0 when it holds no file."""
    with urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=10) as answer:
        found = _METRIC.search(answer.read().decode())
    return int(found.group(1)) if found else 0


class _Tab(Session):
    """:class:`interaction_latency.Session` that also keeps the session's id (``new_session``)."""

    session_id = ""

    def _take(self, message: ForwardMsg, run: Run) -> bool:
        if message.WhichOneof("type") == "new_session" and message.new_session.initialize.session_id:
            self.session_id = message.new_session.initialize.session_id
        return super()._take(message, run)


class UploadTab:
    """One browser tab on a page with the file uploader at ``base`` (``http://host:port``), uploading files; a context
    manager that closes the tab (its websocket) on exit, as :meth:`close` does earlier.

    Parameters
    ----------
    base : str
        The server's address.
    timeout : float
        Seconds any one exchange (a rerun, a request) may take.
    page, query : str
        The page opened (its URL path) and its query string: the real-data page on "your own CSV file" by default.
    """

    def __init__(self, base: str, timeout: float = 120.0, page: str = PAGE, query: str = QUERY) -> None:
        self.base, self.timeout = base, timeout
        self.host, self.port = base.removeprefix("http://").split(":")
        self.token = xsrf_token(base)
        self.ws = connect(f"ws://{self.host}:{self.port}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                          open_timeout=timeout, ping_interval=None, additional_headers={
                              "Cookie": f"{XSRF_COOKIE}={self.token}"})
        self.tab = _Tab(self.ws, page)
        self.tab.query = query
        self.uploader = ""  # the file uploader's widget id, once the page drew it

    @property
    def session_id(self) -> str:
        """The session's id (in every upload address)."""
        return self.tab.session_id

    def open(self) -> Run:
        """The page's first run (no file yet); keeps the uploader's widget id."""
        run = self.tab.rerun([], self.timeout)
        self.uploader = next(proto.id for name, proto in run.elements if name == "file_uploader")
        return run

    def address(self, name: str = "data.csv") -> FileURLs:
        """An upload address for a file called ``name``, asked of the session as a browser asks it."""
        request_id = uuid.uuid4().hex
        self.ws.send(BackMsg(file_urls_request=FileURLsRequest(request_id=request_id, file_names=[name],
                                                               session_id=self.session_id)).SerializeToString())
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            message = ForwardMsg.FromString(self.ws.recv(timeout=left))
            if message.WhichOneof("type") == "file_urls_response" and \
                    message.file_urls_response.response_id == request_id:
                return message.file_urls_response.file_urls[0]
        raise TimeoutError("no file_urls_response")

    def put(self, data: bytes | Iterable[bytes], urls: FileURLs, name: str = "data.csv", *,
            size: int | None = None) -> int:
        """PUT ``data`` to the upload address ``urls`` as a browser sends a file; the answer's HTTP status (204:
        stored; 413: too large).

        ``data`` is the file's bytes, or its chunks (sent as they come, e.g. slowly): then ``size`` is the file's size,
        sent in the ``Content-Length`` as a browser does, or None to send the body chunked, without one (what no
        browser does, but any script can). A server that refuses the body before it has all of it may close the
        connection meanwhile: the status it answered is still read.
        """
        boundary = uuid.uuid4().hex
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                "Content-Type: text/csv\r\n\r\n").encode()
        tail = f"\r\n--{boundary}--\r\n".encode()
        if isinstance(data, bytes):
            data, size = [data], len(data)
        connection = http.client.HTTPConnection(self.host, int(self.port), timeout=self.timeout)
        try:
            connection.putrequest("PUT", urls.upload_url)
            connection.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
            connection.putheader("X-Xsrftoken", self.token)
            connection.putheader("Cookie", f"{XSRF_COOKIE}={self.token}")
            if size is None:
                connection.putheader("Transfer-Encoding", "chunked")
            else:
                connection.putheader("Content-Length", str(len(head) + size + len(tail)))
            connection.endheaders()
            try:
                for part in itertools.chain([head], data, [tail]):  # the chunks as they come
                    connection.send(part if size is not None else b"%x\r\n%s\r\n" % (len(part), part))
                if size is None:
                    connection.send(b"0\r\n\r\n")  # the last chunk
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused mid-body: the answer is already on its way
            return connection.getresponse().status
        finally:
            connection.close()

    def choose(self, urls: FileURLs, size: int, name: str = "data.csv") -> Run:
        """The rerun a browser sends once the file is stored: the uploader's state names it."""
        info = UploadedFileInfo(name=name, size=size, file_id=urls.file_id, file_urls=urls)
        state = WidgetState(id=self.uploader, file_uploader_state_value=FileUploaderState(uploaded_file_info=[info]))
        return self.tab.rerun([state], self.timeout)

    def rerun(self, states: list[WidgetState]) -> Run:
        """A rerun with the widget ``states`` (the others at their defaults), as a browser sends a change."""
        return self.tab.rerun(states, self.timeout)

    def upload(self, data: bytes, name: str = "data.csv") -> Run:
        """Choose ``data`` in the uploader as a browser does: an address, the PUT, the rerun."""
        urls = self.address(name)
        status = self.put(data, urls, name)
        if status != 204:
            raise RuntimeError(f"the upload was answered {status}")
        return self.choose(urls, len(data), name)

    def close(self) -> None:
        """Close the tab (its websocket)."""
        self.ws.close()

    def __enter__(self) -> UploadTab:
        self.ws.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.__exit__(*exc)
