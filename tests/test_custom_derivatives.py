"""arraymux.custom_vjp and arraymux.custom_jvp: their rules used by every transform on every
engine, torch's own autograd and torch.compile; plain calls elsewhere; the errors."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import arraymux as xp
from _transform_checks import (
    CPU_ENGINES,
    GPUS,
    NEEDS_TORCH,
    TORCH_SCRIPT_WARNINGS,
    arr,
    close,
)

pytestmark = [
    *TORCH_SCRIPT_WARNINGS,
    # dynamo (torch 2.13) instantiates an autograd.Function that it traces inside torch.func's
    # transforms, which torch itself deprecates.
    pytest.mark.filterwarnings("ignore:<class .*> should not be instantiated:DeprecationWarning"),
]

ENGINES = [*CPU_ENGINES, *GPUS]
NO_ENGINE = [
    str(d) for d in xp.devices() if not d.simulated and d.backend in ("dask", "array_api_strict")
]


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


# -- the functions: rules that differ from the functions' own derivatives ---------------------


@functools.partial(xp.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    return x


def _clip_fwd(x, bound):
    return x, None


def _clip_bwd(bound, residuals, g):
    return (xp.clip(g, -bound, bound),)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)

BWD_CALLS: list[int] = []


@xp.custom_vjp
def scaled_square(x):
    return x * x


def _sq_fwd(x):
    return x * x, x  # the residual is the argument itself


def _sq_bwd(x, g):
    BWD_CALLS.append(1)
    return (2 * x * g * 10,)  # ten times the true gradient: the rule is what counts


scaled_square.defvjp(_sq_fwd, _sq_bwd)


@xp.custom_vjp
def product(pair):
    """A tree in, a tree out: {'p': a * b, 'd': a - b}."""
    a, b = pair
    return {"p": a * b, "d": a - b}


product.defvjp(
    lambda pair: (product(pair), pair),
    lambda res, g: ((g["p"] * res[1] + g["d"], g["p"] * res[0] - g["d"]),),
)


@xp.custom_jvp
def log1pexp(x):
    return xp.log1p(xp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t / (1 + xp.exp(-x))


@functools.partial(xp.custom_jvp, nondiff_argnums=(0,))
def power(n, x):
    return x**n


@power.defjvp
def _power_jvp(n, primals, tangents):
    (x,), (t,) = primals, tangents
    return power(n, x), n * x ** (n - 1) * t * 10  # ten times: the rule is what counts


# -- custom_vjp ----------------------------------------------------------------------------


def test_custom_vjp_rule_gives_the_gradient(engine):
    x = arr([1.0, -2.0, 0.5], engine)
    g = xp.grad(lambda x: xp.sum(clip_gradient(x, 1.0) * 5.0))(x)
    assert g.device == x.device
    close(g, [1.0, 1.0, 1.0])
    close(xp.grad(lambda x: xp.sum(scaled_square(x)))(x), 20 * np.asarray([1.0, -2.0, 0.5]))
    value, g = xp.value_and_grad(lambda x: xp.sum(scaled_square(x)))(x)
    close(value, 5.25)
    _, pull = xp.vjp(scaled_square, x)
    close(pull(xp.ones_like(x))[0], 20 * np.asarray([1.0, -2.0, 0.5]))
    close(xp.jacobian(scaled_square)(x), np.diag(20 * np.asarray([1.0, -2.0, 0.5])))


def test_custom_vjp_called_plainly_is_the_function(engine):
    x = arr([1.0, 2.0], engine)
    calls = len(BWD_CALLS)
    close(scaled_square(x), [1.0, 4.0])
    close(clip_gradient(x, 0.1), [1.0, 2.0])
    assert len(BWD_CALLS) == calls


def test_custom_vjp_with_trees(engine):
    a, b = arr([1.0, 2.0], engine), arr([3.0, 5.0], engine)
    ga, gb = xp.grad(lambda a, b: xp.sum(product((a, b))["p"] + 3 * product((a, b))["d"]), (0, 1))(
        a, b
    )
    close(ga, [6.0, 8.0])  # b + 3
    close(gb, [-2.0, -1.0])  # a - 3


def test_custom_vjp_under_vmap(engine):
    x = arr([[1.0, 2.0], [3.0, -1.0]], engine)
    per_row = xp.vmap(xp.grad(lambda r: xp.sum(scaled_square(r))))(x)
    close(per_row, 20 * xp.to_numpy(x))
    close(xp.vmap(scaled_square)(x), xp.to_numpy(x) ** 2)


def test_custom_vjp_differentiated_twice(engine):
    x = arr([1.0, 2.0], engine)
    # reverse over reverse: the derivative of the rule's gradient 20 x g
    hess = xp.jacobian(xp.grad(lambda x: xp.sum(scaled_square(x))))(x)
    close(hess, np.diag([20.0, 20.0]))


def test_custom_vjp_has_no_forward_mode(engine):
    x = arr([1.0, 2.0], engine)
    with pytest.raises(xp.TransformUnavailableError, match=r"arraymux\.custom_vjp: scaled_square"):
        xp.jvp(scaled_square, (x,), (x,))


def test_custom_vjp_under_jit(engine):
    x = arr([1.0, -2.0], engine)
    g = xp.jit(xp.grad(lambda x: xp.sum(scaled_square(x) + clip_gradient(x, 0.5) * 4)))(x)
    close(g, 20 * np.asarray([1.0, -2.0]) + 0.5)


# -- custom_jvp ----------------------------------------------------------------------------


def test_custom_jvp_rule_in_both_modes(engine):
    x = arr([0.0, 1.0, 80.0], engine)
    sig = 1 / (1 + np.exp(-np.asarray([0.0, 1.0, 80.0])))
    _, t = xp.jvp(log1pexp, (x,), (xp.ones_like(x),))
    close(t, sig)
    close(xp.grad(lambda x: xp.sum(log1pexp(x)))(x), sig)  # the rule, transposed
    y = arr([2.0, 3.0], engine)
    close(xp.grad(lambda y: xp.sum(power(3, y)))(y), 30 * np.asarray([2.0, 3.0]) ** 2)
    close(xp.jvp(lambda y: power(3, y), (y,), (xp.ones_like(y),))[1], 30 * np.asarray([4.0, 9.0]))
    close(xp.jacobian(lambda y: power(2, y))(y), np.diag(20 * np.asarray([2.0, 3.0])))


def test_custom_jvp_second_derivatives_and_vmap(engine):
    x = arr([0.0, 1.0], engine)
    s = 1 / (1 + np.exp(-np.asarray([0.0, 1.0])))
    close(xp.hessian(lambda x: xp.sum(log1pexp(x)))(x), np.diag(s * (1 - s)), tol=1e-4)
    rows = arr([[0.0, 1.0], [2.0, -1.0]], engine)
    grads = xp.vmap(xp.grad(lambda r: xp.sum(log1pexp(r))))(rows)
    close(grads, 1 / (1 + np.exp(-xp.to_numpy(rows))))
    close(xp.jit(xp.grad(lambda r: xp.sum(log1pexp(r))))(x), s)


# -- torch's own autograd and torch.compile ---------------------------------------------------


@NEEDS_TORCH
def test_torch_backward_uses_the_rules():
    import torch

    t = torch.tensor([1.0, 2.0], requires_grad=True)
    xp.sum(scaled_square(xp.asarray(t))).native.backward()
    assert t.grad.tolist() == [20.0, 40.0]
    t.grad = None
    xp.sum(power(2, xp.asarray(t))).native.backward()
    assert t.grad.tolist() == [20.0, 40.0]


@NEEDS_TORCH
def test_torch_compile_traces_them_without_a_graph_break():
    import torch

    x = arr([1.0, 2.0], "torch:cpu")

    def f(x):
        return xp.sum(scaled_square(x) + log1pexp(x) + clip_gradient(x, 1.0))

    torch._dynamo.reset()
    explanation = torch._dynamo.explain(f)(x)  # nothing differentiates: the functions
    assert explanation.graph_break_count == 0, explanation.break_reasons


@NEEDS_TORCH
def test_jit_then_torch_backward_uses_the_rules():
    import torch

    t = torch.tensor([1.0, 2.0], requires_grad=True)
    f = xp.jit(lambda x: xp.sum(scaled_square(x) + power(2, x)))
    f(xp.asarray(t)).native.backward()
    assert t.grad.tolist() == [40.0, 80.0]


# -- devices without an engine, and errors ------------------------------------------------------


def test_devices_without_an_engine_call_the_function():
    for device in NO_ENGINE:
        x = arr([1.0, 2.0], device)
        close(scaled_square(x), [1.0, 4.0])
        close(log1pexp(x), np.log1p(np.exp([1.0, 2.0])))
        with pytest.raises(xp.TransformUnavailableError):
            xp.grad(lambda x: xp.sum(scaled_square(x)))(x)
        with pytest.raises(xp.TransformUnavailableError):
            xp.jvp(log1pexp, (x,), (x,))


def test_errors(engine):
    x = arr([1.0, 2.0], engine)

    @xp.custom_vjp
    def f(x, y):
        return x * y

    with pytest.raises(
        TypeError, match=r"arraymux\.custom_vjp: f has no rule: define it with f\.defvjp"
    ):
        f(x, x)
    f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1],))
    # JAX checks the cotangents itself, with its own message.
    jax = xp.Device(engine).backend == "jax"
    with pytest.raises(TypeError, match="bwd rule" if jax else r"bwd rule of f returned 1 cot"):
        xp.grad(lambda x: xp.sum(f(x, x)))(x)
    f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1], (g,)))
    with pytest.raises(TypeError, match="bwd rule" if jax else r"a cotangent of structure \(\*,\)"):
        xp.grad(lambda x: xp.sum(f(x, x)))(x)
    with pytest.raises(TypeError, match=r"arraymux\.custom_jvp: expected a function"):
        xp.custom_jvp(3)
    with pytest.raises(TypeError, match=r"arraymux\.custom_vjp: nondiff_argnums must be"):
        xp.custom_vjp(lambda x: x, nondiff_argnums=(-1,))
    with pytest.raises(TypeError, match=r"arraymux\.custom_vjp\.defvjp: bwd must be a function"):
        f.defvjp(lambda x, y: (x, None), None)
