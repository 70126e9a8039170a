"""The records of the standard's linear algebra functions: one per function."""

from __future__ import annotations

from ._record import (
    MATMUL,
    MATRICES,
    PROMOTED,
    TENSORDOT,
    VECDOT_X2,
    VECTOR_AXIS,
    Record,
    section,
    two_arrays,
)

RECORDS = section(
    "linear_algebra_functions",
    Record(
        "matmul",
        "binary",
        summary="Matrix product of ``x1`` and ``x2``.",
        dtypes="numeric",
        parameters=MATMUL,
        returns=(
            "Array",
            "The matrix product (a zero-dimensional array for two vectors), the stacks "
            f"broadcast; its dtype {PROMOTED}",
        ),
        refused=("bool",),  # torch has no bool matrix product
        result_dtypes="same numeric",
        example="""\
>>> xp.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[5], [6]]))
Array([[17],
       [39]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "matrix_transpose",
        "first",
        signature="(x, /)",
        summary="Transpose of a matrix (or stack of matrices) ``x``.",
        parameters={"x": MATRICES},
        returns=("Array", "Array of shape ``(..., N, M)`` with the dtype of ``x``."),
        keeps_dtype=True,
        example="""\
>>> xp.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "tensordot",
        "Tensor contraction of ``x1`` and ``x2`` over the given axes.",
        (
            "Array",
            "The contraction, whose axes are the non-contracted axes of ``x1`` followed by those "
            f"of ``x2``; its dtype {PROMOTED}",
        ),
        signature="(x1, x2, /, *, axes=2)",
        dtypes="numeric",
        parameters=TENSORDOT,
        also_positional=("axes",),
        refused=("bool",),  # torch has no bool contraction
        example="""\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.tensordot(a, a, axes=1)
Array([[ 7, 10],
       [15, 22]], dtype=int64, device='numpy:cpu')
>>> xp.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "vecdot",
        "Dot product of the vectors of ``x1`` and ``x2`` along an axis.",
        (
            "Array",
            "The dot products ``sum(conj(x1) * x2, axis=axis)``, of the broadcast shape without "
            f"``axis`` (zero-dimensional for two vectors); its dtype {PROMOTED}",
        ),
        signature="(x1, x2, /, *, axis=-1)",
        dtypes="floating-point",
        parameters={"x2": VECDOT_X2, "axis": VECTOR_AXIS},
        zero_d=("axis",),
        refused=("bool",),  # torch refuses it; Dask gave int8
        example="""\
>>> xp.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
Array(32., dtype=float64, device='numpy:cpu')
""",
    ),
)
