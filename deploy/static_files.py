"""Streamlit's static files, compressed once, for nginx to send as they are (``./lab.sh serve``).

A browser opening the lab for the first time downloads Streamlit's JavaScript and CSS: about 8 MiB for a page
(Plotly's bundle alone is 4.6 MiB). Streamlit's own server sends them uncompressed, on purpose: it leaves compression
to the reverse proxy in front of it. Compressing per request would cost nginx's CPU for every student of a class, so
this module compresses each file once, when the lab starts for the first time after an install (a minute on two
cores; nothing later), into a copy of Streamlit's ``static`` folder beside each file:

* ``name.gz``: gzip at level 9 (nginx's ``gzip_static``; every browser);
* ``name.br``: brotli at quality 11, its densest (nginx's ``brotli_static``, Debian's
  ``libnginx-mod-http-brotli-static``; every current browser asks for it, over https and on loopback), 15–20 % fewer
  bytes than gzip.

Only text compresses (JavaScript, CSS, JSON, SVG, HTML); fonts (woff2) and images already are. The copy is named by
Streamlit's version and the files' list, so an upgrade makes a new one. It is built in a temporary folder and renamed
into place when complete, under a lock: two servers starting together build it once, and a half-built copy is never
served. It lives under the virtual environment (``.venv/share/dplab-static``), world-readable, since nginx's workers
run as an unprivileged user; when a folder above it is private (a home folder of mode 700), in ``/var/tmp`` instead.

>>> sorted(COMPRESSIBLE)
['.css', '.html', '.js', '.json', '.mjs', '.svg', '.txt']
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import streamlit

__all__ = ["COMPRESSIBLE", "SOURCE", "brotli_available", "chart_module", "compressed_copy"]

SOURCE = Path(streamlit.__file__).resolve().parent / "static"  #: Streamlit's static folder
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".svg", ".html", ".txt"})  #: suffixes worth compressing
_VENV_HOME = Path(sys.prefix) / "share" / "dplab-static"
_SHARED_HOME = Path("/var/tmp") / "dplab-static"


def brotli_available() -> bool:
    """Whether the ``brotli`` package (PyPI, in requirements.txt) is importable."""
    try:
        import brotli  # noqa: F401
    except ImportError:
        return False
    return True


def compressed_copy(home: Path | None = None, say=lambda message: None) -> Path:
    """The folder holding Streamlit's static files with their ``.gz`` (and ``.br``) beside them; built if missing.

    Parameters
    ----------
    home : Path, optional
        Where copies are kept (default: the virtual environment's ``share/dplab-static`` if every user can reach it,
        else ``/var/tmp/dplab-static``).
    say : callable
        Told, once, when the copy has to be built (it takes a minute).

    Returns
    -------
    Path
        The copy's root: ``root / "static" / "js" / name`` mirrors Streamlit's ``static/static/js/name``, the path
        a browser asks for (``/static/js/name``).
    """
    home = home or (_VENV_HOME if _reachable_by_all(_VENV_HOME) else _SHARED_HOME)
    target = home / _name()
    if target.is_dir():
        return target
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o755)
    with open(home / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.is_dir():  # another server may have built it while this one waited
            say("Compressing Streamlit's static files once (gzip and brotli), about a minute...")
            _build(target)
    return target


def chart_module(static: Path = SOURCE) -> str | None:
    """The path a page asks for Streamlit's Plotly chart module by (``static/js/PlotlyChart.<hash>.js``), if
    ``static`` (Streamlit's static folder or its copy) holds exactly one; else None.

    A page loads it only once its first chart arrives over the websocket, after everything else: on a slow network
    the chart waits for the largest file of all (1.4 MiB gzipped) to start downloading. Named in the page's head
    (``modulepreload``), it downloads from the start, beside the rest.

    >>> chart_module().startswith("static/js/PlotlyChart.") and chart_module().endswith(".js")
    True
    """
    found = sorted((static / "static" / "js").glob("PlotlyChart.*.js"))
    return found[0].relative_to(static).as_posix() if len(found) == 1 else None


def _reachable_by_all(folder: Path) -> bool:
    """Whether every user may pass through each existing folder above ``folder`` (their "x" bit for others)."""
    return all(parent.stat().st_mode & 0o001 for parent in folder.parents if parent.exists())


def _name() -> str:
    """The copy's name: Streamlit's version and a hash of its static files' names and sizes, and the codecs."""
    listing = "\n".join(f"{path.relative_to(SOURCE)} {path.stat().st_size}" for path in sorted(SOURCE.rglob("*"))
                        if path.is_file())
    codecs = "gz-br" if brotli_available() else "gz"
    return f"streamlit-{streamlit.__version__}-{hashlib.sha256(listing.encode()).hexdigest()[:12]}-{codecs}"


def _build(target: Path) -> None:
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
    try:
        shutil.copytree(SOURCE, building, dirs_exist_ok=True)
        texts = [path for path in building.rglob("*") if path.suffix in COMPRESSIBLE and path.is_file()]
        with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
            list(pool.map(_compress, sorted(texts, key=lambda path: -path.stat().st_size)))
        for path in [building, *building.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        building.rename(target)
    finally:
        shutil.rmtree(building, ignore_errors=True)


def _compress(path: Path) -> None:
    """Write ``path.gz`` and, if brotli is installed, ``path.br``, each with the source's modification time."""
    data = path.read_bytes()
    outputs = {path.with_name(path.name + ".gz"): gzip.compress(data, compresslevel=9, mtime=0)}
    if brotli_available():
        import brotli
        outputs[path.with_name(path.name + ".br")] = brotli.compress(data, quality=11)
    stat = path.stat()
    for output, packed in outputs.items():
        output.write_bytes(packed)
        os.utime(output, ns=(stat.st_atime_ns, stat.st_mtime_ns))


if __name__ == "__main__":  # ./lab.sh serve, before the replicas start: build the copy if missing, print its folder
    print(compressed_copy(say=lambda message: print(message, file=sys.stderr)))
