"""Searching functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _dtypes
from ._array import Array
from ._backend_errors import BACKEND_ERRORS
from ._devices import Device
from ._dispatch import call, first, generic
from ._docstrings import finish

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]


def _where_operand(x: Any, d: Device, t: Any, dt: _dtypes.DType) -> Any:
    """``x``'s native array (or the Python scalar itself) where it meets the other operand of
    ``where``, of native dtype ``t`` on ``d``, without a cast; None where ``call`` decides."""
    tx = type(x)
    if tx is Array:
        if x._device is not d:
            return None
        tn = x._dtype
        if tn is None:
            tn = x._dtype = x._native.dtype
        return x._native if tn is t else None
    kind = dt.kind
    if tx is float:
        return x if kind in ("real floating", "complex floating") else None
    if tx is bool:
        return x if kind == "bool" else None
    if tx is int:
        if kind in ("real floating", "complex floating"):
            return x
        if kind in ("signed integer", "unsigned integer"):
            lo, hi = _dtypes.int_range(dt)
            return x if lo <= x <= hi else None
    return None


def where_function() -> Callable[..., Any]:
    """``where``: Arrays of one device with operands of one dtype (or a Python scalar that
    keeps it) go straight to the backend; anything else takes the checking path."""

    def where(condition: Any, x1: Any, x2: Any, /) -> Any:
        if type(condition) is Array:
            d = condition._device
            tc = condition._dtype
            if tc is None:
                tc = condition._dtype = condition._native.dtype
            first_array = x1 if type(x1) is Array else x2
            dtypes = d._backend.from_native_dtype
            if (
                type(first_array) is Array
                and first_array._device is d
                and dtypes.get(tc) is _dtypes.bool
            ):
                t = first_array._dtype
                if t is None:
                    t = first_array._dtype = first_array._native.dtype
                dt = dtypes.get(t)
                if dt is not None:
                    a = _where_operand(x1, d, t, dt)
                    b = _where_operand(x2, d, t, dt)
                    if a is not None and b is not None:
                        try:
                            r = d._fns["where"](condition._native, a, b)
                        except BACKEND_ERRORS:
                            return call("where", (condition, x1, x2), {})
                        out = object.__new__(Array)
                        out._native = r
                        out._device = d
                        out._dtype = t
                        return out
        return call("where", (condition, x1, x2), {})

    return finish(where, "where", "generic")


argmax = first("argmax")
argmin = first("argmin")
count_nonzero = first("count_nonzero")
nonzero = first("nonzero")
searchsorted = generic("searchsorted")
where = where_function()
