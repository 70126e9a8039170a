"""The records of the standard's data type functions: one per function."""

from __future__ import annotations

from ._record import Record, section

RECORDS = section(
    "data_type_functions",
    Record(
        "can_cast",
        "local",
        signature="(from_, to, /)",
        by_hand=True,
    ),
    Record(
        "finfo",
        "local",
        signature="(type, /)",
        by_hand=True,
    ),
    Record(
        "iinfo",
        "local",
        signature="(type, /)",
        by_hand=True,
    ),
    Record(
        "isdtype",
        "local",
        signature="(dtype, kind)",
        by_hand=True,
    ),
    Record(
        "result_type",
        "local",
        signature="(*arrays_and_dtypes)",
        by_hand=True,
    ),
    Record(
        "astype",
        "generic",
        signature="(x, dtype, /, *, copy=True, device=None)",
        by_hand=True,
    ),
)
