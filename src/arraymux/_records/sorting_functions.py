"""The records of the standard's sorting functions: one per function."""

from __future__ import annotations

from ._record import SORT_AXIS, Record, section

RECORDS = section(
    "sorting_functions",
    Record(
        "argsort",
        "first",
        signature="(x, /, *, axis=-1, descending=False, stable=True)",
        summary="Indices that sort ``x`` along an axis.",
        dtypes="real-valued",
        parameters={"axis": SORT_AXIS},
        returns=(
            "Array",
            "Indices of the shape of ``x`` (of the default integer dtype) that sort it along "
            "``axis``.",
        ),
        also_positional=("axis",),
        example="""\
>>> x = xp.asarray([3, 1, 2])
>>> xp.argsort(x)
Array([1, 2, 0], dtype=int64, device='numpy:cpu')
>>> xp.argsort(x, descending=True)
Array([0, 2, 1], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "sort",
        "first",
        signature="(x, /, *, axis=-1, descending=False, stable=True)",
        summary="A sorted copy of ``x``.",
        dtypes="real-valued",
        parameters={"axis": SORT_AXIS},
        returns=("Array", "The sorted array, of the shape and dtype of ``x``."),
        keeps_dtype=True,
        also_positional=("axis",),
        example="""\
>>> xp.sort(xp.asarray([3, 1, 2]))
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    ),
)
