"""No crash, no hang, no silent wrong answer under hostile input, and no race on first use.

The crash reproducers and the fuzz suite run in subprocesses: a segfault there fails one test.
``ARRAYMUX_FUZZ_EXAMPLES`` (default 300 per mode) and ``ARRAYMUX_RACE_RUNS`` (default 5) raise
the counts for a heavier run, e.g. ``ARRAYMUX_FUZZ_EXAMPLES=20000 ARRAYMUX_RACE_RUNS=100``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import arraymux as xp
from _child import mode_env
from arraymux import _compiled

HERE = Path(__file__).parent
FUZZ_EXAMPLES = int(os.environ.get("ARRAYMUX_FUZZ_EXAMPLES", "300"))
RACE_RUNS = int(os.environ.get("ARRAYMUX_RACE_RUNS", "5"))
BACKENDS = {d.backend for d in xp.devices()}

needs_compiled = pytest.mark.skipif(
    not _compiled.ENABLED, reason="the compiled extension is not built"
)


def _run(code: str, *, pure: bool = False, env: dict[str, str] | None = None, timeout: int = 120):
    full_env = mode_env(pure)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
    )


# -- crashes of the compiled path: each must raise (or work) as the Python twin does ----------

CRASHERS = {
    "dtype property deletes an operand's slots": """
        import numpy as np, arraymux as xp
        x1 = xp.asarray(np.zeros(3)); x1.dtype
        class Evil(np.ndarray):
            @property
            def dtype(self):
                try:
                    del x1._native
                except AttributeError:
                    pass
                return np.dtype("float64")
        for _ in range(3):
            try:
                xp.add(x1, xp.asarray(np.zeros(3).view(Evil)))
            except AttributeError:
                pass
        print("survived")
    """,
    "a dict key's __hash__ empties a list the tree walk is reading": """
        import arraymux as xp
        x = xp.asarray([1.0, 2.0], device="torch:cpu")
        victim = [x, x, x, x]
        class Key:
            def __hash__(self):
                victim.clear()
                return 1
            def __eq__(self, other):
                return self is other
        tree = ({Key(): x}, victim)
        for t in (xp.jit(lambda t: t[1]), xp.vmap(lambda t: t[1])):
            try:
                t(tree)
            except Exception:
                pass
        try:
            xp.grad(lambda t: xp.sum(t[0][next(iter(t[0]))]))(tree)
        except Exception:
            pass
        print("survived")
    """,
    "where: a dtype property deletes the other operands' slots": """
        import numpy as np, arraymux as xp
        c = xp.asarray(np.array([True, False]))
        x1 = xp.asarray(np.zeros(2)); x1.dtype
        class Evil(np.ndarray):
            @property
            def dtype(self):
                for a in (c, x1):
                    try:
                        del a._native
                    except AttributeError:
                        pass
                return np.dtype("float64")
        for args in ((x1, "evil"), ("evil", x1), ("evil", 0.5)):
            x2 = xp.asarray(np.zeros(2).view(Evil))
            try:
                xp.where(c, *[x2 if a == "evil" else a for a in args])
            except (AttributeError, TypeError):
                pass
            c = xp.asarray(np.array([True, False])); x1 = xp.asarray(np.zeros(2))
        print("survived")
    """,
    "Array._device rebound to a string": """
        import numpy as np, arraymux as xp
        a = xp.asarray(np.zeros(3))
        a._device = "numpy"
        for f in (
            xp.sin,
            lambda a: xp.add(a, a),
            lambda a: xp.sum(a, axis=0),
            lambda a: a + 1,
            lambda a: xp.where(a > 0, a, a),
        ):
            try:
                f(a)
            except Exception:
                pass
        print("survived")
    """,
    "operands of two dtype objects of one dtype (array-api-strict)": """
        import arraymux as xp
        x = xp.asarray([1.0, 2.0], device="array_api_strict")
        y = xp.asarray([1.0, 2.0], device="array_api_strict")
        for _ in range(1000):
            x + y
            xp.sin(x)
            xp.sum(x, axis=0)
        import gc; gc.collect()
        print("survived")
    """,
}


@needs_compiled
@pytest.mark.parametrize("name", list(CRASHERS))
def test_compiled_path_does_not_crash(name):
    if "torch" in CRASHERS[name] and "torch" not in BACKENDS:
        pytest.skip("torch is not installed")
    if "array_api_strict" in CRASHERS[name] and "array_api_strict" not in BACKENDS:
        pytest.skip("array-api-strict is not installed")
    r = _run(CRASHERS[name])
    assert r.returncode == 0, r.stderr[-3000:]
    assert "survived" in r.stdout


# -- silent wrong answers -----------------------------------------------------------------------


def test_numpy_scalar_keeps_the_array_dtype(device):
    a = xp.asarray([1.0, 2.0], dtype=xp.float32, device=device)
    for r in (a * np.float64(1.5), np.float64(1.5) * a, a * np.sqrt(2.0), a + np.float32(1)):
        assert r.dtype is xp.float32
        assert xp.to_numpy(r).dtype == np.float32
    i = xp.asarray([1, 2], dtype=xp.int32, device=device)
    assert (i * np.int64(2)).dtype is xp.int32
    assert (np.int64(2) * i).dtype is xp.int32
    assert xp.to_numpy(i * np.int64(2)).tolist() == [2, 4]
    assert float(a[np.int64(1)]) == 2.0


def test_numpy_scalar_of_another_kind_follows_the_standard():
    i = xp.asarray([1, 2], dtype=xp.int32)
    for py, scalar in ((1j, np.complex128(1j)), (1.5, np.float64(1.5)), (True, np.bool_(True))):
        assert (i * scalar).dtype == (i * py).dtype
        assert (scalar * i).dtype == (py * i).dtype


@pytest.mark.skipif("jax" not in BACKENDS, reason="needs jax")
def test_jax_without_x64_refuses_big_integers_instead_of_narrowing():
    import jax

    if jax.config.read("jax_enable_x64"):
        pytest.skip("x64 is on")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"arraymux\.arange"):
        xp.arange(2**40, 2**40 + 3, device="jax:cpu")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"arraymux\.full"):
        xp.full((2,), 2**40, device="jax:cpu")
    with pytest.raises(OverflowError, match=r"arraymux\.asarray"):
        xp.asarray([2**40], device="jax:cpu")
    with pytest.raises(OverflowError, match=r"arraymux\.full"):
        xp.full((2,), 2**70, device="numpy")


@pytest.mark.skipif(not {"jax", "torch"} <= BACKENDS, reason="needs jax and torch")
def test_torch_view_of_a_jax_array_cannot_change_it():
    j = xp.asarray([1.0, 2.0], device="jax:cpu")
    t = xp.to_device(j, "torch:cpu")
    t[0] = 99.0
    assert xp.to_numpy(j).tolist() == [1.0, 2.0]
    assert xp.to_numpy(t).tolist() == [99.0, 2.0]


def test_in_place_never_changes_the_shape(device):
    a = xp.asarray([1.0], dtype=xp.float32, device=device)
    b = xp.asarray([[1.0], [2.0]], dtype=xp.float32, device=device)
    with pytest.raises(ValueError, match=r"arraymux.add: x \+= y would change the shape"):
        a += b
    assert a.shape == (1,)


def test_in_place_on_empty_arrays(device):
    a = xp.zeros((0, 3), dtype=xp.float32, device=device)
    a -= xp.zeros((0, 3), dtype=xp.float32, device=device)
    a **= xp.ones((0, 3), dtype=xp.float32, device=device)
    assert a.shape == (0, 3)


@pytest.mark.parametrize(
    "make",
    [
        lambda d: xp.asinh(xp.asarray([True, False], device=d)),
        lambda d: xp.sin(xp.asarray([1, 2], dtype=xp.int8, device=d)),
    ],
    ids=["asinh(bool)", "sin(int8)"],
)
def test_no_nonstandard_result_dtype(device, make):
    # The standard leaves these undefined; a result must still carry a dtype of the standard.
    try:
        r = make(device)
    except TypeError as e:
        assert "arraymux." in str(e)
        return
    native = device._backend.dtype_from_native(r._native.dtype)
    assert r.dtype == native
    assert xp.isdtype(r.dtype, "real floating")


@pytest.mark.parametrize(
    "call",
    [
        lambda: xp.asarray(np.array(["a"])),
        lambda: xp.full((2,), None),
        lambda: xp.sum(np.array([1, None], dtype=object)),
        lambda: xp.asarray(np.array([1, None], dtype=object)),
    ],
    ids=["str array", "full None", "sum object", "object array"],
)
def test_nonstandard_dtypes_are_refused(call):
    with pytest.raises((TypeError, ValueError), match=r"arraymux"):
        call()


def test_unknown_keywords_are_refused(device):
    x = xp.asarray([1.0, 5.0, 9.0], device=device)
    with pytest.raises(TypeError, match=r"arraymux\.clip: unexpected keyword argument 'minimum'"):
        xp.clip(x, minimum=2.0, maximum=6.0)


def test_keyword_only_parameters_are_keyword_only_everywhere(device):
    """Keyword-only, except where every backend takes the parameter by position (sum's axis,
    as NumPy, PyTorch, JAX and CuPy do): the same on every device."""
    x = xp.asarray([1.0, 5.0, 9.0], device=device)
    with pytest.raises(TypeError, match=r"arraymux.sum: takes 2 positional argument.*dtype="):
        xp.sum(x, 0, None)
    with pytest.raises(TypeError, match=r"arraymux.cumulative_sum: takes 1 positional argument"):
        xp.cumulative_sum(x, 0)
    assert float(xp.sum(x, 0)) == float(xp.sum(x, axis=0)) == 15.0


@pytest.mark.skipif("dask" not in BACKENDS, reason="needs dask")
def test_foreign_arrays_are_refused_as_parameters():
    reps = xp.asarray([2], device="dask")._native
    with pytest.raises(TypeError, match=r"arraymux\.tile"):
        xp.tile(xp.asarray([1, 2]), reps)
    with pytest.raises(TypeError, match=r"arraymux\.roll: shift must be .* 0-d array"):
        xp.roll(xp.asarray([1, 2]), shift=reps)
    # A 0-d array is read as the int every backend takes for shift (SciPy passes them).
    assert xp.all(xp.roll(xp.asarray([1, 2]), shift=xp.asarray(1)) == xp.asarray([2, 1]))


def test_transforms_on_jax_device_1_compute_there():
    code = """
        import arraymux as xp
        x = xp.asarray([1.0, 2.0], device="jax:cpu:1")
        def f(x):
            return xp.sum(x ** 2)
        results = {
            "grad": xp.grad(f)(x),
            "hessian": xp.hessian(f)(x),
            "jacobian": xp.jacobian(lambda x: 2 * x)(x),
            "grad of sum": xp.grad(lambda x: xp.sum(x))(x),
            "jit zeros": xp.jit(lambda x: xp.zeros(3))(x),
            "vmap ones": xp.vmap(lambda x: xp.ones(3))(x),
            "value_and_grad": xp.value_and_grad(lambda x: xp.sum(x))(x)[1],
            "checkpoint": xp.grad(xp.checkpoint(lambda x: xp.sum(x)))(x),
        }
        for name, r in results.items():
            where = [d.id for d in r._native.devices()]
            assert str(r.device) == "jax:cpu:1", (name, r.device)
            assert where == [1], (name, where)
        print("ok")
    """
    if "jax" not in BACKENDS:
        pytest.skip("needs jax")
    r = _run(code, env={"XLA_FLAGS": "--xla_force_host_platform_device_count=2"})
    assert r.returncode == 0, r.stderr[-3000:]
    assert "ok" in r.stdout


# -- hangs, races, precedence -------------------------------------------------------------------


def test_diff_with_a_huge_order_returns(device):
    x = xp.asarray([1.0, 4.0, 9.0], device=device)
    r = xp.diff(x, n=2**40)
    assert r.shape == (0,)
    with pytest.raises(ValueError, match=r"arraymux\.diff"):
        xp.diff(x, n=-1)


RACE = """
    import sys, threading
    import arraymux as xp
    barrier = threading.Barrier(8)
    out = []
    def first_use():
        barrier.wait()
        out.append(xp.asarray([1.0, 2.0], device="{device}"))
    threads = [threading.Thread(target=first_use) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert len(out) == 8
    assert len({{id(a.device) for a in out}}) == 1, {{id(a.device) for a in out}}
    total = out[0]
    for a in out[1:]:
        total = total + a
    assert float(xp.sum(total)) == 24.0
    print("ok")
"""


@pytest.mark.parametrize("device", ["torch:cpu", "jax:cpu", "numpy", "dask"])
def test_first_use_from_many_threads_makes_one_device(device):
    if xp.Device.__name__ and device.split(":")[0] not in BACKENDS:
        pytest.skip(f"{device} is not installed")
    for _ in range(RACE_RUNS):
        r = _run(RACE.format(device=device))
        assert r.returncode == 0, r.stderr[-3000:]
        assert "ok" in r.stdout


def test_innermost_with_wins_over_set_default_device():
    with xp.default_device("array_api_strict" if "array_api_strict" in BACKENDS else "numpy"):
        inner = xp.zeros(1).device
        xp.set_default_device("numpy")
        assert xp.zeros(1).device == inner
    assert xp.zeros(1).device == xp.Device("numpy")


@pytest.mark.parametrize("device", ["jax:cpu", "numpy", "torch:cpu"])
def test_overflowing_shapes_raise(device):
    if device.split(":")[0] not in BACKENDS:
        pytest.skip(f"{device} is not installed")
    for call in (
        lambda: xp.zeros((2**32, 2**32), device=device),
        lambda: xp.ones((2**40, 2**40, 2**40), device=device),
        lambda: xp.empty((2**63,), device=device),
    ):
        with pytest.raises((ValueError, MemoryError, OverflowError), match=r"arraymux"):
            call()


def test_reshape_resolves_minus_one_or_says_why(device):
    # -1 beside a size 0 could be any size: NumPy and torch refused it, JAX and Dask divided
    # by zero. One ValueError everywhere; the sizes -1 resolves stay as before.
    x = xp.zeros((0, 3), dtype=xp.float32, device=device)
    for shape in [(0, -1), (-1, 0), (3, 0, -1)]:
        with pytest.raises(ValueError, match=r"arraymux.reshape: shape .* -1 beside a size 0"):
            xp.reshape(x, shape)
    assert xp.reshape(x, (3, 0)).shape == (3, 0)
    y = xp.reshape(xp.arange(12, dtype=xp.float32, device=device), (2, -1, 3))
    assert y.shape == (2, 2, 3)
    assert xp.to_numpy(y).tolist() == np.arange(12.0).reshape(2, 2, 3).tolist()
    with pytest.raises(ValueError, match=r"arraymux\.reshape.* 12"):
        xp.reshape(y, (5, -1))


# -- errors a user can act on -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda x: xp.sum(x, axis="abc"), "arraymux.sum"),
        (lambda x: xp.sum(x, axis=5), "arraymux.sum"),
        (lambda x: xp.broadcast_shapes({"a": 1}), "arraymux.broadcast_shapes"),
        (lambda x: xp.reshape(x, (2, "a")), "arraymux.reshape"),
        (lambda x: xp.linalg.inv(xp.asarray([[1.0, 2.0], [2.0, 4.0]], device=x.device)), None),
        (lambda x: xp.expand_dims(x, axis=7), "arraymux.expand_dims"),
        (lambda x: xp.moveaxis(x, 0, 9), "arraymux.moveaxis"),
    ],
    ids=["axis str", "axis range", "shapes dict", "shape str", "singular", "expand", "moveaxis"],
)
def test_argument_mistakes_name_the_function(device, call, pattern):
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    try:
        call(x)
    except (TypeError, ValueError, IndexError, xp.ArraymuxError) as e:
        if pattern is not None:
            assert pattern in str(e)
    except Exception as e:  # pragma: no cover - the failure itself
        pytest.fail(f"{type(e).__name__} leaked: {e}")


def test_axis_errors_are_value_and_index_errors():
    x = xp.asarray([1.0, 2.0])
    with pytest.raises(IndexError):
        xp.sum(x, axis=3)
    with pytest.raises(ValueError):
        xp.sum(x, axis=3)


# -- the fuzz suite -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["compiled", "pure"])
def test_fuzz_every_public_function(mode, tmp_path):
    if mode == "compiled" and not _compiled.ENABLED:
        pytest.skip("the compiled extension is not built")
    log = tmp_path / "cases.txt"
    cmd = [
        sys.executable,
        "-X",
        "faulthandler",
        str(HERE / "fuzz_worker.py"),
        "--examples",
        str(FUZZ_EXAMPLES),
        "--seed",
        os.environ.get("ARRAYMUX_FUZZ_SEED", "0"),
        "--log",
        str(log),
    ]
    env = mode_env(mode == "pure")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60 + FUZZ_EXAMPLES)
    except subprocess.TimeoutExpired:
        last = log.read_text().splitlines()[-1:] if log.exists() else []
        pytest.fail(f"the fuzz run hung; last case: {last}")
    if r.returncode != 0:
        last = log.read_text().splitlines()[-1:] if log.exists() else []
        pytest.fail(
            f"the fuzz run crashed (rc {r.returncode}); last case {last}\n{r.stderr[-3000:]}"
        )
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert report["cases"] >= FUZZ_EXAMPLES // 2
    assert not report["wrong"], report["wrong"][:10]
    assert not report["internal"], report["internal"][:10]
    named = report["named"] / max(report["errors"], 1)
    assert named >= 0.95, (named, report["unnamed"][:20])
    # ... as arraymux.<name>, or in Python's own signature errors (<name>() takes ...)
    in_form = report["named_in_form"] / max(report["errors"], 1)
    assert in_form >= 0.95, (in_form, report["unnamed_in_form"][:20])
