"""classroom.receipts: a token verifies under its lab's secret only, an altered one never; a receipt file proves the
pages mastered; the run trusted is the lab's own; the secret is shared through the data folder, or the database of
several machines."""

import os

import psycopg
import pytest

from classroom import lab_store, poll_store, receipts
from classroom.receipts import ReceiptError, Stamp, check_receipt, receipt_json, run_before, sign, verify
from tests import postgres_cluster

KEY = b"a-secret-of-the-lab-thirty-two-bytes!"
OTHER = b"another-lab-with-its-own-secret-key!!"


def test_a_token_verifies_under_its_secret_and_says_its_stamp():
    stamp = Stamp("scheffe-tournament", "score", 2**47, 1_764_000_000, 2, receipts.student_tag(5))
    assert verify(sign(stamp, KEY), KEY) == stamp
    assert verify(sign(stamp, KEY), OTHER) is None


@pytest.mark.parametrize("where", range(0, 60, 7))
def test_any_altered_character_is_refused(where):
    token = sign(Stamp("real-data", "q", 3, 1_764_000_000, 3), KEY)
    swapped = token[:where] + ("A" if token[where] != "A" else "B") + token[where + 1:]
    assert verify(swapped, KEY) is None


@pytest.mark.parametrize("junk", ["", "no-dot", "a.b.c", "!!.??", None, 5])
def test_junk_is_no_token(junk):
    assert verify(junk, KEY) is None


def test_a_receipt_proves_mastery_only_from_a_run_of_three_and_counts_refusals():
    tokens = [sign(Stamp("truncation-bias", "bias", seed, 1_764_000_000 + seed, run), KEY)
              for seed, run in ((1, 1), (2, 2), (3, 1))]
    tokens.append(sign(Stamp("real-data", "q", 9, 1_764_000_100, 3), OTHER))
    checked = check_receipt(receipt_json(tokens), KEY)
    assert checked.mastered == () and checked.answers == {"truncation-bias": 3} and checked.refused == 1
    tokens.append(sign(Stamp("truncation-bias", "bias", 4, 1_764_000_200, 3), KEY))
    assert check_receipt(receipt_json(tokens), KEY).mastered == ("truncation-bias",)


DEEP = "[" * 100_000 + "]" * 100_000  # JSON nested past Python's recursion limit


@pytest.mark.parametrize("text", ["{", DEEP, "[]", '{"lab": "x", "tokens": []}',
                                  '{"lab": "Private Estimation Lab receipt"}'])
def test_a_file_that_is_no_receipt_is_refused(text):
    with pytest.raises(ReceiptError):
        check_receipt(text, KEY)


def test_the_run_trusted_is_at_most_the_latest_of_the_students_own_tokens():
    me, classmate = receipts.student_tag(1), receipts.student_tag(2)
    tokens = [sign(Stamp("real-data", "q", 1, 100, 1, me), KEY), sign(Stamp("real-data", "q", 2, 200, 2, me), KEY),
              sign(Stamp("truncation-bias", "b", 3, 300, 1, me), KEY)]
    assert run_before(tokens, "real-data", 2, me, KEY) == 2
    assert run_before(tokens, "real-data", 9, me, KEY) == 2  # a run typed into the file by hand
    assert run_before(tokens, "real-data", 0, me, KEY) == 0  # a wrong answer since
    assert run_before(tokens, "partitioning-rounds", 5, me, KEY) == 0
    assert run_before([tokens[1].replace(".", ".x")], "real-data", 2, me, KEY) == 0
    pasted = [sign(Stamp("real-data", "q", 7, 300, 2, classmate), KEY)]  # a classmate's run of 2
    assert run_before(pasted, "real-data", 2, me, KEY) == 0


def test_a_repeated_token_counts_once_and_a_mixed_receipt_says_how_many_students():
    token = sign(Stamp("real-data", "q", 1, 100, 1, receipts.student_tag(1)), KEY)
    assert check_receipt(receipt_json([token] * 5), KEY).answers == {"real-data": 1}
    other = sign(Stamp("real-data", "q", 2, 200, 3, receipts.student_tag(2)), KEY)
    assert check_receipt(receipt_json([token, other]), KEY).browsers == 2


def test_the_secret_is_the_variable_or_one_file_shared_by_every_replica(tmp_path, monkeypatch):
    monkeypatch.delenv(receipts.SECRET_ENV, raising=False)
    monkeypatch.delenv(lab_store.STORE_ENV, raising=False)
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path))
    first = receipts.lab_secret()
    receipts._store_secret.cache_clear()  # another process reading the same folder
    assert receipts.lab_secret() == first and len(first) == 64
    assert os.stat(tmp_path / receipts.SECRET_FILE).st_mode & 0o777 == 0o600
    monkeypatch.setenv(receipts.SECRET_ENV, "x" * 40)
    assert receipts.lab_secret() == b"x" * 40
    monkeypatch.setenv(receipts.SECRET_ENV, "short")
    with pytest.raises(ValueError, match="at least 32"):
        receipts.lab_secret()


def test_on_several_machines_the_secret_is_the_databases_not_a_folders(tmp_path, monkeypatch):
    monkeypatch.delenv(receipts.SECRET_ENV, raising=False)
    url = postgres_cluster.new_database(postgres_cluster.cluster_url())
    monkeypatch.setenv(lab_store.STORE_ENV, url)
    secrets = []
    for machine in ("first", "second"):  # each with its own data folder
        monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / machine))
        secrets.append(receipts.lab_secret())
    assert secrets[0] == secrets[1] and len(secrets[0]) == 64 and not list(tmp_path.iterdir())
    name = url.split("@/")[1].split("?")[0]
    with psycopg.connect(postgres_cluster.cluster_url(), autocommit=True) as admin:  # the database goes away
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        admin.execute(f'DROP DATABASE "{name}"')
    assert receipts.lab_secret() == secrets[1]  # kept by the process: grading goes on
    monkeypatch.setenv("DPLAB_DATA_DIR", str(tmp_path / "third"))  # a machine starting now cannot read it: a fault
    with pytest.raises(poll_store.StoreFault):
        receipts.lab_secret()
    stamp = Stamp("real-data", "q", 3, 1_764_000_000, 3)
    assert verify(sign(stamp, secrets[0]), secrets[1]) == stamp  # signed on one machine, checked on the other
