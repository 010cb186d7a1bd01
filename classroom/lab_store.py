"""The lab's poll store: the backend the environment names, opened once per process.

``DPLAB_POLL_STORE`` unset (one machine): SQLite in the data folder (:class:`classroom.poll_store.SqlitePollStore`);
a ``postgresql://user:password@host/database`` URL (several machines): that database
(:class:`classroom.postgres_poll_store.PostgresPollStore`). :func:`shared_store` is what the pages ask (the poll, its
limits, the receipts' secret); ``python -m classroom.lab_store [URL]`` opens it once and says which it is, for
``./lab.sh app`` and ``serve`` (``--poll-store URL``) to stop with a sentence before they start when it cannot be
opened. No message repeats a URL's password.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Sequence
from urllib.parse import parse_qsl, urlsplit

from .poll_store import FAULTS, SqlitePollStore, SqlPollStore, default_data_dir
from .postgres_poll_store import PostgresPollStore, check_url

__all__ = ["STORE_ENV", "default_store", "shared_store", "describe", "main"]

STORE_ENV = "DPLAB_POLL_STORE"  #: a PostgreSQL URL for a store several machines share; unset: SQLite here


def default_store() -> SqlPollStore:
    """The store the environment names: PostgreSQL when ``DPLAB_POLL_STORE`` is a ``postgresql://`` URL
    (:class:`~classroom.postgres_poll_store.PostgresPollStore`, shared by several machines), else SQLite in
    :func:`~classroom.poll_store.default_data_dir` (one machine). Raises ``ValueError`` for a URL of another kind
    (naming its scheme only: a URL may hold a password) and :class:`~classroom.poll_store.StoreFault` when the
    database cannot be reached."""
    url = os.environ.get(STORE_ENV, "").strip()
    if not url:
        return SqlitePollStore(default_data_dir())
    return PostgresPollStore(check_url(url))


@functools.lru_cache(maxsize=1)
def shared_store() -> SqlPollStore:
    """This server's store (:func:`default_store`), opened once. After a fault, ``shared_store.cache_clear()`` makes
    the next call open it again: the folder, the file and its tables are made again if they went.
    """
    return default_store()


def describe(url: str) -> str:
    """What ``url`` names, without its password: ``PostgreSQL database polls on db.example.org``, or ``SQLite in
    this machine's data folder`` for an empty one."""
    if not url:
        return "SQLite in this machine's data folder"
    parts = urlsplit(url)
    where = parts.hostname or dict(parse_qsl(parts.query)).get("host", "a local socket")
    return f"PostgreSQL database {parts.path.lstrip('/') or '(default)'} on {where}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m classroom.lab_store [URL]``: open the store ``URL`` names (default: ``DPLAB_POLL_STORE``) once,
    making its tables, and say which it is; exit 2 with a sentence (never the URL's password) when it cannot be
    opened. ``./lab.sh app`` and ``serve`` run it for ``--poll-store URL`` before they start."""
    url = (list(argv) if argv is not None else sys.argv[1:2] or [os.environ.get(STORE_ENV, "")])[0].strip()
    os.environ[STORE_ENV] = url
    try:
        default_store()
    except ValueError as wrong:
        print(wrong, file=sys.stderr)
        return 2
    except FAULTS as fault:
        print(f"The class poll's store ({describe(url)}) cannot be opened: "
              f"{getattr(fault, 'what', None) or 'its folder cannot be written'}.", file=sys.stderr)
        return 2
    print(f"Class poll store: {describe(url)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
