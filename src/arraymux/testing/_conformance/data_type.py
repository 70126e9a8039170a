"""Properties of the data type functions."""

from __future__ import annotations

from typing import Any

import numpy as np

import arraymux as ax

from ..._dtypes import PROMOTION_TABLE, DType
from ._core import ALL_KINDS, Draw, check, numpy_dtype, register

# ---------------------------------------------------------------------------------------------
# Data type functions


def _castable(src: DType, dst: DType) -> bool:
    return not (src.kind == "complex floating" and dst.kind != "complex floating")


@register("astype")
def _astype(d: Draw, name: str) -> None:
    src = d.dtype(ALL_KINDS)
    dst = d.dtype(ALL_KINDS)
    if not _castable(src, dst):
        dst = src
    elements: dict[str, object] | None = None
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
    check(out, x.astype(numpy_dtype(dst)), d.device, dtype=dst)


@register("can_cast", "result_type", "isdtype")
def _dtype_rules(d: Draw, name: str) -> None:
    a = d.dtype(ALL_KINDS)
    b = d.dtype(ALL_KINDS)
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
        want_kind = bool(np.isdtype(numpy_dtype(a), kind))
        if got != want_kind:
            raise AssertionError(f"isdtype({a}, {kind!r}) = {got}, expected {want_kind}")


@register("finfo", "iinfo")
def _info(d: Draw, name: str) -> None:
    # Every dtype of the kind, every time: a deviation here is deterministic.
    kinds = ("real floating", "complex floating") if name == "finfo" else "integral"
    for dt in ax.__array_namespace_info__().dtypes(device=d.device, kind=kinds).values():
        x = d.dev(np.zeros(1, dtype=numpy_dtype(dt)))
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
