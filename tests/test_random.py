"""arraymux.random: known answers, the same numbers on every device, sound statistics, clear
errors, and keys inside the transforms."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

import arraymux as xp
from arraymux.random._threefry import threefry2x32, threefry2x32_int

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
    words = xp.random.bits(k, (2,))
    assert _np(words).tolist() == list(KNOWN[0][2])
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


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")
def test_bits_are_jax_threefry_blocks():
    """Block i of a draw is Threefry of counter (i, 0): the same words as JAX's own kernel."""
    import jax.extend.random as jr
    import jax.numpy as jnp

    seed = 12345
    words = _np(xp.random.bits(xp.random.key(seed, device="numpy"), (8,)))
    kk = jnp.asarray([seed >> 32, seed & 0xFFFFFFFF], dtype=jnp.uint32)
    counts = jnp.concatenate([jnp.arange(4, dtype=jnp.uint32), jnp.zeros(4, jnp.uint32)])
    y = np.asarray(jr.threefry_2x32(kk, counts))
    assert words.tolist() == np.stack([y[:4], y[4:]], axis=1).reshape(-1).tolist()


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
    info = xp.__array_namespace_info__().default_dtypes(device=device)
    assert xp.random.normal(k0, (2,)).dtype == info["real floating"]
    assert xp.random.integers(k0, 5, shape=(2,)).dtype == info["integral"]


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
    assert set(_np(xp.random.choice(k3, 4, (2,), replace=False, p=w + 0.001))) >= {2}
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
            lambda: xp.random.integers(xp.random.key(0), 0, 1 << 33),
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
        (lambda: xp.random.normal(xp.random.key(0), (-1,)), ValueError, "negative dimension"),
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
    info = xp.__array_namespace_info__().default_dtypes(device=device)
    a = g.random((3,))
    assert a.device == device and a.dtype == info["real floating"]
    assert g.normal(shape=(2, 2)).shape == (2, 2)
    i = g.integers(3, 9, (40,))
    assert i.dtype == info["integral"] and set(_np(i).tolist()) <= set(range(3, 9))
    assert sorted(_np(g.permutation(5)).tolist()) == list(range(5))
    assert len(set(_np(g.choice(9, (4,), replace=False)).tolist())) == 4
    assert g.bernoulli(0.5, (3,)).dtype == xp.bool
    again = xp.random.Generator(1, device=device, fast=True).random((3,))
    assert _np(again).tolist() == _np(a).tolist()


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
