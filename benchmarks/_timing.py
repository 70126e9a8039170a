"""Timing of a native program against the same program written with arraymux, in alternating
rounds, and the format of the times printed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

# The alternating rounds of each row and the clock; a benchmark's command line may change them
# with :func:`set_rounds` (``--rounds``, ``--cpu-time``).
ROUNDS = 21
CLOCK: Callable[[], float] = time.perf_counter


def set_rounds(rounds: int, clock: Callable[[], float] = time.perf_counter) -> None:
    """Measure with ``rounds`` alternating rounds, timed by ``clock`` (``time.thread_time``:
    the calling thread's CPU time, which on a shared CPU leaves out the time other processes
    take; it does not see a GPU's work)."""
    global ROUNDS, CLOCK
    ROUNDS, CLOCK = rounds, clock


def paired(
    native: Callable[[], Any], ours: Callable[[], Any], sync: Callable[[Any], Any], budget: float
) -> tuple[float, float, tuple[float, float, float]]:
    """``(native, ours, spread)``: seconds per call of ``native`` and ``ours``, the minimum over
    rounds that alternate one short batch of each, so that both sides see the same machine
    state (a shared CPU drifts by 10-30 % over a few seconds, far more than the differences
    measured here); ``spread``: the quartiles (25 %, 50 %, 75 %) over the rounds of the ratio
    of each arraymux batch to the native batch beside it."""
    for fn in (native, ours):
        sync(fn())  # warm up (and compile)
        sync(fn())
    clock = CLOCK
    t0 = clock()
    sync(native())
    once = max(clock() - t0, 1e-7)
    rounds = ROUNDS
    n = max(1, int(budget / (2 * rounds) / once))
    best = [float("inf"), float("inf")]
    ratios = []
    for _ in range(rounds):
        took = []
        for k, fn in enumerate((native, ours)):
            t0 = clock()
            for _ in range(n):
                out = fn()
            sync(out)
            took.append((clock() - t0) / n)
            best[k] = min(best[k], took[-1])
        ratios.append(took[1] / took[0])
    q1, med, q3 = np.quantile(ratios, [0.25, 0.5, 0.75])
    return best[0], best[1], (float(q1), float(med), float(q3))


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"
