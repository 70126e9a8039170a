"""Random numbers that are the same on every backend.

The standard has no random API and each backend has its own streams (NumPy PCG64, torch
Mersenne Twister on the CPU and Philox on CUDA, JAX Threefry), so the same seed gives other
numbers on each. ``arraymux.random`` computes its numbers with arraymux's own operations from
a counter-based generator, Threefry-2x32 with 20 rounds (the generator of ``jax.random``), so:

- **the same key gives bit-identical integers on every device** (NumPy, torch CPU and CUDA, JAX
  CPU and GPU, CuPy, Dask, array-api-strict): the bits come from exact integer operations;
- **floats are the same within the backend's elementwise rounding**: uniform floats are exact
  functions of the bits; normals use ``log``, ``sqrt``, ``cos`` and ``sin`` (Box-Muller), whose
  last bit may differ between backends.

Two interfaces:

- the **functional key API**, as JAX offers it, usable inside ``grad``, ``vmap`` and ``jit``:
  a key is an array; :func:`split` and :func:`fold_in` derive new keys, and every sampler takes
  a key and never changes it (:func:`key`, :func:`split`, :func:`fold_in`, :func:`bits`,
  :func:`uniform`, :func:`normal`, :func:`integers`, :func:`bernoulli`, :func:`permutation`,
  :func:`choice`);
- a **stateful** :class:`Generator`, as NumPy offers it, which draws a fresh key for each call.
  ``Generator(seed, device, fast=True)`` uses the backend's own generator instead: faster, but
  its numbers depend on the backend (and on the device for torch).

Examples
--------
>>> import arraymux as xp
>>> k = xp.random.key(0)
>>> xp.to_numpy(xp.random.integers(k, 0, 10, shape=(5,))).tolist()
[4, 6, 3, 7, 3]
>>> k1, k2 = xp.random.split(k)
>>> g = xp.random.Generator(42, device="torch:cpu")
>>> g.normal(shape=(2, 3)).shape
(2, 3)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from .._array import Array
from .._devices import _TRANSFORM, Device, resolve_device
from .._dispatch import wrap as _wrap
from .._typing import DeviceLike
from ._threefry import MASK32, as_word, key_array, shift_right, threefry2x32, word_dtype

__all__ = [
    "Generator",
    "bernoulli",
    "bits",
    "choice",
    "fold_in",
    "integers",
    "key",
    "normal",
    "permutation",
    "split",
    "uniform",
]

Shape = int | Sequence[int]


def _xp() -> Any:
    import arraymux

    return arraymux


def _shape(shape: Shape | None, fname: str) -> tuple[int, ...]:
    if shape is None:
        return ()
    if isinstance(shape, int):
        shape = (shape,)
    try:
        out = tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise TypeError(
            f"arraymux.random.{fname}: shape must be an int or a sequence of ints, not "
            f"{type(shape).__name__}."
        ) from None
    if any(n < 0 for n in out):
        raise ValueError(f"arraymux.random.{fname}: shape {out} has a negative dimension.")
    if math.prod(out) > 1 << 31:
        raise ValueError(f"arraymux.random.{fname}: at most 2**31 numbers per call.")
    return out


def _known_shape(shape: tuple[int | None, ...], fname: str) -> tuple[int, ...]:
    if any(n is None for n in shape):
        raise ValueError(f"arraymux.random.{fname}: the array's shape {shape} is not known yet.")
    return tuple(n for n in shape if n is not None)


def _fused(kernel: Callable[..., Array], k: Array, *static: Any) -> Array:
    """``kernel(k, *static)``; on JAX compiled once per ``static`` (XLA fuses Threefry's
    integer operations into one loop, several times faster than running them one by one)."""
    if k.device.backend == "jax":
        return _compiled(kernel, static)(k)
    if k.device.backend == "torch" and k.device.place == "cpu" and _concrete(k):
        return _through_numpy(kernel, k, static)
    return kernel(k, *static)


def _concrete(k: Array) -> bool:
    """Whether a torch key holds values: outside arraymux's transforms (their thread-local
    device is set while they run), torch.compile and torch.func."""
    if _TRANSFORM.device is not None:
        return False
    import torch

    return not (torch.compiler.is_compiling() or _hook_traced(k))


def _hook_traced(k: Array) -> bool:
    from .._transfer import _hook

    traced = _hook(k.device, "traced")
    return bool(traced is not None and traced(k.native))


def _through_numpy(kernel: Callable[..., Array], k: Array, static: tuple[Any, ...]) -> Array:
    """``kernel`` on the NumPy device, its result moved back without a copy (DLPack).

    torch on the CPU has no ``uint32`` arithmetic, so its words take extra masking; NumPy's
    ``uint32`` runs the same operations two to four times faster, and the bits are the same.
    """
    xp = _xp()
    out = kernel(xp.astype(xp.to_device(k, "numpy"), xp.uint32), *static)
    if out.dtype == xp.uint32:  # keys keep torch's int32 words, bits are held in int64
        out = xp.astype(out, k.dtype if kernel is _split_kernel else xp.int64)
    return xp.to_device(out, k.device)


@functools.lru_cache(maxsize=128)
def _compiled(kernel: Callable[..., Array], static: tuple[Any, ...]) -> Callable[[Array], Array]:
    return _xp().jit(lambda k: kernel(k, *static))  # type: ignore[no-any-return]


def _seed_words(seed: int, fname: str) -> tuple[int, int]:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(
            f"arraymux.random.{fname}: the seed must be a Python int, not {type(seed).__name__}."
        )
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"arraymux.random.{fname}: the seed must be in [0, 2**64), got {seed}.")
    return seed >> 32, seed & MASK32


def key(seed: int, *, device: DeviceLike | None = None) -> Array:
    """A key: the two 32-bit words of ``seed``, as an array of shape ``(2,)``.

    Parameters
    ----------
    seed
        An int in ``[0, 2**64)``; ``key(s)`` holds the same words as ``jax.random.PRNGKey(s)``.
    device
        Where the key, and the numbers drawn from it, live; the default device if omitted.

    Returns
    -------
    Array
        ``uint32`` where the device computes with it, else ``int32`` with the same bits.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.random.key(5).shape
    (2,)
    """
    return key_array(_seed_words(seed, "key"), resolve_device(device, "random.key"))


def _check_key(k: Any, fname: str) -> Array:
    xp = _xp()
    if not isinstance(k, Array):
        raise TypeError(
            f"arraymux.random.{fname}: expected a key made by arraymux.random.key, got "
            f"{type(k).__name__}."
        )
    if k.shape != (2,) or k.dtype not in (xp.uint32, xp.int32):
        raise ValueError(
            f"arraymux.random.{fname}: a key is a (2,) array of uint32 or int32 words (from "
            f"arraymux.random.key); got shape {k.shape} and dtype {k.dtype}."
        )
    if k.dtype != word_dtype(k.device):
        k = xp.astype(k, word_dtype(k.device))
    return k


def _words(k: Array, n: int) -> Array:
    """``n`` random 32-bit words from ``k``: block ``i`` (counter ``(0, i)``) gives words
    ``2i`` and ``2i + 1``, so a shorter draw is a prefix of a longer one."""
    xp = _xp()
    if n == 0:
        return xp.zeros((0,), dtype=k.dtype, device=k.device)
    blocks = (n + 1) // 2
    counter = xp.arange(blocks, dtype=k.dtype, device=k.device)
    zero = xp.zeros((), dtype=k.dtype, device=k.device)
    # Only a backend that fuses (CuPy, which nothing traces) reaches the cache: a global dict
    # read inside torch.compile would add a guard that fails when the cache fills.
    fuse = getattr(k.device._backend.adapter, "fuse", None)
    fused = None if fuse is None else _fused_threefry(k.device, fuse)
    if fused is None:
        y0, y1 = threefry2x32(k[0], k[1], counter, zero)
    else:  # one kernel instead of ~150 (CuPy): the same operators on the native arrays
        n0, n1 = fused(k[0].native, k[1].native, counter.native, zero.native)
        y0, y1 = _wrap(n0, k.device), _wrap(n1, k.device)
    return xp.reshape(xp.stack([y0, y1], axis=1), (2 * blocks,))[:n]


_FUSED: dict[Device, Callable[..., Any]] = {}


def _fused_threefry(device: Device, fuse: Callable[..., Any]) -> Callable[..., Any]:
    """Threefry as one kernel on ``device``, made once."""
    try:
        return _FUSED[device]
    except KeyError:
        fused = _FUSED[device] = fuse(threefry2x32)
        return fused


def _on(k: Array, device: DeviceLike | None, fname: str) -> Array:
    k = _check_key(k, fname)
    if device is None:
        return k
    d = resolve_device(device, f"random.{fname}")
    k = _xp().to_device(k, d)
    return k if k.dtype == word_dtype(d) else _xp().astype(k, word_dtype(d))


def split(key: Array, num: int = 2) -> Array:
    """``num`` new keys from ``key``, as an array of shape ``(num, 2)``.

    Unpack or iterate over the result to get each key (``keys[i, ...]`` also works; the
    standard leaves ``keys[i]`` of a 2-D array undefined); never use ``key`` itself again once
    split.

    Examples
    --------
    >>> import arraymux as xp
    >>> k1, k2, k3 = xp.random.split(xp.random.key(0), 3)
    >>> k1.shape
    (2,)
    """
    k = _check_key(key, "split")
    if num < 0:
        raise ValueError(f"arraymux.random.split: num must be >= 0, got {num}.")
    return _fused(_split_kernel, k, num)


def _split_kernel(k: Array, num: int) -> Array:
    return _xp().reshape(_words(k, 2 * num), (num, 2))


def fold_in(key: Array, data: int) -> Array:
    """A new key from ``key`` and an int ``data`` in ``[0, 2**32)`` (a step or a rank).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.random.fold_in(xp.random.key(0), 7).shape
    (2,)
    """
    xp = _xp()
    k = _check_key(key, "fold_in")
    if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data <= MASK32:
        raise ValueError(
            f"arraymux.random.fold_in: data must be an int in [0, 2**32), got {data!r}."
        )
    c0 = xp.asarray(0, dtype=k.dtype, device=k.device)
    c1 = xp.asarray(as_word(data, k.dtype), dtype=k.dtype, device=k.device)
    y0, y1 = threefry2x32(k[0], k[1], c0, c1)
    return xp.stack([y0, y1])


def bits(key: Array, shape: Shape = (), *, device: DeviceLike | None = None) -> Array:
    """Random 32-bit words, identical on every device.

    Returns
    -------
    Array
        ``uint32`` where the device computes with it, else ``int64`` holding the same values
        (torch).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.random.bits(xp.random.key(0), (2,))).tolist()
    [1797259609, 2579123966]
    """
    k = _on(key, device, "bits")
    return _fused(_bits_kernel, k, _shape(shape, "bits"))


def _bits_kernel(k: Array, shp: tuple[int, ...]) -> Array:
    xp = _xp()
    w = _words(k, math.prod(shp))
    if w.dtype == xp.int32:
        w = xp.astype(w, xp.int64) & MASK32
    return xp.reshape(w, shp)


def _default_float(d: Device, dtype: Any, fname: str) -> Any:
    xp = _xp()
    if dtype is None:
        return xp.__array_namespace_info__().default_dtypes(device=d)["real floating"]
    if dtype not in (xp.float32, xp.float64):
        raise ValueError(f"arraymux.random.{fname}: dtype must be float32 or float64, got {dtype}.")
    return dtype


def _unit(k: Array, n: int, dtype: Any) -> Array:
    """``n`` floats in ``[0, 1)``, exact functions of the bits: 24 bits each for float32, 53
    (from two words) for float64."""
    xp = _xp()
    if dtype == xp.float32:
        return xp.astype(shift_right(_words(k, n), 8), xp.float32) * (2.0**-24)
    w = _words(k, 2 * n)
    hi = xp.astype(shift_right(w[0::2], 5), xp.float64)
    lo = xp.astype(shift_right(w[1::2], 6), xp.float64)
    return (hi * 67108864.0 + lo) * (2.0**-53)


def uniform(
    key: Array,
    shape: Shape = (),
    dtype: Any = None,
    minval: float = 0.0,
    maxval: float = 1.0,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Floats uniform in ``[minval, maxval)``; the device's default float if ``dtype`` is
    omitted.

    Examples
    --------
    >>> import arraymux as xp
    >>> u = xp.random.uniform(xp.random.key(0), (1000,), xp.float32)
    >>> bool(xp.all((u >= 0) & (u < 1)))
    True
    """
    k = _on(key, device, "uniform")
    shp = _shape(shape, "uniform")
    dt = _default_float(k.device, dtype, "uniform")
    u = _fused(_uniform_kernel, k, shp, dt)
    if (minval, maxval) == (0.0, 1.0):
        return u
    return u * (maxval - minval) + minval


def _uniform_kernel(k: Array, shp: tuple[int, ...], dtype: Any) -> Array:
    return _xp().reshape(_unit(k, math.prod(shp), dtype), shp)


def normal(
    key: Array, shape: Shape = (), dtype: Any = None, *, device: DeviceLike | None = None
) -> Array:
    """Standard normal floats (Box-Muller on :func:`uniform`'s bits).

    Examples
    --------
    >>> import arraymux as xp
    >>> z = xp.random.normal(xp.random.key(1), (10000,), xp.float64)
    >>> abs(float(xp.mean(z))) < 0.05 and abs(float(xp.std(z)) - 1) < 0.05
    True
    """
    k = _on(key, device, "normal")
    shp = _shape(shape, "normal")
    return _fused(_normal_kernel, k, shp, _default_float(k.device, dtype, "normal"))


def _normal_kernel(k: Array, shp: tuple[int, ...], dtype: Any) -> Array:
    xp = _xp()
    n = math.prod(shp)
    pairs = (n + 1) // 2
    u = _unit(k, 2 * pairs, dtype)
    radius = xp.sqrt(-2.0 * xp.log1p(-u[0::2]))  # 1 - u is in (0, 1]
    theta = (2.0 * math.pi) * u[1::2]
    z = xp.stack([radius * xp.cos(theta), radius * xp.sin(theta)], axis=1)
    return xp.reshape(xp.reshape(z, (2 * pairs,))[:n], shp)


def _mulhi(a: Array, span: int) -> Array:
    """``floor(a * span / 2**32)`` for 32-bit words ``a`` and ``0 < span <= 2**32``, in 32-bit
    arithmetic (16-bit halves), so every device computes the same integer."""
    if span == 1 << 32:
        return a
    a1, a0 = shift_right(a, 16), a & 0xFFFF
    s1, s0 = span >> 16, span & 0xFFFF
    lo_lo, hi_lo, lo_hi = a0 * s0, a1 * s0, a0 * s1
    mid = shift_right(lo_lo, 16) + (hi_lo & 0xFFFF) + (lo_hi & 0xFFFF)
    return a1 * s1 + shift_right(hi_lo, 16) + shift_right(lo_hi, 16) + shift_right(mid, 16)


def integers(
    key: Array,
    low: int,
    high: int | None = None,
    shape: Shape = (),
    dtype: Any = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Integers uniform in ``[low, high)`` (``[0, low)`` if ``high`` is omitted), identical on
    every device.

    Each value is ``low + floor(w * (high - low) / 2**32)`` of one random word ``w``: exact
    integer arithmetic, with a bias below ``(high - low) / 2**32`` per value.

    Parameters
    ----------
    dtype
        An integer dtype holding the range; the device's default integer if omitted.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.random.integers(xp.random.key(0), 1, 7, shape=(4,))).tolist()
    [3, 4, 2, 5]
    """
    xp = _xp()
    k = _on(key, device, "integers")
    if high is None:
        low, high = 0, low
    low, high = int(low), int(high)
    span = high - low
    if span <= 0:
        raise ValueError(f"arraymux.random.integers: needs low < high, got [{low}, {high}).")
    if span > 1 << 32:
        raise ValueError(
            f"arraymux.random.integers: the range [{low}, {high}) is wider than 2**32."
        )
    if dtype is None:
        dtype = xp.__array_namespace_info__().default_dtypes(device=k.device)["integral"]
    info = xp.iinfo(dtype)
    if low < info.min or high - 1 > info.max:
        raise ValueError(
            f"arraymux.random.integers: [{low}, {high}) does not fit in {dtype} "
            f"([{info.min}, {info.max}])."
        )
    return _fused(_integers_kernel, k, _shape(shape, "integers"), low, span, dtype)


def _integers_kernel(k: Array, shp: tuple[int, ...], low: int, span: int, dtype: Any) -> Array:
    xp = _xp()
    offset = _mulhi(_words(k, math.prod(shp)), span)
    if offset.dtype == xp.int32 and span > 1 << 31:
        offset = xp.astype(offset, xp.int64) & MASK32
    out = xp.astype(offset, dtype) if offset.dtype != dtype else offset
    return xp.reshape(out + low if low else out, shp)


def bernoulli(
    key: Array,
    p: float | Array = 0.5,
    shape: Shape | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Booleans, true with probability ``p`` (a float or an array broadcast to ``shape``).

    Examples
    --------
    >>> import arraymux as xp
    >>> b = xp.random.bernoulli(xp.random.key(0), 0.25, (10000,))
    >>> 0.22 < float(xp.mean(xp.astype(b, xp.float32))) < 0.28
    True
    """
    xp = _xp()
    k = _on(key, device, "bernoulli")
    if shape is None:
        shape = _known_shape(p.shape, "bernoulli") if isinstance(p, Array) else ()
    # float32 uniforms unless p is a float64 array: the same draws on every device.
    wide = isinstance(p, Array) and p.dtype == xp.float64
    return uniform(k, shape, xp.float64 if wide else xp.float32) < p


def permutation(
    key: Array, x: int | Array, axis: int = 0, *, device: DeviceLike | None = None
) -> Array:
    """A random permutation of ``arange(x)`` (an int) or of ``x`` along ``axis``.

    The order sorts random words stably, so it is the same on every device.

    Examples
    --------
    >>> import arraymux as xp
    >>> p = xp.random.permutation(xp.random.key(0), 5)
    >>> sorted(xp.to_numpy(p).tolist())
    [0, 1, 2, 3, 4]
    """
    xp = _xp()
    k = _on(key, device, "permutation")
    n = x if isinstance(x, int) else _known_shape(x.shape, "permutation")[axis]
    order = xp.argsort(bits(k, (n,)), stable=True)
    if isinstance(x, int):
        return order
    return xp.take(x, xp.to_device(order, x.device), axis=axis)


def choice(
    key: Array,
    a: int | Array,
    shape: Shape = (),
    replace: bool = True,
    p: Array | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Values drawn from ``a`` (an array's first axis, or ``arange(a)``), with or without
    replacement, uniformly or with probabilities ``p``.

    Without replacement and with ``p``, the draw keeps the ``n`` largest of
    ``log(u) / p`` (the Gumbel top-k trick), as NumPy's result is distributed.

    Examples
    --------
    >>> import arraymux as xp
    >>> c = xp.random.choice(xp.random.key(0), 10, (3,), replace=False)
    >>> len(set(xp.to_numpy(c).tolist()))
    3
    """
    k = _on(key, device, "choice")
    return select(a, shape, replace, p, _KeyDraws(k), "choice")


class _KeyDraws:
    """The draws that :func:`select` takes, from one key (each selection draws once)."""

    def __init__(self, key: Array) -> None:
        self.key = key
        self.device = key.device

    def random(self, shape: Shape, dtype: Any) -> Array:
        return uniform(self.key, shape, dtype)

    def integers(self, low: int, high: int, shape: Shape, dtype: Any) -> Array:
        return integers(self.key, low, high, shape, dtype)

    def permutation(self, n: int) -> Array:
        return permutation(self.key, n)


def select(
    a: int | Array, shape: Shape, replace: bool, p: Array | None, draws: Any, fname: str
) -> Array:
    """:func:`choice` with its random draws taken from ``draws`` (a key, or a generator)."""
    xp = _xp()
    n = a if isinstance(a, int) else _known_shape(a.shape, fname)[0]
    if n <= 0:
        raise ValueError(f"arraymux.random.{fname}: a must have at least one element.")
    shp = _shape(shape, fname)
    m = math.prod(shp)
    if not replace and m > n:
        raise ValueError(
            f"arraymux.random.{fname}: cannot take {m} values from {n} without replacement."
        )
    if p is not None and p.shape != (n,):
        raise ValueError(f"arraymux.random.{fname}: p must have shape ({n},), got {p.shape}.")
    idx_dtype = xp.__array_namespace_info__().default_dtypes(device=draws.device)["indexing"]
    if replace and p is None:
        idx = draws.integers(0, n, (m,), idx_dtype)
    elif replace and p is not None:
        cdf = xp.cumulative_sum(p)
        u = draws.random((m,), p.dtype) * cdf[-1]
        idx = xp.astype(xp.clip(xp.searchsorted(cdf, u, side="right"), max=n - 1), idx_dtype)
    elif p is None:
        idx = draws.permutation(n)[:m]
    else:  # without replacement, with p
        scores = xp.log1p(-draws.random((n,), p.dtype)) / p
        idx = xp.argsort(-scores, stable=True)[:m]
    if isinstance(a, int):
        return xp.reshape(idx, shp)
    taken = xp.take(a, xp.to_device(idx, a.device), axis=0)
    return xp.reshape(taken, shp + tuple(a.shape[1:]))


from ._generator import Generator  # noqa: E402
