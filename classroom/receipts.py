"""Receipts: the lab's signature on a right answer, which a teacher can check without accounts.

When the server grades an answer right it signs a *stamp* (page, exercise, variant, time, and the run of right
answers it completes) with HMAC-SHA256 (Bellare, Canetti & Krawczyk 1996; RFC 2104) under the lab's secret, and the
browser keeps the token with the student's progress. "Download a receipt" collects the tokens; the teacher's "Check
a receipt" verifies each one and says which pages it proves mastered: a page is proved mastered by a token whose run
reaches :data:`classroom.progress.IN_A_ROW`.

What a receipt proves: that this lab (a server holding this secret) graded those answers right, at those times, and
that each run was counted from the lab's own earlier tokens of the same student's progress (a run of right answers
typed into the file, or a classmate's token pasted into it, counts for nothing). What it does not prove: who typed
the answers, or that a student did not go back to an older copy of their progress after a wrong answer.

The secret is ``DPLAB_SECRET`` (at least 32 characters) when set, else one made once by the poll store, where every
replica finds it: a file of the lab's data folder (``receipt-secret``, readable by the lab's user only) with SQLite, a
row of the database with PostgreSQL (several machines, ``DPLAB_POLL_STORE``), never a machine's folder then.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from functools import cache

from . import lab_store, poll_store
from .progress import IN_A_ROW

__all__ = ["SECRET_ENV", "SECRET_FILE", "Stamp", "ReceiptCheck", "ReceiptError", "lab_secret", "student_tag", "sign",
           "verify", "receipt_json", "check_receipt", "run_before"]

SECRET_ENV = "DPLAB_SECRET"  #: the environment variable holding the lab's secret
SECRET_FILE = "receipt-secret"  #: the secret made once in the data folder when the variable is not set
_KIND = "Private Estimation Lab receipt"
_MAX_TOKENS = 1000


class ReceiptError(ValueError):
    """A receipt file the lab cannot read at all; its message says why."""


@dataclass(frozen=True)
class Stamp:
    """What a token says: the ``page`` (its address), the ``exercise``, the ``variant`` (its seed), the ``time``
    (seconds since 1970, UTC), ``run``, the right answers in a row on that page this one completes, and ``student``,
    the tag of the browser's progress it was earned in (:func:`student_tag`)."""

    page: str
    exercise: str
    variant: int
    time: int
    run: int
    student: str = ""


@dataclass(frozen=True)
class ReceiptCheck:
    """A receipt checked: the pages it proves ``mastered``, the right answers it proves per page (``answers``, each
    token once), the tokens ``refused`` (altered, or signed by another lab), and ``browsers``, how many students'
    progresses the genuine tokens come from (one, for a receipt a student downloaded)."""

    mastered: tuple[str, ...]
    answers: dict[str, int]
    refused: int
    browsers: int = 1


def student_tag(seed: int) -> str:
    """The tag a student's tokens carry: 8 hexadecimal digits of a hash of their progress's seed (which the browser
    keeps), so the run of right answers counts only the student's own tokens and a receipt shows whose they are.

    >>> student_tag(7) == student_tag(7) != student_tag(8)
    True
    """
    return hashlib.sha256(f"student|{seed}".encode()).hexdigest()[:8]


def lab_secret() -> bytes:
    """The lab's secret: ``DPLAB_SECRET``, else the poll store's shared secret :data:`SECRET_FILE`
    (:meth:`classroom.poll_store.SqlPollStore.secret`: a file of the data folder that every replica of one machine
    reads, or a row of the PostgreSQL database that every machine reads), made at the first call, then kept by this
    process."""
    configured = os.environ.get(SECRET_ENV, "")
    if configured:
        if len(configured) < 32:
            raise ValueError(f"{SECRET_ENV} must be at least 32 characters long")
        return configured.encode()
    return _store_secret(os.environ.get(lab_store.STORE_ENV, ""), str(poll_store.default_data_dir()))


@cache
def _store_secret(store: str, folder: str) -> bytes:
    """The secret of the store the environment names (its URL and data folder are the cache's key), read once per
    process: a database that fails later does not stop grading (a fault before the first read is raised, never kept:
    one of :data:`classroom.poll_store.FAULTS`)."""
    return lab_store.default_store().secret(SECRET_FILE)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(stamp: Stamp, secret: bytes | None = None) -> str:
    """The token of ``stamp``: its JSON and its HMAC-SHA256 under ``secret`` (the lab's by default), both in
    URL-safe base64, joined by a dot.

    >>> token = sign(Stamp("truncation-bias", "bias", 12, 1_800_000_000, 1, "0a1b2c3d"), b"k" * 32)
    >>> verify(token, b"k" * 32)
    Stamp(page='truncation-bias', exercise='bias', variant=12, time=1800000000, run=1, student='0a1b2c3d')
    >>> verify(token, b"another lab's secret....") is None
    True
    """
    payload = json.dumps([stamp.page, stamp.exercise, stamp.variant, stamp.time, stamp.run, stamp.student],
                         separators=(",", ":")).encode()
    mac = hmac.new(secret or lab_secret(), payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}"


def verify(token: str, secret: bytes | None = None) -> Stamp | None:
    """The stamp a genuine token of this lab says, or None (altered, signed elsewhere, or not a token)."""
    try:
        payload_text, mac_text = token.split(".")
        payload, mac = _unb64(payload_text), _unb64(mac_text)
    except (ValueError, AttributeError):
        return None
    if not hmac.compare_digest(hmac.new(secret or lab_secret(), payload, hashlib.sha256).digest(), mac):
        return None
    return Stamp(*json.loads(payload))


def run_before(tokens: list[str], page: str, claimed: int, student: str, secret: bytes | None = None) -> int:
    """The run of right answers on ``page`` a new right answer continues: the student's ``claimed`` run, but no
    more than the run of the page's latest genuine token of this ``student`` (0 without one): neither a run typed
    into the progress nor a classmate's token pasted into it counts."""
    stamps = [stamp for stamp in map(lambda token: verify(token, secret), tokens)
              if stamp and stamp.page == page and stamp.student == student]
    latest = max(stamps, key=lambda stamp: (stamp.time, stamp.run)).run if stamps else 0
    return min(claimed, latest)


def receipt_json(tokens: list[str]) -> str:
    """The file "Download a receipt" gives: the tokens, as JSON."""
    return json.dumps({"lab": _KIND, "tokens": tokens}, indent=1)


def check_receipt(text: str | bytes, secret: bytes | None = None) -> ReceiptCheck:
    """Check a receipt file: each token verified; :class:`ReceiptError` for a file that is not a receipt.

    >>> key = b"k" * 32
    >>> tokens = [sign(Stamp("real-data", "q", seed, 1_800_000_000 + run, run, "0a1b2c3d"), key)
    ...           for seed, run in ((1, 1), (2, 2), (3, 3))]
    >>> check_receipt(receipt_json(tokens + tokens[:1] + [tokens[0][:-2] + "AA"]), key)
    ReceiptCheck(mastered=('real-data',), answers={'real-data': 3}, refused=1, browsers=1)
    """
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ReceiptError("This file is not a receipt: it is not JSON text.") from None
    tokens = document.get("tokens") if isinstance(document, dict) and document.get("lab") == _KIND else None
    if not isinstance(tokens, list) or len(tokens) > _MAX_TOKENS:
        raise ReceiptError("This is not a receipt of the Private Estimation Lab.")
    distinct = list(dict.fromkeys(token if isinstance(token, str) else repr(token) for token in tokens))
    stamps = [verify(token, secret) for token in distinct]  # a token repeated counts once
    genuine = [stamp for stamp in stamps if stamp is not None]
    answers: dict[str, int] = {}
    for stamp in genuine:
        answers[stamp.page] = answers.get(stamp.page, 0) + 1
    mastered = sorted({stamp.page for stamp in genuine if stamp.run >= IN_A_ROW})
    return ReceiptCheck(tuple(mastered), answers, len(stamps) - len(genuine),
                        len({stamp.student for stamp in genuine}) or 1)
