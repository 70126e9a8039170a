"""The single list of the standard's functions: name, section and dispatch rule.

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

``promote`` marks functions whose array operands are brought to one dtype by the standard's
promotion rules before the backend is called, so every backend sees matching dtypes.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Entry(NamedTuple):
    name: str
    section: str
    rule: str
    promote: bool = False


def _entries(section: str, rule: str, names: str, promote: bool = False) -> list[Entry]:
    return [Entry(n, section, rule, promote) for n in names.split()]


_EW = "elementwise_functions"

TABLE: Final[tuple[Entry, ...]] = tuple(
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

BY_NAME: Final = {e.name: e for e in TABLE}

# Names new in 2025.12; absent from the namespace when 2024.12 is selected.
NEW_IN_2025_12: Final = frozenset({"broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"})

CONSTANTS: Final = ("e", "inf", "nan", "newaxis", "pi")
DTYPE_NAMES: Final = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
