"""The ``linalg`` extension of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import binary, first, generic

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

cholesky = first("linalg.cholesky")
det = first("linalg.det")
diagonal = first("linalg.diagonal")
eig = first("linalg.eig")
eigh = first("linalg.eigh")
eigvals = first("linalg.eigvals")
eigvalsh = first("linalg.eigvalsh")
inv = first("linalg.inv")
matrix_norm = first("linalg.matrix_norm")
matrix_power = first("linalg.matrix_power")
matrix_transpose = first("linalg.matrix_transpose")
qr = first("linalg.qr")
slogdet = first("linalg.slogdet")
svd = first("linalg.svd")
svdvals = first("linalg.svdvals")
trace = first("linalg.trace")
vector_norm = first("linalg.vector_norm")
matrix_rank = generic("linalg.matrix_rank")
pinv = generic("linalg.pinv")
cross = generic("linalg.cross")
outer = generic("linalg.outer")
solve = generic("linalg.solve")
tensordot = generic("linalg.tensordot")
vecdot = generic("linalg.vecdot")
matmul = binary("linalg.matmul")
