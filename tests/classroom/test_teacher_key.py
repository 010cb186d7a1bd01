"""The lab's teacher key (classroom.teacher_key): made keys, the environment's key checked, compared in constant
time whatever the case, spaces or dashes; the browser keeps a hash of it, never the key."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from classroom import teacher_key
from classroom.poll_store import ALPHABET

ROOT = Path(__file__).resolve().parents[2]


def test_a_made_key_is_three_groups_of_four_readable_characters_and_new_each_time():
    keys = {teacher_key.new_key() for _ in range(200)}
    assert len(keys) == 200
    for key in keys:
        assert re.fullmatch(rf"[{ALPHABET}]{{4}}(-[{ALPHABET}]{{4}}){{2}}", key)


@pytest.mark.parametrize("typed, expected", [(" k7qx-2abc defg ", "K7QX2ABCDEFG"), ("K7QX2ABCDEFG", "K7QX2ABCDEFG"),
                                             ("short", None), ("K7QX-2ABC-DEF", None), ("K7QX-2ABC-DEF!", None),
                                             ("ä" * 20, None), (None, None), (123456789012, None), ("A" * 129, None)])
def test_a_key_is_compared_without_case_spaces_or_dashes(typed, expected):
    assert teacher_key.normalise(typed) == expected


def test_only_the_labs_key_matches(monkeypatch):
    monkeypatch.setenv(teacher_key.ENV, "abcd-efgh-jkmn")
    teacher_key.lab_key.cache_clear()
    try:
        assert teacher_key.lab_key() == "ABCDEFGHJKMN"
        assert teacher_key.matches("ABCD EFGH JKMN") and teacher_key.matches("abcdefghjkmn")
        assert not teacher_key.matches("ABCDEFGHJKMP") and not teacher_key.matches("") and not teacher_key.matches(None)
        token = teacher_key.browser_token()
        assert re.fullmatch(r"[0-9a-f]{43}", token) and "ABCDEFGHJKMN" not in token.upper()
    finally:
        teacher_key.lab_key.cache_clear()


def test_a_server_without_a_key_makes_one_and_prints_it(monkeypatch, capsys):
    monkeypatch.delenv(teacher_key.ENV, raising=False)
    teacher_key.lab_key.cache_clear()
    try:
        made = teacher_key.lab_key()
        assert teacher_key.lab_key() == made  # once per process
    finally:
        teacher_key.lab_key.cache_clear()
    printed = capsys.readouterr().err
    assert printed.count("Teacher key of this server") == 1 and teacher_key.normalise(printed.split(": ")[-1]) == made


@pytest.mark.parametrize("configured, status, printed", [("", 0, r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\n"),
                                                         ("my-department-key-2026", 0, r"my-department-key-2026\n"),
                                                         ("short", 2, "")])
def test_the_command_prints_the_key_to_use_or_refuses_a_short_one(configured, status, printed):
    env = {key: value for key, value in os.environ.items() if key != teacher_key.ENV}
    if configured:
        env[teacher_key.ENV] = configured
    done = subprocess.run([sys.executable, "-m", "classroom.teacher_key"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == status and re.fullmatch(printed, done.stdout)
    assert ("at least 12 letters and digits" in done.stderr) == (status == 2)
