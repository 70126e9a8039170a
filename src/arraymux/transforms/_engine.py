"""The per-call engine of the transforms: which engine computes for arrays on a device, the
crossing of arguments and results into and out of it, and the argument checks."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, TypeVar, overload

from .. import _default_dtypes
from .._array import Array, operand, wrap
from .._backends import backend_of_type
from .._compiled import convert_tree, dtypes_in, natives, wrap_tree
from .._devices import TRANSFORM, Device
from .._errors import (
    BackendMismatchError,
    BackendUnavailableError,
    TransformUnavailableError,
)
from .._typing import NativeArray
from ._tree import (
    FLOATING,
    PyTree,
    Slow,
    argument_path,
    convert_natives,
    engine_backends,
    find,
    float_natives,
    function_name,
    is_float,
    map_leaves,
    natives_of,
    unwrap_all,
    wrap_all,
)

_R = TypeVar("_R")
_T = TypeVar("_T")

__all__ = [
    "as_constants",
    "aux_check",
    "cached_transform",
    "check_argnums",
    "check_function",
    "compiled_natively",
    "diff_inputs",
    "Engine",
    "for_tracing",
    "scalar_check",
]

# Marks a mismatch already explained by an inner transform (raised as it is by outer ones):
# an attribute rather than a subclass, so that what users catch and see is exactly
# arraymux.BackendMismatchError.
_EXPLAINED = "_arraymux_explained"


_ENGINES: dict[tuple[str, str, bool], Engine] = {}  # (transform, device, bridge)
_WANTED: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}


class Engine:
    """The engine for one call: the user's device, the engine's device and its adapter."""

    __slots__ = (
        "backend",
        "bridged",
        "device",
        "leaf_in",
        "leaf_out",
        "mod",
        "placement",
        "tname",
        "user",
    )

    def __init__(self, tname: str, user: Device, *, bridge: bool = True) -> None:
        self.tname = tname
        self.user = user
        self.bridged = False
        name = user._name
        mod: ModuleType
        if name == "jax":
            from . import _jax as mod

            self.device = user
            # Off JAX's default device, its default is set around each call (see placement).
            self.placement = mod.placement(user)
        elif name == "torch" or (bridge and user._backend.spec.bridged):
            try:
                from . import _torch as mod
            except ImportError:
                raise BackendUnavailableError(
                    f"arraymux.{tname}: transforms on {user} run on torch, which is not "
                    'installed. Install it with: pip install "arraymux[torch]"'
                ) from None
            self.bridged = name != "torch"
            self.placement = None
            adapter = user._backend.adapter
            self.device = Device(adapter.engine_place(user._place)) if self.bridged else user
        else:
            raise TransformUnavailableError(
                f"arraymux.{tname}: the {name} backend ({user}) has no autodiff or tracing "
                f"engine. Transforms run on: {engine_backends()}. Move the arrays first, e.g. "
                'x = arraymux.to_device(x, "torch:cpu").'
            )
        self.mod: ModuleType = mod
        self.backend = self.device._backend
        # Bridged: (the type of the user's arrays, to the engine's) and (the type of the
        # engine's arrays, to the user's), what the compiled tree walk converts.
        self.leaf_in: tuple[type, Callable[[NativeArray], NativeArray]] | None = None
        self.leaf_out: tuple[type, Callable[[NativeArray], NativeArray]] | None = None
        if self.bridged:
            self.leaf_in = (user._backend.array_classes[0], mod.to_engine)
            self.leaf_out = (self.backend.array_classes[0], mod.from_engine_to(name))

    @classmethod
    def get(cls, tname: str, user: Device, *, bridge: bool = True) -> Engine:
        """The (cached) engine of ``tname`` for arrays on ``user``."""
        key = (tname, user._str, bridge)  # a Device is hashed in Python: dynamo < 2.13 breaks there
        e = _ENGINES.get(key)
        if e is None:
            e = _ENGINES[key] = cls(tname, user, bridge=bridge)
        return e

    @classmethod
    def of(cls, tname: str, args: Sequence[object], *, bridge: bool = True) -> Engine:
        """The (cached) engine for the arrays of ``args``."""
        return cls.get(tname, _user_device(tname, tuple(args)), bridge=bridge)

    @classmethod
    def prepared(
        cls,
        tname: str,
        args: tuple[object, ...],
        found: tuple[Device, Any, bool],
        wanted: frozenset[int] = frozenset(),
    ) -> tuple[Engine, Sequence[object]]:
        """The engine for ``args`` and the args as engine natives, from the device and natives
        that ``find`` gave; ``wanted``: the positions to differentiate (checked to be
        floating)."""
        dev, natives, _ = found
        e = cls.get(tname, dev)
        if natives is None:
            return e, [e.into(a, i, diff=i in wanted) for i, a in enumerate(args)]
        if e.bridged:
            return e, e.bridge_in(natives)
        return e, list(natives)

    # -- crossing into and out of the engine ----------------------------------------------------

    def to_engine(self, native: NativeArray) -> NativeArray:
        return self.mod.to_engine(self.user._backend.normalize(native))

    def bridge_in(self, natives: Sequence[object]) -> Sequence[object]:
        """The natives of a bridged engine's user (a sequence of pytrees) as the engine's."""
        assert self.leaf_in is not None
        fast = convert_tree(natives, *self.leaf_in)
        return (
            fast
            if fast is not None
            else convert_natives(list(natives), self.to_engine, self.user._backend)
        )

    def into(self, tree: object, pos: int | str = 0, diff: bool = False) -> object:
        """A pytree of the user's values with its arrays made the engine's native arrays."""
        try:
            out = natives_of(tree, [self.user], diff)
            if self.bridged:
                out = convert_natives(out, self.to_engine, self.user._backend)
            return out
        except Slow:
            pass

        def leaf_in(leaf: object, path: str) -> object:
            op = operand(leaf)
            if op is None:
                return self._scalar_in(leaf, argument_path(pos, path)) if diff else leaf
            native, dev = op
            if diff:
                dt = dev._backend.dtype_from_native(native.dtype)
                if dt.kind not in FLOATING:
                    raise TypeError(
                        f"arraymux.{self.tname}: {argument_path(pos, path)} has dtype {dt.name}, but only "
                        "floating-point inputs can be differentiated. Cast it first, e.g. "
                        "x = arraymux.astype(x, arraymux.float32), or leave it out of argnums."
                    )
            if self.bridged:
                return self.mod.to_engine(dev._backend.normalize(native))
            return native

        return map_leaves(leaf_in, tree)

    def _scalar_in(self, leaf: object, where: str) -> object:
        if isinstance(leaf, float | complex):
            from .._creation_functions import asarray

            return self.into(asarray(leaf, device=self.user))
        raise TypeError(
            f"arraymux.{self.tname}: {where} is {leaf!r} ({type(leaf).__name__}); only "
            "floating-point arrays and Python floats can be differentiated. Pass a float "
            "array, or leave it out of argnums."
        )

    @overload
    def out(self, tree: tuple[object, ...]) -> tuple[PyTree, ...]: ...
    @overload
    def out(self, tree: list[object]) -> list[PyTree]: ...
    @overload
    def out(self, tree: dict[str, object]) -> dict[str, PyTree]: ...
    @overload
    def out(self, tree: object) -> PyTree: ...
    def out(self, tree: object) -> object:
        """The engine's results as Arrays on the user's device."""
        if self.bridged:
            assert self.leaf_out is not None
            fast = convert_tree(tree, *self.leaf_out, self.user)
            return (
                fast if fast is not None else convert_natives(tree, self._from_engine, self.backend)
            )
        fast = wrap_tree(tree, self.device)
        return fast if fast is not None else wrap_all(tree, self.backend, self.device)

    def _from_engine(self, leaf: NativeArray) -> Array:
        assert self.leaf_out is not None
        return wrap(self.leaf_out[1](leaf), self.user)

    def native_fun(
        self, fun: Callable[..., object], check: Callable[[Any, Any], None] | None = None
    ) -> Callable[..., object]:
        """``fun`` as a function of the engine's native arrays (what the engine transforms);
        ``check(out, result)`` sees each result unwrapped and as ``fun`` returned it."""
        device, backend, tname = self.device, self.backend, self.tname
        constants = self.user if self.bridged else None

        def nat(leaf: object, path: str) -> object:
            if type(leaf) is Array:
                if leaf._device is constants:  # read from an enclosing scope: a constant
                    return self.to_engine(leaf._native)
                if leaf._device._backend is not backend:
                    raise BackendMismatchError(
                        f"arraymux.{tname}: {function_name(fun)} returned an array on {leaf._device}"
                        f"{path and ' at ' + path}, but it computes on {device}. Return arrays "
                        "of the backend of its arguments."
                    )
                return leaf._native
            return leaf

        def unwrap_out(result: object) -> object:
            try:
                return unwrap_all(result, backend)
            except Slow:
                return map_leaves(nat, result)

        # This runs inside the engine on every call, right after the engine's own work has
        # taken the CPU's caches: the compiled walks come first, the Python ones after them.
        def f(*nargs: object, **nkwargs: object) -> object:
            args = wrap_tree(nargs, device)
            if args is None:
                args = wrap_all(nargs, backend, device)
            kwargs = wrap_all(nkwargs, backend, device) if nkwargs else nkwargs
            result = fun(*args, **kwargs)
            fast = natives(result)
            if fast is not None and fast[1]._backend is backend:
                out = fast[0]
            else:
                out = unwrap_out(result)
            if check is not None:
                check(out, result)
            return out

        return f

    def run(
        self,
        fun: Callable[..., object],
        call: Callable[..., _R],
        /,
        *args: object,
        **kwargs: object,
    ) -> _R:
        """``call(*args, **kwargs)`` with the engine's device as default; explain backend
        clashes."""
        transform = TRANSFORM
        outer, transform.device = transform.device, self.device
        # Bridged: the user's arrays that fun reads from enclosing scopes meet the engine's
        # (see _devices.constant_bridge). Other engines leave an enclosing bridge as it is:
        # a transform inside a transform of NumPy arrays sees torch tensors as arguments, and
        # NumPy arrays in the closures of the user's code.
        outer_bridge = transform.bridge
        if self.bridged:
            transform.bridge = self
            _default_dtypes.enter_bridged()
        try:
            if self.placement is not None:
                return self.mod.placed(call, self.placement)(*args, **kwargs)
            return call(*args, **kwargs)
        except BackendMismatchError as e:
            err = self.explained(fun, e)
            if err is e:
                raise
            # Not `raise err from e`: dynamo before 2.12 cannot set the cause of an exception
            # of a Python class; the original stays attached as the context.
            raise err  # noqa: B904
        finally:
            transform.device = outer
            if self.bridged:
                transform.bridge = outer_bridge
                _default_dtypes.exit_bridged()

    def explained(
        self, fun: Callable[..., object], e: BackendMismatchError
    ) -> BackendMismatchError:
        """``e``, raised while ``fun`` ran in the engine, with what to do about closures."""
        if getattr(e, _EXPLAINED, False):
            return e
        via = f" (its {self.user} arguments are computed by torch there)" if self.bridged else ""
        err = BackendMismatchError(
            f"{e}\nInside arraymux.{self.tname}, {function_name(fun)} computes on {self.device}{via}; "
            f"arrays it reads from an enclosing scope (a closure) must be on {self.user}, the "
            "device of its arguments. Move them there with arraymux.to_device, or pass them "
            "as arguments (outside argnums if they are not differentiated)."
        )
        setattr(err, _EXPLAINED, True)
        return err


def check_argnums(tname: str, argnums: int | Sequence[int]) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums or not all(isinstance(i, int) for i in nums):
        raise TypeError(f"arraymux.{tname}: argnums must be an int or a tuple of ints.")
    return nums


def _wanted(tname: str, nums: tuple[int, ...], n: int) -> frozenset[int]:
    """The positions ``nums`` of ``n`` arguments, checked and made non-negative."""
    key = (nums, n)
    w = _WANTED.get(key)
    if w is None:
        for i in nums:
            if not -n <= i < n:
                raise ValueError(
                    f"arraymux.{tname}: argnums has {i}, but the function got {n} argument(s)."
                )
        w = _WANTED[key] = frozenset(i % n for i in nums)
    return w


def _user_device(
    tname: str, args: tuple[object, ...], kwargs: dict[str, object] | None = None
) -> Device:
    """The one device of the arrays in ``args`` and ``kwargs``."""
    return find(tname, args, kwargs)[0]


def diff_inputs(e: Engine, args: Sequence[object], nums: tuple[int, ...]) -> list[object]:
    n = len(args)
    for i in nums:
        if not -n <= i < n:
            raise ValueError(
                f"arraymux.{e.tname}: argnums has {i}, but the function got {n} argument(s)."
            )
    wanted = {i % n for i in nums}
    return [e.into(a, i, diff=i in wanted) for i, a in enumerate(args)]


def scalar_check(e: Engine, has_aux: bool) -> Callable[[Any, Any], None]:
    tname = e.tname
    backend = e.backend
    # An Array result of a real floating dtype needs only that and its number of dimensions
    # read: the general checks below cost microseconds inside an engine's call, where the
    # engine's own work has just taken the CPU's caches.
    real = float_natives(backend, real=True)

    def check(out: Any, result: Any = None) -> None:
        if has_aux:
            if not (isinstance(out, tuple | list) and len(out) == 2):
                raise TypeError(
                    f"arraymux.{tname}: with has_aux=True the function must return a pair "
                    f"(output, aux), not {type(out).__name__}."
                )
            out = out[0]
            result = result[0]
        if type(result) is Array and result._device._backend is backend:
            native = result._native
            dtype = result._dtype  # None where the hot path left it to be read (mean, sum)
            try:
                if (native.dtype if dtype is None else dtype) in real and native.ndim == 0:
                    return
            except TypeError:  # an unhashable dtype: the checks below
                pass
        if backend_of_type(type(out)) is not e.backend:
            raise TypeError(
                f"arraymux.{tname}: the function must return a 0-d floating-point array, not "
                f"{type(out).__name__}."
            )
        shape = tuple(out.shape)
        if shape != ():
            raise TypeError(
                f"arraymux.{tname}: the function must return a scalar (a 0-d array), but it "
                f"returned an array of shape {shape}. Reduce it first (arraymux.sum, ...), or "
                "use arraymux.jacobian or arraymux.vjp for non-scalar outputs."
            )
        if not is_float(e.backend, out.dtype, real=True):
            raise TypeError(
                f"arraymux.{tname}: the function must return a real floating-point scalar, "
                f"not {e.backend.dtype_from_native(out.dtype).name}."
            )

    return check


def check_function(tname: str, fun: object) -> None:
    if not callable(fun):
        raise TypeError(f"arraymux.{tname}: expected a function, got {type(fun).__name__}.")


def aux_check(e: Engine) -> Callable[[object, object], None]:
    def check(out: object, result: object = None) -> None:
        if not (isinstance(out, tuple | list) and len(out) == 2):
            raise TypeError(
                f"arraymux.{e.tname}: with has_aux=True the function must return a pair "
                f"(output, aux), not {type(out).__name__}."
            )

    return check


def cached_transform(
    name: str,
    fun: Callable[..., PyTree],
    build: Callable[[Engine], Callable[..., object]],
    nums: tuple[int, ...] | None = None,
    *,
    bridged_as_is: bool = False,
) -> Callable[..., PyTree]:
    """``fun`` transformed by the engine of its arguments: ``build(engine)`` makes the engine's
    transformed function once per engine, and each call runs it on the arguments as natives
    (``nums``: the positions differentiated, checked to be floating). With
    ``bridged_as_is``, arguments of a bridged backend (outside any transform) call ``fun``
    itself."""
    made: dict[Engine, Callable[..., object]] = {}
    # The last call's (device, number of arguments, positions differentiated, floating
    # dtypes, engine, engine's function). A call like it (Arrays and Python scalars of the
    # same device, the differentiated ones with a floating dtype already known) skips the
    # lookups: in a training loop the engine's own work evicts the CPU caches between
    # calls, which makes every lookup here cost several times what it costs in isolation.
    last: list[tuple[Any, ...]] = [(None, -1)]

    transform = TRANSFORM

    @functools.wraps(fun)
    def transformed(*args: object) -> PyTree:
        if transform.bridge is not None:
            args = as_constants(args)
        fast = natives(args)
        if fast is not None:
            hot = last[0]
            if fast[1] is hot[0] and len(args) == hot[1]:
                for i in hot[2]:
                    if not dtypes_in(args[i], hot[3]):
                        break
                else:
                    e = hot[4]
                    nargs = e.bridge_in(fast[0]) if e.bridged else fast[0]
                    return e.out(e.run(fun, hot[5], *nargs))
        wanted = frozenset() if nums is None else _wanted(name, nums, len(args))
        found = find(name, args, wanted=wanted)
        dev = found[0]
        if bridged_as_is and dev._backend.spec.bridged:
            return fun(*args)
        e, nargs = Engine.prepared(name, args, found, wanted)
        t = made.get(e)
        if t is None:
            t = made[e] = build(e)
        if fast is not None and fast[1] is dev:
            last[0] = (dev, len(args), wanted, float_natives(dev._backend), e, t)
        return e.out(e.run(fun, t, *nargs))

    return transformed


def as_constants(tree: _T) -> _T:
    """``tree`` (a transform's arguments) with the arrays of the device of an enclosing
    transform's arguments made Arrays of its engine's device, where that transform computes
    for NumPy or CuPy arrays with torch; ``tree`` itself elsewhere.

    Inside such a transform, the user's function computes with torch tensors, and the NumPy
    arrays it reads from enclosing scopes are constants of that computation (see
    :func:`arraymux._devices.constant_bridge`). A transform called there with such arrays
    computes with torch as well, and its results stay torch tensors: moved back to NumPy,
    they would lose the derivatives that the enclosing transform follows through them."""
    bridge = TRANSFORM.bridge
    if bridge is None or TRANSFORM.device is not bridge.device:
        return tree
    user, device = bridge.user, bridge.device

    def leaf(x: object, path: str) -> object:
        op = operand(x)
        if op is None or op[1] is not user:
            return x
        return wrap(bridge.to_engine(op[0]), device)

    return map_leaves(leaf, tree)


def compiled_natively(e: Engine, fun: Callable[..., object]) -> Callable[..., object]:
    """``fun`` compiled by the engine's tracing compiler (``jax.jit``) as a function of
    natives (:func:`for_tracing`), called with the engine's device as JAX's default where it
    is not already."""
    c = e.mod.jit(for_tracing(e, fun))
    return c if e.placement is None else e.mod.placed(c, e.placement)


def for_tracing(e: Engine, fun: Callable[..., object]) -> Callable[..., object]:
    """``fun`` as a function of natives for a tracing compiler (jax.jit): it runs only while
    the compiler traces, and sets the device for creation functions then."""
    inner = e.native_fun(fun)

    # wraps: the compiler's messages name the user's function and parameters ("the argument
    # k"), not this wrapper's (``nargs[1]``).
    @functools.wraps(fun)
    def traced(*nargs: object, **nkwargs: object) -> object:
        return e.run(fun, inner, *nargs, **nkwargs)

    return traced
