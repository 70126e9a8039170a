"""Properties of the sorting functions."""

from __future__ import annotations

from hypothesis import strategies as st

from ._core import REAL, Draw, check, fn_of, reference_fn, register


@register("argsort", "sort")
def _sort(d: Draw, name: str) -> None:
    dt = d.dtype(REAL)
    shape = d.shape(min_dims=1)
    x = d.array(
        dt, shape, {"min_value": -3, "max_value": 3} if dt.kind != "real floating" else None
    )
    axis = d.axis(len(shape))
    descending = d.draw(st.booleans(), "descending")
    out = fn_of(name)(d.dev(x), axis=axis, descending=descending, stable=True)
    ref = reference_fn(name)(x, axis=axis, descending=descending, stable=True)
    check(out, ref, d.device, dtype=dt if name == "sort" else None, defaults=name == "argsort")
