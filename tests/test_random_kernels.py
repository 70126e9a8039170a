"""The float draws' kernels of the GPUs give NumPy's floats, bit for bit.

A float32 uniform or normal draw on CuPy is one CUDA kernel and on torch's CUDA devices one
Triton kernel (``arraymux.random._kernels``). Without a GPU their arithmetic is checked here all
the same: the CUDA source compiled as C by the host's compiler, and the Triton kernel run by
Triton's interpreter (behind the same custom operator, under ``torch.compile`` and
``torch.func.vmap``); on a GPU (``ARRAYMUX_TEST_DEVICES``), the kernels themselves.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import arraymux as xp
from arraymux.random import _kernels

SEEDS = [0, 7, 2**40 + 3]


def _np(a: xp.Array) -> np.ndarray:
    return np.asarray(xp.to_numpy(a))


def _numpys(kind: str, seed: int, n: int) -> np.ndarray:
    """The NumPy device's float32 draw of ``kind`` (its C loops, which the other tests hold to
    its operations)."""
    draw = getattr(xp.random, kind)
    return _np(draw(xp.random.key(seed, device="numpy"), (n,), xp.float32))


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


_C_FILL = """
void amx_fill(unsigned int k0, unsigned int k1, int normal, float *out, long long n)
{
    for (long long i = 0; i < n; i++)
        out[i] = normal ? amx_normal(k0, k1, (unsigned int)i) : amx_uniform(k0, k1, (unsigned int)i);
}
"""


def _compiled(where: Path, compilers: tuple[str, ...], name: str, source: str) -> ctypes.CDLL:
    """``source`` compiled by the first of ``compilers`` found as a shared library in
    ``where``, every product rounded before it is added (as NVRTC's ``--fmad=false``)."""
    compiler = next((c for c in map(shutil.which, compilers) if c), None)
    if compiler is None:
        pytest.skip(f"no {compilers[0]} compiler")
    (where / name).write_text(source)
    library = where / f"{name}.so"
    flags = ["-O2", "-ffp-contract=off", "-fPIC", "-shared"]
    subprocess.run([compiler, *flags, str(where / name), "-o", str(library), "-lm"], check=True)
    return ctypes.CDLL(str(library))


@pytest.fixture(scope="module")
def c_kernels(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    where = tmp_path_factory.mktemp("kernels")
    return _compiled(where, ("cc", "gcc"), "kernels.c", _kernels.c_source() + _C_FILL)


# CUDA's names for the host's C++ compiler: the kernels run one simulated thread at a time
_HOST_CUDA = """
#include <math.h>
#include <string.h>
struct amx_dim3 { unsigned int x; };
static amx_dim3 blockIdx, blockDim, threadIdx, gridDim;
#define __global__
#define __device__ static
#define __forceinline__ inline
static inline float __uint_as_float(unsigned int b) { float f; memcpy(&f, &b, 4); return f; }
static inline unsigned int __float_as_uint(float f) { unsigned int b; memcpy(&b, &f, 4); return b; }
"""

_HOST_LAUNCH = """
extern "C" void amx_launch(int normal, const unsigned int *key, long long stride, float *out,
                           long long n, unsigned int blocks, unsigned int threads)
{
    gridDim.x = blocks;
    blockDim.x = threads;
    for (unsigned int b = 0; b < blocks; b++) {
        for (unsigned int t = 0; t < threads; t++) {
            blockIdx.x = b;
            threadIdx.x = t;
            if (normal) amx_normal_f32(key, stride, out, n); else amx_uniform_f32(key, stride, out, n);
        }
    }
}
"""


@pytest.fixture(scope="module")
def cuda_kernels(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    source = _HOST_CUDA + _kernels.cuda_source() + _HOST_LAUNCH
    return _compiled(tmp_path_factory.mktemp("cuda"), ("c++", "g++"), "kernels.cpp", source)


@pytest.mark.parametrize("kind", _kernels.KINDS)
def test_the_cuda_kernels_fill_every_element_with_numpys_floats(
    cuda_kernels: ctypes.CDLL, kind: str
) -> None:
    # CuPy's kernels as NVRTC gets them, each thread of a small grid run in turn: the
    # grid-stride loop covers every element once; the key's words may be a stride apart
    n = 4099
    words = _np(xp.random.key(SEEDS[2], device="numpy"))
    key = np.zeros((2, 3), dtype=np.uint32)
    key[:, 1] = words  # a column: its words 3 apart
    out = np.full((n,), np.nan, dtype=np.float32)
    cuda_kernels.amx_launch(
        ctypes.c_int(kind == "normal"),
        key[:, 1:].ctypes.data_as(ctypes.c_void_p),
        ctypes.c_longlong(3),
        out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_longlong(n),
        ctypes.c_uint(5),
        ctypes.c_uint(32),
    )
    np.testing.assert_array_equal(_bits(out), _bits(_numpys(kind, SEEDS[2], n)))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", _kernels.KINDS)
def test_the_cuda_source_computes_numpys_floats(
    c_kernels: ctypes.CDLL, seed: int, kind: str
) -> None:
    n = 1 << 17  # about 450 normals from the tails' polynomial (w >= 5)
    k0, k1 = (int(w) for w in _np(xp.random.key(seed, device="numpy")))
    out = np.empty((n,), dtype=np.float32)
    c_kernels.amx_fill(
        ctypes.c_uint(k0),
        ctypes.c_uint(k1),
        ctypes.c_int(kind == "normal"),
        out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_longlong(n),
    )
    np.testing.assert_array_equal(_bits(out), _bits(_numpys(kind, seed, n)))


def test_the_cuda_source_holds_the_coefficients_of_the_host() -> None:
    from arraymux.random._special import normal_constants

    source = _kernels.cuda_source()
    for v in normal_constants().tolist():
        assert f"((float){v!r})" in source
    assert "AMX_KERNEL(amx_normal_f32, amx_normal)" in source


_INTERPRETED = """
import sys
import numpy as np
import torch
import arraymux as xp
from arraymux.random import _core, _kernels

kernels = _kernels._register(cuda=False)
op, blocks = kernels.floats_op, kernels.blocks_op
n = int(sys.argv[1])
for seed in (0, 7):
    key = xp.random.key(seed, device="torch:cpu").native
    for kind in ("uniform", "normal"):
        want = xp.to_numpy(getattr(xp.random, kind)(xp.random.key(seed), (n,), xp.float32))
        got = op(key, n, kind).numpy()
        assert (got.view(np.uint32) == np.asarray(want).view(np.uint32)).all(), (seed, kind)
        # one node of a graph under torch.compile (the fake's shape and dtype), no break
        f = torch.compile(lambda k: op(k, n, kind) * 2, backend="aot_eager", fullgraph=True)
        assert torch.equal(f(key), torch.from_numpy(got) * 2)
    # Threefry's blocks from any first counter, wrapping around 2**32
    for start in (0, 5, 2**32 - 3):
        y = blocks(key, 7, start)  # a block's two words a row
        w0, w1 = _core.blocks(xp.random.key(seed), 7, start)
        assert y.shape == (7, 2) and y.is_contiguous()
        assert (y[:, 0].numpy().view(np.uint32) == xp.to_numpy(w0)).all(), (seed, start)
        assert (y[:, 1].numpy().view(np.uint32) == xp.to_numpy(w1)).all(), (seed, start)
    g = torch.compile(lambda k: blocks(k, 3, 9), backend="aot_eager", fullgraph=True)
    assert torch.equal(g(key), blocks(key, 3, 9))
# vmap over keys: each key's draw; a key that is a column of another array (a stride)
keys = xp.random.split(xp.random.key(3, device="torch:cpu"), 3)
rows = torch.func.vmap(lambda k: op(k, 100, "normal"))(keys.native)
mapped = torch.func.vmap(lambda k: blocks(k, 4, 1))(keys.native)
columns = keys.native.T.contiguous().T
for i in range(3):
    want = xp.to_numpy(xp.random.normal(keys[i, ...], (100,), xp.float32))
    assert (rows[i].numpy() == np.asarray(want)).all()
    assert (op(columns[i], 100, "normal").numpy() == np.asarray(want)).all()
    assert torch.equal(mapped[i], blocks(keys.native[i], 4, 1))
# the launchers that eager draws call, without the operators
assert torch.equal(kernels.floats("normal", keys.native[1], 100), rows[1])
assert torch.equal(kernels.blocks(keys.native[2], 4, 1), blocks(keys.native[2], 4, 1))
assert op(keys.native[0], 0, "normal").shape == (0,)
assert blocks(keys.native[0], 0, 0).shape == (0, 2)
# the key kernels of arraymux.random through these kernels (as on a GPU): split, fold_in, a
# generator's block of keys and the words of bits; each against NumPy's
_kernels._torch_kernels = lambda k: kernels
k, ref = xp.random.key(12, device="torch:cpu"), xp.random.key(12)
def same(a, b):
    assert (np.asarray(xp.to_numpy(a)).view(np.uint32) == np.asarray(xp.to_numpy(b))).all()
same(_core.split_kernel(k, 5), xp.random.split(ref, 5))
assert _core.split_kernel(k, 5).shape == (5, 2)
same(_core._fold_kernel(k, 2**32 - 1), xp.random.fold_in(ref, 2**32 - 1))
same(_core.fold_block_kernel(k, 2**32 - 2, 4), _core.fold_block_kernel(ref, 2**32 - 2, 4))
for a, b in zip(_core.blocks(k, 9, 3), _core.blocks(ref, 9, 3)):
    same(a, b)
print("ok")
"""


@pytest.mark.skipif(importlib.util.find_spec("triton") is None, reason="Triton is not installed")
def test_the_triton_kernel_computes_numpys_floats() -> None:
    pytest.importorskip("torch")
    # Triton's interpreter runs the kernel on the host with NumPy's float32 operations
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(xp.__file__).parents[1]), env.get("PYTHONPATH", "")]
    )
    done = subprocess.run(
        [sys.executable, "-c", _INTERPRETED, "3000"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")


def test_the_kernels_stay_off_the_host_devices() -> None:
    for device in ("numpy", "torch:cpu", "array_api_strict", "jax:cpu", "torch:meta"):
        try:
            k = xp.random.key(1, device=device)
        except (xp.DeviceUnavailableError, ImportError):
            continue
        assert _kernels.draw("normal", k, 10, xp.float32) is None, device


def _kernel_device(device: xp.Device) -> None:
    if not (device.backend == "cupy" or (device.backend == "torch" and device.place != "cpu")):
        pytest.skip("the kernels are CuPy's and torch's CUDA devices'")
    if device.backend == "torch" and _kernels.torch_kernels() is None:
        pytest.skip("this torch has no Triton")


@pytest.mark.parametrize("n", [0, 1, 5, 1000, (1 << 20) + 3])
def test_gpu_draws_are_one_kernel_with_numpys_floats(
    device: xp.Device, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _kernel_device(device)
    calls: list[str] = []
    original = _kernels.draw

    def spy(kind: str, *args: object) -> xp.Array | None:
        out = original(kind, *args)  # type: ignore[arg-type]
        if out is not None:
            calls.append(kind)
        return out

    monkeypatch.setattr(_kernels, "draw", spy)
    for seed in SEEDS:
        k = xp.random.key(seed, device=device)
        for kind in _kernels.KINDS:
            got = getattr(xp.random, kind)(k, (n,), xp.float32)
            assert got.device == device and got.dtype == xp.float32
            np.testing.assert_array_equal(_bits(_np(got)), _bits(_numpys(kind, seed, n)))
    assert calls.count("normal") == len(SEEDS) and calls.count("uniform") == len(SEEDS)
    # the general route gives the same floats
    monkeypatch.setattr(_kernels, "ENABLED", False)
    k = xp.random.key(SEEDS[-1], device=device)
    np.testing.assert_array_equal(
        _bits(_np(xp.random.normal(k, (n,), xp.float32))), _bits(_numpys("normal", SEEDS[-1], n))
    )


def test_torch_gpu_kernels_launched_directly_give_the_same_numbers(
    device: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After its first launch a Triton kernel runs directly from its compiled form; each
    specialisation Triton makes (sizes of 1 or multiples of 16, keys at addresses that 16
    divides or not: a row of split keys) gets a compiled kernel of its own."""
    _kernel_device(device)
    if device.backend != "torch":
        pytest.skip("the Triton kernels are torch's")
    from arraymux.random import _triton

    keys = xp.random.split(xp.random.key(8, device=device), 3)
    cases = [(keys[i, ...], n) for i in range(3) for n in (1, 16, 1000, 4099)]
    want = [
        _bits(_np(xp.random.normal(xp.to_device(k, "numpy"), (n,), xp.float32))) for k, n in cases
    ]
    words = [_np(xp.random.split(xp.to_device(k, "numpy"), 5)) for k, _ in cases]
    monkeypatch.setattr(_triton, "_COMPILED", {})
    for _ in range(3):  # the first round compiles or finds the kernels, the next launch them
        for (k, n), w, ws in zip(cases, want, words, strict=True):
            np.testing.assert_array_equal(_bits(_np(xp.random.normal(k, (n,), xp.float32))), w)
            np.testing.assert_array_equal(_np(xp.random.split(k, 5)).view(np.uint32), ws)
    assert len(_triton._COMPILED) >= 4


@pytest.mark.skipif(importlib.util.find_spec("triton") is None, reason="Triton is not installed")
def test_direct_launches_follow_the_launcher_of_the_compiled_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The launch path of the compiled kernels, on the CPU, with stand-ins for Triton's JIT
    function, compiled kernel and driver: the first launch of a specialisation goes through
    the JIT function and keeps its kernel; later ones call the kernel's launcher with the grid,
    the stream, the kernel's handles and metadata, Triton's hooks and every argument (its
    constants last); another specialisation (an int of 1, a tensor at another alignment, other
    constants) goes through the JIT function again; a compiled kernel laid out otherwise turns
    the direct launches off, and the JIT function launches."""
    torch = pytest.importorskip("torch")
    from arraymux.random import _triton

    log: list[tuple[object, ...]] = []

    class Kernel:  # a compiled kernel
        function, packed_metadata = "function", "packed"

        def launch_metadata(self, grid, stream, *args):
            return ("metadata", grid, stream, len(args))

        def run(self, *args):
            log.append(("direct", *args))

    class Jit:  # a JIT function: fn[grid](*args, **options) compiles and launches
        def __getitem__(self, grid):
            def launch(*args, **options):
                log.append(("jit", grid, args, options))
                return made

            return launch

    made = Kernel()
    stream_of = {7: "stream of 7"}
    driver = type("Driver", (), {})()
    driver.active = type(
        "Active",
        (),
        {"get_current_device": lambda self: 7, "get_current_stream": lambda self, d: stream_of[d]},
    )()
    hooks = type("Knobs", (), {})()
    hooks.runtime = type(
        "Runtime", (), {"launch_enter_hook": "enter", "launch_exit_hook": "leave"}
    )()
    monkeypatch.setattr(_triton, "CompiledKernel", Kernel)
    monkeypatch.setattr(_triton, "driver", driver)
    monkeypatch.setattr(_triton, "knobs", hooks)
    monkeypatch.setattr(_triton, "DIRECT", True)
    monkeypatch.setattr(_triton, "_COMPILED", {})
    fn = Jit()
    key = torch.zeros(4, dtype=torch.int32)
    args = (key, 1, key, 1000, 5)

    _triton._run(fn, 3, args, {"NORMAL": True})
    assert log[-1] == (
        "jit",
        (3,),
        args,
        {
            "NORMAL": True,
            "BLOCK": _triton.BLOCK,
            "num_warps": _triton.WARPS,
            "enable_fp_fusion": False,
        },
    )
    _triton._run(fn, 3, args, {"NORMAL": True})
    every = (*args, True, _triton.BLOCK)
    assert log[-1] == (
        "direct",
        3,
        1,
        1,
        "stream of 7",
        "function",
        "packed",
        ("metadata", (3,), "stream of 7", len(every)),
        "enter",
        "leave",
        *every,
    )
    for other, constants in [
        ((key, 2, key, 1000, 5), {"NORMAL": True}),  # a stride of 2, not 1
        ((key, 1, key, 1000, 5), {"NORMAL": False}),
        ((key[1:], 1, key, 1000, 5), {"NORMAL": True}),  # an address 16 does not divide
        ((key, 1, key, 2**40, 5), {"NORMAL": True}),  # a 64-bit int
    ]:
        _triton._run(fn, 3, other, constants)
        assert log[-1][0] == "jit", (other, constants)
        _triton._run(fn, 3, other, constants)
        assert log[-1][0] == "direct", (other, constants)
    assert len(_triton._COMPILED) == 5

    del Kernel.packed_metadata  # another Triton's layout
    _triton._run(fn, 3, args, {"NORMAL": True})
    assert log[-1][0] == "jit" and _triton.DIRECT is False and not _triton._COMPILED
    _triton._run(fn, 3, args, {"NORMAL": True})
    assert log[-1][0] == "jit" and not _triton._COMPILED


def test_gpu_kernels_serve_shapes_the_generator_and_distributions(device: xp.Device) -> None:
    _kernel_device(device)
    k = xp.random.key(5, device=device)
    ref = xp.random.key(5, device="numpy")
    z = xp.random.normal(k, (3, 4, 5), xp.float32)
    assert z.shape == (3, 4, 5)
    np.testing.assert_array_equal(_np(z), _np(xp.random.normal(ref, (3, 4, 5), xp.float32)))
    for name in ("exponential", "gumbel", "logistic"):
        got = getattr(xp.random, name)(k, (2000,), xp.float32)
        want = getattr(xp.random, name)(ref, (2000,), xp.float32)
        np.testing.assert_array_equal(_np(got), _np(want), err_msg=name)
    g, h = xp.random.Generator(9, device=device), xp.random.Generator(9, device="numpy")
    for _ in range(3):
        np.testing.assert_array_equal(
            _np(g.normal(size=100, dtype=xp.float32)), _np(h.normal(size=100, dtype=xp.float32))
        )
        np.testing.assert_array_equal(
            _np(g.random(50, dtype=xp.float32)), _np(h.random(50, dtype=xp.float32))
        )


def test_torch_gpu_kernels_in_jit_and_vmap(device: xp.Device) -> None:
    _kernel_device(device)
    if device.backend != "torch":
        pytest.skip("torch.compile and torch.func are torch's")
    keys = xp.random.split(xp.random.key(4, device=device), 3)
    want = [
        _np(xp.random.normal(xp.to_device(keys[i, ...], "numpy"), (500,), xp.float32))
        for i in range(3)
    ]
    draw = xp.jit(lambda k: xp.random.normal(k, (500,), xp.float32) * 2.0)
    for i in range(3):
        np.testing.assert_array_equal(_np(draw(keys[i, ...])), want[i] * 2.0)
    mapped = xp.vmap(lambda k: xp.random.normal(k, (500,), xp.float32))(keys)
    np.testing.assert_array_equal(_np(mapped), np.stack(want))


def test_torch_gpu_keys_and_words_are_one_kernel(
    device: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    _kernel_device(device)
    if device.backend != "torch":
        pytest.skip("CuPy fuses Threefry's rounds with cupy.fuse")
    calls: list[int] = []
    original = _kernels.blocks

    def spy(k: xp.Array, n: int, start: int) -> xp.Array | None:
        out = original(k, n, start)
        calls.append(n if out is not None else -1)
        return out

    monkeypatch.setattr(_kernels, "blocks", spy)
    k, ref = xp.random.key(12, device=device), xp.random.key(12, device="numpy")
    np.testing.assert_array_equal(
        _np(xp.random.split(k, 5)).view(np.uint32), _np(xp.random.split(ref, 5))
    )
    np.testing.assert_array_equal(
        _np(xp.random.fold_in(k, 2**32 - 1)).view(np.uint32), _np(xp.random.fold_in(ref, 2**32 - 1))
    )
    np.testing.assert_array_equal(
        _np(xp.random.bits(k, (1000,))), _np(xp.random.bits(ref, (1000,)))
    )
    for low, high, dtype in ((0, 10, xp.int32), (-5, 2**32 - 5, xp.int64)):
        np.testing.assert_array_equal(
            _np(xp.random.integers(k, low, high, (300,), dtype)),
            _np(xp.random.integers(ref, low, high, (300,), dtype)),
        )
    np.testing.assert_array_equal(
        _np(xp.random.normal(k, (999,), xp.float64)), _np(xp.random.normal(ref, (999,), xp.float64))
    )
    assert calls and -1 not in calls
    g, h = xp.random.Generator(3, device=device), xp.random.Generator(3, device="numpy")
    for _ in range(70):  # across the generator's blocks of keys
        np.testing.assert_array_equal(_np(g.integers(0, 100, 4)), _np(h.integers(0, 100, 4)))


def test_a_kernel_that_fails_leaves_the_draws_to_the_general_route(
    device: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a GPU that Triton or NVRTC cannot compile for: the same numbers, a warning, once
    _kernel_device(device)
    calls: list[object] = []

    def refused(*args: object) -> object:
        calls.append(args)
        raise RuntimeError("no kernel image is available for execution on the device")

    if device.backend == "cupy":
        monkeypatch.setattr(_kernels, "_cupy_draw", refused)
    else:
        kernels = _kernels.torch_kernels()
        assert kernels is not None
        monkeypatch.setattr(_kernels, "_TORCH", [kernels._replace(floats=refused, blocks=refused)])
    monkeypatch.setitem(_kernels._USABLE, device._str, True)
    k = xp.random.key(6, device=device)
    with pytest.warns(
        RuntimeWarning, match=r"^arraymux\.random: the one-kernel draws of .* failed"
    ):
        got = xp.random.normal(k, (100,), xp.float32)
    np.testing.assert_array_equal(_np(got), _numpys("normal", 6, 100))
    assert _kernels._USABLE[device._str] is False
    n = len(calls)
    np.testing.assert_array_equal(
        _np(xp.random.uniform(k, (9,), xp.float32)), _numpys("uniform", 6, 9)
    )
    assert len(calls) == n  # not tried again


def test_a_failed_launch_turns_its_device_off_and_memory_errors_propagate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the host's side of the GPU test above (NumPy's device stands in for a GPU)
    device = xp.Device("numpy")
    monkeypatch.setitem(_kernels._USABLE, device._str, True)

    def refused() -> None:
        raise RuntimeError("no kernel image")

    with pytest.warns(RuntimeWarning, match="the general route: the same numbers"):
        assert _kernels._launched(device, refused) is None
    assert _kernels._usable(device) is False

    def out_of_memory() -> None:
        raise MemoryError("out of memory")

    monkeypatch.setitem(_kernels._USABLE, device._str, True)
    with pytest.raises(MemoryError):
        _kernels._launched(device, out_of_memory)
    assert _kernels._usable(device) is True
    words = (np.zeros(3, np.int32), np.ones(3, np.int32))
    assert _kernels._launched(device, lambda: words) is words  # the blocks' two words as they are
