"""The shorter paths of the adapters give the answers of the functions they replace.

On the numpy device, ``mean``, ``prod``, ``max``, ``min``, ``argmax``, ``argmin``,
``permute_dims``, ``matrix_transpose`` and ``astype`` skip the Python steps of NumPy's functions
(``numpy.mean`` computes in Python around ``np.add.reduce``; ``numpy.max`` is
``np.maximum.reduce`` behind ``_wrapreduction``). These tests hold each against the NumPy
function it replaces, value for value and dtype for dtype, including the inputs where the
short path hands over to NumPy's own (empty slices, tuples of axes, errors).

On torch, ``take`` of a 1-D index is torch's indexing (one gather that counts negative indices
from the end) and ``vecdot`` is ``torch.linalg.vecdot``; their tests run on every device
against NumPy's answers.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraymux as xp


def _same(got: xp.Array, want: np.ndarray | np.generic) -> None:
    got_np = xp.to_numpy(got)
    want = np.asarray(want)
    assert got_np.dtype == want.dtype
    assert got_np.shape == want.shape
    np.testing.assert_array_equal(got_np, want, strict=True)


def _axes(ndim: int) -> list[int | None]:
    return [None, *range(-ndim, ndim)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mean_is_numpys_to_the_bit(dtype: str) -> None:
    rng = np.random.default_rng(7)
    for trial in range(150):
        ndim = int(rng.integers(0, 4))
        shape = tuple(int(n) for n in rng.integers(1, 30, ndim))
        scale = 10.0 ** int(rng.integers(-3, 6))
        a = (rng.standard_normal(shape) * scale + (1e4 if trial % 3 == 0 else 0)).astype(dtype)
        x = xp.asarray(a)
        for axis in _axes(ndim):
            for keepdims in (False, True):
                _same(xp.mean(x, axis=axis, keepdims=keepdims), a.mean(axis, keepdims=keepdims))


def test_mean_of_special_values_and_empty_slices_is_numpys() -> None:
    for values in ([np.inf, 1.0], [np.inf, -np.inf], [3e38, 3e38], [np.nan, 0.0]):
        a = np.asarray(values, np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _same(xp.mean(xp.asarray(a)), a.mean())
    a = np.zeros((0, 3), np.float32)
    x = xp.asarray(a)
    _same(xp.mean(x, axis=1), a.mean(axis=1))  # an empty result, no division
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = xp.mean(x, axis=0)  # NumPy's own path: NaN and its warning
    assert any("Mean of empty slice" in str(w.message) for w in caught)
    assert np.isnan(xp.to_numpy(got)).all()
    b = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    _same(xp.mean(xp.asarray(b), axis=(0, 2)), b.mean(axis=(0, 2)))
    with pytest.raises(xp.AxisError, match="axis 3 is out of range"):
        xp.mean(xp.asarray(b), axis=3)


@pytest.mark.parametrize(
    "name", ["prod", "max", "min", "argmax", "argmin"], ids=lambda n: f"xp.{n}"
)
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "float32", "float64", "bool"])
def test_reductions_are_numpys(name: str, dtype: str) -> None:
    if name in ("prod",) and dtype == "bool":
        pytest.skip("the standard's prod takes numbers")
    if name in ("argmax", "argmin") and dtype == "bool":
        pytest.skip("refused on every backend (torch refuses it): tests/test_refused_kinds.py")
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (4, 5)).astype(dtype)
    if dtype.startswith("float"):
        a[1, 2] = np.nan
    x = xp.asarray(a)
    want_fn = getattr(np, name)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # integer overflow in prod, as NumPy's
                _same(
                    getattr(xp, name)(x, axis=axis, keepdims=keepdims),
                    want_fn(a, axis=axis, keepdims=keepdims),
                )


def test_max_of_nothing_raises_as_numpy_does() -> None:
    with pytest.raises(ValueError, match="zero-size array"):
        xp.max(xp.asarray(np.zeros(0, np.float32)))
    with pytest.raises(ValueError, match=r"arraymux\.argmin on numpy:cpu: .*empty"):
        xp.argmin(xp.asarray(np.zeros(0, np.float32)))


def test_transposes_are_views_and_check_their_input() -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    x = xp.asarray(a)
    p = xp.permute_dims(x, (2, 0, 1))
    _same(p, a.transpose(2, 0, 1))
    assert np.shares_memory(xp.to_numpy(p), a)
    _same(xp.matrix_transpose(x), np.swapaxes(a, -1, -2))
    _same(x.mT, np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        xp.matrix_transpose(xp.asarray(np.ones(3)))
    with pytest.raises(ValueError, match="must name each of the 3 axes once"):
        xp.permute_dims(x, (0, 1))


def test_astype_copies_once_where_asked_and_never_where_not() -> None:
    a = np.arange(6, dtype=np.float32)
    x = xp.asarray(a)
    same = xp.astype(x, xp.float32)  # copy=True: a new array of the same values
    assert not np.shares_memory(xp.to_numpy(same), a)
    _same(same, a)
    view = xp.astype(x, xp.float32, copy=False)
    assert xp.to_numpy(view) is a
    wider = xp.astype(x, xp.float64)
    _same(wider, a.astype(np.float64))
    _same(xp.astype(x, "int16"), a.astype(np.int16))
    assert xp.astype(x, xp.complex64).dtype == xp.complex64
    with pytest.raises(ValueError, match="no dtype named 'not a dtype'"):
        xp.astype(x, "not a dtype")


def test_take_counts_negative_indices_from_the_end(device: xp.Device) -> None:
    a = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    x = xp.asarray(a, device=device)
    for dtype in ("int8", "int32", "int64", "uint8"):
        if not device.supports(getattr(xp, dtype)):
            continue
        values = [0, 2] if dtype == "uint8" else [1, -1, -4, 0]
        k = xp.asarray(values, dtype=getattr(xp, dtype), device=device)
        _same(xp.take(x, k, axis=1), np.take(a, values, axis=1))
        _same(xp.take(x, k[:2] if dtype != "uint8" else k, axis=-2), np.take(a, values[:2], axis=0))
    flat = xp.asarray(np.arange(5.0, dtype=np.float32), device=device)
    _same(
        xp.take(flat, xp.asarray([-1, 0, -5], device=device)), np.array([4.0, 0.0, 0.0], np.float32)
    )
    with pytest.raises(ValueError, match="give the axis to take along"):
        xp.take(x, xp.asarray([0], device=device))


@pytest.mark.parametrize("axis", [-1, -2])
def test_vecdot_is_the_standards_on_every_device(device: xp.Device, axis: int) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((4,) if axis == -1 else (3, 1)).astype(np.float32)
    want = np.sum(a * b, axis=axis)
    got = xp.vecdot(xp.asarray(a, device=device), xp.asarray(b, device=device), axis=axis)
    np.testing.assert_allclose(xp.to_numpy(got), want, rtol=1e-5, atol=1e-6)
    assert got.dtype == xp.float32
    if device.supports(xp.complex64):
        c = (a + 1j * a[::-1]).astype(np.complex64)
        got = xp.vecdot(xp.asarray(c, device=device), xp.asarray(c, device=device))
        np.testing.assert_allclose(xp.to_numpy(got), np.sum(np.conj(c) * c, axis=-1), rtol=1e-5)
    ints = xp.asarray(np.arange(6, dtype=np.int32).reshape(2, 3), device=device)
    assert xp.to_numpy(xp.vecdot(ints, ints)).tolist() == [5, 50]
    with pytest.raises(ValueError, match=r"arraymux\.vecdot"):
        xp.vecdot(xp.asarray(a, device=device), xp.asarray(a[:, :3], device=device))


def test_mT_is_matrix_transpose_on_every_device(device: xp.Device) -> None:
    """``x.mT`` takes the backend's own ``.mT`` where it has one: matrix_transpose's values,
    dtype and device, and its error for fewer than two axes."""
    x = xp.reshape(xp.arange(24, dtype=xp.int16, device=device), (2, 3, 4))
    got, want = x.mT, xp.matrix_transpose(x)
    assert (got.shape, got.dtype, got.device) == (want.shape, want.dtype, want.device)
    np.testing.assert_array_equal(xp.to_numpy(got), xp.to_numpy(want))
    m = xp.reshape(xp.arange(6.0, device=device), (2, 3))
    np.testing.assert_array_equal(xp.to_numpy(m.mT), xp.to_numpy(m.T))
    with pytest.raises(ValueError, match=r"arraymux\.matrix_transpose on .*at least (2|two)"):
        _ = xp.arange(3, device=device).mT


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("sum", {"axis": 1}),
        ("sum", {"axis": -1, "keepdims": True}),
        ("mean", {"axis": 0}),
        ("mean", {"axis": -2, "keepdims": True}),
        ("prod", {"axis": 1}),
        ("prod", {"axis": 0, "keepdims": True}),
        ("std", {"axis": 1}),
        ("std", {"axis": 0, "correction": 1}),
        ("var", {"axis": 1, "correction": 0.5, "keepdims": True}),
        ("var", {"axis": 0, "correction": 3}),  # N - correction <= 0: NaN
        ("cumulative_sum", {"axis": 1}),
        ("cumulative_sum", {"axis": 0, "include_initial": True}),
        ("cumulative_prod", {"axis": -1}),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8"])
def test_reductions_along_one_axis_agree_with_numpy(
    device: xp.Device, name: str, kwargs: dict, dtype: str
) -> None:
    """Reductions along one int axis (torch's own kernels there) give the NumPy device's
    values and dtypes, integer and bool operands included."""
    if dtype != "float32" and name in ("mean", "std", "var"):
        pytest.skip("the standard's mean, std and var take floating-point arrays")
    if not device.supports(getattr(xp, dtype)) or not device.supports(xp.float32):
        pytest.skip(f"{device} does not hold {dtype}")
    a = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    fn = getattr(xp, name)
    want = fn(xp.asarray(a), **kwargs)
    got = fn(xp.asarray(a, device=device), **kwargs)
    assert got.device == device
    if device.supports(want.dtype):
        assert got.dtype == want.dtype
    else:  # JAX without 64-bit mode: its default integers, 32 bits
        assert got.dtype.kind == want.dtype.kind
    np.testing.assert_allclose(xp.to_numpy(got), xp.to_numpy(want), rtol=1e-6)


def test_negative_steps_take_no_exception_on_the_way(device: xp.Device) -> None:
    """Slices with negative steps give NumPy's values on every device; on torch, which
    refuses them, the adapter flips the axes at once (no exception raised and caught)."""
    import sys

    a = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    x = xp.asarray(a, device=device)
    keys = [
        (slice(None, None, -1), Ellipsis),
        (slice(None), slice(None, None, -2), Ellipsis),
        (1, Ellipsis, slice(3, 0, -1)),
    ]
    events: list[str] = []
    sys.setprofile(lambda frame, event, arg: events.append(event))
    try:
        got = [x[k] for k in keys]
    finally:
        sys.setprofile(None)
    for k, g in zip(keys, got):
        np.testing.assert_array_equal(xp.to_numpy(g), a[k])
        assert g.device == device
    if device.backend == "torch":
        assert "c_exception" not in events and "exception" not in events


@pytest.mark.parametrize(
    "dtype",
    ["bool", "int8", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "complex64"],
)
def test_eye_is_numpys_on_every_device(device: xp.Device, dtype: str) -> None:
    """torch's ``eye`` is ``torch.eye`` for the main diagonal (one kernel), and the zeros
    with a filled diagonal elsewhere and for the unsigned dtypes torch.eye refuses."""
    if not device.supports(getattr(xp, dtype)):
        pytest.skip(f"{device} has no {dtype}")
    for args, k in [((3,), 0), ((3, 5), 0), ((5, 3), 0), ((4, 2), 1), ((4, 2), -3), ((0,), 0)]:
        got = xp.eye(*args, k=k, dtype=getattr(xp, dtype), device=device)
        assert got.device == device
        _same(got, np.eye(*args, k=k, dtype=dtype))
