"""The standard's functions as dispatch sees them: the records of :mod:`arraymux._records`
(one per function, with its rule, section and dispatch details) and what is derived from them.

``promote`` lists the operands brought to one dtype by the standard's promotion rules before
the backend is called, so every backend sees matching dtypes; :class:`Record` says what else
sets a function apart.
"""

from __future__ import annotations

from typing import Final

from ._records import BY_NAME, RECORDS, VARARGS, Record

__all__ = ["BY_NAME", "COMMUTATIVE", "CONSTANTS", "NEW_IN_2025_12", "TABLE", "VARARGS", "Record"]

#: Every function of the standard, in the order of its sections.
TABLE: Final[tuple[Record, ...]] = RECORDS

# Names new in 2025.12; absent from the namespace when 2024.12 is selected.
NEW_IN_2025_12: Final = frozenset(r.name for r in TABLE if r.since == "2025.12")

#: Functions whose operands commute exactly (in IEEE arithmetic too): a Python scalar on
#: the left may be passed on the right.
COMMUTATIVE: Final = frozenset(r.name for r in TABLE if r.commutative)

CONSTANTS: Final = ("e", "inf", "nan", "newaxis", "pi")
