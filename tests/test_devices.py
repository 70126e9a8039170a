"""Device parsing, printing, identity, errors, listing, and the default device."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import os
import subprocess
import sys
import threading

import pytest

import arraymux as xp
from arraymux import _backends

CANONICAL = {
    "numpy": "numpy:cpu",
    "numpy:cpu": "numpy:cpu",
    "torch:cpu": "torch:cpu",
    "jax:cpu:0": "jax:cpu:0",
    "jax:cpu": "jax:cpu:0",
    "dask": "dask",
    "array_api_strict": "array_api_strict:CPU_DEVICE",
    "array_api_strict:device1": "array_api_strict:device1",
}


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_parse_and_print(text):
    d = xp.Device(text)
    canon = CANONICAL[text]
    assert str(d) == canon
    assert repr(d) == f"Device({canon!r})"
    assert eval(repr(d), {"Device": xp.Device}) is d
    assert d.backend == canon.split(":")[0]
    assert d is xp.Device(canon)
    assert d == xp.Device(canon)
    assert d == canon
    assert d == text
    assert hash(d) == hash(xp.Device(canon))
    assert xp.Device(d) is d
    assert d.native is not None


def test_native_device_objects():
    import array_api_strict
    import jax
    import torch

    assert xp.Device("torch:cpu").native == torch.device("cpu")
    assert xp.Device("jax:cpu:0").native == jax.devices("cpu")[0]
    assert xp.Device("array_api_strict:device1").native == array_api_strict.Device("device1")
    assert xp.Device(torch.device("cpu")) is xp.Device("torch:cpu")
    assert xp.Device(jax.devices("cpu")[0]) is xp.Device("jax:cpu:0")


def test_devices_are_distinct_and_hashable():
    names = [
        "numpy",
        "torch:cpu",
        "jax:cpu",
        "dask",
        "array_api_strict",
        "array_api_strict:device1",
    ]
    devs = [xp.Device(n) for n in names]
    assert len(set(devs)) == len(names)
    assert xp.Device("array_api_strict") != xp.Device("array_api_strict:device1")
    assert xp.Device("numpy") != "torch:cpu"
    assert xp.Device("numpy") != "not a device"
    assert xp.Device("numpy") != 3
    assert {xp.Device("numpy:cpu"): 1}[xp.Device("numpy")] == 1


def test_device_is_immutable():
    d = xp.Device("numpy")
    with pytest.raises(AttributeError):
        d._name = "torch"  # type: ignore[misc]


def test_device_pickles():
    import pickle

    d = xp.Device("jax:cpu")
    assert pickle.loads(pickle.dumps(d)) is d


@pytest.mark.parametrize(
    "text", ["", ":", "numpy:", ":cpu", "torch: cpu", "nosuchbackend", "nosuch:cpu", "torch:gpu"]
)
def test_malformed_strings_list_valid_forms(text):
    with pytest.raises(ValueError, match="valid forms") as info:
        xp.Device(text)
    msg = str(info.value)
    assert '"torch:cuda:1"' in msg
    assert '"jax:cpu:0"' in msg
    assert '"dask"' in msg


def test_not_a_device_object():
    with pytest.raises(TypeError, match="not a device"):
        xp.Device(object())


@pytest.fixture
def fake_backend():
    module = "arraymux_fake_backend_not_installed"
    # Everything as NumPy's but the names: nothing of it is installed.
    spec = dataclasses.replace(
        _backends._SPECS["numpy"], name="fakebackend", module=module,
        array_types=((module, "Array"),), extra="fakebackend",
        distribution="arraymux-fake-backend",
    )  # fmt: skip
    _backends.register(spec)
    try:
        yield spec
    finally:
        _backends._SPECS.pop(spec.name, None)
        _backends._ALIASES.pop(spec.name, None)
        _backends._BACKENDS.pop(spec.name, None)
        _backends.TYPE_CACHE.clear()


def test_uninstalled_backend(fake_backend):
    with pytest.raises(xp.BackendUnavailableError, match="not installed") as info:
        xp.Device("fakebackend:cpu")
    assert 'pip install "arraymux[fakebackend]"' in str(info.value)
    assert isinstance(info.value, xp.ArraymuxError)
    # it is listed nowhere, and does not break listing
    assert all(d.backend != "fakebackend" for d in xp.devices())
    with pytest.raises(xp.BackendUnavailableError, match="pip install"):
        xp.zeros(2, device="fakebackend")


def test_uninstalled_backend_cleanup_is_complete():
    assert "fakebackend" not in {s.name for s in _backends.specs()}


@pytest.mark.skipif(
    any(d.place.startswith("cuda:7") for d in xp.devices()), reason="machine has 8 GPUs"
)
def test_absent_device_index_lists_devices():
    with pytest.raises(xp.BackendUnavailableError) as info:
        xp.Device("torch:cuda:7")
    msg = str(info.value)
    assert "torch:cuda:7" in msg
    assert "torch:cpu" in msg
    assert "arraymux.devices()" in msg


def test_absent_device_jax_and_strict():
    with pytest.raises(xp.BackendUnavailableError, match="jax:cpu:0"):
        xp.Device("jax:cpu:99")
    with pytest.raises(xp.BackendUnavailableError, match="device1"):
        xp.Device("array_api_strict:device9")


def test_devices_lists_cpu_backends():
    devs = xp.devices()
    for name in ("numpy:cpu", "torch:cpu", "jax:cpu:0", "dask", "array_api_strict:CPU_DEVICE"):
        assert xp.Device(name) in devs
    assert all(type(d) is xp.Device for d in devs)
    assert len(set(devs)) == len(devs)
    assert xp.devices("torch")[0] == xp.Device("torch:cpu")
    assert all(d.backend == "jax" for d in xp.devices("jax"))
    assert xp.__array_namespace_info__().devices() == tuple(devs)
    assert xp.namespace("2024.12").__array_namespace_info__().devices() == devs


def test_device_fixture_covers_device(device):
    assert device in xp.devices()
    assert str(device) in {str(d) for d in xp.devices()}
    assert xp.zeros(2, device=device).device == device


# -- the default device ------------------------------------------------------------------------


def test_embedded_default_is_numpy():
    assert xp.get_default_device() is xp.Device("numpy:cpu")
    assert xp.zeros(2).device == xp.Device("numpy:cpu")
    assert xp.__array_namespace_info__().default_device() == xp.Device("numpy:cpu")


def test_env_var_sets_default():
    env = dict(os.environ, ARRAYMUX_DEVICE="torch:cpu")
    code = "import arraymux as xp; print(xp.get_default_device(), xp.ones(2).device)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["torch:cpu", "torch:cpu"]


def test_env_var_malformed_raises():
    env = dict(os.environ, ARRAYMUX_DEVICE="nosuch:thing")
    code = "import arraymux as xp; xp.ones(2)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode != 0
    assert "valid forms" in out.stderr


def test_set_default_device():
    xp.set_default_device("torch:cpu")
    assert xp.get_default_device() == xp.Device("torch:cpu")
    assert xp.ones(2).device == xp.Device("torch:cpu")
    assert xp.asarray([1.0]).device == xp.Device("torch:cpu")
    xp.set_default_device(None)
    assert xp.get_default_device() == xp.Device("numpy:cpu")
    with pytest.raises(ValueError):
        xp.set_default_device("nosuch")


def test_default_device_context_is_scoped():
    with xp.default_device("jax:cpu") as d:
        assert d == xp.Device("jax:cpu:0")
        assert xp.zeros(1).device == d
        with xp.default_device("dask"):
            assert xp.zeros(1).device == xp.Device("dask")
        assert xp.zeros(1).device == d
    assert xp.get_default_device() == xp.Device("numpy:cpu")


def test_default_device_context_restored_on_error():
    with pytest.raises(RuntimeError), xp.default_device("torch:cpu"):
        raise RuntimeError
    assert xp.get_default_device() == xp.Device("numpy:cpu")


def test_default_device_context_beats_set_default():
    xp.set_default_device("dask")
    with xp.default_device("torch:cpu"):
        assert xp.get_default_device() == xp.Device("torch:cpu")
    assert xp.get_default_device() == xp.Device("dask")


def test_default_device_isolated_across_threads():
    barrier = threading.Barrier(2, timeout=30)
    seen: dict[str, str] = {}

    def work(name: str) -> None:
        with xp.default_device(name):
            barrier.wait()
            seen[name] = str(xp.get_default_device())
            barrier.wait()

    threads = [threading.Thread(target=work, args=(n,)) for n in ("torch:cpu", "dask")]
    with xp.default_device("jax:cpu"):
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert xp.get_default_device() == xp.Device("jax:cpu:0")
    assert seen == {"torch:cpu": "torch:cpu", "dask": "dask"}


def test_default_device_isolated_across_asyncio_tasks():
    async def work(name: str, started: asyncio.Event, other: asyncio.Event) -> str:
        with xp.default_device(name):
            started.set()
            await other.wait()
            await asyncio.sleep(0)
            return str(xp.zeros(1).device)

    async def main() -> list[str]:
        e1, e2 = asyncio.Event(), asyncio.Event()
        return list(await asyncio.gather(work("torch:cpu", e1, e2), work("dask", e2, e1)))

    assert asyncio.run(main()) == ["torch:cpu", "dask"]
    assert xp.get_default_device() == xp.Device("numpy:cpu")


def test_supports():
    assert xp.Device("numpy").supports(xp.float64)
    assert not xp.Device("array_api_strict:no_float64").supports(xp.float64)
    assert xp.Device("array_api_strict:no_float64").supports(xp.float32)


@pytest.mark.skipif(
    not any(d.backend == "cupy" or "cuda" in d.place or "gpu" in d.place for d in xp.devices()),
    reason="no GPU on this machine",
)
def test_gpu_devices_listed():
    gpus = [d for d in xp.devices() if d.backend == "cupy" or "cuda" in d.place or "gpu" in d.place]
    for d in gpus:
        assert xp.Device(str(d)) is d
        assert xp.to_numpy(xp.ones(2, device=d)).tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "name, kind",
    [("torch:cuda", "cuda"), ("torch:xpu", "xpu"), ("jax:gpu", "gpu"), ("cupy", "cupy")],
)
def test_absent_accelerator_without_ordinal(name, kind):
    """A bare accelerator name where none is present is BackendUnavailableError listing the
    devices that exist, never the backend's own internal error."""
    backend = name.split(":")[0]
    if importlib.util.find_spec(backend) is None:
        pytest.skip(f"{backend} is not installed")
    present = [d for d in xp.devices() if d.backend == backend]
    if any(kind in d.place or backend == kind for d in present):
        pytest.skip(f"this machine has a {name} device")
    with pytest.raises(xp.BackendUnavailableError, match=r"arraymux\.devices\(\)|pip install"):
        xp.Device(name)


def test_cupy_with_one_gpu_indexes_and_computes_unwrapped():
    # CuPy computes on the current GPU, so arraymux runs its functions on their operands' GPU
    # (test_multi_device.py); with one GPU, always current, they run as they are, without the
    # 1-4 us per call of asking CUDA which GPU is current.
    cupy = pytest.importorskip("cupy")

    if not xp.devices(backend="cupy"):
        pytest.skip("no CuPy GPU here")
    backend = xp.Device("cupy:0")._backend
    if cupy.cuda.runtime.getDeviceCount() != 1:
        assert backend.getitem is not None  # indexing on the operand's GPU
        return
    assert backend.getitem is None  # the plain (C) path indexes
    x = xp.arange(4.0, device="cupy:0")
    assert xp.to_numpy(x[1:] + x[:-1]).tolist() == [1.0, 3.0, 5.0]
