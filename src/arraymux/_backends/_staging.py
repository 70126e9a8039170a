"""Pipelined host->GPU staging through pinned buffers, shared by the GPU adapters.

A large upload is cut into chunks (:func:`stage_pieces`) that worker threads copy into a small
ring of reusable pinned host buffers (:class:`StagingRing`, one per device), while the GPU
copies the filled buffers into the destination asynchronously (:func:`staged_copy`); the
caller synchronises once at the end. The thresholds below are module attributes, read at each
call, so that tests and users can change them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

if TYPE_CHECKING:
    import numpy as np

#: Arrays smaller than this go to the GPU in one plain copy.
STAGE_MIN = 4 << 20
#: Bytes per chunk (and per pinned buffer).
STAGE_CHUNK = 4 << 20
#: Pinned buffers per device in the ring.
STAGE_BUFFERS = 16
#: Threads filling the pinned buffers (1: the calling thread fills them).
STAGE_THREADS = max(1, min(8, (os.cpu_count() or 1) // 2))
#: Device->host reads at least this large use the pinned download path.
PINNED_READ_MIN = 1 << 20

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_rings: dict[tuple[object, int, int], StagingRing] = {}

_T = TypeVar("_T")


class _Event(Protocol):
    """A device event (CUDA's): ``synchronize`` blocks until the work before it is done."""

    def synchronize(self) -> object: ...


def fill_pool() -> Executor | None:
    """The worker threads that fill pinned buffers, or None with one thread."""
    global _pool
    if STAGE_THREADS < 2:
        return None
    with _pool_lock:
        if _pool is None or _pool._max_workers != STAGE_THREADS:
            _pool = ThreadPoolExecutor(STAGE_THREADS, thread_name_prefix="arraymux-stage")
        return _pool


class StagingRing:
    """Reusable pinned host buffers of one device (``host``: uint8 ndarrays over them).

    ``keep`` holds whatever owns the pinned memory, ``stream`` the device stream the copies go
    on. ``lock`` serialises the uploads that share the ring."""

    def __init__(self, host: list[np.ndarray], keep: object = None, stream: object = None) -> None:
        self.host = host
        self.keep = keep
        self.stream = stream
        self.lock = threading.Lock()


def staging_ring(key: object, make: Callable[[int, int], StagingRing]) -> StagingRing:
    """The ring of ``key`` (e.g. a device), made by ``make(chunk, count)`` on first use."""
    full = (key, STAGE_CHUNK, STAGE_BUFFERS)
    ring = _rings.get(full)
    if ring is None:
        with _pool_lock:
            ring = _rings.get(full)
            if ring is None:
                for old in [k for k in _rings if k[0] == key]:
                    del _rings[old]  # settings changed: drop the old buffers
                ring = _rings[full] = make(STAGE_CHUNK, STAGE_BUFFERS)
    return ring


def stage_pieces(a: np.ndarray, chunk: int) -> list[tuple[int, np.ndarray]]:
    """``a`` (an ndarray) cut into ``(offset, view)`` pieces of at most ``chunk`` bytes.

    ``offset`` is where the piece's bytes start in the C-ordered bytes of ``a``; a view may have
    any strides. A C-contiguous array is cut into flat byte ranges, any other along its leading
    axes. ``chunk`` must be at least the item size."""
    import numpy as np

    if a.nbytes == 0:
        return []
    if a.flags.c_contiguous:
        flat = a.reshape(-1).view(np.uint8)
        return [(o, flat[o : o + chunk]) for o in range(0, a.nbytes, chunk)]
    return list(_split(a, 0, chunk))


def _split(v: np.ndarray, offset: int, chunk: int) -> Iterator[tuple[int, np.ndarray]]:
    if v.nbytes <= chunk:
        yield offset, v
        return
    row = v.nbytes // v.shape[0]
    if row > chunk:
        for i in range(v.shape[0]):
            yield from _split(v[i], offset + i * row, chunk)
        return
    step = chunk // row
    for i in range(0, v.shape[0], step):
        yield offset + i * row, v[i : i + step]


def _fill(buf: np.ndarray, piece: np.ndarray) -> None:
    import numpy as np

    dst = buf[: piece.nbytes].view(piece.dtype).reshape(piece.shape)
    np.copyto(dst, piece, casting="no")


def _ready(f: Future[None] | None) -> bool:
    return f is None or f.done()


def staged_copy(
    pieces: list[tuple[int, np.ndarray]],
    buffers: list[np.ndarray],
    to_device: Callable[[int, int, int], _T],
    wait: Callable[[_T], object],
    pool: Executor | None = None,
) -> None:
    """Copy ``pieces`` (from :func:`stage_pieces`) to a device through a ring of host buffers.

    Piece ``k`` is copied into ``buffers[k % len(buffers)]`` (uint8 ndarrays of at least a
    piece's size) by ``pool``'s threads (or here without a pool); once filled, in order,
    ``to_device(slot, offset, nbytes)`` starts an asynchronous copy of the first ``nbytes`` of
    that buffer to ``offset`` in the destination and returns a token; ``wait(token)`` blocks
    until that copy has read the buffer. A buffer is refilled only after its last copy was
    waited for. Every copy has been issued on return; the caller waits for the last ones."""
    nbuf = len(buffers)
    tokens: list[_T | None] = [None] * nbuf
    futures: list[Future[None] | None] = []
    issued = 0

    def issue_next() -> None:
        nonlocal issued
        f = futures[issued]
        if f is not None:
            f.result()
        offset, piece = pieces[issued]
        slot = issued % nbuf
        tokens[slot] = to_device(slot, offset, piece.nbytes)
        issued += 1

    try:
        for k, (_, piece) in enumerate(pieces):
            slot = k % nbuf
            if k >= nbuf:
                # The piece that used this buffer last must be issued, and its copy done.
                while issued <= k - nbuf:
                    issue_next()
                wait(cast("_T", tokens[slot]))  # issued above: its token is there
                tokens[slot] = None
            if pool is None:
                _fill(buffers[slot], piece)
                futures.append(None)
            else:
                futures.append(pool.submit(_fill, buffers[slot], piece))
            while issued < len(futures) and _ready(futures[issued]):
                issue_next()
        while issued < len(pieces):
            issue_next()
    except BaseException:
        # No thread may still write into a buffer once the caller gets the error.
        live = [f for f in futures if f is not None and not f.cancel()]
        futures_wait(live)
        raise


def upload(a: np.ndarray, ring: StagingRing, to_device: Callable[[int, int, int], _Event]) -> None:
    """:func:`staged_copy` of host array ``a`` through ``ring``, in chunks of
    :data:`STAGE_CHUNK`, filled by :func:`fill_pool`'s threads; ``to_device`` returns an event
    that the ring waits on (``event.synchronize()``) before refilling its buffer."""
    staged_copy(
        stage_pieces(a, STAGE_CHUNK), ring.host, to_device, lambda e: e.synchronize(), fill_pool()
    )
