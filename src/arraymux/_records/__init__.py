"""One record per function of the standard: everything arraymux knows about it.

Each section of the standard has its module here (``elementwise_functions``, ``linalg``, ...),
a tuple of :class:`Record`, one per function, in the standard's terms. Everything else is
made from them:

- the namespace: the functions of each section module (``arraymux/_<section>.py``,
  ``linalg.py``, ``fft.py``) and their ``__all__`` are generated (``python -m
  arraymux._records`` writes them; a test fails while they are out of date), each function
  made by its rule's factory unless the record says it is written ``by_hand``;
- the argument checks: signatures, what every backend also takes (by position, as 0-d
  arrays), the axes a function takes (:mod:`arraymux._signatures`, :mod:`arraymux._arguments`);
- the dispatch: promotion, the arrays among the arguments, commutativity, operand dtypes
  (:mod:`arraymux._function_table`, :mod:`arraymux._factories`) and the result dtypes the
  hot paths cache (:mod:`arraymux._result_dtypes`);
- the docstrings (:mod:`arraymux._docstrings`) and the conformance suite's dtypes and special
  cases (:mod:`arraymux.testing`).

Adding a function of the standard is adding its record (and its implementation, where no
factory makes it), then running ``python -m arraymux._records``.
"""

from __future__ import annotations

from typing import Final

from . import (
    creation_functions,
    data_type_functions,
    elementwise_functions,
    fft,
    indexing_functions,
    linalg,
    linear_algebra_functions,
    manipulation_functions,
    searching_functions,
    set_functions,
    sorting_functions,
    statistical_functions,
    utility_functions,
)
from ._record import CATEGORIES, RULES, VARARGS, Record, Text

__all__ = ["BY_NAME", "CATEGORIES", "RECORDS", "RULES", "SECTIONS", "VARARGS", "Record", "Text"]

#: The standard's sections, in the order of its documentation.
SECTIONS: Final = (
    elementwise_functions,
    creation_functions,
    data_type_functions,
    indexing_functions,
    linear_algebra_functions,
    manipulation_functions,
    searching_functions,
    set_functions,
    sorting_functions,
    statistical_functions,
    utility_functions,
    linalg,
    fft,
)

RECORDS: Final[tuple[Record, ...]] = tuple(r for s in SECTIONS for r in s.RECORDS)
BY_NAME: Final[dict[str, Record]] = {r.name: r for r in RECORDS}
