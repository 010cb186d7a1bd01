"""One place where seeds become random generators.

Every random dpcore function takes ``rng``: ``None`` (fresh OS entropy), a non-negative integer seed,
or a ``numpy.random.Generator``. :func:`as_generator` normalises it. When one pipeline runs several
mechanisms (a range estimate, then a noisy mean), each draws from its own child stream
(:func:`spawn`), so a single seed never correlates their noise.

The generator is NumPy's PCG64: simulation grade. It is fine for teaching and experiments; it is not
a release mechanism hardened against floating-point or timing attacks.
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable

import numpy as np

from .validation import Integer, Seed, validated

__all__ = ["as_generator", "spawn", "child_generator"]

RngLike = None | int | np.random.Generator


@validated(rng=Seed())
def as_generator(rng: RngLike = None) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` for ``rng`` (``None``, an int seed, or a Generator).

    A Generator is returned as is (the caller's stream advances); an int seed gives a fresh,
    reproducible PCG64 stream.

    Parameters
    ----------
    rng : None, int or numpy.random.Generator, optional
        ``None`` (fresh OS entropy), a non-negative integer seed, or a Generator.

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself if it is a Generator, otherwise ``numpy.random.default_rng(rng)``.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


@validated(rng=Seed(), count=Integer(low=1))
def spawn(rng: RngLike, count: int) -> list[np.random.Generator]:
    """Return ``count`` statistically independent child generators of ``rng``.

    Uses ``Generator.spawn`` (SeedSequence spawning), so children never share a stream with each
    other or with the parent.

    Parameters
    ----------
    rng : None, int or numpy.random.Generator
        The parent: ``None`` (fresh OS entropy), a non-negative integer seed, or a Generator (whose
        SeedSequence then spawns the children).
    count : int
        How many children, at least 1.

    Returns
    -------
    list of numpy.random.Generator
        ``count`` independent generators.
    """
    return as_generator(rng).spawn(count)


@validated(seed=Integer(low=0))
def child_generator(seed: int, *key: Hashable) -> np.random.Generator:
    """A generator determined by ``seed`` and a hashable ``key`` (e.g. ``("data", n, k)``).

    The same ``(seed, key)`` always gives the same stream and different keys give independent
    streams (distinct ``SeedSequence`` spawn keys). The Monte Carlo engine keys streams by the grid
    values that change the data, so every frame of an animation reuses the same draws.

    Parameters
    ----------
    seed : int
        The entropy of the stream, a non-negative integer.
    *key : hashable
        The parts of the key; each enters through the CRC-32 of its ``repr``, so parts with equal ``repr`` give
        the same stream.

    Returns
    -------
    numpy.random.Generator
        A PCG64 generator on the ``SeedSequence`` of ``seed`` with the spawn key of ``key``.
    """
    spawn_key = tuple(zlib.crc32(repr(part).encode()) for part in key)
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=spawn_key))
