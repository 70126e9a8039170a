"""Points where arraymux follows the standard although the backend's own namespace does not:
signatures, the inspection namespace, ``__dlpack__`` keywords and elementwise special cases."""

from __future__ import annotations

import cmath
import inspect
import math

import numpy as np
import pytest

import arraymux as xp
from _child import assert_child_ok, mode_env

INF, NAN = math.inf, math.nan
FIXED_BACKENDS = ("numpy", "torch", "jax", "dask", "cupy", "array_api_strict")

# NumPy warns (as it does on its own) where these special cases meet NaN or infinity.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _np(x):
    return xp.to_numpy(x)


def _same(actual, expected):
    """Equal values, with NaNs equal and the signs of zeros compared."""
    a = np.asarray(_np(actual))
    e = np.asarray(expected, dtype=a.dtype)
    for part in (np.real, np.imag) if np.iscomplexobj(a) else (lambda v: v,):
        pa, pe = part(a), part(e)
        np.testing.assert_array_equal(pa, pe)
        finite_or_inf = ~np.isnan(pe)
        np.testing.assert_array_equal(np.signbit(pa[finite_or_inf]), np.signbit(pe[finite_or_inf]))


@pytest.fixture
def fixed_device(device):
    if device.backend not in FIXED_BACKENDS:
        pytest.skip(f"special cases are only patched on {', '.join(FIXED_BACKENDS)}")
    return device


# --------------------------------------------------------------------------------------------
# signatures


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (xp.clip, "(x, /, min=None, max=None)"),
        (xp.sum, "(x, /, *, axis=None, dtype=None, keepdims=False)"),
        (xp.linspace, "(start, stop, /, num, *, dtype=None, device=None, endpoint=True)"),
        (xp.full_like, "(x, /, fill_value, *, dtype=None, device=None)"),
        (xp.take, "(x, indices, /, *, axis=None)"),
        (xp.linalg.vector_norm, "(x, /, *, axis=None, keepdims=False, ord=2)"),
        (xp.fft.fftfreq, "(n, /, *, d=1.0, dtype=None, device=None)"),
        (xp.add, "(x1, x2, /)"),
        (xp.sin, "(x, /)"),
    ],
)
def test_signatures_are_the_standards(fn, expected):
    # Annotations are left out: the compiled functions (builtins) carry none.
    sig = inspect.signature(fn)
    sig = sig.replace(
        parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
        return_annotation=sig.empty,
    )
    assert str(sig) == expected


def test_every_listed_function_has_the_standards_parameters():
    from arraymux._signatures import SIGNATURES, signature

    def params(sig):
        return [(p.name, p.kind) for p in sig.parameters.values()]

    for name in SIGNATURES:
        obj = xp
        for part in name.split("."):
            obj = getattr(obj, part)
        assert params(inspect.signature(obj)) == params(signature(name)), name


def test_full_like_takes_fill_value_by_keyword(device):
    x = xp.zeros(3, dtype=xp.float32, device=device)
    assert _np(xp.full_like(x, fill_value=7)).tolist() == [7, 7, 7]
    with pytest.raises(TypeError):
        xp.full_like(x, 7, fill_value=8)


def test_dlpack_signature_and_keywords():
    params = inspect.signature(xp.Array.__dlpack__).parameters
    assert [p for p in params if p != "self"] == ["stream", "max_version", "dl_device", "copy"]
    x = xp.asarray([1.0, 2.0], device="numpy")
    assert np.from_dlpack(x).tolist() == [1.0, 2.0]
    assert x.__dlpack__(max_version=(1, 0)) is not None


# --------------------------------------------------------------------------------------------
# inspection namespace


def test_info_devices_is_a_tuple_in_2025_12_and_a_list_in_2024_12():
    devs = xp.__array_namespace_info__().devices()
    assert type(devs) is tuple
    assert xp.__array_namespace_info__().default_device() in devs
    old = xp.namespace("2024.12").__array_namespace_info__().devices()
    assert type(old) is list
    assert tuple(old) == devs


# --------------------------------------------------------------------------------------------
# special cases


def test_floor_divide_with_infinities(fixed_device):
    a = xp.asarray([INF, -INF, INF, -INF, 1.0, -1.0, 1.0, -1.0, 7.0], device=fixed_device)
    b = xp.asarray([2.0, 2.0, -2.0, -2.0, -INF, INF, INF, -INF, 2.0], device=fixed_device)
    expected = [INF, -INF, -INF, INF, -0.0, -0.0, 0.0, 0.0, 3.0]
    _same(xp.floor_divide(a, b), expected)
    _same(a // b, expected)
    _same(xp.floor_divide(a, 2.0), [INF, -INF, INF, -INF, 0.0, -1.0, 0.0, -1.0, 3.0])
    _same(xp.floor_divide(INF, b), [INF, INF, -INF, -INF, NAN, NAN, NAN, NAN, INF])
    # Finite operands: Python's and NumPy's floor of the exact quotient, 9 (not floor(1.0 / 0.1),
    # the floor of the rounded quotient, 10, which CuPy's own floor_divide gives).
    one = xp.asarray([1.0], device=fixed_device)
    _same(xp.floor_divide(one, 0.1), [9.0])
    _same(one // 0.1, [9.0])
    assert _np(xp.asarray([7, -7], device=fixed_device) // 2).tolist() == [3, -4]


def test_remainder_zero_takes_the_sign_of_x2(fixed_device):
    a = xp.asarray([-0.0, 0.0, 4.0, -4.0, 5.0], device=fixed_device)
    b = xp.asarray([2.0, -2.0, 2.0, -2.0, 3.0], device=fixed_device)
    _same(xp.remainder(a, b), [0.0, -0.0, 0.0, -0.0, 2.0])
    _same(a % b, [0.0, -0.0, 0.0, -0.0, 2.0])


@pytest.mark.parametrize("number", [2.0, -2, 0.75, 0.0, -0.0, INF, -INF, NAN, 5e-324])
def test_floor_divide_with_a_python_number_on_either_side_is_numpys(fixed_device, number):
    """``x // number`` and ``number // x`` give NumPy's device's values and zero signs, with
    the infinities, zeros, NaN and subnormal numbers on either side (torch computes number /
    tensor as reciprocal(tensor) * number: 0 // 5e-324 was NaN)."""
    values = [-4.0, 4.0, -0.0, 0.0, -1e-20, 5.5, -5.5, INF, -INF, NAN, 1e308, 5e-324, -5e-324]
    a = xp.asarray(values, device=fixed_device)
    ref = xp.asarray(_np(a), device="numpy")  # the same values, in this device's dtype
    with np.errstate(all="ignore"):
        for got, want in ((a // number, ref // number), (number // a, number // ref)):
            g, w = _np(got), _np(want)
            np.testing.assert_array_equal(g, w)
            kept = ~np.isnan(w)
            assert (np.signbit(g)[kept] == np.signbit(w)[kept]).all(), (number, g, w)


_DIVISION_GRID = [-4.0, 4.0, -0.0, 0.0, 0.1, -0.1, 3.0, -3.0, 5.5, 1e17, -1e17, 1e-20, 5e-324]
_DIVISION_GRID += [-5e-324, 1e38, 3e38, INF, -INF, NAN]


def _division_mismatches(fixed_device, floor_divide, remainder, *, compiled=False):
    """The pairs of the grid where ``floor_divide`` or ``remainder`` (each called with two
    arrays of this device) differ from NumPy's values or zero signs, with the differences
    each backend keeps (see docs/dispatch.md) left out."""
    grid = _DIVISION_GRID
    a = xp.asarray([[v] * len(grid) for v in grid], device=fixed_device)
    b = xp.asarray([grid] * len(grid), device=fixed_device)
    an, bn = (xp.asarray(_np(v), device="numpy") for v in (a, b))  # this device's dtype
    av, bv = _np(a), _np(b)
    failures = []
    with np.errstate(all="ignore"):
        over = np.isinf(av / bv) & np.isfinite(av) & np.isfinite(bv) & (bv != 0)
        for name, f in (("floor_divide", floor_divide), ("remainder", remainder)):
            g, w = _np(f(a, b)), _np(getattr(xp, name)(an, bn))
            wrong = ~((g == w) & (np.signbit(g) == np.signbit(w)) | np.isnan(g) & np.isnan(w))
            torch_cpu = fixed_device.backend == "torch" and "cpu" in str(a.device)
            if name == "remainder" and torch_cpu:
                # torch's vectorised CPU kernels (eager and compiled) give NaN where x1 / x2
                # overflows (pytorch#193753; docs: "Where each backend keeps its own
                # answer"); the day they stop, this fails.
                assert np.isnan(g[over]).all() and not np.isnan(w[over]).any()
                wrong &= ~over
            on_gpu = any(p in str(a.device) for p in ("gpu", "cuda")) or "cupy" in str(a.device)
            if name == "floor_divide" and on_gpu and (fixed_device.backend == "jax" or compiled):
                # XLA, and torch.compile's code, on GPUs round quotients past the dtype's
                # integers (5.5 // 1e-20 in float32) to a neighbour of NumPy's float: within
                # 2 ulp there.
                wide = np.abs(w) >= 2.0 ** (np.finfo(w.dtype).nmant + 1)
                spacing = np.spacing(np.abs(w).astype(w.dtype))
                wrong &= ~(wide & (np.abs(g - w) <= 2 * spacing))
            pairs = [(float(av[i]), float(bv[i]), g[i], w[i]) for i in zip(*wrong.nonzero())]
            if pairs:
                failures.append((name, pairs[:8]))
    return failures


def test_floor_divide_and_remainder_of_two_arrays_are_numpys(fixed_device):
    """Every pair of a grid of values (zeros, subnormals, huge and tiny quotients, infinities,
    NaN) gives on this device what it gives on NumPy, values and zero signs: the quotient is
    the floor of the exact one and the remainder exact with the divisor's sign (CuPy's own
    work from the rounded quotient: ``1e17 % 3.0`` was 0.0, ``-5e-324 // 2.0`` -0.0)."""
    assert not _division_mismatches(fixed_device, xp.floor_divide, xp.remainder)
    exact = xp.asarray([1e17, -1e17, 1e17], device=fixed_device)
    if _np(exact).dtype == np.float64:  # (a float32 device rounds 1e17 to another number)
        _same(exact % 3.0, [1.0, 2.0, 1.0])
        _same(exact % xp.asarray([3.0, 3.0, -3.0], device=fixed_device), [1.0, 2.0, -2.0])


def test_floor_divide_and_remainder_inside_jit_are_numpys(fixed_device):
    """The same grid inside ``arraymux.jit``: torch.compile's CPU code computed ``1e20 % 3.0``
    as 0.0, ``5.5 % inf`` as NaN and ``1.0 // 0.1`` as 10.0 (pytorch/pytorch#198057)."""
    if fixed_device.backend in ("dask", "array_api_strict"):
        pytest.skip(f"{fixed_device.backend} has no engine for arraymux.jit")
    failures = _division_mismatches(
        fixed_device,
        xp.jit(lambda a, b: xp.floor_divide(a, b)),
        xp.jit(lambda a, b: a % b),
        compiled=True,
    )
    assert not failures, failures
    x = xp.asarray([1.0, 7.0, -7.0, 1e20, 5.5, -5.5], device=fixed_device)
    by_numbers = xp.jit(lambda v: (v // 0.1, v % 3.0, 3.0 // v, v % INF))
    with np.errstate(all="ignore"):
        want = xp.asarray(_np(x), device="numpy")
        for got, ref in zip(by_numbers(x), (want // 0.1, want % 3.0, 3.0 // want, want % INF)):
            _same(got, _np(ref))


@pytest.mark.parametrize("name", ["expm1", "atanh", "acosh", "log1p", "asinh", "sign"])
def test_functions_inside_jit_keep_their_accuracy(fixed_device, name):
    """Inside ``arraymux.jit`` each function gives its eager values within 4 ulp, zero signs
    and NaNs, on arrays long enough for vectorised code: torch.compile's CPU code computed
    ``expm1(1e-30)`` as 0 and ``expm1(-0.0)`` as +0 (exp(x) - 1), ``atanh(1e-30)`` as 0 and
    ``acosh(1e30)`` as inf (x * x), and XLA ``sign(-0.0)`` as -0 (it drops an added zero).
    Its gradient stays finite where the eager one is."""
    if fixed_device.backend in ("dask", "array_api_strict"):
        pytest.skip(f"{fixed_device.backend} has no engine for arraymux.jit")
    values = [-0.0, 0.0, 1e-30, -1e-30, 1e-8, 0.1, -0.5, 0.5, 0.999, 1.0, 1.5, 2.0, 100.0]
    values += [1e30, -1e30, 3e38, INF, -INF, NAN, -1.0, -3.0, 88.0, -100.0]
    x = xp.asarray(values * 4, device=fixed_device)
    f = getattr(xp, name)
    with np.errstate(all="ignore"):
        eager, jitted = _np(f(x)), _np(xp.jit(f)(x))
    assert (np.isnan(eager) == np.isnan(jitted)).all(), (name, eager, jitted)
    kept = ~np.isnan(eager)
    assert (np.signbit(eager) == np.signbit(jitted))[kept].all(), (name, eager, jitted)
    np.testing.assert_array_max_ulp(jitted[kept], eager[kept], maxulp=4)
    inside = xp.asarray([0.0, -0.0, 1e-30, 0.5] * 4, device=fixed_device)
    g_eager = _np(xp.grad(lambda v: xp.sum(f(v)))(inside))
    g_jit = _np(xp.jit(xp.grad(lambda v: xp.sum(f(v))))(inside))
    if np.isfinite(g_eager).all():
        np.testing.assert_allclose(g_jit, g_eager, rtol=1e-5)


@pytest.mark.filterwarnings("ignore:Torchinductor does not support code generation for complex")
def test_complex_special_cases_inside_jit_are_the_eager_ones(fixed_device):
    """Every element-wise function of one complex array over a grid of special parts gives
    inside ``arraymux.jit`` its eager values and zero signs (within 8 ulp): the fixes' zeros
    were lost when compiled (``tanh(inf - 0j)`` gave ``1 + 0j`` on torch's CPU, inductor
    folding ``0 * b``; ``expm1(-0 + 0j)`` a real part of -0 on JAX, XLA dropping ``+ 0.0``)."""
    if fixed_device.backend in ("dask", "array_api_strict"):
        pytest.skip(f"{fixed_device.backend} has no engine for arraymux.jit")
    parts = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-30, 1e30, INF, -INF, NAN]
    z = xp.asarray([complex(a, b) for a in parts for b in parts], device=fixed_device)
    names = ["exp", "expm1", "log", "log1p", "sqrt", "tanh", "tan", "sinh", "cosh", "asinh"]
    names += ["acosh", "atanh", "acos", "asin", "atan", "sign", "abs", "reciprocal", "log2"]
    wrong = []
    with np.errstate(all="ignore"):
        for name in names:
            f = getattr(xp, name)
            e, j = _np(f(z)), _np(xp.jit(f)(z))
            for part in (np.real, np.imag) if np.iscomplexobj(e) else (np.real,):
                pe, pj = part(e), part(j)
                nan = np.isnan(pe)
                ok = (np.isnan(pj) == nan) & ((np.signbit(pe) == np.signbit(pj)) | nan)
                spacing = np.spacing(np.abs(pe).astype(pe.dtype))
                ok &= nan | (pe == pj) | (np.abs(pe - pj) <= 8 * spacing)
                if not ok.all():
                    wrong.append((name, part.__name__, _np(z)[~ok][:3], pj[~ok][:3], pe[~ok][:3]))
    assert not wrong, wrong


@pytest.mark.parametrize("divisor", [2, 2.0, -2, -2.0, 0.75, -0.75, 0.0, INF, -INF, NAN])
def test_remainder_by_a_python_number_keeps_numpys_signs(fixed_device, divisor):
    """A Python divisor takes a shorter fix (every remainder has the divisor's sign): the
    values and the signs of zeros are NumPy's, for arrays of one or more dimensions and 0-d."""
    values = [-4.0, 4.0, -0.0, 0.0, -3.0, 3.0, -1e-20, 1e-20, 5.5, -5.5, INF, -INF, NAN]
    a = xp.asarray(values, device=fixed_device)
    with np.errstate(all="ignore"):
        want = np.remainder(np.asarray(values, dtype=_np(a).dtype), divisor)
    got = _np(a % divisor)
    np.testing.assert_array_equal(got, want)
    assert (np.signbit(got) == np.signbit(want))[~np.isnan(want)].all(), (got, want)
    for i in (2, 3, 4):  # 0-d arrays too
        zero_d = _np(a[i] % divisor)
        assert zero_d == want[i] or (np.isnan(zero_d) and np.isnan(want[i]))
        assert np.isnan(want[i]) or np.signbit(zero_d) == np.signbit(want[i])


def test_complex_expm1_special_cases(fixed_device):
    z = xp.asarray(
        [
            complex(0.0, 0.0),
            complex(-0.0, 0.0),
            complex(INF, 0.0),
            complex(-INF, INF),
            complex(-INF, NAN),
            complex(INF, NAN),
            complex(NAN, 0.0),
            complex(-INF, 1.0),
        ],
        dtype=xp.complex64,
        device=fixed_device,
    )
    r = xp.expm1(z)
    _same(xp.real(r)[:3], [0.0, 0.0, INF])
    _same(xp.imag(r)[:3], [0.0, 0.0, 0.0])
    _same(r[3:5], [complex(-1.0, 0.0), complex(-1.0, 0.0)])
    assert _np(xp.real(r))[5] == INF and math.isnan(_np(xp.imag(r))[5])
    assert math.isnan(_np(xp.real(r))[6]) and _np(xp.imag(r))[6] == 0.0
    assert _np(xp.real(r))[7] == -1.0


def test_complex_expm1_values_agree_with_numpy(fixed_device):
    values = [1 + 2j, -0.5 + 0.25j, 1e-7 + 1e-7j, 3 - 4j, -2 - 1j]
    r = xp.expm1(xp.asarray(values, dtype=xp.complex64, device=fixed_device))
    np.testing.assert_allclose(_np(r), np.expm1(np.asarray(values, np.complex128)), rtol=1e-5)


def test_complex_tanh_at_plus_infinity(fixed_device):
    z = xp.asarray(
        [complex(INF, 3.0), complex(INF, -3.0), complex(INF, 1.0), 0.5 + 0.5j],
        dtype=xp.complex64,
        device=fixed_device,
    )
    r = xp.tanh(z)
    _same(r[:3], [complex(1.0, 0.0), complex(1.0, -0.0), complex(1.0, 0.0)])
    np.testing.assert_allclose(_np(r)[3], np.tanh(0.5 + 0.5j), rtol=1e-5)


def test_complex_acos_at_zero(fixed_device):
    z = xp.asarray([complex(0.0, 0.0), complex(-0.0, 0.0)], dtype=xp.complex64, device=fixed_device)
    r = xp.acos(z)
    np.testing.assert_allclose(_np(xp.real(r)), [math.pi / 2] * 2, rtol=1e-6)
    _same(xp.imag(r), [-0.0, -0.0])


# The complex special cases of the standard that JAX (and torch on CUDA) got wrong, with the
# mirror images the functions' symmetries give. NaN parts may have either sign; so may the
# zeros where the standard leaves the sign open.
_COMPLEX_CASES = [
    ("acos", complex(0.0, NAN), complex(math.pi / 2, NAN)),
    ("acos", complex(-0.0, NAN), complex(math.pi / 2, NAN)),
    ("acosh", complex(0.0, NAN), complex(NAN, math.pi / 2)),
    ("asinh", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("atanh", complex(1.0, NAN), complex(NAN, NAN)),
    ("atanh", complex(0.0, NAN), complex(0.0, NAN)),
    ("atanh", complex(INF, NAN), complex(0.0, NAN)),
    ("atanh", complex(-INF, NAN), complex(-0.0, NAN)),
    ("atanh", complex(NAN, 1.0), complex(NAN, NAN)),
    ("cosh", complex(0.0, INF), complex(NAN, 0.0)),
    ("cosh", complex(0.0, NAN), complex(NAN, 0.0)),
    ("cosh", complex(INF, INF), complex(INF, NAN)),
    ("cosh", complex(-INF, NAN), complex(INF, NAN)),
    ("sinh", complex(0.0, INF), complex(0.0, NAN)),
    ("sinh", complex(INF, NAN), complex(INF, NAN)),
    ("sinh", complex(-0.0, NAN), complex(-0.0, NAN)),
    ("tanh", complex(0.0, INF), complex(0.0, NAN)),
    ("tanh", complex(-0.0, NAN), complex(-0.0, NAN)),
    ("exp", complex(INF, INF), complex(INF, NAN)),
    ("exp", complex(INF, NAN), complex(INF, NAN)),
    ("exp", complex(-INF, INF), complex(0.0, 0.0)),
    ("exp", complex(-INF, -NAN), complex(0.0, 0.0)),
    ("log", complex(INF, NAN), complex(INF, NAN)),
    ("log", complex(-INF, NAN), complex(INF, NAN)),
    ("log", complex(NAN, INF), complex(INF, NAN)),
    ("sqrt", complex(INF, NAN), complex(INF, NAN)),
    ("sqrt", complex(-INF, NAN), complex(NAN, INF)),
]


@pytest.mark.parametrize(("name", "z", "expected"), _COMPLEX_CASES, ids=lambda v: str(v))
def test_complex_special_cases_with_infinite_and_nan_parts(fixed_device, name, z, expected):
    r = complex(_np(getattr(xp, name)(xp.asarray([z], dtype=xp.complex64, device=fixed_device)))[0])
    for got, want in ((r.real, expected.real), (r.imag, expected.imag)):
        if math.isnan(want):
            assert math.isnan(got), (name, z, r)
        else:
            assert math.isclose(abs(got), abs(want), rel_tol=1e-6), (name, z, r)
            assert math.copysign(1.0, got) == math.copysign(1.0, want) or want == 0.0, (name, z, r)
    # The values away from the special cases stay the backend's.
    w = complex(0.5, 0.25)
    got = complex(
        _np(getattr(xp, name)(xp.asarray([w], dtype=xp.complex64, device=fixed_device)))[0]
    )
    assert cmath.isclose(got, getattr(cmath, name)(w), rel_tol=1e-5)


def test_complex_log1p_with_infinite_parts(fixed_device):
    z = xp.asarray(
        [complex(1.0, INF), complex(INF, NAN), complex(-INF, NAN), complex(NAN, INF), 1 + 1j],
        dtype=xp.complex64,
        device=fixed_device,
    )
    r = _np(xp.log1p(z))
    assert np.all(r.real[:4] == INF)
    np.testing.assert_allclose(r.imag[0], math.pi / 2, rtol=1e-6)
    assert np.all(np.isnan(r.imag[1:4]))
    np.testing.assert_allclose(r[4], np.log1p(1 + 1j), rtol=1e-5)


def test_floor_divide_of_signed_zeros(fixed_device):
    a = xp.asarray([-0.0, -0.0, 0.0, 0.0], device=fixed_device)
    b = xp.asarray([2.0, -2.0, 2.0, -2.0], device=fixed_device)
    _same(xp.floor_divide(a, b), [-0.0, 0.0, 0.0, -0.0])
    _same(xp.floor_divide(-0.0, b), [-0.0, 0.0, -0.0, 0.0])


def test_sign_of_zero_is_plus_zero(fixed_device):
    _same(xp.sign(xp.asarray([-0.0, 0.0, -3.0], device=fixed_device)), [0.0, 0.0, -1.0])
    z = xp.asarray([complex(-0.0, -0.0)], dtype=xp.complex64, device=fixed_device)
    _same(xp.sign(z), [complex(0.0, 0.0)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_half_powers_of_signed_zero_and_minus_infinity(fixed_device, dtype):
    # NumPy takes sqrt for an exponent 0.5 shared by every element (a scalar, a 0-d array, a
    # stride of 0), torch sqrt and rsqrt for a Python 0.5 and -0.5: -0 and NaN where the
    # standard says pow(-0, 0.5) = +0, pow(-inf, 0.5) = +inf, pow(-0, -0.5) = +inf and
    # pow(-inf, -0.5) = +0.
    dt = getattr(xp, dtype)
    if not fixed_device.supports(dt):
        pytest.skip(f"{fixed_device} does not hold {dtype}")
    x = xp.asarray([-0.0, -INF, 0.0, INF, 4.0, -1.0, NAN], dtype=dt, device=fixed_device)
    root = [0.0, INF, 0.0, INF, 2.0, NAN, NAN]
    inverse = [INF, 0.0, INF, 0.0, 0.5, NAN, NAN]
    half = xp.asarray(0.5, dtype=dt, device=fixed_device)
    _same(x**0.5, root)
    _same(xp.pow(x, 0.5), root)
    _same(xp.pow(x, half), root)
    _same(xp.pow(x, xp.full(x.shape, 0.5, dtype=dt, device=fixed_device)), root)
    _same(xp.pow(x, xp.broadcast_to(half, x.shape)), root)
    _same(x**-0.5, inverse)
    _same(xp.pow(x, xp.asarray(-0.5, dtype=dt, device=fixed_device)), inverse)
    y = xp.asarray([-0.0, -INF], dtype=dt, device=fixed_device)
    if fixed_device.backend != "dask":
        y **= 0.5
        _same(y, [0.0, INF])
    _same(xp.asarray(-0.0, dtype=dt, device=fixed_device) ** 0.5, 0.0)
    # The squares NumPy now computes as numpy.square are the values numpy.power gave.
    _same(x**2, [0.0, INF, 0.0, INF, 16.0, 1.0, NAN])


def test_torch_half_powers_of_large_arrays_in_and_out_of_transforms():
    # Above 2048 elements torch's CPU path keeps the square root where no sign bit is set and
    # mends it otherwise: by a test of the values eagerly, branch-free under vmap and jit.
    pytest.importorskip("torch")
    n = 5000
    x = xp.concat(
        [
            xp.linspace(1.0, 4.0, n, dtype=xp.float32, device="torch:cpu"),
            xp.asarray([-0.0, -INF, 4.0], dtype=xp.float32, device="torch:cpu"),
        ]
    )
    positive = xp.linspace(1.0, 4.0, n, dtype=xp.float32, device="torch:cpu")
    roots = np.sqrt(xp.to_numpy(positive))  # (torch's pow is within an ulp of them)
    for f in (lambda a: a**0.5, xp.jit(lambda a: a**0.5)):
        got = f(x)
        _same(got[-3:], [0.0, INF, 2.0])
        np.testing.assert_allclose(_np(got[:n]), roots, rtol=2e-7)
        np.testing.assert_allclose(_np(f(positive)), roots, rtol=2e-7)
    rows = xp.reshape(xp.concat([x, x[-1:]]), (2, -1))
    got = xp.vmap(lambda a: a**-0.5)(rows)
    _same(got[1, -4:], [INF, 0.0, 0.5, 0.5])  # (n + 3 + 1) / 2 = 2502 elements a row
    _same(xp.grad(lambda a: xp.sum(a**0.5))(positive)[:1], [0.5])


def test_torch_half_powers_in_inference_mode_then_under_autograd():
    # The exponent torch's half powers keep per device and dtype is made outside inference
    # mode: one made inside could not be saved for a backward pass afterwards.
    torch = pytest.importorskip("torch")
    from arraymux._backends import _torch

    _torch._EXPONENTS.clear()
    with torch.inference_mode():
        _same(xp.asarray([4.0, 9.0], device="torch:cpu") ** 0.5, [2.0, 3.0])
    w = xp.asarray([4.0, 9.0], device="torch:cpu")
    _same(xp.grad(lambda v: xp.sum(v**0.5))(w), [0.25, 1 / 6])
    t = torch.tensor([4.0], requires_grad=True)
    xp.sum(xp.asarray(t) ** -0.5).native.backward()
    assert t.grad.tolist() == [-0.0625]


def test_std_with_a_fractional_correction(device):
    x = xp.asarray([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], dtype=xp.float32, device=device)
    ref = np.asarray([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    np.testing.assert_allclose(_np(xp.std(x, axis=0, correction=1.5)), np.std(ref, 0, ddof=1.5))
    np.testing.assert_allclose(
        _np(xp.std(x, axis=1, correction=0.5, keepdims=True)),
        np.std(ref, 1, ddof=0.5, keepdims=True),
        rtol=1e-6,
    )
    np.testing.assert_allclose(_np(xp.std(x, correction=1)), np.std(ref, ddof=1), rtol=1e-6)


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_are_nan_where_the_correction_leaves_no_degree_of_freedom(device, name):
    """The standard: NaN where ``N - correction <= 0`` (NumPy, CuPy, torch, Dask and
    array-api-strict gave infinity where it is 0, and NumPy, torch and array-api-strict where
    it is below 0); other counts unchanged."""
    fn = getattr(xp, name)
    x = xp.asarray([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]], dtype=xp.float32, device=device)
    for kwargs in (
        {"correction": 6},
        {"correction": 7},
        {"correction": 6.5},
        {"axis": 1, "correction": 3},
        {"axis": (0, 1), "correction": 6},
        {"axis": 0, "correction": 2, "keepdims": True},
    ):
        r = fn(x, **kwargs)
        assert r.dtype == xp.float32
        assert np.isnan(_np(r)).all(), (name, kwargs, _np(r))
    ref = np.asarray([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]])
    np.testing.assert_allclose(
        _np(fn(x, axis=0, correction=1)), getattr(np, name)(ref, 0, ddof=1), rtol=1e-6
    )
    np.testing.assert_allclose(
        _np(fn(x, axis=1, correction=2.5)), getattr(np, name)(ref, 1, ddof=2.5), rtol=1e-6
    )


def test_dlpack_below_version_1_gives_a_legacy_capsule(device):
    if device.backend not in FIXED_BACKENDS:
        pytest.skip("checked on numpy, torch and jax")
    x = xp.asarray([1.0, 2.0], dtype=xp.float32, device=device)
    assert "dltensor" in repr(x.__dlpack__(max_version=(0, 0)))


def test_jax_searchsorted_and_cumulative_prod_dtypes():
    if not any(d.backend == "jax" for d in xp.devices()):
        pytest.skip("needs jax")
    dev = xp.devices("jax")[0]
    index = xp.__array_namespace_info__().default_dtypes(device=dev)["indexing"]
    x = xp.asarray([1, 3, 5], dtype=xp.uint8, device=dev)
    assert xp.searchsorted(x, xp.asarray([2], dtype=xp.uint8, device=dev)).dtype == index
    assert xp.searchsorted(x, 4).dtype == index
    empty = xp.asarray([], dtype=xp.uint8, device=dev)
    assert xp.cumulative_prod(empty).dtype == xp.prod(empty).dtype
    assert (
        xp.cumulative_prod(xp.asarray([2, 3], dtype=xp.int8, device=dev)).dtype
        == xp.prod(xp.asarray([2, 3], dtype=xp.int8, device=dev)).dtype
    )


_NEGATIVE_STEP_KEYS = [
    np.s_[::-1, ...],
    np.s_[:, ::-2, ...],
    np.s_[..., 3:0:-1],
    np.s_[1, ::-1, None, 2:],
    np.s_[::-1, ..., ::-3],
    np.s_[-1:-3:-1, 0, ...],
    np.s_[2:0:-1, ...],
    np.s_[:, -1:0:-1, ...],
]


@pytest.mark.parametrize("key", _NEGATIVE_STEP_KEYS, ids=str)
def test_negative_step_slices_on_every_device(device, key):
    # torch refuses negative slice steps; arraymux gives the standard's result there too.
    a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    x = xp.asarray(a, device=device)
    got = xp.to_numpy(x[key])
    assert got.shape == a[key].shape
    assert got.tolist() == a[key].tolist()


@pytest.mark.parametrize(
    "key", [np.s_[::-1], np.s_[5:0:-1], np.s_[:, -10:10:-1], np.s_[-1:-5:-1, 0]], ids=str
)
def test_negative_step_slices_on_torch_clip_like_numpy(key):
    a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    got = xp.to_numpy(xp.asarray(a, device="torch:cpu")[key])
    assert got.shape == a[key].shape
    assert got.tolist() == a[key].tolist()


def test_unique_all_on_torch_matches_numpy():
    a = np.asarray([[3, 1, 3], [2, 1, 7]], dtype=np.int64)
    r = xp.unique_all(xp.asarray(a, device="torch:cpu"))
    values, indices, inverse, counts = np.unique(
        a, return_index=True, return_inverse=True, return_counts=True
    )
    assert xp.to_numpy(r.values).tolist() == values.tolist()
    assert xp.to_numpy(r.indices).tolist() == indices.tolist()
    assert xp.to_numpy(r.inverse_indices).tolist() == inverse.reshape(a.shape).tolist()
    assert xp.to_numpy(r.counts).tolist() == counts.tolist()


@pytest.mark.parametrize(
    ("shape1", "shape2"),
    [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)), ((2, 1, 3, 4), (5, 4, 2))],
    ids=str,
)
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_integer_matmul_without_a_torch_kernel_matches_numpy(shape1, shape2, dtype):
    # torch has no integer matmul kernel on CUDA; arraymux falls back to this there.
    torch = pytest.importorskip("torch")
    from arraymux._backends._torch import _integer_matmul

    rng = np.random.default_rng(0)
    low = 0 if dtype == "uint8" else -100
    a = rng.integers(low, 100, shape1).astype(dtype)
    b = rng.integers(low, 100, shape2).astype(dtype)
    got = _integer_matmul(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    want = np.matmul(a, b)  # wraps on overflow, as the fallback does
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    assert (got == want).all()


def test_integer_matmul_fallback_rejects_mismatched_inner_dimensions():
    torch = pytest.importorskip("torch")
    from arraymux._backends._torch import _integer_matmul

    with pytest.raises(ValueError, match="inner dimensions"):
        _integer_matmul(
            torch.ones((2, 3), dtype=torch.int32), torch.ones((4, 2), dtype=torch.int32)
        )


def test_integer_true_division_gives_the_default_float_everywhere(device):
    """One answer on every device (array-api-strict alone refuses integer operands)."""
    a = xp.asarray([1, 2, 3], device=device)
    b = xp.asarray([2, 2, 2], device=device)
    want = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    for out in (xp.divide(a, b), a / b, a / 2, 3 / a):
        assert out.dtype is want
        assert out.device == device
    np.testing.assert_allclose(xp.to_numpy(xp.divide(a, b)), [0.5, 1.0, 1.5])
    np.testing.assert_allclose(xp.to_numpy(3 / a), [3.0, 1.5, 1.0])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_axis_everywhere(device, axis):
    """dask has no take_along_axis of its own; every device gives NumPy's answer."""
    a = np.random.default_rng(0).random((5, 4, 6)).astype(np.float32)
    idx = np.argsort(a, axis=axis)
    if not device.supports(xp.int64):
        idx = idx.astype(np.int32)
    x = xp.asarray(a, device=device)
    out = xp.take_along_axis(x, xp.asarray(idx, device=device), axis=axis)
    assert out.device == device
    np.testing.assert_array_equal(xp.to_numpy(out), np.take_along_axis(a, idx, axis=axis))
    part = idx[:1, :, :3] if axis == -1 else idx[:1, :1, :1]
    got = xp.take_along_axis(x, xp.asarray(part, device=device), axis=axis)
    np.testing.assert_array_equal(xp.to_numpy(got), np.take_along_axis(a, part, axis=axis))


def test_eigh_everywhere(device):
    m = np.random.default_rng(1).random((3, 4, 4)).astype(np.float32)
    m = m + np.swapaxes(m, -1, -2)
    res = xp.linalg.eigh(xp.asarray(m, device=device))
    assert type(res).__name__ == "EighResult"
    assert res.eigenvalues.device == device and res.eigenvalues.shape == (3, 4)
    np.testing.assert_allclose(xp.to_numpy(res.eigenvalues), np.linalg.eigh(m)[0], rtol=1e-4)
    v = xp.to_numpy(res.eigenvectors)
    np.testing.assert_allclose(np.abs(v), np.abs(np.linalg.eigh(m)[1]), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("flag", [True, False])
def test_0d_boolean_mask_everywhere(device, flag):
    """``x[mask]`` with a 0-d boolean mask adds an axis of length 1 or 0 (dask refuses it
    natively); the length is known on every backend."""
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    out = x[xp.asarray(flag, device=device)]
    assert out.shape == (int(flag), 3)
    np.testing.assert_array_equal(xp.to_numpy(out), np.ones((int(flag), 1)) * [1.0, 2.0, 3.0])
    s = xp.asarray(4.0, device=device)[xp.asarray(flag, device=device)]
    np.testing.assert_array_equal(xp.to_numpy(s), [4.0] * int(flag))


def test_a_mask_with_a_zero_length_axis_selects_nothing(device):
    """A mask axis of length 0 selects nothing from an axis of any length (as in NumPy; torch
    wants equal lengths); a mask whose lengths are neither still raises ``IndexError``."""
    x = xp.reshape(xp.arange(6.0, device=device), (3, 2))
    assert x[xp.zeros((0,), dtype=xp.bool, device=device)].shape == (0, 2)
    assert x[xp.zeros((3, 0), dtype=xp.bool, device=device)].shape == (0,)
    with pytest.raises(IndexError):
        x[xp.zeros((2,), dtype=xp.bool, device=device)]


_I, _J = [0, 2], [[1], [3]]
_INTEGER_ARRAY_KEYS = [
    (0, _I, _I),
    (_I, _J),
    (slice(None), _I, _J),
    (_I, slice(None), _J),
    (slice(1, 3), _I, 0),
    (None, _I, _J),
    (Ellipsis, _I, _J),
    (slice(None), None, _I, _J),
    ([0],),
    (0, [1]),
    ([2, 0], [[1], [3]], 4),
    ("0d", [0, 3], 2),
]


@pytest.mark.parametrize("key", _INTEGER_ARRAY_KEYS, ids=str)
def test_several_integer_arrays_index_as_in_numpy(device, key):
    """Integer arrays broadcast together, their axes where NumPy puts them (dask takes one
    array per key natively, and mislabels some lengths)."""
    standard = len(key) == 3 and all(isinstance(p, int | list) for p in key)
    if device.backend == "array_api_strict" and not standard:
        pytest.skip("array_api_strict takes integer arrays only beside integers, as the standard")
    a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    x = xp.asarray(a, device=device)
    if key[0] == "0d":  # a 0-d integer array, as an integer
        key = (xp.asarray(1, device=device), *key[1:])
    k = tuple(xp.asarray(p, device=device) if isinstance(p, list) else p for p in key)
    expected = a[
        tuple(
            np.asarray(p) if isinstance(p, list) else _np(p) if isinstance(p, xp.Array) else p
            for p in key
        )
    ]
    out = x[k]
    assert out.shape == expected.shape
    np.testing.assert_array_equal(xp.to_numpy(out), expected)


def test_masks_and_takes_know_their_shapes(device):
    """A mask of two dimensions and ``take`` of one index give the right shape (dask said
    ``(None,)`` and ``(2,)``)."""
    a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    x = xp.asarray(a, device=device)
    m = a[:, :, 0] % 3 == 0
    out = x[xp.asarray(m, device=device)]
    assert out.shape == a[m].shape
    np.testing.assert_array_equal(xp.to_numpy(out), a[m])
    y = xp.asarray([False, True], device=device)
    assert xp.take(y, xp.asarray([1], device=device)).shape == (1,)
    assert xp.to_numpy(xp.take(x, xp.asarray([2], device=device), axis=1)).tolist() == (
        a[:, [2]].tolist()
    )


@pytest.mark.parametrize(
    ("shape1", "shape2"),
    [
        ((3, 3), (3,)),
        ((2, 3, 3), (3,)),
        ((2, 3, 3), (3, 2)),
        ((3, 3), (4, 3, 1)),
        ((0, 0), (0,)),
        ((1, 1), (1, 0)),
    ],
    ids=str,
)
def test_solve_broadcasts_its_stacks(shape1, shape2):
    """The standard's shapes for ``solve``, built over a backend that wants one stack shape
    (CuPy's); checked here on NumPy's kernel given only matching stacks."""
    import array_api_compat.numpy as cnp

    from arraymux._backends import _special_cases

    def strict_kernel(a, b):
        assert a.shape[:-2] == b.shape[:-2] and b.ndim >= 2
        return np.linalg.solve(a, b)

    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape1) + 3 * np.eye(shape1[-1])
    b = rng.standard_normal(shape2)
    got = _special_cases.solve(cnp, strict_kernel)(a, b)
    want = cnp.linalg.solve(a, b)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize(("shape1", "shape2"), [((0,), (1,)), ((2, 0), (1, 3)), ((1,), (0,))])
def test_matmul_refuses_mismatched_inner_dimensions(device, shape1, shape2):
    """Dask multiplied these without a word."""
    x1 = xp.zeros(shape1, device=device)
    x2 = xp.zeros(shape2, device=device)
    with pytest.raises((ValueError, RuntimeError, TypeError)):
        xp.matmul(x1, x2)
    with pytest.raises((ValueError, RuntimeError, TypeError)):
        x1 @ x2


def test_dask_solve_and_qr_on_stacks_agree_with_numpy():
    pytest.importorskip("dask")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 3))
    for b in (rng.standard_normal(3), rng.standard_normal((2, 3, 4)), np.zeros((2, 3, 0))):
        want = np.linalg.solve(a, b[:, None])[..., 0] if b.ndim == 1 else np.linalg.solve(a, b)
        got = xp.linalg.solve(xp.asarray(a, device="dask"), xp.asarray(b, device="dask"))
        assert got.shape == want.shape
        np.testing.assert_allclose(xp.to_numpy(got), want)
    m = rng.standard_normal((2, 4, 3))
    for mode, shapes in (("reduced", ((2, 4, 3), (2, 3, 3))), ("complete", ((2, 4, 4), (2, 4, 3)))):
        q, r = xp.linalg.qr(xp.asarray(m, device="dask"), mode=mode)
        assert (q.shape, r.shape) == shapes
        np.testing.assert_allclose(xp.to_numpy(q @ r), m, atol=1e-12)


def test_from_dlpack_of_a_dask_array_onto_another_device():
    pytest.importorskip("dask")
    y = xp.from_dlpack(xp.asarray([1.0, 2.0], device="dask"), device="numpy")
    assert y.device == xp.Device("numpy")
    assert xp.to_numpy(y).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("shape", [(0, 0, 0, 0, 0, 18), (0, 1, 31), (3, 0, 2)])
def test_empty_arrays_of_any_shape_are_made_everywhere(device, shape):
    """Dask's automatic chunks divided by zero for some empty shapes."""
    for x in (
        xp.zeros(shape, device=device),
        xp.ones(shape, device=device),
        xp.empty(shape, device=device),
        xp.full(shape, 2.0, device=device),
        xp.asarray(np.zeros(shape, dtype=np.float32), device=device),
        xp.to_device(xp.asarray(np.zeros(shape, dtype=np.float32)), device),
    ):
        assert x.shape == shape
        assert xp.to_numpy(x).shape == shape


def test_permute_dims_takes_negative_axes(device):
    x = xp.reshape(xp.arange(6, device=device), (1, 2, 3))
    out = xp.permute_dims(x, (-1, 0, -2))
    assert out.shape == (3, 1, 2)
    np.testing.assert_array_equal(
        xp.to_numpy(out), np.arange(6).reshape(1, 2, 3).transpose(2, 0, 1)
    )


def test_unique_results_know_their_length(device):
    """Every unique function gives a known length, dask included (computed once there), so a
    client's ``unique_values(y).shape[0] > 2`` is a real answer."""
    x = xp.asarray([3, 1, 2, 3, 1, 7], device=device)
    assert xp.unique_values(x).shape == (4,)
    res = xp.unique_all(x)
    assert [a.shape for a in res] == [(4,), (4,), (6,), (4,)]
    assert xp.to_numpy(res.counts).tolist() == [2, 1, 2, 1]
    assert xp.to_numpy(xp.unique_counts(x).counts).tolist() == [2, 1, 2, 1]
    inv = xp.unique_inverse(x)
    assert xp.to_numpy(inv.values[inv.inverse_indices]).tolist() == [3, 1, 2, 3, 1, 7]


def test_sklearn_sees_three_classes_on_dask():
    """Native dask's unknown length (nan) makes scikit-learn take three classes for two;
    arraymux's dask arrays give the right answer."""
    pytest.importorskip("dask")
    multiclass = pytest.importorskip("sklearn.utils.multiclass")
    from sklearn import config_context

    y = xp.asarray([0, 1, 2, 2, 1, 0], device="dask")
    with config_context(array_api_dispatch=True):
        assert multiclass.type_of_target(y) == "multiclass"


def test_masked_results_know_their_length(device):
    """``x[mask]`` and ``nonzero`` give known lengths (dask computes the mask only), so the
    result can be indexed again, as SciPy's t-tests do."""
    x = xp.asarray([1.0, 5.0, 2.0, 7.0], device=device)
    big = x[x > 1.5]
    assert big.shape == (3,)
    assert float(big[0]) == 5.0
    (idx,) = xp.nonzero(x > 4.0)
    assert idx.shape == (2,)
    assert xp.to_numpy(idx).tolist() == [1, 3]


def test_dask_arrays_export_through_dlpack_by_computing():
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    x = xp.asarray([1.0, 2.0], device="dask") * 2
    assert x.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(x), [2.0, 4.0])
    with pytest.raises(BufferError, match="copy=False"):
        x.__dlpack__(copy=False)


@pytest.mark.parametrize("shape", [(2, 3, 3), (3, 3), (0, 2, 2), (2, 0, 0)])
def test_dask_linalg_on_stacks_agrees_with_numpy(shape):
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    spd = a @ np.swapaxes(a, -1, -2) + 3 * np.eye(shape[-1])
    x, s = xp.asarray(a, device="dask"), xp.asarray(spd, device="dask")
    for name, arg, ref in [
        ("inv", x, a),
        ("det", x, a),
        ("eigvalsh", s, spd),
        ("cholesky", s, spd),
    ]:
        got = getattr(xp.linalg, name)(arg)
        assert got.device == xp.Device("dask")
        np.testing.assert_allclose(xp.to_numpy(got), getattr(np.linalg, name)(ref), atol=1e-10)
    w = xp.linalg.eigvals(x)
    assert w.dtype == xp.complex128  # complex even where the eigenvalues are real
    np.testing.assert_allclose(
        np.sort_complex(xp.to_numpy(w)), np.sort_complex(np.linalg.eigvals(a)), atol=1e-10
    )
    vals, vecs = xp.linalg.eig(x)
    np.testing.assert_allclose(
        xp.to_numpy(x) @ xp.to_numpy(vecs),
        xp.to_numpy(vecs) * xp.to_numpy(vals)[..., None, :],
        atol=1e-10,
    )
    sign, logabs = xp.linalg.slogdet(x)
    want_sign, want_logabs = np.linalg.slogdet(a)
    np.testing.assert_allclose(xp.to_numpy(sign), want_sign)
    np.testing.assert_allclose(xp.to_numpy(logabs), want_logabs, atol=1e-10)
    np.testing.assert_allclose(
        xp.to_numpy(xp.linalg.svdvals(x)), np.linalg.svd(a, compute_uv=False), atol=1e-10
    )
    np.testing.assert_allclose(xp.to_numpy(xp.linalg.pinv(x)), np.linalg.pinv(a), atol=1e-10)
    for full in (True, False):
        u, sv, vh = xp.linalg.svd(x, full_matrices=full)
        want_u, want_s, want_vh = np.linalg.svd(a, full_matrices=full)
        assert u.shape == want_u.shape and vh.shape == want_vh.shape
        np.testing.assert_allclose(xp.to_numpy(sv), want_s, atol=1e-10)
    if shape[-1] == shape[-2]:
        np.testing.assert_allclose(
            xp.to_numpy(xp.linalg.matrix_power(x, 2)), np.linalg.matrix_power(a, 2), atol=1e-10
        )
    if shape[-1] == shape[-2]:
        b = np.ones(shape[:-1])
        np.testing.assert_allclose(
            xp.to_numpy(xp.linalg.solve(s, xp.asarray(b, device="dask")[..., None])),
            np.linalg.solve(spd, b[..., None]),
            atol=1e-10,
        )
    for order in ("fro", "nuc", 1, 2, -np.inf) if shape[-1] else ("fro",):
        np.testing.assert_allclose(
            xp.to_numpy(xp.linalg.matrix_norm(x, ord=order)),
            np.linalg.norm(a, ord=order, axis=(-2, -1)),
            atol=1e-10,
        )
    rank = xp.linalg.matrix_rank(x)
    assert rank.dtype == xp.int64
    np.testing.assert_array_equal(xp.to_numpy(rank), np.linalg.matrix_rank(a))
    if shape[-1] == 3:
        c = xp.linalg.cross(x[..., 0, :], x[..., 1, :])
        np.testing.assert_allclose(xp.to_numpy(c), np.cross(a[..., 0, :], a[..., 1, :]))


def test_dask_eye_and_searchsorted_agree_with_numpy():
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    for n, m, k in [(3, 5, -1), (5, 3, 2), (0, 1, 0), (4, 4, -4), (2, 6, 7)]:
        got = xp.eye(n, m, k=k, device="dask")
        np.testing.assert_array_equal(xp.to_numpy(got), np.eye(n, m, k))
    x = xp.asarray([1.0, 3.0, 2.0], device="dask")
    assert int(xp.searchsorted(x, 2.5, sorter=xp.argsort(x))) == 2
    r = xp.searchsorted(xp.sort(x), xp.asarray(2.0, device="dask"), side="right")
    assert r.shape == () and int(r) == 2


def test_complex_reciprocal_of_zero_and_pow_to_zero(fixed_device):
    z = xp.asarray([0j, complex(-0.0, 0.0), 1 + 1j], dtype=xp.complex64, device=fixed_device)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = _np(xp.reciprocal(z))
    assert np.all(np.isnan(r[:2].real)) and np.all(np.isnan(r[:2].imag))  # 0 / 0 in both parts
    np.testing.assert_allclose(r[2], 0.5 - 0.5j, rtol=1e-6)
    for p in (xp.pow(z, xp.zeros_like(z)), xp.pow(z, 0j), z ** xp.zeros_like(z)):
        _same(p, [1 + 0j] * 3)


def test_dask_tensordot_keeps_small_integer_dtypes():
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    u8 = xp.asarray(np.uint8(3), device="dask")
    assert xp.tensordot(u8, u8, axes=((), ())).dtype == xp.uint8
    assert int(xp.linalg.tensordot(u8, u8, axes=0)) == 9


def test_dask_repeat_linspace_pinv_rtol_and_array_slice_bounds():
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    x = xp.asarray([[1, 2], [3, 4]], device="dask")
    np.testing.assert_array_equal(xp.to_numpy(xp.repeat(x, 2)), [1, 1, 2, 2, 3, 3, 4, 4])
    counts = xp.asarray([1, 2], device="dask")
    np.testing.assert_array_equal(
        xp.to_numpy(xp.repeat(x, counts, axis=0)), [[1, 2], [3, 4], [3, 4]]
    )
    assert xp.repeat(xp.asarray([], device="dask"), 3).shape == (0,)
    far = xp.linspace(6.429272266348954e16, 0.0, 22, dtype=xp.float32, device="dask")
    assert float(far[-1]) == 0.0  # the endpoint exactly
    z = xp.linspace(0j, 1 + 1j, 3, device="dask")
    np.testing.assert_allclose(xp.to_numpy(z), [0, 0.5 + 0.5j, 1 + 1j])
    a = np.random.default_rng(0).standard_normal((2, 3, 4))
    tol = np.array([0.1, 0.9])
    got = xp.linalg.pinv(xp.asarray(a, device="dask"), rtol=xp.asarray(tol, device="dask"))
    np.testing.assert_allclose(xp.to_numpy(got), np.linalg.pinv(a, rtol=tol), atol=1e-10)
    r = xp.arange(6, device="dask")
    start, stop = xp.asarray(1, device="dask"), xp.asarray(4, device="dask")
    np.testing.assert_array_equal(xp.to_numpy(r[start:stop]), [1, 2, 3])


@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
)
def test_indices_of_every_integer_dtype(device, dtype):
    # torch takes int64 indices only, and reads a uint8 index array as a mask.
    if not device.supports(getattr(xp, dtype)):
        pytest.skip(f"{device} does not hold {dtype}")
    x = xp.asarray([10, 20, 30], device=device)
    i = xp.asarray([2, 0, 1], dtype=getattr(xp, dtype), device=device)
    assert _np(xp.take(x, i)).tolist() == [30, 10, 20]
    assert _np(xp.take_along_axis(x, i)).tolist() == [30, 10, 20]
    assert _np(x[i]).tolist() == [30, 10, 20]
    assert _np(xp.repeat(x, i)).tolist() == [10, 10, 30]


def test_negative_zero_scalars_keep_their_sign(device):
    # CuPy fills a scalar array equal to zero with zero bytes (+0).
    for dtype in (xp.float32, xp.float64):
        if device.supports(dtype):
            assert np.signbit(_np(xp.asarray(-0.0, dtype=dtype, device=device)))
    if device.supports(xp.complex64):
        z = _np(xp.asarray(complex(-0.0, -0.0), dtype=xp.complex64, device=device))
        assert np.signbit(z.real) and np.signbit(z.imag)


def test_remainder_by_infinity(fixed_device):
    x1 = xp.asarray([2.5, -2.5, 2.5, -2.5, 0.0, 3.0], device=fixed_device)
    x2 = xp.asarray([INF, INF, -INF, -INF, -INF, 2.0], device=fixed_device)
    _same(xp.remainder(x1, x2), [2.5, INF, -INF, -2.5, -0.0, 1.0])
    _same(xp.remainder(x1, INF), [2.5, INF, 2.5, INF, 0.0, 3.0])


def test_complex_abs_with_an_infinite_part(fixed_device):
    z = xp.asarray(
        [complex(INF, NAN), complex(NAN, -INF), complex(NAN, 1.0), 3 + 4j], device=fixed_device
    )
    _same(xp.abs(z), [INF, INF, NAN, 5.0])


def test_complex_log2_and_log10_by_the_change_of_base(fixed_device):
    z = [0j, complex(INF, NAN), complex(NAN, INF), 8 + 0j, complex(-1.0, 0.0)]
    x = xp.asarray(z, device=fixed_device)
    with np.errstate(all="ignore"):
        for ours, radix in ((xp.log2, 2.0), (xp.log10, 10.0)):
            expected = [complex(-INF, 0.0), complex(INF, NAN), complex(INF, NAN)]
            expected += [cmath.log(v) / math.log(radix) for v in z[3:]]
            got = _np(ours(x))
            _same(got[:3], expected[:3])
            np.testing.assert_allclose(got[3:], expected[3:], rtol=1e-6)


def test_floor_divide_to_zero_is_plus_zero(fixed_device):
    x1 = xp.asarray([-1.0, -0.5, 1.0], device=fixed_device)
    x2 = xp.asarray([-2.5, -1.0, 2.5], device=fixed_device)
    _same(xp.floor_divide(x1, x2), [0.0, 0.0, 0.0])


def test_any_and_all_of_complex_read_both_parts(device):
    if not device.supports(xp.complex64):
        pytest.skip(f"{device} has no complex64")
    x = xp.asarray([1j, 0j], device=device)
    assert bool(xp.any(x)) and not bool(xp.all(x))
    assert bool(xp.all(x[:1])) and bool(xp.any(x[:1]))


def test_a_0d_negative_zero_keeps_its_sign_across_devices(device):
    a = np.asarray(-0.0, dtype=np.float32)
    assert np.signbit(_np(xp.to_device(xp.asarray(a), device)))
    assert np.signbit(_np(xp.asarray(a, device=device)))


@pytest.mark.parametrize(
    ("shape1", "shape2", "axes"),
    [
        ((3, 4), (4, 5), 1),
        ((2, 3, 4), (3, 4, 5), 2),
        ((2, 3), (2, 3), 0),
        ((2, 3, 4), (4, 2, 5), ([0, 2], [1, 0])),
        ((3, 4), (5, 4), ([-1], [-1])),
        ((0, 4), (4, 3), 1),
        ((2, 0), (0, 3), 1),
        ((), (2, 3), 0),
        ((), (), ((), ())),
        ((2,), (), 0),
    ],
    ids=str,
)
def test_integer_tensordot_without_a_torch_kernel_matches_numpy(shape1, shape2, axes):
    # torch has no integer tensordot kernel on CUDA; arraymux falls back to this there.
    torch = pytest.importorskip("torch")
    from arraymux._backends._torch import integer_tensordot

    rng = np.random.default_rng(0)
    a = rng.integers(-100, 100, shape1).astype(np.int32)
    b = rng.integers(-100, 100, shape2).astype(np.int32)
    got = integer_tensordot(torch.from_numpy(a), torch.from_numpy(b), axes).numpy()
    want = np.tensordot(a, b, axes=axes)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int64"])
def test_integer_vecdot_without_a_torch_kernel_matches_numpy(dtype):
    # torch has no integer vecdot kernel on CUDA; arraymux falls back to this there.
    torch = pytest.importorskip("torch")
    from arraymux._backends._torch import _integer_fallback, _integer_vecdot

    def _vecdot(kernel):
        return _integer_fallback(kernel, _integer_vecdot)

    def no_kernel(*args, **kwargs):
        raise NotImplementedError('"addmm_cuda" not implemented')

    rng = np.random.default_rng(0)
    a = rng.integers(0, 100, (2, 3, 4)).astype(dtype)
    b = rng.integers(0, 100, (3, 4)).astype(dtype)
    got = _vecdot(no_kernel)(torch.from_numpy(a), torch.from_numpy(b), axis=-1).numpy()
    want = (a * b).sum(axis=-1, dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="lengths of axis"):
        _vecdot(no_kernel)(torch.from_numpy(a), torch.from_numpy(b[:, :3]))


def test_dlpack_export_to_another_device(device):
    """``__dlpack__(dl_device=(1, 0))`` of an array elsewhere (a GPU) exports a host copy,
    refused with ``copy=False``; a device that is not the CPU is refused with a clear error."""
    import numpy as np

    x = xp.asarray([1.0, 2.0], device=device)
    here = x.__dlpack_device__()
    if int(here[0]) == 1 or device.backend == "dask":
        with pytest.raises(BufferError, match=r"only the CPU \(1, 0\) is supported"):
            x.__dlpack__(dl_device=(2, 0))
        return
    with pytest.raises(BufferError, match="copy=False forbids one"):
        x.__dlpack__(dl_device=(1, 0), copy=False)

    class Capsule:
        def __dlpack__(self, **kw):
            return x.__dlpack__(dl_device=(1, 0), **kw)

        def __dlpack_device__(self):
            return (1, 0)

    assert np.from_dlpack(Capsule()).tolist() == [1.0, 2.0]


def test_from_dlpack_onto_every_device(device):
    """``from_dlpack(x, device=d)`` of an arraymux array moves it as ``to_device`` does."""
    src = xp.asarray([1.0, 2.0], dtype=xp.float32, device=device)
    for target in xp.devices():
        y = xp.from_dlpack(src, device=target)
        assert y.device == target
        assert xp.to_numpy(y).tolist() == [1.0, 2.0]


def test_setitem_refuses_python_ints_out_of_the_dtypes_range(device):
    # torch would store 300 into an int8 array as 44.
    x = xp.asarray([1, 2], dtype=xp.int8, device=device)
    with pytest.raises(OverflowError, match=r"does not fit in arraymux\.int8"):
        x[0] = 300
    x[0] = -128
    assert _np(x).tolist() == [-128, 2]


def test_unique_of_complex_arrays_everywhere(device):
    # torch has no unique for complex dtypes; arraymux sorts the (real, imag) pairs.
    if not device.supports(xp.complex64):
        pytest.skip(f"{device} has no complex64")
    z = np.array([[1 + 2j, 0j], [1 + 2j, 1 - 1j]], dtype=np.complex64)
    x = xp.asarray(z, device=device)
    values = np.unique(z)
    assert _np(xp.unique_values(x)).tolist() == values.tolist()
    r = xp.unique_counts(x)
    assert _np(r.values).tolist() == values.tolist() and _np(r.counts).tolist() == [1, 1, 2]
    r = xp.unique_inverse(x)
    assert (values[_np(r.inverse_indices)] == z).all()
    r = xp.unique_all(x)
    assert _np(r.indices).tolist() == [1, 3, 0]


@pytest.mark.parametrize(
    "key",
    [
        (slice(None), slice(None, None, -1)),
        (slice(None, None, -2), 1),
        (Ellipsis, slice(2, 0, -1)),
        (slice(None), slice(0, 0, -1)),
        (slice(None, None, -1), slice(1, None, -2)),
    ],
    ids=str,
)
def test_negative_step_setitem_on_every_device(device, key):
    # torch refuses negative steps; arraymux writes into a flipped copy and flips it back.
    if device.backend == "dask" and key[1] == slice(0, 0, -1):
        pytest.skip("dask refuses to assign to an empty selection (its own shape check)")
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    want = a.copy()
    sel = want[key]
    values = np.arange(sel.size, dtype=np.float32).reshape(sel.shape) + 100
    want[key] = values
    x = xp.asarray(a.copy(), device=device)
    x[key] = xp.asarray(values, device=device)
    np.testing.assert_array_equal(_np(x), want)
    x[key] = 7.0
    want[key] = 7.0
    np.testing.assert_array_equal(_np(x), want)


# --------------------------------------------------------------------------------------------
# Python ints beyond what a backend's machine integers hold


_OUT_OF_BOUNDS = [2**63, -(2**63) - 1, 2**64, 2**31, -(2**31) - 1, 2**40, -(2**40), 6, -7]


@pytest.mark.parametrize("index", _OUT_OF_BOUNDS, ids=str)
def test_python_int_indices_out_of_bounds_raise(device, index):
    """An int index out of bounds is an IndexError on every backend: JAX clamped x[6] to x[5]
    and dropped x[6] = 9, and wrapped x[2**63] = 9 to a write at index 0; torch and NumPy
    raised an OverflowError or ValueError for ints beyond int64."""
    x = xp.arange(6, device=device)
    with pytest.raises(IndexError, match=r"arraymux\.Array\.__getitem__.*out of bounds"):
        x[index]
    with pytest.raises(IndexError, match=r"arraymux\.Array\.__setitem__.*out of bounds"):
        x[index] = 9
    m = xp.reshape(xp.arange(6, device=device), (2, 3))
    with pytest.raises(IndexError, match=r"arraymux\.Array\.__getitem__.*out of bounds"):
        m[0, index]
    with pytest.raises(IndexError, match=r"arraymux\.Array\.__getitem__.*out of bounds"):
        m[..., index]
    with pytest.raises(IndexError, match=r"arraymux\.Array\.__setitem__.*out of bounds"):
        m[1, index] = 9
    assert _np(x).tolist() == list(range(6))
    assert _np(m).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert int(x[-6]) == 0 and int(x[5]) == 5  # the bounds themselves
    x[-1] = 9
    assert _np(x).tolist() == [0, 1, 2, 3, 4, 9]


@pytest.mark.parametrize(
    "key",
    [
        slice(None, None, 2**63),
        slice(None, None, 2**63 - 1),
        slice(None, None, -(2**64)),
        slice(1, None, 2**40),
        slice(None, None, -(2**31) - 1),
        slice(2**63, None),
        slice(None, 2**64),
        slice(-(2**70), 2**70, 2),
        slice(2**63, None, -(2**63)),
        slice(None, -(2**64), -1),
    ],
    ids=str,
)
def test_slices_with_huge_ints_select_as_in_python(device, key):
    """torch and JAX compute a slice's length with machine integers: x[::2**63 - 1] was empty
    on both, x[::2**63] a TypeError on JAX."""
    bounds = (key.start, key.stop)
    if device.backend == "array_api_strict" and any(b is not None for b in bounds):
        pytest.skip("array_api_strict refuses slice bounds beyond the axis (its own rule)")
    x = xp.arange(6, device=device)
    assert _np(x[key]).tolist() == list(range(6))[key]
    if device.backend == "dask" and (key.step or 1) < 0:
        return  # dask refuses to assign through a negative step (its own rule)
    if device.backend == "jax" or device.backend == "torch" or device.backend == "numpy":
        y = xp.arange(6, device=device)
        y[key] = -1
        want = list(range(6))
        for i in range(6)[key]:
            want[i] = -1
        assert _np(y).tolist() == want


@pytest.mark.parametrize(
    ("shift", "axis"),
    [
        (2**63, None),
        (-(2**63) - 1, None),
        (2**64 + 1, None),
        (2**40 + 1, None),
        (2**63, 1),
        (-(2**70), -1),
        ((2**63, 2**64 + 1), (0, 1)),
        (2**63, (0, 1)),
    ],
    ids=str,
)
def test_roll_by_huge_shifts_is_exact(device, shift, axis):
    """A shift is taken modulo the axis length in Python, exactly: JAX wrapped 2**63 to -2**63
    (rolling by -2 instead of 2 on 6 elements), torch raised."""
    m = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = xp.asarray(m, device=device)
    if axis is None:
        want = np.roll(m.ravel(), shift % 6).reshape(2, 3)
        got = xp.roll(x, shift)
    else:
        shifts = shift if isinstance(shift, tuple) else (shift,) * len(np.atleast_1d(axis))
        axes = np.atleast_1d(axis).tolist()
        want = np.roll(m, [s % m.shape[a] for s, a in zip(shifts, axes, strict=True)], axes)
        got = xp.roll(x, shift, axis=axis)
    assert _np(got).tolist() == want.tolist()
    assert _np(xp.roll(xp.arange(6, device=device), 2**63)).tolist() == [4, 5, 0, 1, 2, 3]


_HUGE_SIZES = """
import sys
import arraymux as xp

D = sys.argv[1]
f32 = xp.ones((1,), dtype=xp.float32, device=D)
two = xp.ones((2,), dtype=xp.float32, device=D)
empty = xp.ones((0,), dtype=xp.float32, device=D)
calls = {
    "broadcast_to": lambda: xp.broadcast_to(f32, (2**40, 2**40)),
    "broadcast_to bytes": lambda: xp.broadcast_to(f32, (2**61,)),
    "broadcast_to dim": lambda: xp.broadcast_to(f32, (2**64, 0)),
    "repeat": lambda: xp.repeat(two, 2**62),
    "repeat int64": lambda: xp.repeat(two, 2**63),
    "repeat axis": lambda: xp.repeat(xp.ones((2, 2), device=D), 2**62, axis=0),
    "tile": lambda: xp.tile(two, (2**62,)),
    "tile 2-d": lambda: xp.tile(two, (2**32, 2**32)),
    "reshape": lambda: xp.reshape(empty, (2**40, 2**40, 0)),
    "reshape -1": lambda: xp.reshape(empty, (2**62, 2**2, -1)),
    "zeros": lambda: xp.zeros((2**62, 0), device=D),
    "empty": lambda: xp.empty((2**40, 2**40, 0), device=D),
    "fft.fft": lambda: xp.fft.fft(two, n=2**62),
    "fft.irfft": lambda: xp.fft.irfft(xp.astype(two, xp.complex64), n=2**63),
    "fft.rfftn": lambda: xp.fft.rfftn(xp.ones((2, 2), dtype=xp.float32, device=D), s=(2**40, 2**40)),
}
for name, call in calls.items():
    fname = name.split(" ")[0]
    try:
        call()
    except ValueError as e:
        assert str(e).startswith(f"arraymux.{fname}"), (name, e)
        assert "2**63 bytes" in str(e), (name, e)
    else:
        raise AssertionError(f"{name} made an array")
# Sizes that fit still work, empty results included.
assert xp.repeat(empty, 2**62).shape == (0,)
assert xp.broadcast_to(f32, (3, 0)).shape == (3, 0)
assert xp.tile(empty, (3,)).shape == (0,)
print("ok")
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_results_too_large_to_address_raise(device, pure):
    """Sizes whose product overflows 64 bits raise a ValueError that names the function, on
    every backend (jaxlib aborted the process on them: run in a child process, so that a
    regression fails this test only)."""
    assert_child_ok(_HUGE_SIZES, str(device), env=mode_env(pure))


def test_isin_inverts_on_every_device(device):
    """``invert=True`` negates the membership (array-api-strict 2.6 left it unread)."""
    x = xp.asarray([1, 2, 3, 4], device=device)
    test = xp.asarray([1, 3], device=device)
    assert _np(xp.isin(x, test)).tolist() == [True, False, True, False]
    assert _np(xp.isin(x, test, invert=True)).tolist() == [False, True, False, True]
    assert _np(xp.isin(x, 2, invert=True)).tolist() == [True, False, True, True]


def test_unique_takes_each_nan_as_a_value_of_its_own(device):
    """The standard: NaNs compare unequal, so each is a unique value, counted once, with an
    inverse index of its own. Dask took them as one value, counted it 0 times, gave it the
    first value's index in the inverse and failed in ``unique_all``."""
    data = [NAN, 1.0, NAN, 1.0, 0.5]
    x = xp.asarray(data, dtype=xp.float32, device=device)
    ref = np.asarray(data, dtype=np.float32)

    def same(a, b):
        np.testing.assert_array_equal(_np(a), b)  # (NaNs equal here)

    values = np.asarray([0.5, 1.0, NAN, NAN], dtype=np.float32)
    same(xp.unique_values(x), values)
    u = xp.unique_counts(x)
    same(u.values, values)
    same(u.counts, [1, 2, 1, 1])
    u = xp.unique_inverse(x)
    same(u.values, values)
    same(xp.take(u.values, u.inverse_indices), ref)  # x rebuilt, NaNs where they were
    u = xp.unique_all(x)
    same(u.values, values)
    same(u.counts, [1, 2, 1, 1])
    same(xp.take(u.values, u.inverse_indices), ref)
    same(xp.take(x, u.indices), values)
    assert u.values.shape == (4,) and u.values.device == device


def test_dtype_kinds_are_known_before_the_first_call():
    """The fixes' dtype caches hold every dtype of their namespace from the start (a first
    lookup inside torch.compile's trace would otherwise write to them there); a dtype outside
    the namespace's list is asked on first use, and a namespace that cannot list its dtypes
    still answers."""
    from array_api_compat import numpy as cnp

    from arraymux._backends._special_cases import Kinds

    kinds = Kinds(cnp, "complex floating")
    assert kinds == {dt: dt.kind == "c" for dt in cnp.__array_namespace_info__().dtypes().values()}
    assert kinds[np.dtype(np.float16)] is False  # not listed: asked, then kept
    assert np.dtype(np.float16) in kinds

    class Bare:  # isdtype only
        isdtype = staticmethod(cnp.isdtype)

    bare = Kinds(Bare, ("real floating", "complex floating"))  # type: ignore[arg-type]
    assert bare == {}
    assert bare[np.dtype(np.float32)] is True
    assert bare[np.dtype(np.int8)] is False
