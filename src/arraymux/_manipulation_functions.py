"""Manipulation functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

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
broadcast_to = first("broadcast_to")
expand_dims = first("expand_dims")
flip = first("flip")
moveaxis = first("moveaxis")
permute_dims = first("permute_dims")
reshape = first("reshape")
roll = first("roll")
squeeze = first("squeeze")
tile = first("tile")
unstack = first("unstack")
repeat = generic("repeat")
concat = generic("concat")
stack = generic("stack")


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
