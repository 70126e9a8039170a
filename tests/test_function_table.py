"""The function table against the arraymux namespace and the standard's list, both ways."""

from __future__ import annotations

import pytest

import arraymux as xp
from arraymux._dtypes import ALL_DTYPES
from arraymux._function_table import BY_NAME, CONSTANTS, NEW_IN_2025_12, TABLE

# The names of the Array API standard, revision 2025.12, one string per section.
STANDARD_2025_12: dict[str, str] = {
    "elementwise_functions": (
        "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift "
        "bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos "
        "cosh divide equal exp expm1 floor floor_divide greater greater_equal hypot imag "
        "isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and "
        "logical_not logical_or logical_xor maximum minimum multiply negative nextafter "
        "not_equal positive pow real reciprocal remainder round sign signbit sin sinh square "
        "sqrt subtract tan tanh trunc"
    ),
    "creation_functions": (
        "arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones "
        "ones_like tril triu zeros zeros_like"
    ),
    "data_type_functions": "astype can_cast finfo iinfo isdtype result_type",
    "indexing_functions": "take take_along_axis",
    "linear_algebra_functions": "matmul matrix_transpose tensordot vecdot",
    "manipulation_functions": (
        "broadcast_arrays broadcast_shapes broadcast_to concat expand_dims flip moveaxis "
        "permute_dims repeat reshape roll squeeze stack tile unstack"
    ),
    "searching_functions": "argmax argmin count_nonzero nonzero searchsorted where",
    "set_functions": "isin unique_all unique_counts unique_inverse unique_values",
    "sorting_functions": "argsort sort",
    "statistical_functions": "cumulative_sum cumulative_prod max mean min prod std sum var",
    "utility_functions": "all any diff",
    "linalg": (
        "cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm "
        "matrix_power matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals "
        "tensordot trace vecdot vector_norm"
    ),
    "fft": (
        "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift"
    ),
}
STANDARD_CONSTANTS = {"e", "inf", "nan", "newaxis", "pi"}
STANDARD_DTYPES = {
    "bool",
    *(f"{kind}{bits}" for kind in ("int", "uint") for bits in (8, 16, 32, 64)),
    "float32",
    "float64",
    "complex64",
    "complex128",
}


def _qualified(section: str, name: str) -> str:
    return f"{section}.{name}" if section in ("linalg", "fft") else name


STANDARD_FUNCTIONS = {
    _qualified(section, n): section
    for section, names in STANDARD_2025_12.items()
    for n in names.split()
}


def _lookup(ns: object, name: str) -> object:
    obj = ns
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_table_matches_standard_both_ways():
    table = {e.name for e in TABLE}
    missing = set(STANDARD_FUNCTIONS) - table
    extra = table - set(STANDARD_FUNCTIONS)
    assert not missing, f"standard names missing from the table: {sorted(missing)}"
    assert not extra, f"table names not in the standard: {sorted(extra)}"
    assert len(TABLE) == len(BY_NAME), "duplicate names in the table"


def test_table_sections_match_standard():
    for entry in TABLE:
        assert entry.section == STANDARD_FUNCTIONS[entry.name], entry


def test_table_rules_are_known():
    rules = {"unary", "binary", "first", "generic", "sequence", "creation", "like", "local"}
    for entry in TABLE:
        assert entry.rule in rules, entry
    assert BY_NAME["concat"].rule == BY_NAME["stack"].rule == "sequence"
    assert BY_NAME["zeros"].rule == "creation"
    assert BY_NAME["zeros_like"].rule == "like"


@pytest.mark.parametrize("name", sorted(STANDARD_FUNCTIONS))
def test_every_standard_name_is_callable_in_namespace(name):
    assert callable(_lookup(xp, name))


def test_namespace_exports_are_standard_or_documented_extras():
    top = {n for n in STANDARD_FUNCTIONS if "." not in n}
    extras = {
        "Array",
        "ArraymuxError",
        "AxisError",
        "BackendMismatchError",
        "BackendUnavailableError",
        "DType",
        "Device",
        "DeviceMismatchError",
        "NarrowingWarning",
        "NumPyFallbackWarning",
        "TransformUnavailableError",
        "UnsupportedDTypeError",
        "__array_api_version__",
        "__array_namespace_info__",
        "default_device",
        "devices",
        "fft",
        "finfo_object",
        "get_default_device",
        "iinfo_object",
        "linalg",
        "namespace",
        "default_dtypes",
        "get_default_dtypes",
        "set_default_dtypes",
        "random",
        "special",
        "narrowing",
        "set_default_device",
        "set_narrowing",
        "to_device",
        "to_numpy",
        "synchronize",
        "block_until_ready",
        "natively",
        "call_natively",
        # the transforms
        *xp.transforms.__all__,
    }
    exported = set(xp.__all__)
    unknown = exported - top - STANDARD_CONSTANTS - STANDARD_DTYPES - extras
    assert not unknown, f"public names that are neither standard nor known extras: {unknown}"
    missing = (top | STANDARD_CONSTANTS | STANDARD_DTYPES) - exported
    assert not missing, f"standard names not in arraymux.__all__: {sorted(missing)}"
    assert sorted(dir(xp)) == sorted(xp.__all__)


@pytest.mark.parametrize("sub", ["linalg", "fft"])
def test_extension_modules_match_standard(sub):
    mod = getattr(xp, sub)
    expected = set(STANDARD_2025_12[sub].split())
    assert set(mod.__all__) == expected
    for name in expected:
        assert callable(getattr(mod, name))


def test_constants_and_dtypes():
    assert set(CONSTANTS) == STANDARD_CONSTANTS
    assert {dt.name for dt in ALL_DTYPES} == STANDARD_DTYPES
    assert xp.newaxis is None
    assert xp.pi == pytest.approx(3.141592653589793)
    assert xp.e == pytest.approx(2.718281828459045)
    assert xp.inf == float("inf")
    assert xp.nan != xp.nan
    for name in STANDARD_DTYPES:
        dt = getattr(xp, name)
        assert isinstance(dt, xp.DType)
        assert dt.name == name
    assert xp.__array_api_version__ == "2025.12"


def test_namespace_2025_12_is_arraymux():
    assert xp.namespace() is xp
    assert xp.namespace("2025.12") is xp
    ns = xp.asarray([1]).__array_namespace__()
    assert ns is xp.namespace(device="numpy:cpu")
    assert ns.__array_api_version__ == "2025.12"


def test_namespace_2024_12_lacks_new_names():
    ns = xp.namespace("2024.12")
    assert ns.__array_api_version__ == "2024.12"
    assert {"broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"} == NEW_IN_2025_12
    assert not hasattr(ns, "broadcast_shapes")
    assert not hasattr(ns, "isin")
    assert not hasattr(ns.linalg, "eig")
    assert not hasattr(ns.linalg, "eigvals")
    assert ns.add is xp.add
    assert ns.linalg.eigh is xp.linalg.eigh
    assert ns.fft.fft is xp.fft.fft
    assert xp.asarray([1]).__array_namespace__(api_version="2024.12") is xp.namespace(
        "2024.12", device="numpy"
    )


def test_namespace_unknown_version():
    with pytest.raises(ValueError, match=r"2024\.12"):
        xp.namespace("2021.12")


@pytest.mark.parametrize(
    "entry",
    [e for e in TABLE if e.rule in ("unary", "binary", "first", "generic", "sequence")],
    ids=lambda e: e.name,
)
def test_each_function_is_made_by_its_rule(entry):
    # The section modules spell out `add = binary("add")`: each must match its table entry.
    from arraymux._compiled import python_twin
    from arraymux._docstrings import _RULE_DOC

    obj = xp
    for part in entry.name.split("."):
        obj = getattr(obj, part)
    doc = python_twin(obj).__doc__ or ""
    if "of the Array API standard, dispatched" not in doc:
        pytest.skip(f"{entry.name} is written out by hand, not made by a factory")
    assert f"``{entry.name}`` of the Array API standard" in doc
    assert _RULE_DOC[entry.rule] in doc, f"{entry.name} is not made by the {entry.rule} factory"
