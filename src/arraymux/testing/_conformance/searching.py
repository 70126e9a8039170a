"""Properties of the searching functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._dtypes import PROMOTION_TABLE
from ..strategies import _reference_namespace
from ._core import (
    _ALL_KINDS,
    _REAL,
    Draw,
    _axis_kw,
    _fn,
    _np_dtype,
    _prop,
    _ref,
    _reffn,
    check,
    check_tuple,
)
from .elementwise import _partner_dtype


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
