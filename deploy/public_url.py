"""The address students can reach: ``./lab.sh serve --public-url URL`` (or ``./lab.sh app --public-url URL``).

The teacher's own browser often opens the lab at ``http://localhost:8501``, an address that means "this very device"
on every device: a student's phone scanning it would look for the lab on the phone. The public URL names the machine
as the classroom network sees it (``http://192.168.1.20:8501``, or a name behind a proxy); the lab's share control
(:mod:`classroom.share`) puts it in place of the scheme and host the teacher's browser uses. It reaches the app through
the environment variable :data:`ENV`, set by ``./lab.sh`` and by :mod:`deploy.replicas` for each replica.

Standard library only: the supervisor and ``./lab.sh`` check an address without importing the app.
``python -m deploy.public_url URL`` prints the address as the lab will use it, or says what is wrong (exit code 2).
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import sys
from urllib.parse import urlsplit

__all__ = ["ENV", "parse_public_url", "is_loopback", "lan_addresses"]

ENV = "DPLAB_PUBLIC_URL"  #: the environment variable through which the app learns the public URL


def is_loopback(host: str) -> bool:
    """Whether ``host`` names the device itself on every device (``localhost``, ``127.x.x.x``, ``::1``) or no device
    at all (``0.0.0.0``, ``::``): an address a student's phone cannot use to reach the teacher's machine.

    >>> [is_loopback(host) for host in ("localhost", "127.0.0.1", "[::1]", "0.0.0.0", "192.168.1.20", "lab.example")]
    [True, True, True, True, False, False]
    """
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def parse_public_url(text: str) -> str:
    """The public URL ``text`` checked and written one way: ``http`` or ``https``, a host students can reach, an
    optional port and path (the lab behind a proxy's folder), no query, no ``#``; no trailing ``/``.

    Raises ``ValueError`` with a message saying what to write instead.

    >>> parse_public_url(" HTTP://192.168.1.20:8501/ ")
    'http://192.168.1.20:8501'
    >>> parse_public_url("https://lab.example.edu/dp/")
    'https://lab.example.edu/dp'
    >>> parse_public_url("192.168.1.20:8501")
    Traceback (most recent call last):
    ...
    ValueError: the public URL must start with http:// or https://; got '192.168.1.20:8501' (did you mean http://192.168.1.20:8501?)
    """
    raw = text.strip()
    shown = repr(text)
    if "://" not in raw:
        typed = raw.split("/")[0].rpartition(":")[0] or raw.split("/")[0]
        hint = ("" if not raw or " " in raw else " (and not localhost: an address students' phones can reach)"
                if is_loopback(typed) else f" (did you mean http://{raw}?)")
        raise ValueError(f"the public URL must start with http:// or https://; got {shown}{hint}")
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError(f"the public URL must start with http:// or https://; got {shown}")
    if any(char.isspace() for char in raw):
        raise ValueError(f"the public URL cannot contain spaces; got {shown}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number, or out of range
        raise ValueError(f"the public URL's port must be a number from 1 to 65535; got {shown}") from None
    if not host:
        raise ValueError(f"the public URL needs a host, e.g. http://192.168.1.20:8501; got {shown}")
    if parts.username or parts.password:
        raise ValueError(f"the public URL cannot hold a user name or password; got {shown}")
    if parts.query or parts.fragment or raw.endswith(("?", "#")):
        raise ValueError(f"the public URL is the lab's address only, without ?… or #…; got {shown}")
    if is_loopback(host):
        raise ValueError(f"the public URL must be an address students' phones can reach, not {host} (that names "
                         "each phone itself): use this machine's address on the classroom network, e.g. "
                         "http://192.168.1.20:8501")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


@functools.cache
def lan_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses other than loopback, as far as it knows them without asking the network (its
    host name's addresses, and the one it would send from towards a private address; no packet is sent), looked up
    once per process."""
    found: list[str] = []
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # UDP: chooses a route, sends nothing
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    return tuple(sorted({str(address) for address in found if not is_loopback(str(address))}))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deploy.public_url URL", file=sys.stderr)
        return 2
    try:
        print(parse_public_url(args[0]))
    except ValueError as exc:
        print(f"--public-url: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
