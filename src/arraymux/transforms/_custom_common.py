"""What the engines of :class:`arraymux.custom_vjp` and :class:`arraymux.custom_jvp` share: the
face of a decorated function that they read (:class:`CustomFunction`), and the checks of what
its rules return (:func:`pair`, :func:`cotangents_of`).

``_custom`` makes the decorated functions and hands each call to ``_custom_jax`` or
``_custom_torch``; all three read this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ._control_common import flatten, show
from ._tree import function_name

__all__ = ["CustomFunction", "JvpRule", "VjpRules", "cotangents_of", "pair"]


class CustomFunction(Protocol):
    """What the engines read of a decorated function: its kind (``"custom_vjp"`` or
    ``"custom_jvp"``, which says whether it has ``fwd`` and ``bwd`` or ``jvp``), the function,
    the positions of its non-differentiated arguments, and the JAX function made of it on its
    first JAX call."""

    _kind: str
    _jax: Callable[..., object] | None
    fun: Callable[..., object]
    nondiff_argnums: tuple[int, ...]


class VjpRules(CustomFunction, Protocol):
    """A ``custom_vjp`` with its rules defined (an engine is called only then)."""

    @property
    def fwd(self) -> Callable[..., object]: ...

    @property
    def bwd(self) -> Callable[..., object]: ...


class JvpRule(CustomFunction, Protocol):
    """A ``custom_jvp`` with its rule defined (an engine is called only then)."""

    @property
    def jvp(self) -> Callable[..., object]: ...


def cotangents_of(
    spec: CustomFunction, args: tuple[object, ...], diff: list[int], cts: object
) -> list[list[object]]:
    """The leaves of the cotangents ``bwd`` returned (``cts``), one list per differentiated
    argument in the structure of its argument (None for zero), checked."""
    name = function_name(spec.fun)
    if not isinstance(cts, tuple | list):
        raise TypeError(
            f"arraymux.custom_vjp: the bwd rule of {name} must return a tuple with one "
            f"cotangent per differentiated argument ({len(diff)}), not {type(cts).__name__}."
        )
    if len(cts) != len(diff):
        raise TypeError(
            f"arraymux.custom_vjp: the bwd rule of {name} returned {len(cts)} cotangent(s), "
            f"but {name} has {len(diff)} differentiated argument(s) (the arguments not in "
            "nondiff_argnums)."
        )
    out: list[list[object]] = []
    for k, i in enumerate(diff):
        leaves, structure = flatten(args[i])
        if cts[k] is None:
            out.append([None] * len(leaves))
            continue
        ct_leaves, ct_structure = flatten(cts[k])
        if ct_structure != structure:
            raise TypeError(
                f"arraymux.custom_vjp: the bwd rule of {name} returned a cotangent of "
                f"structure {show(ct_structure)} for argument {i}, which has structure "
                f"{show(structure)}."
            )
        out.append(ct_leaves)
    return out


def pair(kind: str, spec: CustomFunction, what: str, out: object) -> tuple[object, object]:
    if not (isinstance(out, tuple | list) and len(out) == 2):
        raise TypeError(
            f"arraymux.{kind}: {what} of {function_name(spec.fun)} must return a pair, not "
            f"{type(out).__name__}."
        )
    return out[0], out[1]
