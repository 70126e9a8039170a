"""arraymux.on_device: calls across devices and engines, with derivatives through them.

Every derivative is checked against central finite differences of the same function computed
on NumPy in float64. The GPU pairs run where the devices exist and skip elsewhere.
"""

from __future__ import annotations

import functools
import importlib.util

import numpy as np
import pytest

import arraymux as xp

pytestmark = [
    # torch.func.jvp and torch.compile load torch modules that warn about torch.jit.script.
    pytest.mark.filterwarnings(
        "ignore:`torch.jit.script(_method)?` is deprecated:DeprecationWarning"
    ),
    pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated:FutureWarning"),
]

HAVE_TORCH = importlib.util.find_spec("torch") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None


def _exists(spec: str) -> bool:
    try:
        xp.Device(spec)
    except (xp.BackendUnavailableError, ValueError):
        return False
    return True


# (caller, target): every pair of engines, the bridges and the moves within one engine.
_PAIRS = [
    ("torch:cpu", "jax:cpu"),
    ("jax:cpu", "torch:cpu"),
    ("numpy", "jax:cpu"),
    ("jax:cpu", "numpy"),
    ("numpy", "torch:cpu"),
    ("torch:cpu", "numpy"),
    ("torch:cuda", "jax:gpu"),
    ("jax:gpu", "torch:cuda"),
    ("cupy", "jax:gpu"),
    ("jax:gpu", "cupy"),
    ("torch:cpu", "torch:cuda"),
    ("jax:cpu", "jax:gpu"),
    ("torch:cuda", "jax:cpu"),
]
PAIRS = [
    pytest.param(
        c,
        t,
        id=f"{c}->{t}",
        marks=pytest.mark.skipif(not (_exists(c) and _exists(t)), reason=f"needs {c} and {t}"),
    )
    for c, t in _PAIRS
]


def _dtype(caller: str, target: str):
    both = xp.Device(caller).supports(xp.float64) and xp.Device(target).supports(xp.float64)
    return xp.float64 if both else xp.float32


def _tol(dtype) -> dict:
    return {"rtol": 1e-6, "atol": 1e-8} if dtype == xp.float64 else {"rtol": 2e-3, "atol": 2e-4}


def physics(x, params):
    """The foreign part: a pytree in (an array and a dict), a pytree out."""
    y = xp.sin(x) * params["w"] + params["b"] ** 2
    return {"y": y, "energy": xp.sum(x * x) * params["scale"]}


def loss_of(part):
    def loss(x, w, b):
        out = part(x, {"w": w, "b": b, "scale": 0.5})
        return xp.sum(out["y"] * out["y"]) + out["energy"]

    return loss


X0 = np.array([0.3, -0.7, 1.1])
W0 = np.array([1.5, -2.0, 0.25])
B0 = np.array([0.2, 0.1, -0.4])


def _fd_grad(f, args, i, eps=1e-6):
    """Central differences of scalar ``f`` (NumPy float64) in argument ``i``."""
    g = np.zeros_like(args[i])
    for k in range(args[i].size):
        up = [a.copy() for a in args]
        dn = [a.copy() for a in args]
        up[i].flat[k] += eps
        dn[i].flat[k] -= eps
        g.flat[k] = (float(xp.to_numpy(f(*up))) - float(xp.to_numpy(f(*dn)))) / (2 * eps)
    return g


def _numpy_loss(*args):
    return loss_of(physics)(*(xp.asarray(a) for a in args))


def _args(caller, dtype):
    return [xp.asarray(a, dtype=dtype, device=caller) for a in (X0, W0, B0)]


def _close(actual, expected, dtype):
    np.testing.assert_allclose(
        np.asarray(xp.to_numpy(actual), dtype=np.float64), expected, **_tol(dtype)
    )


def _native_place(a):
    """Where the native array of ``a`` really is, in arraymux's words."""
    return xp.Device(a.native.device if hasattr(a.native, "device") else "numpy").backend


@pytest.mark.parametrize(("caller", "target"), PAIRS)
def test_value_and_every_first_order_transform_match_finite_differences(caller, target):
    dt = _dtype(caller, target)
    crossed = xp.on_device(physics, target)
    loss = loss_of(crossed)
    args = _args(caller, dt)
    want_value = float(xp.to_numpy(_numpy_loss(X0, W0, B0)))
    fd = [_fd_grad(_numpy_loss, [X0, W0, B0], i) for i in range(3)]
    caller_dev = args[0].device

    value = loss(*args)
    assert value.device == caller_dev
    _close(value, want_value, dt)

    grads = xp.grad(loss, argnums=(0, 1, 2))(*args)
    for g, want in zip(grads, fd):
        assert g.device == caller_dev
        _close(g, want, dt)

    v, g0 = xp.value_and_grad(loss)(*args)
    _close(v, want_value, dt)
    _close(g0, fd[0], dt)

    _, pull = xp.vjp(loss, *args)
    cts = pull(xp.asarray(2.0, dtype=dt, device=caller_dev))
    for c, want in zip(cts, fd):
        _close(c, 2 * want, dt)

    tangents = [xp.asarray([1.0, 0.5, -1.0], dtype=dt, device=caller_dev)] * 3
    _, t = xp.jvp(loss, args, tangents)
    _close(t, sum(f @ np.array([1.0, 0.5, -1.0]) for f in fd), dt)

    jac = xp.jacobian(lambda x: crossed(x, {"w": args[1], "b": args[2], "scale": 0.5})["y"])(
        args[0]
    )
    assert jac.device == caller_dev
    want_jac = np.diag(np.cos(X0) * W0)
    _close(jac, want_jac, dt)


@pytest.mark.parametrize(("caller", "target"), PAIRS)
def test_vmap_and_jit_through_a_crossing(caller, target):
    dt = _dtype(caller, target)
    loss = loss_of(xp.on_device(physics, target))
    args = _args(caller, dt)
    xs = xp.stack([args[0], 2 * args[0], -args[0]])
    batched = xp.vmap(loss, in_axes=(0, None, None))(xs, args[1], args[2])
    want = [float(xp.to_numpy(_numpy_loss(s * X0, W0, B0))) for s in (1, 2, -1)]
    _close(batched, want, dt)
    per_sample = xp.vmap(xp.grad(loss), in_axes=(0, None, None))(xs, args[1], args[2])
    for row, s in zip(xp.to_numpy(per_sample), (1, 2, -1)):
        np.testing.assert_allclose(row, _fd_grad(_numpy_loss, [s * X0, W0, B0], 0), **_tol(dt))
    if xp.Device(caller).backend in ("torch", "jax"):
        g = xp.jit(xp.grad(loss))(*args)
        _close(g, _fd_grad(_numpy_loss, [X0, W0, B0], 0), dt)
        _close(xp.jit(loss)(*args), float(xp.to_numpy(_numpy_loss(X0, W0, B0))), dt)


@pytest.mark.parametrize(("caller", "target"), PAIRS)
def test_second_order_raises_across_engines_and_works_within_one(caller, target):
    dt = _dtype(caller, target)
    loss = loss_of(xp.on_device(physics, target))
    args = _args(caller, dt)
    engine = {"numpy": "torch", "cupy": "torch"}
    same = engine.get(xp.Device(caller).backend, xp.Device(caller).backend) == engine.get(
        xp.Device(target).backend, xp.Device(target).backend
    )
    if same:
        h = xp.hessian(loss)(*args)
        want = xp.hessian(loss_of(physics))(
            *(xp.asarray(a, dtype=dt, device=caller) for a in (X0, W0, B0))
        )
        _close(h, xp.to_numpy(want), dt)
    else:
        with pytest.raises(xp.TransformUnavailableError, match="second derivatives"):
            xp.hessian(loss)(*args)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_aux_outputs_and_scalars_cross_too():
    def part(x, k):
        return xp.sum(x**2) * k, {"k": k, "n": 3, "first": x[0]}

    crossed = xp.on_device(part, "jax:cpu")
    x = xp.asarray([1.0, 2.0], device="torch:cpu")

    def loss(x):
        value, aux = crossed(x, 2.0)
        return value, aux

    (value, aux), g = xp.value_and_grad(loss, has_aux=True)(x)
    assert float(value) == 10.0
    assert aux["k"] == 2.0 and aux["n"] == 3
    assert aux["first"].device == xp.Device("torch:cpu") and float(aux["first"]) == 1.0
    np.testing.assert_allclose(xp.to_numpy(g), [4.0, 8.0])


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_torch_autograd_backward_flows_through_jax():
    import torch

    crossed = xp.on_device(lambda x: xp.sum(xp.sin(x)), "jax:cpu")
    t = torch.tensor([0.1, 0.2], requires_grad=True)
    out = crossed(t)  # native in, native out
    assert isinstance(out, torch.Tensor)
    out.backward()
    np.testing.assert_allclose(t.grad.numpy(), np.cos([0.1, 0.2]), rtol=1e-6)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
# dynamo reads .grad of the (non-leaf) tensor that the crossing, run outside the graph, returns
@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf:UserWarning")
def test_under_torch_compile_value_and_gradient_are_right():
    import torch

    crossed = xp.on_device(lambda x: xp.sum(xp.sin(x)), "jax:cpu")

    @torch.compile
    def model(t):
        return crossed(torch.cos(t) * 2.0) * 3.0

    t = torch.tensor([0.1, 0.2], requires_grad=True)
    out = model(t)
    out.backward()
    np.testing.assert_allclose(out.item(), 3 * np.sin(2 * np.cos([0.1, 0.2])).sum(), rtol=1e-6)
    want = 3 * np.cos(2 * np.cos([0.1, 0.2])) * 2 * -np.sin([0.1, 0.2])
    np.testing.assert_allclose(t.grad.numpy(), want, rtol=1e-5)


# Pairs whose arguments cross without a copy (a JAX array is copied into torch or CuPy,
# which could write into it). Results that nobody else holds are shared either way; out of
# JAX into torch or CuPy only where scanning JAX's live arrays costs less than the copy, so
# those pairs move a large array.
_SHARED = [
    ("torch:cpu", "jax:cpu"),
    ("numpy", "torch:cpu"),
    ("numpy", "jax:cpu"),
    ("torch:cuda", "jax:gpu"),
    ("cupy", "jax:gpu"),
    ("jax:gpu", "torch:cuda"),
    ("torch:cuda", "cupy"),
]


@pytest.mark.parametrize(
    ("caller", "target"),
    [
        pytest.param(
            c,
            t,
            id=f"{c}->{t}",
            marks=pytest.mark.skipif(not (_exists(c) and _exists(t)), reason=f"needs {c} and {t}"),
        )
        for c, t in _SHARED
    ],
)
def test_eager_crossing_shares_memory(caller, target):
    from arraymux._transfer import _data_ptr

    seen = {}

    def part(x):
        seen["in"] = _data_ptr(x.native, x.device)
        y = x * 2.0
        seen["out"] = _data_ptr(y.native, y.device)
        return y

    if caller == "numpy":  # JAX takes host memory as it is only when aligned to 64 bytes
        buf = np.zeros(256 + 16, dtype=np.float32)
        start = (-buf.ctypes.data % 64) // 4
        x = xp.asarray(buf[start : start + 256])
    elif xp.Device(target).backend == "jax":
        x = xp.zeros(1 << 23, dtype=xp.float32, device=caller)
    else:
        x = xp.zeros(256, dtype=xp.float32, device=caller)
    out = xp.on_device(part, target)(x)
    if xp.Device(caller).backend != "jax":
        assert seen["in"] == _data_ptr(x.native, x.device)  # no copy on the way in
    assert seen["out"] == _data_ptr(out.native, out.device)  # nor on the way back
    assert out.device == x.device


def _aligned_numpy(n):
    """A float32 NumPy array of ``n`` elements whose memory starts on 64 bytes (JAX takes host
    memory without a copy only then)."""
    buf = np.zeros(n + 16, dtype=np.float32)
    start = (-buf.ctypes.data % 64) // 4
    return buf[start : start + n]


def _writable_on(target, values):
    """``values`` as a writable native array of ``target`` (64-byte aligned)."""
    if target == "torch:cpu":
        import torch

        return torch.tensor(values, dtype=torch.float32)  # torch aligns to 64 bytes
    out = _aligned_numpy(len(values))
    out[...] = values
    if target == "numpy":
        return out
    import array_api_strict

    return array_api_strict.asarray(out, copy=False)


_INTO_JAX = [
    pytest.param(t, marks=pytest.mark.skipif(not _exists(t), reason=f"needs {t}"))
    for t in ("torch:cpu", "numpy", "array_api_strict")
]


@pytest.mark.skipif(not HAVE_JAX, reason="needs jax")
@pytest.mark.parametrize("target", _INTO_JAX)
@pytest.mark.parametrize("returned", ["closed over", "argument", "view"])
@pytest.mark.parametrize("call", ["eager", "inside vjp"])
def test_a_result_over_writable_memory_reaches_jax_as_a_copy(target, returned, call):
    # JAX arrays never change: a write into the target's array after the call must not show
    # in the JAX result (the crossed function did not create the array it returned).
    w = _writable_on(target, np.arange(64.0))

    def part(x, w_arg):
        if returned == "closed over":
            return xp.asarray(w)
        if returned == "argument":
            return w_arg
        return xp.asarray(w)[16:32]  # 64 bytes in: JAX could take it as it is

    crossed = xp.on_device(part, target)
    x = xp.ones(3, dtype=xp.float32, device="jax:cpu")
    out = crossed(x, w) if call == "eager" else xp.vjp(lambda x: crossed(x, w), x)[0]
    want = np.arange(16.0, 32.0) if returned == "view" else np.arange(64.0)
    np.testing.assert_array_equal(xp.to_numpy(out), want)
    w[16] = 99.0
    w[0] = 99.0
    np.testing.assert_array_equal(xp.to_numpy(out), want)
    assert out.device == x.device


@pytest.mark.skipif(not HAVE_JAX, reason="needs jax")
@pytest.mark.parametrize("target", _INTO_JAX)
def test_a_result_over_writable_memory_under_jit_is_a_copy(target):
    w = _writable_on(target, np.arange(64.0))
    crossed = xp.on_device(lambda x: xp.asarray(w) + 0 * x[0], target)
    out = xp.jit(crossed)(xp.ones(3, dtype=xp.float32, device="jax:cpu"))
    w[0] = 99.0
    np.testing.assert_array_equal(xp.to_numpy(out), np.arange(64.0))


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
@pytest.mark.parametrize("returned", ["closed over", "device_put of one", "argument"])
@pytest.mark.parametrize("call", ["eager", "inside torch.func"])
def test_a_jax_result_that_lives_on_reaches_torch_as_a_copy(returned, call):
    import jax
    import torch

    # Large enough that the live arrays are scanned instead of the result being copied.
    j = jax.numpy.arange(1 << 21, dtype=jax.numpy.float32)

    def part(x, y):
        if returned == "closed over":
            return xp.asarray(j)
        if returned == "device_put of one":  # a second array over j's buffer
            return xp.asarray(jax.device_put(j, next(iter(j.devices()))))
        return y  # a JAX array of the caller's, on the target already

    crossed = xp.on_device(part, "jax:cpu")
    t = torch.zeros(3)
    if call == "eager":
        out = crossed(t, j)
    else:
        holder = {}

        def f(t):
            holder["out"] = crossed(t, j)
            return t.sum()

        torch.func.grad(f)(t)
        out = holder["out"]
    assert isinstance(out, torch.Tensor)
    out[0] = -1.0  # torch tensors can be written
    assert float(j[0]) == 0.0
    np.testing.assert_array_equal(np.asarray(j[:3]), [0.0, 1.0, 2.0])


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_a_jax_result_reaches_numpy_read_only():
    import jax

    j = jax.numpy.arange(4.0, dtype=jax.numpy.float32)
    out = xp.on_device(lambda x: xp.asarray(j), "jax:cpu")(np.zeros(3, dtype=np.float32))
    assert isinstance(out, np.ndarray)
    if np.shares_memory(out, np.asarray(j)):
        assert not out.flags.writeable


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
@pytest.mark.parametrize(("caller", "target"), [("torch:cpu", "jax:cpu"), ("jax:cpu", "torch:cpu")])
def test_an_argument_returned_as_it_is_leaves_the_callers_array_alone(caller, target):
    t = xp.asarray(np.arange(64.0, dtype=np.float32), device=caller)
    out = xp.on_device(lambda x: x, target)(t)
    np.testing.assert_array_equal(xp.to_numpy(out), np.arange(64.0))
    if caller == "torch:cpu":  # a JAX identity gives a new value, not the caller's tensor
        out[0] = 99.0
        assert float(t[0]) == 0.0


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
@pytest.mark.parametrize("target", ["torch:cpu", "numpy"])
def test_fresh_results_still_reach_jax_without_a_copy(target):
    from arraymux._transfer import _data_ptr

    seen = {}

    def part(x):
        y = xp.asarray(np.arange(64.0, dtype=np.float32), device=target) * x[0]
        seen["out"] = _data_ptr(y.native, y.device)
        return y, {"again": y[16:] + 1.0}

    out, rest = xp.on_device(part, target)(xp.ones(3, dtype=xp.float32, device="jax:cpu"))
    if target == "numpy" and seen["out"] % 64:
        pytest.skip("NumPy's allocation is not aligned to 64 bytes: JAX copies it")
    assert _data_ptr(out.native, out.device) == seen["out"]
    np.testing.assert_array_equal(xp.to_numpy(rest["again"]), np.arange(17.0, 65.0))


def test_plain_call_moves_and_returns_to_the_first_array_device():
    crossed = xp.on_device(lambda x, y: (x + y, xp.zeros(2)), "numpy")
    a = xp.asarray([1.0, 2.0])
    s, z = crossed(a, 1.0)
    assert s.device == a.device and z.device == a.device
    # With no array argument the result stays where it was computed.
    assert xp.on_device(lambda: xp.ones(2), "numpy")().device == xp.Device("numpy")


@pytest.mark.skipif(not HAVE_TORCH, reason="needs torch")
def test_creation_inside_uses_the_target_and_natives_come_back_native():
    import torch

    def part(x):
        assert x.device == xp.Device("numpy")
        return x + xp.ones(x.shape)  # created on the target (the default device there)

    out = xp.on_device(part, "numpy")(xp.asarray(torch.tensor([1.0, 2.0])))
    assert isinstance(out, xp.Array) and out.device == xp.Device("torch:cpu")
    raw = xp.on_device(lambda x: x * 2, "numpy")(torch.tensor([1.0]))
    assert isinstance(raw, torch.Tensor)


def test_decorator_forms():
    @xp.on_device(device="numpy")
    def a(x):
        return x * 2

    b = functools.partial(xp.on_device, device="numpy")(lambda x: x * 2)
    assert float(a(xp.asarray(1.0))) == 2.0 and float(b(xp.asarray(1.0))) == 2.0
    assert a.__name__ == "a"


@pytest.mark.skipif(not HAVE_TORCH, reason="needs torch")
@pytest.mark.parametrize("target", ["dask", "array_api_strict"])
def test_targets_without_an_engine_work_outside_transforms_and_under_vmap(target):
    if not _exists(target):
        pytest.skip(f"needs {target}")
    crossed = xp.on_device(lambda x: xp.sum(x * x), target)
    x = xp.asarray([1.0, 2.0], device="torch:cpu")
    assert float(crossed(x)) == 5.0
    xs = xp.stack([x, 2 * x])
    np.testing.assert_allclose(xp.to_numpy(xp.vmap(crossed)(xs)), [5.0, 20.0])  # one by one
    with pytest.raises(xp.TransformUnavailableError, match=target):
        xp.grad(crossed)(x)
    if HAVE_JAX:
        xj = xp.asarray([1.0, 2.0], device="jax:cpu")
        np.testing.assert_allclose(xp.to_numpy(xp.vmap(crossed)(xp.stack([xj, xj]))), [5.0, 5.0])
        with pytest.raises(xp.TransformUnavailableError, match=target):
            xp.grad(crossed)(xj)


# -- errors ----------------------------------------------------------------------------------


def test_a_device_that_does_not_exist_lists_those_that_do():
    with pytest.raises(xp.BackendUnavailableError, match=r"on_device.*numpy:cpu|devices"):
        xp.on_device(lambda x: x, "numpy:gpu:7")
    with pytest.raises(TypeError, match="device"):
        xp.on_device(lambda x: x)


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        ((3, "numpy"), {}, TypeError),
        (("f", "numpy"), {}, TypeError),
        ((lambda x: x, "nonsense"), {}, ValueError),
        ((lambda x: x, ""), {}, ValueError),
        ((lambda x: x, "numpy:gpu:7"), {}, xp.BackendUnavailableError),
        ((lambda x: x, "torch:cuda:99"), {}, xp.BackendUnavailableError),
        ((lambda x: x, "jax:cpu:99"), {}, xp.BackendUnavailableError),
        ((lambda x: x, 1.5), {}, TypeError),
        ((lambda x: x, [1.0]), {}, TypeError),
        ((lambda x: x,), {}, TypeError),
        ((lambda x: x, "numpy", 3), {}, TypeError),
        ((lambda x: x,), {"axis": 1}, TypeError),
        ((lambda x: x, "numpy"), {"device": "numpy"}, TypeError),
    ],
)
def test_argument_errors_name_on_device(args, kwargs, error):
    with pytest.raises(error, match=r"^arraymux\.on_device: "):
        xp.on_device(*args, **kwargs)


def test_a_backend_that_is_not_installed_is_named():
    missing = [b for b in ("cupy", "torch", "jax", "dask") if importlib.util.find_spec(b) is None]
    if not missing:
        pytest.skip("every backend is installed")
    with pytest.raises(xp.BackendUnavailableError, match=rf"^arraymux\.on_device: .*{missing[0]}"):
        xp.on_device(lambda x: x, missing[0])


def test_not_callable_and_bad_result_leaves():
    with pytest.raises(TypeError, match="expected a function"):
        xp.on_device(3, "numpy")
    crossed = xp.on_device(lambda x: {"a": x, "b": object()}, "numpy")
    with pytest.raises(TypeError, match="leaf 1 of what <lambda> returned is of type object"):
        crossed(xp.asarray(1.0))


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_float64_into_jax_without_x64_is_refused_not_narrowed():
    if xp.Device("jax:cpu").supports(xp.float64):
        pytest.skip("JAX runs with x64 here")
    crossed = xp.on_device(lambda x: xp.sum(x), "jax:cpu")
    x = xp.asarray([1.0, 2.0], dtype=xp.float64, device="torch:cpu")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"on_device.*float64"):
        crossed(x)
    with pytest.raises(xp.UnsupportedDTypeError, match=r"on_device.*float64"):
        xp.grad(crossed)(x)


def test_the_foreign_exception_reaches_the_caller_with_a_note():
    def part(x):
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside") as info:
        xp.on_device(part, "numpy")(xp.asarray(1.0))
    assert any("on_device" in n for n in info.value.__notes__)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_errors_inside_transforms():
    crossed = xp.on_device(lambda x: xp.sum(x), "jax:cpu")
    with pytest.raises(TypeError, match="floating-point"):
        xp.grad(crossed)(xp.asarray([1, 2], device="torch:cpu"))

    def part(x):
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom") as info:
        xp.grad(lambda x: xp.sum(xp.on_device(part, "jax:cpu")(x)))(
            xp.asarray([1.0], device="torch:cpu")
        )
    assert any("on_device" in n for n in info.value.__notes__)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_to_device_inside_a_transform_points_at_on_device():
    def f(x):
        return xp.sum(xp.to_device(x, "jax:cpu"))

    with pytest.raises(TypeError, match="on_device"):
        xp.grad(f)(xp.asarray([1.0], device="torch:cpu"))


# -- shapes that depend on the values, under jit ---------------------------------------------


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
@pytest.mark.parametrize("target", ["torch:cpu", "numpy"])
@pytest.mark.parametrize("part", ["mask", "unique_values"])
def test_a_value_dependent_shape_under_jit_raises_instead_of_a_wrong_result(target, part):
    fun = {
        "mask": lambda x: x[x > 1.5],
        "unique_values": lambda x: xp.unique_values(x),
    }[part]
    crossed = xp.on_device(fun, target)
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32, device="jax:cpu")
    want = [2.0, 3.0] if part == "mask" else [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(xp.to_numpy(crossed(x)), want)  # eager: right
    with pytest.raises(
        xp.TransformUnavailableError, match=r"^arraymux\.on_device: the shape of what .* depends"
    ):
        xp.jit(crossed)(x)
    with pytest.raises(xp.TransformUnavailableError, match="outside jit"):
        xp.jit(lambda x: xp.sum(crossed(x)))(x)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
@pytest.mark.parametrize("threshold", [5.0, -5.0])
def test_a_value_dependent_shape_the_trace_cannot_see_raises_when_it_runs(threshold):
    import jax

    # On the placeholder arrays (ones, then 0, 1, 2) nothing passes x > 5 and everything
    # passes x > -5: the shapes agree, and only the real values tell.
    crossed = xp.on_device(lambda x: x[(x > threshold) & (x < 6.5)], "torch:cpu")
    x = xp.asarray([1.0, 6.0, 7.0], dtype=xp.float32, device="jax:cpu")
    want = [6.0] if threshold > 0 else [1.0, 6.0]
    np.testing.assert_array_equal(xp.to_numpy(crossed(x)), want)
    with pytest.raises(xp.TransformUnavailableError, match=r"\(2,\) on this call|\(1,\) on"):
        xp.jit(crossed)(x)
    with pytest.raises(Exception, match=r"arraymux\.on_device: the shape of what"):
        jax.jit(crossed)(x.native)


@pytest.mark.skipif(not (HAVE_TORCH and HAVE_JAX), reason="needs torch and jax")
def test_a_value_dependent_shape_on_jax_called_from_torch_under_jit_is_right():
    crossed = xp.on_device(lambda x: x[x > 1.5], "jax:cpu")
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32, device="torch:cpu")
    np.testing.assert_array_equal(xp.to_numpy(xp.jit(crossed)(x)), [2.0, 3.0])
