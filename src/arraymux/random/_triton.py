"""The Triton kernel of :mod:`._kernels` for torch's CUDA devices (imported only where Triton
is): the arithmetic of ``_kernels._ELEMENT``, operation by operation, with the coefficients
read from a float32 tensor of :func:`._special.normal_constants` on the device."""

from __future__ import annotations

import contextlib
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import triton
import triton.language as tl
from triton.runtime import driver

try:  # launching a compiled kernel directly (see _run); Triton 3.4 and later
    from triton import knobs
    from triton.compiler import CompiledKernel
except ImportError:  # pragma: no cover - older Triton launches through its JIT functions
    CompiledKernel = None

from ._special import normal_constants

if TYPE_CHECKING:
    import torch

#: Counters per program, and its warps.
BLOCK, WARPS = 1024, 4


@triton.jit
def _mix(x0, x1, r: tl.constexpr):
    x0 = x0 + x1
    x1 = ((x1 << r) | (x1 >> (32 - r))) ^ x0
    return x0, x1


@triton.jit
def _group(
    x0,
    x1,
    a,
    b,
    i: tl.constexpr,
    r0: tl.constexpr,
    r1: tl.constexpr,
    r2: tl.constexpr,
    r3: tl.constexpr,
):
    """Four rounds of rotations ``r0`` to ``r3``, then the key words ``a`` and ``b + i`` added."""
    x0, x1 = _mix(x0, x1, r0)
    x0, x1 = _mix(x0, x1, r1)
    x0, x1 = _mix(x0, x1, r2)
    x0, x1 = _mix(x0, x1, r3)
    return x0 + a, x1 + (b + i)


@triton.jit
def _threefry(k0, k1, c):
    """Threefry-2x32 (20 rounds) of the counter words ``(0, c)``: the block's two words."""
    k2 = k0 ^ k1 ^ 0x1BD11BDA
    x0, x1 = _group(c * 0 + k0, c + k1, k1, k2, 1, 13, 15, 26, 6)
    x0, x1 = _group(x0, x1, k2, k0, 2, 17, 29, 16, 24)
    x0, x1 = _group(x0, x1, k0, k1, 3, 13, 15, 26, 6)
    x0, x1 = _group(x0, x1, k1, k2, 4, 17, 29, 16, 24)
    x0, x1 = _group(x0, x1, k2, k0, 5, 13, 15, 26, 6)
    return x0, x1


@triton.jit
def _bits(k0, k1, c):
    """``jax.random.bits`` of counter ``c``: its block's two words xored."""
    x0, x1 = _threefry(k0, k1, c)
    return x0 ^ x1


@triton.jit
def _blocks(key, stride, y, n, start, BLOCK: tl.constexpr):
    """The blocks of the counters ``start + i`` (modulo 2**32) for ``0 <= i < n``: row ``i``
    of the ``(n, 2)`` array ``y`` (contiguous) holds block ``i``'s two words, with the key's
    dtype (int32 on torch, the same bits); so the rows of ``split`` are keys as they are."""
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    k0 = tl.load(key).to(tl.uint32, bitcast=True)
    k1 = tl.load(key + stride).to(tl.uint32, bitcast=True)
    x0, x1 = _threefry(k0, k1, (i + start).to(tl.uint32))
    tl.store(y + 2 * i, x0.to(tl.int32, bitcast=True), mask=mask)
    tl.store(y + 2 * i + 1, x1.to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def _horner(x, K, first: tl.constexpr, count: tl.constexpr):
    p = x * tl.load(K + first)
    p = p + tl.load(K + first + 1)
    for i in tl.static_range(2, count):
        p = p * x
        p = p + tl.load(K + first + i)
    return p


@triton.jit
def _horner_of(x, K, first, a: tl.constexpr, b: tl.constexpr, count: tl.constexpr):
    """:func:`_horner` of the coefficients from ``a`` where ``first``, else from ``b``: the
    same operations, one polynomial evaluated instead of two."""
    p = x * tl.where(first, tl.load(K + a), tl.load(K + b))
    p = p + tl.where(first, tl.load(K + a + 1), tl.load(K + b + 1))
    for i in tl.static_range(2, count):
        p = p * x
        p = p + tl.where(first, tl.load(K + a + i), tl.load(K + b + i))
    return p


@triton.jit
def _log(y, K):
    b = y.to(tl.uint32, bitcast=True)
    m = ((b & 0x007FFFFF) | 0x3F000000).to(tl.float32, bitcast=True)
    e = ((b >> 23).to(tl.int32) - 126).to(tl.float32)
    low = m < tl.load(K + 43)
    m = tl.where(low, m * 2.0, m)
    e = tl.where(low, e - 1.0, e)
    f = m - 1.0
    z = f * f
    r = _horner(f, K, 14, 9)
    r = r * f
    r = r * z
    r = r + e * tl.load(K + 42)
    r = r - z * 0.5
    out = f + r
    return out + e * tl.load(K + 41)


@triton.jit
def _log1p(x, K):
    small = tl.abs(x) < tl.load(K + 44)
    xs = tl.where(small, x, 0.0)
    z = xs * xs
    ratio = tl.math.div_rn(_horner(xs, K, 0, 7), _horner(xs, K, 7, 7))
    a = z * -0.5
    b = xs * z
    b = b * ratio
    near = xs + (a + b)
    y = 1.0 + x
    far = _log(tl.where(small, 1.0, y), K)
    return tl.where(small, near, far)


@triton.jit
def _floats(key, stride, K, out, n, NORMAL: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    k0 = tl.load(key).to(tl.uint32, bitcast=True)
    k1 = tl.load(key + stride).to(tl.uint32, bitcast=True)
    u = (_bits(k0, k1, i.to(tl.uint32)) >> 9).to(tl.float32) * tl.load(K + 47)
    if NORMAL:
        lo = tl.load(K + 45)
        v = u * 2.0
        v = v + lo
        v = tl.where(v < lo, lo, v)
        xx = v * v
        w = -1.0 * _log1p(-1.0 * xx, K)
        lt = w < 5.0
        t = tl.where(lt, w - 2.5, tl.math.sqrt_rn(w) - 3.0)
        p = _horner_of(t, K, lt, 23, 32, 9)  # Giles' polynomial for the centre or the tails
        p = p * v
        u = p * tl.load(K + 46)
    tl.store(out + i, u, mask=mask)


_CONSTANTS: dict[object, torch.Tensor] = {}


def _constants(device: torch.device) -> torch.Tensor:
    """:func:`normal_constants` as float32 on ``device``, made there once, each number filled
    in on the device (a copy of host memory would wait for the GPU)."""
    try:
        return _CONSTANTS[device]
    except KeyError:
        import torch

        made = torch.empty((len(normal_constants()),), dtype=torch.float32, device=device)
        for i, v in enumerate(normal_constants().tolist()):
            made[i].fill_(v)  # float32 numbers: exact
        _CONSTANTS[device] = made
        return made


def floats(kind: str, key: torch.Tensor, n: int) -> torch.Tensor:
    """The ``n`` float32 ``kind`` floats of ``key`` (two words, on a CUDA device, or on the
    host for Triton's interpreter) for the counters ``0, ..., n - 1``."""
    import torch

    out = torch.empty((n,), dtype=torch.float32, device=key.device)
    if n == 0:
        return out
    with _on(key.device):
        _launch(kind, key, out, n)
    return out


def _on(device: torch.device) -> AbstractContextManager[object]:
    """``device`` made current where it is another CUDA device than the current one (Triton
    launches on the current device's stream)."""
    import torch

    if device.type == "cuda" and device.index != torch.cuda.current_device():
        return torch.cuda.device(device)
    return contextlib.nullcontext()


def blocks(key: torch.Tensor, n: int, start: int) -> torch.Tensor:
    """Threefry's blocks of ``key`` (int32 words) for the counters ``start, ..., start + n -
    1`` (modulo 2**32): an ``(n, 2)`` int32 tensor, a block's two words a row (a row is the
    key ``split`` and ``fold_in`` give, with no stacking after the kernel)."""
    import torch

    y = torch.empty((n, 2), dtype=torch.int32, device=key.device)
    if n == 0:
        return y
    with _on(key.device):
        _run(_blocks, triton.cdiv(n, BLOCK), (key, key.stride(0), y, n, start), {})
    return y


def _launch(kind: str, key: torch.Tensor, out: torch.Tensor, n: int) -> None:
    args = (key, key.stride(0), _constants(key.device), out, n)
    _run(_floats, triton.cdiv(n, BLOCK), args, {"NORMAL": kind == "normal"})


#: Off, every launch goes through Triton's JIT function (the tests compare the two); off too
#: where Triton's compiled kernels have no launcher laid out as :func:`_run` calls it.
DIRECT = CompiledKernel is not None

#: The compiled kernels met, by what Triton specialises a launch on (see :func:`_run`).
_COMPILED: dict[tuple[object, ...], Any] = {}


def _specialised(v: object) -> object:
    """What Triton specialises a kernel on for the argument ``v``: an int's type (32 or 64
    bits), whether it is 1 and whether 16 divides it; a tensor's dtype and whether its
    address is a multiple of 16."""
    if isinstance(v, int):
        return (-(2**31) <= v < 2**31, v == 1, v % 16 == 0)
    return (v.dtype, v.data_ptr() % 16 == 0)  # type: ignore[attr-defined]


def _run(fn: Any, blocks: int, args: tuple[object, ...], constants: dict[str, object]) -> None:
    """Launch ``fn`` on ``blocks`` blocks of the current CUDA device's current stream.

    The first launch of each specialisation goes through ``fn[grid](...)``, which compiles
    (or finds) the kernel and returns it; later ones launch that kernel directly, as its own
    launcher does, without the JIT function's binding and checks of every argument and its
    cache lookup: host time a draw on an H100 (queued draws, 2026-12-07), 131,072 uniform
    floats 37.4 -> 26.5 us, normals 36.7 -> 23.4 us, ``split`` 57.7 -> 45.2 us, a normal draw
    inside ``xp.jit`` 75.8 -> 60.3 us; the same bits (the tests compare both launches). A
    Triton whose compiled kernels launch otherwise keeps the JIT function's launches."""
    global DIRECT
    options = {**constants, "BLOCK": BLOCK}  # in the order of the kernels' parameters
    spec = (fn, args[0].device, *constants.values(), *map(_specialised, args))  # type: ignore[attr-defined]
    kernel = _COMPILED.get(spec) if DIRECT else None
    if kernel is not None:
        every = (*args, *options.values())  # the kernels' parameters, their constants last
        try:
            stream = driver.active.get_current_stream(driver.active.get_current_device())
            hooks = knobs.runtime
            launch, function, packed = kernel.run, kernel.function, kernel.packed_metadata
            metadata = kernel.launch_metadata((blocks,), stream, *every)
        except (AttributeError, TypeError):  # another Triton's layout: its JIT function's launches
            DIRECT = False
            _COMPILED.clear()
        else:
            enter, leave = hooks.launch_enter_hook, hooks.launch_exit_hook
            launch(blocks, 1, 1, stream, function, packed, metadata, enter, leave, *every)
            return
    made = fn[(blocks,)](*args, **options, num_warps=WARPS, enable_fp_fusion=False)
    if DIRECT and CompiledKernel is not None and isinstance(made, CompiledKernel):
        _COMPILED[spec] = made  # (the interpreter returns no compiled kernel)
