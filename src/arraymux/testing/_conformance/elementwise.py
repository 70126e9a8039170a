"""Properties of the elementwise functions (and their special cases)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._devices import Device
from ..._dtypes import PROMOTION_TABLE, DType
from ..strategies import _reference_namespace
from ._core import (
    _ALL_KINDS,
    _FLOAT,
    _INEXACT,
    _INF,
    _INT_BOOL,
    _NAN,
    _NUMERIC,
    _REAL,
    PROPERTIES,
    Draw,
    PropertyFn,
    _fn,
    _np_dtype,
    _prop,
    _ref,
    _reffn,
    _scale,
    check,
)

# ---------------------------------------------------------------------------------------------
# Elementwise functions


# name: (dtype kinds, result rule, extra element bounds)
_UNARY: dict[str, tuple[Any, str]] = {
    "abs": (_NUMERIC, "real"),
    "acos": (_FLOAT, "same"),
    "acosh": (_FLOAT, "same"),
    "asin": (_FLOAT, "same"),
    "asinh": (_FLOAT, "same"),
    "atan": (_FLOAT, "same"),
    "atanh": (_FLOAT, "same"),
    "bitwise_invert": (_INT_BOOL, "same"),
    "ceil": (_REAL, "same"),
    "conj": (_NUMERIC, "same"),
    "cos": (_INEXACT, "same"),
    "cosh": (_INEXACT, "same"),
    "exp": (_INEXACT, "same"),
    "expm1": (_FLOAT, "same"),
    "floor": (_REAL, "same"),
    "imag": ("complex floating", "real"),
    "isfinite": (_NUMERIC, "bool"),
    "isinf": (_NUMERIC, "bool"),
    "isnan": (_NUMERIC, "bool"),
    "log": (_FLOAT, "same"),
    "log1p": (_FLOAT, "same"),
    "log2": (_FLOAT, "same"),
    "log10": (_FLOAT, "same"),
    "logical_not": ("bool", "same"),
    "negative": (_NUMERIC, "same"),
    "positive": (_NUMERIC, "same"),
    "real": (_NUMERIC, "real"),
    "reciprocal": (_INEXACT, "same"),
    "round": (_REAL, "same"),
    "sign": (_NUMERIC, "same"),
    "signbit": (_FLOAT, "bool"),
    "sin": (_INEXACT, "same"),
    "sinh": (_INEXACT, "same"),
    "square": (_NUMERIC, "same"),
    "sqrt": (_FLOAT, "same"),
    "tan": (_FLOAT, "same"),
    "tanh": (_INEXACT, "same"),
    "trunc": (_REAL, "same"),
}

_BINARY: dict[str, tuple[Any, str]] = {
    "add": (_NUMERIC, "same"),
    "atan2": (_FLOAT, "same"),
    "bitwise_and": (_INT_BOOL, "same"),
    "bitwise_left_shift": ("integral", "same"),
    "bitwise_or": (_INT_BOOL, "same"),
    "bitwise_right_shift": ("integral", "same"),
    "bitwise_xor": (_INT_BOOL, "same"),
    "copysign": (_FLOAT, "same"),
    "divide": (_INEXACT, "same"),
    "equal": (None, "bool"),
    "floor_divide": (_REAL, "same"),
    "greater": (_REAL, "bool"),
    "greater_equal": (_REAL, "bool"),
    "hypot": (_FLOAT, "same"),
    "less": (_REAL, "bool"),
    "less_equal": (_REAL, "bool"),
    "logaddexp": (_FLOAT, "same"),
    "logical_and": ("bool", "same"),
    "logical_or": ("bool", "same"),
    "logical_xor": ("bool", "same"),
    "maximum": (_REAL, "same"),
    "minimum": (_REAL, "same"),
    "multiply": (_NUMERIC, "same"),
    "nextafter": (_FLOAT, "same"),
    "not_equal": (None, "bool"),
    "pow": (_NUMERIC, "same"),
    "remainder": (_REAL, "same"),
    "subtract": (_NUMERIC, "same"),
}


def _result_dtype(dt: DType, rule: str) -> DType:
    if rule == "bool":
        return ax.bool
    if rule == "real" and dt.kind == "complex floating":
        return ax.float32 if dt is ax.complex64 else ax.float64
    return dt


def _ulps(name: str, dt: DType) -> float:
    # Transcendental functions of complex arguments lose a little more across libraries.
    return 256 if dt.kind == "complex floating" else 32


def _unary_property(name: str) -> PropertyFn:
    kinds, rule = _UNARY[name]

    def prop(d: Draw, name: str) -> None:
        dt = d.dtype(kinds or _ALL_KINDS)
        x = d.array(dt, d.shape())
        out = _fn(name)(d.dev(x))
        ref = _reffn(name)(x)
        check(out, ref, d.device, dtype=_result_dtype(dt, rule), ulps=_ulps(name, dt))

    return prop


def _partner_dtype(d: Draw, dt1: DType, kinds: Any) -> DType:
    info = ax.__array_namespace_info__()
    choices = [
        dt
        for dt in info.dtypes(device=d.device, kind=kinds or _ALL_KINDS).values()
        if (dt1, dt) in PROMOTION_TABLE
        and d.device.supports(PROMOTION_TABLE[dt1, dt])
        and dt.name not in d.excluded
    ]
    return d.draw(st.sampled_from(choices), "dtype2")


def _binary_elements(name: str, dt1: DType, dt2: DType) -> tuple[dict[str, Any], dict[str, Any]]:
    e1: dict[str, Any] = {}
    e2: dict[str, Any] = {}
    ints = dt1.kind in ("signed integer", "unsigned integer")
    if name in ("bitwise_left_shift", "bitwise_right_shift"):
        e2 = {"min_value": 0, "max_value": 7}
    elif name in ("floor_divide", "remainder"):
        e2 = {"min_value": 1, "max_value": 100} if ints else {"min_value": 0.5, "max_value": 100.0}
    elif name == "pow":
        if ints:
            e1 = {"min_value": 0, "max_value": 5}
            e2 = {"min_value": 0, "max_value": 3}
        elif dt1.kind == "real floating":
            e1 = {"min_value": 0.0, "max_value": 10.0}
            e2 = {"min_value": -4.0, "max_value": 4.0}
        else:
            # A zero base with a negative or complex exponent is left open by the standard:
            # NumPy gives NaN + NaN j, exp(x2 * log(x1)) (PyTorch) inf + NaN j.
            e1 = {"max_magnitude": 4.0, "min_magnitude": 0.25}
            e2 = {"max_magnitude": 2.0}
    elif name == "multiply" and ints:
        e1 = e2 = {"min_value": 0, "max_value": 10}
    return e1, e2


def _binary_property(name: str) -> PropertyFn:
    kinds, rule = _BINARY[name]

    def prop(d: Draw, name: str) -> None:
        dt1 = d.dtype(kinds or _ALL_KINDS)
        dt2 = _partner_dtype(d, dt1, kinds)
        shapes = d.draw(
            _reference_namespace().mutually_broadcastable_shapes(2, max_dims=3, max_side=3),
            "shapes",
        )
        e1, e2 = _binary_elements(name, dt1, dt2)
        x1 = d.array(dt1, shapes.input_shapes[0], e1, label="x1")
        x2 = d.array(dt2, shapes.input_shapes[1], e2, label="x2")
        promoted = PROMOTION_TABLE[dt1, dt2]
        out = _fn(name)(d.dev(x1), d.dev(x2))
        p = _np_dtype(promoted)
        ref = _reffn(name)(x1.astype(p), x2.astype(p))
        if name == "divide" and promoted.kind == "complex floating":
            # The standard leaves complex division by zero to the implementation (C99
            # Annex G suggests an infinity; CuPy gives nan+nanj): only "not finite" is checked.
            zero = np.broadcast_to(x2 == 0, ref.shape)
            if zero.any():
                got = np.asarray(ax.to_numpy(out))
                assert not np.isfinite(got[zero]).any(), f"{name}: finite result of x / 0"
                ref = np.where(zero, got, ref)
        scale = _scale(x1, x2) if name in ("add", "subtract", "multiply") else 1.0
        check(
            out,
            ref,
            d.device,
            dtype=_result_dtype(promoted, rule),
            ulps=_ulps(name, promoted),
            scale=scale,
        )

    return prop


for _n in _UNARY:
    PROPERTIES[_n] = _unary_property(_n)
for _n in _BINARY:
    PROPERTIES[_n] = _binary_property(_n)


@_prop("clip")
def _clip(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL)
    x = d.array(dt, d.shape())
    lo = d.draw(st.none() | st.integers(-50, 50), "min")
    hi = d.draw(st.none() | st.integers(-50, 50), "max")
    if dt.kind == "unsigned integer":
        lo = None if lo is None else abs(lo)
        hi = None if hi is None else abs(hi)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    if dt.kind == "real floating":
        lo = None if lo is None else float(lo)
        hi = None if hi is None else float(hi)
    out = ax.clip(d.dev(x), lo, hi)
    check(out, _ref().clip(x, lo, hi), d.device, dtype=dt)


# The standard's special cases for common functions: (function, inputs, expected).
SPECIAL_CASES: tuple[tuple[str, tuple[float, ...], float | bool], ...] = (
    ("abs", (-0.0,), 0.0),
    ("abs", (-_INF,), _INF),
    ("abs", (_NAN,), _NAN),
    ("acos", (1.0,), 0.0),
    ("acos", (2.0,), _NAN),
    ("acosh", (1.0,), 0.0),
    ("acosh", (0.5,), _NAN),
    ("asin", (-0.0,), -0.0),
    ("asinh", (-_INF,), -_INF),
    ("atan", (-0.0,), -0.0),
    ("atan", (_INF,), math.pi / 2),
    ("atanh", (1.0,), _INF),
    ("atanh", (-1.0,), -_INF),
    ("ceil", (-0.5,), -0.0),
    ("cos", (-0.0,), 1.0),
    ("cos", (_INF,), _NAN),
    ("cosh", (-_INF,), _INF),
    ("exp", (-_INF,), 0.0),
    ("exp", (_NAN,), _NAN),
    ("expm1", (-_INF,), -1.0),
    ("expm1", (-0.0,), -0.0),
    ("floor", (-0.0,), -0.0),
    ("isfinite", (_INF,), False),
    ("isinf", (-_INF,), True),
    ("isnan", (_NAN,), True),
    ("log", (0.0,), -_INF),
    ("log", (-1.0,), _NAN),
    ("log", (_INF,), _INF),
    ("log1p", (-1.0,), -_INF),
    ("log1p", (-0.0,), -0.0),
    ("log2", (-0.0,), -_INF),
    ("log10", (1.0,), 0.0),
    ("negative", (0.0,), -0.0),
    ("reciprocal", (-0.0,), -_INF),
    ("round", (2.5,), 2.0),
    ("round", (-0.5,), -0.0),
    ("sign", (_NAN,), _NAN),
    ("signbit", (-0.0,), True),
    ("sin", (-0.0,), -0.0),
    ("sin", (-_INF,), _NAN),
    ("sinh", (-0.0,), -0.0),
    ("sqrt", (-0.0,), -0.0),
    ("sqrt", (-1.0,), _NAN),
    ("sqrt", (_INF,), _INF),
    ("square", (-_INF,), _INF),
    ("tan", (-0.0,), -0.0),
    ("tanh", (-_INF,), -1.0),
    ("trunc", (-0.5,), -0.0),
    ("add", (_INF, -_INF), _NAN),
    ("add", (-0.0, -0.0), -0.0),
    ("atan2", (0.0, -0.0), math.pi),
    ("atan2", (-0.0, -0.0), -math.pi),
    ("atan2", (_INF, _INF), math.pi / 4),
    ("copysign", (1.0, -0.0), -1.0),
    ("divide", (1.0, 0.0), _INF),
    ("divide", (1.0, -0.0), -_INF),
    ("divide", (0.0, 0.0), _NAN),
    ("equal", (_NAN, _NAN), False),
    ("greater", (_NAN, 0.0), False),
    ("hypot", (_INF, _NAN), _INF),
    ("less", (-0.0, 0.0), False),
    ("logaddexp", (_INF, 1.0), _INF),
    ("maximum", (_NAN, 1.0), _NAN),
    ("minimum", (1.0, _NAN), _NAN),
    ("multiply", (0.0, _INF), _NAN),
    ("multiply", (-0.0, 1.0), -0.0),
    ("not_equal", (_NAN, _NAN), True),
    ("pow", (_NAN, 0.0), 1.0),
    ("pow", (1.0, _NAN), 1.0),
    ("pow", (-_INF, 3.0), -_INF),
    ("pow", (0.0, -1.0), _INF),
    ("subtract", (_INF, _INF), _NAN),
)


def check_special_cases(name: str, device: Device) -> None:
    """Check the special cases of :data:`SPECIAL_CASES` for ``name`` on every float dtype."""
    cases = [c for c in SPECIAL_CASES if c[0] == name]
    for dt in (ax.float32, ax.float64):
        if not cases or not device.supports(dt):
            continue
        for _, inputs, expected in cases:
            args = [ax.asarray([v], dtype=dt, device=device) for v in inputs]
            got = float(np.asarray(ax.to_numpy(_fn(name)(*args)))[0])
            if isinstance(expected, bool):
                ok = bool(got) is expected
            elif math.isnan(expected):
                ok = math.isnan(got)
            elif expected == 0:
                ok = got == 0 and math.copysign(1, got) == math.copysign(1, expected)
            else:
                ok = math.isclose(got, expected, rel_tol=1e-6)
            if not ok:
                shown = ", ".join(repr(v) for v in inputs)
                raise AssertionError(
                    f"special case {name}({shown}) with {dt.name}: got {got!r}, "
                    f"the standard says {expected!r}"
                )
