"""The records of the standard's sorting functions: one per function."""

from __future__ import annotations

from ._record import SORT_AXIS, Record, section


def sorting(name: str, summary: str, result: str, *, keeps_dtype: bool, example: str) -> Record:
    """A sort of real-valued ``x`` along ``axis`` (``descending``, ``stable``): ``result``
    describes the result, which has the dtype of ``x`` where ``keeps_dtype``."""
    return Record(
        name,
        "first",
        signature="(x, /, *, axis=-1, descending=False, stable=True)",
        summary=summary,
        dtypes="real-valued",
        refused=("complex floating",),  # torch has no order of complex numbers
        parameters={"axis": SORT_AXIS},
        returns=("Array", result),
        keeps_dtype=keeps_dtype,
        also_positional=("axis",),
        example=example,
    )


RECORDS = section(
    "sorting_functions",
    sorting(
        "argsort",
        "Indices that sort ``x`` along an axis.",
        "Indices of the shape of ``x`` (of the default integer dtype) that sort it along ``axis``.",
        keeps_dtype=False,
        example="""\
>>> x = xp.asarray([3, 1, 2])
>>> xp.argsort(x)
Array([1, 2, 0], dtype=int64, device='numpy:cpu')
>>> xp.argsort(x, descending=True)
Array([0, 2, 1], dtype=int64, device='numpy:cpu')
""",
    ),
    sorting(
        "sort",
        "A sorted copy of ``x``.",
        "The sorted array, of the shape and dtype of ``x``.",
        keeps_dtype=True,
        example="""\
>>> xp.sort(xp.asarray([3, 1, 2]))
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    ),
)
