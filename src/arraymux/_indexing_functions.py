"""Indexing functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import generic

__all__ = ["take", "take_along_axis"]

take = generic("take")
take_along_axis = generic("take_along_axis")
