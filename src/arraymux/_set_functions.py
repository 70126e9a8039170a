"""Set functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import first, generic

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

isin = generic("isin")
unique_all = first("unique_all")
unique_counts = first("unique_counts")
unique_inverse = first("unique_inverse")
unique_values = first("unique_values")
