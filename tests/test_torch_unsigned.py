"""uint16, uint32 and uint64 on torch: stored in torch's dtypes of those names, computed exactly
(through signed kernels where torch has none), checked value for value against NumPy at the
edges of each range."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import arraymux as xp

torch = pytest.importorskip("torch")

DEVICES = [str(d) for d in xp.devices() if d.backend == "torch" and d.place != "meta"]
UNSIGNED = ["uint16", "uint32", "uint64"]


def edges(name: str) -> np.ndarray:
    """0, 1, 2, both sides of the top bit, and the top of the range."""
    bits = np.iinfo(name).bits
    top = 2 ** (bits - 1)
    values = [0, 1, 2, 3, 7, top - 1, top, top + 1, 2**bits - 2, 2**bits - 1]
    return np.array(values, dtype=name)


def pairs(name: str) -> tuple[np.ndarray, np.ndarray]:
    e = edges(name)
    a, b = np.meshgrid(e, e, indexing="ij")
    return a.ravel(), b.ravel()


def check(got: xp.Array, want: np.ndarray) -> None:
    g = xp.to_numpy(got)
    want = np.asarray(want)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


BINARY = {
    "add": (xp.add, np.add),
    "subtract": (xp.subtract, np.subtract),
    "multiply": (xp.multiply, np.multiply),
    "less": (xp.less, np.less),
    "less_equal": (xp.less_equal, np.less_equal),
    "greater": (xp.greater, np.greater),
    "greater_equal": (xp.greater_equal, np.greater_equal),
    "equal": (xp.equal, np.equal),
    "not_equal": (xp.not_equal, np.not_equal),
    "maximum": (xp.maximum, np.maximum),
    "minimum": (xp.minimum, np.minimum),
    "bitwise_and": (xp.bitwise_and, np.bitwise_and),
    "bitwise_or": (xp.bitwise_or, np.bitwise_or),
    "bitwise_xor": (xp.bitwise_xor, np.bitwise_xor),
    "pow": (xp.pow, np.power),
}


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_arrays_keep_the_unsigned_dtype(device: str, dtype: str) -> None:
    e = edges(dtype)
    x = xp.asarray(e, device=device)
    assert x.dtype == getattr(xp, dtype)
    assert x.native.dtype == getattr(torch, dtype)
    check(x, e)
    assert np.from_dlpack(xp.to_device(x, "numpy").native).dtype == e.dtype


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_functions_match_numpy_at_the_edges(device: str, dtype: str, name: str) -> None:
    ours, theirs = BINARY[name]
    a, b = pairs(dtype)
    with np.errstate(over="ignore"):
        want = theirs(a, b)
    check(ours(xp.asarray(a, device=device), xp.asarray(b, device=device)), want)


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_division_is_exact_over_the_whole_range(device: str, dtype: str, name: str) -> None:
    a, b = pairs(dtype)
    keep = b != 0  # integer division by zero is left unspecified by the standard
    a, b = a[keep], b[keep]
    rng = np.random.default_rng(0)
    bits = np.iinfo(dtype).bits
    ra = rng.integers(0, 2**bits, 2000, dtype=dtype, endpoint=False)
    rb = rng.integers(1, 2**bits, 2000, dtype=dtype, endpoint=False)
    small = rng.integers(1, 1000, 2000, dtype=dtype)
    a = np.concatenate([a, ra, ra])
    b = np.concatenate([b, rb, small])
    ours = getattr(xp, name)
    want = np.floor_divide(a, b) if name == "floor_divide" else np.remainder(a, b)
    check(ours(xp.asarray(a, device=device), xp.asarray(b, device=device)), want)


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_shifts_are_logical_and_saturate_at_the_width(device: str, dtype: str) -> None:
    bits = np.iinfo(dtype).bits
    e = edges(dtype)
    counts = np.array([0, 1, 3, bits - 1, bits, bits + 5, np.iinfo(dtype).max], dtype=dtype)
    a, k = (v.ravel() for v in np.meshgrid(e, counts, indexing="ij"))
    x, s = xp.asarray(a, device=device), xp.asarray(k, device=device)
    # NumPy's shifts by the width or more depend on the platform; the standard's answer is
    # the one of an infinitely wide shift, cut to the dtype.
    want_left = np.array([(int(v) << min(int(c), 128)) % 2**bits for v, c in zip(a, k)], dtype)
    want_right = np.array([int(v) >> min(int(c), 128) for v, c in zip(a, k)], dtype)
    check(xp.bitwise_left_shift(x, s), want_left)
    check(xp.bitwise_right_shift(x, s), want_right)


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_python_ints_beyond_the_signed_range(device: str, dtype: str) -> None:
    e = edges(dtype)
    x = xp.asarray(e, device=device)
    big = int(np.iinfo(dtype).max) - 1
    with np.errstate(over="ignore"):
        check(x + big, e + np.array(big, dtype))
    check(x > big, e > big)
    check(x // big, e // np.array(big, dtype))
    check(xp.clip(x, 2, big), np.clip(e, 2, big).astype(dtype))
    check(xp.where(x > 3, x, big), np.where(e > 3, e, np.array(big, dtype)))
    check(xp.full_like(x, big), np.full_like(e, big))
    with pytest.raises(OverflowError, match="does not fit"):
        x + (-1)


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_reductions_accumulate_in_uint64(device: str, dtype: str) -> None:
    e = edges(dtype)
    x = xp.asarray(e, device=device)
    with np.errstate(over="ignore"):
        check(xp.sum(x), np.sum(e))
        check(xp.sum(x, axis=0, keepdims=True), np.sum(e, axis=0, keepdims=True))
        check(xp.prod(x[1:4]), np.prod(e[1:4]))
        check(xp.cumulative_sum(x), np.cumsum(e))
        check(xp.cumulative_prod(x[1:5]), np.cumprod(e[1:5]))
        check(xp.sum(x, dtype=xp.int64), np.sum(e, dtype=np.int64))
        check(xp.sum(xp.asarray([1, 2], device=device), dtype=dtype), np.array(3, dtype))
        m = np.diag(e[:4])
        check(xp.linalg.trace(xp.asarray(m, device=device)), np.array(np.trace(m), np.uint64))
    assert xp.sum(x).dtype == xp.uint64  # the fast path of a call with the array alone


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_ordering_functions(device: str, dtype: str) -> None:
    e = edges(dtype)[::-1].copy()
    e[[2, 5]] = e[[5, 2]]
    x = xp.asarray(e, device=device)
    check(xp.max(x), e.max())
    check(xp.min(x), e.min())
    check(xp.argmax(x), np.argmax(e))
    check(xp.argmin(x), np.argmin(e))
    check(xp.sort(x), np.sort(e))
    check(xp.sort(x, descending=True), np.sort(e)[::-1])
    check(xp.argsort(x, stable=True), np.argsort(e, kind="stable"))
    check(xp.searchsorted(xp.sort(x), x), np.searchsorted(np.sort(e), e))
    check(xp.unique_values(xp.concat([x, x])), np.unique(e))
    values, counts = xp.unique_counts(x)
    check(values, np.unique(e))
    check(counts, np.ones(e.size, dtype=np.int64))


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_elementwise_and_movement_functions(device: str, dtype: str) -> None:
    e = edges(dtype)
    x = xp.asarray(e, device=device)
    with np.errstate(over="ignore"):
        check(-x, -e)
        check(xp.square(x), np.square(e))
    check(xp.abs(x), e)
    check(xp.sign(x), np.sign(e))
    check(~x, ~e)
    check(xp.flip(x), e[::-1])
    check(xp.roll(x, 3), np.roll(e, 3))
    check(xp.take(x, xp.asarray([9, 0, 6], device=device)), e[[9, 0, 6]])
    check(xp.nonzero(x)[0], np.nonzero(e)[0])
    check(xp.count_nonzero(x), np.array(np.count_nonzero(e), dtype=np.int64))
    check(xp.reshape(x, (2, 5)).T, e.reshape(2, 5).T)
    check(xp.tril(xp.reshape(x[:9], (3, 3))), np.tril(e[:9].reshape(3, 3)))
    check(xp.stack([x, x]), np.stack([e, e]))
    check(xp.astype(x, xp.float64), e.astype(np.float64))
    check(xp.astype(xp.asarray([-1, 5], device=device), dtype), np.array([-1, 5]).astype(dtype))


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_matmul_and_creation(device: str, dtype: str) -> None:
    top = int(np.iinfo(dtype).max)
    a = np.array([[1, top], [top - 1, 3]], dtype=dtype)
    with np.errstate(over="ignore"):
        check(xp.asarray(a, device=device) @ xp.asarray(a, device=device), a @ a)
        v = np.array([[1, top, 2], [top - 1, 3, 0]], dtype=dtype)
        w = v[::-1].copy()
        check(
            xp.linalg.cross(xp.asarray(v, device=device), xp.asarray(w, device=device)),
            np.cross(v, w),
        )
    check(
        xp.arange(top - 6, top, 2, dtype=dtype, device=device),
        np.arange(top - 6, top, 2, dtype=dtype),
    )
    check(xp.arange(5, dtype=dtype, device=device), np.arange(5, dtype=dtype))
    check(xp.eye(3, k=1, dtype=dtype, device=device), np.eye(3, k=1, dtype=dtype))
    check(xp.full((2,), top, dtype=dtype, device=device), np.full((2,), top, dtype=dtype))
    check(xp.zeros(2, dtype=dtype, device=device), np.zeros(2, dtype=dtype))


def test_the_info_lists_the_unsigned_dtypes() -> None:
    info = xp.__array_namespace_info__()
    names = info.dtypes(device="torch:cpu", kind="unsigned integer")
    assert set(names) == {"uint8", "uint16", "uint32", "uint64"}
    assert int(xp.iinfo(xp.uint64).max) == 2**64 - 1


def test_operators_on_unsigned_arrays() -> None:
    e = edges("uint64")
    d = np.where(e[::-1] == 0, np.uint64(5), e[::-1])
    x, y = xp.asarray(e, device="torch:cpu"), xp.asarray(d, device="torch:cpu")
    for op in (operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod):
        with np.errstate(over="ignore"):
            check(op(x, y), op(e, d))


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_true_division_gives_the_default_float_as_for_int64(dtype: str) -> None:
    x = xp.asarray(np.array([1, 2], dtype=dtype), device="torch:cpu")
    s = xp.asarray([1, 2], dtype=xp.int64, device="torch:cpu")
    for got, want in ((x / x, s / s), (xp.divide(x, 4), xp.divide(s, 4))):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(xp.to_numpy(got), xp.to_numpy(want))


def test_mixed_dtypes_keep_their_own() -> None:
    u = xp.asarray(np.array([1, 65535], np.uint16), device="torch:cpu")
    s = xp.asarray(np.array([-1, 2], np.int16), device="torch:cpu")
    a, b = xp.broadcast_arrays(u, s)
    check(a, np.array([1, 65535], np.uint16))
    check(b, np.array([-1, 2], np.int16))
    check(
        xp.take(s, xp.asarray(np.array([1, 0], np.uint16), device="torch:cpu")),
        np.array([2, -1], np.int16),
    )
    check(
        xp.take(u, xp.asarray(np.array([1, 0], np.int16), device="torch:cpu")),
        u.native.numpy()[[1, 0]],
    )


@pytest.mark.parametrize("dtype", ["uint8", *UNSIGNED])
def test_sums_of_every_unsigned_dtype_are_uint64(dtype: str) -> None:
    e = np.array([1, 2, 250], dtype=dtype)
    x = xp.asarray(e, device="torch:cpu")
    for fn in (xp.sum, xp.prod, xp.cumulative_sum, xp.cumulative_prod):
        assert fn(x).dtype == xp.uint64, fn
    # Again, now that x's dtype is cached (the compiled path reads it from there), and for a
    # result whose dtype the fast path knows.
    assert xp.sum(x).dtype == xp.uint64
    assert xp.sum(x + x).dtype == xp.uint64
    check(xp.sum(x), np.sum(e))
    check(xp.cumulative_sum(x, include_initial=True), np.array([0, 1, 3, 253], np.uint64))


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_setitem_and_python_conversions(device: str, dtype: str) -> None:
    top = int(np.iinfo(dtype).max)
    x = xp.asarray(np.array([1, 2, 3], dtype=dtype), device=device)
    x[0] = top
    x[x == 2] = top - 1  # a mask: torch has no masked_fill for these dtypes
    x[2:] = xp.asarray(np.array([top - 2], dtype=dtype), device=device)
    check(x, np.array([top, top - 1, top - 2], dtype=dtype))
    # Negative-step slices go through a flipped copy (torch has no flip for these dtypes).
    check(x[::-1], np.array([top - 2, top - 1, top], dtype=dtype))
    y = xp.asarray(np.array([1, 2, 3], dtype=dtype), device=device)
    y[::-2] = xp.asarray(np.array([top, top - 1], dtype=dtype), device=device)
    y[0:0:-1] = xp.asarray(np.array([], dtype=dtype), device=device)
    check(y, np.array([top - 1, 2, top], dtype=dtype))
    assert int(x[0]) == top and operator.index(x[1]) == top - 1
    with pytest.raises(OverflowError, match="does not fit"):
        x[0] = -1
    with pytest.raises(OverflowError, match="does not fit"):
        x[0] = top + 1


@pytest.fixture
def no_view_batching(monkeypatch):
    """torch 2.11's vmap: ``Tensor.view(dtype)`` of a batched tensor raises (no batching
    rule), as it does on the CUDA machines that run that version."""
    view = torch.Tensor.view
    wrapped = torch._C._functorch.is_functorch_wrapped_tensor

    def strict_view(self, *args, **kwargs):
        if args and isinstance(args[0], torch.dtype) and wrapped(self):
            raise RuntimeError("Batching rule not implemented for aten::view.dtype")
        return view(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "view", strict_view)


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize(
    ("name", "op", "want"),
    [
        ("add", lambda v: v + v, lambda a: a + a),
        ("xor", lambda v: v ^ 5, lambda a: a ^ a.dtype.type(5)),
        ("shift", lambda v: v << 3, lambda a: a << a.dtype.type(3)),
        ("less", lambda v: v < 2, lambda a: a < 2),
        ("floor_divide", lambda v: v // 3, lambda a: a // a.dtype.type(3)),
    ],
)
def test_unsigned_under_vmap_without_a_view_batching_rule(no_view_batching, dtype, name, op, want):
    # The emulation reads the bits through a cast where the view cannot be batched; the
    # values stay exact across the range (random keys are uint32 under vmap).
    e = edges(dtype)
    x = xp.asarray(np.stack([e, e[::-1]]), device="torch:cpu")
    with np.errstate(over="ignore"):
        check(xp.vmap(op)(x), want(np.stack([e, e[::-1]])))


def test_the_vmap_view_guard_refuses_a_batched_view(no_view_batching):
    a = torch.zeros((2, 3), dtype=torch.uint32)
    with pytest.raises(RuntimeError, match=r"view\.dtype"):
        torch.func.vmap(lambda t: t.view(torch.int32))(a)


def test_random_keys_under_vmap_without_a_view_batching_rule(no_view_batching):
    keys = xp.random.split(xp.random.key(0, device="torch:cpu"), 4)
    got = xp.vmap(lambda k: xp.random.uniform(k, (2,), dtype=xp.float32))(keys)
    want = xp.stack([xp.random.uniform(keys[i], (2,), dtype=xp.float32) for i in range(4)])
    assert xp.all(got == want)
