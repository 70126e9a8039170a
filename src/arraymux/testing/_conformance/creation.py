"""Properties of the creation functions."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import (
    ALL_KINDS,
    NUMERIC,
    Draw,
    check,
    check_tuple,
    fn_of,
    numpy_dtype,
    reference_ns,
    register,
)

# ---------------------------------------------------------------------------------------------
# Creation functions


@register("arange")
def _arange(d: Draw, name: str) -> None:
    start = d.draw(st.integers(-10, 10), "start")
    stop = d.draw(st.none() | st.integers(-10, 10), "stop")
    step = d.draw(st.sampled_from([1, 2, 3, -1, -2]), "step")
    floats = d.draw(st.booleans(), "floats")
    if floats:
        start_f, stop_f = float(start), None if stop is None else float(stop)
        out = ax.arange(start_f, stop_f, step / 2, device=d.device)
        ref = reference_ns().arange(start_f, stop_f, step / 2)
    else:
        out = ax.arange(start, stop, step, device=d.device)
        ref = reference_ns().arange(start, stop, step)
    check(out, ref, d.device, defaults=True)


@register("asarray")
def _asarray(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(max_dims=2))
    out = ax.asarray(x.tolist(), dtype=dt, device=d.device)
    check(out, x, d.device, dtype=dt)
    check(ax.asarray(x, device=d.device), x, d.device, dtype=dt)


@register("empty", "ones", "zeros", "full")
def _filled(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    shape = d.shape(max_dims=3, min_side=0)
    which = name
    if which == "full":
        value: Any = True if dt is ax.bool else 3
        out = ax.full(shape, value, dtype=dt, device=d.device)
        check(out, np.full(shape, value, dtype=numpy_dtype(dt)), d.device, dtype=dt)
        return
    out = fn_of(which)(shape, dtype=dt, device=d.device)
    if which == "empty":
        if tuple(out.shape) != shape or out.dtype != dt or out.device != d.device:
            raise AssertionError(f"empty: got {out.shape} {out.dtype} on {out.device}")
        return
    check(out, getattr(np, which)(shape, dtype=numpy_dtype(dt)), d.device, dtype=dt)
    # Without a dtype: the device's default floating dtype.
    check(fn_of(which)(shape, device=d.device), getattr(np, which)(shape), d.device, defaults=True)


@register("empty_like", "ones_like", "zeros_like", "full_like")
def _like(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(min_side=0))
    which = name
    xd = d.dev(x)
    if which == "full_like":
        value: Any = False if dt is ax.bool else 1
        check(ax.full_like(xd, value), np.full_like(x, value), d.device, dtype=dt)
    elif which == "empty_like":
        out = ax.empty_like(xd)
        if out.shape != xd.shape or out.dtype != dt or out.device != d.device:
            raise AssertionError(f"empty_like: got {out.shape} {out.dtype} on {out.device}")
    else:
        check(fn_of(which)(xd), getattr(np, which)(x), d.device, dtype=dt)


@register("eye")
def _eye(d: Draw, name: str) -> None:
    # A rectangular matrix with a negative k, every time.
    check(ax.eye(2, 3, k=-1, device=d.device), np.eye(2, 3, k=-1), d.device, defaults=True)
    n = d.draw(st.integers(0, 5), "n_rows")
    m = d.draw(st.none() | st.integers(0, 5), "n_cols")
    k = d.draw(st.integers(-3, 3), "k")
    dt = d.dtype(ALL_KINDS)
    check(
        ax.eye(n, m, k=k, dtype=dt, device=d.device),
        np.eye(n, m, k=k, dtype=numpy_dtype(dt)),
        d.device,
        dtype=dt,
    )


@register("from_dlpack")
def _from_dlpack(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape())
    xd = d.dev(x)
    check(ax.from_dlpack(xd), x, d.device, dtype=dt)


@register("linspace")
def _linspace(d: Draw, name: str) -> None:
    start = d.draw(st.integers(-10, 10), "start")
    stop = d.draw(st.integers(-10, 10), "stop")
    num = d.draw(st.integers(0, 8), "num")
    endpoint = d.draw(st.booleans(), "endpoint")
    out = ax.linspace(float(start), float(stop), num, endpoint=endpoint, device=d.device)
    ref = np.linspace(float(start), float(stop), num, endpoint=endpoint)
    check(out, ref, d.device, defaults=True, scale=10)


_INDEXINGS: tuple[Literal["xy", "ij"], ...] = ("xy", "ij")


@register("meshgrid")
def _meshgrid(d: Draw, name: str) -> None:
    dt = d.dtype(NUMERIC)
    n = d.draw(st.integers(1, 3), "n")
    xs = [d.array(dt, d.draw(st.integers(1, 3)), label=f"x{i}") for i in range(n)]
    indexing = d.draw(st.sampled_from(_INDEXINGS), "indexing")
    out = ax.meshgrid(*[d.dev(x) for x in xs], indexing=indexing)
    check_tuple(out, np.meshgrid(*xs, indexing=indexing), d.device, dtype=dt)


@register("tril", "triu")
def _tri(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape(min_dims=2))
    k = d.draw(st.integers(-3, 3), "k")
    which = name
    check(fn_of(which)(d.dev(x), k=k), getattr(np, which)(x, k=k), d.device, dtype=dt)
