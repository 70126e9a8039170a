"""CuPy adapter (the contract every adapter follows is ``_adapter.Adapter``). Places are GPU ordinals: ``cupy:0``."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, ParamSpec, TypeVar, cast

import array_api_compat.cupy as _xp
import cupy
import numpy as np

from . import _special_cases, _staging
from ._common import array_dtype as array_dtype
from ._common import clip as _clip
from ._common import dtype_from_numpy, every_dtype, raise_unknown_place, sized_reshape

if TYPE_CHECKING:
    import numpy.typing as npt
    import torch

    from ._staging import StagingRing

_P = ParamSpec("_P")
_R = TypeVar("_R")

# What arrays report are NumPy dtypes, and every dtype lives everywhere.
dtype_from_native = dtype_from_numpy
supports_dtype = every_dtype


def namespace() -> ModuleType:
    return _xp


def overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    out: dict[str, Callable[..., cupy.ndarray]] = {
        "fft.fftfreq": _freq(cupy.fft.fftfreq),
        "fft.rfftfreq": _freq(cupy.fft.rfftfreq),
        "asarray": _asarray(ns.asarray),
        # array-api-compat's matmul passes its arguments on (arraymux has promoted them).
        "matmul": cupy.matmul,
        # CuPy computes x1 - floor(x1 / x2) * x2: NumPy's (fmod's) answers instead.
        "remainder": _numpys_division("remainder", ns.remainder),
        "log1p": _special_cases.log1p(ns, ns.log1p, _make_complex),
        "expm1": _special_cases.expm1(ns, ns.expm1, _make_complex),
        "floor_divide": _special_cases.floor_divide(
            ns, _numpys_division("floor_divide", ns.floor_divide)
        ),
        "repeat": _special_cases.nonnegative_count(_repeat),
        "std": _special_cases.corrected(ns.std),
        "var": _special_cases.corrected(ns.var),
        "sort": _special_cases.stable_descending(ns, ns.sort),
        "squeeze": _special_cases.squeeze_of_axis(ns.squeeze),
        "linalg.vector_norm": _special_cases.inf_norm_of_nothing(ns, ns.linalg.vector_norm),
        # The bounds as scalars of the kernel: no upload, no boolean-mask synchronisation.
        "clip": _clip(cupy, ns.clip),
        "linalg.solve": _special_cases.solve(ns, ns.linalg.solve),
        # CuPy makes an empty array of a shape whose byte size overflows 64 bits.
        "reshape": sized_reshape(ns.reshape),
    }
    # Complex special cases with infinite, NaN or signed zero parts (log, tanh, acosh, ...).
    for name in _special_cases.COMPLEX_CASES:
        base = getattr(ns, name)
        if name == "tanh":
            base = _special_cases.tanh(ns, base, _make_complex)
        out[name] = _special_cases.complex_cases(ns, name, base, _make_complex)
    for name, radix in (("log2", 2.0), ("log10", 10.0)):
        out[name] = _special_cases.change_of_base(
            ns, getattr(ns, name), out["log"], radix, _make_complex
        )
    return out


# NumPy's floating-point floor division and remainder (its ``npy_divmod``, as torch's and
# JAX's kernels compute them too): the remainder is ``fmod``'s, moved into the divisor's sign,
# and the quotient is found from it. CuPy computes ``floor(x1 / x2)`` and ``x1 - floor(x1 /
# x2) * x2`` from the rounded quotient, so that ``-5e-324 // 2.0`` is -0.0 (NumPy: -1.0) and
# ``1e17 % 3.0`` is 0.0 (NumPy: 1.0, the remainder itself).
_DIVMOD_HEAD = """
R x = (R)a, y = (R)b;
R mod = fmod(x, y);
"""
_DIVMOD_BODIES = {
    "floor_divide": _DIVMOD_HEAD
    + """
if (y == 0) {
    out = x / y;
} else {
    R div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0))) {
        div -= 1;
    }
    if (div != 0) {
        R whole = floor(div);
        out = (div - whole > (R)0.5) ? whole + 1 : whole;
    } else {
        out = copysign((R)0, x / y);
    }
}
""",
    "remainder": _DIVMOD_HEAD
    + """
if (y != 0) {
    if (mod != 0) {
        if ((y < 0) != (mod < 0)) {
            mod += y;
        }
    } else {
        mod = copysign((R)0, y);
    }
}
out = mod;
""",
}


@functools.cache
def _divmod_kernel(name: str, params: str) -> cupy.ElementwiseKernel:
    return cupy.ElementwiseKernel(params, "R out", _DIVMOD_BODIES[name], f"arraymux_{name}")


def _numpys_division(name: str, base: Callable[..., cupy.ndarray]) -> Callable[..., cupy.ndarray]:
    """CuPy's ``name`` (``floor_divide`` or ``remainder``) for integer operands, NumPy's
    floating-point algorithm for float32 and float64 results (one kernel, as CuPy's own)."""

    def division(x1: cupy.ndarray | float, x2: cupy.ndarray | float, /) -> cupy.ndarray:
        if isinstance(x1, cupy.ndarray) and isinstance(x2, cupy.ndarray):
            dtype = cupy.result_type(x1.dtype, x2.dtype)
        elif isinstance(x1, complex) or isinstance(x2, complex):
            return base(x1, x2)
        else:  # a real Python number beside a float array takes its dtype
            dtype = (x1 if isinstance(x1, cupy.ndarray) else cast("cupy.ndarray", x2)).dtype
        if dtype.char not in "fd":
            return base(x1, x2)
        # An array's type is its own; a Python number is a kernel argument of the result's
        # type (a kernel's scalars take no type of their own).
        params = ", ".join(
            f"{t} {n}" if isinstance(x, cupy.ndarray) else f"R {n}"
            for x, t, n in ((x1, "X", "a"), (x2, "Y", "b"))
        )
        out = cupy.empty(np.broadcast_shapes(np.shape(x1), np.shape(x2)), dtype)
        # (on the operands' GPU, current here: every function of the table is ``placed``)
        try:
            return _divmod_kernel(name, params)(x1, x2, out)
        except OverflowError:  # (an int past the float range: CuPy's own explains)
            return base(x1, x2)

    division.__name__ = division.__qualname__ = name
    return division


def _repeat(
    x: cupy.ndarray, repeats: int | cupy.ndarray, /, *, axis: int | None = None
) -> cupy.ndarray:
    # CuPy refuses uint64 counts (no safe cast to int64); the standard takes any integer dtype.
    if not isinstance(repeats, int) and getattr(repeats, "dtype", None) == np.uint64:
        repeats = repeats.astype(np.int64)
    return cupy.repeat(x, repeats, axis=axis)


def _make_complex(re: cupy.ndarray, im: cupy.ndarray) -> cupy.ndarray:
    out = cupy.empty(re.shape, dtype=cupy.result_type(re.dtype, cupy.complex64))
    out.real = re
    out.imag = im
    return out


def _negative_zero(v: float | complex) -> bool:  # a Python float or complex
    parts = (v,) if type(v) is float else (v.real, v.imag)
    return any(p == 0 and math.copysign(1.0, p) < 0 for p in parts)


def _asarray(base: Callable[..., cupy.ndarray]) -> Callable[..., cupy.ndarray]:
    """``asarray`` keeping the sign of ``-0.0`` in 0-d arrays: CuPy fills a 0-d array whose value
    equals zero with zero bytes (``+0``), from a Python scalar or a 0-d NumPy array alike;
    a one-element array reshaped keeps the bytes."""

    def asarray(obj: object, /, **kwargs: object) -> cupy.ndarray:
        if (type(obj) is float or type(obj) is complex) and _negative_zero(obj):
            dtype = cast("npt.DTypeLike | None", kwargs.get("dtype"))  # the dtype keyword
            obj = np.asarray(obj, dtype=dtype)
        if type(obj) is np.ndarray and obj.ndim == 0:
            return base(obj.reshape(1), **kwargs).reshape(())
        return base(obj, **kwargs)

    return asarray


def _freq(make: Callable[..., cupy.ndarray]) -> Callable[..., cupy.ndarray]:
    """``fftfreq``/``rfftfreq`` made on the requested GPU (array-api-compat's take only
    ``device="cpu"`` for CuPy)."""

    def freq(
        n: int,
        /,
        *,
        d: float = 1.0,
        dtype: npt.DTypeLike | None = None,
        device: cupy.cuda.Device | None = None,
    ) -> cupy.ndarray:
        with device if device is not None else cupy.cuda.Device():
            out = make(n, d=d)
            return out if dtype is None else out.astype(dtype, copy=False)

    freq.__name__ = make.__name__
    return freq


def places() -> list[str]:
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError:
        return []
    return [str(i) for i in range(n)]


def parse_place(place: str | None) -> str:
    if place in (None, ""):
        place = str(cupy.cuda.runtime.getDevice()) if places() else "0"
    place = place.removeprefix("cuda:").removeprefix("gpu:")
    if place not in places():
        raise_unknown_place("cupy", place, places())
    return place


def placed(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` run on the GPU of its first CuPy array operand, or of ``device=``: CuPy launches
    kernels and allocates results on the current device whatever its operands' (arrays on
    another GPU are read through peer access), so without this a function of arrays on
    ``cupy:1`` called while device 0 is current would compute on, and return arrays of,
    device 0. Costs one ``getDevice`` call where the device is already current, 1-4 us a call
    in all; with one GPU, which is always current, ``fn`` runs as it is."""
    if _one_gpu():
        return fn
    current = cupy.cuda.runtime.getDevice
    ndarray = cupy.ndarray

    @functools.wraps(fn)
    def on_device(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        want = getattr(kwargs.get("device"), "id", None)
        if want is None:
            for a in args:
                if isinstance(a, ndarray):
                    want = a.data.device_id
                    break
                if isinstance(a, list | tuple) and a and isinstance(a[0], ndarray):
                    want = a[0].data.device_id
                    break
            else:
                return fn(*args, **kwargs)
        if want is None or want == current():
            return fn(*args, **kwargs)
        with cupy.cuda.Device(want):
            return fn(*args, **kwargs)

    return on_device


@functools.cache
def _one_gpu() -> bool:
    """Whether the process sees one GPU (a count fixed when CUDA starts)."""
    try:
        return bool(cupy.cuda.runtime.getDeviceCount() == 1)
    except cupy.cuda.runtime.CUDARuntimeError:
        return False


def fuse(fun: Callable[..., _R]) -> Callable[..., _R]:
    """``fun``, a function of elementwise operators on CuPy arrays, as one kernel, run on the
    device of its first argument (CuPy launches on the current device)."""
    kernel = cupy.fuse()(fun)
    if _one_gpu():
        return cast("Callable[..., _R]", kernel)

    def on_device(first: cupy.ndarray, *rest: object) -> _R:
        with first.device:
            return kernel(first, *rest)

    return on_device


def synchronize(place: str, xs: list[object]) -> None:
    """Wait for every stream of the device."""
    cupy.cuda.Device(int(place)).synchronize()


def native_device(place: str) -> cupy.cuda.Device:
    return cupy.cuda.Device(int(place))


def place_of_device(native: object) -> str:
    return str(getattr(native, "id", native))


def place_of(x: cupy.ndarray) -> str:
    return str(x.device.id)


def to_numpy(x: cupy.ndarray) -> np.ndarray:
    return x.get()


# Transfer hooks (see arraymux._transfer).

# Arrays imported through DLPack can be written in place (there are no read-only tensors):
# a zero-copy move from an immutable backend (JAX) copies unless copy=False asks to share.
WRITABLE_IMPORTS = True


def memory(place: str) -> tuple[str, int]:
    return ("cuda", int(place))


def current_gpu(place: str) -> cupy.cuda.Device:
    return cupy.cuda.Device(int(place))


def move_within(x: cupy.ndarray, src: str, dst: str) -> cupy.ndarray:
    """``x`` copied from GPU ``src`` to GPU ``dst`` with one peer copy, ordered after the work
    queued on the source device's current stream (CuPy's own cross-device ``asarray`` copies
    on the target's stream without waiting for the source's, and refuses non-contiguous
    arrays). The source's stream then waits for the copy, so memory freed there is not
    reused before the copy has read it."""
    with cupy.cuda.Device(int(src)):
        if not x.flags.c_contiguous:
            x = x.copy()  # C order (ascontiguousarray would make a 0-d array 1-d)
        source = cupy.cuda.get_current_stream()
        ready = source.record()
    with cupy.cuda.Device(int(dst)):
        out = cupy.empty(x.shape, dtype=x.dtype)
        stream = cupy.cuda.get_current_stream()
        stream.wait_event(ready)
        if x.nbytes:
            out.data.copy_from_device_async(x.data, x.nbytes, stream)
        done = stream.record()
    source.wait_event(done)
    return out


def from_dlpack(obj: object, place: str | None, copy: bool | None) -> cupy.ndarray:
    with cupy.cuda.Device(None if place is None else int(place)):
        out = cupy.from_dlpack(obj)
    if not copy:
        return out
    with out.device:  # CuPy copies onto the current device, not the array's
        return out.copy()


def from_host(a: np.ndarray, place: str) -> cupy.ndarray:
    from ._staging import STAGE_MIN

    if a.nbytes >= STAGE_MIN:
        return upload(a, place)
    with cupy.cuda.Device(int(place)):
        if a.ndim == 0:  # see _asarray: a 0-d upload would lose the sign of -0.0
            return cupy.asarray(a.reshape(1)).reshape(())
        return cupy.asarray(a)


def _make_ring(chunk: int, count: int) -> StagingRing:
    import numpy as np

    from ._staging import StagingRing

    mems = [cupy.cuda.alloc_pinned_memory(chunk) for _ in range(count)]
    host = [np.ndarray((chunk,), dtype=np.uint8, buffer=m) for m in mems]
    return StagingRing(host, mems, cupy.cuda.Stream(non_blocking=True))


def _is_pinned(ptr: int) -> bool:
    """Whether host address ``ptr`` lies in page-locked memory CUDA knows of."""
    runtime = cupy.cuda.runtime
    try:
        kind = runtime.pointerGetAttributes(ptr).type
    except runtime.CUDARuntimeError:
        return False
    return bool(kind == getattr(runtime, "memoryTypeHost", 1))


def upload(a: np.ndarray, place: str) -> cupy.ndarray:
    """A new CuPy array holding ``a`` (a host ndarray in native byte order, any layout).

    A C-contiguous ``a`` in page-locked memory is copied with one DMA. Otherwise the copy is
    pipelined through the device's ring of pinned buffers (``arraymux._backends._staging.staged_copy``),
    asynchronous copies on the ring's stream, one synchronisation at the end."""
    from ._staging import staging_ring
    from ._staging import upload as staged_upload

    runtime = cupy.cuda.runtime
    with cupy.cuda.Device(int(place)):
        flat = cupy.empty(a.nbytes, dtype=cupy.uint8)
        if a.flags.c_contiguous and _is_pinned(a.ctypes.data):
            # Page-locked already: one DMA at the full pinned bandwidth, no staging.
            current = cupy.cuda.get_current_stream()
            runtime.memcpyAsync(
                flat.data.ptr, a.ctypes.data, a.nbytes, runtime.memcpyHostToDevice, current.ptr
            )
            current.synchronize()
            return flat.view(a.dtype).reshape(a.shape)
        ring = staging_ring(("cupy", int(place)), _make_ring)
        mems = cast("list[cupy.cuda.PinnedMemoryPointer]", ring.keep)  # as _make_ring made it
        ptrs = [m.ptr for m in mems]
        base = flat.data.ptr
        with ring.lock:
            stream = cast("cupy.cuda.Stream", ring.stream)
            # The new memory may have been in use on the current stream until just now.
            stream.wait_event(cupy.cuda.get_current_stream().record())

            def to_device(slot: int, offset: int, n: int) -> cupy.cuda.Event:
                runtime.memcpyAsync(
                    base + offset, ptrs[slot], n, runtime.memcpyHostToDevice, stream.ptr
                )
                event = cupy.cuda.Event(disable_timing=True)
                event.record(stream)
                return event

            try:
                staged_upload(a, ring, to_device)
            finally:
                stream.synchronize()
        return flat.view(a.dtype).reshape(a.shape)


def fast_route(
    direction: str, place: str, other: str, other_place: str
) -> Callable[..., object] | None:
    """Small moves between CuPy and host memory (NumPy, and torch:cpu tensors into CuPy) with
    ``copy=None``, in one plain copy, which costs less than the pinned and staged routes below
    their thresholds; None for other pairs. The route returns None for arrays that need the
    general path."""
    if direction == "export" and other == "numpy":
        return _small_read
    if direction == "import" and other == "numpy":
        return lambda a: _small_upload(a, place)
    if direction == "import" and other == "torch" and other_place == "cpu":
        return lambda t: _small_upload(_host_view(t), place)
    return None


def _host_view(t: torch.Tensor) -> np.ndarray | None:
    """A NumPy view of a CPU tensor, or None (autograd, conjugate or negative bits)."""
    try:
        return t.numpy()
    except (RuntimeError, TypeError):
        return None


def _small_read(x: cupy.ndarray) -> np.ndarray | None:
    if x.nbytes >= _staging.PINNED_READ_MIN:
        return None
    with cupy.cuda.Device(x.device.id):
        return x.get()


def _small_upload(a: object, place: str) -> cupy.ndarray | None:
    # 0-d: see _asarray (a 0-d upload would lose the sign of -0.0).
    if (
        type(a) is not np.ndarray
        or a.nbytes >= _staging.STAGE_MIN
        or not a.ndim
        or not a.dtype.isnative
    ):
        return None
    with cupy.cuda.Device(int(place)):
        return cupy.asarray(a)


def data_ptr(x: cupy.ndarray) -> int:
    return int(x.data.ptr)


def to_host(x: cupy.ndarray) -> np.ndarray:
    return to_host_many([x])[0]


def to_host_many(xs: list[cupy.ndarray]) -> list[np.ndarray]:
    """Asynchronous copies into pinned buffers on one stream per device, one sync each; one
    small array alone is read with a plain copy (what ``cupy.asnumpy`` does), which costs less
    than allocating a pinned buffer and a stream."""
    import cupyx

    if len(xs) == 1 and xs[0].nbytes < _staging.PINNED_READ_MIN:
        x = xs[0]
        with cupy.cuda.Device(x.device.id):
            return [x.get()]
    out = []
    streams: dict[int, cupy.cuda.Stream] = {}
    for x in xs:
        dev = x.device.id
        if dev not in streams:
            with cupy.cuda.Device(dev):
                stream = cupy.cuda.Stream(non_blocking=True)
                # Copies start after the work already queued on the current stream.
                stream.wait_event(cupy.cuda.get_current_stream().record())
                streams[dev] = stream
        buf = cupyx.empty_pinned(x.shape, dtype=x.dtype)
        with cupy.cuda.Device(dev):
            x.get(stream=streams[dev], out=buf, blocking=False)
        out.append(buf)
    for s in streams.values():
        s.synchronize()
    return out


def engine_place(place: str) -> str:
    """Transforms of CuPy arrays run on torch.func on the same CUDA device."""
    return f"torch:cuda:{place}"
