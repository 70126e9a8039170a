"""Properties of the elementwise functions (and their special cases)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._devices import Device
from ..._dtypes import PROMOTION_TABLE, DType
from ..._records import CATEGORIES, RECORDS
from .._hypothesis import reference_namespace
from ._core import (
    ALL_KINDS,
    PROPERTIES,
    REAL,
    Draw,
    PropertyFn,
    check,
    fn_of,
    numpy_dtype,
    reference_fn,
    reference_ns,
    register,
    scale_of,
)

# ---------------------------------------------------------------------------------------------
# Elementwise functions


def _properties_of(rule: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """name: (the kinds of dtypes drawn, the rule of the result's dtype) of the elementwise
    functions of ``rule``, from their records."""
    return {
        r.name: (
            CATEGORIES[r.tested or r.dtypes or "any"],
            r.yields or (r.result_dtypes.split(" ", 1)[0] if r.result_dtypes else "same"),
        )
        for r in RECORDS
        if r.section == "elementwise_functions" and r.rule == rule
    }


_UNARY = _properties_of("unary")
_BINARY = _properties_of("binary")


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
        dt = d.dtype(kinds or ALL_KINDS)
        x = d.array(dt, d.shape())
        out = fn_of(name)(d.dev(x))
        ref = reference_fn(name)(x)
        check(out, ref, d.device, dtype=_result_dtype(dt, rule), ulps=_ulps(name, dt))

    return prop


def partner_dtype(d: Draw, dt1: DType, kinds: Any) -> DType:
    info = ax.__array_namespace_info__()
    choices = [
        dt
        for dt in info.dtypes(device=d.device, kind=kinds or ALL_KINDS).values()
        if (dt1, dt) in PROMOTION_TABLE
        and d.device.supports(PROMOTION_TABLE[dt1, dt])
        and dt.name not in d.excluded
    ]
    return d.draw(st.sampled_from(choices), "dtype2")


def _binary_elements(
    name: str, dt1: DType, dt2: DType
) -> tuple[dict[str, object], dict[str, object]]:
    e1: dict[str, object] = {}
    e2: dict[str, object] = {}
    ints = dt1.kind in ("signed integer", "unsigned integer")
    if name in ("bitwise_left_shift", "bitwise_right_shift"):
        e2 = {"min_value": 0, "max_value": 7}
    elif name in ("floor_divide", "remainder"):
        e2 = {"min_value": 1, "max_value": 100} if ints else {"min_value": 0.5, "max_value": 100.0}
    elif name == "pow":
        if ints:
            e1 = {"min_value": 0, "max_value": 5}
            e2 = {"min_value": 0, "max_value": 3}
        elif PROMOTION_TABLE[dt1, dt2].kind == "real floating":
            e1 = {"min_value": 0.0, "max_value": 10.0}
            e2 = {"min_value": -4.0, "max_value": 4.0}
        else:
            # A zero base under a complex result is left open in practice: the standard's
            # exp(x2 * log(x1)) gives inf + NaN j (PyTorch), NumPy NaN + NaN j. The base stays
            # away from zero whether it is complex or a real beside a complex exponent.
            complex1 = dt1.kind == "complex floating"
            complex2 = dt2.kind == "complex floating"
            e1 = (
                {"max_magnitude": 4.0, "min_magnitude": 0.25}
                if complex1
                else {"min_value": 0.25, "max_value": 4.0}
            )
            e2 = {"max_magnitude": 2.0} if complex2 else {"min_value": -2.0, "max_value": 2.0}
    elif name == "multiply" and ints:
        e1 = e2 = {"min_value": 0, "max_value": 10}
    return e1, e2


def _binary_property(name: str) -> PropertyFn:
    kinds, rule = _BINARY[name]

    def prop(d: Draw, name: str) -> None:
        dt1 = d.dtype(kinds or ALL_KINDS)
        dt2 = partner_dtype(d, dt1, kinds)
        shapes = d.draw(
            reference_namespace().mutually_broadcastable_shapes(2, max_dims=3, max_side=3),
            "shapes",
        )
        e1, e2 = _binary_elements(name, dt1, dt2)
        x1 = d.array(dt1, shapes.input_shapes[0], e1, label="x1")
        x2 = d.array(dt2, shapes.input_shapes[1], e2, label="x2")
        promoted = PROMOTION_TABLE[dt1, dt2]
        out = fn_of(name)(d.dev(x1), d.dev(x2))
        p = numpy_dtype(promoted)
        ref = reference_fn(name)(x1.astype(p), x2.astype(p))
        if name == "divide" and promoted.kind == "complex floating":
            # The standard leaves complex division by zero to the implementation (C99
            # Annex G suggests an infinity; CuPy gives nan+nanj): only "not finite" is checked.
            zero = np.broadcast_to(x2 == 0, ref.shape)
            if zero.any():
                got = np.asarray(ax.to_numpy(out))
                assert not np.isfinite(got[zero]).any(), f"{name}: finite result of x / 0"
                ref = np.where(zero, got, ref)
        scale = scale_of(x1, x2) if name in ("add", "subtract", "multiply") else 1.0
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


@register("clip")
def _clip(d: Draw, name: str) -> None:
    dt = d.dtype(REAL)
    x = d.array(dt, d.shape())
    lo: float | None = d.draw(st.none() | st.integers(-50, 50), "min")
    hi: float | None = d.draw(st.none() | st.integers(-50, 50), "max")
    if dt.kind == "unsigned integer":
        lo = None if lo is None else abs(lo)
        hi = None if hi is None else abs(hi)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    if dt.kind == "real floating":
        lo = None if lo is None else float(lo)
        hi = None if hi is None else float(hi)
    out = ax.clip(d.dev(x), lo, hi)
    check(out, reference_ns().clip(x, lo, hi), d.device, dtype=dt)


# The standard's special cases for common functions: (function, inputs, expected), from the
# records.
SPECIAL_CASES: tuple[tuple[str, tuple[float, ...], float | bool], ...] = tuple(
    (r.name, inputs, expected) for r in RECORDS for inputs, expected in r.special_cases
)


def check_special_cases(name: str, device: Device) -> None:
    """Check the special cases of :data:`SPECIAL_CASES` for ``name`` on every float dtype."""
    cases = [c for c in SPECIAL_CASES if c[0] == name]
    for dt in (ax.float32, ax.float64):
        if not cases or not device.supports(dt):
            continue
        for _, inputs, expected in cases:
            args = [ax.asarray([v], dtype=dt, device=device) for v in inputs]
            got = float(np.asarray(ax.to_numpy(fn_of(name)(*args)))[0])
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
