"""The class poll's store on PostgreSQL: one database shared by the lab's machines (``DPLAB_POLL_STORE``).

The same tables, constraints and operations as SQLite's (:class:`classroom.poll_store.SqlPollStore`: the contract is
``tests/classroom/test_poll_store.py``, run against both), with the locks a server shares among its clients in place
of SQLite's one write lock on the file:

* ``vote`` is one transaction that locks the room's row (``SELECT … FOR UPDATE``), checks that the room is open, not
  revealed and not full, then inserts the vote; the primary key ``(code, tab)`` makes a replay a no-op. Votes into
  one room are counted one after another, whichever machine receives them; votes into other rooms do not wait.
* ``reveal`` locks the room's row, then sets ε and the seed only ``WHERE revealed_at IS NULL``: two reveals at once,
  on two machines, agree on one seed (the second waits for the first, then reads what it fixed).
* ``create_room`` holds a transaction-level advisory lock while it counts the open rooms and adds one, so the bounds
  :data:`~classroom.poll_store.MAX_ROOMS` and :data:`~classroom.poll_store.MAX_ROOMS_PER_KEY` hold across machines.
* ``votes`` references ``rooms`` with ``ON DELETE CASCADE``; ``attempts`` counts with ``INSERT … ON CONFLICT DO
  UPDATE``; the tables are made by the first store opened on the database, under another advisory lock (two machines
  starting together).
* ``secret(name)`` keeps a shared secret (the receipts', :mod:`classroom.receipts`) in a table ``secrets``, made once
  with ``INSERT … ON CONFLICT DO NOTHING``: no machine's folder holds it.

Connections: each process keeps up to :data:`IDLE_CONNECTIONS` open ones for its sessions' threads (a new connection
costs the server a process); one that failed is closed, never reused, and a process made by ``fork`` opens its own.
A statement waits at most :data:`LOCK_SECONDS` for a lock and a connection at most :data:`CONNECT_SECONDS`. Every
``psycopg.Error`` leaves as :class:`~classroom.poll_store.StoreFault` saying what went wrong in the page's words
(cannot be reached, disk full, read-only, too many connections); the server's error stays its ``__cause__`` for the
log, and no message repeats the URL, which may hold a password.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import psycopg

from .poll_store import SqlPollStore, StoreFault

__all__ = ["PostgresPollStore", "check_url", "IDLE_CONNECTIONS", "CONNECT_SECONDS", "LOCK_SECONDS"]

IDLE_CONNECTIONS = 8  #: open connections a process keeps for its next operations
CONNECT_SECONDS = 5  #: the longest wait for a connection to the server
LOCK_SECONDS = 5.0  #: the longest wait of a statement for a lock (a vote holds its room's for about a millisecond)
_SCHEMES = ("postgresql", "postgres")
_LOCK_SCHEMA, _LOCK_ROOMS = 74_117_001, 74_117_002  # advisory lock ids: making the tables; counting and adding rooms

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    page TEXT NOT NULL,
    question TEXT NOT NULL,
    question_key TEXT NOT NULL DEFAULT '',
    answer INTEGER,
    choices TEXT NOT NULL,
    key_digest TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    revealed_at DOUBLE PRECISION,
    epsilon DOUBLE PRECISION,
    seed BIGINT,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS votes (
    code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    tab TEXT NOT NULL,
    choice INTEGER NOT NULL,
    PRIMARY KEY (code, tab)
);
CREATE INDEX IF NOT EXISTS rooms_by_expiry ON rooms (expires);
CREATE INDEX IF NOT EXISTS rooms_by_key ON rooms (key_digest);
CREATE TABLE IF NOT EXISTS attempts (
    client TEXT NOT NULL,
    action TEXT NOT NULL,
    minute BIGINT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (client, action, minute)
);
CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def check_url(url: str) -> str:
    """``url`` if it names a PostgreSQL database (``postgresql://user:password@host:port/database``, or a Unix
    socket's folder as ``?host=/path``), else ``ValueError`` naming the scheme only (a URL may hold a password).

    >>> check_url("postgresql://lab@db.example.org/polls")
    'postgresql://lab@db.example.org/polls'
    >>> check_url("mysql://lab@db/polls")
    Traceback (most recent call last):
    ...
    ValueError: DPLAB_POLL_STORE names a PostgreSQL database (postgresql://user:password@host/database), or is unset \
for SQLite on this machine; this one starts with 'mysql://'.
    """
    scheme = urlsplit(url).scheme if isinstance(url, str) else ""
    if scheme not in _SCHEMES:
        shown = f"{scheme}://" if scheme else "no scheme"
        raise ValueError("DPLAB_POLL_STORE names a PostgreSQL database (postgresql://user:password@host/database), "
                         f"or is unset for SQLite on this machine; this one starts with {shown!r}.")
    return url


def _fault(error: psycopg.Error) -> StoreFault:
    """``error`` as the page says it, raised ``from`` it, by its SQLSTATE code (PostgreSQL 15's manual, Appendix A,
    "PostgreSQL Error Codes")."""
    state = getattr(error, "sqlstate", None) or ""
    if state == "53100":
        what = "the database server's disk is full"
    elif state == "53300":
        what = "its database server has too many connections"
    elif state in ("25006", "42501"):  # read-only transaction; insufficient privilege
        what = "its database is read-only for the lab"
    elif state in ("55P03", "40P01") or isinstance(error, psycopg.errors.QueryCanceled):
        what = "its database is busy"
    elif isinstance(error, psycopg.OperationalError):
        what = "its database server cannot be reached"
    else:
        what = "its database reported an error"
    return StoreFault(what)


class _Adapter:
    """A psycopg connection that takes the store's ``?`` placeholders (psycopg's are ``%s``)."""

    def __init__(self, connection: psycopg.Connection):
        self.connection = connection

    def execute(self, statement: str, parameters: tuple = ()) -> Any:
        """The cursor of ``statement`` (read as ``sqlite3``'s is: ``fetchone``, ``fetchall``, ``rowcount``)."""
        return self.connection.execute(statement.replace("?", "%s"), parameters)


class PostgresPollStore(SqlPollStore):
    """The poll store in the PostgreSQL database of ``url``, shared by every machine that opens it.

    Raises :class:`~classroom.poll_store.StoreFault` when the server cannot be reached (the tables are made at the
    first connection). ``clock`` as for every store (``time.time``; the tests pass their own).
    """

    _FOR_UPDATE = " FOR UPDATE"

    def __init__(self, url: str, clock: Callable[[], float] = time.time):
        super().__init__(clock)
        self._url = check_url(url)
        self._idle: queue.LifoQueue[psycopg.Connection] = queue.LifoQueue()
        self._process = os.getpid()
        self._lock = threading.Lock()
        self._secrets: dict[str, bytes] = {}
        with self._connect() as connection:
            made = connection.execute("SELECT to_regclass('secrets') IS NOT NULL").fetchone()[0]
        if not made:  # the first machine to start (a read-only database with its tables still shows its rooms)
            with self._write() as connection:
                connection.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK_SCHEMA,))
                connection.connection.execute(_SCHEMA)

    def __repr__(self) -> str:  # never the URL: it may hold a password
        return f"{type(self).__name__}(database={urlsplit(self._url).path.lstrip('/') or '(default)'})"

    @contextlib.contextmanager
    def _session(self) -> Iterator[psycopg.Connection]:
        """A connection of this process (an idle one, else a new one), given back when it is healthy; every
        ``psycopg.Error`` raised meanwhile leaves as a :class:`~classroom.poll_store.StoreFault`."""
        with self._lock:
            if os.getpid() != self._process:  # a child made by fork: its parent's connections are not its own
                self._idle, self._process = queue.LifoQueue(), os.getpid()
        try:
            connection = self._idle.get_nowait()
        except queue.Empty:
            try:
                connection = psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                                             options=f"-c lock_timeout={int(LOCK_SECONDS * 1000)}")
            except psycopg.Error as error:
                raise _fault(error) from error
        try:
            yield connection
        except psycopg.Error as error:
            connection.close()
            raise _fault(error) from error
        finally:
            idle = connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
            if connection.closed or connection.broken or not idle or self._idle.qsize() >= IDLE_CONNECTIONS:
                connection.close()
            else:
                self._idle.put(connection)

    @contextlib.contextmanager
    def _connect(self) -> Iterator[_Adapter]:
        with self._session() as connection:
            yield _Adapter(connection)

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[_Adapter]:
        """A read-only transaction at REPEATABLE READ: every statement sees the database as at the first."""
        with self._session() as connection:
            with connection.transaction():
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield _Adapter(connection)

    @contextlib.contextmanager
    def _write(self) -> Iterator[_Adapter]:
        """One transaction (READ COMMITTED, with the rows it locks), rolled back on any error."""
        with self._session() as connection:
            with connection.transaction():
                yield _Adapter(connection)

    def _lock_rooms(self, connection: _Adapter) -> None:
        connection.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK_ROOMS,))

    def secret(self, name: str) -> bytes:
        """The secret ``name`` in the table ``secrets``, made at the first call on any machine (the first insert
        wins, every machine then reads the same)."""
        if name not in self._secrets:
            with self._write() as connection:
                connection.execute("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                                   (name, secrets.token_hex(32)))
                value = connection.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()[0]
            self._secrets[name] = value.encode()
        return self._secrets[name]
