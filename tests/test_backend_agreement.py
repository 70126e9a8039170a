"""Calls that every backend accepts beyond the standard's signatures are accepted, with the
meaning they have everywhere; calls that some backend refuses are refused.

The two kinds, listed in ``arraymux._signatures`` and on docs/dispatch.md: keyword-only
parameters given by position (``xp.diff(x, 2)``, as scikit-learn's ``roc_curve`` calls it), and
0-d arrays where a Python number is expected (``xp.linspace(start, stop, n)`` with 0-d ends, as
SciPy's ``signal.freqs`` calls it). Every entry of both tables has a case here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import arraymux as xp
from arraymux._signatures import ALSO_POSITIONAL, ZERO_D

_M = [[1.0, 5.0, 3.0, 2.0], [4.0, 2.0, 7.0, 1.0], [0.5, 3.0, 1.0, 6.0]]


def _x(device: xp.Device) -> xp.Array:
    return xp.asarray(_M, device=device)


def _c(device: xp.Device) -> xp.Array:
    return xp.astype(_x(device), xp.complex64 if device.backend == "jax" else xp.complex128)


# name -> (function of the device -> (the call by position, the same call by keyword))
Pair = Callable[[xp.Device], tuple[Callable[[], Any], Callable[[], Any]]]


def _first(name: str, *values: Any, keywords: tuple[str, ...]) -> Pair:
    fn = xp.fft if name.startswith("fft.") else xp.linalg if name.startswith("linalg.") else xp
    f = getattr(fn, name.rsplit(".", 1)[-1])

    def pair(device: xp.Device) -> tuple[Callable[[], Any], Callable[[], Any]]:
        x = _c(device) if name in ("fft.irfft", "fft.hfft", "fft.irfftn") else _x(device)
        return (
            lambda: f(x, *values),
            lambda: f(x, **dict(zip(keywords, values, strict=True))),
        )

    return pair


POSITIONAL: dict[str, Pair] = {
    **{
        n: _first(n, 0, keywords=("axis",))
        for n in (
            "sum",
            "prod",
            "mean",
            "max",
            "min",
            "all",
            "any",
            "std",
            "var",
            "argmax",
            "argmin",
            "count_nonzero",
            "argsort",
            "sort",
        )
    },
    "diff": _first("diff", 2, 0, keywords=("n", "axis")),
    "roll": _first("roll", 1, 0, keywords=("shift", "axis")),
    "repeat": lambda d: (
        lambda: xp.repeat(_x(d), 2, 0),
        lambda: xp.repeat(_x(d), 2, axis=0),
    ),
    "take_along_axis": lambda d: (
        lambda: xp.take_along_axis(_x(d), xp.asarray([[1, 0, 2, 1]], device=d), 0),
        lambda: xp.take_along_axis(_x(d), xp.asarray([[1, 0, 2, 1]], device=d), axis=0),
    ),
    "stack": lambda d: (
        lambda: xp.stack([_x(d), _x(d)], 1),
        lambda: xp.stack([_x(d), _x(d)], axis=1),
    ),
    "tril": _first("tril", 1, keywords=("k",)),
    "triu": _first("triu", -1, keywords=("k",)),
    "tensordot": lambda d: (
        lambda: xp.tensordot(_x(d), xp.matrix_transpose(_x(d)), 1),
        lambda: xp.tensordot(_x(d), xp.matrix_transpose(_x(d)), axes=1),
    ),
    "linalg.qr": _first("linalg.qr", "complete", keywords=("mode",)),
    "linalg.svd": _first("linalg.svd", False, keywords=("full_matrices",)),
    **{
        n: _first(n, 4, 0, "ortho", keywords=("n", "axis", "norm"))
        for n in ("fft.fft", "fft.ifft", "fft.rfft", "fft.irfft", "fft.hfft", "fft.ihfft")
    },
    **{
        n: _first(n, (2, 2), (0, 1), "ortho", keywords=("s", "axes", "norm"))
        for n in ("fft.fftn", "fft.ifftn", "fft.rfftn", "fft.irfftn")
    },
    "fft.fftshift": _first("fft.fftshift", 0, keywords=("axes",)),
    "fft.ifftshift": _first("fft.ifftshift", 0, keywords=("axes",)),
    "fft.fftfreq": lambda d: (
        lambda: xp.fft.fftfreq(8, 0.5, device=d),
        lambda: xp.fft.fftfreq(8, d=0.5, device=d),
    ),
    "fft.rfftfreq": lambda d: (
        lambda: xp.fft.rfftfreq(8, 0.5, device=d),
        lambda: xp.fft.rfftfreq(8, d=0.5, device=d),
    ),
}


def _host(r: Any) -> Any:
    if isinstance(r, tuple):
        return [_host(v) for v in r]
    return xp.to_numpy(r)


def _same(a: Any, b: Any) -> None:
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for u, v in zip(a, b, strict=True):
            _same(u, v)
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def test_every_positional_case_is_tested():
    assert set(POSITIONAL) == set(ALSO_POSITIONAL)


@pytest.mark.parametrize("name", sorted(POSITIONAL))
def test_keyword_only_parameters_by_position(device, name):
    by_position, by_keyword = POSITIONAL[name](device)
    _same(_host(by_position()), _host(by_keyword()))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: xp.sum(x, 0, xp.float64), r"sum: takes 2 positional .* dtype="),
        (lambda x: xp.take(x, xp.asarray([0]), 0), r"take\W+takes 2 positional"),
        (lambda x: xp.concat([x, x], 0), r"concat: takes 1 positional"),
        (lambda x: xp.flip(x, 0), r"flip: takes 1 positional"),
        (lambda x: xp.cumulative_sum(x, 0), r"cumulative_sum: takes 1 positional"),
        (lambda x: xp.unstack(x, 0), r"unstack: takes 1 positional"),
        (lambda x: xp.searchsorted(x[0], x[0], "right"), r"searchsorted: takes 2 positional"),
        (lambda x: xp.vecdot(x, x, 0), r"vecdot: takes 2 positional"),
        (lambda x: xp.eye(3, 3, 1), r"eye: takes 2 positional"),
        (lambda x: xp.linspace(0, 1, 5, False), r"linspace: takes 3 positional"),
        (lambda x: xp.linalg.vector_norm(x, 1), r"vector_norm: takes 1 positional"),
        (lambda x: xp.diff(x, 1, 0, None), r"diff: takes 3 positional .* prepend="),
        (lambda x: xp.diff(x, 1, n=2), r"diff: got 'n' both by position and by keyword"),
    ],
)
def test_what_some_backend_refuses_by_position_is_refused(call, message):
    with pytest.raises(TypeError, match=message):
        call(_x(xp.Device("numpy")))


# (name, parameter) -> function of (device, value) for the parameter; called with a Python
# value and with a 0-d array of it, the results must be the same.
Case = Callable[[xp.Device, Any], Any]
_I = 1  # the int most cases take


def _axis(name: str) -> Case:
    f = getattr(xp, name)
    return lambda d, v: f(_x(d), axis=v)


ZERO_D_CASES: dict[tuple[str, str], tuple[Case, Any]] = {
    **{(n, "axis"): (_axis(n), 1) for n in ("sum", "prod", "mean", "max", "min", "all", "any")},
    **{(n, "axis"): (_axis(n), (1,)) for n in ("std", "var")},  # among the entries of a tuple
    **{
        (n, "correction"): (lambda d, v, n=n: getattr(xp, n)(_x(d), correction=v), 1.0)
        for n in ("std", "var")
    },
    **{
        (n, "axis"): (_axis(n), 0)
        for n in ("argmax", "argmin", "cumulative_sum", "cumulative_prod", "flip")
    },
    ("squeeze", "axis"): (lambda d, v: xp.squeeze(xp.expand_dims(_x(d), axis=0), axis=v), 0),
    ("expand_dims", "axis"): (lambda d, v: xp.expand_dims(_x(d), axis=v), 1),
    ("stack", "axis"): (lambda d, v: xp.stack([_x(d), _x(d)], axis=v), 1),
    ("concat", "axis"): (lambda d, v: xp.concat([_x(d), _x(d)], axis=v), 1),
    ("take", "axis"): (lambda d, v: xp.take(_x(d), xp.asarray([2, 0], device=d), axis=v), 1),
    ("repeat", "axis"): (lambda d, v: xp.repeat(_x(d), 2, axis=v), 1),
    ("vecdot", "axis"): (lambda d, v: xp.vecdot(_x(d), _x(d), axis=v), -2),
    ("linalg.vecdot", "axis"): (lambda d, v: xp.linalg.vecdot(_x(d), _x(d), axis=v), -2),
    ("roll", "shift"): (lambda d, v: xp.roll(_x(d), v), 2),
    ("roll", "axis"): (lambda d, v: xp.roll(_x(d), 1, axis=v), 1),
    ("moveaxis", "source"): (lambda d, v: xp.moveaxis(_x(d), v, 1), 0),
    ("moveaxis", "destination"): (lambda d, v: xp.moveaxis(_x(d), 0, v), 1),
    ("permute_dims", "axes[]"): (lambda d, v: xp.permute_dims(_x(d), (v, 0)), 1),
    **{(n, "shape"): (lambda d, v, n=n: getattr(xp, n)(v, device=d), 3) for n in ("zeros", "ones")},
    ("empty", "shape"): (lambda d, v: xp.empty((v, 2), device=d).shape, 3),
    ("full", "shape[]"): (lambda d, v: xp.full((v, 2), 1.5, device=d), 3),
    ("full", "fill_value"): (lambda d, v: xp.full(2, v, dtype=xp.float32, device=d), 1.5),
    ("full_like", "fill_value"): (lambda d, v: xp.full_like(_x(d), v), 1.5),
    ("reshape", "shape[]"): (lambda d, v: xp.reshape(_x(d), (v, -1)), 2),
    ("broadcast_to", "shape[]"): (lambda d, v: xp.broadcast_to(_x(d), (v, 3, 4)), 2),
    ("tile", "repetitions[]"): (lambda d, v: xp.tile(_x(d), (v, 1)), 2),
    ("eye", "n_rows"): (lambda d, v: xp.eye(v, device=d), 3),
    ("eye", "n_cols"): (lambda d, v: xp.eye(3, v, device=d), 4),
    ("eye", "k"): (lambda d, v: xp.eye(3, k=v, device=d), 1),
    ("arange", "start"): (lambda d, v: xp.arange(v, 9, 2, device=d), 1),
    ("arange", "stop"): (lambda d, v: xp.arange(0.5, v, device=d), 4.0),
    ("arange", "step"): (lambda d, v: xp.arange(0, 9, v, device=d), 2),
    ("linspace", "start"): (lambda d, v: xp.linspace(v, 2.0, 5, dtype=xp.float32, device=d), -1.0),
    ("linspace", "stop"): (lambda d, v: xp.linspace(0.0, v, 4, dtype=xp.float32, device=d), 3.0),
    ("linspace", "num"): (lambda d, v: xp.linspace(0.0, 1.0, v, device=d), 5),
    ("linalg.trace", "offset"): (lambda d, v: xp.linalg.trace(_x(d), offset=v), 1),
    ("linalg.vector_norm", "axis"): (lambda d, v: xp.linalg.vector_norm(_x(d), axis=v), 1),
    ("linalg.vector_norm", "ord"): (lambda d, v: xp.linalg.vector_norm(_x(d), ord=v), 3.0),
    **{
        (n, "n"): (lambda d, v, n=n: getattr(xp.fft, n[4:])(_x(d), n=v), 6)
        for n in ("fft.fft", "fft.ifft", "fft.rfft", "fft.hfft", "fft.ihfft")
    },
    ("fft.irfft", "n"): (lambda d, v: xp.fft.irfft(_c(d), n=v), 6),
    **{
        (n, "s[]"): (lambda d, v, n=n: getattr(xp.fft, n[4:])(_x(d), s=(v, 2), axes=(0, 1)), 2)
        for n in ("fft.fftn", "fft.ifftn", "fft.rfftn")
    },
    ("fft.irfftn", "s[]"): (lambda d, v: xp.fft.irfftn(_c(d), s=(v, 2), axes=(0, 1)), 2),
    ("fft.fftfreq", "d"): (lambda d, v: xp.fft.fftfreq(8, d=v, device=d), 0.5),
    ("fft.rfftfreq", "d"): (lambda d, v: xp.fft.rfftfreq(8, d=v, device=d), 0.5),
}


def test_every_zero_d_case_is_tested():
    listed = {(name, p) for name, params in ZERO_D.items() for p in params}
    assert set(ZERO_D_CASES) == listed


def _zero_d(device: xp.Device, value: Any) -> Any:
    """``value`` as a 0-d array of ``device`` (every entry of a tuple)."""
    if isinstance(value, tuple):
        return tuple(_zero_d(device, v) for v in value)
    dtype = xp.float32 if isinstance(value, float) else None
    return xp.asarray(value, dtype=dtype, device=device)


@pytest.mark.parametrize("case", sorted(ZERO_D_CASES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_zero_d_arrays_where_a_number_is_expected(device, case):
    fn, value = ZERO_D_CASES[case]
    want = fn(device, value)
    got = fn(device, _zero_d(device, value))
    if isinstance(want, tuple):  # a shape
        assert got == want
        return
    assert got.device == want.device
    a, b = xp.to_numpy(got), xp.to_numpy(want)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=1e-6)


def test_native_0d_arrays_of_another_backend_are_read_as_numbers():
    """A value read on the host (an axis, a size) may come from any backend, as a Python int
    would; it routes nothing."""
    torch = pytest.importorskip("torch")
    x = xp.asarray(_M, device="numpy")
    assert xp.to_numpy(xp.sum(x, axis=torch.tensor(0))).tolist() == np.sum(_M, axis=0).tolist()
    assert xp.zeros(torch.tensor(3)).device == xp.Device("numpy:cpu")


@pytest.mark.parametrize(
    "call",
    [
        lambda d: xp.count_nonzero(_x(d), axis=xp.asarray(0, device=d)),  # JAX refuses
        lambda d: xp.sort(_x(d), axis=xp.asarray(0, device=d)),  # JAX
        lambda d: xp.tril(_x(d), k=xp.asarray(1, device=d)),  # JAX
        lambda d: xp.diff(_x(d), n=xp.asarray(1, device=d)),  # JAX
        lambda d: xp.fft.fft(_x(d), axis=xp.asarray(0, device=d)),  # JAX
        lambda d: xp.fft.fftfreq(xp.asarray(8, device=d)),  # NumPy
        lambda d: xp.fft.fftshift(_x(d), axes=xp.asarray(0, device=d)),  # NumPy
        lambda d: xp.reshape(_x(d), xp.asarray(12, device=d)),  # torch
        lambda d: xp.full(xp.asarray(3, device=d), 1.0),  # torch
        lambda d: xp.sum(_x(d), axis=xp.asarray([0], device=d)),  # not 0-d
    ],
)
def test_what_some_backend_refuses_as_a_0d_array_is_refused(call):
    with pytest.raises(TypeError, match=r"arraymux\.\S+: .* (not an array|0-d array)"):
        call(xp.Device("numpy"))


# -- values kept on the device: linspace's ends, full's and full_like's fill values ----------


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128"])
def test_linspace_of_0d_ends_is_numpys(device, num, endpoint, dtype):
    """0-d ends (as SciPy's freqs gives them) give NumPy's values, in the floating dtype of
    the ends (NumPy's and JAX's rule; integer ends give the default real floating dtype)."""
    dt = getattr(xp, dtype)
    if not device.supports(dt):
        pytest.skip(f"{device} does not hold {dtype}")
    start, stop = (-1, 2) if dtype == "int64" else (-1.25, 2.5)
    if dtype == "complex128":
        start, stop = -1 + 2j, 2 - 0.5j
    a = xp.asarray(start, dtype=dt, device=device)
    b = xp.asarray(stop, dtype=dt, device=device)
    r = xp.linspace(a, b, num, endpoint=endpoint)
    want = np.linspace(np.asarray(start, dtype), np.asarray(stop, dtype), num, endpoint=endpoint)
    expected = (
        dt
        if dtype != "int64"
        else xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    )
    assert r.device == device and r.dtype == expected and r.shape == (num,)
    np.testing.assert_allclose(xp.to_numpy(r), want.astype(xp.to_numpy(r).dtype), rtol=1e-6)
    if endpoint and num > 1:
        assert xp.to_numpy(r)[-1] == xp.to_numpy(b)  # the last value is stop itself


def test_linspace_of_mixed_ends_and_a_dtype():
    a = xp.asarray(0.0, dtype=xp.float32, device="torch:cpu")
    r = xp.linspace(a, 1, 3)
    assert r.dtype == xp.float32 and r.device == xp.Device("torch:cpu")
    assert xp.to_numpy(r).tolist() == [0.0, 0.5, 1.0]
    r = xp.linspace(a, 10.0, 4, dtype=xp.int64)  # floored, then cast, as NumPy does
    assert xp.to_numpy(r).tolist() == np.linspace(0.0, 10.0, 4, dtype=np.int64).tolist()
    r = xp.linspace(a, 1j, 3)
    assert r.dtype == xp.complex64


def test_values_of_the_result_route_the_call():
    """An array holding a value of the result routes a creation function to its device;
    device= may name it, never another (arraymux does not move arrays)."""
    a = xp.asarray(0.0, device="torch:cpu")
    assert xp.linspace(a, 1.0, 3).device == xp.Device("torch:cpu")
    assert xp.full(2, a).device == xp.Device("torch:cpu")
    assert xp.arange(xp.asarray(3, device="torch:cpu")).device == xp.Device("torch:cpu")
    bound = xp.namespace(device="torch:cpu")
    assert bound.linspace(a, 1.0, 3).device == xp.Device("torch:cpu")
    with pytest.raises(xp.BackendMismatchError, match=r"'start' is on torch:cpu"):
        xp.linspace(a, 1.0, 3, device="numpy")
    with pytest.raises(xp.BackendMismatchError, match=r"'stop' is on numpy:cpu"):
        xp.linspace(a, xp.asarray(1.0, device="numpy"), 3)
    with pytest.raises(TypeError, match=r"start must be a Python number or a 0-d array"):
        xp.linspace(xp.asarray([0.0, 1.0], device="torch:cpu"), 1.0, 3)


def test_values_kept_on_the_device_are_not_read():
    """linspace, full and full_like with 0-d tensors never read them on the host (on a GPU,
    no synchronisation): every way torch has to read a tensor is made to fail."""
    torch = pytest.importorskip("torch")
    a = xp.asarray(1.0, dtype=xp.float32, device="torch:cpu")
    b = xp.asarray(3.0, dtype=xp.float32, device="torch:cpu")
    x = xp.zeros(3, dtype=xp.float32, device="torch:cpu")
    mp = pytest.MonkeyPatch()
    for name in ("item", "tolist", "numpy", "__bool__", "__float__", "__int__", "__index__"):

        def refuse(*args: Any, _name: str = name, **kwargs: Any) -> Any:
            raise AssertionError(f"torch.Tensor.{_name} was called")

        mp.setattr(torch.Tensor, name, refuse)
    try:
        r1 = xp.linspace(a, b, 5)
        r2 = xp.full((2, 2), b)
        r3 = xp.full_like(x, a)
    finally:
        mp.undo()
    assert xp.to_numpy(r1).tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]
    assert xp.to_numpy(r2).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert xp.to_numpy(r3).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("device_name", ["torch:cpu", "jax:cpu"])
def test_linspace_of_traced_ends_under_jit(device_name):
    """The ends are never read: linspace of arguments compiles."""
    pytest.importorskip(device_name.split(":")[0])
    a = xp.asarray(-1.0, dtype=xp.float32, device=device_name)
    f = xp.jit(lambda s, e: xp.linspace(s, e, 4))
    assert xp.to_numpy(f(a, a + 3)).tolist() == [-1.0, 0.0, 1.0, 2.0]


def test_full_takes_the_dtype_of_its_0d_fill_value(device):
    fill = xp.asarray(7, dtype=xp.int16, device=device)
    r = xp.full((2,), fill)
    assert r.dtype == xp.int16 and xp.to_numpy(r).tolist() == [7, 7]
    r = xp.full((2,), fill, dtype=xp.float32)
    assert r.dtype == xp.float32 and xp.to_numpy(r).tolist() == [7.0, 7.0]
    r = xp.full((2,), xp.asarray(True, device=device))
    assert r.dtype == xp.bool and xp.to_numpy(r).tolist() == [True, True]


def test_tile_refuses_an_int_and_negative_counts_alike(device):
    """``tile`` takes a tuple of counts of at least 0 on every backend: JAX took an int where
    the others refused it, and its error for a negative count was its compiler's (an
    ``MLIRError`` naming no function)."""
    x = xp.asarray([1, 2], dtype=xp.int32, device=device)
    for reps in (2, -1):
        with pytest.raises(TypeError, match=r"arraymux\.tile: repetitions must be a tuple"):
            xp.tile(x, reps)
    for reps in ((-1,), [2, -1], (0, -3)):
        with pytest.raises(ValueError, match=r"arraymux\.tile: repetitions .* at least 0"):
            xp.tile(x, reps)
    assert xp.tile(x, (2, 3)).shape == (2, 6) and xp.tile(x, ()).shape == (2,)
    assert xp.to_numpy(xp.tile(x, [0])).shape == (0,)


def test_repeat_refuses_negative_counts_in_an_array(device):
    """A negative count among an array of counts is refused on every backend (JAX gave an
    empty array for ``repeat([1.0, 2.0], [1, -1])``)."""
    x = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(ValueError, match=r"arraymux\.repeat.*negative"):
        xp.repeat(x, xp.asarray([1, -1], device=device))
    assert xp.to_numpy(xp.repeat(x, xp.asarray([2, 0], device=device))).tolist() == [1.0, 1.0]
