"""Control flow with ``jax.lax``'s signatures: :func:`cond`, :func:`switch`,
:func:`while_loop`, :func:`fori_loop` and :func:`scan`.

Which engine runs them follows the arrays, as for the transforms:

- JAX: ``jax.lax``'s own operators (Arrays are JAX pytrees), eagerly and under every transform.
- torch, in eager mode (and inside torch.func's transforms): Python loops and branches on the
  tensors, which torch.autograd and torch.func differentiate and batch; a predicate that
  ``vmap`` batches takes both branches and selects, as ``jax.vmap`` does.
- torch under ``torch.compile`` (:func:`arraymux.jit`): ``torch.cond`` for :func:`cond` and
  :func:`switch`, torch's ``while_loop`` operator for :func:`while_loop`; :func:`scan` and
  :func:`fori_loop` with a static trip count are unrolled by dynamo (see ``_control_torch``).
- NumPy, CuPy, Dask and array-api-strict: plain Python.

The carry of a loop keeps its structure (tuples, lists, dicts, named tuples), shapes and dtypes
from step to step; every engine checks it, and the errors name the function and the leaf.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeVar, cast

from .._array import Array, operand, wrap
from .._devices import Device

if TYPE_CHECKING:
    from torch import Tensor
from ._control_common import (
    Carry,
    as_arrays,
    check_fun,
    flatten,
    is_scalar,
    leaf_paths,
    placed,
    scalar,
    select_all,
    show,
    unflatten,
)
from ._pytrees import TreeDef
from ._tree import PyTree, device_of

_T = TypeVar("_T")
_R = TypeVar("_R")
#: The carry of a loop, and what a step of scan returns beside it.
_C = TypeVar("_C")
_Y = TypeVar("_Y")

__all__ = ["cond", "fori_loop", "scan", "switch", "while_loop"]


# -- which engine runs -----------------------------------------------------------------------

_PYTHON, _JAX, _TORCH, _TORCH_COMPILED = 0, 1, 2, 3


def _route(dev: Device) -> int:
    name = dev._name
    if name == "jax":
        return _JAX
    if name == "torch":
        import torch

        return _TORCH_COMPILED if torch.compiler.is_compiling() else _TORCH
    return _PYTHON


def _engine(route: int) -> ModuleType:
    if route == _JAX:
        from . import _control_jax

        return _control_jax
    from . import _control_torch

    return _control_torch


# -- the branches -----------------------------------------------------------------------------


def cond(
    pred: object, true_fun: Callable[..., _R], false_fun: Callable[..., _R], *operands: object
) -> _R:
    """``true_fun(*operands)`` if ``pred`` holds, else ``false_fun(*operands)``, as
    ``jax.lax.cond``.

    Parameters
    ----------
    pred
        A scalar: a Python bool or int, or a 0-d boolean or integer array (nonzero is true).
    true_fun, false_fun
        Functions of ``operands`` that return pytrees (tuples, lists, dicts of arrays) of the
        same structure, shapes and dtypes.
    *operands
        The arguments of the branch taken (pytrees of arrays and Python scalars).

    Returns
    -------
    pytree
        ``true_fun(*operands)`` or ``false_fun(*operands)``.

    Raises
    ------
    TypeError
        ``pred`` is not a boolean or integer scalar, a branch is not callable, or (where both
        branches are traced: JAX, ``torch.compile``, a predicate batched by ``vmap``) the
        branches return different structures, shapes or dtypes.
    BackendMismatchError
        ``pred`` and the operands are on different backends.

    Notes
    -----
    On NumPy, CuPy, Dask, array-api-strict and eager torch, the branch taken runs as Python
    and the other does not run. On JAX it is ``jax.lax.cond``; under :func:`arraymux.jit` on
    torch, ``torch.cond`` (inside :func:`arraymux.grad` and the other derivatives compiled by
    :func:`arraymux.jit`, where torch's operators do not compose with torch.func, both
    branches run and the result is selected). Under :func:`arraymux.vmap`, a predicate that
    differs between the batch's elements runs both branches and selects each element's, as
    ``jax.vmap`` does. Derivatives flow through the branch taken on every engine.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.asarray([1.0, 2.0])
    >>> xp.cond(xp.sum(x) > 2, lambda v: v * 10, lambda v: -v, x)
    Array([10., 20.], dtype=float64, device='numpy:cpu')
    >>> xp.grad(lambda v: xp.sum(xp.cond(v[0] > 0, xp.sin, xp.cos, v)))(x)
    Array([ 0.54030231, -0.41614684], dtype=float64, device='numpy:cpu')
    """
    check_fun("cond", "true_fun", true_fun)
    check_fun("cond", "false_fun", false_fun)
    dev, (pred, operands) = placed("cond", ("pred", pred), ("operands", operands))
    p = scalar("cond", "pred", pred, _PRED_KINDS, "a boolean or integer scalar")
    route = _route(dev)
    if route == _JAX:
        return _engine(route).switch("cond", p, (false_fun, true_fun), operands, dev, boolean=True)
    if type(p) is bool or type(p) is int:
        return (true_fun if p else false_fun)(*operands)
    if route == _TORCH_COMPILED:
        return _engine(route).compiled_switch(
            "cond", p, (false_fun, true_fun), operands, dev, boolean=True
        )
    taken = _truth(route, p)
    if taken is None:  # batched by vmap: both branches, selected
        return select_all("cond", wrap(p, dev), (false_fun, true_fun), operands, True)
    return (true_fun if taken else false_fun)(*operands)


_PRED_KINDS = ("bool", "signed integer", "unsigned integer")


def switch(index: object, branches: Sequence[Callable[..., _R]], *operands: object) -> _R:
    """``branches[index](*operands)``, with ``index`` clamped into range, as
    ``jax.lax.switch``.

    Parameters
    ----------
    index
        An integer scalar (a Python int or a 0-d integer array); below 0 it takes the first
        branch, past the end the last.
    branches
        A non-empty sequence of functions of ``operands`` that return pytrees of the same
        structure, shapes and dtypes.
    *operands
        The arguments of the branch taken.

    Returns
    -------
    pytree
        ``branches[index](*operands)``, ``index`` clamped into ``[0, len(branches) - 1]``.

    Raises
    ------
    TypeError
        ``index`` is not an integer scalar, ``branches`` is empty or holds a non-callable, or
        (where the branches are traced) they return different structures, shapes or dtypes.
    BackendMismatchError
        ``index`` and the operands are on different backends.

    Notes
    -----
    It runs as :func:`cond` does: the branch taken alone in Python, ``jax.lax.switch`` on JAX,
    nested ``torch.cond`` under :func:`arraymux.jit` on torch, every branch and a selection
    for an index batched by :func:`arraymux.vmap`.

    Examples
    --------
    >>> import arraymux as xp
    >>> ops = [lambda v: v + 1, lambda v: v * 2, lambda v: v**2]
    >>> x = xp.asarray([3.0])
    >>> xp.switch(1, ops, x), xp.switch(xp.asarray(7), ops, x)
    (Array([6.], dtype=float64, device='numpy:cpu'), Array([9.], dtype=float64, device='numpy:cpu'))
    """
    if isinstance(branches, str | bytes) or not isinstance(branches, Sequence) or not branches:
        raise TypeError(
            "arraymux.switch: branches must be a non-empty sequence (a list or tuple) of "
            f"functions, not {branches!r:.60}."
        )
    for i, b in enumerate(branches):
        check_fun("switch", f"branches[{i}]", b)
    branches = tuple(branches)
    dev, (index, operands) = placed("switch", ("index", index), ("operands", operands))
    k = scalar("switch", "index", index, _INDEX_KINDS, "an integer scalar")
    route = _route(dev)
    n = len(branches)
    if route == _JAX:
        return _engine(route).switch("switch", k, branches, operands, dev, boolean=False)
    if type(k) is int or type(k) is bool:
        return branches[min(max(k, 0), n - 1)](*operands)
    if n == 1:
        return branches[0](*operands)
    if route == _TORCH_COMPILED:
        return _engine(route).compiled_switch("switch", k, branches, operands, dev, boolean=False)
    value = _index(route, k)
    if value is None:  # batched by vmap
        return select_all("switch", wrap(k, dev), branches, operands, False)
    return branches[min(max(value, 0), n - 1)](*operands)


_INDEX_KINDS = ("signed integer", "unsigned integer")


def _truth(route: int, native: object) -> bool | None:
    """A 0-d array's truth; None where ``vmap`` batches it (torch)."""
    if route in (_TORCH, _TORCH_COMPILED):
        return _engine(route).truth(native)
    return bool(native)


def _index(route: int, native: Any) -> int | None:
    if route in (_TORCH, _TORCH_COMPILED):
        return _engine(route).index(native)
    return operator.index(native) if hasattr(native, "__index__") else int(native)


def while_loop(cond_fun: Callable[[_C], object], body_fun: Callable[[_C], _C], init_val: _C) -> _C:
    """Apply ``body_fun`` to a carry while ``cond_fun`` holds, as ``jax.lax.while_loop``::

        val = init_val
        while cond_fun(val):
            val = body_fun(val)
        return val

    Parameters
    ----------
    cond_fun
        A function of the carry returning a boolean scalar (a Python bool or a 0-d bool array).
    body_fun
        A function of the carry returning the next carry, of the same structure, shapes and
        dtypes.
    init_val
        The first carry: a pytree (tuples, lists, dicts) of arrays and Python scalars.

    Returns
    -------
    pytree
        The first carry for which ``cond_fun`` does not hold.

    Raises
    ------
    TypeError
        A function is not callable, ``cond_fun`` returns something other than a boolean
        scalar, or ``body_fun`` changes the carry's structure, shapes or dtypes (the message
        names the leaf).
    TransformUnavailableError
        Reverse-mode differentiation (:func:`arraymux.grad`, :func:`arraymux.vjp`, ...)
        through the loop on torch, as with ``jax.lax.while_loop`` (which raises JAX's
        ``ValueError``): the number of steps is not known before the loop runs. Use
        :func:`fori_loop` with Python int bounds, or :func:`scan`.

    Notes
    -----
    Forward mode (:func:`arraymux.jvp`) and :func:`arraymux.vmap` work on every engine that
    has them; under ``vmap``, the loop runs until every element's ``cond_fun`` is false, and
    stops updating each element when its own is. On JAX it is ``jax.lax.while_loop``; under
    :func:`arraymux.jit` on torch, torch's ``while_loop`` operator; elsewhere a Python loop,
    which reads ``cond_fun``'s value on the host at each step (on Dask that computes it).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.while_loop(lambda c: c[1] < 100, lambda c: (c[0] + 1, c[1] * 3), (0, xp.asarray(1.0)))
    (Array(5, dtype=int64, device='numpy:cpu'), Array(243., dtype=float64, device='numpy:cpu'))
    """
    check_fun("while_loop", "cond_fun", cond_fun)
    check_fun("while_loop", "body_fun", body_fun)
    dev, (init_val,) = placed("while_loop", ("init_val", init_val))
    route = _route(dev)
    if route == _JAX:
        return _engine(route).while_loop("while_loop", cond_fun, body_fun, init_val, dev)
    if route == _TORCH_COMPILED:
        out = _engine(route).compiled_while("while_loop", cond_fun, body_fun, init_val, dev)
        if out is not None:
            return out
    init = as_arrays(init_val, dev, is_scalar)
    out = _python_while(
        "while_loop", route, cond_fun, body_fun, init, Carry("while_loop", init, "init_val")
    )
    if route == _TORCH:
        return _engine(route).no_reverse("while_loop", out, dev)
    return out


def _python_while(
    fname: str,
    route: int,
    cond_fun: Callable[[_C], object],
    body_fun: Callable[[_C], _C],
    val: _C,
    carry: Carry,
    what: str = "body_fun",
) -> _C:
    """The while loop in Python; a predicate batched by ``vmap`` (eager torch) continues as a
    loop until no element's predicate holds, updating only the elements whose predicate
    holds."""
    while True:
        p = scalar(fname, "cond_fun's result", cond_fun(val), ("bool",), "a boolean scalar")
        if type(p) is bool:
            go: bool | None = p
        else:
            go = _truth(route, p)
        if go is None:
            return _batched_while(fname, cond_fun, body_fun, val, carry, p, what)
        if not go:
            return val
        val = body_fun(val)
        carry.check(val, what)


def _batched_while(
    fname: str,
    cond_fun: Callable[[_C], object],
    body_fun: Callable[[_C], _C],
    val: _C,
    carry: Carry,
    p: Tensor,
    what: str,
) -> _C:
    from .._searching_functions import where
    from . import _control_torch

    dev = device_of(fname, ("init_val", val))
    while _control_torch.any_lane(p):
        new = body_fun(val)
        new_leaves = carry.check(new, what)
        old_leaves, structure = flatten(val)
        active = wrap(p, dev)
        val = unflatten(
            structure,
            [o if o is None else where(active, n, o) for n, o in zip(new_leaves, old_leaves)],
        )
        p = scalar(fname, "cond_fun's result", cond_fun(val), ("bool",), "a boolean scalar")
        if type(p) is bool:
            p = _control_torch.as_tensor(p)
    return val


def fori_loop(
    lower: int | Array,
    upper: int | Array,
    body_fun: Callable[[Array, _C], _C],
    init_val: _C,
    *,
    unroll: int | bool | None = None,
) -> _C:
    """Apply ``body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1``, as
    ``jax.lax.fori_loop``::

        val = init_val
        for i in range(lower, upper):
            val = body_fun(i, val)
        return val

    Parameters
    ----------
    lower, upper
        The bounds: Python ints (a static trip count), or 0-d integer arrays.
    body_fun
        A function of the index and the carry returning the next carry, of the same
        structure, shapes and dtypes. The index is a 0-d integer array on the carry's device
        (the default integer dtype for Python int bounds, else the bounds' dtype).
    init_val
        The first carry: a pytree of arrays and Python scalars.
    unroll
        How many steps each iteration of JAX's compiled loop runs (``jax.lax.fori_loop``'s
        ``unroll``); other engines ignore it.

    Returns
    -------
    pytree
        The carry after ``upper - lower`` steps (``init_val`` where ``upper <= lower``).

    Raises
    ------
    TypeError
        A bound is not an integer scalar, ``body_fun`` is not callable or changes the carry's
        structure, shapes or dtypes.
    TransformUnavailableError
        Reverse-mode differentiation on torch through a loop whose bounds are arrays (as
        :func:`while_loop`; JAX raises its ``ValueError``).

    Notes
    -----
    With Python int bounds the trip count is static: the loop is a :func:`scan`, which every
    engine differentiates in both modes. With array bounds it is a :func:`while_loop`:
    forward mode only.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.fori_loop(0, 5, lambda i, total: total + i, xp.asarray(0.0))
    Array(10., dtype=float64, device='numpy:cpu')
    >>> power = lambda x: xp.fori_loop(0, 3, lambda i, v: v * x, xp.ones_like(x))
    >>> xp.grad(lambda x: xp.sum(power(x)))(xp.asarray([2.0]))
    Array([12.], dtype=float64, device='numpy:cpu')
    """
    check_fun("fori_loop", "body_fun", body_fun)
    _check_unroll("fori_loop", unroll)
    static = _static_int(lower) and _static_int(upper)
    if static:
        lo, hi = operator.index(lower), operator.index(upper)
        dev, (init_val,) = placed("fori_loop", ("init_val", init_val))
    else:
        scalar("fori_loop", "lower", lower, _INDEX_KINDS, "an integer scalar")
        scalar("fori_loop", "upper", upper, _INDEX_KINDS, "an integer scalar")
        dev, (lower, upper, init_val) = placed(
            "fori_loop", ("lower", lower), ("upper", upper), ("init_val", init_val)
        )
    route = _route(dev)
    if route == _JAX:
        return _engine(route).fori_loop(lower, upper, body_fun, init_val, dev, unroll)
    init = as_arrays(init_val, dev, is_scalar)
    carry = Carry("fori_loop", init, "init_val")
    if static:
        if hi <= lo:
            return init
        from .._creation_functions import arange
        from .._manipulation_functions import unstack

        val = init
        for i in unstack(arange(lo, hi, device=dev)):
            val = body_fun(i, val)
            carry.check(val, "body_fun")
        return val
    # Array bounds: a while loop over (i, val).
    from .._creation_functions import asarray
    from .._data_type_functions import result_type

    lo_a, hi_a = asarray(lower, device=dev), asarray(upper, device=dev)
    dtype = result_type(lo_a, hi_a)
    if lo_a.dtype != dtype:
        from .._data_type_functions import astype

        lo_a = astype(lo_a, dtype)

    def cond_fun(c: tuple[Array, _C]) -> Array:
        return c[0] < hi_a

    def body(c: tuple[Array, _C]) -> tuple[Array, _C]:
        return (c[0] + 1, body_fun(c[0], c[1]))

    if route == _TORCH_COMPILED:
        out = _engine(route).compiled_while("fori_loop", cond_fun, body, (lo_a, init), dev)
        if out is not None:
            return out[1]
    pair = Carry("fori_loop", (lo_a, init), "init_val")
    out = _python_while("fori_loop", route, cond_fun, body, (lo_a, init), pair, "body_fun")
    if route == _TORCH:
        out = _engine(route).no_reverse("fori_loop", out, dev)
    return out[1]


def _static_int(v: object) -> bool:
    """Whether ``v`` is a Python (or NumPy scalar) integer: a bound known before the loop."""
    if type(v) is int:
        return True
    if type(v) is Array or isinstance(v, bool | float | complex):
        return False
    if operand(v) is not None and getattr(v, "shape", None) != ():
        return False
    if operand(v) is not None and not type(v).__module__.startswith("numpy"):
        return False  # a 0-d tensor or JAX array: a value of the computation
    try:
        operator.index(cast(SupportsIndex, v))  # what it refuses raises TypeError
    except TypeError:
        return False
    return True


def _check_unroll(fname: str, unroll: object) -> None:
    if unroll is None or type(unroll) is bool:
        return
    if type(unroll) is not int or unroll < 1:
        raise TypeError(
            f"arraymux.{fname}: unroll must be a positive int or a bool, not {unroll!r}."
        )


def scan(
    f: Callable[[_C, PyTree], tuple[_C, PyTree]],
    init: _C,
    xs: PyTree = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[_C, PyTree]:
    """Loop ``f`` over the leading axis of ``xs``, carrying a state and stacking the outputs,
    as ``jax.lax.scan``::

        carry, ys = init, []
        for x in xs:
            carry, y = f(carry, x)
            ys.append(y)
        return carry, stack(ys)

    Parameters
    ----------
    f
        A function ``f(carry, x) -> (carry, y)``; the carry keeps its structure, shapes and
        dtypes, and ``y`` (a pytree of arrays and Python scalars, or None) keeps its
        structure.
    init
        The first carry: a pytree of arrays and Python scalars.
    xs
        A pytree of arrays scanned along their first axis (all of one length), or None.
    length
        The number of steps: required when ``xs`` is None, else checked against it.
    reverse
        Scan from the end: ``ys[i]`` still belongs to ``xs[i]``.
    unroll
        How many steps each iteration of JAX's compiled loop runs (``jax.lax.scan``'s
        ``unroll``); other engines ignore it.

    Returns
    -------
    tuple
        ``(carry, ys)``: the last carry, and the ``y``\\ s stacked along a new first axis (a
        pytree like ``y``; None where ``y`` is None).

    Raises
    ------
    TypeError
        ``f`` is not callable, does not return a pair, changes the carry's structure, shapes
        or dtypes, or changes the structure of ``y``; ``xs`` holds something other than
        arrays.
    ValueError
        The leaves of ``xs`` differ in length, or ``length`` disagrees with them, or neither
        gives a length.

    Notes
    -----
    On JAX it is ``jax.lax.scan``; on torch and the other backends a Python loop, which
    torch.autograd and torch.func differentiate (in both modes) and batch. Under
    :func:`arraymux.jit` on torch, dynamo unrolls the loop into one graph, so compiling takes
    longer the more steps there are (the compiled code runs as fast as a compiled Python loop
    of torch's own).

    Examples
    --------
    >>> import arraymux as xp
    >>> xs = xp.asarray([1.0, 2.0, 3.0, 4.0])
    >>> xp.scan(lambda total, x: (total + x, total * x), xp.asarray(0.0), xs)
    (Array(10., dtype=float64, device='numpy:cpu'), Array([ 0.,  2.,  9., 24.], dtype=float64, device='numpy:cpu'))
    >>> xp.scan(lambda c, _: (c * 2, None), xp.asarray(1.0), length=3)
    (Array(8., dtype=float64, device='numpy:cpu'), None)
    """
    check_fun("scan", "f", f)
    _check_unroll("scan", unroll)
    if type(reverse) is not bool:
        raise TypeError(f"arraymux.scan: reverse must be a bool, not {reverse!r}.")
    dev, (init, xs) = placed("scan", ("init", init), ("xs", xs))
    xs = as_arrays(xs, dev)
    xs_leaves, xs_structure = flatten(xs)
    n = _scan_length(xs_leaves, xs, length)
    route = _route(dev)
    if route == _JAX:
        return _engine(route).scan(f, init, xs, n, reverse, unroll, dev)
    init = as_arrays(init, dev, is_scalar)
    carry_check = Carry("scan", init, "init")
    from .._manipulation_functions import stack, unstack

    # One call per leaf, not one per step.
    slices = [None if v is None else unstack(v) for v in xs_leaves]
    carry = init
    ys: list[list[object]] = []
    y_structure: TreeDef | None = None
    steps = range(n - 1, -1, -1) if reverse else range(n)
    one_x = slices[0] if type(xs) is Array else None
    for t in steps:
        if one_x is not None:
            x = one_x[t]
        else:
            x = unflatten(xs_structure, [None if s is None else s[t] for s in slices])
        carry, y = _pair(f(carry, x))
        carry_check.check(carry, "f")
        if y_structure is _ONE and type(y) is Array:  # the common y, one Array
            ys.append([y])
            continue
        y_leaves, s = flatten(y)
        if y_structure is None:
            y_structure = s
        elif s != y_structure:
            raise TypeError(
                f"arraymux.scan: f returned y of structure {show(s)} at step {t}, but "
                f"{show(y_structure)} before; y must keep its structure from step to step."
            )
        ys.append(y_leaves)
    if n == 0:
        return carry, _empty_ys(f, init, xs_leaves, xs_structure, xs, dev)
    if reverse:
        ys.reverse()
    stacked = [
        None if ys[0][j] is None else stack([_array(step[j], dev) for step in ys])
        for j in range(len(ys[0]))
    ]
    assert y_structure is not None  # set by the first step (n > 0)
    return carry, unflatten(y_structure, stacked)


_ONE = flatten(0)[1]  # the structure of a single leaf


def _pair(out: tuple[_C, _Y]) -> tuple[_C, _Y]:
    if type(out) is tuple and len(out) == 2:
        return out
    if not (isinstance(out, tuple | list) and len(out) == 2):
        raise TypeError(
            "arraymux.scan: f must return a pair (carry, y), not "
            f"{type(out).__name__}{f' of length {len(out)}' if isinstance(out, tuple | list) else ''}."
        )
    return out[0], out[1]


def _array(v: object, dev: Device) -> Array:
    if type(v) is Array:
        return v
    from .._creation_functions import asarray

    return asarray(v, device=dev)


def _scan_length(leaves: list[object], xs: object, length: object) -> int:
    if length is not None and (type(length) is not int or length < 0):
        raise TypeError(f"arraymux.scan: length must be a non-negative int, not {length!r}.")
    lengths: list[tuple[int, str]] = []
    for v, path in zip(leaves, leaf_paths(xs)):
        if v is None:
            continue
        if type(v) is not Array:
            raise TypeError(
                f"arraymux.scan: xs must hold arrays, but xs{path} is {type(v).__name__}."
            )
        if v.ndim == 0:
            raise TypeError(
                f"arraymux.scan: xs must hold arrays with a leading axis to scan over, but "
                f"xs{path} is 0-d."
            )
        m = v.shape[0]
        if m is None:
            raise ValueError(
                f"arraymux.scan: xs{path} has an unknown length along its first axis (a Dask "
                "array of unknown chunk sizes: compute them first, x.native.compute_chunk_sizes())."
            )
        lengths.append((m, path))
    if lengths:
        n, first = lengths[0]
        for m, path in lengths[1:]:
            if m != n:
                raise ValueError(
                    f"arraymux.scan: the arrays of xs differ in length: xs{first} has {n} and "
                    f"xs{path} has {m} along the first axis."
                )
        if length is not None and length != n:
            raise ValueError(
                f"arraymux.scan: length is {length}, but the arrays of xs have {n} along their "
                "first axis."
            )
        return n
    if length is None:
        raise ValueError(
            "arraymux.scan: without arrays in xs, the number of steps must be given: "
            "scan(f, init, length=n)."
        )
    return length


def _empty_ys(
    f: Callable[[_C, PyTree], tuple[_C, PyTree]],
    init: _C,
    xs_leaves: list[Array | None],
    xs_structure: TreeDef,
    xs: object,
    dev: Device,
) -> PyTree:
    """The stacked ys of a scan of no steps: f runs once on zeros to tell their structure,
    shapes and dtypes (as JAX traces it), and each is empty along its first axis."""
    from .._creation_functions import empty, zeros

    x = (
        unflatten(
            xs_structure,
            [
                None if v is None else zeros(v.shape[1:], dtype=v.dtype, device=dev)
                for v in xs_leaves
            ],
        )
        if xs is not None
        else None
    )
    _, y = _pair(f(init, x))
    y_leaves, y_structure = flatten(y)
    out: list[Array | None] = []
    for v in y_leaves:
        if v is None:
            out.append(None)
            continue
        a = _array(v, dev)
        out.append(empty((0, *a.shape), dtype=a.dtype, device=dev))
    return unflatten(y_structure, out)
