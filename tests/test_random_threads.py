"""Large draws on torch's CPU run the C loops on torch's threads; the numbers stay the same."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import arraymux as xp
from arraymux import _compiled
from arraymux.random import _threads
from arraymux.random._special import normal_constants

needs_kernel = pytest.mark.skipif(_compiled.normal_f32 is None, reason="the C loops are off")


def _recording(loop):
    calls = []

    def run(k0, k1, start, out, *rest):
        calls.append((start, out.shape[0], threading.get_ident()))
        loop(k0, k1, start, out, *rest)

    return run, calls


@needs_kernel
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_pieces_give_the_floats_of_one_call(threads):
    n = 3 * _threads.MIN_PIECE + 5
    whole = np.empty(n, np.float32)
    _compiled.normal_f32(7, 9, 0, whole, normal_constants())
    run, calls = _recording(_compiled.normal_f32)
    split = np.empty(n, np.float32)
    _threads.over_threads(run, 7, 9, split, normal_constants(), threads=threads)
    np.testing.assert_array_equal(split.view(np.uint32), whole.view(np.uint32))
    # as many pieces as threads, but never one below MIN_PIECE; they tile the counters
    assert len(calls) == min(threads, 3)
    assert sorted((s, s + m) for s, m, _ in calls)[0][0] == 0
    assert sum(m for _, m, _ in calls) == n
    if len(calls) > 1:  # the calling thread takes the first piece, the pool the others
        first, *rest = sorted(calls)
        assert first[2] == threading.get_ident()
        assert all(ident != threading.get_ident() for *_, ident in rest)


@needs_kernel
def test_small_draws_and_numpy_stay_on_the_calling_thread():
    run, calls = _recording(_compiled.uniform_f32)
    _threads.over_threads(run, 1, 2, np.empty(_threads.MIN_PIECE, np.float32), threads=8)
    assert [ident for *_, ident in calls] == [threading.get_ident()]
    # one thread allowed (NumPy's draws): one call, however large
    calls.clear()
    _threads.over_threads(run, 1, 2, np.empty(4 * _threads.MIN_PIECE, np.float32))
    assert len(calls) == 1


@needs_kernel
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("draw", ["normal", "uniform"])
def test_large_torch_draws_equal_numpys_on_several_threads(monkeypatch, draw, dtype):
    torch = pytest.importorskip("torch")
    if _compiled.normal_f64 is None and dtype == "float64":
        pytest.skip("the float64 loops are off")
    dt = getattr(xp, dtype)
    n = 2 * _threads.MIN_PIECE + 3
    saved = torch.get_num_threads()
    monkeypatch.setattr(_threads, "over_threads", _counting := _Counting(_threads.over_threads))
    try:
        torch.set_num_threads(2)
        got = getattr(xp.random, draw)(xp.random.key(5, device="torch:cpu"), (n,), dt)
    finally:
        torch.set_num_threads(saved)
    want = getattr(xp.random, draw)(xp.random.key(5), (n,), dt)
    assert got.device == xp.Device("torch:cpu") and got.dtype == dt
    np.testing.assert_array_equal(
        xp.to_numpy(got).view(np.uint32), xp.to_numpy(want).view(np.uint32)
    )
    # torch's draw on torch's two threads; NumPy's calls the loop itself, on the calling thread
    assert _counting.threads == [2]


class _Counting:
    """over_threads, recording how many threads each call was allowed."""

    def __init__(self, inner):
        self.inner, self.threads = inner, []

    def __call__(self, *args, threads=1):
        self.threads.append(threads)
        return self.inner(*args, threads=threads)


_FORK = """
import os, numpy as np
from arraymux import _compiled
from arraymux.random import _threads
n = 2 * _threads.MIN_PIECE
_threads.over_threads(_compiled.uniform_f32, 1, 2, np.empty(n, np.float32), threads=2)
pid = os.fork()
if pid == 0:  # the parent's pool threads are gone here; the draw must still finish
    out = np.empty(n, np.float32)
    _threads.over_threads(_compiled.uniform_f32, 1, 2, out, threads=2)
    os._exit(0 if ((out >= 0) & (out < 1)).all() else 1)
_, status = os.waitpid(pid, 0)
raise SystemExit(os.waitstatus_to_exitcode(status))
"""


@needs_kernel
@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_a_forked_child_makes_its_own_pool():
    # in a fresh interpreter, without JAX's or torch's threads around the fork
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _FORK], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]


@needs_kernel
def test_large_torch_draws_from_several_python_threads_at_once():
    # callers share one pool: each draw still gets its own numbers, whole
    torch = pytest.importorskip("torch")
    from concurrent.futures import ThreadPoolExecutor

    n = 2 * _threads.MIN_PIECE + 7
    want = {s: xp.to_numpy(xp.random.normal(xp.random.key(s), (n,), xp.float32)) for s in range(6)}
    saved = torch.get_num_threads()
    try:
        torch.set_num_threads(2)

        def draw(seed):
            key = xp.random.key(seed, device="torch:cpu")
            return seed, xp.to_numpy(xp.random.normal(key, (n,), xp.float32))

        with ThreadPoolExecutor(3) as callers:
            got = dict(callers.map(draw, range(6)))
    finally:
        torch.set_num_threads(saved)
    for seed, values in got.items():
        np.testing.assert_array_equal(values.view(np.uint32), want[seed].view(np.uint32))


@pytest.mark.parametrize("device", ["jax:cpu", "array_api_strict", "dask", "torch:cpu", "numpy"])
def test_one_generator_shared_by_threads_gives_each_draw_its_own_key(device):
    # a Generator's one-step routes (JAX's compiled step, the C loops from a key's words on
    # strict, Dask, NumPy and torch) take and advance its state under its lock: the draws of
    # four threads are the draws of one thread, each once, in some order
    pytest.importorskip(device.partition(":")[0])
    from concurrent.futures import ThreadPoolExecutor

    shared, alone = xp.random.Generator(21, device=device), xp.random.Generator(21)
    start = threading.Barrier(4)

    def draws(_):
        start.wait()
        return [xp.to_numpy(shared.normal(size=5)).tobytes() for _ in range(20)]

    with ThreadPoolExecutor(4) as pool:
        got = [b for part in pool.map(draws, range(4)) for b in part]
    want = [xp.to_numpy(alone.normal(size=5)).tobytes() for _ in range(80)]
    assert sorted(got) == sorted(want)
    assert len(set(got)) == 80

    # the distributions' one-call route (on JAX: key, draw and scale in one compiled step,
    # parameters filled once per value), each thread with its own scales
    shared, alone = xp.random.Generator(22, device=device), xp.random.Generator(22, device=device)
    start = threading.Barrier(4)

    def scaled(i):
        start.wait()
        return [
            (i, j, xp.to_numpy(shared.exponential(1.0 + i, size=3)).tobytes()) for j in range(10)
        ]

    with ThreadPoolExecutor(4) as pool:
        got = [d for part in pool.map(scaled, range(4)) for d in part]
    # each draw took one state in some order: it is one of the 40 draws of one thread, at the
    # scale its thread asked for, and no two took the same state
    unit = [xp.to_numpy(alone.exponential(1.0, size=3)) for _ in range(40)]

    def state_of(i, b):
        drawn = np.frombuffer(b, dtype=unit[0].dtype)
        found = [k for k, u in enumerate(unit) if np.allclose(drawn, u * (1.0 + i), rtol=1e-6)]
        assert found, (i, drawn)
        return found[0]

    assert len({state_of(i, b) for i, _, b in got}) == 40
