"""The fast paths of arraymux.random give the general path's numbers and errors.

NumPy computes Threefry in place and large draws in pieces of ``PIECE`` counters; JAX runs
small draws' rounds as a loop and the smallest draws one element per step. Each is compared
here, around its size limits, with another device's numbers (which the general path computes)
and with ``jax.random`` where that is exact.
"""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp
from arraymux.random import _core, _threefry

jax = pytest.importorskip("jax")
pytest.importorskip("torch")

SIZES = sorted(
    {
        0,
        1,
        2,
        _core.ONE_BY_ONE,
        _core.ONE_BY_ONE + 1,
        _threefry.ROLLED,
        _threefry.ROLLED + 1,
        _core.PIECE - 1,
        _core.PIECE,
        _core.PIECE + 1,
        2 * _core.PIECE + 3,
    }
)
DEVICES = ["numpy", "torch:cpu", "jax:cpu"]


def _np(a: xp.Array) -> np.ndarray:
    return np.asarray(xp.to_numpy(a))


def _same(draw, dtype=None) -> None:
    """``draw(device)`` gives the same values on every CPU device (that holds ``dtype``)."""
    devices = [d for d in DEVICES if dtype is None or xp.Device(d).supports(dtype)]
    outs = [_np(draw(xp.Device(d))) for d in devices]
    for d, o in zip(devices[1:], outs[1:], strict=True):
        assert o.shape == outs[0].shape, d
        np.testing.assert_array_equal(o.astype(outs[0].dtype), outs[0], err_msg=d)


@pytest.mark.parametrize("n", SIZES)
def test_bits_and_uniform_match_jax_random_across_sizes(n: int) -> None:
    ref_bits = np.asarray(jax.random.bits(jax.random.PRNGKey(7), (n,)))
    ref_u = np.asarray(jax.random.uniform(jax.random.PRNGKey(7), (n,)))
    for d in DEVICES:
        k = xp.random.key(7, device=d)
        np.testing.assert_array_equal(_np(xp.random.bits(k, (n,))).astype(np.uint32), ref_bits)
        np.testing.assert_array_equal(_np(xp.random.uniform(k, (n,))), ref_u)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_and_uniform_are_the_same_on_every_device(n: int, dtype: str) -> None:
    if n > _threefry.ROLLED + 1 or not xp.Device("jax:cpu").supports(getattr(xp, dtype)):
        devices = DEVICES[:2]  # JAX's unrolled path is the general one
    else:
        devices = DEVICES
    dt = getattr(xp, dtype)
    outs = []
    for d in devices:
        k = xp.random.key(2**40 + 3, device=d)
        outs.append(
            (
                _np(xp.random.normal(k, (n,), dt)),
                _np(xp.random.uniform(k, (n,), dt, minval=-2.0, maxval=3.5)),
            )
        )
    for o in outs[1:]:
        np.testing.assert_array_equal(o[0], outs[0][0])
        np.testing.assert_array_equal(o[1], outs[0][1])


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [(0, 10, "int32"), (-5, 2**31 - 1, "int64"), (0, 2**32, "int64"), (3, 2**31 + 7, "int64")],
)
def test_integers_are_the_same_on_every_device(n: int, low: int, high: int, dtype: str) -> None:
    dt = getattr(xp, dtype)
    _same(lambda d: xp.random.integers(xp.random.key(11, device=d), low, high, (n,), dt), dt)


def test_integers_match_jax_random() -> None:
    for n in (1, 5, _core.ONE_BY_ONE + 1, _core.PIECE + 5):
        ref = np.asarray(jax.random.randint(jax.random.PRNGKey(3), (n,), 0, 1000))
        for d in DEVICES:
            got = _np(xp.random.integers(xp.random.key(3, device=d), 0, 1000, (n,)))
            np.testing.assert_array_equal(got, ref)


def test_shapes_of_small_and_pieced_draws() -> None:
    for shape in [(), (0, 3), (2, 4), (3, _core.PIECE // 2 + 1)]:
        _same(lambda d, s=shape: xp.random.normal(xp.random.key(1, device=d), s), xp.float64)
        for d in DEVICES:
            assert xp.random.bits(xp.random.key(1, device=d), shape).shape == shape


def test_keys_folds_and_splits() -> None:
    for data in (0, 1, 2**31, 2**32 - 1):
        _same(lambda d, v=data: xp.random.fold_in(xp.random.key(5, device=d), v))
        ref = np.asarray(jax.random.fold_in(jax.random.PRNGKey(5), data))
        got = _np(xp.random.fold_in(xp.random.key(5, device="numpy"), data))
        np.testing.assert_array_equal(got, ref)
    for num in (0, 1, 3, _core.ONE_BY_ONE + 1):
        _same(lambda d, m=num: xp.random.split(xp.random.key(2**63 + 9, device=d), m))


def test_generator_streams_across_key_blocks() -> None:
    """The keys of a generator's calls come 64 at a time: calls on both sides of a block's
    end give the same numbers on every device."""
    outs = []
    for d in DEVICES:
        g = xp.random.Generator(2**64 - 1, device=d)
        vals = [_np(g.normal(size=3)) for _ in range(70)]
        vals += [_np(g.integers(0, 7, size=2)), _np(g.uniform(-1.0, 1.0, size=_core.PIECE + 1))]
        outs.append(vals)
    for o in outs[1:]:
        for a, b in zip(o, outs[0], strict=True):
            np.testing.assert_array_equal(a, b)


def test_inside_jax_transforms() -> None:
    """Small draws traced by a user's jit (the loops inside another program) and vmap."""
    d = xp.Device("jax:cpu")
    k = xp.random.key(9, device=d)
    f = xp.jit(lambda key: xp.random.normal(key, (5,)))
    np.testing.assert_array_equal(_np(f(k)), _np(xp.random.normal(xp.random.key(9), (5,))))
    keys = xp.random.split(k, 3)
    batched = jax.vmap(lambda kn: xp.random.normal(xp.asarray(kn, device=d), (4,)).native)(
        keys.native
    )
    for i in range(3):
        ref = _np(xp.random.normal(xp.asarray(_np(keys[i, ...]), device="numpy"), (4,)))
        np.testing.assert_array_equal(np.asarray(batched[i]), ref)


def test_jax_draws_of_a_key_call_one_compiled_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key's draws on JAX call their compiled function directly (not through arraymux.jit),
    one per kernel, static arguments and device, made once; their numbers are NumPy's, eagerly
    and inside a user's jit and grad."""
    d = xp.Device("jax:cpu")
    k, ref = xp.random.key(4, device=d), xp.random.key(4)
    monkeypatch.setattr(_core, "_ON_JAX", {})
    calls = []
    real_jit = xp.jit
    monkeypatch.setattr(xp, "jit", lambda f, **kw: calls.append(f) or real_jit(f, **kw))
    for _ in range(3):
        for draw in (
            lambda key: xp.random.normal(key, (6,), xp.float32),
            lambda key: xp.random.uniform(key, (2, 3), xp.float32),
            lambda key: xp.random.split(key, 3),
            lambda key: xp.random.bits(key, (4,)),
        ):
            np.testing.assert_array_equal(_np(draw(k)), _np(draw(ref)).astype(_np(draw(k)).dtype))
    assert calls == []  # no arraymux.jit made for them
    assert len(_core._ON_JAX) == 4
    traced = real_jit(lambda key: xp.random.normal(key, (3,)) * 2.0)
    np.testing.assert_array_equal(_np(traced(k)), 2 * _np(xp.random.normal(ref, (3,))))
    g = xp.grad(lambda s: xp.sum(xp.random.normal(k, (3,)) * s))(xp.asarray(1.0, device=d))
    assert float(g) == pytest.approx(float(np.sum(_np(xp.random.normal(ref, (3,))))), rel=1e-6)


@pytest.mark.parametrize("device", DEVICES)
def test_the_same_errors(device: str) -> None:
    k = xp.random.key(0, device=device)
    with pytest.raises(ValueError, match=r"arraymux\.random\.normal: .*at most"):
        xp.random.normal(k, (2**31 + 1,))
    with pytest.raises(ValueError, match=r"arraymux\.random\.integers: needs low < high"):
        xp.random.integers(k, 5, 5, (3,))
    with pytest.raises(ValueError, match=r"arraymux\.random\.uniform: maxval must be finite"):
        xp.random.uniform(k, (3,), minval=0.0, maxval=float("inf"))
    with pytest.raises(TypeError, match=r"arraymux\.random\.bits: expected a key"):
        xp.random.bits(np.zeros(2, np.uint32), (3,))
    g = xp.random.Generator(0, device=device)
    with pytest.raises(ValueError, match=r"Generator\.integers: high is out of bounds"):
        g.integers(0, 300, size=3, dtype=xp.uint8)
    assert _np(g.integers(0, 2, size=2)).shape == (2,)  # a refused call drew nothing


def test_numpy_pieces_match_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw of several pieces equals the same draw computed in one pass."""
    k = xp.random.key(1, device="numpy")
    n = 2 * _core.PIECE + 7
    pieced = [_np(xp.random.normal(k, (n,))), _np(xp.random.integers(k, -3, 2**31 - 1, (n,)))]
    monkeypatch.setattr(_core, "PIECE", 1 << 31)
    whole = [_np(xp.random.normal(k, (n,))), _np(xp.random.integers(k, -3, 2**31 - 1, (n,)))]
    for a, b in zip(pieced, whole, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3, 4)])
def test_torch_integers_in_c_are_numpys(dtype: str, shape: tuple[int, ...]) -> None:
    # torch's CPU draws its integers with NumPy's C loop from the key's words (the dtypes
    # torch computes with) or through the general route: NumPy's numbers, torch's labels.
    dt = getattr(xp, dtype)
    if not xp.Device("torch:cpu").supports(dt):
        pytest.skip(f"torch does not hold {dtype}")
    info = xp.iinfo(dt)
    widest = (max(info.min, -(2**31)), min(info.max, 2**31))  # spans of at most 2**32
    for low, high in (widest, (0, 7), (-3 if info.min < 0 else 3, 100)):
        got = xp.random.integers(xp.random.key(5, device="torch:cpu"), low, high, shape, dt)
        ref = xp.random.integers(xp.random.key(5), low, high, shape, dt)
        assert (got.device, got.dtype, got.shape) == (xp.Device("torch:cpu"), dt, shape)
        assert str(got.native.dtype) == f"torch.{dtype}"
        np.testing.assert_array_equal(_np(got), _np(ref))


def test_torch_small_draws_skip_the_general_route(monkeypatch: pytest.MonkeyPatch) -> None:
    if xp.random._core._speed.integers is None:
        pytest.skip("the compiled extension is off")

    def general(*args: object) -> None:
        raise AssertionError("took the general route")

    monkeypatch.setattr(_core, "_through_numpy", general)
    k = xp.random.key(1, device="torch:cpu")
    for draw in (
        lambda: xp.random.normal(k, (8,)),
        lambda: xp.random.uniform(k, (2, 4), xp.float64),
        lambda: xp.random.integers(k, 0, 10, (8,)),
        lambda: xp.random.integers(k, -5, 5, (3,), xp.int8),
        lambda: xp.random.split(k),
        lambda: xp.random.split(k, 7),
    ):
        assert draw().device == xp.Device("torch:cpu")


def test_strict_cpu_draws_read_the_keys_words_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """array-api-strict's CPU device draws from a view of its key's words (no move of the key
    to NumPy, one move of the result back): NumPy's numbers, on the key's device, with its
    dtype; the other strict devices, which NumPy cannot read, take the general route."""
    pytest.importorskip("array_api_strict")
    moves: list[str] = []
    to_device = _core._xp().to_device

    def counted(x: xp.Array, device: object, **kw: object) -> xp.Array:
        moves.append(str(xp.Device(device)))
        return to_device(x, device, **kw)

    monkeypatch.setattr(_core._xp(), "to_device", counted)
    ref = xp.random.key(3)
    for place in ("CPU_DEVICE", "device1"):
        k = xp.random.key(3, device=f"array_api_strict:{place}")
        for draw in (
            lambda key: xp.random.normal(key, (8,), xp.float32),
            lambda key: xp.random.uniform(key, (2, 3), xp.float64),
            lambda key: xp.random.integers(key, -5, 5, (7,), xp.int8),
            lambda key: xp.random.split(key, 3),
            lambda key: xp.random.exponential(key, (5,)),
        ):
            moves.clear()
            got, want = draw(k), draw(ref)
            assert got.device == k.device and got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(xp.to_numpy(got)), _np(want))
            if place == "CPU_DEVICE":
                assert moves == [str(k.device)], moves  # the result's move, only
            else:
                assert "numpy:cpu" in moves, moves  # the key went to NumPy the general way


@pytest.mark.parametrize("num", [0, 1, 2, 3, 1000])
def test_torch_split_on_the_cpu_gives_numpys_keys(num: int) -> None:
    """split on torch's CPU (its words computed on the host) gives NumPy's keys as torch's
    int32 words, whose draws are NumPy's; splitting a split key too."""
    k, ref = xp.random.key(11, device="torch:cpu"), xp.random.key(11)
    for _ in range(2):
        got, want = xp.random.split(k, num), xp.random.split(ref, num)
        assert (got.shape, got.dtype, got.device) == ((num, 2), xp.int32, k.device)
        np.testing.assert_array_equal(_np(got).view(np.uint32), _np(want))
        if num:
            k, ref = got[num - 1, ...], want[num - 1, ...]
    np.testing.assert_array_equal(
        _np(xp.random.uniform(k, (5,), xp.float32)), _np(xp.random.uniform(ref, (5,), xp.float32))
    )


def test_torch_draws_compute_on_words_torch_has_kernels_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # torch holds uint32 but computes it through its signed kernels (a view or a widening more
    # per operation, which torch.compile does not fuse): its words are int32, and a draw as a
    # GPU makes it (torch's own operations, not the CPU's C loops) emulates nothing.
    torch_cpu = xp.Device("torch:cpu")
    assert _threefry.word_dtype(torch_cpu) == xp.int32
    assert _threefry.word_dtype(xp.Device("numpy")) == xp.uint32
    emulated: list[str] = []
    original = torch_cpu._backend.emulate
    assert original is not None

    def spy(name: str, *args: object) -> object:
        out = original(name, *args)  # asked on the checking path: NotImplemented or a result
        if out is not NotImplemented:
            emulated.append(name)
        return out

    monkeypatch.setattr(torch_cpu._backend, "emulate", spy)
    monkeypatch.setattr(
        _core, "_on_torch_cpu", lambda kernel, k, params, static: kernel(k, *params, *static)
    )
    k = xp.random.key(9, device="torch:cpu")
    got = {
        "normal": xp.random.normal(k, (100,)),
        "uniform": xp.random.uniform(k, (100,), xp.float64),
        "integers": xp.random.integers(k, -3, 1000, (100,)),
        "split": xp.random.split(k, 3),
    }
    assert emulated == []
    ref = xp.random.key(9)
    np.testing.assert_array_equal(_np(got["normal"]), _np(xp.random.normal(ref, (100,))))
    np.testing.assert_array_equal(
        _np(got["integers"]), _np(xp.random.integers(ref, -3, 1000, (100,)))
    )
    np.testing.assert_array_equal(_np(got["split"]).view(np.uint32), _np(xp.random.split(ref, 3)))


def test_division_by_a_number_on_torch_gpus_divides(monkeypatch: pytest.MonkeyPatch) -> None:
    # torch multiplies by the reciprocal of a Python number on its GPUs (truncated normals came
    # out an ulp or two off there): the samplers' divisions by constants pass a 0-d tensor on
    # the device instead (torch's meta device stands in for a GPU here).
    from arraymux.random import _special

    divisors: list[object] = []
    original = xp.Array.__truediv__

    def spy(self: xp.Array, other: object) -> xp.Array:
        divisors.append(other)
        return original(self, other)

    monkeypatch.setattr(xp.Array, "__truediv__", spy)
    out = _special.div(xp.ones((3,), device="torch:meta"), 1.5)
    assert out.device == xp.Device("torch:meta")
    (d,) = divisors
    assert isinstance(d, xp.Array) and d.shape == () and d.device == out.device
    divisors.clear()
    assert (
        xp.to_numpy(_special.div(xp.ones((3,), device="torch:cpu"), 1.5)).tolist()
        == [np.float32(1 / 1.5)] * 3
    )
    assert divisors == [1.5]  # the CPU divides by the number itself, exactly


def test_torch_generator_keys_across_blocks_are_numpys() -> None:
    # The Generator's keys come in blocks (one Threefry call for the next calls' keys); on
    # torch the block's rows are views made at once: past a block's end the numbers go on as
    # NumPy's do.
    from arraymux.random import _generator

    n = _generator._BLOCK + 6
    g, h = xp.random.Generator(3, device="torch:cpu"), xp.random.Generator(3)
    for _ in range(n):
        a, b = g.normal(size=5), h.normal(size=5)
        assert a.device == xp.Device("torch:cpu")
        assert xp.to_numpy(a).tolist() == xp.to_numpy(b).tolist()
    assert g._rows is not None and len(g._rows) == _generator._BLOCK


@pytest.mark.parametrize("device", ["numpy", "torch:cpu"])
def test_generator_draws_on_the_host_from_the_keys_words(
    monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    # Where the draws are made in C on the host, the Generator hands them its next key's two
    # words (no key array per call): the numbers of the key route, which the other devices
    # take (JAX's compiled step included), call after call and across blocks of keys.
    from arraymux.random import _generator

    made: list[tuple[int, ...]] = []
    original = _generator.host_floats

    def spy(loop: object, w0: int, w1: int, shp: tuple[int, ...], dev: xp.Device) -> xp.Array:
        made.append(shp)
        return original(loop, w0, w1, shp, dev)

    monkeypatch.setattr(_generator, "host_floats", spy)
    g, h = xp.random.Generator(8, device=device), xp.random.Generator(8, device="jax:cpu")
    for i in range(_generator._BLOCK + 3):
        a, b = (g.normal(size=3), h.normal(size=3)) if i % 2 else (g.random(3), h.random(3))
        assert xp.to_numpy(a).tolist() == xp.to_numpy(b).tolist(), i
        assert g.integers(0, 9, 2).device == xp.Device(device)  # the key route, same counter
        h.integers(0, 9, 2)
    assert len(made) == _generator._BLOCK + 3


def test_jax_generator_draws_its_key_and_floats_in_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a JAX Generator's normal or uniform draw derives its key and draws in one compiled call
    # (one dispatch instead of two); the numbers are NumPy's Generator's, integers between
    from arraymux.random import _generator

    steps: list[tuple[object, ...]] = []
    original = _generator.jax_draw_step

    def spy(*static: object) -> object:
        steps.append(static)
        return original(*static)  # type: ignore[arg-type]

    monkeypatch.setattr(_generator, "jax_draw_step", spy)
    g, h = xp.random.Generator(4, device="jax:cpu"), xp.random.Generator(4)
    for i in range(5):
        np.testing.assert_array_equal(_np(g.normal(size=(2, 3))), _np(h.normal(size=(2, 3))))
        np.testing.assert_array_equal(_np(g.random(7)), _np(h.random(7)))
        np.testing.assert_array_equal(_np(g.integers(0, 50, 4)), _np(h.integers(0, 50, 4)), str(i))
    assert [s[0] for s in steps] == ["normal", "uniform"] * 5
    assert _np(g.normal(size=2)).dtype == np.float32


def test_small_jax_draws_loop_over_elements_on_the_cpu_only(monkeypatch) -> None:
    """The element-by-element loop is for JAX's CPU client; on a GPU each step of XLA's loop
    is a launch and a read of its condition by the host (8 normals: 0.64 ms on an H200)."""
    from types import SimpleNamespace

    assert _core._one_by_one_here(xp.Device("jax:cpu"))
    for place in ("gpu:0", "cuda:1", "tpu:0"):
        assert not _core._one_by_one_here(SimpleNamespace(backend="jax", place=place))
    for d in ("numpy", "torch:cpu"):
        assert not _core._one_by_one_here(xp.Device(d))
    k = xp.random.key(3, device="jax:cpu")

    def piece(start, m):
        return xp.arange(m, dtype=xp.uint32, device=k.device) + start

    calls = []
    real = _core._one_by_one
    monkeypatch.setattr(_core, "_one_by_one", lambda *a: calls.append(a[1]) or real(*a))
    looped = _core.over_counters(k, 5, piece)
    assert calls == [5]
    monkeypatch.setattr(_core, "_one_by_one_here", lambda device: False)
    whole = _core.over_counters(k, 5, piece)
    assert calls == [5]
    np.testing.assert_array_equal(_np(looped), np.arange(5))
    np.testing.assert_array_equal(_np(whole), np.arange(5))


def test_jax_threefry_rolls_its_rounds_on_the_cpu_only(monkeypatch) -> None:
    """Threefry's rounds are one XLA loop for small JAX calls on the CPU only (a GPU would
    launch a kernel and read the loop's condition on the host at every step); the bits are the
    same either way, and the reference's."""
    from types import SimpleNamespace

    assert _threefry.jax_cpu(xp.Device("jax:cpu"))
    for place in ("gpu:0", "cuda:1", "tpu:0"):
        assert not _threefry.jax_cpu(SimpleNamespace(backend="jax", place=place))
    assert not _threefry.jax_cpu(xp.Device("torch:cpu"))
    calls = []
    real = _threefry._threefry_jax
    monkeypatch.setattr(_threefry, "_threefry_jax", lambda *a: calls.append(1) or real(*a))
    d = xp.Device("jax:cpu")
    k0, k1 = (xp.asarray(w, dtype=xp.uint32, device=d) for w in (0x13198A2E, 0x03707344))
    counter = xp.arange(37, dtype=xp.uint32, device=d)
    rolled = [_np(w) for w in _threefry.threefry2x32(k0, k1, 0, counter)]
    assert calls == [1]
    monkeypatch.setattr(_threefry, "jax_cpu", lambda device: False)
    unrolled = [_np(w) for w in _threefry.threefry2x32(k0, k1, 0, counter)]
    assert calls == [1]
    want = _threefry.threefry_numpy(0x13198A2E, 0x03707344, np.arange(37, dtype=np.uint32))
    for a, b, w in zip(rolled, unrolled, want, strict=True):
        np.testing.assert_array_equal(a, w)
        np.testing.assert_array_equal(b, w)


_ELEMENTWISE = {
    "exponential": lambda g, n, dt: g.exponential(2.0, size=n, dtype=dt),
    "laplace": lambda g, n, dt: g.laplace(1.0, 0.5, size=n, dtype=dt),
    "logistic": lambda g, n, dt: g.logistic(-1.0, 3.0, size=n, dtype=dt),
    "gumbel": lambda g, n, dt: g.gumbel(0.5, 2.0, size=n, dtype=dt),
    "weibull": lambda g, n, dt: g.weibull(1.5, size=n, dtype=dt),
    "lognormal": lambda g, n, dt: g.lognormal(0.2, 0.7, size=n, dtype=dt),
    "normal": lambda g, n, dt: g.normal(1.5, 0.3, shape=n, dtype=dt),
    "pareto": lambda g, n, dt: g.pareto(2.5, size=n, dtype=dt),
}


@pytest.mark.parametrize("name", sorted(_ELEMENTWISE))
def test_small_elementwise_draws_loop_whole_on_jax_cpu(name, monkeypatch) -> None:
    """A distribution that is a function of each uniform float computes that function inside
    the element loop of small JAX draws on the CPU (in one compiled call with the key and the
    scaling): the same values as the whole-array path and as every other device, on either
    side of the loop's limit."""
    draw = _ELEMENTWISE[name]
    calls = []
    real = _core._one_by_one
    monkeypatch.setattr(_core, "_one_by_one", lambda *a: calls.append(a[1]) or real(*a))
    for dt in (xp.float32, xp.float64):
        for n in (2, 8, _core.ONE_BY_ONE, _core.ONE_BY_ONE + 1):
            _same(lambda d, n=n, dt=dt: draw(xp.random.Generator(7, device=d), n, dt), dt)
    assert calls, "no small draw on jax:cpu looped over its elements"
    g_loop, g_whole = (xp.random.Generator(11, device="jax:cpu") for _ in range(2))
    looped = [_np(draw(g_loop, 8, xp.float32)) for _ in range(3)]
    monkeypatch.setattr(_core, "_one_by_one_here", lambda device: False)
    whole = [_np(draw(g_whole, 8, xp.float32)) for _ in range(3)]
    for a, b in zip(looped, whole, strict=True):
        np.testing.assert_array_equal(a, b)


def test_jax_number_parameters_are_filled_once_per_value() -> None:
    """A distribution's Python-number parameters are filled on a JAX device once per value,
    dtype and device (a dispatch each otherwise); -0.0 stays apart from 0.0, a tracer of a
    transform's computation is never kept, and the store is bounded."""
    from arraymux.random import _distributions as dist

    dev = xp.Device("jax:cpu")

    def filled(v, dt=xp.float32):
        return dist.on_device(dist.Param("loc", v, True), dt, dev)

    dist._FILLED.clear()
    zero, negative_zero = filled(0.0), filled(-0.0)
    assert filled(0.0) is zero and filled(-0.0) is negative_zero
    assert not np.signbit(_np(zero)) and np.signbit(_np(negative_zero))
    other = filled(0.0, xp.int32)  # a dtype of its own
    assert other is not zero and filled(0.0, xp.int32) is other and other.dtype == xp.int32
    assert dist.on_device(dist.Param("loc", 0.0, True), xp.float32, xp.Device("numpy")) is not (
        dist.on_device(dist.Param("loc", 0.0, True), xp.float32, xp.Device("numpy"))
    )  # elsewhere a fill each time (arrays there are mutable)
    dist._FILLED.clear()
    traced = jax.jit(lambda: filled(3.0).native)()
    assert float(traced) == 3.0 and not dist._FILLED
    for i in range(3 * dist._FILLED_MAX):
        assert float(filled(float(i))) == i
    assert len(dist._FILLED) <= dist._FILLED_MAX
    g = xp.random.Generator(5, device="jax:cpu")
    g.exponential(2.5, size=3)
    assert ("0x1.4000000000000p+1", xp.float32, dev) in dist._FILLED


@pytest.mark.parametrize("device", ["numpy", "torch:cpu", "array_api_strict", "dask"])
def test_generator_integers_on_the_host_from_the_keys_words(
    monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    # Integers too are made in C from the next key's two words where the device draws on
    # the host (no key array, no array-api-strict indexing per call): the numbers of the key
    # route, which JAX's Generator takes, in each integer dtype and across blocks of keys.
    from arraymux.random import _generator

    made: list[object] = []
    original = _generator.host_integers

    def spy(*args: object) -> xp.Array:
        made.append(args[5])
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(_generator, "host_integers", spy)
    g, h = xp.random.Generator(5, device=device), xp.random.Generator(5, device="jax:cpu")
    dtypes = [xp.int32, xp.int8, xp.uint8, xp.int16]
    for i in range(_generator._BLOCK + 2):
        dt = dtypes[i % len(dtypes)]
        low = 0 if dt == xp.uint8 else -3
        a, b = g.integers(low, 120, (4,), dtype=dt), h.integers(low, 120, (4,), dtype=dt)
        assert a.device == xp.Device(device) and a.dtype == dt
        assert xp.to_numpy(a).tolist() == xp.to_numpy(b).tolist(), (i, dt)
    assert len(made) == _generator._BLOCK + 2
    if device == "torch:cpu":  # torch does not compute with uint16: the key route, same counter
        made.clear()
        a = g.integers(0, 9, (3,), dtype=xp.uint16)
        assert not made
        assert (
            xp.to_numpy(a).tolist() == xp.to_numpy(h.integers(0, 9, (3,), dtype=xp.uint16)).tolist()
        )
