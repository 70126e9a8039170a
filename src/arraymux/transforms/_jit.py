"""``jit``: a compiled function per device of the arguments, with a hot path for repeated calls."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import ParamSpec, TypeVar, cast

from .. import _compiled
from .._arguments import parse_all
from .._devices import TRANSFORM, Device
from .._errors import (
    BackendMismatchError,
)
from ._engine import Engine, check_function, compiled_natively
from ._tree import find

_P = ParamSpec("_P")
_R = TypeVar("_R")


def jit(
    fun: Callable[_P, _R],
    *,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Iterable[str] = (),
) -> Callable[_P, _R]:
    """Compile ``fun`` for the backend of the arrays it is called with.

    JAX arrays use ``jax.jit`` and torch tensors ``torch.compile``; one compiled function is
    kept per device. NumPy and CuPy have no compiler: the function runs as it is. The first
    call on each device traces and compiles; Python scalars and the arrays' shapes are part of
    what a recompile depends on, as with the engines themselves. On torch, ``torch.compile``
    traces ``fun`` through its Array arguments and rebuilds the Arrays it returns, so a call
    costs what a call of the compiled native function costs plus a check of the arguments'
    device. Each jitted function has a compilation cache of its own (dynamo's limit of 8
    compilations applies per function), and the checks dynamo runs before each call cover the
    function, what it reads (globals, closures) and the tensors, not arraymux's own internal
    state (modules, an Array's device and cached dtype, which its tensor already fixes).
    With torch older than 2.14, dynamo does not trace the ``@`` and ``~`` operators of a Python
    class and breaks the graph there (the code still runs); ``xp.matmul(a, b)`` and
    ``xp.bitwise_invert(a)`` compile on every version. A transform of a transform
    (``xp.jit(xp.grad(f))``) compiles whole from torch 2.13; torch 2.11 breaks its graph
    where arraymux looks up its caches, with the same results.

    Arguments marked static (``static_argnums``, ``static_argnames``, as in ``jax.jit``) are
    not traced: ``fun`` sees their Python values, so it may branch or loop on them, and each
    distinct value (which must be hashable) gets a compiled function of its own on every
    engine (on torch a ``torch.compile`` per value, on JAX ``jax.jit``'s static arguments).
    A parameter named in one of the two is static whether it is passed by position or by
    keyword. Branching on a traced argument raises the engine's error, which names the
    parameter (JAX: ``... depends on the value of the argument k``).

    Parameters
    ----------
    fun
        A function of arrays (positional and keyword arguments).
    static_argnums, static_argnames
        Positions and names of the parameters to treat as static.

    Returns
    -------
    callable
        The compiled function.

    Raises
    ------
    BackendMismatchError, TransformUnavailableError
        As :func:`grad`.
    TypeError
        A static argument is unhashable, or ``static_argnums``/``static_argnames`` hold
        something other than ints/strings.
    ValueError
        ``static_argnums`` names a position ``fun`` does not have.

    Examples
    --------
    >>> import arraymux as xp
    >>> f = xp.jit(lambda x: xp.sin(x) ** 2 + xp.cos(x) ** 2)
    >>> f(xp.asarray([0.5, 1.0]))  # NumPy: runs as it is
    Array([1., 1.], dtype=float64, device='numpy:cpu')
    >>> def power(x, n):
    ...     for _ in range(n - 1):  # a Python loop over a static argument
    ...         x = x * x
    ...     return x
    >>> xp.jit(power, static_argnames="n")(xp.asarray([3.0], device="jax:cpu"), 2)
    Array([9.], dtype=float32, device='jax:cpu:0')
    """
    check_function("jit", fun)
    nums, names = _static_parameters(fun, static_argnums, static_argnames)
    jitted = _jit_static(fun, nums, names) if nums or names else _jit_dynamic(fun)
    # It takes fun's arguments and returns what fun returns.
    return cast("Callable[_P, _R]", jitted)


def _jit_dynamic(fun: Callable[..., object]) -> Callable[..., object]:
    """:func:`jit` of a function whose arguments are all traced."""
    # Per device of the arguments: its engine, the compiled function and whether that takes
    # Arrays (torch.compile traces through them) or natives (jax.jit); None: run as is.
    compiled: dict[Device, tuple[Engine, Callable[..., object], bool] | None] = {}
    # The last call's device, compiled function, engine and whether that function takes
    # Arrays: the next call with Arrays on the same device goes straight to it.
    hot: list[tuple[Device | None, Callable[..., object], Engine | None, bool]] = [
        (None, fun, None, False)
    ]
    transform = TRANSFORM

    def compile_for(user: Device) -> tuple[Engine, Callable[..., object], bool] | None:
        entry: tuple[Engine, Callable[..., object], bool] | None = None
        if user._name not in ("numpy", "cupy"):
            e = Engine.get("jit", user)
            if e.mod.JIT_TAKES_ARRAYS:  # torch.compile traces arraymux's Python code
                parse_all()
                entry = (e, e.mod.jit(fun), True)
            else:
                entry = (e, compiled_natively(e, fun), False)
        compiled[user] = entry
        return entry

    @functools.wraps(fun)
    def jit_fun(*args: object, **kwargs: object) -> object:
        # The steady state: a walk in C that checks the arguments' device, then the compiled
        # call. torch's compiled function takes and returns Arrays (the device for creation
        # functions is set around it, for what runs outside its graphs); JAX's takes natives,
        # unwrapped and wrapped by walks in C, and sets the device itself, as it runs Python
        # only while it traces. What Engine.run does is written out here: each Python call on
        # this path costs about 1 us next to a compiled call (a 1k-parameter MLP on the CPU).
        try:  # free in CPython 3.11+ until something raises
            last, c, e, takes_arrays = hot[0]
            if e is not None:
                if not takes_arrays:
                    if kwargs:
                        fast = _compiled.natives((args, kwargs))
                        if fast is not None and fast[1] is last:
                            nargs, nkwargs = fast[0]
                            out = c(*nargs, **nkwargs)
                            wrapped = _compiled.wrap_tree(out, last)
                            return wrapped if wrapped is not None else e.out(out)
                    else:  # positional arguments only: no keyword dict to walk and rebuild
                        fast = _compiled.natives(args)
                        if fast is not None and fast[1] is last:
                            out = c(*fast[0])
                            wrapped = _compiled.wrap_tree(out, last)
                            return wrapped if wrapped is not None else e.out(out)
                elif _compiled.device_of((args, kwargs)) is last:
                    outer = transform.device
                    transform.device = e.device
                    try:
                        return c(*args, **kwargs)
                    except BackendMismatchError as err:
                        explained = e.explained(fun, err)
                        if explained is err:
                            raise
                        raise explained  # noqa: B904 (see Engine.run)
                    finally:
                        transform.device = outer
            return call(args, kwargs)
        except TypeError as err:  # JAX's tracer errors are TypeErrors
            _hint_static(err, fun)
            raise
        except RuntimeError as err:  # JAX's report of an error in an on_device crossing
            raised = _raised_in_crossing(err)
            if raised is None:
                raise
            raise raised from None

    def call(args: Sequence[object], kwargs: Mapping[str, object]) -> object:
        # The first call on a device, and arguments with native arrays.
        user, natives, only_arrays = find("jit", args, kwargs)
        nargs: Sequence[object] | None = None
        nkwargs: dict[str, object] = {}
        if natives is not None:
            nargs, nkwargs = natives
        try:
            entry = compiled[user]
        except KeyError:
            entry = compile_for(user)
        if entry is None:
            # NumPy and CuPy run as they are, with the arguments' device as the default for
            # what the function makes, as inside every other transform (a CuPy function's
            # xp.asarray(0.1) was made on the default device, NumPy's, and did not mix).
            outer = transform.device
            transform.device = user
            try:
                return fun(*args, **kwargs)
            finally:
                transform.device = outer
        e, c, takes_arrays = entry
        if nargs is None:  # no array, or arrays to explain: the leaf-by-leaf crossing
            nargs = [e.into(a, i) for i, a in enumerate(args)]
            nkwargs = {k: e.into(v, k) for k, v in kwargs.items()}
            if takes_arrays:
                args, kwargs = e.out(nargs), e.out(nkwargs)
        elif only_arrays:  # Arrays of one device: the next call can take the hot path
            hot[0] = (user, c, e, takes_arrays)
        if takes_arrays:
            return e.run(fun, c, *args, **kwargs)
        return e.out(c(*nargs, **nkwargs))

    return jit_fun


def _raised_in_crossing(err: RuntimeError) -> Exception | None:
    """The exception that a crossing of :func:`arraymux.on_device` compiled by ``jax.jit``
    raised in its host callback, which JAX reported as ``err``; None for other errors."""
    jax_engine = sys.modules.get("arraymux.transforms._jax")
    return None if jax_engine is None else jax_engine.raised_in_callback(err)


def _hint_static(err: BaseException, fun: Callable[..., object]) -> None:
    """Add the fix to JAX's error about a traced value used as a Python value."""
    jax_errors = sys.modules.get("jax.errors")
    if jax_errors is None or not isinstance(err, jax_errors.ConcretizationTypeError):
        return
    err.add_note(
        f"arraymux.jit: if that argument is a Python setting of {_name(fun)} (a size, a count, "
        'a flag), mark it static: arraymux.jit(fun, static_argnames=("name",)) or '
        "static_argnums=(position,)."
    )


def _static_parameters(
    fun: Callable[..., object],
    static_argnums: int | Sequence[int],
    static_argnames: str | Iterable[str],
) -> tuple[frozenset[int], frozenset[str]]:
    """The static positions and names, each completed from the other through ``fun``'s
    signature (as ``jax.jit`` does), and checked against it."""
    nums = {static_argnums} if isinstance(static_argnums, int) else set(static_argnums)
    names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
    if not all(isinstance(i, int) for i in nums) or not all(isinstance(n, str) for n in names):
        raise TypeError(
            "arraymux.jit: static_argnums takes ints and static_argnames takes strings."
        )
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):  # no signature (a builtin): take them as given
        return frozenset(nums), frozenset(names)
    kinds = inspect.Parameter
    positional = [
        p for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)
    ]
    variadic = any(p.kind is kinds.VAR_POSITIONAL for p in params)
    by_keyword = {
        p.name for p in params if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)
    }
    resolved: set[int] = set()
    for i in nums:
        j = i + len(positional) if i < 0 else i
        if not 0 <= j < len(positional) and not (variadic and j >= 0):
            raise ValueError(
                f"arraymux.jit: static_argnums has {i}, but {_name(fun)} takes "
                f"{len(positional)} positional arguments."
            )
        resolved.add(j)
        if j < len(positional) and positional[j].kind is kinds.POSITIONAL_OR_KEYWORD:
            names.add(positional[j].name)
    for n in list(names):
        if n not in by_keyword and not any(p.kind is kinds.VAR_KEYWORD for p in params):
            raise ValueError(
                f"arraymux.jit: static_argnames has {n!r}, which is not a parameter of "
                f"{_name(fun)} ({', '.join(p.name for p in params)})."
            )
        for j, p in enumerate(positional):
            if p.name == n and p.kind is kinds.POSITIONAL_OR_KEYWORD:
                resolved.add(j)
    return frozenset(resolved), frozenset(names)


def _name(fun: Callable[..., object]) -> str:
    return getattr(fun, "__qualname__", None) or type(fun).__name__


def _jit_static(
    fun: Callable[..., object], nums: frozenset[int], names: frozenset[str]
) -> Callable[..., object]:
    """:func:`jit` with static arguments: one compiled function per distinct static value."""
    compiled: dict[Hashable, Callable[..., object]] = {}
    try:
        signature: inspect.Signature | None = inspect.signature(fun)
    except (TypeError, ValueError):
        signature = None

    @functools.wraps(fun)
    def jit_fun(*args: object, **kwargs: object) -> object:
        fixed = tuple((i, args[i]) for i in sorted(nums) if i < len(args))
        named = tuple(sorted((k, v) for k, v in kwargs.items() if k in names))
        key = (fixed, named)
        try:
            inner = compiled.get(key)
        except TypeError:
            bad = next(k for k, v in (*fixed, *named) if _unhashable(v))
            raise TypeError(
                f"arraymux.jit: the static argument {_label(signature, bad)} of "
                f"{_name(fun)} must be hashable (it keys the compiled functions); pass a "
                "tuple rather than a list, or make it a traced argument."
            ) from None
        if inner is None:
            inner = compiled[key] = _jit_dynamic(_bound(fun, signature, fixed, named))
        traced_args = [a for i, a in enumerate(args) if i not in nums]
        traced_kwargs = {k: v for k, v in kwargs.items() if k not in names}
        return inner(*traced_args, **traced_kwargs)

    return jit_fun


def _unhashable(v: object) -> bool:
    try:
        hash(v)
    except TypeError:
        return True
    return False


def _label(signature: inspect.Signature | None, which: object) -> str:
    """The parameter's name for a static position or name."""
    if isinstance(which, int) and signature is not None:
        params = list(signature.parameters)
        if which < len(params):
            return repr(params[which])
    return repr(which) if isinstance(which, str) else f"at position {which}"


def _bound(
    fun: Callable[..., object],
    signature: inspect.Signature | None,
    fixed: tuple[tuple[int, object], ...],
    named: tuple[tuple[str, object], ...],
) -> Callable[..., object]:
    """``fun`` with its static arguments filled in, as a function of the traced ones.

    It carries ``fun``'s name, source and signature less the static parameters, so that the
    compilers' messages name the user's function and parameters."""
    static_kwargs = dict(named)

    def bound(*args: object, **kwargs: object) -> object:
        full = list(args)
        for i, v in fixed:
            full.insert(i, v)
        return fun(*full, **kwargs, **static_kwargs)

    functools.update_wrapper(bound, fun)
    if signature is not None:
        statics = {i for i, _ in fixed}
        params = [
            p
            for j, p in enumerate(signature.parameters.values())
            if j not in statics and p.name not in static_kwargs
        ]
        bound.__dict__["__signature__"] = signature.replace(parameters=params)
    return bound
