"""Dtypes: promotion identical on every device, scalars, inspection, native dtypes, errors."""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp

# (left, right) -> result, from the standard's promotion table (a representative subset).
PROMOTIONS = [
    ("int8", "uint8", "int16"),
    ("uint8", "int8", "int16"),
    ("int16", "uint8", "int16"),
    ("int8", "uint16", "int32"),
    ("uint16", "int32", "int32"),
    ("int8", "int32", "int32"),
    ("uint8", "uint16", "uint16"),
    ("bool", "bool", "bool"),
    ("float32", "complex64", "complex64"),
]
PROMOTIONS_64 = [
    ("uint32", "int8", "int64"),
    ("uint8", "uint64", "uint64"),
    ("float32", "float64", "float64"),
    ("float64", "complex64", "complex128"),
    ("int64", "uint32", "int64"),
]


def _ones(dtype_name: str, device: xp.Device) -> xp.Array:
    return xp.ones(3, dtype=getattr(xp, dtype_name), device=device)


@pytest.mark.parametrize(("a", "b", "expected"), PROMOTIONS + PROMOTIONS_64)
def test_promotion_table_same_on_every_device(device, a, b, expected):
    needed = [getattr(xp, n) for n in (a, b, expected)]
    if not all(device.supports(dt) for dt in needed):
        pytest.skip(f"{device} does not hold all of {a}, {b}, {expected}")
    x, y = _ones(a, device), _ones(b, device)
    result = xp.add(x, y) if a != "bool" else xp.logical_and(x, y)
    assert result.dtype is getattr(xp, expected)
    assert result.device == device
    assert xp.result_type(getattr(xp, a), getattr(xp, b)) is getattr(xp, expected)
    assert xp.result_type(x, y) is getattr(xp, expected)
    if a != "bool":
        assert (x + y).dtype is getattr(xp, expected)
        assert xp.multiply(y, x).dtype is getattr(xp, expected)
        assert xp.to_numpy(x + y).tolist() == [2, 2, 2]


def test_uint64_with_signed_has_no_common_dtype(device):
    if not device.supports(xp.uint64):
        pytest.skip("no 64-bit integers here")
    x, y = _ones("uint64", device), _ones("int8", device)
    with pytest.raises(TypeError, match=r"arraymux.add"):
        xp.add(x, y)
    with pytest.raises(TypeError):
        xp.result_type(xp.uint64, xp.int64)


def test_python_scalars(device):
    f = xp.float32
    x = xp.asarray([1.0, 2.0], dtype=f, device=device)
    assert (x + 1).dtype is f
    assert (x * 2.5).dtype is f
    assert (2.5 * x).dtype is f
    assert (x > 1).dtype is xp.bool
    i8 = xp.asarray([1, 2], dtype=xp.int8, device=device)
    assert (i8 + 1).dtype is xp.int8
    assert (1 + i8).dtype is xp.int8
    assert xp.to_numpy(i8 - 3).tolist() == [-2, -1]
    u8 = xp.asarray([1, 2], dtype=xp.uint8, device=device)
    assert (u8 + True).dtype is xp.uint8
    assert xp.to_numpy(u8 + 2).tolist() == [3, 4]
    with pytest.raises(OverflowError, match=r"does not fit in arraymux.int8"):
        i8 + 1000
    with pytest.raises(OverflowError):
        u8 - 300
    c = x + 1j
    assert c.dtype is xp.complex64
    np.testing.assert_allclose(xp.to_numpy(c), [1 + 1j, 2 + 1j])


def test_int_array_with_float_scalar_gives_default_float(device):
    i = xp.asarray([1, 2], dtype=xp.int32, device=device)
    r = i * 1.5
    defaults = xp.__array_namespace_info__().default_dtypes(device=device)
    assert r.dtype is defaults["real floating"]
    assert xp.to_numpy(r).tolist() == [1.5, 3.0]


def test_result_type_and_can_cast():
    assert xp.result_type(xp.float32, 1.0) is xp.float32
    assert xp.result_type(xp.int16, 1) is xp.int16
    assert xp.result_type(xp.int8, xp.uint8, xp.int32) is xp.int32
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, 1.5)
    with pytest.raises(ValueError):
        xp.result_type(1, 2)
    assert xp.can_cast(xp.int8, xp.int16)
    assert xp.can_cast(xp.uint8, xp.int16)
    assert not xp.can_cast(xp.int16, xp.int8)
    assert not xp.can_cast(xp.float64, xp.float32)
    assert not xp.can_cast(xp.int64, xp.uint64)
    assert xp.can_cast(xp.float32, xp.complex64)
    assert xp.can_cast(xp.asarray([1], dtype=xp.int8), xp.int64)


def test_result_type_of_two_agrees_with_the_general_rule():
    """Two arrays or dtypes, or one and a Python int or float, take a short path: it gives the
    answer (or the error) of the general rule, which a repeated argument forces."""
    dtypes = [getattr(xp, n) for n in ("bool", "int8", "uint8", "int16", "uint16", "int32")]
    dtypes += [getattr(xp, n) for n in ("uint32", "int64", "uint64", "float32", "float64")]
    dtypes += [xp.complex64, xp.complex128]
    array = xp.ones(2, dtype=xp.float32)
    others: list[object] = [*dtypes, 1, 1.0, True, 1j, array]
    for a in [*dtypes, array]:
        for b in others:
            try:
                want: object = xp.result_type(a, b, b)
            except TypeError as e:
                want = type(e)
            try:
                got: object = xp.result_type(a, b)
            except TypeError as e:
                got = type(e)
            assert got == want, (a, b)
    with pytest.raises(TypeError, match=r"arraymux\.result_type: a Python float does not fit"):
        xp.result_type(xp.ones(2, dtype=xp.int32), 1.0)
    with pytest.raises(TypeError, match="no common dtype"):
        xp.result_type(xp.uint64, xp.int64)


def test_isdtype():
    assert xp.isdtype(xp.float32, "real floating")
    assert not xp.isdtype(xp.float32, "integral")
    assert xp.isdtype(xp.uint8, "integral")
    assert xp.isdtype(xp.int8, "numeric")
    assert not xp.isdtype(xp.bool, "numeric")
    assert xp.isdtype(xp.complex64, ("bool", "complex floating"))
    assert xp.isdtype(xp.int8, xp.int8)
    assert not xp.isdtype(xp.int8, xp.int16)
    with pytest.raises(ValueError, match=r"unknown dtype kind"):
        xp.isdtype(xp.int8, "integer")


def test_finfo_iinfo():
    f = xp.finfo(xp.float32)
    assert f.bits == 32
    assert f.eps == pytest.approx(float(np.finfo(np.float32).eps))
    assert f.max == pytest.approx(float(np.finfo(np.float32).max))
    assert f.dtype is xp.float32
    assert xp.finfo(xp.complex128).bits == 64
    assert xp.finfo(xp.asarray([1.0])).bits == 64
    # Answers are kept per dtype: the same object again, from a dtype, an array or a name.
    assert xp.finfo(xp.float32) is f
    assert xp.finfo(xp.ones(2, dtype=xp.float32)) is f
    assert xp.finfo("float32") == f
    assert xp.finfo(xp.complex64).dtype is xp.float32
    i = xp.iinfo(xp.int8)
    assert (i.min, i.max, i.bits, i.dtype) == (-128, 127, 8, xp.int8)
    assert xp.iinfo(xp.uint64).max == 2**64 - 1
    with pytest.raises(TypeError):
        xp.finfo(xp.int8)
    with pytest.raises(TypeError):
        xp.iinfo(xp.float32)


def test_native_dtypes_accepted():
    import array_api_strict
    import jax.numpy as jnp
    import torch

    for native in (np.float32, np.dtype("float32"), torch.float32, jnp.float32, "float32"):
        x = xp.zeros(2, dtype=native)
        assert x.dtype is xp.float32, native
    assert xp.zeros(2, dtype=array_api_strict.int16).dtype is xp.int16
    assert xp.zeros(2, dtype=torch.int8, device="torch:cpu").native.dtype == torch.int8
    assert xp.asarray([1, 2], dtype=np.uint8, device="torch:cpu").dtype is xp.uint8
    assert xp.isdtype(torch.float64, "real floating")
    assert xp.can_cast(np.int8, torch.int16)
    assert xp.astype(xp.asarray([1.5]), torch.int32).dtype is xp.int32
    with pytest.raises(TypeError, match=r"Python type"):
        xp.zeros(2, dtype=float)
    with pytest.raises(TypeError, match=r"not a dtype"):
        xp.zeros(2, dtype=object())


def test_native_dtypes_accepted_before_their_backend_loads():
    """A backend's dtype is known in a fresh process before any array of that backend exists
    (``np.float32`` as the first ``dtype=`` of a program was "not a dtype arraymux knows"
    until NumPy's backend had loaded), and ``asarray`` names itself in a bad dtype's error."""
    from _child import assert_child_ok

    code = """
import numpy as np, torch
import arraymux as xp
assert xp.asarray([1, 2], dtype=np.float32).dtype is xp.float32
assert xp.asarray(xp.asarray([1.0]), dtype=torch.int16).dtype is xp.int16
try:
    xp.asarray([1], dtype=...)
except TypeError as e:
    assert str(e).startswith("arraymux.asarray: dtype=Ellipsis is not a dtype"), e
else:
    raise AssertionError("no error")
print("ok")
"""
    assert_child_ok(code)


def test_an_object_of_no_library_is_no_dtype():
    """An object whose class names no module (or a module no backend has) is no dtype: the
    lookup of the library that defines a dtype reads ``__module__`` without trusting it."""
    odd = type("Odd", (), {})
    odd.__module__ = None  # type: ignore[assignment]
    for obj in (odd(), odd, type("Elsewhere", (), {"__module__": "not_a_library.sub"})()):
        with pytest.raises(TypeError, match=r"arraymux\.zeros: dtype=.* is not a dtype"):
            xp.zeros(2, dtype=obj)


def test_dtype_objects():
    assert repr(xp.float32) == "arraymux.float32"
    assert xp.DType("int8") is xp.int8
    assert xp.float32 == xp.float32
    assert xp.float32 != xp.float64
    assert hash(xp.float32) == hash(xp.float32)
    assert xp.complex128.bits == 128
    assert xp.uint16.itemsize == 2
    with pytest.raises(ValueError, match=r"no dtype"):
        xp.DType("float16")
    with pytest.raises(AttributeError):
        xp.float32._name = "x"  # type: ignore[misc]
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(xp.int8)) is xp.int8
    assert copy.deepcopy(xp.int8) is xp.int8


def test_astype(device):
    x = xp.asarray([1.7, -2.5], dtype=xp.float32, device=device)
    y = xp.astype(x, xp.int32)
    assert y.dtype is xp.int32
    assert y.device == device
    assert xp.to_numpy(y).tolist() == [1, -2]
    assert xp.astype(x, xp.float32, copy=False).dtype is xp.float32


def test_dtypes_info(device):
    info = xp.__array_namespace_info__()
    dts = info.dtypes(device=device)
    assert dts["float32"] is xp.float32
    integral = {f"{kind}{bits}" for kind in ("int", "uint") for bits in (8, 16, 32, 64)}
    assert set(info.dtypes(device=device, kind="integral")) <= integral
    defaults = info.default_dtypes(device=device)
    assert xp.zeros(1, device=device).dtype is defaults["real floating"]
    assert xp.arange(3, device=device).dtype is defaults["integral"]


# -- dtypes a device cannot hold -------------------------------------------------------------


@pytest.fixture
def jax_x32():
    import jax

    if jax.config.read("jax_enable_x64"):
        pytest.skip("jax runs with x64 enabled here")
    return xp.Device("jax:cpu")


def test_jax_without_x64_float64_raises(jax_x32):
    with pytest.raises(xp.UnsupportedDTypeError, match=r"jax_enable_x64") as info:
        xp.zeros(3, dtype=xp.float64, device=jax_x32)
    assert isinstance(info.value, xp.ArraymuxError)
    assert "arraymux.zeros" in str(info.value)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.asarray([1.0], dtype=xp.float64, device=jax_x32)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.asarray(np.arange(3.0), device=jax_x32)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.asarray(np.zeros(2, dtype=np.int64), device=jax_x32)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.astype(xp.ones(2, device=jax_x32), xp.float64)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.to_device(xp.asarray([1.0]), jax_x32)
    assert not jax_x32.supports(xp.float64)
    assert "float64" not in xp.__array_namespace_info__().dtypes(device=jax_x32)
    # 32-bit data is fine
    x = xp.asarray(np.arange(3, dtype=np.float32), device=jax_x32)
    assert x.dtype is xp.float32
    assert xp.asarray([1.0, 2.0], device=jax_x32).dtype is xp.float32


def test_strict_no_float64_raises():
    d = xp.Device("array_api_strict:no_float64")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"no_float64"):
        xp.ones(2, dtype=xp.float64, device=d)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.asarray([1.0, 2.0], dtype=xp.float64, device=d)
    with pytest.raises(xp.UnsupportedDTypeError):
        xp.asarray(np.arange(2.0), device=d)
    assert xp.ones(2, dtype=xp.float32, device=d).dtype is xp.float32
