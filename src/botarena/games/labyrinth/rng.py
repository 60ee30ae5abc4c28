"""The original controller's seeded RNG, ported bit for bit: xmur3a hashes the seed string,
sfc32 draws, 15 draws are discarded (so the same seed string gives the same bots' dice).

>>> draw = seeded_random("abc:A")
>>> 0.0 <= draw() < 1.0
True
"""

from __future__ import annotations

from collections.abc import Callable

MASK = 0xFFFFFFFF
WARM_UP_DRAWS = 15


def _imul(a: int, b: int) -> int:
    """JavaScript's Math.imul, kept unsigned: the low 32 bits of the product."""
    return (a * b) & MASK


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & MASK


def xmur3a(text: str) -> Callable[[], int]:
    """bryc's xmur3a string hash: a generator of 32-bit seeds from `text`'s UTF-16 units."""
    data = text.encode("utf-16-le")
    units = [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]
    h = 2166136261
    for unit in units:
        k = _rotl(_imul(unit, 3432918353), 15)
        h = _rotl(h ^ _imul(k, 461845907), 13)
        h = (_imul(h, 5) + 3864292196) & MASK
    h ^= len(units)

    def next_seed() -> int:
        nonlocal h
        h ^= h >> 16
        h = _imul(h, 2246822507)
        h ^= h >> 13
        h = _imul(h, 3266489909)
        h ^= h >> 16
        return h

    return next_seed


def sfc32(a: int, b: int, c: int, d: int) -> Callable[[], float]:
    """bryc's sfc32: floats in [0, 1) with 32 bits each, exactly as the JavaScript."""

    def draw() -> float:
        nonlocal a, b, c, d
        t = (a + b + d) & MASK
        d = (d + 1) & MASK
        a = b ^ (b >> 9)
        b = (c + (c << 3)) & MASK
        c = _rotl(c, 21)
        c = (c + t) & MASK
        return t / 4294967296

    return draw


def seeded_random(seed: str) -> Callable[[], float]:
    """The controller's `seededRandom(seed)`: what a bot receives as `random`."""
    next_seed = xmur3a(seed)
    draw = sfc32(next_seed(), next_seed(), next_seed(), 1)
    for _ in range(WARM_UP_DRAWS):
        draw()
    return draw
