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

import http.client
import http.server
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from conftest import APP_DIR

sys.path.insert(0, str(APP_DIR / "benchmarks"))
from load import free_port_block  # noqa: E402
from two_hosts import ALREADY, Poll, problems, two_hosts  # noqa: E402

from classroom.poll_store import AlreadyVoted  # noqa: E402
from classroom.postgres_poll_store import PostgresPollStore  # noqa: E402
from deploy import hosts  # noqa: E402
from deploy.hosts import COOKIE, HEADER, OuterBalancer, outer_config, parse_host  # noqa: E402
from deploy.replicas import NGINX, nginx_config, parse_args, spawn, stop_groups  # noqa: E402
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


def test_the_outer_configuration_keeps_a_browser_on_one_host_and_passes_a_dead_hosts_requests_on(tmp_path):
    config = outer_config(8500, ["10.0.0.11:8501", "lab-2.example.edu:8501"], tmp_path)
    assert "listen 127.0.0.1:8500;" in config and "ip_hash" not in config
    assert "hash $host_key consistent;" in config and f"map $cookie_{COOKIE} $host_key" in config
    assert "server 10.0.0.11:8501 max_fails=1" in config and "server lab-2.example.edu:8501 max_fails=1" in config
    for line in ("proxy_set_header Upgrade $http_upgrade;", "proxy_read_timeout 1d;", "proxy_connect_timeout 2s;",
                 "proxy_next_upstream error timeout http_502 http_503;", "proxy_set_header X-Real-IP $remote_addr;",
                 "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;", f"add_header {HEADER} $upstream_addr"):
        assert line in config, line
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / kind).mkdir()
    (tmp_path / "nginx.conf").write_text(outer_config(8500, ["10.0.0.11:8501", "10.0.0.12:8501"], tmp_path))
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e",
                              str(tmp_path / "error.log")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    for bad in ("10.0.0.11", "http://10.0.0.11:8501", "10.0.0.11:99999", "a b:80"):
        with pytest.raises(ValueError, match="a host is name:port"):
            parse_host(bad)
    with pytest.raises(ValueError, match="at least one host"):
        OuterBalancer(8500, [])


def test_the_command_line_prints_the_configuration_and_refuses_a_bad_host(capsys):
    assert hosts.main(["--print", "--port", "8600", "--listen", "0.0.0.0", "10.0.0.11:8501", "10.0.0.12:8501"]) == 0
    printed = capsys.readouterr().out
    assert "listen 0.0.0.0:8600;" in printed and printed.count("max_fails=1") == 2
    with pytest.raises(SystemExit) as refused:
        hosts.main(["10.0.0.11"])
    assert refused.value.code == 2 and "a host is name:port" in capsys.readouterr().err
    # each host's ./lab.sh serve names the outer nginx, whose X-Real-IP it then trusts
    assert parse_args(["--outer-proxy", "10.0.0.5", "--outer-proxy", "10.0.1.0/24"]).outer_proxy == [
        "10.0.0.5/32", "10.0.1.0/24"]
    with pytest.raises(SystemExit) as refused:
        parse_args(["--outer-proxy", "outer.example.edu"])
    assert refused.value.code == 2 and "an address or a network" in capsys.readouterr().err


class _Echo(http.server.BaseHTTPRequestHandler):
    """A stand-in replica: answers every GET with the request's headers as JSON."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = json.dumps(dict(self.headers)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _headers_seen(url: str, sent: dict[str, str]) -> tuple[dict[str, str], http.client.HTTPMessage]:
    """The headers the stand-in replica received for a GET of ``url`` with ``sent``, and the answer's headers."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=sent), timeout=10) as answer:
        return json.loads(answer.read()), answer.headers


def test_the_client_address_crosses_both_nginx_only_from_the_outer_proxy(tmp_path):
    """A host's nginx takes ``X-Real-IP`` as the client's address from its ``--outer-proxy`` (here loopback) and from
    no one else; through the outer nginx, the answer names the host and sets the outer cookie."""
    port = free_port_block(3)
    echo = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=echo.serve_forever, daemon=True).start()
    started = []
    try:
        for index, trusted in enumerate((["127.0.0.1"], [])):
            folder = tmp_path / f"host-{index}"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
                (folder / kind).mkdir(parents=True)
            config = nginx_config(port + index, [echo.server_port], folder, outer_proxies=trusted)
            assert ("set_real_ip_from 127.0.0.1/32;" in config) == bool(trusted)
            (folder / "nginx.conf").write_text(config)
            started.append(spawn([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e",
                                  str(folder / "error.log"), "-g", "daemon off;"], folder / "nginx.log"))
        forged = {"X-Real-IP": "203.0.113.9"}
        deadline = time.monotonic() + 10
        while True:
            try:
                seen = [_headers_seen(f"http://127.0.0.1:{port + index}/", forged)[0] for index in (0, 1)]
                break
            except OSError:
                assert time.monotonic() < deadline, "the hosts' nginx did not start"
                time.sleep(0.1)
        assert [headers["X-Real-IP"] for headers in seen] == ["203.0.113.9", "127.0.0.1"]
        with OuterBalancer(port + 2, [f"127.0.0.1:{port}"], logs=tmp_path / "outer") as outer:
            through, answer = _headers_seen(outer.url + "/", forged)
        assert through["X-Real-IP"] == "127.0.0.1"  # the outer nginx's client, not what it sent
        cookies = [cookie.split("=")[0] for cookie in answer.get_all("Set-Cookie")]
        assert answer[HEADER] == f"127.0.0.1:{port}" and sorted(cookies) == [COOKIE, "dplab_replica"]
    finally:
        stop_groups(started, signal.SIGTERM)
        echo.shutdown()
