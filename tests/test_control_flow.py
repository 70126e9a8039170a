"""arraymux.cond, switch, while_loop, fori_loop and scan: jax.lax's semantics on every CPU
device, derivatives and batching on every engine, compilation by jit, and the errors."""

from __future__ import annotations

import importlib.util
from collections import namedtuple

import numpy as np
import pytest

import arraymux as xp
from _child import run_counting_frames
from _transform_checks import (
    CPU_ENGINES,
    GPUS,
    NEEDS_TORCH,
    TORCH_SCRIPT_WARNINGS,
    arr,
    close,
)

pytestmark = TORCH_SCRIPT_WARNINGS

ENGINES = [*CPU_ENGINES, *GPUS]


def _cpu_devices() -> list[str]:
    out = []
    for d in xp.devices():
        if d.simulated:
            continue
        if d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu"):
            out.append(str(d))
    return out


CPU = _cpu_devices() + GPUS
NO_ENGINE = [d for d in CPU if xp.Device(d).backend in ("dask", "array_api_strict")]


@pytest.fixture(params=CPU)
def cpu(request):  # every device: the CPU ones, and the GPUs present
    return request.param


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


# -- what they compute, on every CPU device ---------------------------------------------------


def test_cond_takes_the_branch_of_the_predicate(cpu):
    x = arr([1.0, 2.0], cpu)
    for pred, want in [
        (xp.sum(x) > 2, [10.0, 20.0]),
        (xp.sum(x) > 5, [-1.0, -2.0]),
        (True, [10.0, 20.0]),
        (0, [-1.0, -2.0]),
        (xp.asarray(3, device=cpu), [10.0, 20.0]),
    ]:
        out = xp.cond(pred, lambda v: v * 10, lambda v: -v, x)
        assert out.device == x.device
        close(out, want)


def test_cond_without_operands_and_with_trees(cpu):
    x = arr([1.0, 2.0], cpu)
    out = xp.cond(xp.sum(x) > 0, lambda: {"a": x + 1}, lambda: {"a": x - 1})
    close(out["a"], [2.0, 3.0])
    Pair = namedtuple("Pair", "u v")
    out = xp.cond(False, lambda p: Pair(p.v, p.u), lambda p: Pair(p.u * 2, p.v), Pair(x, x + 1))
    assert type(out) is Pair
    close(out.u, [2.0, 4.0])


@pytest.mark.parametrize("device", ["numpy", pytest.param("torch:cpu", marks=NEEDS_TORCH)])
def test_cond_runs_only_the_branch_taken_in_python(device):
    ran = []
    x = arr([1.0], device)
    xp.cond(xp.sum(x) > 0, lambda v: ran.append("t") or v, lambda v: ran.append("f") or v, x)
    assert ran == ["t"]


def test_switch_clamps_the_index(cpu):
    x = arr([3.0], cpu)
    branches = [lambda v: v + 1, lambda v: v * 2, lambda v: v**2]
    for index, want in [(0, 4.0), (1, 6.0), (2, 9.0), (-3, 4.0), (7, 9.0)]:
        close(xp.switch(index, branches, x), [want])
        close(xp.switch(xp.asarray(index, device=cpu), branches, x), [want])


def test_while_loop(cpu):
    count, value = xp.while_loop(
        lambda c: c[1] < 100, lambda c: (c[0] + 1, c[1] * 3), (0, arr(1.0, cpu))
    )
    # Python scalars in the carry become 0-d arrays of the device, as on JAX.
    assert isinstance(count, xp.Array) and count.device == xp.Device(cpu)
    assert int(count) == 5 and float(value) == 243.0


def test_while_loop_that_never_runs_returns_the_carry(cpu):
    x = arr([1.0, 2.0], cpu)
    out = xp.while_loop(lambda c: xp.sum(c["x"]) < 0, lambda c: {"x": c["x"] * 2}, {"x": x})
    close(out["x"], [1.0, 2.0])


def test_fori_loop(cpu):
    total = xp.fori_loop(0, 5, lambda i, t: t + xp.astype(i, xp.float32), arr(0.0, cpu))
    assert float(total) == 10.0
    # Array bounds: a loop whose trip count is a value.
    lo, hi = xp.asarray(2, device=cpu), xp.asarray(5, device=cpu)
    total = xp.fori_loop(lo, hi, lambda i, t: t + xp.astype(i, xp.float32), arr(0.0, cpu))
    assert float(total) == 9.0
    # The index is a 0-d integer array; no steps leave the carry.
    seen = []
    xp.fori_loop(0, 2, lambda i, t: seen.append(i) or t, arr(0.0, cpu))
    assert all(isinstance(i, xp.Array) and i.ndim == 0 for i in seen)
    assert xp.isdtype(seen[0].dtype, "integral")
    assert float(xp.fori_loop(3, 3, lambda i, t: t + 1, arr(7.0, cpu))) == 7.0
    # Static bounds from another lower bound: the indices in order, in the default integer
    # dtype of the carry's device, on it (JAX traces the body once: its index has no value).
    total = xp.fori_loop(-2, 3, lambda i, t: t * 10 + xp.astype(i, xp.float32), arr(0.0, cpu))
    assert float(total) == -2 * 10**4 - 10**3 + 10 + 2
    seen = []
    xp.fori_loop(-2, 3, lambda i, t: seen.append(i) or t, arr(0.0, cpu))
    integral = xp.__array_namespace_info__().default_dtypes(device=xp.Device(cpu))["integral"]
    assert all(i.dtype == integral and i.device == xp.Device(cpu) for i in seen)


def _python_scan(f, init, xs, reverse=False):
    n = xs.shape[0]
    carry, ys = init, [None] * n
    for t in range(n - 1, -1, -1) if reverse else range(n):
        carry, ys[t] = f(carry, xs[t, ...])
    return carry, xp.stack(ys)


def test_scan_matches_a_python_loop(cpu):
    xs = arr([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], cpu)
    init = arr([0.0, 1.0], cpu)

    def step(c, x):
        return c * 0.5 + x, xp.sum(c * x)

    for reverse in (False, True):
        carry, ys = xp.scan(step, init, xs, reverse=reverse)
        want_carry, want_ys = _python_scan(step, init, xs, reverse=reverse)
        close(carry, want_carry)
        close(ys, want_ys)
        assert ys.shape == (3,) and ys.device == xs.device


def test_scan_with_trees_and_without_xs(cpu):
    xs = {"a": arr([1.0, 2.0, 3.0], cpu), "b": (arr([[1.0], [2.0], [3.0]], cpu),)}

    def step(c, x):
        c = {"n": c["n"] + 1, "s": c["s"] + x["a"] * x["b"][0]}
        return c, (c["s"], None)

    carry, (ys, nothing) = xp.scan(step, {"n": 0, "s": arr([0.0], cpu)}, xs)
    assert int(carry["n"]) == 3 and nothing is None
    close(carry["s"], [14.0])
    close(ys, [[1.0], [5.0], [14.0]])
    carry, ys = xp.scan(lambda c, _: (c * 2, None), arr(1.0, cpu), length=4)
    assert float(carry) == 16.0 and ys is None


def test_scan_of_no_steps_gives_empty_outputs(cpu):
    xs = xp.zeros((0, 3), dtype=xp.float32, device=cpu)
    carry, ys = xp.scan(lambda c, x: (c, {"y": x * 2, "s": xp.sum(x)}), arr(1.0, cpu), xs)
    assert float(carry) == 1.0
    assert ys["y"].shape == (0, 3) and ys["s"].shape == (0,)


# -- errors that name the function and the leaf ----------------------------------------------


def test_errors_of_bad_carries(engine):
    x = arr([1.0, 2.0], engine)
    with pytest.raises(
        TypeError, match=r"arraymux\.while_loop: body_fun returned int32\[2\] at \['a'\]"
    ):
        xp.while_loop(
            lambda c: xp.sum(c["a"]) < 10,
            lambda c: {"a": xp.astype(c["a"] * 2, xp.int32)},
            {"a": x},
        )
    with pytest.raises(TypeError, match=r"arraymux\.while_loop: body_fun returned float32\[4\]"):
        xp.while_loop(lambda c: xp.sum(c) < 10, lambda c: xp.concat([c, c]), x)
    with pytest.raises(
        TypeError, match=r"structure \(\*,\), but init_val has structure \(\*, \*\)"
    ):
        xp.while_loop(lambda c: xp.sum(c[0]) < 10, lambda c: (c[0] * 2,), (x, x))
    with pytest.raises(
        TypeError, match=r"arraymux\.while_loop: cond_fun's result must be a boolean"
    ):
        xp.while_loop(lambda c: c, lambda c: c * 2, x)
    with pytest.raises(TypeError, match=r"arraymux\.scan: f returned float32\[1\]"):
        xp.scan(lambda c, v: (c[:1], v), x, xp.stack([x, x]))
    with pytest.raises(TypeError, match=r"arraymux\.fori_loop: body_fun returned"):
        xp.fori_loop(0, 3, lambda i, v: xp.astype(v, xp.int32), x)
    with pytest.raises(TypeError, match=r"arraymux\.scan: f must return a pair"):
        xp.scan(lambda c, v: c, x, xp.stack([x, x]))


def test_errors_of_bad_arguments(cpu):
    x = arr([1.0, 2.0], cpu)
    with pytest.raises(TypeError, match=r"arraymux\.cond: pred must be .* shape \(2,\)"):
        xp.cond(x > 0, lambda v: v, lambda v: v, x)
    with pytest.raises(TypeError, match=r"arraymux\.cond: pred must be .* dtype float32"):
        xp.cond(xp.sum(x), lambda v: v, lambda v: v, x)
    with pytest.raises(TypeError, match=r"arraymux\.cond: false_fun must be a function"):
        xp.cond(True, lambda v: v, 3, x)
    with pytest.raises(TypeError, match=r"arraymux\.switch: branches must be a non-empty"):
        xp.switch(0, [], x)
    with pytest.raises(TypeError, match=r"arraymux\.switch: branches\[1\] must be a function"):
        xp.switch(0, [lambda v: v, None], x)
    with pytest.raises(TypeError, match=r"arraymux\.switch: index must be an integer scalar"):
        xp.switch(1.5, [lambda v: v], x)
    with pytest.raises(TypeError, match=r"arraymux\.fori_loop: lower must be an integer"):
        xp.fori_loop(0.0, 3, lambda i, v: v, x)
    with pytest.raises(TypeError, match=r"arraymux\.while_loop: body_fun must be a function"):
        xp.while_loop(lambda c: False, "body", x)
    with pytest.raises(ValueError, match=r"arraymux\.scan: the arrays of xs differ in length"):
        xp.scan(lambda c, v: (c, None), x, (xp.ones(3, device=cpu), xp.ones(4, device=cpu)))
    with pytest.raises(ValueError, match=r"arraymux\.scan: length is 5"):
        xp.scan(lambda c, v: (c, None), x, xp.ones(3, device=cpu), length=5)
    with pytest.raises(ValueError, match=r"arraymux\.scan: without arrays in xs"):
        xp.scan(lambda c, v: (c, None), x)
    if xp.Device(cpu).backend != "jax":  # JAX traces f once: y has one structure
        steps = []

        def changing(c, v):
            steps.append(v)
            return c, v if len(steps) == 1 else (v,)

        with pytest.raises(TypeError, match=r"arraymux\.scan: f returned y of structure \(\*,\)"):
            xp.scan(changing, x, xp.ones((2, 2), device=cpu))


def test_the_branches_must_agree_where_both_are_traced():
    x = arr([1.0, 2.0], "jax:cpu") if importlib.util.find_spec("jax") else None
    if x is None:
        pytest.skip("jax")
    with pytest.raises(TypeError, match=r"arraymux\.cond: "):
        xp.cond(xp.sum(x) > 0, lambda v: v, lambda v: v[:1], x)


@pytest.mark.parametrize("device", ["numpy", pytest.param("torch:cpu", marks=NEEDS_TORCH)])
def test_batched_branches_must_agree(device):
    x = arr([[1.0, 2.0], [-1.0, -2.0]], device)
    with pytest.raises(TypeError, match=r"arraymux\.cond: true_fun returns float32\[1\]"):
        xp.vmap(lambda v: xp.cond(xp.sum(v) > 0, lambda a: a[:1], lambda a: a, v))(x)


def test_mixed_devices_are_refused(engine):
    x = arr([1.0], engine)
    other = arr([1.0], "numpy" if engine != "numpy" else "jax:cpu")
    with pytest.raises(xp.BackendMismatchError, match=r"arraymux\.scan: xs is on"):
        xp.scan(lambda c, v: (c, None), x, other)


# -- derivatives, batching and compilation, on every engine -----------------------------------


def _loss_scan(w, xs):
    carry, ys = xp.scan(lambda c, x: (xp.tanh(c * w + x), c * 2), xp.zeros_like(w), xs)
    return xp.sum(carry) + xp.sum(ys)


def _loss_unrolled(w, xs):
    c, total = xp.zeros_like(w), 0.0
    for t in range(xs.shape[0]):
        total = total + xp.sum(c * 2)
        c = xp.tanh(c * w + xs[t, ...])
    return xp.sum(c) + total


W = [0.5, 1.5]
XS = [[1.0, 2.0], [0.1, 0.2], [3.0, -1.0]]


def test_grad_through_scan_is_the_unrolled_loops(engine):
    w, xs = arr(W, engine), arr(XS, engine)
    g = xp.grad(_loss_scan)(w, xs)
    assert g.device == w.device
    close(g, xp.grad(_loss_unrolled)(w, xs))
    close(xp.value_and_grad(_loss_scan)(w, xs)[0], _loss_unrolled(w, xs))
    # the closure over xs is a constant of the computation
    close(xp.grad(lambda w: _loss_scan(w, xs))(w), g)


def test_second_derivatives_through_scan(engine):
    w, xs = arr(W, engine), arr(XS, engine)
    close(
        xp.hessian(lambda w: _loss_scan(w, xs))(w),
        xp.hessian(lambda w: _loss_unrolled(w, xs))(w),
        tol=1e-4,
    )


def test_derivatives_through_fori_loop_with_a_static_trip_count(engine):
    w = arr(W, engine)

    def f(w):  # v3 = w**3 + w + 2
        return xp.fori_loop(0, 3, lambda i, v: v * w + xp.astype(i, w.dtype), xp.ones_like(w))

    wn = np.asarray(W)
    close(xp.grad(lambda w: xp.sum(f(w)))(w), 3 * wn**2 + 1)
    close(xp.jacobian(f)(w), np.diag(3 * wn**2 + 1))
    close(xp.jvp(f, (w,), (xp.ones_like(w),))[1], 3 * wn**2 + 1)


def test_derivatives_through_cond_and_switch(engine):
    w = arr(W, engine)

    def f(w):
        return xp.sum(xp.cond(xp.sum(w) > 0, lambda v: xp.sin(v) * 3, xp.cos, w))

    close(xp.grad(f)(w), 3 * np.cos(W))
    close(xp.grad(f)(-w), np.sin(W))

    def g(k, w):
        return xp.sum(xp.switch(k, [lambda v: v**2, lambda v: v**3], w))

    close(xp.grad(g, argnums=1)(xp.asarray(1, device=engine), w), 3 * np.asarray(W) ** 2)
    close(xp.jvp(lambda v: g(0, v), (w,), (xp.ones_like(w),))[1], 2 * np.sum(W))


def _grow(w):
    return xp.while_loop(lambda c: xp.sum(c) < 100, lambda c: c * w, xp.ones_like(w))


def test_while_loop_has_forward_mode_only(engine):
    w = arr([2.0, 3.0], engine)
    out, tangent = xp.jvp(_grow, (w,), (arr([1.0, 0.0], engine),))
    close(out, [32.0, 243.0])  # 5 steps: w**5
    close(tangent, [5 * 2.0**4, 0.0])
    with pytest.raises(xp.TransformUnavailableError, match=r"arraymux\.while_loop: reverse-mode"):
        xp.grad(lambda w: xp.sum(_grow(w)))(w)
    with pytest.raises(xp.TransformUnavailableError, match=r"arraymux\.fori_loop: reverse-mode"):
        xp.grad(
            lambda w: xp.sum(
                xp.fori_loop(xp.asarray(0, device=engine), 3, lambda i, v: v * w, xp.ones_like(w))
            )
        )(w)


def test_vmap_of_branches_and_loops(engine):
    w = arr([[0.5, 1.5], [-0.5, -1.5]], engine)
    f = lambda v: xp.cond(xp.sum(v) > 0, lambda a: xp.sin(a) * 3, xp.cos, v)  # noqa: E731
    close(xp.vmap(f)(w), np.stack([3 * np.sin(W), np.cos(W)]))
    k = xp.asarray([0, 1, 2, 7], device=engine)
    x = arr([1.0, 2.0, 3.0, 4.0], engine)
    branches = [lambda a: a + 1, lambda a: a * 10, lambda a: -a]
    close(xp.vmap(lambda i, v: xp.switch(i, branches, v))(k, x), [2.0, 20.0, -3.0, -4.0])
    # each element stops when its own predicate fails
    close(xp.vmap(_grow)(arr([[2.0, 3.0], [1.5, 1.5]], engine)), [[32.0, 243.0], [1.5**10] * 2])
    close(
        xp.vmap(_loss_scan, in_axes=(0, None))(arr([W, [-1.0, 0.2]], engine), arr(XS, engine)),
        [
            _loss_unrolled(arr(W, engine), arr(XS, engine)),
            _loss_unrolled(arr([-1.0, 0.2], engine), arr(XS, engine)),
        ],
    )
    close(
        xp.vmap(xp.grad(_loss_scan), in_axes=(0, None))(arr([W], engine), arr(XS, engine))[0],
        xp.grad(_loss_unrolled)(arr(W, engine), arr(XS, engine)),
    )


@pytest.mark.parametrize(
    "device",
    [
        "numpy",
        pytest.param(
            "jax:cpu",
            marks=pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax"),
        ),
    ],
)
def test_jit(device):
    w, xs = arr(W, device), arr(XS, device)

    @xp.jit
    def f(w, xs, k):
        a = xp.cond(xp.sum(w) > 0, lambda v: v * 2, lambda v: -v, w)
        b = xp.switch(k, [lambda v: v + 1, lambda v: v - 1], w)
        c = _grow(xp.abs(w) + 1.5)
        d = xp.fori_loop(0, 3, lambda i, v: v * w, xp.ones_like(w))
        e = _loss_scan(w, xs)
        return a, b, c, d, e

    a, b, c, d, e = f(w, xs, xp.asarray(1, device=device))
    close(a, 2 * np.asarray(W))
    close(b, np.asarray(W) - 1)
    close(c, xp.to_numpy(_grow(xp.abs(w) + 1.5)))
    close(d, np.asarray(W) ** 3)
    close(e, _loss_unrolled(w, xs))
    close(xp.jit(xp.grad(_loss_scan))(w, xs), xp.grad(_loss_unrolled)(w, xs))


def test_devices_without_an_engine_refuse_the_transforms():
    for device in NO_ENGINE:
        w, xs = arr(W, device), arr(XS, device)
        close(_loss_scan(w, xs), _loss_unrolled(w, xs))  # plain Python
        with pytest.raises(xp.TransformUnavailableError):
            xp.grad(_loss_scan)(w, xs)
        with pytest.raises(xp.TransformUnavailableError):
            xp.jit(lambda w: xp.cond(xp.sum(w) > 0, lambda v: v, lambda v: -v, w))(w)


# -- torch.compile ------------------------------------------------------------------------------


def _all_five(w, xs, k, n):
    a = xp.cond(xp.sum(w) > 0, lambda v: xp.sin(v) * 3, lambda v: xp.cos(v), w)
    b = xp.switch(k, [lambda v: v + 1, lambda v: v * 2, lambda v: -v], w)
    c = _grow(xp.abs(w) + 1.5)
    d = xp.fori_loop(0, 3, lambda i, v: v * w + xp.astype(i, w.dtype), xp.ones_like(w))
    e = xp.fori_loop(xp.asarray(0, device="torch:cpu"), n, lambda i, v: v * w, xp.ones_like(w))
    f = _loss_scan(w, xs)
    return a, b, c, d, e, f


@NEEDS_TORCH
def test_torch_compile_traces_every_one_without_a_graph_break():
    import torch

    from arraymux._arguments import parse_all

    parse_all()  # as jit does: signatures read before dynamo traces
    w, xs = arr(W, "torch:cpu"), arr(XS, "torch:cpu")
    args = (w, xs, xp.asarray(1, device="torch:cpu"), xp.asarray(3, device="torch:cpu"))
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(_all_five)(*args)
    assert explanation.graph_break_count == 0, explanation.break_reasons
    assert explanation.graph_count == 1
    ops = str(explanation.graphs[0].graph)
    assert "torch.ops.higher_order.cond" in ops and "torch.ops.higher_order.while_loop" in ops


@NEEDS_TORCH
@pytest.mark.timeout(900)
def test_jit_on_torch_compiles_them():
    w, xs = arr(W, "torch:cpu"), arr(XS, "torch:cpu")
    for k, sign in ((1, 1.0), (2, -1.0)):
        args = (sign * w, xs, xp.asarray(k, device="torch:cpu"), xp.asarray(3, device="torch:cpu"))
        for got, want in zip(xp.jit(_all_five)(*args), _all_five(*args)):
            close(got, want)

    # Inside torch.func's grad under torch.compile, cond selects between both branches.
    def f(w):
        return xp.sum(xp.cond(xp.sum(w) > 0, lambda v: xp.sin(v) * 3, xp.cos, w))

    close(xp.jit(xp.grad(f))(w), 3 * np.cos(W))
    close(xp.jit(xp.grad(_loss_scan))(w, xs), xp.grad(_loss_unrolled)(w, xs))
    with pytest.raises(xp.TransformUnavailableError, match=r"reverse-mode"):
        xp.jit(xp.grad(lambda w: xp.sum(_grow(w))))(w)


@NEEDS_TORCH
@pytest.mark.timeout(900)
def test_first_use_inside_torch_compile(tmp_path):
    """cond and while_loop first called inside xp.jit in a fresh process (arraymux's caches
    empty, which torch's operators forbid filling) compile in one graph."""
    program = (
        "x = xp.asarray([0.5, 2.0], device='torch:cpu')\n"
        "def f(x):\n"
        "    a = xp.cond(xp.max(x) > 1, lambda v: xp.tanh(v) + xp.expm1(v), lambda v: xp.log1p(v), x)\n"
        "    return xp.while_loop(lambda c: xp.sum(c) < 50, lambda c: c * 2 + xp.sqrt(c), a)\n"
        "print(float(xp.sum(xp.jit(f)(x))), float(xp.sum(f(x))))\n"
    )
    res = run_counting_frames(program, tmp_path)
    lines = res.stdout.split("\n")
    assert len(lines) >= 2, res.stderr[-3000:]
    compiled, eager = map(float, lines[0].split())
    assert compiled == pytest.approx(eager, rel=1e-5)
    assert lines[1].split() == ["1", "0"], res.stderr[-2000:]


def test_registered_classes_are_carries(engine):
    import dataclasses

    @xp.register_dataclass
    @dataclasses.dataclass
    class State:
        pos: xp.Array
        vel: xp.Array

    s0 = State(arr([1.0], engine), arr([0.0], engine))

    def step(s, _):
        s = State(s.pos + 0.1 * s.vel, s.vel - 0.1 * s.pos)
        return s, s.pos

    out, ys = xp.scan(step, s0, length=3)
    assert type(out) is State and ys.shape == (3, 1)
    close(out.pos, [0.97])
    with pytest.raises(TypeError, match=r"arraymux\.scan: f returned float32\[2\] at \.vel"):
        xp.scan(lambda s, _: (State(s.pos, xp.concat([s.vel, s.vel])), None), s0, length=2)
