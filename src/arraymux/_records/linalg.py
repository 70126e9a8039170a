"""The records of the linalg extension: one per function."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ._record import (
    AXIS,
    COMPLEX_OF_X,
    HERMITIAN,
    MATMUL,
    MATRICES,
    ORDER_DTYPE,
    PROMOTED,
    REAL_OF_X,
    SQUARE,
    TENSORDOT,
    VECDOT_X2,
    VECTOR_AXIS,
    EighResult,
    EigResult,
    QRResult,
    Record,
    SlogdetResult,
    SVDResult,
    Text,
    section,
    two_arrays,
)

#: The dtype of a norm.
NORM_DTYPE: Final = "a real floating-point dtype (that of the precision of ``x`` for complex ``x``)"


def matrix_function(
    name: str,
    summary: str,
    returns: Text,
    *,
    signature: str = "(x, /)",
    x: Text = SQUARE,
    dtypes: str | None = "floating-point",
    parameters: Mapping[str, Text] | None = None,
    result: type[tuple[object, ...]] | None = None,
    since: str = "2024.12",
    operands: str = "floating",
    keeps_dtype: bool = False,
    also_positional: tuple[str, ...] = (),
    zero_d: tuple[str, ...] = (),
    refused: tuple[str, ...] = (),
    by_hand: bool = False,
    example: str,
) -> Record:
    """A function of the matrix (or stack of matrices) ``x`` (described by ``x``: a square one by
    default), defined for floating-point matrices unless ``dtypes`` says otherwise."""
    return Record(
        name,
        "first",
        signature=signature,
        summary=summary,
        dtypes=dtypes,
        parameters={"x": x, **(parameters or {})},
        returns=returns,
        result=result,
        since=since,
        operands=operands,
        keeps_dtype=keeps_dtype,
        also_positional=also_positional,
        zero_d=zero_d,
        refused=refused,
        by_hand=by_hand,
        example=example,
    )


RECORDS = section(
    "linalg",
    matrix_function(
        "linalg.cholesky",
        "Cholesky factor of a symmetric (Hermitian) positive-definite matrix ``x``.",
        (
            "Array",
            "The lower (or, with ``upper``, upper) triangular Cholesky factors, of the shape of "
            f"``x``; its floating-point dtype {PROMOTED}",
        ),
        signature="(x, /, *, upper=False)",
        x=(
            "Array",
            "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian "
            "positive-definite matrix, or a stack of them.",
        ),
        example="""\
>>> xp.linalg.cholesky(xp.asarray([[4.0, 2.0], [2.0, 3.0]]))
Array([[2.        , 0.        ],
       [1.        , 1.41421356]], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.det",
        "Determinant of a square matrix (or stack of square matrices) ``x``.",
        ("Array", "The determinants, of shape ``x.shape[:-2]``, with the dtype of ``x``."),
        example="""\
>>> xp.linalg.det(xp.asarray([[2.0, 1.0], [0.0, 3.0]]))
Array(6., dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.diagonal",
        "The diagonal (or an off-diagonal) of a matrix (or stack of matrices) ``x``.",
        (
            "Array",
            "The diagonals, of shape ``x.shape[:-2] + (L,)`` (``L``: the length of the diagonal), "
            "with the dtype of ``x``.",
        ),
        signature="(x, /, *, offset=0)",
        x=MATRICES,
        dtypes=None,
        operands="any",
        example="""\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.diagonal(x)
Array([1, 4], dtype=int64, device='numpy:cpu')
>>> xp.linalg.diagonal(x, offset=1)
Array([2], dtype=int64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.eig",
        "Eigenvalues and eigenvectors of a square matrix (or stack of matrices) ``x``.",
        (
            "EigResult",
            "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues of shape ``(..., M)`` and "
            "eigenvectors of shape ``(..., M, M)`` (column ``i`` for eigenvalue ``i``), both of "
            f"{COMPLEX_OF_X}.",
        ),
        result=EigResult,
        since="2025.12",
        example="""\
>>> eigenvalues, eigenvectors = xp.linalg.eig(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
>>> eigenvalues
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.eigh",
        "Eigenvalues and eigenvectors of a symmetric (Hermitian) matrix ``x``.",
        (
            "EighResult",
            "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues in ascending order, of "
            f"shape ``(..., M)`` of {REAL_OF_X}, and orthonormal eigenvectors as the columns of "
            "an array of shape ``(..., M, M)`` with the dtype of ``x``.",
        ),
        x=HERMITIAN,
        result=EighResult,
        example="""\
>>> eigenvalues, eigenvectors = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
>>> eigenvalues
Array([1., 3.], dtype=float64, device='numpy:cpu')
>>> eigenvectors.shape
(2, 2)
""",
    ),
    matrix_function(
        "linalg.eigvals",
        "Eigenvalues of a square matrix (or stack of matrices) ``x``.",
        (
            "Array",
            f"The eigenvalues, of shape ``(..., M)`` of {COMPLEX_OF_X}.",
        ),
        since="2025.12",
        example="""\
>>> xp.linalg.eigvals(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.eigvalsh",
        "Eigenvalues of a symmetric (Hermitian) matrix (or stack of matrices) ``x``.",
        (
            "Array",
            f"The eigenvalues in ascending order, of shape ``(..., M)`` of {REAL_OF_X}.",
        ),
        x=HERMITIAN,
        example="""\
>>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
Array([1., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.inv",
        "Multiplicative inverse of a square matrix (or stack of square matrices) ``x``.",
        (
            "Array",
            f"The inverses, of the shape of ``x``; its floating-point dtype {PROMOTED}",
        ),
        example="""\
>>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
Array([[0.5 , 0.  ],
       [0.  , 0.25]], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.matrix_norm",
        "Matrix norm of a matrix (or stack of matrices) ``x``.",
        (
            "Array",
            "The norms, of shape ``x.shape[:-2]`` (with two axes of size one if ``keepdims``), "
            f"of {NORM_DTYPE}.",
        ),
        signature="(x, /, *, keepdims=False, ord='fro')",
        x=MATRICES,
        parameters={
            "keepdims": (
                "bool",
                "If True, the last two axes stay in the result as axes of size one; if False (the "
                "default), they are left out.",
            ),
            "ord": (
                "int, float, inf, -inf, 'fro' or 'nuc'",
                "Order of the norm: ``'fro'`` (the default) the Frobenius norm, ``'nuc'`` the "
                "nuclear norm (sum of singular values), 1 / ``inf`` the largest column / row sum "
                "of absolute values, 2 the largest singular value; -1, ``-inf`` and -2 the "
                "smallest of these.",
            ),
        },
        example="""\
>>> x = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
>>> xp.linalg.matrix_norm(x)
Array(5., dtype=float64, device='numpy:cpu')
>>> xp.linalg.matrix_norm(x, ord="nuc")
Array(7., dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.matrix_power",
        "A square matrix (or stack of square matrices) ``x`` raised to the integer power ``n``.",
        (
            "Array",
            f"The powers, of the shape of ``x``; its floating-point dtype {PROMOTED}",
        ),
        signature="(x, n, /)",
        parameters={
            "n": (
                "int",
                "Exponent: 0 gives identity matrices, a negative value powers of the inverse.",
            ),
        },
        operands="any",
        refused=("bool",),  # torch has no bool matrix product
        by_hand=True,
        example="""\
>>> xp.linalg.matrix_power(xp.asarray([[1.0, 1.0], [0.0, 1.0]]), 3)
Array([[1., 3.],
       [0., 1.]], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.matrix_transpose",
        (
            "Transpose of a matrix (or stack of matrices) ``x`` (the same as "
            "``arraymux.matrix_transpose``)."
        ),
        ("Array", "Same as :func:`arraymux.matrix_transpose`."),
        x=MATRICES,
        dtypes=None,
        operands="any",
        keeps_dtype=True,
        example="""\
>>> xp.linalg.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.qr",
        "QR decomposition of a matrix (or stack of matrices) ``x``.",
        (
            "QRResult",
            "Named tuple ``(Q, R)``: ``Q`` with orthonormal columns and ``R`` upper triangular, "
            "``x = Q @ R``, of the shapes that ``mode`` gives, with the dtype of ``x``.",
        ),
        signature="(x, /, *, mode='reduced')",
        x=(
            "Array",
            "Input array of shape ``(..., M, N)``: a matrix of full column rank, or a stack of "
            "them.",
        ),
        result=QRResult,
        also_positional=("mode",),
        example="""\
>>> x = xp.asarray([[3.0, 0.0], [4.0, 5.0]])
>>> Q, R = xp.linalg.qr(x)
>>> Q.shape, R.shape
((2, 2), (2, 2))
>>> bool(xp.all(xp.abs(Q @ R - x) < 1e-12))
True
""",
    ),
    matrix_function(
        "linalg.slogdet",
        "Sign and natural logarithm of the absolute value of the determinant of ``x``.",
        (
            "SlogdetResult",
            "Named tuple ``(sign, logabsdet)`` of shape ``x.shape[:-2]``: the sign of each "
            "determinant (-1, 0 or 1; ``z / abs(z)`` if complex), with the dtype of ``x``, and "
            "the natural logarithm of its absolute value (``-inf`` where it is zero), of a real "
            "floating-point dtype.",
        ),
        result=SlogdetResult,
        example="""\
>>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
>>> sign, logabsdet
(Array(1., dtype=float64, device='numpy:cpu'), Array(1.79175947, dtype=float64, device='numpy:cpu'))
""",
    ),
    matrix_function(
        "linalg.svd",
        "Singular value decomposition ``x = U @ diag(S) @ Vh`` of a matrix (or stack of matrices).",
        (
            "SVDResult",
            "Named tuple ``(U, S, Vh)``: left singular vectors as columns of ``U``, the singular "
            "values ``S`` of shape ``(..., K)`` in descending order (real floating-point dtype), "
            "and right singular vectors as rows of ``Vh``, with ``x = U @ diag(S) @ Vh``.",
        ),
        signature="(x, /, *, full_matrices=True)",
        x=MATRICES,
        result=SVDResult,
        also_positional=("full_matrices",),
        example="""\
>>> U, S, Vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
>>> S
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.svdvals",
        "Singular values of a matrix (or stack of matrices) ``x``.",
        (
            "Array",
            "The singular values in descending order, of shape ``(..., K)`` with ``K = min(M, "
            f"N)``, of {REAL_OF_X}.",
        ),
        x=MATRICES,
        example="""\
>>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    matrix_function(
        "linalg.trace",
        "Sum along a diagonal of a matrix (or stack of matrices) ``x``.",
        (
            "Array",
            "The traces, of shape ``x.shape[:-2]``, with the dtype described under ``dtype``.",
        ),
        signature="(x, /, *, offset=0, dtype=None)",
        x=MATRICES,
        dtypes="numeric",
        parameters={"dtype": ORDER_DTYPE},
        operands="any",
        zero_d=("offset",),
        example="""\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.trace(x)
Array(5, dtype=int64, device='numpy:cpu')
>>> xp.linalg.trace(x, offset=1)
Array(2, dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.vector_norm",
        "first",
        signature="(x, /, *, axis=None, keepdims=False, ord=2)",
        summary="Vector norm of ``x`` (or of its vectors along the given axes).",
        dtypes="floating-point",
        parameters={
            "axis": (
                "int, tuple of ints or None",
                "Axis (or axes) holding the vectors; None (the default) takes all elements of "
                f"``x`` as one vector. {AXIS}",
            ),
            "keepdims": (
                "bool",
                "If True, the axes of ``axis`` stay in the result as axes of size one; if False "
                "(the default), they are left out.",
            ),
        },
        returns=(
            "Array",
            "The norms: zero-dimensional if ``axis`` is None, else without the axes of ``axis`` "
            f"(with them of size one if ``keepdims``); of {NORM_DTYPE}.",
        ),
        operands="floating",
        zero_d=("axis", "ord"),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([3.0, -4.0])
>>> xp.linalg.vector_norm(x)
Array(5., dtype=float64, device='numpy:cpu')
>>> xp.linalg.vector_norm(x, ord=1), xp.linalg.vector_norm(x, ord=xp.inf)
(Array(7., dtype=float64, device='numpy:cpu'), Array(4., dtype=float64, device='numpy:cpu'))
""",
    ),
    Record(
        "linalg.matrix_rank",
        "generic",
        signature="(x, /, *, rtol=None)",
        summary=(
            "Rank (number of non-zero singular values) of a matrix (or stack of matrices) ``x``."
        ),
        dtypes="floating-point",
        parameters={"x": MATRICES},
        returns=("Array", "The ranks, of shape ``x.shape[:-2]`` and the default integer dtype."),
        arrays={"x": False, "rtol": True},
        operands="floating",
        example="""\
>>> xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
Array(1, dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.pinv",
        "generic",
        signature="(x, /, *, rtol=None)",
        summary="Moore-Penrose pseudo-inverse of a matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={"x": MATRICES},
        returns=(
            "Array",
            f"The pseudo-inverses, of shape ``(..., N, M)``; its floating-point dtype {PROMOTED}",
        ),
        arrays={"x": False, "rtol": True},
        operands="floating",
        example="""\
>>> xp.linalg.pinv(xp.asarray([[1.0, 2.0]]))
Array([[0.2],
       [0.4]], dtype=float64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "linalg.cross",
        "Cross product of the 3-element vectors of ``x1`` and ``x2``.",
        (
            "Array",
            f"The cross products, of the broadcast shape; its dtype {PROMOTED}",
        ),
        signature="(x1, x2, /, *, axis=-1)",
        dtypes="numeric",
        parameters={
            "x1": ("Array", "First input array; its axis ``axis`` must have size 3."),
            "x2": (
                "Array",
                "Second input array; its axis ``axis`` must have size 3, the other axes "
                "broadcast-compatible with those of ``x1``.",
            ),
            "axis": (
                "int",
                "Axis of ``x1`` and ``x2`` that holds the 3-element vectors; default -1 (the last "
                "axis). Should be negative (counted from the last axis).",
            ),
        },
        refused=("bool",),
        by_hand=True,
        example="""\
>>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
Array([0., 0., 1.], dtype=float64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "linalg.outer",
        "Outer product of the vectors ``x1`` and ``x2``.",
        (
            "Array",
            f"Array of shape ``(N, M)`` with ``x1[i] * x2[j]`` at ``[i, j]``; its dtype {PROMOTED}",
        ),
        signature="(x1, x2, /)",
        dtypes="numeric",
        parameters={
            "x1": ("Array", "First one-dimensional input array, of size ``N``."),
            "x2": ("Array", "Second one-dimensional input array, of size ``M``."),
        },
        vectors=("x1", "x2"),  # (NumPy and Dask flattened others)
        example="""\
>>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([3, 4, 5]))
Array([[ 3,  4,  5],
       [ 6,  8, 10]], dtype=int64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "linalg.solve",
        "Solution ``X`` of the square system of linear equations ``x1 @ X = x2``.",
        (
            "Array",
            "The solutions ``X`` of ``x1 @ X = x2``, of the shape of ``x2`` (broadcast); its "
            f"floating-point dtype {PROMOTED}",
        ),
        signature="(x1, x2, /)",
        dtypes="floating-point",
        parameters={
            "x1": ("Array", "Coefficients ``A``: an array of shape ``(..., M, M)`` of full rank."),
            "x2": (
                "Array",
                "Ordinates ``B``: shape ``(M,)`` (one right-hand side) or ``(..., M, K)``, its "
                "stacks broadcast against those of ``x1``.",
            ),
        },
        operands="floating",
        example="""\
>>> xp.linalg.solve(xp.asarray([[3.0, 1.0], [1.0, 2.0]]), xp.asarray([9.0, 8.0]))
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "linalg.tensordot",
        "Tensor contraction of ``x1`` and ``x2`` (the same as ``arraymux.tensordot``).",
        ("Array", "Same as :func:`arraymux.tensordot`."),
        signature="(x1, x2, /, *, axes=2)",
        dtypes="numeric",
        parameters=TENSORDOT,
        refused=("bool",),  # torch has no bool contraction
        example="""\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    ),
    two_arrays(
        "linalg.vecdot",
        "Dot product of the vectors of ``x1`` and ``x2`` (the same as ``arraymux.vecdot``).",
        ("Array", "Same as :func:`arraymux.vecdot`."),
        signature="(x1, x2, /, *, axis=-1)",
        dtypes="floating-point",
        parameters={"x2": VECDOT_X2, "axis": VECTOR_AXIS},
        zero_d=("axis",),
        refused=("bool",),  # torch refuses it; Dask gave int8
        example="""\
>>> xp.linalg.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
Array(32., dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.matmul",
        "binary",
        summary="Matrix product of ``x1`` and ``x2`` (the same as ``arraymux.matmul``).",
        dtypes="numeric",
        parameters=MATMUL,
        returns=("Array", "Same as :func:`arraymux.matmul`."),
        result_dtypes="same numeric",
        refused=("bool",),  # torch has no bool matrix product
        example="""\
>>> xp.linalg.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[5], [6]]))
Array([[17],
       [39]], dtype=int64, device='numpy:cpu')
""",
    ),
)
