"""Threefry-2x32 (20 rounds), written with arraymux's operations.

Threefry is the counter-based generator of Salmon et al., "Parallel random numbers: as easy
as 1, 2, 3" (SC 2011), and the one behind ``jax.random``: a block cipher of two 32-bit words
keyed by two 32-bit words, built from additions, rotations and exclusive ors only. Those are
exact integer operations on every backend, so a key and a counter give the same bits on every
device. The words are held in ``uint32`` where the device computes with it, otherwise in
``int32`` with the same bit patterns (torch has no ``uint32`` kernels); additions wrap modulo
2**32 either way and right shifts are made logical by a mask.

Two backends run the same operations their own way: NumPy in place on its ``uint32`` arrays
(:func:`threefry_numpy`: no temporary array per operation, nor arraymux's dispatch), and JAX
as a loop over the five groups of four rounds for small draws (``jax.random``'s own form on
the CPU), so that XLA counts a small draw as cheap and runs it on the calling thread.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, cast

from .. import _compiled
from .._array import Array, wrap
from .._devices import Device
from .._dtypes import DType
from . import _kernels

if TYPE_CHECKING:
    import jax
    import numpy as np
    from numpy.typing import NDArray

    #: Words of 32 bits in NumPy.
    Words = NDArray[np.uint32]
    #: The state of a group of JAX rounds: the words, the key schedule, the rotations.
    _Rounds = tuple[
        jax.Array, jax.Array, tuple[jax.Array, jax.Array, jax.Array], tuple[Words, Words]
    ]

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA
#: The most words of a JAX Threefry call whose rounds run as a loop.
ROLLED = 1024
MASK32 = 0xFFFFFFFF


#: :func:`word_dtype` of each device met (what a device holds does not change), by the
#: device's name: torch.compile's dynamo before torch 2.12 breaks the graph at a dict lookup
#: by an object with a ``__hash__`` of its own (splitting a draw in xp.jit into ~40 graphs).
_WORDS: dict[str, DType] = {}


def word_dtype(device: Device) -> DType:
    """``uint32`` where ``device`` computes with it, else ``int32`` (same bits): torch holds
    ``uint32`` but computes it through its signed kernels (its adapter's ``emulate`` hook),
    a view or a widening more per operation, which ``torch.compile`` does not fuse."""
    try:
        return _WORDS[device._str]
    except KeyError:
        import arraymux as xp

        native = device.supports(xp.uint32) and device._backend.hooks.emulate is None
        words = _WORDS[device._str] = xp.uint32 if native else xp.int32
        return words


def as_word(v: int, dtype: DType) -> int:
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
    if device.backend == "numpy":  # NumPy's own array: nothing to move
        return wrap(host, device)
    if word_dtype(device) == xp.int32:
        host = host.view(np.int32)
    _kernels.prepare(device)  # the GPU's draws are ready for torch.compile
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
    # (CuPy's fused kernel calls this with its own traced arrays, which are no Arrays)
    if isinstance(k0, Array) and jax_cpu(k0.device) and _small(k0, k1, x0, x1):
        return _threefry_jax(k0, k1, x0, x1)
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


def jax_cpu(device: Device) -> bool:
    """Whether ``device`` is one of JAX's CPUs, where small programs run best as loops (see
    :func:`_threefry_jax`). On a GPU each step of an XLA loop is a kernel launch and a read of
    its condition by the host: a key's ``split`` under ``jax.jit`` on an H200 took 48 us that
    way, against 23 us for ``jax.random.split``."""
    return device.backend == "jax" and device.place.split(":")[0] == "cpu"


def _small(*words: Array | int) -> bool:
    """Whether the words broadcast to at most :data:`ROLLED` elements (larger draws stay
    unrolled: a loop passes over the whole arrays at every step)."""
    size = 1
    for w in words:
        if isinstance(w, Array):
            # a draw's words have known shapes (checked before anything is drawn)
            size = max(size, math.prod(cast("tuple[int, ...]", w.shape)))
    return size <= ROLLED


def _threefry_jax(k0: Array, k1: Array, x0: Array | int, x1: Array | int) -> tuple[Array, Array]:
    """:func:`threefry2x32` on JAX's ``uint32`` words, its five groups of rounds one
    ``fori_loop`` (as ``jax.random`` lowers Threefry on the CPU): the same bits.

    XLA's CPU client runs a program on the calling thread only where its cost analysis counts
    fewer than 1000 operations, and hands it to a worker thread otherwise (tens of
    microseconds on a busy machine); a loop's body is counted once."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    device = k0.device

    def native(v: Array | int) -> jax.Array | np.uint32:
        return v.native if isinstance(v, Array) else np.uint32(v)

    a, b = native(k0), native(k1)
    c = a ^ b ^ np.uint32(_PARITY)
    y0, y1 = jnp.broadcast_arrays(a + native(x0), b + native(x1))
    rotations = (np.array(_ROTATIONS[0], np.uint32), np.array(_ROTATIONS[1], np.uint32))

    def group(i: jax.Array, state: _Rounds) -> _Rounds:
        y0, y1, ks, rots = state
        for j in range(4):
            r = rots[0][j]
            y0 = y0 + y1
            y1 = ((y1 << r) | (y1 >> (np.uint32(32) - r))) ^ y0
        y0 = y0 + ks[0]
        y1 = y1 + ks[1] + (i + 1).astype(np.uint32)
        return y0, y1, (ks[1], ks[2], ks[0]), (rots[1], rots[0])

    y0, y1, _, _ = jax.lax.fori_loop(0, 5, group, (y0, y1, (b, c, a), rotations))
    return wrap(y0, device), wrap(y1, device)


def threefry_numpy(k0: int, k1: int, counter: Words) -> tuple[Words, Words]:
    """:func:`threefry2x32` of the counters ``(0, counter)`` (a NumPy ``uint32`` array) with
    the key words ``k0`` and ``k1`` (ints): in C, one pass over the words, where the compiled
    extension is on and ``counter`` is contiguous; otherwise in place on two NumPy arrays and
    one temporary, about 110 passes over the words, each without an allocation (the
    reference, which the tests compare the C loop with)."""
    import numpy as np

    kernel = _compiled.threefry2x32
    if kernel is not None and counter.dtype == np.uint32 and counter.flags.c_contiguous:
        y0, y1 = np.empty_like(counter), np.empty_like(counter)
        kernel(k0 & MASK32, k1 & MASK32, counter, y0, y1)
        return y0, y1
    return threefry_numpy_ops(k0, k1, counter)


def threefry_numpy_ops(k0: int, k1: int, counter: Words) -> tuple[Words, Words]:
    """:func:`threefry_numpy` with NumPy's operations only (the reference of the C loop)."""
    import numpy as np

    # 0-d arrays, not scalars: NumPy converts a scalar operand at every call (twice the
    # cost of an operation on a small array)
    ks = (k0, k1, (k0 ^ k1 ^ _PARITY) & MASK32)
    shifts = _numpy_shifts()
    add, xor = np.add, np.bitwise_xor
    left, right, bor = np.left_shift, np.right_shift, np.bitwise_or
    y1 = add(counter, np.array(k1, dtype=np.uint32), dtype=np.uint32)
    y0 = add(y1, np.array(k0, dtype=np.uint32))  # k0 + 0, plus y1: the first round's addition
    t = np.empty_like(y1)
    first = True
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            if first:
                first = False
            else:
                add(y0, y1, y0)
            left(y1, shifts[r], t)
            right(y1, shifts[32 - r], y1)
            bor(y1, t, y1)
            xor(y1, y0, y1)
        add(y0, np.array(ks[(i + 1) % 3], dtype=np.uint32), y0)
        add(y1, np.array((ks[(i + 2) % 3] + i + 1) & MASK32, dtype=np.uint32), y1)
    return y0, y1


@functools.cache
def _numpy_shifts() -> dict[int, Words]:
    import numpy as np

    return {r: np.array(r, dtype=np.uint32) for r in range(32)}


def threefry2x32_int(key: tuple[int, int], counter: tuple[int, int]) -> tuple[int, int]:
    """:func:`threefry2x32` on Python ints (for keys derived on the host): in C where the
    compiled extension is on, else :func:`threefry2x32_int_ops`."""
    pair = _compiled.threefry_pair
    if pair is not None:
        return pair(key[0], key[1], counter[0], counter[1])
    return threefry2x32_int_ops(key, counter)


def threefry_range(k0: int, k1: int, start: int, n: int) -> tuple[Words, Words]:
    """:func:`threefry_numpy` of the ``n`` consecutive counters from ``start`` (modulo
    2**32): in C without an array of counters where the compiled extension is on."""
    import numpy as np

    kernel = _compiled.threefry2x32
    if kernel is not None:
        # the two rows of one array: one allocation (two large ones each take fresh pages)
        y = np.empty((2, n), dtype=np.uint32)
        kernel(k0 & MASK32, k1 & MASK32, start & MASK32, y[0], y[1])
        return y[0], y[1]
    counter = np.arange(n, dtype=np.uint32)
    np.add(counter, np.uint32(start & MASK32), out=counter)
    return threefry_numpy_ops(k0, k1, counter)


def threefry_keys(k0: int, k1: int, start: int, n: int) -> NDArray[np.uint32]:
    """The words of :func:`threefry_range` as the rows of an ``(n, 2)`` array (keys): written
    in place in C where the compiled extension is on."""
    import numpy as np

    out = np.empty((n, 2), dtype=np.uint32)
    kernel = _compiled.threefry_keys
    if kernel is not None:
        kernel(k0 & MASK32, k1 & MASK32, start & MASK32, out)
        return out
    y0, y1 = threefry_range(k0, k1, start, n)
    out[:, 0] = y0
    out[:, 1] = y1
    return out


def threefry2x32_int_ops(key: tuple[int, int], counter: tuple[int, int]) -> tuple[int, int]:
    """:func:`threefry2x32_int` with Python's operations only (the reference of the C one)."""

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
