"""Creation functions on every device, compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp


def _np(x):
    assert type(x) is xp.Array
    return xp.to_numpy(x)


def test_basic_creation(device):
    assert _np(xp.zeros((2, 3), device=device)).tolist() == np.zeros((2, 3)).tolist()
    assert _np(xp.ones(3, dtype=xp.int8, device=device)).tolist() == [1, 1, 1]
    assert xp.ones(3, dtype=xp.int8, device=device).dtype is xp.int8
    assert _np(xp.full((2,), 4, device=device)).tolist() == [4, 4]
    assert _np(xp.arange(1, 7, 2, device=device)).tolist() == [1, 3, 5]
    np.testing.assert_allclose(_np(xp.linspace(0, 1, 5, device=device)), np.linspace(0, 1, 5))
    assert _np(xp.eye(3, k=1, device=device)).tolist() == np.eye(3, k=1).tolist()
    assert xp.empty((2, 2), device=device).shape == (2, 2)


def test_tril_triu(device):
    m = xp.reshape(xp.arange(9, device=device), (3, 3))
    ref = np.arange(9).reshape(3, 3)
    assert _np(xp.tril(m)).tolist() == np.tril(ref).tolist()
    assert _np(xp.triu(m, k=1)).tolist() == np.triu(ref, k=1).tolist()


def test_meshgrid(device):
    a = xp.asarray([1, 2, 3], device=device)
    b = xp.asarray([4, 5], device=device)
    gx, gy = xp.meshgrid(a, b)
    rx, ry = np.meshgrid([1, 2, 3], [4, 5])
    assert _np(gx).tolist() == rx.tolist()
    assert _np(gy).tolist() == ry.tolist()
    assert gx.device == device
    ix, _ = xp.meshgrid(a, b, indexing="ij")
    assert ix.shape == (3, 2)


def test_asarray_python_data(device):
    x = xp.asarray([[1, 2], [3, 4]], device=device)
    assert x.dtype is xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    assert _np(x).tolist() == [[1, 2], [3, 4]]
    b = xp.asarray([True, False], device=device)
    assert b.dtype is xp.bool
    s = xp.asarray(2.5, device=device)
    assert s.shape == ()
    assert float(s) == 2.5
    c = xp.asarray([1 + 2j], device=device)
    assert c.dtype.kind == "complex floating"


def test_asarray_dtype_and_copy(device):
    x = xp.asarray([1, 2], dtype=xp.float32, device=device)
    assert x.dtype is xp.float32
    y = xp.asarray(x, dtype=xp.int16)
    assert y.dtype is xp.int16
    assert y.device == device
    z = xp.asarray(x, copy=True)
    assert z is not x
    assert _np(z).tolist() == [1.0, 2.0]


def test_arange_with_step_by_keyword_and_no_stop(device):
    """``arange(10, step=3)``: ``step`` after a missing ``stop`` stays a keyword (it was
    passed on as ``stop``, giving an empty array)."""
    assert _np(xp.arange(10, step=3, device=device)).tolist() == [0, 3, 6, 9]
    assert _np(xp.arange(1, 10, step=4, device=device)).tolist() == [1, 5, 9]
    assert _np(xp.arange(5.0, step=2.5, device=device)).tolist() == [0.0, 2.5]
    assert _np(xp.arange(883022, step=2**40, device=device)).tolist() == [0]


@pytest.mark.parametrize("copy", [None, False])
def test_asarray_of_its_own_dtype_is_the_same_array(device, copy):
    """``asarray(x, dtype=x.dtype, copy=False)`` is ``x`` itself, so a later ``x[...] = v``
    shows through it on every backend (JAX's writes rebind the Array's data)."""
    x = xp.asarray([1, 2], dtype=xp.uint8, device=device)
    y = xp.asarray(x, dtype=xp.uint8, copy=copy)
    assert y is x
    x[0] = 7
    assert _np(y).tolist() == [7, 2]


def test_asarray_moves_between_backends():
    x = xp.asarray(np.arange(3.0), device="torch:cpu")
    assert x.device == xp.Device("torch:cpu")
    assert xp.to_numpy(x).tolist() == [0.0, 1.0, 2.0]


def test_from_dlpack():
    import torch

    t = torch.arange(3.0)
    x = xp.from_dlpack(t)
    assert x.device == xp.Device("torch:cpu")  # stays on the producer's device
    assert x.native.data_ptr() == t.data_ptr()
    assert xp.to_numpy(x).tolist() == [0.0, 1.0, 2.0]
    z = xp.from_dlpack(t, copy=True)
    assert z.native.data_ptr() != t.data_ptr()
    y = xp.from_dlpack(np.arange(2.0), device="torch:cpu")
    assert y.device == xp.Device("torch:cpu")
    with pytest.raises(TypeError, match="__dlpack__"):
        xp.from_dlpack([1, 2])


def test_fft_freq(device):
    f = xp.fft.fftfreq(4, device=device)
    np.testing.assert_allclose(_np(f), np.fft.fftfreq(4))
    assert f.device == device
    np.testing.assert_allclose(
        _np(xp.fft.rfftfreq(4, d=0.5, device=device)), np.fft.rfftfreq(4, 0.5)
    )


def test_default_device_routes_creation():
    with xp.default_device("dask"):
        assert xp.arange(3).device == xp.Device("dask")
        assert xp.asarray([1]).device == xp.Device("dask")
        # native arrays keep their own device
        assert xp.asarray(np.arange(2)).device == xp.Device("numpy:cpu")


def test_asarray_copy_false_refuses_a_cast_on_every_device(device):
    """No silent copy where none was asked for: the same ValueError on every backend (JAX
    would copy, NumPy and torch raise errors of their own)."""
    x = xp.ones(3, dtype=xp.float32, device=device)
    with pytest.raises(
        ValueError, match=r"arraymux.asarray: casting .*float32 to .*int32 needs a copy"
    ):
        xp.asarray(x, dtype=xp.int32, copy=False)
    with pytest.raises(ValueError, match="Python values always needs a copy"):
        xp.asarray([1.0, 2.0], device=device, copy=False)
    assert xp.asarray(x, dtype=xp.float32, copy=False) is x  # nothing to copy
