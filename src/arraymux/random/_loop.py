"""The loops of the rejection samplers (gamma, poisson, binomial), on every backend.

A rejection sampler draws until every element is accepted, so the number of rounds depends on
the values drawn. Eager backends run the rounds in Python and read one boolean per round (a
synchronisation on a GPU); JAX, whose samplers run compiled, runs them as ``jax.lax.while_loop``
over the native arrays, which also works inside ``jit`` and ``vmap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .._array import Array, wrap

if TYPE_CHECKING:
    import jax

__all__ = [
    "holds",
    "NeedsHostRead",
    "State",
    "while_loop",
]

State = tuple[Array, ...]


class NeedsHostRead(Exception):
    """A loop met a value it cannot read (a torch tensor inside ``torch.func.vmap`` or
    ``torch.compile``); the caller names its function in the error it raises."""


def while_loop(
    cond: Callable[[State], Array],
    body: Callable[[State], State],
    state: State,
    *,
    runs: bool = False,
) -> State:
    """``state = body(state)`` while ``cond(state)`` (a 0-d boolean array) holds.

    On a backend that compiles with JAX the loop is ``jax.lax.while_loop`` (``cond`` and
    ``body`` are traced once); elsewhere a Python loop that reads ``cond`` on the host, which
    skips the first read where the caller knows that ``cond`` holds at the start (``runs``).
    """
    device = state[0].device
    if device._backend.spec.jit == "jax.jit":
        import jax

        def natives(s: State) -> tuple[jax.Array, ...]:
            return tuple(a.native for a in s)

        def arrays(n: tuple[jax.Array, ...]) -> State:
            return tuple(wrap(a, device) for a in n)

        out = jax.lax.while_loop(
            lambda n: cond(arrays(n)).native, lambda n: natives(body(arrays(n))), natives(state)
        )
        return arrays(out)
    if runs:
        state = body(state)
    while holds(cond(state)):
        state = body(state)
    return state


def holds(flag: Array) -> bool:
    traced = flag.device._backend.hooks.traced
    if traced is not None and traced(flag.native):  # torch inside vmap or compile
        try:
            return bool(flag)
        except (RuntimeError, TypeError) as e:  # arraymux explains torch's RuntimeError
            raise NeedsHostRead(str(e)) from None
    return bool(flag)
