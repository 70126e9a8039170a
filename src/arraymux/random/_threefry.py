"""Threefry-2x32 (20 rounds), written with arraymux's operations.

Threefry is the counter-based generator of Salmon et al., "Parallel random numbers: as easy
as 1, 2, 3" (SC 2011), and the one behind ``jax.random``: a block cipher of two 32-bit words
keyed by two 32-bit words, built from additions, rotations and exclusive ors only. Those are
exact integer operations on every backend, so a key and a counter give the same bits on every
device. The words are held in ``uint32`` where the device computes with it, otherwise in
``int32`` with the same bit patterns (torch has no ``uint32`` kernels); additions wrap modulo
2**32 either way and right shifts are made logical by a mask.
"""

from __future__ import annotations

from typing import Any

from .._array import Array
from .._devices import Device

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA
MASK32 = 0xFFFFFFFF


def word_dtype(device: Device) -> Any:
    """``uint32`` where ``device`` computes with it, else ``int32`` (same bits)."""
    import arraymux as xp

    return xp.uint32 if device.supports(xp.uint32) else xp.int32


def as_word(v: int, dtype: Any) -> int:
    """The Python int whose bits in ``dtype`` are the 32 bits of ``v``."""
    import arraymux as xp

    v &= MASK32
    return v - (1 << 32) if dtype == xp.int32 and v >= 1 << 31 else v


def key_array(words: tuple[int, int], device: Device) -> Array:
    """The key holding ``words`` on ``device`` (built in NumPy, then moved: a Python list is
    several times slower to turn into a JAX or CUDA array)."""
    import numpy as np

    import arraymux as xp

    host = np.array(words, dtype=np.uint32)
    if word_dtype(device) == xp.int32:
        host = host.view(np.int32)
    return xp.asarray(host, device=device)


def shift_right(x: Array, r: int) -> Array:
    """Logical right shift of 32-bit words by ``0 < r < 32``."""
    import arraymux as xp

    out = x >> r
    return out if x.dtype == xp.uint32 else out & ((1 << (32 - r)) - 1)


def _rotate(x: Array, r: int) -> Array:
    return (x << r) | shift_right(x, 32 - r)


def threefry2x32(k0: Array, k1: Array, x0: Array | int, x1: Array | int) -> tuple[Array, Array]:
    """Encrypt the counter words ``(x0, x1)`` with the key words ``(k0, k1)``.

    All four are arrays of one 32-bit word dtype that broadcast together (a counter word may
    be a Python int of that dtype: no array is made from host data); the result is two arrays
    of their broadcast shape. Matches the reference's known answers, for example key
    ``(0x13198a2e, 0x03707344)`` and counter ``(0x243f6a88, 0x85a308d3)`` give
    ``(0xc4923a9c, 0x483df7a0)``.
    """
    k2 = k0 ^ k1 ^ as_word(_PARITY, k0.dtype)
    ks = (k0, k1, k2)
    y0, y1 = k0 + x0, k1 + x1
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            y0 = y0 + y1
            y1 = _rotate(y1, r) ^ y0
        y0 = y0 + ks[(i + 1) % 3]
        y1 = y1 + ks[(i + 2) % 3] + (i + 1)
    return y0, y1


def threefry2x32_int(key: tuple[int, int], counter: tuple[int, int]) -> tuple[int, int]:
    """:func:`threefry2x32` on Python ints (for keys derived on the host)."""

    def rot(v: int, r: int) -> int:
        return ((v << r) | (v >> (32 - r))) & MASK32

    k0, k1 = key
    ks = (k0, k1, k0 ^ k1 ^ _PARITY)
    x0, x1 = (counter[0] + k0) & MASK32, (counter[1] + k1) & MASK32
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = (x0 + x1) & MASK32
            x1 = rot(x1, r) ^ x0
        x0 = (x0 + ks[(i + 1) % 3]) & MASK32
        x1 = (x1 + ks[(i + 2) % 3] + i + 1) & MASK32
    return x0, x1
