"""to_device across every pair of installed devices, and batched host reads with to_numpy."""

from __future__ import annotations

import contextlib
import importlib.util
import os

import numpy as np
import pytest

import arraymux as xp
from arraymux import _transfer
from arraymux._array import operand
from arraymux._backends import _staging
from arraymux._dtypes import ALL_DTYPES

# array-api-strict's fake devices (device1, no_float64, ...) have dedicated tests below.
DEVICES = [
    d for d in xp.devices() if not (d.backend == "array_api_strict" and d.place != "CPU_DEVICE")
]

HAS = {m: importlib.util.find_spec(m) is not None for m in ("torch", "jax", "dask", "cupy")}

# Every dtype of the standard, by name.
DTYPES = [dt.name for dt in ALL_DTYPES]

# Pairs of backends that share host memory through DLPack without a copy.
_CPU_SHARING = {"numpy", "torch", "jax", "array_api_strict"}


def _on_cpu(d: xp.Device) -> bool:
    return d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu")


def _zero_copy_promised(src: xp.Device, dst: xp.Device) -> bool:
    if src.backend == dst.backend:
        return src is dst
    if _on_cpu(src) or _on_cpu(dst):
        return (
            _on_cpu(src)
            and _on_cpu(dst)
            and src.backend in _CPU_SHARING
            and dst.backend in _CPU_SHARING
        )
    gpu = ("cuda", "gpu")
    src_gpu = src.backend == "cupy" or src.place.split(":")[0] in gpu
    if src_gpu and (dst.backend == "cupy" or dst.place.split(":")[0] in gpu):
        return src.place.split(":")[-1] == dst.place.split(":")[-1]
    return False


@pytest.fixture(autouse=True, scope="module")
def _jax_x64():
    """Run with JAX's 64-bit mode on, so that every dtype exists on jax:cpu."""
    if not HAS["jax"]:
        yield
        return
    import jax

    before = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", before)


def reference(dtype: str, n: int = 12) -> np.ndarray:
    """Values that exercise the edges of ``dtype``: extremes, zeros, signs, nan and inf."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.arange(n) % 3 == 0
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
        return np.resize(np.array(vals, dtype=dt), n)
    real = np.dtype(dt.char.lower()) if dt.kind == "c" else dt
    real = np.dtype(np.float32) if dt == np.complex64 else real
    real = np.dtype(np.float64) if dt == np.complex128 else real
    info = np.finfo(real)
    vals = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, info.max, info.tiny, -1.5, info.eps, 1 / 3],
        dtype=real,
    )
    vals = np.resize(vals, n)
    if dt.kind == "c":
        out = np.empty(n, dtype=dt)
        out.real, out.imag = vals, vals[::-1]
        return out
    return vals


def native_on(a: np.ndarray, device: xp.Device):
    """``a`` (a host ndarray) as a native array on ``device``, made without arraymux."""
    name = device.backend
    if name == "numpy":
        return a
    if name == "torch":
        import torch

        return torch.tensor(a, device=device.native)  # torch's allocator aligns to 64 bytes
    if name == "jax":
        import jax

        return jax.device_put(a, device.native)
    if name == "dask":
        import dask.array as da

        return da.from_array(a, chunks=max(1, a.shape[0] // 3) if a.ndim else ())
    if name == "array_api_strict":
        import array_api_strict

        return array_api_strict.asarray(a, device=device.native)
    if name == "cupy":
        import cupy

        with device.native:
            return cupy.asarray(a)
    raise AssertionError(name)


def assert_exact(out: xp.Array, expected: np.ndarray, device: xp.Device) -> None:
    """Same device, dtype, shape, and the same bits in every element."""
    assert type(out) is xp.Array
    assert out.device == device
    assert operand(out.native)[1] == device  # a native array of the target's backend
    assert out.dtype.name == np.dtype(expected.dtype).name
    assert tuple(out.shape) == expected.shape
    got = xp.to_numpy(out)
    assert isinstance(got, np.ndarray)
    native_dt = expected.dtype.newbyteorder("=")
    assert got.dtype.newbyteorder("=") == native_dt  # NumPy to NumPy keeps the byte order
    want = np.ascontiguousarray(expected, dtype=native_dt)
    assert np.ascontiguousarray(got, dtype=native_dt).tobytes() == want.tobytes()


def _on_gpu_of(native):
    """The GPU of a CuPy array made current (CuPy runs kernels on the current device)."""
    if type(native).__module__.startswith("cupy"):
        return native.device
    return contextlib.nullcontext()


def data_ptr(native) -> int:
    mod = type(native).__module__.split(".")[0]
    if mod == "numpy":
        return native.__array_interface__["data"][0]
    if mod == "torch":
        return native.data_ptr()
    if mod in ("jax", "jaxlib"):
        return native.unsafe_buffer_pointer()
    if mod == "array_api_strict":
        return np.from_dlpack(native).__array_interface__["data"][0]
    if mod == "cupy":
        return native.data.ptr
    raise AssertionError(mod)


def aligned(a: np.ndarray, alignment: int = 64) -> np.ndarray:
    """A C-contiguous copy of ``a`` whose buffer starts on an ``alignment``-byte boundary."""
    raw = np.empty(a.nbytes + alignment, dtype=np.uint8)
    start = (-raw.__array_interface__["data"][0]) % alignment
    out = raw[start : start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


PAIRS = [(s, d) for s in DEVICES for d in DEVICES]
PAIR_IDS = [f"{s}->{d}" for s, d in PAIRS]


def _skip_unless_holds(device: xp.Device, dtype: str) -> None:
    if not device.supports(xp.DType(dtype)):
        pytest.skip(f"{device} cannot hold {dtype}")


# ---------------------------------------------------------------------------------------------
# The matrix: every pair x every dtype, plain arrays


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=PAIR_IDS)
def test_every_pair_every_dtype(src: xp.Device, dst: xp.Device, dtype: str) -> None:
    _skip_unless_holds(src, dtype)
    ref = reference(dtype).reshape(3, 4)
    x = xp.to_device(native_on(ref, src), src)
    if not dst.supports(xp.DType(dtype)):
        with pytest.raises(xp.UnsupportedDTypeError, match=f"{dst}.*{dtype}"):
            xp.to_device(x, dst)
        return
    for copy in (None, True):
        assert_exact(xp.to_device(x, dst, copy=copy), ref, dst)
    assert_exact(x.to_device(dst), ref, dst)


@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=PAIR_IDS)
def test_zero_copy_where_promised(src: xp.Device, dst: xp.Device) -> None:
    ref = aligned(np.arange(1024, dtype=np.float32))
    native = native_on(ref, src)
    out, route, copied = _transfer.move_report(native, dst)
    if _zero_copy_promised(src, dst) and src.backend == "jax" and dst.backend in ("torch", "cupy"):
        # A tensor sharing a JAX buffer could change the immutable JAX array: copy=None
        # copies, and copy=False (the caller's promise not to write) shares.
        assert copied
        shared = xp.to_device(native, dst, copy=False)
        assert data_ptr(shared.native) == data_ptr(native)
    elif _zero_copy_promised(src, dst):
        assert not copied
        assert route in ("same", "dlpack")
        if src is dst:
            assert out.native is native
            return
        assert data_ptr(out.native) == data_ptr(native)
        again = xp.to_device(native, dst, copy=False)
        assert data_ptr(again.native) == data_ptr(native)
        if (
            src.backend in ("numpy", "torch", "array_api_strict", "cupy")
            and dst.backend in ("numpy", "torch", "array_api_strict", "cupy")
            and src.backend != dst.backend
        ):
            with _on_gpu_of(out.native):  # CuPy writes from the current device
                out.native[3] = -7  # a write through the target is seen through the source
            assert float(xp.to_numpy(native)[3]) == -7
    elif src.backend != "dask":  # computing a Dask array is not counted as a copy
        assert copied
    copied_out = xp.to_device(native, dst, copy=True)
    if "dask" not in (src.backend, dst.backend):
        assert data_ptr(copied_out.native) != data_ptr(native)
    assert_exact(copied_out, xp.to_numpy(native), dst)


@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=PAIR_IDS)
def test_copy_false(src: xp.Device, dst: xp.Device) -> None:
    native = native_on(aligned(np.arange(8, dtype=np.int32)), src)
    if src.backend == "dask" and dst.backend == "jax":
        pytest.skip("whether JAX can take a computed Dask result depends on its alignment")
    computed = src.backend == "dask" and dst.backend != "dask" and _on_cpu(dst)
    if _zero_copy_promised(src, dst) or computed:  # computing a Dask array is no copy
        assert_exact(xp.to_device(native, dst, copy=False), np.arange(8, dtype=np.int32), dst)
    else:
        with pytest.raises(ValueError, match=r"needs a copy.*copy=False"):
            xp.to_device(native, dst, copy=False)


_MADE_ON_NUMPY = {
    "zeros": lambda: xp.zeros((3, 5), dtype=xp.float32, device="numpy"),
    "ones": lambda: xp.ones(1000, dtype=xp.int32, device="numpy"),
    "empty": lambda: xp.empty(100_000, dtype=xp.float32, device="numpy"),
    "full": lambda: xp.full((4, 4), 2.5, dtype=xp.float32, device="numpy"),
    "arange": lambda: xp.arange(1000, dtype=xp.int32, device="numpy"),
    "linspace": lambda: xp.linspace(0, 1, 1001, dtype=xp.float32, device="numpy"),
    "eye": lambda: xp.eye(7, dtype=xp.float32, device="numpy"),
    "asarray": lambda: xp.asarray([[1.0, 2.0, 3.0]], dtype=xp.float32, device="numpy"),
    "asarray copy": lambda: xp.asarray(np.arange(1000, dtype=np.int32), copy=True),
    "zeros_like": lambda: xp.zeros_like(np.ones(1000, np.float32)),
    "full_like": lambda: xp.full_like(np.ones(1000, np.int32), 3),
}


@pytest.mark.skipif(not HAS["jax"], reason="jax is not installed")
@pytest.mark.parametrize("name", sorted(_MADE_ON_NUMPY))
def test_arrays_made_on_numpy_move_to_jax_without_a_copy(name: str) -> None:
    """arraymux allocates NumPy buffers on 64-byte boundaries, the only ones JAX's CPU client
    takes without a copy (NumPy's own allocator gives 16)."""
    for _ in range(4):  # one could be aligned by chance
        a = _MADE_ON_NUMPY[name]()
        moved = xp.to_device(a, "jax:cpu", copy=False)
        assert data_ptr(moved.native) == data_ptr(a.native)
        np.testing.assert_array_equal(xp.to_numpy(moved), xp.to_numpy(a))


@pytest.mark.skipif(not HAS["jax"], reason="jax is not installed")
def test_copy_false_to_jax_explains_alignment() -> None:
    raw = np.zeros(4096 + 64, dtype=np.uint8)
    off = 16 + (-raw.__array_interface__["data"][0]) % 64  # 16 bytes past a boundary
    a = raw[off : off + 4096].view(np.float32)
    with pytest.raises(
        ValueError, match=r"64-byte boundaries.*16 bytes past one.*xp\.asarray\(a, copy=True\)"
    ):
        xp.to_device(a, "jax:cpu", copy=False)
    b = xp.asarray(a, copy=True)  # the fix the message gives
    moved = xp.to_device(b, "jax:cpu", copy=False)
    assert data_ptr(moved.native) == data_ptr(b.native)


# ---------------------------------------------------------------------------------------------
# Awkward inputs


def _awkward(dtype: str) -> dict[str, np.ndarray]:
    base = reference(dtype, 24).reshape(4, 6)
    readonly = base.copy()
    readonly.flags.writeable = False
    raw = np.zeros(base.nbytes + 64, dtype=np.uint8)
    off = 8 + (-raw.__array_interface__["data"][0]) % 64  # 8 bytes past a 64-byte boundary
    unaligned = raw[off : off + base.nbytes].view(base.dtype).reshape(base.shape)
    unaligned[...] = base
    return {
        "noncontiguous": base[:, ::2],
        "negative-stride": base[::-1, ::-2],
        "read-only": readonly,
        "fortran": np.asfortranarray(base),
        "transposed": base.T,
        "byteswapped": base.astype(base.dtype.newbyteorder("S")),
        "broadcast": np.broadcast_to(base[0], (5, 6)),
        "0-d": np.array(base[1, 2]),
        "empty": base[:0],
        "empty-2": np.zeros((3, 0, 2), dtype=base.dtype),
        "unaligned": unaligned,
    }


AWKWARD = list(_awkward("float64"))


@pytest.mark.parametrize("dtype", ["float64", "int16"])
@pytest.mark.parametrize("case", AWKWARD)
@pytest.mark.parametrize("dst", DEVICES, ids=str)
def test_awkward_numpy_inputs(dst: xp.Device, case: str, dtype: str) -> None:
    a = _awkward(dtype)[case]
    _skip_unless_holds(dst, dtype)
    for copy in (None, True):
        assert_exact(xp.to_device(a, dst, copy=copy), a, dst)


@pytest.mark.parametrize("case", ["byteswapped", "negative-stride", "read-only", "unaligned"])
def test_awkward_inputs_need_a_copy(case: str) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    a = _awkward("float32")[case]
    targets = {"jax:cpu"} if case == "unaligned" else {"jax:cpu", "torch:cpu"}
    if case == "byteswapped":
        targets.add("array_api_strict")
    for t in targets:
        with pytest.raises(ValueError, match="needs a copy"):
            xp.to_device(a, t, copy=False)


def test_read_only_is_never_written_through_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.arange(4.0)
    a.flags.writeable = False
    t = xp.to_device(a, "torch:cpu").native
    t[0] = 99.0
    assert a[0] == 0.0
    assert isinstance(t, torch.Tensor)


def _torch_awkward():
    import torch

    base = torch.arange(24, dtype=torch.float64).reshape(4, 6)
    z = torch.complex(base, -base)
    return {
        "noncontiguous": base[:, ::2],
        "transposed": base.t(),
        "offset": base.reshape(-1)[1:],
        "expanded": base[0].expand(3, 6),
        "conj": z.conj(),
        "neg": z.conj().imag,
        "requires-grad": base.clone().requires_grad_(True),
        "0-d": base[1, 1],
        "empty": base[:0],
    }


@pytest.mark.skipif(not HAS["torch"], reason="torch is not installed")
@pytest.mark.parametrize(
    "case",
    [
        "noncontiguous",
        "transposed",
        "offset",
        "expanded",
        "conj",
        "neg",
        "requires-grad",
        "0-d",
        "empty",
    ],
)
@pytest.mark.parametrize("dst", DEVICES, ids=str)
def test_awkward_torch_inputs(dst: xp.Device, case: str) -> None:
    t = _torch_awkward()[case]
    expected = t.detach().resolve_conj().resolve_neg().numpy().copy()
    _skip_unless_holds(dst, expected.dtype.name)
    for copy in (None, True):
        assert_exact(xp.to_device(t, dst, copy=copy), expected, dst)


def _shares(out: xp.Array, source: xp.Array) -> bool | None:
    """Whether ``out`` uses the memory of ``source`` (None where a pointer cannot be read)."""
    a = _transfer._data_ptr(out.native, out.device)
    b = _transfer._data_ptr(source.native, source.device)
    return None if a is None or b is None else a == b


def _awkward_arrays() -> dict[str, xp.Array]:
    cases = {f"numpy {k}": v for k, v in _awkward("float64").items()}
    cases["numpy contiguous float32"] = reference("float32", 24).reshape(4, 6)
    cases["numpy int16"] = reference("int16", 24)
    if HAS["torch"]:
        cases.update({f"torch {k}": v for k, v in _torch_awkward().items()})
    out = {k: xp.asarray(v) for k, v in cases.items()}
    # Sources with fast routes of their own: array-api-strict (a view with negative strides
    # too) and JAX on the CPU (read-only where it shares).
    base = xp.asarray(reference("float32", 24).reshape(4, 6))
    if importlib.util.find_spec("array_api_strict") is not None:
        strict = xp.to_device(base, "array_api_strict", copy=True)
        out["array_api_strict float32"] = strict
        out["array_api_strict reversed"] = xp.flip(strict, axis=1)
    if HAS["jax"]:
        out["jax float32"] = xp.to_device(base, "jax:cpu", copy=True)
        if "array_api_strict float32" in out:  # read-only: JAX's memory, which never changes
            out["array_api_strict from jax"] = xp.to_device(out["jax float32"], "array_api_strict")
    return out


@pytest.mark.parametrize("case", sorted(_awkward_arrays()))
@pytest.mark.parametrize("dst", DEVICES, ids=str)
def test_repeated_moves_take_the_same_route(dst: xp.Device, case: str) -> None:
    """The second move of a dtype between two devices takes the pair's fast route where it
    has one (numpy <-> torch, small GPU reads and writes): the same values, dtype, device and
    memory sharing as the first, which took the general path; read-only memory is never
    shared with torch."""
    x = _awkward_arrays()[case]
    if x.device == dst:
        pytest.skip("same device")
    expected = xp.to_numpy(x).copy()
    _skip_unless_holds(dst, expected.dtype.name)
    first, second = xp.to_device(x, dst), xp.to_device(x, dst)
    for out in (first, second):
        assert out.device == dst and out.dtype == x.dtype
        assert_exact(out, expected, dst)
    assert _shares(second, x) == _shares(first, x)
    host = np.asarray(x.native) if x.device.backend in ("numpy", "array_api_strict") else None
    if dst.backend == "torch" and host is not None and not host.flags.writeable:
        second.native.reshape(-1)[:1] = 99
        assert host.reshape(-1)[0] != 99


@pytest.mark.parametrize("src", [d for d in DEVICES if not _on_cpu(d)], ids=str)
@pytest.mark.parametrize("dst", DEVICES, ids=str)
def test_repeated_moves_from_a_gpu_take_the_same_route(src: xp.Device, dst: xp.Device) -> None:
    """As above, for arrays on a GPU: small reads in one plain copy, large ones pinned, views
    and 0-d arrays; torch tensors that require grad keep their graph on a torch target."""
    if src == dst:
        pytest.skip("same device")
    base = reference("float32", 24).reshape(4, 6)
    x = xp.to_device(base, src)
    for view, want in ((x, base), (x[:, ::2], base[:, ::2]), (x[1, 2], base[1, 2])):
        first, second = xp.to_device(view, dst), xp.to_device(view, dst)
        for out in (first, second):
            assert out.device == dst and out.dtype == view.dtype
            assert_exact(out, np.asarray(want), dst)
    if src.backend == "torch" and dst.backend == "torch":
        t = x.native.clone().requires_grad_(True)
        moved = [xp.to_device(t, dst).native for _ in range(2)]
        assert all(m.requires_grad for m in moved)


def test_fast_route_tables_fill_per_pair_and_dtype() -> None:
    pytest.importorskip("torch")
    a = xp.asarray(np.arange(3, dtype=np.uint8))
    xp.to_device(a, "torch:cpu")
    assert _transfer._ROUTES[a.device, xp.Device("torch:cpu")] is not None
    route, held = _transfer._HELD["numpy:cpu", "torch:cpu"]
    assert route is _transfer._ROUTES[a.device, xp.Device("torch:cpu")]
    assert np.dtype("uint8") in held
    shared = xp.to_device(a, "torch:cpu")  # the fast route: the same memory
    shared.native[0] = 7
    assert a.native[0] == 7
    copied = xp.to_device(a, "torch:cpu", copy=True)  # never the fast route
    copied.native[1] = 9
    assert a.native[1] == 1


@pytest.mark.skipif(not HAS["dask"], reason="dask is not installed")
@pytest.mark.parametrize("dst", DEVICES, ids=str)
def test_dask_in_and_out(dst: xp.Device) -> None:
    import dask.array as da

    ref = np.arange(60, dtype=np.int32).reshape(6, 10)
    lazy = da.from_array(ref, chunks=(2, 5)) * 2
    assert_exact(xp.to_device(lazy, dst), ref * 2, dst)
    if dst.backend == "dask":
        return
    back = xp.to_device(native_on(ref, dst), "dask")
    assert isinstance(back.native, da.Array)
    assert_exact(back, ref, xp.Device("dask"))


def test_to_dask_is_lazy_and_chunked() -> None:
    da = pytest.importorskip("dask.array")
    import dask

    a = np.arange(400_000, dtype=np.float64)
    with dask.config.set({"array.chunk-size": "1MiB"}):
        out = xp.to_device(a, "dask")
    assert isinstance(out.native, da.Array)
    assert out.native.npartitions > 1
    a[0] = -1.0  # dask.array.from_array takes its own copy
    assert xp.to_numpy(out)[0] == 0.0
    with pytest.raises(ValueError, match="needs a copy"):
        xp.to_device(a, "dask", copy=False)


def _available_ram() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


GIB = 1 << 30


@pytest.mark.skipif(not HAS["torch"], reason="torch is not installed")
@pytest.mark.skipif(
    _available_ram() < 3 * GIB or os.environ.get("ARRAYMUX_SKIP_BIG") == "1",
    reason="needs about 3 GiB of free memory",
)
def test_one_gib_array_zero_copy() -> None:
    a = np.ones(GIB // 8 + 1, dtype=np.float64)
    a[-1] = 3.0
    t = xp.to_device(a, "torch:cpu", copy=False)
    assert t.native.data_ptr() == a.ctypes.data
    assert t.shape == a.shape
    assert float(t.native[-1]) == 3.0
    back = xp.to_numpy(t)
    assert back.ctypes.data == a.ctypes.data
    del t, back, a


# ---------------------------------------------------------------------------------------------
# Same backend, dtypes, traced values


def test_same_device_returns_the_array_or_a_copy(device: xp.Device) -> None:
    x = xp.to_device(native_on(np.arange(5, dtype=np.int32), device), device)
    assert xp.to_device(x, device) is x
    y = xp.to_device(x, device, copy=True)
    assert y is not x
    assert_exact(y, np.arange(5, dtype=np.int32), device)
    if device.backend != "dask":
        assert data_ptr(y.native) != data_ptr(x.native)


def test_same_backend_other_device() -> None:
    pytest.importorskip("array_api_strict")
    d1, d2 = xp.Device("array_api_strict:device1"), xp.Device("array_api_strict:device2")
    x = xp.to_device(np.arange(3), d1)
    assert x.device == d1
    assert_exact(xp.to_device(x, d2), np.arange(3), d2)
    with pytest.raises(ValueError, match="needs a copy"):
        xp.to_device(x, d2, copy=False)


def test_unsupported_dtype_is_an_error_not_a_cast() -> None:
    pytest.importorskip("array_api_strict")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"no_float64.*float64"):
        xp.to_device(np.ones(2), "array_api_strict:no_float64")
    with pytest.raises(xp.UnsupportedDTypeError, match="complex128"):
        xp.to_device(np.ones(2, np.complex128), "array_api_strict:no_float64")
    assert xp.to_device(np.ones(2, np.float32), "array_api_strict:no_float64").dtype == xp.float32


@pytest.mark.skipif(not HAS["jax"], reason="jax is not installed")
@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "complex128"])
def test_jax_without_x64_refuses_64_bit(dtype: str) -> None:
    import jax

    jax.config.update("jax_enable_x64", False)
    try:
        with pytest.raises(
            xp.UnsupportedDTypeError, match=rf"jax:cpu:0 cannot hold (arraymux\.)?{dtype}\b"
        ):
            xp.to_device(np.ones(3, dtype), "jax:cpu")
        if HAS["torch"]:
            import torch

            t = torch.ones(3, dtype=getattr(torch, dtype))
            with pytest.raises(xp.UnsupportedDTypeError, match=dtype):
                xp.to_device(t, "jax:cpu")
    finally:
        jax.config.update("jax_enable_x64", True)


@pytest.mark.skipif(not HAS["jax"], reason="jax is not installed")
def test_jax_tracer_cannot_leave() -> None:
    import jax
    import jax.numpy as jnp

    @jax.jit
    def f(v):
        xp.to_device(v, "numpy")
        return v

    with pytest.raises(TypeError, match="traced value inside a transform"):
        f(jnp.ones(3))
    with pytest.raises(TypeError, match="traced"):
        jax.grad(lambda v: xp.to_device(v, "torch:cpu").native.sum())(jnp.ones(3))


@pytest.mark.skipif(not HAS["torch"], reason="torch is not installed")
def test_torch_func_tensor_cannot_leave() -> None:
    import torch

    def f(t):
        xp.to_device(t, "numpy")
        return t.sum()

    with pytest.raises(TypeError, match="traced value inside a transform"):
        torch.func.grad(f)(torch.ones(3))
    with pytest.raises(TypeError, match="traced value"):
        torch.func.vmap(lambda t: xp.to_device(t, "jax:cpu").native)(torch.ones(2, 3))


def test_not_an_array() -> None:
    with pytest.raises(TypeError, match="must be an array"):
        xp.to_device([1, 2], "numpy")
    with pytest.raises(TypeError, match="at least one array"):
        xp.to_numpy()
    with pytest.raises(TypeError, match="argument 1 must be an array"):
        xp.to_numpy(np.ones(1), "nope")


# ---------------------------------------------------------------------------------------------
# to_numpy


def test_to_numpy_one_and_many() -> None:
    arrays = [native_on(np.arange(i + 1, dtype=np.int32) * i, d) for i, d in enumerate(DEVICES)]
    one = xp.to_numpy(arrays[0])
    assert isinstance(one, np.ndarray)
    many = xp.to_numpy(*arrays, *[xp.to_device(a, d) for a, d in zip(arrays, DEVICES)])
    assert isinstance(many, tuple)
    assert len(many) == 2 * len(DEVICES)
    for i, got in enumerate(many):
        k = i % len(DEVICES)
        assert isinstance(got, np.ndarray)
        np.testing.assert_array_equal(got, np.arange(k + 1, dtype=np.int32) * k)
        assert got.dtype == np.int32


def test_to_numpy_numpy_input_is_not_copied() -> None:
    a = np.arange(3)
    assert xp.to_numpy(a) is a


@pytest.mark.skipif(not HAS["jax"], reason="jax is not installed")
def test_to_numpy_reads_jax_with_one_device_get(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arrays in host memory are read as NumPy's views of them, without device_get; arrays on
    a GPU (where there is one) with one device_get for all of them."""
    import jax
    import jax.numpy as jnp

    calls = []
    real = jax.device_get
    monkeypatch.setattr(jax, "device_get", lambda xs: calls.append(len(xs)) or real(xs))
    cpu = jax.devices("cpu")[0]
    xs = [jax.device_put(jnp.full(4, i), cpu) for i in range(10)]
    out = xp.to_numpy(*xs, np.zeros(1))
    assert calls == []
    assert [int(o[0]) for o in out[:10]] == list(range(10))
    assert not out[0].flags.writeable  # a view of the immutable array, never a writable one
    gpus = [d for d in xp.devices("jax") if d.place.startswith("gpu")]
    if gpus:
        on_gpu = [xp.to_device(x, gpus[0]).native for x in xs]
        out = xp.to_numpy(*on_gpu, *xs)
        assert calls == [10]
        assert [int(o[0]) for o in out] == list(range(10)) * 2


@pytest.mark.skipif(not HAS["torch"], reason="torch is not installed")
def test_to_numpy_reads_cpu_tensors_in_a_batch_as_one_by_one() -> None:
    """Several CPU tensors read together give what each gives alone: NumPy's view of the
    tensor's memory where torch allows one, a resolved copy otherwise (a tensor that requires
    grad, conjugate and negative views)."""
    import torch

    cases = list(_torch_awkward().values())
    plain = torch.arange(6.0)
    alone = [xp.to_numpy(t) for t in (*cases, plain)]
    together = xp.to_numpy(*cases, plain)
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    assert np.shares_memory(together[-1], plain.numpy())
    together[-1][0] = 42.0
    assert float(plain[0]) == 42.0


@pytest.mark.skipif(not HAS["dask"], reason="dask is not installed")
def test_to_numpy_computes_dask_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import dask
    import dask.array as da

    calls = []
    real = dask.compute
    monkeypatch.setattr(dask, "compute", lambda *a, **k: calls.append(len(a)) or real(*a, **k))
    base = da.arange(10, chunks=3)
    out = xp.to_numpy(base + 1, base * 2, np.ones(2))
    assert calls == [2]
    np.testing.assert_array_equal(out[0], np.arange(10) + 1)
    np.testing.assert_array_equal(out[1], np.arange(10) * 2)


GPU = [d for d in DEVICES if not _on_cpu(d)]


@pytest.mark.parametrize("gpu", GPU, ids=str)
def test_gpu_host_round_trip_and_batched_read(gpu: xp.Device) -> None:
    ref = reference("float32", 1000)
    x = xp.to_device(ref, gpu)
    assert x.device == gpu
    assert_exact(x, ref, gpu)
    finite = np.linspace(-1, 1, 1000, dtype=np.float32)
    arrays = [xp.to_device(finite * i, gpu) for i in range(8)]
    out = xp.to_numpy(*arrays)
    for i, o in enumerate(out):
        np.testing.assert_array_equal(o, finite * i)
    for host in [d for d in DEVICES if _on_cpu(d)]:
        assert_exact(xp.to_device(x, host), ref, host)


# ---------------------------------------------------------------------------------------------
# Pipelined host->GPU staging (the chunk scheduler, with a fake device on any machine)


class FakeDevice:
    """A device whose copies are asynchronous: a copy reads its host buffer only when it is
    waited for (or at the end), so a buffer refilled too early shows up as wrong bytes."""

    def __init__(self, nbytes: int) -> None:
        self.memory = np.full(nbytes, 0xAB, dtype=np.uint8)
        self.pending: dict[int, tuple[int, int, int]] = {}
        self.tokens = 0
        self.in_flight_max = 0

    def run(self, buffers: list[np.ndarray], token: int) -> None:
        slot, offset, n = self.pending.pop(token)
        self.memory[offset : offset + n] = buffers[slot][:n]

    def upload(self, a: np.ndarray, chunk: int, nbuf: int, pool=None) -> np.ndarray:
        buffers = [np.full(chunk, 0xCD, dtype=np.uint8) for _ in range(nbuf)]

        def to_device(slot: int, offset: int, n: int) -> int:
            assert 0 < n <= chunk and offset + n <= self.memory.size
            assert slot not in {s for s, _, _ in self.pending.values()}, "buffer still in use"
            self.tokens += 1
            self.pending[self.tokens] = (slot, offset, n)
            self.in_flight_max = max(self.in_flight_max, len(self.pending))
            return self.tokens

        pieces = _staging.stage_pieces(a, chunk)
        _staging.staged_copy(pieces, buffers, to_device, lambda t: self.run(buffers, t), pool)
        for token in list(self.pending):
            self.run(buffers, token)
        return self.memory.view(a.dtype).reshape(a.shape)


def _layouts(dtype: str) -> dict[str, np.ndarray]:
    base = np.resize(reference(dtype, 64), 7 * 11 * 13).reshape(7, 11, 13)
    return {
        "contiguous": base,
        "0-d": np.array(base[3, 4, 5]),
        "empty": base[:0],
        "empty-inner": base[:, :0],
        "fortran": np.asfortranarray(base),
        "transposed": base.transpose(2, 0, 1),
        "negative": base[::-1, :, ::-2],
        "strided": base[::2, 1::3],
        "broadcast": np.broadcast_to(base[0, 0], (9, 13)),
        "read-only": _read_only(base),
        "one-long-row": np.resize(reference(dtype, 64), 5001)[::2],
    }


def _read_only(a: np.ndarray) -> np.ndarray:
    b = a.copy()
    b.flags.writeable = False
    return b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk", [16, 40, 1000, 1 << 20])
@pytest.mark.parametrize("threads", [0, 3])
def test_staged_copy_every_byte_lands(dtype: str, chunk: int, threads: int) -> None:
    from concurrent.futures import ThreadPoolExecutor

    chunk = max(chunk, np.dtype(dtype).itemsize)
    pool = ThreadPoolExecutor(threads) if threads else None
    try:
        for name, a in _layouts(dtype).items():
            for nbuf in (1, 2, 5):
                dev = FakeDevice(a.nbytes)
                got = dev.upload(a, chunk, nbuf, pool)
                assert got.shape == a.shape, name
                np.testing.assert_array_equal(got, a, err_msg=f"{name}, {nbuf} buffers")
                assert got.tobytes() == np.ascontiguousarray(a).tobytes(), name
                assert dev.in_flight_max <= nbuf
    finally:
        if pool is not None:
            pool.shutdown()


def test_stage_pieces_cover_the_bytes_once() -> None:
    a = np.arange(6 * 1001, dtype=np.float64).reshape(6, 1001)[:, ::-3]
    for chunk in (8, 24, 800, 8 * 334, 10**6):
        pieces = _staging.stage_pieces(a, chunk)
        offsets = [o for o, _ in pieces]
        assert offsets == sorted(offsets)
        assert all(p.nbytes <= chunk for _, p in pieces)
        end = 0
        for o, p in pieces:
            assert o == end
            end += p.nbytes
        assert end == a.nbytes
        joined = np.concatenate([p.reshape(-1) for _, p in pieces])
        np.testing.assert_array_equal(joined, a.reshape(-1))
    contiguous = np.arange(100, dtype=np.int32)
    assert [p.nbytes for _, p in _staging.stage_pieces(contiguous, 64)] == [64] * 6 + [16]
    assert _staging.stage_pieces(np.zeros((0, 3)), 64) == []


def test_staged_copy_pipelines_in_order() -> None:
    """Copies are issued in order, each buffer is waited for before it is refilled, and the
    fills run ahead of the copies by up to the number of buffers."""
    a = np.arange(1000, dtype=np.uint8)
    events: list[tuple[str, int]] = []
    buffers = [np.zeros(100, dtype=np.uint8) for _ in range(3)]

    def to_device(slot: int, offset: int, n: int) -> int:
        events.append(("copy", offset))
        return offset

    def wait(token: int) -> None:
        events.append(("wait", token))

    _staging.staged_copy(_staging.stage_pieces(a, 100), buffers, to_device, wait, None)
    copies = [o for kind, o in events if kind == "copy"]
    assert copies == list(range(0, 1000, 100))
    waits = [o for kind, o in events if kind == "wait"]
    assert waits == list(range(0, 700, 100))  # the last three are left to the caller
    for k, (kind, o) in enumerate(events):
        if kind == "wait":  # waiting for a copy that was issued, three pieces back
            assert ("copy", o) in events[:k]


def test_staged_copy_error_stops_cleanly() -> None:
    from concurrent.futures import ThreadPoolExecutor

    a = np.arange(1000, dtype=np.uint8)
    calls = []

    def to_device(slot: int, offset: int, n: int) -> int:
        calls.append(offset)
        if offset == 300:
            raise RuntimeError("device gone")
        return offset

    with ThreadPoolExecutor(2) as pool, pytest.raises(RuntimeError, match="device gone"):
        _staging.staged_copy(
            _staging.stage_pieces(a, 100),
            [np.zeros(100, dtype=np.uint8) for _ in range(4)],
            to_device,
            lambda t: None,
            pool,
        )
    assert calls == [0, 100, 200, 300]


def test_staging_ring_is_cached_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    made = []

    def make(chunk: int, count: int) -> _staging.StagingRing:
        made.append((chunk, count))
        return _staging.StagingRing([np.zeros(chunk, np.uint8) for _ in range(count)])

    monkeypatch.setattr(_staging, "_rings", {})
    monkeypatch.setattr(_staging, "STAGE_CHUNK", 64)
    monkeypatch.setattr(_staging, "STAGE_BUFFERS", 3)
    r = _staging.staging_ring("dev", make)
    assert _staging.staging_ring("dev", make) is r
    monkeypatch.setattr(_staging, "STAGE_CHUNK", 128)
    r2 = _staging.staging_ring("dev", make)
    assert r2 is not r and made == [(64, 3), (128, 3)]
    assert len(_staging._rings) == 1  # the old buffers were dropped


# ---------------------------------------------------------------------------------------------
# GPU uploads and downloads through pinned memory (run only where a GPU exists)


@pytest.fixture
def small_stages(monkeypatch: pytest.MonkeyPatch):
    """Stage everything in chunks of 4 KiB through 3 buffers, so that small arrays exercise
    the pipelined paths, several chunks and buffer reuse."""
    monkeypatch.setattr(_staging, "STAGE_MIN", 1)
    monkeypatch.setattr(_staging, "STAGE_CHUNK", 4096)
    monkeypatch.setattr(_staging, "STAGE_BUFFERS", 3)
    monkeypatch.setattr(_staging, "PINNED_READ_MIN", 1)


def _gpu_layouts(dtype: str) -> dict[str, np.ndarray]:
    out = _layouts(dtype)
    big = np.resize(reference(dtype, 97), 3 * 4099 + 5)
    out["several-chunks"] = big
    out["several-chunks-strided"] = big[::-3]
    out["swapped"] = big.astype(big.dtype.newbyteorder("S")) if big.dtype.itemsize > 1 else big
    return out


@pytest.mark.parametrize("gpu", GPU, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_gpu_staged_upload_every_dtype_and_layout(gpu: xp.Device, dtype: str, small_stages) -> None:
    _skip_unless_holds(gpu, dtype)
    hosts = [d for d in DEVICES if _on_cpu(d) and d.backend not in ("numpy", "dask")]
    for name, a in _gpu_layouts(dtype).items():
        want = np.array(a, dtype=a.dtype.newbyteorder("="), order="C")
        sources = [("numpy", a, want)]
        for host in hosts:
            if host.supports(xp.DType(dtype)):
                x = native_on(want, host)
                sources.append((str(host), x, want))
                if want.ndim and want.shape[0] > 1:  # a strided view (torch has no negative steps)
                    step = 2 if host.backend == "torch" else -2
                    sources.append((f"{host}[::{step}]", x[::step, ...], want[::step]))
        for src, x, expected in sources:
            out = xp.to_device(x, gpu)
            assert out.device == gpu, (src, name)
            back = xp.to_numpy(out)
            assert back.shape == expected.shape and back.dtype == expected.dtype, (src, name)
            assert back.tobytes() == np.ascontiguousarray(expected).tobytes(), (
                f"{src} -> {gpu}: {name}"
            )


@pytest.mark.parametrize("gpu", GPU, ids=str)
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "float64", "complex128"])
def test_gpu_pinned_downloads(gpu: xp.Device, dtype: str, small_stages) -> None:
    _skip_unless_holds(gpu, dtype)
    a = np.resize(reference(dtype, 97), (5, 4099))
    x = xp.to_device(a, gpu)
    for host in [d for d in DEVICES if _on_cpu(d)]:
        if host.supports(x.dtype):
            assert_exact(xp.to_device(x, host), a, host)
    got = xp.to_numpy(x, x[1], x[:, ::2])
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1], a[1])
    np.testing.assert_array_equal(got[2], a[:, ::2])


@pytest.mark.parametrize("gpu", GPU, ids=str)
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
def test_gpu_small_single_reads(gpu: xp.Device, dtype: str) -> None:
    """One array under PINNED_READ_MIN is read with a plain copy: exact values, every layout,
    and (mutable backends) a host array of its own: writing to it leaves the GPU array as it
    was. JAX's host reads are read-only, as its arrays are."""
    _skip_unless_holds(gpu, dtype)
    a = np.resize(reference(dtype, 97), (3, 33))
    x = xp.to_device(a, gpu)
    for view, want in ((x, a), (x[1], a[1]), (x[:, ::2], a[:, ::2]), (x[0, 0], a[0, 0])):
        got = xp.to_numpy(view)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == a.dtype
    if gpu.backend != "jax":
        out = xp.to_numpy(x)
        out[...] = out[0, 0]
        np.testing.assert_array_equal(xp.to_numpy(x), a)


@pytest.mark.parametrize("gpu", GPU, ids=str)
def test_gpu_batched_small_reads_mixed_dtypes(gpu: xp.Device) -> None:
    arrays = []
    for i, dtype in enumerate(["float32", "int8", "bool", "float32", "complex64", "int8"] * 4):
        if gpu.supports(getattr(xp, dtype)):
            arrays.append(np.resize(reference(dtype, 50), (i % 4 + 1, 7)))
    got = xp.to_numpy(*[xp.to_device(a, gpu) for a in arrays])
    for a, g in zip(arrays, got):
        assert g.dtype == a.dtype and g.shape == a.shape
        np.testing.assert_array_equal(g, a)


def _pinned_host_array(n: int) -> np.ndarray | None:
    """A float64 ndarray of ``n`` elements in page-locked memory, or None without a GPU."""
    if HAS["torch"]:
        import torch

        if torch.cuda.is_available():
            return torch.arange(n, dtype=torch.float64).pin_memory().numpy()
    if HAS["cupy"]:
        import cupyx

        a = cupyx.empty_pinned((n,), dtype=np.float64)
        a[:] = np.arange(n)
        return a
    return None


@pytest.mark.parametrize("gpu", [d for d in GPU if d.backend in ("torch", "cupy")], ids=str)
def test_gpu_upload_from_pinned_memory_skips_staging(
    gpu: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = _pinned_host_array(3 * 4099)
    if a is None:
        pytest.skip("no page-locked memory without a GPU")
    monkeypatch.setattr(_staging, "STAGE_MIN", 1)
    monkeypatch.setattr(_staging, "STAGE_CHUNK", 4096)

    def no_staging(*args: object, **kwargs: object) -> None:
        raise AssertionError("staged a copy of page-locked memory")

    monkeypatch.setattr(_staging, "staged_copy", no_staging)
    out = xp.to_device(a, gpu)
    assert out.device == gpu
    np.testing.assert_array_equal(xp.to_numpy(out), np.arange(a.size, dtype=np.float64))
    # A pageable source, or a pinned one that is not C-contiguous, is staged.
    with pytest.raises(AssertionError, match="staged"):
        xp.to_device(np.arange(a.size, dtype=np.float64), gpu)
    with pytest.raises(AssertionError, match="staged"):
        xp.to_device(a[::2], gpu)


def test_numpy_asarray_follows_the_backends_rule(device):
    """``numpy.asarray(x)`` converts where the backend's own arrays do: host memory always,
    JAX's GPU memory by a copy (never with ``copy=False``); torch and CuPy GPU memory never."""
    x = xp.asarray([1.0, 2.0], device=device)
    host = device.backend in ("numpy", "dask", "array_api_strict") or device.place.startswith("cpu")
    if host or device.backend == "jax":
        assert np.asarray(x).tolist() == [1.0, 2.0]
        if not host:
            with pytest.raises(ValueError, match="copy=False forbids"):
                np.asarray(x, copy=False)
    else:
        with pytest.raises(TypeError, match=r"implicitly .*arraymux.to_numpy"):
            np.asarray(x)


def test_synchronize_waits_and_returns_its_arguments(device):
    x = xp.asarray([1.0, 2.0], device=device) * 3
    assert xp.synchronize(x) is x
    assert xp.block_until_ready is xp.synchronize
    both = xp.synchronize(x, device, str(device), x.native)
    assert both[0] is x and both[1] == device
    assert xp.to_numpy(x).tolist() == [3.0, 6.0]
    assert xp.synchronize() is None


def test_synchronize_waits_once_per_device_for_several_arrays(monkeypatch):
    from arraymux import _transfer

    calls = []
    numpy_dev = xp.Device("numpy")
    monkeypatch.setitem(
        _transfer._WAITS, numpy_dev, lambda place, natives: calls.append((place, natives))
    )
    a, b, c = xp.ones(2), xp.zeros(3), xp.asarray(1.0)
    assert xp.synchronize(a, b, c) == (a, b, c)
    assert len(calls) == 1
    place, natives = calls[0]
    assert place == numpy_dev.place
    assert all(n is m for n, m in zip(natives, (a._native, b._native, c._native), strict=True))


def test_synchronize_refuses_what_is_not_an_array():
    with pytest.raises(TypeError, match=r"synchronize: argument 1 is a list"):
        xp.synchronize(xp.ones(2), [1.0])
    with pytest.raises(ValueError, match=r"arraymux\.synchronize: malformed device"):
        xp.synchronize("nosuch:thing")
    with pytest.raises(ValueError, match=r"arraymux\.synchronize: malformed device"):
        xp.block_until_ready(xp.ones(2), "abc")
