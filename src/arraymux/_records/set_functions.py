"""The records of the standard's set functions: one per function."""

from __future__ import annotations

from ._record import Record, UniqueAllResult, UniqueCountsResult, UniqueInverseResult, section


def unique(
    name: str, summary: str, result: type[tuple[object, ...]], fields: str, *, example: str
) -> Record:
    """The unique elements of ``x`` with what the named tuple ``result`` adds to them, its
    ``fields`` described."""
    return Record(
        name,
        "first",
        signature="(x, /)",
        summary=summary,
        returns=(result.__name__, fields),
        result=result,
        example=example,
    )


RECORDS = section(
    "set_functions",
    Record(
        "isin",
        "generic",
        signature="(x1, x2, /, *, invert=False)",
        summary="Whether each element of ``x1`` is in ``x2``.",
        dtypes="integer",
        parameters={
            "x1": (
                "Array or Python scalar",
                "Elements to test; may be a Python scalar if ``x2`` is an array.",
            ),
            "x2": (
                "Array or Python scalar",
                "Values to test against; may be a Python scalar if ``x1`` is an array.",
            ),
        },
        returns=(
            "Array of dtype bool",
            "The test results, of the shape of ``x1`` (zero-dimensional for a scalar ``x1``).",
        ),
        arrays={"x1": True, "x2": True},
        refused=("bool", "complex floating"),  # torch refuses both
        since="2025.12",
        example="""\
>>> xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2, 4]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    unique(
        "unique_all",
        "Unique elements of ``x``, their first indices, inverse indices and counts.",
        UniqueAllResult,
        "Named tuple ``(values, indices, inverse_indices, counts)``: the sorted unique "
        "elements (dtype of ``x``), the index of the first occurrence of each in the flattened "
        "``x``, the index into ``values`` of each element of ``x`` (shape of ``x``), and the "
        "count of each (indices and counts of the default integer dtype).",
        example="""\
>>> values, indices, inverse_indices, counts = xp.unique_all(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(indices), xp.to_numpy(inverse_indices), xp.to_numpy(counts)
(array([1, 2, 3]), array([1, 3, 0]), array([2, 0, 2, 1]), array([1, 1, 2]))
""",
    ),
    unique(
        "unique_counts",
        "Unique elements of ``x`` and the number of times each occurs.",
        UniqueCountsResult,
        "Named tuple ``(values, counts)``: the sorted unique elements (dtype of ``x``) and the "
        "number of times each occurs (of the default integer dtype).",
        example="""\
>>> values, counts = xp.unique_counts(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(counts)
(array([1, 2, 3]), array([1, 1, 2]))
""",
    ),
    unique(
        "unique_inverse",
        "Unique elements of ``x`` and the indices that rebuild ``x`` from them.",
        UniqueInverseResult,
        "Named tuple ``(values, inverse_indices)``: the sorted unique elements (dtype of "
        "``x``) and, for each element of ``x``, its index into ``values`` (shape of ``x``, of "
        "the default integer dtype).",
        example="""\
>>> values, inverse_indices = xp.unique_inverse(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(inverse_indices)
(array([1, 2, 3]), array([2, 0, 2, 1]))
""",
    ),
    Record(
        "unique_values",
        "first",
        signature="(x, /)",
        summary="Unique elements of ``x``.",
        returns=(
            "Array",
            "One-dimensional array of the sorted unique elements, with the dtype of ``x``.",
        ),
        example="""\
>>> xp.unique_values(xp.asarray([3, 1, 3, 2]))
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    ),
)
