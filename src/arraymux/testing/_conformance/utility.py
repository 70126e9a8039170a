"""Properties of the utility functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import _ALL_KINDS, _NUMERIC, Draw, _axis_kw, _fn, _prop, _reffn, _scale, check


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
