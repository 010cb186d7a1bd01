"""Two hosts behind the outer nginx (deploy/hosts.py), one killed mid-poll, over Streamlit's websocket.

One PostgreSQL database holds the poll; two hosts (nginx and one replica each, ``deploy/replicas.py``) with data
folders of their own, on ports of their own, share the teacher key, the receipt secret and that database; the outer
nginx is in front. The teacher opens a poll on the first host, at its own address; 60 students open the poll's link
through the outer nginx (its cookie spreads them over both hosts) and vote one after another; once half have voted,
the teacher's host is killed whole (its nginx's and its replica's process groups, SIGKILL). Its students reconnect
through the outer nginx, land on the other host and reopen the page with the voter id their browser keeps: the page
shows their vote (a vote in flight at the kill: counted or not, the page says which) or the ballot, and everyone
votes. The store counts exactly 60 votes, as the pages say; votes replayed after the failover (a second tab's other
answer, the moved voters' ids sent to the store again) are not counted. The teacher reveals on the surviving host and
every student's screen shows the same release. The scenario is ``benchmarks/two_hosts.py``'s; nothing is left running.
"""

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import APP_DIR

sys.path.insert(0, str(APP_DIR / "benchmarks"))
from two_hosts import ALREADY, Poll, problems, two_hosts  # noqa: E402

from classroom.poll_store import AlreadyVoted  # noqa: E402
from classroom.postgres_poll_store import PostgresPollStore  # noqa: E402
from deploy.hosts import COOKIE  # noqa: E402
from tests.postgres_cluster import cluster_url, new_database  # noqa: E402
from tests.processes import Tree, kill_left, process_tree, wait_until_gone  # noqa: E402

STUDENTS = 60
RUN_SECONDS = 30.0  # any one connection or run
BOUND_SECONDS = 120.0  # the whole test, the hosts started and stopped


def _trees(processes: list) -> list[Tree]:
    return [process_tree(process.pid) for process in processes if process is not None]


def test_a_host_killed_mid_poll_loses_no_vote_counts_none_twice_and_every_screen_shows_one_release(monkeypatch):
    began = time.monotonic()
    database = new_database(cluster_url())
    trees: list[Tree] = []
    try:
        with two_hosts(database, Path(tempfile.mkdtemp(prefix="dplab-two-hosts-"))) as lab:
            trees += _trees([lab.outer.nginx, *(process for host in lab.hosts for process in
                                               [host.nginx, *host.replicas])])
            kill = lab.kill

            def kill_and_remember(index: int) -> None:  # the dying host's processes as they are then (its worker)
                trees.extend(_trees([lab.hosts[index].nginx, *lab.hosts[index].replicas]))
                kill(index)
            monkeypatch.setattr(lab, "kill", kill_and_remember)
            poll = Poll(lab, STUDENTS, RUN_SECONDS)
            code = poll.vote_through_failover()
            voters, dead, survivor = poll.voters, lab.address(0), lab.address(1)

            assert [(v.index, v.lost, v.exceptions) for v in voters if v.lost or v.exceptions] == []
            assert {voter.first_host for voter in voters} == {dead, survivor}  # the outer cookie spread the class
            assert all(len(voter.browser.cookies.get(COOKIE, "")) == 32 for voter in voters)  # nginx's $request_id
            moved = [voter for voter in voters if voter.moved]
            assert moved == [voter for voter in voters if voter.first_host == dead]
            assert all(voter.browser.host == survivor for voter in moved)
            assert Counter(voter.phase for voter in voters)["before"] >= STUDENTS // 2
            assert any(voter.phase == "before" for voter in moved)  # moved voters found the vote they had sent
            for voter in voters:
                assert voter.shown == voter.choice, (voter.index, voter.phase, voter.choice, voter.shown)
            second_tabs = [voter for voter in voters if voter.second_tab]
            assert second_tabs and all(ALREADY in voter.second_tab for voter in second_tabs)

            store = PostgresPollStore(database)
            tally = store.tally(code)
            intended = Counter(voter.choice for voter in voters)
            assert tally.answered == STUDENTS and sum(tally.counts) == STUDENTS
            assert tally.counts == tuple(intended[choice] for choice in tally.room.choices)
            for voter in moved[:3]:  # the same votes again, after the failover, from the other host's store
                index = tally.room.choices.index(voter.choice)
                assert not store.vote(code, voter.browser.cookies["dplab_voter"], index).counted
                with pytest.raises(AlreadyVoted):
                    store.vote(code, voter.browser.cookies["dplab_voter"], (index + 1) % len(tally.room.choices))
            assert store.tally(code).counts == tally.counts

            outcome = poll.reveal(code)
            assert outcome.teacher_count == STUDENTS and outcome.teacher_exceptions == []
            assert outcome.teacher_release is not None and len(outcome.teacher_release) == len(tally.counts)
            assert [voter.index for voter in voters if voter.release != outcome.teacher_release] == []
            assert problems(outcome) == []
        left = [line for tree in trees for line in wait_until_gone(tree, 10)]
        assert not left, f"left running: {left}"
    finally:
        for tree in trees:
            kill_left(tree)
    assert time.monotonic() - began < BOUND_SECONDS
