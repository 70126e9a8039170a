"""Properties of the utility functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import (
    ALL_KINDS,
    NUMERIC,
    Draw,
    axis_kwargs,
    check,
    fn_of,
    reference_fn,
    register,
    scale_of,
)


@register("all", "any")
def _all_any(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(
        dt,
        d.shape(),
        {"min_value": 0, "max_value": 1} if dt.kind not in ("bool", "complex floating") else None,
    )
    kw = axis_kwargs(d, x.ndim, tuples=True)
    check(fn_of(name)(d.dev(x), **kw), reference_fn(name)(x, **kw), d.device, dtype=ax.bool)


@register("diff")
def _diff(d: Draw, name: str) -> None:
    dt = d.dtype(NUMERIC)
    shape = d.shape(min_dims=1)
    x = d.array(dt, shape)
    axis = d.draw(st.integers(-len(shape), len(shape) - 1), "axis")
    n = d.draw(st.integers(0, 2), "n")
    check(
        ax.diff(d.dev(x), axis=axis, n=n),
        np.diff(x, axis=axis, n=n),
        d.device,
        dtype=dt,
        scale=scale_of(x) * 4,
    )
