"""Two hosts behind one address, one of them killed in the middle of a class poll (``deploy/hosts.py``).

What it measures
    Two hosts on loopback, each ``./lab.sh serve`` with one replica (``deploy/replicas.py``: nginx and Streamlit) and
    a data folder of its own (no shared disk), the same teacher key and receipt secret, one PostgreSQL poll store;
    the outer nginx of ``deploy/hosts.py`` in front. A teacher opens a poll on the first host (its own address); N
    students open the poll's link through the outer nginx (its cookie spreads them over both hosts) and vote one
    after another, a vote every :data:`VOTE_GAP` seconds. Once half of them have voted, the whole first host is
    killed (SIGKILL to its nginx's and its replica's process groups): its students' tabs reconnect at once through
    the outer nginx, land on the other host, and reopen the page with the voter id their browser keeps (a cookie):
    it shows their vote if they had voted (a vote in flight at the kill counts or not, and the page says which), or
    the ballot; everyone votes in turn. A few students then send another answer from a second tab (refused: one vote
    per browser). The teacher reopens the page on the surviving host, finds the room, and reveals; every student's
    next check shows the release. Printed: the votes' seconds (p50 / p95 / max) before and after the kill, the time
    to recover (from the kill until each moved student's page is back and shows its vote, p50 / p95 / max), how the
    students spread over the hosts, the tally against the number of voters, and how many screens show the teacher's
    release.

Method
    The websocket client of ``poll_client.py`` (docs/testing.md §8), one thread per student; a student's browser
    sends its cookies (the outer ``dplab_host``, the host's ``dplab_replica``, the voter id ``dplab_voter``, which
    the page writes with a script) with each new tab, as a browser does. The store is a database of a throw-away
    cluster (``tests/postgres_cluster.py``), or ``--poll-store URL``. Every run is bounded by ``--timeout`` seconds.

Targets on the 2-core machine: no vote lost, none counted twice (the tally equals the voters, per answer as each
student's page says); every student's screen shows the teacher's release; recovery max <= 10 s; the votes' p95 <= 1 s
before the kill and <= 2 s after it (one host then serves the whole class, and the moved students' pages open at once).

Run: ``.venv/bin/python benchmarks/two_hosts.py [--students 60] [--poll-store URL] [--timeout 60]``. Loopback only.
Without ``--poll-store`` it needs PostgreSQL's programs (``./lab.sh test`` installs them; without them it says so and
stops). Exits 1 on a lost or double vote, a student left without the release, or an exception on a page.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import secrets
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from interaction_latency import percentile
from load import free_port_block
from poll_client import Student, Teacher, alerts, answered, bodies, open_socket, released
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from classroom import teacher_key  # noqa: E402 (after interaction_latency puts the repository on sys.path)
from classroom.lab_store import STORE_ENV  # noqa: E402
from classroom.poll_store import Tally  # noqa: E402
from classroom.postgres_poll_store import PostgresPollStore  # noqa: E402
from classroom.receipts import SECRET_ENV  # noqa: E402
from deploy.hosts import HEADER, OuterBalancer  # noqa: E402
from deploy.replicas import Deployment, stop_groups  # noqa: E402

STUDENTS = 60  #: students in the room (``--students``)
VOTE_GAP = 0.1  #: seconds between two students' votes
OPEN_THREADS = 16  #: students opening the poll's link at once, before the voting
TARGET_RECOVERY = 10.0  #: seconds: recovery max
TARGET_VOTE_P95 = {"before": 1.0, "after": 2.0}  #: seconds: the votes' p95 before and after the kill
ALREADY = "This browser has voted already: one vote per browser."
_COUNTED = re.compile(r"Your answer is in: (.+?)\. The class")
_VOTER = re.compile(r"dplab_voter=([A-Za-z0-9_-]+);")


# ---------------------------------------------------------------------------- the hosts
@dataclass
class TwoHosts:
    """The running lab: two hosts (each a :class:`~deploy.replicas.Deployment`), the outer nginx, the store."""

    hosts: list[Deployment]
    outer: OuterBalancer
    store_url: str

    def address(self, index: int) -> str:
        """Host ``index``'s address as the outer nginx names it (``127.0.0.1:PORT``, its ``X-Host``)."""
        return f"127.0.0.1:{self.hosts[index].port}"

    def kill(self, index: int) -> None:
        """Kill host ``index`` as a machine's crash would: SIGKILL to its nginx's and its replicas' process groups."""
        host = self.hosts[index]
        stop_groups([host.nginx, *host.replicas], signal.SIGKILL)


@contextmanager
def two_hosts(store_url: str, logs: Path) -> Iterator[TwoHosts]:
    """Start two hosts of one replica each (in ``logs/host-0``, ``logs/host-1``, their data folders apart, the same
    receipt secret and poll store ``store_url``, and this process's teacher key, ``DPLAB_TEACHER_KEY``, which the
    teacher's tab holds) and the outer nginx over them; stop them all after."""
    shared = {STORE_ENV: store_url, SECRET_ENV: secrets.token_urlsafe(32)}
    outer_port = free_port_block(5)  # then each host's nginx and its replica
    hosts = []
    for index, port in enumerate((outer_port + 1, outer_port + 3)):
        folder = logs / f"host-{index}"
        folder.mkdir(parents=True)
        hosts.append(Deployment(1, port, logs=folder, environment=shared | {"DPLAB_DATA_DIR": str(folder / "data")}))
    with ExitStack() as stack:
        for host in hosts:
            stack.callback(host.stop)
        with ThreadPoolExecutor(len(hosts)) as pool:
            list(pool.map(Deployment.start, hosts))  # both at once; a failure stops its host and is raised here
        outer = stack.enter_context(OuterBalancer(outer_port, [f"127.0.0.1:{host.port}" for host in hosts],
                                                  logs=logs / "outer"))
        yield TwoHosts(hosts, outer, store_url)


# ---------------------------------------------------------------------------- a student's browser
class Browser:
    """A student's browser on the outer nginx: the cookies it keeps and sends with every new tab (the outer
    ``dplab_host``, the host's ``dplab_replica``, the voter id ``dplab_voter``) and the host its last tab reached.

    Parameters
    ----------
    url : str
        The outer nginx's ``http://`` address.
    timeout : float
        Seconds a connection or a run may take.
    """

    def __init__(self, url: str, timeout: float) -> None:
        self.stream = url.replace("http", "ws", 1) + "/_stcore/stream"
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.host = ""

    def open_tab(self, code: str) -> Student:
        """Open the poll's link ``?room=code`` in a new tab: its first run done, the cookies it set kept."""
        cookie = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        ws = connect(self.stream, subprotocols=["streamlit"], max_size=None, open_timeout=self.timeout,
                     ping_interval=None, additional_headers=cookie if self.cookies else None,
                     legacy=True)  # kept open beyond this call (closed by whoever ends the tab)
        for header in ws.response.headers.get_all("Set-Cookie"):
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        self.host = ws.response.headers.get(HEADER, "").split(",")[-1].strip()  # "dead, next" after a failover
        student = Student(ws, code, self.timeout)
        student.open()
        kept = [match.group(1) for body in bodies(student.last, "html") if (match := _VOTER.search(body))]
        if kept:
            self.cookies["dplab_voter"] = kept[0]
        return student


@dataclass
class Voter:
    """One student: its browser, the answer it means, and what happened to it."""

    index: int
    browser: Browser
    choice: str = ""
    first_host: str = ""
    moved: bool = False  #: its host was killed: it reconnected through the outer nginx
    phase: str = ""  #: its vote sent and shown "before" the kill, sent before and shown after ("in flight"), "after"
    vote_seconds: float | None = None  #: from sending its vote until its page showed it (through a reconnection)
    recovery: float | None = None  #: seconds from the kill until its page was back, showing its vote (or its ballot)
    shown: str = ""  #: what its page said about its vote at the end ("Your answer is in: …")
    second_tab: list[str] = field(default_factory=list)  #: the alerts of its second tab's other answer
    release: list[tuple[str, str]] | None = None
    exceptions: list[str] = field(default_factory=list)
    lost: str = ""
    student: Student | None = None


def counted_choice(student: Student) -> str:
    """The answer the student's page says is counted, or "" when it says none."""
    return next((match.group(1) for text in alerts(student.last) if (match := _COUNTED.match(text))), "")


# ---------------------------------------------------------------------------- the scenario
@dataclass
class Outcome:
    """What the scenario measured and saw."""

    voters: list[Voter]
    code: str
    killed_host: str
    kill_seconds: float  #: from the first vote to the kill
    tally: tuple[int, ...]
    choices: tuple[str, ...]
    teacher_count: int | None
    teacher_release: list[tuple[str, str]] | None
    teacher_exceptions: list[str]
    seconds: float


class Poll:
    """One run of the scenario on :class:`TwoHosts` (see the module docstring).

    Parameters
    ----------
    lab : TwoHosts
        The running hosts and outer nginx.
    students : int
        Students in the room.
    timeout : float
        Seconds any connection or run may take.
    second_tabs : int
        Students, among the last to vote, who also send another answer from a second tab.
    """

    def __init__(self, lab: TwoHosts, students: int, timeout: float, second_tabs: int = 3) -> None:
        self.lab, self.timeout = lab, timeout
        self.voters = [Voter(index, Browser(lab.outer.url, timeout)) for index in range(students)]
        self.second_tabs = set(range(students - 1, students - 1 - 4 * second_tabs, -4))
        self.killed = threading.Event()
        self.began = self.first_vote = 0.0  # monotonic times
        self.killed_at = math.inf  # the monotonic time of the kill, once it comes
        self.dead_host = lab.address(0)  # the teacher's host
        self._votes = threading.Condition()
        self._voted = 0  # students whose vote is done (or failed): the kill comes after half of them

    def run(self) -> Outcome:
        """The whole scenario: :meth:`vote_through_failover`, then :meth:`reveal`."""
        return self.reveal(self.vote_through_failover())

    def vote_through_failover(self) -> str:
        """The teacher opens the poll on the first host; the class opens it through the outer nginx and votes, the
        teacher's host killed once half have voted; every student done (voted, its page showing it). The room's
        code."""
        self.began = time.monotonic()
        teacher_url = self.lab.hosts[0].url.replace("http", "ws", 1)
        with open_socket(teacher_url, self.timeout, teacher=True) as ws:
            teacher = Teacher(ws, self.timeout)
            if teacher.open().failed:
                raise RuntimeError(f"the teacher's page did not open: {teacher.last.exceptions}")
            code = teacher.start_poll()
            with ThreadPoolExecutor(OPEN_THREADS) as pool:
                list(pool.map(lambda voter: self._open(voter, code), self.voters))
            self.first_vote = time.monotonic()
            threads = [threading.Thread(target=self._take_part, args=(voter, code, self.first_vote + VOTE_GAP * i))
                       for i, voter in enumerate(self.voters)]
            for thread in threads:
                thread.start()
            with self._votes:
                self._votes.wait_for(lambda: self._voted >= len(self.voters) // 2, self.timeout)
            self.killed_at = time.monotonic()  # before the kill: a tab may see its host die at once
            self.lab.kill(0)
            self.killed.set()
            for thread in threads:
                thread.join()
        return code

    def reveal(self, code: str) -> Outcome:
        """The store's tally; the teacher reopens the page on the surviving host and reveals; each student's page
        checks for the reveal. The outcome."""
        store_tally = self._tally(code)
        survivor = self.lab.hosts[1].url.replace("http", "ws", 1)
        with open_socket(survivor, self.timeout, teacher=True) as ws:
            teacher = Teacher(ws, self.timeout)
            opened = teacher.open()
            count = answered(opened)
            revealed = teacher.reveal()
            with ThreadPoolExecutor(OPEN_THREADS) as pool:
                list(pool.map(self._see_release, self.voters))
        return Outcome(self.voters, code, self.dead_host, self.killed_at - self.first_vote, store_tally.counts,
                       store_tally.room.choices, count, released(revealed), opened.exceptions + revealed.exceptions,
                       time.monotonic() - self.began)

    def _tally(self, code: str) -> Tally:
        return PostgresPollStore(self.lab.store_url).tally(code)

    def _open(self, voter: Voter, code: str) -> None:
        try:
            voter.student = voter.browser.open_tab(code)
            voter.first_host = voter.browser.host
            voter.exceptions += voter.student.last.exceptions
        except (WebSocketException, OSError) as error:
            voter.lost = f"{type(error).__name__}: {error}"

    def _take_part(self, voter: Voter, code: str, at: float) -> None:
        """One student: votes at the monotonic time ``at`` (reconnecting first if its host died meanwhile); once the
        host it was on is killed, reconnects through the outer nginx and finds its vote."""
        on_dead_host = voter.first_host == self.dead_host
        try:
            if voter.student is not None:
                if self.killed.wait(max(0.0, at - time.monotonic())) and on_dead_host:
                    self._reconnect(voter, code)
                time.sleep(max(0.0, at - time.monotonic()))
                self._vote(voter, code)
        except (WebSocketException, OSError, RuntimeError) as error:
            voter.lost = f"{type(error).__name__}: {error}"
        finally:
            with self._votes:  # a student lost counts too: the kill never waits for it
                self._voted += 1
                self._votes.notify_all()
        if voter.lost or voter.student is None:
            return
        try:
            if on_dead_host and not voter.moved:
                self.killed.wait(self.timeout)
                self._reconnect(voter, code)
            voter.shown = counted_choice(voter.student)
        except (WebSocketException, OSError) as error:
            voter.lost = f"{type(error).__name__}: {error}"

    def _vote(self, voter: Voter, code: str) -> None:
        """Send the student's answer (a seeded choice); a tab whose host died meanwhile reconnects and votes again
        if its page shows no vote. The other answer from a second tab, for the chosen few."""
        voter.choice = voter.student.choices[(voter.index * 7919) % len(voter.student.choices)]
        second = voter.browser.open_tab(code) if voter.index in self.second_tabs else None
        started = time.monotonic()
        try:
            run = voter.student.vote(voter.choice)
            lost = run.failed and not run.exceptions
        except WebSocketException:
            lost = True
        if lost:  # its host died with the vote in flight: counted or not, the reconnected page says which
            self._reconnect(voter, code)
            run = voter.student.last if counted_choice(voter.student) else voter.student.vote(voter.choice)
        shown = time.monotonic()
        voter.vote_seconds = shown - started
        voter.phase = "after" if started >= self.killed_at else "in flight" if shown >= self.killed_at else "before"
        voter.exceptions += run.exceptions
        if second is not None:
            other = next(choice for choice in second.choices if choice != voter.choice)
            voter.second_tab = alerts(second.vote(other))
            voter.exceptions += second.last.exceptions
            second.session.ws.close()

    def _reconnect(self, voter: Voter, code: str) -> None:
        """The tab's host died: the page reconnects through the outer nginx until it is back (as Streamlit's page
        retries), with the browser's cookies; the seconds from the kill recorded once its page shows the vote (or
        the ballot, for a student who had not voted)."""
        voter.student.session.ws.close()
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                voter.student = voter.browser.open_tab(code)
                break
            except (WebSocketException, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        voter.moved = True
        voter.exceptions += voter.student.last.exceptions
        if counted_choice(voter.student) or voter.student.has_ballot:
            voter.recovery = time.monotonic() - self.killed_at

    def _see_release(self, voter: Voter) -> None:
        """The student's page checks for the reveal (its fragment's next run) and shows the release."""
        if voter.student is None or voter.lost:
            return
        try:
            check = voter.student.poll()
            voter.release = released(check)
            voter.exceptions += check.exceptions
        except (WebSocketException, OSError, StopIteration) as error:
            voter.lost = f"{type(error).__name__}: {error}"
        finally:
            voter.student.session.ws.close()


# ---------------------------------------------------------------------------- figures
def spread(values: list[float]) -> str:
    """``p50 / p95 / max`` of ``values`` in seconds, or "none"."""
    if not values:
        return "none"
    return " / ".join(f"{percentile(values, q):.3f}" for q in (50, 95, 100)) + f" s ({len(values)})"


def problems(outcome: Outcome) -> list[str]:
    """What went wrong: lost or double votes, students without the release, exceptions, lost connections."""
    found = []
    intended = Counter(voter.shown for voter in outcome.voters)
    if sum(outcome.tally) != len(outcome.voters):
        found.append(f"the tally counts {sum(outcome.tally)} votes for {len(outcome.voters)} voters")
    if tuple(intended[choice] for choice in outcome.choices) != outcome.tally:
        found.append(f"the tally {outcome.tally} differs from the answers the pages show {dict(intended)}")
    if outcome.teacher_count != len(outcome.voters):
        found.append(f"the teacher's page counts {outcome.teacher_count}")
    for voter in outcome.voters:
        if voter.lost or voter.exceptions:
            found.append(f"student {voter.index}: {voter.lost or voter.exceptions[0]}")
        elif voter.shown != voter.choice:
            found.append(f"student {voter.index} sent {voter.choice!r}; its page shows {voter.shown!r} counted")
        elif voter.release is None or voter.release != outcome.teacher_release:
            found.append(f"student {voter.index} sees the release {voter.release}")
        elif voter.second_tab and ALREADY not in voter.second_tab:
            found.append(f"student {voter.index}'s second tab was not refused: {voter.second_tab}")
    if outcome.teacher_release is None or outcome.teacher_exceptions:
        found.append(f"the teacher's reveal: {outcome.teacher_release} {outcome.teacher_exceptions}")
    return found


def report(outcome: Outcome) -> None:
    """Print the figures of ``outcome``."""
    voters = outcome.voters
    moved = [voter for voter in voters if voter.moved]
    phases = Counter(voter.phase for voter in voters)
    print(f"students per host (the outer cookie): {dict(Counter(voter.first_host for voter in voters))}; killed "
          f"{outcome.killed_host} {outcome.kill_seconds:.1f} s after the first vote: {phases['before']} votes shown "
          f"before, {phases['in flight']} in flight, {phases['after']} sent after")
    for phase in ("before", "in flight", "after"):
        print(f"vote seconds, {phase + ' the kill' if phase != 'in flight' else 'in flight at the kill':<21} "
              f"p50 / p95 / max {spread([v.vote_seconds for v in voters if v.phase == phase])}")
    print(f"recovery, kill -> page back showing its vote, {sum(v.phase == 'before' for v in moved)} moved voters: "
          f"p50 / p95 / max {spread([v.recovery for v in moved if v.phase == 'before' and v.recovery is not None])}")
    print(f"recovery, kill -> page back (ballot, or the vote in flight), {sum(v.phase != 'before' for v in moved)} "
          f"moved students: p50 / p95 / max "
          f"{spread([v.recovery for v in moved if v.phase != 'before' and v.recovery is not None])}")
    print(f"tally {sum(outcome.tally)} votes {dict(zip(outcome.choices, outcome.tally))} for {len(voters)} voters; "
          f"the teacher's page (on the surviving host) counts {outcome.teacher_count}")
    same = sum(voter.release == outcome.teacher_release is not None for voter in voters)
    print(f"release on the teacher's screen {outcome.teacher_release}; the same on {same} of {len(voters)} students' "
          f"screens; second tabs refused {sum(ALREADY in v.second_tab for v in voters if v.second_tab)} of "
          f"{sum(bool(v.second_tab) for v in voters)}; {outcome.seconds:.1f} s in all", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=STUDENTS, help=f"students in the room (default {STUDENTS})")
    parser.add_argument("--poll-store", default="", metavar="URL", help="a PostgreSQL database for the poll "
                        "(default: a throw-away cluster's)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds any connection or run may take")
    args = parser.parse_args(argv)
    os.environ.setdefault(teacher_key.ENV, teacher_key.new_key())  # the hosts' key, which the teacher's tab holds
    if not args.poll_store:
        from tests.postgres_cluster import cluster_url, new_database

        try:
            args.poll_store = new_database(cluster_url())
        except FileNotFoundError as missing:  # ./lab.sh bench does not install PostgreSQL; ./lab.sh test does
            print(f"\n## Two hosts: skipped: {missing}")
            return 0
    print(f"\n## Two hosts, one killed mid-poll: {args.students} students through the outer nginx")
    with two_hosts(args.poll_store, Path(tempfile.mkdtemp(prefix="dplab-two-hosts-"))) as lab:
        outcome = Poll(lab, args.students, args.timeout).run()
    report(outcome)
    found = problems(outcome)
    recoveries = [voter.recovery for voter in outcome.voters if voter.recovery is not None]
    slow = max(recoveries, default=0.0) > TARGET_RECOVERY or any(
        percentile([voter.vote_seconds for voter in outcome.voters if voter.phase == phase], 95) > bar
        for phase, bar in TARGET_VOTE_P95.items())
    print("\n".join(found[:10]) or f"no vote lost, none twice; targets (recovery max <= {TARGET_RECOVERY:g} s, vote "
          f"p95 <= {TARGET_VOTE_P95['before']:g} s before the kill, <= {TARGET_VOTE_P95['after']:g} s after): "
          f"{'FAIL' if slow else 'PASS'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
