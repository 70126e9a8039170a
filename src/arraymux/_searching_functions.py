"""Searching functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import first, generic, where_function

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

argmax = first("argmax")
argmin = first("argmin")
count_nonzero = first("count_nonzero")
nonzero = first("nonzero")
searchsorted = generic("searchsorted")
where = where_function()
