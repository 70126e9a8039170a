"""Properties of the searching functions."""

from __future__ import annotations

from typing import Literal

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._dtypes import PROMOTION_TABLE
from .._hypothesis import reference_namespace
from ._core import (
    ALL_KINDS,
    REAL,
    Draw,
    axis_kwargs,
    check,
    check_reduction,
    check_tuple,
    numpy_dtype,
    reference_ns,
    register,
    small_nonnegative,
)
from .elementwise import partner_dtype


@register("argmax", "argmin")
def _argminmax(d: Draw, name: str) -> None:
    dt = d.dtype(REAL)
    x = d.array(dt, d.shape())
    check_reduction(d, name, x, tuples=False, defaults=True)


@register("count_nonzero")
def _count_nonzero(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(), small_nonnegative(dt, 2))
    kw = axis_kwargs(d, x.ndim, tuples=True)
    check(
        ax.count_nonzero(d.dev(x), **kw),
        reference_ns().count_nonzero(x, **kw),
        d.device,
        defaults=True,
    )


@register("nonzero")
def _nonzero(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(min_dims=1), small_nonnegative(dt, 2))
    check_tuple(ax.nonzero(d.dev(x)), np.nonzero(x), d.device, defaults=True)


_SIDES: tuple[Literal["left", "right"], ...] = ("left", "right")


@register("searchsorted")
def _searchsorted(d: Draw, name: str) -> None:
    dt = d.dtype(REAL)
    x1 = np.sort(d.array(dt, d.draw(st.integers(1, 6)), label="x1"))
    x2 = d.array(dt, d.shape(), label="x2")
    side = d.draw(st.sampled_from(_SIDES), "side")
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


@register("where")
def _where(d: Draw, name: str) -> None:
    dt1 = d.dtype(ALL_KINDS)
    dt2 = partner_dtype(d, dt1, ALL_KINDS)
    shapes = d.draw(
        reference_namespace().mutually_broadcastable_shapes(3, max_dims=3, max_side=3), "shapes"
    )
    c = d.array(ax.bool, shapes.input_shapes[0], label="condition")
    x1 = d.array(dt1, shapes.input_shapes[1], label="x1")
    x2 = d.array(dt2, shapes.input_shapes[2], label="x2")
    p = PROMOTION_TABLE[dt1, dt2]
    ref = np.where(c, x1.astype(numpy_dtype(p)), x2.astype(numpy_dtype(p)))
    check(ax.where(d.dev(c), d.dev(x1), d.dev(x2)), ref, d.device, dtype=p)
