"""Property definitions for the standard's functions, run on any arraymux device.

Each property draws inputs as NumPy arrays (the same draw whatever the device), moves them to
the device with :func:`arraymux.asarray`, calls the arraymux function, and checks the result's
shape and dtype against the standard's rules and its values against NumPy's (through
``array_api_compat.numpy``) within dtype-aware tolerances. Elementwise functions also check a
table of the standard's special cases (nan, +-inf, +-0).

The pytest files under ``conformance/`` and ``arraymux conformance`` both run these.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arraymux as ax

from .._devices import Device
from .._dtypes import PROMOTION_TABLE, DType
from .._function_table import BY_NAME, TABLE
from . import assert_close
from ._deviations import excluded_dtypes
from .strategies import _reference_namespace

__all__ = ["PROPERTIES", "Unsupported", "functions", "run_property"]

_INF = math.inf
_NAN = math.nan


class Unsupported(Exception):
    """The backend does not provide the function."""


def _ref() -> Any:
    import array_api_compat.numpy as rnp

    return rnp


# ---------------------------------------------------------------------------------------------
# Drawing and checking


class Draw:
    """What a property gets: the device, the hypothesis data object and drawing helpers."""

    def __init__(self, device: Device, data: Any, function: str = "") -> None:
        self.device = device
        self.data = data
        self.excluded = excluded_dtypes(function, str(device))

    def draw(self, strategy: Any, label: str | None = None) -> Any:
        return self.data.draw(strategy, label=label)

    def dtype(self, kinds: str | tuple[str, ...], exclude: tuple[str, ...] = ()) -> DType:
        info = ax.__array_namespace_info__()
        choices = [
            dt
            for dt in info.dtypes(device=self.device, kind=kinds).values()
            if dt.name not in exclude and dt.name not in self.excluded
        ]
        return self.draw(st.sampled_from(choices), "dtype")

    def shape(
        self, min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4
    ) -> tuple[int, ...]:
        s = _reference_namespace().array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
        return self.draw(s, "shape")

    def array(
        self,
        dtype: DType,
        shape: tuple[int, ...] | int,
        elements: dict[str, Any] | None = None,
        unique: bool = False,
        label: str = "x",
    ) -> np.ndarray:
        """A NumPy array (the reference draw); see :meth:`dev` to move it to the device."""
        kw = _elements(dtype, elements)
        s = _reference_namespace().arrays(np.dtype(dtype.name), shape, elements=kw, unique=unique)
        return np.asarray(self.draw(s, label))

    def dev(self, x: np.ndarray) -> Any:
        return ax.asarray(x, device=self.device)


def _elements(dtype: DType, elements: dict[str, Any] | None) -> Any:
    """hypothesis element bounds: finite, moderate values unless ``elements`` says otherwise."""
    if dtype.kind == "bool":
        return None
    kw: dict[str, Any]
    if dtype.kind == "complex floating":
        kw = {"max_magnitude": 10.0, **(elements or {})}
        return st.complex_numbers(
            max_magnitude=kw["max_magnitude"],
            allow_nan=False,
            allow_infinity=False,
            allow_subnormal=False,
            width=dtype.bits,  # type: ignore[arg-type]
        )
    if dtype.kind == "real floating":
        kw = {"allow_nan": False, "allow_infinity": False, "allow_subnormal": False}
        kw.update(min_value=-100.0, max_value=100.0)
        kw.update(elements or {})
        if "max_magnitude" in kw:
            m = kw.pop("max_magnitude")
            kw.update(min_value=-m, max_value=m)
        return kw
    info = np.iinfo(dtype.name)
    kw = {"min_value": -100, "max_value": 100}
    kw.update(elements or {})
    kw["min_value"] = max(int(kw["min_value"]), int(info.min))
    kw["max_value"] = min(max(int(kw["max_value"]), kw["min_value"]), int(info.max))
    return kw


def _np_dtype(dt: DType) -> np.dtype:
    return np.dtype(dt.name)


def _narrow(name: str) -> str:
    return {
        "int64": "int32",
        "uint64": "uint32",
        "float64": "float32",
        "complex128": "complex64",
    }.get(name, name)


def expected_dtype(ref: Any, device: Device, *, defaults: bool = False) -> DType:
    """The arraymux dtype the device should give where NumPy gives ``ref``'s dtype.

    ``defaults``: NumPy's result is a default dtype (int64, float64, complex128), which
    becomes the device's default dtype of that kind.
    """
    name = np.asarray(ref).dtype.name
    if defaults:
        kinds = {"int64": "integral", "float64": "real floating", "complex128": "complex floating"}
        if name in kinds:
            info = ax.__array_namespace_info__()
            return info.default_dtypes(device=device)[kinds[name]]
        if name == "uint64":
            info = ax.__array_namespace_info__()
            bits = info.default_dtypes(device=device)["integral"].bits
            return DType(f"uint{bits}")
    dt = DType(name)
    return dt if device.supports(dt) else DType(_narrow(name))


def _eps(dt: DType | str) -> float:
    name = dt if isinstance(dt, str) else dt.name
    if name in ("float32", "complex64"):
        return float(np.finfo(np.float32).eps)
    if name in ("float64", "complex128"):
        return float(np.finfo(np.float64).eps)
    return 0.0


def check(
    actual: Any,
    ref: Any,
    device: Device,
    *,
    dtype: DType | None = None,
    defaults: bool = False,
    ulps: float = 32,
    scale: float = 1.0,
    what: str = "result",
) -> None:
    """Check one result: an arraymux Array on ``device``, against NumPy's ``ref``.

    The shape must equal ``ref``'s; the dtype must be ``dtype`` (or derived from ``ref`` with
    :func:`expected_dtype`); values must agree within ``ulps`` units of the dtype's epsilon,
    relative, and ``ulps * eps * scale`` absolute.
    """
    ref = np.asarray(ref)
    if not isinstance(actual, ax.Array):
        raise AssertionError(f"{what}: expected an arraymux.Array, got {type(actual).__name__}")
    if actual.device != device:
        raise AssertionError(f"{what}: on {actual.device}, expected {device}")
    if tuple(actual.shape) != ref.shape:
        raise AssertionError(f"{what}: shape {tuple(actual.shape)}, expected {ref.shape}")
    want = dtype if dtype is not None else expected_dtype(ref, device, defaults=defaults)
    if actual.dtype != want:
        raise AssertionError(f"{what}: dtype {actual.dtype}, expected {want}")
    eps = _eps(want)
    rtol = ulps * eps
    atol = ulps * eps * max(scale, 1.0)
    try:
        assert_close(actual, ref.astype(want.name), rtol=rtol, atol=atol, check_dtype=False)
    except AssertionError as e:
        raise AssertionError(f"{what}: {e}") from None


def check_tuple(actual: Any, refs: Any, device: Device, **kw: Any) -> None:
    if len(actual) != len(refs):
        raise AssertionError(f"{len(actual)} results, expected {len(refs)}")
    for i, (a, r) in enumerate(zip(actual, refs)):
        check(a, r, device, what=f"result {i}", **kw)


def _scale(*arrays: np.ndarray) -> float:
    m = 1.0
    for a in arrays:
        if a.size and a.dtype.kind in "fc":
            m = max(m, float(np.max(np.abs(a))))
    return m


# ---------------------------------------------------------------------------------------------
# Registry

PropertyFn = Callable[[Draw, str], None]
PROPERTIES: dict[str, PropertyFn] = {}


def _prop(*names: str) -> Callable[[PropertyFn], PropertyFn]:
    def deco(fn: PropertyFn) -> PropertyFn:
        for n in names:
            PROPERTIES[n] = fn
        return fn

    return deco


def _fn(name: str) -> Any:
    obj: Any = ax
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _reffn(name: str) -> Any:
    obj: Any = _ref()
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


# ---------------------------------------------------------------------------------------------
# Elementwise functions

_FLOAT = "real floating"
_REAL = ("integral", "real floating")
_NUMERIC = "numeric"
_INEXACT = ("real floating", "complex floating")
_INT_BOOL = ("integral", "bool")

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
    "real": ("complex floating", "real"),
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

_ALL_KINDS = ("bool", "numeric")


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
            e1 = {"max_magnitude": 4.0}
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


# ---------------------------------------------------------------------------------------------
# Creation functions


@_prop("arange")
def _arange(d: Draw, name: str) -> None:
    start = d.draw(st.integers(-10, 10), "start")
    stop = d.draw(st.none() | st.integers(-10, 10), "stop")
    step = d.draw(st.sampled_from([1, 2, 3, -1, -2]), "step")
    floats = d.draw(st.booleans(), "floats")
    if floats:
        start_f, stop_f = float(start), None if stop is None else float(stop)
        out = ax.arange(start_f, stop_f, step / 2, device=d.device)
        ref = _ref().arange(start_f, stop_f, step / 2)
    else:
        out = ax.arange(start, stop, step, device=d.device)
        ref = _ref().arange(start, stop, step)
    check(out, ref, d.device, defaults=True)


@_prop("asarray")
def _asarray(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape(max_dims=2))
    out = ax.asarray(x.tolist(), dtype=dt, device=d.device)
    check(out, x, d.device, dtype=dt)
    check(ax.asarray(x, device=d.device), x, d.device, dtype=dt)


@_prop("empty", "ones", "zeros", "full")
def _filled(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(max_dims=3, min_side=0)
    which = name
    if which == "full":
        value: Any = True if dt is ax.bool else 3
        out = ax.full(shape, value, dtype=dt, device=d.device)
        check(out, np.full(shape, value, dtype=_np_dtype(dt)), d.device, dtype=dt)
        return
    out = _fn(which)(shape, dtype=dt, device=d.device)
    if which == "empty":
        if tuple(out.shape) != shape or out.dtype != dt or out.device != d.device:
            raise AssertionError(f"empty: got {out.shape} {out.dtype} on {out.device}")
        return
    check(out, getattr(np, which)(shape, dtype=_np_dtype(dt)), d.device, dtype=dt)
    # Without a dtype: the device's default floating dtype.
    check(_fn(which)(shape, device=d.device), getattr(np, which)(shape), d.device, defaults=True)


@_prop("empty_like", "ones_like", "zeros_like", "full_like")
def _like(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape(min_side=0))
    which = name
    xd = d.dev(x)
    if which == "full_like":
        value: Any = False if dt is ax.bool else 1
        check(ax.full_like(xd, value), np.full_like(x, value), d.device, dtype=dt)
    elif which == "empty_like":
        out = ax.empty_like(xd)
        if out.shape != xd.shape or out.dtype != dt or out.device != d.device:
            raise AssertionError(f"empty_like: got {out.shape} {out.dtype} on {out.device}")
    else:
        check(_fn(which)(xd), getattr(np, which)(x), d.device, dtype=dt)


@_prop("eye")
def _eye(d: Draw, name: str) -> None:
    # A rectangular matrix with a negative k, every time.
    check(ax.eye(2, 3, k=-1, device=d.device), np.eye(2, 3, k=-1), d.device, defaults=True)
    n = d.draw(st.integers(0, 5), "n_rows")
    m = d.draw(st.none() | st.integers(0, 5), "n_cols")
    k = d.draw(st.integers(-3, 3), "k")
    dt = d.dtype(_ALL_KINDS)
    check(
        ax.eye(n, m, k=k, dtype=dt, device=d.device),
        np.eye(n, m, k=k, dtype=_np_dtype(dt)),
        d.device,
        dtype=dt,
    )


@_prop("from_dlpack")
def _from_dlpack(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape())
    xd = d.dev(x)
    check(ax.from_dlpack(xd), x, d.device, dtype=dt)


@_prop("linspace")
def _linspace(d: Draw, name: str) -> None:
    start = d.draw(st.integers(-10, 10), "start")
    stop = d.draw(st.integers(-10, 10), "stop")
    num = d.draw(st.integers(0, 8), "num")
    endpoint = d.draw(st.booleans(), "endpoint")
    out = ax.linspace(float(start), float(stop), num, endpoint=endpoint, device=d.device)
    ref = np.linspace(float(start), float(stop), num, endpoint=endpoint)
    check(out, ref, d.device, defaults=True, scale=10)


@_prop("meshgrid")
def _meshgrid(d: Draw, name: str) -> None:
    dt = d.dtype(_NUMERIC)
    n = d.draw(st.integers(1, 3), "n")
    xs = [d.array(dt, d.draw(st.integers(1, 3)), label=f"x{i}") for i in range(n)]
    indexing = d.draw(st.sampled_from(["xy", "ij"]), "indexing")
    out = ax.meshgrid(*[d.dev(x) for x in xs], indexing=indexing)
    check_tuple(out, np.meshgrid(*xs, indexing=indexing), d.device, dtype=dt)


@_prop("tril", "triu")
def _tri(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape(min_dims=2))
    k = d.draw(st.integers(-3, 3), "k")
    which = name
    check(_fn(which)(d.dev(x), k=k), getattr(np, which)(x, k=k), d.device, dtype=dt)


# ---------------------------------------------------------------------------------------------
# Data type functions


def _castable(src: DType, dst: DType) -> bool:
    return not (src.kind == "complex floating" and dst.kind != "complex floating")


@_prop("astype")
def _astype(d: Draw, name: str) -> None:
    src = d.dtype(_ALL_KINDS)
    dst = d.dtype(_ALL_KINDS)
    if not _castable(src, dst):
        dst = src
    elements: dict[str, Any] | None = None
    if src.kind == "real floating" and dst.kind in ("signed integer", "unsigned integer"):
        elements = {"min_value": 0.0, "max_value": 100.0}
    elif src.kind == "signed integer" and dst.kind == "unsigned integer":
        elements = {"min_value": 0}
    elif src.kind == "complex floating" and dst.kind == "complex floating":
        elements = {"max_magnitude": 100.0}
    if (
        src.kind in ("signed integer", "unsigned integer")
        and dst.kind in ("signed integer", "unsigned integer")
        and dst.bits < src.bits
    ):
        elements = {"min_value": 0, "max_value": 100}
    x = d.array(src, d.shape(), elements)
    out = ax.astype(d.dev(x), dst)
    check(out, x.astype(_np_dtype(dst)), d.device, dtype=dst)


@_prop("can_cast", "result_type", "isdtype")
def _dtype_rules(d: Draw, name: str) -> None:
    a = d.dtype(_ALL_KINDS)
    b = d.dtype(_ALL_KINDS)
    x = d.dev(d.array(a, (2,)))
    if (
        name == "result_type"
        and (a, b) in PROMOTION_TABLE
        and ax.result_type(a, b) != PROMOTION_TABLE[a, b]
    ):
        raise AssertionError(
            f"result_type({a}, {b}) = {ax.result_type(a, b)}, expected {PROMOTION_TABLE[a, b]}"
        )
    if (
        name == "result_type"
        and (a, b) in PROMOTION_TABLE
        and ax.result_type(x, b) != PROMOTION_TABLE[a, b]
    ):
        raise AssertionError(f"result_type(array of {a}, {b}) is not {PROMOTION_TABLE[a, b]}")
    same_kind_safe = (a, b) in PROMOTION_TABLE and PROMOTION_TABLE[a, b] == b
    if name == "can_cast" and (a, b) in PROMOTION_TABLE and ax.can_cast(x, b) != same_kind_safe:
        raise AssertionError(f"can_cast({a}, {b}) = {ax.can_cast(x, b)}, expected {same_kind_safe}")
    for kind in (
        ()
        if name != "isdtype"
        else (
            "bool",
            "signed integer",
            "unsigned integer",
            "integral",
            "real floating",
            "complex floating",
            "numeric",
        )
    ):
        got = ax.isdtype(a, kind)
        want_kind = bool(np.isdtype(_np_dtype(a), kind))
        if got != want_kind:
            raise AssertionError(f"isdtype({a}, {kind!r}) = {got}, expected {want_kind}")


@_prop("finfo", "iinfo")
def _info(d: Draw, name: str) -> None:
    # Every dtype of the kind, every time: a deviation here is deterministic.
    kinds = ("real floating", "complex floating") if name == "finfo" else "integral"
    for dt in ax.__array_namespace_info__().dtypes(device=d.device, kind=kinds).values():
        x = d.dev(np.zeros(1, dtype=_np_dtype(dt)))
        got: Any
        want: Any
        if name == "iinfo":
            got = ax.iinfo(x)
            want = np.iinfo(dt.name)
            attrs: tuple[str, ...] = ("bits", "max", "min")
            want_dtype = dt
        else:
            got = ax.finfo(x)
            want = np.finfo(dt.name)
            attrs = ("bits", "eps", "max", "min", "smallest_normal")
            want_dtype = {ax.complex64: ax.float32, ax.complex128: ax.float64}.get(dt, dt)
        for attr in attrs:
            if float(getattr(got, attr)) != float(getattr(want, attr)):
                raise AssertionError(
                    f"{name}({dt}).{attr} = {getattr(got, attr)}, expected {getattr(want, attr)}"
                )
        if got.dtype != want_dtype:
            raise AssertionError(f"{name}({dt}).dtype = {got.dtype}, expected {want_dtype}")


# ---------------------------------------------------------------------------------------------
# Indexing functions


@_prop("take")
def _take(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    n = shape[axis]
    idx: Any = np.asarray(
        d.draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=5), "indices"),
        dtype=np.int64 if d.device.supports(ax.int64) else np.int32,
    )
    if len(shape) == 1 and d.draw(st.booleans(), "no_axis"):
        check(ax.take(d.dev(x), d.dev(idx)), np.take(x, idx), d.device, dtype=dt)
        return
    check(ax.take(d.dev(x), d.dev(idx), axis=axis), np.take(x, idx, axis=axis), d.device, dtype=dt)


@_prop("take_along_axis")
def _take_along_axis(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    ishape = list(shape)
    ishape[axis] = d.draw(st.integers(1, 4), "count")
    idx = d.array(
        ax.int64 if d.device.supports(ax.int64) else ax.int32,
        tuple(ishape),
        {"min_value": 0, "max_value": shape[axis] - 1},
        label="indices",
    )
    check(
        ax.take_along_axis(d.dev(x), d.dev(idx), axis=axis),
        np.take_along_axis(x, idx, axis=axis),
        d.device,
        dtype=dt,
    )


# ---------------------------------------------------------------------------------------------
# Linear algebra


def _matmul_shapes(d: Draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n, k, m = (d.draw(st.integers(1, 4)) for _ in range(3))
    batch = d.draw(
        _reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=3), "batch"
    )
    s1 = (k,) if d.draw(st.booleans(), "x1_vector") else (*batch.input_shapes[0], n, k)
    s2 = (k,) if d.draw(st.booleans(), "x2_vector") else (*batch.input_shapes[1], k, m)
    return s1, s2


@_prop("matmul", "linalg.matmul")
def _matmul(d: Draw, name: str) -> None:
    dt1 = d.dtype(_NUMERIC)
    dt2 = _partner_dtype(d, dt1, _NUMERIC)
    s1, s2 = _matmul_shapes(d)
    small = (
        {"min_value": -10, "max_value": 10}
        if dt1.kind in ("signed integer", "unsigned integer")
        else None
    )
    x1 = d.array(
        dt1,
        s1,
        small if dt1.kind != "unsigned integer" else {"min_value": 0, "max_value": 10},
        label="x1",
    )
    x2 = d.array(
        dt2,
        s2,
        small if dt2.kind != "unsigned integer" else {"min_value": 0, "max_value": 10},
        label="x2",
    )
    p = PROMOTION_TABLE[dt1, dt2]
    out = _fn(name)(d.dev(x1), d.dev(x2))
    ref = np.matmul(x1.astype(_np_dtype(p)), x2.astype(_np_dtype(p)))
    check(out, ref, d.device, dtype=p, scale=_scale(x1, x2) ** 2 * s1[-1])


@_prop("matrix_transpose", "linalg.matrix_transpose")
def _matrix_transpose(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape(min_dims=2))
    check(_fn(name)(d.dev(x)), np.swapaxes(x, -1, -2), d.device, dtype=dt)


@_prop("tensordot", "linalg.tensordot")
def _tensordot(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    k = d.draw(st.integers(0, 2), "axes")
    common = d.shape(min_dims=k, max_dims=k)
    s1 = d.shape(max_dims=2) + common
    s2 = common + d.shape(max_dims=2)
    x1 = d.array(dt, s1, label="x1")
    x2 = d.array(dt, s2, label="x2")
    out = _fn(name)(d.dev(x1), d.dev(x2), axes=k)
    n = math.prod(common)
    check(out, np.tensordot(x1, x2, axes=k), d.device, dtype=dt, scale=_scale(x1, x2) ** 2 * n)


@_prop("vecdot", "linalg.vecdot")
def _vecdot(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    k = d.draw(st.integers(1, 4), "k")
    shapes = d.draw(
        _reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=3), "batch"
    )
    x1 = d.array(dt, (*shapes.input_shapes[0], k), label="x1")
    x2 = d.array(dt, (*shapes.input_shapes[1], k), label="x2")
    out = _fn(name)(d.dev(x1), d.dev(x2))
    ref = _ref().vecdot(x1, x2)
    check(out, ref, d.device, dtype=dt, scale=_scale(x1, x2) ** 2 * k)


# ---------------------------------------------------------------------------------------------
# Manipulation functions


@_prop("broadcast_arrays", "broadcast_to", "broadcast_shapes")
def _broadcast(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shapes = d.draw(
        _reference_namespace().mutually_broadcastable_shapes(3, max_dims=3, max_side=3), "shapes"
    )
    xs = [d.array(dt, s, label=f"x{i}") for i, s in enumerate(shapes.input_shapes)]
    if name == "broadcast_arrays":
        out = ax.broadcast_arrays(*[d.dev(x) for x in xs])
        check_tuple(out, np.broadcast_arrays(*xs), d.device, dtype=dt)
    elif name == "broadcast_to":
        check(
            ax.broadcast_to(d.dev(xs[0]), shapes.result_shape),
            np.broadcast_to(xs[0], shapes.result_shape),
            d.device,
            dtype=dt,
        )
    else:
        got = ax.broadcast_shapes(*shapes.input_shapes)
        if tuple(got) != shapes.result_shape:
            raise AssertionError(f"broadcast_shapes: {got}, expected {shapes.result_shape}")


@_prop("concat", "stack")
def _concat(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    n = d.draw(st.integers(1, 3), "count")
    xs = [d.array(dt, shape, label=f"x{i}") for i in range(n)]
    if name == "concat":
        axis = d.draw(st.none() | st.integers(-len(shape), len(shape) - 1), "axis")
        check(
            ax.concat([d.dev(x) for x in xs], axis=axis),
            np.concatenate(xs, axis=axis),
            d.device,
            dtype=dt,
        )
        return
    saxis = d.draw(st.integers(-len(shape) - 1, len(shape)), "stack_axis")
    check(
        ax.stack([d.dev(x) for x in xs], axis=saxis), np.stack(xs, axis=saxis), d.device, dtype=dt
    )


@_prop("expand_dims", "squeeze")
def _expand_squeeze(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape()
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape) - 1, len(shape)), "axis")
    if name == "expand_dims":
        check(ax.expand_dims(d.dev(x), axis=axis), np.expand_dims(x, axis), d.device, dtype=dt)
    else:
        e = np.expand_dims(x, axis)
        check(ax.squeeze(d.dev(e), axis=axis), x, d.device, dtype=dt)


@_prop("flip")
def _flip(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape()
    x = d.array(dt, shape)
    axis = d.draw(
        st.none() | st.integers(-len(shape), len(shape) - 1) if shape else st.none(), "axis"
    )
    check(ax.flip(d.dev(x), axis=axis), np.flip(x, axis=axis), d.device, dtype=dt)


@_prop("moveaxis", "permute_dims")
def _permute(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    if name == "permute_dims":
        perm = d.draw(st.permutations(range(len(shape))), "axes")
        check(ax.permute_dims(d.dev(x), tuple(perm)), np.transpose(x, perm), d.device, dtype=dt)
        return
    src = d.draw(st.integers(-len(shape), len(shape) - 1), "source")
    dst = d.draw(st.integers(-len(shape), len(shape) - 1), "destination")
    check(ax.moveaxis(d.dev(x), src, dst), np.moveaxis(x, src, dst), d.device, dtype=dt)


@_prop("repeat")
def _repeat(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.none() | st.integers(-len(shape), len(shape) - 1), "axis")
    r = d.draw(st.integers(0, 3), "repeats")
    check(ax.repeat(d.dev(x), r, axis=axis), np.repeat(x, r, axis=axis), d.device, dtype=dt)


@_prop("reshape")
def _reshape(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape())
    new = d.draw(st.sampled_from([(x.size,), (-1,), (1, x.size), (x.size, 1, 1), (-1, 1)]), "shape")
    check(ax.reshape(d.dev(x), new), np.reshape(x, new), d.device, dtype=dt)


@_prop("roll")
def _roll(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    shift = d.draw(st.integers(-5, 5), "shift")
    axis = d.draw(st.none() | st.integers(-len(shape), len(shape) - 1), "axis")
    check(ax.roll(d.dev(x), shift, axis=axis), np.roll(x, shift, axis=axis), d.device, dtype=dt)


@_prop("tile")
def _tile(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(dt, d.shape())
    reps = tuple(d.draw(st.lists(st.integers(0, 3), min_size=0, max_size=3), "repetitions"))
    check(ax.tile(d.dev(x), reps), np.tile(x, reps), d.device, dtype=dt)


@_prop("unstack")
def _unstack(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    ref = [np.take(x, i, axis=axis) for i in range(shape[axis])]
    check_tuple(ax.unstack(d.dev(x), axis=axis), ref, d.device, dtype=dt)


# ---------------------------------------------------------------------------------------------
# Searching, sorting, set and utility functions


def _axis_kw(d: Draw, ndim: int, tuples: bool = False) -> dict[str, Any]:
    opts: Any = st.none() | st.integers(-ndim, ndim - 1) if ndim else st.none()
    if tuples and ndim:
        opts = opts | st.lists(
            st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim
        ).map(tuple)
    return {"axis": d.draw(opts, "axis"), "keepdims": d.draw(st.booleans(), "keepdims")}


@_prop("argmax", "argmin")
def _argminmax(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL)
    x = d.array(dt, d.shape())
    kw = _axis_kw(d, x.ndim)
    check(_fn(name)(d.dev(x), **kw), _reffn(name)(x, **kw), d.device, defaults=True)


@_prop("count_nonzero")
def _count_nonzero(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(
        dt,
        d.shape(),
        {"min_value": 0, "max_value": 2}
        if dt.kind != "bool" and dt.kind != "complex floating"
        else None,
    )
    kw = _axis_kw(d, x.ndim, tuples=True)
    check(ax.count_nonzero(d.dev(x), **kw), _ref().count_nonzero(x, **kw), d.device, defaults=True)


@_prop("nonzero")
def _nonzero(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(
        dt,
        d.shape(min_dims=1),
        {"min_value": 0, "max_value": 2} if dt.kind not in ("bool", "complex floating") else None,
    )
    check_tuple(ax.nonzero(d.dev(x)), np.nonzero(x), d.device, defaults=True)


@_prop("searchsorted")
def _searchsorted(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL)
    x1 = np.sort(d.array(dt, d.draw(st.integers(1, 6)), label="x1"))
    x2 = d.array(dt, d.shape(), label="x2")
    side = d.draw(st.sampled_from(["left", "right"]), "side")
    scalar = x1[0]  # a 0-d x2, every time
    check(
        ax.searchsorted(d.dev(x1), d.dev(scalar), side=side),
        np.searchsorted(x1, scalar, side=side),
        d.device,
        defaults=True,
    )
    check(
        ax.searchsorted(d.dev(x1), d.dev(x2), side=side),
        np.searchsorted(x1, x2, side=side),
        d.device,
        defaults=True,
    )


@_prop("where")
def _where(d: Draw, name: str) -> None:
    dt1 = d.dtype(_ALL_KINDS)
    dt2 = _partner_dtype(d, dt1, _ALL_KINDS)
    shapes = d.draw(
        _reference_namespace().mutually_broadcastable_shapes(3, max_dims=3, max_side=3), "shapes"
    )
    c = d.array(ax.bool, shapes.input_shapes[0], label="condition")
    x1 = d.array(dt1, shapes.input_shapes[1], label="x1")
    x2 = d.array(dt2, shapes.input_shapes[2], label="x2")
    p = PROMOTION_TABLE[dt1, dt2]
    ref = np.where(c, x1.astype(_np_dtype(p)), x2.astype(_np_dtype(p)))
    check(ax.where(d.dev(c), d.dev(x1), d.dev(x2)), ref, d.device, dtype=p)


@_prop("argsort", "sort")
def _sort(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL)
    shape = d.shape(min_dims=1)
    x = d.array(
        dt, shape, {"min_value": -3, "max_value": 3} if dt.kind != "real floating" else None
    )
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    descending = d.draw(st.booleans(), "descending")
    out = _fn(name)(d.dev(x), axis=axis, descending=descending, stable=True)
    ref = _reffn(name)(x, axis=axis, descending=descending, stable=True)
    check(out, ref, d.device, dtype=dt if name == "sort" else None, defaults=name == "argsort")


def _unique_input(d: Draw) -> tuple[DType, np.ndarray]:
    dt = d.dtype(_REAL)
    elements = (
        {"min_value": 0, "max_value": 4}
        if dt.kind != "real floating"
        else {"min_value": -2.0, "max_value": 2.0}
    )
    x = d.array(dt, d.shape(min_dims=1), elements)
    if dt.kind == "real floating":
        x = np.round(x).astype(x.dtype)
    return dt, x


@_prop("unique_values")
def _unique_values(d: Draw, name: str) -> None:
    dt, x = _unique_input(d)
    out = ax.unique_values(d.dev(x))
    got = ax.sort(out) if tuple(out.shape) == (len(np.unique(x)),) else out
    check(got, np.unique(x), d.device, dtype=dt)


@_prop("unique_counts")
def _unique_counts(d: Draw, name: str) -> None:
    dt, x = _unique_input(d)
    values, counts = ax.unique_counts(d.dev(x))
    v, c = ax.to_numpy(values, counts)
    order = np.argsort(v)
    rv, rc = np.unique(x, return_counts=True)
    check(
        values,
        rv[np.argsort(np.argsort(v))] if v.shape == rv.shape else rv,
        d.device,
        dtype=dt,
        what="values",
    )
    if not np.array_equal(c[order], rc):
        raise AssertionError(f"counts {c[order]}, expected {rc}")
    check(counts, rc[np.argsort(np.argsort(v))], d.device, defaults=True, what="counts")


@_prop("unique_inverse", "unique_all")
def _unique_inverse(d: Draw, name: str) -> None:
    _dt, x = _unique_input(d)
    res = _fn(name)(d.dev(x))
    values, inverse = res.values, res.inverse_indices
    v, inv = ax.to_numpy(values, inverse)
    if sorted(v.tolist()) != np.unique(x).tolist():
        raise AssertionError(f"values {v}, expected {np.unique(x)} in any order")
    if inv.shape != x.shape or not np.array_equal(v[inv], x):
        raise AssertionError(f"values[inverse_indices] != x: inverse_indices {inv}")
    check(inverse, inv, d.device, defaults=True, what="inverse_indices")
    if name == "unique_all":
        idx, counts = ax.to_numpy(res.indices, res.counts)
        if not np.array_equal(x.reshape(-1)[idx], v):
            raise AssertionError(f"x[indices] != values: indices {idx}")
        want = np.array([np.sum(x == val) for val in v])
        if not np.array_equal(counts, want):
            raise AssertionError(f"counts {counts}, expected {want}")


@_prop("isin")
def _isin(d: Draw, name: str) -> None:
    dt = d.dtype("integral")
    x1 = d.array(dt, d.shape(), {"min_value": 0, "max_value": 5}, label="x1")
    x2 = d.array(dt, d.shape(min_dims=1), {"min_value": 0, "max_value": 5}, label="x2")
    for invert in (False, True):
        check(
            ax.isin(d.dev(x1), d.dev(x2), invert=invert),
            np.isin(x1, x2, invert=invert),
            d.device,
            dtype=ax.bool,
        )


@_prop("all", "any")
def _all_any(d: Draw, name: str) -> None:
    dt = d.dtype(_ALL_KINDS)
    x = d.array(
        dt,
        d.shape(),
        {"min_value": 0, "max_value": 1} if dt.kind not in ("bool", "complex floating") else None,
    )
    kw = _axis_kw(d, x.ndim, tuples=True)
    check(_fn(name)(d.dev(x), **kw), _reffn(name)(x, **kw), d.device, dtype=ax.bool)


@_prop("diff")
def _diff(d: Draw, name: str) -> None:
    dt = d.dtype(_NUMERIC)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    n = d.draw(st.integers(0, 2), "n")
    check(
        ax.diff(d.dev(x), axis=axis, n=n),
        np.diff(x, axis=axis, n=n),
        d.device,
        dtype=dt,
        scale=_scale(x) * 4,
    )


# ---------------------------------------------------------------------------------------------
# Statistical functions


@_prop("sum", "prod")
def _sum_prod(d: Draw, name: str) -> None:
    dt = d.dtype(_NUMERIC)
    elements: dict[str, Any] | None = (
        {"min_value": 0, "max_value": 3}
        if dt.kind in ("signed integer", "unsigned integer") and name == "prod"
        else None
    )
    if name == "prod" and dt.kind == "real floating":
        elements = {"min_value": -3.0, "max_value": 3.0}
    if name == "prod" and dt.kind == "complex floating":
        elements = {"max_magnitude": 2.0}
    x = d.array(dt, d.shape(), elements)
    kw = _axis_kw(d, x.ndim, tuples=True)
    ref = _reffn(name)(x, **kw)
    out = _fn(name)(d.dev(x), **kw)
    scale = _scale(x) ** (1 if name == "sum" else x.size) * max(x.size, 1)
    check(
        out,
        ref,
        d.device,
        defaults=dt.kind in ("signed integer", "unsigned integer", "bool"),
        scale=min(scale, 1e6),
    )


@_prop("max", "min")
def _max_min(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL)
    x = d.array(dt, d.shape())
    kw = _axis_kw(d, x.ndim, tuples=True)
    check(_fn(name)(d.dev(x), **kw), _reffn(name)(x, **kw), d.device, dtype=dt)


@_prop("mean", "std", "var")
def _moments(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT if name != "mean" else _INEXACT)
    x = d.array(dt, d.shape())
    kw = _axis_kw(d, x.ndim, tuples=True)
    if name != "mean":
        kw["correction"] = d.draw(st.sampled_from([0, 1]), "correction")
    scale = _scale(x) ** (2 if name == "var" else 1) * max(x.size, 1)
    check(_fn(name)(d.dev(x), **kw), _reffn(name)(x, **kw), d.device, dtype=dt, scale=scale)


@_prop("cumulative_sum", "cumulative_prod")
def _cumulative(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    x = d.array(
        dt,
        d.shape(min_dims=1, max_dims=2),
        {"min_value": -2.0, "max_value": 2.0}
        if dt.kind == "real floating"
        else {"max_magnitude": 2.0},
    )
    axis = d.draw(st.integers(-x.ndim, x.ndim - 1), "axis") if x.ndim > 1 else None
    include_initial = d.draw(st.booleans(), "include_initial")
    out = _fn(name)(d.dev(x), axis=axis, include_initial=include_initial)
    ref = _reffn(name)(x, axis=axis, include_initial=include_initial)
    check(out, ref, d.device, dtype=dt, scale=2.0**x.size * x.size)


# ---------------------------------------------------------------------------------------------
# The linalg extension


def _matrix(
    d: Draw, dt: DType, batch: bool = True, n: int | None = None, kind: str = "general"
) -> np.ndarray:
    n = d.draw(st.integers(1, 4), "n") if n is None else n
    b = d.shape(max_dims=1, max_side=2) if batch else ()
    a = d.array(dt, (*b, n, n), {"min_value": -1.0, "max_value": 1.0}, label="A")
    eye = np.eye(n, dtype=a.dtype)
    if kind == "spd":
        return np.asarray(a @ np.swapaxes(a, -1, -2) + n * eye, dtype=a.dtype)
    if kind == "symmetric":
        return np.asarray(a + np.swapaxes(a, -1, -2), dtype=a.dtype)
    if kind == "invertible":
        return np.asarray(a + 2 * n * eye, dtype=a.dtype)
    return a


def _la_check(out: Any, ref: Any, d: Draw, dt: DType, scale: float = 10.0, **kw: Any) -> None:
    check(out, ref, d.device, dtype=dt, ulps=256, scale=scale, **kw)


@_prop("linalg.cholesky")
def _cholesky(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    a = _matrix(d, dt, kind="spd")
    upper = d.draw(st.booleans(), "upper")
    ref = np.linalg.cholesky(a.astype(np.float64))
    if upper:
        ref = np.swapaxes(ref, -1, -2)
    _la_check(ax.linalg.cholesky(d.dev(a), upper=upper), ref, d, dt)


@_prop("linalg.det", "linalg.slogdet")
def _det(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    a = _matrix(d, dt, kind="invertible")
    a64 = a.astype(np.float64)
    if name == "linalg.det":
        _la_check(
            ax.linalg.det(d.dev(a)),
            np.linalg.det(a64),
            d,
            dt,
            scale=abs(float(np.max(np.abs(np.linalg.det(a64))))) + 1,
        )
        return
    sign, logabs = ax.linalg.slogdet(d.dev(a))
    rs, rl = np.linalg.slogdet(a64)
    _la_check(sign, rs, d, dt, what="sign")
    _la_check(logabs, rl, d, dt, what="logabsdet")


@_prop("linalg.inv", "linalg.solve", "linalg.matrix_power")
def _inv_solve(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    a = _matrix(d, dt, kind="invertible")
    a64 = a.astype(np.float64)
    if name == "linalg.inv":
        _la_check(ax.linalg.inv(d.dev(a)), np.linalg.inv(a64), d, dt, what="inv")
        return
    if name == "linalg.solve":
        b = d.array(
            dt,
            (*a.shape[:-1], d.draw(st.integers(1, 3), "nrhs")),
            {"min_value": -1.0, "max_value": 1.0},
            label="B",
        )
        _la_check(
            ax.linalg.solve(d.dev(a), d.dev(b)),
            np.linalg.solve(a64, b.astype(np.float64)),
            d,
            dt,
            what="solve",
        )
        return
    p = d.draw(st.integers(-1, 3), "power")
    ref = np.linalg.matrix_power(a64, p)
    _la_check(
        ax.linalg.matrix_power(d.dev(a), p),
        ref,
        d,
        dt,
        scale=float(np.max(np.abs(ref))) + 1,
        what="matrix_power",
    )


@_prop("linalg.eigh", "linalg.eigvalsh")
def _eigh(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    a = _matrix(d, dt, kind="symmetric")
    w_ref = np.linalg.eigvalsh(a.astype(np.float64))
    if name == "linalg.eigvalsh":
        _la_check(ax.linalg.eigvalsh(d.dev(a)), w_ref, d, dt, what="eigvalsh")
        return
    w, v = ax.linalg.eigh(d.dev(a))
    _la_check(w, w_ref, d, dt, what="eigenvalues")
    wn, vn = ax.to_numpy(w, v)
    recon = (vn * wn[..., None, :]) @ np.swapaxes(vn, -1, -2)
    assert_close(recon, a, rtol=1e-3, atol=1e-3, check_dtype=False)


@_prop("linalg.eig", "linalg.eigvals")
def _eig(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    a = _matrix(d, dt, batch=False, kind="symmetric")
    cdt = ax.complex64 if dt is ax.float32 else ax.complex128
    if name == "linalg.eig":
        vals, vecs = ax.linalg.eig(d.dev(a))
        vn, vv = ax.to_numpy(vals, vecs)
        assert_close(
            a.astype(vv.dtype) @ vv, vv * vn[None, :], rtol=1e-3, atol=1e-3, check_dtype=False
        )
        return
    w = ax.linalg.eigvals(d.dev(a))
    if w.dtype != cdt or tuple(w.shape) != a.shape[:-1]:
        raise AssertionError(f"eigvals: {w.shape} {w.dtype}, expected {a.shape[:-1]} {cdt}")
    wn = np.sort_complex(np.asarray(ax.to_numpy(w)).astype(np.complex128))
    ref = np.sort_complex(np.linalg.eigvals(a.astype(np.float64)))
    assert_close(wn, ref, rtol=1e-3, atol=1e-3, check_dtype=False)


@_prop("linalg.svd", "linalg.svdvals", "linalg.matrix_rank", "linalg.pinv")
def _svd(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    m, n = d.draw(st.integers(1, 4), "m"), d.draw(st.integers(1, 4), "n")
    a = d.array(dt, (m, n), {"min_value": -3.0, "max_value": 3.0}, label="A")
    a = np.round(a).astype(a.dtype)  # integer-valued: ranks are clear-cut
    a64 = a.astype(np.float64)
    s_ref = np.linalg.svd(a64, compute_uv=False)
    if name == "linalg.svdvals":
        _la_check(ax.linalg.svdvals(d.dev(a)), s_ref, d, dt, what="svdvals", scale=10)
        return
    if name == "linalg.matrix_rank":
        check(ax.linalg.matrix_rank(d.dev(a)), np.linalg.matrix_rank(a64), d.device, defaults=True)
        return
    if name == "linalg.pinv":
        if s_ref.min() > 0.1:
            _la_check(ax.linalg.pinv(d.dev(a)), np.linalg.pinv(a64), d, dt, scale=100, what="pinv")
        return
    u, s, vh = ax.linalg.svd(d.dev(a), full_matrices=False)
    _la_check(s, s_ref, d, dt, what="S")
    un, sn, vhn = ax.to_numpy(u, s, vh)
    assert_close((un * sn[None, :]) @ vhn, a, rtol=1e-3, atol=1e-3, check_dtype=False)


@_prop("linalg.qr")
def _qr(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    m, n = d.draw(st.integers(1, 4), "m"), d.draw(st.integers(1, 4), "n")
    a = d.array(dt, (m, n), {"min_value": -1.0, "max_value": 1.0}, label="A")
    q, r = ax.linalg.qr(d.dev(a))
    k = min(m, n)
    if tuple(q.shape) != (m, k) or tuple(r.shape) != (k, n) or q.dtype != dt:
        raise AssertionError(f"qr: Q {q.shape} R {r.shape} {q.dtype}")
    qn, rn = ax.to_numpy(q, r)
    assert_close(qn @ rn, a, rtol=1e-3, atol=1e-3, check_dtype=False)
    assert_close(np.triu(rn), rn, check_dtype=False)


@_prop("linalg.cross")
def _cross(d: Draw, name: str) -> None:
    dt = d.dtype(_REAL if False else ("real floating", "signed integer"))
    shapes = d.draw(
        _reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=2), "batch"
    )
    e = {"min_value": -10, "max_value": 10} if dt.kind != "real floating" else None
    x1 = d.array(dt, (*shapes.input_shapes[0], 3), e, label="x1")
    x2 = d.array(dt, (*shapes.input_shapes[1], 3), e, label="x2")
    check(
        ax.linalg.cross(d.dev(x1), d.dev(x2)),
        np.cross(x1, x2),
        d.device,
        dtype=dt,
        scale=_scale(x1, x2) ** 2,
    )


@_prop("linalg.diagonal", "linalg.trace")
def _diagonal(d: Draw, name: str) -> None:
    dt = d.dtype(_NUMERIC)
    x = d.array(
        dt,
        d.shape(min_dims=2),
        {"min_value": -10, "max_value": 10} if dt.kind == "signed integer" else None,
    )
    offset = d.draw(st.integers(-2, 2), "offset")
    if name == "linalg.diagonal":
        check(
            ax.linalg.diagonal(d.dev(x), offset=offset),
            np.diagonal(x, offset, -2, -1),
            d.device,
            dtype=dt,
        )
        return
    ref = _ref().linalg.trace(x, offset=offset)
    check(
        ax.linalg.trace(d.dev(x), offset=offset),
        ref,
        d.device,
        defaults=dt.kind in ("signed integer", "unsigned integer"),
        scale=_scale(x) * 4,
    )


@_prop("linalg.outer")
def _outer(d: Draw, name: str) -> None:
    dt = d.dtype(_NUMERIC)
    e = (
        {"min_value": 0, "max_value": 10}
        if dt.kind in ("signed integer", "unsigned integer")
        else None
    )
    x1 = d.array(dt, d.draw(st.integers(1, 4)), e, label="x1")
    x2 = d.array(dt, d.draw(st.integers(1, 4)), e, label="x2")
    check(
        ax.linalg.outer(d.dev(x1), d.dev(x2)),
        np.outer(x1, x2),
        d.device,
        dtype=dt,
        scale=_scale(x1, x2) ** 2,
    )


@_prop("linalg.matrix_norm")
def _matrix_norm(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    x = d.array(dt, d.shape(min_dims=2, max_dims=3), {"min_value": -10.0, "max_value": 10.0})
    ord_ = d.draw(st.sampled_from(["fro", "nuc", 1, -1, 2, -2, _INF, -_INF]), "ord")
    keepdims = d.draw(st.booleans(), "keepdims")
    ref = _ref().linalg.matrix_norm(x.astype(np.float64), ord=ord_, keepdims=keepdims)
    _la_check(
        ax.linalg.matrix_norm(d.dev(x), ord=ord_, keepdims=keepdims),
        ref,
        d,
        dt,
        scale=_scale(x) * 16,
    )


@_prop("linalg.vector_norm")
def _vector_norm(d: Draw, name: str) -> None:
    dt = d.dtype(_FLOAT)
    x = d.array(dt, d.shape(), {"min_value": -10.0, "max_value": 10.0})
    kw = _axis_kw(d, x.ndim, tuples=True)
    ord_ = d.draw(st.sampled_from([2, 1, 3, _INF, -_INF, 0]), "ord")
    ref = _ref().linalg.vector_norm(x.astype(np.float64), ord=ord_, **kw)
    _la_check(
        ax.linalg.vector_norm(d.dev(x), ord=ord_, **kw),
        ref,
        d,
        dt,
        scale=_scale(x) * max(x.size, 1),
    )


# ---------------------------------------------------------------------------------------------
# The fft extension

_FFT_COMPLEX = ("fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn", "fft.hfft")
_FFT_REAL = ("fft.rfft", "fft.rfftn", "fft.ihfft")


def _fft_case(d: Draw, name: str) -> None:
    real_in = name in _FFT_REAL
    dt = d.dtype("real floating" if real_in else "complex floating")
    nd = name.endswith("n")
    shape = d.shape(min_dims=1, max_dims=3 if nd else 2, min_side=2)
    x = d.array(
        dt, shape, {"min_value": -1.0, "max_value": 1.0} if real_in else {"max_magnitude": 1.0}
    )
    norm = d.draw(st.sampled_from(["backward", "ortho", "forward"]), "norm")
    kw: dict[str, Any] = {"norm": norm}
    if nd:
        if d.draw(st.booleans(), "with_axes"):
            kw["axes"] = tuple(
                d.draw(
                    st.lists(st.integers(0, x.ndim - 1), unique=True, min_size=1, max_size=x.ndim),
                    "axes",
                )
            )
    else:
        kw["axis"] = d.draw(st.integers(-x.ndim, x.ndim - 1), "axis")
        if d.draw(st.booleans(), "with_n"):
            kw["n"] = d.draw(st.integers(2, 6), "n")
    wide = x.astype(np.complex128 if dt.kind == "complex floating" else np.float64)
    ref = _reffn(name)(wide, **kw)
    out_dt = (ax.complex64 if dt is ax.float32 else ax.complex128) if real_in else dt
    if name == "fft.hfft":
        out_dt = ax.float32 if dt is ax.complex64 else ax.float64
    check(
        _fn(name)(d.dev(x), **kw),
        ref,
        d.device,
        dtype=out_dt,
        ulps=64,
        scale=float(max(x.size, 1)) * 4,
    )


def _fft_property(name: str) -> PropertyFn:
    def prop(d: Draw, name: str) -> None:
        _fft_case(d, name)

    return prop


for _n in (*_FFT_COMPLEX, *_FFT_REAL):
    PROPERTIES[_n] = _fft_property(_n)


@_prop("fft.irfft", "fft.irfftn")
def _irfft(d: Draw, name: str) -> None:
    dt = d.dtype("complex floating")
    shape = d.shape(min_dims=1, max_dims=2, min_side=2)
    x = d.array(dt, shape, {"max_magnitude": 1.0})
    norm = d.draw(st.sampled_from(["backward", "ortho", "forward"]), "norm")
    ref = _reffn(name)(x.astype(np.complex128), norm=norm)
    out_dt = ax.float32 if dt is ax.complex64 else ax.float64
    check(
        _fn(name)(d.dev(x), norm=norm),
        ref,
        d.device,
        dtype=out_dt,
        ulps=64,
        scale=float(x.size) * 4,
    )


@_prop("fft.fftshift", "fft.ifftshift")
def _fftshift(d: Draw, name: str) -> None:
    dt = d.dtype(_INEXACT)
    x = d.array(dt, d.shape(min_dims=1))
    check(_fn(name)(d.dev(x)), _reffn(name)(x), d.device, dtype=dt)


@_prop("fft.fftfreq", "fft.rfftfreq")
def _fftfreq(d: Draw, name: str) -> None:
    n = d.draw(st.integers(1, 10), "n")
    spacing = d.draw(st.sampled_from([1.0, 0.5, 2.0]), "d")
    check(
        _fn(name)(n, d=spacing, device=d.device),
        _reffn(name)(n, d=spacing),
        d.device,
        defaults=True,
    )


# ---------------------------------------------------------------------------------------------
# Running


def functions(section: str | None = None) -> list[str]:
    """The standard's function names (of one section of the function table), in its order."""
    return [e.name for e in TABLE if section is None or e.section == section]


def is_supported(name: str, device: Device) -> bool:
    if BY_NAME[name].rule == "local":
        return True
    fn = device._backend.resolve(name)
    return not getattr(fn, "__qualname__", "").startswith("_missing.")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    # Floating-point warnings of the backends (divide by zero, invalid value) are expected here.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def run_property(
    name: str,
    device: Device | str,
    *,
    max_examples: int | None = None,
    profile: str | None = None,
) -> None:
    """Run the property of ``name`` on ``device``.

    Uses the hypothesis settings profile ``profile`` (default: the current one), with
    ``max_examples`` overriding its count.

    Raises
    ------
    Unsupported
        The backend has no such function.
    AssertionError (or the error the function raised)
        A draw broke the property; hypothesis's notes on the exception give the falsifying
        example.
    """
    dev = Device(device)
    if name not in PROPERTIES:
        raise KeyError(f"no property for {name!r}")
    if not is_supported(name, dev):
        raise Unsupported(f"{name} is not provided by the {dev.backend} backend")
    prop = PROPERTIES[name]
    if BY_NAME[name].section == "elementwise_functions":
        with _quiet():
            check_special_cases(name, dev)

    overrides: dict[str, Any] = {
        "deadline": None,
        "database": None,
        "suppress_health_check": list(HealthCheck),
    }
    if max_examples is not None:
        overrides["max_examples"] = max_examples

    parent = settings.get_profile(profile) if profile is not None else settings.default

    @settings(parent, **overrides)
    @given(data=st.data())
    def test(data: Any) -> None:
        with _quiet():
            prop(Draw(dev, data, name), name)

    test.__name__ = test.__qualname__ = f"{name.replace('.', '_')}_on_{str(dev).replace(':', '_')}"
    try:
        test()
    except NotImplementedError as e:
        raise Unsupported(str(e)) from e
