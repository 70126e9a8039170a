"""Creation functions on every device, compared with NumPy."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

import arraymux as xp
from _child import assert_child_ok


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


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [
        (0, 20, 1),
        (5, 2, 1),
        (-3, 4, 1),
        (7, 7, 1),
        (0, 10, 2),
        (10, 0, -3),
        (0, 10, -1),
        (-(2**31), -(2**31) + 3, 1),
        (2**31 - 2, 2**31, 1),
        (2**31 - 1, 2**31 - 10, -4),
        (3, -(2**31), -(2**30)),
    ],
)
def test_arange_of_ints_takes_the_default_integer_dtype(device, start, stop, step):
    """``arange(start, stop)`` and ``arange(start, stop, step)`` of Python ints (their own
    short path): NumPy's values in the device's default integer dtype, empty ranges included,
    beside the general path's answer (``step=`` by keyword takes it)."""
    calls = [xp.arange(start, stop, step, device=device)]
    if step == 1:
        calls.append(xp.arange(start, stop, device=device))
    general = xp.arange(start, stop, step=step, device=device)
    integral = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    for got in calls:
        assert got.device == device and got.dtype == integral == general.dtype
        assert _np(got).tolist() == _np(general).tolist() == np.arange(start, stop, step).tolist()
    with pytest.raises(ValueError, match=r"arraymux\.arange: step must not be 0"):
        xp.arange(start, stop, 0, device=device)


def test_arange_of_ints_skips_the_general_checks(device, monkeypatch):
    from arraymux import _creation_functions

    def general(*args: object) -> None:
        raise AssertionError("arange(start, stop) of small ints took the general path")

    monkeypatch.setattr(_creation_functions, "_check_creation", general)
    assert _np(xp.arange(-2, 3, device=device)).tolist() == [-2, -1, 0, 1, 2]
    assert _np(xp.arange(6, -2, -3, device=device)).tolist() == [6, 3, 0]
    with pytest.raises(AssertionError, match="general path"):
        xp.arange(0, 3, step=1, device=device)


def test_arange_of_other_numbers_keeps_the_general_answers(device):
    """NumPy ints and floats among ``arange``'s numbers take the general path, with NumPy's
    values; bad numbers raise errors naming the function, as before the short path."""
    assert _np(xp.arange(np.int64(1), 4, device=device)).tolist() == [1, 2, 3]
    assert _np(xp.arange(0, 3, np.int16(1), device=device)).tolist() == [0, 1, 2]
    assert _np(xp.arange(0.5, 3, 1, device=device)).tolist() == [0.5, 1.5, 2.5]
    for bad in [(0, 3, 0), (0, float("nan")), (0, 3, float("inf")), (0j, 3), (0, "3")]:
        with pytest.raises((ValueError, TypeError), match=r"arraymux\.arange"):
            xp.arange(*bad, device=device)


def test_arange_of_ints_from_many_threads_at_once(device):
    from concurrent.futures import ThreadPoolExecutor

    cases = [(a, b, s) for a in (-5, 0, 7) for b in (-4, 3, 20) for s in (1, 2, -3)]

    def run(case: tuple[int, int, int]) -> bool:
        got = xp.arange(*case, device=device)
        return got.device == device and _np(got).tolist() == np.arange(*case).tolist()

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(run, cases * 8))


def test_arange_of_two_ints_beyond_int32_takes_the_general_path(device):
    """Bounds that a 32-bit default integer dtype may not hold go through the general checks:
    the same values where the device's default holds them, its error where not."""
    integral = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    if integral == xp.int64:
        assert _np(xp.arange(2**31, 2**31 + 2, device=device)).tolist() == [2**31, 2**31 + 1]
    else:
        with pytest.raises((OverflowError, xp.UnsupportedDTypeError), match=r"arraymux\.arange"):
            xp.arange(2**31, 2**31 + 2, device=device)


@pytest.mark.parametrize(
    ("args", "dtype"),
    [
        ((3.5,), "int32"),
        ((3.5,), "uint32"),
        ((0.5, 5, 1.3), "int16"),
        ((5.5, 0, -1.5), "int32"),
        ((2.7, 300.2, 7.9), "uint16"),
        ((1, 7.0, 2), "int8"),
        ((0, 1, 0.25), "int32"),
        ((-0.5, 3.0), "int8"),
    ],
)
def test_arange_of_floats_in_an_integer_dtype_counts_as_numpy(device, args, dtype):
    """``arange`` with a float bound or step in an integer dtype: ``ceil((stop - start) /
    step)`` values, NumPy's (torch cut the bounds to ints first: ``arange(3.5, dtype=int32)``
    had three values and ``arange(0.5, 5, 1.3, dtype=int16)`` was ``[0, 1, 3, 4]``; JAX cut
    the step). Where the first two values truncate to one int, NumPy repeats it."""
    if not device.supports(getattr(xp, dtype)):
        pytest.skip(f"{device} has no {dtype}")
    got = _np(xp.arange(*args, dtype=getattr(xp, dtype), device=device))
    assert got.dtype == np.dtype(dtype)
    assert got.tolist() == np.arange(*args, dtype=dtype).tolist()


def test_arange_of_floats_below_an_unsigned_dtype_is_refused(device):
    """Negative float bounds in an unsigned dtype: the error that int bounds give, naming
    the function, on every device (torch and JAX wrapped them around, Dask's error named no
    function)."""
    with pytest.raises(OverflowError, match=r"arraymux\.arange: .*-3 does not fit in"):
        xp.arange(-3.5, 2.0, 0.5, dtype=xp.uint8, device=device)
    with pytest.raises(OverflowError, match=r"arraymux\.arange: .*259 does not fit in"):
        xp.arange(250.5, 260.0, dtype=xp.uint8, device=device)


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize(
    ("args", "dtype"),
    [
        ((-3.7, 3.7, 5), "int16"),
        ((-2.5, 2.5, 7), "int32"),
        ((0.5, 3.5, 4), "int8"),
        ((0, 10, 4), "int32"),
        ((0, 256, 4), "uint16"),
        ((0.5, 250.9, 3), "uint8"),
    ],
)
def test_linspace_in_an_integer_dtype_rounds_down_as_numpy(device, args, dtype, endpoint):
    """NumPy's float64 values rounded toward -inf (NumPy 2, JAX, Dask, array-api-strict);
    torch truncated its own values (``[-3, -1, 0, 1, 3]`` for ``[-4, -2, 0, 1, 3]``, and
    ``-1`` in the middle of ``linspace(-2.5, 2.5, 7)``)."""
    if not device.supports(getattr(xp, dtype)):
        pytest.skip(f"{device} has no {dtype}")
    got = _np(xp.linspace(*args, dtype=getattr(xp, dtype), device=device, endpoint=endpoint))
    assert got.dtype == np.dtype(dtype)
    assert got.tolist() == np.linspace(*args, dtype=dtype, endpoint=endpoint).tolist()


def test_linspace_ends_beyond_an_integer_dtype_are_refused(device):
    """The first and last values (rounded down) must fit the dtype, as ints given for the
    ends must (NumPy wrapped ``-4`` to 252 in uint8, JAX clipped it to 0)."""
    with pytest.raises(OverflowError, match=r"arraymux\.linspace: .*-4 does not fit in"):
        xp.linspace(-3.7, 3.7, 5, dtype=xp.uint8, device=device)
    with pytest.raises(OverflowError, match=r"arraymux\.linspace: .*256 does not fit in"):
        xp.linspace(0, 256, 4, dtype=xp.uint8, device=device)
    # without the end point, the last value is 192
    assert _np(xp.linspace(0, 256, 4, dtype=xp.uint8, device=device, endpoint=False)).tolist() == [
        0,
        64,
        128,
        192,
    ]


def test_a_float_fill_value_in_an_integer_dtype(device):
    """``full``/``full_like`` truncate a float fill value toward zero where it fits, and
    refuse NaN, infinities and values beyond the dtype on every device (NumPy filled
    ``-2**31`` for ``1e10`` in int32 and 44 for ``300.0`` in uint8; torch refused ``-0.5`` in
    uint8 with a RuntimeError)."""
    assert _np(xp.full((2,), 2.7, dtype=xp.int32, device=device)).tolist() == [2, 2]
    assert _np(xp.full((2,), -0.5, dtype=xp.uint8, device=device)).tolist() == [0, 0]
    assert _np(xp.full((2,), -2.9, dtype=xp.int8, device=device)).tolist() == [-2, -2]
    u8 = xp.asarray([1, 2], dtype=xp.uint8, device=device)
    assert _np(xp.full_like(u8, 2.9)).tolist() == [2, 2]
    with pytest.raises(ValueError, match=r"arraymux\.full: cannot store the float nan"):
        xp.full((2,), float("nan"), dtype=xp.int32, device=device)
    with pytest.raises(ValueError, match=r"arraymux\.full: cannot store the float inf"):
        xp.full((2,), float("inf"), dtype=xp.int16, device=device)
    with pytest.raises(
        OverflowError, match=r"arraymux\.full: the Python float 10000000000\.0 does"
    ):
        xp.full((2,), 1e10, dtype=xp.int32, device=device)
    with pytest.raises(OverflowError, match=r"arraymux\.full: the Python float 300\.0 does"):
        xp.full((3,), 300.0, dtype=xp.uint8, device=device)
    with pytest.raises(OverflowError, match=r"arraymux\.full_like: the Python float -1\.5"):
        xp.full_like(u8, -1.5)


@pytest.mark.parametrize(
    ("data", "dtype"),
    [([-1], "uint8"), (-1, "uint8"), ([[1], [-1]], "uint16"), ([300], "uint8"), ([128], "int8")],
)
def test_asarray_of_python_ints_beyond_an_integer_dtype_is_refused(device, data, dtype):
    """``OverflowError`` on every device (torch wrapped ``-1`` to 255 in uint8 and uint16,
    and said ``RuntimeError`` of 300)."""
    if not device.supports(getattr(xp, dtype)):
        pytest.skip(f"{device} has no {dtype}")
    with pytest.raises(OverflowError, match=r"arraymux\.asarray.*out of bounds for"):
        xp.asarray(data, dtype=getattr(xp, dtype), device=device)


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
    bound = xp.namespace(device=device).fft
    for fn in (xp.fft.fftfreq, xp.fft.rfftfreq, bound.fftfreq, bound.rfftfreq):
        with pytest.raises(TypeError, match=r"fftfreq: n must be an int, not NoneType"):
            fn(None)  # required (the transforms' n=None is the input's length)
    assert xp.fft.fft(xp.ones(4, device=device), n=None).shape == (4,)


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


# -- where the result lies, and what it is made of ---------------------------------------------

_ON_JAX_DEVICE_1 = """
import numpy as np
import arraymux as xp

D = "jax:cpu:1"
x = xp.asarray([1.0, 2.0], device=D)
x0 = xp.asarray([1.0, 2.0], device="jax:cpu:0")
m = xp.reshape(xp.arange(9.0, device=D), (3, 3))
made = {
    "zeros_like": xp.zeros_like(x),
    "ones_like": xp.ones_like(x),
    "empty_like": xp.empty_like(x),
    "full_like": xp.full_like(x, 2.0),
    "full_like int": xp.full_like(x, 3, dtype=xp.int32),
    "full_like numpy scalar": xp.full_like(x, np.float32(3.0)),
    "zeros_like of a native": xp.zeros_like(x.native),
    "zeros_like device=": xp.zeros_like(x0, device=D),
    "full_like device=": xp.full_like(x0, 2.0, device=D),
    "ones_like from numpy": xp.ones_like(np.ones(2, np.float32), device=D),
    "asarray of an Array": xp.asarray(x0, device=D),
    "asarray of a native": xp.asarray(x0.native, device=D),
    "asarray of a list": xp.asarray([1.0, 2.0], device=D),
    "asarray of 0-d Arrays": xp.asarray([x[0], x[1]], device=D),
    "asarray of numpy": xp.asarray(np.ones(2, np.float32), device=D),
    "asarray copy": xp.asarray(x, copy=True),
    "asarray dtype": xp.asarray(x, dtype=xp.int32),
    "from_dlpack": xp.from_dlpack(x),
    "from_dlpack device=": xp.from_dlpack(np.ones(2, np.float32), device=D),
    "arange": xp.arange(5, device=D),
    "linspace": xp.linspace(0, 1, 5, device=D),
    "eye": xp.eye(3, k=1, device=D),
    "zeros": xp.zeros(3, device=D),
    "ones": xp.ones(3, device=D),
    "empty": xp.empty(3, device=D),
    "full": xp.full(3, 2.0, device=D),
    "tril": xp.tril(m),
    "triu": xp.triu(m, k=1),
    "meshgrid": xp.meshgrid(x, x)[1],
    "fftfreq": xp.fft.fftfreq(4, device=D),
    "full_like of a 0-d fill value": xp.full_like(x, xp.asarray(3.0, device=D)),
    "full of a 0-d fill value": xp.full(3, xp.asarray(3.0, device=D)),
    "linspace of 0-d ends": xp.linspace(xp.asarray(0.0, device=D), x[1], 5),
}
for name, r in made.items():
    where = [d.id for d in r.native.devices()]
    assert str(r.device) == D, (name, r.device)
    assert where == [1], (name, where)
# A fill value elsewhere is refused (JAX would put the result where the fill value lies,
# jax:cpu:0, whatever the label says), and so is one that is not 0-d.
for fill in (x0.native, np.ones(2, np.float32), x0[0]):
    try:
        xp.full_like(x, fill)
    except xp.ArraymuxError as e:
        assert str(e).startswith("arraymux.full_like: argument 'fill_value' is on"), e
    else:
        raise AssertionError(f"full_like took a fill value of another device {type(fill)}")
try:
    xp.full_like(x, x)
except TypeError as e:
    assert "fill_value must be a Python number or a 0-d array" in str(e), e
else:
    raise AssertionError("full_like took a 1-d fill value")
print("ok")
"""


def test_creation_on_jax_device_1_lands_there():
    """Every creation function asked for jax:cpu:1 (by device= or by an input there) puts its
    data there, as the label says (read from the native array, not from the label)."""
    pytest.importorskip("jax")
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2")
    for pure in ("0", "1"):
        env["ARRAYMUX_PURE_PYTHON"] = pure
        assert_child_ok(_ON_JAX_DEVICE_1, env=env)


def test_full_like_takes_a_0d_fill_value_of_its_device(device):
    """A 0-d array as the fill value, as every backend takes one: on the result's device,
    cast to the result's dtype there; one elsewhere or not 0-d is refused."""
    x = xp.ones(3, dtype=xp.float32, device=device)
    r = xp.full_like(x, xp.asarray(2, dtype=xp.int32, device=device))
    assert r.device == device and r.dtype == xp.float32
    assert _np(r).tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(TypeError, match=r"fill_value must be a Python number or a 0-d array"):
        xp.full_like(x, x.native[:1])
    if device.backend != "numpy":
        with pytest.raises(xp.BackendMismatchError, match=r"'fill_value' is on numpy:cpu"):
            xp.full_like(x, np.asarray(2.0))
    assert _np(xp.full_like(x, np.float32(2.0))).tolist() == [2.0, 2.0, 2.0]  # a NumPy scalar


class _Producer:
    """A DLPack producer of no backend arraymux knows."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def _foreign_natives():
    out = [
        pytest.param(lambda: np.array(["a", "b"]), "<U1", id="numpy-str"),
        pytest.param(lambda: np.ones(2, np.float16), "float16", id="numpy-float16"),
        pytest.param(
            lambda: np.array(["2020-01-01"], "datetime64[D]"), "datetime64", id="numpy-datetime"
        ),
    ]
    if importlib.util.find_spec("torch") is not None:
        out.append(
            pytest.param(
                lambda: __import__("torch").ones(2, dtype=__import__("torch").bfloat16),
                "bfloat16",
                id="torch-bfloat16",
            )
        )
    if importlib.util.find_spec("jax") is not None:
        out.append(
            pytest.param(
                lambda: __import__("jax.numpy").numpy.ones(2, "bfloat16"),
                "bfloat16",
                id="jax-bfloat16",
            )
        )
    return out


_TAKING_NATIVES = [
    pytest.param(fname, kwargs, id=f"{fname}{'-' if kwargs else ''}{'-'.join(kwargs)}")
    for fname in ("asarray", "zeros_like", "ones_like", "empty_like", "full_like", "from_dlpack")
    for kwargs in ({}, {"device": "numpy"}, {"dtype": xp.float32})
    if not (fname == "from_dlpack" and "dtype" in kwargs)
]


@pytest.mark.parametrize(("make", "dtype_name"), _foreign_natives())
@pytest.mark.parametrize(("fname", "kwargs"), _TAKING_NATIVES)
def test_natives_of_a_dtype_arraymux_lacks_are_refused(make, dtype_name, fname, kwargs):
    """The same TypeError from every function that takes a native (asarray's), before any
    work: a wrapped float16 or string array would fail later at .dtype, far from the cause."""
    native = make()
    args = (1,) if fname == "full_like" else ()
    with pytest.raises(TypeError, match=rf"arraymux\.{fname}: an array of dtype .*{dtype_name}"):
        getattr(xp, fname)(native, *args, **kwargs)


def test_from_dlpack_refuses_a_foreign_producer_of_a_dtype_arraymux_lacks():
    producer = _Producer(np.ones(3, np.float16))
    for device in ("numpy", "dask") if importlib.util.find_spec("dask") else ("numpy",):
        with pytest.raises(TypeError, match=r"arraymux\.from_dlpack: .*float16"):
            xp.from_dlpack(producer, device=device)
    r = xp.from_dlpack(_Producer(np.arange(3.0)), device="numpy")
    assert _np(r).tolist() == [0.0, 1.0, 2.0]


_ALIGNED_ON_NUMPY = {
    "zeros": (lambda: xp.zeros((3, 5), device="numpy"), np.zeros((3, 5))),
    "zeros large": (lambda: xp.zeros(100_000, device="numpy"), np.zeros(100_000)),
    "ones": (lambda: xp.ones(7, dtype=xp.int8, device="numpy"), np.ones(7, np.int8)),
    "empty": (lambda: xp.empty((2, 3), dtype=xp.float32, device="numpy"), None),
    "empty large": (lambda: xp.empty(50_000, device="numpy"), None),
    "full": (lambda: xp.full((2, 2), 7, device="numpy"), np.full((2, 2), 7)),
    "full complex": (lambda: xp.full(3, 1j, device="numpy"), np.full(3, 1j)),
    "arange": (lambda: xp.arange(1, 1000, 3, device="numpy"), np.arange(1, 1000, 3)),
    "arange large": (
        lambda: xp.arange(100_003, -5, -7, device="numpy"),
        np.arange(100_003, -5, -7),
    ),
    "arange large int32": (
        lambda: xp.arange(40_000, dtype=xp.int32, device="numpy"),
        np.arange(40_000, dtype=np.int32),
    ),
    "arange float": (lambda: xp.arange(0.5, 10_000.0, device="numpy"), np.arange(0.5, 10_000.0)),
    "linspace": (lambda: xp.linspace(0, 1, 11, device="numpy"), np.linspace(0, 1, 11)),
    "eye": (lambda: xp.eye(4, 6, k=1, device="numpy"), np.eye(4, 6, k=1)),
    "eye below": (lambda: xp.eye(5, 3, k=-2, dtype=xp.int32, device="numpy"), None),
    "eye beyond": (lambda: xp.eye(2, k=5, device="numpy"), np.eye(2, k=5)),
    "asarray list": (lambda: xp.asarray([[1.0, 2.0]], device="numpy"), np.array([[1.0, 2.0]])),
    "asarray scalar": (lambda: xp.asarray(3, device="numpy"), np.array(3)),
    "asarray copy": (
        lambda: xp.asarray(np.arange(1000.0)[1:], copy=True),
        np.arange(1000.0)[1:],
    ),
    "asarray cast": (
        lambda: xp.asarray(np.arange(10), dtype=xp.float32),
        np.arange(10, dtype=np.float32),
    ),
    "zeros_like": (lambda: xp.zeros_like(np.ones((2, 3), np.int16)), np.zeros((2, 3), np.int16)),
    "ones_like": (lambda: xp.ones_like(np.ones(3), dtype=xp.bool), np.ones(3, bool)),
    "empty_like": (lambda: xp.empty_like(np.ones(3)), None),
    "full_like": (lambda: xp.full_like(np.ones(4), 2.5), np.full(4, 2.5)),
}


@pytest.mark.parametrize("name", sorted(_ALIGNED_ON_NUMPY))
def test_numpy_creation_is_64_byte_aligned(name):
    """Buffers arraymux allocates on numpy start at 64-byte boundaries (JAX's CPU client
    takes only those without a copy), and are NumPy arrays like any other."""
    make, expected = _ALIGNED_ON_NUMPY[name]
    made = [make() for _ in range(8)]  # kept alive: one could be aligned by chance
    assert all(a.native.__array_interface__["data"][0] % 64 == 0 for a in made)
    native = made[0].native
    assert type(native) is np.ndarray
    assert native.flags.writeable and native.flags.c_contiguous
    if expected is not None:
        assert native.dtype == expected.dtype
        np.testing.assert_array_equal(native, expected)
    native[...] = 0  # writable for real
    assert not np.any(native)


def test_asarray_of_a_numpy_array_still_wraps_it():
    a = np.arange(5.0)
    assert xp.asarray(a).native is a
    assert xp.asarray(a, dtype=xp.float64, copy=False).native is a
    view = memoryview(bytearray(16))
    assert np.shares_memory(xp.asarray(view, device="numpy").native, np.asarray(view))


def _outcome(fn):
    try:
        r = fn()
    except Exception as e:  # the error's type and the function it names
        return type(e), str(e).split(":")[0]
    return r.dtype, r.device, r.shape, xp.to_numpy(r).tolist()


_DEVICE_NAMES = [str(d) for d in xp.devices() if d.place != "meta"]


@pytest.mark.parametrize("device", _DEVICE_NAMES)
@pytest.mark.parametrize(
    ("name", "value", "dtype"),
    [
        ("zeros", 3, None),
        ("ones", (2, 3), None),
        ("empty", (0, 2), None),
        ("zeros", (2, 3), xp.int8),
        ("ones", 4, xp.float64),  # refused where the device lacks float64
        ("zeros", -1, None),
        ("zeros", (2, -1), None),
        ("zeros", True, None),
        ("zeros", 2.0, None),
        ("zeros", (2**62, 4), None),  # more bytes than any device addresses
        ("zeros", np.int64(3), None),
        ("arange", 5, None),
        ("arange", 0, None),
        ("arange", -3, None),
        ("arange", 300, xp.int8),  # 299 does not fit
        ("arange", 2**31, xp.int16),  # beyond the direct path, and refused
        ("arange", 4, xp.float32),
    ],
)
def test_the_direct_creation_path_answers_as_the_general_one(device, name, value, dtype):
    # zeros/ones/empty(shape) and arange(n) take a direct path; the same call written so that
    # it takes the general one (a keyword, or arange's start given) must give the same array
    # or the same error.
    fn = getattr(xp, name)
    direct = lambda: fn(value, dtype=dtype, device=device)  # noqa: E731
    if name == "arange":
        general = lambda: fn(0, value, dtype=dtype, device=device)  # noqa: E731
    else:
        general = lambda: fn(shape=value, dtype=dtype, device=device)  # noqa: E731
    assert _outcome(direct) == _outcome(general)


def test_jax_creation_with_a_device_is_compiled_and_committed():
    # jax.numpy's device= costs a device_put per call; arraymux compiles each creation once
    # (per shape, values, dtype and device): the same arrays as jax.numpy's, committed to the
    # device, their fill values told apart by type and sign.
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    from arraymux._backends import _jax

    d = xp.Device("jax:cpu")
    native = d.native
    calls = [
        ("zeros", ((2, 3),), {}),
        ("ones", ((4,),), {"dtype": jnp.int8}),
        ("empty", ((0, 2),), {}),
        ("full", ((2,), -0.0), {}),
        ("full", ((2,), 0.0), {}),
        ("full", ((2,), True), {}),
        ("full", ((2,), 1), {}),
        ("full", ((2,), float("nan")), {}),
        ("full", ((), 1.5 + 2j), {}),
        ("arange", (16,), {}),
        ("arange", (0.5, 3.0, 0.25), {}),
        ("arange", (7, 1, -2), {"dtype": jnp.float32}),
        ("eye", (3,), {}),
        ("eye", (2, 4), {"k": -1, "dtype": jnp.int32}),
        ("linspace", (0.0, 1.0, 5), {}),
        ("linspace", (-1, 2, 4), {"endpoint": False, "dtype": jnp.float32}),
    ]
    for name, args, kwargs in calls:
        for _ in range(2):  # made, then taken from the cache
            got = d._fns[name](*args, device=native, **kwargs)
            ref = getattr(jnp, name)(*args, device=native, **kwargs)
            assert got.dtype == ref.dtype and got.shape == ref.shape, (name, args)
            assert got._committed and got.devices() == {native}
            if name != "empty":
                np.testing.assert_array_equal(np.asarray(got), np.asarray(ref))
                assert np.asarray(got).tobytes() == np.asarray(ref).tobytes()  # -0.0 too
        assert _jax._creation_key(name, args, kwargs, native) in _jax._CREATED
    # an array argument, or no device: jax.numpy's own call
    fill = jnp.asarray(2.0)
    assert _jax._creation_key("full", ((2,), fill), {}, native) is None
    assert not d._fns["zeros"]((2,))._committed
    # through the public functions
    made = (xp.zeros(3, device=d), xp.arange(5, device=d), xp.full((2,), 3.0, device=d))
    for a in (*made, xp.eye(3, 2, k=1, device=d)):
        assert a.native._committed and a.device == d
    assert jax.devices("cpu")[0] == native


def test_jax_full_compiles_a_few_fill_values_then_moves_them():
    """``full`` with a new fill value at every call (a loop's parameter) compiles a creation for
    a few values of a shape and dtype, then moves each value (an explicit transfer of one
    element) and broadcasts it: the same committed arrays, without a compilation per value."""
    jax = pytest.importorskip("jax")
    from arraymux._backends import _jax

    compiles = []

    def listen(event: str, duration: float, **kwargs) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    d = xp.Device("jax:cpu")
    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        for shape in ((), (3, 2)):
            for dt, values in (
                (xp.float32, [0.5 + i / 1024 for i in range(40)] + [-0.0, float("nan")]),
                (xp.int32, [1000 + i for i in range(40)]),
                (xp.complex64, [complex(i, -i) for i in range(40)]),
            ):
                before = len(compiles)
                for i, v in enumerate(values):
                    a = xp.full(shape, v, dtype=dt, device=d)
                    assert a.dtype == dt and a.shape == shape and a.device == d
                    assert a.native._committed
                    ref = np.full(shape, v, dtype=xp.to_numpy(a).dtype)
                    assert xp.to_numpy(a).tobytes() == ref.tobytes(), (shape, v)
                    if i == _jax.FILL_VALUES_COMPILED + 2:
                        settled = len(compiles)
                assert settled - before <= _jax.FILL_VALUES_COMPILED + 1  # and the broadcast
                assert len(compiles) == settled, (shape, dt)
        # a cast that changes the value stays jax.numpy's (the two paths agree)
        got = xp.full((3, 2), 2.9, dtype=xp.int32, device=d)
        assert (
            xp.to_numpy(got).tolist() == np.asarray(jax.numpy.full((3, 2), 2.9, "int32")).tolist()
        )
        with jax.transfer_guard("disallow"):  # the move is explicit
            assert xp.to_numpy(xp.full((2,), 123.25, dtype=xp.float32, device=d)).tolist() == [
                123.25,
                123.25,
            ]
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)


def test_jax_full_and_asarray_of_new_values_from_several_threads():
    """Threads filling with values of their own, past the compiled ones and through the moved
    ones, each get their own values (the count of compiled values is shared)."""
    pytest.importorskip("jax")
    from concurrent.futures import ThreadPoolExecutor

    d = xp.Device("jax:cpu")

    def work(t: int) -> list[tuple[float, list[float], float]]:
        out = []
        for i in range(24):
            v = 1000.0 * t + i + 0.125
            a = xp.full((5,), v, dtype=xp.float32, device=d)
            b = xp.asarray(v, device=d)
            out.append((v, xp.to_numpy(a).tolist(), float(b)))
        return out

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    for rows in results:
        for v, a, b in rows:
            assert a == [v] * 5 and b == v


def test_jax_asarray_of_a_python_number_is_a_compiled_creation():
    """A Python number on a JAX device is made as ``full((), value)`` compiled (jax.numpy's
    own ``asarray(v, device=)`` converts on the default device and moves the result: 180 us
    on the CPU): the dtype jax.numpy chooses, not weakly typed, committed, the same bits; what
    the fast path does not take keeps jax.numpy's errors."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    d = xp.Device("jax:cpu")
    cases = [
        (3.0, None), (-0.0, None), (float("nan"), None), (float("-inf"), None), (7, None),
        (-(2**31), None), (True, None), (1 + 2j, None), (3, xp.float32), (True, xp.int8),
        (2**31, xp.uint32), (3.5, xp.complex64), (-5, xp.int8), (0.1, xp.float32),
    ]  # fmt: skip
    for value, dt in cases:
        got = xp.asarray(value, dtype=dt, device=d)
        ref = jnp.asarray(value, dtype=None if dt is None else dt.name)
        assert got.native.dtype == ref.dtype and not got.native.weak_type, (value, dt)
        assert got.native._committed and got.device == d
        assert xp.to_numpy(got).tobytes() == np.asarray(ref).tobytes(), (value, dt)
    with pytest.raises(ValueError, match=r"arraymux\.asarray.*NaN"):
        xp.asarray(float("nan"), dtype=xp.int32, device=d)
    with pytest.raises(OverflowError, match=r"arraymux\.asarray"):
        xp.asarray(300, dtype=xp.uint8, device=d)
    with pytest.raises(TypeError, match=r"arraymux\.asarray"):
        xp.asarray(1 + 2j, dtype=xp.float32, device=d)
    # promotion stays the standard's: a Python int's int32 Array with int8 gives int32
    assert (xp.asarray(3, device=d) + xp.asarray([1], dtype=xp.int8, device=d)).dtype == xp.int32


def test_jax_compiled_creation_from_several_threads():
    # The compiled creations are shared by all threads: each thread gets its own arrays, of
    # the shapes and values it asked for, whether it compiles one or finds it made.
    pytest.importorskip("jax")
    import threading

    import jax.numpy as jnp

    d = xp.Device("jax:cpu")
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for j in range(20):
                n = 1 + (i + j) % 5
                a = xp.full((n,), float(i), device=d)
                b = d._fns["zeros"]((n, 2), dtype=np.dtype("float32"), device=d.native)
                assert _np(a).tolist() == [float(i)] * n
                assert b.shape == (n, 2) and b.dtype == jnp.float32 and b._committed
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize(
    "args",
    [(0.0, 1.0, 50), (0, 1, 5), (-2, 3.5, 0), (1.0, 1.0, 1), (2.5, -1, 7)],
    ids=str,
)
def test_linspace_of_python_numbers_takes_the_short_path_with_the_general_answer(
    device, args, monkeypatch
):
    # linspace(start, stop, num) of Python numbers skips the general checks that cannot
    # fail for them (JAX's CPU: 26 -> 14 us); the same array as the general path gives
    from arraymux import _creation_functions as cf

    short = xp.linspace(*args, device=device)
    monkeypatch.setattr(cf, "_linspace_call", lambda a, d: None)
    general = xp.linspace(*args, device=device)
    assert short.device == general.device == device and short.dtype == general.dtype
    assert short.shape == general.shape == (args[2],)
    np.testing.assert_array_equal(xp.to_numpy(short), xp.to_numpy(general))


def test_linspace_short_path_keeps_the_general_errors():
    from arraymux import _creation_functions as cf

    for calls in (lambda: xp.linspace(0, 1, -1), lambda: xp.linspace(0, 1, 2**62)):
        with pytest.raises(ValueError, match=r"^arraymux\.linspace: ") as short:
            calls()
        assert (
            "num" in str(short.value) or "bytes" in str(short.value) or "size" in str(short.value)
        )
    assert cf._linspace_call((True, 1, 3), None) is None  # bools take the general path
    assert cf._linspace_call((0, 1, 3.0), None) is None
    with pytest.raises(TypeError, match=r"^arraymux\.linspace: num"):
        xp.linspace(0, 1, 3.0)


def test_dask_eye_is_named_by_its_arguments_without_pickling(monkeypatch):
    # Dask would name the graph by pickling its block function (a closure).
    import cloudpickle

    pickled: list[object] = []
    original = cloudpickle.dumps

    def spy(*args: object, **kwargs: object) -> bytes:
        pickled.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(cloudpickle, "dumps", spy)
    arrays = {
        (n, m, k, dt): xp.eye(n, m, k=k, dtype=dt, device="dask")
        for n, m, k, dt in [(5, 7, -1, xp.float32), (5, 7, 1, xp.float32), (5, 7, 1, xp.float64)]
    }
    assert not pickled
    assert len({a.native.name for a in arrays.values()}) == 3
    assert xp.eye(5, 7, k=1, dtype=xp.float32, device="dask").native.name == (
        arrays[5, 7, 1, xp.float32].native.name
    )
    for (n, m, k, _), a in arrays.items():
        np.testing.assert_array_equal(xp.to_numpy(a), np.eye(n, m, k=k))


def test_full_of_a_python_int_beyond_int64_in_a_floating_dtype(device):
    # The nearest float on every backend, as NumPy fills it (torch raised "int too big").
    for dtype in (xp.float32, xp.complex64):
        x = xp.full((2,), 2**70, dtype=dtype, device=device)
        assert xp.to_numpy(x).tolist() == [complex(np.float32(2**70))] * 2
        y = xp.full_like(xp.zeros(1, dtype=dtype, device=device), -(2**65))
        assert xp.to_numpy(y).tolist() == [complex(np.float32(-(2**65)))]
        z = xp.full(shape=(1,), fill_value=2**70, dtype=dtype, device=device)  # general path
        assert xp.to_numpy(z).tolist() == [complex(np.float32(2**70))]
    with pytest.raises(OverflowError, match=r"arraymux\.full"):
        xp.full((2,), 2**70, device=device)  # the default integer holds no such int
    with pytest.raises(OverflowError, match=r"arraymux\.full: .* beyond the range of every"):
        xp.full((2,), 2**1100, dtype=xp.float32, device=device)
    with pytest.raises(OverflowError, match=r"arraymux\.full_like: .* beyond the range"):
        xp.full_like(xp.zeros(1, dtype=xp.float32, device=device), -(2**1100))


def test_torch_asarray_of_tensors_in_an_integer_dtype_is_torchs():
    """The check of Python numbers against an integer dtype leaves lists of tensors to torch
    (NumPy cannot read CUDA tensors; on the CPU the values are the same either way)."""
    import torch

    t = [torch.tensor(1), torch.tensor(2)]
    r = xp.asarray(t, dtype=xp.int16, device="torch:cpu")
    assert r.dtype == xp.int16 and _np(r).tolist() == [1, 2]
    with pytest.raises(OverflowError, match="out of bounds"):
        xp.asarray([[1, 2], [3, 40000]], dtype=xp.int16, device="torch:cpu")


@pytest.mark.parametrize("shape", [0, 5, (5,), (2, 3), ()])
def test_a_shape_of_ints_or_one_int_on_the_common_path(device, shape):
    """zeros/ones/empty of an int (passed on as the user gave it) and of a tuple: the
    standard's shape and the device's default dtype, with that dtype's label read once."""
    want = (shape,) if isinstance(shape, int) else shape
    default = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    for fn, fill in ((xp.zeros, 0.0), (xp.ones, 1.0), (xp.empty, None)):
        x = fn(shape, device=device)
        assert x.shape == want and x.dtype == default and x.device == device
        if fill is not None:
            assert (_np(x) == fill).all()
    assert xp.arange(5, device=device).dtype == xp.asarray(1, device=device).dtype


def test_torch_own_default_dtype_decides_and_a_non_standard_one_is_refused():
    """torch's zeros without a dtype follow torch.set_default_dtype, as the namespace info
    says; float16, which arraymux does not hold, is refused rather than mislabelled."""
    torch = pytest.importorskip("torch")
    d = xp.Device("torch:cpu")
    before = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        assert xp.zeros(3, device=d).dtype == xp.float64
        assert xp.__array_namespace_info__().default_dtypes(device=d)["real floating"] == (
            xp.float64
        )
        torch.set_default_dtype(torch.float16)
        for call in (lambda: xp.zeros(3, device=d), lambda: xp.ones((2, 2), device=d)):
            with pytest.raises(TypeError, match=r"arraymux\.(zeros|ones): .*float16"):
                call()
    finally:
        torch.set_default_dtype(before)


def test_asarray_of_an_array_with_none_keywords_is_the_array(device):
    """SciPy's ``_asarray`` passes ``dtype=None, copy=None``: the same Array back, through the
    module and through the array's own namespace, as without them; a copy where one is asked."""
    x = xp.ones(3, device=device)
    ns = x.__array_namespace__()
    for fn in (xp.asarray, ns.asarray):
        assert fn(x, dtype=None, copy=None) is x
        assert fn(x, copy=False) is x
        y = fn(x, dtype=None, copy=True)
        assert y is not x and _np(y).tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(TypeError):
        ns.asarray(x, dtype=None, order="C")  # an unknown keyword is still refused


@pytest.mark.parametrize("value", [True, 3, -2.5, 1 + 2j])
def test_asarray_of_a_python_number(device, value):
    x = xp.asarray(value, device=device)
    info = xp.__array_namespace_info__().default_dtypes(device=device)
    kind = {bool: None, int: "integral", float: "real floating", complex: "complex floating"}
    want = xp.bool if kind[type(value)] is None else info[kind[type(value)]]
    assert x.device == device and x.dtype == want and x.shape == ()
    assert complex(x) == value
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(value, device=device, copy=False)


def test_asarray_of_a_number_in_torchs_float16_default_is_refused():
    torch = pytest.importorskip("torch")
    before = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float16)
        with pytest.raises(TypeError, match=r"arraymux\.asarray: float data makes"):
            xp.asarray(1.5, device="torch:cpu")
    finally:
        torch.set_default_dtype(before)


def test_an_array_as_dtype_is_refused_naming_the_function(device):
    """An array passed as ``dtype=`` raises a TypeError naming the function, also where the
    fill value or the bounds are 0-d arrays (``full_like(x, 0, dtype=array)`` raised an
    unnamed one)."""
    x = xp.asarray(1.0, device=device)
    not_a_dtype = xp.asarray([True, False], device=device)
    calls = [
        ("full_like", lambda: xp.full_like(x, 0, dtype=not_a_dtype)),
        ("full_like", lambda: xp.full_like(x, x, dtype=not_a_dtype)),
        ("full", lambda: xp.full(2, x, dtype=not_a_dtype)),
        ("linspace", lambda: xp.linspace(x, x, 3, dtype=not_a_dtype)),
        ("zeros_like", lambda: xp.zeros_like(x, dtype=not_a_dtype)),
        ("asarray", lambda: xp.asarray([1], dtype=not_a_dtype)),
    ]
    for name, call in calls:
        with pytest.raises(
            TypeError, match=rf"arraymux\.{name}: dtype=.* is an array, not a dtype"
        ):
            call()
