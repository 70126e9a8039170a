"""Properties of the set functions."""

from __future__ import annotations

import numpy as np

import arraymux as ax

from ..._dtypes import DType
from ._core import REAL, Draw, check, fn_of, register


def _unique_input(d: Draw) -> tuple[DType, np.ndarray]:
    dt = d.dtype(REAL)
    elements = (
        {"min_value": 0, "max_value": 4}
        if dt.kind != "real floating"
        else {"min_value": -2.0, "max_value": 2.0}
    )
    x = d.array(dt, d.shape(min_dims=1), elements)
    if dt.kind == "real floating":
        x = np.round(x).astype(x.dtype)
    return dt, x


@register("unique_values")
def _unique_values(d: Draw, name: str) -> None:
    dt, x = _unique_input(d)
    out = ax.unique_values(d.dev(x))
    got = ax.sort(out) if tuple(out.shape) == (len(np.unique(x)),) else out
    check(got, np.unique(x), d.device, dtype=dt)


@register("unique_counts")
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


@register("unique_inverse", "unique_all")
def _unique_inverse(d: Draw, name: str) -> None:
    _dt, x = _unique_input(d)
    res = fn_of(name)(d.dev(x))
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


@register("isin")
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
