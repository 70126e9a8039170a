"""The dtype of a result, where it is known before the call: cached on the result by the hot
paths so that the next call compares dtypes without reading them from the native arrays.

Reading a native dtype costs 50-250 ns (torch, JAX): a large share of a call on small
arrays. The rules are written once in arraymux dtypes (:data:`RESULT_DTYPES`) and turned into
the native dtype objects of each backend as it loads (:func:`native_table`), since the cache
holds the native dtype object, as ``x.native.dtype`` reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _dtypes

__all__ = ["RESULT_DTYPES", "native_table"]


def _kinds(*kinds: str) -> tuple[_dtypes.DType, ...]:
    return tuple(dt for dt in _dtypes.ALL_DTYPES if dt.kind in kinds)


_INTS = _kinds("signed integer", "unsigned integer")
_REAL_FLOATS = _kinds("real floating")
_COMPLEX = _kinds("complex floating")
_FLOATS = _REAL_FLOATS + _COMPLEX
_REAL_NUMERIC = _INTS + _REAL_FLOATS
_NUMERIC = _INTS + _FLOATS


def _same(*groups: tuple[_dtypes.DType, ...]) -> dict[_dtypes.DType, _dtypes.DType]:
    return {dt: dt for group in groups for dt in group}


def _to_bool(*groups: tuple[_dtypes.DType, ...]) -> dict[_dtypes.DType, _dtypes.DType]:
    return {dt: _dtypes.bool for group in groups for dt in group}


_REAL_OF = {_dtypes.complex64: _dtypes.float32, _dtypes.complex128: _dtypes.float64}

# The dtype of an elementwise result, by function and operand dtype (the operands of a binary
# function brought to one dtype first), where it is the same on every backend. The hot paths
# cache it on the result so that the next call need not read the native dtype; a function or
# dtype missing here leaves the result's dtype to be read when it is needed. A test checks
# every entry against the native result on every installed backend.
RESULT_DTYPES: dict[str, dict[_dtypes.DType, _dtypes.DType]] = {
    **dict.fromkeys(("add", "subtract", "multiply", "matmul", "linalg.matmul"), _same(_NUMERIC)),
    **dict.fromkeys(("divide", "pow"), _same(_FLOATS)),
    **dict.fromkeys(("maximum", "minimum", "floor_divide", "remainder"), _same(_REAL_NUMERIC)),
    **dict.fromkeys(
        (
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "bitwise_left_shift",
            "bitwise_right_shift",
            "bitwise_invert",
        ),
        _same(_INTS),
    ),
    **dict.fromkeys(("atan2", "hypot", "copysign", "logaddexp", "nextafter"), _same(_REAL_FLOATS)),
    **dict.fromkeys(("equal", "not_equal"), _to_bool((_dtypes.bool,), _NUMERIC)),
    **dict.fromkeys(("less", "less_equal", "greater", "greater_equal"), _to_bool(_REAL_NUMERIC)),
    **dict.fromkeys(
        ("logical_and", "logical_or", "logical_xor", "logical_not"), _same((_dtypes.bool,))
    ),
    **dict.fromkeys(("negative", "positive", "square"), _same(_NUMERIC)),
    **dict.fromkeys(("floor", "ceil", "trunc"), _same(_REAL_FLOATS)),
    "abs": {**_same(_REAL_NUMERIC), **_REAL_OF},
    # real takes every numeric dtype since the 2024.12 standard; imag complex ones only.
    "real": {**_same(_REAL_NUMERIC), **_REAL_OF},
    "imag": _REAL_OF,
    **dict.fromkeys(
        [
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "exp",
            "expm1",
            "log",
            "log1p",
            "log2",
            "log10",
            "sqrt",
        ],
        _same(_FLOATS),
    ),
    **dict.fromkeys(("isnan", "isinf", "isfinite"), _to_bool(_FLOATS)),
    "signbit": _to_bool(_REAL_FLOATS),
}


def native_table(
    native_of: dict[_dtypes.DType, Any], dtype_of: Callable[[Any], _dtypes.DType | None]
) -> dict[str, dict[Any, Any]]:
    """One backend's :data:`RESULT_DTYPES` in its own dtype objects: per function, native
    operand dtype -> native result dtype (every function of the standard has a dict).

    ``native_of`` maps arraymux dtypes to the dtype objects the backend's arrays report;
    ``dtype_of`` maps those back: entries that do not round-trip are left out, so an odd
    mapping cannot make a wrong entry. Each backend has its own table, holding its dtype
    objects only (``torch.compile`` traces the lookups in torch's)."""
    out: dict[str, dict[Any, Any]] = {}
    for name, table in RESULT_DTYPES.items():
        entries = out[name] = {}
        for dt, result in table.items():
            a, r = native_of.get(dt), native_of.get(result)
            if a is None or r is None or dtype_of(a) is not dt or dtype_of(r) is not result:
                continue
            entries[a] = r
    return out
