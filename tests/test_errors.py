"""Mixed backends and devices through every dispatch rule, and inputs that are not arrays."""

from __future__ import annotations

import re

import numpy as np
import pytest

import arraymux as xp

NP = "numpy:cpu"
TORCH = "torch:cpu"


def _pair():
    x = xp.asarray([1.0, 2.0, 3.0], device=NP)
    y = xp.asarray([1.0, 2.0, 3.0], device=TORCH)
    return x, y


def _check_message(info: pytest.ExceptionInfo, fname: str, *parts: str) -> None:
    msg = str(info.value)
    assert f"arraymux.{fname}:" in msg, msg
    assert "to_device" in msg, msg
    for part in parts:
        assert part in msg, msg


def test_error_hierarchy():
    assert issubclass(xp.BackendMismatchError, TypeError)
    assert issubclass(xp.BackendMismatchError, xp.ArraymuxError)
    assert issubclass(xp.DeviceMismatchError, ValueError)
    assert issubclass(xp.DeviceMismatchError, xp.ArraymuxError)
    assert issubclass(xp.BackendUnavailableError, xp.ArraymuxError)
    assert issubclass(xp.UnsupportedDTypeError, xp.ArraymuxError)
    assert issubclass(xp.TransformUnavailableError, xp.ArraymuxError)


@pytest.mark.parametrize("fname", ["add", "multiply", "atan2", "less", "maximum", "matmul"])
def test_binary_functions(fname):
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError) as info:
        getattr(xp, fname)(x, y)
    _check_message(info, fname, "argument 1", "argument 0", TORCH, NP, f'"{NP}"')
    with pytest.raises(xp.BackendMismatchError) as info:
        getattr(xp, fname)(y, x)
    _check_message(
        info, fname, "argument 1 (x2) is on numpy:cpu", "argument 0 (x1) is on torch:cpu"
    )


def test_issue_example():
    x = xp.linspace(0, 1, 5, device="torch:cpu")
    y = xp.sin(x) * 2 + 1
    assert y.device == xp.Device("torch:cpu")
    z = xp.asarray([1.0, 2.0], device="jax:cpu")
    with pytest.raises(xp.BackendMismatchError) as info:
        y[:2] + z
    _check_message(info, "add", "torch:cpu", "jax:cpu:0")


@pytest.mark.parametrize(
    "op", ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!="]
)
def test_operators_both_ways(op):
    x, y = _pair()
    for a, b in ((x, y), (y, x)):
        with pytest.raises(xp.BackendMismatchError) as info:
            eval(f"a {op} b", {"a": a, "b": b})
        assert "to_device" in str(info.value)
        assert NP in str(info.value)
        assert TORCH in str(info.value)


def test_matmul_operator_both_ways():
    x = xp.ones((2, 2), device=NP)
    y = xp.ones((2, 2), device=TORCH)
    with pytest.raises(xp.BackendMismatchError):
        x @ y
    with pytest.raises(xp.BackendMismatchError):
        y @ x


def test_native_numpy_on_the_left():
    import torch

    y = xp.asarray([1.0, 2.0], device=TORCH)
    a = np.array([1.0, 2.0])
    with pytest.raises(xp.BackendMismatchError) as info:
        a + y
    _check_message(
        info, "add", "argument 0 (x1) is on numpy:cpu", "argument 1 (x2) is on torch:cpu"
    )
    with pytest.raises(xp.BackendMismatchError):
        a * y
    with pytest.raises(xp.BackendMismatchError):
        _ = a < y
    with pytest.raises(xp.BackendMismatchError):
        y + a
    with pytest.raises(xp.BackendMismatchError):
        torch.ones(2, dtype=torch.float64) + xp.asarray([1.0, 2.0])
    # the same backend on the left works and gives an arraymux Array
    r = a + xp.asarray([1.0, 1.0])
    assert type(r) is xp.Array
    assert xp.to_numpy(r).tolist() == [2.0, 3.0]
    r = a - xp.asarray([1.0, 1.0])
    assert type(r) is xp.Array


def test_in_place_operator_mismatch():
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError):
        x += y
    assert xp.to_numpy(x).tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("pos", [1, 2])
def test_where_three_operands(pos):
    x, y = _pair()
    args = [x > 1, x, x]
    args[pos] = y
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.where(*args)
    _check_message(
        info,
        "where",
        f"argument {pos} (x{pos}) is on torch:cpu",
        "argument 0 (condition) is on numpy:cpu",
    )


def test_where_condition_on_other_backend():
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.where(y > 1, x, x)
    _check_message(
        info, "where", "argument 1 (x1) is on numpy:cpu", "argument 0 (condition) is on torch:cpu"
    )


def test_clip_three_operands():
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.clip(x, y, None)
    _check_message(info, "clip", "argument 1", TORCH, NP)
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.clip(x, min=None, max=y)
    _check_message(info, "clip", "argument 'max'", TORCH, NP)
    assert xp.to_numpy(xp.clip(x, 1.5, 2.5)).tolist() == [1.5, 2.0, 2.5]


@pytest.mark.parametrize("fname", ["concat", "stack"])
def test_sequences_odd_one_at_position_2(fname):
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError) as info:
        getattr(xp, fname)([x, x, y])
    _check_message(info, fname, "arrays[2]", "arrays[0]", TORCH, NP)


def test_meshgrid_and_broadcast_arrays():
    x, y = _pair()
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.meshgrid(x, y)
    _check_message(info, "meshgrid", "argument 1", TORCH, NP)
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.broadcast_arrays(x, x, y)
    _check_message(info, "broadcast_arrays", "argument 2", TORCH, NP)


@pytest.mark.parametrize("fname", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_not_an_array(fname):
    args = (7,) if fname == "full_like" else ()
    with pytest.raises(TypeError, match=rf"arraymux.{fname}: argument 0 must be an array"):
        getattr(xp, fname)([1, 2], *args)
    # native arrays of any backend route to their own backend
    import torch

    r = getattr(xp, fname)(torch.ones(2), *args)
    assert r.device == xp.Device(TORCH)


def test_like_device_mismatch_inside_strict():
    x = xp.asarray([1.0], device="array_api_strict")
    r = xp.zeros_like(x, device="array_api_strict:device1")
    assert r.device == xp.Device("array_api_strict:device1")


def test_generic_take_and_searchsorted():
    x, y = _pair()
    idx = xp.asarray([0, 1], device=TORCH)
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.take(x, idx)
    _check_message(info, "take", "argument 1", TORCH, NP)
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.searchsorted(x, y)
    _check_message(info, "searchsorted", "argument 1", TORCH, NP)
    with pytest.raises(xp.BackendMismatchError):
        xp.take_along_axis(x, idx, axis=0)
    with pytest.raises(xp.BackendMismatchError):
        xp.linalg.solve(xp.eye(2), xp.ones((2,), device=TORCH))
    with pytest.raises(xp.BackendMismatchError):
        xp.tensordot(x, y, axes=1)
    with pytest.raises(xp.BackendMismatchError):
        xp.vecdot(x, y)
    with pytest.raises(xp.BackendMismatchError):
        xp.diff(x, prepend=y)


def test_mixed_devices_same_backend():
    a = xp.asarray([1.0, 2.0], device="array_api_strict")
    b = xp.asarray([1.0, 2.0], device="array_api_strict:device1")
    with pytest.raises(xp.DeviceMismatchError) as info:
        xp.add(a, b)
    assert isinstance(info.value, ValueError)
    _check_message(
        info,
        "add",
        "argument 1 (x2) is on array_api_strict:device1",
        "argument 0 (x1) is on array_api_strict:CPU_DEVICE",
        "another device",
    )
    with pytest.raises(xp.DeviceMismatchError):
        a + b
    with pytest.raises(xp.DeviceMismatchError):
        b * a
    with pytest.raises(xp.DeviceMismatchError) as info:
        xp.stack([a, a, b])
    _check_message(info, "stack", "arrays[2]")
    with pytest.raises(xp.DeviceMismatchError):
        xp.where(a > 1, a, b)
    with pytest.raises(xp.DeviceMismatchError):
        xp.clip(a, b, None)
    with pytest.raises(xp.DeviceMismatchError):
        a[b > 1]
    with pytest.raises(xp.DeviceMismatchError):
        a[0:2] = b


@pytest.mark.parametrize("bad", [[1.0, 2.0], "abc", object(), (1.0, 2.0)])
def test_not_arrays_nor_scalars(bad):
    x = xp.asarray([1.0, 2.0])
    with pytest.raises(
        TypeError, match=r"arraymux.add: argument 1 must be an array or a Python scalar"
    ):
        xp.add(x, bad)
    with pytest.raises(TypeError, match=r"arraymux.add: argument 0"):
        xp.add(bad, x)
    with pytest.raises(TypeError, match=r"arraymux.sin: argument 0 must be an array"):
        xp.sin(bad)
    with pytest.raises(TypeError, match=r"arraymux.sum"):
        xp.sum(bad)
    with pytest.raises(TypeError, match=re.escape("arrays[1]")):
        xp.concat([x, bad])
    with pytest.raises(TypeError, match=r"arraymux.where"):
        xp.where(x > 1, x, bad)
    with pytest.raises(TypeError):
        x + bad
    with pytest.raises(TypeError):
        x * bad


def test_operator_with_list_is_refused():
    x = xp.asarray([1.0, 2.0])
    for fn in (
        lambda: x + [1.0, 2.0],  # noqa: RUF005
        lambda: [1.0, 2.0] + x,  # noqa: RUF005
        lambda: x < "a",
        lambda: x * None,
    ):
        with pytest.raises(TypeError):
            fn()


class Unregistered:
    """An array-like type no backend registers."""

    shape = (2,)
    dtype = np.float64

    def __array__(self, dtype=None, copy=None):
        return np.array([1.0, 2.0])

    def __dlpack__(self, **kwargs):
        return np.array([1.0, 2.0]).__dlpack__(**kwargs)


def test_unregistered_array_type_is_refused():
    x = xp.asarray([1.0, 2.0])
    u = Unregistered()
    with pytest.raises(TypeError, match=r"Unregistered"):
        xp.add(x, u)
    with pytest.raises(TypeError, match=r"Unregistered"):
        xp.sin(u)
    with pytest.raises(TypeError):
        x + u
    with pytest.raises(TypeError, match=r"Unregistered"):
        xp.stack([x, u])
    with pytest.raises(TypeError):
        xp.zeros_like(u)
    with pytest.raises(TypeError):
        xp.to_numpy(u)


def test_numpy_scalar_is_taken_as_a_python_scalar():
    # NumPy scalars follow the standard's rule for Python scalars: the array's dtype wins.
    x = xp.asarray([1.0, 2.0], dtype=xp.float32, device=TORCH)
    for s in (np.float32(1.0), np.float64(1.0), np.int64(1)):
        assert xp.add(x, s).dtype is xp.float32
        assert xp.to_numpy(xp.add(s, x)).tolist() == [2.0, 3.0]


def test_axis_error_is_public_and_names_itself_so():
    with pytest.raises(xp.AxisError) as info:
        xp.sum(xp.ones((2, 2)), axis=2)
    assert isinstance(info.value, IndexError) and isinstance(info.value, ValueError)
    assert type(info.value).__module__ == "arraymux"


def test_a_closure_mismatch_inside_a_transform_shows_as_backend_mismatch():
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    import traceback

    # A closure of another backend's data (NumPy data would be a constant of the computation).
    w = xp.asarray([1.0, 2.0], dtype=xp.float32, device="jax:cpu")
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.grad(lambda x: xp.sum(x * w))(np.array([3.0, 4.0], dtype=np.float32))
    last = traceback.format_exception_only(type(info.value), info.value)[-1]
    assert last.startswith("arraymux.BackendMismatchError:"), last


def test_take_without_axis_refuses_arrays_of_several_dimensions(device):
    x = xp.ones((2, 2), device=device)
    with pytest.raises(ValueError, match=r"arraymux\.take: x has 2 dimensions; give the axis"):
        xp.take(x, xp.asarray([0], device=device))
    assert xp.take(x, xp.asarray([1], device=device), axis=1).shape == (2, 1)


def test_a_mismatch_explained_inside_a_transform_is_the_public_class():
    """The closure hint added inside a transform keeps the error exactly what users catch."""
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    a = xp.asarray([1.0, 2.0], dtype=xp.float32, device="jax:cpu")  # another backend
    w = xp.asarray([1.0, 2.0], device="torch:cpu")
    with pytest.raises(xp.BackendMismatchError) as info:
        xp.grad(lambda w: xp.sum(w * a))(w)
    assert type(info.value) is xp.BackendMismatchError
    assert "closure" in str(info.value)
    # An outer transform raises the inner one's explanation as it is, once.
    with pytest.raises(xp.BackendMismatchError) as outer:
        xp.grad(lambda w: xp.sum(xp.grad(lambda v: xp.sum(v * a))(w)))(w)
    assert type(outer.value) is xp.BackendMismatchError
    assert str(outer.value).count("closure") == 1


@pytest.mark.parametrize(
    ("fname", "call"),
    [
        ("zeros", lambda: xp.zeros(2, dtype="nope")),
        ("full", lambda: xp.full((2,), 1.0, dtype="nope")),
        ("ones", lambda: xp.ones((2, 2), dtype="float")),
        ("linspace", lambda: xp.linspace(0, 1, 3, dtype="x")),
        ("astype", lambda: xp.astype(np.asarray(1.0), "numpy")),
        ("astype", lambda: xp.astype(xp.asarray(1.0), "numpy")),
    ],
)
def test_a_dtype_name_that_names_none_names_the_function(fname, call):
    with pytest.raises(ValueError, match=rf"^arraymux\.{fname}: arraymux has no dtype named"):
        call()


def test_random_choices_given_as_arrays_are_refused_with_the_function_name():
    key = xp.random.key(0)
    with pytest.raises(ValueError, match=r"arraymux\.random\.gumbel: mode must be"):
        xp.random.gumbel(key, (2,), mode=np.array([1, None]))
    with pytest.raises(ValueError, match=r"arraymux\.random\.multivariate_normal: method must"):
        xp.random.multivariate_normal(key, xp.zeros(2), xp.eye(2), method=np.array(["a", "b"]))


def test_a_value_stored_into_an_array_of_a_lesser_kind_is_refused(device):
    """``x[k] = 1.5`` into an integer array, a float into a bool one, a complex into a real
    one: a TypeError naming ``Array.__setitem__`` on every device (NumPy, torch and JAX
    dropped the fraction or the imaginary part; array-api-strict refused it)."""
    for dtype, value in ((xp.int32, 1.5), (xp.int8, 2.0), (xp.bool, 0.5), (xp.float32, 1j)):
        x = xp.zeros(3, dtype=dtype, device=device)
        with pytest.raises(TypeError, match=r"arraymux\.Array\.__setitem__: cannot store"):
            x[1] = value
        assert not bool(xp.any(x != 0))  # nothing written
    x = xp.zeros(2, dtype=xp.float32, device=device)
    x[0] = 2  # an int into a float array, a float into a float or complex one: as before
    x[1] = 0.5
    assert xp.to_numpy(x).tolist() == [2.0, 0.5]


def test_an_array_stored_into_an_array_of_a_lesser_kind_is_refused(device):
    """NumPy's ``same_kind`` rule for ``x[k] = array``: a float array into an integer one, an
    integer array into a bool one, raise; an array of the same or a lesser kind is cast to
    ``x``'s dtype on every device (array-api-strict refused every other dtype; NumPy, torch,
    JAX and Dask cast floats into integers without a word)."""
    x = xp.zeros(2, dtype=xp.int32, device=device)
    with pytest.raises(TypeError, match=r"arraymux\.Array\.__setitem__: cannot store an array"):
        x[:] = xp.asarray([1.5, 2.5], dtype=xp.float32, device=device)
    b = xp.zeros(2, dtype=xp.bool, device=device)
    with pytest.raises(TypeError, match=r"arraymux\.Array\.__setitem__: cannot store an array"):
        b[:] = xp.asarray([1, 0], dtype=xp.int8, device=device)
    f = xp.zeros(2, dtype=xp.float32, device=device)
    f[:] = xp.asarray([1, 2], dtype=xp.int32, device=device)
    assert f.dtype == xp.float32 and xp.to_numpy(f).tolist() == [1.0, 2.0]
    i = xp.zeros(2, dtype=xp.int8, device=device)
    i[:] = xp.asarray([1, 300], dtype=xp.int32, device=device)  # wraps, as astype does
    assert i.dtype == xp.int8 and xp.to_numpy(i).tolist() == [1, 44]


def test_a_float_subclass_stored_into_an_integer_array_is_refused(device):
    """A subclass of float (the value of a user's own type) is a float for the rule too."""

    class Weight(float):
        pass

    x = xp.zeros(2, dtype=xp.int32, device=device)
    with pytest.raises(TypeError, match=r"arraymux\.Array\.__setitem__: cannot store"):
        x[0] = Weight(1.5)
    f = xp.zeros(2, dtype=xp.float32, device=device)
    f[0] = Weight(1.5)
    assert xp.to_numpy(f).tolist() == [1.5, 0.0]
