"""How often a client may try: unknown room codes, answers, wrong teacher keys, counted per minute.

A client is the address the visitor's connection comes from: Streamlit's peer address, or, when the peer is this
machine (nginx in front of the replicas, ``./lab.sh serve``) or a proxy named in ``DPLAB_TRUSTED_PROXIES`` (the
addresses or networks, comma-separated, of a proxy on another machine: compose's nginx, a Kubernetes ingress,
:func:`trusted_proxies`), the ``X-Real-IP`` that proxy sets (a header is believed only from these, so a visitor
cannot forge it; behind a proxy not named there, the whole class would count as the proxy's one address). The store
never sees the address: it counts per :func:`client_token`, a keyed hash of it (the key is the lab's teacher key,
which every replica shares), in the poll store (:meth:`classroom.poll_store.SqlitePollStore.attempts`), so every
replica counts together. A visitor on this machine itself (the teacher's laptop, the load tests) is not limited.

Per client and minute (:data:`LIMITS`): 30 unknown room codes (a right code is never counted: a class behind one
address, a campus NAT, can mistype 30 codes a minute between them and still join), 200 answers (a class of 200
behind one address answers within the minute; a script that makes new voter ids fills a 1,000-vote room in five
minutes at best, and the count on the projector shows it), 10 wrong teacher keys (a 59-bit key then takes longer
than the universe's age to guess). When the store itself is at fault, nothing is limited: the fault is the message.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import os
from collections.abc import Callable

import streamlit as st

from .poll_store import FAULTS
from .teacher_key import lab_key

__all__ = ["LIMITS", "REFUSALS", "PROXIES_ENV", "trusted_proxies", "client_address", "client_token", "exceeded",
           "record"]

PROXIES_ENV = "DPLAB_TRUSTED_PROXIES"  #: addresses or networks of the proxies whose X-Real-IP is believed

LIMITS = {"code": 30, "vote": 200, "key": 10}  #: attempts per client and minute
REFUSALS = {  #: what a limited client reads
    "code": "Too many unknown room codes came from your network in the last minute. Wait a minute, then type the "
            "code shown on the projector.",
    "vote": "Too many answers came from your network in the last minute: wait a few seconds, then send yours again.",
    "key": "Too many wrong teacher keys were typed from your network in the last minute: wait a minute.",
}


def trusted_proxies(value: str | None = None) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of ``value`` (default: ``DPLAB_TRUSTED_PROXIES``), e.g. ``"10.0.0.0/8, 172.28.0.5"``; ``ValueError``
    naming the variable and the entry that is not an address or a network.

    >>> trusted_proxies("172.28.0.0/24, 2001:db8::1")
    (IPv4Network('172.28.0.0/24'), IPv6Network('2001:db8::1/128'))
    """
    return _networks(os.environ.get(PROXIES_ENV, "") if value is None else value)


@functools.lru_cache(maxsize=4)
def _networks(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for entry in filter(None, (part.strip() for part in value.split(","))):
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{PROXIES_ENV} lists addresses or networks such as 10.0.0.0/8, separated by commas; "
                             f"{entry[:40]!r} is neither") from None
    return tuple(networks)


def client_address() -> str | None:
    """The visitor's address, or None for a visitor on this machine itself (see the module docstring)."""
    peer = st.context.ip_address  # None when the peer is loopback
    if peer is None or _is_trusted(peer):  # nginx here, or a named proxy (which says who it serves); or a local visitor
        peer = st.context.headers.get("X-Real-IP") or peer
    try:
        address = ipaddress.ip_address(peer.strip() if isinstance(peer, str) else "")
    except ValueError:
        return None
    return None if address.is_loopback else str(address)


def _is_trusted(peer: str) -> bool:
    """Whether ``peer`` is a proxy of :func:`trusted_proxies` (none when the variable is malformed: every visitor is
    then counted by its peer, the safe side; the container's entry script refuses a malformed one at start)."""
    try:
        address, networks = ipaddress.ip_address(peer), trusted_proxies()
    except ValueError:
        return False
    return any(address in network for network in networks)


def client_token(address: str) -> str:
    """The opaque token the store counts ``address`` under: an HMAC-SHA-256 keyed by the lab's teacher key."""
    return hmac.new(lab_key().encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def _count(attempts: Callable[..., int], action: str, record: bool) -> int:
    address = client_address()
    if address is None:
        return 0
    try:
        return attempts(client_token(address), action, record=record)
    except FAULTS:
        return 0


def exceeded(attempts: Callable[..., int], action: str) -> bool:
    """Whether this client has used up its ``action`` attempts of this minute (``attempts``: the store's)."""
    return _count(attempts, action, record=False) >= LIMITS[action]


def record(attempts: Callable[..., int], action: str) -> None:
    """Count one ``action`` attempt of this client."""
    _count(attempts, action, record=True)
