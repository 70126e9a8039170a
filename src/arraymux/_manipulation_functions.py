"""Manipulation functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

import math
from typing import Any

from ._arguments import MAX_BYTES, check_size, read_zero_d
from ._array import Array, operand
from ._compiled import python_twin
from ._dispatch import first, generic

__all__ = [
    "broadcast_shapes",
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
]

broadcast_arrays = generic("broadcast_arrays")
expand_dims = first("expand_dims")
flip = first("flip")
moveaxis = first("moveaxis")
permute_dims = first("permute_dims")
reshape = first("reshape")
squeeze = first("squeeze")
unstack = first("unstack")
concat = generic("concat")
stack = generic("stack")
_broadcast_to = first("broadcast_to")
_roll = first("roll")
_tile = first("tile")
_repeat = generic("repeat")

# The functions below check what only the array's shape tells, then call the dispatched ones
# (which check everything else and explain). A result whose size overflows 64 bits is refused
# before a backend sees it: jaxlib aborts the process on one (broadcast_to(x, (2**62, 4))),
# and the other backends fail each in its own way, or not at all (Dask). Reshape keeps its
# fast path: its result is no larger than ``x``, and the JAX and Dask adapters refuse the shapes
# that abort or fail later. A size product small enough for any dtype passes at the cost of
# one ``math.prod`` (0.1 us); the exact check (a few us) runs for the others.

#: Results of at most this many elements fit whatever their dtype (16 bytes at most).
_SMALL = MAX_BYTES // 16


def _small(n: Any) -> bool:
    """Whether ``n``, a product of sizes, is between 1 and :data:`_SMALL`: a zero may hide a
    huge size (``(2**64, 0)``), and anything but an int is left to the exact check."""
    return type(n) is int and 0 < n <= _SMALL


def _ints(value: Any) -> tuple[int, ...] | None:
    """``value`` as a tuple of Python ints, or None (the dispatched function explains)."""
    items = value if isinstance(value, tuple | list) else (value,)
    if all(type(v) is int for v in items):
        return tuple(items)
    return None


def _shape_and_itemsize(x: Any) -> tuple[tuple[int, ...], int] | None:
    """The shape and item size of the array ``x``, or None where they are not known here (not
    an array, a lazy size): the dispatched function decides then."""
    op = operand(x)
    if op is None:
        return None
    shape = tuple(op[0].shape)
    if not all(type(n) is int for n in shape):
        return None
    itemsize = getattr(op[0].dtype, "itemsize", None)  # array-api-strict's dtypes have none
    if type(itemsize) is not int:
        itemsize = x.dtype.itemsize if type(x) is Array else 1
    return shape, itemsize


def _native(x: Any) -> Any:
    """The native array of ``x`` (None where ``x`` is not an array)."""
    op = operand(x)
    return None if op is None else op[0]


def broadcast_to(x: Any, /, shape: Any) -> Any:
    try:
        small = _small(math.prod(shape))
    except Exception:  # not a shape: the dispatched function explains
        small = False
    if not small:
        shape = read_zero_d("broadcast_to", "shape", shape)  # 0-d sizes, as every backend
        target, known = _ints(shape), _shape_and_itemsize(x)
        if target is not None and known is not None and all(n >= 0 for n in target):
            check_size("broadcast_to", target, known[1])
    return _broadcast_to(x, shape)


def tile(x: Any, /, repetitions: Any) -> Any:
    try:
        small = _small(math.prod(repetitions) * math.prod(_native(x).shape))
    except Exception:  # not sizes, or not an array: the dispatched function explains
        small = False
    if not small:
        repetitions = read_zero_d("tile", "repetitions", repetitions)  # as every backend
        reps, known = _ints(repetitions), _shape_and_itemsize(x)
        if reps is not None and known is not None and all(r >= 0 for r in reps):
            shape, itemsize = known
            ndim = max(len(shape), len(reps))
            shape = (1,) * (ndim - len(shape)) + shape
            reps = (1,) * (ndim - len(reps)) + reps
            check_size("tile", tuple(n * r for n, r in zip(shape, reps, strict=True)), itemsize)
    return _tile(x, repetitions)


def repeat(x: Any, repeats: Any, /, *args: Any, axis: int | None = None) -> Any:
    if args:  # axis by position, as every backend takes it
        if len(args) > 1 or axis is not None:
            return _repeat(x, repeats, *args, **({} if axis is None else {"axis": axis}))
        axis = args[0]
    if axis is not None and type(axis) is not int:
        axis = read_zero_d("repeat", "axis", axis)  # a 0-d array, as every backend takes
    if type(repeats) is int:
        try:
            small = _small(repeats * math.prod(_native(x).shape))
        except Exception:  # not an array: the dispatched function explains
            small = False
        known = None if small else _shape_and_itemsize(x)
        if repeats >= 0 and known is not None:
            shape, itemsize = known
            check_size("repeat", (repeats,), 1)
            if axis is None:
                check_size("repeat", (math.prod(shape) * repeats,), itemsize)
            elif type(axis) is int and -len(shape) <= axis < len(shape):
                out = list(shape)
                out[axis] *= repeats
                check_size("repeat", tuple(out), itemsize)
    return _repeat(x, repeats) if axis is None else _repeat(x, repeats, axis=axis)


#: Shifts beyond this magnitude are reduced modulo the axis length here, exactly: the backends
#: take a shift as a machine integer, and JAX wrapped ``roll(x, 2**63)`` to ``-2**63``.
_SHIFT_KEPT = 2**31


def _large(shift: Any) -> bool:
    if type(shift) is int:
        return not -_SHIFT_KEPT <= shift < _SHIFT_KEPT
    return isinstance(shift, tuple | list) and any(
        type(s) is int and not -_SHIFT_KEPT <= s < _SHIFT_KEPT for s in shift
    )


def _reduced(x: Any, shift: Any, axis: Any) -> Any:
    """``shift`` reduced modulo the lengths of the axes it rolls (the same result), or as it
    is where the axes are not valid (the dispatched function explains)."""
    known = _shape_and_itemsize(x)
    if known is None:
        return shift
    shape = known[0]
    if axis is None:
        if type(shift) is not int:
            return shift
        size = math.prod(shape)
        return shift % size if size else 0
    axes = _ints(axis)
    if axes is None or not all(-len(shape) <= a < len(shape) for a in axes):
        return shift
    if type(shift) is int:
        if type(axis) is int:
            return shift % shape[axis] if shape[axis] else 0
        return tuple(shift % shape[a] if shape[a] else 0 for a in axes)
    shifts = _ints(shift)
    if shifts is None or len(shifts) != len(axes):
        return shift
    return tuple(s % shape[a] if shape[a] else 0 for s, a in zip(shifts, axes, strict=True))


def roll(x: Any, /, shift: Any, *args: Any, axis: Any = None) -> Any:
    if args:  # axis by position, as every backend takes it
        if len(args) > 1 or axis is not None:
            return _roll(x, shift, *args, **({} if axis is None else {"axis": axis}))
        axis = args[0]
    if _large(shift):
        shift = _reduced(x, shift, axis)
    return _roll(x, shift) if axis is None else _roll(x, shift, axis=axis)


for _fn, _dispatched in (
    (broadcast_to, _broadcast_to),
    (roll, _roll),
    (tile, _tile),
    (repeat, _repeat),
):
    for _attr in ("__doc__", "__signature__", "__name__", "__qualname__", "__module__"):
        setattr(_fn, _attr, getattr(python_twin(_dispatched), _attr))


def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """The shape that broadcasting ``shapes`` together gives (``None``: unknown size).

    Parameters
    ----------
    *shapes : tuple of int or None
        Shapes to broadcast against one another; ``None`` stands for a size not known yet.

    Returns
    -------
    tuple of int or None
        The broadcast shape (``()`` for no shapes).

    Raises
    ------
    ValueError
        The shapes cannot be broadcast together.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.broadcast_shapes((3, 1), (1, 4))
    (3, 4)
    >>> xp.broadcast_shapes((2, 1), (None, 5))  # an unknown size stays unknown
    (None, 5)
    """
    for k, s in enumerate(shapes):
        if not isinstance(s, tuple | list) or not all(
            n is None or (isinstance(n, int) and not isinstance(n, bool) and n >= 0) for n in s
        ):
            raise TypeError(
                f"arraymux.broadcast_shapes: shapes[{k}] is {s!r}; each shape must be a tuple "
                "of sizes (ints of 0 or more, or None for an unknown size)."
            )
    ndim = max((len(s) for s in shapes), default=0)
    out: list[int | None] = []
    for i in range(-ndim, 0):
        size: int | None = 1
        for s in shapes:
            n = s[i] if -i <= len(s) else 1
            if n == 1:
                continue
            if n is None or size is None:
                size = None if n is None or size == 1 or size is None else size
                continue
            if size not in (1, n):
                raise ValueError(
                    f"arraymux.broadcast_shapes: shapes {', '.join(map(str, shapes))} cannot "
                    "be broadcast together"
                )
            size = n
        out.append(size)
    return tuple(out)
