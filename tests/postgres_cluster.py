"""A throw-away PostgreSQL cluster for the tests: ``initdb`` in a temporary folder, a Unix socket in that folder
(no TCP port), trust authentication, made for speed (no fsync: its data dies with it), stopped at the end.

``./lab.sh test`` starts one before pytest and stops it when pytest ends (``python -m tests.postgres_cluster start
FOLDER`` prints its URL, exported as ``DPLAB_TEST_POSTGRES``; ``stop FOLDER``); a pytest run without it (a single
file, say) starts one per test process (:func:`cluster_url` in ``tests/conftest.py``). Each test takes a database of
its own (:func:`new_database`). PostgreSQL refuses to run as root: under root the cluster runs as the ``postgres``
user (Debian's package makes it), or ``nobody``.
"""

from __future__ import annotations

import atexit
import functools
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg

__all__ = ["ENV", "binary", "start", "stop", "new_database", "cluster_url"]

ENV = "DPLAB_TEST_POSTGRES"  #: the URL of the cluster ./lab.sh test started for this run

_USER = "postgres"  # the cluster's superuser (a role; no password: trust on the socket only)


def binary(name: str) -> str:
    """The path of PostgreSQL's program ``name`` (``initdb``, ``pg_ctl``): on the PATH, else Debian's
    ``/usr/lib/postgresql/<version>/bin`` (the newest); ``FileNotFoundError`` if PostgreSQL is not installed."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if not found:
        raise FileNotFoundError(f"PostgreSQL's {name} is not installed (./lab.sh test installs Debian's postgresql)")
    return found


def _as_owner(command: list[str], folder: Path) -> list[str]:
    """``command`` run as the folder's owner when this process is root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", pwd.getpwuid(folder.stat().st_uid).pw_name, "--", *command]


def start(folder: str | os.PathLike[str]) -> str:
    """Make and start a cluster in ``folder`` (created; empty); return its URL (the server's database ``postgres``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        owner = next((user for user in ("postgres", "nobody") if _exists(user)), None)
        if owner is None:
            raise RuntimeError("PostgreSQL cannot run as root and neither 'postgres' nor 'nobody' exists")
        entry = pwd.getpwnam(owner)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o700)
    data = folder / "data"
    subprocess.run(_as_owner([binary("initdb"), "-D", str(data), "-U", _USER, "--auth=trust", "-E", "UTF8",
                              "--no-sync", "--no-instructions"], folder), check=True, capture_output=True)
    options = (f"-k {folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
               "-c max_connections=300 -c shared_buffers=32MB")
    subprocess.run(_as_owner([binary("pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "server.log"),
                              "-w", "-t", "60", "start"], folder), check=True, capture_output=True)
    return f"postgresql://{_USER}@/postgres?host={folder}"


def stop(folder: str | os.PathLike[str]) -> None:
    """Stop the cluster of ``folder`` at once (its data is thrown away) and remove the folder."""
    folder = Path(folder)
    if (folder / "data" / "postmaster.pid").exists():
        subprocess.run(_as_owner([binary("pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "-w", "stop"],
                                 folder), check=False, capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def new_database(cluster: str, name: str = "") -> str:
    """Create the database ``name`` (default: a new random name) in ``cluster`` if it is missing; return its URL."""
    name = name or f"t_{uuid.uuid4().hex}"
    with psycopg.connect(cluster, autocommit=True) as connection:
        try:
            connection.execute(f'CREATE DATABASE "{name}"')
        except psycopg.errors.DuplicateDatabase:
            pass
    return cluster.replace("@/postgres?", f"@/{name}?")


@functools.cache
def cluster_url() -> str:
    """The cluster of this test run: ``DPLAB_TEST_POSTGRES`` (./lab.sh test), else one started now for this process
    and stopped when it exits."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    folder = tempfile.mkdtemp(prefix="dplab-pg-")
    url = start(folder)
    atexit.register(stop, folder)
    return url


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


if __name__ == "__main__":
    action, where = sys.argv[1], sys.argv[2]
    if action == "start":
        print(start(where))
    else:
        stop(where)
