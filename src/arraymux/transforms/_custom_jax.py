"""The JAX side of :class:`arraymux.custom_vjp` and :class:`arraymux.custom_jvp`:
``jax.custom_vjp`` and ``jax.custom_jvp`` of the user's functions, which take and return Arrays
(JAX pytree nodes) as they are."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import jax

from .._devices import Device
from .._errors import TransformUnavailableError
from ._control_jax import traced
from ._custom_common import CustomFunction, JvpRule, VjpRules, pair
from ._tree import function_name


def call(spec: CustomFunction, args: tuple[object, ...], diff: list[int], dev: Device) -> object:
    f = spec._jax
    if f is None:
        f = spec._jax = _made(spec)

    @traced(dev)
    def run() -> object:
        return f(*args)

    try:
        return run()
    except TypeError as e:
        if "forward-mode autodiff" in str(e) and "custom_vjp" in str(e):
            raise TransformUnavailableError(
                f"arraymux.custom_vjp: {function_name(spec.fun)} has a reverse-mode rule only, so "
                "forward mode (jvp, hessian, jacobian in forward mode) cannot differentiate "
                "it, as with jax.custom_vjp. Define a forward-mode rule with "
                "arraymux.custom_jvp instead."
            ) from None
        raise


def _made(spec: CustomFunction) -> Callable[..., object]:
    nondiff = spec.nondiff_argnums
    if spec._kind == "custom_vjp":
        rules = cast(VjpRules, spec)  # a custom_vjp, called once its rules are defined
        fwd_rule, bwd_rule = rules.fwd, rules.bwd
        assert fwd_rule is not None and bwd_rule is not None
        f = jax.custom_vjp(spec.fun, nondiff_argnums=nondiff)

        def fwd(*args: object) -> tuple[object, object]:
            return pair("custom_vjp", spec, "the fwd rule", fwd_rule(*args))

        def bwd(*args: object) -> object:
            cts = bwd_rule(*args)
            if isinstance(cts, list):
                cts = tuple(cts)
            return cts

        # A rule that returns no tuple is jax's to refuse.
        f.defvjp(fwd, cast("Callable[..., tuple[object, ...]]", bwd))
        return f
    jvp_rule = cast(JvpRule, spec).jvp  # a custom_jvp, called once its rule is defined
    g = jax.custom_jvp(spec.fun, nondiff_argnums=nondiff)

    def jvp(*args: object) -> tuple[object, object]:
        return pair("custom_jvp", spec, "the jvp rule", jvp_rule(*args))

    g.defjvp(jvp)
    return g
