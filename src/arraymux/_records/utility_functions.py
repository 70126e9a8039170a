"""The records of the standard's utility functions: one per function."""

from __future__ import annotations

from ._record import AXIS, Record, reduction, section


def truth(name: str, summary: str, operation: str, *, example: str) -> Record:
    """The logical ``operation`` (``"AND"``, ``"OR"``) of the elements over the given axes."""
    return reduction(
        name,
        summary,
        f"The results of the logical {operation} reductions",
        kind="Array of dtype bool",
        example=example,
    )


RECORDS = section(
    "utility_functions",
    truth(
        "all",
        "Whether all elements of ``x`` are True (non-zero), over the given axes.",
        "AND",
        example="""\
>>> x = xp.asarray([[True, False], [True, True]])
>>> xp.all(x)
Array(False, dtype=bool, device='numpy:cpu')
>>> xp.all(x, axis=0)
Array([ True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    truth(
        "any",
        "Whether any element of ``x`` is True (non-zero), over the given axes.",
        "OR",
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
                f"Axis along which to take differences; default -1 (the last axis). {AXIS}",
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
