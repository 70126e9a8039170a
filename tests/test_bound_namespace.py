"""The namespace of an array is bound to its device: what a library receives from
``array_namespace(x)`` creates its arrays beside ``x``."""

from __future__ import annotations

import subprocess
import sys

import array_api_compat
import numpy as np
import pytest

import arraymux as xp

CREATION = [
    ("asarray", lambda ns: ns.asarray([1.0, 2.0])),
    ("asarray of a scalar", lambda ns: ns.asarray(0.0)),
    ("asarray of a host array", lambda ns: ns.asarray(np.ones(3))),
    ("zeros", lambda ns: ns.zeros((2, 3))),
    ("ones", lambda ns: ns.ones(3)),
    ("empty", lambda ns: ns.empty(3)),
    ("full", lambda ns: ns.full(3, 2.0)),
    ("eye", lambda ns: ns.eye(3)),
    ("arange", lambda ns: ns.arange(4)),
    ("linspace", lambda ns: ns.linspace(0.0, 1.0, 5)),
    ("fft.fftfreq", lambda ns: ns.fft.fftfreq(4)),
    ("fft.rfftfreq", lambda ns: ns.fft.rfftfreq(4)),
]


@pytest.fixture
def other(device):
    """A device of another backend than ``device``."""
    return xp.Device("numpy") if device._name != "numpy" else xp.Device("torch:cpu")


def test_one_namespace_per_device(device):
    x = xp.asarray([1.0], device=device)
    ns = x.__array_namespace__()
    assert ns is xp.asarray([2.0, 3.0], device=device).__array_namespace__()
    assert ns is xp.namespace(device=device) is xp.namespace(device=str(device))
    assert ns is x.__array_namespace__(api_version="2025.12")
    assert ns.__array_api_version__ == "2025.12"
    assert array_api_compat.array_namespace(x, xp.zeros(2, device=device)) is ns
    assert str(device) in ns.__name__


def test_two_devices_are_two_namespaces(device, other):
    pytest.importorskip(other._name)
    a, b = xp.ones(2, device=device), xp.ones(2, device=other)
    assert a.__array_namespace__() is not b.__array_namespace__()
    with pytest.raises(TypeError, match="Multiple namespaces"):
        array_api_compat.array_namespace(a, b)


@pytest.mark.parametrize("name, make", CREATION, ids=[c[0] for c in CREATION])
def test_creation_defaults_to_the_device(device, name, make):
    ns = xp.ones(1, device=device).__array_namespace__()
    try:
        out = make(ns)
    except xp.UnsupportedDTypeError:
        pytest.skip(f"{device} cannot hold the dtype")
    assert out.device == device
    # Checked by the native array too, not only by the label.
    assert xp.asarray(out.native).device == device


def test_global_namespace_keeps_the_default_device(device):
    xp.ones(1, device=device).__array_namespace__()
    assert xp.ones(2).device == xp.get_default_device()
    with xp.default_device(device):
        assert xp.ones(2).device == device


def test_explicit_device_wins(device, other):
    pytest.importorskip(other._name)
    ns = xp.namespace(device=device)
    assert ns.zeros(2, device=other).device == other
    assert ns.asarray([1.0], device=other).device == other


def test_asarray_of_an_array_stays_where_it_is(device, other):
    pytest.importorskip(other._name)
    y = xp.asarray([1.0, 2.0], dtype=xp.float32, device=other)
    assert xp.namespace(device=device).asarray(y).device == other


def test_asarray_of_a_foreign_native_array_moves_to_the_device(device):
    ns = xp.namespace(device=device)
    out = ns.asarray(np.arange(3, dtype=np.float32))
    assert out.device == device
    np.testing.assert_array_equal(xp.to_numpy(out), [0.0, 1.0, 2.0])


def test_default_dtype_is_the_devices(device):
    ns = xp.namespace(device=device)
    info = ns.__array_namespace_info__()
    defaults = info.default_dtypes()
    assert defaults == xp.__array_namespace_info__().default_dtypes(device=device)
    assert ns.asarray(0.0).dtype is defaults["real floating"]
    assert ns.asarray(0).dtype is defaults["integral"]
    assert ns.zeros(1).dtype is defaults["real floating"]
    assert info.default_device() == device
    assert set(info.dtypes()) == set(xp.__array_namespace_info__().dtypes(device=device))
    assert all(d._name == device._name for d in info.devices())
    assert device in info.devices()


def test_capabilities_answer_for_the_device(device):
    """The backend's own capabilities (as its namespace states them), none on lazy backends:
    clients then take for an Array the path they take for the backend's arrays."""
    caps = xp.namespace(device=device).__array_namespace_info__().capabilities()
    native = device._backend.ns.__array_namespace_info__().capabilities()
    eager = not device._backend.spec.lazy
    for name in ("boolean indexing", "data-dependent shapes"):
        assert caps[name] is (eager and native[name])
    assert caps["max dimensions"] == native["max dimensions"]
    if device.backend in ("jax", "dask"):  # jax.numpy says no (jax.jit cannot); Dask is lazy
        assert not caps["boolean indexing"] and not caps["data-dependent shapes"]
    if device.backend in ("numpy", "torch", "cupy"):
        assert caps["boolean indexing"] and caps["data-dependent shapes"]


def test_other_functions_are_arraymux_own(device):
    ns = xp.namespace(device=device)
    assert ns.add is xp.add and ns.sum is xp.sum and ns.linalg.matmul is xp.linalg.matmul
    assert ns.fft.fft is xp.fft.fft
    assert ns.float32 is xp.float32 and ns.pi == xp.pi
    assert set(ns.__all__) == set(xp.__all__)


def test_2024_12_namespace_is_bound_too(device):
    x = xp.ones(2, device=device)
    ns = x.__array_namespace__(api_version="2024.12")
    assert ns is xp.namespace("2024.12", device=device)
    assert ns.__array_api_version__ == "2024.12"
    assert not hasattr(ns, "isin") and not hasattr(ns.linalg, "eig")
    assert ns.ones(2).device == device
    assert isinstance(ns.__array_namespace_info__().devices(), list)


def test_bad_version_and_device():
    with pytest.raises(ValueError, match=r"2024\.12, 2025\.12"):
        xp.asarray([1]).__array_namespace__(api_version="2021.12")
    with pytest.raises(ValueError, match=r"arraymux\.namespace"):
        xp.namespace(device="nosuchbackend")
    # (an array compared with a version string gave NumPy's "truth value ... is ambiguous")
    for version in (np.zeros(3), 2024.12):
        with pytest.raises(TypeError, match=r"arraymux\.namespace: api_version must be"):
            xp.namespace(version)
        with pytest.raises(TypeError, match=r"api_version must be"):
            xp.asarray([1]).__array_namespace__(api_version=version)


def test_client_fallback_through_numpy_comes_back_on_the_device(device):
    """What SciPy does where it has no array-API path: compute in NumPy, hand back with
    ``xp.asarray``."""
    x = xp.asarray([3.0, 1.0, 2.0], dtype=xp.float32, device=device)
    ns = array_api_compat.array_namespace(x)
    out = ns.asarray(np.sort(xp.to_numpy(x)))
    assert out.device == device
    assert ns.all(out == xp.sort(x))


# Threads race on the first __array_namespace__() of each device and version: the first call
# makes the namespace, so only a fresh interpreter races on it.
_RACE = """
import sys, threading
import arraymux as xp

sys.setswitchinterval(1e-6)  # switch threads as often as possible
N = 8
arrays = [xp.asarray([1.0], device=d) for d in ("numpy", "array_api_strict", "array_api_strict:device1")]
barrier = threading.Barrier(N)
keys = [(x, v) for x in arrays for v in (None, "2024.12")]
seen = {i: [] for i in range(len(keys))}

def race():
    for i, (x, version) in enumerate(keys):
        barrier.wait()
        seen[i].append(x.__array_namespace__(api_version=version))

threads = [threading.Thread(target=race) for _ in range(N)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(max(len({id(ns) for ns in out}) for out in seen.values()))
"""


def test_concurrent_first_calls_make_one_namespace():
    """The docstring's promise, one namespace object per device and version, holds when the
    first calls come from several threads at once (a few fresh interpreters, in parallel)."""
    runs = [
        subprocess.Popen([sys.executable, "-c", _RACE], stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outs = [run.communicate(timeout=120)[0].split() for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert outs == [["1"]] * len(runs)
