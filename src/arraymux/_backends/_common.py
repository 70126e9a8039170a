"""Helpers the adapters share: NumPy dtypes, byte-size checks, the unknown-place error.

Adapters import these from here, not from one another, so that each adapter sits on the same
floor (only the routes between two backends' arrays import another adapter, lazily).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtypes

__all__ = [
    "MAX_BYTES",
    "array_dtype",
    "check_extent",
    "dtype_from_numpy",
    "make_complex",
    "raise_unknown_place",
    "sized_reshape",
]


def make_complex(re: Any, im: Any) -> Any:
    """A complex NumPy array from its real and imaginary parts (the complex dtype of their
    precision)."""
    out = np.empty(np.shape(re), dtype=np.result_type(re.dtype, np.complex64))
    out.real = re
    out.imag = im
    return out


def array_dtype(native: Any) -> Any:
    """The dtype object that arrays report for a namespace dtype (``np.float32`` -> its
    ``np.dtype``); shared by the backends whose arrays report NumPy dtypes."""
    return np.dtype(native)


def dtype_from_numpy(obj: Any) -> _dtypes.DType | None:
    """arraymux dtype of anything ``np.dtype`` understands (non-native byte order included)."""
    try:
        dt = np.dtype(obj)
    except TypeError:
        return None
    if dt.kind in "biufc" and dt.name in _dtypes._BY_NAME:
        return _dtypes._BY_NAME[dt.name]
    return None


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
