"""``jit``: a compiled function per device of the arguments, with a hot path for repeated calls."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _compiled
from .._devices import _TRANSFORM, Device
from .._errors import (
    BackendMismatchError,
)
from ._engine import _check_fun, _Engine, _traced
from ._tree import find


def jit(fun: Callable[..., Any]) -> Callable[..., Any]:
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

    Parameters
    ----------
    fun
        A function of arrays (positional and keyword arguments).

    Returns
    -------
    callable
        The compiled function.

    Raises
    ------
    BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> f = xp.jit(lambda x: xp.sin(x) ** 2 + xp.cos(x) ** 2)
    >>> f(xp.asarray([0.5, 1.0]))  # NumPy: runs as it is
    Array([1., 1.], dtype=float64, device='numpy:cpu')
    """
    _check_fun("jit", fun)
    # Per device of the arguments: its engine, the compiled function and whether that takes
    # Arrays (torch.compile traces through them) or natives (jax.jit); None: run as is.
    compiled: dict[Device, tuple[_Engine, Callable[..., Any], bool] | None] = {}
    # The last call's device, compiled function, engine and whether that function takes
    # Arrays: the next call with Arrays on the same device goes straight to it.
    hot: list[tuple[Device | None, Callable[..., Any], _Engine | None, bool]] = [
        (None, fun, None, False)
    ]
    transform = _TRANSFORM

    def compile_for(user: Device) -> tuple[_Engine, Callable[..., Any], bool] | None:
        entry: tuple[_Engine, Callable[..., Any], bool] | None = None
        if user._name not in ("numpy", "cupy"):
            e = _Engine.get("jit", user)
            if e.mod.JIT_TAKES_ARRAYS:
                entry = (e, e.mod.jit(fun), True)
            else:
                c = e.mod.jit(_traced(e, fun))
                if e.placement is not None:
                    c = e.mod.placed(c, e.placement)
                entry = (e, c, False)
        compiled[user] = entry
        return entry

    @functools.wraps(fun)
    def jit_fun(*args: Any, **kwargs: Any) -> Any:
        # The steady state: a walk in C that checks the arguments' device, then the compiled
        # call. torch's compiled function takes and returns Arrays (the device for creation
        # functions is set around it, for what runs outside its graphs); JAX's takes natives,
        # unwrapped and wrapped by walks in C, and sets the device itself, as it runs Python
        # only while it traces. What _Engine.run does is written out here: each Python call on
        # this path costs about 1 us next to a compiled call (a 1k-parameter MLP on the CPU).
        last, c, e, takes_arrays = hot[0]
        if e is not None:
            if not takes_arrays:
                fast = _compiled.natives((args, kwargs))
                if fast is not None and fast[1] is last:
                    nargs, nkwargs = fast[0]
                    out = c(*nargs, **nkwargs)
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
                    raise explained  # noqa: B904 (see _Engine.run)
                finally:
                    transform.device = outer
        return call(args, kwargs)

    def call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # The first call on a device, and arguments with native arrays.
        user, natives, only_arrays = find("jit", args, kwargs)
        nargs: Any = None
        nkwargs: dict[str, Any] = {}
        if natives is not None:
            nargs, nkwargs = natives
        try:
            entry = compiled[user]
        except KeyError:
            entry = compile_for(user)
        if entry is None:
            return fun(*args, **kwargs)
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
