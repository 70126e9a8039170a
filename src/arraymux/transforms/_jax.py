"""The JAX engine behind :mod:`arraymux.transforms` (Arrays are JAX pytrees: see the adapter).

Every function here takes and returns functions of native JAX arrays (pytrees of them); the
wrapping into :class:`arraymux.Array` happens in ``transforms``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax

grad = jax.grad
value_and_grad = jax.value_and_grad
jacobian = jax.jacrev
hessian = jax.hessian
vjp = jax.vjp
jvp = jax.jvp
vmap = jax.vmap
jit = jax.jit
# jax.jit is given the function of natives (transforms.jit unwraps and wraps around it).
JIT_TAKES_ARRAYS = False


def placement(device: Any) -> Any | None:
    """The JAX device to make the default while computing for ``device``, or None where it
    already is the default.

    Arrays a traced function creates from constants (``zeros``, the gradient of ``sum``...)
    land on JAX's default device, whatever device its inputs are on.
    """
    native = device.native
    return None if native == jax.devices()[0] else native


def placed(fun: Callable[..., Any], native: Any) -> Callable[..., Any]:
    """``fun`` called with ``native`` as JAX's default device (the compiled function of
    ``jax.jit`` caches one executable per default device)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        with jax.default_device(native):
            return fun(*args, **kwargs)

    return call


# The policies of jax.checkpoint_policies that need no arguments.
CHECKPOINT_POLICIES = (
    "checkpoint_dots",
    "checkpoint_dots_with_no_batch_dims",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
)


def checkpoint(f: Callable[..., Any], policy: Any) -> Callable[..., Any]:
    """``jax.checkpoint`` with a policy given by name or as a callable."""
    if isinstance(policy, str):
        if policy not in CHECKPOINT_POLICIES:
            raise ValueError(
                f"arraymux.checkpoint: {policy!r} is not a named policy; the names are "
                f"{', '.join(CHECKPOINT_POLICIES)}. Policies that take arguments "
                "(jax.checkpoint_policies.save_only_these_names(...), ...) can be passed "
                "as callables."
            )
        policy = getattr(jax.checkpoint_policies, policy)
    return jax.checkpoint(f, policy=policy)
