"""Dispatch: routing by the first array operand, native arrays, and what is refused."""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp


def _native(device: xp.Device, values: object, dtype: object = None) -> object:
    return xp.asarray(values, dtype=dtype, device=device).native


def test_native_arrays_are_arrays_of_their_backend(device):
    a = _native(device, [1.0, 2.0, 3.0], xp.float32)
    r = xp.sin(a)
    assert type(r) is xp.Array
    assert r.device == device
    np.testing.assert_allclose(xp.to_numpy(r), np.sin([1.0, 2.0, 3.0]), rtol=1e-6)
    s = xp.add(a, xp.asarray([1.0, 1.0, 1.0], dtype=xp.float32, device=device))
    assert type(s) is xp.Array
    assert xp.to_numpy(s).tolist() == [2.0, 3.0, 4.0]
    t = xp.sum(a)
    assert type(t) is xp.Array
    assert float(t) == 6.0
    c = xp.concat([a, a])
    assert type(c) is xp.Array
    assert c.shape == (6,)
    assert type(xp.zeros_like(a)) is xp.Array
    assert type(xp.where(a > 1.5, a, 0.0)) is xp.Array
    assert type(xp.add(a, 1)) is xp.Array
    assert type(xp.add(1, a)) is xp.Array


def test_asarray_native_wraps_without_copy(device):
    a = _native(device, [1.0, 2.0], xp.float32)
    x = xp.asarray(a)
    assert x.device == device
    assert x._native is a
    assert xp.asarray(x) is x
    assert xp.asarray(a, device=device)._native is a


def test_asarray_numpy_shares_memory():
    a = np.arange(3.0)
    x = xp.asarray(a)
    assert x.native is a
    a[0] = 42.0
    assert float(x[0]) == 42.0
    y = xp.asarray(a, copy=True)
    a[0] = 0.0
    assert float(y[0]) == 42.0


def test_asarray_torch_shares_memory():
    import torch

    t = torch.arange(3.0)
    x = xp.asarray(t)
    assert x.native is t
    assert x.device == xp.Device("torch:cpu")


def test_results_keep_device_and_dtype(device):
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32, device=device)
    for r in (xp.exp(x), x @ x, xp.matmul(x, x), xp.mean(x, axis=0), xp.reshape(x, (4,))):
        assert type(r) is xp.Array
        assert r.device == device
        assert r.dtype is xp.float32


def test_named_tuple_results(device):
    x = xp.asarray([3, 1, 3, 2], device=device)
    r = xp.unique_counts(x)
    assert type(r).__name__ == "UniqueCountsResult"
    assert type(r.values) is xp.Array
    assert xp.to_numpy(r.values).tolist() == [1, 2, 3]
    assert xp.to_numpy(r.counts).tolist() == [1, 1, 2]


def test_two_python_scalars_refused():
    with pytest.raises(TypeError, match=r"two Python scalars"):
        xp.add(1, 2)


def test_creation_refuses_arrays_where_a_backend_does():
    with pytest.raises(TypeError, match=r"not an array"):
        xp.zeros(xp.asarray([3]))
    with pytest.raises(TypeError, match=r"not every backend takes a 0-d array"):
        xp.full(xp.asarray(3), 1.0)  # torch takes a 0-d array among the sizes only


def test_sequence_needs_a_sequence_of_arrays():
    x = xp.asarray([1.0])
    with pytest.raises(TypeError, match=r"tuple or list"):
        xp.concat(x)
    with pytest.raises(ValueError, match=r"at least one array"):
        xp.stack([])
    with pytest.raises(TypeError, match=r"arrays\[1\]"):
        xp.concat([x, [2.0]])


def test_like_uses_input_device(device):
    x = xp.asarray([1, 2, 3], dtype=xp.int32, device=device)
    for fn in (xp.zeros_like, xp.ones_like, xp.empty_like):
        r = fn(x)
        assert r.device == device
        assert r.dtype is xp.int32
        assert r.shape == (3,)
    f = xp.full_like(x, 7)
    assert xp.to_numpy(f).tolist() == [7, 7, 7]
    assert xp.zeros_like(x, dtype=xp.float32).dtype is xp.float32


def test_like_with_other_device():
    x = xp.asarray([1.0, 2.0])
    r = xp.ones_like(x, device="torch:cpu")
    assert r.device == xp.Device("torch:cpu")
    assert xp.to_numpy(r).tolist() == [1.0, 1.0]


def test_creation_routes_by_device(device):
    for r in (
        xp.zeros((2, 3), device=device),
        xp.ones(2, device=device),
        xp.full(2, 3.0, device=device),
        xp.arange(4, device=device),
        xp.linspace(0.0, 1.0, 3, device=device),
        xp.eye(2, device=device),
        xp.asarray([1, 2], device=device),
        xp.empty(2, device=device),
    ):
        assert type(r) is xp.Array
        assert r.device == device
    assert xp.to_numpy(xp.linspace(0.0, 1.0, 3, device=device)).tolist() == [0.0, 0.5, 1.0]
    assert xp.zeros(2, device=str(device)).device == device


def test_asarray_nested_arrays(device):
    a = xp.asarray(1.0, device=device)
    r = xp.asarray([a, 2.0], device=device)
    assert xp.to_numpy(r).tolist() == [1.0, 2.0]


def test_asarray_bad_input():
    for bad in ("abc", b"abc", None):
        with pytest.raises(TypeError, match=r"arraymux.asarray"):
            xp.asarray(bad)
    with pytest.raises(TypeError):
        xp.asarray(object())


def test_where_fast_path_matches_the_checking_path(device):
    from arraymux._dispatch import call

    x = xp.asarray([1.0, -2.0, 3.0], dtype=xp.float32, device=device)
    y = xp.asarray([0.5, 0.5, 0.5], dtype=xp.float32, device=device)
    i = xp.asarray([1, 2, 3], dtype=xp.int8, device=device)
    m = x > 0
    cases = [
        (m, x, y),
        (m, x, 0.0),
        (m, 2.5, x),
        (m, x, 3),
        (m, i, 7),
        (m, i, x),  # promoted: the checking path
        (m, i, 0.5),  # int8 with a float: the default float
        (m, m, False),
    ]
    for c, a, b in cases:
        got = xp.where(c, a, b)
        slow = call("where", (c, a, b), {})
        assert got.device == x.device
        assert got.dtype == slow.dtype
        assert xp.to_numpy(got).tolist() == xp.to_numpy(slow).tolist()
        np.testing.assert_array_equal(
            xp.to_numpy(got),
            np.where(
                xp.to_numpy(c),
                xp.to_numpy(a) if isinstance(a, xp.Array) else a,
                xp.to_numpy(b) if isinstance(b, xp.Array) else b,
            ),
        )
    assert xp.where(m, i, 7).dtype == xp.int8
    with pytest.raises(OverflowError, match=r"arraymux\.where"):
        xp.where(m, i, 1000)
