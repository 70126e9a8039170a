"""The records of the linalg extension: one per function."""

from __future__ import annotations

from ._record import (
    ORDER_DTYPE,
    VECTOR_AXIS,
    EighResult,
    EigResult,
    QRResult,
    Record,
    SlogdetResult,
    SVDResult,
    section,
)

RECORDS = section(
    "linalg",
    Record(
        "linalg.cholesky",
        "first",
        signature="(x, /, *, upper=False)",
        summary="Cholesky factor of a symmetric (Hermitian) positive-definite matrix ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian "
                "positive-definite matrix, or a stack of them.",
            )
        },
        returns=(
            "Array",
            "The lower (or, with ``upper``, upper) triangular Cholesky factors, of the shape of "
            "``x``; its floating-point dtype is given by the standard's type promotion rules.",
        ),
        operands="floating",
        example="""\
>>> xp.linalg.cholesky(xp.asarray([[4.0, 2.0], [2.0, 3.0]]))
Array([[2.        , 0.        ],
       [1.        , 1.41421356]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.det",
        "first",
        signature="(x, /)",
        summary="Determinant of a square matrix (or stack of square matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            )
        },
        returns=("Array", "The determinants, of shape ``x.shape[:-2]``, with the dtype of ``x``."),
        operands="floating",
        example="""\
>>> xp.linalg.det(xp.asarray([[2.0, 1.0], [0.0, 3.0]]))
Array(6., dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.diagonal",
        "first",
        signature="(x, /, *, offset=0)",
        summary="The diagonal (or an off-diagonal) of a matrix (or stack of matrices) ``x``.",
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=(
            "Array",
            "The diagonals, of shape ``x.shape[:-2] + (L,)`` (``L``: the length of the diagonal), "
            "with the dtype of ``x``.",
        ),
        example="""\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.diagonal(x)
Array([1, 4], dtype=int64, device='numpy:cpu')
>>> xp.linalg.diagonal(x, offset=1)
Array([2], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.eig",
        "first",
        signature="(x, /)",
        summary="Eigenvalues and eigenvectors of a square matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            )
        },
        returns=(
            "EigResult",
            "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues of shape ``(..., M)`` and "
            "eigenvectors of shape ``(..., M, M)`` (column ``i`` for eigenvalue ``i``), both of "
            "the complex dtype of the precision of ``x`` (``float64`` gives ``complex128``).",
        ),
        result=EigResult,
        since="2025.12",
        operands="floating",
        example="""\
>>> eigenvalues, eigenvectors = xp.linalg.eig(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
>>> eigenvalues
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.eigh",
        "first",
        signature="(x, /)",
        summary="Eigenvalues and eigenvectors of a symmetric (Hermitian) matrix ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian "
                "matrix, or a stack of them.",
            )
        },
        returns=(
            "EighResult",
            "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues in ascending order, of shape "
            "``(..., M)`` of the real dtype of the precision of ``x`` (``complex128`` gives "
            "``float64``), and orthonormal eigenvectors as the columns of an array of shape "
            "``(..., M, M)`` with the dtype of ``x``.",
        ),
        result=EighResult,
        operands="floating",
        example="""\
>>> eigenvalues, eigenvectors = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
>>> eigenvalues
Array([1., 3.], dtype=float64, device='numpy:cpu')
>>> eigenvectors.shape
(2, 2)
""",
    ),
    Record(
        "linalg.eigvals",
        "first",
        signature="(x, /)",
        summary="Eigenvalues of a square matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            )
        },
        returns=(
            "Array",
            "The eigenvalues, of shape ``(..., M)`` of the complex dtype of the precision of ``x`` "
            "(``float64`` gives ``complex128``).",
        ),
        since="2025.12",
        operands="floating",
        example="""\
>>> xp.linalg.eigvals(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.eigvalsh",
        "first",
        signature="(x, /)",
        summary="Eigenvalues of a symmetric (Hermitian) matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian "
                "matrix, or a stack of them.",
            )
        },
        returns=(
            "Array",
            "The eigenvalues in ascending order, of shape ``(..., M)`` of the real dtype of the "
            "precision of ``x`` (``complex128`` gives ``float64``).",
        ),
        operands="floating",
        example="""\
>>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
Array([1., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.inv",
        "first",
        signature="(x, /)",
        summary="Multiplicative inverse of a square matrix (or stack of square matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            )
        },
        returns=(
            "Array",
            "The inverses, of the shape of ``x``; its floating-point dtype is given by the "
            "standard's type promotion rules.",
        ),
        operands="floating",
        example="""\
>>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
Array([[0.5 , 0.  ],
       [0.  , 0.25]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.matrix_norm",
        "first",
        signature="(x, /, *, keepdims=False, ord='fro')",
        summary="Matrix norm of a matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.",
            ),
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
        returns=(
            "Array",
            "The norms, of shape ``x.shape[:-2]`` (with two axes of size one if ``keepdims``), of "
            "a real floating-point dtype (that of the precision of ``x`` for complex ``x``).",
        ),
        operands="floating",
        example="""\
>>> x = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
>>> xp.linalg.matrix_norm(x)
Array(5., dtype=float64, device='numpy:cpu')
>>> xp.linalg.matrix_norm(x, ord="nuc")
Array(7., dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.matrix_power",
        "first",
        signature="(x, n, /)",
        summary=(
            "A square matrix (or stack of square matrices) ``x`` raised to the integer power ``n``."
        ),
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            ),
            "n": (
                "int",
                "Exponent: 0 gives identity matrices, a negative value powers of the inverse.",
            ),
        },
        returns=(
            "Array",
            "The powers, of the shape of ``x``; its floating-point dtype is given by the "
            "standard's type promotion rules.",
        ),
        example="""\
>>> xp.linalg.matrix_power(xp.asarray([[1.0, 1.0], [0.0, 1.0]]), 3)
Array([[1., 3.],
       [0., 1.]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.matrix_transpose",
        "first",
        signature="(x, /)",
        summary=(
            "Transpose of a matrix (or stack of matrices) ``x`` (the same as "
            "``arraymux.matrix_transpose``)."
        ),
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=("Array", "Same as :func:`arraymux.matrix_transpose`."),
        keeps_dtype=True,
        example="""\
>>> xp.linalg.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.qr",
        "first",
        signature="(x, /, *, mode='reduced')",
        summary="QR decomposition of a matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, N)``: a matrix of full column rank, or a stack of "
                "them.",
            )
        },
        returns=(
            "QRResult",
            "Named tuple ``(Q, R)``: ``Q`` with orthonormal columns and ``R`` upper triangular, "
            "``x = Q @ R``, of the shapes that ``mode`` gives, with the dtype of ``x``.",
        ),
        result=QRResult,
        operands="floating",
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
    Record(
        "linalg.slogdet",
        "first",
        signature="(x, /)",
        summary="Sign and natural logarithm of the absolute value of the determinant of ``x``.",
        dtypes="floating-point",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
            )
        },
        returns=(
            "SlogdetResult",
            "Named tuple ``(sign, logabsdet)`` of shape ``x.shape[:-2]``: the sign of each "
            "determinant (-1, 0 or 1; ``z / abs(z)`` if complex), with the dtype of ``x``, and the "
            "natural logarithm of its absolute value (``-inf`` where it is zero), of a real "
            "floating-point dtype.",
        ),
        result=SlogdetResult,
        operands="floating",
        example="""\
>>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
>>> sign, logabsdet
(Array(1., dtype=float64, device='numpy:cpu'), Array(1.79175947, dtype=float64, device='numpy:cpu'))
""",
    ),
    Record(
        "linalg.svd",
        "first",
        signature="(x, /, *, full_matrices=True)",
        summary=(
            "Singular value decomposition ``x = U @ diag(S) @ Vh`` of a matrix (or stack of "
            "matrices)."
        ),
        dtypes="floating-point",
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=(
            "SVDResult",
            "Named tuple ``(U, S, Vh)``: left singular vectors as columns of ``U``, the singular "
            "values ``S`` of shape ``(..., K)`` in descending order (real floating-point dtype), "
            "and right singular vectors as rows of ``Vh``, with ``x = U @ diag(S) @ Vh``.",
        ),
        result=SVDResult,
        operands="floating",
        also_positional=("full_matrices",),
        example="""\
>>> U, S, Vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
>>> S
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.svdvals",
        "first",
        signature="(x, /)",
        summary="Singular values of a matrix (or stack of matrices) ``x``.",
        dtypes="floating-point",
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=(
            "Array",
            "The singular values in descending order, of shape ``(..., K)`` with ``K = min(M, "
            "N)``, of the real dtype of the precision of ``x`` (``complex128`` gives ``float64``).",
        ),
        operands="floating",
        example="""\
>>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.trace",
        "first",
        signature="(x, /, *, offset=0, dtype=None)",
        summary="Sum along a diagonal of a matrix (or stack of matrices) ``x``.",
        dtypes="numeric",
        parameters={
            "x": (
                "Array",
                "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.",
            ),
            "dtype": ORDER_DTYPE,
        },
        returns=(
            "Array",
            "The traces, of shape ``x.shape[:-2]``, with the dtype described under ``dtype``.",
        ),
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
                "``x`` as one vector. A negative axis counts from the last axis.",
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
            "(with them of size one if ``keepdims``); of a real floating-point dtype (that of the "
            "precision of ``x`` for complex ``x``).",
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
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
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
        parameters={
            "x": ("Array", "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.")
        },
        returns=(
            "Array",
            "The pseudo-inverses, of shape ``(..., N, M)``; its floating-point dtype is given by "
            "the standard's type promotion rules.",
        ),
        arrays={"x": False, "rtol": True},
        operands="floating",
        example="""\
>>> xp.linalg.pinv(xp.asarray([[1.0, 2.0]]))
Array([[0.2],
       [0.4]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.cross",
        "generic",
        signature="(x1, x2, /, *, axis=-1)",
        summary="Cross product of the 3-element vectors of ``x1`` and ``x2``.",
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
        returns=(
            "Array",
            "The cross products, of the broadcast shape; its dtype is given by the standard's type "
            "promotion rules.",
        ),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        example="""\
>>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
Array([0., 0., 1.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.outer",
        "generic",
        signature="(x1, x2, /)",
        summary="Outer product of the vectors ``x1`` and ``x2``.",
        dtypes="numeric",
        parameters={
            "x1": ("Array", "First one-dimensional input array, of size ``N``."),
            "x2": ("Array", "Second one-dimensional input array, of size ``M``."),
        },
        returns=(
            "Array",
            "Array of shape ``(N, M)`` with ``x1[i] * x2[j]`` at ``[i, j]``; its dtype is given by "
            "the standard's type promotion rules.",
        ),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        example="""\
>>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([3, 4, 5]))
Array([[ 3,  4,  5],
       [ 6,  8, 10]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.solve",
        "generic",
        signature="(x1, x2, /)",
        summary="Solution ``X`` of the square system of linear equations ``x1 @ X = x2``.",
        dtypes="floating-point",
        parameters={
            "x1": ("Array", "Coefficients ``A``: an array of shape ``(..., M, M)`` of full rank."),
            "x2": (
                "Array",
                "Ordinates ``B``: shape ``(M,)`` (one right-hand side) or ``(..., M, K)``, its "
                "stacks broadcast against those of ``x1``.",
            ),
        },
        returns=(
            "Array",
            "The solutions ``X`` of ``x1 @ X = x2``, of the shape of ``x2`` (broadcast); its "
            "floating-point dtype is given by the standard's type promotion rules.",
        ),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        operands="floating",
        example="""\
>>> xp.linalg.solve(xp.asarray([[3.0, 1.0], [1.0, 2.0]]), xp.asarray([9.0, 8.0]))
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.tensordot",
        "generic",
        signature="(x1, x2, /, *, axes=2)",
        summary="Tensor contraction of ``x1`` and ``x2`` (the same as ``arraymux.tensordot``).",
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
        returns=("Array", "Same as :func:`arraymux.tensordot`."),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        example="""\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linalg.vecdot",
        "generic",
        signature="(x1, x2, /, *, axis=-1)",
        summary=(
            "Dot product of the vectors of ``x1`` and ``x2`` (the same as ``arraymux.vecdot``)."
        ),
        dtypes="floating-point",
        parameters={
            "x2": (
                "Array",
                "Second input array; broadcast-compatible with ``x1`` except along ``axis``, where "
                "it must have the same size.",
            ),
            "axis": VECTOR_AXIS,
        },
        returns=("Array", "Same as :func:`arraymux.vecdot`."),
        promote=(0, 1),
        arrays={"x1": False, "x2": False},
        zero_d=("axis",),
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
        returns=("Array", "Same as :func:`arraymux.matmul`."),
        result_dtypes="same numeric",
        example="""\
>>> xp.linalg.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[5], [6]]))
Array([[17],
       [39]], dtype=int64, device='numpy:cpu')
""",
    ),
)
