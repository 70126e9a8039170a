"""Large draws of the C loops split over threads, for devices whose own operations do so.

torch runs its CPU operations on ``torch.get_num_threads()`` threads; a draw on ``torch:cpu``
is computed by the C loops of :mod:`arraymux._speedups` on NumPy's memory, which release the
GIL, so its pieces can run at once, on as many threads as torch's own operations use. NumPy's
own operations (and its generators) run on one thread, and so do NumPy's draws here. Every
piece covers the counters of its own slice of the result, so the numbers do not depend on how
many threads computed them.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MIN_PIECE", "over_threads"]

#: The fewest elements a thread is given: below this, starting it costs more than it saves.
MIN_PIECE = 1 << 17

_pool: ThreadPoolExecutor | None = None
_pool_workers = 0
_pool_lock = threading.Lock()


def _executor(workers: int) -> ThreadPoolExecutor:
    """The pool of at least ``workers`` threads, made (again) when more are wanted."""
    global _pool, _pool_workers
    with _pool_lock:
        if _pool is None or _pool_workers < workers:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(workers, thread_name_prefix="arraymux-random")
            _pool_workers = workers
        return _pool


def _forget_pool() -> None:
    """In a forked child: the parent's threads are not there, so the pool is made anew."""
    global _pool, _pool_workers, _pool_lock
    _pool, _pool_workers, _pool_lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def over_threads(
    loop: Callable[..., None], k0: int, k1: int, out: np.ndarray, *rest: object, threads: int = 1
) -> None:
    """``loop(k0, k1, start, out[start:stop], *rest)`` over the pieces of the flat ``out``
    (the counters ``start, start + 1, ...`` of each piece): one piece a thread, on at most
    ``threads`` threads (the calling one among them) and never fewer than :data:`MIN_PIECE`
    elements a piece; one call where that makes one piece."""
    n = out.shape[0]
    threads = min(threads, n // MIN_PIECE)
    if threads <= 1:
        loop(k0, k1, 0, out, *rest)
        return
    bounds = [n * i // threads for i in range(threads + 1)]
    pool = _executor(threads - 1)
    futures: list[Future[None]] = [
        pool.submit(loop, k0, k1, a, out[a:b], *rest) for a, b in itertools.pairwise(bounds[1:])
    ]
    try:
        loop(k0, k1, 0, out[: bounds[1]], *rest)
    finally:
        for f in futures:
            f.result()
