"""Indexing functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from typing import Any

from ._dispatch import generic

__all__ = ["take", "take_along_axis"]

_take = generic("take")


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    # NumPy and JAX flatten an array of several dimensions when no axis is given; the
    # standard requires the axis then, and torch and array-api-strict refuse.
    if axis is None and getattr(x, "ndim", 1) != 1:
        raise ValueError(
            f"arraymux.take: x has {x.ndim} dimensions; give the axis to take along "
            "(axis=None is allowed for one-dimensional arrays only)."
        )
    # Without a keyword when there is none: the compiled path takes positional calls.
    return _take(x, indices) if axis is None else _take(x, indices, axis=axis)


for _attr in ("__doc__", "__signature__", "__name__", "__qualname__", "__module__"):
    setattr(take, _attr, getattr(_take, _attr))
take_along_axis = generic("take_along_axis")
