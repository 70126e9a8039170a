"""The default dtype policy: one default float and integer on every device."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading

import pytest

import arraymux as xp
from _task_checks import interleave


@pytest.fixture(autouse=True)
def _no_policy():
    xp.set_default_dtypes()
    yield
    xp.set_default_dtypes()


def _made(device: xp.Device) -> dict[str, xp.DType]:
    return {
        "zeros": xp.zeros(2, device=device).dtype,
        "ones": xp.ones((1, 2), device=device).dtype,
        "empty": xp.empty(2, device=device).dtype,
        "eye": xp.eye(2, device=device).dtype,
        "linspace": xp.linspace(0, 1, 3, device=device).dtype,
        "full float": xp.full(2, 0.5, device=device).dtype,
        "full int": xp.full(2, 3, device=device).dtype,
        "arange int": xp.arange(3, device=device).dtype,
        "arange float": xp.arange(0, 1, 0.5, device=device).dtype,
        "asarray float": xp.asarray([1.5, 2.0], device=device).dtype,
        "asarray int": xp.asarray([[1, 2]], device=device).dtype,
        "asarray complex": xp.asarray(1 + 2j, device=device).dtype,
        "fft.fftfreq": xp.fft.fftfreq(4, device=device).dtype,
        "fft.rfftfreq": xp.fft.rfftfreq(4, d=0.5, device=device).dtype,
        "bound fft.fftfreq": xp.namespace(device=device).fft.fftfreq(4).dtype,
    }


def test_policy_gives_every_device_one_default(device):
    with xp.default_dtypes(real_floating=xp.float32, integral="int32") as policy:
        assert policy == (xp.float32, xp.int32)
        info = xp.__array_namespace_info__().default_dtypes(device=device)
        assert (info["real floating"], info["integral"]) == (xp.float32, xp.int32)
        assert info["complex floating"] == xp.complex64
        made = _made(device)
    for name, dt in made.items():
        want = xp.complex64 if "complex" in name else xp.int32 if "int" in name else xp.float32
        assert dt == want, f"{name} on {device} made {dt}"
    # What the policy does not decide stays as it was.
    with xp.default_dtypes(real_floating="float32"):
        assert xp.full(2, True, device=device).dtype == xp.bool
        assert xp.asarray(xp.asarray([1.0], dtype=xp.float32, device=device)).dtype == xp.float32


def test_float64_where_the_device_holds_it(device):
    own = xp.__array_namespace_info__().default_dtypes(device=device)
    with xp.default_dtypes(real_floating="float64", integral="int64"):
        info = xp.__array_namespace_info__().default_dtypes(device=device)
        made = xp.zeros(2, device=device).dtype
    expected = xp.float64 if device.supports(xp.float64) else own["real floating"]
    assert info["real floating"] == expected == made
    assert info["integral"] == (xp.int64 if device.supports(xp.int64) else own["integral"])


def test_setter_and_context_and_restore():
    assert xp.get_default_dtypes() == (None, None)
    xp.set_default_dtypes(real_floating="float32")
    assert xp.zeros(1).dtype == xp.float32
    with xp.default_dtypes(real_floating="float64"):  # the innermost setting wins
        assert xp.zeros(1).dtype == xp.float64
    assert xp.zeros(1).dtype == xp.float32
    xp.set_default_dtypes()
    assert xp.zeros(1).dtype == xp.float64


def test_context_is_per_thread():
    seen = []

    def other():
        seen.append(xp.zeros(1, device="numpy").dtype)

    with xp.default_dtypes(real_floating="float32"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [xp.float64]


def _float_of(device: xp.Device, policy: str | None) -> xp.DType:
    """The float dtype creation functions give on ``device`` under ``policy``."""
    own = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    return own if policy is None or not device.supports(xp.DType(policy)) else xp.DType(policy)


def test_asyncio_tasks_each_see_their_own_block(device):
    """Blocks of tasks that interleave (awaits inside each block; ``a`` enters first and
    leaves first) neither leak into each other nor outlive themselves."""
    seen: dict[str, list[xp.DType]] = {"a": [], "b": [], "outside": []}

    def look(name):
        seen[name] += [xp.zeros(1, device=device).dtype, xp.get_default_dtypes()[0]]

    interleave(
        lambda: xp.default_dtypes(real_floating="float32"),
        lambda: xp.default_dtypes(real_floating="float64"),
        look,
    )
    assert seen["a"] == [_float_of(device, "float32"), xp.float32]
    assert seen["b"] == [_float_of(device, "float64"), xp.float64]
    assert seen["outside"] == [_float_of(device, None), None]
    # No block's policy stays behind once every block closed, whatever order they closed in.
    assert xp.get_default_dtypes() == (None, None)
    xp.set_default_dtypes(integral="int64")
    assert xp.zeros(1, device=device).dtype == _float_of(device, None)
    assert xp.get_default_dtypes() == (None, xp.int64)


def test_tasks_and_threads_see_the_process_policy_outside_their_blocks():
    xp.set_default_dtypes(real_floating="float32")

    async def in_task():
        return xp.zeros(1, device="numpy").dtype

    seen = []
    barrier = threading.Barrier(2)

    def in_thread(policy):
        if policy is None:
            barrier.wait()
            barrier.wait()
            seen.append(("none", xp.zeros(1, device="numpy").dtype))
            return
        with xp.default_dtypes(real_floating=policy):
            barrier.wait()  # the other thread looks while this block is open
            barrier.wait()
            seen.append((policy, xp.zeros(1, device="numpy").dtype))

    threads = [threading.Thread(target=in_thread, args=(p,)) for p in ("float64", None)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen, key=str) == [("float64", xp.float64), ("none", xp.float32)]
    assert asyncio.run(in_task()) == xp.float32
    with xp.default_dtypes(real_floating="float64"):
        assert asyncio.run(in_task()) == xp.float64  # a task copies the context it starts in


def test_a_task_started_in_a_block_keeps_its_policy():
    """As for the default device: a task copies the context it is started in."""
    from arraymux import _default_dtypes

    async def later():
        await asyncio.sleep(0.01)
        return xp.zeros(1, device="numpy").dtype

    async def main():
        with xp.default_dtypes(real_floating="float32"):
            task = asyncio.create_task(later())
        assert xp.zeros(1, device="numpy").dtype == xp.float64
        return await task

    assert asyncio.run(main()) == xp.float32
    xp.zeros(1)  # the environment read: the creation functions' fast check is off again
    assert not _default_dtypes.active


def test_policy_never_narrows_data_silently():
    with xp.default_dtypes(integral="int32"), pytest.raises(OverflowError):
        xp.asarray([2**40], device="numpy")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"real_floating": "int8"}, "real_floating must be one of float32, float64"),
        ({"real_floating": float}, "real_floating must be one of"),
        ({"integral": xp.uint8}, "integral must be one of int32, int64"),
    ],
)
def test_bad_policy_is_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        xp.set_default_dtypes(**kwargs)
    with pytest.raises(ValueError, match=match), xp.default_dtypes(**kwargs):
        pass


@pytest.mark.parametrize(
    "value, out",
    [("float32", "float32 int64"), ("float32,int32", "float32 int32"), ("int32", "float64 int32")],
)
def test_environment_variable(value, out):
    code = "import arraymux as xp; print(xp.zeros(1).dtype.name, xp.arange(2).dtype.name)"
    env = os.environ | {"ARRAYMUX_DEFAULT_DTYPES": value}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.stdout.split() == out.split(), res.stderr


ENV_READERS = {
    "get_default_dtypes": "xp.get_default_dtypes()[0]",
    "zeros": "xp.zeros(1).dtype",
    "info": "xp.__array_namespace_info__().default_dtypes()['real floating']",
    "fftfreq": "xp.fft.fftfreq(2).dtype",
}


@pytest.mark.parametrize("first", ENV_READERS)
def test_environment_is_read_once_by_every_reader(first):
    """Read when arraymux is imported: set later, the variable changes nothing, for every
    reader alike, until ``set_default_dtypes()`` reads it again."""
    readers = [ENV_READERS[first]] + [r for n, r in ENV_READERS.items() if n != first]
    look = f"print(str([{', '.join(readers)}]).count('float32'))"
    code = "\n".join(
        [
            "import os",
            "import arraymux as xp",
            "os.environ['ARRAYMUX_DEFAULT_DTYPES'] = 'float32'",
            look,
            "xp.set_default_dtypes()",
            look,
            "os.environ['ARRAYMUX_DEFAULT_DTYPES'] = 'float64'",
            look,
        ]
    )
    env = {k: v for k, v in os.environ.items() if k != "ARRAYMUX_DEFAULT_DTYPES"}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.stdout.split() == ["0", "4", "4"], res.stderr


def test_environment_variable_rejects_nonsense():
    code = "import arraymux as xp; xp.zeros(1)"
    env = os.environ | {"ARRAYMUX_DEFAULT_DTYPES": "float32,float64"}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.returncode != 0 and "at most one float dtype" in res.stderr


def test_a_transform_of_numpy_arrays_leaves_other_threads_their_defaults():
    """While a transform of NumPy arrays runs on one thread (torch computes it, with NumPy's
    defaults), another thread's torch arrays keep torch's float32, and NumPy's transform sees
    float64 throughout; once it ends (an error included) nothing of it stays in force."""
    pytest.importorskip("torch")
    from arraymux import _default_dtypes

    inside, release = threading.Event(), threading.Event()
    seen = []

    def f(v):
        seen.append(xp.asarray(0.1).dtype)
        inside.set()
        assert release.wait(10)
        seen.append(xp.asarray(0.1).dtype)
        return xp.sum(v)

    worker = threading.Thread(target=lambda: xp.grad(f)(xp.asarray([1.0, 2.0])))
    worker.start()
    try:
        assert inside.wait(10)
        assert _default_dtypes.active  # (the policy path runs while the transform does)
        other = _made(xp.Device("torch:cpu"))
        assert set(other.values()) <= {xp.float32, xp.complex64, xp.int64}, other
        assert xp.asarray(0.1, device="torch:cpu").dtype == xp.float32
        assert (
            xp.__array_namespace_info__().default_dtypes(device="torch:cpu")["real floating"]
            == xp.float32
        )
    finally:
        release.set()
        worker.join(10)
    assert seen == [xp.float64, xp.float64]
    assert not _default_dtypes.active and _default_dtypes._bridged_runs == 0

    def fails(v):
        raise KeyError("inside")

    with pytest.raises(KeyError):
        xp.grad(fails)(xp.asarray([1.0]))
    assert not _default_dtypes.active and _default_dtypes._bridged_runs == 0
    assert xp.asarray(0.1, device="torch:cpu").dtype == xp.float32
