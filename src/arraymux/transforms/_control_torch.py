"""The torch side of arraymux's control flow (see ``_control``).

In eager mode, and inside torch.func's transforms, the loops and branches are Python; this
module gives them what torch needs there: the value of a 0-d tensor or None where ``vmap``
batches it (:func:`truth`, :func:`index`), whether a batched predicate holds for any element
(:func:`any_lane`, an ``autograd.Function`` whose ``vmap`` rule reduces over the batch), and
the results of a while loop, whose reverse-mode derivative raises (:func:`no_reverse`).

Under ``torch.compile`` (torch 2.13):

- :func:`compiled_switch` is ``torch.cond`` (nested for :func:`arraymux.switch`), and
  :func:`compiled_while` torch's ``while_loop`` operator. Their branches and bodies may not
  fill arraymux's caches (dynamo refuses side effects inside them) nor return their inputs or
  views of them: each function runs once outside the operator first (dead code for inductor,
  which drops it), which fills the caches and checks that the branches agree, and the
  operator's outputs are copies.
- torch's operators do not compose with torch.func's ``grad`` and ``jvp`` (dynamo fails on
  them), which :func:`arraymux.grad` and the other derivatives use under ``torch.compile``,
  and the while loop not with its ``vmap`` either: there, :func:`arraymux.cond` and
  :func:`arraymux.switch` run every branch and select, a while loop differentiated in
  reverse mode raises :class:`TransformUnavailableError` and one in forward mode or batched
  is a Python loop (dynamo runs it outside its graph). ``FUNC_LEVELS`` (kept by the torch
  engine) says when.
- :func:`arraymux.scan` and :func:`arraymux.fori_loop` with a static trip count stay Python
  loops, which dynamo unrolls: torch's ``scan`` operator compiles only with
  ``fullgraph=True`` in torch 2.13 (inductor lowers it with ``.item()``), and its compiled
  loop copies the stacked outputs at every step (time quadratic in the length).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, Protocol, TypeVar, cast

import torch
from torch._higher_order_ops import while_loop as _while_op

from .._array import Array, wrap
from .._devices import Device
from .._errors import TransformUnavailableError
from ._control_common import REVERSE_MESSAGE, Aval, Carry, agree, flatten, scalar, unflatten
from ._pytrees import TreeDef
from ._torch import FUNC_LEVELS, SavedContext

if TYPE_CHECKING:
    from torch import Tensor

# -- eager mode -------------------------------------------------------------------------------

_peek = torch._C._functorch.peek_interpreter_stack


def _batched(e: RuntimeError) -> bool:
    """Whether ``e`` is vmap's refusal to read a batched tensor's value."""
    text = str(e)
    return text.startswith("vmap:") and ("data-dependent control flow" in text or ".item()" in text)


_T = TypeVar("_T")
_R = TypeVar("_R")
_C = TypeVar("_C")  # a loop's carry


def truth(t: Tensor) -> bool | None:
    """The truth of a 0-d tensor, or None where vmap batches it."""
    return _read(t, bool)


def index(t: Tensor) -> int | None:
    """The value of a 0-d integer tensor, or None where vmap batches it."""
    return _read(t, int)


def _read(t: Tensor, as_type: Callable[[Tensor], _T]) -> _T | None:
    """``as_type(t)`` of a 0-d tensor, or None where vmap batches it (its value is not one)."""
    try:
        return as_type(t)
    except RuntimeError as e:
        if _batched(e):
            return None
        raise


def as_tensor(value: bool) -> Tensor:
    return torch.tensor(value)


class _AnyLane(torch.autograd.Function):
    """``p.any()``, reduced over every batch of the vmaps around it as well (its vmap rule
    returns an unbatched result), so that the Python loop of a batched while loop can read
    it."""

    @staticmethod
    def forward(p: Tensor) -> Tensor:
        return p.any()

    @staticmethod
    def setup_context(ctx: object, inputs: tuple[Tensor], output: Tensor) -> None:
        pass

    @staticmethod
    def vmap(info: object, in_dims: tuple[int | None], p: Tensor) -> tuple[Tensor, None]:
        return _AnyLane.apply(p.any()), None


def any_lane(p: Tensor) -> bool:
    """Whether the predicate ``p`` (a 0-d bool tensor, batched or not) holds anywhere."""
    return bool(_AnyLane.apply(p))


class _NoReverseContext(SavedContext, Protocol):
    fname: str


class _NoReverse(torch.autograd.Function):
    """The identity, whose forward-mode derivative is the identity and whose reverse-mode one
    raises: the results of a loop whose trip count depends on values (JAX's rule)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(fname: str, *tensors: Tensor) -> tuple[Tensor, ...]:
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def setup_context(
        ctx: _NoReverseContext, inputs: tuple[str, *tuple[Tensor, ...]], output: tuple[Tensor, ...]
    ) -> None:
        ctx.fname = inputs[0]

    @staticmethod
    def backward(ctx: _NoReverseContext, *cotangents: Tensor) -> NoReturn:
        raise reverse_error(ctx.fname)

    @staticmethod
    def jvp(ctx: _NoReverseContext, *tangents: Tensor) -> tuple[Tensor, ...]:
        return tuple(tangents[1:])


def reverse_error(fname: str) -> TransformUnavailableError:
    return TransformUnavailableError(REVERSE_MESSAGE.format(fname=fname))


def no_reverse(fname: str, tree: _T, dev: Device) -> _T:
    """``tree`` (a loop's result) with its floating tensors passed through :class:`_NoReverse`
    where something may differentiate them."""
    leaves, structure = flatten(tree)
    where = [
        i
        for i, v in enumerate(leaves)
        if type(v) is Array and (v._native.is_floating_point() or v._native.is_complex())
    ]
    if not where:
        return tree
    natives = [leaves[i]._native for i in where]
    if _peek() is None and not (torch.is_grad_enabled() and any(t.requires_grad for t in natives)):
        return tree  # nothing differentiates them
    outs = _NoReverse.apply(fname, *natives)
    for i, t in zip(where, outs):
        leaves[i] = wrap(t, dev)
    return unflatten(structure, leaves)


# -- under torch.compile ----------------------------------------------------------------------


def _tensor(v: object, dtype: torch.dtype, place: torch.device) -> Tensor:
    """A leaf that a compiled branch or body returns, as a fresh tensor of ``dtype`` (torch's
    operators refuse outputs that alias their inputs)."""
    if type(v) is Array:
        t = v._native
    elif isinstance(v, torch.Tensor):
        t = v
    else:  # a Python scalar
        return torch.tensor(v, dtype=dtype, device=place)
    if t.dtype != dtype:
        return t.to(dtype)
    return t.clone()


def _native_dtype(a: Aval, dev: Device) -> torch.dtype:
    """The torch dtype of an aval (a Python scalar's: the device's default for its kind)."""
    if isinstance(a, type):  # a Python scalar's
        from .._creation_functions import asarray

        native = asarray(a(0), device=dev)._native
    else:
        assert a is not None and len(a) == 3  # an array's (a kept leaf of the branches)
        native = dev._backend.array_dtypes[a[1]]
        return cast("torch.dtype", native)  # torch's backend: its dtypes are torch's
    return cast("torch.dtype", native.dtype)  # a tensor's


def _operand_tensors(
    operands: Sequence[object],
) -> tuple[list[object], TreeDef, list[int], tuple[Tensor, ...]]:
    leaves, structure = flatten(operands)
    positions = [i for i, v in enumerate(leaves) if type(v) is Array or isinstance(v, torch.Tensor)]
    tensors = tuple(leaves[i]._native if type(leaves[i]) is Array else leaves[i] for i in positions)
    return leaves, structure, positions, tensors


def compiled_switch(
    fname: str,
    k: Tensor,
    branches: Sequence[Callable[..., _R]],
    operands: Sequence[object],
    dev: Device,
    boolean: bool,
) -> _R:
    """:func:`arraymux.cond` (``branches`` = (false_fun, true_fun)) or
    :func:`arraymux.switch` under torch.compile, on the 0-d tensor ``k``."""
    if FUNC_LEVELS.reverse or FUNC_LEVELS.forward:
        from ._control_common import select_all

        return select_all(fname, wrap(k, dev), branches, operands, boolean)
    outs = [b(*operands) for b in branches]  # the run outside the operator (see above)
    _, out_structure, avals = agree(fname, outs, boolean)
    kept = [j for j, a in enumerate(avals) if a is not None]
    if not kept:
        return outs[0]
    dtypes = {j: _native_dtype(avals[j], dev) for j in kept}
    place = dev.native
    leaves, structure, positions, tensors = _operand_tensors(operands)

    def native(b: Callable[..., _R]) -> Callable[..., tuple[Tensor, ...]]:
        def run(*ts: Tensor) -> tuple[Tensor, ...]:
            full = list(leaves)
            for i, t in zip(positions, ts):
                full[i] = wrap(t, dev)
            out, _ = flatten(b(*unflatten(structure, full)))
            return tuple(_tensor(out[j], dtypes[j], place) for j in kept)

        return run

    fns = [native(b) for b in branches]
    n = len(fns)
    if boolean:
        pred = k if k.dtype == torch.bool else k != 0
        result = torch.cond(pred, fns[1], fns[0], tensors)
    else:
        idx = torch.clamp(k, 0, n - 1)

        def chain(j: int) -> Callable[..., tuple[Tensor, ...]]:
            if j == n - 1:
                return fns[j]
            rest = chain(j + 1)

            def run(*ts: Tensor) -> tuple[Tensor, ...]:
                return torch.cond(idx == j, fns[j], rest, ts)

            return run

        result = chain(0)(*tensors)
    full_out: list[Array | None] = [None] * len(avals)
    for j, t in zip(kept, result):
        full_out[j] = wrap(t, dev)
    return unflatten(out_structure, full_out)


def compiled_while(
    fname: str,
    cond_fun: Callable[[_C], object],
    body_fun: Callable[[_C], _C],
    init_val: _C,
    dev: Device,
) -> _C | None:
    """:func:`arraymux.while_loop` under torch.compile: torch's while_loop operator; None
    where the Python loop runs instead (inside torch.func's jvp and vmap)."""
    levels = FUNC_LEVELS
    if levels.reverse:
        raise reverse_error(fname)
    if levels.forward or levels.batch:
        return None
    from .._creation_functions import asarray

    leaves, structure = flatten(init_val)
    for i, v in enumerate(leaves):
        if type(v) is not Array and v is not None:
            if isinstance(v, torch.Tensor):
                leaves[i] = wrap(v, dev)
            elif isinstance(v, bool | int | float | complex):
                leaves[i] = asarray(v, device=dev)
            else:
                raise TypeError(
                    f"arraymux.{fname}: the carry must hold arrays and Python scalars, not "
                    f"{type(v).__name__}."
                )
    init = unflatten(structure, leaves)
    carry = Carry(fname, init, "init_val")
    # The run outside the operator (see above): one step, checked.
    p = scalar(fname, "cond_fun's result", cond_fun(init), ("bool",), "a boolean scalar")
    carry.check(body_fun(init), "body_fun")
    positions = [i for i, v in enumerate(leaves) if v is not None]
    dtypes = [leaves[i]._native.dtype for i in positions]
    place = dev.native
    del p

    def rebuild(ts: Sequence[Tensor]) -> _C:
        full: list[Array | None] = [None] * len(leaves)
        for i, t in zip(positions, ts):
            full[i] = wrap(t, dev)
        return unflatten(structure, full)

    def cond_native(*ts: Tensor) -> Tensor:
        p = scalar(fname, "cond_fun's result", cond_fun(rebuild(ts)), ("bool",), "a boolean scalar")
        return torch.tensor(p) if type(p) is bool else p

    def body_native(*ts: Tensor) -> tuple[Tensor, ...]:
        out, _ = flatten(body_fun(rebuild(ts)))
        return tuple(_tensor(out[i], dt, place) for i, dt in zip(positions, dtypes))

    result = _while_op(cond_native, body_native, tuple(leaves[i]._native for i in positions))
    return rebuild(result)
