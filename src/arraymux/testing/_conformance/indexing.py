"""Properties of the indexing functions."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import ALL_KINDS, Draw, check, register

# ---------------------------------------------------------------------------------------------
# Indexing functions


@register("take")
def _take(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    axis = d.axis(len(shape))
    n = shape[axis]
    idx: Any = np.asarray(
        d.draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=5), "indices"),
        dtype=np.int64 if d.device.supports(ax.int64) else np.int32,
    )
    if len(shape) == 1 and d.draw(st.booleans(), "no_axis"):
        check(ax.take(d.dev(x), d.dev(idx)), np.take(x, idx), d.device, dtype=dt)
        return
    check(ax.take(d.dev(x), d.dev(idx), axis=axis), np.take(x, idx, axis=axis), d.device, dtype=dt)


@register("take_along_axis")
def _take_along_axis(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    axis = d.axis(len(shape))
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
