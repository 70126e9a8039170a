"""The records of the standard's elementwise functions: one per function.

Most are made by the builders below, one per family of functions whose records differ only in
their names, texts and examples: each call still says everything about its function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ._record import INF, NAN, PI, PROMOTED, Case, Record, Text, section

# Dtype kinds outside a function's category that one of NumPy, PyTorch, JAX and CuPy refuses
# while others compute (``Record.refused``): arraymux refuses them on every backend.
COMPLEX = ("complex floating",)  # torch refuses orderings of complex numbers, NumPy logaddexp
BOOL = ("bool",)  # torch has no bool kernels of these
# No library computes bitwise operations of floats, but torch raises NotImplementedError
# where the others raise TypeError: one TypeError everywhere.
FLOATING = ("real floating", "complex floating")
NOT_COMPLEX = ("bool", "signed integer", "unsigned integer", "real floating")  # torch's imag


def binary_parameters(x1: str, x2: str) -> dict[str, Text]:
    """The ``parameters`` of a binary function whose operands ``x1`` and ``x2`` (described by
    the first words of their descriptions) are given a meaning of their own."""
    return {
        "x1": ("Array or Python scalar", f"{x1}; may be a Python scalar if ``x2`` is an array."),
        "x2": (
            "Array or Python scalar",
            f"{x2}, broadcast-compatible with ``x1``; may be a Python scalar if ``x1`` is an "
            "array.",
        ),
    }


DIVISION: Final = binary_parameters("The dividends", "The divisors")
SHIFT: Final = {
    "x2": (
        "Array or Python scalar",
        "Number of bits to shift by, each non-negative; broadcast-compatible with ``x1``; may be "
        "a Python scalar if ``x1`` is an array.",
    )
}
ANGLES: Final = {"x": ("Array", "Input array of angles, in radians.")}
HYPERBOLIC_ANGLES: Final = {"x": ("Array", "Input array of hyperbolic angles.")}
SECTORS: Final = {"x": ("Array", "Input array: areas of hyperbolic sectors.")}


def floating(
    name: str,
    summary: str,
    result: str,
    *,
    parameters: Mapping[str, Text] | None = None,
    result_dtypes: str | None = "same floating-point",
    tested: str | None = None,
    special_cases: tuple[Case, ...] = (),
    example: str,
) -> Record:
    """A unary function of floating-point operands whose result, described by ``result``, has
    the floating-point dtype of type promotion."""
    return Record(
        name,
        "unary",
        summary=summary,
        dtypes="floating-point",
        parameters=parameters,
        returns=("Array", f"{result}; its floating-point dtype {PROMOTED}"),
        operands="floating",
        result_dtypes=result_dtypes,
        tested=tested,
        special_cases=special_cases,
        example=example,
    )


def rounding(
    name: str,
    summary: str,
    result: str,
    *,
    special_cases: tuple[Case, ...],
    refused: tuple[str, ...] = (),
    example: str,
) -> Record:
    """A unary function that rounds real-valued operands to integer values, keeping their dtype
    (integer ones come back unchanged)."""
    return Record(
        name,
        "unary",
        summary=summary,
        dtypes="real-valued",
        returns=("Array", result),
        operands="numeric",
        result_dtypes="same real-valued floating-point",
        special_cases=special_cases,
        refused=refused,
        example=example,
    )


def test(
    name: str, summary: str, true_where: str, *, special_cases: tuple[Case, ...], example: str
) -> Record:
    """A unary test of numeric operands, True where ``true_where``."""
    return Record(
        name,
        "unary",
        summary=summary,
        dtypes="numeric",
        returns=("Array of dtype bool", f"True where {true_where}."),
        result_dtypes="bool floating-point",
        special_cases=special_cases,
        example=example,
    )


def binary(
    name: str,
    summary: str,
    results: str,
    *,
    dtypes: str,
    promoted: str = "",
    parameters: Mapping[str, Text] | None = None,
    operands: str = "any",
    refused: tuple[str, ...] = (),
    commutative: bool = False,
    result_dtypes: str | None,
    tested: str | None = None,
    special_cases: tuple[Case, ...] = (),
    example: str,
) -> Record:
    """A binary function whose element-wise ``results`` have the dtype of type promotion
    (``promoted``: the kind of dtype, ``"floating-point "`` or ``"real floating-point "``)."""
    return Record(
        name,
        "binary",
        summary=summary,
        dtypes=dtypes,
        parameters=parameters,
        returns=(
            "Array",
            f"The element-wise {results}, of the broadcast shape of ``x1`` and ``x2``; its "
            f"{promoted}dtype {PROMOTED}",
        ),
        operands=operands,
        refused=refused,
        commutative=commutative,
        result_dtypes=result_dtypes,
        tested=tested,
        special_cases=special_cases,
        example=example,
    )


def bitwise(name: str, operation: str, *, example: str) -> Record:
    """The bitwise ``operation`` (``"AND"``, ...) of integer or boolean operands."""
    return binary(
        name,
        f"Bitwise {operation} of ``x1`` and ``x2``, element-wise.",
        f"bitwise {operation}",
        dtypes="integer or boolean",
        commutative=True,
        result_dtypes="same integer",
        refused=FLOATING,
        example=example,
    )


def comparison(
    name: str,
    operator: str,
    *,
    dtypes: str | None = None,
    refused: tuple[str, ...] = (),
    special_cases: tuple[Case, ...] = (),
    example: str,
) -> Record:
    """The truth value of ``x1 <operator> x2``: ``==`` and ``!=`` take operands of every dtype
    (and are commutative), the orderings real-valued ones (``dtypes``)."""
    return Record(
        name,
        "binary",
        summary=f"Truth value of ``x1 {operator} x2``, element-wise.",
        dtypes=dtypes,
        returns=(
            "Array of dtype bool",
            f"True where ``x1 {operator} x2``, of the broadcast shape of ``x1`` and ``x2``.",
        ),
        refused=refused,
        commutative=dtypes is None,
        result_dtypes=f"bool {dtypes or 'any'}",
        special_cases=special_cases,
        example=example,
    )


def logical(name: str, operation: str, true_where: str, *, example: str) -> Record:
    """The logical ``operation`` of boolean operands, True where ``true_where``."""
    return Record(
        name,
        "binary",
        summary=f"Logical {operation} of ``x1`` and ``x2``, element-wise.",
        dtypes="boolean",
        returns=("Array of dtype bool", f"True where {true_where}, of their broadcast shape."),
        commutative=True,
        result_dtypes="same boolean",
        refused=COMPLEX,  # (CuPy has no complex kernels of them)
        example=example,
    )


RECORDS = section(
    "elementwise_functions",
    Record(
        "abs",
        "unary",
        summary="Absolute value of each element of ``x``.",
        dtypes="numeric",
        returns=(
            "Array",
            "The absolute value of each element of ``x``; with the dtype of ``x`` if real, else "
            "the real floating-point dtype of its precision (``complex128`` gives ``float64``).",
        ),
        result_dtypes="real numeric",
        special_cases=(((-0.0,), 0.0), ((-INF,), INF), ((NAN,), NAN)),
        refused=BOOL,
        example="""\
>>> xp.abs(xp.asarray([-1.5, 0.0, 2.0]))
Array([1.5, 0. , 2. ], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "acos",
        "Principal value of the inverse cosine of each element of ``x``, in radians.",
        "The inverse cosine, in radians in ``[0, pi]``, of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((1.0,), 0.0), ((2.0,), NAN)),
        example="""\
>>> xp.acos(xp.asarray([1.0, 0.0, -1.0]))
Array([0.        , 1.57079633, 3.14159265], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "acosh",
        "Inverse hyperbolic cosine of each element of ``x``.",
        "The inverse hyperbolic cosine of each element of ``x``",
        parameters=SECTORS,
        tested="real-valued floating-point",
        special_cases=(((1.0,), 0.0), ((0.5,), NAN)),
        example="""\
>>> xp.acosh(xp.asarray([1.0, 2.0]))
Array([0.       , 1.3169579], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "asin",
        "Principal value of the inverse sine of each element of ``x``, in radians.",
        "The inverse sine, in radians in ``[-pi/2, pi/2]``, of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-0.0,), -0.0),),
        example="""\
>>> xp.asin(xp.asarray([0.0, 0.5, 1.0]))
Array([0.        , 0.52359878, 1.57079633], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "asinh",
        "Inverse hyperbolic sine of each element of ``x``.",
        "The inverse hyperbolic sine of each element of ``x``",
        parameters=SECTORS,
        tested="real-valued floating-point",
        special_cases=(((-INF,), -INF),),
        example="""\
>>> xp.asinh(xp.asarray([0.0, 1.0]))
Array([0.        , 0.88137359], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "atan",
        "Principal value of the inverse tangent of each element of ``x``, in radians.",
        "The inverse tangent, in radians in ``[-pi/2, pi/2]``, of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-0.0,), -0.0), ((INF,), PI / 2)),
        example="""\
>>> xp.atan(xp.asarray([0.0, 1.0]))
Array([0.        , 0.78539816], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "atanh",
        "Inverse hyperbolic tangent of each element of ``x``.",
        "The inverse hyperbolic tangent of each element of ``x``",
        parameters=SECTORS,
        tested="real-valued floating-point",
        special_cases=(((1.0,), INF), ((-1.0,), -INF)),
        example="""\
>>> xp.atanh(xp.asarray([0.0, 0.5]))
Array([0.        , 0.54930614], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "bitwise_invert",
        "unary",
        summary="Bitwise NOT (every bit flipped) of each element of ``x``.",
        dtypes="integer or boolean",
        returns=("Array", "The bitwise NOT of each element of ``x``; with the dtype of ``x``."),
        result_dtypes="same integer",
        refused=FLOATING,
        example="""\
>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.int8))
Array([-1, -6], dtype=int8, device='numpy:cpu')
>>> xp.bitwise_invert(xp.asarray([0, 5], dtype=xp.uint8))
Array([255, 250], dtype=uint8, device='numpy:cpu')
""",
    ),
    rounding(
        "ceil",
        "Smallest integer-valued number not less than each element of ``x``.",
        "The ceiling of each element of ``x``; with the dtype of ``x``.",
        special_cases=(((-0.5,), -0.0),),
        refused=COMPLEX,
        example="""\
>>> xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))
Array([-1.,  1.,  2.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "conj",
        "unary",
        summary="Complex conjugate of each element of ``x``.",
        dtypes="numeric",
        returns=(
            "Array",
            "The complex conjugate of each element of ``x``; with the dtype of ``x``.",
        ),
        refused=BOOL,
        example="""\
>>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
Array([1.-2.j, 3.+4.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    floating(
        "cos",
        "Cosine of each element of ``x`` (in radians).",
        "The cosine of each element of ``x``",
        parameters=ANGLES,
        special_cases=(((-0.0,), 1.0), ((INF,), NAN)),
        example="""\
>>> xp.cos(xp.asarray([0.0, xp.pi]))
Array([ 1., -1.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "cosh",
        "Hyperbolic cosine of each element of ``x``.",
        "The hyperbolic cosine of each element of ``x``",
        parameters=HYPERBOLIC_ANGLES,
        special_cases=(((-INF,), INF),),
        example="""\
>>> xp.cosh(xp.asarray([0.0, 1.0]))
Array([1.        , 1.54308063], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "exp",
        "Exponential ``e**x`` of each element of ``x``.",
        "``e`` raised to the power of each element of ``x``",
        special_cases=(((-INF,), 0.0), ((NAN,), NAN)),
        example="""\
>>> xp.exp(xp.asarray([0.0, 1.0]))
Array([1.        , 2.71828183], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "expm1",
        "``exp(x) - 1`` of each element of ``x``, accurate for ``x`` near zero.",
        "``exp(x) - 1`` of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-INF,), -1.0), ((-0.0,), -0.0)),
        example="""\
>>> xp.expm1(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64, device='numpy:cpu')
""",
    ),
    rounding(
        "floor",
        "Greatest integer-valued number not greater than each element of ``x``.",
        "The floor of each element of ``x``; with the dtype of ``x``.",
        special_cases=(((-0.0,), -0.0),),
        refused=COMPLEX,
        example="""\
>>> xp.floor(xp.asarray([-1.5, 0.2, 2.0]))
Array([-2.,  0.,  2.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "imag",
        "unary",
        summary="Imaginary component of each element of ``x``.",
        dtypes="complex floating-point",
        returns=(
            "Array",
            "The imaginary component of each element of ``x``, of the real floating-point dtype "
            "of its precision (``complex64`` gives ``float32``).",
        ),
        result_dtypes="real complex floating-point",
        refused=NOT_COMPLEX,
        example="""\
>>> xp.imag(xp.asarray([1 + 2j, 3 - 4j]))
Array([ 2., -4.], dtype=float64, device='numpy:cpu')
""",
    ),
    test(
        "isfinite",
        "Whether each element of ``x`` is finite (neither infinite nor NaN).",
        "the element of ``x`` is finite",
        special_cases=(((INF,), False),),
        example="""\
>>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    ),
    test(
        "isinf",
        "Whether each element of ``x`` is positive or negative infinity.",
        "the element of ``x`` is infinite (either sign)",
        special_cases=(((-INF,), True),),
        example="""\
>>> xp.isinf(xp.asarray([1.0, xp.inf, -xp.inf, xp.nan]))
Array([False,  True,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    test(
        "isnan",
        "Whether each element of ``x`` is NaN.",
        "the element of ``x`` is NaN",
        special_cases=(((NAN,), True),),
        example="""\
>>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))
Array([False, False,  True], dtype=bool, device='numpy:cpu')
""",
    ),
    floating(
        "log",
        "Natural (base ``e``) logarithm of each element of ``x``.",
        "The natural logarithm of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((0.0,), -INF), ((-1.0,), NAN), ((INF,), INF)),
        example="""\
>>> xp.log(xp.asarray([1.0, xp.e]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "log1p",
        "``log(1 + x)`` of each element of ``x``, accurate for ``x`` near zero.",
        "``log(1 + x)`` of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-1.0,), -INF), ((-0.0,), -0.0)),
        example="""\
>>> xp.log1p(xp.asarray([0.0, 1e-10]))
Array([0.e+00, 1.e-10], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "log2",
        "Base 2 logarithm of each element of ``x``.",
        "The base 2 logarithm of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-0.0,), -INF),),
        example="""\
>>> xp.log2(xp.asarray([1.0, 8.0]))
Array([0., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "log10",
        "Base 10 logarithm of each element of ``x``.",
        "The base 10 logarithm of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((1.0,), 0.0),),
        example="""\
>>> xp.log10(xp.asarray([1.0, 1000.0]))
Array([0., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "logical_not",
        "unary",
        summary="Logical NOT of each element of ``x``.",
        dtypes="boolean",
        returns=("Array of dtype bool", "True where the element of ``x`` is False (zero)."),
        result_dtypes="same boolean",
        refused=COMPLEX,  # (CuPy has no complex kernel of it, nor of the binary ones)
        example="""\
>>> xp.logical_not(xp.asarray([True, False]))
Array([False,  True], dtype=bool, device='numpy:cpu')
""",
    ),
    Record(
        "negative",
        "unary",
        summary="Numerical negative ``-x`` of each element of ``x``.",
        dtypes="numeric",
        returns=(
            "Array",
            "The negative of each element of ``x``; its dtype is given by the standard's type "
            "promotion rules.",
        ),
        result_dtypes="same numeric",
        special_cases=(((0.0,), -0.0),),
        refused=BOOL,
        example="""\
>>> xp.negative(xp.asarray([1, -2]))
Array([-1,  2], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "positive",
        "unary",
        summary="Numerical positive ``+x`` of each element of ``x``.",
        dtypes="numeric",
        returns=("Array", "The elements of ``x``, unchanged, with its dtype."),
        result_dtypes="same numeric",
        refused=BOOL,
        example="""\
>>> xp.positive(xp.asarray([1, -2]))
Array([ 1, -2], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "real",
        "unary",
        summary="Real component of each element of ``x``.",
        dtypes="numeric",
        returns=(
            "Array",
            "The real component of each element of ``x``: of the real floating-point dtype of its "
            "precision for complex ``x`` (``complex64`` gives ``float32``), else with the dtype "
            "of ``x``.",
        ),
        result_dtypes="real numeric",
        example="""\
>>> xp.real(xp.asarray([1 + 2j, 3 - 4j]))
Array([1., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "reciprocal",
        "Reciprocal ``1 / x`` of each element of ``x``.",
        "The reciprocal of each element of ``x``",
        result_dtypes=None,
        special_cases=(((-0.0,), -INF),),
        example="""\
>>> xp.reciprocal(xp.asarray([1.0, 2.0, 4.0]))
Array([1.  , 0.5 , 0.25], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "round",
        "unary",
        summary=(
            "Each element of ``x`` rounded to the nearest integer-valued number (halves to even)."
        ),
        dtypes="numeric",
        returns=(
            "Array",
            "Each element of ``x`` rounded to the nearest integer-valued number (halves to even; "
            "real and imaginary parts separately if complex), with the dtype of ``x``.",
        ),
        operands="numeric",
        tested="real-valued",
        special_cases=(((2.5,), 2.0), ((-0.5,), -0.0)),
        example="""\
>>> xp.round(xp.asarray([0.5, 1.5, 2.5, -1.7]))
Array([ 0.,  2.,  2., -2.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "sign",
        "unary",
        summary="Sign of each element of ``x``: -1, 0 or 1 (``x / abs(x)`` for complex numbers).",
        dtypes="numeric",
        returns=(
            "Array",
            "The sign of each element of ``x``: -1, 0 or 1 if real, ``x / abs(x)`` (0 for 0) if "
            "complex; with the dtype of ``x``.",
        ),
        special_cases=(((NAN,), NAN),),
        refused=BOOL,
        example="""\
>>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))
Array([-1.,  0.,  1.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "signbit",
        "unary",
        summary="Whether the sign bit of each element of ``x`` is set.",
        dtypes="real-valued floating-point",
        returns=(
            "Array of dtype bool",
            "True where the sign bit of the element of ``x`` is set (``-0.0`` included).",
        ),
        operands="floating",
        result_dtypes="bool real-valued floating-point",
        special_cases=(((-0.0,), True),),
        refused=COMPLEX,
        example="""\
>>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 1.0]))
Array([ True,  True, False, False], dtype=bool, device='numpy:cpu')
""",
    ),
    floating(
        "sin",
        "Sine of each element of ``x`` (in radians).",
        "The sine of each element of ``x``",
        parameters=ANGLES,
        special_cases=(((-0.0,), -0.0), ((-INF,), NAN)),
        example="""\
>>> xp.sin(xp.asarray([0.0, xp.pi / 2]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "sinh",
        "Hyperbolic sine of each element of ``x``.",
        "The hyperbolic sine of each element of ``x``",
        parameters=HYPERBOLIC_ANGLES,
        special_cases=(((-0.0,), -0.0),),
        example="""\
>>> xp.sinh(xp.asarray([0.0, 1.0]))
Array([0.        , 1.17520119], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "square",
        "unary",
        summary="Square ``x * x`` of each element of ``x``.",
        dtypes="numeric",
        returns=(
            "Array",
            "The square of each element of ``x``; its dtype is given by the standard's type "
            "promotion rules.",
        ),
        result_dtypes="same numeric",
        special_cases=(((-INF,), INF),),
        refused=BOOL,
        example="""\
>>> xp.square(xp.asarray([-2, 3]))
Array([4, 9], dtype=int64, device='numpy:cpu')
""",
    ),
    floating(
        "sqrt",
        "Principal square root of each element of ``x``.",
        "The principal square root of each element of ``x``",
        tested="real-valued floating-point",
        special_cases=(((-0.0,), -0.0), ((-1.0,), NAN), ((INF,), INF)),
        example="""\
>>> xp.sqrt(xp.asarray([0.0, 4.0, 9.0]))
Array([0., 2., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "tan",
        "Tangent of each element of ``x`` (in radians).",
        "The tangent of each element of ``x``",
        parameters=ANGLES,
        tested="real-valued floating-point",
        special_cases=(((-0.0,), -0.0),),
        example="""\
>>> xp.tan(xp.asarray([0.0, xp.pi / 4]))
Array([0., 1.], dtype=float64, device='numpy:cpu')
""",
    ),
    floating(
        "tanh",
        "Hyperbolic tangent of each element of ``x``.",
        "The hyperbolic tangent of each element of ``x``",
        parameters=HYPERBOLIC_ANGLES,
        special_cases=(((-INF,), -1.0),),
        example="""\
>>> xp.tanh(xp.asarray([0.0, 1.0]))
Array([0.        , 0.76159416], dtype=float64, device='numpy:cpu')
""",
    ),
    rounding(
        "trunc",
        "Each element of ``x`` rounded toward zero to an integer-valued number.",
        "Each element of ``x`` rounded toward zero, with the dtype of ``x``.",
        special_cases=(((-0.5,), -0.0),),
        refused=COMPLEX,
        example="""\
>>> xp.trunc(xp.asarray([-1.7, 1.7]))
Array([-1.,  1.], dtype=float64, device='numpy:cpu')
""",
    ),
    binary(
        "add",
        "Sum ``x1 + x2``, element-wise.",
        "sums",
        dtypes="numeric",
        commutative=True,
        result_dtypes="same numeric",
        special_cases=(((INF, -INF), NAN), ((-0.0, -0.0), -0.0)),
        example="""\
>>> xp.add(xp.asarray([1, 2]), xp.asarray([10, 20]))
Array([11, 22], dtype=int64, device='numpy:cpu')
>>> xp.add(xp.asarray([1.0, 2.0], dtype=xp.float32), 0.5)
Array([1.5, 2.5], dtype=float32, device='numpy:cpu')
""",
    ),
    binary(
        "atan2",
        "Inverse tangent of ``x1 / x2`` in the quadrant of the point ``(x2, x1)``, element-wise.",
        "inverse tangents of ``x1 / x2``, in radians in ``[-pi, pi]``",
        dtypes="real-valued floating-point",
        promoted="real floating-point ",
        parameters={
            "x1": (
                "Array or Python scalar",
                "The y-coordinates (numerators); may be a Python scalar if ``x2`` is an array.",
            ),
            "x2": (
                "Array or Python scalar",
                "The x-coordinates (denominators), broadcast-compatible with ``x1``; may be a "
                "Python scalar if ``x1`` is an array.",
            ),
        },
        operands="floating",
        result_dtypes="same real-valued floating-point",
        special_cases=(((0.0, -0.0), PI), ((-0.0, -0.0), -PI), ((INF, INF), PI / 4)),
        refused=COMPLEX,
        example="""\
>>> xp.atan2(xp.asarray([1.0, 1.0]), xp.asarray([1.0, -1.0]))
Array([0.78539816, 2.35619449], dtype=float64, device='numpy:cpu')
""",
    ),
    bitwise(
        "bitwise_and",
        "AND",
        example="""\
>>> xp.bitwise_and(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([4, 2], dtype=uint8, device='numpy:cpu')
""",
    ),
    binary(
        "bitwise_left_shift",
        "Bits of ``x1`` shifted left by ``x2``, element-wise.",
        "shifted values",
        dtypes="integer",
        parameters=SHIFT,
        result_dtypes="same integer",
        refused=BOOL + FLOATING,
        example="""\
>>> xp.bitwise_left_shift(xp.asarray([1, 3]), xp.asarray([2, 1]))
Array([4, 6], dtype=int64, device='numpy:cpu')
""",
    ),
    bitwise(
        "bitwise_or",
        "OR",
        example="""\
>>> xp.bitwise_or(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([14, 14], dtype=uint8, device='numpy:cpu')
""",
    ),
    binary(
        "bitwise_right_shift",
        "Bits of ``x1`` shifted right by ``x2``, element-wise.",
        "shifted values",
        dtypes="integer",
        parameters=SHIFT,
        result_dtypes="same integer",
        refused=BOOL + FLOATING,
        example="""\
>>> xp.bitwise_right_shift(xp.asarray([16, 7]), xp.asarray([2, 1]))
Array([4, 3], dtype=int64, device='numpy:cpu')
""",
    ),
    bitwise(
        "bitwise_xor",
        "XOR",
        example="""\
>>> xp.bitwise_xor(xp.asarray([12, 10], dtype=xp.uint8), 6)
Array([10, 12], dtype=uint8, device='numpy:cpu')
""",
    ),
    binary(
        "copysign",
        "Magnitude of ``x1`` with the sign of ``x2``, element-wise.",
        "magnitudes of ``x1`` with the signs of ``x2``",
        dtypes="real-valued floating-point",
        promoted="floating-point ",
        parameters={
            "x1": (
                "Array or Python scalar",
                "The magnitudes; may be a Python scalar if ``x2`` is an array.",
            ),
            "x2": (
                "Array or Python scalar",
                "Values whose signs are applied to the magnitudes, broadcast-compatible with "
                "``x1``; may be a Python scalar if ``x1`` is an array.",
            ),
        },
        operands="floating",
        result_dtypes="same real-valued floating-point",
        special_cases=(((1.0, -0.0), -1.0),),
        refused=COMPLEX,
        example="""\
>>> xp.copysign(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([-1.0, 0.0, -0.0]))
Array([-1.,  2., -3.], dtype=float64, device='numpy:cpu')
""",
    ),
    binary(
        "divide",
        "True division ``x1 / x2``, element-wise.",
        "quotients",
        dtypes="numeric",
        promoted="floating-point ",
        parameters=DIVISION,
        operands="floating",
        result_dtypes="same floating-point",
        tested="floating-point",
        special_cases=(((1.0, 0.0), INF), ((1.0, -0.0), -INF), ((0.0, 0.0), NAN)),
        example="""\
>>> xp.divide(xp.asarray([1.0, 3.0]), xp.asarray([2.0, 4.0]))
Array([0.5 , 0.75], dtype=float64, device='numpy:cpu')
""",
    ),
    comparison(
        "equal",
        "==",
        special_cases=(((NAN, NAN), False),),
        example="""\
>>> xp.equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
Array([ True, False,  True], dtype=bool, device='numpy:cpu')
""",
    ),
    binary(
        "floor_divide",
        "Floor division ``x1 // x2`` (rounded toward negative infinity), element-wise.",
        "floored quotients",
        dtypes="real-valued",
        parameters=DIVISION,
        result_dtypes="same real-valued",
        refused=BOOL + COMPLEX,
        example="""\
>>> xp.floor_divide(xp.asarray([7, -7]), 2)
Array([ 3, -4], dtype=int64, device='numpy:cpu')
""",
    ),
    comparison(
        "greater",
        ">",
        dtypes="real-valued",
        special_cases=(((NAN, 0.0), False),),
        refused=COMPLEX,
        example="""\
>>> xp.greater(xp.asarray([1, 2, 3]), 2)
Array([False, False,  True], dtype=bool, device='numpy:cpu')
""",
    ),
    comparison(
        "greater_equal",
        ">=",
        dtypes="real-valued",
        refused=COMPLEX,
        example="""\
>>> xp.greater_equal(xp.asarray([1, 2, 3]), 2)
Array([False,  True,  True], dtype=bool, device='numpy:cpu')
""",
    ),
    binary(
        "hypot",
        "Hypotenuse ``sqrt(x1**2 + x2**2)``, element-wise, without undue overflow.",
        "hypotenuses",
        dtypes="real-valued floating-point",
        promoted="real floating-point ",
        operands="floating",
        result_dtypes="same real-valued floating-point",
        special_cases=(((INF, NAN), INF),),
        refused=COMPLEX,
        example="""\
>>> xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))
Array([ 5., 13.], dtype=float64, device='numpy:cpu')
""",
    ),
    comparison(
        "less",
        "<",
        dtypes="real-valued",
        special_cases=(((-0.0, 0.0), False),),
        refused=COMPLEX,
        example="""\
>>> xp.less(xp.asarray([1, 2, 3]), 2)
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    ),
    comparison(
        "less_equal",
        "<=",
        dtypes="real-valued",
        refused=COMPLEX,
        example="""\
>>> xp.less_equal(xp.asarray([1, 2, 3]), 2)
Array([ True,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    binary(
        "logaddexp",
        "``log(exp(x1) + exp(x2))``, element-wise, without undue overflow.",
        "``log(exp(x1) + exp(x2))``",
        dtypes="real-valued floating-point",
        promoted="real floating-point ",
        operands="floating",
        result_dtypes="same real-valued floating-point",
        special_cases=(((INF, 1.0), INF),),
        refused=COMPLEX,
        example="""\
>>> xp.logaddexp(xp.asarray([0.0, 1.0]), xp.asarray([0.0, 1.0]))
Array([0.69314718, 1.69314718], dtype=float64, device='numpy:cpu')
""",
    ),
    logical(
        "logical_and",
        "AND",
        "both ``x1`` and ``x2`` are True",
        example="""\
>>> xp.logical_and(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([ True, False, False], dtype=bool, device='numpy:cpu')
""",
    ),
    logical(
        "logical_or",
        "OR",
        "``x1`` or ``x2`` is True",
        example="""\
>>> xp.logical_or(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([ True,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    logical(
        "logical_xor",
        "XOR",
        "exactly one of ``x1`` and ``x2`` is True",
        example="""\
>>> xp.logical_xor(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    binary(
        "maximum",
        "Larger of ``x1`` and ``x2``, element-wise (NaN if either is NaN).",
        "maxima",
        dtypes="real-valued",
        commutative=True,
        result_dtypes="same real-valued",
        special_cases=(((NAN, 1.0), NAN),),
        refused=COMPLEX,
        example="""\
>>> xp.maximum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))
Array([3., 5.], dtype=float64, device='numpy:cpu')
""",
    ),
    binary(
        "minimum",
        "Smaller of ``x1`` and ``x2``, element-wise (NaN if either is NaN).",
        "minima",
        dtypes="real-valued",
        commutative=True,
        result_dtypes="same real-valued",
        special_cases=(((1.0, NAN), NAN),),
        refused=COMPLEX,
        example="""\
>>> xp.minimum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))
Array([1., 2.], dtype=float64, device='numpy:cpu')
""",
    ),
    binary(
        "multiply",
        "Product ``x1 * x2``, element-wise.",
        "products",
        dtypes="numeric",
        commutative=True,
        result_dtypes="same numeric",
        special_cases=(((0.0, INF), NAN), ((-0.0, 1.0), -0.0)),
        example="""\
>>> xp.multiply(xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]))
Array([3., 8.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "nextafter",
        "binary",
        summary="Next representable floating-point value after ``x1`` toward ``x2``, element-wise.",
        dtypes="real-valued floating-point",
        parameters={
            "x2": (
                "Array or Python scalar",
                "The directions, broadcast-compatible with ``x1`` and of its dtype; may be a "
                "Python scalar if ``x1`` is an array.",
            ),
        },
        returns=(
            "Array",
            "The element-wise next representable values, of the broadcast shape of ``x1`` and "
            "``x2``; with the dtype of ``x1``.",
        ),
        operands="floating",
        result_dtypes="same real-valued floating-point",
        refused=COMPLEX,
        example="""\
>>> float(xp.nextafter(xp.asarray(1.0), xp.asarray(2.0)))
1.0000000000000002
""",
    ),
    comparison(
        "not_equal",
        "!=",
        special_cases=(((NAN, NAN), True),),
        example="""\
>>> xp.not_equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
Array([False,  True, False], dtype=bool, device='numpy:cpu')
""",
    ),
    binary(
        "pow",
        "``x1`` raised to the power ``x2``, element-wise.",
        "powers",
        dtypes="numeric",
        parameters={
            "x1": (
                "Array or Python scalar",
                "The bases; may be a Python scalar if ``x2`` is an array.",
            ),
            "x2": (
                "Array or Python scalar",
                "The exponents, broadcast-compatible with ``x1``; may be a Python scalar if "
                "``x1`` is an array.",
            ),
        },
        result_dtypes="same floating-point",
        special_cases=(
            ((NAN, 0.0), 1.0),
            ((1.0, NAN), 1.0),
            ((-INF, 3.0), -INF),
            ((0.0, -1.0), INF),
        ),
        refused=BOOL,
        example="""\
>>> xp.pow(xp.asarray([2.0, 3.0]), xp.asarray([3.0, 2.0]))
Array([8., 9.], dtype=float64, device='numpy:cpu')
>>> xp.pow(xp.asarray([1, 2, 3]), 2)
Array([1, 4, 9], dtype=int64, device='numpy:cpu')
""",
    ),
    binary(
        "remainder",
        "Remainder of ``x1 / x2`` with the sign of ``x2``, element-wise.",
        "remainders (each zero or with the sign of ``x2``)",
        dtypes="real-valued",
        parameters=DIVISION,
        result_dtypes="same real-valued",
        refused=BOOL + COMPLEX,
        example="""\
>>> xp.remainder(xp.asarray([7, -7]), 3)
Array([1, 2], dtype=int64, device='numpy:cpu')
""",
    ),
    binary(
        "subtract",
        "Difference ``x1 - x2``, element-wise.",
        "differences",
        dtypes="numeric",
        result_dtypes="same numeric",
        special_cases=(((INF, INF), NAN),),
        refused=BOOL,
        example="""\
>>> xp.subtract(xp.asarray([5, 3]), xp.asarray([1, 4]))
Array([ 4, -1], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "clip",
        "generic",
        signature="(x, /, min=None, max=None)",
        summary="Each element of ``x`` clamped to the range ``[min, max]``.",
        dtypes="real-valued",
        returns=(
            "Array",
            "``x`` with each element clamped to ``[min, max]``; should have the dtype of ``x``.",
        ),
        arrays={
            "x": False,
            "min": True,
            "max": True,
        },
        refused=("bool", "complex floating"),  # torch refuses both; JAX gives int32 for bools
        example="""\
>>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), 0.0, 1.0)
Array([0. , 0.5, 1. ], dtype=float64, device='numpy:cpu')
>>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), max=1.0)
Array([-2. ,  0.5,  1. ], dtype=float64, device='numpy:cpu')
""",
    ),
)
