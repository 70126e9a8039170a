"""Two devices of one backend: results on the ordinal asked for, mismatch errors between
ordinals, moves between them without the host, transforms off device 0, batched reads.

Each test runs for every backend that has two devices of one kind here: two GPUs (torch:cuda,
jax:gpu, cupy), or JAX's host split in two. CI has no GPU; ``test_ordinals.py`` runs this file
in a child process with ``XLA_FLAGS=--xla_force_host_platform_device_count=2`` (``jax:cpu:0``
and ``jax:cpu:1``). Where no backend has two devices, every test skips and says why. Where a
device's data lives is read from the native array (``native_place``), never from the label.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import arraymux as xp
from _ordinal_checks import misplaced, native_place, sweep
from arraymux import _transfer

_NEEDS_TWO = (
    "needs two devices of one backend: two GPUs, or JAX started with "
    "XLA_FLAGS=--xla_force_host_platform_device_count=2"
)


def _kind(d: xp.Device) -> str:
    return "gpu" if d.backend == "cupy" else d.place.split(":")[0]


def _groups() -> dict[tuple[str, str], list[xp.Device]]:
    """Devices of each backend and kind (``("torch", "cuda")`` -> ``[torch:cuda:0, ...]``)."""
    out: dict[tuple[str, str], list[xp.Device]] = {}
    for d in xp.devices():
        if d.simulated or d.backend in ("numpy", "dask", "array_api_strict"):
            continue
        out.setdefault((d.backend, _kind(d)), []).append(d)
    return {k: v for k, v in out.items() if len(v) >= 2}


_GROUPS = _groups()
_PAIRS = [pytest.param((ds[0], ds[1]), id=f"{b}:{k}") for (b, k), ds in _GROUPS.items()]
if not _PAIRS:
    _PAIRS = [pytest.param(None, marks=pytest.mark.skip(reason=_NEEDS_TWO), id="none")]


# Moves across backends and ordinals: every ordered pair of devices of two backends in the same
# kind of memory where one of them is an ordinal 1 (torch:cuda:0 -> jax:gpu:1, numpy ->
# jax:cpu:1, ...).
def _memory_kind(d: xp.Device) -> str:
    host = ("numpy", "dask", "array_api_strict")
    return "cpu" if d.backend in host or _kind(d) == "cpu" else "gpu"


_ONES = [ds[1] for ds in _GROUPS.values()]
_OTHERS = [
    d
    for d in xp.devices()
    if not d.simulated
    and d.backend not in ("dask", "array_api_strict")
    and (d.backend, _kind(d)) not in _GROUPS
] + [ds[0] for ds in _GROUPS.values()]
_CROSS = [
    pytest.param((a, b), id=f"{a}->{b}")
    for one, other in itertools.product(_ONES, _OTHERS)
    for a, b in ((one, other), (other, one))
    if a.backend != b.backend and _memory_kind(a) == _memory_kind(b)
]
if not _CROSS:
    _CROSS = [pytest.param(None, marks=pytest.mark.skip(reason=_NEEDS_TWO), id="none")]


@pytest.fixture(params=_PAIRS)
def pair(request: pytest.FixtureRequest) -> tuple[xp.Device, xp.Device]:
    """``(ordinal 0, ordinal 1)`` of one backend."""
    return request.param  # type: ignore[no-any-return]


def _native_count(backend: str, kind: str) -> int:
    if backend == "torch":
        import torch

        return int(getattr(torch, kind).device_count())
    if backend == "cupy":
        import cupy

        return int(cupy.cuda.runtime.getDeviceCount())
    import jax

    return len(jax.devices(kind))


def test_every_device_is_listed(pair, capsys):
    d0, _ = pair
    kind = _kind(d0)
    listed = [d for d in xp.devices(d0.backend) if _kind(d) == kind]
    assert len(listed) == _native_count(d0.backend, kind)
    from arraymux import cli

    assert cli.main(["info", "--devices"]) == 0
    text = capsys.readouterr().out.replace("\n", " ")
    for d in listed:
        assert str(d) in text


def test_every_result_lives_on_ordinal_1(pair):
    d0, d1 = pair
    bad = sweep(d1, d0)
    assert bad == [], "\n".join(bad)


@pytest.mark.parametrize("how", ["device=", "context", "global", "environment"])
def test_the_default_device_puts_results_on_ordinal_1(pair, how):
    _, d1 = pair

    def make() -> tuple[xp.Array, ...]:
        noise = xp.random.uniform(xp.random.key(1), (2,))
        return xp.ones(2), xp.asarray([1.0, 2.0]), xp.arange(3), xp.full(2, 3), noise

    if how == "device=":
        out = (xp.ones(2, device=d1), xp.asarray(np.ones(2, np.float32), device=d1))
    elif how == "context":
        with xp.default_device(d1):
            out = make()
    elif how == "global":
        xp.set_default_device(d1)
        out = make()
    else:
        code = (
            f"import arraymux as xp, sys; sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
            "from _ordinal_checks import native_place\n"
            "print(xp.get_default_device(), native_place(xp.ones(2)), "
            "native_place(xp.asarray([1.0])))"
        )
        env = os.environ | {"ARRAYMUX_DEVICE": str(d1)}
        res = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
        )
        assert res.returncode == 0, res.stderr[-2000:]
        assert res.stdout.split() == [str(d1), d1.place, d1.place]
        return
    assert misplaced(out, d1) == []


def test_operands_on_two_ordinals_raise_naming_both(pair):
    d0, d1 = pair
    a = xp.ones(3, dtype=xp.float32, device=d1)
    b = xp.ones(3, dtype=xp.float32, device=d0)
    for call, positions in (
        (lambda: a + b, ("0", "1")),
        (lambda: xp.add(b, a), ("0", "1")),
        (lambda: xp.where(xp.asarray([True, False, True], device=d1), a, b), ("0", "2")),
        (lambda: xp.concat([a, b]), ("0", "1")),
    ):
        with pytest.raises(xp.DeviceMismatchError) as info:
            call()
        msg = str(info.value)
        assert str(d0) in msg and str(d1) in msg, msg
        assert "to_device" in msg, msg
        assert all(p in msg for p in positions), msg
    # Moved to one ordinal, the same call works there.
    assert misplaced(a + xp.to_device(b, d1), d1) == []


def test_one_ordinal_of_two_backends_follows_the_backend_rule(pair):
    _, d1 = pair
    others = [ds[1] for ds in _GROUPS.values() if ds[1].backend != d1.backend]
    if not others:
        pytest.skip("needs a second backend with two devices")
    a = xp.ones(2, device=d1)
    for other in others:
        with pytest.raises(xp.BackendMismatchError) as info:
            a + xp.ones(2, device=other)
        assert str(d1) in str(info.value) and str(other) in str(info.value)


class _NoHost:
    """Makes every route through host memory fail the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("_to_host", "_from_host", "_host_view"):
            monkeypatch.setattr(_transfer, name, self._refuse(name))

    @staticmethod
    def _refuse(name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError(f"the move went through host memory ({name})")

        return refuse


def _moved_twice(x: xp.Array, target: xp.Device) -> list[xp.Array]:
    # The second move of a dtype may take the pair's fast route: both must stay off the host.
    return [xp.to_device(x, target), xp.to_device(x, target), xp.to_device(x.native, target)]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_moves_between_ordinals_stay_off_the_host(pair, dtype, monkeypatch):
    d0, d1 = pair
    dt = getattr(xp, dtype)
    if not d0.supports(dt):
        pytest.skip(f"{d0} cannot hold {dtype}")
    values = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    gpu = _kind(d0) != "cpu"
    for src, dst in ((d0, d1), (d1, d0)):
        x = xp.asarray(values, device=src)
        if gpu:
            _NoHost(monkeypatch)  # the backend's own device-to-device copy
        outs = _moved_twice(x, dst)
        monkeypatch.undo()
        for out in outs:
            assert misplaced(out, dst) == []
            assert out.dtype == dt
            np.testing.assert_array_equal(xp.to_numpy(out), values)
        _, route, copied = _transfer.move_report(x, dst)
        # Between GPUs JAX copies through torch or CuPy ("peer"); on the host, jax.device_put.
        assert route == ("peer" if gpu and d0.backend == "jax" else "same") and copied
        with pytest.raises(ValueError, match="copy=False"):
            xp.to_device(x, dst, copy=False)


@pytest.mark.parametrize("pair_", _CROSS)
def test_moves_across_backends_and_ordinals(pair_, monkeypatch):
    src, dst = pair_
    values = np.linspace(0, 1, 24, dtype=np.float32).reshape(4, 6)
    x = xp.asarray(values, device=src)
    gpu = _memory_kind(src) == "gpu"
    if gpu:
        _NoHost(monkeypatch)  # one DLPack exchange and one device-to-device copy
    outs = [*_moved_twice(x, dst), _transfer.move_report(x, dst)[0]]
    monkeypatch.undo()
    for out in outs:
        assert misplaced(out, dst) == []
        np.testing.assert_array_equal(xp.to_numpy(out), values)
    _, route, copied = _transfer.move_report(x, dst)
    if gpu:
        assert route == "peer" and copied
        with pytest.raises(ValueError, match="copy=False"):
            xp.to_device(x, dst, copy=False)
    else:
        assert route in ("dlpack", "host")


_GPUS = [d for d in xp.devices() if not d.simulated and _memory_kind(d) == "gpu"]
_GPU_PAIRS = [
    pytest.param((a, b), id=f"{a}->{b}")
    for a, b in itertools.permutations(_GPUS, 2)
    if len({d.place.rpartition(":")[2] for d in _GPUS}) >= 2
]
if not _GPU_PAIRS:
    _GPU_PAIRS = [pytest.param(None, marks=pytest.mark.skip(reason="needs two GPUs"), id="none")]


def _current_gpu() -> int:
    """The calling thread's current CUDA device, as CuPy or torch reads it."""
    if "cupy" in sys.modules:
        import cupy

        return int(cupy.cuda.runtime.getDevice())
    import torch

    return int(torch.cuda.current_device())


def _make_current(ordinal: int) -> Any:
    if "cupy" in sys.modules:
        import cupy

        return cupy.cuda.Device(ordinal)
    import torch

    return torch.cuda.device(ordinal)


@pytest.mark.parametrize("pair_", _GPU_PAIRS)
@pytest.mark.parametrize("current", [0, 1])
def test_moves_between_gpus_whatever_gpu_is_current(pair_, current):
    """Every move between two GPU devices (one backend or two, one GPU or two) is exact and
    lands where asked whichever GPU the caller made current, also for a strided view, a 0-d
    array and a source computed just before (the copy must wait for it); and the move leaves
    the caller's current GPU as it was. (JAX's own computations make their GPU current, so
    the sources are computed before the caller picks one.)"""
    src, dst = pair_
    n = 1 << 22  # 16 MiB of float32: the copy takes long enough for a missing wait to show
    base = xp.arange(n, dtype=xp.float32, device=src)
    fresh = xp.sin(base) * 3.0
    cases = [fresh, xp.reshape(fresh, (1024, -1))[:, ::3], fresh[7]]
    wanted = [xp.to_numpy(c) for c in cases]
    pending = xp.sin(base) * 3.0  # still queued on the source GPU
    with _make_current(current):
        moved = [xp.to_device(pending, dst)] + [xp.to_device(c, dst) for c in cases]
        assert _current_gpu() == current
    for out, want in zip(moved, [wanted[0], *wanted]):
        assert misplaced(out, dst) == []
        got = xp.to_numpy(out)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def _count_waits(backend: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record each synchronisation a batched read makes (per device), for one backend."""
    seen: list[Any] = []
    if backend == "torch":
        import torch

        real = torch.cuda.synchronize

        def wait(device: Any = None) -> None:
            seen.append(torch.device(device).index)
            real(device)

        monkeypatch.setattr(torch.cuda, "synchronize", wait)
    elif backend == "cupy":
        import cupy

        real_s = cupy.cuda.Stream.synchronize

        def wait_s(self: Any) -> None:
            seen.append(self.device_id)
            real_s(self)

        monkeypatch.setattr(cupy.cuda.Stream, "synchronize", wait_s)
    else:
        import jax

        real_g = jax.device_get

        def get(x: Any) -> Any:
            seen.append(len(x) if isinstance(x, list | tuple) else 1)
            return real_g(x)

        monkeypatch.setattr(jax, "device_get", get)
    return seen


@pytest.mark.parametrize("n", [2, 40])
def test_to_numpy_of_two_devices_synchronises_once_per_device(pair, n, monkeypatch):
    d0, d1 = pair
    arrays = [xp.full((n, 3), float(i), dtype=xp.float32, device=(d0, d1)[i % 2]) for i in range(n)]
    seen = _count_waits(d0.backend, monkeypatch)
    hosts = xp.to_numpy(*arrays)
    monkeypatch.undo()
    for i, h in enumerate(hosts):
        assert isinstance(h, np.ndarray)
        np.testing.assert_array_equal(h, np.full((n, 3), float(i), np.float32))
    if d0.backend == "jax":
        # One batched device_get for the arrays of both GPUs; host arrays are read as views.
        assert seen == ([] if _kind(d0) == "cpu" else [n])
    elif _kind(d0) != "cpu":
        assert sorted(seen) == [0, 1]  # one wait per device


def test_transforms_compute_on_ordinal_1(pair):
    """Inside the transform the traced values are on ordinal 1 (where the engine exposes a
    device: torch.func and the CuPy bridge); the results come back there."""
    _, d1 = pair
    inner: list[str] = []

    def f(v: Any) -> Any:
        if d1.backend != "jax":
            inner.append(native_place(v.native))
        return xp.sum(xp.cos(v) * v)

    x = xp.asarray([0.5, 1.5, 2.5], dtype=xp.float32, device=d1)
    results = {
        "grad": xp.grad(f)(x),
        "value_and_grad": xp.value_and_grad(f)(x),
        "hessian": xp.hessian(f)(x),
        "jacobian": xp.jacobian(xp.sin)(x),
        "vmap": xp.vmap(f)(xp.stack([x, x])),
        "jit": xp.jit(f)(x),
        "checkpoint": xp.grad(xp.checkpoint(f))(x),
        "jvp": xp.jvp(f, (x,), (xp.ones_like(x),)),
    }
    for name, out in results.items():
        assert misplaced(out, d1) == [], name
    expected = -np.sin(xp.to_numpy(x)) * xp.to_numpy(x) + np.cos(xp.to_numpy(x))
    np.testing.assert_allclose(xp.to_numpy(results["grad"]), expected, rtol=1e-5)
    if d1.backend != "jax":  # JAX's tracers have no device
        # torch.func's tensors on cuda:1; the CuPy bridge's, or CuPy's own where no engine
        # runs (jit), on GPU 1.
        ordinal = d1.place.rpartition(":")[2]
        assert inner and {p.rpartition(":")[2] for p in inner} == {ordinal}, inner
