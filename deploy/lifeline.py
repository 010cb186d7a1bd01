"""Child processes that die with their parent: Linux's parent-death signal (``prctl(PR_SET_PDEATHSIG)``).

A process whose parent dies is handed to init and runs on. The app's sweep worker would: it waits on a pipe whose
other end it holds itself, so it never reads an end of file, and it keeps multiprocessing's resource tracker alive
(the tracker exits when the last process holding its pipe does). :func:`die_with_parent`, called first thing in the
child, asks the kernel to send it SIGKILL when its parent dies, however the parent dies (SIGKILL included, which no
handler of the parent sees).

**The parent is a thread.** Linux sends the signal when the *thread* that started the child exits, not when the
parent process does: a child started from a short-lived thread (a Streamlit script run's) would be killed when that
run ends. :mod:`ui.progressive` therefore starts every worker process from one thread that lasts as long as the server.

Only the standard library: a worker imports this module before anything else (``ui`` would import Streamlit). Off
Linux (no ``prctl``) it does nothing but the check below.
"""

from __future__ import annotations

import ctypes
import os
import signal

__all__ = ["PR_SET_PDEATHSIG", "die_with_parent", "sweep_worker"]

PR_SET_PDEATHSIG = 1  #: from <linux/prctl.h>


def die_with_parent(parent: int, how: signal.Signals = signal.SIGKILL) -> bool:
    """In a child of process ``parent``: have the kernel send it ``how`` when the thread that started it exits; exit at
    once if ``parent`` is already gone (it died before this call: the child then has another parent). Returns whether
    the kernel took the request (False off Linux)."""
    try:
        taken = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(how), 0, 0, 0) == 0
    except (OSError, AttributeError):  # no prctl in this C library (macOS, Windows)
        taken = False
    if os.getppid() != parent:
        os._exit(1)
    return taken


def sweep_worker(parent: int, niceness: int) -> None:
    """The initializer of a sweep worker process (:mod:`ui.progressive`): dies with ``parent`` (SIGKILL: the worker
    holds nothing worth saving, and no signal mask or handler can delay it), runs ``niceness`` steps below the pages."""
    die_with_parent(parent)
    os.nice(niceness)
