"""The table of known deviations, shared with ``arraymux conformance``.

The table itself lives in the installed package so that the command line can use it; see
``arraymux.testing._deviations`` to add an entry.
"""

from arraymux.testing._deviations import DEVIATIONS, Deviation, excluded_dtypes, known_deviation

__all__ = ["DEVIATIONS", "Deviation", "excluded_dtypes", "known_deviation"]
