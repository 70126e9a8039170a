"""The records of the standard's manipulation functions: one per function."""

from __future__ import annotations

from collections.abc import Mapping

from ._record import AXIS, PROMOTED, VARARGS, Record, Text, section


def rearranging(
    name: str,
    signature: str,
    summary: str,
    result: str,
    *,
    parameters: Mapping[str, Text] | None = None,
    also_positional: tuple[str, ...] = (),
    zero_d: tuple[str, ...] = (),
    axis: str | None = None,
    by_hand: bool = False,
    example: str,
) -> Record:
    """A function that rearranges (or repeats) the elements of ``x``, its result of the dtype
    of ``x`` whatever it is; ``result`` describes the result."""
    return Record(
        name,
        "first",
        signature=signature,
        summary=summary,
        parameters=parameters,
        returns=("Array", result),
        keeps_dtype=True,
        also_positional=also_positional,
        zero_d=zero_d,
        axis=axis,
        by_hand=by_hand,
        example=example,
    )


RECORDS = section(
    "manipulation_functions",
    Record(
        "broadcast_arrays",
        "generic",
        signature="(*arrays)",
        summary="Broadcast arrays against one another.",
        parameters={"arrays": ("Array", "Arrays to broadcast against one another, on one device.")},
        returns=(
            "tuple of Arrays",
            "The arrays, all of their broadcast shape, each with its own dtype.",
        ),
        result=tuple,
        arrays=VARARGS,
        example="""\
>>> a, b = xp.broadcast_arrays(xp.asarray([1, 2, 3]), xp.asarray([[10], [20]]))
>>> a.shape, b.shape
((2, 3), (2, 3))
>>> b
Array([[10, 10, 10],
       [20, 20, 20]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "broadcast_shapes",
        "local",
        signature="(*shapes)",
        since="2025.12",
        by_hand=True,
    ),
    rearranging(
        "broadcast_to",
        "(x, /, shape)",
        "``x`` broadcast to a shape.",
        "Array of shape ``shape`` with the dtype of ``x``.",
        parameters={
            "shape": (
                "tuple of ints",
                "Shape to broadcast to; ``x.shape`` must be broadcast-compatible with it.",
            ),
        },
        zero_d=("shape[]",),
        by_hand=True,
        example="""\
>>> xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
Array([[1, 2, 3],
       [1, 2, 3]], dtype=int64, device='numpy:cpu')
""",
    ),
    rearranging(
        "expand_dims",
        "(x, /, axis)",
        "``x`` with a new axis of size one inserted at each position in ``axis``.",
        "``x`` with the new axes of size one, with its dtype.",
        parameters={
            "axis": (
                "int or tuple of ints",
                "Position(s) of the new axes in the result, which has ``x.ndim + len(axis)`` "
                "axes. A negative position counts from the last axis of the result.",
            ),
        },
        zero_d=("axis",),
        example="""\
>>> x = xp.asarray([1, 2])
>>> xp.expand_dims(x, axis=0).shape, xp.expand_dims(x, axis=1).shape
((1, 2), (2, 1))
""",
    ),
    rearranging(
        "flip",
        "(x, /, *, axis=None)",
        "``x`` with the order of its elements reversed along the given axes.",
        "Array of the shape and dtype of ``x``, its elements reordered.",
        parameters={
            "axis": (
                "int, tuple of ints or None",
                "Axis or axes along which to reverse; None (the default) reverses every axis. "
                f"{AXIS}",
            ),
        },
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> xp.flip(xp.asarray([1, 2, 3]))
Array([3, 2, 1], dtype=int64, device='numpy:cpu')
""",
    ),
    rearranging(
        "moveaxis",
        "(x, source, destination, /)",
        "``x`` with axes moved to new positions, the other axes in their order.",
        "``x`` with its axes reordered, with its dtype.",
        zero_d=("destination", "source"),
        example="""\
>>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
(3, 4, 2)
""",
    ),
    rearranging(
        "permute_dims",
        "(x, /, axes)",
        "``x`` with its axes permuted.",
        "``x`` with its axes permuted, with its dtype.",
        parameters={
            "axes": (
                "tuple of ints",
                "A permutation of ``(0, 1, ..., x.ndim - 1)``: axis ``i`` of the result is axis "
                "``axes[i]`` of ``x``.",
            ),
        },
        zero_d=("axes[]",),
        example="""\
>>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
(4, 2, 3)
""",
    ),
    rearranging(
        "reshape",
        "(x, /, shape, *, copy=None)",
        "``x`` with a new shape and the same data.",
        "Array of shape ``shape`` with the elements and dtype of ``x``.",
        parameters={
            "x": ("Array", "Input array to reshape."),
            "shape": (
                "tuple of ints",
                "New shape, with as many elements as ``x``; one entry may be -1, inferred from "
                "the others.",
            ),
        },
        zero_d=("shape[]",),
        example="""\
>>> xp.reshape(xp.arange(6), (2, 3))
Array([[0, 1, 2],
       [3, 4, 5]], dtype=int64, device='numpy:cpu')
""",
    ),
    rearranging(
        "roll",
        "(x, /, shift, *, axis=None)",
        "Elements of ``x`` shifted cyclically along the given axes.",
        "Array of the shape and dtype of ``x``, its elements shifted.",
        parameters={
            "axis": (
                "int, tuple of ints or None",
                "Axis or axes along which to shift; None (the default) shifts the flattened "
                f"``x`` and restores its shape. {AXIS}",
            ),
        },
        also_positional=("axis",),
        zero_d=("axis", "shift"),
        axis="tuple or None",
        by_hand=True,
        example="""\
>>> xp.roll(xp.asarray([1, 2, 3, 4]), 1)
Array([4, 1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    ),
    rearranging(
        "squeeze",
        "(x, /, axis)",
        "``x`` with axes of size one removed.",
        "``x`` without the given axes, with its elements and dtype.",
        parameters={
            "axis": (
                "int or tuple of ints",
                f"Axis or axes to remove; each must have size one. {AXIS}",
            ),
        },
        zero_d=("axis",),
        axis="tuple",
        example="""\
>>> xp.squeeze(xp.zeros((1, 3, 1)), axis=0).shape
(3, 1)
""",
    ),
    rearranging(
        "tile",
        "(x, repetitions, /)",
        "An array made by tiling ``x``.",
        "The tiled array, with the dtype of ``x`` and ``max(x.ndim, len(repetitions))`` axes.",
        zero_d=("repetitions[]",),
        by_hand=True,
        example="""\
>>> xp.tile(xp.asarray([1, 2]), (2, 2))
Array([[1, 2, 1, 2],
       [1, 2, 1, 2]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "unstack",
        "first",
        signature="(x, /, *, axis=0)",
        summary="``x`` split into a tuple of arrays along an axis.",
        parameters={
            "axis": (
                "int",
                f"Axis along which to split; default 0. {AXIS}",
            )
        },
        returns=("tuple of Arrays", "The slices of ``x`` along ``axis``, each of the same shape."),
        result=tuple,
        example="""\
>>> xp.unstack(xp.asarray([[1, 2], [3, 4]]))
(Array([1, 2], dtype=int64, device='numpy:cpu'), Array([3, 4], dtype=int64, device='numpy:cpu'))
""",
    ),
    Record(
        "repeat",
        "generic",
        signature="(x, repeats, /, *, axis=None)",
        summary="Each element of ``x`` repeated a number of times.",
        parameters={
            "axis": (
                "int or None",
                "Axis along which to repeat; None (the default) flattens ``x`` first (row-major) "
                f"and returns a one-dimensional array. {AXIS}",
            )
        },
        returns=(
            "Array",
            "Array with the dtype of ``x``: one-dimensional if ``axis`` is None, else the shape of "
            "``x`` with ``axis`` lengthened.",
        ),
        arrays={"x": False, "repeats": True},
        integer_arrays=("repeats",),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="int or None",
        by_hand=True,
        example="""\
>>> x = xp.asarray([1, 2, 3])
>>> xp.repeat(x, 2)
Array([1, 1, 2, 2, 3, 3], dtype=int64, device='numpy:cpu')
>>> xp.repeat(x, xp.asarray([1, 0, 2]))
Array([1, 3, 3], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "concat",
        "sequence",
        signature="(arrays, /, *, axis=0)",
        summary="Arrays joined along an existing axis.",
        parameters={
            "axis": (
                "int or None",
                f"Axis along which to join; None flattens the arrays first. Default 0. {AXIS}",
            )
        },
        returns=(
            "Array",
            f"The joined array; its dtype {PROMOTED}",
        ),
        promote=(0,),
        zero_d=("axis",),
        axis="int or None",
        example="""\
>>> xp.concat([xp.asarray([1, 2]), xp.asarray([3])])
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "stack",
        "sequence",
        signature="(arrays, /, *, axis=0)",
        summary="Arrays joined along a new axis.",
        parameters={
            "arrays": (
                "tuple or list of Arrays",
                "Arrays to join, on one device and of one shape.",
            ),
            "axis": (
                "int",
                "Position of the new axis in the result; default 0. A negative axis counts from "
                "the last axis of the result.",
            ),
        },
        returns=(
            "Array",
            f"Array with one more axis than the inputs; its dtype {PROMOTED}",
        ),
        promote=(0,),
        also_positional=("axis",),
        zero_d=("axis",),
        example="""\
>>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)
Array([[1, 3],
       [2, 4]], dtype=int64, device='numpy:cpu')
""",
    ),
)
