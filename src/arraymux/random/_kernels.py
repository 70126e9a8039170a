"""One kernel per float draw on the GPUs: Threefry-2x32 of each counter and its float32 (a
uniform float, or a normal one by Giles' ``erfinv``) computed in one pass, as the C loops of
``_speedups`` compute them on the host.

Written with arraymux's operations, a draw is about 150 kernels on torch's CUDA devices and
CuPy's (each reading and writing the whole draw); here it is one:

- on CuPy, CUDA C compiled by NVRTC with ``--fmad=false`` (every product rounded before it is
  added, as on the host) and its default, correctly rounded division and square root;
- on torch's CUDA devices, a Triton kernel launched with ``enable_fp_fusion=False`` and the
  correctly rounded ``div_rn`` and ``sqrt_rn``: launched at once eagerly, and inside
  ``torch.compile`` through an operator of its own (``arraymux::threefry_floats``), one node
  of the graph, which ``torch.func.vmap`` maps over keys too. A second kernel computes
  Threefry's blocks (:func:`blocks`: keys, bits, integers and float64 draws start from them).

Every operation is the one IEEE operation that ``_special.py`` and ``_speedups.c`` write, so
the floats are the bits of every other device; the tests compare them. The coefficients come
from :func:`._special.normal_constants`, their one source. Where no GPU is, the tests compile
the CUDA source as C (:func:`c_source`) and CuPy's kernels as C++ with CUDA's names stood in,
and run the Triton kernels in Triton's interpreter, against NumPy's draws. A GPU that cannot
run the kernels draws by the general route (see :func:`_launched`).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .._array import Array
from .._array import wrap as _wrap
from .._devices import Device
from .._dtypes import DType
from ._special import normal_constants

if TYPE_CHECKING:
    import torch

#: The draws that have a kernel: a uniform float32 of ``[0, 1)`` and a standard normal one.
KINDS = ("uniform", "normal")

#: Off, every draw takes the general route (the tests compare the two).
ENABLED = True

#: The layout of :func:`._special.normal_constants`, in order: its polynomials' names and
#: lengths, then its single numbers.
_POLYNOMIALS = (
    ("LOG1P_P", 7),
    ("LOG1P_Q", 7),
    ("LOGF_P", 9),
    ("ERFINV_SMALL", 9),
    ("ERFINV_LARGE", 9),
)
_NUMBERS = ("LN2_HI", "LN2_LO", "SQRT_HALF", "LOG1P_LIMIT", "LO", "SQRT2", "UNIT")

# The arithmetic of one counter, in C that CUDA and the host's C compiler both take: AMX_FN
# marks its functions, AMX_AS_FLOAT and AMX_AS_BITS reinterpret a word (each side defines
# them). The functions mirror normal_f32 in _speedups.c operation by operation.
_ELEMENT = r"""
typedef unsigned int amx_u32;

#define AMX_ROTL(v, r) (((v) << (r)) | ((v) >> (32 - (r))))
#define AMX_MIX(r) x0 += x1; x1 = AMX_ROTL(x1, r) ^ x0

/* jax.random.bits of counter c: Threefry-2x32 (20 rounds) of the counter words (0, c) */
AMX_FN amx_u32 amx_bits(amx_u32 k0, amx_u32 k1, amx_u32 c)
{
    const amx_u32 k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    amx_u32 x0 = k0, x1 = c + k1;
    AMX_MIX(13); AMX_MIX(15); AMX_MIX(26); AMX_MIX(6);
    x0 += k1; x1 += k2 + 1u;
    AMX_MIX(17); AMX_MIX(29); AMX_MIX(16); AMX_MIX(24);
    x0 += k2; x1 += k0 + 2u;
    AMX_MIX(13); AMX_MIX(15); AMX_MIX(26); AMX_MIX(6);
    x0 += k0; x1 += k1 + 3u;
    AMX_MIX(17); AMX_MIX(29); AMX_MIX(16); AMX_MIX(24);
    x0 += k1; x1 += k2 + 4u;
    AMX_MIX(13); AMX_MIX(15); AMX_MIX(26); AMX_MIX(6);
    x0 += k2; x1 += k0 + 5u;
    return x0 ^ x1;
}

/* the float32 of [0, 1) of counter c: the top 23 bits times 2**-23, both exact */
AMX_FN float amx_uniform(amx_u32 k0, amx_u32 k1, amx_u32 c)
{
    return (float)(amx_bits(k0, k1, c) >> 9) * AMX_UNIT;
}

#define AMX_H(c) p = p * x; p = p + (c)
AMX_FN float amx_horner7(float x, const float c0, const float c1, const float c2,
                         const float c3, const float c4, const float c5, const float c6)
{
    float p = x * c0;
    p = p + c1;
    AMX_H(c2); AMX_H(c3); AMX_H(c4); AMX_H(c5); AMX_H(c6);
    return p;
}

AMX_FN float amx_horner9(float x, const float c0, const float c1, const float c2,
                         const float c3, const float c4, const float c5, const float c6,
                         const float c7, const float c8)
{
    float p = x * c0;
    p = p + c1;
    AMX_H(c2); AMX_H(c3); AMX_H(c4); AMX_H(c5); AMX_H(c6); AMX_H(c7); AMX_H(c8);
    return p;
}

/* log(y) for positive normal y: y = m * 2**e with m in [sqrt(1/2), sqrt(2)), Cephes' logf */
AMX_FN float amx_log(float y)
{
    amx_u32 b = AMX_AS_BITS(y);
    float m = AMX_AS_FLOAT((b & 0x007fffffu) | 0x3f000000u);
    float e = (float)((int)(b >> 23) - 126);
    int low = m < AMX_SQRT_HALF;
    float m2 = m * 2.0f, e1 = e - 1.0f;
    m = low ? m2 : m;
    e = low ? e1 : e;
    float f = m - 1.0f;
    float z = f * f;
    float r = amx_horner9(f, AMX_LOGF_P);
    r = r * f;
    r = r * z;
    float t = e * AMX_LN2_LO;
    r = r + t;
    t = z * 0.5f;
    r = r - t;
    float out = f + r;
    t = e * AMX_LN2_HI;
    return out + t;
}

AMX_FN float amx_log1p(float x)
{
    int small = fabsf(x) < AMX_LOG1P_LIMIT;
    float xs = small ? x : 0.0f;
    float z = xs * xs;
    float ratio = amx_horner7(xs, AMX_LOG1P_P) / amx_horner7(xs, AMX_LOG1P_Q);
    float a = z * -0.5f;
    float b = xs * z;
    b = b * ratio;
    float near = xs + (a + b);
    float y = 1.0f + x;
    float far = amx_log(small ? 1.0f : y);
    return small ? near : far;
}

/* the standard normal float32 of counter c, as jax.random.normal makes it */
AMX_FN float amx_normal(amx_u32 k0, amx_u32 k1, amx_u32 c)
{
    float u = amx_uniform(k0, k1, c);
    float v = u * 2.0f;
    v = v + AMX_LO;
    v = v < AMX_LO ? AMX_LO : v;
    float xx = v * v;
    float w = -amx_log1p(-xx);
    float p;
    if (w < 5.0f) { /* a warp computes the tails' polynomial only where a thread needs it */
        p = amx_horner9(w - 2.5f, AMX_ERFINV_SMALL);
    }
    else {
        p = amx_horner9(sqrtf(w) - 3.0f, AMX_ERFINV_LARGE);
    }
    p = p * v;
    return p * AMX_SQRT2;
}
"""

# The kernels of CuPy: one thread per counter (a grid-stride loop), the key's two words read
# on the device (no host synchronisation), `stride` elements apart.
_CUDA_KERNELS = r"""
#define AMX_KERNEL(name, element)                                                           \
    extern "C" __global__ void name(const amx_u32 *key, long long stride, float *out,       \
                                    long long n)                                            \
    {                                                                                       \
        const amx_u32 k0 = key[0], k1 = key[stride];                                        \
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;         \
             i += (long long)blockDim.x * gridDim.x) {                                      \
            out[i] = element(k0, k1, (amx_u32)i);                                           \
        }                                                                                   \
    }

AMX_KERNEL(amx_uniform_f32, amx_uniform)
AMX_KERNEL(amx_normal_f32, amx_normal)
"""

_CUDA_PRELUDE = r"""
#define AMX_FN __device__ __forceinline__
#define AMX_AS_FLOAT(b) __uint_as_float(b)
#define AMX_AS_BITS(f) __float_as_uint(f)
"""

_C_PRELUDE = r"""
#include <math.h>
#include <string.h>
#define AMX_FN static inline
static inline float amx_as_float(unsigned int b) { float f; memcpy(&f, &b, 4); return f; }
static inline unsigned int amx_as_bits(float f) { unsigned int b; memcpy(&b, &f, 4); return b; }
#define AMX_AS_FLOAT(b) amx_as_float(b)
#define AMX_AS_BITS(f) amx_as_bits(f)
"""


def _constants_source() -> str:
    """``#define`` lines of the coefficients, each a float32 written as the double that equals
    it (cast back exactly): comma-separated lists for the polynomials."""
    numbers = iter(normal_constants().tolist())
    layout = [*_POLYNOMIALS, *((name, 1) for name in _NUMBERS)]
    lines = []
    for name, count in layout:
        values = ", ".join(f"((float){next(numbers)!r})" for _ in range(count))
        lines.append(f"#define AMX_{name} {values}")
    return "\n".join(lines) + "\n"


def cuda_source() -> str:
    """The CUDA C of CuPy's kernels ``amx_uniform_f32`` and ``amx_normal_f32``."""
    return _CUDA_PRELUDE + _constants_source() + _ELEMENT + _CUDA_KERNELS


def c_source() -> str:
    """The same arithmetic as C for the host's compiler (compile it with
    ``-ffp-contract=off``): ``amx_uniform(k0, k1, c)`` and ``amx_normal(k0, k1, c)``."""
    return _C_PRELUDE + _constants_source() + _ELEMENT


def draw(kind: str, k: Array, n: int, dtype: DType) -> Array | None:
    """The ``n`` ``kind`` floats (see :data:`KINDS`) of key ``k`` for the counters ``0, ...,
    n - 1``, by one kernel on the key's GPU, or None where no kernel draws them (off, not
    float32, another device, no Triton, a key that a torch.func transform wraps)."""
    backend = k.device.backend
    if not ENABLED or backend not in ("cupy", "torch") or dtype.name != "float32":
        return None
    if backend == "cupy":
        if not _usable(k.device):
            return None
        return _launched(k.device, _cupy_draw, kind, k.native, n)
    kernels = _torch_kernels(k)
    if kernels is None:
        return None
    if _compiling():  # one node of the graph
        return _wrap(kernels.floats_op(k.native, n, kind), k.device)
    return _launched(k.device, kernels.floats, kind, k.native, n)  # no dispatch: ~25 us less


def blocks(k: Array, n: int, start: int) -> Array | None:
    """Threefry's blocks of key ``k`` for the counters ``start, ..., start + n - 1`` (modulo
    2**32) by one kernel on torch's CUDA devices, as an ``(n, 2)`` array of the key's dtype
    (a block's two words a row: the keys of ``split``, ``fold_in`` and a generator's steps),
    or None elsewhere (CuPy fuses the rounds with ``cupy.fuse``)."""
    if not ENABLED or k.device.backend != "torch":
        return None
    kernels = _torch_kernels(k)
    if kernels is None:
        return None
    if _compiling():
        return _wrap(kernels.blocks_op(k.native, n, start), k.device)
    return _launched(k.device, kernels.blocks, k.native, n, start)


def block_words(k: Array, n: int, start: int) -> tuple[Array, Array] | None:
    """:func:`blocks`' two columns (views): the first and the second words of the blocks."""
    rows = blocks(k, n, start)
    if rows is None:
        return None
    y0, y1 = rows.native.unbind(1)
    return _wrap(y0, k.device), _wrap(y1, k.device)


#: Per device (by name): whether its kernels run there. Triton compiles for GPUs of compute
#: capability 7.0 and newer (as torch.compile needs); a device whose kernel failed is off.
_USABLE: dict[str, bool] = {}


def _usable(device: Device) -> bool:
    """Whether ``device`` runs the kernels (decided outside ``torch.compile``, once)."""
    try:
        return _USABLE[device._str]
    except KeyError:
        if device.backend != "torch":
            usable = True
        elif _compiling():
            return False
        else:
            import torch

            usable = torch.cuda.get_device_capability(device.native) >= (7, 0)
        _USABLE[device._str] = usable
        return usable


def _launched(device: Device, launch: Callable[..., Any], *args: Any) -> Any:
    """``launch(*args)``, an array wrapped on ``device`` (a tuple of native arrays as it
    is); None, and the device's kernels off with a warning, where the kernel cannot run there
    (a compiler or driver that refuses it): the general route then draws the same numbers."""
    try:
        out = launch(*args)
    except Exception as err:
        if isinstance(err, MemoryError) or "OutOfMemory" in type(err).__name__:
            raise  # the general route would need the memory too
        _USABLE[device._str] = False
        warnings.warn(
            f"arraymux.random: the one-kernel draws of {device} failed ({type(err).__name__}: "
            f"{err}); draws there take the general route: the same numbers, more slowly.",
            RuntimeWarning,
            stacklevel=4,
        )
        return None
    return _wrap(out, device) if not isinstance(out, tuple) else out


def _torch_kernels(k: Array) -> TorchKernels | None:
    """The kernels of torch's CUDA devices for key ``k``, or None where the general route
    draws: another device, no Triton, a key that a torch.func transform wraps (its tracking
    has no rule for the operators), inside ``torch.compile`` before they were registered."""
    if not k.device.place.startswith("cuda"):
        return None
    if not _TORCH:  # registered outside torch.compile (see torch_kernels), once
        if _compiling():
            return None
        torch_kernels()
    kernels = _TORCH[0]
    if kernels is None or not _usable(k.device):
        return None
    if not _compiling() and k.device._backend.hooks.traced(k.native):  # type: ignore[misc]
        return None  # torch.func's tracking has no rule for the operators
    return kernels


# ---------------------------------------------------------------------------------- CuPy

_LOCK = threading.Lock()
_CUPY_MODULE: list[Any] = []
#: Threads per block of CuPy's kernels, and the most blocks (a grid-stride loop does the rest:
#: five million normals on an H100 took 41 us with 4096 blocks, 46 with 65536).
_THREADS, _MAX_BLOCKS = 256, 4096


def _cupy_module() -> Any:
    """The compiled module of :func:`cuda_source`, made once (CuPy loads it on each device
    that launches it)."""
    if not _CUPY_MODULE:
        import cupy

        with _LOCK:
            if not _CUPY_MODULE:
                _CUPY_MODULE.append(cupy.RawModule(code=cuda_source(), options=("--fmad=false",)))
    return _CUPY_MODULE[0]


def _cupy_draw(kind: str, key: Any, n: int) -> Any:
    import cupy
    import numpy as np

    with key.device:
        out = cupy.empty((n,), dtype=cupy.float32)
        if n:
            fn = _cupy_module().get_function(f"amx_{kind}_f32")
            blocks = min((n + _THREADS - 1) // _THREADS, _MAX_BLOCKS)
            stride = key.strides[0] // key.itemsize
            fn((blocks,), (_THREADS,), (key, np.int64(stride), out, np.int64(n)))
    return out


# --------------------------------------------------------------------------------- torch


def _compiling() -> bool:
    import torch

    return bool(torch.compiler.is_compiling())


def prepare(device: Device) -> None:
    """Register the operators of torch's GPUs when a key is made on one outside
    ``torch.compile``, so that draws traced later find them."""
    gpu = device.backend == "torch" and device.place.startswith("cuda")
    if gpu and not _compiling() and torch_kernels() is not None:
        _usable(device)


class TorchKernels(NamedTuple):
    """The kernels of torch's CUDA devices: launched directly, and as operators of
    ``torch.library`` (``arraymux::threefry_floats``, ``arraymux::threefry_blocks``), which
    ``torch.compile`` keeps as one node each and ``torch.func.vmap`` maps over keys."""

    floats: Callable[[str, torch.Tensor, int], torch.Tensor]
    blocks: Callable[[torch.Tensor, int, int], torch.Tensor]
    floats_op: Any
    blocks_op: Any


#: The kernels once :func:`torch_kernels` has run: ``[kernels]``, or ``[None]`` without Triton.
_TORCH: list[TorchKernels | None] = []
#: The libraries that hold the operators (a definition lives as long as its library).
_LIBRARIES: list[Any] = []


def torch_kernels() -> TorchKernels | None:
    """The kernels of torch's CUDA devices, registered on the first call (outside
    ``torch.compile``: a key made on a torch GPU calls it), or None where torch has no Triton
    to write them with (a CPU build, ROCm)."""
    if not _TORCH:
        with _LOCK:
            if not _TORCH:
                _TORCH.append(_register())
    return _TORCH[0]


def _register(cuda: bool = True) -> TorchKernels | None:
    """The operators, registered with ``torch.library`` (``cuda=False`` registers them without
    CUDA too, for Triton's interpreter on the host, which the tests run)."""
    import torch

    if cuda and torch.version.cuda is None:
        return None
    try:
        import triton  # noqa: F401  (shipped with torch's CUDA builds)
    except ImportError:
        return None
    from ._triton import blocks, floats

    # torch.library.Library, not custom_op: custom_op's Python layers cost ~17 us a call (torch
    # 2.13 on the CPU, a trivial kernel; ~25 us on an H100 with torch 2.11), this dispatch ~2.3
    library = torch.library.Library("arraymux", "FRAGMENT")
    library.define("threefry_floats(Tensor key, SymInt n, str kind) -> Tensor")
    library.define("threefry_blocks(Tensor key, SymInt n, int start) -> Tensor")
    for where in ("CUDA", "CPU"):  # the host: Triton's interpreter, for the tests
        library.impl("threefry_floats", lambda key, n, kind: floats(kind, key, n), where)
        library.impl("threefry_blocks", blocks, where)
    _LIBRARIES.append(library)

    def fake_floats(key: torch.Tensor, n: int, kind: str) -> torch.Tensor:
        return key.new_empty((n,), dtype=torch.float32)

    def fake_blocks(key: torch.Tensor, n: int, start: int) -> torch.Tensor:
        return key.new_empty((n, 2), dtype=torch.int32)

    torch.library.register_fake("arraymux::threefry_floats", fake_floats)
    torch.library.register_fake("arraymux::threefry_blocks", fake_blocks)
    ops = torch.ops.arraymux
    floats_op, blocks_op = ops.threefry_floats.default, ops.threefry_blocks.default

    def mapped(op: Any) -> Any:
        def rule(info: Any, in_dims: tuple[int | None, ...], key: torch.Tensor, *rest: Any) -> Any:
            # keys mapped over by vmap: the results of each key, stacked
            if in_dims[0] is None:
                out = op(key, *rest)
                return out, (None if isinstance(out, torch.Tensor) else (None,) * len(out))
            each = [op(one, *rest) for one in key.movedim(in_dims[0], 0).unbind(0)]
            if isinstance(each[0], torch.Tensor):
                return torch.stack(each), 0
            return tuple(torch.stack(part) for part in zip(*each, strict=True)), (0,) * len(each[0])

        return rule

    torch.library.register_vmap("arraymux::threefry_floats", mapped(floats_op))
    torch.library.register_vmap("arraymux::threefry_blocks", mapped(blocks_op))
    return TorchKernels(floats, blocks, floats_op, blocks_op)
