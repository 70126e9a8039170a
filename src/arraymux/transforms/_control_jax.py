"""The JAX side of arraymux's control flow: ``jax.lax``'s operators, eagerly and under every
transform.

Arrays are JAX pytree nodes (their leaf is the native array, their device the node's data),
so ``jax.lax`` takes and returns them as they are; the leaves of carries and branch results
are made Arrays first (native JAX arrays wrapped, Python scalars made JAX's weakly typed 0-d
arrays), so that JAX compares like with like. Outside arraymux's transforms, the device of
the arrays is the default one while ``jax.lax`` traces the functions, as inside a transform.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, ParamSpec, TypeVar, cast

import jax
import jax.numpy as jnp
from jax import lax

from .._array import Array, wrap
from .._devices import TRANSFORM, Device
from .._errors import TransformUnavailableError
from ._control_common import REVERSE_MESSAGE, Carry, flatten, scalar, unflatten
from ._jax import define_primitive
from ._tree import PyTree

if TYPE_CHECKING:
    from jax.extend.core import Primitive

_T = TypeVar("_T")
_R = TypeVar("_R")
_C = TypeVar("_C")  # a loop's carry
_P = ParamSpec("_P")


def _arrays(tree: _T, dev: Device, what: str, fname: str) -> _T:
    """``tree`` with each leaf an Array of ``dev``: JAX arrays and tracers wrapped, Python
    scalars made weakly typed 0-d arrays, None kept."""
    leaves, structure = flatten(tree)
    out: list[object] = []
    for v in leaves:
        if type(v) is Array:
            if v._device is not dev:
                from .._errors import BackendMismatchError, DeviceMismatchError

                kind = BackendMismatchError if v._device._name != "jax" else DeviceMismatchError
                raise kind(
                    f"arraymux.{fname}: {what} has an array on {v._device}, but the "
                    f"computation is on {dev}. Keep every array of the computation on one "
                    "device (arraymux.to_device moves one)."
                )
            out.append(v)
        elif v is None:
            out.append(v)
        elif isinstance(v, jax.Array | jax.core.Tracer):
            out.append(wrap(v, dev))
        elif isinstance(v, bool | int | float | complex):
            out.append(wrap(jnp.asarray(v), dev))
        else:
            raise TypeError(
                f"arraymux.{fname}: {what} must hold arrays and Python scalars, not "
                f"{type(v).__name__}."
            )
    return unflatten(structure, out)


def traced(dev: Device) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Run the decorated call with ``dev`` as the default device (for the creation functions
    in the traced functions) where no transform has set one."""

    def decorate(call: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(call)
        def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            transform = TRANSFORM
            if transform.device is not None:
                return call(*args, **kwargs)
            transform.device = dev
            try:
                return call(*args, **kwargs)
            finally:
                transform.device = None

        return run

    return decorate


def switch(
    fname: str,
    k: object,
    branches: Sequence[Callable[..., _R]],
    operands: Sequence[object],
    dev: Device,
    boolean: bool,
) -> _R:
    """``jax.lax.cond`` (``branches`` = (false_fun, true_fun)) or ``jax.lax.switch``."""
    ops = _arrays(operands, dev, "operands", fname)

    def branch(b: Callable[..., _R], what: str) -> Callable[..., _R]:
        def run(*args: object) -> _R:
            return _arrays(b(*args), dev, f"what {what} returns", fname)

        return run

    if boolean:
        fns = [branch(branches[0], "false_fun"), branch(branches[1], "true_fun")]
        pred = k
        if not isinstance(pred, bool) and jnp.result_type(pred) != jnp.bool_:
            pred = pred != 0

        @traced(dev)
        def run_cond() -> _R:
            return lax.cond(pred, fns[1], fns[0], *ops)

        return _explained(fname, run_cond)
    fns = [branch(b, f"branches[{i}]") for i, b in enumerate(branches)]

    @traced(dev)
    def run_switch() -> _R:
        return lax.switch(k, fns, *ops)

    return _explained(fname, run_switch)


def while_loop(
    fname: str,
    cond_fun: Callable[[_C], object],
    body_fun: Callable[[_C], _C],
    init_val: _C,
    dev: Device,
) -> _C:
    init = _arrays(init_val, dev, "init_val", fname)
    carry = Carry(fname, init, "init_val")

    def cond(c: _C) -> object:
        p = cond_fun(c)
        return scalar(fname, "cond_fun's result", p, ("bool",), "a boolean scalar")

    def body(c: _C) -> _C:
        out = _arrays(body_fun(c), dev, "the carry body_fun returns", fname)
        carry.check(out, "body_fun")
        return out

    @traced(dev)
    def run() -> _C:
        return lax.while_loop(cond, body, init)

    return forward_only(fname, _explained(fname, run))


def fori_loop(
    lower: int | Array,
    upper: int | Array,
    body_fun: Callable[[Array, _C], _C],
    init_val: _C,
    dev: Device,
    unroll: int | bool | None,
) -> _C:
    init = _arrays(init_val, dev, "init_val", "fori_loop")
    carry = Carry("fori_loop", init, "init_val")
    lo = lower._native if type(lower) is Array else lower
    hi = upper._native if type(upper) is Array else upper

    def body(i: jax.Array, c: _C) -> _C:
        out = _arrays(body_fun(wrap(i, dev), c), dev, "the carry body_fun returns", "fori_loop")
        carry.check(out, "body_fun")
        return out

    @traced(dev)
    def run() -> _C:
        return lax.fori_loop(lo, hi, body, init, unroll=unroll)

    out = _explained("fori_loop", run)
    if type(lower) is int and type(upper) is int:
        return out  # a static trip count: a scan, differentiable in reverse mode
    return forward_only("fori_loop", out)


def scan(
    f: Callable[[_C, PyTree], tuple[_C, PyTree]],
    init: _C,
    xs: PyTree,
    length: int,
    reverse: bool,
    unroll: int | bool,
    dev: Device,
) -> tuple[_C, PyTree]:
    carry0 = _arrays(init, dev, "init", "scan")
    carry = Carry("scan", carry0, "init")

    def step(c: _C, x: object) -> tuple[_C, PyTree]:
        out = f(c, cast(PyTree, x))  # a slice of xs (traced once)
        if not (isinstance(out, tuple | list) and len(out) == 2):
            raise TypeError(
                f"arraymux.scan: f must return a pair (carry, y), not {type(out).__name__}."
            )
        new = _arrays(out[0], dev, "the carry f returns", "scan")
        carry.check(new, "f")
        return new, _arrays(out[1], dev, "the y f returns", "scan")

    @traced(dev)
    def run() -> tuple[_C, PyTree]:
        return lax.scan(step, carry0, xs, length=length, reverse=reverse, unroll=unroll)

    return _explained("scan", run)


# -- reverse mode through a while loop ---------------------------------------------------------
#
# JAX refuses it when it transposes the loop, long after arraymux.while_loop returned, with a
# ValueError. The loop's results pass through a primitive that is the identity, in forward
# mode too, and whose transpose, the first one reverse mode meets, raises arraymux's error
# (the one torch raises).


def forward_only(fname: str, tree: _T) -> _T:
    """``tree`` (a loop's result) with its floating leaves passed through the identity whose
    transpose raises."""
    leaves, structure = flatten(tree)
    p = _forward_only_p()
    for i, v in enumerate(leaves):
        if type(v) is Array and jnp.issubdtype(v._native.dtype, jnp.inexact):
            leaves[i] = wrap(p.bind(v._native, fname=fname), v._device)
    return unflatten(structure, leaves)


@functools.cache
def _forward_only_p() -> Primitive:
    from jax.extend.core import Primitive
    from jax.interpreters import ad

    p = Primitive("arraymux_forward_only")

    def identity(x: jax.Array, *, fname: str) -> jax.Array:
        return x

    def jvp(
        primals: tuple[jax.Array], tangents: tuple[jax.Array | ad.Zero], *, fname: str
    ) -> tuple[jax.Array, jax.Array | ad.Zero]:
        (x,), (t,) = primals, tangents
        return p.bind(x, fname=fname), (t if type(t) is ad.Zero else p.bind(t, fname=fname))

    def transpose(ct: object, x: object, *, fname: str) -> NoReturn:
        raise TransformUnavailableError(REVERSE_MESSAGE.format(fname=fname))

    def batch(
        args: Sequence[jax.Array], dims: Sequence[int | None], *, fname: str
    ) -> tuple[jax.Array, int | None]:
        return p.bind(args[0], fname=fname), dims[0]

    return define_primitive(p, identity, identity, identity, jvp, transpose, batch)


# JAX's messages for a carry or branches that do not agree; arraymux's own is put in front
# of them.
_MISMATCH = (
    "must have equal types",
    "must have equal output types",
    "must have the same pytree structure",
    "cond_fun must return a boolean scalar",
    "must have identical types",
    "must have same type structure",
    "must have the same type structure",
    "output and input must have",
    "body_fun output and input",
    "carry output and input",
    "the input carry",
    "branch outputs must have",
    "branches must have",
)


def _explained(fname: str, run: Callable[[], _R]) -> _R:
    try:
        return run()
    except TypeError as e:
        text = str(e)
        if any(m in text for m in _MISMATCH) and not text.startswith("arraymux."):
            raise TypeError(
                f"arraymux.{fname}: the structure, shapes or dtypes do not agree (JAX: {text})"
            ) from None
        raise
