"""Uploads bounded where the server receives them: their size, in memory only, one file per tab, gone after the tab.

Streamlit 1.67 (its Starlette server) receives a file chosen in ``st.file_uploader`` at
``PUT /_stcore/upload_file/<session id>/<file id>`` (``multipart/form-data``, for a session whose websocket is open)
and keeps its bytes in ``MemoryUploadedFileManager``: a dictionary of each session's files, emptied when the session
is shut down, or when the browser deletes a file. Left alone, any number of files per session (each up to
``server.maxUploadSize``, 200 MB by default) were kept, files no widget uses included, and a closed tab's files
stayed until Streamlit happened to shut its session down: it keeps a disconnected session for
``server.disconnectedSessionTTL`` (120 s) so that a dropped connection can resume, then forgets it without shutting it
down, and its files went only when another session's end made Streamlit reap it and Python collect it (on a quiet
server, never). The bounds:

* **Size**: ``server.maxUploadSize = 20`` in ``.streamlit/config.toml``, :data:`ui.upload.MAX_MEGABYTES`, in
  Streamlit's megabytes of 1,048,576 bytes. The route answers 413 to a request whose ``Content-Length`` is above
  :data:`LIMIT_BYTES` (20,971,520) before reading its body; to a body sent without one (chunked) once
  :data:`LIMIT_BYTES` plus a 1 MiB framing margin has arrived; to a parsed file above :data:`LIMIT_BYTES`. The page's
  uploader says the same 20 MB (the browser checks 20,000,000 bytes, or 20,971,520 on Windows) and the reader refuses
  more than 20,000,000 bytes with a message.
* **In memory only**: Starlette's multipart parser spools a file of more than 1 MiB to an unnamed temporary file in
  ``$TMPDIR`` (``tempfile.SpooledTemporaryFile``), on disk; its threshold is raised above the largest body the route
  accepts, so an upload goes from the socket to the manager in memory.
* **One file per tab**, and one small one: the lab's data uploader holds one file, so when a session's file arrives,
  that session's earlier files are dropped; a file of at most :data:`SMALL_BYTES` (1 MiB: a progress file or a
  receipt, :mod:`classroom.check_yourself`) drops only the earlier small ones, so loading one keeps the data file
  (a browser replacing its file deletes the old one itself; a script need not). The page drops the session's files
  when its uploader no longer holds one (:func:`drop_session_files`, from :mod:`ui.upload`).
* **Gone after the tab**: a session that received a file and whose websocket has been gone for :data:`KEPT_SECONDS`
  is closed (``Runtime.clear_user_info_for_session``: Streamlit's thread-safe way to close a stored session on its
  event loop), within the half second after; its file, its session state and the columns read from the file go with
  it. A closed tab's websocket ends at once; a connection lost without a close (a phone going offline) is noticed
  by Streamlit's pings within a minute (30 s apart, 30 s to answer).

:func:`bound_uploads` installs the last three once per process; ``app.py`` calls it first on every run, so before any
page has drawn an uploader: every student's file is bounded. A script that uploads to a fresh server before any page
has run is bounded by the size alone.
"""

from __future__ import annotations

import threading
import time
from typing import cast

from streamlit import config
from streamlit.runtime import Runtime
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

__all__ = ["LIMIT_BYTES", "SMALL_BYTES", "KEPT_SECONDS", "bound_uploads", "drop_session_files"]

LIMIT_BYTES = 20 * 1024 * 1024  #: the largest upload the server takes: ``server.maxUploadSize`` (20) MiB
SMALL_BYTES = 1024 * 1024  #: a file this small (a progress file, a receipt) drops only the earlier small files
#: How long a closed tab's file waits for the tab to come back: under Streamlit's 120 s (at most half
#: ``server.disconnectedSessionTTL``), so that the session is still stored, and its state released, when it is closed.
KEPT_SECONDS = 60.0
_FRAMING = 1024 * 1024  # the margin Streamlit's route allows a streamed body above the limit (multipart framing)
_TICK = 0.5  # seconds between two looks at the sessions that received a file
_INSTALL = threading.Lock()
_installed: list[_Sessions] = []


class _Sessions:
    """The sessions that received a file, each with the time its websocket was first seen gone (None: open).

    Parameters
    ----------
    runtime : streamlit.runtime.Runtime
        The server's runtime.
    manager : MemoryUploadedFileManager
        Its upload manager.
    kept : float
        Seconds a disconnected session keeps its file before it is closed.
    """

    def __init__(self, runtime: Runtime, manager: MemoryUploadedFileManager, kept: float) -> None:
        self.runtime, self.manager, self.kept = runtime, manager, kept
        self._add = manager.add_file
        self._lock = threading.Lock()
        self.gone_since: dict[str, float | None] = {}

    def add_file(self, session_id: str, file: UploadedFileRec) -> None:
        """The manager's ``add_file``: the session's earlier files are dropped before its new one is kept; a small
        file (at most :data:`SMALL_BYTES`) drops only the earlier small ones."""
        small = len(file.data) <= SMALL_BYTES
        with self._lock:
            for older_id, older in tuple(self.manager.file_storage.get(session_id, {}).copy().items()):
                if older_id != file.file_id and (not small or len(older.data) <= SMALL_BYTES):
                    self.manager.remove_file(session_id, older_id)
            self._add(session_id, file)
            self.gone_since.setdefault(session_id, None)

    def look(self, now: float) -> None:
        """Close every session whose websocket has been gone for :attr:`kept` seconds at ``now``."""
        with self._lock:
            for session_id, since in list(self.gone_since.items()):
                if self.runtime.is_active_session(session_id):
                    self.gone_since[session_id] = None
                elif since is None:
                    self.gone_since[session_id] = now
                elif now - since >= self.kept:
                    self.runtime.clear_user_info_for_session(session_id)  # closed on the event loop: state, file
                    self.manager.remove_session_files(session_id)  # at once, even if Streamlit forgot the session
                    del self.gone_since[session_id]

    def watch(self) -> None:
        """Look every :data:`_TICK` seconds, for the server's life (a daemon thread)."""
        while True:
            time.sleep(_TICK)
            self.look(time.monotonic())


def _keep_in_memory() -> None:
    """Raise the size above which Starlette's multipart parser spools a file to disk above the largest body the
    upload route accepts (``server.maxUploadSize`` plus the framing margin)."""
    from starlette.formparsers import MultiPartParser

    largest = config.get_option("server.maxUploadSize") * 1024 * 1024 + _FRAMING
    MultiPartParser.spool_max_size = max(MultiPartParser.spool_max_size, largest + 1)


def bound_uploads() -> None:
    """Install the bounds of this module in this server process, once (later calls return at once; outside a
    Streamlit server, such as in AppTest, nothing is installed)."""
    if _installed or not Runtime.exists():
        return
    with _INSTALL:
        if _installed:
            return
        runtime = Runtime.instance()
        manager = cast(MemoryUploadedFileManager, runtime.uploaded_file_mgr)  # the one Streamlit's server makes
        kept = min(KEPT_SECONDS, config.get_option("server.disconnectedSessionTTL") / 2)
        sessions = _Sessions(runtime, manager, kept)
        _keep_in_memory()
        manager.add_file = sessions.add_file  # type: ignore[method-assign]  # the upload route calls the instance's
        threading.Thread(target=sessions.watch, name="upload-limits", daemon=True).start()
        _installed.append(sessions)


def drop_session_files() -> None:
    """Drop every file this session's uploads left in the server's memory: the page calls it when its uploader holds
    no file (removed, or the uploader not shown)."""
    context = get_script_run_ctx()
    if context is not None:
        context.uploaded_file_mgr.remove_session_files(context.session_id)
