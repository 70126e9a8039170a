"""The torch side of :class:`arraymux.custom_vjp` and :class:`arraymux.custom_jvp`: one
``torch.autograd.Function`` each, in the form torch.func takes (``setup_context``, a
generated ``vmap`` rule), whose rules call the user's.

The arguments of the decorated function are pytrees; the Function's inputs are the tensors of
its differentiated arguments (the other leaves, and the non-differentiated arguments, are
held by the call), and its outputs the tensors of the result (with, for ``custom_vjp``, the
tensors of the residuals, marked non-differentiable).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import torch
from torch.autograd import forward_ad as _forward_ad

from .._array import Array, wrap
from .._devices import Device
from .._errors import BackendMismatchError, TransformUnavailableError
from ._control_common import flatten, unflatten
from ._custom_common import CustomFunction, JvpRule, VjpRules, cotangents_of, pair
from ._pytrees import TreeDef
from ._torch import FUNC_LEVELS, SavedContext, first_order
from ._tree import function_name

if TYPE_CHECKING:
    from torch import Tensor

_peek = torch._C._functorch.peek_interpreter_stack
_TENSOR = object()  # the place of a tensor among the leaves of a result
_S = TypeVar("_S", bound=CustomFunction)
_UNSET = flatten(None)[1]  # the structure of a result not made yet (a leaf's)


def call(spec: CustomFunction, args: tuple[object, ...], diff: list[int], dev: Device) -> object:
    """``spec`` (a custom_vjp or custom_jvp) called on ``args``, through its Function where
    something may differentiate the call, else the function itself."""
    c = _Call(spec, args, diff, dev)
    tensors = c.tensors
    fn = _VJP if spec._kind == "custom_vjp" else _JVP
    if torch.compiler.is_compiling():
        # Tensors that torch.func (arraymux's or the user's own) or torch.autograd
        # differentiates: the Function, outside dynamo (see _eager); else nothing
        # differentiates the call and the function is traced as it is.
        levels = FUNC_LEVELS
        if (
            levels.reverse
            or levels.forward
            or levels.batch
            or any(t.requires_grad for t in tensors)
        ):
            return _eager(fn, c)
        return spec.fun(*args)
    if not (
        _peek() is not None
        or _forward_ad._current_level >= 0
        or (torch.is_grad_enabled() and any(t.requires_grad for t in tensors))
    ):
        return spec.fun(*args)
    return c.output(fn.apply(c, *tensors))


@torch.compiler.disable
def _eager(fn: type[_VJP | _JVP], c: _Call[CustomFunction]) -> object:
    """The Function called outside dynamo's graph (a graph break): dynamo (torch 2.13)
    traces a Function inside torch.func's grad by its forward alone where its backward reads
    a Python object from ctx (as these call the user's rules), which gives the function's own
    derivative, not the rule's."""
    return c.output(fn.apply(c, *c.tensors))


class _Call(Generic[_S]):
    """One call of a custom function: its arguments, where their tensors are, and (once the
    forward pass ran) the structure of the output and the residuals."""

    __slots__ = (
        "args",
        "dev",
        "diff",
        "kind",
        "leaves",
        "n_out",
        "out_leaves",
        "out_structure",
        "res_leaves",
        "res_slots",
        "res_structure",
        "slots",
        "spec",
        "structures",
        "tensors",
    )

    def __init__(self, spec: _S, args: tuple[object, ...], diff: list[int], dev: Device) -> None:
        self.spec, self.args, self.diff, self.dev = spec, args, diff, dev
        self.kind = spec._kind
        self.leaves: list[list[object]] = []
        self.structures: list[TreeDef] = []
        self.slots: list[tuple[int, int]] = []  # (index in diff, leaf) of each input tensor
        tensors = []
        for k, i in enumerate(diff):
            leaves, structure = flatten(args[i])
            self.leaves.append(leaves)
            self.structures.append(structure)
            for j, v in enumerate(leaves):
                if type(v) is Array:
                    self.slots.append((k, j))
                    tensors.append(v._native)
        self.tensors = tensors
        self.n_out = 0
        self.out_leaves: list[object] = []  # _TENSOR where a leaf of the output is a tensor
        self.out_structure = _UNSET  # set by the forward pass
        self.res_leaves: list[object] = []
        self.res_slots: list[int] = []
        self.res_structure = _UNSET  # set by the forward pass

    def rebuild(self, tensors: Sequence[Tensor]) -> list[object]:
        """The arguments, with ``tensors`` (one per input tensor) in their places as Arrays."""
        leaves = [list(v) for v in self.leaves]
        for (k, j), t in zip(self.slots, tensors):
            leaves[k][j] = wrap(t, self.dev)
        args = list(self.args)
        for k, i in enumerate(self.diff):
            args[i] = unflatten(self.structures[k], leaves[k])
        return args

    def natives(
        self, tree: object, what: str, inputs: Sequence[Tensor] = ()
    ) -> tuple[list[Tensor], TreeDef, list[object]]:
        """``(tensors, structure, leaves)`` of a result of the user's functions; in
        ``leaves`` each tensor's place holds ``_TENSOR``. A tensor that is one of ``inputs`` is
        returned as a view of it (a Function's outputs are new tensors)."""
        leaves, structure = flatten(tree)
        tensors = []
        for j, v in enumerate(leaves):
            if type(v) is Array:
                if v._device is not self.dev:
                    raise BackendMismatchError(
                        f"arraymux.{self.kind}: {what} of {function_name(self.spec.fun)} holds an "
                        f"array on {v._device}, but the call computes on {self.dev}."
                    )
                t = v._native
            elif isinstance(v, torch.Tensor):
                t = v
            elif isinstance(v, bool | int | float | complex) and what != "the residuals":
                from .._creation_functions import asarray

                t = asarray(v, device=self.dev)._native
            else:
                continue
            if any(t is x for x in inputs):
                t = t.view_as(t)
            tensors.append(t)
            leaves[j] = _TENSOR
        return tensors, structure, leaves

    def set_output(self, out: object, inputs: Sequence[Tensor]) -> list[Tensor]:
        tensors, self.out_structure, self.out_leaves = self.natives(out, "the output", inputs)
        self.n_out = len(tensors)
        return tensors

    def output(self, outs: Sequence[Tensor]) -> object:
        it = iter(outs[: self.n_out])
        return unflatten(
            self.out_structure,
            [wrap(next(it), self.dev) if v is _TENSOR else v for v in self.out_leaves],
        )

    def cotangent(self, cts: Sequence[Tensor]) -> object:
        """The output's cotangent as the user's rules take it (a pytree like the output)."""
        it = iter(cts)
        return unflatten(
            self.out_structure,
            [wrap(next(it), self.dev) if v is _TENSOR else v for v in self.out_leaves],
        )

    def residuals(self, res: Sequence[Tensor]) -> object:
        it = iter(res)
        return unflatten(
            self.res_structure,
            [wrap(next(it), self.dev) if v is _TENSOR else v for v in self.res_leaves],
        )

    def grads(self, ct_leaves: list[list[object]], inputs: Sequence[Tensor]) -> list[Tensor | None]:
        """One gradient per input tensor (None for zero or a non-floating input) from the
        cotangents' leaves, checked against the inputs' shapes."""
        out: list[Tensor | None] = []
        for (k, j), x in zip(self.slots, inputs):
            v = ct_leaves[k][j]
            if v is None or not (x.is_floating_point() or x.is_complex()):
                out.append(None)
                continue
            g = v._native if type(v) is Array else v
            if not isinstance(g, torch.Tensor):
                g = torch.as_tensor(g, dtype=x.dtype, device=x.device)
            if tuple(g.shape) != tuple(x.shape):
                raise TypeError(
                    f"arraymux.custom_vjp: the bwd rule of {function_name(self.spec.fun)} returned a "
                    f"cotangent of shape {tuple(g.shape)} for an argument of shape "
                    f"{tuple(x.shape)} (argument {self.diff[k]})."
                )
            out.append(g)
        return out

    # -- custom_jvp -----------------------------------------------------------------------

    def tangent_out(
        self: _Call[JvpRule], primals: Sequence[Tensor], tangents: Sequence[Tensor | None]
    ) -> tuple[Tensor, ...]:
        """The rule's output tangent (its tensors, one per output tensor) at ``primals``
        (the input tensors) for ``tangents`` (one per input tensor, None for zero)."""
        spec = self.spec
        args = self.rebuild(primals)
        full = [torch.zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
        tan_args = self.rebuild(full)
        nondiff = [args[i] for i in spec.nondiff_argnums]
        out, tan = pair(
            "custom_jvp",
            spec,
            "the jvp rule",
            spec.jvp(
                *nondiff,
                tuple(args[i] for i in self.diff),
                tuple(tan_args[i] for i in self.diff),
            ),
        )
        tan_leaves, tan_structure = flatten(tan)
        out_leaves, _ = flatten(out)
        if tan_structure != self.out_structure:
            from ._control_common import show

            raise TypeError(
                f"arraymux.custom_jvp: the jvp rule of {function_name(spec.fun)} returned a tangent of "
                f"structure {show(tan_structure)}, but the output has structure "
                f"{show(self.out_structure)}."
            )
        result = []
        for v, o, p in zip(tan_leaves, self.out_leaves, out_leaves):
            if o is not _TENSOR:
                continue  # not a tensor of the output
            if v is None:  # a zero tangent
                p = p._native if type(p) is Array else torch.as_tensor(p)
                result.append(torch.zeros_like(p))
            else:
                result.append(v._native if type(v) is Array else torch.as_tensor(v))
        return tuple(result)


class _VjpContext(SavedContext, Protocol):
    c: _Call[VjpRules]
    n_in: int


class _JvpContext(SavedContext, Protocol):
    c: _Call[JvpRule]


class _VJP(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(c: _Call[VjpRules], *tensors: Tensor) -> tuple[Tensor, ...]:
        spec = c.spec
        out, res = pair("custom_vjp", spec, "the fwd rule", spec.fwd(*c.rebuild(tensors)))
        outs = c.set_output(out, tensors)
        res_tensors, c.res_structure, c.res_leaves = c.natives(res, "the residuals", tensors)
        return (*outs, *res_tensors)

    @staticmethod
    def setup_context(
        ctx: _VjpContext,
        inputs: tuple[_Call[VjpRules], *tuple[Tensor, ...]],
        output: tuple[Tensor, ...],
    ) -> None:
        c = inputs[0]
        ctx.c = c
        ctx.n_in = len(inputs) - 1
        res = output[c.n_out :]
        if res:
            ctx.mark_non_differentiable(*res)
        ctx.save_for_backward(*inputs[1:], *res)

    @staticmethod
    def backward(ctx: _VjpContext, *cts: Tensor) -> tuple[Tensor | None, ...]:
        c = ctx.c
        spec = c.spec
        saved = ctx.saved_tensors
        inputs = saved[: ctx.n_in]
        args = c.rebuild(inputs)
        if torch.is_grad_enabled() and not first_order():
            # Differentiated again: the residuals from the inputs, so that their own
            # derivatives count.
            res = pair("custom_vjp", spec, "the fwd rule", spec.fwd(*args))[1]
        else:
            res = c.residuals(saved[ctx.n_in :])
        g = c.cotangent(cts[: c.n_out])
        nondiff = [args[i] for i in spec.nondiff_argnums]
        ct = spec.bwd(*nondiff, res, g)
        return (None, *c.grads(cotangents_of(spec, tuple(args), c.diff, ct), inputs))

    @staticmethod
    def jvp(ctx: _VjpContext, *tangents: Tensor | None) -> tuple[Tensor, ...]:
        name = function_name(ctx.c.spec.fun)
        raise TransformUnavailableError(
            f"arraymux.custom_vjp: {name} has a reverse-mode rule only, so forward mode "
            "(jvp, hessian, jacobian in forward mode) cannot differentiate it, as with "
            "jax.custom_vjp. Define a forward-mode rule with arraymux.custom_jvp instead."
        )


class _JVP(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(c: _Call[JvpRule], *tensors: Tensor) -> tuple[Tensor, ...]:
        return tuple(c.set_output(c.spec.fun(*c.rebuild(tensors)), tensors))

    @staticmethod
    def setup_context(
        ctx: _JvpContext,
        inputs: tuple[_Call[JvpRule], *tuple[Tensor, ...]],
        output: tuple[Tensor, ...],
    ) -> None:
        ctx.c = inputs[0]
        ctx.save_for_backward(*inputs[1:])
        ctx.save_for_forward(*inputs[1:])

    @staticmethod
    def jvp(ctx: _JvpContext, *tangents: Tensor | None) -> tuple[Tensor, ...]:
        c = ctx.c
        return c.tangent_out(ctx.saved_tensors, tangents[1:])

    @staticmethod
    def backward(ctx: _JvpContext, *cts: Tensor) -> tuple[Tensor | None, ...]:
        c = ctx.c
        primals = ctx.saved_tensors
        floats = [k for k, p in enumerate(primals) if p.is_floating_point() or p.is_complex()]

        def tangent_map(*ts: Tensor) -> tuple[Tensor, ...]:
            full: list[Tensor | None] = [None] * len(primals)
            for k, t in zip(floats, ts):
                full[k] = t
            return c.tangent_out(primals, full)

        zeros = [torch.zeros_like(primals[k]) for k in floats]
        pull = torch.func.vjp(tangent_map, *zeros)[1]
        pulled = pull(tuple(cts))
        grads: list[Tensor | None] = [None] * len(primals)
        for k, gk in zip(floats, pulled):
            grads[k] = gk
        return (None, *grads)
