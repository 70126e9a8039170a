"""Helpers the adapters share: NumPy dtypes, byte-size checks, the unknown-place error.

Adapters import these from here, not from one another, so that each adapter sits on the same
floor (only the routes between two backends' arrays import another adapter, lazily).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar, cast

import numpy as np

from .. import _dtypes

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "MAX_BYTES",
    "array_dtype",
    "check_extent",
    "clip",
    "dtype_from_numpy",
    "every_dtype",
    "make_complex",
    "raise_unknown_place",
    "sized_reshape",
]


class NumPyDtyped(Protocol):
    """An array that reports NumPy dtypes (NumPy's, CuPy's, Dask's, JAX's), as these helpers
    read it."""

    @property
    def dtype(self) -> np.dtype: ...

    def copy(self) -> Self: ...


_A = TypeVar("_A", bound=NumPyDtyped)
_R = TypeVar("_R")


def make_complex(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """A complex NumPy array from its real and imaginary parts (the complex dtype of their
    precision)."""
    out = np.empty(np.shape(re), dtype=np.result_type(re.dtype, np.complex64))
    out.real = re
    out.imag = im
    return out


def clip(mod: ModuleType, base: Callable[..., _A]) -> Callable[..., _A]:
    """``clip`` through ``mod.clip`` (NumPy's or CuPy's ufunc) where each bound is ``None`` or a
    Python number of ``x``'s kind that its dtype holds: the bounds go to the kernel as
    scalars. array-api-compat's ``clip`` (``base``), kept for every other case, makes each
    bound an array from host data and assigns through boolean masks: on CuPy an upload and a
    synchronisation per bound, on NumPy 5x the time of ``np.clip`` for small arrays."""

    def clip(x: _A, /, min: object = None, max: object = None) -> _A:
        kind = x.dtype.kind
        lo, hi = min, max
        if kind == "f":
            plain = _is_real(lo) and _is_real(hi)
        elif kind in "iu":
            plain = _is_int(lo) and _is_int(hi)
            if plain:  # as array-api-compat: a bound beyond the dtype's range is no bound
                info = mod.iinfo(x.dtype)
                lo = None if lo is not None and lo <= info.min else lo
                hi = None if hi is not None and hi >= info.max else hi
                plain = (lo is None or lo <= info.max) and (hi is None or hi >= info.min)
        else:
            plain = False
        if plain:
            if lo is None and hi is None:
                return x.copy()
            out = mod.clip(x, lo, hi)
            if out.dtype == x.dtype:
                return out
        return base(x, min, max)

    return clip


def _is_real(bound: object) -> bool:
    return bound is None or type(bound) is float or type(bound) is int


def _is_int(bound: object) -> bool:
    return bound is None or type(bound) is int


def array_dtype(native: npt.DTypeLike) -> np.dtype:
    """The dtype object that arrays report for a namespace dtype (``np.float32`` -> its
    ``np.dtype``); shared by the backends whose arrays report NumPy dtypes."""
    return np.dtype(native)


def dtype_from_numpy(obj: Any) -> _dtypes.DType | None:
    """arraymux dtype of anything ``np.dtype`` understands (non-native byte order included);
    the ``dtype_from_native`` of the backends whose arrays report NumPy dtypes (``obj``: any
    object, which ``np.dtype`` takes or refuses)."""
    try:
        dt = np.dtype(obj)
    except TypeError:
        return None
    if dt.kind in "biufc" and dt.name in _dtypes._BY_NAME:
        return _dtypes._BY_NAME[dt.name]
    return None


def every_dtype(dtype: _dtypes.DType, place: str) -> bool:
    """``supports_dtype`` of a backend that holds every dtype on each of its places."""
    return True


#: The most bytes an array may span: larger sizes overflow 64-bit byte counts.
MAX_BYTES = 2**63 - 1


def check_extent(shape: Sequence[object], itemsize: int) -> None:
    """Raise ``ValueError`` for a result of ``shape`` whose sizes, zeros left out, times
    ``itemsize`` exceed :data:`MAX_BYTES` (jaxlib aborts the process on one: it multiplies the
    sizes in order, and overflows before it meets a zero). Sizes that are not Python ints
    (``-1``, traced ones) count as 1."""
    extent = 1
    for n in shape:
        if type(n) is int and n > 0:
            extent *= n
    if extent * max(itemsize, 1) > MAX_BYTES:
        raise ValueError(
            f"a result of shape {tuple(shape)} would span {extent * max(itemsize, 1)} bytes or "
            "more, more than any device can address (2**63 bytes)."
        )


def sized_reshape(
    base: Callable[..., _R], exact: Callable[[Any, tuple[int, ...]], _R] | None = None
) -> Callable[..., _R]:
    """``reshape`` that refuses a shape whose byte size overflows 64 bits (see
    :func:`check_extent`), for the backends that fail on one only later or not at all: jaxlib
    aborts the process, Dask makes an array that fails when computed; and a shape of another
    size with a ``ValueError``, as NumPy and torch refuse it (JAX raised ``TypeError``, Dask
    ``IndexError: Bad index``). ``exact(x, dims)``, where given, reshapes to a tuple of sizes
    that holds the array's elements (the ``-1`` resolved) faster than ``base``. The fast path
    passes shapes as they are; the boundary then explains, naming the function. Other
    functions that take sizes check them at the boundary."""

    def reshape(x: NumPyDtyped, /, shape: int | Sequence[int], *, copy: bool | None = None) -> _R:
        dims = tuple(shape) if isinstance(shape, tuple | list) else (shape,)
        check_extent(dims, x.dtype.itemsize)
        resolved = _resolved(dims, getattr(x, "shape", None))
        if resolved is not None and exact is not None:
            return exact(x, resolved)
        return base(x, shape, copy=copy)

    return reshape


def sized_broadcast_to(base: Callable[..., _R]) -> Callable[..., _R]:
    """``broadcast_to`` that refuses a negative size with a ``ValueError``, for the backends
    that take one: torch read -1 as "keep this axis", Dask made an array that failed when
    computed (NumPy and JAX refuse it at once, as the standard does). The boundary explains,
    naming the function."""

    def broadcast_to(x: object, /, shape: int | Sequence[int]) -> _R:
        dims = tuple(shape) if isinstance(shape, tuple | list) else (shape,)
        if any(type(n) is int and n < 0 for n in dims):
            raise ValueError(f"broadcast_to: shape {dims} has a negative size")
        return base(x, shape)

    return broadcast_to


def _resolved(dims: tuple[object, ...], shape: object) -> tuple[int, ...] | None:
    """``dims`` with its ``-1`` resolved for an array of ``shape``; None where a size is not a
    Python int (a lazy one, a traced one, an argument the boundary explains). A ``ValueError``
    where no size would hold the array's elements."""
    if type(shape) is not tuple or not all(type(n) is int for n in (*shape, *dims)):
        return None
    sizes = cast("tuple[int, ...]", dims)
    if any(n < -1 for n in sizes) or sizes.count(-1) > 1:
        return None
    size = math.prod(cast("tuple[int, ...]", shape))
    known = math.prod(n for n in sizes if n != -1)
    if -1 in sizes and known and size % known == 0:
        sizes = tuple(size // known if n == -1 else n for n in sizes)
    if -1 in sizes or math.prod(sizes) != size:
        raise ValueError(
            f"cannot reshape an array of shape {shape} (size {size}) into shape {dims}."
        )
    return sizes


def raise_unknown_place(backend: str, place: object, existing: list[str]) -> None:
    from .._errors import BackendUnavailableError

    devs = ", ".join(f"{backend}:{p}" for p in existing) or "none"
    raise BackendUnavailableError(
        f"device {backend}:{place} does not exist on this machine; the {backend} devices here "
        f"are: {devs}. arraymux.devices() lists every device."
    )
