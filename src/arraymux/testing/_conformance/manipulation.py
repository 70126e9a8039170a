"""Properties of the manipulation functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from .._hypothesis import reference_namespace
from ._core import ALL_KINDS, Draw, check, check_tuple, register

# ---------------------------------------------------------------------------------------------
# Manipulation functions


@register("broadcast_arrays", "broadcast_to", "broadcast_shapes")
def _broadcast(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    shapes = d.draw(
        reference_namespace().mutually_broadcastable_shapes(3, max_dims=3, max_side=3), "shapes"
    )
    xs = [d.array(dt, s, label=f"x{i}") for i, s in enumerate(shapes.input_shapes)]
    if name == "broadcast_arrays":
        out = ax.broadcast_arrays(*[d.dev(x) for x in xs])
        check_tuple(out, np.broadcast_arrays(*xs), d.device, dtype=dt)
    elif name == "broadcast_to":
        check(
            ax.broadcast_to(d.dev(xs[0]), shapes.result_shape),
            np.broadcast_to(xs[0], shapes.result_shape),
            d.device,
            dtype=dt,
        )
    else:
        got = ax.broadcast_shapes(*shapes.input_shapes)
        if tuple(got) != shapes.result_shape:
            raise AssertionError(f"broadcast_shapes: {got}, expected {shapes.result_shape}")


@register("concat", "stack")
def _concat(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    shape = d.shape(min_dims=1)
    n = d.draw(st.integers(1, 3), "count")
    xs = [d.array(dt, shape, label=f"x{i}") for i in range(n)]
    if name == "concat":
        axis = d.axis_or_none(len(shape))
        check(
            ax.concat([d.dev(x) for x in xs], axis=axis),
            np.concatenate(xs, axis=axis),
            d.device,
            dtype=dt,
        )
        return
    saxis = d.draw(st.integers(-len(shape) - 1, len(shape)), "stack_axis")
    check(
        ax.stack([d.dev(x) for x in xs], axis=saxis), np.stack(xs, axis=saxis), d.device, dtype=dt
    )


@register("expand_dims", "squeeze")
def _expand_squeeze(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS)
    axis = d.draw(st.integers(-len(shape) - 1, len(shape)), "axis")
    if name == "expand_dims":
        check(ax.expand_dims(d.dev(x), axis=axis), np.expand_dims(x, axis), d.device, dtype=dt)
    else:
        e = np.expand_dims(x, axis)
        check(ax.squeeze(d.dev(e), axis=axis), x, d.device, dtype=dt)


@register("flip")
def _flip(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS)
    axis = d.axis_or_none(len(shape))
    check(ax.flip(d.dev(x), axis=axis), np.flip(x, axis=axis), d.device, dtype=dt)


@register("moveaxis", "permute_dims")
def _permute(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    if name == "permute_dims":
        perm = d.draw(st.permutations(range(len(shape))), "axes")
        check(ax.permute_dims(d.dev(x), tuple(perm)), np.transpose(x, perm), d.device, dtype=dt)
        return
    src = d.axis(len(shape), "source")
    dst = d.axis(len(shape), "destination")
    check(ax.moveaxis(d.dev(x), src, dst), np.moveaxis(x, src, dst), d.device, dtype=dt)


@register("repeat")
def _repeat(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    axis = d.axis_or_none(len(shape))
    r = d.draw(st.integers(0, 3), "repeats")
    check(ax.repeat(d.dev(x), r, axis=axis), np.repeat(x, r, axis=axis), d.device, dtype=dt)


@register("reshape")
def _reshape(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape())
    new = d.draw(st.sampled_from([(x.size,), (-1,), (1, x.size), (x.size, 1, 1), (-1, 1)]), "shape")
    check(ax.reshape(d.dev(x), new), np.reshape(x, new), d.device, dtype=dt)


@register("roll")
def _roll(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    shift = d.draw(st.integers(-5, 5), "shift")
    axis = d.axis_or_none(len(shape))
    check(ax.roll(d.dev(x), shift, axis=axis), np.roll(x, shift, axis=axis), d.device, dtype=dt)


@register("tile")
def _tile(d: Draw, name: str) -> None:
    dt = d.dtype(ALL_KINDS)
    x = d.array(dt, d.shape())
    reps = tuple(d.draw(st.lists(st.integers(0, 3), min_size=0, max_size=3), "repetitions"))
    check(ax.tile(d.dev(x), reps), np.tile(x, reps), d.device, dtype=dt)


@register("unstack")
def _unstack(d: Draw, name: str) -> None:
    dt, shape, x = d.operand(ALL_KINDS, min_dims=1)
    axis = d.axis(len(shape))
    ref = [np.take(x, i, axis=axis) for i in range(shape[axis])]
    check_tuple(ax.unstack(d.dev(x), axis=axis), ref, d.device, dtype=dt)
