"""Limits per client (classroom.limits): who the client is (the peer, or nginx's X-Real-IP only when the peer is this
machine or a proxy named in DPLAB_TRUSTED_PROXIES), its token (never the address), and the counts in the store."""

from types import SimpleNamespace

import pytest

from classroom import limits, poll_store


def connection(peer, headers=None):
    """What ``st.context`` says of a connection: Streamlit's peer address (None for loopback) and its headers."""
    return SimpleNamespace(context=SimpleNamespace(ip_address=peer, headers=headers or {}))


@pytest.mark.parametrize("peer, headers, address", [
    ("203.0.113.7", {}, "203.0.113.7"),  # a visitor straight to the server
    ("203.0.113.7", {"X-Real-IP": "198.51.100.1"}, "203.0.113.7"),  # a header from a visitor is not believed
    (None, {"X-Real-IP": "198.51.100.1"}, "198.51.100.1"),  # nginx on this machine says who it serves
    (None, {"X-Real-IP": " 2001:db8::1 "}, "2001:db8::1"),
    (None, {"X-Real-IP": "127.0.0.1"}, None),  # a visitor on this machine, through nginx
    (None, {"X-Real-IP": "not an address"}, None),
    (None, {}, None),  # a visitor on this machine
])
def test_the_client_is_the_peer_or_what_nginx_says_when_the_peer_is_this_machine(monkeypatch, peer, headers,
                                                                                 address):
    monkeypatch.setattr(limits, "st", connection(peer, headers))
    assert limits.client_address() == address


def test_the_store_counts_a_token_never_the_address_and_the_limit_holds(monkeypatch, tmp_path):
    store = poll_store.SqlitePollStore(tmp_path, clock=lambda: 1_800_000_010.0)
    monkeypatch.setattr(limits, "st", connection("203.0.113.7"))
    for _ in range(limits.LIMITS["key"]):
        assert not limits.exceeded(store.attempts, "key")
        limits.record(store.attempts, "key")
    assert limits.exceeded(store.attempts, "key") and not limits.exceeded(store.attempts, "code")
    assert not [path for path in tmp_path.iterdir() if b"203.0.113.7" in path.read_bytes()]  # file, WAL
    token = limits.client_token("203.0.113.7")
    assert store.attempts(token, "key") == limits.LIMITS["key"] and token != limits.client_token("203.0.113.8")
    monkeypatch.setattr(limits, "st", connection(None))  # this machine: never limited, nothing counted
    limits.record(store.attempts, "key")
    assert not limits.exceeded(store.attempts, "key")


def test_a_store_at_fault_limits_nothing(monkeypatch):
    def broken(*args, **kwargs):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(limits, "st", connection("203.0.113.7"))
    limits.record(broken, "vote")
    assert not limits.exceeded(broken, "vote")


@pytest.mark.parametrize("peer, headers, address", [
    ("172.28.0.5", {"X-Real-IP": "198.51.100.1"}, "198.51.100.1"),  # compose's nginx says who it serves
    ("10.1.2.3", {"X-Real-IP": "198.51.100.2"}, "198.51.100.2"),  # an ingress in the pods' network
    ("172.28.0.5", {}, "172.28.0.5"),  # a named proxy that says nothing: counted as itself
    ("172.29.0.5", {"X-Real-IP": "198.51.100.1"}, "172.29.0.5"),  # a peer outside the named networks: not believed
])
def test_a_named_proxy_on_another_machine_is_believed_and_only_it(monkeypatch, peer, headers, address):
    monkeypatch.setenv(limits.PROXIES_ENV, "172.28.0.0/24, 10.0.0.0/8")
    monkeypatch.setattr(limits, "st", connection(peer, headers))
    assert limits.client_address() == address


@pytest.mark.parametrize("value", ["10.0.0.0/33", "nginx", "10.0.0.0/8;172.28.0.1"])
def test_a_malformed_proxy_list_is_refused_by_name_and_believes_no_one(monkeypatch, value):
    with pytest.raises(ValueError, match="DPLAB_TRUSTED_PROXIES"):
        limits.trusted_proxies(value)
    monkeypatch.setenv(limits.PROXIES_ENV, value)
    monkeypatch.setattr(limits, "st", connection("10.1.2.3", {"X-Real-IP": "198.51.100.2"}))
    assert limits.client_address() == "10.1.2.3"


def test_a_database_server_at_fault_limits_nothing(monkeypatch):
    def unreachable(*args, **kwargs):
        raise poll_store.StoreFault("its database server cannot be reached")
    monkeypatch.setattr(limits, "st", connection("203.0.113.7"))
    limits.record(unreachable, "vote")
    assert not limits.exceeded(unreachable, "vote")
