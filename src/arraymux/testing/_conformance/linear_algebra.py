"""Properties of the linear algebra functions of the main namespace."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ..._dtypes import PROMOTION_TABLE
from .._hypothesis import reference_namespace
from ._core import (
    ALL_KINDS,
    NUMERIC,
    Draw,
    check,
    fn_of,
    numpy_dtype,
    reference_ns,
    register,
    scale_of,
)
from .elementwise import partner_dtype

# ---------------------------------------------------------------------------------------------
# Linear algebra


def _matmul_shapes(d: Draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n, k, m = (d.draw(st.integers(1, 4)) for _ in range(3))
    batch = d.draw(
        reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=3), "batch"
    )
    s1 = (k,) if d.draw(st.booleans(), "x1_vector") else (*batch.input_shapes[0], n, k)
    s2 = (k,) if d.draw(st.booleans(), "x2_vector") else (*batch.input_shapes[1], k, m)
    return s1, s2


@register("matmul", "linalg.matmul")
def _matmul(d: Draw, name: str) -> None:
    dt1 = d.dtype(NUMERIC)
    dt2 = partner_dtype(d, dt1, NUMERIC)
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
    out = fn_of(name)(d.dev(x1), d.dev(x2))
    ref = np.matmul(x1.astype(numpy_dtype(p)), x2.astype(numpy_dtype(p)))
    check(out, ref, d.device, dtype=p, scale=scale_of(x1, x2) ** 2 * s1[-1])


@register("matrix_transpose", "linalg.matrix_transpose")
def _matrix_transpose(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(min_dims=2))
    check(fn_of(name)(d.dev(x)), np.swapaxes(x, -1, -2), d.device, dtype=dt)


@register("tensordot", "linalg.tensordot")
def _tensordot(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    k = d.draw(st.integers(0, 2), "axes")
    common = d.shape(min_dims=k, max_dims=k)
    s1 = d.shape(max_dims=2) + common
    s2 = common + d.shape(max_dims=2)
    x1 = d.array(dt, s1, label="x1")
    x2 = d.array(dt, s2, label="x2")
    out = fn_of(name)(d.dev(x1), d.dev(x2), axes=k)
    n = math.prod(common)
    check(out, np.tensordot(x1, x2, axes=k), d.device, dtype=dt, scale=scale_of(x1, x2) ** 2 * n)


@register("vecdot", "linalg.vecdot")
def _vecdot(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    k = d.draw(st.integers(1, 4), "k")
    shapes = d.draw(
        reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=3), "batch"
    )
    x1 = d.array(dt, (*shapes.input_shapes[0], k), label="x1")
    x2 = d.array(dt, (*shapes.input_shapes[1], k), label="x2")
    out = fn_of(name)(d.dev(x1), d.dev(x2))
    ref = reference_ns().vecdot(x1, x2)
    check(out, ref, d.device, dtype=dt, scale=scale_of(x1, x2) ** 2 * k)
