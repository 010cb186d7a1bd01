"""A class poll across two replicas, over Streamlit's websocket (benchmarks/poll_client.py, docs/testing.md §8).

Two ``streamlit run`` servers share one poll store (one ``DPLAB_DATA_DIR``), as the replicas of ``./lab.sh serve`` do.
A teacher on replica A opens a room on ``/truncation-bias``; 60 voters, 30 per replica, vote together from their own
tabs, some sending their vote twice (a double tap: counted once), a few sending another answer after theirs (refused,
with the page's message), a few tapping twice with the answer changed before the page redrew (the page says which
answer counted, and the store agrees); a link with a mistyped code and one with an unknown code show their messages.
The store then holds exactly the intended votes per answer. The teacher reveals; a voter of each replica sees, on its
next check, the same released counts as the teacher's screen (drawn from the room's secret seed), and a late vote is
refused.
"""

import os
import random
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from conftest import APP_DIR

sys.path.insert(0, str(APP_DIR / "benchmarks"))
from interaction_latency import SUCCESS, free_port, start_server, stop_server  # noqa: E402
from poll_client import Student, Teacher, alerts, answered, bodies, open_socket, released  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402
from websockets.sync.client import ClientConnection  # noqa: E402

from classroom import poll  # noqa: E402
from classroom.poll_store import SqlitePollStore  # noqa: E402
from dpcore.lessons import class_poll  # noqa: E402

VOTERS = 60  # 30 per replica
THREADS = 16  # voters in flight at once
RUN_SECONDS = 60.0  # any one run
BOUND_SECONDS = 90.0  # the whole test, servers started
REPLAYS = range(1, VOTERS, 10)  # voters who send their vote twice
CHANGES = range(7, VOTERS, 20)  # voters who then send another answer
RACES = range(13, VOTERS, 20)  # voters who tap twice, the answer changed between, before the page redraws
_COUNTED = re.compile(r"Your answer is in: (.+?)\. The class")
ALREADY = "This browser has voted already: one vote per browser."
CLOSED = "The teacher has revealed the results: voting is over."


@contextmanager
def two_replicas(tmp_path):
    """Two servers sharing the poll store in ``tmp_path / "data"``: their ``ws://`` URLs."""
    env = os.environ | {"DPLAB_DATA_DIR": str(tmp_path / "data")}
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for index, port in enumerate(ports):
            server = start_server(port, tmp_path / f"replica-{index}.log", env=env)
            stack.callback(stop_server, server)
        yield [f"ws://127.0.0.1:{port}" for port in ports]


@dataclass
class Voter:
    """One voter's tab: its replica, the answer it meant, and what its runs showed."""

    index: int
    url: str
    choice: str = ""
    statuses: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    disconnected: str = ""
    student: Student | None = None


def vote(voter: Voter, ws: ClientConnection, code: str, rng: random.Random) -> Voter:
    """Open the poll's link in the tab ``ws`` and send a seeded answer: twice (a double tap), or another one after it,
    as the voter's index says."""
    student = Student(ws, code, RUN_SECONDS)
    runs = [student.open()]
    choices = student.choices
    voter.choice = rng.choice(choices)
    if voter.index in RACES:  # the page says which tap counted: that one is the vote
        runs.append(student.double_tap(voter.choice, next(choice for choice in choices if choice != voter.choice)))
        counted = [match.group(1) for text in alerts(runs[-1]) if (match := _COUNTED.match(text))]
        voter.choice = counted[0] if counted else "(the page says no answer counted)"
    else:
        runs.append(student.vote(voter.choice))
    if voter.index in REPLAYS:
        runs.append(student.vote(voter.choice))
    if voter.index in CHANGES:
        runs.append(student.vote(next(choice for choice in choices if choice != voter.choice)))
    voter.statuses = [run.status for run in runs]
    voter.exceptions = [text for run in runs for text in run.exceptions]
    voter.alerts, voter.student = alerts(runs[-1]), student
    return voter


def vote_in_own_tab(voter: Voter, code: str, rng: random.Random, tab: ClientConnection | None = None) -> Voter:
    """:func:`vote` in ``tab`` (left open), or in a tab of its own closed after; a lost connection is recorded."""
    try:
        if tab is not None:
            return vote(voter, tab, code, rng)
        with open_socket(voter.url, RUN_SECONDS) as ws:
            return vote(voter, ws, code, rng)
    except (WebSocketException, OSError) as error:
        voter.disconnected = f"{type(error).__name__}: {error}"
        return voter


def class_votes(urls: list[str], code: str, tabs: ExitStack) -> list[Voter]:
    """The 60 voters, alternately on each replica, ``THREADS`` at a time; voters 0 (replica A) and 1 (replica B) vote
    in tabs that stay open (closed by ``tabs``)."""
    rng = random.Random(29)
    seeds = [rng.randrange(2**32) for _ in range(VOTERS)]
    voters = [Voter(index, urls[index % 2]) for index in range(VOTERS)]
    kept = [tabs.enter_context(open_socket(voter.url, RUN_SECONDS)) for voter in voters[:2]]
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(lambda v: vote_in_own_tab(v, code, random.Random(seeds[v.index]),
                                                       kept[v.index] if v.index < 2 else None), voters))


def visit(url: str, query: str) -> tuple[list[str], list[str], list[str]]:
    """Open the poll's page at ``?query`` on ``url``: the run's status, exceptions, and the texts it shows."""
    with open_socket(url, RUN_SECONDS) as ws:
        student = Student(ws, "", RUN_SECONDS)
        student.session.query = query
        run = student.open()
    return [run.status], run.exceptions, bodies(run, "markdown", "alert", "html")


def test_sixty_voters_on_two_replicas_are_counted_once_each_and_see_one_release(tmp_path):
    began = time.monotonic()
    with two_replicas(tmp_path) as urls, ExitStack() as tabs:
        store = SqlitePollStore(tmp_path / "data")
        teacher = Teacher(tabs.enter_context(open_socket(urls[0], RUN_SECONDS, teacher=True)), RUN_SECONDS)
        assert not teacher.open().failed
        code = teacher.start_poll()
        assert answered(teacher.last) == 0 and teacher.interval == poll.TEACHER_SECONDS
        late = Student(tabs.enter_context(open_socket(urls[1], RUN_SECONDS)), code, RUN_SECONDS)
        assert not late.open().failed and late.has_ballot  # opened before the reveal; votes after it
        forger = Student(tabs.enter_context(open_socket(urls[1], RUN_SECONDS)), code, RUN_SECONDS)
        assert not forger.open().failed
        forged = forger.vote("an answer the question does not have")  # a value no radio offers, sent by hand
        assert forged.exceptions == [] and "Pick one of the answers shown first." in alerts(forged)

        voters = class_votes(urls, code, tabs)
        assert [v.index for v in voters if v.disconnected or v.exceptions] == [], [
            (v.index, v.disconnected, v.exceptions) for v in voters if v.disconnected or v.exceptions]
        assert all(status in SUCCESS for voter in voters for status in voter.statuses)
        for voter in voters:
            assert f"Your answer is in: {voter.choice}. " in " ".join(voter.alerts), (voter.index, voter.alerts)
            assert not voter.student.has_ballot and voter.student.interval == poll.STUDENT_SECONDS
            if voter.index not in RACES:  # a race refuses the second tap, or merges the taps: either is right
                assert (ALREADY in voter.alerts) == (voter.index in CHANGES), (voter.index, voter.alerts)

        intended = Counter(voter.choice for voter in voters)
        tally = store.tally(code)
        assert tally.counts == tuple(intended[choice] for choice in tally.room.choices) and tally.answered == VOTERS
        assert len(intended) >= 2  # the seeded answers spread over the choices
        count = teacher.poll()  # the projector's next count, on replica A, of votes sent to both replicas
        assert not count.failed and answered(count) == VOTERS

        bad, unknown = visit(urls[1], "room=%3Cb%3E1%3C%2Fb%3E"), visit(urls[0], "room=ZZZZZ" if code != "ZZZZZ"
                                                                          else "room=YYYYY")
        for (statuses, exceptions, texts), message in [(bad, "A room code has 5 letters"), (unknown, "No poll")]:
            assert statuses == ["FINISHED_SUCCESSFULLY"] and exceptions == []
            assert any(text.startswith(message) for text in texts), texts
        assert not any("b>1" in text or "b&gt;1" in text for text in bad[2])  # the typed code is not echoed

        revealed = teacher.reveal()
        room = store.room(code)
        expected = class_poll.poll_result(list(tally.counts), list(room.choices), room.epsilon, noise=poll.NOISE,
                                          seed=room.seed).released_counts
        on_teacher = released(revealed)
        assert on_teacher == [(label, str(int(count))) for label, count in zip(room.choices, expected)]
        for voter in voters[:2]:  # the voters' 4 s check sees the reveal and redraws the page (replica A, then B)
            check = voter.student.poll()
            assert not check.failed and check.exceptions == [] and released(check) == on_teacher

        late_vote = late.vote(late.choices[0])
        assert CLOSED in alerts(late_vote) and released(late_vote) == on_teacher
        assert store.tally(code).counts == tally.counts
    assert time.monotonic() - began < BOUND_SECONDS
