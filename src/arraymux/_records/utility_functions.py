"""The records of the standard's utility functions: one per function."""

from __future__ import annotations

from ._record import Record, section

RECORDS = section(
    "utility_functions",
    Record(
        "all",
        "first",
        signature="(x, /, *, axis=None, keepdims=False)",
        summary="Whether all elements of ``x`` are True (non-zero), over the given axes.",
        returns=(
            "Array of dtype bool",
            "The results of the logical AND reductions: a zero-dimensional array if all axes are "
            "reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([[True, False], [True, True]])
>>> xp.all(x)
Array(False, dtype=bool, device='numpy:cpu')
>>> xp.all(x, axis=0)
Array([ True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    Record(
        "any",
        "first",
        signature="(x, /, *, axis=None, keepdims=False)",
        summary="Whether any element of ``x`` is True (non-zero), over the given axes.",
        returns=(
            "Array of dtype bool",
            "The results of the logical OR reductions: a zero-dimensional array if all axes are "
            "reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([[True, False], [False, False]])
>>> xp.any(x)
Array(True, dtype=bool, device='numpy:cpu')
>>> xp.any(x, axis=1)
Array([ True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    Record(
        "diff",
        "generic",
        signature="(x, /, *, axis=-1, n=1, prepend=None, append=None)",
        summary="``n``-th discrete forward difference of ``x`` along an axis.",
        dtypes="numeric",
        parameters={
            "axis": (
                "int",
                "Axis along which to take differences; default -1 (the last axis). A negative axis "
                "counts from the last axis.",
            ),
            "n": ("int", "Number of times to take differences; default 1."),
        },
        returns=(
            "Array",
            "The ``n``-th differences, with the dtype of ``x``; the shape of ``x`` (with "
            "``prepend`` and ``append``) with ``axis`` ``n`` shorter.",
        ),
        arrays={"x": False, "prepend": False, "append": False},
        also_positional=("n", "axis"),
        example="""\
>>> x = xp.asarray([1, 4, 9, 16])
>>> xp.diff(x)
Array([3, 5, 7], dtype=int64, device='numpy:cpu')
>>> xp.diff(x, n=2)
Array([2, 2], dtype=int64, device='numpy:cpu')
""",
    ),
)
