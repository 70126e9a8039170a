"""One answer on every backend where the backends' own functions disagree: operands outside a
function's domain (integer and boolean arrays of functions defined for floating operands, real
arrays of the complex transforms, booleans of the rounding functions), and complex sums with
infinite parts (torch's ``x1 + alpha * x2``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arraymux as xp
from _child import child_output
from arraymux._compiled import python_twin
from arraymux._function_table import TABLE

FLOATING = [e.name for e in TABLE if e.operands == "floating"]
COMPLEX = [e.name for e in TABLE if e.operands == "complex"]
ROUNDING = [e.name for e in TABLE if e.operands == "numeric"]
NOT_FLOATING = ["bool", "int8", "uint8", "int16", "int32", "uint32"]


def _fn(name):
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _args(name, x):
    """Arguments of ``name`` on the 2x2 array ``x`` (a square matrix for linalg)."""
    if name in ("atan2", "copysign", "divide", "hypot", "logaddexp", "nextafter"):
        return (x, x)
    if name == "linalg.solve":
        return (x, x)
    return (x,)


def _operand(device, dtype):
    values = [[True, False], [False, True]] if dtype == "bool" else [[3, 1], [1, 2]]
    return xp.asarray(values, dtype=getattr(xp, dtype), device=device)


def _default_float(device):
    return xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]


def _holds(device, dtype):
    return xp.__array_namespace_info__().dtypes(device=device).get(dtype) is not None


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's, for values outside a domain
@pytest.mark.parametrize("name", FLOATING)
def test_integer_and_boolean_operands_compute_in_the_default_float(device, name):
    fn = _fn(name)
    for dtype in NOT_FLOATING:
        if not _holds(device, dtype):
            continue
        x = _operand(device, dtype)
        want_dt = _default_float(device)
        args = tuple(xp.astype(a, want_dt) for a in _args(name, x))
        try:
            expected = fn(*args)
        except (ValueError, ArithmeticError):
            continue  # e.g. cholesky of a singular boolean matrix: not this test's concern
        got = fn(*_args(name, x))
        for g, e in zip(
            got if isinstance(got, tuple) else (got,),
            expected if isinstance(expected, tuple) else (expected,),
        ):
            assert g.dtype == e.dtype, (name, dtype, g.dtype, e.dtype)
            assert g.device == x.device
            np.testing.assert_allclose(xp.to_numpy(g), xp.to_numpy(e), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["sin", "mean", "std", "divide", "linalg.vector_norm"])
def test_integer_operands_follow_the_default_dtype_policy(device, name):
    fn = _fn(name)
    x = _operand(device, "int32" if _holds(device, "int32") else "int16")
    with xp.default_dtypes(real_floating=xp.float32):
        assert fn(*_args(name, x)).dtype == xp.float32
    if _holds(device, "float64"):
        with xp.default_dtypes(real_floating=xp.float64):
            assert fn(*_args(name, x)).dtype == xp.float64


def test_integer_operands_with_python_scalars(device):
    x = xp.asarray([1, 2, 4], dtype=xp.int16, device=device)
    want = _default_float(device)
    for r in (x / 2, 2 / x, xp.atan2(x, 1), xp.atan2(1, x), xp.hypot(x, 3), xp.divide(x, 2.5)):
        assert r.dtype == want
        assert r.device == x.device
    np.testing.assert_allclose(xp.to_numpy(x / 2), [0.5, 1.0, 2.0])
    np.testing.assert_allclose(xp.to_numpy(2 / x), [2.0, 1.0, 0.5])


@pytest.mark.parametrize("name", COMPLEX)
def test_complex_transforms_of_real_and_integer_operands(device, name):
    fn = _fn(name)
    real = xp.asarray([1.0, 2.0, 3.0, 4.0], dtype=xp.float32, device=device)
    expected = getattr(np.fft, name.split(".")[1])(np.asarray([1, 2, 3, 4], np.complex64))
    got = fn(real)
    real_result = name in ("fft.hfft", "fft.irfft", "fft.irfftn")
    assert got.dtype == (xp.float32 if real_result else xp.complex64)
    np.testing.assert_allclose(xp.to_numpy(got), expected, rtol=1e-5, atol=1e-5)
    ints = xp.asarray([1, 2, 3, 4], dtype=xp.int16, device=device)
    info = xp.__array_namespace_info__().default_dtypes(device=device)
    want = info["real floating"] if real_result else info["complex floating"]
    assert fn(ints).dtype == want


@pytest.mark.parametrize("name", ROUNDING)
def test_rounding_gives_booleans_and_integers_back_unchanged(device, name):
    fn = _fn(name)
    b = xp.asarray([True, False], device=device)
    r = fn(b)
    assert r.dtype == xp.bool and r.device == b.device
    assert xp.to_numpy(r).tolist() == [True, False]
    i = xp.asarray([3, -2], dtype=xp.int16, device=device)
    assert fn(i).dtype == xp.int16
    assert xp.to_numpy(fn(i)).tolist() == [3, -2]
    if b.device.backend not in ("jax",):  # JAX arrays are immutable
        r[...] = False  # a copy: writing it leaves the operand as it was
        assert xp.to_numpy(b).tolist() == [True, False]


def test_the_python_twins_apply_the_same_rules(device):
    x = xp.asarray([1, 2], dtype=xp.int16, device=device)
    for name in ("sin", "sqrt", "divide", "round"):
        fn = _fn(name)
        args = _args(name, x)
        assert python_twin(fn)(*args).dtype == fn(*args).dtype


# --- Python ints beyond int64 beside floating arrays ---------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_huge_python_ints_beside_floating_arrays(device, dtype):
    """A Python int beyond int64 meets a floating array as NumPy takes it (the nearest float,
    then the array's dtype) on every backend, on either side, through the operators, the
    functions and their Python twins (torch and JAX refused it); one beyond float64 raises
    OverflowError naming the function; integer arrays still refuse ints they cannot hold."""
    dt = getattr(xp, dtype)
    if not device.supports(dt):
        pytest.skip(f"{device} cannot hold {dtype}")
    x = xp.asarray([1.5, -2.0], dtype=dt, device=device)
    host = xp.to_numpy(x)
    for v in (2**70, -(2**80), 2**64, -(2**63) - 1):
        for got, want in (
            (x / v, host / v),
            (v * x, v * host),
            (x - v, host - v),
            (xp.add(v, x), v + host),
            (python_twin(xp.multiply)(x, v), host * v),
            (x[0] + v, host[0] + v),  # a 0-d array
        ):
            assert got.dtype == dt and got.device == device
            np.testing.assert_array_equal(xp.to_numpy(got), want.astype(host.dtype))
    for call in (lambda: x + 2**1100, lambda: xp.multiply(-(2**1100), x)):
        with pytest.raises(OverflowError, match=r"arraymux\.(add|multiply): the Python int"):
            call()
    i = xp.asarray([1, 2], dtype=xp.int32, device=device)
    with pytest.raises(OverflowError, match=r"does not fit in arraymux\.int32"):
        i + 2**70


# --- complex sums with infinite parts --------------------------------------------------------

_INF = math.inf
_PARTS = [complex(1, 2), complex(-_INF, 0), complex(0, _INF), complex(_INF, -1), complex(-0.0, 0)]
_SCALARS = [-_INF, _INF, 2.5, complex(0, -_INF), complex(_INF, 1)]


def _complex_pairs():
    return [(a, b) for a in _PARTS for b in _PARTS]


def _np_same(got, want):
    got = np.asarray(got)
    np.testing.assert_array_equal(got.real, np.real(want))
    np.testing.assert_array_equal(got.imag, np.imag(want))
    # the sign of zeros, not of NaNs: IEEE 754 leaves a NaN's sign to the hardware (inf - inf
    # is -nan on x86 and +nan on NVIDIA GPUs)
    signed = ~np.isnan(got.real)
    np.testing.assert_array_equal(np.signbit(got.real)[signed], np.signbit(np.real(want))[signed])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's, for inf - inf
@pytest.mark.parametrize("name", ["add", "subtract"])
def test_complex_sums_are_taken_part_by_part(device, name):
    op = {"add": np.add, "subtract": np.subtract}[name]
    fn = _fn(name)
    x1 = np.asarray([a for a, _ in _complex_pairs()], np.complex128)
    x2 = np.asarray([b for _, b in _complex_pairs()], np.complex128)
    dt = xp.complex128 if _holds(device, "complex128") else xp.complex64
    a1 = xp.asarray(x1, dtype=dt, device=device)
    a2 = xp.asarray(x2, dtype=dt, device=device)
    with np.errstate(invalid="ignore"):
        want = op(x1.astype(xp.to_numpy(a1).dtype), x2.astype(xp.to_numpy(a1).dtype))
    _np_same(xp.to_numpy(fn(a1, a2)), want)
    _np_same(xp.to_numpy(python_twin(fn)(a1, a2)), want)
    for s in _SCALARS:
        with np.errstate(invalid="ignore"):
            right = op(xp.to_numpy(a1), s)
            left = op(s, xp.to_numpy(a1))
        for got in (fn(a1, s), python_twin(fn)(a1, s)):
            _np_same(xp.to_numpy(got), right)
        for got in (fn(s, a1), python_twin(fn)(s, a1)):
            _np_same(xp.to_numpy(got), left)
    sym = {"add": "+", "subtract": "-"}[name]
    _np_same(xp.to_numpy(eval(f"a1 {sym} -math.inf")), op(xp.to_numpy(a1), -_INF))
    _np_same(xp.to_numpy(eval(f"-math.inf {sym} a1")), op(-_INF, xp.to_numpy(a1)))


def test_complex_sums_in_the_pure_python_mode():
    code = (
        "import math, arraymux as xp\n"
        "assert not xp._compiled.ENABLED\n"
        "for d in ('numpy', 'torch:cpu'):\n"
        "    try:\n"
        "        x = xp.asarray([1 + 2j], dtype=xp.complex64, device=d)\n"
        "    except xp.BackendUnavailableError:\n"
        "        continue\n"
        "    for r in (x + -math.inf, -math.inf + x, x - math.inf, math.inf - x):\n"
        "        v = complex(xp.to_numpy(r)[0])\n"
        "        assert abs(v.imag) == 2, (d, v)\n"
        "print('ok')\n"
    )
    assert child_output(code, pure=True).strip() == "ok"


# --- complex special cases a backend gets wrong on one device only ----------------------------


@pytest.mark.parametrize(
    ("name", "z"),
    [
        ("acos", complex(2.0, math.nan)),
        ("acos", complex(-3.0, math.nan)),
        ("acosh", complex(2.0, math.nan)),
        ("acosh", complex(-0.5, math.nan)),
        ("asinh", complex(math.nan, 2.0)),
        ("asinh", complex(math.nan, -1.0)),
    ],
)
def test_complex_cases_fix_a_backend_that_gives_finite_parts(name, z):
    """XLA on GPUs gives a finite part for these (JAX 0.11 with x64); the standard says
    NaN + NaN j. The fix is checked here over a backend function that answers wrongly."""
    from arraymux._backends import _special_cases

    def wrong(x):  # a backend's function with finite parts where the standard has NaNs
        return np.full(x.shape, 1.0 + 1.0j, dtype=x.dtype)

    def make_complex(re, im):
        out = np.empty(np.broadcast(re, im).shape, dtype=np.complex128)
        out.real, out.imag = re, im
        return out

    fixed = _special_cases.complex_cases(np, name, wrong, make_complex)  # NumPy as the namespace
    out = fixed(np.asarray([z], dtype=np.complex128))
    assert math.isnan(out[0].real) and math.isnan(out[0].imag), out
    for device in (dv for dv in xp.devices() if not dv.simulated):
        got = complex(xp.to_numpy(_fn(name)(xp.asarray([z], dtype=xp.complex64, device=device)))[0])
        assert math.isnan(got.real) and math.isnan(got.imag), (device, got)


# Positions and counts: NumPy and JAX took boolean indices as 0 and 1 and Dask as a mask,
# Dask truncated floating ones (and repeat counts), torch took booleans along an axis.
COUNTED = sorted({e.name for e in TABLE if e.integer_arrays})


def _with_positions(name, x, positions):
    if name == "take":
        return xp.take(x, positions, axis=0)
    if name == "take_along_axis":
        return xp.take_along_axis(x, positions, axis=0)
    if name == "repeat":
        return xp.repeat(x, positions)
    assert name == "searchsorted", name
    return xp.searchsorted(x, x, sorter=positions)  # positions: x's argsort


def test_the_functions_of_positions_and_counts():
    assert COUNTED == ["repeat", "searchsorted", "take", "take_along_axis"]


@pytest.mark.parametrize("name", COUNTED)
def test_positions_and_counts_take_integer_arrays_only(device, name):
    x = xp.asarray([3.0, 1.0, 2.0], device=device)
    good = _with_positions(name, x, xp.asarray([1, 2, 0], device=device))
    expected = {
        "take": [1.0, 2.0, 3.0],
        "take_along_axis": [1.0, 2.0, 3.0],
        "repeat": [3.0, 1.0, 1.0],
        "searchsorted": [2, 0, 1],
    }[name]
    assert xp.to_numpy(good).tolist() == expected
    for dtype in ("bool", "float32"):
        bad = xp.astype(xp.asarray([1, 0, 1], device=device), getattr(xp, dtype))
        with pytest.raises(
            TypeError, match=rf"arraymux\.{name}: \w+ must have an integer dtype, not {dtype}"
        ):
            _with_positions(name, x, bad)


def test_repeat_counts_are_ints(device):
    x = xp.asarray([3.0, 1.0], device=device)
    assert xp.to_numpy(xp.repeat(x, 2)).tolist() == [3.0, 3.0, 1.0, 1.0]
    for count in (2.0, True):
        with pytest.raises(
            TypeError, match=r"arraymux\.repeat: repeats must have an integer dtype"
        ):
            xp.repeat(x, count)


def test_indices_of_other_kinds_are_refused_by_every_backend(device):
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]], device=device)
    f = xp.asarray([1.0, 0.0], device=device)
    for key in (f, (f, 0), xp.asarray(1.0, device=device)):
        with pytest.raises(
            IndexError, match=r"index array must have an integer or bool dtype, not float"
        ):
            x[key]
        with pytest.raises(
            IndexError, match=r"index array must have an integer or bool dtype, not float"
        ):
            x[key] = 0.0
    for key in (1.0, np.float64(1.0), (0, 1.0)):
        with pytest.raises(IndexError, match=r"Array\.__getitem__: an index must be an int"):
            x[key]
        with pytest.raises(IndexError, match=r"Array\.__setitem__: an index must be an int"):
            x[key] = 0.0
    for key in (slice(0.0, 1), (0, slice(0, 2, 1.0)), slice(xp.asarray(1.0, device=device), None)):
        with pytest.raises(
            TypeError,
            match=r"slice bounds must be ints or None, not (the float|an array of dtype float)",
        ):
            x[key]
    assert xp.to_numpy(x).tolist() == [[1.0, 2.0], [3.0, 4.0]]  # nothing written
    # Integers of any kind as slice bounds: NumPy's and 0-d integer arrays too.
    assert xp.to_numpy(x[np.int64(1) :, : xp.asarray(1, device=device)]).tolist() == [[3.0]]


def test_an_array_given_as_a_dtype_is_described_not_printed(device):
    x = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(
        TypeError, match=r"arraymux\.astype: dtype=Array of shape \(2,\) is an array"
    ) as e:
        xp.astype(x, x)
    assert "1." not in str(e.value)  # the values (which a lazy array would compute) left out
