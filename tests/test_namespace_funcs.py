"""A representative function of every section of the standard on every device, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp

V = [3.0, 1.0, 2.0, 5.0]
M = [[4.0, 1.0], [1.0, 3.0]]


def _np(x):
    assert type(x) is xp.Array
    return xp.to_numpy(x)


def _close(x, expected, rtol=1e-5):
    np.testing.assert_allclose(_np(x), np.asarray(expected), rtol=rtol, atol=1e-5)


@pytest.fixture
def arrays(device):
    f = xp.float64 if device.supports(xp.float64) else xp.float32
    v = xp.asarray(V, dtype=f, device=device)
    m = xp.asarray(M, dtype=f, device=device)
    return device, v, m


def test_elementwise(arrays):
    _, v, _ = arrays
    a = np.asarray(V)
    _close(xp.exp(v), np.exp(a))
    _close(xp.sqrt(v), np.sqrt(a))
    _close(xp.atan2(v, v), np.arctan2(a, a))
    _close(xp.clip(v, 1.5, 4.0), np.clip(a, 1.5, 4.0))
    _close(xp.round(v / 2), np.round(a / 2))
    assert _np(xp.isnan(v)).tolist() == [False] * 4
    _close(xp.logaddexp(v, v), np.logaddexp(a, a))


def test_creation_and_like(arrays):
    device, v, _ = arrays
    assert _np(xp.zeros_like(v)).tolist() == [0.0] * 4
    assert xp.arange(3, device=device).device == device


def test_data_type_functions(arrays):
    _, v, _ = arrays
    i = xp.astype(v, xp.int32)
    assert i.dtype is xp.int32
    assert _np(i).tolist() == [3, 1, 2, 5]
    assert xp.result_type(v, xp.float32) is v.dtype


def test_indexing_functions(arrays):
    device, v, m = arrays
    idx = xp.asarray([3, 0], device=device)
    _close(xp.take(v, idx), [5.0, 3.0])
    j = xp.asarray([[1], [0]], device=device)
    _close(xp.take_along_axis(m, j, axis=1), [[1.0], [1.0]])


def test_linear_algebra_functions(arrays):
    _, v, m = arrays
    a = np.asarray(M)
    _close(xp.matmul(m, m), a @ a)
    _close(xp.matrix_transpose(m), a.T)
    _close(xp.vecdot(v, v), np.dot(V, V))
    _close(xp.tensordot(m, m, axes=1), np.tensordot(a, a, axes=1))


def test_manipulation_functions(arrays):
    _, v, m = arrays
    _close(xp.concat([v, v]), V + V)
    _close(xp.stack([v, v], axis=1), np.stack([V, V], axis=1))
    _close(xp.reshape(v, (2, 2)), np.reshape(V, (2, 2)))
    _close(xp.flip(v), V[::-1])
    _close(xp.expand_dims(v, axis=0), [V])
    _close(xp.broadcast_to(v, (2, 4)), [V, V])
    _close(xp.permute_dims(m, (1, 0)), np.asarray(M).T)
    _close(xp.roll(v, 1), np.roll(V, 1))
    assert xp.broadcast_shapes((2, 1), (1, 3)) == (2, 3)
    _, b = xp.broadcast_arrays(v, m[0:1, 0:1])
    assert b.shape == (1, 4)
    assert len(xp.unstack(m)) == 2


def test_searching_functions(arrays):
    device, v, _ = arrays
    assert int(xp.argmax(v)) == 3
    assert int(xp.argmin(v)) == 1
    _close(xp.where(v > 2, v, 0.0), np.where(np.asarray(V) > 2, V, 0.0))
    s = xp.sort(v)
    assert _np(xp.searchsorted(s, xp.asarray([2.5], dtype=v.dtype, device=device))).tolist() == [2]
    assert int(xp.count_nonzero(v > 2)) == 2


def test_set_functions(arrays):
    device, v, _ = arrays
    u = xp.unique_values(xp.concat([v, v]))
    assert u.shape == (len(set(V)),)
    _close(u, sorted(V))
    iv = xp.astype(v, xp.int32)
    r = xp.isin(iv, xp.asarray([1, 5], dtype=xp.int32, device=device))
    assert _np(r).tolist() == [False, True, False, True]


def test_sorting_functions(arrays):
    _, v, _ = arrays
    _close(xp.sort(v), sorted(V))
    assert _np(xp.argsort(v)).tolist() == np.argsort(V).tolist()
    _close(xp.sort(v, descending=True), sorted(V, reverse=True))


def test_statistical_functions(arrays):
    _, v, m = arrays
    _close(xp.sum(v), sum(V))
    _close(xp.mean(m, axis=0), np.mean(M, axis=0))
    _close(xp.std(v), np.std(V))
    _close(xp.max(v), 5.0)
    _close(xp.cumulative_sum(v), np.cumsum(V))
    _close(xp.prod(v), np.prod(V))


def test_utility_functions(arrays):
    _, v, _ = arrays
    assert bool(xp.all(v > 0))
    assert not bool(xp.any(v > 10))
    _close(xp.diff(v), np.diff(V))


def test_linalg_extension(arrays):
    _, v, m = arrays
    a = np.asarray(M)
    _close(xp.linalg.vector_norm(v), np.linalg.norm(V))
    _close(xp.linalg.matmul(m, m), a @ a)
    _close(xp.linalg.outer(v, v), np.outer(V, V))
    _close(xp.linalg.matrix_power(m, 3), np.linalg.matrix_power(a, 3), rtol=1e-4)
    _close(xp.linalg.inv(m), np.linalg.inv(a), rtol=1e-4)
    _close(xp.linalg.det(m), np.linalg.det(a), rtol=1e-4)
    _close(xp.linalg.cholesky(m), np.linalg.cholesky(a), rtol=1e-4)
    w = xp.linalg.eigvalsh(m)
    _close(w, np.linalg.eigvalsh(a), rtol=1e-4)
    r = xp.linalg.eigh(m)
    assert type(r).__name__ == "EighResult"
    _close(r.eigenvalues, np.linalg.eigvalsh(a), rtol=1e-4)


def test_fft_extension(arrays):
    _, v, _ = arrays
    c = xp.astype(v, xp.complex128 if v.dtype is xp.float64 else xp.complex64)
    r = xp.fft.fft(c)
    assert r.dtype.kind == "complex floating"
    np.testing.assert_allclose(_np(r), np.fft.fft(V), rtol=1e-4, atol=1e-4)
    _close(xp.fft.irfft(xp.fft.rfft(v), n=4), V, rtol=1e-4)
    _close(xp.fft.fftshift(v), np.fft.fftshift(V))


def test_info_namespace(device):
    info = xp.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) >= {"boolean indexing", "data-dependent shapes"}
    assert set(info.default_dtypes(device=device)) == {
        "real floating",
        "complex floating",
        "integral",
        "indexing",
    }


def test_from_dlpack_into_dask():
    if not any(d.backend == "dask" for d in xp.devices()):
        pytest.skip("needs dask")
    a = np.arange(4.0)
    r = xp.from_dlpack(a, device="dask")
    assert r.device == xp.Device("dask")
    np.testing.assert_array_equal(xp.to_numpy(r), a)


def test_a_function_a_backend_lacks_raises_a_clear_error():
    from arraymux._backends import _missing

    with pytest.raises(NotImplementedError, match=r"linalg\.foo is not available on the dask"):
        _missing("dask", "linalg.foo")(1)


@pytest.mark.parametrize("name", ["any", "all"])
def test_any_and_all_of_numpy_arrays_and_scalars_are_numpys(name):
    # NumPy's any and all are computed as the reductions the functions make (without their
    # layer of Python), on arrays and on the NumPy scalars of 0-d results: the same answers.
    ours, theirs = getattr(xp, name), getattr(np, name)
    cube = np.random.default_rng(0).random((3, 4, 5)) > 0.4
    cases = [cube, cube.astype(np.float32), np.zeros((0, 3)), np.asarray([np.nan, 0.0])]
    cases += [np.asarray([0j, 1j]), np.asarray(0.0), np.asarray(True)]
    for native in cases:
        axes = (
            [None, ()] + ([0, -1] if native.ndim else []) + ([(0, -1)] if native.ndim > 1 else [])
        )
        for axis in axes:
            for keepdims in (False, True):
                got = ours(xp.asarray(native), axis=axis, keepdims=keepdims)
                want = theirs(native, axis=axis, keepdims=keepdims)
                assert got.dtype is xp.bool
                np.testing.assert_array_equal(_np(got), want)
                assert _np(got).shape == np.shape(want), (native, axis, keepdims)
        whole = _np(ours(xp.asarray(native)))  # no axis given: every axis
        assert whole.shape == () and bool(whole) == bool(theirs(native)), native
    for value in (0.0, 2.5, np.nan):  # a 0-d element: NumPy's scalar inside
        element = xp.asarray([value, 1.0])[0]
        np.testing.assert_array_equal(_np(ours(element)), theirs(np.float64(value)))
