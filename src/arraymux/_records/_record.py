"""What a record holds (:class:`Record`), and the pieces of text that several records share.

This module is the bottom of the package: it imports nothing of arraymux.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final, Generic, NamedTuple, TypeVar

__all__ = [
    "ACCUMULATE",
    "ARRAY_PAIR",
    "AXIS",
    "BY_INDEX",
    "CATEGORIES",
    "COMPLEX_OF_X",
    "CREATION_DTYPE",
    "FFT_AXIS",
    "FREQ_N",
    "HERMITIAN",
    "INF",
    "LIKE_DEVICE",
    "LIKE_DTYPE",
    "LIKE_X",
    "MATMUL",
    "MATRICES",
    "NAN",
    "ORDER_DTYPE",
    "OUT_N",
    "PI",
    "PROMOTED",
    "REAL_OF_X",
    "REDUCE_AXIS",
    "RULES",
    "SHIFT_AXES",
    "SORT_AXIS",
    "SQUARE",
    "TENSORDOT",
    "VARARGS",
    "VECDOT_X2",
    "VECTOR_AXIS",
    "Case",
    "EigResult",
    "EighResult",
    "QRResult",
    "Record",
    "SVDResult",
    "SlogdetResult",
    "Text",
    "UniqueAllResult",
    "UniqueCountsResult",
    "UniqueInverseResult",
    "reduction",
    "section",
    "two_arrays",
]

#: (type, description) of a parameter or of a result, as the docstrings show them.
Text = tuple[str, str]

#: A special case of an elementwise function: its operands and its result.
Case = tuple[tuple[float, ...], float | bool]

#: How a function is dispatched (the ``rule`` of a record):
#:
#: unary     one array operand ``x`` (elementwise)
#: binary    two operands, arrays or Python scalars, promoted to one dtype first
#: first     the first positional argument is the array; the rest are not arrays
#: generic   arrays may appear in any argument; the first one found routes the call
#: sequence  the first argument is a sequence of arrays; its first array routes the call
#: creation  no array operand: routed by ``device=``, else by the default device
#: like      ``*_like``: routed by the input array (``device=`` may move the result)
#: local     computed by arraymux itself (dtype functions, shapes, ...)
RULES: Final = ("unary", "binary", "first", "generic", "sequence", "creation", "like", "local")

#: The standard's dtype categories, as records name them (``dtypes``, ``tested`` and
#: ``result_dtypes``), with ``"any"`` for every dtype: each mapped to the kinds of
#: :func:`arraymux.isdtype` it covers.
CATEGORIES: Final[Mapping[str, tuple[str, ...]]] = {
    "boolean": ("bool",),
    "integer": ("integral",),
    "integer or boolean": ("integral", "bool"),
    "real-valued floating-point": ("real floating",),
    "complex floating-point": ("complex floating",),
    "floating-point": ("real floating", "complex floating"),
    "real-valued": ("integral", "real floating"),
    "numeric": ("numeric",),
    "any": ("bool", "numeric"),
}

INF: Final = math.inf
NAN: Final = math.nan
PI: Final = math.pi


class Record(NamedTuple):
    """Everything arraymux knows about one function of the standard.

    Dispatch
        ``name`` (``"linalg.qr"`` for the extensions' functions), ``rule`` (one of
        :data:`RULES`), ``section`` (the standard's: ``"elementwise_functions"``, ``"linalg"``,
        ...; set by :func:`section`), ``signature`` (the standard's, as text; None for unary
        and binary functions, whose signature is ``(x, /)`` or ``(x1, x2, /)``).
    Arguments
        ``promote``: the positions of the operands brought to one dtype before the backend is
        called (for the ``sequence`` rule, the arrays of the sequence; left empty: both
        operands of a binary function, else none); ``arrays``: the parameters that hold
        arrays, mapped to whether a Python scalar may stand in their place (None: the rule's,
        the first parameter or both operands of a binary function; :data:`VARARGS`: every
        positional argument); ``also_positional``: keyword-only parameters that every backend
        also takes by position, in this order after the positional ones; ``zero_d``:
        parameters of a Python number where every backend also takes a 0-d array (a name
        ending in ``[]``: among the entries of its tuple only); ``axis``: what ``axis`` may be
        beyond an int (``"tuple or None"``, ``"tuple"`` or ``"int or None"``).
    Dtypes
        ``dtypes``: the standard's dtype category of the array operands ``x``, ``x1`` and ``x2``
        (one of :data:`CATEGORIES`; shown in the docstring); ``operands``: ``"floating"``
        where the standard defines the function for floating-point operands only (arraymux
        computes bool and integer arrays in the device's default real floating dtype, on
        every backend), ``"numeric"`` for the rounding functions (integer operands come back
        unchanged, and so do booleans), ``"complex"`` for the transforms defined for complex
        operands (real arrays are computed in the complex dtype of their precision; bool and
        integer ones in the device's default complex dtype), ``"any"`` otherwise;
        ``refused``: the dtype kinds (``"bool"``, ``"signed integer"``, ``"unsigned
        integer"``, ``"real floating"``, ``"complex floating"``) outside ``dtypes`` that one
        of NumPy, PyTorch, JAX and CuPy refuses where others compute: arraymux refuses them
        on every backend, with one ``TypeError`` (the dispatch page's rule: accept what all
        accept, refuse what any refuses); ``integer_arrays``: the array parameters that hold
        positions or counts (``take``'s ``indices``, ``repeat``'s ``repeats``), which take
        integer dtypes only: a bool or floating array there is refused on every backend with
        one ``TypeError`` (NumPy and JAX take booleans as 0 and 1, Dask as a mask, and Dask
        truncates floats); ``min_ndim``: the fewest dimensions of ``x`` the standard defines a
        function for, where some backend computes on fewer: arraymux refuses fewer on every
        backend with one ``ValueError``; ``vectors``: the array parameters the standard
        defines as one-dimensional (``take``'s ``indices``, ``linalg.outer``'s operands),
        where some backend computes others: any other number of dimensions is refused on every
        backend with one ``ValueError``; ``keeps_dtype``: the result has the input's dtype
        whatever it is (``first`` rule);
        ``result_dtypes``: ``"<rule> <category>"``, the dtype of an elementwise result for
        each operand dtype of the category where every backend agrees (rule ``same``: the
        operand's, ``bool``, or ``real``: the real dtype of a complex operand's precision),
        cached on results by the hot paths; ``commutative``: a Python scalar on the left may
        be passed on the right (exactly, in IEEE arithmetic too).
    Results
        ``result``: None for an array, ``tuple`` for a tuple of arrays, or the named tuple the
        standard returns.
    Docstring
        ``summary`` (one line), ``parameters`` (the parameters that mean something else here
        than in the shared vocabulary of :mod:`arraymux._docstrings`), ``returns``
        (:data:`Text`), ``example`` (doctest lines and their output on NumPy, the default
        device; ``import arraymux as xp`` is put in front).
    Conformance (elementwise functions)
        ``tested``: the category the conformance suite draws operands from where it is not
        ``dtypes`` (complex operands left out where the backends' branch cuts differ);
        ``yields``: ``"same"``, ``"real"`` or ``"bool"``, the result dtype the suite expects
        where ``result_dtypes`` does not say it; ``special_cases``: the standard's special
        cases, ``(inputs, expected)``.
    Implementation
        ``since``: the first version of the standard (``"2024.12"`` or ``"2025.12"``) with
        this function in arraymux; ``by_hand``: the function is written out in its section's
        module (otherwise its rule's factory makes it from this record).
    """

    name: str
    rule: str
    section: str = ""
    signature: str | None = None
    summary: str | None = None
    dtypes: str | None = None
    parameters: Mapping[str, Text] | None = None
    returns: Text | None = None
    example: str | None = None
    promote: tuple[int, ...] = ()
    keeps_dtype: bool = False
    result: type[tuple[object, ...]] | None = None
    arrays: Mapping[str, bool] | None = None
    since: str = "2024.12"
    operands: str = "any"
    refused: tuple[str, ...] = ()
    integer_arrays: tuple[str, ...] = ()
    min_ndim: int = 0
    vectors: tuple[str, ...] = ()
    commutative: bool = False
    result_dtypes: str | None = None
    also_positional: tuple[str, ...] = ()
    zero_d: tuple[str, ...] = ()
    axis: str | None = None
    tested: str | None = None
    yields: str | None = None
    special_cases: tuple[Case, ...] = ()
    by_hand: bool = False


def section(name: str, *records: Record) -> tuple[Record, ...]:
    """``records``, each placed in the standard's section ``name``, with the defaults that
    depend on the rule filled in (``promote``)."""
    return tuple(
        r._replace(
            section=name,
            promote=r.promote or ((0, 1) if r.rule == "binary" else ()),
        )
        for r in records
    )


def reduction(
    name: str,
    summary: str,
    results: str,
    *,
    signature: str = "(x, /, *, axis=None, keepdims=False)",
    dtypes: str | None = None,
    parameters: Mapping[str, Text] | None = None,
    kind: str = "Array",
    operands: str = "any",
    refused: tuple[str, ...] = (),
    zero_d: tuple[str, ...] = ("axis",),
    axis: str = "tuple or None",
    example: str,
) -> Record:
    """The record of a reduction of ``x`` over ``axis`` (``keepdims`` keeps the reduced axes):
    ``results`` describes the results (``kind``: their type), the returns text adds their
    shape."""
    return Record(
        name,
        "first",
        signature=signature,
        summary=summary,
        dtypes=dtypes,
        parameters=parameters,
        returns=(
            kind,
            f"{results}: a zero-dimensional array if all axes are reduced, else an array without "
            "the reduced axes (with them of size one if ``keepdims``).",
        ),
        operands=operands,
        refused=refused,
        also_positional=("axis",),
        zero_d=zero_d,
        axis=axis,
        example=example,
    )


def two_arrays(
    name: str,
    summary: str,
    returns: Text,
    *,
    signature: str,
    dtypes: str,
    parameters: Mapping[str, Text] | None = None,
    operands: str = "any",
    refused: tuple[str, ...] = (),
    also_positional: tuple[str, ...] = (),
    zero_d: tuple[str, ...] = (),
    vectors: tuple[str, ...] = (),
    by_hand: bool = False,
    example: str,
) -> Record:
    """The record of a function of the two arrays ``x1`` and ``x2`` (no Python scalars), brought
    to one dtype before the backend is called."""
    return Record(
        name,
        "generic",
        signature=signature,
        summary=summary,
        dtypes=dtypes,
        parameters=parameters,
        returns=returns,
        promote=(0, 1),
        arrays=ARRAY_PAIR,
        operands=operands,
        refused=refused,
        also_positional=also_positional,
        zero_d=zero_d,
        vectors=vectors,
        by_hand=by_hand,
        example=example,
    )


#: ``Record.arrays`` of functions whose every positional argument is an array.
VARARGS: Final[Mapping[str, bool]] = {"*arrays": False}
#: ``Record.arrays`` of functions of two arrays ``x1`` and ``x2`` (no Python scalars).
ARRAY_PAIR: Final[Mapping[str, bool]] = {"x1": False, "x2": False}


#: The arrays of a result tuple (arraymux ``Array`` for the namespace's functions, a backend's
#: array for its adapter's).
_A = TypeVar("_A")


class EighResult(NamedTuple, Generic[_A]):
    eigenvalues: _A
    eigenvectors: _A


class EigResult(NamedTuple, Generic[_A]):
    eigenvalues: _A
    eigenvectors: _A


class QRResult(NamedTuple, Generic[_A]):
    Q: _A
    R: _A


class SlogdetResult(NamedTuple, Generic[_A]):
    sign: _A
    logabsdet: _A


class SVDResult(NamedTuple, Generic[_A]):
    U: _A
    S: _A
    Vh: _A


class UniqueAllResult(NamedTuple, Generic[_A]):
    values: _A
    indices: _A
    inverse_indices: _A
    counts: _A


class UniqueCountsResult(NamedTuple, Generic[_A]):
    values: _A
    counts: _A


class UniqueInverseResult(NamedTuple, Generic[_A]):
    values: _A
    inverse_indices: _A


# ---------------------------------------------------------------------------------------------
# Text that several records (and the shared vocabulary of parameters) use

AXIS: Final = "A negative axis counts from the last axis."
#: The end of the description of a result whose dtype type promotion gives.
PROMOTED: Final = "is given by the standard's type promotion rules."
REDUCE_AXIS: Final = (
    "int, tuple of ints or None",
    f"Axis or axes to reduce; None (the default) reduces over all axes. {AXIS}",
)
ORDER_DTYPE: Final = (
    "DType or None",
    "Dtype of the result, which the input is cast to before computing; None (the default) "
    "keeps the dtype of ``x``, except for integer dtypes narrower than the default integer "
    "dtype, which give the default integer dtype (signed) or the unsigned integer dtype of "
    "its width (unsigned).",
)
BY_INDEX: Final = (
    "int or None",
    "Axis along which to search; None (the default) searches the flattened ``x``. " + AXIS,
)
ACCUMULATE: Final = (
    "int or None",
    "Axis along which to accumulate; may be None (the default) only if ``x`` is "
    f"one-dimensional. {AXIS}",
)
SORT_AXIS: Final = ("int", f"Axis along which to sort; default -1 (the last axis). {AXIS}")
VECTOR_AXIS: Final = (
    "int",
    "Axis of ``x1`` and ``x2`` that holds the vectors; default -1 (the last axis). Should be "
    "negative (counted from the last axis).",
)
FFT_AXIS: Final = ("int", f"Axis to transform; default -1 (the last axis). {AXIS}")
OUT_N: Final = (
    "int or None",
    "Length of the transformed axis of the output: the input axis is zero-padded or trimmed "
    "to ``n//2 + 1`` elements; None (the default) gives ``2*(m - 1)`` for an input axis of "
    "length ``m``.",
)
SHIFT_AXES: Final = (
    "int, sequence of ints or None",
    "Axes to shift; None (the default) shifts every axis.",
)
FREQ_N: Final = ("int", "Window length: the number of samples of the transformed signal.")
CREATION_DTYPE: Final = (
    "DType or None",
    "Dtype of the result; None (the default) gives the device's default real floating-point dtype.",
)
LIKE_DTYPE: Final = (
    "DType or None",
    "Dtype of the result; None (the default) keeps that of ``x``.",
)
LIKE_DEVICE: Final = (
    "Device, str or None",
    "Device of the result; None (the default) keeps the device of ``x`` (another backend's "
    "device may be given).",
)
#: The dtype of a real result of a complex ``x``, and of a complex result of a real ``x``.
REAL_OF_X: Final = "the real dtype of the precision of ``x`` (``complex128`` gives ``float64``)"
COMPLEX_OF_X: Final = (
    "the complex dtype of the precision of ``x`` (``float64`` gives ``complex128``)"
)
LIKE_X: Final = ("Array", "Array whose shape (and, by default, dtype and device) the result takes.")
MATRICES: Final = (
    "Array",
    "Input array of shape ``(..., M, N)``: a matrix or a stack of matrices.",
)
SQUARE: Final = (
    "Array",
    "Input array of shape ``(..., M, M)``: a square matrix or a stack of them.",
)
HERMITIAN: Final = (
    "Array",
    "Input array of shape ``(..., M, M)``: a real symmetric or complex Hermitian matrix, or a "
    "stack of them.",
)
MATMUL: Final = {
    "x1": (
        "Array",
        "First input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix "
        "``(1, K)`` and the added axis removed from the result.",
    ),
    "x2": (
        "Array",
        "Second input array, of at least one dimension; a vector ``(K,)`` is taken as the matrix "
        "``(K, 1)``. Stacks broadcast against those of ``x1``.",
    ),
}
TENSORDOT: Final = {
    "x2": (
        "Array",
        "Second input array; each contracted axis must have the size of the matching axis of "
        "``x1``.",
    ),
    "axes": (
        "int or tuple of two sequences of ints",
        "An int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` of ``x2`` (0: "
        "outer product; the default 2: double contraction); a pair ``(x1_axes, x2_axes)`` names "
        "the axes to contract.",
    ),
}
VECDOT_X2: Final = (
    "Array",
    "Second input array; broadcast-compatible with ``x1`` except along ``axis``, where it must "
    "have the same size.",
)
