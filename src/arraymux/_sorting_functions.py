"""Sorting functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import first

__all__ = ["argsort", "sort"]

argsort = first("argsort")
sort = first("sort")
