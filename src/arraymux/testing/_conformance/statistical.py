"""Properties of the statistical functions."""

from __future__ import annotations

from hypothesis import strategies as st

from ._core import (
    FLOAT,
    INEXACT,
    NUMERIC,
    REAL,
    Draw,
    axis_kwargs,
    check,
    check_reduction,
    fn_of,
    reference_fn,
    register,
    scale_of,
)

# ---------------------------------------------------------------------------------------------
# Statistical functions


@register("sum", "prod")
def _sum_prod(d: Draw, name: str) -> None:
    dt = d.dtype(NUMERIC)
    elements: dict[str, object] | None = (
        {"min_value": 0, "max_value": 3}
        if dt.kind in ("signed integer", "unsigned integer") and name == "prod"
        else None
    )
    if name == "prod" and dt.kind == "real floating":
        elements = {"min_value": -3.0, "max_value": 3.0}
    if name == "prod" and dt.kind == "complex floating":
        elements = {"max_magnitude": 2.0}
    x = d.array(dt, d.shape(), elements)
    scale = scale_of(x) ** (1 if name == "sum" else x.size) * max(x.size, 1)
    check_reduction(
        d,
        name,
        x,
        defaults=dt.kind in ("signed integer", "unsigned integer", "bool"),
        scale=min(scale, 1e6),
    )


@register("max", "min")
def _max_min(d: Draw, name: str) -> None:
    dt = d.dtype(REAL)
    check_reduction(d, name, d.array(dt, d.shape()), dtype=dt)


@register("mean", "std", "var")
def _moments(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT if name != "mean" else INEXACT)
    x = d.array(dt, d.shape())
    kw = axis_kwargs(d, x.ndim, tuples=True)
    if name != "mean":
        kw["correction"] = d.draw(st.sampled_from([0, 1]), "correction")
    scale = scale_of(x) ** (2 if name == "var" else 1) * max(x.size, 1)
    check(fn_of(name)(d.dev(x), **kw), reference_fn(name)(x, **kw), d.device, dtype=dt, scale=scale)


@register("cumulative_sum", "cumulative_prod")
def _cumulative(d: Draw, name: str) -> None:
    dt = d.dtype(("real floating", "complex floating"))
    x = d.array(
        dt,
        d.shape(min_dims=1, max_dims=2),
        {"min_value": -2.0, "max_value": 2.0}
        if dt.kind == "real floating"
        else {"max_magnitude": 2.0},
    )
    axis = d.axis(x.ndim) if x.ndim > 1 else None
    include_initial = d.draw(st.booleans(), "include_initial")
    out = fn_of(name)(d.dev(x), axis=axis, include_initial=include_initial)
    ref = reference_fn(name)(x, axis=axis, include_initial=include_initial)
    check(out, ref, d.device, dtype=dt, scale=2.0**x.size * x.size)
