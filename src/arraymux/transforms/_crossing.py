"""Calls across devices and engines: :func:`on_device`.

A crossed function moves its arguments to the target device, runs there and moves its results
back. Outside any transform that is all. Inside one, the crossing becomes a primitive of the
caller's engine (a ``torch.autograd.Function`` for torch.func, a JAX primitive for JAX) whose
derivatives, batching and compilation are computed by the target's engine through
:func:`arraymux.vjp`, :func:`arraymux.jvp` and :func:`arraymux.vmap`. Within one engine
(``torch:cpu`` to ``torch:cuda``, ``jax:cpu`` to ``jax:gpu``) the engine's own moves keep the
graph and no primitive is needed.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar, cast, overload

from .._array import Array, operand, wrap
from .._devices import TRANSFORM, Device, default_device, device_arg
from .._dtype_rules import dtype_of
from .._errors import BackendUnavailableError, TransformUnavailableError, unsupported
from .._transfer import memory, move
from .._typing import NativeArray
from ._tree import CALL, FLOATING, VJP, engine_backends, function_name, map_leaves

if TYPE_CHECKING:
    from jax.core import ShapedArray
    from torch import Tensor

_T = TypeVar("_T")

__all__ = ["on_device"]

# The backends whose engine differentiates their own arrays (no bridge).
_ENGINES = ("torch", "jax")


@overload
def on_device(fun: Callable[..., object], device: Device | str) -> Callable[..., object]: ...
@overload
def on_device(
    fun: None = None, *, device: Device | str
) -> Callable[[Callable[..., object]], Callable[..., object]]: ...
def on_device(*args: object, **kwargs: object) -> object:
    """``fun`` made callable from any device, and differentiable across the crossing.

    The returned function takes the arguments of ``fun`` (pytrees of tuples, lists and dicts
    holding :class:`Array`\\ s, native arrays of any backend and Python scalars) on any
    device. It moves their arrays to ``device`` (without a copy where the memory is shared, as
    :func:`arraymux.to_device` does), calls ``fun`` there with ``device`` as the default
    device, and moves the arrays of the result back to the device of the first array argument
    (they stay on ``device`` when no argument is an array). ``fun`` always sees
    Arrays; the caller gets native arrays of its backend when it passed native
    arrays only (a ``torch.Tensor`` in, a ``torch.Tensor`` out), else Arrays.

    Inside :func:`arraymux.grad`, :func:`~arraymux.value_and_grad`, :func:`~arraymux.vjp`,
    :func:`~arraymux.jvp`, :func:`~arraymux.jacobian`, :func:`~arraymux.vmap` and
    :func:`~arraymux.jit` (and the engines' own ``torch.func`` and ``jax`` transforms),
    derivatives flow through the crossing: ``fun``'s part is differentiated (or batched) by
    the engine of ``device``, the rest by the caller's engine. Between torch and JAX, the
    crossing is a ``torch.autograd.Function`` (with ``setup_context``, a ``jvp`` rule and a
    ``vmap`` rule) on the torch side and a JAX primitive (with JVP, transpose and batching
    rules) on the JAX side. Under ``jax.jit`` it becomes a host callback
    (``jax.pure_callback``), so arrays on a GPU go through host memory there; under
    ``torch.compile`` the crossing is left out of the graph (one graph before it, one after).
    Batching (``vmap``) is native where ``device`` has an engine; on Dask and
    array-api-strict each batch element is computed in turn. Second derivatives through a
    crossing between two engines (``hessian``) raise :class:`TransformUnavailableError`.

    Arrays cross without a copy where the memory allows, as with :func:`arraymux.to_device`,
    with one exception: JAX arrays are immutable, so a result never reaches JAX over memory
    that torch, NumPy, CuPy or array-api-strict can still write, nor torch or CuPy over the
    buffer of a JAX array that lives on. Such a result (an argument or a closed-over array
    returned as it is, a view of one) is copied when it crosses; one that ``fun`` created and
    holds no longer crosses without a copy. A JAX result going to torch or CuPy is known to be
    unshared by a scan of JAX's live arrays, made only where it costs less than the copy
    (about 2 KiB of result per live array on a CPU), so small ones are copied. ``fun`` must
    not write into its arguments, which may share memory with the caller's arrays, nor keep
    them after it returns.

    Under ``jax.jit`` the shapes of ``fun``'s results must not depend on the values of its
    arguments (boolean indexing, ``unique_values``, ``nonzero``): JAX needs them before the
    values exist, and learns them by running ``fun`` on placeholder arrays while it traces.
    Such a function raises :class:`TransformUnavailableError` when it is traced if the
    placeholders show it, else when it runs (``jax.jit`` called directly reports the latter
    as a ``JaxRuntimeError`` holding the message); call it outside ``jit``.

    Use it as a function, ``on_device(fun, "jax:cpu")``, or as a decorator,
    ``@on_device(device="jax:cpu")`` (equivalently ``functools.partial(on_device,
    device="jax:cpu")``).

    Parameters
    ----------
    fun
        A function of arrays; omit it to get a decorator.
    device
        Where ``fun`` runs: a :class:`Device` or a device string such as ``"jax:gpu:0"``.

    Returns
    -------
    callable
        ``fun`` crossed to ``device``.

    Raises
    ------
    BackendUnavailableError
        ``device`` does not exist here (the message lists the devices that do).
    ValueError
        ``device`` is a malformed device string.
    TypeError
        ``fun`` is not callable, arguments other than ``fun`` and ``device`` are given, or
        ``fun`` returns something other than arrays and Python scalars (in tuples, lists and
        dicts).
    TransformUnavailableError
        Called inside a transform when ``device`` has no engine (Dask, array-api-strict),
        differentiated twice across two engines, or compiled by ``jax.jit`` when the shapes
        of ``fun``'s results depend on its arguments' values.

    Examples
    --------
    >>> import arraymux as xp
    >>> @xp.on_device(device="torch:cpu")
    ... def energy(x):
    ...     return xp.sum(x**2)
    >>> x = xp.asarray([1.0, 2.0])
    >>> energy(x)
    Array(5., dtype=float64, device='numpy:cpu')
    >>> xp.grad(energy)(x)
    Array([2., 4.], dtype=float64, device='numpy:cpu')
    """
    try:  # Python's own errors for these would not name arraymux.on_device
        bound = _SIGNATURE.bind(*args, **kwargs).arguments
    except TypeError as e:
        raise TypeError(
            f"arraymux.on_device: {e}; it takes a function and a device: "
            'arraymux.on_device(fun, "jax:cpu") or @arraymux.on_device(device="jax:cpu").'
        ) from None
    fun, device = bound.get("fun"), bound.get("device")
    if device is None:
        raise TypeError(
            "arraymux.on_device: give the device to run on, e.g. "
            'arraymux.on_device(fun, "jax:cpu") or @arraymux.on_device(device="jax:cpu").'
        )
    try:
        target = device_arg(device, "on_device")
    except BackendUnavailableError as e:
        raise BackendUnavailableError(f"arraymux.on_device: {e}") from None
    if fun is None:
        return functools.partial(on_device, device=target)
    if not callable(fun):
        raise TypeError(f"arraymux.on_device: expected a function, got {type(fun).__name__}.")

    @functools.wraps(fun)
    def crossed(*args: object, **kwargs: object) -> object:
        return _cross(fun, target, args, kwargs)

    crossed.__dict__["device"] = target  # the device it runs on
    if "torch" in sys.modules:
        import torch

        # torch.compile runs the crossing as it is, between the graphs before and after it.
        crossed = torch.compiler.disable(crossed)
    return crossed


_SIGNATURE = inspect.Signature(
    [
        inspect.Parameter("fun", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
        inspect.Parameter("device", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
    ]
)
on_device.__dict__["__signature__"] = _SIGNATURE


# -- the call ---------------------------------------------------------------------------------


def _leaves(tree: _T) -> tuple[list[object], Callable[[list[object]], _T]]:
    """The leaves of ``tree`` and a function rebuilding it from new leaves."""
    leaves: list[object] = []

    def take(leaf: object, path: str) -> object:
        leaves.append(leaf)
        return len(leaves) - 1

    skeleton = map_leaves(take, tree)

    def rebuild(new: list[object]) -> _T:
        return map_leaves(lambda i, path: new[i], skeleton)

    return leaves, rebuild


def _engine_name(device: Device) -> str | None:
    """The engine that differentiates arrays of ``device``: "torch", "jax" or None."""
    name = device._name
    if name == "jax":
        return "jax"
    if name == "torch" or device._backend.spec.bridged:
        return "torch" if device._backend.spec.autodiff else None
    return None


def _device_of(native: NativeArray) -> Device:
    """The device of a native array of a registered backend."""
    op = operand(native)
    assert op is not None  # a native array: an operand
    return op[1]


def _engine_device(device: Device) -> Device:
    """The device whose arrays an engine computes with for arrays of ``device``."""
    if device._name != "torch" and device._backend.spec.bridged:
        return Device(device._backend.adapter.engine_place(device._place))
    return device


def _cross(
    fun: Callable[..., object], target: Device, args: tuple[object, ...], kwargs: dict[str, object]
) -> object:
    torch = sys.modules.get("torch")
    if torch is not None and torch.compiler.is_dynamo_compiling():
        # Reached while dynamo traces a torch.func transform (which ignores
        # torch.compiler.disable): the transform then runs outside the graph.
        torch._dynamo.graph_break()
    leaves, rebuild = _leaves((args, kwargs))
    ops: dict[int, tuple[NativeArray, Device]] = {
        i: op for i, op in enumerate(map(operand, leaves)) if op is not None
    }
    where = list(ops)
    back: Device | None = None
    traced: list[int] = []
    for i in where:
        native, dev = ops[i]
        if back is None:
            back = dev
        hook = dev._backend.hooks.traced
        if (hook is not None and hook(native)) or getattr(native, "requires_grad", False):
            traced.append(i)
    # Native arrays in (and no Array): native arrays out.
    native_out = bool(where) and not any(type(leaves[i]) is Array for i in where)
    if not traced:
        return _plain(fun, target, _Args(leaves, ops, where, rebuild, back, native_out))
    first = ops[traced[0]][1]
    engine = _engine_name(first)
    target_engine = _engine_name(target)
    if engine == target_engine and not _torch_func_between_gpus(
        [ops[i][0] for i in traced],
        first,
        target,
    ):
        return _within(fun, target, _Args(leaves, ops, where, rebuild, back, native_out), engine)
    home = _engine_device(first)
    for i in traced:
        dev = ops[i][1]
        if dev is not home:
            raise TransformUnavailableError(
                f"arraymux.on_device: inside a transform, the traced arrays passed to "
                f"{function_name(fun)} must all be on {home}, but one is on {dev}."
            )
    foreign = _Foreign(fun, target, _Args(leaves, ops, where, rebuild, back, native_out), home)
    return foreign.apply(engine)


def _torch_func_between_gpus(natives: list[NativeArray], source: Device, target: Device) -> bool:
    """Whether a torch crossing goes from one GPU to another inside a torch.func transform.

    torch.func cannot differentiate ``Tensor.to`` between two GPUs (the backward pass fails
    in torch's autograd engine: "Cannot access storage of TensorWrapper"), so such a crossing
    runs as a primitive of its own, as between two engines: first derivatives, vmap and jvp
    work; a second derivative raises ``TransformUnavailableError``."""
    if _engine_name(source) != "torch":
        return False
    here, there = memory(_engine_device(source)), memory(_engine_device(target))
    if here[0] != "cuda" or there[0] != "cuda" or here == there:
        return False
    import torch

    return any(
        isinstance(n, torch.Tensor) and torch._C._functorch.is_functorch_wrapped_tensor(n)
        for n in natives
    )


def _move_leaf(
    native: NativeArray, src: Device, target: Device, share: bool = False
) -> NativeArray:
    """``native`` on ``target``, without a copy where the memory allows (as
    :func:`arraymux.to_device`); ``share``: even into a backend that could write into an
    immutable source (see :func:`_result_moved`)."""
    if src is target:
        return native
    dt = dtype_of(native, src)
    if not target.supports(dt):  # float64 into JAX without x64: never a silent downcast
        raise unsupported(dt, target, "on_device")
    normalized = cast(NativeArray, src._backend.normalize(native))  # a native stays one
    return move(normalized, src, target, None, None, share=share)[0]


def _sole(natives: list[NativeArray | None], k: int, device: Device) -> bool:
    """Whether ``natives[k]`` (a native of ``device``) is held by nothing but the list (no
    other reference, no Array wrapping it) and its memory by nothing but itself, as the
    backend's ``unshared`` hook tells (no view, no other array over it, no foreign owner).
    False where the backend has no such hook."""
    unshared = device._backend.hooks.unshared
    # getrefcount counts the list's reference and its own argument's.
    return (
        unshared is not None
        and sys.getrefcount(natives[k]) <= 2
        and bool(unshared(cast(NativeArray, natives[k])))  # an array's slot, not yet emptied
    )


def _result_moved(
    natives: list[NativeArray | None], k: int, src: Device, target: Device
) -> NativeArray:
    """``natives[k]``, an array of what the crossed function returned, on ``target``.

    Between a mutable and an immutable backend in the same memory (into JAX from torch,
    NumPy, CuPy, Dask or array-api-strict; out of JAX into torch or CuPy, which can write
    what they import) the array is copied unless nothing else holds it or its memory
    (:func:`_sole`: fresh from the function): a JAX array must never share memory that an
    array of another backend can still write. Otherwise it moves as
    :func:`arraymux.to_device` moves it: between two mutable backends as a plain call returns
    it (a torch argument returned to a NumPy caller is a view of the caller's array), out of
    JAX into NumPy as a read-only view. The slot is emptied, so that an array appearing twice
    is copied once at most."""
    # natives[k] is an array (its slot is emptied only here), read in place each time: a
    # name bound to it would count as a reference of its own (see _sole).
    if src is target:
        native = cast(NativeArray, natives[k])
    elif memory(src) != memory(target):  # copied by the move itself
        native = _move_leaf(cast(NativeArray, natives[k]), src, target)
    elif src._backend.spec.mutable and not target._backend.spec.mutable:
        if _sole(natives, k, src):
            native = _move_leaf(cast(NativeArray, natives[k]), src, target)
        else:  # the source's own copy (torch: clone), fresh, then taken as it is
            normalized = cast(NativeArray, src._backend.normalize(natives[k]))
            fresh = move(normalized, src, src, True, None)[0]
            native = _move_leaf(fresh, src, target)
    elif not src._backend.spec.mutable and target._backend.hooks.writable_imports:
        sole = _sole(natives, k, src)  # before natives[k] is on the stack as an argument
        native = _move_leaf(cast(NativeArray, natives[k]), src, target, share=sole)
    else:
        native = _move_leaf(cast(NativeArray, natives[k]), src, target)
    natives[k] = None
    return native


def _noted(
    fun: Callable[..., object],
    target: Device,
    args: Sequence[object],
    kwargs: Mapping[str, object],
) -> object:
    """``fun(*args, **kwargs)``; an exception it raises gets a note naming the crossing."""
    try:
        return fun(*args, **kwargs)
    except Exception as e:
        note = f"raised by {function_name(fun)} running on {target} through arraymux.on_device"
        if note not in getattr(e, "__notes__", ()):
            e.add_note(note)
        raise


def _result_leaves(
    fun: Callable[..., object], result: object
) -> tuple[list[object], Callable[[list[object]], object]]:
    """The leaves of ``fun``'s result and the function rebuilding it; anything but arrays,
    Python scalars and None raises."""
    leaves, rebuild = _leaves(result)
    for k, leaf in enumerate(leaves):
        if operand(leaf) is None and not (
            leaf is None or isinstance(leaf, bool | int | float | complex)
        ):
            raise TypeError(
                f"arraymux.on_device: leaf {k} of what {function_name(fun)} returned is of type "
                f"{type(leaf).__name__}; a crossed function returns arrays and Python "
                "scalars, in pytrees (tuples, lists, dicts, registered classes)."
            )
    return leaves, rebuild


@dataclasses.dataclass(slots=True)
class _Args:
    """The arguments of one call of a crossed function, taken apart."""

    leaves: list[object]  # every leaf of (args, kwargs)
    ops: dict[int, tuple[NativeArray, Device]]  # (native, device) of each array leaf
    where: list[int]  # the positions of the array leaves
    rebuild: Callable[
        [list[object]], tuple[tuple[object, ...], dict[str, object]]
    ]  # from new leaves
    back: Device | None  # the device of the first array: where results go
    native_out: bool  # native arrays in (and no Array): native arrays out


def _plain(fun: Callable[..., object], target: Device, call: _Args) -> object:
    """The crossing outside any transform: move, call, move back."""
    moved = list(call.leaves)
    for i in call.where:
        native, dev = call.ops[i]
        moved[i] = wrap(_move_leaf(native, dev, target), target)
    a, kw = call.rebuild(moved)
    # What holds the arguments on the target is let go before the results move back: an
    # argument returned as it is then counts only the caller's references (see _sole).
    del moved
    with default_device(target):
        box = [_noted(fun, target, a, kw)]
    del a, kw
    home = target if call.back is None else call.back
    return _results_back(
        fun, box, lambda ns, k, d: _result_moved(ns, k, d, home), home, call.native_out
    )


def _within(fun: Callable[..., object], target: Device, call: _Args, engine: str | None) -> object:
    """The crossing inside a transform when one engine computes both sides: its own
    (differentiable) moves keep the graph."""
    place = _engine_device(target)
    mover = _engine_mover(engine)
    moved = list(call.leaves)
    for i in call.where:
        native, dev = call.ops[i]
        if dev is place:
            moved[i] = wrap(native, place)
        elif dev._backend is place._backend:
            moved[i] = wrap(mover(native, dev, place), place)
        else:  # a constant of another backend
            moved[i] = wrap(_move_leaf(native, dev, place), place)
    a, kw = call.rebuild(moved)
    outer, TRANSFORM.device = TRANSFORM.device, place
    outer_bridge = TRANSFORM.bridge
    if place is not target:  # NumPy or CuPy computed by torch: their closures are constants
        from ._engine import Engine

        TRANSFORM.bridge = Engine.get("on_device", target)
    try:
        box = [_noted(fun, target, a, kw)]
    finally:
        TRANSFORM.device, TRANSFORM.bridge = outer, outer_bridge
    assert call.back is not None
    home = _engine_device(call.back)
    return _results_back(
        fun,
        box,
        # the slots of arrays (none is emptied here)
        lambda ns, k, d: cast(NativeArray, ns[k]) if d is home else mover(ns[k], d, home),
        home,
        call.native_out,
    )


def _results_back(
    fun: Callable[..., object],
    box: list[object],
    move: Callable[[list[NativeArray | None], int, Device], NativeArray],
    home: Device,
    native_out: bool,
) -> object:
    """``fun``'s result (the one item of ``box``), each array moved to ``home`` by
    ``move(natives, k, device)``: natives with ``native_out``, else Arrays.

    The result is taken out of ``box`` and its Arrays let go, so that while the arrays move
    nothing here holds them but the list of natives (see :func:`_sole`)."""
    out_leaves, rebuild_out = _result_leaves(fun, box.pop())
    natives, devices = _natives_of(out_leaves)
    new = []
    for k, dev in enumerate(devices):
        if dev is None:
            new.append(out_leaves[k])
            continue
        native = move(natives, k, dev)
        new.append(native if native_out else wrap(native, home))
    return rebuild_out(new)


def _natives_of(leaves: list[object]) -> tuple[list[NativeArray | None], list[Device | None]]:
    """The natives of the array leaves of ``leaves`` (None for the others, which are left
    in place) and their devices; the array leaves are removed from ``leaves``."""
    natives: list[NativeArray | None] = []
    devices: list[Device | None] = []
    for k in range(len(leaves)):
        op = operand(leaves[k])
        if op is None:
            natives.append(None)
            devices.append(None)
        else:
            leaves[k] = None
            natives.append(op[0])
            devices.append(op[1])
            op = None
    return natives, devices


def _engine_mover(engine: str | None) -> Callable[..., NativeArray]:
    """The engine's own differentiable move of a native from one of its devices to another."""
    if engine == "torch":
        return lambda native, src, dst: native.to(dst.native)
    import jax

    # src: JAX sends cotangents back there (a traced value does not say where it lies).
    return lambda native, src, dst: jax.device_put(native, dst.native, src=src.native)


# -- a crossing between two engines -----------------------------------------------------------


class _Foreign:
    """One call of a crossed function inside a transform of another engine.

    The caller's engine sees a primitive taking the natives of the arguments' arrays (on the
    caller's engine device) and returning those of the result's arrays; this object computes
    the primitive, its vjp and its jvp on the target, optionally batched over leading axes.
    Hashed by identity (JAX keeps it as a parameter of its primitive).
    """

    def __init__(
        self, fun: Callable[..., object], target: Device, call: _Args, home: Device
    ) -> None:
        self.fun = fun
        self.target = target
        self.call = call
        self.home = home
        self.native_out = call.native_out
        # Arrays that are not traced (constants) are inputs too, moved to the caller's engine
        # device first: every input then crosses the same way.
        self.natives: list[NativeArray] = []
        for i in call.where:
            native, dev = call.ops[i]
            self.natives.append(_move_leaf(native, dev, home))
        self.floats = [_is_float(n, home) for n in self.natives]
        # Set by the first call: the result's leaves (arrays as None) and structure.
        self.out_leaves: list[object] | None = None
        self.rebuild_out: Callable[[list[object]], object] | None = None
        self.out_floats: list[bool] = []
        self.avals: dict[Hashable, tuple[ShapedArray, ...]] = {}
        # Whether the caller will pull cotangents back (set by the caller's engine): the
        # unbatched call then runs as a vjp, and its pullback serves the backward pass.
        self.keep_pull = False
        self.pull: Callable[[Sequence[NativeArray]], list[NativeArray | None]] | None = (
            None  # JAX: the result's shapes per kind and input shapes
        )

    def __repr__(self) -> str:
        return f"on_device({function_name(self.fun)}, {self.target})"

    # -- the caller's side --------------------------------------------------------------------

    def apply(self, engine: str | None) -> object:
        """Run the crossing as a primitive of the caller's ``engine``; the result as the user
        expects it (Arrays on the caller's engine device)."""
        outs: Iterator[NativeArray]
        if engine == "torch":
            from ._torch import crossing

            # the caller's engine is torch: its natives are tensors
            outs = iter(crossing(self, cast("list[Tensor]", self.natives)))
        else:
            from ._jax import crossing as jax_crossing

            outs = iter(jax_crossing(self, self.natives))
        assert self.out_leaves is not None and self.rebuild_out is not None
        new: list[object] = []
        for leaf in self.out_leaves:
            if leaf is _ARRAY:
                native = next(outs)
                new.append(native if self.native_out else wrap(native, self.home))
            else:
                new.append(leaf)
        return self.rebuild_out(new)

    def run(
        self, kind: int, nb: int, natives: Sequence[NativeArray], back: Device | None = None
    ) -> list[NativeArray]:
        """The primitive of ``kind`` on natives of the caller's side (batched over ``nb``
        leading axes): for CALL the arguments' arrays; for VJP those and the cotangents of the
        floating results; for JVP those and the tangents of the floating arguments. Returns
        natives of ``back`` (default: the caller's engine device)."""
        back = back or self.home
        pull = self.pull if kind == VJP and nb == 0 else None
        if pull is not None:  # the primals were seen by the forward pass
            natives = natives[len(self.natives) :]
        target = self.target
        moved = [_move_leaf(n, _device_of(n), target) for n in natives]
        # The target is the default device while fun runs (as in a transform).
        outer, TRANSFORM.device = TRANSFORM.device, target
        outs: list[NativeArray | None]
        try:
            if pull is not None:
                outs = pull(moved)
            elif kind == CALL and nb == 0 and self.keep_pull and target._name in _ENGINES:
                outs = self._forward_keeping_pull(moved)
            else:
                outs = [o._native for o in self._on_target(kind, nb, moved)]
        finally:
            TRANSFORM.device = outer
        del moved  # an argument returned as it is: held by outs only (see _sole)
        return [_result_moved(outs, k, target, back) for k in range(len(outs))]

    # -- the target's side --------------------------------------------------------------------

    def _call(self, *xs: Array) -> list[Array]:
        """``fun`` on Arrays standing for the arguments' arrays; the array leaves of its
        result as Arrays. The first call records the result's structure."""
        full = list(self.call.leaves)
        for i, x in zip(self.call.where, xs):
            full[i] = x
        a, kw = self.call.rebuild(full)
        leaves, rebuild_out = _result_leaves(self.fun, _noted(self.fun, self.target, a, kw))
        outs = []
        for leaf in leaves:
            op = operand(leaf)
            if op is not None:
                outs.append(leaf if type(leaf) is Array else wrap(*op))
        if self.out_leaves is None:
            self.out_leaves = [_ARRAY if operand(v) is not None else v for v in leaves]
            self.rebuild_out = rebuild_out
            self.out_floats = [o.dtype.kind in FLOATING for o in outs]
        return outs

    def _forward_keeping_pull(self, natives: list[NativeArray]) -> list[NativeArray | None]:
        """The forward pass on the target's own engine (torch or JAX), as a vjp whose
        pullback (natives to natives) the backward pass will use."""
        from ._engine import Engine

        e = Engine.get("vjp", self.target)
        device, floats, out_floats = e.device, self.floats, None
        fl = [i for i, f in enumerate(floats) if f]

        def split(*xs: NativeArray) -> tuple[list[NativeArray], list[NativeArray]]:
            nonlocal out_floats
            full = list(natives)
            for i, x in zip(fl, xs):
                full[i] = x
            outs = self._call(*[wrap(v, device) for v in full])
            out_floats = self.out_floats
            return (
                [o._native for o, f in zip(outs, out_floats) if f],
                [o._native for o, f in zip(outs, out_floats) if not f],
            )

        diff, pull, fixed = e.run(
            self.fun, e.mod.vjp, split, *[natives[i] for i in fl], has_aux=True
        )
        self.pull = lambda cts: list(e.run(self.fun, pull, list(cts)))
        d, k = iter(diff), iter(fixed)
        return [next(d) if f else next(k) for f in self.out_floats]

    def _on_target(self, kind: int, nb: int, natives: list[NativeArray]) -> list[Array]:
        inputs = [wrap(v, self.target) for v in natives]
        n = len(self.natives)
        engine = _engine_name(self.target)
        if kind == CALL and not (nb == 0 and self.keep_pull and engine is not None):
            return list(_batched(self._call, nb, self.target)(*inputs))
        if engine is None:
            raise TransformUnavailableError(
                f"arraymux.on_device: {function_name(self.fun)} runs on {self.target}, which has no "
                f"autodiff engine, so derivatives cannot flow through it (the caller "
                f"differentiates on {self.home}). Transforms run on: {engine_backends()}. Call it "
                "outside the transform, or cross to a device with an engine."
            )
        fl = [i for i in range(n) if self.floats[i]]
        jvp, vjp = _transforms().jvp, _transforms().vjp

        if kind == CALL:  # a forward pass whose pullback the backward pass will use

            def split(*floats: Array) -> tuple[list[Array], list[Array]]:
                full = list(inputs)
                for i, x in zip(fl, floats):
                    full[i] = x
                outs = self._call(*full)
                return (
                    [o for o, f in zip(outs, self.out_floats) if f],
                    [o for o, f in zip(outs, self.out_floats) if not f],
                )

            diff, pull_arrays, fixed = vjp(split, *[inputs[i] for i in fl], has_aux=True)
            target = self.target
            self.pull = lambda cts: [o._native for o in pull_arrays([wrap(c, target) for c in cts])]
            d, k = iter(diff), iter(fixed)
            return [next(d) if f else next(k) for f in self.out_floats]

        if self.out_leaves is None:  # the result's structure, from one element of the batch
            self._call(*_unbatched(inputs[:n], nb))
        ofl = [k for k, f in enumerate(self.out_floats) if f]

        def float_part(*floats: Array, rest: Sequence[Array]) -> list[Array]:
            full = list(rest)
            for i, x in zip(fl, floats):
                full[i] = x
            outs = self._call(*full)
            return [outs[k] for k in ofl]

        def pull(*xs: Array) -> list[Array]:
            prim, cts = xs[:n], xs[n:]
            f = functools.partial(float_part, rest=prim)
            return list(vjp(f, *[prim[i] for i in fl])[1](list(cts)))

        def push(*xs: Array) -> list[Array]:
            prim, tans = xs[:n], xs[n:]
            f = functools.partial(float_part, rest=prim)
            return list(jvp(f, [prim[i] for i in fl], list(tans))[1])

        return list(_batched(pull if kind == VJP else push, nb, self.target)(*inputs))


_ARRAY = object()  # marks the array leaves of a recorded result


def _transforms() -> ModuleType:
    """``arraymux.transforms`` (which imports this module), looked up when used."""
    return sys.modules["arraymux.transforms"]


def _is_float(native: NativeArray, device: Device) -> bool:
    return device._backend.dtype_from_native(native.dtype).kind in FLOATING


def _unbatched(xs: Sequence[Array], nb: int) -> list[Array]:
    """The first element of each of ``xs`` along its ``nb`` leading (batch) axes."""
    return [x[(0,) * nb + (...,)] if nb else x for x in xs]


def _batched(
    g: Callable[..., Sequence[Array]], nb: int, target: Device
) -> Callable[..., Sequence[Array]]:
    """``g`` mapped over ``nb`` leading axes of all its arguments: with the target's engine
    where it has one, else one batch element at a time."""
    if nb == 0:
        return g
    if _engine_name(target) is not None:
        for _ in range(nb):
            g = _transforms().vmap(g)
        return g

    def sequential(*xs: Array) -> list[Array]:
        from .._manipulation_functions import reshape, stack

        lead = tuple(xs[0].shape[:nb])
        size = 1
        for s in lead:
            size *= int(s or 0)
        flat = [reshape(x, (size, *x.shape[nb:])) for x in xs]
        rows = [g(*[x[k, ...] for x in flat]) for k in range(size)]
        outs = [stack([r[j] for r in rows]) for j in range(len(rows[0]))] if rows else []
        return [reshape(o, (*lead, *o.shape[1:])) for o in outs]

    return sequential
