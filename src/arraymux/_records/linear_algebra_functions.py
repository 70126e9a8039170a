"""The records of the standard's linear algebra functions: one per function."""

from __future__ import annotations

from ._record import VECTOR_AXIS, Record, section

RECORDS = section(
    "linear_algebra_functions",
    Record(
        "matmul",
        "binary",
        summary="Matrix product of ``x1`` and ``x2``.",
        dtypes="numeric",
        parameters={
            "x1": (
                "Array",
                "First input array, of at least one dimension; a vector ``(K,)`` is taken as the "
                "matrix ``(1, K)`` and the added axis removed from the result.",
            ),
            "x2": (
                "Array",
                "Second input array, of at least one dimension; a vector ``(K,)`` is taken as the "
                "matrix ``(K, 1)``. Stacks broadcast against those of ``x1``.",
            ),
        },
        returns=(
            "Array",
            "The matrix product (a zero-dimensional array for two vectors), the stacks broadcast; "
            "its dtype is given by the standard's type promotion rules.",
        ),
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
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=("Array", "Array of shape ``(..., N, M)`` with the dtype of ``x``."),
        keeps_dtype=True,
        example="""\
>>> xp.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "tensordot",
        "generic",
        signature="(x1, x2, /, *, axes=2)",
        summary="Tensor contraction of ``x1`` and ``x2`` over the given axes.",
        dtypes="numeric",
        parameters={
            "x2": (
                "Array",
                "Second input array; each contracted axis must have the size of the matching axis "
                "of ``x1``.",
            ),
            "axes": (
                "int or tuple of two sequences of ints",
                "An int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` of "
                "``x2`` (0: outer product; the default 2: double contraction); a pair ``(x1_axes, "
                "x2_axes)`` names the axes to contract.",
            ),
        },
        returns=(
            "Array",
            "The contraction, whose axes are the non-contracted axes of ``x1`` followed by those "
            "of ``x2``; its dtype is given by the standard's type promotion rules.",
        ),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        also_positional=("axes",),
        example="""\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.tensordot(a, a, axes=1)
Array([[ 7, 10],
       [15, 22]], dtype=int64, device='numpy:cpu')
>>> xp.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "vecdot",
        "generic",
        signature="(x1, x2, /, *, axis=-1)",
        summary="Dot product of the vectors of ``x1`` and ``x2`` along an axis.",
        dtypes="floating-point",
        parameters={
            "x2": (
                "Array",
                "Second input array; broadcast-compatible with ``x1`` except along ``axis``, where "
                "it must have the same size.",
            ),
            "axis": VECTOR_AXIS,
        },
        returns=(
            "Array",
            "The dot products ``sum(conj(x1) * x2, axis=axis)``, of the broadcast shape without "
            "``axis`` (zero-dimensional for two vectors); its dtype is given by the standard's "
            "type promotion rules.",
        ),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        zero_d=("axis",),
        example="""\
>>> xp.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
Array(32., dtype=float64, device='numpy:cpu')
""",
    ),
)
