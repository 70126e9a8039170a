"""Linear algebra functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import binary, first, generic

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

matmul = binary("matmul")
matrix_transpose = first("matrix_transpose")
tensordot = generic("tensordot")
vecdot = generic("vecdot")
