"""Moving arrays between devices and backends, and reading them on the host.

A move takes one of three routes:

``same``
    same backend: the backend's own device copy (or nothing, on the same device);
``dlpack``
    another backend that can use the memory as it is (CPU<->CPU among NumPy, torch, JAX and
    array-api-strict; CUDA<->CUDA on one GPU among CuPy, torch and JAX): the target takes the
    buffer through DLPack, without a copy;
``peer``
    another backend on another GPU: the target's backend takes the buffer through DLPack
    where it lies, then copies it to its GPU with its own device-to-device copy;
``host``
    otherwise: one copy through host memory each way (into pinned memory where the backend
    allows).

Backend quirks live in optional transfer hooks of each adapter module; this module holds the
generic behaviour and uses a hook where an adapter defines one:

``export(x) -> (obj, copied)``
    an object the target's ``from_dlpack`` accepts, and whether making it copied (torch with a
    conjugate bit, NumPy in non-native byte order, a computed Dask array counts as no copy);
``from_dlpack(obj, place, copy)``
    the target's DLPack import (``place=None``: wherever ``obj`` lives); raises ``BufferError``,
    ``ValueError``, ``RuntimeError`` or ``TypeError`` when it cannot use the memory as it is;
``from_host(a, place)``
    a new array on ``place`` from a host ndarray (exactly one copy);
``to_host(x)`` / ``to_host_many(xs)``
    host ndarrays of device arrays (one copy each, one synchronisation for the batch);
``memory(place)``
    which memory a place addresses: ``("cpu", 0)`` (the default), ``("cuda", 1)``, ...;
``data_ptr(x)``
    the address of the first element (to report zero-copy moves);
``copy_array(x)``
    a copy on the same device (default: the namespace's ``asarray(x, copy=True)``);
``unshared(x)``
    whether nothing but ``x`` reaches its memory (no view, no other array over it, no foreign
    owner), references to ``x`` itself aside: a result of :func:`arraymux.on_device` that is
    unshared and unreferenced crosses between a mutable and an immutable backend without a
    copy (default: never, so such results are copied);
``traced(x)``
    whether ``x`` is a tracer or a functional-transform wrapper;
``move_within(x, src_place, dst_place)``
    a faster or safer same-backend move between places (host<->GPU through pinned memory;
    GPU<->GPU ordered after the work queued on the source), or None to leave it to the
    backend's own device copy;
``current_gpu(place)``
    a context making ``place``'s GPU the calling thread's current CUDA device, around a DLPack
    hand-over of an array lying there (torch refuses to export a tensor of another GPU than
    the current one, and CuPy synchronises with the current device's stream).

Host->GPU uploads of large arrays are pipelined by the GPU adapters (``_backends/_staging.py``):
the source is cut into chunks that worker threads copy into a small ring of reusable pinned
buffers, while the GPU copies the filled buffers into the preallocated device array
asynchronously; one synchronisation at the end.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar, overload

from ._arguments import check_copy
from ._array import Array, operand, wrap
from ._backends import Backend, BackendSpec
from ._backends._adapter import NativeArray
from ._clients import advice, caller, warn_fallback
from ._devices import Device, device_arg
from ._dtype_rules import dtype_of
from ._errors import not_an_array, unsupported
from ._typing import ArrayLike, DeviceLike

if TYPE_CHECKING:
    import numpy as np

_T = TypeVar("_T")

#: A move that an adapter does faster (see its ``fast_route``): the moved array, or None.
Route = Callable[[NativeArray], NativeArray | None]

__all__ = [
    "block_until_ready",
    "memory",
    "move",
    "synchronize",
    "to_device",
    "to_numpy",
]

_CPU = ("cpu", 0)
# What a DLPack producer or consumer raises when it cannot hand over or take the memory as it is.
_REFUSED = (BufferError, ValueError, RuntimeError, TypeError, NotImplementedError)


def _operand_or_raise(x: object, fname: str, pos: int = 0) -> tuple[NativeArray, Device]:
    op = operand(x)
    if op is None:
        raise not_an_array(fname, pos, x)
    native, device = op
    # NumPy's functions return scalars for 0-d results; moves need the array.
    return device._backend.normalize(native), device


# Per device: looked up once (devices never change).
_MEMORY: dict[Device, tuple[str, int]] = {}


def memory(device: Device) -> tuple[str, int]:
    """Which memory ``device`` addresses: ``("cpu", 0)``, ``("cuda", 1)``, ... (its backend's
    ``memory`` hook, asked once per device)."""
    try:
        return _MEMORY[device]
    except KeyError:
        hook = device._backend.hooks.memory
        mem = _MEMORY[device] = _CPU if hook is None else hook(device._place)
        return mem


def _data_ptr(native: NativeArray, device: Device) -> int | None:
    hook = device._backend.hooks.data_ptr
    if hook is None:
        return None
    try:
        return hook(native)
    except _REFUSED:
        return None


def _native_order(a: np.ndarray) -> np.ndarray:
    """``a`` (a host ndarray) in native byte order: DLPack and JAX know no other."""
    if a.dtype.isnative:
        return a
    return a.astype(a.dtype.newbyteorder("="))


def _export(native: NativeArray, src: Device) -> tuple[NativeArray, bool]:
    hook = src._backend.hooks.export
    if hook is None:
        return native, False
    return hook(native)


def _from_dlpack(obj: object, target: Device, place: str | None, copy: bool | None) -> NativeArray:
    hook = target._backend.hooks.from_dlpack
    if hook is not None:
        return hook(obj, place, copy)
    return target._backend.ns.from_dlpack(obj, copy=copy)


def _handed_over(obj: object, src: Device, target: Device, copy: bool | None) -> NativeArray:
    """``obj`` (exported from ``src``) taken by ``target`` through DLPack, with the source's
    GPU current while the producer hands it over: the caller's current device may be any."""
    current = src._backend.hooks.current_gpu
    if current is None or memory(src)[0] != "cuda":
        return _from_dlpack(obj, target, target._place, copy)
    with current(src._place):
        return _from_dlpack(obj, target, target._place, copy)


def _from_host(a: np.ndarray, target: Device) -> NativeArray:
    a = _native_order(a)
    hook = target._backend.hooks.from_host
    if hook is not None:
        return hook(a, target._place)
    return target._fns["asarray"](a, device=target.native, copy=True)


def _host_view(obj: Any) -> np.ndarray:  # obj: a DLPack producer (NumPy's own type)
    """A host ndarray over the memory of ``obj`` (an exported CPU array), without a copy."""
    import numpy as np

    if isinstance(obj, np.ndarray):
        return obj
    return np.from_dlpack(obj)


def _to_host(native: NativeArray, src: Device) -> np.ndarray:
    hook = src._backend.hooks.to_host
    if hook is not None:
        return hook(native)
    return src._backend.adapter.to_numpy(native)


def _check_traced(native: NativeArray, src: Device, target: Device, fname: str) -> None:
    hook = src._backend.hooks.traced
    if hook is not None and hook(native):
        raise TypeError(
            f"arraymux.{fname}: the array is a traced value inside a transform on {src} "
            f"(jax.jit/grad/vmap, torch.func); it has no data that {target} could take. To "
            f"compute part of the function on {target} with derivatives flowing through, "
            f'wrap that part: arraymux.on_device(part, "{target}")(x). Otherwise move the '
            "input before the transform, or the result after it."
        )


def _would_write_immutable(src: Device, target: Device) -> bool:
    """Whether a zero-copy move would let ``target`` write into the memory of an immutable
    array: JAX arrays never change, and torch and CuPy have no read-only arrays, so a tensor
    sharing a JAX buffer could change the JAX array. NumPy and array-api-strict mark such
    imports read-only."""
    return not src._backend.spec.mutable and bool(target._backend.hooks.writable_imports)


def _needs_copy(src: Device, target: Device, why: str) -> ValueError:
    return ValueError(
        f"arraymux.to_device: moving from {src} to {target} needs a copy ({why}), but "
        "copy=False was given. Use copy=None to copy only when needed."
    )


def _unusable(native: NativeArray, src: Device, target: Device, e: Exception) -> str:
    """Why ``target`` refused the memory of ``native`` as it is, and how to get memory it
    takes: a buffer off its alignment (``IMPORT_ALIGNMENT``: JAX's CPU client takes host memory
    at 64-byte boundaries only, and NumPy's allocator gives 16) can be made aligned."""
    alignment = target._backend.hooks.import_alignment
    address = _data_ptr(native, src) if alignment else None
    if alignment and address is not None and address % alignment:
        return (
            f"{target} takes memory without a copy only at {alignment}-byte boundaries, and "
            f"this array's data starts {address % alignment} bytes past one. Arrays that "
            "arraymux creates on numpy are aligned: make it with arraymux "
            f'(xp.zeros(..., device="numpy"), xp.asarray(data, device="numpy")), or copy it '
            "once into an aligned buffer with xp.asarray(a, copy=True), then move it"
        )
    return f"{target} cannot use its memory as it is: {e}"


def move(
    native: NativeArray,
    src: Device,
    target: Device,
    copy: bool | None,
    stream: object,
    report: bool = False,
    share: bool = False,
) -> tuple[NativeArray, str, bool]:
    """``(native on target, route, copied)``; ``route`` is "same", "dlpack", "peer" or "host".

    ``copied`` of a DLPack move is checked (by data pointer) only when ``copy=False`` or
    ``report`` asks for it; otherwise it is False. ``share``: share memory even where the
    target could write into an immutable source (for a fresh array nobody else holds).
    The calling thread's current CUDA device is the same after the move as before."""
    if (
        (src._backend.hooks.sets_current_gpu and memory(src)[0] == "cuda")
        or (target._backend.hooks.sets_current_gpu and memory(target)[0] == "cuda")
    ) and (_cuda_gpus() or 0) > 1:  # with one GPU, no other can become current
        with _current_gpu_kept():
            return _move_now(native, src, target, copy, stream, report, share)
    return _move_now(native, src, target, copy, stream, report, share)


_GPU_COUNT: list[int] = []


def _cuda_gpus() -> int | None:
    """How many GPUs the CUDA runtime shows this process, read once through CuPy or torch;
    None while neither is loaded (then nothing reads the current GPU either)."""
    if _GPU_COUNT:
        return _GPU_COUNT[0]
    cupy, torch = sys.modules.get("cupy"), sys.modules.get("torch")
    try:
        if cupy is not None:
            n = int(cupy.cuda.runtime.getDeviceCount())
        elif torch is not None:
            n = int(torch.cuda.device_count())
        else:
            return None
    except Exception:  # a CUDA library without a driver: no GPU to keep
        n = 0
    _GPU_COUNT.append(n)
    return n


@contextlib.contextmanager
def _current_gpu_kept() -> Iterator[None]:
    """Restores the calling thread's current CUDA device, as torch and CuPy see it (they read
    and set the same one), after a backend that changes it (``SETS_CURRENT_GPU``: JAX)."""
    cupy, torch = sys.modules.get("cupy"), sys.modules.get("torch")
    if cupy is not None:
        get, set_ = cupy.cuda.runtime.getDevice, cupy.cuda.runtime.setDevice
    elif torch is not None and torch.cuda.is_initialized():
        get, set_ = torch.cuda.current_device, torch.cuda.set_device
    else:  # nobody here relies on the current device
        yield
        return
    before = get()
    try:
        yield
    finally:
        if get() != before:
            set_(before)


def _move_now(
    native: NativeArray,
    src: Device,
    target: Device,
    copy: bool | None,
    stream: object,
    report: bool,
    share: bool,
) -> tuple[NativeArray, str, bool]:
    if target is src:
        if copy:
            hook = src._backend.hooks.copy_array
            out = hook(native) if hook else src._fns["asarray"](native, copy=True)
            return out, "same", True
        return native, "same", False
    if target._backend is src._backend:
        if copy is False:
            raise _needs_copy(src, target, "the devices hold separate memory")
        if stream is None and src._backend.hooks.slow_peer_copy:
            mem_src, mem_dst = memory(src), memory(target)
            if mem_src[0] == mem_dst[0] == "cuda" and mem_src != mem_dst:
                out = _between_gpus(native, src, target)
                if out is not None:
                    return out, "peer", True
        within = src._backend.hooks.move_within
        if within is not None and stream is None:
            out = within(native, src._place, target._place)
            if out is not None:
                return out, "same", True
        import array_api_compat

        return array_api_compat.to_device(native, target.native, stream=stream), "same", True
    _check_traced(native, src, target, "to_device")
    mem_src, mem_dst = memory(src), memory(target)
    if mem_src == mem_dst:
        if copy is None and not share and _would_write_immutable(src, target):
            copy = True
        obj, copied = _export(native, src)
        if copied and copy is False:
            raise _needs_copy(src, target, f"{src.backend} cannot export it as it is")
        try:
            out = _handed_over(obj, src, target, True if copy else copy)
        except _REFUSED as e:
            if copy is False:
                raise _needs_copy(src, target, _unusable(native, src, target, e)) from e
            if mem_dst != _CPU:
                # Not usable as it is on the GPU: one round trip through the host.
                return _from_host(_to_host(obj, src), target), "host", True
            return _from_host(_host_view(obj), target), "host", True
        if not copied and not copy and (report or copy is False):
            before, after = _data_ptr(native, src), _data_ptr(out, target)
            copied = before is not None and after is not None and before != after
            if copied and copy is False:
                raise _needs_copy(src, target, f"{target} copied it")
        return out, "dlpack", bool(copied or copy)
    if copy is False:
        raise _needs_copy(src, target, "they do not share memory")
    if mem_src[0] == "cuda" and mem_dst[0] == "cuda":
        out = _between_gpus(native, src, target, stream)
        if out is not None:
            return out, "peer", True
    if mem_src == _CPU:
        obj, _ = _export(native, src)
        return _from_host(_host_view(obj), target), "host", True
    host = _to_host(native, src)
    if mem_dst == _CPU:
        try:
            return _from_dlpack(host, target, target._place, None), "host", True
        except _REFUSED:
            pass
    return _from_host(host, target), "host", True


# Per pair of devices on two GPUs: the devices of one backend, on the same two GPUs, whose own
# device-to-device copy moves between them (or None).
_COPIERS: dict[tuple[Device, Device], tuple[Device, Device] | None] = {}


def _copier(src: Device, target: Device) -> tuple[Device, Device] | None:
    """Devices of one backend on the GPUs of ``src`` and ``target`` to copy between them with:
    the source's backend, else the target's, else torch or CuPy if loaded, skipping backends
    whose own copy is slow (``SLOW_PEER_COPY``: JAX)."""
    key = (src, target)
    if key in _COPIERS:
        return _COPIERS[key]
    from ._backends import get_backend
    from ._devices import devices

    mem_src, mem_dst = memory(src), memory(target)
    found = None
    names = [src.backend, target.backend] + [m for m in ("torch", "cupy") if m in sys.modules]
    for name in dict.fromkeys(names):
        if getattr(get_backend(name).adapter, "SLOW_PEER_COPY", False):
            continue
        on = {memory(d): d for d in devices(name)}
        if mem_src in on and mem_dst in on:
            found = (on[mem_src], on[mem_dst])
            break
    _COPIERS[key] = found
    return found


def _between_gpus(
    native: NativeArray, src: Device, target: Device, stream: object = None
) -> NativeArray | None:
    """``native`` moved from one GPU to another with one device-to-device copy: handed
    without a copy (DLPack) to the copying backend on the source GPU, copied by that
    backend's own peer copy, handed without a copy to the target's backend. None where no
    backend can copy between the two GPUs or a hand-over is refused (the caller goes through
    the host then)."""
    pair = _copier(src, target)
    traced = src._backend.hooks.traced
    if pair is None or (traced is not None and traced(native)):
        return None
    a, b = pair
    import array_api_compat

    try:
        here = native if a is src else _handed_over(_export(native, src)[0], src, a, None)
        within = a._backend.hooks.move_within if stream is None else None
        moved = None if within is None else within(here, a._place, b._place)
        if moved is None:
            moved = array_api_compat.to_device(here, b.native, stream=stream)
        if b is target:
            return moved
        return _handed_over(_export(moved, b)[0], b, target, None)
    except _REFUSED:
        return None


def to_device(
    x: ArrayLike, device: DeviceLike, /, *, stream: object = None, copy: bool | None = None
) -> Array:
    """``x`` on ``device``, which may belong to another backend.

    On the same backend this is the backend's own device copy. To another backend, the target
    takes the memory through DLPack without a copy whenever it can use it as it is (CPU to CPU
    among NumPy, torch, JAX and array-api-strict; CUDA to CUDA among CuPy, torch and JAX on one
    GPU). Otherwise the data goes through host memory, one copy each way, into pinned memory
    where the backend allows. Values, dtype and shape are kept exactly; nothing is ever cast.

    A zero-copy result shares memory with ``x``: a write through one is seen through the other.
    Moving to ``"dask"`` wraps the data lazily in chunks; moving from Dask computes it.

    Parameters
    ----------
    x
        An :class:`Array` or a native array of any backend.
    device
        The target :class:`Device` or device string, e.g. ``"torch:cuda:0"``.
    stream
        Passed to the backend's own device copy on same-backend moves.
    copy
        ``True``: always copy. ``False``: never copy; raise if the move needs one. ``None``
        (the default): copy only when needed.

    Returns
    -------
    Array
        The array on ``device``.

    Raises
    ------
    UnsupportedDTypeError
        ``device`` cannot hold the dtype of ``x`` (float64 on ``jax:cpu`` without 64-bit mode,
        on ``array_api_strict:no_float64``, ...).
    ValueError
        ``copy=False`` but the move needs a copy.
    TypeError
        ``x`` is not an array, or it is a traced value inside a transform (``jax.jit``,
        ``torch.func``) and the target is another backend.

    Examples
    --------
    >>> import numpy as np
    >>> import arraymux as xp
    >>> a = np.arange(4.0)
    >>> t = xp.to_device(a, "torch:cpu")  # zero-copy through DLPack
    >>> t.device
    Device('torch:cpu')
    >>> a[0] = 10.0
    >>> xp.to_numpy(t)
    array([10.,  1.,  2.,  3.])
    >>> xp.to_device(a, "torch:cpu", copy=True).native.data_ptr() == a.ctypes.data
    False
    >>> xp.to_device(a.astype(">f8"), "torch:cpu", copy=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: arraymux.to_device: moving from numpy:cpu to torch:cpu needs a copy ...
    """
    if type(x) is Array:  # the common case, with the fewest calls
        src = x._device
        native = src._backend.normalize(x._native)
    else:
        native, src = _operand_or_raise(x, "to_device")
    target = device if type(device) is Device else device_arg(device, "to_device")
    if copy is None and stream is None:
        if target is src and type(x) is Array:
            return x
        fast = _HELD.get((src._str, target._str))
        if fast is not None and native.dtype in fast[1]:
            # A fast route, for a dtype that the general path has moved before.
            out = fast[0](native)
            if out is not None:
                return wrap(out, target)
    if copy is not None and copy is not False and copy is not True:
        copy = check_copy("to_device", copy)
    dt = dtype_of(native, src)
    if not target.supports(dt):
        raise unsupported(dt, target, "to_device")
    if target is src and not copy and type(x) is Array:
        return x
    out, _, _ = move(native, src, target, copy, stream)
    if copy is None and stream is None:
        route = _fast_route(src, target)
        if route is not None:
            _HELD.setdefault((src._str, target._str), (route, set()))[1].add(native.dtype)
    return wrap(out, target)


# Per pair of devices: the adapters' fast route for moves with copy=None (see the adapters'
# ``fast_route``), or None; and, for pairs that have one (keyed by the devices' strings, whose
# hashes Python keeps), that route and the native dtypes of the source that the general path
# has moved (and so checked that the target holds).
_ROUTES: dict[tuple[Device, Device], Route | None] = {}
_HELD: dict[tuple[str, str], tuple[Route, set[object]]] = {}


def _fast_route(src: Device, target: Device) -> Route | None:
    key = (src, target)
    if key not in _ROUTES:
        route = None
        for dev, other, direction in ((src, target, "export"), (target, src, "import")):
            hook = dev._backend.hooks.fast_route
            if hook is not None:
                route = hook(direction, dev._place, other._name, other._place)
                if route is not None:
                    break
        _ROUTES[key] = route
    return _ROUTES[key]


def move_report(
    x: ArrayLike, device: Device | str, copy: bool | None = None
) -> tuple[Array, str, bool]:
    """``to_device`` that also says what it did: ``(result, route, copied)``."""
    native, src = _operand_or_raise(x, "to_device")
    target = device_arg(device, "to_device")
    dt = dtype_of(native, src)
    if not target.supports(dt):
        raise unsupported(dt, target, "to_device")
    out, route, copied = move(native, src, target, copy, None, report=True)
    return wrap(out, target), route, copied


@overload
def to_numpy(array: ArrayLike, /) -> np.ndarray: ...


@overload
def to_numpy(
    first: ArrayLike, second: ArrayLike, /, *arrays: ArrayLike
) -> tuple[np.ndarray, ...]: ...


def to_numpy(*arrays: ArrayLike) -> object:  # (the overloads above say which)
    """The arrays as NumPy arrays on the host: one array gives one ndarray, several a tuple.

    Several arrays may come from any mix of backends; they are read with one synchronisation per
    backend (torch CUDA: non-blocking copies into pinned buffers then one synchronize; JAX: one
    batched ``jax.device_get``; CuPy: asynchronous copies on a stream, one sync; Dask: one
    ``dask.compute``). Host arrays are returned without a copy where possible, so the result
    may share memory with the input (read-only for JAX).

    Parameters
    ----------
    *arrays
        :class:`Array` objects or native arrays of any backend.

    Returns
    -------
    numpy.ndarray or tuple of numpy.ndarray
        One ndarray for one array, else a tuple in the order given.

    Raises
    ------
    TypeError
        No arguments, an argument that is not an array, or a traced value.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.asarray([1, 2]))
    array([1, 2])
    >>> a, b = xp.to_numpy(xp.asarray([1.5], device="torch:cpu"), xp.asarray([True]))
    >>> a, b
    (array([1.5], dtype=float32), array([ True]))
    """
    if not arrays:
        raise TypeError("arraymux.to_numpy: needs at least one array.")
    if len(arrays) == 1 and type(arrays[0]) is Array:
        # One array: the fast route of to_device where its backend has one (NumPy's view of
        # a CPU tensor or JAX host array, a plain copy of a small GPU array).
        x = arrays[0]
        route = _fast_route(x._device, Device("numpy"))
        host = None if route is None else route(x._native)
        if host is not None:
            return host
    groups: dict[Backend, tuple[Device, list[int], list[object]]] = {}
    for i, item in enumerate(arrays):
        native, src = _operand_or_raise(item, "to_numpy", i)
        backend = src._backend
        if backend not in groups:
            groups[backend] = (src, [], [])
        groups[backend][1].append(i)
        groups[backend][2].append(native)
    out: list[object] = [None] * len(arrays)
    for src, positions, natives in groups.values():
        many = src._backend.hooks.to_host_many
        if many is not None:
            hosts = many(natives)
        else:
            to_host = src._backend.adapter.to_numpy
            hosts = [to_host(n) for n in natives]
        for i, h in zip(positions, hosts):
            out[i] = h
    return out[0] if len(arrays) == 1 else tuple(out)


@overload
def synchronize() -> None: ...


@overload
def synchronize(target: _T, /) -> _T: ...


@overload
def synchronize(first: _T, second: _T, /, *targets: _T) -> tuple[_T, ...]: ...


def synchronize(*targets: object) -> object:
    """Wait until the pending work behind arrays, or on devices, has finished.

    JAX and CUDA return from a call before its result is computed; time a program with
    ``synchronize`` (or its alias ``block_until_ready``) rather than by reading results back.
    Each device is waited on once however many of its arrays are given: torch CUDA, XPU and
    MPS synchronize the device, CuPy synchronizes the device, JAX blocks on the arrays given
    (JAX tracks pending work per array, so a JAX device given alone has nothing to wait for).
    NumPy, array-api-strict and torch on the CPU compute eagerly, and Dask computes when a value
    is read, so waiting on them returns at once.

    Parameters
    ----------
    *targets
        :class:`Array` objects, native arrays, :class:`Device` objects or device strings.
        With none, every device of every backend imported so far.

    Returns
    -------
    object
        The argument for one argument, a tuple of them for several, ``None`` for none, so
        that ``y = xp.synchronize(f(x))`` reads naturally.

    Raises
    ------
    TypeError
        An argument that is neither an array nor a device.

    Examples
    --------
    >>> import arraymux as xp
    >>> y = xp.synchronize(xp.ones(3) * 2)
    >>> xp.to_numpy(y)
    array([2., 2., 2.])
    >>> xp.synchronize("numpy")
    'numpy'
    """
    if len(targets) == 1 and type(targets[0]) is Array:  # the common case: one Array
        x = targets[0]
        d = x._device
        wait = _wait_of(d)
        if wait is not None:
            wait(d._place, [x._native])
        return x
    groups: dict[Device, list[object]] = {}
    for i, t in enumerate(targets):
        if type(t) is Array:  # (a training loop's state: several Arrays of one device)
            natives = groups.get(t._device)
            if natives is None:
                groups[t._device] = [t._native]
            else:
                natives.append(t._native)
            continue
        if isinstance(t, Device | str):
            groups.setdefault(device_arg(t, "synchronize"), [])
            continue
        op = operand(t)
        if op is None:
            raise TypeError(
                f"arraymux.synchronize: argument {i} is a {type(t).__name__}, not an array "
                "or a device; pass Arrays, native arrays, Devices or device strings."
            )
        groups.setdefault(op[1], []).append(op[0])
    if not targets:
        from ._devices import devices

        groups = {
            d: [] for spec in _loaded_backends() for d in devices(spec.name) if not d.simulated
        }
    for device, natives in groups.items():
        wait = _wait_of(device)
        if wait is not None:
            wait(device._place, natives)
    if not targets:
        return None
    return targets[0] if len(targets) == 1 else targets


#: Each device's synchronize hook (None: nothing to wait for), looked up once.
_WAITS: dict[Device, Callable[[str, list[object]], None] | None] = {}


def _wait_of(d: Device) -> Callable[[str, list[object]], None] | None:
    try:
        return _WAITS[d]
    except KeyError:
        wait = _WAITS[d] = d._backend.hooks.synchronize
        return wait


#: JAX's name for :func:`synchronize`.
block_until_ready = synchronize


def _loaded_backends() -> list[BackendSpec]:
    from ._backends import specs

    return [spec for spec in specs() if spec.module in sys.modules]


def repr_values(x: Array) -> str:
    import numpy as np

    try:
        values = x._device._backend.adapter.to_numpy(x._native)
    except Exception:
        return "<not readable here>"
    return np.array2string(np.asarray(values), separator=", ", prefix="Array(")


_HOST_BACKENDS = frozenset({"numpy", "dask", "array_api_strict"})


def host_array_for_numpy(x: Array, dtype: object, copy: bool | None) -> np.ndarray:
    """NumPy's ``__array__`` protocol, under the backend's own rule for device memory.

    Arrays in host memory convert. An array in device memory converts where the backend's
    own arrays do (JAX copies to the host; ``copy=False`` is refused then), and is refused
    where they are (torch and CuPy: a hidden device-to-host copy is an error there).
    """
    import numpy as np

    d = x._device
    if d._name not in _HOST_BACKENDS and d._place.split(":")[0] != "cpu":
        if not d._backend.hooks.implicit_host_copy:
            library, _ = caller()
            raise TypeError(
                f"cannot convert an array on {d} to NumPy implicitly ({d._name} refuses it "
                "for its own arrays); copy it to the host explicitly with "
                f"arraymux.to_numpy(x). {advice(library, d)}"
            )
        if copy is False:
            raise ValueError(
                f"arraymux.Array.__array__: an array on {d} lives in device memory; "
                "converting it to NumPy needs a copy, and copy=False forbids one."
            )
    warn_fallback(d)  # SciPy or scikit-learn, with its switch off, converting an Array
    out = d._backend.adapter.to_numpy(x._native)
    if dtype is not None:
        try:
            out = out.astype(dtype, copy=False)
        except (TypeError, ValueError) as e:
            raise type(e)(
                f"arraymux.Array.__array__: cannot convert to dtype {dtype!r}: {e}"
            ) from e

    if copy:
        out = np.array(out, copy=True)
    return out
