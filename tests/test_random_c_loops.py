"""The C loops of integers, float64 floats and key derivation against their Python paths.

Where the compiled extension is on, NumPy draws of ``integers``, float64 ``uniform`` and
``normal`` and the keys of ``split`` and ``fold_in`` are computed by ``_speedups.integers``,
``uniform_f64``, ``normal_f64`` and ``threefry_pair``/``threefry2x32``; with them switched
off the same draws take the
Python and NumPy operations (the reference): every number must be the same, bit for bit, and
buffers the loops cannot take must be refused with an error, never a crash.
"""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp
from arraymux import _compiled
from arraymux.random import _core
from arraymux.random._special import normal64_constants
from arraymux.random._threefry import (
    MASK32,
    threefry2x32_int,
    threefry2x32_int_ops,
    threefry_keys,
    threefry_numpy_ops,
    threefry_range,
)

LOOPS = (
    "integers",
    "uniform_f64",
    "normal_f64",
    "uniform_f32",
    "normal_f32",
    "threefry2x32",
    "threefry_pair",
    "threefry_keys",
)
needs_ext = pytest.mark.skipif(_compiled.integers is None, reason="the compiled extension is off")

SEEDS = [0, 1, 42, 2**32 - 1, 2**32, 2**64 - 1, 0x0123456789ABCDEF]
SHAPES = [(), (0,), (1,), (2,), (7,), (8,), (9,), (3, 5), (2, 0, 3), (255,), (257,), (1031,)]


def _without_loops(f, *args):
    """``f(*args)`` with every C loop of the random numbers off, as a NumPy array."""
    saved = {name: getattr(_compiled, name) for name in LOOPS}
    for name in LOOPS:
        setattr(_compiled, name, None)
    try:
        return np.asarray(xp.to_numpy(f(*args)))
    finally:
        for name, loop in saved.items():
            setattr(_compiled, name, loop)


def _same(f, *args):
    """``f(*args)`` with the C loops, checked against the same call without them."""
    got = np.asarray(xp.to_numpy(f(*args)))
    want = _without_loops(f, *args)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    return got


BOUNDS = [
    (xp.int8, -128, 127),
    (xp.int8, -128, -127),
    (xp.int8, 0, 100),
    (xp.uint8, 0, 256),
    (xp.uint8, 255, 256),
    (xp.int16, -32768, 32767),
    (xp.int16, -300, 30000),
    (xp.uint16, 5, 65536),
    (xp.int32, 0, 10),
    (xp.int32, -7, -6),
    (xp.int32, -(2**31), 2**31 - 1),
    (xp.int32, 0, 65535),
    (xp.int32, 0, 65536),
    (xp.int32, 0, 65537),
    (xp.int32, -(2**31), -(2**31) + 3),
    (xp.uint32, 0, 2**32 - 1),
    (xp.uint32, 3, 2**31 + 7),
    (xp.uint32, 2**32 - 2, 2**32),
    (xp.int64, -5, 3 * 2**30),
    (xp.int64, -(2**31), 2**31),
    (xp.int64, -(2**63), -(2**63) + 2**32),
    (xp.int64, 2**63 - 2**32, 2**63 - 1),
    (xp.int64, 2**63 - 2, 2**63 - 1),
    (xp.int64, -(2**40), -(2**40) + 2**32 - 1),
    (xp.uint64, 0, 2**32),
    (xp.uint64, 2**64 - 2**32, 2**64 - 1),
    (xp.uint64, 2**63, 2**63 + 12345),
]


@needs_ext
@pytest.mark.parametrize("bounds", BOUNDS, ids=lambda b: f"{b[0]}:{b[1]}:{b[2]}")
def test_c_integers_are_the_python_paths(bounds):
    dt, low, high = bounds
    for seed in SEEDS:
        k = xp.random.key(seed)
        for shape in SHAPES:
            got = _same(xp.random.integers, k, low, high, shape, dt)
            assert got.shape == shape
            assert got.size == 0 or (int(got.min()) >= low and int(got.max()) < high)


@needs_ext
@pytest.mark.parametrize("dt", [xp.int32, xp.int64, xp.uint8])
def test_c_integers_of_large_draws(dt):
    # more than a piece of the Python path (2**15 counters) and many blocks of the C loop
    k = xp.random.key(7)
    high = {xp.int32: 2**31 - 1, xp.int64: 3 * 2**30, xp.uint8: 200}[dt]
    got = _same(xp.random.integers, k, 1, high, (100_003,), dt)
    assert len(np.unique(got)) > 100
    _same(xp.random.integers, k, 0, 6, (123_457,), dt)


@needs_ext
def test_c_integers_with_a_start_are_a_slice_of_the_draw():
    k = xp.random.key(3)
    k0, k1 = (int(w) for w in xp.to_numpy(k).tolist())
    full = np.asarray(xp.to_numpy(xp.random.integers(k, -9, 1000, (5000,), xp.int64)))
    for start in (1, 255, 256, 257, 4093):
        part = np.empty(5000 - start, np.int64)
        _compiled.integers(k0, k1, start, part, 1009, -9)
        np.testing.assert_array_equal(part, full[start:])


@needs_ext
def test_integers_in_the_generator_and_choice_are_the_python_paths():
    def draw(seed, low, high, size):
        return xp.random.Generator(seed).integers(low, high, size=size)

    def calls(seed, n):  # across the generator's blocks of keys
        g = xp.random.Generator(seed)
        return xp.concat([g.integers(0, 1000, size=(3,)) for _ in range(n)])

    _same(draw, 5, 0, 10, (8,))
    _same(calls, 9, 150)
    _same(draw, 2**40, -(2**31), 2**31 - 1, (1001,))
    _same(xp.random.choice, xp.random.key(1), 50, (9,))


@needs_ext
@pytest.mark.parametrize("dt", [xp.float32, xp.float64])
def test_c_uniforms_are_the_python_paths(dt):
    for seed in SEEDS:
        k = xp.random.key(seed)
        for shape in SHAPES:
            got = _same(xp.random.uniform, k, shape, dt)
            assert got.size == 0 or (got.min() >= 0.0 and got.max() < 1.0)
            _same(xp.random.uniform, k, shape, dt, -3.5, 1e10)
            _same(xp.random.normal, k, shape, dt)
    got = _same(xp.random.uniform, xp.random.key(4), (100_003,), dt)
    assert len(np.unique(got)) > 99_000


@needs_ext
@pytest.mark.parametrize("seed", [0, 5, 2**63 + 1])
def test_c_float64_normals_are_numpys_operations(seed):
    # both comparisons of log1p and erfinv's polynomial for w < 6.25 and for w < 16 (about
    # one draw in a thousand) among them
    got = _same(xp.random.normal, xp.random.key(seed), (200_003,), xp.float64)
    assert got.dtype == np.float64
    assert (np.abs(got) > 3.3).sum() > 50 and (np.abs(got) < 0.5).any()


#: Counters of key(0) whose float64 uniform is within 3e-8 of 0 or 1: normals beyond 5.3 in
#: magnitude, from erfinv's polynomial for w >= 16 (about one draw in 2e7).
TAIL_COUNTERS = [125420283, 24820701, 106792380, 73092741, 258879366]


@needs_ext
@pytest.mark.parametrize("counter", TAIL_COUNTERS)
def test_c_float64_normals_in_the_far_tails(counter):
    k = xp.random.key(0)
    out = np.empty(8)
    _compiled.normal_f64(0, 0, counter - 3, out, normal64_constants())
    want = _without_loops(
        lambda: _core.normal_of(_core.floats(*_core.blocks(k, 8, counter - 3), xp.float64))
    )
    np.testing.assert_array_equal(out, want)
    assert abs(out[3]) > 5.3


@needs_ext
def test_c_key_derivation_is_the_python_paths():
    for seed in SEEDS:
        k = xp.random.key(seed)
        for num in (0, 1, 2, 3, 8, 1001):
            _same(xp.random.split, k, num)
        for data in (0, 1, 7, 2**31, MASK32):
            _same(xp.random.fold_in, k, data)
        _same(xp.random.bits, k, (33,))
        _same(xp.random.permutation, k, 100)


@needs_ext
def test_threefry_pair_is_the_python_rounds():
    rng = np.random.default_rng(0)
    words = [0, 1, MASK32, 0x80000000, *rng.integers(0, 2**32, 40).tolist()]
    for i, k0 in enumerate(words):
        for k1, c0, c1 in zip(words[i:], words[1:], [*words[2:], 0, 0], strict=False):
            assert threefry2x32_int((k0, k1), (c0, c1)) == threefry2x32_int_ops((k0, k1), (c0, c1))
    # the reference's known answer
    got = _compiled.threefry_pair(0x13198A2E, 0x03707344, 0x243F6A88, 0x85A308D3)
    assert got == (0xC4923A9C, 0x483DF7A0)
    assert _compiled.threefry_pair(2**40 + 7, -1, 2**32 + 3, -2) == _compiled.threefry_pair(
        7, MASK32, 3, MASK32 - 1
    )


@needs_ext
@pytest.mark.parametrize("start", [0, 3, 2**32 - 5])
@pytest.mark.parametrize("n", [0, 1, 9, 1025])
def test_threefry_range_and_keys_are_numpys_rounds(start, n):
    counter = ((start + np.arange(n, dtype=np.int64)) % 2**32).astype(np.uint32)
    want = threefry_numpy_ops(11, 12, counter)
    np.testing.assert_array_equal(threefry_range(11, 12, start, n), want)
    keys = threefry_keys(11, 12, start, n)
    assert keys.shape == (n, 2) and keys.dtype == np.uint32
    np.testing.assert_array_equal(keys, np.stack(want, axis=1))
    np.testing.assert_array_equal(_without_loops(threefry_keys, 11, 12, start, n), keys)


@needs_ext
def test_the_key_loop_refuses_what_it_cannot_take():
    loop = _compiled.threefry_keys
    out = np.zeros((4, 2), np.uint32)
    with pytest.raises(TypeError, match="4 arguments"):
        loop(1, 2, 0)
    with pytest.raises(TypeError, match="key words must be ints"):
        loop(1, 2.5, 0, out)
    with pytest.raises(TypeError, match="first counter must be an int"):
        loop(1, 2, None, out)
    for dtype in (np.int32, np.float32, np.uint64, np.uint16):
        with pytest.raises(TypeError, match="32-bit unsigned words"):
            loop(1, 2, 0, np.zeros((4, 2), dtype))
    with pytest.raises(ValueError, match="pairs of words"):
        loop(1, 2, 0, np.zeros(7, np.uint32))
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, np.zeros((4, 4), np.uint32)[:, :2])  # not contiguous
    misaligned = np.frombuffer(bytearray(33), dtype=np.uint32, count=8, offset=1)
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, misaligned)
    readonly = np.zeros((4, 2), np.uint32)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, readonly)
    assert not out.any()
    loop(1, 2, 0, np.zeros((0, 2), np.uint32))


@needs_ext
def test_the_integer_loop_refuses_what_it_cannot_take():
    loop = _compiled.integers
    out = np.zeros(8, np.int32)
    with pytest.raises(TypeError, match="6 arguments"):
        loop(1, 2, 0, out, 10)
    with pytest.raises(TypeError, match="key words must be ints"):
        loop(1.0, 2, 0, out, 10, 0)
    with pytest.raises(TypeError, match="first counter must be an int"):
        loop(1, 2, np.arange(8, dtype=np.uint32), out, 10, 0)
    with pytest.raises(TypeError, match="span and low must be ints"):
        loop(1, 2, 0, out, 10.0, 0)
    with pytest.raises(TypeError, match="span and low must be ints"):
        loop(1, 2, 0, out, 10, None)
    for span in (0, -1, 2**32 + 1, 2**70, -(2**70)):
        with pytest.raises(ValueError, match=r"span must be in \[1, 2\*\*32\]"):
            loop(1, 2, 0, out, span, 0)
    for dtype in (np.float32, np.float64, np.bool_, np.complex64):
        with pytest.raises(TypeError, match="out must be a buffer of integers"):
            loop(1, 2, 0, np.zeros(8, dtype), 10, 0)
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, np.zeros(16, np.int32)[::2], 10, 0)  # not contiguous
    readonly = np.zeros(8, np.int32)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, readonly, 10, 0)
    misaligned = np.frombuffer(bytearray(37), dtype=np.int32, count=8, offset=1)
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, misaligned, 10, 0)
    with pytest.raises(TypeError):
        loop(1, 2, 0, [0] * 8, 10, 0)  # no buffer
    with pytest.raises((TypeError, BufferError)):
        loop(1, 2, 0, b"12345678", 10, 0)  # read-only bytes
    assert not out.any()  # nothing written
    loop(1, 2, 0, np.zeros(0, np.int64), 2**32, -5)  # nothing to write
    small = np.zeros(3, np.uint8)
    loop(1, 2, 0, small, 1, 255)  # span 1: low itself
    assert small.tolist() == [255, 255, 255]


@needs_ext
def test_the_float64_uniform_loop_refuses_what_it_cannot_take():
    loop = _compiled.uniform_f64
    out = np.zeros(4, np.float64)
    with pytest.raises(TypeError, match="4 arguments"):
        loop(1, 2, 0)
    with pytest.raises(TypeError, match="key words must be ints"):
        loop("1", 2, 0, out)
    with pytest.raises(TypeError, match="first counter must be an int"):
        loop(1, 2, 0.5, out)
    for dtype in (np.float32, np.int64, np.uint64, np.complex128):
        with pytest.raises(TypeError, match="out must be a buffer of float64"):
            loop(1, 2, 0, np.zeros(4, dtype))
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, np.zeros(8)[::2])
    misaligned = np.frombuffer(bytearray(40), dtype=np.float64, count=4, offset=4)
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, misaligned)
    assert not out.any()
    loop(1, 2, 2**32 + 1, out)  # the first counter modulo 2**32
    again = np.zeros(4)
    loop(1, 2, 1, again)
    np.testing.assert_array_equal(out, again)


@needs_ext
def test_the_float64_normal_loop_refuses_what_it_cannot_take():
    loop = _compiled.normal_f64
    out = np.zeros(4)
    k = normal64_constants()
    assert not k.flags.writeable and k.shape == (76,)
    with pytest.raises(TypeError, match="5 arguments"):
        loop(1, 2, 0, out)
    with pytest.raises(TypeError, match="key words must be ints"):
        loop(1, None, 0, out, k)
    with pytest.raises(TypeError, match="first counter must be an int"):
        loop(1, 2, np.arange(4, dtype=np.uint32), out, k)
    with pytest.raises(TypeError, match="out must be a buffer of float64"):
        loop(1, 2, 0, np.zeros(4, np.float32), k)
    with pytest.raises(TypeError, match="76 float64"):
        loop(1, 2, 0, out, k[:75])
    with pytest.raises(TypeError, match="76 float64"):
        loop(1, 2, 0, out, k.astype(np.float32))
    with pytest.raises((TypeError, BufferError)):
        loop(1, 2, 0, out, None)
    readonly = np.zeros(4)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        loop(1, 2, 0, readonly, k)
    assert not out.any()
    loop(1, 2, 2**32 + 1, out, k)  # the first counter modulo 2**32
    again = np.zeros(4)
    loop(1, 2, 1, again, k)
    np.testing.assert_array_equal(out, again)


@needs_ext
def test_threefry_pair_refuses_what_it_cannot_take():
    pair = _compiled.threefry_pair
    with pytest.raises(TypeError, match="4 arguments"):
        pair(1, 2, 3)
    with pytest.raises(TypeError, match="key words must be ints"):
        pair(1, 2.0, 3, 4)
    with pytest.raises(TypeError, match="must be an int"):
        pair(1, 2, 3, np.uint32(4))


@needs_ext
@pytest.mark.parametrize("draw", ["normal", "uniform"])
def test_large_float64_draws_are_the_fallbacks_floats(draw):
    # (torch's large draws on several threads: tests/test_random_threads.py)
    from arraymux.random import _threads

    n = 2 * _threads.MIN_PIECE + 3
    want = getattr(xp.random, draw)(xp.random.key(5), (n,), xp.float64)
    np.testing.assert_array_equal(
        _without_loops(getattr(xp.random, draw), xp.random.key(5), (n,), xp.float64),
        xp.to_numpy(want),
    )


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_a_generators_keys_are_fold_in_from_its_first_call(seed):
    # the first call's key is made alone on NumPy, the others come in blocks: fold_in(key, i)
    g = xp.random.Generator(seed, device="numpy")
    k = xp.random.key(seed, device="numpy")
    for i in range(130):
        got = g._key()
        assert got.dtype == xp.uint32 and got.shape == (2,)
        np.testing.assert_array_equal(xp.to_numpy(got), xp.to_numpy(xp.random.fold_in(k, i)))
    # and its draws are those of the keys
    g, h = xp.random.Generator(seed, device="numpy"), xp.random.Generator(seed, device="numpy")
    for i in range(3):
        np.testing.assert_array_equal(
            xp.to_numpy(g.integers(0, 100, size=(5,))),
            xp.to_numpy(xp.random.integers(xp.random.fold_in(k, i), 0, 100, (5,))),
        )
        np.testing.assert_array_equal(
            xp.to_numpy(h.normal(size=(3,))),
            xp.to_numpy(xp.random.normal(xp.random.fold_in(k, i), (3,))),
        )
