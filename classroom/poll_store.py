"""The class poll's vote store: rooms with short codes, one vote per browser, shared by every replica.

A teacher with the lab's teacher key (:mod:`classroom.teacher_key`) creates a **room** for a page's question (its
choices) and gets a short code; the room belongs to that key, which alone may **reveal** or **close** it, and lists it
among its **rooms** (so a teacher finds them again after a reload). Students join with the code and vote once per
browser (a random voter id the browser keeps, :mod:`classroom.voter`: no name, no address, nothing personal); a
browser asks whether it has **voted** already; the projector reads the **tally** (how many answered); the reveal ends
the voting and records the ε and one random seed, so every replica and every rerun draws the same DP release
(:mod:`dpcore.lessons.class_poll`); every room **expires** after its lifetime and is then removed with its votes.
The store also counts a client's **attempts** per minute (unknown codes, votes, wrong teacher keys), so that the
pages can limit them across replicas (:mod:`classroom.limits`); a client is an opaque token, never an address.

The interface (:class:`PollStore`) is nine operations on plain values: ``create_room``, ``rooms``, ``room``,
``vote``, ``voted``, ``tally``, ``reveal``, ``close``, ``attempts`` (and ``purge``, and ``secret``, a secret every
replica shares, e.g. the receipts'). Every failure a visitor can
cause raises a :class:`PollError` subclass whose message can be shown as it is (it never repeats what was typed); a
fault of the database itself (a locked, damaged, deleted or full file, a folder it cannot write; a database server out
of reach, full or read-only) raises one of :data:`FAULTS` (``sqlite3.Error``, ``OSError``, :class:`StoreFault`), which
the page shows as a message (:func:`fault_message`).

**SQLite backend** (:class:`SqlitePollStore`, the default): one file, ``polls.sqlite3``, in the data directory
(``DPLAB_DATA_DIR``, default ``.lab-data/`` at the repository root; git ignores it), in WAL mode so readers never
block the writer. Every replica of ``./lab.sh serve`` on the machine opens the same file. Each operation opens its own
connection (safe across threads and processes) and each write is one ``BEGIN IMMEDIATE`` transaction; the primary key
``(code, tab)`` of the votes table makes a replayed vote a no-op, whichever replica receives it. Bounds:
:data:`MAX_ROOMS` open rooms, :data:`MAX_ROOMS_PER_KEY` per teacher key, :data:`MAX_VOTES` votes per room,
:data:`MAX_CHOICES` choices, a lifetime of at most :data:`MAX_MINUTES`. A fault is not forever: every operation opens
its own connection, so a file or folder deleted under the store is made again by the next store opened
(:func:`classroom.lab_store.shared_store` is opened again after a fault), and a file that is not a database any more
(damaged) is set aside as ``polls.sqlite3.damaged-<time>`` and a new one started; a lock held by another program is
waited for at most :data:`BUSY_SECONDS`.

**PostgreSQL backend** for several machines (:class:`classroom.postgres_poll_store.PostgresPollStore`), chosen by
``DPLAB_POLL_STORE=postgresql://user:password@host/database`` (``./lab.sh serve --poll-store URL``;
:func:`classroom.lab_store.default_store`): the same tables and constraints, the same statements
(:class:`SqlPollStore` holds them for both), with row locks where SQLite locks the file: ``vote`` locks its room's
row, ``reveal`` too (two machines revealing at once agree on one seed), ``create_room`` an advisory lock while it
counts the open rooms.

**Another backend**, e.g. *Redis*: a hash ``room:{code}`` (question, choices, expires, key hash, revealed, ε, seed)
created with ``HSETNX``/``SET NX`` on the code and ``EXPIREAT`` its expiry (Redis then removes expired rooms itself); a
hash ``votes:{code}`` of tab -> choice with the same expiry. ``vote`` is one Lua script (atomic on the server): check
the room exists and is not revealed, ``HLEN`` below :data:`MAX_VOTES`, then ``HSETNX votes:{code} tab choice`` (0
means a replay: compare the stored choice). ``tally`` reads ``HVALS``; ``reveal`` is a script that sets ε and the seed
only if unset; the count of open rooms is a sorted set by expiry, trimmed with ``ZREMRANGEBYSCORE``.

The contract every backend must meet is ``tests/classroom/test_poll_store.py`` (run on SQLite and PostgreSQL).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = ["ALPHABET", "CODE_LENGTH", "MAX_ROOMS", "MAX_ROOMS_PER_KEY", "MAX_VOTES", "ATTEMPT_SECONDS", "BUSY_SECONDS",
           "MAX_CHOICES", "MAX_MINUTES", "DEFAULT_MINUTES",
           "PollError", "BadCode", "UnknownRoom", "RoomClosed", "VotingClosed", "AlreadyVoted", "BadVote",
           "NotTeacher", "StoreFull", "StoreFault", "FAULTS", "Room", "Tally", "VoteReceipt", "PollStore",
           "SqlPollStore", "SqlitePollStore", "new_tab_id", "normalise_code", "default_data_dir", "fault_message"]

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  #: a code's characters: no 0/O, 1/I/L, so it reads from a wall
CODE_LENGTH = 5  #: 31^5 ≈ 29 million codes
MAX_ROOMS = 200  #: rooms open at once on the machine
MAX_ROOMS_PER_KEY = 20  #: rooms one teacher key may have open at once
ATTEMPT_SECONDS = 60  #: attempts are counted per minute (a fixed window: minute m is [60 m, 60 m + 60) in Unix time)
BUSY_SECONDS = 5.0  #: the longest wait for a lock another connection holds (a write takes about a millisecond)
MAX_VOTES = 1000  #: votes per room
MAX_CHOICES = 12  #: choices per question
MAX_TEXT = 600  #: characters of a question or a choice's label
MAX_MINUTES = 240.0  #: the longest lifetime of a room
DEFAULT_MINUTES = 45.0  #: a room's lifetime unless the teacher sets another
_TAB = re.compile(r"[A-Za-z0-9_-]{16,64}")
_PAGE = re.compile(r"[A-Za-z0-9_./-]{1,100}")
_QUESTION_KEY = re.compile(r"[a-z0-9_]{0,40}")
_COLUMNS = ("code, page, question, question_key, answer, choices, created, expires, revealed_at, epsilon, seed, "
            "closed, key_digest")  # a room's row, in the order _room reads it
_CLIENT = re.compile(r"[A-Za-z0-9_-]{8,128}")
_ACTION = re.compile(r"[a-z]{1,20}")


class PollError(ValueError):
    """Something a visitor did that the poll refuses: the message says what, in the page's words."""


class BadCode(PollError):
    """A room code with characters or a length a code never has."""


class UnknownRoom(PollError):
    """No room has this code (never created, or expired and removed)."""


class RoomClosed(PollError):
    """The room has expired or the teacher closed it."""


class VotingClosed(PollError):
    """The teacher has revealed the results: no more votes."""


class AlreadyVoted(PollError):
    """This browser has already voted, for another choice."""


class BadVote(PollError):
    """A choice or a tab id the room cannot accept."""


class NotTeacher(PollError):
    """The teacher key does not match the room's."""


class StoreFull(PollError):
    """Too many open rooms, or too many votes in this room."""


@dataclass(frozen=True)
class Room:
    """A room as every replica sees it.

    ``expires`` and ``created`` are Unix times; ``epsilon`` and ``seed`` are set once, at the reveal (``None``
    before); ``closed`` is true once the teacher closed it or it expired. The ``seed`` is secret: whoever knows it can
    redraw the DP noise and subtract it, so it is never shown, logged or put in a link.
    """

    code: str
    page: str
    question: str
    choices: tuple[str, ...]
    question_key: str
    answer: int | None
    created: float
    expires: float
    revealed: bool
    epsilon: float | None
    seed: int | None
    closed: bool


@dataclass(frozen=True)
class Tally:
    """The votes of a room: ``counts`` per choice (the true counts: show them only after the reveal, next to the DP
    release), and ``answered``, how many voted.
    """

    room: Room
    counts: tuple[int, ...]
    answered: int


@dataclass(frozen=True)
class VoteReceipt:
    """What happened to a vote: ``counted`` is false for a replay of the same vote (counted once, before)."""

    counted: bool
    message: str


class PollStore(Protocol):
    """The interface every backend implements (see the module docstring)."""

    def create_room(self, page: str, question: str, choices: Sequence[str], key: str,
                    minutes: float = DEFAULT_MINUTES, question_key: str = "", answer: int | None = None) -> Room:
        """Open a room owned by the teacher ``key`` (only it may ``reveal`` and ``close`` it), for the question
        named ``question_key`` on its page (its text may change with the page's settings), whose right choice is
        ``answer`` (marked on every screen after the reveal)."""
        ...

    def rooms(self, key: str) -> tuple[Room, ...]:
        """The rooms of the teacher ``key`` that have not expired, newest first (open, revealed or closed)."""
        ...

    def room(self, code: str) -> Room:
        """The room of ``code`` (normalised); raises :class:`BadCode`, :class:`UnknownRoom`, :class:`RoomClosed`."""
        ...

    def vote(self, code: str, tab: str, choice: int) -> VoteReceipt:
        """Count ``tab``'s vote for ``choice`` once; a replay is not counted again."""
        ...

    def voted(self, code: str, tab: str) -> int | None:
        """The choice ``tab`` voted for in the room of ``code``, or None."""
        ...

    def tally(self, code: str) -> Tally:
        """The room and its counts (also after the reveal and after closing, until it is removed)."""
        ...

    def reveal(self, code: str, key: str, epsilon: float) -> Room:
        """End the voting and fix ε and the release's seed (the first reveal wins; later ones return it)."""
        ...

    def close(self, code: str, key: str) -> None:
        """Close the room now: no votes, no reveal; its tally stays readable until it expires."""
        ...

    def attempts(self, client: str, action: str, record: bool = False) -> int:
        """How many ``action`` attempts ``client`` made in this minute (:data:`ATTEMPT_SECONDS`), this one counted
        first if ``record``.
        """
        ...

    def purge(self) -> int:
        """Remove expired rooms, their votes and past attempts; return how many rooms were removed."""
        ...

    def secret(self, name: str) -> bytes:
        """A secret every replica of this store shares, made at the first call (e.g. the receipts')."""
        ...


def new_tab_id() -> str:
    """A random voter id (22 URL-safe characters) that one browser keeps: all the poll knows of a voter."""
    return secrets.token_urlsafe(16)


def normalise_code(code: object) -> str:
    """A code as typed (any case, spaces or a dash allowed) in its stored form, or :class:`BadCode`.

    >>> normalise_code(" k7q-x2 ")
    'K7QX2'
    """
    if not isinstance(code, str):
        raise BadCode("A room code is text, such as K7QX2.")
    cleaned = re.sub(r"[\s-]", "", code).upper()
    if not cleaned:
        raise BadCode("Type the room code shown on the projector, such as K7QX2.")
    if len(cleaned) > 3 * CODE_LENGTH or any(character not in ALPHABET for character in cleaned):
        raise BadCode(f"A room code has {CODE_LENGTH} letters and digits (A to Z without I, L and O; 2 to 9); this "
                      "one has other characters. Check the code on the projector.")
    if len(cleaned) != CODE_LENGTH:
        raise BadCode(f"A room code has {CODE_LENGTH} characters; this one has {len(cleaned)}.")
    return cleaned


def default_data_dir() -> Path:
    """``DPLAB_DATA_DIR`` if set, else ``.lab-data`` at the repository root."""
    configured = os.environ.get("DPLAB_DATA_DIR")
    return Path(configured) if configured else Path(__file__).resolve().parents[1] / ".lab-data"


class StoreFault(Exception):
    """A fault of a database server (not of the visitor): ``what`` says it in a few words for the page (see
    :func:`fault_message`); the server's own error is its ``__cause__``."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


FAULTS = (sqlite3.Error, OSError, StoreFault)  #: what a page catches as a fault of the store's database


def fault_message(error: BaseException) -> str:
    """What a fault of the store's database (one of :data:`FAULTS`) means for the page, in a sentence that names no
    file, no server and no path.

    >>> print(fault_message(PermissionError(13, "Permission denied")))  # doctest: +NORMALIZE_WHITESPACE
    The class poll cannot work just now: its data folder cannot be written. Nothing was recorded and the rest of
    this page works. Try again in a minute; if it goes on, tell whoever runs the lab.
    """
    name = getattr(error, "sqlite_errorname", "") or ""
    if isinstance(error, StoreFault):
        what = error.what
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        what = "its database is locked by another program"
    elif name.startswith("SQLITE_FULL") or getattr(error, "errno", None) == 28:
        what = "the server's disk is full"
    elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        what = "its database file is damaged (it is set aside and a new one started)"
    elif name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")) or isinstance(error, OSError):
        what = "its data folder cannot be written"
    elif isinstance(error, sqlite3.OperationalError) and "no such table" in str(error):
        what = "its database file was removed (a new one is started)"
    else:
        what = "its database reported an error"
    return (f"The class poll cannot work just now: {what}. Nothing was recorded and the rest of this page works. "
            "Try again in a minute; if it goes on, tell whoever runs the lab.")


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    page TEXT NOT NULL,
    question TEXT NOT NULL,
    question_key TEXT NOT NULL DEFAULT '',
    answer INTEGER,
    choices TEXT NOT NULL,
    key_digest TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    revealed_at REAL,
    epsilon REAL,
    seed INTEGER,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS votes (
    code TEXT NOT NULL,
    tab TEXT NOT NULL,
    choice INTEGER NOT NULL,
    PRIMARY KEY (code, tab)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_expiry ON rooms (expires);
CREATE INDEX IF NOT EXISTS rooms_by_key ON rooms (key_digest);
CREATE TABLE IF NOT EXISTS attempts (
    client TEXT NOT NULL,
    action TEXT NOT NULL,
    minute INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (client, action, minute)
) WITHOUT ROWID;
"""


class SqlPollStore:
    """The nine operations in SQL, for a backend to run on its database (:class:`SqlitePollStore`,
    :class:`classroom.postgres_poll_store.PostgresPollStore`).

    A backend provides three connections as context managers: :meth:`_connect` (one read), :meth:`_snapshot` (reads
    that see one state of the database) and :meth:`_write` (one transaction, rolled back on any error, during which
    the rows it reads with ``FOR UPDATE`` stay locked); :attr:`_FOR_UPDATE` (the clause that locks a row, empty where
    the transaction locks the whole file) and :meth:`_lock_rooms` (held by a transaction that counts the open rooms
    before it adds one). Statements are written with ``?`` placeholders, each backend's connection takes them. Times
    are the store's ``clock`` (``time.time``; tests pass their own), never the database's, so that every backend
    expires a room at the same moment.
    """

    _FOR_UPDATE = ""

    def __init__(self, clock: Callable[[], float] = time.time):
        self.clock = clock

    def _connect(self) -> contextlib.AbstractContextManager:
        raise NotImplementedError

    def _snapshot(self) -> contextlib.AbstractContextManager:
        raise NotImplementedError

    def _write(self) -> contextlib.AbstractContextManager:
        raise NotImplementedError

    def _lock_rooms(self, connection) -> None:
        """Hold the right to add a room until the transaction ends (nothing to do where a write locks the file)."""

    def secret(self, name: str) -> bytes:
        """A secret shared by every replica of this store (64 hexadecimal characters, made at the first call, the same
        for every later one), e.g. the receipts' (:mod:`classroom.receipts`)."""
        raise NotImplementedError

    # ---------------------------------------------------------------------------------------------- reading a room
    def _row(self, connection, code: str, lock: bool = False) -> tuple:
        """The room's row; with ``lock``, locked until the transaction ends (:attr:`_FOR_UPDATE`)."""
        row = connection.execute(f"SELECT {_COLUMNS} FROM rooms WHERE code = ?{self._FOR_UPDATE if lock else ''}",
                                 (code,)).fetchone()
        if row is None:
            raise UnknownRoom("No poll has this code. It may have ended: ask the teacher for the code on the "
                              "projector.")
        return row

    def _room(self, row: tuple) -> Room:
        (code, page, question, question_key, answer, choices, created, expires, revealed_at, epsilon, seed,
         closed) = row[:-1]
        return Room(code=code, page=page, question=question, question_key=question_key, answer=answer,
                    choices=tuple(json.loads(choices)), created=created,
                    expires=expires, revealed=revealed_at is not None, epsilon=epsilon, seed=seed,
                    closed=bool(closed) or self.clock() >= expires)

    def _open_room(self, connection, code: str, lock: bool = False) -> tuple:
        row = self._row(connection, code, lock)
        if self._room(row).closed:
            raise RoomClosed("This poll has ended.")
        return row

    # ---------------------------------------------------------------------------------------------- the interface
    def create_room(self, page: str, question: str, choices: Sequence[str], key: str,
                    minutes: float = DEFAULT_MINUTES, question_key: str = "", answer: int | None = None) -> Room:
        """Open a room for ``question`` (named ``question_key`` on its page, its right choice ``answer`` if it has
        one) on ``page`` with ``choices``, open for ``minutes``, owned by the teacher ``key`` (kept as its hash).
        Raises :class:`BadVote` for bad texts, :class:`StoreFull` when :data:`MAX_ROOMS` rooms are open, or
        :data:`MAX_ROOMS_PER_KEY` of this key's."""
        if not isinstance(page, str) or not _PAGE.fullmatch(page):
            raise BadVote("A poll needs the page it belongs to.")
        if not isinstance(question, str) or not 0 < len(question) <= MAX_TEXT:
            raise BadVote(f"A poll's question has 1 to {MAX_TEXT} characters.")
        choices = list(choices) if not isinstance(choices, str) else []
        if not 2 <= len(choices) <= MAX_CHOICES or not all(isinstance(c, str) and 0 < len(c) <= MAX_TEXT
                                                           for c in choices):
            raise BadVote(f"A poll has 2 to {MAX_CHOICES} choices, each 1 to {MAX_TEXT} characters.")
        if not isinstance(minutes, int | float) or not 0 < minutes <= MAX_MINUTES:
            raise BadVote(f"A poll stays open for more than 0 and at most {MAX_MINUTES:g} minutes.")
        if not isinstance(key, str) or not key:
            raise NotTeacher("Only a teacher with the lab's teacher key can open a poll.")
        if not isinstance(question_key, str) or not _QUESTION_KEY.fullmatch(question_key):
            raise BadVote("A poll's question is named by lower-case letters, digits and '_'.")
        if answer is not None and (isinstance(answer, bool) or not isinstance(answer, int)
                                   or not 0 <= answer < len(choices)):
            raise BadVote("A poll's right answer is one of its choices.")
        now = self.clock()
        with self._write() as connection:
            self._lock_rooms(connection)
            self._purge(connection, now)
            if connection.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] >= MAX_ROOMS:
                raise StoreFull(f"{MAX_ROOMS} polls are open on this server already: close one, or try again later.")
            if connection.execute("SELECT COUNT(*) FROM rooms WHERE key_digest = ? AND closed = 0",
                                  (_digest(key),)).fetchone()[0] >= MAX_ROOMS_PER_KEY:
                raise StoreFull(f"You have {MAX_ROOMS_PER_KEY} polls open: end one under “Your class polls” first.")
            for _ in range(20):  # a code that is taken adds no row: draw another
                code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
                if connection.execute("INSERT INTO rooms (code, page, question, question_key, answer, choices, "
                                      "key_digest, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                      "ON CONFLICT (code) DO NOTHING",
                                      (code, page, question, question_key, answer, json.dumps(choices),
                                       _digest(key), now, now + 60.0 * minutes)).rowcount == 1:
                    break
            else:  # pragma: no cover - 20 collisions among 29 million codes
                raise StoreFull("No free room code was found: try again.")
            return self._room(self._row(connection, code))

    def rooms(self, key: str) -> tuple[Room, ...]:
        """The rooms of the teacher ``key`` that have not expired, newest first: open, revealed or closed."""
        if not isinstance(key, str) or not key:
            return ()
        with self._connect() as connection:
            rows = connection.execute(f"SELECT {_COLUMNS} FROM rooms WHERE key_digest = ? AND expires > ? "
                                      "ORDER BY created DESC, code", (_digest(key), self.clock())).fetchall()
        return tuple(self._room(row) for row in rows)

    def room(self, code: str) -> Room:
        """The room of ``code`` while it exists, open or not (see :attr:`Room.closed`)."""
        code = normalise_code(code)
        with self._connect() as connection:
            return self._room(self._row(connection, code))

    def vote(self, code: str, tab: str, choice: int) -> VoteReceipt:
        """Count the vote of ``tab`` for choice number ``choice`` (0-based), once. The same vote again is not counted
        again (a replay, a double click, a reconnection to another replica); another choice from the same tab is
        refused (:class:`AlreadyVoted`).
        """
        code = normalise_code(code)
        if not isinstance(tab, str) or not _TAB.fullmatch(tab):
            raise BadVote("This browser tab has no valid voter id: reload the page.")
        with self._write() as connection:
            row = self._open_room(connection, code, lock=True)  # votes into one room one after another
            room = self._room(row)
            if room.revealed:
                raise VotingClosed("The teacher has revealed the results: voting is over.")
            if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(room.choices):
                raise BadVote(f"Pick one of the {len(room.choices)} answers.")
            earlier = connection.execute("SELECT choice FROM votes WHERE code = ? AND tab = ?", (code, tab)).fetchone()
            if earlier is not None:
                if earlier[0] == choice:
                    return VoteReceipt(False, "Your vote was already counted.")
                raise AlreadyVoted("This browser has voted already: one vote per browser.")
            if connection.execute("SELECT COUNT(*) FROM votes WHERE code = ?", (code,)).fetchone()[0] >= MAX_VOTES:
                raise StoreFull(f"This poll has {MAX_VOTES} votes, its limit.")
            connection.execute("INSERT INTO votes (code, tab, choice) VALUES (?, ?, ?)", (code, tab, choice))
        return VoteReceipt(True, "Your vote is counted.")

    def voted(self, code: str, tab: str) -> int | None:
        """The choice ``tab`` voted for in the room of ``code`` (0-based), or None: a browser that comes back (a
        reload, another replica) finds its vote.
        """
        code = normalise_code(code)
        if not isinstance(tab, str) or not _TAB.fullmatch(tab):
            return None
        with self._connect() as connection:
            row = connection.execute("SELECT choice FROM votes WHERE code = ? AND tab = ?", (code, tab)).fetchone()
        return None if row is None else int(row[0])

    def tally(self, code: str) -> Tally:
        """The room and its votes per choice, in one consistent read."""
        code = normalise_code(code)
        with self._snapshot() as connection:  # the room and its votes as one state of the database
            room = self._room(self._row(connection, code))
            counts = [0] * len(room.choices)
            for choice, count in connection.execute("SELECT choice, COUNT(*) FROM votes WHERE code = ? "
                                                    "GROUP BY choice", (code,)).fetchall():
                counts[choice] = count
        return Tally(room=room, counts=tuple(counts), answered=sum(counts))

    def reveal(self, code: str, key: str, epsilon: float) -> Room:
        """End the voting and fix ``epsilon`` and a random seed for the release. The first reveal wins: a second one
        (another replica, a double click) returns the room as the first left it.
        """
        code = normalise_code(code)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 < epsilon < float("inf"):
            raise BadVote("ε must be a number above 0.")
        with self._write() as connection:
            row = self._open_room(connection, code, lock=True)  # two reveals at once: the second waits, then reads
            self._check_key(row, key)
            connection.execute("UPDATE rooms SET revealed_at = ?, epsilon = ?, seed = ? "
                               "WHERE code = ? AND revealed_at IS NULL",
                               (self.clock(), float(epsilon), secrets.randbits(63), code))
            return self._room(self._row(connection, code))

    def close(self, code: str, key: str) -> None:
        """Close the room now (its tally stays readable until it expires)."""
        code = normalise_code(code)
        with self._write() as connection:
            self._check_key(self._row(connection, code, lock=True), key)
            connection.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (code,))

    def attempts(self, client: str, action: str, record: bool = False) -> int:
        """How many times ``client`` (an opaque token, :func:`classroom.limits.client_token`) attempted ``action``
        (a lower-case word) in the current minute; with ``record``, this attempt is counted first, in the same
        transaction, so that replicas racing on one client agree.
        """
        if not isinstance(client, str) or not _CLIENT.fullmatch(client):
            raise BadVote("This connection has no valid client token.")
        if not isinstance(action, str) or not _ACTION.fullmatch(action):
            raise BadVote("An attempt is named by a lower-case word.")
        minute = int(self.clock() // ATTEMPT_SECONDS)
        if not record:
            with self._connect() as connection:
                row = connection.execute("SELECT count FROM attempts WHERE client = ? AND action = ? AND minute = ?",
                                         (client, action, minute)).fetchone()
            return 0 if row is None else int(row[0])
        with self._write() as connection:
            connection.execute("INSERT INTO attempts (client, action, minute, count) VALUES (?, ?, ?, 1) "
                               "ON CONFLICT (client, action, minute) DO UPDATE SET count = attempts.count + 1",
                               (client, action, minute))
            return int(connection.execute("SELECT count FROM attempts WHERE client = ? AND action = ? AND minute = ?",
                                          (client, action, minute)).fetchone()[0])

    def purge(self) -> int:
        """Remove every expired room and its votes, and the attempts of past minutes; return how many rooms went."""
        with self._write() as connection:
            return self._purge(connection, self.clock())

    @staticmethod
    def _purge(connection, now: float) -> int:
        connection.execute("DELETE FROM attempts WHERE minute < ?", (int(now // ATTEMPT_SECONDS),))
        connection.execute("DELETE FROM votes WHERE code IN (SELECT code FROM rooms WHERE expires <= ?)", (now,))
        return connection.execute("DELETE FROM rooms WHERE expires <= ?", (now,)).rowcount

    @staticmethod
    def _check_key(row: tuple, key: str) -> None:
        if not isinstance(key, str) or not hmac.compare_digest(_digest(key), row[-1]):
            raise NotTeacher("Only the teacher who opened this poll can reveal or end it.")


class SqlitePollStore(SqlPollStore):
    """The poll store in one SQLite file (WAL mode) under ``directory``, shared by every process that opens it.

    ``clock`` returns the time in seconds (``time.time``; the tests pass their own to make rooms expire). Each
    operation opens its own connection; each write is one ``BEGIN IMMEDIATE`` transaction, which holds the file's
    write lock from its start, so no row lock is needed.
    """

    def __init__(self, directory: str | os.PathLike[str], clock: Callable[[], float] = time.time):
        super().__init__(clock)
        self.directory = Path(directory)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.path = self.directory / "polls.sqlite3"
        self._secrets: dict[str, bytes] = {}
        try:
            self._create()
        except sqlite3.DatabaseError as error:
            if error.sqlite_errorname not in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
                raise
            self.path.rename(self.path.with_name(f"{self.path.name}.damaged-{int(self.clock())}"))
            for suffix in ("-wal", "-shm"):
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
            self._create()

    def _create(self) -> None:
        """The file in WAL mode with its tables (each made if missing)."""
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)
            columns = [row[1] for row in connection.execute("PRAGMA table_info(rooms)")]
            if "question_key" not in columns:  # a file of an older version
                connection.execute("ALTER TABLE rooms ADD COLUMN question_key TEXT NOT NULL DEFAULT ''")
            if "answer" not in columns:
                connection.execute("ALTER TABLE rooms ADD COLUMN answer INTEGER")

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            connection.execute("PRAGMA synchronous = NORMAL")  # durable across a crash of the app; WAL keeps it whole
            yield connection
        finally:
            connection.close()

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every statement in it sees the file as it was at the first."""
        with self._connect() as connection:
            connection.execute("BEGIN")
            try:
                yield connection
            finally:
                connection.execute("COMMIT")

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``: the write lock from the start, so check-then-insert is atomic
        across processes); rolled back on any error.
        """
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                if connection.in_transaction:  # a failed write may have rolled back already
                    connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def secret(self, name: str) -> bytes:
        """The secret in the file ``name`` of the data folder (readable by the lab's user only), made at the first
        call by an exclusive link, so replicas starting together agree on one."""
        if name not in self._secrets:
            path = self.directory / name
            if not path.exists():  # written whole under another name, then linked: a reader never sees it half made
                draft = self.directory / f".{name}.{secrets.token_hex(8)}"
                descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(descriptor, "w") as file:
                    file.write(secrets.token_hex(32))
                with contextlib.suppress(FileExistsError):  # another replica linked its own first: that one counts
                    os.link(draft, path)
                draft.unlink()
            self._secrets[name] = path.read_bytes().strip()
        return self._secrets[name]
