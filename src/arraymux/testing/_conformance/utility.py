"""Properties of the utility functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import (
    ALL_KINDS,
    NUMERIC,
    Draw,
    check,
    check_reduction,
    register,
    scale_of,
    small_nonnegative,
)


@register("all", "any")
def _all_any(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(), small_nonnegative(dt, 1))
    check_reduction(d, name, x, dtype=ax.bool)


@register("diff")
def _diff(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(NUMERIC, min_dims=1)
    axis = d.axis(len(shape))
    n = d.draw(st.integers(0, 2), "n")
    check(
        ax.diff(d.dev(x), axis=axis, n=n),
        np.diff(x, axis=axis, n=n),
        d.device,
        dtype=dt,
        scale=scale_of(x) * 4,
    )
