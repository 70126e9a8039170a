"""Keys and the basic draws of ``arraymux.random``: :func:`key`, :func:`split`, :func:`fold_in`,
:func:`bits`, :func:`uniform`, :func:`normal`, :func:`integers`, :func:`bernoulli`,
:func:`permutation` and :func:`choice`, and :func:`run`, which runs a sampler's kernel where it
is fastest on each backend (the distributions and the Generator use it too).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, TypeAlias, cast

from .. import _compiled as _speed
from .._arguments import check_bool, check_int, python_scalar
from .._array import Array
from .._array import wrap as _wrap
from .._devices import TRANSFORM, Device, resolve_device
from .._dtypes import DType
from .._errors import (
    AxisError,
    TransformUnavailableError,
)
from .._typing import DeviceLike, NativeArray
from . import _kernels, _threads
from ._checks import (
    MAX_DRAW,
    DTypeArg,
    ParamLike,
    Shape,
    array_arg,
    check_key,
    default_dtype,
    draw_dtype,
    draw_shape,
    finite_real,
    integer_bounds,
    known_shape,
    same_device,
    seed_words,
)
from ._loop import NeedsHostRead
from ._special import erfinv, log, normal64_constants, normal_constants, rounded
from ._threefry import (
    MASK32,
    as_word,
    jax_cpu,
    key_array,
    shift_right,
    threefry2x32,
    threefry2x32_int,
    threefry_keys,
    threefry_numpy,
    threefry_range,
    word_dtype,
)

if TYPE_CHECKING:
    import jax
    import numpy as np
    from numpy.typing import NDArray

#: Threefry on a backend's native words (a fused kernel): ``(k0, k1, x0, x1) -> (y0, y1)``.
_Threefry = Callable[..., tuple[NativeArray, NativeArray]]


class Draws(Protocol):
    """Where :func:`select` takes its random draws: a key, or a Generator."""

    @property
    def device(self) -> Device: ...

    def random(self, shape: tuple[int, ...], dtype: DType) -> Array: ...

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array: ...

    def permutation(self, n: int) -> Array: ...


__all__ = [
    "apply",
    "bernoulli",
    "bernoulli_args",
    "bits",
    "blocks",
    "choice",
    "draw_integers",
    "draw_normal",
    "draw_permutation",
    "draw_uniform",
    "EAGER",
    "floats",
    "fold",
    "fold_block_kernel",
    "fold_in",
    "fused",
    "in_range",
    "integers",
    "jax_draw_step",
    "jax_fold",
    "key",
    "key_on",
    "normal",
    "normal_kernel",
    "normal_of",
    "ONE_BY_ONE",
    "over_counters",
    "permutation",
    "permutation_args",
    "PIECE",
    "QUIET",
    "run",
    "select",
    "split",
    "split_kernel",
    "uniform",
    "unit_floats",
]


def _xp() -> ModuleType:
    import arraymux

    return arraymux


def _readable(x: Array) -> bool:
    """Whether ``x`` holds values that the host can read: outside arraymux's transforms (their
    thread-local device is set while they run), jax.jit, torch.func and torch.compile."""
    if TRANSFORM.device is not None:
        return False
    backend = x.device._backend
    traced = backend.hooks.traced
    if traced is None:
        return True
    if backend.name == "torch":
        import torch

        if torch.compiler.is_compiling():
            return False
    return not traced(x.native)


def fused(kernel: Callable[..., Array], k: Array, *static: Hashable) -> Array:
    """``kernel(k, *static)``, run as :func:`run` runs it."""
    return run(kernel, k, (), static)


#: The kernels of the distributions: their intermediate values may be infinite or NaN where
#: XLA computes them so too (NumPy's warnings about them are silenced).
QUIET: set[Callable[..., Array]] = set()
#: Kernels that a backend whose spec says ``draws_on_numpy`` computes on NumPy, the result
#: moved back (on Dask one chunk): a graph of hundreds of tiny tasks per draw costs more than
#: the draw (8 normals: 170 ms), and so does every operation through array-api-strict's
#: checks (10 ms); the rejection loops read their values (every kernel of this module and of
#: the distributions).
EAGER: set[Callable[..., Array]] = set()


def run(
    kernel: Callable[..., Array],
    k: Array,
    params: tuple[Array, ...] = (),
    static: tuple[Hashable, ...] = (),
    fname: str = "",
) -> Array:
    """``kernel(k, *params, *static)``: ``params`` are arrays on the key's device (traced on
    JAX), ``static`` hashable values that shape the computation.

    On JAX the kernel is compiled once per ``static`` (and per shape and dtype of the arrays:
    XLA fuses Threefry's integer operations into one loop, several times faster than running
    them one by one); on torch's CPU it runs on NumPy (see :func:`_through_numpy`); a
    distribution's kernel on a lazy backend (Dask) runs on NumPy too, its result moved back.
    """
    device = k.device
    backend = device.backend
    try:
        if backend == "numpy" and kernel not in QUIET:  # the common case, first
            return kernel(k, *params, *static)
        if backend == "jax":
            if not params:
                return _on_jax(kernel, k, static)
            return _compiled(kernel, static)(k, *params)
        if backend == "torch" and device.place == "cpu" and _readable(k):
            return _on_torch_cpu(kernel, k, params, static)
        if kernel in EAGER and device._backend.spec.draws_on_numpy:
            return _through_numpy(kernel, k, params, static)
        if kernel in QUIET:
            import numpy as np

            with np.errstate(all="ignore"):
                return kernel(k, *params, *static)
        return kernel(k, *params, *static)
    except NeedsHostRead:
        raise TransformUnavailableError(
            f"arraymux.random.{fname}: its rejection loop reads whether every draw was "
            f"accepted, which {device} cannot do inside torch.func.vmap or torch.compile. "
            "Draw outside the transform, or on a JAX device (its loop is compiled)."
        ) from None


def apply(
    fn: Callable[..., Array], arrays: tuple[Array, ...], static: tuple[Hashable, ...] = ()
) -> Array:
    """``fn(*arrays, *static)`` for a function of floats without a key (the last steps of a
    sampler): compiled once per ``static`` on JAX, as it is elsewhere (NumPy's warnings about
    infinite or NaN intermediate values silenced)."""
    first = arrays[0]
    if first.device.backend == "jax":
        return _compiled(fn, static)(*arrays)
    import numpy as np

    xp = _xp()
    # torch's sqrt on the CPU is not correctly rounded (about one float32 in six differs);
    # Dask would build a graph of hundreds of tiny tasks, array-api-strict check each step
    cpu_torch = first.device.backend == "torch" and first.device.place == "cpu"
    on_numpy = first.device._backend.spec.draws_on_numpy
    if on_numpy or (cpu_torch and all(_readable(a) for a in arrays)):
        with np.errstate(all="ignore"):
            out = fn(*(xp.to_device(a, "numpy") for a in arrays), *static)
        return xp.to_device(out, first.device)
    with np.errstate(all="ignore"):
        return fn(*arrays, *static)


def _on_torch_cpu(
    kernel: Callable[..., Array], k: Array, params: tuple[Array, ...], static: tuple[Hashable, ...]
) -> Array:
    """``kernel`` for a key on torch's CPU, computed on the host: the draws that have C loops
    run them on the key's two words (see :data:`_TORCH_C_DRAWS`), the others take
    :func:`_through_numpy`."""
    if not params:
        host = _TORCH_C_DRAWS.get(kernel)
        out = None if host is None else host(k, *static)
        if out is not None:
            return out
    return _through_numpy(kernel, k, params, static)


def _through_numpy(
    kernel: Callable[..., Array], k: Array, params: tuple[Array, ...], static: tuple[Hashable, ...]
) -> Array:
    """``kernel`` on the NumPy device, its result moved back (without a copy where DLPack
    shares the memory).

    torch on the CPU has no ``uint32`` arithmetic, so its words take extra masking; NumPy's
    ``uint32`` runs the same operations two to four times faster, and the bits are the same.
    Dask computes the distributions' kernels there (see :data:`EAGER`).
    """
    import numpy as np

    xp = _xp()
    home = k.device
    for p in params:
        if home.backend == "torch" and not _readable(p):  # traced: stay on torch
            return kernel(k, *params, *static)
    if not params and home.backend == "torch":
        # the common case, without the general moves: the key's words viewed as NumPy's
        # uint32 (no copy), a float result handed back to torch over the same memory
        import torch

        numpy_device = Device("numpy")
        words = _wrap(k.native.numpy().view(np.uint32), numpy_device)
        if kernel in QUIET:
            with np.errstate(all="ignore"):
                out = kernel(words, *static)
        else:  # as run() calls it on NumPy's own keys
            out = kernel(words, *static)
        native = out.native
        if out.dtype == xp.uint32 and word_dtype(home) != xp.uint32:
            # keys keep torch's int32 words, bits are held in int64 (integers of a uint32
            # dtype asked for stay so)
            if kernel in _KEY_KERNELS:
                native = native.view(np.int32)
            elif kernel is _bits_kernel:
                native = native.astype(np.int64)
        if native.flags.writeable and min(native.strides, default=0) >= 0:
            return _wrap(torch.from_numpy(native), home)
        return xp.to_device(_wrap(native, numpy_device), home)  # torch takes it as a copy
    if not params and home.backend == "array_api_strict" and home.place == "CPU_DEVICE":
        # array-api-strict's CPU holds NumPy's memory: its uint32 words viewed (no copy), the
        # result handed back through DLPack (most of what is left: array-api-strict's own
        # from_dlpack, 4.3 us); 8 normals 13.3 -> 11.2 us on a 2-core CPU
        words = _wrap(np.asarray(k.native), Device("numpy"))
        if kernel in QUIET:
            with np.errstate(all="ignore"):
                return xp.to_device(kernel(words, *static), home)
        return xp.to_device(kernel(words, *static), home)
    on_numpy = tuple(xp.to_device(p, "numpy") for p in params)
    with np.errstate(all="ignore"):
        out = kernel(xp.astype(xp.to_device(k, "numpy"), xp.uint32), *on_numpy, *static)
    if out.dtype == xp.uint32 and word_dtype(home) != xp.uint32 and kernel in _WORD_KERNELS:
        # keys keep torch's int32 words, bits are held in int64
        out = xp.astype(out, k.dtype if kernel in _KEY_KERNELS else xp.int64)
    return xp.to_device(out, home)


@functools.lru_cache(maxsize=256)
def _compiled(kernel: Callable[..., Array], static: tuple[Hashable, ...]) -> Callable[..., Array]:
    return _xp().jit(lambda k, *params: kernel(k, *params, *static))


#: The compiled draws of :func:`_on_jax`, by kernel, static arguments and device.
_ON_JAX: dict[tuple[Callable[..., Array], tuple[Hashable, ...], Device], Callable[..., object]] = {}


def _on_jax(kernel: Callable[..., Array], k: Array, static: tuple[Hashable, ...]) -> Array:
    """``kernel(k, *static)`` for a key on JAX, compiled by ``jax.jit`` once per kernel,
    ``static`` and device as a function of the key's native array: what :func:`_compiled`
    runs, called without ``arraymux.jit``'s walks of its arguments and results (a draw of 8
    numbers spends most of its time in the call: 8 normals from a key on ``jax:cpu`` 10.6 ->
    9.5 us, of which ``jax.jit``'s own call is 6-7)."""
    device = k.device
    entry = (kernel, static, device)
    compiled = _ON_JAX.get(entry)
    if compiled is None:
        from ..transforms._engine import Engine, compiled_natively

        engine = Engine.get("jit", device)
        compiled = compiled_natively(engine, lambda key: kernel(key, *static))
        if len(_ON_JAX) >= 256:  # as many as _compiled keeps
            _ON_JAX.clear()
        _ON_JAX[entry] = compiled
    return _wrap(cast("NativeArray", compiled(k.native)), device)  # kernels return one array


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

    Raises
    ------
    TypeError
        ``seed`` is not an int.
    ValueError
        ``seed`` is outside ``[0, 2**64)``.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.random.key(5).shape
    (2,)
    """
    return key_array(seed_words(seed, "key"), resolve_device(device, "random.key"))


def blocks(k: Array, n: int, start: int | Array = 0) -> tuple[Array, Array]:
    """Threefry of the counters ``(0, i)`` for ``start <= i < start + n``: two arrays of
    ``n`` words, as ``jax.random`` computes them (``jax_threefry_partitionable``, JAX's
    default)."""
    xp = _xp()
    if k.device.backend == "numpy":
        y0, y1 = threefry_range(*_host_words(k), int(start), n)
        return _wrap(y0, k.device), _wrap(y1, k.device)
    fused = None if isinstance(start, Array) else _kernels.block_words(k, n, start & MASK32)
    if fused is not None:  # one kernel on torch's GPUs
        return fused
    counter = xp.arange(n, dtype=k.dtype, device=k.device)
    if isinstance(start, Array) or start:
        counter = counter + (start if isinstance(start, Array) else as_word(start, k.dtype))
    # Only a backend that fuses (CuPy, which nothing traces) reaches the cache: a global dict
    # read inside torch.compile would add a guard that fails when the cache fills.
    fuse = k.device._backend.hooks.fuse
    threefry = None if fuse is None else _fused_threefry(k.device, fuse)
    if threefry is None:
        return threefry2x32(k[0], k[1], 0, counter)
    zero = xp.zeros((), dtype=k.dtype, device=k.device)
    # one kernel instead of ~150 (CuPy): the same operators on the native arrays
    n0, n1 = threefry(k[0].native, k[1].native, zero.native, counter.native)
    return _wrap(n0, k.device), _wrap(n1, k.device)


def _host_words(k: Array) -> tuple[int, int]:
    """The two words of a key on the NumPy device, as ints (NumPy's memory is the host's)."""
    w0, w1 = k.native.tolist()
    return w0 & MASK32, w1 & MASK32


#: The counters that one piece of a NumPy draw covers (see :func:`over_counters`): the dozen
#: arrays of a piece stay in the CPU's cache across Threefry's ~110 passes and the floats'.
PIECE = 1 << 15


def over_counters(k: Array, n: int, piece: Callable[[int | Array, int], Array]) -> Array:
    """``piece(0, n)``, a 1-d array whose element ``i`` depends on the counter ``i`` alone
    (``piece(start, m)`` computes the elements ``start`` to ``start + m - 1``).

    On NumPy it is computed :data:`PIECE` counters at a time, each piece copied into the
    result: the same values, several times faster for large draws than passes over arrays of
    the whole draw that leave the cache at every operation."""
    if 1 < n <= ONE_BY_ONE and _one_by_one_here(k.device):
        return _one_by_one(k, n, piece)
    if n <= PIECE or k.device.backend != "numpy":
        return piece(0, n)
    import numpy as np

    first = piece(0, PIECE).native
    out = np.empty((n,), dtype=first.dtype)
    out[:PIECE] = first
    for start in range(PIECE, n, PIECE):
        stop = min(start + PIECE, n)
        out[start:stop] = piece(start, stop - start).native
    return _wrap(out, k.device)


#: The most elements of a JAX draw computed one at a time (see :func:`_one_by_one`).
ONE_BY_ONE = 16


def _one_by_one_here(device: Device) -> bool:
    """Whether small draws on ``device`` loop over their elements (:func:`_one_by_one`): on
    JAX's CPU only. On a GPU each step of XLA's loop is a kernel launch and a read of the loop's
    condition by the host: 8 normals on an H200 took 0.64 ms that way, against 0.14 ms for
    ``jax.random.normal`` under ``jax.jit``."""
    return jax_cpu(device)


def _one_by_one(k: Array, n: int, piece: Callable[[int | Array, int], Array]) -> Array:
    """``piece(0, n)`` on JAX as a loop over the ``n`` counters, one element per step.

    XLA's CPU client runs a program on the calling thread only where its cost analysis counts
    fewer than 1000 operations (a loop's body once), and hands it to a worker thread
    otherwise, tens of microseconds later on a busy machine: the ~300 operations of a normal
    float, times 8, would cross that line. The steps compute the same operations on one
    element each."""
    import jax
    import numpy as np

    device = k.device
    first = piece(0, 1).native

    def step(i: jax.Array, out: jax.Array) -> jax.Array:
        start = _wrap(jax.lax.convert_element_type(i, np.uint32), device)
        return jax.lax.dynamic_update_slice(out, piece(start, 1).native, (i,))

    out = jax.numpy.zeros((n,), dtype=first.dtype)
    out = jax.lax.dynamic_update_slice(out, first, (0,))
    return _wrap(jax.lax.fori_loop(1, n, step, out), device)


def _words_of_split(k: Array, n: int, start: int | Array = 0) -> tuple[Array, Array]:
    """:func:`_words` of each key of ``split(k)``, in one Threefry call over both."""
    xp = _xp()
    if k.device.backend == "numpy":
        import numpy as np

        words = []
        host_counter = np.arange(int(start), int(start) + n, dtype=np.uint32)
        for i in range(2):  # the keys of split(k), derived on the host
            h0, h1 = threefry_numpy(*threefry2x32_int(_host_words(k), (0, i)), host_counter)
            words.append(_wrap(np.bitwise_xor(h0, h1, out=h0), k.device))
        return words[0], words[1]
    k0, k1 = blocks(k, 2)  # the two keys' words
    counter = xp.reshape(xp.arange(n, dtype=k.dtype, device=k.device), (1, n))
    if isinstance(start, Array) or start:
        counter = counter + (start if isinstance(start, Array) else as_word(start, k.dtype))
    y0, y1 = threefry2x32(xp.reshape(k0, (2, 1)), xp.reshape(k1, (2, 1)), 0, counter)
    w = y0 ^ y1
    return w[0, ...], w[1, ...]


def _words(k: Array, n: int, start: int | Array = 0) -> Array:
    """``n`` random 32-bit words from ``k``: ``jax.random.bits``, the exclusive or of the two
    words of block ``i``, so a shorter draw is a prefix of a longer one."""
    y0, y1 = blocks(k, n, start)
    return y0 ^ y1


_FUSED: dict[Device, _Threefry] = {}


def _fused_threefry(device: Device, fuse: Callable[[_Threefry], _Threefry]) -> _Threefry:
    """Threefry as one kernel on ``device``, made once."""
    try:
        return _FUSED[device]
    except KeyError:
        made = _FUSED[device] = fuse(threefry2x32)
        return made


def key_on(k: Array, device: DeviceLike | None, fname: str) -> Array:
    """The key ``k``, checked, on ``device`` where given (an explicit move of the key: the
    numbers are drawn there)."""
    k = check_key(k, fname)
    if device is None:
        return k
    d = resolve_device(device, f"random.{fname}")
    if k.device is d:
        return k
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
    k = check_key(key, "split")
    num = check_int("random.split", "num", num)
    if num < 0:
        raise ValueError(f"arraymux.random.split: num must be >= 0, got {num}.")
    if num > MAX_DRAW // 2:
        raise ValueError(f"arraymux.random.split: num must be at most 2**30, got {num}.")
    return fused(split_kernel, k, num)


def split_kernel(k: Array, num: int) -> Array:
    if k.device.backend == "numpy":  # the words written as the keys' rows
        return _wrap(threefry_keys(*_host_words(k), 0, num), k.device)
    rows = _kernels.blocks(k, num, 0)
    if rows is not None:  # one kernel on torch's GPUs, writing the keys' rows
        return rows
    y0, y1 = blocks(k, num)
    return _xp().stack([y0, y1], axis=1)


def _fold_kernel(k: Array, data: int | Array) -> Array:
    """The key of Threefry of the counter ``(0, data)``: ``data`` a Python int (made a word of
    the key's dtype) or a 0-d array of words (traced on JAX)."""
    if isinstance(data, int):
        if k.device.backend == "numpy":  # one block: on the host
            import numpy as np

            words = threefry2x32_int(_host_words(k), (0, data & MASK32))
            return _wrap(np.array(words, dtype=np.uint32), k.device)
        fused = _kernels.blocks(k, 1, data & MASK32)
        if fused is not None:  # one kernel on torch's GPUs: its one row is the key
            return _wrap(fused.native.view(2), k.device)
        data = as_word(data, k.dtype)
    y0, y1 = threefry2x32(k[0], k[1], 0, data)
    return _xp().stack([y0, y1])


def fold_block_kernel(k: Array, start: int, n: int) -> Array:
    """``fold_in(k, i)`` for ``i`` from ``start`` to ``start + n - 1`` (modulo 2**32), as an
    ``(n, 2)`` array of keys: one Threefry call for ``n`` draws of a generator."""
    xp = _xp()
    if k.device.backend == "numpy":
        return _wrap(threefry_keys(*_host_words(k), start & MASK32, n), k.device)
    fused = _kernels.blocks(k, n, start & MASK32)
    if fused is not None:  # one kernel on torch's GPUs, writing the keys' rows
        return fused
    counter = xp.arange(n, dtype=k.dtype, device=k.device) + as_word(start, k.dtype)
    y0, y1 = threefry2x32(k[0], k[1], 0, counter)
    return xp.stack([xp.broadcast_to(y0, y1.shape), y1], axis=1)


_KEY_KERNELS = (split_kernel, _fold_kernel, fold_block_kernel)


@functools.cache
def jax_fold() -> Callable[[Array, Array], tuple[Array, Array]]:
    """``fold_in(key, c)`` and ``c + 1``, compiled once (JAX would otherwise compile per
    counter, or run Threefry's ~100 operations one by one)."""
    return _xp().jit(lambda k, c: (_fold_kernel(k, c), c + 1))


@functools.lru_cache(maxsize=64)
def jax_draw_step(
    kind: str, shp: tuple[int, ...], dtype: DType
) -> Callable[[Array, Array], tuple[Array, Array]]:
    """The ``kind`` floats (``"normal"``, ``"uniform"``) of ``fold_in(key, c)``, and ``c + 1``,
    in one compiled call: a JAX Generator's draw without a second dispatch for its key."""
    kernel = normal_kernel if kind == "normal" else _uniform_kernel
    return _xp().jit(lambda k, c: (kernel(_fold_kernel(k, c), shp, dtype), c + 1))


@functools.lru_cache(maxsize=64)
def jax_kernel_step(
    kernel: Callable[..., Array],
    static: tuple[Hashable, ...],
    nparams: int = 0,
    then: Callable[..., Array] | None = None,
) -> Callable[..., tuple[Array, Array]]:
    """``kernel(fold_in(key, c), *params[:nparams], *static)``, then ``then(x,
    *params[nparams:])`` where given, and ``c + 1``, in one compiled call: a JAX Generator's
    draw of a distribution with its key's derivation and its last steps (the scale and
    location) in the same computation, where three dispatches take several times as long."""

    def step(k: Array, c: Array, *params: Array) -> tuple[Array, Array]:
        x = kernel(_fold_kernel(k, c), *params[:nparams], *static)
        return (x if then is None else then(x, *params[nparams:])), c + 1

    return _xp().jit(step)


def fold(k: Array, data: int) -> Array:
    """:func:`fold_in` of a checked key and word, computed on the key's device."""
    if k.device.backend == "jax":
        c = _xp().asarray(as_word(data, k.dtype), dtype=k.dtype, device=k.device)
        return jax_fold()(k, c)[0]
    return fused(_fold_kernel, k, data)


def fold_in(key: Array, data: int) -> Array:
    """A new key from ``key`` and an int ``data`` in ``[0, 2**32)`` (a step or a rank).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.random.fold_in(xp.random.key(0), 7).shape
    (2,)
    """
    k = check_key(key, "fold_in")
    data = check_int("random.fold_in", "data", data, "an int in [0, 2**32)")
    if not 0 <= data <= MASK32:
        raise ValueError(
            f"arraymux.random.fold_in: data must be an int in [0, 2**32), got {data!r}."
        )
    return fold(k, data)


def bits(key: Array, shape: Shape = (), *, device: DeviceLike | None = None) -> Array:
    """Random 32-bit words, identical on every device.

    Returns
    -------
    Array
        ``uint32`` where the device computes with it, else ``int64`` holding the same values
        (torch, whose ``uint32`` runs on signed kernels).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.random.bits(xp.random.key(0), (2,))).tolist()
    [4070199207, 4202968722]
    """
    shp = draw_shape(shape, "bits")
    k = key_on(key, device, "bits")
    return fused(_bits_kernel, k, shp)


def _bits_kernel(k: Array, shp: tuple[int, ...]) -> Array:
    xp = _xp()

    def piece(start: int | Array, m: int) -> Array:
        w = _words(k, m, start)
        return xp.astype(w, xp.int64) & MASK32 if w.dtype == xp.int32 else w

    return xp.reshape(over_counters(k, math.prod(shp), piece), shp)


#: The kernels whose results are words (keys, bits): torch holds them as int32 and int64.
_WORD_KERNELS = (*_KEY_KERNELS, _bits_kernel)


def unit_floats(
    k: Array, n: int, dtype: DType, then: Callable[[Array], Array] | None = None
) -> Array:
    """``n`` floats in ``[0, 1)``, exact functions of the bits, as ``jax.random.uniform``
    makes them: the top 23 bits of a word for float32, the top 52 of a block's 64 for
    float64; ``then(floats)`` where given (an elementwise function).

    Small draws on JAX's CPU compute ``then`` inside the loop over the elements (see
    :func:`_one_by_one`): 8 exponential floats in 15 us there instead of 38."""
    xp = _xp()
    if then is not None and 1 < n <= ONE_BY_ONE and _one_by_one_here(k.device):
        return _one_by_one(k, n, lambda start, m: then(floats(*blocks(k, m, start), dtype)))
    if dtype == xp.float32:
        u = _kernels.draw("uniform", k, n, dtype)  # one kernel on a GPU
        if u is None:
            u = xp.astype(shift_right(_words(k, n), 9), xp.float32) * (2.0**-23)
    else:
        u = floats(*blocks(k, n), dtype)
    return u if then is None else then(u)


def floats(y0: Array, y1: Array, dtype: DType) -> Array:
    """Floats in ``[0, 1)`` of the Threefry blocks ``(y0, y1)``, as :func:`unit_floats` makes them
    (for keys held per element: the block of counter ``(0, 0)`` of each)."""
    xp = _xp()
    if dtype == xp.float32:
        return xp.astype(shift_right(y0 ^ y1, 9), xp.float32) * (2.0**-23)
    if y0.dtype == xp.int32:  # torch: the unsigned value of the high word
        y0 = xp.astype(y0, xp.int64) & MASK32
    hi = xp.astype(y0, xp.float64)
    lo = xp.astype(shift_right(y1, 12), xp.float64)
    return (hi * 1048576.0 + lo) * (2.0**-52)


def in_range(u: Array, low: float, high: float) -> Array:
    """Floats ``u`` of ``[0, 1)`` moved to ``[low, high)`` as ``jax.random.uniform`` moves
    them: the bounds rounded to the dtype, ``max(low, u * (high - low) + low)``."""
    import numpy as np

    xp = _xp()
    if (low, high) == (0.0, 1.0):
        return u
    nd = np.float32 if u.dtype == xp.float32 else np.float64
    lo, hi = nd(low), nd(high)
    span = float(hi - lo)  # rounded to the dtype, as JAX does
    return xp.maximum(rounded(u * span) + float(lo), float(lo))


def uniform(
    key: Array,
    shape: Shape = (),
    dtype: DTypeArg = None,
    minval: float = 0.0,
    maxval: float = 1.0,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Floats uniform in ``[minval, maxval)`` (``jax.random.uniform``); float32 (or the
    default dtype policy's float) if ``dtype`` is omitted.

    Parameters
    ----------
    key
        A key from :func:`key` or :func:`split`.
    shape
        An int or a sequence of ints (at most 2**31 numbers).
    dtype
        ``float32`` or ``float64``, held by the device.
    minval, maxval
        Finite real numbers.
    device
        Where to draw (the key moves there); the key's device if omitted.

    Raises
    ------
    TypeError
        A bad key or shape, or a dtype the device cannot hold (``UnsupportedDTypeError``).
    ValueError
        A negative size, a dtype that is not a float, infinite bounds.

    Examples
    --------
    >>> import arraymux as xp
    >>> u = xp.random.uniform(xp.random.key(0), (1000,), xp.float32)
    >>> bool(xp.all((u >= 0) & (u < 1)))
    True
    """
    shp = draw_shape(shape, "uniform")
    lo, hi = finite_real(minval, "minval", "uniform"), finite_real(maxval, "maxval", "uniform")
    k = key_on(key, device, "uniform")
    return in_range(
        draw_uniform(k, shp, draw_dtype(k.device, dtype, "real floating", "uniform")), lo, hi
    )


def draw_uniform(k: Array, shp: tuple[int, ...], dt: DType) -> Array:
    return run(_uniform_kernel, k, (), (shp, dt))


def _uniform_kernel(k: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    loop = c_loop("uniform", dtype) if k.device.backend == "numpy" else None
    if loop is not None:  # in C: Threefry and the floats of floats(), in one pass
        return _wrap(c_floats(loop, *_host_words(k), shp), k.device)
    fused = _kernels.draw("uniform", k, math.prod(shp), dtype)  # one kernel on a GPU
    if fused is not None:
        return fused if len(shp) == 1 else _xp().reshape(fused, shp)

    def piece(start: int | Array, m: int) -> Array:
        return floats(*blocks(k, m, start), dtype)

    return _xp().reshape(over_counters(k, math.prod(shp), piece), shp)


def normal(
    key: Array, shape: Shape = (), dtype: DTypeArg = None, *, device: DeviceLike | None = None
) -> Array:
    """Standard normal floats: ``sqrt(2) * erfinv(u)`` of uniform ``u`` in ``(-1, 1)``, as
    ``jax.random.normal`` computes them.

    ``dtype`` is ``float32`` or ``float64`` (float32, or the default dtype policy's float, if omitted); a dtype
    the device cannot hold raises ``UnsupportedDTypeError`` naming this function.

    Examples
    --------
    >>> import arraymux as xp
    >>> z = xp.random.normal(xp.random.key(1), (10000,), xp.float64)
    >>> abs(float(xp.mean(z))) < 0.05 and abs(float(xp.std(z)) - 1) < 0.05
    True
    """
    shp = draw_shape(shape, "normal")
    k = key_on(key, device, "normal")
    return draw_normal(k, shp, draw_dtype(k.device, dtype, "real floating", "normal"))


def draw_normal(k: Array, shp: tuple[int, ...], dt: DType) -> Array:
    return run(normal_kernel, k, (), (shp, dt))


def normal_kernel(k: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    """``jax.random.normal``: uniform floats in ``(-1, 1)``, then ``sqrt(2) * erfinv``.

    NumPy's draws run in C where the compiled extension is on (``_speedups.normal_f32`` and
    ``normal_f64``: Threefry, the floats and the same exactly rounded operations as
    :func:`normal_of`, in one pass): the same floats, the tests compare the two."""
    loop = c_loop("normal", dtype) if k.device.backend == "numpy" else None
    if loop is not None:
        return _wrap(c_floats(loop, *_host_words(k), shp), k.device)
    fused = _kernels.draw("normal", k, math.prod(shp), dtype)  # one kernel on a GPU
    if fused is not None:
        return fused if len(shp) == 1 else _xp().reshape(fused, shp)

    def piece(start: int | Array, m: int) -> Array:
        return normal_of(floats(*blocks(k, m, start), dtype))

    return _xp().reshape(over_counters(k, math.prod(shp), piece), shp)


def _no_constants() -> tuple[()]:
    return ()


def _normal32() -> tuple[NDArray[np.float64]]:
    return (normal_constants(),)


def _normal64() -> tuple[NDArray[np.float64]]:
    return (normal64_constants(),)


#: The C loop of each kind of float draw (``"normal"``, ``"uniform"``) and dtype name: its
#: name in :mod:`arraymux._compiled` (None there when the extension is off, read at each draw
#: so that switching it off takes effect), its extra arguments, the result's NumPy dtype.
_C_LOOPS: dict[tuple[str, str], tuple[str, Callable[[], tuple[object, ...]], str]] = {
    ("normal", "float32"): ("normal_f32", _normal32, "float32"),
    ("normal", "float64"): ("normal_f64", _normal64, "float64"),
    ("uniform", "float32"): ("uniform_f32", _no_constants, "float32"),
    ("uniform", "float64"): ("uniform_f64", _no_constants, "float64"),
}

#: A C loop ready to run: the loop, its extra arguments, the result's NumPy dtype name.
CLoop: TypeAlias = tuple[Callable[..., None], tuple[object, ...], str]


def c_loop(kind: str, dtype: DType) -> CLoop | None:
    """The C loop that computes the ``kind`` (``"normal"`` or ``"uniform"``) floats of
    ``dtype`` for :func:`c_floats`, or None where none does (the extension off, another
    dtype)."""
    spec = _C_LOOPS.get((kind, dtype.name))
    if spec is None:
        return None
    loop = getattr(_speed, spec[0])
    return None if loop is None else (loop, spec[1](), spec[2])


def c_floats(
    loop: CLoop, k0: int, k1: int, shp: tuple[int, ...], threads: int = 1
) -> NDArray[np.float32] | NDArray[np.float64]:
    """The floats that ``loop`` (from :func:`c_loop`) computes of the key words ``k0``, ``k1``
    for the counters ``0, 1, ..., n - 1``, on up to ``threads`` threads (see
    :mod:`._threads`), as a NumPy array of shape ``shp``."""
    import numpy as np

    fn, extra, dtype = loop
    n = math.prod(shp)
    out = np.empty((n,), dtype=dtype)
    if threads > 1 and n >= 2 * _threads.MIN_PIECE:
        _threads.over_threads(fn, k0, k1, out, *extra, threads=threads)
    else:
        fn(k0, k1, 0, out, *extra)  # the counters 0, 1, ..., n - 1
    return out if len(shp) == 1 else out.reshape(shp)  # a 1-d draw has its shape already


def normal_of(u: Array) -> Array:
    """Standard normal floats of uniform floats ``u`` in ``[0, 1)``, as ``jax.random.normal``
    makes them: ``u`` moved to ``(-1, 1)``, then ``sqrt(2) * erfinv``."""
    import numpy as np

    xp = _xp()
    nd = np.float32 if u.dtype == xp.float32 else np.float64
    lo = float(np.nextafter(nd(-1.0), nd(0.0)))
    v = xp.maximum(u * 2.0 + lo, lo)  # u * 2 is exact
    # settled: XLA would merge a later product by a scalar with this one (x * c * s as
    # x * (c * s))
    return rounded(erfinv(v) * float(nd(math.sqrt(2.0))))


def _constant(x: Array, v: int) -> int | Array:
    """``v`` as an operand of ``x``'s arithmetic: a Python int, or a 0-d array made on the
    device (JAX reads Python ints as int32, which holds no uint32 above 2**31)."""
    xp = _xp()
    if x.dtype != xp.uint32 or v < 1 << 31:
        return v
    return xp.full((), v, dtype=x.dtype, device=x.device)


def _mulmod32(h: Array, m: int) -> Array:
    """``(h * m) mod 2**32`` for words ``h`` (uint32, or int64 below 2**32) and an int
    ``0 <= m < 2**32``: uint32 wraps by itself; int64 takes ``m`` in 16-bit halves."""
    xp = _xp()
    if h.dtype == xp.uint32:
        return h * _constant(h, m)
    m1, m0 = m >> 16, m & 0xFFFF
    return (h * m0 + ((h * m1) & 0xFFFF) * 65536) & MASK32


def integers(
    key: Array,
    low: int,
    high: int | None = None,
    shape: Shape = (),
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Integers uniform in ``[low, high)`` (``[0, low)`` if ``high`` is omitted), identical on
    every device.

    Each value is ``low + floor(w * (high - low) / 2**32)`` of one random word ``w``: exact
    integer arithmetic, with a bias below ``(high - low) / 2**32`` per value.

    Parameters
    ----------
    low, high
        Ints (NumPy integers too), ``low < high``, at most 2**32 apart, both within ``dtype``.
    dtype
        An integer dtype holding the range; int32 (or the default dtype policy's integer) if omitted.

    Raises
    ------
    TypeError
        Bounds that are not ints, a dtype the device cannot hold (``UnsupportedDTypeError``).
    ValueError
        An empty range, a bound out of the dtype's range ("high is out of bounds for uint8"),
        a dtype that is not an integer dtype.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.random.integers(xp.random.key(0), 1, 7, shape=(4,))).tolist()
    [2, 1, 3, 2]
    """
    shp = draw_shape(shape, "integers")
    k = key_on(key, device, "integers")
    dt = draw_dtype(k.device, dtype, "integral", "integers")
    lo, hi = integer_bounds(low, high, dt, "integers")
    return draw_integers(k, shp, lo, hi, dt)


def draw_integers(k: Array, shp: tuple[int, ...], low: int, high: int, dt: DType) -> Array:
    return fused(_integers_kernel, k, shp, low, high - low, dt)


#: The NumPy dtype of each integer dtype, by name (for the C loop's output).
_NUMPY_INTEGERS = {
    DType(name): name
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
}


def _integers_kernel(k: Array, shp: tuple[int, ...], low: int, span: int, dtype: DType) -> Array:
    """``jax.random.randint``: two words per value, from the two keys of ``split(k)``, the
    high one's remainder times ``2**32 mod span`` plus the low one's, modulo ``span``, in
    uint32 arithmetic (as JAX samples 8-, 16- and 32-bit dtypes; 64-bit dtypes, whose spans
    are at most 2**32 here, too)."""
    if _speed.integers is not None and k.device.backend == "numpy":
        # in C: the words of both keys, the remainders and low + offset, in one pass
        import numpy as np

        out = np.empty(shp, dtype=_NUMPY_INTEGERS[dtype])
        _speed.integers(*_host_words(k), 0, out, span, low)
        return _wrap(out, k.device)
    xp = _xp()

    def piece(start: int | Array, m: int) -> Array:
        hi, lo = _words_of_split(k, m, start)
        if hi.dtype == xp.int32:  # torch: the unsigned values
            hi, lo = xp.astype(hi, xp.int64) & MASK32, xp.astype(lo, xp.int64) & MASK32
        if span == 1 << 32:  # the whole range: the remainders change nothing
            offset = lo
        else:
            # 2**32 mod span, with JAX's wrapping square (2**16 * 2**16 is 0 in uint32)
            multiplier = (2**16 % span) ** 2 % (1 << 32) % span
            mod = _constant(hi, span)
            offset = _mulmod32(hi % mod, multiplier) + lo % mod
            offset = (offset if offset.dtype == xp.uint32 else offset & MASK32) % mod
        if offset.dtype == xp.uint32 and dtype != xp.uint32:
            offset = xp.astype(offset, xp.int64 if xp.iinfo(dtype).bits == 64 else dtype)
        out = xp.astype(offset, dtype) if offset.dtype != dtype else offset
        return out + low if low else out

    return xp.reshape(over_counters(k, math.prod(shp), piece), shp)


def _torch_floats(kind: str, k: Array, shp: tuple[int, ...], dtype: DType) -> Array | None:
    """The ``kind`` floats (see :func:`c_loop`) of a key on torch's CPU, straight from its
    two words, on as many threads as torch's operations use, handed to torch over the same
    memory; None where no C loop computes them."""
    loop = c_loop(kind, dtype)
    if loop is None:
        return None
    w0, w1 = k.native.tolist()
    return host_floats(loop, w0, w1, shp, k.device)


def host_loop(kind: str, dtype: DType, device: Device) -> CLoop | None:
    """The C loop of ``kind`` floats of ``dtype`` where ``device`` computes them on the host
    and nothing traces them now (NumPy, the backends that draw on NumPy, torch's CPU outside
    transforms and ``torch.compile``): :func:`host_floats` then draws them from a key's two
    words."""
    backend = device.backend
    if TRANSFORM.device is not None or not (
        backend == "numpy"
        or device._backend.spec.draws_on_numpy
        or (backend == "torch" and device.place == "cpu")
    ):
        return None
    if backend == "torch":
        import torch

        if torch.compiler.is_compiling():
            return None
    return c_loop(kind, dtype)


def host_integers_here(dtype: DType, device: Device) -> bool:
    """Whether :func:`host_integers` makes integers of ``dtype`` for ``device`` now: in C
    where :func:`host_loop` would draw floats on the host, but for torch's uint16 to uint64,
    which torch does not compute with."""
    if _speed.integers is None or host_loop("uniform", DType("float32"), device) is None:
        return False
    return device.backend != "torch" or dtype in _TORCH_INTEGERS


def host_integers(
    w0: int, w1: int, shp: tuple[int, ...], low: int, span: int, dtype: DType, device: Device
) -> Array:
    """:func:`_integers_kernel`'s integers for the key of words ``w0``, ``w1``, made in C and
    placed on ``device`` (where :func:`host_integers_here`): a Generator's key never becomes
    an array (8 integers on array-api-strict 30.5 -> 8.4 us, on NumPy 4.8 -> 3.9)."""
    import numpy as np

    make = _speed.integers
    assert make is not None  # (host_integers_here)
    out = np.empty(shp, dtype=_NUMPY_INTEGERS[dtype])
    make(w0 & MASK32, w1 & MASK32, 0, out, span, low)
    if device.backend == "torch":
        import torch

        return _wrap(torch.from_numpy(out), device)
    on_numpy = _wrap(out, Device("numpy"))
    return on_numpy if device.backend == "numpy" else _xp().to_device(on_numpy, device)


def host_floats(loop: CLoop, w0: int, w1: int, shp: tuple[int, ...], device: Device) -> Array:
    """The floats of ``loop`` for the key of words ``w0``, ``w1`` on ``device`` (NumPy, a
    backend that draws on NumPy by a move from there, or torch's CPU on as many threads as
    its operations use, over the same memory)."""
    if device.backend != "torch":
        out = _wrap(c_floats(loop, w0 & MASK32, w1 & MASK32, shp), Device("numpy"))
        return out if device.backend == "numpy" else _xp().to_device(out, device)
    import torch

    floats = c_floats(loop, w0 & MASK32, w1 & MASK32, shp, torch.get_num_threads())
    return _wrap(torch.from_numpy(floats), device)


#: The integer dtypes that torch holds as NumPy does (its other unsigned ones it does not
#: compute with: their draws take :func:`_through_numpy`'s general route).
_TORCH_INTEGERS = frozenset(DType(n) for n in ("int8", "int16", "int32", "int64", "uint8"))


def _torch_integers(
    k: Array, shp: tuple[int, ...], low: int, span: int, dtype: DType
) -> Array | None:
    """:func:`_integers_kernel`'s integers for a key on torch's CPU, in C from the key's two
    words, handed to torch over the same memory; None where the C loop cannot make them."""
    if _speed.integers is None or dtype not in _TORCH_INTEGERS:
        return None
    import numpy as np
    import torch

    w0, w1 = k.native.tolist()
    out = np.empty(shp, dtype=_NUMPY_INTEGERS[dtype])
    _speed.integers(w0 & MASK32, w1 & MASK32, 0, out, span, low)
    return _wrap(torch.from_numpy(out), k.device)


def _torch_split(k: Array, num: int) -> Array:
    """``split``'s keys of a key on torch's CPU, from its two words (in C where the compiled
    extension is on), handed to torch over the same memory as its int32 words."""
    import numpy as np
    import torch

    w0, w1 = k.native.tolist()
    keys = threefry_keys(w0 & MASK32, w1 & MASK32, 0, num)
    return _wrap(torch.from_numpy(keys.view(np.int32)), k.device)


#: The kernels that a key on torch's CPU runs in C (see :func:`run`): each takes the key and
#: the kernel's static arguments and returns the draw, or None to take the general route.
_TORCH_C_DRAWS: dict[Callable[..., Array], Callable[..., Array | None]] = {
    normal_kernel: functools.partial(_torch_floats, "normal"),
    _uniform_kernel: functools.partial(_torch_floats, "uniform"),
    _integers_kernel: _torch_integers,
    split_kernel: _torch_split,
}


def bernoulli(
    key: Array,
    p: float | Array = 0.5,
    shape: Shape | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Booleans, true with probability ``p``: a number in ``[0, 1]``, or a float array on the
    key's device that broadcasts to ``shape`` (its values are not read: a value outside
    ``[0, 1]`` acts as 0 or 1).

    Examples
    --------
    >>> import arraymux as xp
    >>> b = xp.random.bernoulli(xp.random.key(0), 0.25, (10000,))
    >>> 0.22 < float(xp.mean(xp.astype(b, xp.float32))) < 0.28
    True
    """
    k = key_on(key, device, "bernoulli")
    p, shp, dt = bernoulli_args(p, shape, k.device, "bernoulli")
    return draw_uniform(k, shp, dt) < p


def bernoulli_args(
    p: ParamLike, shape: Shape | None, device: Device, fname: str
) -> tuple[Array | float, tuple[int, ...], DType]:
    """``p``, the shape and the dtype of the uniform floats that :func:`bernoulli` compares:
    float32 unless ``p`` is a float64 array, so that the draws are the same on every device."""
    xp = _xp()
    if isinstance(p, Array):
        same_device(p, "p", device, fname)
        if p.dtype not in (xp.float32, xp.float64):
            raise TypeError(
                f"arraymux.random.{fname}: p must be a number or an array of float32 or "
                f"float64 probabilities, got an array of {p.dtype}."
            )
        pshape = known_shape(p.shape, fname)
        shp = draw_shape(pshape if shape is None else shape, fname)
        fits = len(pshape) <= len(shp) and all(
            a in (1, b) for a, b in zip(pshape[::-1], shp[::-1], strict=False)
        )
        if not fits:
            raise ValueError(
                f"arraymux.random.{fname}: p of shape {pshape} does not broadcast to shape {shp}."
            )
        return p, shp, p.dtype
    q = finite_real(p, "p", fname)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"arraymux.random.{fname}: p must be in [0, 1], got {q}.")
    return q, () if shape is None else draw_shape(shape, fname), xp.float32


def permutation(
    key: Array, x: int | Array, axis: int = 0, *, device: DeviceLike | None = None
) -> Array:
    """A random permutation of ``arange(x)`` (an int) or of ``x`` along ``axis`` (an array on
    the key's device, or on ``device``).

    The order sorts random words stably, so it is the same on every device.

    Examples
    --------
    >>> import arraymux as xp
    >>> p = xp.random.permutation(xp.random.key(0), 5)
    >>> sorted(xp.to_numpy(p).tolist())
    [0, 1, 2, 3, 4]
    """
    k = key_on(key, device, "permutation")
    n, ax = permutation_args(x, axis, k.device, "permutation")
    order = draw_permutation(k, n)
    return order if ax is None else _xp().take(x, order, axis=ax)


def _count(v: object, pname: str, device: Device, fname: str) -> int:
    """An int ``v`` (``x`` of :func:`permutation`, ``a`` of :func:`choice`), 0 to 2**31."""
    if isinstance(v, bool) or not isinstance(python_scalar(v), int):
        array_arg(v, pname, fname, device)  # raises: neither an int nor an Array
    n = check_int(f"random.{fname}", pname, v)
    if not 0 <= n <= MAX_DRAW:
        raise ValueError(f"arraymux.random.{fname}: {pname} must be in [0, 2**31], got {n}.")
    return n


def permutation_args(
    x: int | Array, axis: object, device: Device, fname: str
) -> tuple[int, int | None]:
    """The length to permute and the axis (None for ``arange(x)``)."""
    if not isinstance(x, Array):
        return _count(x, "x", device, fname), None
    array_arg(x, "x", fname, device)
    ax = check_int(f"random.{fname}", "axis", axis)
    if not -x.ndim <= ax < x.ndim:
        raise AxisError(
            f"arraymux.random.{fname}: axis {ax} is out of range for an array of {x.ndim} "
            f"dimension(s) (valid: {-x.ndim} to {x.ndim - 1})."
        )
    ax %= x.ndim
    return known_shape(x.shape, fname)[ax], ax


def draw_permutation(k: Array, n: int) -> Array:
    return fused(_permutation_kernel, k, n)


def _permutation_kernel(k: Array, n: int) -> Array:
    """``jax.random.permutation``: ``ceil(3 log(n) / log(2**32 - 1))`` rounds, each a stable
    sort by the words of the second key of ``split(k)``, the first key going on."""
    xp = _xp()
    order = xp.arange(n, dtype=xp.int64 if n > 1 << 31 else xp.int32, device=k.device)
    for _ in range(math.ceil(3 * math.log(max(1, n)) / math.log(MASK32))):
        keys = split_kernel(k, 2)
        k = keys[0, ...]
        words = _words(keys[1, ...], n)
        if words.dtype == xp.int32:  # torch: the unsigned values
            words = xp.astype(words, xp.int64) & MASK32
        order = xp.take(order, xp.argsort(words, stable=True))
    return order


def choice(
    key: Array,
    a: int | Array,
    shape: Shape = (),
    replace: bool = True,
    p: ParamLike | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Values drawn from ``a`` (an array's first axis, or ``arange(a)``), with or without
    replacement, uniformly or with probabilities ``p``.

    ``p`` (an array on the key's device, or a list or NumPy array of numbers) must hold ``n``
    finite, non-negative probabilities that sum to 1; they are checked on the host (one read)
    except inside a transform, where they are traced. Items of probability 0 are never drawn;
    without replacement, fewer non-zero probabilities than draws is an error, as in NumPy.
    Without replacement and with ``p``, the draw keeps the ``n`` largest of ``log(u) / p``
    (the Gumbel top-k trick), as NumPy's result is distributed.

    Examples
    --------
    >>> import arraymux as xp
    >>> c = xp.random.choice(xp.random.key(0), 10, (3,), replace=False)
    >>> len(set(xp.to_numpy(c).tolist()))
    3
    """
    k = key_on(key, device, "choice")
    return select(a, shape, replace, p, _KeyDraws(k), "choice")


class _KeyDraws:
    """The draws that :func:`select` takes, from one key (each selection draws once)."""

    def __init__(self, key: Array) -> None:
        self.key = key
        self.device = key.device

    def random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        return draw_uniform(self.key, shape, dtype)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        return draw_integers(self.key, shape, low, high, dtype)

    def permutation(self, n: int) -> Array:
        return draw_permutation(self.key, n)


def _probabilities(
    p: ParamLike, n: int, m: int, replace: bool, device: Device, fname: str
) -> Array:
    """``p`` of :func:`choice` as a float array on ``device``, checked as NumPy checks it
    (length ``n``, finite, non-negative, summing to 1, at least ``m`` non-zero entries without
    replacement), with one read of its values where they are not traced."""
    import numpy as np

    xp = _xp()
    host = None
    if isinstance(p, Array):
        same_device(p, "p", device, fname)
        if p.dtype == xp.bool or xp.isdtype(p.dtype, "complex floating"):
            raise TypeError(
                f"arraymux.random.{fname}: p must hold real probabilities, got an array of "
                f"{p.dtype}."
            )
        arr = p
        if not xp.isdtype(p.dtype, "real floating"):
            arr = xp.astype(p, draw_dtype(device, None, "real floating", fname))
        pshape = tuple(arr.shape)
    elif isinstance(p, list | tuple) or type(p).__module__ == "numpy":
        try:
            host = np.asarray(p, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"arraymux.random.{fname}: p must be a sequence of real numbers (or an "
                f"array), got {p!r:.60}."
            ) from None
        arr = None
        pshape = host.shape
    else:
        raise TypeError(
            f"arraymux.random.{fname}: p must be None, an arraymux Array or a sequence of "
            f"probabilities, not {type(p).__module__}.{type(p).__qualname__}."
        )
    if pshape != (n,):
        raise ValueError(
            f"arraymux.random.{fname}: p must have shape ({n},), one probability per item of "
            f"a, got {pshape}."
        )
    if arr is not None and _readable(arr):
        host = np.asarray(xp.to_numpy(arr), dtype=np.float64)
    if host is not None:
        _check_probabilities(host, arr.dtype if arr is not None else None, m, replace, fname)
    if arr is None:
        dt = draw_dtype(device, None, "real floating", fname)
        arr = xp.asarray(host, dtype=dt, device=device)
    return arr


def _check_probabilities(
    host: NDArray[np.float64], dtype: DType | None, m: int, replace: bool, fname: str
) -> None:
    import numpy as np

    where = f"arraymux.random.{fname}"
    if np.isnan(host).any():
        raise ValueError(f"{where}: probabilities contain NaN (p).")
    if (host < 0).any():
        raise ValueError(f"{where}: probabilities are not non-negative (p has {host.min()}).")
    # NumPy's tolerance: sqrt(eps) of float64, or of p's dtype where wider.
    atol = math.sqrt(np.finfo(np.float64).eps)
    if dtype is not None and dtype == _xp().float32:
        atol = max(atol, math.sqrt(np.finfo(np.float32).eps))
    total = float(host.sum())
    if not math.isfinite(total) or abs(total - 1.0) > atol:
        raise ValueError(
            f"{where}: probabilities do not sum to 1 (p sums to {total}). Divide p by its sum."
        )
    nonzero = int(np.count_nonzero(host))
    if not replace and nonzero < m:
        raise ValueError(
            f"{where}: Fewer non-zero entries in p than size ({nonzero} < {m}); without "
            "replacement each draw takes another item of non-zero probability."
        )


def select(
    a: int | Array, shape: Shape, replace: bool, p: ParamLike | None, draws: Draws, fname: str
) -> Array:
    """:func:`choice` with its random draws taken from ``draws`` (a key, or a generator)."""
    xp = _xp()
    device = draws.device
    if isinstance(a, Array):
        n = known_shape(array_arg(a, "a", fname, device).shape, fname)[0]
    else:
        n = _count(a, "a", device, fname)
    if n <= 0:
        raise ValueError(f"arraymux.random.{fname}: a must have at least one element.")
    shp = draw_shape(shape, fname)
    replace = check_bool(f"random.{fname}", "replace", replace)
    m = math.prod(shp)
    if not replace and m > n:
        raise ValueError(
            f"arraymux.random.{fname}: cannot take {m} values from {n} without replacement."
        )
    probs = None if p is None else _probabilities(p, n, m, replace, device, fname)
    idx_dtype = default_dtype(device, "integral")
    if probs is None:
        idx = draws.integers(0, n, (m,), idx_dtype) if replace else draws.permutation(n)[:m]
    elif replace:
        # jax.random.choice's inverse CDF: r is in (0, total], so the first entry at or above
        # it is never an item of probability 0.
        cdf = xp.cumulative_sum(probs)
        r = cdf[-1] * (1.0 - draws.random((m,), probs.dtype))
        idx = xp.astype(xp.clip(xp.searchsorted(cdf, r, side="left"), max=n - 1), idx_dtype)
    else:  # without replacement, with p: JAX's Gumbel top-k; items of probability 0 come last
        tiny = float(xp.finfo(probs.dtype).smallest_normal)
        u = xp.maximum(draws.random((n,), probs.dtype) + tiny, tiny)  # uniform in [tiny, 1)
        positive = probs > 0
        scores = xp.where(positive, log(xp.where(positive, probs, 1.0)) - log(-log(u)), -math.inf)
        idx = xp.argsort(-scores, stable=True)[:m]
    if not isinstance(a, Array):
        return xp.reshape(idx, shp)
    taken = xp.take(a, idx, axis=0)
    return xp.reshape(taken, shp + tuple(a.shape[1:]))


EAGER.update(
    (
        split_kernel,
        _fold_kernel,
        fold_block_kernel,
        _bits_kernel,
        _uniform_kernel,
        normal_kernel,
        _integers_kernel,
        _permutation_kernel,
    )
)
