"""arraymux.random: known answers, the same numbers on every device, sound statistics, clear
errors, and keys inside the transforms."""

from __future__ import annotations

import importlib.util
import math
import sys
import threading
import warnings

import numpy as np
import pytest

import arraymux as xp
from arraymux.random._threefry import threefry2x32, threefry2x32_int

from ._rounding import assert_same_draws
from .conftest import DEVICES

pytestmark = [
    # torch.compile (xp.jit on torch) loads torch modules that warn about torch.jit.script.
    pytest.mark.filterwarnings(
        "ignore:`torch.jit.script(_method)?` is deprecated:DeprecationWarning"
    ),
    pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated:FutureWarning"),
]

# Known answers of Threefry-2x32-20 (key, counter) -> output, from the reference's test vectors.
KNOWN = [
    ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]


def _np(x: xp.Array) -> np.ndarray:
    return xp.to_numpy(x)


@pytest.mark.parametrize("key, counter, expected", KNOWN)
def test_threefry_known_answers_on_host(key, counter, expected):
    assert threefry2x32_int(key, counter) == expected


def test_threefry_known_answers_on_every_device(device):
    k = xp.random.key(0, device=device)
    words = xp.random.split(k, 1)[0, ...]  # the key of counter (0, 0)
    assert [w & 0xFFFFFFFF for w in _np(words).tolist()] == list(KNOWN[0][2])
    dt = k.dtype
    for key, counter, expected in KNOWN:
        arrays = [
            xp.asarray(
                [v - (1 << 32) if dt == xp.int32 and v >= 1 << 31 else v], dtype=dt, device=device
            )
            for v in (*key, *counter)
        ]
        y0, y1 = threefry2x32(*arrays)
        got = [int(_np(y)[0]) & 0xFFFFFFFF for y in (y0, y1)]
        assert got == list(expected)


def test_key_holds_the_seed_words():
    assert _np(xp.random.key((7 << 32) + 9, device="numpy")).tolist() == [7, 9]


def _draws(device: xp.Device) -> dict[str, np.ndarray]:
    k = xp.random.key(2024, device=device)
    k1, k2, k3, k4, k5, k6 = xp.random.split(k, 6)
    out = {
        "bits": _np(xp.random.bits(k1, (3, 5))),
        "integers": _np(xp.random.integers(k2, -50, 1000, shape=(257,), dtype=xp.int32)),
        "uniform32": _np(xp.random.uniform(k3, (101,), xp.float32)),
        "permutation": _np(xp.random.permutation(k4, 50)),
        "choice": _np(xp.random.choice(k5, 20, (7,), replace=False)),
        "bernoulli": _np(xp.random.bernoulli(k6, 0.3, (64,))),
        "normal32": _np(xp.random.normal(k3, (99,), xp.float32)),
        "fold_in": _np(xp.random.fold_in(k, 3)),
    }
    if device.supports(xp.int64):
        out["wide"] = _np(xp.random.integers(k2, 0, (1 << 32) - 5, shape=(33,), dtype=xp.int64))
    if device.supports(xp.float64):
        out["uniform64"] = _np(xp.random.uniform(k3, (101,), xp.float64))
    return out


def test_same_key_same_numbers_on_every_device():
    """Integers and uniform floats are bit-identical; normals agree within rounding."""
    ref = _draws(xp.Device("numpy"))
    for device in DEVICES:
        got = _draws(device)
        for name, value in got.items():
            if name.startswith("normal"):
                np.testing.assert_allclose(
                    value, ref[name], rtol=2e-6, atol=2e-6, err_msg=str(device)
                )
            else:
                assert value.tolist() == ref[name].tolist(), f"{name} differs on {device}"


def test_a_shorter_draw_is_a_prefix(device):
    k = xp.random.key(1, device=device)
    assert _np(xp.random.bits(k, (3,))).tolist() == _np(xp.random.bits(k, (6,)))[:3].tolist()


def test_split_keys_differ_and_results_stay_on_the_device(device):
    k = xp.random.key(0, device=device)
    keys = xp.random.split(k, 5)
    assert keys.shape == (5, 2) and keys.device == device
    assert len({tuple(r) for r in _np(keys).tolist()}) == 5
    k0, k1, k2, *_ = keys
    for sample in (
        xp.random.normal(k0, (2, 3)),
        xp.random.uniform(k1, (4,), minval=-2.0, maxval=3.0),
        xp.random.integers(k2, 10, shape=(3,)),
    ):
        assert sample.device == device
    assert xp.random.normal(k0, (2,)).dtype == xp.float32
    assert xp.random.integers(k0, 5, shape=(2,)).dtype == xp.int32


def test_statistics():
    """Moments, a Kolmogorov-Smirnov test of the uniform and normal draws and a chi-square test of
    the integers, at fixed keys (each p-value far from the 1e-3 rejection level)."""
    stats = pytest.importorskip("scipy.stats")
    k = xp.random.key(99, device="numpy")
    k1, k2, k3, k4 = xp.random.split(k, 4)
    u = _np(xp.random.uniform(k1, (20000,), xp.float64))
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.003
    z = _np(xp.random.normal(k2, (20000,), xp.float32)).astype(np.float64)
    assert stats.kstest(z, "norm").pvalue > 1e-3
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03
    n = _np(xp.random.integers(k3, 0, 10, shape=(20000,)))
    counts = np.bincount(n, minlength=10)
    assert counts.size == 10 and stats.chisquare(counts).pvalue > 1e-3
    b = _np(xp.random.bernoulli(k4, 0.2, (20000,)))
    assert abs(b.mean() - 0.2) < 0.015


def test_permutation_and_choice(device):
    k1, k2, k3, k4 = xp.random.split(xp.random.key(5, device=device), 4)
    p = _np(xp.random.permutation(k1, 30))
    assert sorted(p.tolist()) == list(range(30))
    x = xp.reshape(xp.arange(12, device=device), (4, 3))
    rows = _np(xp.random.permutation(k1, x, axis=0))
    assert sorted(rows[:, 0].tolist()) == [0, 3, 6, 9] and (rows[:, 1] - rows[:, 0] == 1).all()
    c = _np(xp.random.choice(k2, 10, (2, 3), replace=False))
    assert c.shape == (2, 3) and len(set(c.ravel().tolist())) == 6
    w = xp.asarray([0.0, 0.0, 1.0, 0.0], device=device)
    assert set(_np(xp.random.choice(k3, 4, (20,), p=w)).tolist()) == {2}
    half = xp.asarray([0.5, 0.0, 0.5, 0.0], device=device)
    assert set(_np(xp.random.choice(k3, 4, (2,), replace=False, p=half)).tolist()) == {0, 2}
    values = xp.asarray([10.0, 20.0, 30.0], device=device)
    assert set(_np(xp.random.choice(k4, values, (8,))).tolist()) <= {10.0, 20.0, 30.0}


def test_choice_with_probabilities_follows_them():
    k = xp.random.key(3, device="numpy")
    p = xp.asarray([0.1, 0.6, 0.3])
    draws = _np(xp.random.choice(k, 3, (30000,), p=p))
    np.testing.assert_allclose(np.bincount(draws) / draws.size, [0.1, 0.6, 0.3], atol=0.015)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: xp.random.key(-1), ValueError, r"seed must be in \[0, 2\*\*64\)"),
        (lambda: xp.random.key(1.5), TypeError, "seed must be a Python int"),
        (lambda: xp.random.normal(np.zeros(2), (2,)), TypeError, "key made by arraymux.random.key"),
        (lambda: xp.random.normal(xp.asarray([1.0, 2.0]), (2,)), ValueError, "uint32 or int32"),
        (lambda: xp.random.integers(xp.random.key(0), 5, 5), ValueError, "needs low < high"),
        (
            lambda: xp.random.integers(xp.random.key(0), 0, 1 << 33, dtype=xp.int64),
            ValueError,
            "wider than 2\\*\\*32",
        ),
        (
            lambda: xp.random.integers(xp.random.key(0), 0, 300, dtype=xp.int8),
            ValueError,
            "does not fit in",
        ),
        (
            lambda: xp.random.uniform(xp.random.key(0), (2,), xp.int32),
            ValueError,
            "float32 or float64",
        ),
        (lambda: xp.random.normal(xp.random.key(0), (-1,)), ValueError, "negative size"),
        (lambda: xp.random.normal(xp.random.key(0), "ab"), TypeError, "shape must be an int"),
        (
            lambda: xp.random.choice(xp.random.key(0), 3, (5,), replace=False),
            ValueError,
            "without replacement",
        ),
        (
            lambda: xp.random.choice(xp.random.key(0), 3, (2,), p=xp.ones(4)),
            ValueError,
            r"p must have shape \(3,\)",
        ),
        (lambda: xp.random.split(xp.random.key(0), -1), ValueError, "num must be >= 0"),
        (lambda: xp.random.fold_in(xp.random.key(0), -3), ValueError, "data must be an int"),
        (lambda: xp.random.Generator(2**64), ValueError, "seed must be in"),
    ],
)
def test_bad_input_is_refused_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_generator_streams_match_across_devices():
    ref = None
    for device in DEVICES:
        g = xp.random.Generator(7, device=device)
        first, second = _np(g.integers(0, 100, shape=(6,))), _np(g.integers(0, 100, shape=(6,)))
        assert first.tolist() != second.tolist()
        got = (first.tolist(), second.tolist(), _np(g.random((4,), xp.float32)).tolist())
        ref = ref or got
        assert got == ref, device


def test_generator_methods(device):
    g = xp.random.Generator(11, device=device)
    assert g.seed == 11 and g.device == device and "Generator(seed=11" in repr(g)
    u = _np(g.uniform(2.0, 3.0, (100,)))
    assert ((u >= 2.0) & (u < 3.0)).all()
    z = g.normal(5.0, 0.1, (50,))
    assert z.device == device and abs(float(xp.mean(z)) - 5.0) < 0.1
    assert sorted(_np(g.permutation(6)).tolist()) == list(range(6))
    assert _np(g.choice(4, (10,))).max() < 4
    assert g.bernoulli(0.5, (3,)).dtype == xp.bool
    assert xp.random.Generator(device=device).seed is not None


def test_fast_generator_uses_the_backend_and_keeps_labels(device):
    g = xp.random.Generator(1, device=device, fast=True)
    a = g.random((3,))
    assert a.device == device and a.dtype == xp.float32
    assert g.normal(shape=(2, 2)).shape == (2, 2)
    i = g.integers(3, 9, (40,))
    assert i.dtype == xp.int32 and set(_np(i).tolist()) <= set(range(3, 9))
    assert sorted(_np(g.permutation(5)).tolist()) == list(range(5))
    assert len(set(_np(g.choice(9, (4,), replace=False)).tolist())) == 4
    assert g.bernoulli(0.5, (3,)).dtype == xp.bool
    again = xp.random.Generator(1, device=device, fast=True).random((3,))
    assert _np(again).tolist() == _np(a).tolist()


def test_fast_generator_empty_draws_and_the_backends_value_checks(device):
    """Nothing to draw gives an empty array of the dtype on the device (Dask's own draws fail
    on empty parameters); the backend generator's refusal of an array parameter's values is
    named as arraymux's."""
    g = xp.random.Generator(1, device=device, fast=True)
    empty = xp.ones((0,), device=device)
    one = xp.asarray(1.0, device=device)
    for draw in (lambda: g.gumbel(empty, one), lambda: g.normal(shape=(2, 0))):
        out = draw()
        assert out.size == 0 and out.device == device
        assert xp.isdtype(out.dtype, "real floating")
    if device.backend == "numpy":  # its generator reads the values: -2 is refused
        with pytest.raises(
            ValueError, match=r"arraymux\.random\.Generator\.lognormal: .*fast=True"
        ):
            g.lognormal(0.0, xp.asarray([-2.0], device=device))


ENGINES = [d for d in DEVICES if d.backend in ("numpy", "torch", "jax")]


@pytest.mark.parametrize("device", ENGINES, ids=str)
def test_keys_inside_transforms(device):
    k = xp.random.key(0, device=device)
    ref = _np(xp.random.uniform(k, (3,), xp.float32))
    out = xp.jit(lambda kk: xp.random.uniform(kk, (3,), xp.float32))(k)
    assert out.device == device and _np(out).tolist() == ref.tolist()
    keys = xp.random.split(k, 4)
    batch = xp.vmap(lambda kk: xp.random.uniform(kk, (2,), xp.float32))(keys)
    assert batch.shape == (4, 2)
    for i, ki in enumerate(keys):
        assert _np(batch[i, ...]).tolist() == _np(xp.random.uniform(ki, (2,), xp.float32)).tolist()
    mu = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32, device=device)
    g = xp.grad(lambda m, kk: xp.sum(m * xp.random.normal(kk, (3,), xp.float32)))(mu, k)
    np.testing.assert_allclose(_np(g), _np(xp.random.normal(k, (3,), xp.float32)), rtol=1e-6)
    assert math.isfinite(float(xp.sum(g)))


def test_generator_takes_numpys_size():
    g = xp.random.Generator(4, device="numpy")
    h = xp.random.Generator(4, device="numpy")
    assert _np(g.normal(0.0, 1.0, size=(2, 3))).tolist() == _np(h.normal(0.0, 1.0, (2, 3))).tolist()
    assert g.integers(0, 5, size=4).shape == (4,)
    assert g.choice(5, size=2).shape == (2,)
    with pytest.raises(TypeError, match="shape= or size=, not both"):
        g.random(shape=2, size=2)


# ---------------------------------------------------------------------------------------------
# Arguments are checked, and errors name the function


def _callers(device, fast):
    """Each function and Generator method that takes a shape, as ``name -> call(shape)``."""
    k = xp.random.key(0, device=device)
    g = xp.random.Generator(3, device=device, fast=fast)
    return {
        "bits": lambda s: xp.random.bits(k, s),
        "uniform": lambda s: xp.random.uniform(k, s),
        "normal": lambda s: xp.random.normal(k, s),
        "integers": lambda s: xp.random.integers(k, 0, 5, s),
        "bernoulli": lambda s: xp.random.bernoulli(k, 0.5, s),
        "choice": lambda s: xp.random.choice(k, 10, s),
        "Generator.random": lambda s: g.random(s),
        "Generator.uniform": lambda s: g.uniform(0.0, 1.0, size=s),
        "Generator.normal": lambda s: g.normal(0.0, 1.0, s),
        "Generator.integers": lambda s: g.integers(0, 5, size=s),
        "Generator.bernoulli": lambda s: g.bernoulli(0.5, s),
        "Generator.choice": lambda s: g.choice(10, size=s),
    }


BAD_SHAPES = [
    ("33", TypeError),
    ((2.5,), TypeError),
    ((True, 2), TypeError),
    (2.0, TypeError),
    (True, TypeError),
    (np.zeros(2, dtype=int), TypeError),
    ((3, None), TypeError),
    ((-1,), ValueError),
    (-2, ValueError),
    ((2, -1), ValueError),
]


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_shapes_must_be_ints(device, fast):
    """A string, a float, a bool or a negative size was read as a shape ("33" as (3, 3),
    (2.5,) as (2,), (True, 2) as (1, 2)); now each function refuses it, naming itself."""
    for name, call in _callers(device, fast).items():
        for shape, error in BAD_SHAPES:
            with pytest.raises(error, match=rf"^arraymux\.random\.{name}: shape"):
                call(shape)
        for shape in (np.int64(3), (np.int32(2), 3), [2, 3], 0):
            expect = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
            assert call(shape).shape == expect, name


def _choices(device, fast):
    k = xp.random.key(1, device=device)
    g = xp.random.Generator(5, device=device, fast=fast)
    yield "choice", lambda *a, **kw: xp.random.choice(k, *a, **kw)
    yield "Generator.choice", g.choice


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
@pytest.mark.parametrize("as_array", [False, True], ids=["list", "array"])
def test_choice_checks_the_probabilities(device, fast, as_array):
    """p=[.5, .5, 0] without replacement gave the zero-probability item, and negative, all-zero
    or NaN probabilities gave all 2s; now they raise as NumPy's choice does."""

    def prob(values):
        return xp.asarray(values, device=device) if as_array else values

    for name, choose in _choices(device, fast):
        where = rf"^arraymux\.random\.{name}: "
        with pytest.raises(ValueError, match=where + "Fewer non-zero entries in p than size"):
            choose(3, 3, replace=False, p=prob([0.5, 0.5, 0.0]))
        for values, match in (
            ([-1.0, 1.0, 1.0], "probabilities are not non-negative"),
            ([0.0, 0.0, 0.0], "probabilities do not sum to 1"),
            ([math.nan, 1.0, 1.0], "probabilities contain NaN"),
            ([math.inf, 1.0, 1.0], "probabilities do not sum to 1"),
            ([0.2, 0.2, 0.2], "probabilities do not sum to 1"),
        ):
            for replace in (True, False):
                with pytest.raises(ValueError, match=where + match):
                    choose(3, 2, replace=replace, p=prob(values))
        with pytest.raises(ValueError, match=where + r"p must have shape \(3,\)"):
            choose(3, 2, p=prob([0.5, 0.5]))
        # Items of probability 0 are never drawn, with or without replacement.
        for _ in range(20):
            drawn = _np(choose(3, 2, replace=False, p=prob([0.5, 0.5, 0.0])))
            assert sorted(drawn.tolist()) == [0, 1], name
        many = _np(choose(4, (500,), p=prob([0.0, 0.25, 0.0, 0.75])))
        assert set(many.tolist()) == {1, 3}, name
        last = _np(choose(3, (500,), p=prob([0.5, 0.5, 0.0])))
        assert set(last.tolist()) == {0, 1}, name


def test_choice_probabilities_of_integers_and_float32(device):
    k = xp.random.key(2, device=device)
    ints = xp.asarray([0, 1, 0], device=device)
    assert set(_np(xp.random.choice(k, 3, (10,), p=ints)).tolist()) == {1}
    p32 = xp.asarray([0.1, 0.2, 0.7], dtype=xp.float32, device=device)
    assert xp.random.choice(k, 3, (10,), p=p32).shape == (10,)
    with pytest.raises(TypeError, match=r"^arraymux\.random\.choice: p must hold real"):
        xp.random.choice(k, 3, (2,), p=xp.asarray([True, False, False], device=device))


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_integer_bounds_must_fit_the_dtype(device, fast):
    """The fast JAX generator clipped integers(0, 1000, dtype=uint8) to 0-255; bounds outside
    the dtype now raise on every backend and in both modes."""
    k = xp.random.key(0, device=device)
    g = xp.random.Generator(0, device=device, fast=fast)
    calls = {
        "integers": lambda *a, **kw: xp.random.integers(k, *a, **kw),
        "Generator.integers": g.integers,
    }
    for name, integers in calls.items():
        where = rf"^arraymux\.random\.{name}: "
        with pytest.raises(ValueError, match=where + "high is out of bounds for uint8"):
            integers(0, 1000, dtype=xp.uint8)
        with pytest.raises(ValueError, match=where + "low is out of bounds for uint8"):
            integers(-1, 10, dtype=xp.uint8)
        with pytest.raises(ValueError, match=where + "high is out of bounds for int8"):
            integers(129, dtype=xp.int8)
        with pytest.raises(ValueError, match=where + "needs low < high"):
            integers(5, 5)
        with pytest.raises(ValueError, match=where + "needs low < high"):
            integers(0)
        for low, high in (("a", 3), (1.5, 3), (True, 3), (0, 2.0), (0, [3])):
            with pytest.raises(TypeError, match=where + "(low|high) must be an int"):
                integers(low, high)
        full = _np(integers(0, 256, (2000,), dtype=xp.uint8))
        assert full.dtype == np.uint8 and full.min() >= 0 and full.max() == 255
        signed = _np(integers(-128, 128, (2000,), dtype=xp.int8))
        assert signed.min() == -128 and signed.max() == 127
        assert _np(integers(np.int64(2), np.int32(4), (50,))).tolist() != []


def _draw_in_threads(draw, each, threads=8):
    barrier = threading.Barrier(threads)
    results: list[list[xp.Array]] = [[] for _ in range(threads)]
    errors: list[BaseException] = []

    def work(i):
        try:
            barrier.wait()
            for _ in range(each):
                results[i].append(draw())
        except BaseException as e:  # reported by the test
            errors.append(e)

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: Dask's race showed only then
    try:
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    return [tuple(_np(x).tolist()) for r in results for x in r]


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
@pytest.mark.parametrize("method", ["random", "normal", "integers"])
def test_a_shared_generator_gives_distinct_draws(device, fast, method):
    """Eight threads drawing from one fast Generator got the same numbers (JAX: 125-152 of
    200 draws repeated, Dask: 1-9 of 800 with frequent thread switches): each draw now reads
    and advances the state at once."""
    g = xp.random.Generator(123, device=device, fast=fast)
    draw = {
        "random": lambda: g.random((4,), xp.float32),
        "normal": lambda: g.normal(shape=(4,), dtype=xp.float32),
        "integers": lambda: g.integers(0, 1 << 30, (4,), dtype=xp.int32),
    }[method]
    each = 50 if fast else 6  # the reference draws compute Threefry: slow on Dask's graphs
    draws = _draw_in_threads(draw, each=each)
    assert len(draws) == 8 * each
    assert len(set(draws)) == len(draws), f"{len(draws) - len(set(draws))} repeated draws"


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_dtypes_are_checked_naming_the_function(device, fast):
    """normal(k, (3,), dtype=float64) on 32-bit JAX blamed arraymux.astype; every function now
    names itself for a dtype of the wrong kind, a dtype the device lacks, or no dtype."""
    k = xp.random.key(0, device=device)
    g = xp.random.Generator(0, device=device, fast=fast)
    floats = {
        "uniform": lambda dt: xp.random.uniform(k, (3,), dt),
        "normal": lambda dt: xp.random.normal(k, (3,), dt),
        "Generator.random": lambda dt: g.random((3,), dt),
        "Generator.uniform": lambda dt: g.uniform(0.0, 1.0, (3,), dt),
        "Generator.normal": lambda dt: g.normal(0.0, 1.0, (3,), dt),
    }
    ints = {
        "integers": lambda dt: xp.random.integers(k, 0, 5, (3,), dt),
        "Generator.integers": lambda dt: g.integers(0, 5, (3,), dt),
    }
    for table, wrong, kind in (
        (floats, xp.int32, "float32 or float64"),
        (ints, xp.float32, "an integer dtype"),
    ):
        for name, call in table.items():
            where = rf"^arraymux\.random\.{name}: "
            with pytest.raises(ValueError, match=where + f"dtype must be {kind}"):
                call(wrong)
            with pytest.raises(ValueError, match=where + "dtype must be"):
                call(xp.bool)
            for junk in ("nonsense", object(), float):
                with pytest.raises(TypeError, match=where + "dtype="):
                    call(junk)
    lacking = [dt for dt in (xp.float64, xp.int64, xp.uint64) if not device.supports(dt)]
    for dt in lacking:
        table = floats if dt == xp.float64 else ints
        for name, call in table.items():
            with pytest.raises(xp.UnsupportedDTypeError, match=rf"^arraymux\.random\.{name}: "):
                call(dt)


@pytest.mark.parametrize(
    "name", ["array_api_strict:no_float64", "array_api_strict:no_x64"], ids=str
)
def test_dtypes_the_device_lacks(name):
    """The simulated 32-bit devices: float64 and int64 raise naming the function."""
    device = xp.Device(name)
    k = xp.random.key(0, device=device)
    with pytest.raises(xp.UnsupportedDTypeError, match=r"^arraymux\.random\.normal: "):
        xp.random.normal(k, (3,), dtype=xp.float64)
    with pytest.raises(xp.UnsupportedDTypeError, match=r"^arraymux\.random\.uniform: "):
        xp.random.uniform(k, (3,), dtype=xp.float64)
    for fast in (False, True):
        g = xp.random.Generator(0, device=device, fast=fast)
        with pytest.raises(xp.UnsupportedDTypeError, match=r"^arraymux\.random\.Generator\.normal"):
            g.normal(shape=(3,), dtype=xp.float64)
        assert g.normal(shape=(3,)).dtype == xp.float32
    if not device.supports(xp.int64):
        with pytest.raises(xp.UnsupportedDTypeError, match=r"^arraymux\.random\.integers: "):
            xp.random.integers(k, 0, 5, (3,), dtype=xp.int64)


def test_arrays_on_another_device_are_refused(device):
    """permutation's x, choice's a and p and bernoulli's p were moved (or failed inside
    arraymux.less) when not on the key's device; arraymux never moves arrays implicitly."""
    other = xp.Device("numpy") if device.backend != "numpy" else xp.Device("torch:cpu")
    k = xp.random.key(0, device=device)
    g = xp.random.Generator(0, device=device)
    x = xp.arange(4, device=other)
    p = xp.asarray([0.25, 0.25, 0.25, 0.25], device=other)
    calls = [
        ("permutation", lambda: xp.random.permutation(k, x)),
        ("choice", lambda: xp.random.choice(k, x, (2,))),
        ("choice", lambda: xp.random.choice(k, 4, (2,), p=p)),
        ("bernoulli", lambda: xp.random.bernoulli(k, p)),
        ("Generator.permutation", lambda: g.permutation(x)),
        ("Generator.choice", lambda: g.choice(x, 2)),
        ("Generator.choice", lambda: g.choice(4, 2, p=p)),
        ("Generator.bernoulli", lambda: g.bernoulli(p)),
    ]
    for name, call in calls:
        with pytest.raises(xp.BackendMismatchError, match=rf"^arraymux\.random\.{name}: "):
            call()
    # Drawing on the array's device is the fix.
    moved = xp.random.permutation(k, x, device=other)
    assert moved.device == other and sorted(_np(moved).tolist()) == [0, 1, 2, 3]


HOSTILE = [
    None,
    True,
    -1,
    2**70,
    1.5,
    math.nan,
    math.inf,
    "x",
    b"x",
    (1,),
    [1.5],
    {},
    object(),
    np.zeros(2),
    xp.float32,
    1 + 2j,
    np.array(3),
    lambda: 0,
]


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_hostile_arguments_are_refused_naming_the_function(device, fast):
    """Every argument of every function and method, given junk: either it is accepted, or a
    TypeError/ValueError names the function; never a backend's error or a crash."""
    k = xp.random.key(0, device=device)
    g = xp.random.Generator(1, device=device, fast=fast)
    square = xp.ones((2, 2), device=device)
    calls = {
        "split": lambda v: xp.random.split(k, v),
        "fold_in": lambda v: xp.random.fold_in(k, v),
        "key": lambda v: xp.random.key(v, device=device),
        "normal": lambda v: xp.random.normal(v, (2,)),
        "bits": lambda v: xp.random.bits(k, (2,), device=v),
        "uniform": lambda v: xp.random.uniform(k, (2,), None, v),
        "integers": lambda v: xp.random.integers(k, 0, v),
        "bernoulli": lambda v: xp.random.bernoulli(k, v, (2,)),
        "permutation": lambda v: xp.random.permutation(k, v),
        "permutation ": lambda v: xp.random.permutation(k, square, v),
        "choice": lambda v: xp.random.choice(k, v),
        "choice ": lambda v: xp.random.choice(k, 3, (2,), v),
        "choice  ": lambda v: xp.random.choice(k, 3, (2,), True, v),
        "Generator": lambda v: xp.random.Generator(v, device=device, fast=fast),
        "Generator ": lambda v: xp.random.Generator(1, device=device, fast=v),
        "Generator.uniform": lambda v: g.uniform(v),
        "Generator.normal": lambda v: g.normal(0.0, v),
        "Generator.integers": lambda v: g.integers(v),
        "Generator.permutation": lambda v: g.permutation(v),
        "Generator.choice": lambda v: g.choice(3, 2, False, v),
        "Generator.bernoulli": lambda v: g.bernoulli(v),
    }
    for name, call in calls.items():
        for value in HOSTILE:
            try:
                out = call(value)
            except (TypeError, ValueError) as e:
                assert str(e).startswith(f"arraymux.random.{name.strip()}: "), (name, value, e)
            else:
                _np(out) if isinstance(out, xp.Array) else None


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_a_refused_call_draws_nothing(device, fast):
    g = xp.random.Generator(9, device=device, fast=fast)
    h = xp.random.Generator(9, device=device, fast=fast)
    for bad in (
        lambda: g.integers(0, 1000, dtype=xp.uint8),
        lambda: g.normal(shape="33"),
        lambda: g.choice(3, 3, replace=False, p=[0.5, 0.5, 0.0]),
        lambda: g.normal(0.0, -1.0),
    ):
        with pytest.raises((TypeError, ValueError)):
            bad()
    assert _np(g.random((5,), xp.float32)).tolist() == _np(h.random((5,), xp.float32)).tolist()


def test_arrays_on_another_device_of_the_backend_are_refused():
    """The same check between two devices of one backend (array-api-strict's simulated ones)."""
    k = xp.random.key(0, device="array_api_strict:device1")
    x = xp.arange(4, device="array_api_strict:device2")
    with pytest.raises(xp.DeviceMismatchError, match=r"^arraymux\.random\.permutation: x is on"):
        xp.random.permutation(k, x)
    with pytest.raises(xp.DeviceMismatchError, match=r"^arraymux\.random\.Generator\.choice: "):
        xp.random.Generator(0, device="array_api_strict:device1", fast=True).choice(x, 2)
    moved = xp.random.permutation(k, x, device="array_api_strict:device2")
    assert moved.device == x.device and sorted(_np(moved).tolist()) == [0, 1, 2, 3]


# -- the same numbers as jax.random, on every device -------------------------------------------


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in units in the last place between two float arrays."""
    it = np.int32 if a.dtype == np.float32 else np.int64
    ai, bi = a.view(it).astype(np.int64), b.view(it).astype(np.int64)
    lowest = int(np.iinfo(it).min)
    ai, bi = np.where(ai < 0, lowest - ai, ai), np.where(bi < 0, lowest - bi, bi)
    return int(np.abs(ai - bi).max(initial=0))


def _jax_draws(seed: int) -> dict[str, np.ndarray]:
    import jax
    import jax.numpy as jnp

    assert jax.config.jax_threefry_partitionable  # JAX's default, the one matched
    k = jax.random.PRNGKey(seed)
    assert np.asarray(jax.random.key_data(jax.random.key(seed))).tolist() == np.asarray(k).tolist()
    p = jnp.asarray([0.1, 0.0, 0.3, 0.6], dtype=jnp.float32)
    return {
        "key": k,
        "split": jax.random.split(k, 5),
        "fold_in": jax.random.fold_in(k, 123456789),
        "bits": jax.random.bits(k, (7, 3)),
        "uniform": jax.random.uniform(k, (1001,)),
        "uniform_range": jax.random.uniform(k, (1001,), minval=-3.0, maxval=5.5),
        "normal": jax.random.normal(k, (5000,)),
        "bernoulli": jax.random.bernoulli(k, 0.3, (100,)),
        "int32": jax.random.randint(k, (500,), -7, 1000),
        "int32_wide": jax.random.randint(k, (500,), -(2**31), 2**31 - 5),
        "uint32": jax.random.randint(k, (500,), jnp.uint32(5), jnp.uint32(2**32 - 1), jnp.uint32),
        "uint8": jax.random.randint(k, (500,), 0, 256, jnp.uint8),
        "int8": jax.random.randint(k, (500,), -128, 100, jnp.int8),
        "int16": jax.random.randint(k, (500,), -1000, 30000, jnp.int16),
        "permutation": jax.random.permutation(k, 50),
        "permutation_2_rounds": jax.random.permutation(k, 3000),
        "choice": jax.random.choice(k, 10, (6,)),
        "choice_no_replace": jax.random.choice(k, 10, (6,), replace=False),
        "choice_p": jax.random.choice(k, 4, (50,), p=p),
        "choice_p_no_replace": jax.random.choice(k, 4, (3,), replace=False, p=p),
    }


def _arraymux_draws(seed: int, device: xp.Device) -> dict[str, np.ndarray]:
    r = xp.random
    k = r.key(seed, device=device)
    p = xp.asarray([0.1, 0.0, 0.3, 0.6], dtype=xp.float32, device=device)
    return {
        "key": k,
        "split": r.split(k, 5),
        "fold_in": r.fold_in(k, 123456789),
        "bits": r.bits(k, (7, 3)),
        "uniform": r.uniform(k, (1001,)),
        "uniform_range": r.uniform(k, (1001,), minval=-3.0, maxval=5.5),
        "normal": r.normal(k, (5000,)),
        "bernoulli": r.bernoulli(k, 0.3, (100,)),
        "int32": r.integers(k, -7, 1000, (500,)),
        "int32_wide": r.integers(k, -(2**31), 2**31 - 5, (500,)),
        "uint32": r.integers(k, 5, 2**32 - 1, (500,), xp.uint32),
        "uint8": r.integers(k, 0, 256, (500,), xp.uint8),
        "int8": r.integers(k, -128, 100, (500,), xp.int8),
        "int16": r.integers(k, -1000, 30000, (500,), xp.int16),
        "permutation": r.permutation(k, 50),
        "permutation_2_rounds": r.permutation(k, 3000),
        "choice": r.choice(k, 10, (6,)),
        "choice_no_replace": r.choice(k, 10, (6,), replace=False),
        "choice_p": r.choice(k, 4, (50,), p=p),
        "choice_p_no_replace": r.choice(k, 4, (3,), replace=False, p=p),
    }


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")
@pytest.mark.parametrize("seed", [0, 42, 2**31 - 3])  # JAX without x64 takes 32-bit seeds
def test_the_same_numbers_as_jax_random(device, seed):
    want = {n: np.asarray(v) for n, v in _jax_draws(seed).items()}
    got = {n: _np(v) for n, v in _arraymux_draws(seed, device).items()}
    for name, w in want.items():
        g = got[name]
        if w.dtype == np.uint32 and g.dtype.kind == "i":  # torch's words: the same bits
            g, w = g.astype(np.int64) & 0xFFFFFFFF, w.astype(np.int64)
        if name == "normal":  # JAX's erfinv fuses its multiply-adds: a few ulp
            assert g.dtype == w.dtype and _ulps(g, w) <= 3, name
        elif name == "uniform_range":  # XLA fuses u * span + low into one rounding
            assert g.dtype == w.dtype and np.abs(g - w).max() <= np.spacing(np.float32(8.5)), name
        else:
            assert g.dtype.kind == w.dtype.kind and g.tolist() == w.tolist(), name


def test_every_device_draws_the_same_bits(device):
    """Floats too: every sampler's arithmetic is rounded exactly, on every device (within a
    few ulp on JAX's GPUs, whose float32 division and square roots are approximate: see
    ``tests/_rounding.py``); uniform floats are the same bits there too."""
    ref = {n: _np(v) for n, v in _arraymux_draws(7, xp.Device("numpy")).items()}
    got = {n: _np(v) for n, v in _arraymux_draws(7, device).items()}
    for name, r in ref.items():
        if name.startswith("uniform"):  # no division: the same bits everywhere
            assert got[name].tobytes() == r.tobytes(), name
        assert_same_draws(got[name], r, device, name)
    k = xp.random.key(7, device=device)
    if device.supports(xp.float64):
        z = _np(xp.random.normal(k, (4000,), xp.float64))
        assert_same_draws(
            z, _np(xp.random.normal(xp.random.key(7), (4000,), xp.float64)), device, "normal64"
        )
        u = _np(xp.random.uniform(k, (100,), xp.float64))
        assert u.tobytes() == _np(xp.random.uniform(xp.random.key(7), (100,), xp.float64)).tobytes()


# -- one dtype on every device without dtype= --------------------------------------------------


def test_draws_without_dtype_are_float32_and_int32_on_every_device(device):
    k = xp.random.key(1, device=device)
    g = xp.random.Generator(1, device=device)
    fast = xp.random.Generator(1, device=device, fast=True)
    for x in (
        xp.random.uniform(k, (2,)),
        xp.random.normal(k, (2,)),
        g.random((2,)),
        g.normal(shape=(2,)),
        g.uniform(size=(2,)),
        fast.random((2,)),
        fast.normal(size=2),
    ):
        assert x.dtype == xp.float32
    for i in (
        xp.random.integers(k, 5, shape=(2,)),
        g.integers(5, size=2),
        fast.integers(5, size=2),
    ):
        assert i.dtype == xp.int32
    ref = _np(xp.random.normal(xp.random.key(1), (6,)))
    assert _np(xp.random.normal(k, (6,))).tobytes() == ref.tobytes()


def test_a_default_dtype_policy_sets_the_dtype_of_draws(device):
    k = xp.random.key(1, device=device)
    g = xp.random.Generator(1, device=device)
    fast = xp.random.Generator(1, device=device, fast=True)
    floating = xp.float64 if device.supports(xp.float64) else xp.float32
    integral = xp.int64 if device.supports(xp.int64) else xp.int32
    with xp.default_dtypes(real_floating=xp.float64, integral=xp.int64):
        for x in (xp.random.normal(k, (2,)), g.random((2,)), fast.normal(size=2)):
            assert x.dtype == floating
        for i in (xp.random.integers(k, 9, shape=(2,)), g.integers(9, size=2), fast.integers(9)):
            assert i.dtype == integral
    assert xp.random.normal(k, (2,)).dtype == xp.float32


# -- the Generator derives its keys on the device ---------------------------------------------


def test_generator_draw_i_uses_fold_in_of_the_seed_key(device):
    g = xp.random.Generator(11, device=device)
    k = xp.random.key(11, device=device)
    for i in range(3):
        got = _np(g.normal(size=(5,)))
        assert got.tobytes() == _np(xp.random.normal(xp.random.fold_in(k, i), (5,))).tobytes()
    assert (
        _np(g.integers(0, 100, size=4)).tolist()
        == _np(xp.random.integers(xp.random.fold_in(k, 3), 0, 100, (4,))).tolist()
    )


def test_dask_draws_ignore_the_warnings_of_dasks_frexp_placeholder(monkeypatch):
    # dask's frexp runs NumPy's on uninitialised memory to learn its result's type, which
    # warned now and then ("invalid value"): a failure under warnings-as-errors, in no data.
    d = xp.Device("dask")
    ns = d._backend.ns
    real = ns.frexp

    calls = []

    def frexp(x):
        calls.append(x)
        np.sqrt(np.array(-1.0))  # what the placeholder may do: warns unless ignored
        return real(x)

    monkeypatch.setattr(ns, "frexp", frexp)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fast in (False, True):
            g = xp.random.Generator(3, device=d, fast=fast)
            drawn = _np(g.choice(4, 2, replace=False, p=[0.0, 0.25, 0.0, 0.75]))
            assert sorted(drawn.tolist()) == [1, 3]
    assert calls, "the draws did not reach dask's frexp"


@pytest.mark.parametrize(
    "name",
    ["array_api_strict", "array_api_strict:device1", "array_api_strict:no_x64", "dask"],
    ids=str,
)
def test_strict_and_dask_draws_compute_on_numpy(name, monkeypatch):
    # array-api-strict runs every operation through its checks: a draw of 8 normals took
    # 10 ms as ~200 of them; it computes on NumPy and comes back, the same numbers (as Dask's
    # draws, whose graphs of tiny tasks cost more than the draws)
    pytest.importorskip(name.partition(":")[0])
    from arraymux.random import _core

    device, ref = xp.Device(name), xp.random.key(8)
    calls = []
    original = _core._through_numpy

    def spy(kernel, *args):
        calls.append(kernel)
        return original(kernel, *args)

    monkeypatch.setattr(_core, "_through_numpy", spy)
    k = xp.random.key(8, device=device)
    alpha = xp.asarray([0.5, 2.0, 7.5], dtype=xp.float32, device=device)
    draws = {
        "normal": lambda key: xp.random.normal(key, (5, 3), xp.float32),
        "split": lambda key: xp.random.split(key, 3),
        "integers": lambda key: xp.random.integers(key, -4, 90, (7,), xp.int32),
        "gamma": lambda key: xp.random.gamma(key, alpha if key is k else _np_alpha(alpha)),
        "dirichlet": lambda key: xp.random.dirichlet(key, alpha if key is k else _np_alpha(alpha)),
        "permutation": lambda key: xp.random.permutation(key, 10),
    }
    for what, draw in draws.items():
        got, want = draw(k), draw(ref)
        assert got.device == device and got.dtype == want.dtype, what
        np.testing.assert_array_equal(_np(got), _np(want), err_msg=what)
    assert len(calls) >= len(draws)
    # a Generator draws its floats in C from its next key's words (8 normals: 10.7 ms -> 18 us
    # on strict, 1.3 ms -> 0.1 ms on Dask), across its blocks of keys, integers between
    from arraymux.random import _generator

    g, h = xp.random.Generator(2, device=device), xp.random.Generator(2)
    for i in range(_generator._BLOCK + 2):
        got = g.normal(size=4) if i % 2 else g.random(3)
        assert got.device == device
        np.testing.assert_array_equal(_np(got), _np(h.normal(size=4) if i % 2 else h.random(3)))
        np.testing.assert_array_equal(_np(g.integers(0, 9, 2)), _np(h.integers(0, 9, 2)))


def _np_alpha(a):
    return xp.asarray(_np(a))


def test_torch_cpu_draws_through_numpy_take_any_result_back():
    # torch's CPU draws compute on NumPy and hand the result back over its memory where torch
    # can take it; a read-only or reversed result goes back as a copy, with its values.
    pytest.importorskip("torch")
    from arraymux.random import _core

    def reversed_read_only(k):
        a = np.arange(6, dtype=np.float32)[::-1]
        a.flags.writeable = False
        return xp.asarray(a)

    key = xp.random.key(3, device="torch:cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch warns of a read-only array it would share
        got = _core._through_numpy(reversed_read_only, key, (), ())
    assert got.device == xp.Device("torch:cpu") and got.dtype == xp.float32
    assert _np(got).tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    # keys and bits come back as torch computes with them: int32 words (torch's uint32 runs
    # on signed kernels), int64 values; integers of a uint32 dtype asked for stay uint32
    assert key.dtype == xp.int32
    bits = xp.random.bits(key, (5,))
    assert bits.dtype == xp.int64
    assert _np(bits).tolist() == _np(xp.random.bits(xp.random.key(3), (5,))).tolist()
    for keys in (xp.random.split(key, 3), xp.random.fold_in(key, 7)):
        assert keys.dtype == xp.int32
    keys = xp.random.split(key, 3)
    assert (_np(keys).view(np.uint32) == _np(xp.random.split(xp.random.key(3), 3))).all()
    ints = xp.random.integers(key, 0, 2**32, (4,), dtype=xp.uint32)
    assert ints.dtype == xp.uint32 and str(ints.native.dtype) == "torch.uint32"
    numpys = xp.random.integers(xp.random.key(3), 0, 2**32, (4,), dtype=xp.uint32)
    assert _np(ints).tolist() == _np(numpys).tolist()


def test_fast_generator_without_the_backends_distribution(device, monkeypatch):
    """A fast Generator whose backend has no generator of a distribution (CuPy's lacks some)
    draws it from a key of the backend's generator, through the reference kernels."""
    g = xp.random.Generator(3, device=device, fast=True)
    if g._native is None or device.backend == "jax":  # jax.random has every distribution
        pytest.skip(f"no fast generator without a distribution on {device}")
    monkeypatch.setattr(type(g._native), "dist", lambda self, *a, **k: None)
    for draw in (
        lambda: g.laplace(1.0, 2.0, size=5),
        lambda: g.exponential(2.0, size=5),
        lambda: g.lognormal(0.0, 0.5, size=5),
        lambda: g.pareto(3.0, size=5),
        lambda: g.weibull(1.5, size=5),
    ):
        out = draw()
        assert out.shape == (5,) and out.device == device
        assert np.isfinite(_np(out)).all()
