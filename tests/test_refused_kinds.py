"""Operands outside a function's dtype category that one of NumPy, PyTorch, JAX and CuPy
refuses while others compute (``Record.refused``) are refused on every backend, with one
``TypeError`` that names the function and the fix; what they all compute stays computed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraymux as xp
from arraymux._records import RECORDS

REFUSED = [(r.name, kind) for r in RECORDS if r.refused for kind in r.refused]

# An operand of each kind (two elements, nonzero: no division by zero on the way).
SAMPLES = {
    "bool": (np.array([True, True]), xp.bool),
    "signed integer": (np.array([1, 2]), xp.int32),
    "unsigned integer": (np.array([1, 2]), xp.uint8),
    "real floating": (np.array([0.5, 1.5]), xp.float32),
    "complex floating": (np.array([0.5 + 1j, 1.5]), xp.complex64),
}

OPERATORS = {
    "greater": lambda a, b: a > b,
    "greater_equal": lambda a, b: a >= b,
    "less": lambda a, b: a < b,
    "less_equal": lambda a, b: a <= b,
    "pow": lambda a, b: a**b,
    "remainder": lambda a, b: a % b,
    "floor_divide": lambda a, b: a // b,
    "bitwise_left_shift": lambda a, b: a << b,
    "bitwise_right_shift": lambda a, b: a >> b,
    "matmul": lambda a, b: a @ b,
    "abs": lambda a: abs(a),
    "positive": lambda a: +a,
}


# Functions of matrices (a 2x2 operand).
MATRICES = {"matmul", "linalg.matmul", "tensordot", "linalg.tensordot", "linalg.matrix_power"}


def _operand(kind: str, device: xp.Device, matrix: bool) -> xp.Array:
    values, dtype = SAMPLES[kind]
    return xp.asarray(
        values.reshape(2, 1) @ values.reshape(1, 2) if matrix else values,
        dtype=dtype,
        device=device,
    )


def test_the_refusals_are_those_the_libraries_disagree_on():
    """The table itself: the kinds are dtype kinds, each outside its function's category."""
    assert len(REFUSED) >= 20
    kinds = set(SAMPLES)
    for name, kind in REFUSED:
        assert kind in kinds, (name, kind)


@pytest.mark.parametrize(("name", "kind"), REFUSED)
def test_refused_on_every_device(device, name, kind):
    if not device.supports(SAMPLES[kind][1]):
        pytest.skip(f"{device} does not hold {SAMPLES[kind][1]}")
    record = next(r for r in RECORDS if r.name == name)
    a = _operand(kind, device, matrix=name in MATRICES)
    if name == "linalg.cross":  # vectors of three elements
        a = xp.concat([a, a[:1]])
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    if name == "linalg.matrix_power":
        forms = [lambda: fn(a, 2)]
    elif record.rule == "binary" or (record.signature or "").startswith("(x1, x2"):
        forms = [lambda: fn(a, a)]  # (searchsorted, vecdot, tensordot, isin: two arrays)
    else:  # unary, and the reductions and sorts ("first"), with an axis too
        forms = [lambda: fn(a)]
        if record.rule == "first":
            axis = {"axes": (0,)} if "axes=" in (record.signature or "") else {"axis": 0}
            forms.append(lambda: fn(a, **axis))
    if record.rule == "binary":  # with a Python scalar too (the scalar path checks the kind)
        scalar = {"bool": True, "complex floating": 1j, "real floating": 1.5}.get(kind)
        if scalar is not None:
            forms.append(lambda: fn(a, scalar))
    op = OPERATORS.get(name)
    if op is not None:
        forms.append(lambda: op(a) if record.rule == "unary" else op(a, a))
    for form in forms:
        for _ in range(2):  # the second call meets the compiled path's caches
            with (
                pytest.raises(TypeError, match=rf"arraymux\.{name}: operands of dtype"),
                warnings.catch_warnings(),
            ):
                warnings.simplefilter("ignore")
                form()


@pytest.mark.parametrize(
    ("call", "dtype"),
    [
        (lambda a: xp.maximum(a, a), xp.bool),
        (lambda a: a + a, xp.bool),
        (lambda a: xp.logical_and(a, a), xp.float32),
        (lambda a: xp.atan2(a, a), xp.int32),
        (lambda a: xp.imag(a), xp.complex64),
        (lambda a: xp.maximum(a, a), xp.float32),
        (lambda a: a**2, xp.int32),
    ],
)
def test_what_every_library_computes_stays_computed(device, call, dtype):
    if device.backend == "array_api_strict" and dtype in (xp.bool, xp.float32):
        pytest.skip("array-api-strict refuses operands outside the category (its own rule)")
    if not device.supports(dtype):
        pytest.skip(f"{device} does not hold {dtype}")
    a = xp.asarray([1, 1], dtype=dtype, device=device)
    out = call(a)
    assert out.device == device


def test_the_message_names_the_fix():
    with pytest.raises(TypeError, match=r"arraymux\.real.*arraymux\.abs") as info:
        xp.maximum(xp.asarray([1j]), xp.asarray([1j]))
    assert info.value.__suppress_context__  # not shown as a second error of the hot path's
    with pytest.raises(TypeError, match=r"arraymux\.astype"):
        xp.asarray([True]) @ xp.asarray([True])
    with pytest.raises(TypeError, match=r"arraymux\.zeros_like"):
        xp.imag(xp.asarray([1.0]))
    with pytest.raises(TypeError, match=r"arraymux\.zeros_like"):  # not "cast to an integer"
        xp.imag(xp.asarray([True]))


@pytest.mark.parametrize("kind", ["bool", "complex floating"])
def test_searchsorted_refuses_the_values_as_the_sorted_array(device, kind):
    """Its second operand too: torch refuses bool and complex values in either place."""
    if not device.supports(SAMPLES[kind][1]):
        pytest.skip(f"{device} does not hold {SAMPLES[kind][1]}")
    x1 = xp.asarray([1.0, 2.0, 3.0], device=device)
    for _ in range(2):  # the second call meets the compiled path's caches
        with pytest.raises(TypeError, match=r"arraymux\.searchsorted: operands of dtype"):
            xp.searchsorted(x1, _operand(kind, device, matrix=False))
    assert int(xp.searchsorted(x1, 2.5)) == 2  # a Python number stays a value
