"""The function table against the arraymux namespace and the standard's list, both ways."""

from __future__ import annotations

import inspect
import os
from operator import attrgetter
from pathlib import Path

import pytest

import arraymux as xp
from arraymux._dtypes import ALL_DTYPES
from arraymux._function_table import BY_NAME, CONSTANTS, NEW_IN_2025_12, TABLE, Record

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
    assert callable(attrgetter(name)(xp))


# The public names beyond the standard's, written out so that a new one is a decision.
DOCUMENTED_EXTRAS = """
__array_api_version__ __array_namespace_info__ Array ArraymuxError AxisError
BackendMismatchError BackendUnavailableError block_until_ready call_natively
default_device default_dtypes Device DeviceMismatchError devices DType fft
finfo_object get_default_device get_default_dtypes iinfo_object linalg namespace
narrowing NarrowingWarning natively NumPyFallbackWarning random
set_default_device set_default_dtypes set_narrowing special synchronize
to_device to_numpy TransformUnavailableError UnsupportedDTypeError
"""


def test_namespace_exports_are_standard_or_documented_extras():
    top = {n for n in STANDARD_FUNCTIONS if "." not in n}
    extras = set(DOCUMENTED_EXTRAS.split()) | set(xp.transforms.__all__)
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


# ---------------------------------------------------------------------------------------------
# The records: one per function, the namespace generated from them, the standard's signatures


def test_the_generated_namespace_is_up_to_date():
    # `python -m arraymux._records` writes the section modules' generated blocks.
    from arraymux._records.__main__ import main

    assert main(["--check"]) == 0, "run `python -m arraymux._records` after editing a record"


def _parameters(sig: inspect.Signature) -> list[tuple[str, str, str | None]]:
    """A signature without its annotations: (name, kind, default) of each parameter."""
    return [
        (p.name, p.kind.name, None if p.default is p.empty else repr(p.default))
        for p in sig.parameters.values()
    ]


def _record_signature(record: Record) -> inspect.Signature:
    from arraymux._signatures import signature

    sig = signature(record.name)
    if sig is None:
        assert record.rule in ("unary", "binary"), record.name
        text = "(x, /)" if record.rule == "unary" else "(x1, x2, /)"
        sig = _signature_of_text(text)
    return sig


def _signature_of_text(text: str) -> inspect.Signature:
    ns: dict[str, object] = {}
    exec(f"def f{text}: pass", ns)
    return inspect.signature(ns["f"])  # type: ignore[arg-type]


def _compare_signatures(
    ns: object, *, sentinel_defaults: frozenset[str] = frozenset(), extras: tuple[str, ...] = ()
) -> None:
    """Every record against the function of the same name in ``ns``, and every function of
    ``ns`` (but its ``extras``) against the records: both ways."""
    wrong = []
    for record in TABLE:
        theirs = inspect.signature(attrgetter(record.name)(ns))
        ours = _parameters(_record_signature(record))
        got = _parameters(theirs)
        if record.name in sentinel_defaults:
            # a sentinel default ("not given") where the standard writes None
            got = [(n, k, "None" if d and d.startswith("<") else d) for n, k, d in got]
        if got != ours:
            wrong.append(f"{record.name}: record {ours}, standard {got}")
    assert not wrong, "\n".join(wrong)
    # The other way: every function ``ns`` exports has its record (records it does not list
    # in ``__all__``, as the stubs' linalg.eig, were looked up above).
    unknown = _functions_of(ns) - set(extras) - {r.name for r in TABLE}
    assert not unknown, f"functions of the standard without a record: {sorted(unknown)}"


def _functions_of(ns: object) -> set[str]:
    """The functions a namespace exports (its ``__all__``, or its public names), with those
    of its ``linalg`` and ``fft`` extensions."""
    out = set()
    for prefix, module in (("", ns), ("linalg.", ns.linalg), ("fft.", ns.fft)):  # type: ignore[attr-defined]
        names = getattr(module, "__all__", None) or [n for n in dir(module) if n[0] != "_"]
        for name in names:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isbuiltin(obj):
                out.add(prefix + name)
    return out


def _standard_stubs() -> object:
    """The standard's own stubs (``array_api_stubs._2025_12``, from the data-apis/array-api
    repository), where ``ARRAY_API_STUBS`` names their ``src`` folder or they are installed."""
    import importlib
    import os
    import sys

    path = os.environ.get("ARRAY_API_STUBS")
    if path:
        sys.path.insert(0, path)
    try:
        return importlib.import_module("array_api_stubs._2025_12")
    except ImportError:
        pytest.skip("the standard's stubs are not installed (set ARRAY_API_STUBS to their src)")
    finally:
        if path:
            sys.path.remove(path)


def test_records_match_the_standards_stubs_both_ways():
    stubs = _standard_stubs()
    _compare_signatures(stubs)
    for record in TABLE:
        module = getattr(stubs, record.section if "." not in record.name else "", None)
        if module is not None and "." not in record.name:
            assert hasattr(module, record.name), f"{record.name} is not in {record.section}"


def test_records_match_array_api_strict_both_ways():
    # array-api-strict spells out the standard's signatures (a sentinel for "not given"
    # where the standard writes None): every record against it, and it against the records.
    strict = pytest.importorskip("array_api_strict")
    _compare_signatures(
        strict,
        sentinel_defaults=frozenset({"from_dlpack", "astype"}),
        extras=(
            "__array_namespace_info__",
            "get_array_api_strict_flags",
            "reset_array_api_strict_flags",
            "set_array_api_strict_flags",
        ),
    )


def test_records_are_well_formed():
    from arraymux._records import CATEGORIES, RULES

    for r in TABLE:
        assert r.rule in RULES, r.name
        for category in (r.dtypes, r.tested):
            assert category is None or category in CATEGORIES, (r.name, category)
        if r.result_dtypes is not None:
            rule, category = r.result_dtypes.split(" ", 1)
            assert rule in ("same", "bool", "real") and category in CATEGORIES, r.name
        assert r.yields in (None, "same", "real", "bool"), r.name
        assert r.axis in (None, "tuple or None", "tuple", "int or None"), r.name
        assert r.operands in ("any", "floating", "numeric", "complex"), r.name
        assert r.since in ("2024.12", "2025.12"), r.name
        if not r.by_hand:
            # what the factories need to make the function and its docstring
            assert r.summary and r.returns and r.example, r.name
        if r.signature is not None:
            assert r.rule not in ("unary", "binary"), f"{r.name}: its rule gives the signature"
            _signature_of_text(r.signature)
        elif r.rule not in ("unary", "binary"):
            raise AssertionError(f"{r.name}: a {r.rule} function needs its signature")
        if r.special_cases:
            assert r.section == "elementwise_functions", r.name


_NEW_RECORD = '''\
    Record(
        "exp2",
        "unary",
        summary="``2**x`` of each element of ``x``.",
        dtypes="real-valued floating-point",
        returns=("Array", "Two raised to the power of each element of ``x``, with its dtype."),
        operands="floating",
        result_dtypes="same real-valued floating-point",
        special_cases=(((-INF,), 0.0), ((3.0,), 8.0)),
        example="""\\
>>> xp.exp2(xp.asarray([0.0, 1.0, 3.0]))
Array([1., 2., 8.], dtype=float64, device='numpy:cpu')
""",
    ),
)
'''

_USE_NEW_RECORD = r"""
import inspect
import arraymux as xp
from arraymux import _result_dtypes
from arraymux.testing._conformance import elementwise, run_property

x = xp.asarray([0.0, 1.0, 3.0], dtype=xp.float32)
for device in ("numpy", "torch:cpu"):
    y = xp.exp2(xp.to_device(x, device))
    assert y.dtype == xp.float32 and y.device == xp.Device(device), y
    assert xp.to_numpy(y).tolist() == [1.0, 2.0, 8.0]
assert xp.exp2(xp.asarray([1, 2])).dtype == xp.float64  # floating operands only
assert "exp2" in xp.__all__
assert str(inspect.signature(xp.exp2)) == "(x, /)"
assert xp.exp2.__doc__.startswith("``2**x`` of each element of ``x``.")
assert "Should have a real-valued floating-point dtype" in xp.exp2.__doc__
assert ">>> xp.exp2(" in xp.exp2.__doc__
assert _result_dtypes.RESULT_DTYPES["exp2"][xp.float32] is xp.float32
assert "exp2" in elementwise.PROPERTIES
assert [c for c in elementwise.SPECIAL_CASES if c[0] == "exp2"] == [
    ("exp2", (-float("inf"),), 0.0), ("exp2", (3.0,), 8.0)
]
elementwise.check_special_cases("exp2", xp.Device("numpy"))
for device in ("numpy", "torch:cpu"):
    run_property("exp2", device, max_examples=5)
print("exp2: made, documented, cached and tested")
"""


def test_a_new_function_is_one_record(tmp_path):
    # Adding a function of the standard: its record, then `python -m arraymux._records`.
    # The namespace, the signature, the docstring, the result dtypes the hot paths cache and
    # the conformance suite's property and special cases all follow from it.
    import shutil
    import subprocess
    import sys

    pytest.importorskip("torch")
    src = Path(xp.__file__).parent
    copy = tmp_path / "arraymux"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__"))
    records = copy / "_records" / "elementwise_functions.py"
    text = records.read_text()
    assert text.endswith("    ),\n)\n")
    records.write_text(text[: -len(")\n")] + _NEW_RECORD)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    }
    run = [sys.executable, "-m", "arraymux._records"]
    done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["_elementwise_functions.py:", "rewritten"]
    generated = (copy / "_elementwise_functions.py").read_text()
    listed = generated.split("__all__ = [", 1)[1].split("]", 1)[0]
    assert 'exp2 = unary("exp2")' in generated and ' "exp2",' in listed
    done = subprocess.run(
        [sys.executable, "-c", _USE_NEW_RECORD],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "exp2" in done.stdout


def test_the_generator_asks_for_a_missing_factory(monkeypatch):
    # A record whose rule's factory its section module does not import: the generator says
    # which to import instead of writing a module that no longer imports.
    from arraymux import _records
    from arraymux._records import __main__ as generate

    new = BY_NAME["abs"]._replace(name="softsign", section="statistical_functions")
    monkeypatch.setattr(generate, "RECORDS", (*_records.RECORDS, new))
    path = Path(xp.__file__).parent / "_statistical_functions.py"
    with pytest.raises(ValueError, match="must import unary"):
        generate.rewrite(path.read_text(), "statistical_functions")
