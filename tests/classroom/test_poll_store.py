"""The class poll's vote store (classroom.poll_store): its contract, run against every backend (SQLite, and
PostgreSQL in a throw-away cluster, tests/postgres_cluster.py; another backend adds itself to BACKENDS and must pass the
same tests).

Bad input gets a PollError whose message is clear and never repeats what was typed; nothing is double-counted;
several processes (the replicas of ./lab.sh serve) voting into one room at once give exact counts.
"""

import hashlib
import multiprocessing
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import psycopg
import pytest

from classroom import lab_store, poll_store
from classroom.poll_store import (
    AlreadyVoted,
    BadCode,
    BadVote,
    NotTeacher,
    PollError,
    RoomClosed,
    StoreFull,
    UnknownRoom,
    VotingClosed,
    new_tab_id,
)
from classroom.postgres_poll_store import PostgresPollStore
from tests import postgres_cluster

CHOICES = ["fewer than 10", "10 to 100", "more than 100"]
KEY = "K7QX2ABCDEFG"  # a teacher key
CLIENT = "client-token-0123456789abcdef"  # a client's token (classroom.limits.client_token)


def open_room(store, page, question, choices, minutes=poll_store.DEFAULT_MINUTES, key=KEY):
    """A room opened with the teacher ``key``; and the key."""
    return store.create_room(page, question, choices, key, minutes), key


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


def sqlite_store(directory, clock):
    return poll_store.SqlitePollStore(directory, clock=clock)


def postgres_store(directory, clock):
    """A PostgreSQL store whose database stands for ``directory``: two stores of one directory share a database."""
    name = "t_" + hashlib.sha256(str(directory).encode()).hexdigest()[:24]
    return PostgresPollStore(postgres_cluster.new_database(postgres_cluster.cluster_url(), name), clock=clock)


BACKENDS = {"sqlite": sqlite_store, "postgresql": postgres_store}


def rows_in(store, table):
    """How many rows ``table`` of the store's database holds (through the store's own connection)."""
    with store._connect() as connection:
        return connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    return BACKENDS[request.param]


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(backend, tmp_path, clock):
    return backend(tmp_path, clock)


@pytest.fixture
def room(store):
    return open_room(store, "noise_tradeoff", "How many people does one release hide?", CHOICES)


# ---------------------------------------------------------------------------------------------------- rooms
def test_a_new_room_has_a_short_readable_code_and_belongs_to_its_key(store, room):
    created, key = room
    assert len(created.code) == poll_store.CODE_LENGTH and set(created.code) <= set(poll_store.ALPHABET)
    assert created.choices == tuple(CHOICES) and not created.revealed and not created.closed
    assert created.expires - created.created == pytest.approx(60 * poll_store.DEFAULT_MINUTES)
    assert store.room(created.code) == created
    assert store.rooms(key) == (created,) and store.rooms("ANOTHERKEY12") == () and store.rooms("") == ()


@pytest.mark.parametrize("key", ["", None, 12])
def test_a_room_needs_a_teacher_key(store, key):
    with pytest.raises(NotTeacher, match="teacher key"):
        store.create_room("home", "Q?", ["a", "b"], key)


def test_a_keys_rooms_are_listed_newest_first_until_they_expire_and_bounded(store, monkeypatch, clock):
    monkeypatch.setattr(poll_store, "MAX_ROOMS_PER_KEY", 3)
    opened = []
    for minutes in (5, 10, 15):
        opened.append(open_room(store, "home", "Q?", ["a", "b"], minutes)[0])
        clock.now += 1
    with pytest.raises(StoreFull, match="You have 3 polls open"):
        open_room(store, "home", "Q?", ["a", "b"])
    assert open_room(store, "home", "Q?", ["a", "b"], key="ANOTHERKEY12")[0]  # another key has its own bound
    assert [room.code for room in store.rooms(KEY)] == [room.code for room in reversed(opened)]
    store.close(opened[0].code, KEY)  # an ended room is listed (closed) and no longer counts against the bound
    assert store.rooms(KEY)[-1].closed
    newest = open_room(store, "home", "Q?", ["a", "b"])[0]
    clock.now += 5 * 60  # the first (5 minutes) expires: listed no more
    assert [room.code for room in store.rooms(KEY)] == [newest.code, opened[2].code, opened[1].code]


def test_a_code_is_read_in_any_case_with_spaces_or_a_dash(store, room):
    code = room[0].code
    typed = f" {code[:2].lower()}-{code[2:]} "
    assert store.room(typed).code == code


def test_codes_are_unique(store):
    codes = {open_room(store, "home", "Q?", ["a", "b"], key=f"TEACHER{index:05d}")[0].code for index in range(50)}
    assert len(codes) == 50


ODD_CODES = ["<script>alert(1)</script>", "K7Q0X", "KIL1O", "AB CD É", "'; DROP TABLE rooms; --", "A" * 100,
             "ABC\x00D", "ＫＡＢＣＤ", "**bold**", "$x$"]


@pytest.mark.parametrize("code", ODD_CODES)
def test_odd_characters_are_refused_with_a_clear_message_that_does_not_repeat_them(store, room, code):
    for operation in (lambda: store.room(code), lambda: store.vote(code, new_tab_id(), 0), lambda: store.tally(code),
                      lambda: store.reveal(code, room[1], 1.0), lambda: store.close(code, room[1])):
        with pytest.raises(BadCode) as refused:
            operation()
        message = str(refused.value)
        assert "room code" in message and "<" not in message and "DROP" not in message and "*" not in message


@pytest.mark.parametrize("code, words", [("", "Type the room code"), ("ABC", "this one has 3"), (None, "is text"),
                                         (12345, "is text")])
def test_empty_short_and_non_text_codes_are_refused(store, code, words):
    with pytest.raises(BadCode, match=words):
        store.room(code)


def test_an_unknown_code_is_refused(store, room):
    unknown = "22222" if room[0].code != "22222" else "33333"
    for operation in (lambda: store.room(unknown), lambda: store.vote(unknown, new_tab_id(), 0),
                      lambda: store.tally(unknown)):
        with pytest.raises(UnknownRoom, match="No poll has this code"):
            operation()


@pytest.mark.parametrize("question, choices, minutes", [("", CHOICES, 10), ("Q?", ["only one"], 10),
                                                         ("Q?", ["a"] * 13, 10), ("Q?", ["a", ""], 10),
                                                         ("Q?", "ab", 10), ("Q" * 601, CHOICES, 10),
                                                         ("Q?", CHOICES, 0), ("Q?", CHOICES, 241),
                                                         ("Q?", CHOICES, float("nan")), ("Q?", [1, 2], 10)])
def test_a_room_needs_a_question_two_to_twelve_choices_and_a_bounded_lifetime(store, question, choices, minutes):
    with pytest.raises(BadVote):
        open_room(store, "home", question, choices, minutes)


def test_open_rooms_are_bounded(store, monkeypatch, clock):
    monkeypatch.setattr(poll_store, "MAX_ROOMS", 3)
    for _ in range(3):
        open_room(store, "home", "Q?", ["a", "b"], minutes=10)
    with pytest.raises(StoreFull, match="3 polls are open"):
        open_room(store, "home", "Q?", ["a", "b"])
    clock.now += 10 * 60  # they expire: a new room removes them and fits
    open_room(store, "home", "Q?", ["a", "b"])
    assert store.purge() == 0


# ---------------------------------------------------------------------------------------------------- votes
def test_votes_are_counted_per_choice(store, room):
    code = room[0].code
    for choice in (0, 2, 2, 1, 2):
        assert store.vote(code, new_tab_id(), choice).counted
    tally = store.tally(code)
    assert tally.counts == (1, 1, 3) and tally.answered == 5


def test_a_replayed_vote_is_counted_once_and_another_choice_is_refused(store, room):
    code, tab = room[0].code, new_tab_id()
    assert store.vote(code, tab, 1).counted
    receipt = store.vote(code, tab, 1)
    assert not receipt.counted and "already counted" in receipt.message
    with pytest.raises(AlreadyVoted, match="one vote per browser"):
        store.vote(code, tab, 0)
    assert store.tally(code).counts == (0, 1, 0)


def test_a_browser_finds_its_vote_and_only_its_own(store, room):
    code, tab = room[0].code, new_tab_id()
    assert store.voted(code, tab) is None
    store.vote(code, tab, 2)
    assert store.voted(code, tab) == 2 and store.voted(f" {code.lower()} ", tab) == 2
    assert store.voted(code, new_tab_id()) is None and store.voted(code, "short") is None
    assert store.voted("22222" if code != "22222" else "33333", tab) is None


def test_a_flood_from_one_tab_counts_once(store, room):
    code, tab = room[0].code, new_tab_id()
    refused = counted = 0
    for index in range(300):
        try:
            counted += store.vote(code, tab, index % 3).counted
        except AlreadyVoted:
            refused += 1
    assert counted == 1 and refused == 200  # 100 replays of choice 0, 200 votes for another
    assert store.tally(code).counts == (1, 0, 0)


def test_votes_per_room_are_bounded(store, room, monkeypatch):
    monkeypatch.setattr(poll_store, "MAX_VOTES", 4)
    code = room[0].code
    for _ in range(4):
        store.vote(code, new_tab_id(), 0)
    with pytest.raises(StoreFull, match="4 votes, its limit"):
        store.vote(code, new_tab_id(), 1)
    assert store.tally(code).answered == 4


@pytest.mark.parametrize("choice", [-1, 3, 1.0, True, "0", None])
def test_a_choice_outside_the_question_is_refused(store, room, choice):
    with pytest.raises(BadVote, match="Pick one of the 3 answers"):
        store.vote(room[0].code, new_tab_id(), choice)
    assert store.tally(room[0].code).answered == 0


@pytest.mark.parametrize("tab", ["", "short", "a" * 65, "name@example.org" * 2, "<b>tab</b>xxxxxxxxxx", None, 7])
def test_a_tab_id_must_be_a_random_token(store, room, tab):
    with pytest.raises(BadVote, match="no valid voter id"):
        store.vote(room[0].code, tab, 0)


# ---------------------------------------------------------------------------------------------------- reveal, close
def test_a_vote_after_the_reveal_is_refused_and_the_first_reveal_wins(store, room):
    (created, key), tab = room, new_tab_id()
    store.vote(created.code, tab, 0)
    revealed = store.reveal(created.code, key, 0.5)
    assert revealed.revealed and revealed.epsilon == 0.5 and isinstance(revealed.seed, int)
    with pytest.raises(VotingClosed, match="revealed"):
        store.vote(created.code, new_tab_id(), 1)
    with pytest.raises(VotingClosed):
        store.vote(created.code, tab, 0)  # even a replay
    again = store.reveal(created.code, key, 2.0)  # a second reveal (a double click, another replica)
    assert (again.epsilon, again.seed) == (0.5, revealed.seed)
    assert store.tally(created.code).counts == (1, 0, 0)


def test_each_reveal_draws_its_own_seed(store):
    seeds = set()
    for _ in range(5):
        created, key = open_room(store, "home", "Q?", ["a", "b"])
        seeds.add(store.reveal(created.code, key, 1.0).seed)
    assert len(seeds) == 5


@pytest.mark.parametrize("epsilon", [0, -1, float("inf"), float("nan"), "1", True])
def test_reveal_needs_a_positive_epsilon(store, room, epsilon):
    with pytest.raises(BadVote, match="above 0"):
        store.reveal(room[0].code, room[1], epsilon)


def test_only_the_teacher_key_reveals_or_closes(store, room):
    code = room[0].code
    for key in ("guess", "", None, room[1] + "x"):
        with pytest.raises(NotTeacher):
            store.reveal(code, key, 1.0)
        with pytest.raises(NotTeacher):
            store.close(code, key)
    assert not store.room(code).revealed and not store.room(code).closed


def test_a_closed_room_takes_no_vote_and_no_reveal_but_keeps_its_tally(store, room):
    (created, key) = room
    store.vote(created.code, new_tab_id(), 2)
    store.close(created.code, key)
    assert store.room(created.code).closed
    with pytest.raises(RoomClosed, match="ended"):
        store.vote(created.code, new_tab_id(), 0)
    with pytest.raises(RoomClosed):
        store.reveal(created.code, key, 1.0)
    assert store.tally(created.code).counts == (0, 0, 1)


def test_an_expired_room_takes_no_vote_and_is_removed_with_its_votes(store, clock):
    created, key = open_room(store, "home", "Q?", ["a", "b"], minutes=5)
    store.vote(created.code, new_tab_id(), 1)
    clock.now += 5 * 60 - 1
    store.vote(created.code, new_tab_id(), 1)
    clock.now += 1
    assert store.room(created.code).closed
    with pytest.raises(RoomClosed):
        store.vote(created.code, new_tab_id(), 0)
    with pytest.raises(RoomClosed):
        store.reveal(created.code, key, 1.0)
    assert store.tally(created.code).answered == 2  # readable until removed
    assert store.purge() == 1
    with pytest.raises(UnknownRoom):
        store.tally(created.code)


# ---------------------------------------------------------------------------------------------------- attempts
def test_attempts_are_counted_per_client_action_and_minute_and_purged(store, clock):
    clock.now = 60 * 30_000_000 + 10  # ten seconds into a minute
    assert store.attempts(CLIENT, "code") == 0
    assert [store.attempts(CLIENT, "code", record=True) for _ in range(3)] == [1, 2, 3]
    assert store.attempts(CLIENT, "code") == 3 and store.attempts(CLIENT, "vote") == 0
    assert store.attempts(CLIENT[::-1], "code") == 0  # another client
    clock.now += 49
    assert store.attempts(CLIENT, "code") == 3  # the same minute
    clock.now += 1
    assert store.attempts(CLIENT, "code") == 0  # the next one
    store.purge()
    assert rows_in(store, "attempts") == 0


@pytest.mark.parametrize("client, action", [("", "code"), ("short", "code"), ("1.2.3.4 with spaces", "code"),
                                            (None, "code"), (CLIENT, ""), (CLIENT, "Code"), (CLIENT, "x" * 21)])
def test_attempts_take_a_client_token_and_a_word(store, client, action):
    with pytest.raises(BadVote):
        store.attempts(client, action, record=True)


# ---------------------------------------------------------------------------------------------------- the store
def test_every_error_is_a_poll_error_with_a_sentence():
    for error in (BadCode, UnknownRoom, RoomClosed, VotingClosed, AlreadyVoted, BadVote, NotTeacher, StoreFull):
        assert issubclass(error, PollError) and issubclass(error, ValueError)


def test_two_stores_on_one_directory_share_the_rooms(backend, tmp_path, clock):
    """Two replicas: a room opened on one takes votes on the other."""
    first, second = backend(tmp_path, clock), backend(tmp_path, clock)
    created, key = open_room(first, "home", "Q?", ["a", "b"])
    second.vote(created.code, new_tab_id(), 1)
    assert first.tally(created.code).counts == (0, 1)
    assert second.reveal(created.code, key, 1.0).seed == first.room(created.code).seed


def test_sqlite_is_in_wal_mode_and_stores_nothing_personal(tmp_path, clock):
    store = poll_store.SqlitePollStore(tmp_path / "data", clock=clock)
    created, _ = open_room(store, "home", "Q?", ["a", "b"])
    store.vote(created.code, new_tab_id(), 0)
    with sqlite3.connect(store.path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        columns = {table: [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
                   for table in ("rooms", "votes")}
        key_digest = connection.execute("SELECT key_digest FROM rooms").fetchone()[0]
    assert columns["votes"] == ["code", "tab", "choice"]  # a random tab id, nothing else about a voter
    assert "key" not in columns["rooms"] and len(key_digest) == 64  # the teacher key only as its hash
    assert (tmp_path / "data").stat().st_mode & 0o077 == 0


def test_the_data_directory_is_configurable_and_ignored_by_git(monkeypatch, tmp_path):
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / "polls"))
    assert poll_store.default_data_dir() == tmp_path / "polls"
    assert lab_store.default_store().path == tmp_path / "polls" / "polls.sqlite3"
    monkeypatch.delenv("DPLAB_DATA_DIR")
    default = poll_store.default_data_dir()
    assert default.name == ".lab-data"
    assert ".lab-data/" in (default.parent / ".gitignore").read_text().splitlines()


# ---------------------------------------------------------------------------------------------------- processes
VOTERS_PER_PROCESS = 200
FLOOD = 25


def choice_of(voter: int) -> int:
    return (voter * 7) % 3


def vote_from_a_process(name: str, directory: str, code: str, first: int, barrier, results) -> None:
    """One replica (or one machine): its voters vote at once with the other's, each twice (the second a replay), and
    one tab shared by both floods the room."""
    store = BACKENDS[name](directory, time.time)
    barrier.wait()
    counted = refused = 0
    for voter in range(first, first + VOTERS_PER_PROCESS):
        tab = f"voter-{voter:04d}-{'x' * 12}"
        counted += store.vote(code, tab, choice_of(voter)).counted
        counted += store.vote(code, tab, choice_of(voter)).counted  # replayed: never counted
        for _ in range(FLOOD if voter == first else 0):
            try:
                counted += store.vote(code, "the-same-tab-in-both-replicas", 0).counted
            except AlreadyVoted:
                refused += 1
    results.put((counted, refused))


def in_two_processes(target, arguments) -> list:
    """``target(*arguments(i), barrier, results)`` in two processes (i = 0, 1) that start together; what each put in
    ``results``."""
    # fork: the children start at once (spawn would import Streamlit with ui, seconds each); a child opens its own
    # connections (SQLite: every operation opens its own; PostgreSQL: a store's connections belong to its process)
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(2), context.Queue()
    processes = [context.Process(target=target, args=(*arguments(index), barrier, results)) for index in range(2)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    return outcomes


def test_four_hundred_voters_in_two_processes_count_exactly_four_hundred(backend, tmp_path):
    name = next(name for name, made in BACKENDS.items() if made is backend)
    store = backend(tmp_path, time.time)
    created, key = open_room(store, "home", "Q?", CHOICES)
    outcomes = in_two_processes(vote_from_a_process,
                                lambda index: (name, str(tmp_path), created.code, index * VOTERS_PER_PROCESS))
    expected = [0, 0, 0]
    for voter in range(2 * VOTERS_PER_PROCESS):
        expected[choice_of(voter)] += 1
    expected[0] += 1  # the shared tab, once
    tally = store.tally(created.code)
    assert list(tally.counts) == expected and tally.answered == 2 * VOTERS_PER_PROCESS + 1 == 401
    assert sum(counted for counted, _ in outcomes) == tally.answered
    assert sum(refused for _, refused in outcomes) == 0  # the flood repeats one choice: replays, never refusals


def reveal_from_a_process(name: str, directory: str, code: str, key: str, barrier, results) -> None:
    store = BACKENDS[name](directory, time.time)
    barrier.wait()
    results.put(store.reveal(code, key, 1.0).seed)


def test_two_reveals_at_once_agree_on_one_seed(backend, tmp_path):
    name = next(name for name, made in BACKENDS.items() if made is backend)
    store = backend(tmp_path, time.time)
    for _ in range(5):
        created, key = open_room(store, "home", "Q?", CHOICES)
        where = (name, str(tmp_path), created.code, key)
        seeds = in_two_processes(reveal_from_a_process, lambda index, where=where: where)
        assert seeds[0] == seeds[1] == store.room(created.code).seed is not None


def test_sessions_in_threads_of_one_process_give_exact_counts(store):
    """Streamlit runs each session in a thread of its replica: 8 threads of 10 voters each, plus replays."""
    created, _ = open_room(store, "home", "Q?", CHOICES)
    start = threading.Barrier(8)

    def voters(first):
        start.wait()
        for voter in range(first, first + 10):
            for _ in range(2):
                store.vote(created.code, f"thread-voter-{voter:04d}-xxxx", choice_of(voter))

    threads = [threading.Thread(target=voters, args=(10 * index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    expected = [sum(1 for voter in range(80) if choice_of(voter) == choice) for choice in range(3)]
    assert list(store.tally(created.code).counts) == expected


# ---------------------------------------------------------------------------------------------------- faults
def test_a_room_keeps_its_right_answer_if_it_has_one(store):
    assert open_room(store, "home", "Q?", ["a", "b", "c"])[0].answer is None
    created = store.create_room("home", "Q?", ["a", "b", "c"], KEY, 10, answer=2)
    assert created.answer == 2 and store.room(created.code).answer == 2
    assert {room.code: room.answer for room in store.rooms(KEY)}[created.code] == 2
    for bad in (3, -1, True, 1.0, "1"):
        with pytest.raises(BadVote, match="right answer is one of its choices"):
            store.create_room("home", "Q?", ["a", "b", "c"], KEY, 10, answer=bad)


def test_a_room_is_found_by_its_question_key_whatever_its_text(store):
    created = store.create_room("truncation-bias", "At n = 10, which t?", ["a", "b"], KEY, 10, question_key="radius")
    assert created.question_key == "radius" and store.rooms(KEY)[0].question_key == "radius"
    for bad in ("Radius", "a b", "x" * 41, None):
        with pytest.raises(BadVote, match="named by lower-case"):
            store.create_room("home", "Q?", ["a", "b"], KEY, 10, question_key=bad)


def test_an_older_file_without_question_keys_is_read_and_gains_them(tmp_path, clock):
    with sqlite3.connect(tmp_path / "polls.sqlite3") as connection:  # the store's file before question keys
        connection.executescript(poll_store._SCHEMA.replace("    question_key TEXT NOT NULL DEFAULT '',\n", "")
                                 .replace("    answer INTEGER,\n", ""))
        connection.execute("INSERT INTO rooms (code, page, question, choices, key_digest, created, expires) VALUES "
                           "('K7QX2', 'home', 'Q?', '[\"a\", \"b\"]', 'digest', ?, ?)", (clock.now, clock.now + 600))
    store = poll_store.SqlitePollStore(tmp_path, clock=clock)
    assert store.room("K7QX2").question_key == "" and store.room("K7QX2").answer is None
    assert store.tally("K7QX2").answered == 0
    assert open_room(store, "home", "Q?", ["a", "b"])[0].question_key == ""


def test_a_damaged_file_is_set_aside_and_a_new_one_started(tmp_path, clock):
    store = poll_store.SqlitePollStore(tmp_path, clock=clock)
    code = open_room(store, "home", "Q?", ["a", "b"])[0].code
    store.path.write_bytes(b"not a database at all " * 100)
    with pytest.raises(sqlite3.DatabaseError) as fault:
        store.tally(code)
    assert "damaged" in poll_store.fault_message(fault.value)
    again = poll_store.SqlitePollStore(tmp_path, clock=clock)  # what the page opens after a fault
    damaged = [path.name for path in tmp_path.glob("polls.sqlite3.damaged-*")]
    assert damaged == [f"polls.sqlite3.damaged-{clock.now:.0f}"]
    with pytest.raises(UnknownRoom):
        again.tally(code)
    assert again.vote(open_room(again, "home", "Q?", ["a", "b"])[0].code, new_tab_id(), 1).counted


def test_a_file_or_folder_deleted_under_the_store_is_made_again_by_the_next_store(tmp_path, clock):
    directory = tmp_path / "data"
    store = poll_store.SqlitePollStore(directory, clock=clock)
    open_room(store, "home", "Q?", ["a", "b"])
    store.path.unlink()
    with pytest.raises(sqlite3.OperationalError) as fault:
        store.rooms(KEY)
    assert "removed" in poll_store.fault_message(fault.value)
    assert poll_store.SqlitePollStore(directory, clock=clock).rooms(KEY) == ()
    for name in ("polls.sqlite3", "polls.sqlite3-wal", "polls.sqlite3-shm"):
        (directory / name).unlink(missing_ok=True)
    directory.rmdir()
    with pytest.raises(sqlite3.OperationalError) as fault:
        open_room(store, "home", "Q?", ["a", "b"])
    assert "cannot be written" in poll_store.fault_message(fault.value)
    assert open_room(poll_store.SqlitePollStore(directory, clock=clock), "home", "Q?", ["a", "b"])[0].code


def test_a_lock_held_by_another_program_is_waited_for_briefly_then_a_message(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(poll_store, "BUSY_SECONDS", 0.2)
    store = poll_store.SqlitePollStore(tmp_path, clock=clock)
    code = open_room(store, "home", "Q?", ["a", "b"])[0].code
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError) as fault:
            store.vote(code, new_tab_id(), 0)
    finally:
        holder.close()
    assert "locked by another program" in poll_store.fault_message(fault.value)
    assert store.vote(code, new_tab_id(), 0).counted  # released: the same store goes on


@pytest.mark.parametrize("error, words", [
    (sqlite3.OperationalError("database or disk is full"), "disk is full"),
    (OSError(28, "No space left on device"), "disk is full"),
    (PermissionError(13, "Permission denied: '/srv/lab/.lab-data'"), "cannot be written"),
    (sqlite3.DatabaseError("something else"), "reported an error"),
])
def test_every_fault_reads_as_a_sentence_without_paths(error, words):
    if isinstance(error, sqlite3.Error) and "full" in str(error):
        error.sqlite_errorname = "SQLITE_FULL"
    message = poll_store.fault_message(error)
    assert words in message and "/srv" not in message and "sqlite" not in message.lower()
    assert message.startswith("The class poll cannot work just now")


# ---------------------------------------------------------------------------------------------------- PostgreSQL
def test_the_environment_names_the_backend(monkeypatch, tmp_path):
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv(lab_store.STORE_ENV, raising=False)
    assert isinstance(lab_store.default_store(), poll_store.SqlitePollStore)
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    monkeypatch.setenv(lab_store.STORE_ENV, url)
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / "host"))
    store = lab_store.default_store()
    assert isinstance(store, PostgresPollStore) and "host=" not in repr(store)
    created, _ = open_room(store, "home", "Q?", ["a", "b"])
    assert PostgresPollStore(url).room(created.code) == store.room(created.code)  # another machine sees it
    assert not (tmp_path / "host").exists()  # nothing in this machine's folder
    monkeypatch.setenv(lab_store.STORE_ENV, "mysql://lab:hunter2@db/polls")
    with pytest.raises(ValueError, match="PostgreSQL") as refused:
        lab_store.default_store()
    assert "hunter2" not in str(refused.value)


def test_an_unreachable_server_is_a_fault_with_a_sentence_that_names_no_server(tmp_path):
    url = f"postgresql://lab:hunter2@/polls?host={tmp_path}"  # no server listens in this folder
    with pytest.raises(poll_store.StoreFault) as fault:
        PostgresPollStore(url)
    message = poll_store.fault_message(fault.value)
    assert "cannot be reached" in message and "rest of this page works" in message
    assert not {"hunter2", str(tmp_path), "polls", "postgres"} & set(message.replace(".", " ").split())


def test_a_read_only_database_refuses_votes_with_a_sentence_and_still_shows_the_room():
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    created, _ = open_room(PostgresPollStore(url), "home", "Q?", ["a", "b"])
    name = url.split("@/")[1].split("?")[0]
    with psycopg.connect(postgres_cluster.cluster_url(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    store = PostgresPollStore(url)  # a machine starting now: its connections are read-only
    with pytest.raises(poll_store.StoreFault) as fault:
        store.vote(created.code, new_tab_id(), 0)
    assert "read-only" in poll_store.fault_message(fault.value)
    assert store.tally(created.code).answered == 0  # the projector still shows the room


def test_a_connection_the_server_ended_is_one_fault_then_the_store_works_on():
    """A restarted or failed-over server ends every connection: the next operation says so, the one after works."""
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    store = PostgresPollStore(url)
    created, _ = open_room(store, "home", "Q?", ["a", "b"])
    name = url.split("@/")[1].split("?")[0]
    with psycopg.connect(postgres_cluster.cluster_url(), autocommit=True) as admin:
        ended = admin.execute("SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
                              (name,)).fetchone()[0]
    assert ended >= 1
    with pytest.raises(poll_store.StoreFault) as fault:
        store.tally(created.code)
    assert "cannot be reached" in poll_store.fault_message(fault.value)
    assert store.vote(created.code, new_tab_id(), 1).counted and store.tally(created.code).counts == (0, 1)


def test_the_receipt_secret_is_shared_through_the_database_not_a_folder(tmp_path):
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    first, second = PostgresPollStore(url), PostgresPollStore(url)  # two machines
    assert first.secret("receipt-secret") == second.secret("receipt-secret")
    assert len(first.secret("receipt-secret")) == 64 and first.secret("other") != first.secret("receipt-secret")
    sqlite = poll_store.SqlitePollStore(tmp_path)
    assert sqlite.secret("receipt-secret") == poll_store.SqlitePollStore(tmp_path).secret("receipt-secret")
    assert (tmp_path / "receipt-secret").stat().st_mode & 0o077 == 0


def test_the_start_check_says_which_store_and_never_the_password(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path))
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    assert lab_store.main([url]) == 0
    assert capsys.readouterr().out.startswith(f"Class poll store: PostgreSQL database {url.split('@/')[1][:34]}")
    assert lab_store.main(["postgresql://lab:hunter2@/polls?host=/nowhere"]) == 2
    said = capsys.readouterr().err
    assert "cannot be reached" in said and "hunter2" not in said and "Traceback" not in said
    assert lab_store.main(["mysql://lab:hunter2@db/polls"]) == 2 and "hunter2" not in capsys.readouterr().err
    assert lab_store.main([""]) == 0 and "SQLite" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["serve", "app"])
def test_lab_sh_checks_the_poll_store_before_it_starts(command, tmp_path):
    """``./lab.sh serve|app --poll-store URL``: a store that cannot be opened stops the start (status 2), in words."""
    root = Path(__file__).resolve().parents[2]
    environment = {key: value for key, value in os.environ.items() if key != lab_store.STORE_ENV}
    for url, words in ((f"postgresql://lab:hunter2@/polls?host={tmp_path}", "cannot be reached"),
                       ("mysql://lab:hunter2@db/polls", "names a PostgreSQL database")):
        result = subprocess.run([str(root / "lab.sh"), command, "--poll-store", url], cwd=root, env=environment,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 2 and words in result.stderr, result.stderr[-500:]
        assert "hunter2" not in result.stdout + result.stderr and "Traceback" not in result.stderr


def secret_from_a_process(directory: str, barrier, results) -> None:
    store = poll_store.SqlitePollStore(directory)
    barrier.wait()
    results.put(store.secret("receipt-secret"))


def test_replicas_making_the_folders_secret_at_once_agree_on_one(tmp_path):
    for round_ in range(10):
        folder = tmp_path / str(round_)
        made = in_two_processes(secret_from_a_process, lambda index, folder=folder: (str(folder),))
        assert made[0] == made[1] == (folder / "receipt-secret").read_bytes().strip() and len(made[0]) == 64
        assert sorted(path.name for path in folder.iterdir() if "secret" in path.name) == ["receipt-secret"]
