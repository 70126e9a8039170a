"""NumPy adapter (the contract every adapter follows is ``_adapter.Adapter``)."""

from __future__ import annotations

import ctypes
import operator
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import array_api_compat.numpy as _xp
import numpy as np

from . import _special_cases
from ._common import array_dtype as array_dtype
from ._common import clip as _clip
from ._common import dtype_from_numpy, every_dtype, make_complex, raise_unknown_place

if TYPE_CHECKING:
    import numpy.typing as npt

    #: A shape as the creation functions take it.
    Shape = int | tuple[int, ...] | list[int]


# What arrays report are NumPy dtypes, and every dtype lives everywhere.
dtype_from_native = dtype_from_numpy
supports_dtype = every_dtype


def namespace() -> ModuleType:
    return _xp


def _ensure_array(x: object) -> np.ndarray:
    # NumPy returns scalars (np.float64, ...) from ufuncs and reductions on 0-d input; the
    # standard wants 0-d arrays. Array keeps whatever it got and calls this where it matters.
    return x if type(x) is np.ndarray else np.asarray(x)


def normalize(x: object) -> object:
    """``x``, a native result, as an array: NumPy gives scalars for 0-d results. Objects that
    are no result (a function among a transform's arguments) stay as they are: ``np.asarray``
    would make a 0-d object array of one."""
    if type(x) is np.ndarray:
        return x
    if isinstance(x, np.generic | bool | int | float | complex):
        return np.asarray(x)
    return x


def overrides(ns: ModuleType) -> dict[str, object]:
    # array-api-compat wraps matmul only to promote mixed dtypes; arraymux promotes first.
    return {
        "matmul": np.matmul,
        "pow": _pow,
        "sum": _reduction(np.add, np.sum),
        "prod": _reduction(np.multiply, np.prod),
        "mean": _mean,
        "max": _reduction(np.maximum, np.max),
        "min": _reduction(np.minimum, np.min),
        "argmax": _method(np.ndarray.argmax, np.argmax),
        "argmin": _method(np.ndarray.argmin, np.argmin),
        "permute_dims": _permute_dims,
        "astype": _astype,
        "matrix_transpose": _matrix_transpose,
        "any": _any,
        "all": _all,
        "clip": _clip(np, ns.clip),
        "floor_divide": _special_cases.floor_divide(ns, ns.floor_divide),
        "expm1": _special_cases.expm1(ns, ns.expm1, make_complex),
        "tanh": _special_cases.tanh(ns, ns.tanh, make_complex),
        "repeat": _special_cases.nonnegative_count(_repeat),
        "std": _special_cases.corrected(ns.std),
        "var": _special_cases.corrected(ns.var),
        "sort": _special_cases.stable_descending(ns, ns.sort),
        "squeeze": _special_cases.squeeze_of_axis(ns.squeeze),
        **_aligned_creation(ns),
    }


def _pow(x1: Any, x2: Any, /) -> Any:
    """``numpy.power`` with the standard's ``pow(-0, 0.5) = +0`` and ``pow(-inf, 0.5) = +inf``:
    NumPy takes a square root (``-0`` and NaN there) for an exponent 0.5 shared by every
    element (a Python scalar, a NumPy scalar, a 0-d array, an axis of stride 0). The square
    root stands where ``x1`` has no element at or below zero (``x1.min()``: 650 ns, 18 % of a
    square root of a million floats); see ``_special_cases.half_powers``."""
    r = np.power(x1, x2)
    t = type(x2)
    if t is float:
        if x2 == 0.5 and r.dtype.kind == "f" and x1.size and not x1.min() > 0:
            return _special_cases.half_power_cases(np, x1, 0.5, r)
        return r
    if t is np.ndarray:
        if x2.ndim and 0 not in x2.strides:
            return r  # one exponent per element: NumPy's general loop
    elif not isinstance(x2, np.floating):
        return r
    if r.dtype.kind != "f":
        return r
    return _special_cases.half_power_where(np, x1, x2, r).astype(r.dtype, copy=False)


def _pow_scalar(x: np.ndarray, s: complex) -> np.ndarray:
    """``pow(x, s)`` of a Python scalar ``s``: ``x ** 2`` of a real or integer array as
    ``numpy.square`` (370 ns against ``numpy.power``'s 850 for 1000 float32, the same values:
    both round ``x * x`` once, as torch and JAX compute a square); :func:`_pow` otherwise."""
    if s == 2:
        if x.dtype.kind in "fiu":
            return np.square(x)
    elif s == 0.5:
        return _pow(x, s)
    return np.power(x, s)


#: ``x ** 2`` as ``numpy.square`` (see :func:`_pow_scalar`).
SCALAR_KERNELS = {"pow": _pow_scalar}


# -- Aligned buffers ---------------------------------------------------------------------------
#
# JAX's CPU client takes host memory without a copy only at a 64-byte boundary, and NumPy's
# allocator gives 16 (an array of 1000 float32 starts at an address that is 16 mod 64), so
# ``to_device(x, "jax:cpu", copy=False)`` refused NumPy arrays. The creation functions of the
# numpy device allocate their buffers at 64-byte boundaries (C-contiguous and writable, as
# NumPy's own): small ones in a ctypes buffer, whose address costs one call to read, larger
# ones in a NumPy buffer of bytes (left unwritten for empty, zeroed lazily by calloc for zeros).

#: The boundary of the buffers the numpy device allocates, in bytes.
ALIGNMENT = 64
_SMALL = 1 << 16  # bytes: below, a ctypes buffer (zeroed as it is made); above, NumPy's
_char = ctypes.c_char
_address = ctypes.addressof
# The dtype objects of the dtypes arraymux passes (NumPy's scalar types, dtype objects: a
# few dozen at most).
_DTYPES: dict[object, np.dtype] = {None: np.dtype(np.float64)}
# ctypes buffer types by size, in steps of the alignment (ctypes keeps each type for good).
_BUFFERS: dict[int, type[ctypes.Array[ctypes.c_char]]] = {}


def aligned_empty(
    shape: Any, dtype: npt.DTypeLike | None = None, *, zeroed: bool = False
) -> np.ndarray:
    """An uninitialised (``zeroed``: zero) C-contiguous array whose data starts at a multiple
    of :data:`ALIGNMENT` bytes. ``shape``: a :data:`Shape` (unchecked here, where a cast to
    narrow it would cost a call on every creation)."""
    dt = _DTYPES.get(dtype)
    if dt is None:
        dt = _DTYPES[dtype] = np.dtype(dtype)
    if type(shape) is not tuple:
        shape = tuple(shape) if isinstance(shape, list) else (operator.index(shape),)
    nbytes = dt.itemsize
    for n in shape:
        nbytes *= n
    if nbytes < _SMALL:
        size = (nbytes + 2 * ALIGNMENT - 1) & -ALIGNMENT
        kind = _BUFFERS.get(size)
        if kind is None:
            kind = _BUFFERS[size] = _char * size
        raw: Any = kind()  # a ctypes buffer (its buffer protocol is not in the 3.11 stubs)
        offset = -_address(raw) % ALIGNMENT
    else:
        raw = (np.zeros if zeroed else np.empty)(nbytes + ALIGNMENT, np.uint8)
        # (the address through ctypes: 0.3 us against __array_interface__'s 1.2)
        offset = -_address(_char.from_buffer(raw)) % ALIGNMENT
    return np.ndarray(shape, dt, raw, offset)


def aligned_copy(a: np.ndarray) -> np.ndarray:
    """``a`` copied into an aligned buffer (its dtype and shape, C order)."""
    out = aligned_empty(a.shape, a.dtype)
    out[...] = a
    return out


def _filled(shape: Shape, dtype: npt.DTypeLike | None, value: npt.ArrayLike) -> np.ndarray:
    out = aligned_empty(shape, dtype)
    np.copyto(out, value, casting="unsafe")  # as np.full and np.ones fill
    return out


def _aligned_creation(ns: ModuleType) -> dict[str, object]:
    def zeros(
        shape: Shape, *, dtype: npt.DTypeLike | None = None, device: object = None
    ) -> np.ndarray:
        return aligned_empty(shape, dtype, zeroed=True)

    def ones(
        shape: Shape, *, dtype: npt.DTypeLike | None = None, device: object = None
    ) -> np.ndarray:
        return _filled(shape, dtype, 1)

    def empty(
        shape: Shape, *, dtype: npt.DTypeLike | None = None, device: object = None
    ) -> np.ndarray:
        return aligned_empty(shape, dtype)

    def full(
        shape: Shape,
        fill_value: npt.ArrayLike,
        *,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
    ) -> np.ndarray:
        if dtype is None:  # as np.full: the dtype NumPy gives the value
            fill_value = np.asarray(fill_value)
            dtype = fill_value.dtype
        return _filled(shape, dtype, fill_value)

    def eye(
        n_rows: int,
        n_cols: int | None = None,
        /,
        *,
        k: int = 0,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
    ) -> np.ndarray:
        # np.eye's own steps, on an aligned buffer.
        n_cols = n_rows if n_cols is None else n_cols
        out = aligned_empty((n_rows, n_cols), dtype, zeroed=True)
        if k < n_cols:
            n_cols, k = operator.index(n_cols), operator.index(k)
            out[: n_cols - k].flat[(k if k >= 0 else -k * n_cols) :: n_cols + 1] = 1
        return out

    def like(fill: int | None) -> Callable[..., np.ndarray]:
        def fn(
            x: np.ndarray, /, *, dtype: npt.DTypeLike | None = None, device: object = None
        ) -> np.ndarray:
            dt = x.dtype if dtype is None else dtype
            if fill is None:
                return aligned_empty(x.shape, dt)
            if fill == 0:
                return aligned_empty(x.shape, dt, zeroed=True)
            return _filled(x.shape, dt, fill)

        return fn

    def full_like(
        x: np.ndarray,
        /,
        fill_value: npt.ArrayLike,
        *,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
    ) -> np.ndarray:
        return _filled(x.shape, x.dtype if dtype is None else dtype, fill_value)

    # NumPy computes these its own way; the result is copied into an aligned buffer (NumPy's
    # own functions are called: array-api-compat's wrappers only pass the arguments on).

    def arange(
        start: float,
        /,
        stop: float | None = None,
        step: float = 1,
        *,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
    ) -> np.ndarray:
        if stop is None:
            start, stop = 0, start
        if (
            type(start) is int
            and type(stop) is int
            and type(step) is int
            and step
            and abs(stop - start) >= _SMALL // 8 * abs(step)
        ):
            # A large integer range, exactly, in place: a running sum of the steps (no second
            # buffer of its whole size to copy from).
            try:
                dt = np.arange(start, start + step, step, dtype=dtype).dtype
            except (OverflowError, ValueError, TypeError):
                dt = None  # NumPy's own call explains
            if dt is not None and dt.kind == "i":
                out = aligned_empty((len(range(start, stop, step)),), dt)
                out.fill(step)
                if len(out):
                    out[0] = start
                return np.add.accumulate(out, out=out)
        return aligned_copy(np.arange(start, stop, step, dtype=dtype))

    def linspace(
        start: complex,
        stop: complex,
        /,
        num: int,
        *,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
        endpoint: bool = True,
    ) -> np.ndarray:
        return aligned_copy(np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint))

    def asarray(
        obj: object,
        /,
        *,
        dtype: npt.DTypeLike | None = None,
        device: object = None,
        copy: bool | None = None,
    ) -> np.ndarray:
        if type(obj) is np.ndarray and copy is not False:
            if copy or (dtype is not None and np.dtype(dtype) != obj.dtype):
                out = aligned_empty(obj.shape, obj.dtype if dtype is None else dtype)
                out[...] = obj  # an unsafe cast, as np.array(obj, dtype=dtype)
                return out
            return obj
        if copy is None:
            out = np.asarray(obj, dtype=dtype)
        elif copy:
            out = np.array(obj, dtype=dtype, copy=True)
        else:  # array-api-compat spells copy=False for NumPy 1 and 2
            out = ns.asarray(obj, dtype=dtype, device=device, copy=False)
        if out is not obj and type(out) is np.ndarray and out.base is None:
            return aligned_copy(out)  # made from Python data: a fresh buffer nobody else holds
        return out

    return {
        "zeros": zeros,
        "ones": ones,
        "empty": empty,
        "full": full,
        "eye": eye,
        "zeros_like": like(0),
        "ones_like": like(1),
        "empty_like": like(None),
        "full_like": full_like,
        "arange": arange,
        "linspace": linspace,
        "asarray": asarray,
    }


def _repeat(x: np.ndarray, repeats: int | np.ndarray, /, *, axis: int | None = None) -> np.ndarray:
    # NumPy refuses uint64 counts (no safe cast to intp); the standard takes any integer dtype.
    if not isinstance(repeats, int) and getattr(repeats, "dtype", None) == np.uint64:
        repeats = repeats.astype(np.intp)
    return np.repeat(x, repeats, axis=axis)


def _reduction(ufunc: np.ufunc, general: Callable[..., Any]) -> Callable[..., Any]:
    """``general`` (``np.sum``, ``np.prod``, ``np.max``, ``np.min``) as the ufunc reduction it
    runs, without its Python-level dispatch (about 1 us). The accumulation dtypes are the
    same (integers narrower than int64 add and multiply in int64); ``axis`` is passed always,
    since a ufunc's reduce takes axis 0 by default, not every axis."""
    reduce = ufunc.reduce

    def fn(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        if type(x) is not np.ndarray:
            if dtype is None:  # (np.max and np.min take none)
                return general(x, axis=axis, keepdims=keepdims)
            return general(x, axis=axis, dtype=dtype, keepdims=keepdims)
        return reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)

    fn.__name__ = fn.__qualname__ = general.__name__
    return fn


def _method(method: Callable[..., Any], general: Callable[..., Any]) -> Callable[..., Any]:
    """``general`` (``np.argmax``, ``np.argmin``) as the array method it calls, without its
    Python-level dispatch (about 0.9 us)."""

    def fn(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> Any:
        if type(x) is not np.ndarray:
            return general(x, axis=axis, keepdims=keepdims)
        return method(x, axis=axis, keepdims=keepdims)

    fn.__name__ = fn.__qualname__ = general.__name__
    return fn


_add_reduce: Callable[..., np.ndarray | np.generic] = np.add.reduce


# The largest count by which a sum divides exactly in each floating dtype's own arithmetic
# (see _mean): 2**24 for float32, 2**53 for float64.
_EXACT_COUNT = {np.dtype(np.float32): 1 << 24, np.dtype(np.float64): 1 << 53}


def _mean(
    x: np.ndarray, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> np.ndarray | np.generic:
    """``numpy.mean`` of a float32 or float64 array as NumPy computes it, without its Python
    steps (3.7 us of 4.5 for 4096 float32): the sum of ``np.add.reduce`` divided by the count.
    NumPy divides in float64 and rounds to the array's dtype; dividing in that dtype gives the
    same value (a correctly rounded quotient of the same operands) wherever the count is
    exact in it. Empty slices, complex arrays and unusual axes take ``ndarray.mean``."""
    limit = _EXACT_COUNT.get(x.dtype) if type(x) is np.ndarray else None
    if limit is not None:
        shape = x.shape
        if axis is None:
            n = x.size
        elif type(axis) is int and -len(shape) <= axis < len(shape):
            n = shape[axis]
        else:
            n = 0  # a tuple of axes (duplicates refused by NumPy), or one out of range
        if 0 < n <= limit:
            s: Any = _add_reduce(x, axis=axis, keepdims=keepdims)
            if type(s) is np.ndarray:
                return np.true_divide(s, n, out=s)
            return s / n
    if type(x) is not np.ndarray:
        return np.mean(x, axis=axis, keepdims=keepdims)
    return x.mean(axis=axis, keepdims=keepdims)


_compat_astype: Callable[..., np.ndarray] = getattr(_xp, "astype")  # noqa: B009 (untyped there)


def _astype(
    x: np.ndarray, dtype: npt.DTypeLike, /, *, copy: bool = True, device: object = None
) -> np.ndarray:
    # array-api-compat's astype checks the device and calls ndarray.astype (0.2 us more).
    if device is not None or type(x) is not np.ndarray:
        return _compat_astype(x, dtype, copy=copy, device=device)
    return x.astype(dtype, copy=copy)


def _permute_dims(x: np.ndarray, /, axes: tuple[int, ...]) -> np.ndarray:
    # np.transpose is ndarray.transpose behind about 0.6 us of Python-level dispatch.
    if type(x) is not np.ndarray:
        return np.transpose(x, axes)
    return x.transpose(axes)


def _matrix_transpose(x: np.ndarray, /) -> np.ndarray:
    if x.ndim < 2:
        raise ValueError("x must be at least 2-dimensional for matrix_transpose")
    if type(x) is not np.ndarray:
        return np.swapaxes(x, -1, -2)
    return x.swapaxes(-1, -2)


# np.any and np.all are these reductions to bool behind about 1 us of Python-level dispatch;
# the laziness probe of SciPy and scikit-learn calls any on every Array it is given. (A
# ufunc's reduce takes axis 0 by default: None, every axis, is passed always.)
_or_reduce: Callable[..., Any] = np.logical_or.reduce
_and_reduce: Callable[..., Any] = np.logical_and.reduce


def _any(
    x: np.ndarray, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> np.ndarray | np.generic:
    return _or_reduce(x, axis=axis, dtype=bool, keepdims=keepdims)


def _all(
    x: np.ndarray, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> np.ndarray | np.generic:
    return _and_reduce(x, axis=axis, dtype=bool, keepdims=keepdims)


def places() -> list[str]:
    return ["cpu"]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return "cpu"
    raise_unknown_place("numpy", place, places())
    raise AssertionError


def native_device(place: str) -> str:
    return "cpu"


def place_of_device(native: object) -> str:
    if native == "cpu":
        return "cpu"
    raise ValueError(f"{native!r} is not a NumPy device")


def place_of(x: np.ndarray) -> str:
    return "cpu"


def to_numpy(x: np.ndarray | np.generic) -> np.ndarray:
    return _ensure_array(x)


# Transfer hooks (see arraymux._transfer).


def export(x: np.ndarray) -> tuple[np.ndarray, bool]:
    # DLPack carries native byte order only.
    if x.dtype.isnative:
        return x, False
    return x.astype(x.dtype.newbyteorder("=")), True


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> np.ndarray:
    if type(obj) is np.ndarray:  # exported as a host view (array-api-strict): no exchange
        return obj.copy() if copy else obj.view()
    return np.from_dlpack(obj, copy=copy)


def data_ptr(x: np.ndarray) -> int:
    return int(x.__array_interface__["data"][0])


def unshared(x: object) -> bool:
    """Whether nothing but ``x`` reaches its memory: NumPy allocated it for ``x`` (no base),
    or ``x`` alone holds the buffer it lies in (a byte array or ctypes buffer that owns its
    memory: an aligned buffer of the creation functions). Not a view of an array that lives
    on, nor an array over another library's memory; whoever views ``x`` holds ``x``."""
    if type(x) is not np.ndarray:
        return False
    base = x.base
    if base is None:
        return True
    owns = base.base is None if type(base) is np.ndarray else getattr(base, "_b_needsfree_", 0)
    # Held by x, by `base` and by getrefcount's argument.
    return bool(owns) and sys.getrefcount(base) <= 3


def engine_place(place: str) -> str:
    """Transforms of NumPy arrays run on torch.func on the CPU (the arrays cross through
    DLPack without a copy)."""
    return "torch:cpu"
