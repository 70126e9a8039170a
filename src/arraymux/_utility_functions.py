"""Utility functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import first, generic

__all__ = ["all", "any", "diff"]

all = first("all")
any = first("any")
diff = generic("diff")
