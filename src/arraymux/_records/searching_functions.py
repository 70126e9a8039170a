"""The records of the standard's searching functions: one per function."""

from __future__ import annotations

from ._record import BY_INDEX, Record, reduction, section


def index_of(name: str, extreme: str, *, example: str) -> Record:
    """The indices of the ``extreme`` (``"maximum"``, ``"minimum"``) values along ``axis``."""
    return reduction(
        name,
        f"Indices of the {extreme} values along an axis (first occurrences).",
        "The indices (of the default integer dtype)",
        dtypes="real-valued",
        refused=("bool", "complex floating"),  # torch refuses both, JAX complex
        parameters={"axis": BY_INDEX},
        axis="int or None",
        example=example,
    )


RECORDS = section(
    "searching_functions",
    index_of(
        "argmax",
        "maximum",
        example="""\
>>> xp.argmax(xp.asarray([3, 7, 7, 1]))
Array(1, dtype=int64, device='numpy:cpu')
""",
    ),
    index_of(
        "argmin",
        "minimum",
        example="""\
>>> xp.argmin(xp.asarray([[3, 1], [0, 2]]), axis=1)
Array([1, 0], dtype=int64, device='numpy:cpu')
""",
    ),
    reduction(
        "count_nonzero",
        "Number of non-zero elements of ``x``, over the given axes.",
        "The counts (of the default integer dtype)",
        zero_d=(),
        example="""\
>>> x = xp.asarray([[0, 1], [2, 3]])
>>> xp.count_nonzero(x), xp.count_nonzero(x, axis=0)
(Array(3, dtype=int64, device='numpy:cpu'), Array([1, 2], dtype=int64, device='numpy:cpu'))
""",
    ),
    Record(
        "nonzero",
        "first",
        signature="(x, /)",
        summary="Indices of the non-zero elements of ``x``.",
        returns=(
            "tuple of Arrays",
            "One array per axis of ``x`` with the indices of the non-zero elements along it, in "
            "row-major order (of the default integer dtype).",
        ),
        result=tuple,
        example="""\
>>> xp.nonzero(xp.asarray([0, 3, 0, 5]))
(Array([1, 3], dtype=int64, device='numpy:cpu'),)
""",
    ),
    Record(
        "searchsorted",
        "generic",
        signature="(x1, x2, /, *, side='left', sorter=None)",
        summary="Indices at which to insert ``x2`` into the sorted ``x1`` to keep it sorted.",
        dtypes="real-valued",
        parameters={
            "x1": (
                "Array",
                "One-dimensional input array, sorted in ascending order unless ``sorter`` is given.",
            ),
            "x2": ("Array or Python scalar", "Values to find insertion indices for."),
        },
        returns=(
            "Array",
            "The insertion indices, of the shape of ``x2`` (of the default integer dtype).",
        ),
        arrays={"x1": False, "x2": True, "sorter": False},
        integer_arrays=("sorter",),
        vectors=("x1",),  # (refused everywhere, with errors of three types)
        refused=("bool", "complex floating"),  # torch refuses both
        example="""\
>>> x1 = xp.asarray([1.0, 2.0, 3.0])
>>> xp.searchsorted(x1, xp.asarray([2.0, 2.5]))
Array([1, 2], dtype=int64, device='numpy:cpu')
>>> xp.searchsorted(x1, xp.asarray([2.0, 2.5]), side="right")
Array([2, 2], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "where",
        "generic",
        signature="(condition, x1, x2, /)",
        summary="Elements of ``x1`` where ``condition`` is True, else of ``x2``.",
        parameters={
            "condition": (
                "Array",
                "Where to take ``x1``; must have a bool dtype (compare a number array with "
                "``condition != 0``).",
            ),
            "x1": (
                "Array or Python scalar",
                "Values where ``condition`` is True, broadcast-compatible with ``condition`` and "
                "``x2``; may be a Python scalar if ``x2`` is an array.",
            ),
            "x2": (
                "Array or Python scalar",
                "Values where ``condition`` is False, broadcast-compatible with ``condition`` and "
                "``x1``; may be a Python scalar if ``x1`` is an array.",
            ),
        },
        returns=(
            "Array",
            "The chosen elements, of the broadcast shape of the arguments; its dtype is given by "
            "the standard's type promotion rules for ``x1`` and ``x2``.",
        ),
        promote=(1, 2),
        arrays={"condition": False, "x1": True, "x2": True},
        by_hand=True,
        example="""\
>>> x = xp.asarray([-1.0, 2.0, -3.0])
>>> xp.where(x > 0, x, 0.0)
Array([0., 2., 0.], dtype=float64, device='numpy:cpu')
""",
    ),
)
