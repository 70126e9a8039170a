"""The records of the standard's indexing functions: one per function."""

from __future__ import annotations

from ._record import AXIS, Record, section

RECORDS = section(
    "indexing_functions",
    Record(
        "take",
        "generic",
        signature="(x, indices, /, *, axis=None)",
        summary="Elements of ``x`` at ``indices`` along an axis.",
        parameters={
            "axis": (
                "int or None",
                "Axis over which to select; may be None (the default) only if ``x`` is "
                f"one-dimensional. {AXIS}",
            )
        },
        returns=(
            "Array",
            "The selected elements, with the dtype of ``x``; the shape of ``x`` except along "
            "``axis``, whose length is that of ``indices``.",
        ),
        arrays={"x": False, "indices": False},
        integer_arrays=("indices",),
        vectors=("indices",),  # (NumPy and JAX took others, torch gave 0-d indices a shape)
        zero_d=("axis",),
        axis="int or None",
        by_hand=True,
        example="""\
>>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0]))
Array([30, 10], dtype=int64, device='numpy:cpu')
>>> xp.take(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1]), axis=1)
Array([[2],
       [4]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "take_along_axis",
        "generic",
        signature="(x, indices, /, *, axis=-1)",
        summary="Elements of ``x`` at the one-dimensional ``indices`` along ``axis``.",
        parameters={
            "x": (
                "Array",
                "Input array; broadcast-compatible with ``indices`` except along ``axis``.",
            ),
            "indices": (
                "Array",
                "Integer indices with as many axes as ``x``; broadcast-compatible with ``x`` "
                "except along ``axis``. A negative index counts from the last element.",
            ),
            "axis": (
                "int",
                f"Axis along which to select; default -1 (the last axis). {AXIS}",
            ),
        },
        returns=(
            "Array",
            "The selected elements, with the dtype of ``x``; along ``axis`` the length of "
            "``indices``, the other axes broadcast.",
        ),
        arrays={"x": False, "indices": False},
        integer_arrays=("indices",),
        also_positional=("axis",),
        example="""\
>>> x = xp.asarray([[10, 30, 20], [60, 40, 50]])
>>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
Array([[10, 20, 30],
       [40, 50, 60]], dtype=int64, device='numpy:cpu')
""",
    ),
)
