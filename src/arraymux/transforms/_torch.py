"""The torch.func engine behind :mod:`arraymux.transforms`.

Every function here takes and returns functions of native tensors (pytrees of them); the
wrapping into :class:`arraymux.Array` happens in ``transforms``. NumPy and CuPy arrays reach
this engine through DLPack (:func:`to_engine`, :func:`from_engine`) without a copy.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, Protocol, TypeVar, cast

import torch
import torch.func as tf
import torch.utils._pytree as pytree
import torch.utils.dlpack
from torch.autograd import forward_ad as _forward_ad
from torch.autograd.variable import Variable as _Variable
from torch.utils.checkpoint import checkpoint as _torch_checkpoint

from .. import _compiled
from .._backends._torch import DIFFERENTIATING
from .._devices import TRANSFORM
from .._typing import NativeArray
from ._tree import CALL, ENGINE_API, JVP, VJP, Foreign

if TYPE_CHECKING:
    import cupy
    import numpy as np
    from torch import Tensor
    from torch._dynamo.types import GuardFilterEntry

    class _AccumulateGrad(torch.autograd.graph.Node):
        variable: Tensor


_P = ParamSpec("_P")
_R = TypeVar("_R")
#: ``argnums`` of grad and its kin: one position or several.
Argnums = int | tuple[int, ...]

__all__ = [
    *ENGINE_API,
    "first_order",
    "from_engine",
    "from_engine_to",
    "FUNC_LEVELS",
    "SavedContext",
    "to_engine",
]


class _FuncLevels(threading.local):
    """How many of torch.func's reverse-mode, forward-mode and batching transforms that
    arraymux runs enclose the code running on this thread: torch's control-flow operators do
    not compose with all of them under torch.compile (see ``_control_torch``), and dynamo
    cannot ask torch.func itself. Set per thread, not as class attributes, which
    torch.compile 2.11 reads instead."""

    def __init__(self) -> None:
        self.reverse = 0
        self.forward = 0
        self.batch = 0


FUNC_LEVELS = _FuncLevels()


def _within(f: Callable[_P, _R], reverse: int, forward: int, batch: int = 0) -> Callable[_P, _R]:
    """``f``, counted in :data:`FUNC_LEVELS` while it runs."""

    def counted(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        levels = FUNC_LEVELS
        levels.reverse += reverse
        levels.forward += forward
        levels.batch += batch
        try:
            return f(*args, **kwargs)
        finally:
            levels.reverse -= reverse
            levels.forward -= forward
            levels.batch -= batch

    return counted


def jacobian(f: Callable[..., object], argnums: Argnums = 0) -> Callable[..., object]:
    return tf.jacrev(_within(f, 1, 0), argnums=argnums)


def hessian(f: Callable[..., object], argnums: Argnums = 0) -> Callable[..., object]:
    return tf.hessian(_within(f, 1, 1), argnums=argnums)


def jvp(
    f: Callable[..., object], primals: tuple[object, ...], tangents: tuple[object, ...]
) -> tuple[object, ...]:
    return tf.jvp(_within(f, 0, 1), primals, tangents)


def vmap(
    f: Callable[..., object],
    in_axes: int | tuple[object, ...] = 0,
    out_axes: int | tuple[int, ...] = 0,
) -> Callable[..., object]:
    return tf.vmap(_within(f, 0, 0, 1), in_axes, out_axes)


# torch.compile traces the user's function through its Array arguments (see jit).
JIT_TAKES_ARRAYS = True

CHECKPOINT_POLICIES = ("nothing_saveable", "everything_saveable")


def _aux_leaves(
    f: Callable[..., tuple[object, object]],
) -> tuple[Callable[..., tuple[object, list[Tensor]]], Callable[[list[Tensor]], object]]:
    """torch.func accepts only tensors in ``aux``: pass the other leaves around it."""
    kept = threading.local()  # the transformed function is cached and may run in threads

    def g(*args: object) -> tuple[object, list[Tensor]]:
        out, aux = f(*args)
        leaves, spec = pytree.tree_flatten(aux)
        kept.value = (leaves, spec)
        return out, [v for v in leaves if isinstance(v, torch.Tensor)]

    def restore(aux: list[Tensor]) -> object:
        leaves, spec = kept.value
        tensors = iter(aux)
        return pytree.tree_unflatten(
            [next(tensors) if isinstance(v, torch.Tensor) else v for v in leaves], spec
        )

    return g, restore


#: Whether torch.func.grad gives zeros under inference mode (torch 2.11; 2.13 differentiates):
#: :func:`_out_of_inference` then leaves inference mode for the differentiation.
_FUNC_GRAD_ZERO_IN_INFERENCE = tuple(
    int(part) for part in re.findall(r"\d+", torch.__version__)[:2]
) < (2, 13)


def _out_of_inference(by_func: Callable[..., object]) -> Callable[..., object]:
    """``by_func`` run outside inference mode where torch.func would give zero gradients in
    it, the arguments that are inference tensors copied first (autograd cannot save them)."""
    if not _FUNC_GRAD_ZERO_IN_INFERENCE:
        return by_func

    def run(*args: object) -> object:
        if not torch.is_inference_mode_enabled():
            return by_func(*args)
        with torch.inference_mode(False):
            args = pytree.tree_map(
                lambda t: t.clone() if isinstance(t, torch.Tensor) and t.is_inference() else t,
                args,
            )
            return by_func(*args)

    return run


def grad(f: Callable[..., Any], argnums: Argnums, has_aux: bool) -> Callable[..., object]:
    """``(gradient)`` or ``(gradient, aux)``: by torch.autograd where :func:`_autograd_runs`,
    else by torch.func.grad."""
    by_func = _out_of_inference(_func_grad(f, argnums, has_aux))

    def run(*args: object) -> object:
        if _autograd_runs():
            done = _by_autograd(f, argnums, has_aux, args)
            if done is not None:
                return (done[1], done[2]) if has_aux else done[1]
        return by_func(*args)

    return run


def value_and_grad(f: Callable[..., Any], argnums: Argnums, has_aux: bool) -> Callable[..., object]:
    """JAX's order: ``(value, grad)`` or ``((value, aux), grad)``; by torch.autograd where
    :func:`_autograd_runs`, else by torch.func.grad_and_value."""
    by_func = _out_of_inference(_func_value_and_grad(f, argnums, has_aux))

    def run(*args: object) -> object:
        if _autograd_runs():
            done = _by_autograd(f, argnums, has_aux, args)
            if done is not None:
                return ((done[0], done[2]) if has_aux else done[0]), done[1]
        return by_func(*args)

    return run


def _func_grad(f: Callable[..., Any], argnums: Argnums, has_aux: bool) -> Callable[..., object]:
    f = _within(f, 1, 0)
    if not has_aux:
        return tf.grad(f, argnums=argnums)
    g, restore = _aux_leaves(f)
    inner = tf.grad(g, argnums=argnums, has_aux=True)

    def run(*args: object) -> object:
        dx, aux = inner(*args)
        return dx, restore(aux)

    return run


def _func_value_and_grad(
    f: Callable[..., Any], argnums: Argnums, has_aux: bool
) -> Callable[..., object]:
    f = _within(f, 1, 0)
    g, restore = _aux_leaves(f) if has_aux else (f, None)
    inner = tf.grad_and_value(g, argnums=argnums, has_aux=has_aux)

    def run(*args: object) -> object:
        dx, value = inner(*args)
        if restore is not None:
            value = (value[0], restore(value[1]))
        return value, dx

    return run


# -- grad and value_and_grad by torch.autograd ------------------------------------------------
#
# torch.func.grad runs the function on tensors wrapped at a grad level of its own and
# differentiates with create_graph=True, which in eager mode costs far more than torch.autograd
# itself (an MLP step 1.5-2.5x loss.backward(), 12 to 1M parameters, on a CPU and an H200).
# Where no other transform is active, torch.autograd gives the same values and gradients: the
# differentiated arguments become fresh leaves over their memory, the function runs with grad
# enabled, and torch.autograd.grad differentiates it. torch.func stays wherever its levels
# matter: inside its own transforms (vmap, jacrev, jvp, an outer grad), under torch.compile's
# tracing (dynamo traces torch.func into one graph and breaks it at torch.autograd.grad), under
# inference mode and forward-mode AD, and for arguments that an enclosing autograd
# computation differentiates (requires_grad), whose gradients torch.func keeps
# differentiable.

# The node of a leaf tensor in autograd's graph (a class that torch's stubs leave out).
_ACCUMULATE: type[_AccumulateGrad] = vars(torch._C._functions)["AccumulateGrad"]
_TENSOR = torch.Tensor
_peek = torch._C._functorch.peek_interpreter_stack
_compiling = torch.compiler.is_compiling
_grad_enabled = torch.is_grad_enabled
_set_grad_enabled = torch._C._set_grad_enabled


def _autograd_runs() -> bool:
    """Whether grad and value_and_grad compute with torch.autograd now (see above)."""
    return (
        not _compiling()
        and _peek() is None
        and not torch.is_inference_mode_enabled()
        and _forward_ad._current_level < 0
    )


class _TorchFunc(Exception):
    """Arguments that torch.func takes (found before the function runs)."""


def _leaves_of(tree: Any, leaves: list[Tensor], graded: bool) -> object:
    """``tree``, a differentiated argument, with each tensor made a fresh leaf that requires
    grad over the same memory (appended to ``leaves``). Raises RuntimeError for a tensor
    that cannot require grad (an inference tensor)."""
    t = type(tree)
    if t is dict:  # the common cases, parameters by name or in order: their leaves made here
        out: dict[object, object] = {}
        for k, v in tree.items():
            if type(v) is _TENSOR and not (graded and v.requires_grad):
                out[k] = leaf = v.detach().requires_grad_()
                leaves.append(leaf)
            else:
                out[k] = _leaves_of(v, leaves, graded)
        return out
    if t is tuple or t is list:
        items: list[object] = []
        for v in tree:
            if type(v) is _TENSOR and not (graded and v.requires_grad):
                leaf = v.detach().requires_grad_()
                leaves.append(leaf)
                items.append(leaf)
            else:
                items.append(_leaves_of(v, leaves, graded))
        return items if t is list else tuple(items)
    if isinstance(tree, torch.Tensor):
        if graded and tree.requires_grad:
            raise _TorchFunc  # differentiated by an enclosing computation
        leaf = tree.detach().requires_grad_()
        leaves.append(leaf)
        return leaf
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t(*[_leaves_of(v, leaves, graded) for v in tree])
    raise _TorchFunc


def _like(tree: Any, values: Iterator[Tensor | None]) -> object:
    """The next ones of ``values`` (an iterator) in the structure of ``tree``, a tree that
    :func:`_leaves_of` made (whose leaves are plain tensors)."""
    t = type(tree)
    if t is _TENSOR:
        return next(values)
    if t is dict:
        return {
            k: next(values) if type(v) is _TENSOR else _like(v, values) for k, v in tree.items()
        }
    if t is tuple or t is list:
        return t([next(values) if type(v) is _TENSOR else _like(v, values) for v in tree])
    if isinstance(tree, torch.Tensor):  # a subclass
        return next(values)
    return t(*[_like(v, values) for v in tree])  # a named tuple


def _detached(tree: Any, kept: list[Tensor]) -> object:
    """``tree`` (an aux) with its tensors that require grad detached (they go to ``kept``)."""
    t = type(tree)
    if t is tuple or t is list:
        return t([_detached(v, kept) for v in tree])
    if t is dict:
        return {k: _detached(v, kept) for k, v in tree.items()}
    if isinstance(tree, torch.Tensor):
        if tree.requires_grad:
            kept.append(tree)
            return tree.detach()
        return tree
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return t(*[_detached(v, kept) for v in tree])
    if type(tree) in pytree.SUPPORTED_NODES:  # another container torch's pytrees know

        def one(v: object) -> object:
            return _detached(v, kept)

        return pytree.tree_map(one, tree)
    return tree


# Marks the leaves of a grad whose results stay differentiable (create_graph): the graph of
# an enclosing function that uses those results reaches them, but only through results
# that this grad made.
_INNER = "_arraymux_inner_leaf"


def _reaches_beyond(out: Tensor, kept: list[Tensor], leaves: list[Tensor]) -> bool:
    """Whether the autograd graph of ``out`` (and of ``kept``, the aux tensors that require
    grad) reaches a tensor that requires grad other than ``leaves`` and the leaves of inner
    grads: one that an enclosing computation differentiates (a closure or argument that
    requires grad, the leaf of an enclosing grad), through which torch.func's results stay
    differentiable."""
    mine = {id(t) for t in leaves}
    stack = []
    for t in (out, *kept) if kept else (out,):
        fn = t.grad_fn
        if fn is not None:
            stack.append(fn)
        elif t.requires_grad and id(t) not in mine:
            return True
    if not stack:
        return False
    fast = _compiled.graph_reaches(stack, mine, _ACCUMULATE, _INNER)
    if fast is not None:
        return fast
    seen = set(stack)
    pop, push, add, accumulate = stack.pop, stack.append, seen.add, _ACCUMULATE
    while stack:
        for node, _ in pop().next_functions:
            if type(node) is accumulate:  # a leaf (seen again at the cost of a lookup)
                v = node.variable
                if id(v) not in mine and not getattr(v, _INNER, False):
                    return True
            elif node is not None and node not in seen:
                add(node)
                push(node)
    return False


_engine = _Variable._execution_engine
# torch internals that differ between versions: the engine's direct call needs those of 2.5
# and later (older: torch.autograd.grad); where this torch lacks one, a stand-in that is
# never called (_DIRECT is False).
_graph = torch.autograd.graph
_DIRECT = all(
    hasattr(module, name)
    for module, name in (
        (_graph, "_engine_run_backward"),
        (_graph, "log"),
        (torch._C, "_stash_obj_in_tls"),
        (torch._C, "_remove_obj_from_tls"),
    )
)


def _lacking(*args: object) -> NoReturn:
    raise AssertionError("not in this torch")  # pragma: no cover


_engine_run: Callable[..., tuple[Tensor, ...]] = getattr(_graph, "_engine_run_backward", _lacking)
_engine_log: logging.Logger = getattr(_graph, "log", logging.getLogger(__name__))
_stash: Callable[[str, object], None] = getattr(torch._C, "_stash_obj_in_tls", _lacking)
_unstash: Callable[[str], None] = getattr(torch._C, "_remove_obj_from_tls", _lacking)
_accelerator = getattr(torch._C, "_accelerator_getAccelerator", None)
_function_mode = torch._C._is_torch_function_mode_enabled
_DEBUG = logging.DEBUG


def _gradients(out: Tensor, leaves: list[Tensor], outer: bool) -> tuple[Tensor | None, ...]:
    """``torch.autograd.grad(out, leaves, allow_unused=True, create_graph=outer)``: for plain
    tensors, the engine call that it makes, without its handling of general arguments
    (sequences or dicts of outputs, inputs and cotangents, tensor subclasses, batched
    cotangents), which costs a tenth of a small model's step. ``out`` is a real floating 0-d
    tensor that requires grad: its cotangent is a one, as torch.autograd.grad makes it. A
    torch function mode sees torch.autograd.grad itself."""
    if _DIRECT and type(out) is _TENSOR and not _function_mode():
        for leaf in leaves:
            if type(leaf) is not _TENSOR:
                break
        else:
            ones = (torch.ones_like(out),)  # preserve_format, the default
            if _engine_log.isEnabledFor(_DEBUG):  # torch logs the pass: its own call
                return _engine_run((out,), ones, outer, outer, tuple(leaves), True, False)
            if out.is_cpu and _accelerator is not None and _accelerator() is None:
                # No accelerator: the whole pass runs on this thread, in this context, which
                # torch otherwise hands to the threads of its devices.
                return _engine.run_backward((out,), ones, outer, outer, tuple(leaves), True, False)
            _stash("context", contextvars.copy_context())
            try:
                return _engine.run_backward((out,), ones, outer, outer, tuple(leaves), True, False)
            finally:
                _unstash("context")
    return torch.autograd.grad(out, leaves, allow_unused=True, create_graph=outer)


def _by_autograd(
    f: Callable[..., Any], argnums: Any, has_aux: bool, args: tuple[object, ...]
) -> tuple[Tensor, object, object] | None:
    """``(value, gradient, aux)`` of ``f`` at ``args`` computed with torch.autograd, or None
    (before ``f`` runs) for arguments that torch.func takes.

    The results are those of torch.func: detached, unless ``f`` reads tensors that an
    enclosing computation differentiates; then the gradient is computed with
    ``create_graph=True`` and stays differentiable with respect to them, as torch.func's does
    (it may also require grad where torch.func's would not: its graph reaches the fresh
    leaves too, which nothing outside sees)."""
    graded = _grad_enabled()
    fresh = list(args)
    leaves: list[Tensor] = []
    single = type(argnums) is int
    try:
        if single:
            arg = args[argnums]
            if type(arg) is _TENSOR:  # the common case: one tensor, its leaf made here
                if graded and arg.requires_grad:
                    return None  # differentiated by an enclosing computation
                fresh[argnums] = leaf = arg.detach().requires_grad_()
                leaves.append(leaf)
            else:
                fresh[argnums] = _leaves_of(arg, leaves, graded)
        else:
            n = len(args)
            if len({i % n for i in argnums}) < len(argnums):
                return None  # an argument twice: torch.func differentiates it once
            for i in argnums:
                fresh[i] = _leaves_of(args[i], leaves, graded)
    except (_TorchFunc, RuntimeError):  # RuntimeError: an inference tensor, torch.func explains
        return None
    if not leaves:
        return None  # nothing to differentiate: torch.func explains
    if not graded:
        _set_grad_enabled(True)
    # Meanwhile the tensors that require grad are traced values (to_device and host reads
    # refuse them as inside torch.func: moving them would cut their derivatives).
    state = DIFFERENTIATING
    state.depth += 1
    try:
        result = f(*fresh)
    finally:
        state.depth -= 1
        if not graded:
            _set_grad_enabled(False)
    # f checked the result: a real floating 0-d tensor (and an aux) of torch.
    if has_aux:
        out, aux = result
        kept: list[Tensor] = []
        aux = _detached(aux, kept)
        outer = graded and _reaches_beyond(out, kept, leaves)
        if outer:
            aux = result[1]
    else:
        out, aux = result, None
        outer = graded and _reaches_beyond(out, [], leaves)
    if out.requires_grad:
        grads = _gradients(out, leaves, outer)
        for g in grads:
            if g is None:  # an argument f does not use: zeros, as torch.func gives
                grads = tuple(
                    torch.zeros_like(leaf) if g is None else g for g, leaf in zip(grads, leaves)
                )
                break
    else:  # f does not depend on its arguments
        grads = tuple(torch.zeros_like(leaf) for leaf in leaves)
    if single:
        dx = grads[0] if type(fresh[argnums]) is _TENSOR else _like(fresh[argnums], iter(grads))
    else:
        values = iter(grads)
        dx = tuple(_like(fresh[i], values) for i in argnums)
    if outer:
        # The results lead to these leaves, which nothing outside sees: an enclosing grad
        # reaching them is not differentiated through them (see _reaches_beyond).
        for leaf in leaves:
            setattr(leaf, _INNER, True)
        return out, dx, aux
    return out.detach(), dx, aux


def vjp(f: Callable[..., Any], *primals: object, has_aux: bool) -> tuple[object, ...]:
    f = _within(f, 1, 0)
    if not has_aux:
        return tf.vjp(f, *primals)
    g, restore = _aux_leaves(f)
    res: Any = tf.vjp(g, *primals, has_aux=True)  # torch's stubs: a pair, without the aux
    return res[0], res[1], restore(res[2])


def jit(fun: Callable[_P, _R]) -> Callable[_P, _R]:
    """``torch.compile`` of the user's ``fun``, called with :class:`arraymux.Array` arguments.

    Dynamo traces through the Arrays (their tensors become the graph's inputs) and rebuilds
    the Arrays the function returns, so a steady-state call does no unwrapping or wrapping
    of its own.
    """
    _compiled.register_for_dynamo()
    # Dynamo keeps its compilations per code object, at most 8 (recompile_limit): lambdas
    # made in a loop share theirs, so each compiled function gets a copy of its own.
    if isinstance(fun, types.FunctionType):
        own = types.FunctionType(
            fun.__code__.replace(), fun.__globals__, fun.__name__, fun.__defaults__, fun.__closure__
        )
        own.__kwdefaults__ = fun.__kwdefaults__
        own.__qualname__ = fun.__qualname__
    else:  # builtins, partials, callable objects

        def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            return fun(*args, **kwargs)

        own = types.FunctionType(
            call.__code__.replace(), call.__globals__, "call", None, call.__closure__
        )
    if _GUARD_FILTERS:
        return torch.compile(own, options={"guard_filter_fn": _keep_guard})
    return torch.compile(own)


# torch.compile checks guards before each call of a compiled function. Those on arraymux's own
# state cost time on every call and are left out: the internals of the Arrays passed in (their
# device, which the guards on their tensors already pin, and their cached dtype, which is the
# tensor's), arraymux's, array-api-compat's and Python's builtin modules, and whether two
# sources hold the same device or backend (arraymux makes one of each). The guards on the
# user's function, its globals and closures, on the Arrays' type and on the tensors stay.
_GUARD_FILTERS = hasattr(torch.compiler, "skip_guard_on_globals_unsafe")
_OWN_GLOBALS = re.compile(r"G\['__(?:import_arraymux|import_array_api_compat|builtins_dict)")


def _keep_guard(entries: list[GuardFilterEntry]) -> list[bool]:
    from .._array import Array
    from .._backends import Backend
    from .._devices import Device

    arrays = {e.name for e in entries if e.has_value and type(e.value) is Array}
    # An Array's ._device or ._dtype, wherever it appears in a guard's source (which can be
    # nested, as in type(x._device._backend)), but not an attribute of that name elsewhere.
    internals = (
        re.compile(
            r"(?<![\w.])(?:"
            + "|".join(map(re.escape, sorted(arrays)))
            + r")\._(?:device|dtype)(?!\w)"
        )
        if arrays
        else None
    )

    def ours(e: GuardFilterEntry) -> bool:
        name = e.name
        if _OWN_GLOBALS.search(name) or (internals is not None and internals.search(name)):
            return True
        return e.guard_type == "DUPLICATE_INPUT" and type(e.value) in (Device, Backend)

    return [not ours(e) for e in entries]


def checkpoint(f: Callable[..., object], policy: str | None) -> Callable[..., object]:
    """Recompute ``f``'s intermediates in the backward pass instead of saving them."""
    if policy not in (None, *CHECKPOINT_POLICIES):
        raise ValueError(
            f"arraymux.checkpoint: torch supports the policies {CHECKPOINT_POLICIES} "
            f"(or None, the same as 'nothing_saveable'), not {policy!r}; named JAX policies "
            "such as 'dots_saveable' apply to JAX arrays only."
        )
    if policy == "everything_saveable":
        return f

    def run(*args: object) -> object:
        g = _in_this_state(f)
        if torch._C._functorch.peek_interpreter_stack() is None:
            return _torch_checkpoint(g, *args, use_reentrant=False)
        # torch.func's grad/vjp refuse saved-tensor hooks, which torch.utils.checkpoint uses;
        # inside them an autograd.Function saves only the inputs and recomputes the rest.
        leaves, spec = pytree.tree_flatten(args)
        where = [i for i, v in enumerate(leaves) if isinstance(v, torch.Tensor)]
        out_spec: list[pytree.TreeSpec] = []

        def flat(*tensors: Tensor) -> tuple[object, ...]:
            full = list(leaves)
            for i, t in zip(where, tensors):
                full[i] = t
            out_leaves, ospec = pytree.tree_flatten(g(*pytree.tree_unflatten(full, spec)))
            out_spec[:] = [ospec]
            return tuple(out_leaves)

        outs = _Recompute.apply(flat, first_order(), *(leaves[i] for i in where))
        return pytree.tree_unflatten(list(outs), out_spec[0])

    return run


def _in_this_state(f: Callable[_P, _R]) -> Callable[_P, _R]:
    """``f``, run with the transforms' thread-local state of this moment (the device for
    creation functions, the bridge of closures): torch runs the backward pass of GPU tensors on
    threads of its own, where that state is unset, and a checkpoint's recomputation runs
    there."""
    state = TRANSFORM
    device, bridge = state.device, state.bridge

    def g(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        outer = state.device, state.bridge
        state.device, state.bridge = device, bridge
        try:
            return f(*args, **kwargs)
        finally:
            state.device, state.bridge = outer

    return g


def _single_grad_level() -> bool:
    """Whether one torch.func reverse-mode level, and no other transform, is active."""
    from torch._functorch.pyfunctorch import retrieve_all_functorch_interpreters

    kinds = [i.key() for i in retrieve_all_functorch_interpreters()]
    return kinds == [torch._C._functorch.TransformType.Grad]


def first_order() -> bool:
    """Whether one reverse-mode level (with any vmaps) is all that differentiates now.

    torch.func differentiates with ``create_graph=True``, so the recomputation in a backward
    pass is itself recorded, which keeps every segment's intermediates alive until the end:
    more memory than no checkpoint at all. When nothing will differentiate that backward pass
    again, it runs without recording.
    """
    from torch._functorch.pyfunctorch import retrieve_all_functorch_interpreters

    kinds = [i.key() for i in retrieve_all_functorch_interpreters()]
    grad = torch._C._functorch.TransformType.Grad
    vmap = torch._C._functorch.TransformType.Vmap
    return kinds.count(grad) == 1 and all(k in (grad, vmap) for k in kinds)


class SavedContext(Protocol):
    """What the autograd Functions of the transforms read of torch's context (their own
    attributes aside)."""

    saved_tensors: tuple[Tensor, ...]

    def save_for_backward(self, *tensors: Tensor) -> None: ...

    def save_for_forward(self, *tensors: Tensor) -> None: ...

    def mark_non_differentiable(self, *tensors: Tensor) -> None: ...


class _RecomputeContext(SavedContext, Protocol):
    fn: Callable[..., tuple[Tensor, ...]]
    first_order: bool


class _CrossingContext(SavedContext, Protocol):
    foreign: Foreign
    kind: int
    nb: int


class _VmapInfo(Protocol):
    """The batching information that torch.func passes to a vmap rule."""

    batch_size: int


class _Recompute(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(
        fn: Callable[..., tuple[Tensor, ...]], first_order: bool, *tensors: Tensor
    ) -> tuple[Tensor, ...]:
        return fn(*tensors)

    @staticmethod
    def setup_context(
        ctx: _RecomputeContext,
        inputs: tuple[Callable[..., tuple[Tensor, ...]], bool, *tuple[Tensor, ...]],
        output: tuple[Tensor, ...],
    ) -> None:
        ctx.fn = inputs[0]
        ctx.first_order = inputs[1]
        ctx.save_for_backward(*inputs[2:])
        ctx.save_for_forward(*inputs[2:])

    @staticmethod
    def backward(ctx: _RecomputeContext, *cotangents: Tensor) -> tuple[Tensor | None, ...]:
        with torch.no_grad() if ctx.first_order else contextlib.nullcontext():
            pull = tf.vjp(ctx.fn, *ctx.saved_tensors)[1]
            return (None, None, *pull(cotangents))

    @staticmethod
    def jvp(ctx: _RecomputeContext, *tangents: Tensor | None) -> tuple[Tensor | None, ...]:
        return tf.jvp(ctx.fn, tuple(ctx.saved_tensors), tuple(tangents[2:]))[1]


# -- the DLPack bridge ------------------------------------------------------------------------


def to_engine(native: np.ndarray | np.generic | cupy.ndarray) -> Tensor:
    """A NumPy or CuPy array as a tensor sharing its memory; a copy where torch cannot share
    it (read-only, byte-swapped, negative strides: torch has no read-only tensors and aborts
    the process on negative DLPack strides). torch never writes to inputs here."""
    import numpy as np

    if type(native) is np.ndarray:  # the common case, checked with the fewest lookups
        flags = native.flags
        if flags.writeable and flags.c_contiguous and native.dtype.isnative:
            try:
                return torch.from_numpy(native)
            except TypeError:  # a dtype torch.from_numpy does not take: the general path
                pass
    if isinstance(native, np.ndarray | np.generic):
        a = np.asarray(native)
        if a.flags.writeable and a.dtype.isnative and _positive_strides(a):
            try:  # the memory DLPack would share, at a fraction of its fixed cost
                return torch.from_numpy(a)
            except TypeError:  # a dtype torch.from_numpy does not take: DLPack below
                return torch.from_dlpack(a)
        return torch.from_numpy(np.array(a, dtype=a.dtype.newbyteorder("="), order="C"))
    if not _positive_strides(native):
        native = native.copy()  # CuPy: C order
    if _one_stream(native.device.id):
        return torch.from_dlpack(native.__dlpack__(stream=-1))
    return torch.from_dlpack(native)


def _positive_strides(a: np.ndarray | cupy.ndarray) -> bool:
    return bool(a.flags.c_contiguous) or all(s >= 0 for s in a.strides)


def _one_stream(index: int) -> bool:
    """Whether torch and CuPy queue their work on GPU ``index`` on the same stream now (both
    on the default stream, as a rule): their arrays then cross without the DLPack exchange's
    stream handshake (an event recorded on one stream and waited on from the other, 10-25 us
    per array in Python), since the stream itself orders the work."""
    import cupy

    try:
        ours = torch._C._cuda_getCurrentRawStream(index)
    except (AttributeError, RuntimeError):  # not a CUDA build of torch: the full exchange
        return False
    return bool(ours == cupy.cuda.get_current_stream(index).ptr)


class _Exported:
    """A tensor's DLPack capsule, handed to CuPy on the stream both already share."""

    __slots__ = ("capsule", "device")

    def __init__(self, capsule: object, device: tuple[int, int]) -> None:
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs: object) -> object:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


def from_engine(t: Tensor, backend: str = "numpy") -> NativeArray:
    """A tensor as a NumPy (or CuPy) array sharing its memory."""
    if t.requires_grad:
        t = t.detach()
    if backend == "numpy":
        try:
            return t.numpy()  # the memory np.from_dlpack would share, at a third of its cost
        except (RuntimeError, TypeError):
            pass  # a conjugate or negated view (resolved below), or a dtype NumPy lacks
    t = t.resolve_conj().resolve_neg()  # each the tensor itself where its bit is unset
    if backend == "numpy":
        import numpy as np

        try:
            return t.numpy()
        except (RuntimeError, TypeError):
            return np.from_dlpack(t)
    import cupy

    index = t.get_device()
    if index >= 0 and _one_stream(index):
        capsule = torch.utils.dlpack.to_dlpack(t)
        return cupy.from_dlpack(_Exported(capsule, (_KDL_CUDA, index)))
    return cupy.from_dlpack(t)


_KDL_CUDA = 2  # DLPack's device type of CUDA memory


def from_engine_to(backend: str) -> Callable[[Tensor], NativeArray]:
    """:func:`from_engine` for arrays of ``backend``, as a function of the tensor alone."""
    if backend == "numpy":
        return from_engine
    return lambda t: from_engine(t, backend)


# -- calls across engines (on_device) ---------------------------------------------------------


def crossing(foreign: Foreign, natives: list[Tensor]) -> tuple[Tensor, ...]:
    """The outputs of ``foreign`` (a crossing of :func:`arraymux.on_device`) on ``natives``, as
    one differentiable and batchable torch operation."""
    # A reverse pass will follow (torch.func.grad/vjp or autograd): keep the pullback.
    foreign.keep_pull = torch.is_grad_enabled() and any(t.requires_grad for t in natives)
    if torch._C._functorch.peek_interpreter_stack() is None:
        return _EagerCrossing.apply(foreign, *natives)
    return _Crossing.apply(foreign, CALL, 0, *natives)


def _second_order(foreign: Foreign) -> Exception:
    from .._errors import TransformUnavailableError

    if foreign.target._name == "torch" or foreign.target._backend.spec.bridged:
        # torch -> torch: only between two GPUs inside torch.func (see _crossing).
        return TransformUnavailableError(
            f"arraymux: second derivatives through the crossing {foreign!r} from "
            f"{foreign.home} are not available: torch.func cannot differentiate a move between "
            "two GPUs, so the crossing is differentiated once, as a whole. Differentiate once "
            "through it, or compute on one GPU."
        )
    return TransformUnavailableError(
        f"arraymux: second derivatives through the crossing {foreign!r} (torch -> "
        f"{foreign.target.backend}) are not available; differentiate once through it, or "
        "move the whole computation to one engine."
    )


def _first_order_call(ctx: _CrossingContext) -> tuple[Foreign, tuple[Tensor, ...]]:
    """The crossing of ``ctx`` and its saved primals, for a derivative of the call itself;
    the derivatives' own derivatives raise."""
    f = ctx.foreign
    if ctx.kind != CALL:
        raise _second_order(f)
    return f, ctx.saved_tensors


@torch.compiler.disable
def _run_foreign(
    foreign: Foreign, kind: int, nb: int, tensors: Sequence[Tensor]
) -> tuple[Tensor, ...]:
    # Also in backward passes that torch.compile'd code runs: never traced. The results are
    # natives of the caller's engine device: tensors.
    return tuple(cast("list[Tensor]", foreign.run(kind, nb, tensors)))


class _EagerCrossing(torch.autograd.Function):
    """The crossing for torch's own autograd outside torch.func (``loss.backward()``): the
    classic form, which costs less per call than the torch.func-ready :class:`_Crossing`."""

    @staticmethod
    def forward(ctx: _CrossingContext, foreign: Foreign, *tensors: Tensor) -> tuple[Tensor, ...]:
        ctx.foreign = foreign
        ctx.save_for_backward(*tensors)
        outs = _run_foreign(foreign, CALL, 0, tensors)
        fixed = [o for o, f in zip(outs, foreign.out_floats) if not f]
        if fixed:
            ctx.mark_non_differentiable(*fixed)
        return outs

    @staticmethod
    def backward(ctx: _CrossingContext, *cotangents: Tensor) -> tuple[Tensor | None, ...]:
        f = ctx.foreign
        args = (*ctx.saved_tensors, *[c for c, fl in zip(cotangents, f.out_floats) if fl])
        if torch.is_grad_enabled():  # create_graph=True: its own derivative must raise
            res = iter(_Crossing.apply(f, VJP, 0, *args))
        else:
            res = iter(_run_foreign(f, VJP, 0, args))
        return (None, *[next(res) if fl else None for fl in f.floats])


class _Crossing(torch.autograd.Function):
    """A crossing of :func:`arraymux.on_device`: the forward pass, the vjp (backward) and the
    jvp are computed by the target's engine; the vmap rule batches them over a leading axis.
    Kinds VJP and JVP are the derivatives themselves (their own derivatives raise)."""

    @staticmethod
    def forward(foreign: Foreign, kind: int, nb: int, *tensors: Tensor) -> tuple[Tensor, ...]:
        return _run_foreign(foreign, kind, nb, tensors)

    @staticmethod
    def setup_context(
        ctx: _CrossingContext,
        inputs: tuple[Foreign, int, int, *tuple[Tensor, ...]],
        output: tuple[Tensor, ...],
    ) -> None:
        ctx.foreign, ctx.kind, ctx.nb = inputs[:3]
        ctx.save_for_backward(*inputs[3:])
        ctx.save_for_forward(*inputs[3:])
        if ctx.kind == CALL:
            fixed = [o for o, f in zip(output, ctx.foreign.out_floats) if not f]
            if fixed:
                ctx.mark_non_differentiable(*fixed)

    @staticmethod
    def backward(ctx: _CrossingContext, *cotangents: Tensor) -> tuple[Tensor | None, ...]:
        f, prim = _first_order_call(ctx)
        cts = [c for c, fl in zip(cotangents, f.out_floats) if fl]
        if _single_grad_level() and not any(
            torch._C._functorch.is_functorch_wrapped_tensor(t) for t in (*prim, *cts)
        ):
            # Nothing outside this reverse pass differentiates it: a plain call.
            res = iter(_run_foreign(f, VJP, ctx.nb, (*prim, *cts)))
        else:
            res = iter(_Crossing.apply(f, VJP, ctx.nb, *prim, *cts))
        return (None, None, None, *[next(res) if fl else None for fl in f.floats])

    @staticmethod
    def jvp(ctx: _CrossingContext, *tangents: Tensor | None) -> tuple[Tensor | None, ...]:
        f, prim = _first_order_call(ctx)
        tans = [
            torch.zeros_like(p) if t is None else t
            for p, t, fl in zip(prim, tangents[3:], f.floats)
            if fl
        ]
        res = iter(_Crossing.apply(f, JVP, ctx.nb, *prim, *tans))
        return tuple(next(res) if fl else None for fl in f.out_floats)

    @staticmethod
    def vmap(
        info: _VmapInfo,
        in_dims: tuple[int | None, ...],
        foreign: Foreign,
        kind: int,
        nb: int,
        *tensors: Tensor,
    ) -> tuple[tuple[Tensor, ...], tuple[int, ...]]:
        size = info.batch_size
        moved = [
            t.movedim(d, 0) if d is not None else t.expand(size, *t.shape)
            for t, d in zip(tensors, in_dims[3:])
        ]
        out = _Crossing.apply(foreign, kind, nb + 1, *moved)
        return out, (0,) * len(out)
