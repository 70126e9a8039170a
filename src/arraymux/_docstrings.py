"""The sections of the docstrings of the functions that :mod:`arraymux._dispatch` makes.

A generated function's docstring (made in :mod:`arraymux._dispatch` and, for the ``*_like``
functions, :mod:`arraymux._creation_functions`) takes its summary and its ``Parameters``,
``Returns`` and ``Examples`` sections from the tables here, through :func:`sections` and
:func:`examples`:

- ``SUMMARIES``: the one-line summary of each function;
- ``PARAMETERS``: the type and description of each parameter by its name (``x``, ``axis``,
  ``keepdims``, ``dtype``, ...), with ``RULE_PARAMETERS`` for the parameters a dispatch rule
  gives its own meaning (the operands of binary functions may be Python scalars) and
  ``OVERRIDES`` for the functions where a name means something else again; ``DTYPES`` adds
  the dtype that the array operands ``x``, ``x1`` and ``x2`` of a function should have;
- ``RETURNS``: the type and meaning of each function's result;
- ``EXAMPLES``: each function's doctest, its input lines and their expected output written
  out (``import arraymux as xp`` is put in front); they run on the default device, NumPy.

Descriptions follow the Array API standard 2025.12; the parameters listed are those of each
function's signature (:mod:`arraymux._signatures`, or the function's own).
"""

from __future__ import annotations

import inspect
import re
from typing import Any, Final

#: (type, description) of a parameter or of a result.
Entry = tuple[str, str]

# ---------------------------------------------------------------------------------------------
# Summaries

SUMMARIES: Final[dict[str, str]] = {
    # element-wise, one operand
    "abs": "Absolute value of each element of ``x``.",
    "acos": "Principal value of the inverse cosine of each element of ``x``, in radians.",
    "acosh": "Inverse hyperbolic cosine of each element of ``x``.",
    "asin": "Principal value of the inverse sine of each element of ``x``, in radians.",
    "asinh": "Inverse hyperbolic sine of each element of ``x``.",
    "atan": "Principal value of the inverse tangent of each element of ``x``, in radians.",
    "atanh": "Inverse hyperbolic tangent of each element of ``x``.",
    "bitwise_invert": "Bitwise NOT (every bit flipped) of each element of ``x``.",
    "ceil": "Smallest integer-valued number not less than each element of ``x``.",
    "conj": "Complex conjugate of each element of ``x``.",
    "cos": "Cosine of each element of ``x`` (in radians).",
    "cosh": "Hyperbolic cosine of each element of ``x``.",
    "exp": "Exponential ``e**x`` of each element of ``x``.",
    "expm1": "``exp(x) - 1`` of each element of ``x``, accurate for ``x`` near zero.",
    "floor": "Greatest integer-valued number not greater than each element of ``x``.",
    "imag": "Imaginary component of each element of ``x``.",
    "isfinite": "Whether each element of ``x`` is finite (neither infinite nor NaN).",
    "isinf": "Whether each element of ``x`` is positive or negative infinity.",
    "isnan": "Whether each element of ``x`` is NaN.",
    "log": "Natural (base ``e``) logarithm of each element of ``x``.",
    "log1p": "``log(1 + x)`` of each element of ``x``, accurate for ``x`` near zero.",
    "log2": "Base 2 logarithm of each element of ``x``.",
    "log10": "Base 10 logarithm of each element of ``x``.",
    "logical_not": "Logical NOT of each element of ``x``.",
    "negative": "Numerical negative ``-x`` of each element of ``x``.",
    "positive": "Numerical positive ``+x`` of each element of ``x``.",
    "real": "Real component of each element of ``x``.",
    "reciprocal": "Reciprocal ``1 / x`` of each element of ``x``.",
    "round": "Each element of ``x`` rounded to the nearest integer-valued number (halves to even).",
    "sign": "Sign of each element of ``x``: -1, 0 or 1 (``x / abs(x)`` for complex numbers).",
    "signbit": "Whether the sign bit of each element of ``x`` is set.",
    "sin": "Sine of each element of ``x`` (in radians).",
    "sinh": "Hyperbolic sine of each element of ``x``.",
    "square": "Square ``x * x`` of each element of ``x``.",
    "sqrt": "Principal square root of each element of ``x``.",
    "tan": "Tangent of each element of ``x`` (in radians).",
    "tanh": "Hyperbolic tangent of each element of ``x``.",
    "trunc": "Each element of ``x`` rounded toward zero to an integer-valued number.",
    # element-wise, two operands
    "add": "Sum ``x1 + x2``, element-wise.",
    "atan2": "Inverse tangent of ``x1 / x2`` in the quadrant of the point ``(x2, x1)``, element-wise.",
    "bitwise_and": "Bitwise AND of ``x1`` and ``x2``, element-wise.",
    "bitwise_left_shift": "Bits of ``x1`` shifted left by ``x2``, element-wise.",
    "bitwise_or": "Bitwise OR of ``x1`` and ``x2``, element-wise.",
    "bitwise_right_shift": "Bits of ``x1`` shifted right by ``x2``, element-wise.",
    "bitwise_xor": "Bitwise XOR of ``x1`` and ``x2``, element-wise.",
    "copysign": "Magnitude of ``x1`` with the sign of ``x2``, element-wise.",
    "divide": "True division ``x1 / x2``, element-wise.",
    "equal": "Truth value of ``x1 == x2``, element-wise.",
    "floor_divide": "Floor division ``x1 // x2`` (rounded toward negative infinity), element-wise.",
    "greater": "Truth value of ``x1 > x2``, element-wise.",
    "greater_equal": "Truth value of ``x1 >= x2``, element-wise.",
    "hypot": "Hypotenuse ``sqrt(x1**2 + x2**2)``, element-wise, without undue overflow.",
    "less": "Truth value of ``x1 < x2``, element-wise.",
    "less_equal": "Truth value of ``x1 <= x2``, element-wise.",
    "logaddexp": "``log(exp(x1) + exp(x2))``, element-wise, without undue overflow.",
    "logical_and": "Logical AND of ``x1`` and ``x2``, element-wise.",
    "logical_or": "Logical OR of ``x1`` and ``x2``, element-wise.",
    "logical_xor": "Logical XOR of ``x1`` and ``x2``, element-wise.",
    "maximum": "Larger of ``x1`` and ``x2``, element-wise (NaN if either is NaN).",
    "minimum": "Smaller of ``x1`` and ``x2``, element-wise (NaN if either is NaN).",
    "multiply": "Product ``x1 * x2``, element-wise.",
    "nextafter": "Next representable floating-point value after ``x1`` toward ``x2``, element-wise.",
    "not_equal": "Truth value of ``x1 != x2``, element-wise.",
    "pow": "``x1`` raised to the power ``x2``, element-wise.",
    "remainder": "Remainder of ``x1 / x2`` with the sign of ``x2``, element-wise.",
    "subtract": "Difference ``x1 - x2``, element-wise.",
    "clip": "Each element of ``x`` clamped to the range ``[min, max]``.",
    # creation
    "arange": "Evenly spaced values in the half-open interval ``[start, stop)``.",
    "empty": "A new array of the given shape, its elements uninitialized.",
    "eye": "A two-dimensional array with ones on the ``k``-th diagonal and zeros elsewhere.",
    "full": "A new array of the given shape, every element ``fill_value``.",
    "linspace": "``num`` evenly spaced numbers over the interval from ``start`` to ``stop``.",
    "ones": "A new array of the given shape, filled with ones.",
    "zeros": "A new array of the given shape, filled with zeros.",
    "empty_like": "A new array with the shape of ``x``, its elements uninitialized.",
    "full_like": "A new array with the shape of ``x``, every element ``fill_value``.",
    "ones_like": "A new array with the shape of ``x``, filled with ones.",
    "zeros_like": "A new array with the shape of ``x``, filled with zeros.",
    "tril": "Lower triangular part of a matrix (or stack of matrices) ``x``.",
    "triu": "Upper triangular part of a matrix (or stack of matrices) ``x``.",
    "meshgrid": "Coordinate matrices from coordinate vectors.",
    # indexing
    "take": "Elements of ``x`` at ``indices`` along an axis.",
    "take_along_axis": "Elements of ``x`` at the one-dimensional ``indices`` along ``axis``.",
    # linear algebra
    "matmul": "Matrix product of ``x1`` and ``x2``.",
    "matrix_transpose": "Transpose of a matrix (or stack of matrices) ``x``.",
    "tensordot": "Tensor contraction of ``x1`` and ``x2`` over the given axes.",
    "vecdot": "Dot product of the vectors of ``x1`` and ``x2`` along an axis.",
    # manipulation
    "broadcast_arrays": "Broadcast arrays against one another.",
    "broadcast_to": "``x`` broadcast to a shape.",
    "concat": "Arrays joined along an existing axis.",
    "expand_dims": "``x`` with a new axis of size one inserted at each position in ``axis``.",
    "flip": "``x`` with the order of its elements reversed along the given axes.",
    "moveaxis": "``x`` with axes moved to new positions, the other axes in their order.",
    "permute_dims": "``x`` with its axes permuted.",
    "repeat": "Each element of ``x`` repeated a number of times.",
    "reshape": "``x`` with a new shape and the same data.",
    "roll": "Elements of ``x`` shifted cyclically along the given axes.",
    "squeeze": "``x`` with axes of size one removed.",
    "stack": "Arrays joined along a new axis.",
    "tile": "An array made by tiling ``x``.",
    "unstack": "``x`` split into a tuple of arrays along an axis.",
    # searching
    "argmax": "Indices of the maximum values along an axis (first occurrences).",
    "argmin": "Indices of the minimum values along an axis (first occurrences).",
    "count_nonzero": "Number of non-zero elements of ``x``, over the given axes.",
    "nonzero": "Indices of the non-zero elements of ``x``.",
    "searchsorted": "Indices at which to insert ``x2`` into the sorted ``x1`` to keep it sorted.",
    "where": "Elements of ``x1`` where ``condition`` is True, else of ``x2``.",
    # sets
    "isin": "Whether each element of ``x1`` is in ``x2``.",
    "unique_all": "Unique elements of ``x``, their first indices, inverse indices and counts.",
    "unique_counts": "Unique elements of ``x`` and the number of times each occurs.",
    "unique_inverse": "Unique elements of ``x`` and the indices that rebuild ``x`` from them.",
    "unique_values": "Unique elements of ``x``.",
    # sorting
    "argsort": "Indices that sort ``x`` along an axis.",
    "sort": "A sorted copy of ``x``.",
    # statistics
    "cumulative_prod": "Cumulative product of the elements of ``x`` along an axis.",
    "cumulative_sum": "Cumulative sum of the elements of ``x`` along an axis.",
    "max": "Maximum of the elements of ``x``, over the given axes.",
    "mean": "Arithmetic mean of the elements of ``x``, over the given axes.",
    "min": "Minimum of the elements of ``x``, over the given axes.",
    "prod": "Product of the elements of ``x``, over the given axes.",
    "std": "Standard deviation of the elements of ``x``, over the given axes.",
    "sum": "Sum of the elements of ``x``, over the given axes.",
    "var": "Variance of the elements of ``x``, over the given axes.",
    # utilities
    "all": "Whether all elements of ``x`` are True (non-zero), over the given axes.",
    "any": "Whether any element of ``x`` is True (non-zero), over the given axes.",
    "diff": "``n``-th discrete forward difference of ``x`` along an axis.",
    # linalg
    "linalg.cholesky": "Cholesky factor of a symmetric (Hermitian) positive-definite matrix ``x``.",
    "linalg.cross": "Cross product of the 3-element vectors of ``x1`` and ``x2``.",
    "linalg.det": "Determinant of a square matrix (or stack of square matrices) ``x``.",
    "linalg.diagonal": "The diagonal (or an off-diagonal) of a matrix (or stack of matrices) ``x``.",
    "linalg.eig": "Eigenvalues and eigenvectors of a square matrix (or stack of matrices) ``x``.",
    "linalg.eigh": "Eigenvalues and eigenvectors of a symmetric (Hermitian) matrix ``x``.",
    "linalg.eigvals": "Eigenvalues of a square matrix (or stack of matrices) ``x``.",
    "linalg.eigvalsh": "Eigenvalues of a symmetric (Hermitian) matrix (or stack of matrices) ``x``.",
    "linalg.inv": "Multiplicative inverse of a square matrix (or stack of square matrices) ``x``.",
    "linalg.matmul": "Matrix product of ``x1`` and ``x2`` (the same as ``arraymux.matmul``).",
    "linalg.matrix_norm": "Matrix norm of a matrix (or stack of matrices) ``x``.",
    "linalg.matrix_power": "A square matrix (or stack of square matrices) ``x`` raised to the integer power ``n``.",
    "linalg.matrix_rank": "Rank (number of non-zero singular values) of a matrix (or stack of matrices) ``x``.",
    "linalg.matrix_transpose": "Transpose of a matrix (or stack of matrices) ``x`` (the same as ``arraymux.matrix_transpose``).",
    "linalg.outer": "Outer product of the vectors ``x1`` and ``x2``.",
    "linalg.pinv": "Moore-Penrose pseudo-inverse of a matrix (or stack of matrices) ``x``.",
    "linalg.qr": "QR decomposition of a matrix (or stack of matrices) ``x``.",
    "linalg.slogdet": "Sign and natural logarithm of the absolute value of the determinant of ``x``.",
    "linalg.solve": "Solution ``X`` of the square system of linear equations ``x1 @ X = x2``.",
    "linalg.svd": "Singular value decomposition ``x = U @ diag(S) @ Vh`` of a matrix (or stack of matrices).",
    "linalg.svdvals": "Singular values of a matrix (or stack of matrices) ``x``.",
    "linalg.tensordot": "Tensor contraction of ``x1`` and ``x2`` (the same as ``arraymux.tensordot``).",
    "linalg.trace": "Sum along a diagonal of a matrix (or stack of matrices) ``x``.",
    "linalg.vecdot": "Dot product of the vectors of ``x1`` and ``x2`` (the same as ``arraymux.vecdot``).",
    "linalg.vector_norm": "Vector norm of ``x`` (or of its vectors along the given axes).",
    # fft
    "fft.fft": "One-dimensional discrete Fourier transform.",
    "fft.ifft": "One-dimensional inverse discrete Fourier transform.",
    "fft.fftn": "N-dimensional discrete Fourier transform.",
    "fft.ifftn": "N-dimensional inverse discrete Fourier transform.",
    "fft.rfft": "One-dimensional discrete Fourier transform of a real-valued input.",
    "fft.irfft": "Inverse of ``rfft``: a real-valued signal from the one-sided spectrum ``x``.",
    "fft.rfftn": "N-dimensional discrete Fourier transform of a real-valued input.",
    "fft.irfftn": "Inverse of ``rfftn``: a real-valued signal from the one-sided spectrum ``x``.",
    "fft.hfft": "Discrete Fourier transform of a signal with Hermitian symmetry (a real spectrum).",
    "fft.ihfft": "Inverse discrete Fourier transform of a real signal, whose spectrum is Hermitian.",
    "fft.fftshift": "Spectrum with its zero-frequency component shifted to the center.",
    "fft.ifftshift": "Inverse of ``fftshift``.",
    "fft.fftfreq": "Sample frequencies of the discrete Fourier transform.",
    "fft.rfftfreq": "Sample frequencies of ``rfft`` and ``irfft`` (the non-negative ones).",
}

# ---------------------------------------------------------------------------------------------
# Parameters

_AXIS = "A negative axis counts from the last axis."
_REDUCE_AXIS = (
    "int, tuple of ints or None",
    f"Axis or axes to reduce; None (the default) reduces over all axes. {_AXIS}",
)
_ORDER_DTYPE = (
    "DType or None",
    "Dtype of the result, which the input is cast to before computing; None (the default) "
    "keeps the dtype of ``x``, except for integer dtypes narrower than the default integer "
    "dtype, which give the default integer dtype (signed) or the unsigned integer dtype of "
    "its width (unsigned).",
)

#: By parameter name.
PARAMETERS: Final[dict[str, Entry]] = {
    "x": ("Array", "Input array."),
    "x1": ("Array", "First input array."),
    "x2": ("Array", "Second input array; must be broadcast-compatible with ``x1``."),
    "axis": _REDUCE_AXIS,
    "keepdims": (
        "bool",
        "If True, the reduced axes stay in the result as axes of size one, so that it "
        "broadcasts against ``x``; if False (the default), they are left out.",
    ),
    "dtype": (
        "DType or None",
        "Dtype of the result (an arraymux dtype, a backend's dtype, or a dtype name); None "
        "(the default) infers it from the arguments: the device's default integer, real or "
        "complex floating-point dtype for Python ints, floats or complex numbers.",
    ),
    "device": (
        "Device, str or None",
        "Device to create the array on: a :class:`Device`, a device string such as "
        '``"torch:cuda:0"``, or a backend\'s device object; None (the default) uses '
        ":func:`get_default_device`.",
    ),
    "copy": (
        "bool or None",
        "True always copies; False never copies and raises ``ValueError`` where a copy is "
        "needed; None (the default) copies only if needed.",
    ),
    "correction": (
        "int or float",
        "Degrees of freedom adjustment: the divisor is ``N - correction``, where ``N`` is the "
        "number of elements reduced; 0 (the default) gives the population value, 1 the "
        "unbiased sample value (Bessel's correction).",
    ),
    "descending": (
        "bool",
        "If True, sort in descending order; if False (the default), in ascending order.",
    ),
    "stable": (
        "bool",
        "If True (the default), elements that compare equal keep their relative order; if "
        "False, their relative order is unspecified.",
    ),
    "shape": ("int or tuple of ints", "Shape of the result."),
    "fill_value": ("bool, int, float or complex", "Value of every element."),
    "start": ("int, float or complex", "Start of the interval (included)."),
    "stop": ("int, float or complex", "End of the interval."),
    "num": ("int", "Number of samples; must be non-negative."),
    "endpoint": (
        "bool",
        "If True (the default), the interval is closed and ``stop`` is the last sample; if "
        "False, ``stop`` is left out (the interval is half-open).",
    ),
    "n_rows": ("int", "Number of rows of the result."),
    "n_cols": (
        "int or None",
        "Number of columns of the result; None (the default) means ``n_rows``.",
    ),
    "k": (
        "int",
        "Index of the diagonal: 0 (the default) is the main diagonal, a positive value a "
        "diagonal above it, a negative value one below it.",
    ),
    "offset": (
        "int",
        "Offset of the diagonal from the main diagonal: 0 (the default) is the main diagonal, "
        "a positive value a diagonal above it, a negative value one below it.",
    ),
    "arrays": (
        "tuple or list of Arrays",
        "Arrays to join, on one device; they must have the same shape, except along ``axis``.",
    ),
    "indexing": (
        "{'xy', 'ij'}",
        "Cartesian (``'xy'``, the default: the first two axes of the results are swapped) or "
        "matrix (``'ij'``) indexing of the results; without effect for fewer than two arrays.",
    ),
    "indices": (
        "Array",
        "One-dimensional array of integer indices; a negative index counts from the last element.",
    ),
    "shift": (
        "int or tuple of ints",
        "Number of places to shift the elements by (toward larger indices if positive); a "
        "tuple gives one shift per axis of ``axis``, an int shifts every axis of ``axis`` by it.",
    ),
    "source": ("int or tuple of ints", "Axis (or axes) to move."),
    "destination": (
        "int or tuple of ints",
        "New position of each axis of ``source``, in the same order.",
    ),
    "repetitions": (
        "tuple of ints",
        "Number of repetitions along each axis; the shorter of ``x.shape`` and "
        "``repetitions`` is padded with ones at the front.",
    ),
    "repeats": (
        "int or Array",
        "Number of repetitions of each element: an int for every element, or a "
        "one-dimensional integer array of length 1 or of the length of the axis (of the "
        "flattened ``x`` if ``axis`` is None).",
    ),
    "side": (
        "{'left', 'right'}",
        "For a value equal to an element of ``x1``: ``'left'`` (the default) gives the index of "
        "the first such element, ``'right'`` the index after the last one.",
    ),
    "sorter": (
        "Array or None",
        "Integer indices that sort ``x1`` in ascending order (as :func:`argsort` gives); None "
        "(the default): ``x1`` is sorted already.",
    ),
    "invert": (
        "bool",
        "If True, test whether each element of ``x1`` is not in ``x2`` instead; default False.",
    ),
    "condition": (
        "Array",
        "Where True, take the element of ``x1``, elsewhere that of ``x2``; must be "
        "broadcast-compatible with them. Should have a boolean dtype.",
    ),
    "min": (
        "int, float, Array or None",
        "Lower bound, broadcast-compatible with ``x``; None (the default): no lower bound. "
        "Should have the dtype of ``x``.",
    ),
    "max": (
        "int, float, Array or None",
        "Upper bound, broadcast-compatible with ``x``; None (the default): no upper bound. "
        "Should have the dtype of ``x``.",
    ),
    "include_initial": (
        "bool",
        "If True, the result starts with the initial value (the identity of the operation) "
        "and its axis is one longer than that of ``x``; default False.",
    ),
    "prepend": (
        "Array or None",
        "Values to put before ``x`` along ``axis`` before differencing; same shape as ``x`` "
        "except along ``axis``. Should have the dtype of ``x``.",
    ),
    "append": (
        "Array or None",
        "Values to put after ``x`` along ``axis`` before differencing; same shape as ``x`` "
        "except along ``axis``. Should have the dtype of ``x``.",
    ),
    "upper": (
        "bool",
        "If True, return the upper-triangular factor ``U`` (``x = U^H @ U``); if False (the "
        "default), the lower-triangular factor ``L`` (``x = L @ L^H``).",
    ),
    "mode": (
        "{'reduced', 'complete'}",
        "``'reduced'`` (the default): ``Q`` of shape ``(..., M, K)`` and ``R`` of shape "
        "``(..., K, N)``, with ``K = min(M, N)``; ``'complete'``: ``Q`` of shape "
        "``(..., M, M)`` and ``R`` of shape ``(..., M, N)``.",
    ),
    "full_matrices": (
        "bool",
        "If True (the default), ``U`` has shape ``(..., M, M)`` and ``Vh`` ``(..., N, N)``; if "
        "False, ``(..., M, K)`` and ``(..., K, N)``, with ``K = min(M, N)``.",
    ),
    "rtol": (
        "float, Array or None",
        "Relative tolerance: singular values at most ``rtol`` times the largest one count as "
        "zero; None (the default) uses ``max(M, N)`` times the machine epsilon of the dtype of "
        "``x``. An array must broadcast against ``x.shape[:-2]``.",
    ),
    "ord": (
        "int, float, inf or -inf",
        "Order of the norm: 2 (the default) the Euclidean norm, 1 the sum of absolute values, "
        "``inf`` the largest absolute value, other values ``p >= 1`` the p-norm; 0, ``-inf`` and "
        "other negative values give the standard's non-norms (number of non-zeros, smallest "
        "absolute value, ...).",
    ),
    "n": (
        "int or None",
        "Length of the transformed axis of the input: it is zero-padded or trimmed to ``n`` "
        "elements; None (the default) uses its length.",
    ),
    "s": (
        "sequence of ints or None",
        "Length of each transformed axis of the input (in the order of ``axes``): each is "
        "zero-padded or trimmed to it, -1 keeping its length; None (the default) keeps every "
        "length. Requires ``axes``.",
    ),
    "axes": (
        "sequence of ints or None",
        "Axes to transform; None (the default) transforms every axis. A negative axis counts "
        "from the last axis.",
    ),
    "norm": (
        "{'backward', 'ortho', 'forward'}",
        "Normalization: ``'backward'`` (the default) scales only inverse transforms, by "
        "``1/n``; ``'ortho'`` scales both directions by ``1/sqrt(n)``; ``'forward'`` scales only "
        "forward transforms, by ``1/n`` (``n``: the number of points transformed).",
    ),
    "d": ("float", "Sample spacing (the inverse of the sampling rate); default 1.0."),
}

#: The parameters that a dispatch rule gives its own meaning.
RULE_PARAMETERS: Final[dict[str, dict[str, Entry]]] = {
    "binary": {
        "x1": (
            "Array or Python scalar",
            "First input array; may be a Python scalar if ``x2`` is an array.",
        ),
        "x2": (
            "Array or Python scalar",
            "Second input array, broadcast-compatible with ``x1``; may be a Python scalar if "
            "``x1`` is an array.",
        ),
    },
}

_SCALAR1 = "may be a Python scalar if ``x2`` is an array."
_SCALAR2 = "broadcast-compatible with ``x1``; may be a Python scalar if ``x1`` is an array."
_MATRIX = "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices."
_SQUARE = "Input array of shape ``(..., M, M)``: a square matrix or a stack of them."
_SYMMETRIC = (
    "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian matrix, or a "
    "stack of them."
)
_BY_INDEX = (
    "int or None",
    "Axis along which to search; None (the default) searches the flattened ``x``. " + _AXIS,
)
_ACCUMULATE = (
    "int or None",
    "Axis along which to accumulate; may be None (the default) only if ``x`` is "
    f"one-dimensional. {_AXIS}",
)
_SORT_AXIS = ("int", f"Axis along which to sort; default -1 (the last axis). {_AXIS}")
_VECTOR_AXIS = (
    "int",
    "Axis of ``x1`` and ``x2`` that holds the vectors; default -1 (the last axis). Should be "
    "negative (counted from the last axis).",
)
_FFT_AXIS = ("int", f"Axis to transform; default -1 (the last axis). {_AXIS}")
_OUT_N = (
    "int or None",
    "Length of the transformed axis of the output: the input axis is zero-padded or trimmed "
    "to ``n//2 + 1`` elements; None (the default) gives ``2*(m - 1)`` for an input axis of "
    "length ``m``.",
)
_SHIFT_AXES = (
    "int, sequence of ints or None",
    "Axes to shift; None (the default) shifts every axis.",
)
_FREQ_N = ("int", "Window length: the number of samples of the transformed signal.")
_CREATION_DTYPE = (
    "DType or None",
    "Dtype of the result; None (the default) gives the device's default real floating-point dtype.",
)
_LIKE_DTYPE = ("DType or None", "Dtype of the result; None (the default) keeps that of ``x``.")
_LIKE_DEVICE = (
    "Device, str or None",
    "Device of the result; None (the default) keeps the device of ``x`` (another backend's "
    "device may be given).",
)
_LIKE_X = ("Array", "Array whose shape (and, by default, dtype and device) the result takes.")

#: By function: the parameters that mean something else there.
OVERRIDES: Final[dict[str, dict[str, Entry]]] = {
    "acosh": {"x": ("Array", "Input array: areas of hyperbolic sectors.")},
    "asinh": {"x": ("Array", "Input array: areas of hyperbolic sectors.")},
    "atanh": {"x": ("Array", "Input array: areas of hyperbolic sectors.")},
    "cos": {"x": ("Array", "Input array of angles, in radians.")},
    "sin": {"x": ("Array", "Input array of angles, in radians.")},
    "tan": {"x": ("Array", "Input array of angles, in radians.")},
    "cosh": {"x": ("Array", "Input array of hyperbolic angles.")},
    "sinh": {"x": ("Array", "Input array of hyperbolic angles.")},
    "tanh": {"x": ("Array", "Input array of hyperbolic angles.")},
    "atan2": {
        "x1": ("Array or Python scalar", f"The y-coordinates (numerators); {_SCALAR1}"),
        "x2": ("Array or Python scalar", f"The x-coordinates (denominators), {_SCALAR2}"),
    },
    "copysign": {
        "x1": ("Array or Python scalar", f"The magnitudes; {_SCALAR1}"),
        "x2": (
            "Array or Python scalar",
            f"Values whose signs are applied to the magnitudes, {_SCALAR2}",
        ),
    },
    "divide": {
        "x1": ("Array or Python scalar", f"The dividends; {_SCALAR1}"),
        "x2": ("Array or Python scalar", f"The divisors, {_SCALAR2}"),
    },
    "floor_divide": {
        "x1": ("Array or Python scalar", f"The dividends; {_SCALAR1}"),
        "x2": ("Array or Python scalar", f"The divisors, {_SCALAR2}"),
    },
    "remainder": {
        "x1": ("Array or Python scalar", f"The dividends; {_SCALAR1}"),
        "x2": ("Array or Python scalar", f"The divisors, {_SCALAR2}"),
    },
    "pow": {
        "x1": ("Array or Python scalar", f"The bases; {_SCALAR1}"),
        "x2": ("Array or Python scalar", f"The exponents, {_SCALAR2}"),
    },
    "bitwise_left_shift": {
        "x2": (
            "Array or Python scalar",
            f"Number of bits to shift by, each non-negative; {_SCALAR2}",
        ),
    },
    "bitwise_right_shift": {
        "x2": (
            "Array or Python scalar",
            f"Number of bits to shift by, each non-negative; {_SCALAR2}",
        ),
    },
    "nextafter": {
        "x2": (
            "Array or Python scalar",
            "The directions, broadcast-compatible with ``x1`` and of its dtype; may be a "
            "Python scalar if ``x1`` is an array.",
        ),
    },
    "where": {
        "x1": (
            "Array or Python scalar",
            "Values where ``condition`` is True, broadcast-compatible with ``condition`` and "
            "``x2``; may be a Python scalar if ``x2`` is an array.",
        ),
        "x2": (
            "Array or Python scalar",
            "Values where ``condition`` is False, broadcast-compatible with ``condition`` and "
            "``x1``; may be a Python scalar if ``x1`` is an array.",
        ),
    },
    # creation
    "arange": {
        "start": (
            "int or float",
            "Start of the interval (included) if ``stop`` is given; else the end of the interval (excluded), the start being 0.",
        ),
        "stop": (
            "int, float or None",
            "End of the interval (excluded); None (the default): see ``start``.",
        ),
        "step": (
            "int or float",
            "Distance between two adjacent elements; must not be 0. Default 1.",
        ),
        "dtype": (
            "DType or None",
            "Dtype of the result; None (the default) gives the default integer dtype if ``start``, ``stop`` and ``step`` are ints, else the default real floating-point dtype.",
        ),
    },
    "linspace": {
        "dtype": (
            "DType or None",
            "Dtype of the result; should be floating-point. None (the default) gives the device's default complex floating-point dtype if ``start`` or ``stop`` is complex, else its default real floating-point dtype.",
        ),
    },
    "eye": {"dtype": _CREATION_DTYPE},
    "empty": {"dtype": _CREATION_DTYPE},
    "ones": {"dtype": _CREATION_DTYPE},
    "zeros": {"dtype": _CREATION_DTYPE},
    "full": {
        "dtype": (
            "DType or None",
            "Dtype of the result; None (the default) infers it from ``fill_value``: bool for a "
            "bool, else the device's default integer, real or complex floating-point dtype for "
            "an int, float or complex number.",
        ),
    },
    "empty_like": {"x": _LIKE_X, "dtype": _LIKE_DTYPE, "device": _LIKE_DEVICE},
    "full_like": {"x": _LIKE_X, "dtype": _LIKE_DTYPE, "device": _LIKE_DEVICE},
    "ones_like": {"x": _LIKE_X, "dtype": _LIKE_DTYPE, "device": _LIKE_DEVICE},
    "zeros_like": {"x": _LIKE_X, "dtype": _LIKE_DTYPE, "device": _LIKE_DEVICE},
    "tril": {
        "x": ("Array", _MATRIX),
        "k": (
            "int",
            "Diagonal above which elements are zeroed: 0 (the default) is the main diagonal, a positive value a diagonal above it, a negative value one below it.",
        ),
    },
    "triu": {
        "x": ("Array", _MATRIX),
        "k": (
            "int",
            "Diagonal below which elements are zeroed: 0 (the default) is the main diagonal, a positive value a diagonal above it, a negative value one below it.",
        ),
    },
    "meshgrid": {
        "arrays": (
            "Array",
            "One-dimensional arrays of grid coordinates, on one device; should have the same numeric dtype.",
        ),
    },
    # indexing
    "take": {
        "axis": (
            "int or None",
            f"Axis over which to select; may be None (the default) only if ``x`` is one-dimensional. {_AXIS}",
        ),
    },
    "take_along_axis": {
        "x": ("Array", "Input array; broadcast-compatible with ``indices`` except along ``axis``."),
        "indices": (
            "Array",
            "Integer indices with as many axes as ``x``; broadcast-compatible with ``x`` except along ``axis``. A negative index counts from the last element.",
        ),
        "axis": ("int", f"Axis along which to select; default -1 (the last axis). {_AXIS}"),
    },
    # linear algebra
    "matmul": {
        "x1": (
            "Array",
            "First input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix ``(1, K)`` and the added axis removed from the result.",
        ),
        "x2": (
            "Array",
            "Second input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix ``(K, 1)``. Stacks broadcast against those of ``x1``.",
        ),
    },
    "linalg.matmul": {
        "x1": (
            "Array",
            "First input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix ``(1, K)`` and the added axis removed from the result.",
        ),
        "x2": (
            "Array",
            "Second input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix ``(K, 1)``. Stacks broadcast against those of ``x1``.",
        ),
    },
    "matrix_transpose": {"x": ("Array", _MATRIX)},
    "linalg.matrix_transpose": {"x": ("Array", _MATRIX)},
    "tensordot": {
        "x2": (
            "Array",
            "Second input array; each contracted axis must have the size of the matching axis of ``x1``.",
        ),
        "axes": (
            "int or tuple of two sequences of ints",
            "An int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` of ``x2`` (0: outer product; the default 2: double contraction); a pair ``(x1_axes, x2_axes)`` names the axes to contract.",
        ),
    },
    "linalg.tensordot": {
        "x2": (
            "Array",
            "Second input array; each contracted axis must have the size of the matching axis of ``x1``.",
        ),
        "axes": (
            "int or tuple of two sequences of ints",
            "An int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` of ``x2`` (0: outer product; the default 2: double contraction); a pair ``(x1_axes, x2_axes)`` names the axes to contract.",
        ),
    },
    "vecdot": {
        "x2": (
            "Array",
            "Second input array; broadcast-compatible with ``x1`` except along ``axis``, where it must have the same size.",
        ),
        "axis": _VECTOR_AXIS,
    },
    "linalg.vecdot": {
        "x2": (
            "Array",
            "Second input array; broadcast-compatible with ``x1`` except along ``axis``, where it must have the same size.",
        ),
        "axis": _VECTOR_AXIS,
    },
    # manipulation
    "broadcast_arrays": {
        "arrays": ("Array", "Arrays to broadcast against one another, on one device.")
    },
    "broadcast_to": {
        "shape": (
            "tuple of ints",
            "Shape to broadcast to; ``x.shape`` must be broadcast-compatible with it.",
        )
    },
    "concat": {
        "axis": (
            "int or None",
            f"Axis along which to join; None flattens the arrays first. Default 0. {_AXIS}",
        ),
    },
    "stack": {
        "arrays": ("tuple or list of Arrays", "Arrays to join, on one device and of one shape."),
        "axis": (
            "int",
            "Position of the new axis in the result; default 0. A negative axis counts from the last axis of the result.",
        ),
    },
    "expand_dims": {
        "axis": (
            "int or tuple of ints",
            "Position(s) of the new axes in the result, which has ``x.ndim + len(axis)`` axes. A negative position counts from the last axis of the result.",
        ),
    },
    "flip": {
        "axis": (
            "int, tuple of ints or None",
            f"Axis or axes along which to reverse; None (the default) reverses every axis. {_AXIS}",
        )
    },
    "permute_dims": {
        "axes": (
            "tuple of ints",
            "A permutation of ``(0, 1, ..., x.ndim - 1)``: axis ``i`` of the result is axis ``axes[i]`` of ``x``.",
        )
    },
    "repeat": {
        "axis": (
            "int or None",
            f"Axis along which to repeat; None (the default) flattens ``x`` first (row-major) and returns a one-dimensional array. {_AXIS}",
        ),
    },
    "reshape": {
        "x": ("Array", "Input array to reshape."),
        "shape": (
            "tuple of ints",
            "New shape, with as many elements as ``x``; one entry may be -1, inferred from the others.",
        ),
    },
    "roll": {
        "axis": (
            "int, tuple of ints or None",
            f"Axis or axes along which to shift; None (the default) shifts the flattened ``x`` and restores its shape. {_AXIS}",
        )
    },
    "squeeze": {
        "axis": (
            "int or tuple of ints",
            f"Axis or axes to remove; each must have size one. {_AXIS}",
        )
    },
    "unstack": {"axis": ("int", f"Axis along which to split; default 0. {_AXIS}")},
    # searching
    "argmax": {"axis": _BY_INDEX},
    "argmin": {"axis": _BY_INDEX},
    "searchsorted": {
        "x1": (
            "Array",
            "One-dimensional input array, sorted in ascending order unless ``sorter`` is given.",
        ),
        "x2": ("Array or Python scalar", "Values to find insertion indices for."),
    },
    # sets
    "isin": {
        "x1": (
            "Array or Python scalar",
            "Elements to test; may be a Python scalar if ``x2`` is an array.",
        ),
        "x2": (
            "Array or Python scalar",
            "Values to test against; may be a Python scalar if ``x1`` is an array.",
        ),
    },
    # sorting
    "argsort": {"axis": _SORT_AXIS},
    "sort": {"axis": _SORT_AXIS},
    # statistics
    "cumulative_sum": {"axis": _ACCUMULATE, "dtype": _ORDER_DTYPE},
    "cumulative_prod": {"axis": _ACCUMULATE, "dtype": _ORDER_DTYPE},
    "sum": {"dtype": _ORDER_DTYPE},
    "prod": {"dtype": _ORDER_DTYPE},
    "linalg.trace": {"x": ("Array", _MATRIX), "dtype": _ORDER_DTYPE},
    "diff": {
        "axis": (
            "int",
            f"Axis along which to take differences; default -1 (the last axis). {_AXIS}",
        ),
        "n": ("int", "Number of times to take differences; default 1."),
    },
    # linalg
    "linalg.cholesky": {
        "x": (
            "Array",
            "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian positive-definite matrix, or a stack of them.",
        )
    },
    "linalg.cross": {
        "x1": ("Array", "First input array; its axis ``axis`` must have size 3."),
        "x2": (
            "Array",
            "Second input array; its axis ``axis`` must have size 3, the other axes broadcast-compatible with those of ``x1``.",
        ),
        "axis": (
            "int",
            "Axis of ``x1`` and ``x2`` that holds the 3-element vectors; default -1 (the last axis). Should be negative (counted from the last axis).",
        ),
    },
    "linalg.det": {"x": ("Array", _SQUARE)},
    "linalg.diagonal": {"x": ("Array", _MATRIX)},
    "linalg.eig": {"x": ("Array", _SQUARE)},
    "linalg.eigvals": {"x": ("Array", _SQUARE)},
    "linalg.eigh": {"x": ("Array", _SYMMETRIC)},
    "linalg.eigvalsh": {"x": ("Array", _SYMMETRIC)},
    "linalg.inv": {"x": ("Array", _SQUARE)},
    "linalg.matrix_norm": {
        "x": ("Array", _MATRIX),
        "keepdims": (
            "bool",
            "If True, the last two axes stay in the result as axes of size one; if False (the default), they are left out.",
        ),
        "ord": (
            "int, float, inf, -inf, 'fro' or 'nuc'",
            "Order of the norm: ``'fro'`` (the default) the Frobenius norm, ``'nuc'`` the nuclear norm (sum of singular values), 1 / ``inf`` the largest column / row sum of absolute values, 2 the largest singular value; -1, ``-inf`` and -2 the smallest of these.",
        ),
    },
    "linalg.matrix_power": {
        "x": ("Array", _SQUARE),
        "n": (
            "int",
            "Exponent: 0 gives identity matrices, a negative value powers of the inverse.",
        ),
    },
    "linalg.matrix_rank": {"x": ("Array", _MATRIX)},
    "linalg.outer": {
        "x1": ("Array", "First one-dimensional input array, of size ``N``."),
        "x2": ("Array", "Second one-dimensional input array, of size ``M``."),
    },
    "linalg.pinv": {"x": ("Array", _MATRIX)},
    "linalg.qr": {
        "x": (
            "Array",
            "Input array of shape ``(..., M, N)``: a matrix of full column rank, or a stack of them.",
        )
    },
    "linalg.slogdet": {"x": ("Array", _SQUARE)},
    "linalg.solve": {
        "x1": ("Array", "Coefficients ``A``: an array of shape ``(..., M, M)`` of full rank."),
        "x2": (
            "Array",
            "Ordinates ``B``: shape ``(M,)`` (one right-hand side) or ``(..., M, K)``, its stacks broadcast against those of ``x1``.",
        ),
    },
    "linalg.svd": {"x": ("Array", _MATRIX)},
    "linalg.svdvals": {"x": ("Array", _MATRIX)},
    "linalg.vector_norm": {
        "axis": (
            "int, tuple of ints or None",
            f"Axis (or axes) holding the vectors; None (the default) takes all elements of ``x`` as one vector. {_AXIS}",
        ),
        "keepdims": (
            "bool",
            "If True, the axes of ``axis`` stay in the result as axes of size one; if False (the default), they are left out.",
        ),
    },
    # fft
    "fft.fft": {"axis": _FFT_AXIS},
    "fft.ifft": {"axis": _FFT_AXIS},
    "fft.rfft": {"axis": _FFT_AXIS},
    "fft.ihfft": {"axis": _FFT_AXIS},
    "fft.irfft": {"n": _OUT_N, "axis": _FFT_AXIS},
    "fft.hfft": {"n": _OUT_N, "axis": _FFT_AXIS},
    "fft.irfftn": {
        "s": (
            "sequence of ints or None",
            "Length of each transformed axis of the output (in the order of ``axes``); the last input axis is zero-padded or trimmed to ``s[-1]//2 + 1`` elements, the others to ``s[i]``. None (the default) keeps the lengths, except ``2*(m - 1)`` for the last axis. Requires ``axes``.",
        ),
    },
    "fft.fftshift": {"axes": _SHIFT_AXES},
    "fft.ifftshift": {"axes": _SHIFT_AXES},
    "fft.fftfreq": {"n": _FREQ_N, "dtype": _CREATION_DTYPE},
    "fft.rfftfreq": {"n": _FREQ_N, "dtype": _CREATION_DTYPE},
}


def _each(names: str, value: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), value)


#: By function: the dtype its array operands ``x``, ``x1`` and ``x2`` should have.
DTYPES: Final[dict[str, str]] = {
    **_each(
        "acos acosh asin asinh atan atanh cos cosh exp expm1 log log1p log2 log10 reciprocal "
        "sin sinh sqrt tan tanh mean vecdot linalg.vecdot linalg.cholesky linalg.det linalg.eig "
        "linalg.eigh linalg.eigvals linalg.eigvalsh linalg.inv linalg.matrix_norm "
        "linalg.matrix_power linalg.matrix_rank linalg.pinv linalg.qr linalg.slogdet "
        "linalg.solve linalg.svd linalg.svdvals linalg.vector_norm fft.fftshift "
        "fft.ifftshift",
        "floating-point",
    ),
    **_each(
        "atan2 copysign hypot logaddexp nextafter signbit std var fft.rfft fft.rfftn fft.ihfft",
        "real-valued floating-point",
    ),
    **_each(
        "fft.fft fft.ifft fft.fftn fft.ifftn fft.irfft fft.irfftn fft.hfft",
        "complex floating-point",
    ),
    **_each(
        "abs add conj divide isfinite isinf isnan multiply negative positive pow real round "
        "sign square subtract matmul linalg.matmul tensordot linalg.tensordot linalg.cross "
        "linalg.outer linalg.trace cumulative_prod cumulative_sum prod sum diff",
        "numeric",
    ),
    **_each(
        "ceil floor trunc clip floor_divide greater greater_equal less less_equal maximum "
        "minimum remainder argmax argmin searchsorted argsort sort max min",
        "real-valued",
    ),
    **_each("bitwise_and bitwise_or bitwise_xor bitwise_invert", "integer or boolean"),
    **_each("bitwise_left_shift bitwise_right_shift isin", "integer"),
    **_each("logical_and logical_or logical_xor logical_not", "boolean"),
    "imag": "complex floating-point",
}

# ---------------------------------------------------------------------------------------------
# Returns

_PROMOTED = "its dtype is given by the standard's type promotion rules"
_PROMOTED_FLOAT = "its floating-point dtype is given by the standard's type promotion rules"
_SAME = "with the dtype of ``x``"
_BOOL = "Array of dtype bool"
_REDUCED = (
    "a zero-dimensional array if all axes are reduced, else an array without the reduced "
    "axes (with them of size one if ``keepdims``)"
)
_INDEX = "of the default integer dtype"
_CONTRACTED = "Same as :func:`arraymux.{0}`."
_FFT_COMPLEX = "the shape of ``x`` except along the transformed {0}, of {1}, and the dtype of ``x``"
_TO_COMPLEX = "of the complex dtype of the precision of ``x`` (``float64`` gives ``complex128``)"
_TO_REAL = "of the real dtype of the precision of ``x`` (``complex128`` gives ``float64``)"


def _unary(what: str, dtype: str = _PROMOTED_FLOAT) -> Entry:
    return ("Array", f"{what} of each element of ``x``; {dtype}.")


def _binary(what: str, dtype: str = _PROMOTED) -> Entry:
    return (
        "Array",
        f"The element-wise {what}, of the broadcast shape of ``x1`` and ``x2``; {dtype}.",
    )


def _compare(op: str) -> Entry:
    return (
        _BOOL,
        f"True where ``x1 {op} x2``, of the broadcast shape of ``x1`` and ``x2``.",
    )


RETURNS: Final[dict[str, Entry]] = {
    "abs": (
        "Array",
        "The absolute value of each element of ``x``; with the dtype of ``x`` if real, else the "
        "real floating-point dtype of its precision (``complex128`` gives ``float64``).",
    ),
    "acos": _unary("The inverse cosine, in radians in ``[0, pi]``,"),
    "acosh": _unary("The inverse hyperbolic cosine"),
    "asin": _unary("The inverse sine, in radians in ``[-pi/2, pi/2]``,"),
    "asinh": _unary("The inverse hyperbolic sine"),
    "atan": _unary("The inverse tangent, in radians in ``[-pi/2, pi/2]``,"),
    "atanh": _unary("The inverse hyperbolic tangent"),
    "bitwise_invert": _unary("The bitwise NOT", _SAME),
    "ceil": _unary("The ceiling", _SAME),
    "conj": _unary("The complex conjugate", _SAME),
    "cos": _unary("The cosine"),
    "cosh": _unary("The hyperbolic cosine"),
    "exp": _unary("``e`` raised to the power"),
    "expm1": _unary("``exp(x) - 1``"),
    "floor": _unary("The floor", _SAME),
    "imag": (
        "Array",
        "The imaginary component of each element of ``x``, of the real floating-point dtype of "
        "its precision (``complex64`` gives ``float32``).",
    ),
    "isfinite": (_BOOL, "True where the element of ``x`` is finite."),
    "isinf": (_BOOL, "True where the element of ``x`` is infinite (either sign)."),
    "isnan": (_BOOL, "True where the element of ``x`` is NaN."),
    "log": _unary("The natural logarithm"),
    "log1p": _unary("``log(1 + x)``"),
    "log2": _unary("The base 2 logarithm"),
    "log10": _unary("The base 10 logarithm"),
    "logical_not": (_BOOL, "True where the element of ``x`` is False (zero)."),
    "negative": _unary("The negative", _PROMOTED),
    "positive": ("Array", "The elements of ``x``, unchanged, with its dtype."),
    "real": (
        "Array",
        "The real component of each element of ``x``: of the real floating-point dtype of its "
        "precision for complex ``x`` (``complex64`` gives ``float32``), else with the dtype of "
        "``x``.",
    ),
    "reciprocal": _unary("The reciprocal"),
    "round": (
        "Array",
        "Each element of ``x`` rounded to the nearest integer-valued number (halves to even; "
        "real and imaginary parts separately if complex), with the dtype of ``x``.",
    ),
    "sign": (
        "Array",
        "The sign of each element of ``x``: -1, 0 or 1 if real, ``x / abs(x)`` (0 for 0) if "
        "complex; with the dtype of ``x``.",
    ),
    "signbit": (
        _BOOL,
        "True where the sign bit of the element of ``x`` is set (``-0.0`` included).",
    ),
    "sin": _unary("The sine"),
    "sinh": _unary("The hyperbolic sine"),
    "square": _unary("The square", _PROMOTED),
    "sqrt": _unary("The principal square root"),
    "tan": _unary("The tangent"),
    "tanh": _unary("The hyperbolic tangent"),
    "trunc": ("Array", "Each element of ``x`` rounded toward zero, with the dtype of ``x``."),
    "add": _binary("sums"),
    "atan2": _binary(
        "inverse tangents of ``x1 / x2``, in radians in ``[-pi, pi]``",
        "its real floating-point dtype is given by the standard's type promotion rules",
    ),
    "bitwise_and": _binary("bitwise AND"),
    "bitwise_left_shift": _binary("shifted values"),
    "bitwise_or": _binary("bitwise OR"),
    "bitwise_right_shift": _binary("shifted values"),
    "bitwise_xor": _binary("bitwise XOR"),
    "copysign": _binary("magnitudes of ``x1`` with the signs of ``x2``", _PROMOTED_FLOAT),
    "divide": _binary("quotients", _PROMOTED_FLOAT),
    "equal": _compare("=="),
    "floor_divide": _binary("floored quotients"),
    "greater": _compare(">"),
    "greater_equal": _compare(">="),
    "hypot": _binary(
        "hypotenuses",
        "its real floating-point dtype is given by the standard's type promotion rules",
    ),
    "less": _compare("<"),
    "less_equal": _compare("<="),
    "logaddexp": _binary(
        "``log(exp(x1) + exp(x2))``",
        "its real floating-point dtype is given by the standard's type promotion rules",
    ),
    "logical_and": (_BOOL, "True where both ``x1`` and ``x2`` are True, of their broadcast shape."),
    "logical_or": (_BOOL, "True where ``x1`` or ``x2`` is True, of their broadcast shape."),
    "logical_xor": (
        _BOOL,
        "True where exactly one of ``x1`` and ``x2`` is True, of their broadcast shape.",
    ),
    "maximum": _binary("maxima"),
    "minimum": _binary("minima"),
    "multiply": _binary("products"),
    "nextafter": _binary("next representable values", "with the dtype of ``x1``"),
    "not_equal": _compare("!="),
    "pow": _binary("powers"),
    "remainder": _binary("remainders (each zero or with the sign of ``x2``)"),
    "subtract": _binary("differences"),
    "clip": (
        "Array",
        "``x`` with each element clamped to ``[min, max]``; should have the dtype of ``x``.",
    ),
    # creation
    "arange": (
        "Array",
        "One-dimensional array of the values ``start + i * step`` in ``[start, stop)``, of "
        "length ``ceil((stop - start) / step)`` (0 if that is negative).",
    ),
    "empty": (
        "Array",
        "Array of shape ``shape`` on ``device``; its contents are whatever memory held.",
    ),
    "eye": (
        "Array",
        "Array of shape ``(n_rows, n_cols)``: ones on the ``k``-th diagonal, zeros elsewhere.",
    ),
    "full": ("Array", "Array of shape ``shape`` on ``device``, every element ``fill_value``."),
    "linspace": ("Array", "One-dimensional array of ``num`` evenly spaced values."),
    "ones": ("Array", "Array of shape ``shape`` on ``device``, filled with ones."),
    "zeros": ("Array", "Array of shape ``shape`` on ``device``, filled with zeros."),
    "empty_like": ("Array", "Array of the shape of ``x``; its contents are whatever memory held."),
    "full_like": ("Array", "Array of the shape of ``x``, every element ``fill_value``."),
    "ones_like": ("Array", "Array of the shape of ``x``, filled with ones."),
    "zeros_like": ("Array", "Array of the shape of ``x``, filled with zeros."),
    "tril": (
        "Array",
        "``x`` with the elements above the ``k``-th diagonal zeroed; same shape and dtype.",
    ),
    "triu": (
        "Array",
        "``x`` with the elements below the ``k``-th diagonal zeroed; same shape and dtype.",
    ),
    "meshgrid": (
        "tuple of Arrays",
        "One array per input array, each with as many axes as there are inputs: of shape "
        "``(N1, N2, ...)`` for ``'ij'`` indexing, ``(N2, N1, ...)`` for ``'xy'``.",
    ),
    # indexing
    "take": (
        "Array",
        "The selected elements, with the dtype of ``x``; the shape of ``x`` except along "
        "``axis``, whose length is that of ``indices``.",
    ),
    "take_along_axis": (
        "Array",
        "The selected elements, with the dtype of ``x``; along ``axis`` the length of "
        "``indices``, the other axes broadcast.",
    ),
    # linear algebra
    "matmul": (
        "Array",
        "The matrix product (a zero-dimensional array for two vectors), the stacks broadcast; "
        f"{_PROMOTED}.",
    ),
    "matrix_transpose": ("Array", "Array of shape ``(..., N, M)`` with the dtype of ``x``."),
    "tensordot": (
        "Array",
        "The contraction, whose axes are the non-contracted axes of ``x1`` followed by those "
        f"of ``x2``; {_PROMOTED}.",
    ),
    "vecdot": (
        "Array",
        "The dot products ``sum(conj(x1) * x2, axis=axis)``, of the broadcast shape without "
        f"``axis`` (zero-dimensional for two vectors); {_PROMOTED}.",
    ),
    # manipulation
    "broadcast_arrays": (
        "tuple of Arrays",
        "The arrays, all of their broadcast shape, each with its own dtype.",
    ),
    "broadcast_to": ("Array", "Array of shape ``shape`` with the dtype of ``x``."),
    "concat": (
        "Array",
        "The joined array; its dtype is given by the standard's type promotion rules.",
    ),
    "expand_dims": ("Array", "``x`` with the new axes of size one, with its dtype."),
    "flip": ("Array", "Array of the shape and dtype of ``x``, its elements reordered."),
    "moveaxis": ("Array", "``x`` with its axes reordered, with its dtype."),
    "permute_dims": ("Array", "``x`` with its axes permuted, with its dtype."),
    "repeat": (
        "Array",
        "Array with the dtype of ``x``: one-dimensional if ``axis`` is None, else the shape of "
        "``x`` with ``axis`` lengthened.",
    ),
    "reshape": ("Array", "Array of shape ``shape`` with the elements and dtype of ``x``."),
    "roll": ("Array", "Array of the shape and dtype of ``x``, its elements shifted."),
    "squeeze": ("Array", "``x`` without the given axes, with its elements and dtype."),
    "stack": (
        "Array",
        "Array with one more axis than the inputs; its dtype is given by the standard's type promotion rules.",
    ),
    "tile": (
        "Array",
        "The tiled array, with the dtype of ``x`` and ``max(x.ndim, len(repetitions))`` axes.",
    ),
    "unstack": ("tuple of Arrays", "The slices of ``x`` along ``axis``, each of the same shape."),
    # searching
    "argmax": ("Array", f"The indices ({_INDEX}): {_REDUCED}."),
    "argmin": ("Array", f"The indices ({_INDEX}): {_REDUCED}."),
    "count_nonzero": ("Array", f"The counts ({_INDEX}): {_REDUCED}."),
    "nonzero": (
        "tuple of Arrays",
        "One array per axis of ``x`` with the indices of the non-zero elements along it, in "
        f"row-major order ({_INDEX}).",
    ),
    "searchsorted": ("Array", f"The insertion indices, of the shape of ``x2`` ({_INDEX})."),
    "where": (
        "Array",
        "The chosen elements, of the broadcast shape of the arguments; its dtype is given by "
        "the standard's type promotion rules for ``x1`` and ``x2``.",
    ),
    # sets
    "isin": (
        _BOOL,
        "The test results, of the shape of ``x1`` (zero-dimensional for a scalar ``x1``).",
    ),
    "unique_all": (
        "UniqueAllResult",
        "Named tuple ``(values, indices, inverse_indices, counts)``: the sorted unique elements "
        "(dtype of ``x``), the index of the first occurrence of each in the flattened ``x``, the "
        "index into ``values`` of each element of ``x`` (shape of ``x``), and the count of each "
        f"(indices and counts {_INDEX}).",
    ),
    "unique_counts": (
        "UniqueCountsResult",
        "Named tuple ``(values, counts)``: the sorted unique elements (dtype of ``x``) and the "
        f"number of times each occurs ({_INDEX}).",
    ),
    "unique_inverse": (
        "UniqueInverseResult",
        "Named tuple ``(values, inverse_indices)``: the sorted unique elements (dtype of ``x``) "
        "and, for each element of ``x``, its index into ``values`` (shape of ``x``, "
        f"{_INDEX}).",
    ),
    "unique_values": (
        "Array",
        "One-dimensional array of the sorted unique elements, with the dtype of ``x``.",
    ),
    # sorting
    "argsort": ("Array", f"Indices of the shape of ``x`` ({_INDEX}) that sort it along ``axis``."),
    "sort": ("Array", "The sorted array, of the shape and dtype of ``x``."),
    # statistics
    "cumulative_prod": (
        "Array",
        "The cumulative products, of the shape of ``x`` (``axis`` one longer with "
        "``include_initial``) and the dtype described under ``dtype``.",
    ),
    "cumulative_sum": (
        "Array",
        "The cumulative sums, of the shape of ``x`` (``axis`` one longer with "
        "``include_initial``) and the dtype described under ``dtype``.",
    ),
    "max": ("Array", f"The maxima, with the dtype of ``x``: {_REDUCED}."),
    "mean": ("Array", f"The means, with the dtype of ``x``: {_REDUCED}."),
    "min": ("Array", f"The minima, with the dtype of ``x``: {_REDUCED}."),
    "prod": ("Array", f"The products, with the dtype described under ``dtype``: {_REDUCED}."),
    "std": ("Array", f"The standard deviations, with the dtype of ``x``: {_REDUCED}."),
    "sum": ("Array", f"The sums, with the dtype described under ``dtype``: {_REDUCED}."),
    "var": ("Array", f"The variances, with the dtype of ``x``: {_REDUCED}."),
    # utilities
    "all": (_BOOL, f"The results of the logical AND reductions: {_REDUCED}."),
    "any": (_BOOL, f"The results of the logical OR reductions: {_REDUCED}."),
    "diff": (
        "Array",
        "The ``n``-th differences, with the dtype of ``x``; the shape of ``x`` (with "
        "``prepend`` and ``append``) with ``axis`` ``n`` shorter.",
    ),
    # linalg
    "linalg.cholesky": (
        "Array",
        "The lower (or, with ``upper``, upper) triangular Cholesky factors, of the shape of "
        f"``x``; {_PROMOTED_FLOAT}.",
    ),
    "linalg.cross": ("Array", f"The cross products, of the broadcast shape; {_PROMOTED}."),
    "linalg.det": (
        "Array",
        "The determinants, of shape ``x.shape[:-2]``, with the dtype of ``x``.",
    ),
    "linalg.diagonal": (
        "Array",
        "The diagonals, of shape ``x.shape[:-2] + (L,)`` (``L``: the length of the diagonal), "
        "with the dtype of ``x``.",
    ),
    "linalg.eig": (
        "EigResult",
        "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues of shape ``(..., M)`` and "
        "eigenvectors of shape ``(..., M, M)`` (column ``i`` for eigenvalue ``i``), both "
        f"{_TO_COMPLEX}.",
    ),
    "linalg.eigh": (
        "EighResult",
        "Named tuple ``(eigenvalues, eigenvectors)``: eigenvalues in ascending order, of shape "
        f"``(..., M)`` {_TO_REAL}, and orthonormal eigenvectors as the columns of an array of "
        "shape ``(..., M, M)`` with the dtype of ``x``.",
    ),
    "linalg.eigvals": ("Array", f"The eigenvalues, of shape ``(..., M)`` {_TO_COMPLEX}."),
    "linalg.eigvalsh": (
        "Array",
        f"The eigenvalues in ascending order, of shape ``(..., M)`` {_TO_REAL}.",
    ),
    "linalg.inv": ("Array", f"The inverses, of the shape of ``x``; {_PROMOTED_FLOAT}."),
    "linalg.matmul": ("Array", _CONTRACTED.format("matmul")),
    "linalg.matrix_norm": (
        "Array",
        "The norms, of shape ``x.shape[:-2]`` (with two axes of size one if ``keepdims``), "
        "of a real floating-point dtype (that of the precision of ``x`` for complex ``x``).",
    ),
    "linalg.matrix_power": ("Array", f"The powers, of the shape of ``x``; {_PROMOTED_FLOAT}."),
    "linalg.matrix_rank": (
        "Array",
        "The ranks, of shape ``x.shape[:-2]`` and the default integer dtype.",
    ),
    "linalg.matrix_transpose": ("Array", _CONTRACTED.format("matrix_transpose")),
    "linalg.outer": (
        "Array",
        f"Array of shape ``(N, M)`` with ``x1[i] * x2[j]`` at ``[i, j]``; {_PROMOTED}.",
    ),
    "linalg.pinv": ("Array", f"The pseudo-inverses, of shape ``(..., N, M)``; {_PROMOTED_FLOAT}."),
    "linalg.qr": (
        "QRResult",
        "Named tuple ``(Q, R)``: ``Q`` with orthonormal columns and ``R`` upper triangular, "
        "``x = Q @ R``, of the shapes that ``mode`` gives, with the dtype of ``x``.",
    ),
    "linalg.slogdet": (
        "SlogdetResult",
        "Named tuple ``(sign, logabsdet)`` of shape ``x.shape[:-2]``: the sign of each "
        "determinant (-1, 0 or 1; ``z / abs(z)`` if complex), with the dtype of ``x``, and the "
        "natural logarithm of its absolute value (``-inf`` where it is zero), of a real "
        "floating-point dtype.",
    ),
    "linalg.solve": (
        "Array",
        f"The solutions ``X`` of ``x1 @ X = x2``, of the shape of ``x2`` (broadcast); {_PROMOTED_FLOAT}.",
    ),
    "linalg.svd": (
        "SVDResult",
        "Named tuple ``(U, S, Vh)``: left singular vectors as columns of ``U``, the singular "
        "values ``S`` of shape ``(..., K)`` in descending order (real floating-point dtype), "
        "and right singular vectors as rows of ``Vh``, with ``x = U @ diag(S) @ Vh``.",
    ),
    "linalg.svdvals": (
        "Array",
        "The singular values in descending order, of shape ``(..., K)`` with ``K = min(M, N)``, "
        f"{_TO_REAL}.",
    ),
    "linalg.tensordot": ("Array", _CONTRACTED.format("tensordot")),
    "linalg.trace": (
        "Array",
        "The traces, of shape ``x.shape[:-2]``, with the dtype described under ``dtype``.",
    ),
    "linalg.vecdot": ("Array", _CONTRACTED.format("vecdot")),
    "linalg.vector_norm": (
        "Array",
        "The norms: zero-dimensional if ``axis`` is None, else without the axes of ``axis`` "
        "(with them of size one if ``keepdims``); of a real floating-point dtype (that of the "
        "precision of ``x`` for complex ``x``).",
    ),
    # fft
    "fft.fft": ("Array", f"The transform, with {_FFT_COMPLEX.format('axis', 'length ``n``')}."),
    "fft.ifft": (
        "Array",
        f"The inverse transform, with {_FFT_COMPLEX.format('axis', 'length ``n``')}.",
    ),
    "fft.fftn": (
        "Array",
        f"The transform, with {_FFT_COMPLEX.format('axes', 'lengths ``s[i]``')}.",
    ),
    "fft.ifftn": (
        "Array",
        f"The inverse transform, with {_FFT_COMPLEX.format('axes', 'lengths ``s[i]``')}.",
    ),
    "fft.rfft": (
        "Array",
        "The non-negative frequency terms, with the shape of ``x`` except along ``axis``, of "
        f"length ``n//2 + 1``, {_TO_COMPLEX}.",
    ),
    "fft.irfft": (
        "Array",
        "The real signal, with the shape of ``x`` except along ``axis``, of length ``n``, "
        f"{_TO_REAL}.",
    ),
    "fft.rfftn": (
        "Array",
        "The transform, with the shape of ``x`` except along the transformed axes: "
        f"``s[-1]//2 + 1`` for the last one, ``s[i]`` for the others; {_TO_COMPLEX}.",
    ),
    "fft.irfftn": (
        "Array",
        "The real signal, with the shape of ``x`` except along the transformed axes, of "
        f"lengths ``s[i]``; {_TO_REAL}.",
    ),
    "fft.hfft": (
        "Array",
        "The real spectrum, with the shape of ``x`` except along ``axis``, of length ``n``, "
        f"{_TO_REAL}.",
    ),
    "fft.ihfft": (
        "Array",
        "The non-negative frequency terms of the inverse transform, with the shape of ``x`` "
        f"except along ``axis``, of length ``n//2 + 1``, {_TO_COMPLEX}.",
    ),
    "fft.fftshift": ("Array", "The shifted array, of the shape and dtype of ``x``."),
    "fft.ifftshift": ("Array", "The shifted array, of the shape and dtype of ``x``."),
    "fft.fftfreq": (
        "Array",
        "Array of shape ``(n,)``: ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d*n)``.",
    ),
    "fft.rfftfreq": (
        "Array",
        "Array of shape ``(n//2 + 1,)``: ``[0, 1, ..., n//2] / (d*n)``.",
    ),
}

# ---------------------------------------------------------------------------------------------
# Examples

#: By function: doctest text (input lines and their expected output), after
#: ``import arraymux as xp``.
EXAMPLES: Final[dict[str, str]] = {
    "abs": """\
>>> xp.abs(xp.asarray([-1.5, 0.0, 2.0]))
Array([1.5, 0. , 2. ], dtype=float64, device='numpy:cpu')
""",
    "acos": """\
>>> xp.acos(xp.asarray([1.0, 0.0, -1.0]))
Array([0.        , 1.57079633, 3.14159265], dtype=float64, device='numpy:cpu')
""",
    "acosh": """\
>>> xp.acosh(xp.asarray([1.0, 2.0]))
Array([0.       , 1.3169579], dtype=float64, device='numpy:cpu')
""",
    "asin": """\
>>> xp.asin(xp.asarray([0.0, 0.5, 1.0]))
Array([0.        , 0.52359878, 1.57079633], dtype=float64, device='numpy:cpu')
""",
    "asinh": """\
>>> xp.asinh(xp.asarray([0.0, 1.0]))
Array([0.        , 0.88137359], dtype=float64, device='numpy:cpu')
""",
    "atan": """\
>>> xp.atan(xp.asarray([0.0, 1.0]))
Array([0.        , 0.78539816], dtype=float64, device='numpy:cpu')
""",
    "atanh": """\
>>> xp.atanh(xp.asarray([0.0, 0.5]))
Array([0.        , 0.54930614], dtype=float64, device='numpy:cpu')
""",
    "bitwise_invert": """\
>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.int8))
Array([-1, -6], dtype=int8, device='numpy:cpu')
>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.uint8))
Array([255, 250], dtype=uint8, device='numpy:cpu')
""",
    "ceil": """\
>>> xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))
Array([-1.,  1.,  2.], dtype=float64, device='numpy:cpu')
""",
    "conj": """\
>>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
Array([1.-2.j, 3.+4.j], dtype=complex128, device='numpy:cpu')
""",
    "cos": """\
>>> xp.cos(xp.asarray([0.0, xp.pi]))
Array([ 1., -1.], dtype=float64, device='numpy:cpu')
""",
    "cosh": """\
>>> xp.cosh(xp.asarray([0.0, 1.0]))
Array([1.        , 1.54308063], dtype=float64, device='numpy:cpu')
""",
    "exp": """\
>>> xp.exp(xp.asarray([0.0, 1.0]))
Array([1.        , 2.71828183], dtype=float64, device='numpy:cpu')
""",
    "expm1": """\
>>> xp.expm1(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64, device='numpy:cpu')
""",
    "floor": """\
>>> xp.floor(xp.asarray([-1.5, 0.2, 2.0]))
Array([-2.,  0.,  2.], dtype=float64, device='numpy:cpu')
""",
    "imag": """\
>>> xp.imag(xp.asarray([1 + 2j, 3 - 4j]))
Array([ 2., -4.], dtype=float64, device='numpy:cpu')
""",
    "isfinite": """\
>>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    "isinf": """\
>>> xp.isinf(xp.asarray([1.0, xp.inf, -xp.inf, xp.nan]))
Array([False,  True,  True, False], dtype=bool, device='numpy:cpu')
""",
    "isnan": """\
>>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))
Array([False, False,  True], dtype=bool, device='numpy:cpu')
""",
    "log": """\
>>> xp.log(xp.asarray([1.0, xp.e]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    "log1p": """\
>>> xp.log1p(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64, device='numpy:cpu')
""",
    "log2": """\
>>> xp.log2(xp.asarray([1.0, 8.0]))
Array([0., 3.], dtype=float64, device='numpy:cpu')
""",
    "log10": """\
>>> xp.log10(xp.asarray([1.0, 1000.0]))
Array([0., 3.], dtype=float64, device='numpy:cpu')
""",
    "logical_not": """\
>>> xp.logical_not(xp.asarray([True, False]))
Array([False,  True], dtype=bool, device='numpy:cpu')
""",
    "negative": """\
>>> xp.negative(xp.asarray([1, -2]))
Array([-1,  2], dtype=int64, device='numpy:cpu')
""",
    "positive": """\
>>> xp.positive(xp.asarray([1, -2]))
Array([ 1, -2], dtype=int64, device='numpy:cpu')
""",
    "real": """\
>>> xp.real(xp.asarray([1 + 2j, 3 - 4j]))
Array([1., 3.], dtype=float64, device='numpy:cpu')
""",
    "reciprocal": """\
>>> xp.reciprocal(xp.asarray([1.0, 2.0, 4.0]))
Array([1.  , 0.5 , 0.25], dtype=float64, device='numpy:cpu')
""",
    "round": """\
>>> xp.round(xp.asarray([0.5, 1.5, 2.5, -1.7]))
Array([ 0.,  2.,  2., -2.], dtype=float64, device='numpy:cpu')
""",
    "sign": """\
>>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))
Array([-1.,  0.,  1.], dtype=float64, device='numpy:cpu')
""",
    "signbit": """\
>>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 1.0]))
Array([ True,  True, False, False], dtype=bool, device='numpy:cpu')
""",
    "sin": """\
>>> xp.sin(xp.asarray([0.0, xp.pi / 2]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    "sinh": """\
>>> xp.sinh(xp.asarray([0.0, 1.0]))
Array([0.        , 1.17520119], dtype=float64, device='numpy:cpu')
""",
    "square": """\
>>> xp.square(xp.asarray([-2, 3]))
Array([4, 9], dtype=int64, device='numpy:cpu')
""",
    "sqrt": """\
>>> xp.sqrt(xp.asarray([0.0, 4.0, 9.0]))
Array([0., 2., 3.], dtype=float64, device='numpy:cpu')
""",
    "tan": """\
>>> xp.tan(xp.asarray([0.0, xp.pi / 4]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    "tanh": """\
>>> xp.tanh(xp.asarray([0.0, 1.0]))
Array([0.        , 0.76159416], dtype=float64, device='numpy:cpu')
""",
    "trunc": """\
>>> xp.trunc(xp.asarray([-1.7, 1.7]))
Array([-1.,  1.], dtype=float64, device='numpy:cpu')
""",
    "add": """\
>>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))
Array([11, 22], dtype=int64, device='numpy:cpu')
>>> xp.add(xp.asarray([1.0, 2.0], dtype=xp.float32), 0.5)
Array([1.5, 2.5], dtype=float32, device='numpy:cpu')
""",
    "atan2": """\
>>> xp.atan2(xp.asarray([1.0, 1.0]), xp.asarray([1.0, -1.0]))
Array([0.78539816, 2.35619449], dtype=float64, device='numpy:cpu')
""",
    "bitwise_and": """\
>>> xp.bitwise_and(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([4, 2], dtype=uint8, device='numpy:cpu')
""",
    "bitwise_left_shift": """\
>>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 1]))
Array([4, 6], dtype=int64, device='numpy:cpu')
""",
    "bitwise_or": """\
>>> xp.bitwise_or(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([14, 14], dtype=uint8, device='numpy:cpu')
""",
    "bitwise_right_shift": """\
>>> xp.bitwise_right_shift(xp.asarray([16, 7]), xp.asarray([2, 1]))
Array([4, 3], dtype=int64, device='numpy:cpu')
""",
    "bitwise_xor": """\
>>> xp.bitwise_xor(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([10, 12], dtype=uint8, device='numpy:cpu')
""",
    "copysign": """\
>>> xp.copysign(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([-1.0, 0.0, -0.0]))
Array([-1.,  2., -3.], dtype=float64, device='numpy:cpu')
""",
    "divide": """\
>>> xp.divide(xp.asarray([1.0, 3.0]), xp.asarray([2.0, 4.0]))
Array([0.5 , 0.75], dtype=float64, device='numpy:cpu')
""",
    "equal": """\
>>> xp.equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
Array([ True, False,  True], dtype=bool, device='numpy:cpu')
""",
    "floor_divide": """\
>>> xp.floor_divide(xp.asarray([7, -7]), 2)
Array([ 3, -4], dtype=int64, device='numpy:cpu')
""",
    "greater": """\
>>> xp.greater(xp.asarray([1, 2, 3]), 2)
Array([False, False,  True], dtype=bool, device='numpy:cpu')
""",
    "greater_equal": """\
>>> xp.greater_equal(xp.asarray([1, 2, 3]), 2)
Array([False,  True,  True], dtype=bool, device='numpy:cpu')
""",
    "hypot": """\
>>> xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))
Array([ 5., 13.], dtype=float64, device='numpy:cpu')
""",
    "less": """\
>>> xp.less(xp.asarray([1, 2, 3]), 2)
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    "less_equal": """\
>>> xp.less_equal(xp.asarray([1, 2, 3]), 2)
Array([ True,  True, False], dtype=bool, device='numpy:cpu')
""",
    "logaddexp": """\
>>> xp.logaddexp(xp.asarray([0.0, 1.0]), xp.asarray([0.0, 1.0]))
Array([0.69314718, 1.69314718], dtype=float64, device='numpy:cpu')
""",
    "logical_and": """\
>>> xp.logical_and(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    "logical_or": """\
>>> xp.logical_or(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([ True,  True, False], dtype=bool, device='numpy:cpu')
""",
    "logical_xor": """\
>>> xp.logical_xor(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    "maximum": """\
>>> xp.maximum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))
Array([3., 5.], dtype=float64, device='numpy:cpu')
""",
    "minimum": """\
>>> xp.minimum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))
Array([1., 2.], dtype=float64, device='numpy:cpu')
""",
    "multiply": """\
>>> xp.multiply(xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]))
Array([3., 8.], dtype=float64, device='numpy:cpu')
""",
    "nextafter": """\
>>> float(xp.nextafter(xp.asarray(1.0), xp.asarray(2.0)))
1.0000000000000002
""",
    "not_equal": """\
>>> xp.not_equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    "pow": """\
>>> xp.pow(xp.asarray([2.0, 3.0]), xp.asarray([3.0, 2.0]))
Array([8., 9.], dtype=float64, device='numpy:cpu')
>>> xp.pow(xp.asarray([1, 2, 3]), 2)
Array([1, 4, 9], dtype=int64, device='numpy:cpu')
""",
    "remainder": """\
>>> xp.remainder(xp.asarray([7, -7]), 3)
Array([1, 2], dtype=int64, device='numpy:cpu')
""",
    "subtract": """\
>>> xp.subtract(xp.asarray([5, 3]), xp.asarray([1, 4]))
Array([ 4, -1], dtype=int64, device='numpy:cpu')
""",
    "clip": """\
>>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), 0.0, 1.0)
Array([0. , 0.5, 1. ], dtype=float64, device='numpy:cpu')
>>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), max=1.0)
Array([-2. ,  0.5,  1. ], dtype=float64, device='numpy:cpu')
""",
    "arange": """\
>>> xp.arange(5)
Array([0, 1, 2, 3, 4], dtype=int64, device='numpy:cpu')
>>> xp.arange(1.0, 2.0, 0.25)
Array([1.  , 1.25, 1.5 , 1.75], dtype=float64, device='numpy:cpu')
""",
    "empty": """\
>>> x = xp.empty((2, 3))
>>> x.shape, x.dtype
((2, 3), arraymux.float64)
""",
    "eye": """\
>>> xp.eye(2, 3, k=1)
Array([[0., 1., 0.],
       [0., 0., 1.]], dtype=float64, device='numpy:cpu')
""",
    "full": """\
>>> xp.full((2, 2), 7)
Array([[7, 7],
       [7, 7]], dtype=int64, device='numpy:cpu')
""",
    "linspace": """\
>>> xp.linspace(0, 1, 5)
Array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64, device='numpy:cpu')
>>> xp.linspace(0, 1, 4, endpoint=False)
Array([0.  , 0.25, 0.5 , 0.75], dtype=float64, device='numpy:cpu')
""",
    "ones": """\
>>> xp.ones((2, 3), dtype=xp.int32)
Array([[1, 1, 1],
       [1, 1, 1]], dtype=int32, device='numpy:cpu')
""",
    "zeros": """\
>>> xp.zeros(3)
Array([0., 0., 0.], dtype=float64, device='numpy:cpu')
""",
    "empty_like": """\
>>> x = xp.empty_like(xp.asarray([[1, 2], [3, 4]], dtype=xp.int16))
>>> x.shape, x.dtype
((2, 2), arraymux.int16)
""",
    "full_like": """\
>>> xp.full_like(xp.asarray([1.0, 2.0]), 7)
Array([7., 7.], dtype=float64, device='numpy:cpu')
""",
    "ones_like": """\
>>> xp.ones_like(xp.asarray([[1, 2], [3, 4]]))
Array([[1, 1],
       [1, 1]], dtype=int64, device='numpy:cpu')
""",
    "zeros_like": """\
>>> xp.zeros_like(xp.asarray([1.0, 2.0]), dtype=xp.int8)
Array([0, 0], dtype=int8, device='numpy:cpu')
""",
    "tril": """\
>>> xp.tril(xp.reshape(xp.arange(1, 10), (3, 3)))
Array([[1, 0, 0],
       [4, 5, 0],
       [7, 8, 9]], dtype=int64, device='numpy:cpu')
""",
    "triu": """\
>>> xp.triu(xp.reshape(xp.arange(1, 10), (3, 3)), k=1)
Array([[0, 2, 3],
       [0, 0, 6],
       [0, 0, 0]], dtype=int64, device='numpy:cpu')
""",
    "meshgrid": """\
>>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([4, 5]))
>>> X
Array([[1, 2, 3],
       [1, 2, 3]], dtype=int64, device='numpy:cpu')
>>> Y
Array([[4, 4, 4],
       [5, 5, 5]], dtype=int64, device='numpy:cpu')
""",
    "take": """\
>>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0]))
Array([30, 10], dtype=int64, device='numpy:cpu')
>>> xp.take(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1]), axis=1)
Array([[2],
       [4]], dtype=int64, device='numpy:cpu')
""",
    "take_along_axis": """\
>>> x = xp.asarray([[10, 30, 20], [60, 40, 50]])
>>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
Array([[10, 20, 30],
       [40, 50, 60]], dtype=int64, device='numpy:cpu')
""",
    "matmul": """\
>>> xp.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[5], [6]]))
Array([[17],
       [39]], dtype=int64, device='numpy:cpu')
""",
    "matrix_transpose": """\
>>> xp.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    "tensordot": """\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.tensordot(a, a, axes=1)
Array([[ 7, 10],
       [15, 22]], dtype=int64, device='numpy:cpu')
>>> xp.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    "vecdot": """\
>>> xp.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
Array(32., dtype=float64, device='numpy:cpu')
""",
    "broadcast_arrays": """\
>>> a, b = xp.broadcast_arrays(xp.asarray([1, 2, 3]), xp.asarray([[10], [20]]))
>>> a.shape, b.shape
((2, 3), (2, 3))
>>> b
Array([[10, 10, 10],
       [20, 20, 20]], dtype=int64, device='numpy:cpu')
""",
    "broadcast_to": """\
>>> xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
Array([[1, 2, 3],
       [1, 2, 3]], dtype=int64, device='numpy:cpu')
""",
    "expand_dims": """\
>>> x = xp.asarray([1, 2])
>>> xp.expand_dims(x, axis=0).shape, xp.expand_dims(x, axis=1).shape
((1, 2), (2, 1))
""",
    "flip": """\
>>> xp.flip(xp.asarray([1, 2, 3]))
Array([3, 2, 1], dtype=int64, device='numpy:cpu')
""",
    "moveaxis": """\
>>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
(3, 4, 2)
""",
    "permute_dims": """\
>>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
(4, 2, 3)
""",
    "reshape": """\
>>> xp.reshape(xp.arange(6), (2, 3))
Array([[0, 1, 2],
       [3, 4, 5]], dtype=int64, device='numpy:cpu')
""",
    "roll": """\
>>> xp.roll(xp.asarray([1, 2, 3, 4]), 1)
Array([4, 1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    "squeeze": """\
>>> xp.squeeze(xp.zeros((1, 3, 1)), axis=0).shape
(3, 1)
""",
    "tile": """\
>>> xp.tile(xp.asarray([1, 2]), (2, 2))
Array([[1, 2, 1, 2],
       [1, 2, 1, 2]], dtype=int64, device='numpy:cpu')
""",
    "unstack": """\
>>> xp.unstack(xp.asarray([[1, 2], [3, 4]]))
(Array([1, 2], dtype=int64, device='numpy:cpu'), Array([3, 4], dtype=int64, device='numpy:cpu'))
""",
    "repeat": """\
>>> x = xp.asarray([1, 2, 3])
>>> xp.repeat(x, 2)
Array([1, 1, 2, 2, 3, 3], dtype=int64, device='numpy:cpu')
>>> xp.repeat(x, xp.asarray([1, 0, 2]))
Array([1, 3, 3], dtype=int64, device='numpy:cpu')
""",
    "concat": """\
>>> xp.concat([xp.asarray([1, 2]), xp.asarray([3])])
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    "stack": """\
>>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)
Array([[1, 3],
       [2, 4]], dtype=int64, device='numpy:cpu')
""",
    "argmax": """\
>>> xp.argmax(xp.asarray([3, 7, 7, 1]))
Array(1, dtype=int64, device='numpy:cpu')
""",
    "argmin": """\
>>> xp.argmin(xp.asarray([[3, 1], [0, 2]]), axis=1)
Array([1, 0], dtype=int64, device='numpy:cpu')
""",
    "count_nonzero": """\
>>> x = xp.asarray([[0, 1], [2, 3]])
>>> xp.count_nonzero(x), xp.count_nonzero(x, axis=0)
(Array(3, dtype=int64, device='numpy:cpu'), Array([1, 2], dtype=int64, device='numpy:cpu'))
""",
    "nonzero": """\
>>> xp.nonzero(xp.asarray([0, 3, 0, 5]))
(Array([1, 3], dtype=int64, device='numpy:cpu'),)
""",
    "searchsorted": """\
>>> x1 = xp.asarray([1.0, 2.0, 3.0])
>>> xp.searchsorted(x1, xp.asarray([2.0, 2.5]))
Array([1, 2], dtype=int64, device='numpy:cpu')
>>> xp.searchsorted(x1, xp.asarray([2.0, 2.5]), side="right")
Array([2, 2], dtype=int64, device='numpy:cpu')
""",
    "where": """\
>>> x = xp.asarray([-1.0, 2.0, -3.0])
>>> xp.where(x > 0, x, 0.0)
Array([0., 2., 0.], dtype=float64, device='numpy:cpu')
""",
    "isin": """\
>>> xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2, 4]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    "unique_all": """\
>>> values, indices, inverse_indices, counts = xp.unique_all(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(indices), xp.to_numpy(inverse_indices), xp.to_numpy(counts)
(array([1, 2, 3]), array([1, 3, 0]), array([2, 0, 2, 1]), array([1, 1, 2]))
""",
    "unique_counts": """\
>>> values, counts = xp.unique_counts(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(counts)
(array([1, 2, 3]), array([1, 1, 2]))
""",
    "unique_inverse": """\
>>> values, inverse_indices = xp.unique_inverse(xp.asarray([3, 1, 3, 2]))
>>> xp.to_numpy(values), xp.to_numpy(inverse_indices)
(array([1, 2, 3]), array([2, 0, 2, 1]))
""",
    "unique_values": """\
>>> xp.unique_values(xp.asarray([3, 1, 3, 2]))
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    "argsort": """\
>>> x = xp.asarray([3, 1, 2])
>>> xp.argsort(x)
Array([1, 2, 0], dtype=int64, device='numpy:cpu')
>>> xp.argsort(x, descending=True)
Array([0, 2, 1], dtype=int64, device='numpy:cpu')
""",
    "sort": """\
>>> xp.sort(xp.asarray([3, 1, 2]))
Array([1, 2, 3], dtype=int64, device='numpy:cpu')
""",
    "cumulative_sum": """\
>>> x = xp.asarray([1, 2, 3])
>>> xp.cumulative_sum(x)
Array([1, 3, 6], dtype=int64, device='numpy:cpu')
>>> xp.cumulative_sum(x, include_initial=True)
Array([0, 1, 3, 6], dtype=int64, device='numpy:cpu')
""",
    "cumulative_prod": """\
>>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
Array([ 1,  2,  6, 24], dtype=int64, device='numpy:cpu')
""",
    "max": """\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.max(x)
Array(5, dtype=int64, device='numpy:cpu')
>>> xp.max(x, axis=0)
Array([3, 5], dtype=int64, device='numpy:cpu')
""",
    "min": """\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.min(x)
Array(1, dtype=int64, device='numpy:cpu')
>>> xp.min(x, axis=1, keepdims=True)
Array([[1],
       [2]], dtype=int64, device='numpy:cpu')
""",
    "mean": """\
>>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    "prod": """\
>>> xp.prod(xp.asarray([1, 2, 3, 4]))
Array(24, dtype=int64, device='numpy:cpu')
""",
    "std": """\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.std(x)
Array(2., dtype=float64, device='numpy:cpu')
>>> xp.std(x, correction=1)
Array(2.13808994, dtype=float64, device='numpy:cpu')
""",
    "var": """\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.var(x)
Array(4., dtype=float64, device='numpy:cpu')
>>> xp.var(x, correction=1)
Array(4.57142857, dtype=float64, device='numpy:cpu')
""",
    "sum": """\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.sum(x)
Array(10, dtype=int64, device='numpy:cpu')
>>> xp.sum(x, axis=1)
Array([3, 7], dtype=int64, device='numpy:cpu')
""",
    "all": """\
>>> x = xp.asarray([[True, False], [True, True]])
>>> xp.all(x)
Array(False, dtype=bool, device='numpy:cpu')
>>> xp.all(x, axis=0)
Array([ True, False], dtype=bool, device='numpy:cpu')
""",
    "any": """\
>>> x = xp.asarray([[True, False], [False, False]])
>>> xp.any(x)
Array(True, dtype=bool, device='numpy:cpu')
>>> xp.any(x, axis=1)
Array([ True, False], dtype=bool, device='numpy:cpu')
""",
    "diff": """\
>>> x = xp.asarray([1, 4, 9, 16])
>>> xp.diff(x)
Array([3, 5, 7], dtype=int64, device='numpy:cpu')
>>> xp.diff(x, n=2)
Array([2, 2], dtype=int64, device='numpy:cpu')
""",
    "linalg.cholesky": """\
>>> xp.linalg.cholesky(xp.asarray([[4.0, 2.0], [2.0, 3.0]]))
Array([[2.        , 0.        ],
       [1.        , 1.41421356]], dtype=float64, device='numpy:cpu')
""",
    "linalg.cross": """\
>>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
Array([0., 0., 1.], dtype=float64, device='numpy:cpu')
""",
    "linalg.det": """\
>>> xp.linalg.det(xp.asarray([[2.0, 1.0], [0.0, 3.0]]))
Array(6., dtype=float64, device='numpy:cpu')
""",
    "linalg.diagonal": """\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.diagonal(x)
Array([1, 4], dtype=int64, device='numpy:cpu')
>>> xp.linalg.diagonal(x, offset=1)
Array([2], dtype=int64, device='numpy:cpu')
""",
    "linalg.eig": """\
>>> eigenvalues, eigenvectors = xp.linalg.eig(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
>>> eigenvalues
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    "linalg.eigh": """\
>>> eigenvalues, eigenvectors = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
>>> eigenvalues
Array([1., 3.], dtype=float64, device='numpy:cpu')
>>> eigenvectors.shape
(2, 2)
""",
    "linalg.eigvals": """\
>>> xp.linalg.eigvals(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
Array([0.+1.j, 0.-1.j], dtype=complex128, device='numpy:cpu')
""",
    "linalg.eigvalsh": """\
>>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
Array([1., 3.], dtype=float64, device='numpy:cpu')
""",
    "linalg.inv": """\
>>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
Array([[0.5 , 0.  ],
       [0.  , 0.25]], dtype=float64, device='numpy:cpu')
""",
    "linalg.matmul": """\
>>> xp.linalg.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[5], [6]]))
Array([[17],
       [39]], dtype=int64, device='numpy:cpu')
""",
    "linalg.matrix_norm": """\
>>> x = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
>>> xp.linalg.matrix_norm(x)
Array(5., dtype=float64, device='numpy:cpu')
>>> xp.linalg.matrix_norm(x, ord="nuc")
Array(7., dtype=float64, device='numpy:cpu')
""",
    "linalg.matrix_power": """\
>>> xp.linalg.matrix_power(xp.asarray([[1.0, 1.0], [0.0, 1.0]]), 3)
Array([[1., 3.],
       [0., 1.]], dtype=float64, device='numpy:cpu')
""",
    "linalg.matrix_rank": """\
>>> xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
Array(1, dtype=int64, device='numpy:cpu')
""",
    "linalg.matrix_transpose": """\
>>> xp.linalg.matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
Array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int64, device='numpy:cpu')
""",
    "linalg.outer": """\
>>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([3, 4, 5]))
Array([[ 3,  4,  5],
       [ 6,  8, 10]], dtype=int64, device='numpy:cpu')
""",
    "linalg.pinv": """\
>>> xp.linalg.pinv(xp.asarray([[1.0, 2.0]]))
Array([[0.2],
       [0.4]], dtype=float64, device='numpy:cpu')
""",
    "linalg.qr": """\
>>> x = xp.asarray([[3.0, 0.0], [4.0, 5.0]])
>>> Q, R = xp.linalg.qr(x)
>>> Q.shape, R.shape
((2, 2), (2, 2))
>>> bool(xp.all(xp.abs(Q @ R - x) < 1e-12))
True
""",
    "linalg.slogdet": """\
>>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
>>> sign, logabsdet
(Array(1., dtype=float64, device='numpy:cpu'), Array(1.79175947, dtype=float64, device='numpy:cpu'))
""",
    "linalg.solve": """\
>>> xp.linalg.solve(xp.asarray([[3.0, 1.0], [1.0, 2.0]]), xp.asarray([9.0, 8.0]))
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    "linalg.svd": """\
>>> U, S, Vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
>>> S
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    "linalg.svdvals": """\
>>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
Array([4., 3.], dtype=float64, device='numpy:cpu')
""",
    "linalg.tensordot": """\
>>> a = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.tensordot(a, a, axes=2)
Array(30, dtype=int64, device='numpy:cpu')
""",
    "linalg.trace": """\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.linalg.trace(x)
Array(5, dtype=int64, device='numpy:cpu')
>>> xp.linalg.trace(x, offset=1)
Array(2, dtype=int64, device='numpy:cpu')
""",
    "linalg.vecdot": """\
>>> xp.linalg.vecdot(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([4.0, 5.0, 6.0]))
Array(32., dtype=float64, device='numpy:cpu')
""",
    "linalg.vector_norm": """\
>>> x = xp.asarray([3.0, -4.0])
>>> xp.linalg.vector_norm(x)
Array(5., dtype=float64, device='numpy:cpu')
>>> xp.linalg.vector_norm(x, ord=1), xp.linalg.vector_norm(x, ord=xp.inf)
(Array(7., dtype=float64, device='numpy:cpu'), Array(4., dtype=float64, device='numpy:cpu'))
""",
    "fft.fft": """\
>>> xp.fft.fft(xp.asarray([0.0, 1.0, 0.0, 0.0], dtype=xp.complex128))
Array([ 1.+0.j,  0.-1.j, -1.+0.j,  0.+1.j], dtype=complex128, device='numpy:cpu')
""",
    "fft.ifft": """\
>>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0], dtype=xp.complex128))
Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128, device='numpy:cpu')
""",
    "fft.fftn": """\
>>> xp.fft.fftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.complex128))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    "fft.ifftn": """\
>>> xp.fft.ifftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1.+0.j, 2.+0.j],
       [3.+0.j, 4.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    "fft.rfft": """\
>>> xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128, device='numpy:cpu')
""",
    "fft.irfft": """\
>>> xp.fft.irfft(xp.asarray([10.0, -2.0 + 2.0j, -2.0]))
Array([1., 2., 3., 4.], dtype=float64, device='numpy:cpu')
""",
    "fft.rfftn": """\
>>> xp.fft.rfftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    "fft.irfftn": """\
>>> xp.fft.irfftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1., 2.],
       [3., 4.]], dtype=float64, device='numpy:cpu')
""",
    "fft.hfft": """\
>>> xp.fft.hfft(xp.asarray([1.0, 2.0, 3.0], dtype=xp.complex128))
Array([ 8., -2.,  0., -2.], dtype=float64, device='numpy:cpu')
""",
    "fft.ihfft": """\
>>> xp.fft.ihfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([ 2.5-0.j , -0.5-0.5j, -0.5-0.j ], dtype=complex128, device='numpy:cpu')
""",
    "fft.fftshift": """\
>>> xp.fft.fftshift(xp.fft.fftfreq(4))
Array([-0.5 , -0.25,  0.  ,  0.25], dtype=float64, device='numpy:cpu')
""",
    "fft.ifftshift": """\
>>> xp.fft.ifftshift(xp.asarray([-0.5, -0.25, 0.0, 0.25]))
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
""",
    "fft.fftfreq": """\
>>> xp.fft.fftfreq(4)
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
>>> xp.fft.fftfreq(4, d=0.5)
Array([ 0. ,  0.5, -1. , -0.5], dtype=float64, device='numpy:cpu')
""",
    "fft.rfftfreq": """\
>>> xp.fft.rfftfreq(4)
Array([0.  , 0.25, 0.5 ], dtype=float64, device='numpy:cpu')
""",
}

# ---------------------------------------------------------------------------------------------
# Assembly

_WIDTH = 92
_LITERAL = re.compile(r"``[^`]*``")


def _para(text: str, indent: str = "    ") -> str:
    """``text`` wrapped and indented, never inside an inline literal (````(..., M, N)````)."""
    words = _LITERAL.sub(lambda m: m.group(0).replace(" ", "\0"), text).split()
    lines: list[str] = []
    line = indent
    for word in words:
        if line != indent and len(line) + 1 + len(word) > _WIDTH:
            lines.append(line)
            line = indent
        line = f"{line} {word}" if line != indent else indent + word
    lines.append(line)
    return "\n".join(lines).replace("\0", " ")


def parameter(name: str, pname: str, rule: str | None = None) -> Entry:
    """The (type, description) of parameter ``pname`` of the function ``name``, whose
    dispatch rule is ``rule``."""
    found = OVERRIDES.get(name, {}).get(pname) or RULE_PARAMETERS.get(rule or "", {}).get(pname)
    kind, text = found or PARAMETERS[pname]
    dtype = DTYPES.get(name)
    if dtype is not None and pname in ("x", "x1", "x2"):
        article = "an" if dtype[0] in "aeiou" else "a"
        text = f"{text} Should have {article} {dtype} dtype."
    return kind, text


def sections(name: str, sig: inspect.Signature, rule: str | None = None) -> str:
    """The ``Parameters`` (every parameter of ``sig``) and ``Returns`` sections of the
    function ``name``."""
    out = []
    if sig.parameters:
        out.append("Parameters\n----------")
        for p in sig.parameters.values():
            kind, text = parameter(name, p.name, rule)
            stars = "*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else ""
            shown = stars + p.name
            optional = ", optional" if p.default is not p.empty else ""
            out.append(f"{shown} : {kind}{optional}\n{_para(text)}")
        out.append("")
    kind, text = RETURNS[name]
    out.append(f"Returns\n-------\n{kind}\n{_para(text)}\n")
    return "\n".join(out)


def examples(name: str) -> str:
    """The ``Examples`` section of the function ``name``."""
    return f"Examples\n--------\n>>> import arraymux as xp\n{EXAMPLES[name]}"


# ---------------------------------------------------------------------------------------------
# The docstring of each function of the namespace


_SPEC = "https://data-apis.org/array-api/2025.12"


def spec_url(name: str) -> str:
    """The standard's page of the function ``name`` (``"add"``, ``"linalg.inv"``): the
    extensions' functions have theirs under ``extensions/``."""
    part = "extensions" if "." in name else "API_specification"
    return f"{_SPEC}/{part}/generated/array_api.{name}.html"


_RULE_DOC = {
    "unary": "Runs on the backend and device of ``x``.",
    "binary": (
        "Runs on the backend and device of the first array operand; the other operand must be "
        "on the same device or be a Python scalar. Operands are promoted to one dtype by the "
        "standard's rules first, the same way on every backend."
    ),
    "first": (
        "Runs on the backend and device of ``x``; its other arguments are Python values "
        "(axes, shapes, options), never arrays."
    ),
    "generic": (
        "Runs on the backend and device of the first array argument; every other array "
        "argument must be on that device."
    ),
    "sequence": "Runs on the backend and device of the first array of the sequence.",
    "creation": "Runs on ``device=`` if given, else on the default device.",
}


def finish(fn: Any, name: str, rule: str) -> Any:
    """Name ``fn`` after the standard's function ``name`` and give it the signature and the
    docstring of the namespace (``rule``: how it is dispatched, see :data:`_RULE_DOC`)."""
    short = name.rsplit(".", 1)[-1]
    fn.__name__ = short
    fn.__qualname__ = short
    fn.__module__ = "arraymux" if "." not in name else f"arraymux.{name.split('.')[0]}"
    from ._signatures import signature

    sig = signature(name)
    if sig is not None:
        fn.__signature__ = sig
    fn.__doc__ = (
        f"{SUMMARIES[name]}\n\n"
        f"``{name}`` of the Array API standard, dispatched to the array's backend.\n\n"
        f"{_RULE_DOC[rule]}\n\n"
        f"See the standard's page: {spec_url(name)}\n\n"
        f"{sections(name, sig or inspect.signature(fn), rule)}\n"
        "Raises\n------\n"
        "BackendMismatchError, DeviceMismatchError\n"
        "    Array arguments on different backends or devices.\n"
        "TypeError, ValueError, IndexError\n"
        "    Arguments the standard does not allow (each error names the function).\n\n"
        f"{examples(name)}"
    )
    return fn
