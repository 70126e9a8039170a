"""NumPy adapter (the contract every adapter follows is ``_adapter.Adapter``)."""

from __future__ import annotations

import sys
from typing import Any

import array_api_compat.numpy as _xp
import numpy as np

from .. import _dtypes
from . import _special_cases


def namespace() -> Any:
    return _xp


def _ensure_array(x: Any) -> Any:
    # NumPy returns scalars (np.float64, ...) from ufuncs and reductions on 0-d input; the
    # standard wants 0-d arrays. Array keeps whatever it got and calls this where it matters.
    return x if type(x) is np.ndarray else np.asarray(x)


normalize = _ensure_array


def overrides(ns: Any) -> dict[str, Any]:
    # array-api-compat wraps matmul only to promote mixed dtypes; arraymux promotes first.
    return {
        "matmul": np.matmul,
        "sum": _sum,
        "floor_divide": _special_cases.floor_divide(ns, ns.floor_divide),
        "expm1": _special_cases.expm1(ns, ns.expm1, _make_complex),
        "tanh": _special_cases.tanh(ns, ns.tanh, _make_complex),
        "repeat": _repeat,
    }


def _repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    # NumPy refuses uint64 counts (no safe cast to intp); the standard takes any integer dtype.
    if getattr(repeats, "dtype", None) == np.uint64:
        repeats = repeats.astype(np.intp)
    return np.repeat(x, repeats, axis=axis)


def _make_complex(re: Any, im: Any) -> Any:
    out = np.empty(np.shape(re), dtype=np.result_type(re.dtype, np.complex64))
    out.real = re
    out.imag = im
    return out


_add_reduce: Any = np.add.reduce


def _sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    # np.sum on an ndarray is np.add.reduce behind about 1 us of Python-level dispatch.
    if type(x) is not np.ndarray:
        return np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
    return _add_reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)


def places() -> list[str]:
    return ["cpu"]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return "cpu"
    raise_unknown_place("numpy", place, places())
    raise AssertionError


def native_device(place: str) -> Any:
    return "cpu"


def place_of_device(native: Any) -> str:
    if native == "cpu":
        return "cpu"
    raise ValueError(f"{native!r} is not a NumPy device")


def place_of(x: Any) -> str:
    return "cpu"


def array_dtype(native: Any) -> Any:
    """The dtype object that arrays report for a namespace dtype (``np.float32`` -> its
    ``np.dtype``); shared by the backends whose arrays report NumPy dtypes."""
    return np.dtype(native)


def dtype_from_native(obj: Any) -> _dtypes.DType | None:
    return dtype_from_numpy(obj)


def dtype_from_numpy(obj: Any) -> _dtypes.DType | None:
    """arraymux dtype of anything ``np.dtype`` understands (non-native byte order included)."""
    try:
        dt = np.dtype(obj)
    except TypeError:
        return None
    if dt.kind in "biufc" and dt.name in _dtypes._BY_NAME:
        return _dtypes._BY_NAME[dt.name]
    return None


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    return True


def to_numpy(x: Any) -> Any:
    return _ensure_array(x)


#: The most bytes an array may span: larger sizes overflow 64-bit byte counts.
MAX_BYTES = 2**63 - 1


def check_extent(shape: Any, itemsize: int) -> None:
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


def sized_reshape(base: Any) -> Any:
    """``reshape`` that refuses a shape whose byte size overflows 64 bits (see
    :func:`check_extent`), for the backends that fail on one only later or not at all: jaxlib
    aborts the process, Dask makes an array that fails when computed. The fast path passes
    shapes as they are; the boundary then explains, naming the function. Other functions that
    take sizes check them at the boundary."""

    def reshape(x: Any, /, shape: Any, *, copy: bool | None = None) -> Any:
        check_extent(shape if isinstance(shape, tuple | list) else (shape,), x.dtype.itemsize)
        return base(x, shape, copy=copy)

    return reshape


def raise_unknown_place(backend: str, place: object, existing: list[str]) -> None:
    from .._errors import BackendUnavailableError

    devs = ", ".join(f"{backend}:{p}" for p in existing) or "none"
    raise BackendUnavailableError(
        f"device {backend}:{place} does not exist on this machine; the {backend} devices here "
        f"are: {devs}. arraymux.devices() lists every device."
    )


# Transfer hooks (see arraymux._transfer).


def export(x: Any) -> tuple[Any, bool]:
    # DLPack carries native byte order only.
    if x.dtype.isnative:
        return x, False
    return x.astype(x.dtype.newbyteorder("=")), True


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> Any:
    if type(obj) is np.ndarray:  # exported as a host view (array-api-strict): no exchange
        return obj.copy() if copy else obj.view()
    return np.from_dlpack(obj, copy=copy)


def data_ptr(x: Any) -> int:
    return int(x.__array_interface__["data"][0])


def unshared(x: Any) -> bool:
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
