"""Opt-in narrowing of 64-bit dtypes on a device that cannot hold them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import arraymux as xp


@pytest.fixture
def narrow_device():
    """A device without 64-bit dtypes: array-api-strict's ``no_x64`` (JAX without x64
    behaves the same)."""
    pytest.importorskip("array_api_strict")
    return xp.Device("array_api_strict:no_x64")


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
    with xp.narrowing(), pytest.warns(xp.NarrowingWarning, match=f"narrowed to {narrow.name}"):
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
