"""The functions of the standard, made from their entries in the function table: each takes
its commonest calls straight to the device's function and hands every other call to the
general path of :mod:`arraymux._dispatch`, which checks, promotes and explains. The compiled
module (:mod:`arraymux._compiled`) replaces the unary, binary and first-array ones by builtins
that do the same in C.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from . import _compiled, _dtypes
from ._arguments import Params, check_ndim, params_of
from ._array import Array, wrap
from ._backend_errors import BACKEND_ERRORS
from ._dispatch import binary_slow, call, call_backend, wrap_result
from ._docstrings import finish
from ._function_table import BY_NAME, VARARGS, Record
from ._signatures import BOOL_KEYWORDS, WORDS

if TYPE_CHECKING:
    from ._devices import Device

__all__ = ["binary", "by_hand", "first", "generic", "reflected", "unary"]


def unary(name: str) -> Callable[..., Array]:
    def fn(x: object, /) -> Array:
        if type(x) is Array:
            d = x._device
            t = x._dtype
            if t is None:
                t = x._dtype = x._native.dtype
            try:
                r = d._fns[name](x._native)
            except BACKEND_ERRORS:
                return call(name, (x,), {})  # explains the backend's error
            rt = d._results[name].get(t)
            if rt is None:
                rt = r.dtype
                if rt not in d._known:
                    return call(name, (x,), {})
            out = object.__new__(Array)
            out._native = r
            out._device = d
            out._dtype = rt
            return out
        return call(name, (x,), {})

    return _compiled.function("unary", name, finish(fn, name, "unary"))


def binary(name: str, operator: bool = False) -> Callable[..., Array]:
    """The function for a binary standard name; ``operator=True`` makes the method form,
    which returns ``NotImplemented`` for operands it does not know (so Python can try the
    other operand's reflected method)."""

    def fn(x1: object, x2: object, /) -> Array:
        if type(x1) is Array and type(x2) is Array:
            d = x1._device
            t = x1._dtype
            if t is None:
                t = x1._dtype = x1._native.dtype
            t2 = x2._dtype
            if t2 is None:
                t2 = x2._dtype = x2._native.dtype
            if t is t2 and x2._device is d:
                try:
                    r = d._fns[name](x1._native, x2._native)
                except BACKEND_ERRORS:
                    return binary_slow(name, x1, x2, operator)  # explains the backend's error
                rt = d._results[name].get(t)
                if rt is None:
                    rt = r.dtype
                    if rt not in d._known:
                        return binary_slow(name, x1, x2, operator)
                out = object.__new__(Array)
                out._native = r
                out._device = d
                out._dtype = rt
                return out
        return binary_slow(name, x1, x2, operator)

    fn = finish(fn, name, "binary")
    return fn if operator else _compiled.function("binary", name, fn)  # operators: see _array


def reflected(name: str) -> Callable[..., Array]:
    """The reflected operator method (``__radd__``): ``other`` is the left operand."""

    def fn(x2: object, x1: object, /) -> Array:
        return binary_slow(name, x1, x2, True)

    return finish(fn, name, "binary")


# Types of the values that may go to a backend as they are (the hot paths pass nothing else:
# anything that could be or hold an array, a NumPy scalar included, is checked first).
_NUMBERS = frozenset({int, float, complex, type(None)})


def _plain(values: Any) -> bool:
    """Whether positional ``values`` may go to a backend as they are. Not bools: the standard
    takes none by position after the arrays, and JAX and Dask read ``True`` as the axis 1;
    strings only among the standard's (:data:`~arraymux._signatures.WORDS`)."""
    for v in values:
        t = type(v)
        if t in _NUMBERS or (t is str and v in WORDS):
            continue
        if (t is tuple or t is list) and all(type(i) in _NUMBERS for i in v):
            continue
        return False
    return True


def _plain_kwargs(kwargs: dict[str, object], keywords: frozenset[str]) -> bool:
    """Whether keyword arguments may go to a backend as they are: names among ``keywords``,
    values as :func:`_plain`'s, and bools only for the standard's bool parameters."""
    if not kwargs:
        return True
    if not kwargs.keys() <= keywords:
        return False
    for k, v in kwargs.items():
        if type(v) is bool:
            if k not in BOOL_KEYWORDS:
                return False
        elif not _plain((v,)):
            return False
    return True


def first(name: str) -> Callable[..., Any]:
    params = params_of(name)
    # The most positional arguments after x, and the keywords, that the hot path passes on
    # (any other call goes through `call`, which checks it).
    extra = len(params.positional) - 1 if params is not None and not params.varargs else 0
    # (not the FFTs' axes: NumPy transformed an axis named twice twice, where the others
    # refuse it; the general path checks them, at no cost that an FFT would show)
    keywords = (params.keywords if params is not None else frozenset()) - {"dtype", "axes"}

    def plain_call(args: tuple[object, ...], kwargs: dict[str, object]) -> bool:
        return (not args or (len(args) <= extra and _plain(args))) and _plain_kwargs(
            kwargs, keywords
        )

    if BY_NAME[name].result is not None:

        def fn_tuple(x: object, /, *args: object, **kwargs: object) -> Array | tuple[object, ...]:
            if type(x) is Array and plain_call(args, kwargs):
                d = x._device
                try:
                    r = d._fns[name](x._native, *args, **kwargs)
                except BACKEND_ERRORS:
                    return call(name, (x, *args), kwargs)  # explains the backend's error
                return wrap_result(name, r, d)
            return call(name, (x, *args), kwargs)

        return finish(fn_tuple, name, "first")

    keeps_dtype = BY_NAME[name].keeps_dtype

    def fn(x: object, /, *args: object, **kwargs: object) -> Array:
        if type(x) is Array and (not (args or kwargs) or plain_call(args, kwargs)):
            d = x._device
            try:
                r = d._fns[name](x._native, *args, **kwargs)
            except BACKEND_ERRORS:
                return call(name, (x, *args), kwargs)  # explains the backend's error
            out = object.__new__(Array)
            out._native = r
            out._device = d
            out._dtype = x._dtype if keeps_dtype else None
            return out
        return call(name, (x, *args), kwargs)

    max_args = extra + 1 if params is not None and not params.varargs else -1
    made = _compiled.function(
        "first", name, finish(fn, name, "first"), keeps_dtype, max_args, frozenset(keywords)
    )
    least = BY_NAME[name].min_ndim
    if not least:
        return made

    def checked(x: object, /, *args: object, **kwargs: object) -> Array:
        check_ndim(name, x, least)
        return made(x, *args, **kwargs)  # type: ignore[no-any-return]

    return by_hand(checked, made)


def generic(name: str) -> Callable[..., Any]:
    """The function for a standard name that takes several arrays (``take(x, indices)``,
    ``vecdot(x1, x2)``, ``concat(arrays)``, ``broadcast_arrays(*arrays)``): a plain call (its
    arrays Arrays of one device, those that the function promotes of one dtype, its other
    arguments Python values by keyword) goes to the device's function as it is, as
    :func:`first` does for one array, and anything else, or anything the backend refuses, to
    :func:`call`, which checks and explains."""
    entry = BY_NAME[name]
    params = params_of(name)
    if name == "clip":
        plain = _plain_clip()
    elif params is None or entry.operands != "any" or name in _CHECKED_GENERIC:
        plain = None
    elif entry.rule == "sequence":
        plain = _plain_sequence(name, params)
    elif entry.arrays is VARARGS:
        plain = _plain_varargs(name)
    else:
        plain = _plain_arrays(name, entry, params)

    if plain is None:

        def fn(*args: object, **kwargs: object) -> Any:
            return call(name, args, kwargs)

    else:
        fn = plain
    return finish(fn, name, entry.rule)


# Functions whose general path does more than check: diff's bound and meshgrid's creation
# rules.
_CHECKED_GENERIC = frozenset({"diff", "meshgrid"})


def _plain_arrays(name: str, entry: Record, params: Params) -> Callable[..., Any] | None:
    """:func:`generic`'s function where the arrays lead the positional parameters."""
    arrays = entry.arrays or {}
    n = 0
    while n < len(params.positional) and params.positional[n] in arrays:
        n += 1
    if n < 2 or n != len(params.positional):
        return None
    keywords = frozenset(params.keywords - arrays.keys() - {"dtype", "device"})
    promoted = tuple(i for i in entry.promote if i < n)
    # Positions and counts (Record.integer_arrays): arrays of other dtypes take the general
    # path, which refuses them.
    counted = tuple(i for i in range(n) if params.positional[i] in entry.integer_arrays)
    # Vectors (Record.vectors): arrays of other dimensions take the general path too.
    vectors = tuple(i for i in range(n) if params.positional[i] in entry.vectors)

    def fn(*args: object, **kwargs: object) -> Any:
        if len(args) == n and type(args[0]) is Array and _plain_kwargs(kwargs, keywords):
            d = args[0]._device
            natives = _natives_on(d, args)
            if natives is None:
                return call(name, args, kwargs)
            if promoted and not _one_dtype([natives[i] for i in promoted]):
                return call(name, args, kwargs)
            if counted:
                ints = d._backend.integer_natives
                for i in counted:
                    if natives[i].dtype not in ints:
                        return call(name, args, kwargs)
            for i in vectors:
                if natives[i].ndim != 1:
                    return call(name, args, kwargs)
            try:
                r = _call_plain(name, d, natives, kwargs, natives)
            except BACKEND_ERRORS:
                return call(name, args, kwargs)  # explains the backend's error
            return wrap_result(name, r, d)
        return call(name, args, kwargs)

    return fn


_F = TypeVar("_F", bound=Callable[..., Any])


def by_hand(fn: _F, made: Callable[..., Any]) -> _F:
    """``fn``, written by hand around ``made`` (the function its record makes, which it
    calls), with ``made``'s docstring, signature, names and module: one face for both."""
    twin = _compiled.python_twin(made)
    for attr in ("__doc__", "__signature__", "__name__", "__qualname__", "__module__"):
        setattr(fn, attr, getattr(twin, attr))
    return fn


def _natives_on(d: object, arrays: tuple[object, ...] | list[object]) -> list[Any] | None:
    """The native arrays of ``arrays`` if all are Arrays of device ``d``, else None."""
    natives: list[Any] = []
    for a in arrays:
        if type(a) is not Array or a._device is not d:
            return None
        natives.append(a._native)
    return natives


def _call_plain(
    name: str, d: Device, args: Sequence[object], kwargs: dict[str, object], natives: list[Any]
) -> Any:
    """:func:`call_backend` of a plain call whose native arrays are ``natives``: the device's
    function itself where none of them has a dtype that the backend emulates (torch's
    uint16/32/64), without the emulation's look through every argument."""
    emulated = d._backend.emulated_dtypes
    if emulated:
        for a in natives:
            if a.dtype in emulated:
                return call_backend(name, d, args, kwargs)
    return d._fns[name](*args, **kwargs)


def _one_dtype(natives: list[Any]) -> bool:
    """Whether the native arrays ``natives`` share one dtype (array-api-strict's dtypes are
    equal objects, not one object)."""
    t = natives[0].dtype
    for a in natives[1:]:
        u = a.dtype
        if u is not t and u != t:
            return False
    return True


def _plain_clip() -> Callable[..., Any]:
    """:func:`generic`'s function for ``clip``: bounds that are None, Python floats, Python
    ints within int64 (which the general path passes as they are) or Arrays of the device and
    dtype of ``x``."""

    def clip(*args: object, **kwargs: object) -> Any:
        n = len(args)
        if (
            1 <= n <= 3
            and type(args[0]) is Array
            and kwargs.keys() <= _BOUNDS
            and not ((n > 1 and "min" in kwargs) or (n > 2 and "max" in kwargs))
        ):
            x = args[0]
            d = x._device
            lo = _plain_bound(args[1] if n > 1 else kwargs.get("min"), x)
            hi = _plain_bound(args[2] if n > 2 else kwargs.get("max"), x)
            if lo is not _NOT_PLAIN and hi is not _NOT_PLAIN:
                try:
                    # (an Array bound has x's dtype: x's alone says whether to emulate)
                    r = _call_plain("clip", d, [x._native, lo, hi], {}, [x._native])
                except BACKEND_ERRORS:
                    return call("clip", args, kwargs)  # explains the backend's error
                return wrap(r, d)
        return call("clip", args, kwargs)

    return clip


_BOUNDS = frozenset({"min", "max"})
_INT64_LO, _INT64_HI = _dtypes.int_range(_dtypes.int64)
_NOT_PLAIN = object()


def _plain_bound(b: Any, x: Array) -> object:
    """A bound of ``clip(x, ...)`` as the device's function takes it, or ``_NOT_PLAIN`` (an
    integer ``x`` beside a float bound or an int beyond its dtype: see ``_clip_bounds``)."""
    kind = type(b)
    if b is None or (kind is int and 0 <= b <= 127):  # (an int that every dtype holds)
        return b
    if kind is float or kind is int:
        if x._native.dtype in x._device._backend.integer_natives:
            if kind is float:
                return _NOT_PLAIN
            lo, hi = _dtypes.int_range(x.dtype)
            return b if lo <= b <= hi else _NOT_PLAIN
        return b if kind is float or _INT64_LO <= b <= _INT64_HI else _NOT_PLAIN
    if kind is Array and b._device is x._device and _one_dtype([x._native, b._native]):
        return b._native
    return _NOT_PLAIN


def _plain_sequence(name: str, params: Params) -> Callable[..., Any]:
    """:func:`generic`'s function for ``concat`` and ``stack``: a list or tuple of Arrays of one
    device and one dtype (0-d ones aside, which concat refuses with its own message)."""
    keywords = frozenset(params.keywords - {"arrays"})

    def fn(*args: object, **kwargs: object) -> Any:
        if len(args) == 1 and _plain_kwargs(kwargs, keywords):
            seq = args[0]
            if (type(seq) is list or type(seq) is tuple) and seq and type(seq[0]) is Array:
                natives = _natives_on(seq[0]._device, seq)
                if natives is None or not _one_dtype(natives):
                    return call(name, args, kwargs)
                d = seq[0]._device
                if name != "concat" or len(natives[0].shape):
                    try:
                        # (one dtype: the first array says whether to emulate)
                        r = _call_plain(name, d, [natives], kwargs, natives[:1])
                    except BACKEND_ERRORS:
                        return call(name, args, kwargs)  # explains the backend's error
                    return wrap(r, d)
        return call(name, args, kwargs)

    return fn


def _plain_varargs(name: str) -> Callable[..., Any]:
    """:func:`generic`'s function for ``broadcast_arrays``: Arrays of one device."""

    def fn(*args: object, **kwargs: object) -> Any:
        if args and not kwargs and type(args[0]) is Array:
            d = args[0]._device
            natives = _natives_on(d, args)
            if natives is None:
                return call(name, args, kwargs)
            try:
                r = _call_plain(name, d, natives, {}, natives)
            except BACKEND_ERRORS:
                return call(name, args, kwargs)  # explains the backend's error
            return wrap_result(name, r, d)
        return call(name, args, kwargs)

    return fn
