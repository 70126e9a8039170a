"""The Array wrapper: operators, indexing, conversions, protocols, attributes."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import arraymux as xp

BINARY_OPS = [
    ("add", operator.add, np.add),
    ("sub", operator.sub, np.subtract),
    ("mul", operator.mul, np.multiply),
    ("truediv", operator.truediv, np.divide),
    ("floordiv", operator.floordiv, np.floor_divide),
    ("mod", operator.mod, np.remainder),
    ("pow", operator.pow, np.power),
]
INT_OPS = [
    ("and", operator.and_, np.bitwise_and),
    ("or", operator.or_, np.bitwise_or),
    ("xor", operator.xor, np.bitwise_xor),
    ("lshift", operator.lshift, np.left_shift),
    ("rshift", operator.rshift, np.right_shift),
]
COMPARISONS = [
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
]

A = [1.0, 2.0, 3.0, 4.0]
B = [2.0, 2.0, 5.0, 0.5]
IA = [1, 2, 3, 12]
IB = [3, 1, 2, 2]


def _f(device, values):
    return xp.asarray(values, dtype=xp.float32, device=device)


def _i(device, values):
    return xp.asarray(values, dtype=xp.int32, device=device)


def _np(x):
    assert type(x) is xp.Array
    return xp.to_numpy(x)


@pytest.mark.parametrize(("name", "op", "ref"), BINARY_OPS, ids=[o[0] for o in BINARY_OPS])
def test_arithmetic_operators(device, name, op, ref):
    x, y = _f(device, A), _f(device, B)
    a, b = np.asarray(A, np.float32), np.asarray(B, np.float32)
    np.testing.assert_allclose(_np(op(x, y)), ref(a, b), rtol=1e-6)
    np.testing.assert_allclose(_np(op(x, 2.0)), ref(a, np.float32(2.0)), rtol=1e-6)
    np.testing.assert_allclose(_np(op(3.0, y)), ref(np.float32(3.0), b), rtol=1e-6)
    # in-place
    z = _f(device, A)
    before = z
    z = getattr(operator, f"i{name}")(z, y)
    assert z is before
    assert z.device == device
    np.testing.assert_allclose(_np(z), ref(a, b), rtol=1e-6)
    z = _f(device, A)
    z = getattr(operator, f"i{name}")(z, 2.0)
    np.testing.assert_allclose(_np(z), ref(a, np.float32(2.0)), rtol=1e-6)


@pytest.mark.parametrize(("name", "op", "ref"), INT_OPS, ids=[o[0] for o in INT_OPS])
def test_integer_operators(device, name, op, ref):
    x, y = _i(device, IA), _i(device, IB)
    a, b = np.asarray(IA, np.int32), np.asarray(IB, np.int32)
    assert _np(op(x, y)).tolist() == ref(a, b).tolist()
    assert _np(op(x, 1)).tolist() == ref(a, 1).tolist()
    assert _np(op(5, y)).tolist() == ref(5, b).tolist()
    z = _i(device, IA)
    z = getattr(operator, f"i{name}")(z, y)
    assert _np(z).tolist() == ref(a, b).tolist()
    assert z.dtype is xp.int32


def test_unary_operators(device):
    x = _f(device, [-1.5, 2.0])
    assert _np(-x).tolist() == [1.5, -2.0]
    assert _np(+x).tolist() == [-1.5, 2.0]
    assert _np(abs(x)).tolist() == [1.5, 2.0]
    assert _np(~_i(device, [0, 5])).tolist() == [-1, -6]
    b = xp.asarray([True, False], device=device)
    assert _np(~b).tolist() == [False, True]


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons(device, op):
    x, y = _f(device, A), _f(device, B)
    r = op(x, y)
    assert r.dtype is xp.bool
    assert _np(r).tolist() == op(np.asarray(A), np.asarray(B)).tolist()
    assert _np(op(x, 2.0)).tolist() == op(np.asarray(A), 2.0).tolist()
    assert _np(op(2.0, x)).tolist() == op(2.0, np.asarray(A)).tolist()


def test_matmul_operator(device):
    m = _f(device, [[1.0, 2.0], [3.0, 4.0]])
    ref = np.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(_np(m @ m), ref @ ref)
    z = _f(device, [[1.0, 2.0], [3.0, 4.0]])
    z @= m
    np.testing.assert_allclose(_np(z), ref @ ref)
    np.testing.assert_allclose(_np(m.__rmatmul__(m)), ref @ ref)


def test_reflected_operators_with_native_left(device):
    if device.backend == "array_api_strict":
        pytest.skip("array-api-strict raises instead of returning NotImplemented")
    x = _f(device, A)
    a = x.native
    r = a + _f(device, B)
    if device.backend == "numpy":
        # NumPy defers to arraymux.Array's reflected operator
        assert type(r) is xp.Array
    np.testing.assert_allclose(np.asarray(xp.to_numpy(xp.asarray(r))), np.add(A, B))
    r2 = x.__radd__(a)
    assert type(r2) is xp.Array
    np.testing.assert_allclose(_np(r2), np.add(A, A))


def test_in_place_changing_dtype_raises(device):
    i = _i(device, [1, 2])
    with pytest.raises(TypeError):  # int / int is not defined everywhere (array-api-strict)
        i /= 2
    with pytest.raises(TypeError, match="would change the dtype"):
        i /= 2.0
    with pytest.raises(TypeError, match="would change the dtype"):
        i += 1.5
    with pytest.raises(TypeError, match="would change the dtype"):
        i += _f(device, [1.0, 2.0])
    assert _np(i).tolist() == [1, 2]
    assert i.dtype is xp.int32


def test_in_place_is_visible_through_aliases_on_mutable_backends(device):
    x = _f(device, [1.0, 2.0])
    alias = x
    x += 1.0
    assert alias is x
    assert _np(alias).tolist() == [2.0, 3.0]


def test_getitem(device):
    x = xp.reshape(xp.arange(12, dtype=xp.int32, device=device), (3, 4))
    ref = np.arange(12, dtype=np.int32).reshape(3, 4)
    for key in [
        (0, ...),
        (-1, ...),
        (1, 2),
        (slice(1, None), ...),
        (slice(None), 1),
        (Ellipsis, 0),
        (None, 0, ...),
    ]:
        r = x[key]
        assert type(r) is xp.Array
        assert r.device == device
        assert _np(r).tolist() == ref[key].tolist(), key
    idx = xp.asarray([2, 0], device=device)
    v = xp.arange(4, dtype=xp.int32, device=device)
    assert _np(v[idx]).tolist() == [2, 0]
    if device.backend != "dask":
        mask = x > 5
        assert _np(x[mask]).tolist() == ref[ref > 5].tolist()


def test_getitem_key_on_other_backend():
    x = xp.arange(4)
    with pytest.raises(xp.BackendMismatchError):
        x[xp.asarray([0, 1], device="torch:cpu")]
    with pytest.raises(TypeError, match="must be an array"):
        x["a"]


def test_setitem(device):
    x = xp.zeros(5, dtype=xp.float32, device=device)
    x[0] = 1.0
    x[1:3] = _f(device, [2.0, 3.0])
    x[-1] = xp.asarray(9.0, dtype=xp.float32, device=device)
    assert _np(x).tolist() == [1.0, 2.0, 3.0, 0.0, 9.0]
    assert x.device == device
    if device.backend == "array_api_strict":
        x[3] = 4.0  # integer-array keys in __setitem__ are outside the standard
    else:
        x[xp.asarray([3], device=device)] = 4.0
    assert _np(x).tolist() == [1.0, 2.0, 3.0, 4.0, 9.0]
    if device.backend != "dask":
        x[x > 3.5] = 0.0
        assert _np(x).tolist() == [1.0, 2.0, 3.0, 0.0, 0.0]


def test_setitem_jax_rebinds():
    import jax

    x = xp.zeros(3, dtype=xp.float32, device="jax:cpu")
    before = x.native
    x[1] = 5.0
    assert isinstance(x.native, jax.Array)
    assert x.native is not before
    assert xp.to_numpy(x).tolist() == [0.0, 5.0, 0.0]
    assert np.asarray(before).tolist() == [0.0, 0.0, 0.0]
    y = x
    y += 1.0
    assert y is x
    assert xp.to_numpy(x).tolist() == [1.0, 6.0, 1.0]


_BASIC_KEYS = [
    (0, ...),
    (-1, ...),
    (1, 2),
    (-2, slice(None, None, -1)),
    (slice(3, 0, -2), ...),
    (slice(None), -3),
    (Ellipsis, 1),
    (slice(-2, None), slice(None, None, 2)),
    Ellipsis,
    (None, Ellipsis, slice(1, 3)),
    (slice(None), None, 4),
]


@pytest.mark.parametrize("key", _BASIC_KEYS, ids=repr)
def test_basic_indexing_reads_and_writes_as_numpy(device, key):
    # JAX runs these compiled, once per form of key; every backend gives NumPy's elements.
    ref = np.arange(20, dtype=np.float32).reshape(4, 5)
    x = xp.asarray(ref, device=device)
    got = x[key]
    assert got.device == device and got.shape == ref[key].shape
    assert _np(got).tolist() == ref[key].tolist()
    if device.backend == "dask" or None in (key if type(key) is tuple else (key,)):
        return  # no writes into dask arrays; the standard's keys of a write have no None
    want = ref.copy()
    want[key] = -7.0
    x[key] = -7.0
    assert _np(x).tolist() == want.tolist()
    y = xp.asarray(ref, device=device)
    y[key] = xp.asarray(np.full(ref[key].shape, 3.0, dtype=np.float32), device=device)
    want = ref.copy()
    want[key] = 3.0
    assert _np(y).tolist() == want.tolist()


def test_jax_basic_indexing_compiles_once_per_form_of_key():
    # An index that changes at each step of a loop must not compile at each step: its ints
    # are arguments of one compiled form.
    pytest.importorskip("jax")
    from arraymux._backends import _jax

    x = xp.asarray(np.arange(30, dtype=np.float32).reshape(6, 5), device="jax:cpu")
    _jax._INDEXERS.clear()
    rows = [float(x[i, 2]) for i in range(-6, 6)]
    assert rows == [float(5 * (i % 6) + 2) for i in range(-6, 6)]
    for i in range(6):
        x[i, 1:3] = float(i)
    assert len(_jax._INDEXERS) == 2  # one read, one write
    assert xp.to_numpy(x)[:, 1].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    for n in (1, 2, 3):  # integer arrays are arguments too (compiled again per shape only)
        idx = xp.arange(n, dtype=xp.int32, device="jax:cpu")
        assert xp.to_numpy(x[idx, 1]).tolist() == [0.0, 1.0, 2.0][:n]
        x[idx, 0] = -1.0
    assert len(_jax._INDEXERS) == 4
    # Inside a trace the index is the trace's own (no compiled function within it).
    assert float(xp.jit(lambda a: a[3, 4])(x)) == 19.0


def test_integer_array_keys_and_masks_read_and_write_as_numpy(device):
    # JAX runs these compiled (a mask written with one value as a selection that keeps its
    # shape); every backend gives NumPy's elements.
    ref = np.arange(12, dtype=np.float32).reshape(3, 4)
    rows = np.array([2, 0, -1])
    x = xp.asarray(ref, device=device)
    i = xp.asarray(rows, dtype=xp.int32, device=device)
    j = xp.asarray([1, 3, 0], dtype=xp.int32, device=device)
    assert _np(x[i, j]).tolist() == ref[rows, [1, 3, 0]].tolist()
    if device.backend == "array_api_strict":
        return  # integer arrays only beside other integer indices there
    assert _np(x[i, ...]).tolist() == ref[rows].tolist()
    assert _np(x[i, 1:3]).tolist() == ref[rows, 1:3].tolist()
    if device.backend == "dask":
        return  # no writes into dask arrays; strict takes no integer arrays in writes
    for key, value in [
        ((i, ...), -1.0),
        ((i, ...), xp.asarray(np.full((3, 4), 5.0, dtype=np.float32), device=device)),
        (xp.asarray([True, False, True], device=device), 7.0),
        (xp.asarray(ref > 5, device=device), 0.5),
        (xp.asarray([False, False, False], device=device), 9.0),
    ]:
        y = xp.asarray(ref, device=device)
        y[key] = value
        want = ref.copy()
        nkey = (
            tuple(_np(k) if isinstance(k, xp.Array) else k for k in key)
            if isinstance(key, tuple)
            else _np(key)
        )
        want[nkey] = _np(value) if isinstance(value, xp.Array) else value
        assert _np(y).tolist() == want.tolist() and y.dtype == xp.float32


def test_setitem_of_a_python_int_beyond_int32(device):
    # A float array takes any int as the nearest float (JAX without 64-bit mode took the int
    # as an int32 and raised OverflowError); an unsigned array its whole range.
    x = xp.zeros(3, dtype=xp.float32, device=device)
    if device.backend == "dask":
        pytest.skip("no writes into dask arrays")
    x[0] = 2**40
    x[1:] = 2**70
    assert _np(x).tolist() == [float(2**40), float(np.float32(2**70)), float(np.float32(2**70))]
    u = xp.zeros(2, dtype=xp.uint32, device=device)
    u[1] = 2**32 - 1
    assert _np(u).tolist() == [0, 2**32 - 1]
    with pytest.raises(OverflowError, match=r"__setitem__.*beyond the range of every"):
        x[0] = 2**1100


def test_setitem_other_backend_raises():
    x = xp.zeros(3)
    with pytest.raises(xp.BackendMismatchError):
        x[0:2] = xp.ones(2, device="torch:cpu")
    with pytest.raises(TypeError):
        x[0] = "a"


def test_python_conversions(device):
    x = xp.asarray(3.5, dtype=xp.float32, device=device)
    assert float(x) == 3.5
    assert complex(x) == 3.5 + 0j
    assert bool(x) is True
    assert bool(xp.asarray(0.0, device=device)) is False
    i = xp.asarray(4, device=device)
    assert int(i) == 4
    assert operator.index(i) == 4
    assert [10, 20, 30, 40, 50][i] == 50
    assert int(xp.asarray(-2.7, device=device)) == -2


def test_index_refuses_floats(device):
    with pytest.raises(TypeError):
        operator.index(xp.asarray(1.0, device=device))


def test_index_takes_0d_integer_arrays_only_on_every_backend(device):
    """Only a 0-d integer array is an index, checked before the backend sees it (Dask computed
    an empty array and raised ValueError, and took a one-element array of one dimension)."""
    for bad in (
        xp.ones((0,), dtype=xp.int32, device=device),
        xp.ones((1,), dtype=xp.int32, device=device),
        xp.ones((1, 1), dtype=xp.int32, device=device),
        xp.asarray(True, device=device),
        xp.asarray(2.0, device=device),
    ):
        with pytest.raises(TypeError, match=r"arraymux\.Array\.__index__: only 0-d integer"):
            operator.index(bad)
    assert operator.index(xp.asarray(3, dtype=xp.uint8, device=device)) == 3


def test_attributes(device):
    x = xp.reshape(xp.arange(6, dtype=xp.float32, device=device), (2, 3))
    assert x.shape == (2, 3)
    assert x.ndim == 2
    assert x.size == 6
    assert x.dtype is xp.float32
    assert x.device == device
    assert x.T.shape == (3, 2)
    assert _np(x.T).tolist() == np.arange(6.0).reshape(2, 3).T.tolist()
    s = xp.reshape(xp.arange(12, dtype=xp.float32, device=device), (2, 2, 3))
    assert s.mT.shape == (2, 3, 2)
    with pytest.raises(ValueError, match="mT"):
        _ = s.T
    assert len(x) == 2
    assert [xp.to_numpy(r).tolist() for r in x] == [[0, 1, 2], [3, 4, 5]]
    assert xp.asarray(1.0, device=device).ndim == 0
    assert xp.asarray(1.0, device=device).size == 1


def test_transpose_is_a_view_with_the_same_label(device):
    """``x.T`` takes the backend's own transpose: every dtype keeps its label (torch's
    unsigned integers too), the device stays, and transforms see it as ``permute_dims``."""
    base = xp.reshape(xp.arange(6, device=device), (2, 3))
    for dt in (xp.bool, xp.int8, xp.uint8, xp.uint32, xp.int64, xp.float32):
        if not device.supports(dt):
            continue
        x = xp.astype(base, dt)
        t = x.T
        assert t.dtype is dt and t.device == device and t.shape == (3, 2)
        np.testing.assert_array_equal(_np(t), _np(xp.permute_dims(x, (1, 0))))
    if device.backend in ("numpy", "torch", "jax"):
        m = xp.astype(base, xp.float32)
        g = xp.grad(lambda w: xp.sum(w.T @ w))(m)
        h = xp.grad(lambda w: xp.sum(xp.permute_dims(w, (1, 0)) @ w))(m)
        np.testing.assert_allclose(_np(g), _np(h))
        v = xp.vmap(lambda w: w.T)(xp.stack([m, 2 * m]))
        np.testing.assert_array_equal(_np(v), np.stack([_np(m).T, 2 * _np(m).T]))


def test_native_property(device):
    x = _f(device, A)
    native = x.native
    assert type(xp.asarray(native)) is xp.Array
    assert xp.asarray(native).device == device
    assert xp.sum(x).native is not None


def test_numpy_scalars_are_normalized():
    s = xp.sum(xp.asarray([1.0, 2.0]))
    assert isinstance(s.native, np.ndarray)
    assert s.native.shape == ()


def test_repr(device):
    x = xp.asarray([1.5, 2.5], dtype=xp.float32, device=device)
    r = repr(x)
    assert r.startswith("Array([1.5, 2.5]")
    assert "dtype=float32" in r
    assert f"device='{device}'" in r
    assert str(x) == r


def test_direct_construction_refused():
    with pytest.raises(TypeError, match=r"arraymux\.asarray"):
        xp.Array([1, 2])
    with pytest.raises(TypeError, match=r"arraymux\.asarray"):
        xp.Array()


def test_slots_and_unhashable():
    x = xp.asarray([1.0])
    assert not hasattr(x, "__dict__")
    with pytest.raises(AttributeError):
        x.foo = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        hash(x)


@pytest.mark.parametrize("dev", ["numpy:cpu", "torch:cpu"])
def test_dlpack_to_numpy(dev):
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32, device=dev)
    a = np.from_dlpack(x)
    assert a.tolist() == [1.0, 2.0, 3.0]
    assert x.__dlpack_device__()[0] == 1  # kDLCPU
    # shares memory
    x[0] = 7.0
    assert a[0] == 7.0


def test_dlpack_to_torch():
    import torch

    x = xp.asarray([1.0, 2.0], device="numpy")
    t = torch.from_dlpack(x)
    assert t.tolist() == [1.0, 2.0]


def test_to_device_same_device(device):
    x = _f(device, A)
    assert x.to_device(device) is x
    assert x.to_device(str(device)) is x
    y = x.to_device(device, copy=True)
    assert y is not x
    assert y.device == device
    assert _np(y).tolist() == A


def test_to_device_other_backend():
    x = xp.asarray([1.0, 2.0])
    y = x.to_device("torch:cpu")
    assert y.device == xp.Device("torch:cpu")
    assert xp.to_numpy(y).tolist() == [1.0, 2.0]


def test_numpy_array_protocol_on_host():
    x = xp.asarray([1.0, 2.0], device="torch:cpu")
    assert np.asarray(x).tolist() == [1.0, 2.0]


def test_pickle(device):
    import pickle

    if device.backend in ("jax", "array_api_strict"):
        pytest.skip(f"{device.backend} arrays are not pickled here")
    x = _f(device, A)
    y = pickle.loads(pickle.dumps(x))
    assert y.device == device
    assert _np(y).tolist() == A


def _zero_d_calls():
    """Every unary and binary function, and the reductions, called where NumPy would hand
    back a NumPy scalar instead of a 0-d array."""
    from arraymux._function_table import TABLE

    calls = []
    for e in TABLE:
        if e.rule in ("unary", "binary"):
            calls.append((e.name, e.rule))
    for name in [
        "sum",
        "prod",
        "max",
        "min",
        "mean",
        "std",
        "var",
        "cumulative_sum",
        "all",
        "any",
        "argmax",
        "argmin",
        "count_nonzero",
        "vecdot",
        "linalg.vector_norm",
        "linalg.det",
        "linalg.trace",
        "linalg.matrix_norm",
    ]:
        calls.append((name, "reduce"))
    return calls


@pytest.mark.parametrize("name, rule", _zero_d_calls(), ids=lambda v: str(v))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # atanh(1), log(0), ...
def test_every_0d_result_wraps_an_array_and_moves(name, rule):
    """NumPy returns scalars (numpy.float32) from 0-d operations; every result must wrap a
    real array, so that moving it (which needs DLPack) works."""
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    for dt in (xp.float32, xp.int32, xp.bool):
        x0 = xp.asarray(1 if dt is not xp.bool else True, dtype=dt)
        try:
            if name.endswith("matmul"):
                out = fn(xp.ones(3, dtype=dt), xp.ones(3, dtype=dt))
            elif rule == "unary":
                out = fn(x0)
            elif rule == "binary":
                out = fn(x0, x0)
            elif name.startswith("linalg.") and name != "linalg.vector_norm":
                out = fn(xp.eye(2, dtype=dt))
            elif name == "vecdot":
                out = fn(xp.ones(3, dtype=dt), xp.ones(3, dtype=dt))
            else:
                out = fn(xp.ones(3, dtype=dt))
        except (TypeError, ValueError):
            continue  # not defined for this dtype
        break
    else:
        pytest.skip(f"{name} takes none of float32, int32, bool here")
    for leaf in out if isinstance(out, tuple) else (out,):
        assert isinstance(leaf.native, np.ndarray), type(leaf.native)
        pytest.importorskip("torch")
        moved = xp.to_device(leaf, "torch:cpu")
        np.testing.assert_array_equal(xp.to_numpy(moved), xp.to_numpy(leaf))
