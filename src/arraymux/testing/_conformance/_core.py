"""The machinery of the conformance properties: drawing arrays on a device, checking results
against NumPy, and the registry that maps each function of the standard to its property.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Literal, TypeVar, cast

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._devices import Device
from ..._dtypes import DType
from .. import assert_close
from .._deviations import excluded_dtypes
from .._hypothesis import reference_namespace

__all__ = [
    "ALL_KINDS",
    "FLOAT",
    "INEXACT",
    "INF",
    "INT_BOOL",
    "NAN",
    "NUMERIC",
    "PROPERTIES",
    "REAL",
    "Unsupported",
    "axis_kwargs",
    "epsilon_of",
    "fn_of",
    "numpy_dtype",
    "reference_fn",
    "reference_ns",
    "register",
    "scale_of",
    "small_nonnegative",
]

INF = math.inf
NAN = math.nan


class Unsupported(Exception):
    """The backend does not provide the function."""


def reference_ns() -> Any:
    import array_api_compat.numpy as rnp

    return rnp


# ---------------------------------------------------------------------------------------------
# Drawing and checking


_T = TypeVar("_T")


class Draw:
    """What a property gets: the device, the hypothesis data object and drawing helpers."""

    def __init__(self, device: Device, data: st.DataObject, function: str = "") -> None:
        self.device = device
        self.data = data
        self.excluded = excluded_dtypes(function, str(device))

    def draw(self, strategy: st.SearchStrategy[_T], label: str | None = None) -> _T:
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
        s = reference_namespace().array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
        return self.draw(s, "shape")

    def axis(self, ndim: int, label: str = "axis") -> int:
        """An axis of an array of ``ndim >= 1`` dimensions, negative ones included."""
        return self.draw(st.integers(-ndim, ndim - 1), label)

    def axis_or_none(self, ndim: int, label: str = "axis") -> int | None:
        """An axis of an array of ``ndim`` dimensions, negative ones included, or None (the
        only choice where ``ndim`` is 0)."""
        axes = st.none() | st.integers(-ndim, ndim - 1) if ndim else st.none()
        return self.draw(axes, label)

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
        s = reference_namespace().arrays(np.dtype(dtype.name), shape, elements=kw, unique=unique)
        return np.asarray(self.draw(s, label))

    def operand(
        self, kinds: str | tuple[str, ...], min_dims: int = 0
    ) -> tuple[DType, tuple[int, ...], np.ndarray]:
        """``(dtype, shape, x)``: a dtype of ``kinds``, a shape of at least ``min_dims``
        dimensions and a reference array of both, drawn in that order."""
        dt = self.dtype(kinds)
        shape = self.shape(min_dims=min_dims)
        return dt, shape, self.array(dt, shape)

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
            min_magnitude=kw.get("min_magnitude", 0),
            max_magnitude=kw["max_magnitude"],
            allow_nan=False,
            allow_infinity=False,
            allow_subnormal=False,
            width=cast("Literal[64, 128]", dtype.bits),  # the bits of a complex dtype
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


def numpy_dtype(dt: DType) -> np.dtype:
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


def epsilon_of(dt: DType | str) -> float:
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
    eps = epsilon_of(want)
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


def small_nonnegative(dt: DType, top: int) -> dict[str, Any] | None:
    """Element bounds ``0..top`` for an integer or real floating ``dt``, so that zeros come
    often; None (the default draw) for a bool or complex one."""
    if dt.kind in ("bool", "complex floating"):
        return None
    return {"min_value": 0, "max_value": top}


def scale_of(*arrays: np.ndarray) -> float:
    m = 1.0
    for a in arrays:
        if a.size and a.dtype.kind in "fc":
            m = max(m, float(np.max(np.abs(a))))
    return m


# ---------------------------------------------------------------------------------------------
# Registry

PropertyFn = Callable[[Draw, str], None]
PROPERTIES: dict[str, PropertyFn] = {}


def register(*names: str) -> Callable[[PropertyFn], PropertyFn]:
    def deco(fn: PropertyFn) -> PropertyFn:
        for n in names:
            PROPERTIES[n] = fn
        return fn

    return deco


def fn_of(name: str) -> Any:
    """arraymux's function ``name`` (``"linalg.qr"`` for the extensions' functions)."""
    return attrgetter(name)(ax)


def reference_fn(name: str) -> Any:
    obj: Any = reference_ns()
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


# Shared by several sections


def check_reduction(d: Draw, name: str, x: np.ndarray, tuples: bool = True, **options: Any) -> None:
    """``name`` over a drawn ``axis`` (a tuple of axes too, with ``tuples``) and ``keepdims``
    of ``x`` on the device, checked against the reference (``options`` go to :func:`check`)."""
    kw = axis_kwargs(d, x.ndim, tuples=tuples)
    check(fn_of(name)(d.dev(x), **kw), reference_fn(name)(x, **kw), d.device, **options)


def axis_kwargs(d: Draw, ndim: int, tuples: bool = False) -> dict[str, Any]:
    opts: Any = st.none() | st.integers(-ndim, ndim - 1) if ndim else st.none()
    if tuples and ndim:
        opts = opts | st.lists(
            st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim
        ).map(tuple)
    kw = {"axis": d.draw(opts, "axis"), "keepdims": d.draw(st.booleans(), "keepdims")}
    if d.draw(st.booleans(), "defaults left out"):
        # A keyword at its default is also left out: the function's own default must be the
        # standard's (a NumPy ufunc's reduce, for one, takes axis 0 where None is not passed).
        kw = {k: v for k, v in kw.items() if v is not None and v is not False}
    return kw


# Dtype kinds the properties draw from.
FLOAT = "real floating"
REAL = ("integral", "real floating")
NUMERIC = "numeric"
INEXACT = ("real floating", "complex floating")
INT_BOOL = ("integral", "bool")
ALL_KINDS = ("bool", "numeric")
