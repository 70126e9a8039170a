"""The random numbers' loops in C against their NumPy reference.

NumPy draws of :mod:`arraymux.random` compute their Threefry words (``threefry2x32``) and their
float32 normals (``normal_f32``) in C where the compiled extension is on (one pass instead of
hundreds of NumPy operations): the same words as ``threefry_numpy_ops`` for every key and
counter, the same floats as the NumPy operations of ``normal_of``, and clear errors, never a
crash, for buffers that are not what they take.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import arraymux as xp
from arraymux import _compiled
from arraymux.random import _core
from arraymux.random._special import normal_constants
from arraymux.random._threefry import (
    MASK32,
    threefry2x32_int_ops,
    threefry_numpy,
    threefry_numpy_ops,
)

kernel = _compiled.threefry2x32
needs_kernel = pytest.mark.skipif(kernel is None, reason="the compiled extension is off")

KEYS = [(0, 0), (0x13198A2E, 0x03707344), (MASK32, 1), (12345, MASK32)]


@needs_kernel
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 1000, 65537])
@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{k[0]:x}-{k[1]:x}")
def test_the_c_rounds_give_numpys_words(n, key):
    rng = np.random.default_rng(n)
    counter = rng.integers(0, 2**32, n, dtype=np.uint32)
    want0, want1 = threefry_numpy_ops(*key, counter)
    got0, got1 = np.empty_like(counter), np.empty_like(counter)
    assert kernel(*key, counter, got0, got1) is None
    np.testing.assert_array_equal(got0, want0)
    np.testing.assert_array_equal(got1, want1)
    # threefry_numpy takes the C loop for a contiguous counter, NumPy's for another
    fast = threefry_numpy(*key, counter)
    np.testing.assert_array_equal(fast[0], want0)
    strided = np.repeat(counter, 2)[::2]
    slow = threefry_numpy(*key, strided)
    np.testing.assert_array_equal(slow[1], want1)


@needs_kernel
def test_the_c_rounds_match_the_python_int_rounds_and_may_write_over_the_counter():
    counter = np.arange(50, dtype=np.uint32)
    out0 = np.empty_like(counter)
    kernel(0x13198A2E, 0x03707344, counter, out0, counter)  # out1 is the counter itself
    for i in range(50):
        assert (int(out0[i]), int(counter[i])) == threefry2x32_int_ops(
            (0x13198A2E, 0x03707344), (0, i)
        )


@needs_kernel
@pytest.mark.parametrize("start", [0, 5, 2**32 - 3, 2**32 + 7, -2])
def test_an_int_counter_is_the_first_of_consecutive_ones(start):
    n = 21
    counter = ((start + np.arange(n, dtype=np.int64)) % 2**32).astype(np.uint32)
    want = threefry_numpy_ops(3, 4, counter)
    got = [np.empty(n, np.uint32), np.empty(n, np.uint32)]
    kernel(3, 4, start, *got)
    np.testing.assert_array_equal(got, want)
    normals = [np.empty(n, np.float32), np.empty(n, np.float32)]
    normal_kernel(3, 4, start, normals[0], normal_constants())
    normal_kernel(3, 4, counter, normals[1], normal_constants())
    np.testing.assert_array_equal(normals[0], normals[1])


@needs_kernel
def test_key_words_are_taken_modulo_two_to_the_32():
    counter = np.arange(10, dtype=np.uint32)
    a = [np.empty_like(counter) for _ in range(2)]
    b = [np.empty_like(counter) for _ in range(2)]
    kernel(2**40 + 7, -1, counter, *a)
    kernel(7, MASK32, counter, *b)
    np.testing.assert_array_equal(a, b)


@needs_kernel
def test_buffers_it_cannot_take_raise():
    c = np.arange(8, dtype=np.uint32)
    out = [np.empty_like(c), np.empty_like(c)]
    with pytest.raises(TypeError, match="5 arguments"):
        kernel(1, 2, c, out[0])
    with pytest.raises(TypeError, match="key words must be ints"):
        kernel(1.0, 2, c, *out)
    for dtype in (np.int64, np.float32, np.uint16, np.uint64):
        with pytest.raises(TypeError, match="32-bit unsigned words"):
            kernel(1, 2, c.astype(dtype), *out)
    with pytest.raises(TypeError, match="out1 must hold 32-bit unsigned words"):
        kernel(1, 2, c, out[0], np.empty(8, np.int32))
    with pytest.raises(ValueError, match="one length"):
        kernel(1, 2, c, out[0], np.empty(9, np.uint32))
    with pytest.raises(ValueError, match="one length"):
        kernel(1, 2, 0, out[0], np.empty(9, np.uint32))
    with pytest.raises((ValueError, BufferError)):
        kernel(1, 2, np.arange(16, dtype=np.uint32)[::2], *out)  # not contiguous
    readonly = np.empty_like(c)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        kernel(1, 2, c, readonly, out[1])
    with pytest.raises(TypeError):
        kernel(1, 2, [1, 2, 3], *out)  # no buffer
    np.testing.assert_array_equal(c, np.arange(8, dtype=np.uint32))  # nothing written


def test_draws_are_the_same_with_the_extension_off():
    # the NumPy reference and the C loop give one stream of numbers
    code = (
        "import arraymux as xp, numpy as np\n"
        "k = xp.random.key(11)\n"
        "print(np.asarray(xp.to_numpy(xp.random.bits(k, (300,)))).tolist())\n"
        "print(xp.to_numpy(xp.random.normal(k, (5,), dtype=xp.float32)).tolist())\n"
    )
    runs = []
    for pure in ("0", "1"):
        env = {**os.environ, "ARRAYMUX_PURE_PYTHON": pure}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr[-2000:]
        runs.append(done.stdout)
    assert runs[0] == runs[1]
    k = xp.random.key(11)
    here = np.asarray(xp.to_numpy(xp.random.bits(k, (300,)))).tolist()
    assert runs[0].splitlines()[0] == str(here)


normal_kernel = _compiled.normal_f32


def _normals_of_numpy_operations(key: xp.Array, n: int) -> np.ndarray:
    saved = _compiled.normal_f32
    _compiled.normal_f32 = None
    try:
        return np.asarray(xp.to_numpy(_core.normal_kernel(key, (n,), xp.float32)))
    finally:
        _compiled.normal_f32 = saved


@needs_kernel
@pytest.mark.parametrize("seed", [0, 1, 7, 2**31 + 5])
def test_the_c_normals_are_the_floats_of_numpys_operations(seed):
    # every float bit for bit: Threefry, the floats of [0, 1), Giles' erfinv with its log1p
    # and log, each operation rounded once in float32, both branches of each choice; the
    # blocks of 32 with and without a tail, and the 23 past the last block
    key = xp.random.key(seed)
    n = 250_007
    want = _normals_of_numpy_operations(key, n)
    got = np.asarray(xp.to_numpy(_core.normal_kernel(key, (n,), xp.float32)))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    # both of erfinv's polynomials (beyond |z| of about 2.9: w >= 5) and both of log1p's
    # (beyond about 0.65) are among them
    assert want.min() < -3.5 and want.max() > 3.5
    assert (np.abs(want) < 0.5).any()


@needs_kernel
def test_the_c_normals_in_draws_of_every_shape():
    key = xp.random.key(3)
    for shape in [(), (0,), (1,), (8,), (3, 5), (2, 0, 4)]:
        got = xp.random.normal(key, shape, dtype=xp.float32)
        assert got.shape == shape and got.dtype == xp.float32
        n = int(np.prod(shape))
        want = _normals_of_numpy_operations(key, n).reshape(shape)
        np.testing.assert_array_equal(np.asarray(xp.to_numpy(got)), want)


@needs_kernel
def test_the_c_normals_refuse_what_they_cannot_take():
    c = np.arange(8, dtype=np.uint32)
    out = np.empty(8, np.float32)
    k = normal_constants()
    assert not k.flags.writeable and k.shape == (48,)
    with pytest.raises(TypeError, match="5 arguments"):
        normal_kernel(1, 2, c, out)
    with pytest.raises(TypeError, match="key words must be ints"):
        normal_kernel(1, None, c, out, k)
    with pytest.raises(TypeError, match="normal_f32: the counter must hold 32-bit unsigned"):
        normal_kernel(1, 2, c.astype(np.int32), out, k)
    with pytest.raises(TypeError, match="out must hold float32"):
        normal_kernel(1, 2, 0, np.empty(8, np.int32), k)
    with pytest.raises(TypeError, match="out must hold float32"):
        normal_kernel(1, 2, c, np.empty(8, np.float64), k)
    with pytest.raises(ValueError, match="one length"):
        normal_kernel(1, 2, c, np.empty(7, np.float32), k)
    with pytest.raises(TypeError, match="48 float64"):
        normal_kernel(1, 2, c, out, k[:47])
    with pytest.raises(TypeError, match="48 float64"):
        normal_kernel(1, 2, c, out, k.astype(np.float32))
    readonly = np.empty(8, np.float32)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        normal_kernel(1, 2, c, readonly, k)


@needs_kernel
@pytest.mark.parametrize("shape", [(), (0,), (1,), (8,), (3, 7), (70_001,)])
def test_numpys_uniform_floats_in_c_are_the_general_paths(shape):
    key = xp.random.key(9)
    got = np.asarray(xp.to_numpy(xp.random.uniform(key, shape, dtype=xp.float32)))
    saved = _compiled.threefry2x32, _compiled.uniform_f32
    _compiled.threefry2x32 = _compiled.uniform_f32 = None
    try:
        want = np.asarray(xp.to_numpy(xp.random.uniform(key, shape, dtype=xp.float32)))
    finally:
        _compiled.threefry2x32, _compiled.uniform_f32 = saved
    assert got.shape == want.shape == shape and got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@needs_kernel
def test_the_c_uniforms_refuse_what_they_cannot_take():
    uniform = _compiled.uniform_f32
    assert uniform is not None
    out = np.empty(4, np.float32)
    with pytest.raises(TypeError, match="4 arguments"):
        uniform(1, 2, 0)
    with pytest.raises(TypeError, match="must be ints"):
        uniform(1, 2, np.arange(4, dtype=np.uint32), out)
    with pytest.raises(TypeError, match="out must hold float32"):
        uniform(1, 2, 0, np.empty(4, np.float64))
    with pytest.raises((ValueError, BufferError)):
        uniform(1, 2, 0, np.empty(8, np.float32)[::2])
    uniform(1, 2, 2**32 + 1, out)  # the first counter modulo 2**32
    again = np.empty(4, np.float32)
    uniform(1, 2, 1, again)
    np.testing.assert_array_equal(out, again)
    assert ((out >= 0.0) & (out < 1.0)).all()


@needs_kernel
def test_the_c_loops_run_in_threads_at_once():
    # the loops release the GIL over buffers they hold: draws in several threads at once are
    # each the draw made alone
    from concurrent.futures import ThreadPoolExecutor

    keys = [xp.random.key(s) for s in range(8)]
    alone = [np.asarray(xp.to_numpy(xp.random.normal(k, (20_000,)))) for k in keys]
    alone_u = [np.asarray(xp.to_numpy(xp.random.uniform(k, (20_000,)))) for k in keys]

    def both(k):
        return (
            np.asarray(xp.to_numpy(xp.random.normal(k, (20_000,)))),
            np.asarray(xp.to_numpy(xp.random.uniform(k, (20_000,)))),
        )

    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(both, keys * 3))
    for i, (n, u) in enumerate(together):
        np.testing.assert_array_equal(n, alone[i % 8])
        np.testing.assert_array_equal(u, alone_u[i % 8])


def test_threefry_takes_a_backends_own_arrays_as_a_fused_kernel_passes_them():
    # CuPy's draws run `threefry2x32` inside `cupy.fuse`, which calls it with its own traced
    # arrays (no Arrays, no `.device` of arraymux's): the rounds must use operators only.
    from arraymux.random._threefry import threefry2x32

    def word(v: int) -> np.ndarray:
        return np.asarray([v], dtype=np.uint32)

    y0, y1 = threefry2x32(word(0x13198A2E), word(0x03707344), word(0x243F6A88), word(0x85A308D3))
    assert type(y0) is np.ndarray
    assert (int(y0[0]), int(y1[0])) == (0xC4923A9C, 0x483DF7A0)
