"""Opt-in narrowing of 64-bit dtypes on a device that cannot hold them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import arraymux as xp
from _task_checks import interleave


@pytest.fixture
def narrow_device():
    """A device without 64-bit dtypes: array-api-strict's ``no_x64`` (JAX without x64
    behaves the same)."""
    pytest.importorskip("array_api_strict")
    return xp.Device("array_api_strict:no_x64")


def _narrow_devices() -> list[str]:
    """Every device here without 64-bit dtypes, simulated or not."""
    out = ["array_api_strict:no_x64"]
    try:
        if not xp.Device("jax:cpu").supports(xp.float64):
            out.append("jax:cpu")
    except (ImportError, LookupError):
        pass
    return out


@pytest.fixture(params=_narrow_devices())
def narrow(request):
    """Each device without 64-bit dtypes: array-api-strict's ``no_x64``, and JAX's CPU where
    64-bit mode is off."""
    return xp.Device(request.param)


@pytest.fixture(autouse=True)
def _off():
    xp.set_narrowing(False)
    yield
    xp.set_narrowing(False)


MAKERS = [
    ("zeros", lambda d: xp.zeros(2, dtype=xp.float64, device=d), xp.float32),
    ("arange", lambda d: xp.arange(3, dtype=xp.int64, device=d), xp.int32),
    ("asarray list", lambda d: xp.asarray([1.0], dtype=xp.float64, device=d), xp.float32),
    ("asarray host", lambda d: xp.asarray(np.ones(2), device=d), xp.float32),
    ("asarray host int", lambda d: xp.asarray(np.arange(3), device=d), xp.int32),
    ("asarray complex", lambda d: xp.asarray(np.ones(2, np.complex128), device=d), xp.complex64),
    ("bound asarray", lambda d: xp.namespace(device=d).asarray(np.ones(2)), xp.float32),
    ("astype", lambda d: xp.astype(xp.ones(2, device=d), xp.int64), xp.int32),
]


@pytest.mark.parametrize("name, make, narrow", MAKERS, ids=[m[0] for m in MAKERS])
def test_off_by_default_raises(narrow_device, name, make, narrow):
    with pytest.raises(xp.UnsupportedDTypeError, match="cannot hold"):
        make(narrow_device)


@pytest.mark.parametrize("name, make, narrow", MAKERS, ids=[m[0] for m in MAKERS])
def test_scoped_narrowing_warns_and_narrows(narrow_device, name, make, narrow):
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning, match=f"narrowed to {narrow}"):
        out = make(narrow_device)
    assert out.dtype is narrow
    assert out.device == narrow_device
    assert np.all(xp.to_numpy(out) == xp.to_numpy(out))  # data readable, label matches
    with pytest.raises(xp.UnsupportedDTypeError):  # the block ended
        make(narrow_device)


def test_values_survive_narrowing(narrow_device):
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning):
        out = xp.asarray(np.array([0.5, 1.25, -3.0]), device=narrow_device)
    np.testing.assert_array_equal(xp.to_numpy(out), np.array([0.5, 1.25, -3.0], np.float32))


def test_global_setting_and_scope_wins(narrow_device):
    xp.set_narrowing(True)
    with pytest.warns(xp.NarrowingWarning):
        assert xp.ones(2, dtype=xp.float64, device=narrow_device).dtype is xp.float32
    with xp.narrowing(False), pytest.raises(xp.UnsupportedDTypeError):
        xp.ones(2, dtype=xp.float64, device=narrow_device)


def test_to_device_never_narrows(narrow_device):
    with xp.narrowing(), pytest.raises(xp.UnsupportedDTypeError, match="to_device"):
        xp.to_device(xp.asarray(np.ones(2)), narrow_device)


def test_an_int_too_big_for_32_bits_still_raises(narrow_device):
    with xp.narrowing(), pytest.raises((OverflowError, xp.UnsupportedDTypeError)):
        xp.full(2, 2**40, device=narrow_device)


def test_devices_that_hold_64_bits_are_untouched(recwarn):
    with xp.narrowing():
        assert xp.zeros(2, dtype=xp.float64).dtype is xp.float64
    assert not [w for w in recwarn if issubclass(w.category, xp.NarrowingWarning)]


def test_scope_is_per_thread(narrow_device):
    seen = []

    def other():
        try:
            xp.ones(1, dtype=xp.float64, device=narrow_device)
            seen.append("narrowed")
        except xp.UnsupportedDTypeError:
            seen.append("raised")

    with xp.narrowing():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == ["raised"]


def test_bad_arguments():
    with pytest.raises(TypeError, match=r"arraymux\.set_narrowing"):
        xp.set_narrowing("yes")
    with pytest.raises(TypeError, match=r"arraymux\.narrowing"), xp.narrowing(1):
        pass


def test_jax_without_x64():
    jax = pytest.importorskip("jax")
    if jax.config.jax_enable_x64:
        pytest.skip("JAX runs with x64 here")
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning):
        out = xp.asarray(np.ones(3), device="jax:cpu")
    assert out.dtype is xp.float32 and out.native.dtype == np.float32


def test_scope_is_per_asyncio_task(narrow):
    """Blocks of tasks that interleave (awaits inside) stay in their own task."""
    seen = {}

    def look(name):
        try:
            seen[name] = xp.ones(1, dtype=xp.float64, device=narrow).dtype
        except xp.UnsupportedDTypeError:
            seen[name] = "raised"

    with pytest.warns(xp.NarrowingWarning):
        interleave(xp.narrowing, lambda: xp.narrowing(False), look)
    assert seen == {"a": xp.float32, "b": "raised", "outside": "raised"}
    xp.set_narrowing(True)  # the process setting, now that no block is open
    with pytest.warns(xp.NarrowingWarning):
        assert xp.ones(1, dtype=xp.float64, device=narrow).dtype is xp.float32


def test_warning_names_the_function_and_the_dtypes_as_errors_do(narrow):
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning) as caught:
        xp.zeros(2, dtype=xp.float64, device=narrow)
    assert str(caught[0].message) == (
        f"arraymux.zeros: {narrow} cannot hold arraymux.float64; narrowed to arraymux.float32 "
        "because narrowing is on (arraymux.narrowing / arraymux.set_narrowing)."
    )
    with pytest.raises(xp.UnsupportedDTypeError, match=r"cannot hold arraymux\.float64"):
        xp.zeros(2, dtype=xp.float64, device=narrow)


BIG = 2**40
HOST_BIG = np.array([1, BIG])
# Calls whose values do not fit the narrower dtype: (name, the function named, call).
TOO_BIG = [
    ("full", "full", lambda d: xp.full((2,), BIG, dtype=xp.int64, device=d)),
    ("full negative", "full", lambda d: xp.full(2, -(2**31) - 1, dtype=xp.int64, device=d)),
    ("full float", "full", lambda d: xp.full(2, 1e300, dtype=xp.float64, device=d)),
    ("full complex", "full", lambda d: xp.full(2, 1e300j, dtype=xp.complex128, device=d)),
    (
        "full_like",
        "full_like",
        lambda d: xp.full_like(xp.zeros(2, dtype=xp.int32, device=d), BIG, dtype=xp.int64),
    ),
    (
        "full_like from another backend",
        "full_like",
        lambda d: xp.full_like(np.zeros(2), 1e300, dtype=xp.float64, device=d),
    ),
    ("asarray list", "asarray", lambda d: xp.asarray([1, BIG], dtype=xp.int64, device=d)),
    (
        "asarray nested",
        "asarray",
        lambda d: xp.asarray([[1.0], [-1e300]], dtype="float64", device=d),
    ),
    ("asarray scalar", "asarray", lambda d: xp.asarray(BIG, dtype=xp.int64, device=d)),
    ("asarray host", "asarray", lambda d: xp.asarray(HOST_BIG, device=d)),
    ("asarray host float", "asarray", lambda d: xp.asarray(np.array([1e300, np.nan]), device=d)),
    ("asarray NumPy scalar", "asarray", lambda d: xp.asarray(np.int64(BIG), device=d)),
    ("bound asarray", "asarray", lambda d: xp.namespace(device=d).asarray(HOST_BIG)),
    ("arange", "arange", lambda d: xp.arange(BIG, BIG + 3, dtype=xp.int64, device=d)),
    ("arange last value", "arange", lambda d: xp.arange(0, BIG, 2**35, dtype="int64", device=d)),
    ("linspace", "linspace", lambda d: xp.linspace(0, BIG, 3, dtype=xp.int64, device=d)),
    ("linspace float", "linspace", lambda d: xp.linspace(0, 1e300, 3, dtype="float64", device=d)),
    (
        "promotion of two operands",
        "add",
        lambda d: xp.add(
            xp.asarray([1], dtype=xp.int32, device=d),
            xp.asarray([2**32 - 1], dtype=xp.uint32, device=d),
        ),
    ),
    (
        "astype",
        "astype",
        lambda d: xp.astype(xp.asarray([2**31], dtype=xp.uint32, device=d), xp.int64),
    ),
]


@pytest.mark.parametrize("name, fname, make", TOO_BIG, ids=[c[0] for c in TOO_BIG])
def test_a_value_that_does_not_fit_the_narrower_dtype_raises(narrow, name, fname, make):
    """Narrowing changes the dtype (with a warning), never a value: one that does not fit the
    narrower dtype raises, before any warning (warnings are errors here)."""
    with xp.narrowing(), pytest.raises(OverflowError, match=rf"^arraymux\.{fname}: .* narrowing"):
        make(narrow)


FITS = [
    ("full", lambda d: xp.full((2,), 2**31 - 1, dtype=xp.int64, device=d), [2**31 - 1] * 2),
    ("full float", lambda d: xp.full(2, 3e38, dtype=xp.float64, device=d), [3e38] * 2),
    ("full inf", lambda d: xp.full(1, -np.inf, dtype=xp.float64, device=d), [-np.inf]),
    ("full_like", lambda d: xp.full_like(xp.zeros(1, device=d), 7, dtype=xp.int64), [7]),
    ("asarray", lambda d: xp.asarray([1, -(2**31)], dtype=xp.int64, device=d), [1, -(2**31)]),
    ("asarray host", lambda d: xp.asarray(np.array([np.inf, 1e38]), device=d), [np.inf, 1e38]),
    ("arange", lambda d: xp.arange(3, dtype=xp.int64, device=d), [0, 1, 2]),
    ("linspace", lambda d: xp.linspace(0, 10, 3, dtype=xp.int64, device=d), [0, 5, 10]),
    (
        "promotion",
        lambda d: xp.add(
            xp.asarray([1], dtype=xp.int32, device=d), xp.asarray([7], dtype=xp.uint32, device=d)
        ),
        [8],
    ),
]


@pytest.mark.parametrize("name, make, values", FITS, ids=[c[0] for c in FITS])
def test_values_that_fit_are_narrowed_with_a_warning(narrow, name, make, values):
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning):
        out = make(narrow)
    assert out.dtype in (xp.int32, xp.float32)
    assert out.dtype == xp.asarray(out.native).dtype  # the label is the data's dtype
    np.testing.assert_allclose(xp.to_numpy(out), np.array(values, dtype=np.float64), rtol=1e-6)


def test_the_error_says_what_to_do(narrow):
    with xp.narrowing(), pytest.raises(OverflowError) as info:
        xp.full((2,), BIG, dtype=xp.int64, device=narrow)
    assert str(info.value).startswith(
        f"arraymux.full: the Python int {BIG} does not fit in arraymux.int32 (range "
        f"-2147483648 to 2147483647), the dtype that narrowing makes of arraymux.int64 on "
        f"{narrow}. Pass values that fit arraymux.int32, or use a device that holds "
        "arraymux.int64."
    )


def test_scalar_operands_are_checked_against_the_array(narrow):
    """A Python scalar takes the array's dtype (narrowed or not): one that does not fit
    raises, with narrowing on or off."""
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning):
        x = xp.ones(2, dtype=xp.int64, device=narrow)
    for mode in (True, False):
        with xp.narrowing(mode):
            for call in (lambda: x + BIG, lambda: BIG - x, lambda: xp.where(x > 0, x, BIG)):
                with pytest.raises(OverflowError, match=r"^arraymux\.\w+: the Python int"):
                    call()
            assert (x + 1).dtype is xp.int32


@pytest.mark.parametrize(
    "make",
    [
        lambda d: xp.full_like(xp.zeros(2, dtype=xp.int8, device=d), 300),
        lambda d: xp.full_like(xp.zeros(2, dtype=xp.int32, device=d), BIG),
        lambda d: xp.full_like(np.zeros(2, dtype=np.int8), 300, device=d),
        lambda d: xp.linspace(0, BIG, 3, dtype=xp.int32, device=d),
        lambda d: xp.linspace(-300, 0, 3, dtype=xp.int8, device=d),
    ],
    ids=["full_like int8", "full_like int32", "full_like moved", "linspace", "linspace int8"],
)
def test_python_ints_must_fit_the_result_dtype_without_narrowing_too(device, make):
    """The rule ``full`` and ``arange`` follow, for ``full_like`` and ``linspace``: JAX would
    wrap 300 to 44 in int8, NumPy fill a linspace with INT32_MIN."""
    with pytest.raises(OverflowError, match=r"^arraymux\.(full_like|linspace): the Python int"):
        make(device)
