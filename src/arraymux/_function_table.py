"""The single list of the standard's functions: name, section, dispatch rule and what else
arraymux needs to know about each (:class:`Entry`).

Rules
-----
unary       one array operand ``x`` (elementwise)
binary      two operands, arrays or Python scalars; operands are promoted to one dtype first
first       the first positional argument is the array; the rest are not arrays
generic     arrays may appear in any argument; the first one found routes the call
sequence    the first argument is a sequence of arrays; its first array routes the call
creation    no array operand: routed by ``device=``, else by the default device
like        ``*_like``: routed by the input array (``device=`` may move the result)
local       computed by arraymux itself (dtype functions, shapes, ...)

``promote`` lists the operands brought to one dtype by the standard's promotion rules before
the backend is called, so every backend sees matching dtypes; :class:`Entry` says what else
sets a function apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple


class Entry(NamedTuple):
    """Everything arraymux knows about one function of the standard.

    ``promote``: the positions of the operands brought to one dtype before the backend is
    called (for the ``sequence`` rule, the arrays of the sequence); ``keeps_dtype``: the result
    has the input's dtype whatever it is (``first`` rule); ``result``: ``None`` for an array,
    ``tuple`` for a tuple of arrays, or the named tuple the standard returns; ``arrays``: the
    parameters that hold arrays, mapped to whether a Python scalar may stand in their place
    (``None``: the rule's, the first parameter or both operands of a binary function;
    ``VARARGS``: every positional argument); ``since``: the first version of the standard
    that arraymux implements (2024.12 or 2025.12) with this function; ``operands``:
    ``"floating"`` where the standard defines the function for floating-point operands only
    (arraymux computes bool and integer arrays in the device's default real floating dtype,
    on every backend), ``"numeric"`` for the rounding functions (integer operands come back
    unchanged, and so do booleans), ``"complex"`` for the transforms defined for complex
    operands (real arrays are computed in the complex dtype of their precision; bool and
    integer ones in the device's default complex dtype), ``"any"`` otherwise.
    """

    name: str
    section: str
    rule: str
    promote: tuple[int, ...] = ()
    keeps_dtype: bool = False
    result: Any = None
    arrays: Mapping[str, bool] | None = None
    since: str = "2024.12"
    operands: str = "any"


#: ``Entry.arrays`` of functions whose every positional argument is an array.
VARARGS: Final[Mapping[str, bool]] = {"*arrays": False}


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def _entries(section: str, rule: str, names: str, promote: bool = False) -> list[Entry]:
    at = ((0,) if rule == "sequence" else (0, 1)) if promote else ()
    return [Entry(n, section, rule, at) for n in names.split()]


# What sets some functions apart from the others of their rule (applied to the table below).
_DETAILS: Final[dict[str, dict[str, Any]]] = {
    # results of several arrays
    "unstack": {"result": tuple},
    "nonzero": {"result": tuple},
    "meshgrid": {"result": tuple, "arrays": VARARGS},
    "broadcast_arrays": {"result": tuple, "arrays": VARARGS},
    "unique_all": {"result": UniqueAllResult},
    "unique_counts": {"result": UniqueCountsResult},
    "unique_inverse": {"result": UniqueInverseResult},
    "linalg.eig": {"result": EigResult, "since": "2025.12"},
    "linalg.eigh": {"result": EighResult},
    "linalg.qr": {"result": QRResult},
    "linalg.slogdet": {"result": SlogdetResult},
    "linalg.svd": {"result": SVDResult},
    # parameters that hold arrays, beyond the first (True: a Python scalar may stand in)
    "clip": {"arrays": {"x": False, "min": True, "max": True}},
    "where": {"arrays": {"condition": False, "x1": True, "x2": True}, "promote": (1, 2)},
    "take": {"arrays": {"x": False, "indices": False}},
    "take_along_axis": {"arrays": {"x": False, "indices": False}},
    "searchsorted": {"arrays": {"x1": False, "x2": True, "sorter": False}},
    "isin": {"arrays": {"x1": True, "x2": True}, "since": "2025.12"},
    "repeat": {"arrays": {"x": False, "repeats": True}},
    "diff": {"arrays": {"x": False, "prepend": False, "append": False}},
    "tensordot": {"arrays": {"x1": False, "x2": False}},
    "vecdot": {"arrays": {"x1": False, "x2": False}},
    "linalg.cross": {"arrays": {"x1": False, "x2": False}},
    "linalg.outer": {"arrays": {"x1": False, "x2": False}},
    "linalg.solve": {"arrays": {"x1": False, "x2": False}},
    "linalg.tensordot": {"arrays": {"x1": False, "x2": False}},
    "linalg.vecdot": {"arrays": {"x1": False, "x2": False}},
    "linalg.matrix_rank": {"arrays": {"x": False, "rtol": True}},
    "linalg.pinv": {"arrays": {"x": False, "rtol": True}},
    # new in 2025.12
    "broadcast_shapes": {"since": "2025.12"},
    "linalg.eigvals": {"since": "2025.12"},
    # "first" functions whose result has the input's dtype, whatever it is
    **{
        name: {"keeps_dtype": True}
        for name in [
            "broadcast_to",
            "expand_dims",
            "flip",
            "moveaxis",
            "permute_dims",
            "reshape",
            "roll",
            "squeeze",
            "tile",
            "tril",
            "triu",
            "matrix_transpose",
            "linalg.matrix_transpose",
            "sort",
            "fft.fftshift",
            "fft.ifftshift",
        ]
    },
}


#: Functions the standard defines for floating-point operands only.
_FLOATING_OPERANDS: Final = (
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "reciprocal",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "atan2",
    "copysign",
    "divide",
    "hypot",
    "logaddexp",
    "nextafter",
    "mean",
    "std",
    "var",
    "linalg.cholesky",
    "linalg.det",
    "linalg.eig",
    "linalg.eigh",
    "linalg.eigvals",
    "linalg.eigvalsh",
    "linalg.inv",
    "linalg.matrix_norm",
    "linalg.matrix_rank",
    "linalg.pinv",
    "linalg.qr",
    "linalg.slogdet",
    "linalg.solve",
    "linalg.svd",
    "linalg.svdvals",
    "linalg.vector_norm",
    "fft.rfft",
    "fft.rfftn",
    "fft.ihfft",
)
for _name in _FLOATING_OPERANDS:
    _DETAILS.setdefault(_name, {})["operands"] = "floating"
for _name in (
    "fft.fft",
    "fft.ifft",
    "fft.fftn",
    "fft.ifftn",
    "fft.irfft",
    "fft.irfftn",
    "fft.hfft",
):
    _DETAILS.setdefault(_name, {})["operands"] = "complex"
for _name in ("round", "ceil", "floor", "trunc"):
    _DETAILS.setdefault(_name, {})["operands"] = "numeric"

_EW = "elementwise_functions"

_PLAIN: Final[tuple[Entry, ...]] = tuple(
    _entries(
        _EW,
        "unary",
        "abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1 floor "
        "imag isfinite isinf isnan log log1p log2 log10 logical_not negative positive real "
        "reciprocal round sign signbit sin sinh square sqrt tan tanh trunc",
    )
    + _entries(
        _EW,
        "binary",
        "add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor "
        "copysign divide equal floor_divide greater greater_equal hypot less less_equal "
        "logaddexp logical_and logical_or logical_xor maximum minimum multiply nextafter "
        "not_equal pow remainder subtract",
        promote=True,
    )
    + _entries(_EW, "generic", "clip")
    + _entries(
        "creation_functions",
        "creation",
        "arange asarray empty eye from_dlpack full linspace ones zeros",
    )
    + _entries("creation_functions", "like", "empty_like full_like ones_like zeros_like")
    + _entries("creation_functions", "first", "tril triu")
    + _entries("creation_functions", "generic", "meshgrid")
    + _entries("data_type_functions", "local", "can_cast finfo iinfo isdtype result_type")
    + _entries("data_type_functions", "generic", "astype")
    + _entries("indexing_functions", "generic", "take take_along_axis")
    + _entries("linear_algebra_functions", "binary", "matmul", promote=True)
    + _entries("linear_algebra_functions", "first", "matrix_transpose")
    + _entries("linear_algebra_functions", "generic", "tensordot vecdot", promote=True)
    + _entries("manipulation_functions", "generic", "broadcast_arrays")
    + _entries("manipulation_functions", "local", "broadcast_shapes")
    + _entries(
        "manipulation_functions",
        "first",
        "broadcast_to expand_dims flip moveaxis permute_dims reshape roll squeeze tile unstack",
    )
    + _entries("manipulation_functions", "generic", "repeat")
    + _entries("manipulation_functions", "sequence", "concat stack", promote=True)
    + _entries("searching_functions", "first", "argmax argmin count_nonzero nonzero")
    + _entries("searching_functions", "generic", "searchsorted")
    + _entries("searching_functions", "generic", "where", promote=True)
    + _entries("set_functions", "generic", "isin")
    + _entries("set_functions", "first", "unique_all unique_counts unique_inverse unique_values")
    + _entries("sorting_functions", "first", "argsort sort")
    + _entries(
        "statistical_functions",
        "first",
        "cumulative_sum cumulative_prod max mean min prod std sum var",
    )
    + _entries("utility_functions", "first", "all any")
    + _entries("utility_functions", "generic", "diff")
    + _entries(
        "linalg",
        "first",
        "linalg.cholesky linalg.det linalg.diagonal linalg.eig linalg.eigh linalg.eigvals "
        "linalg.eigvalsh linalg.inv linalg.matrix_norm linalg.matrix_power "
        "linalg.matrix_transpose linalg.qr linalg.slogdet linalg.svd linalg.svdvals "
        "linalg.trace linalg.vector_norm",
    )
    + _entries("linalg", "generic", "linalg.matrix_rank linalg.pinv")
    + _entries(
        "linalg",
        "generic",
        "linalg.cross linalg.outer linalg.solve linalg.tensordot linalg.vecdot",
        promote=True,
    )
    + _entries("linalg", "binary", "linalg.matmul", promote=True)
    + _entries(
        "fft",
        "first",
        "fft.fft fft.ifft fft.fftn fft.ifftn fft.rfft fft.irfft fft.rfftn fft.irfftn fft.hfft "
        "fft.ihfft fft.fftshift fft.ifftshift",
    )
    + _entries("fft", "creation", "fft.fftfreq fft.rfftfreq")
)

TABLE: Final[tuple[Entry, ...]] = tuple(e._replace(**_DETAILS.get(e.name, {})) for e in _PLAIN)
BY_NAME: Final = {e.name: e for e in TABLE}

# Names new in 2025.12; absent from the namespace when 2024.12 is selected.
NEW_IN_2025_12: Final = frozenset(e.name for e in TABLE if e.since == "2025.12")

#: Functions whose operands commute exactly (in IEEE arithmetic too): a Python scalar on
#: the left may be passed on the right.
COMMUTATIVE: Final = frozenset(
    {
        "add",
        "multiply",
        "equal",
        "not_equal",
        "maximum",
        "minimum",
        "logical_and",
        "logical_or",
        "logical_xor",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
    }
)

CONSTANTS: Final = ("e", "inf", "nan", "newaxis", "pi")
