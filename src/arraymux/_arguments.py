"""Checks of the arguments of a call against the standard's signature, at the boundary.

The hot paths pass plain arguments (Python numbers, strings, tuples of numbers) to the backend
as they are; every other call, and every call the backend refuses, comes through here, so that
a mistake is reported the same way on every backend: a ``TypeError``, ``ValueError`` or
``IndexError`` that names the arraymux function and what to do, never a backend's internals
(JAX's unbound axis names, Dask's empty ``StopIteration``, a ``KeyError: -1``).
"""

from __future__ import annotations

import math
import operator
import sys
from typing import Any, Literal, NamedTuple, overload

from ._backends import backend_of_type
from ._errors import AxisError
from ._records import RECORDS
from ._signatures import CHOICES, ZERO_D

__all__ = [
    "INDEX_CHECKED",
    "MAX_BYTES",
    "Params",
    "as_keywords",
    "bound_diff",
    "check_bool",
    "check_call",
    "check_index",
    "check_int",
    "check_ndim",
    "check_number",
    "check_shape",
    "check_size",
    "check_value",
    "params_of",
    "python_scalar",
    "read_zero_d",
]


class Params(NamedTuple):
    """What a signature of the standard allows, in the form the checks need."""

    positional: tuple[str, ...]  # names of the positional parameters, in order
    required: int  # how many of them have no default
    keywords: frozenset[str]  # names that may be passed as keywords
    varargs: bool  # takes ``*args``
    text: str  # the signature, for messages
    # keyword-only names that every backend takes by position as well, in this order
    # (:data:`arraymux._signatures.ALSO_POSITIONAL`)
    also: tuple[str, ...] = ()


def parse(text: str) -> Params:
    """``Params`` of a signature written as in :data:`arraymux._signatures.SIGNATURES`."""
    import inspect

    ns: dict[str, object] = {}
    exec(f"def f{text}: pass", ns)
    f = ns["f"]
    assert callable(f)  # the function just defined
    sig = inspect.signature(f)
    positional: list[str] = []
    required = 0
    keywords: set[str] = set()
    varargs = False
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional.append(p.name)
            if p.default is p.empty:
                required += 1
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            keywords.add(p.name)
        if p.kind is p.VAR_POSITIONAL:
            varargs = True
    return Params(tuple(positional), required, frozenset(keywords), varargs, text)


_PARAMS: dict[str, Params | None] = {}


def parse_all() -> None:
    """Parse every signature now (about 3 ms). torch.compile calls this first: a first parse
    while dynamo traces would break the graph (``exec``) and mutate the cache it guards on,
    so that the function compiled again on its next call."""
    from ._function_table import BY_NAME
    from ._signatures import SIGNATURES

    for name in (*SIGNATURES, *BY_NAME):
        params_of(name)


def params_of(name: str) -> Params | None:
    """The ``Params`` of the standard function ``name`` (None if it has no listed signature)."""
    try:
        return _PARAMS[name]
    except KeyError:
        pass
    from ._function_table import BY_NAME
    from ._signatures import ALSO_POSITIONAL, SIGNATURES

    text = SIGNATURES.get(name)
    if text is None:
        rule = BY_NAME[name].rule if name in BY_NAME else None
        text = {"unary": "(x, /)", "binary": "(x1, x2, /)"}.get(rule or "")
    p = None if text is None else parse(text)._replace(also=ALSO_POSITIONAL.get(name, ()))
    _PARAMS[name] = p
    return p


def as_keywords(
    fname: str, params: Params, args: tuple[object, ...], kwargs: dict[str, object]
) -> tuple[tuple[object, ...], dict[str, object]]:
    """``args`` and ``kwargs`` with the arguments given by position for keyword-only
    parameters that every backend takes by position (``params.also``: ``xp.diff(x, 2)``)
    moved into ``kwargs``; anything else is left for :func:`check_call` to judge."""
    allowed = len(params.positional)
    extra = len(args) - allowed
    if extra <= 0 or params.varargs or extra > len(params.also):
        return args, kwargs
    moved = params.also[:extra]
    for k in moved:
        if k in kwargs:
            raise TypeError(f"arraymux.{fname}: got {k!r} both by position and by keyword.")
    return args[:allowed], {**dict(zip(moved, args[allowed:], strict=True)), **kwargs}


def check_call(
    fname: str, params: Params, args: tuple[object, ...], kwargs: dict[str, object]
) -> tuple[tuple[object, ...], dict[str, object]]:
    """``args`` and ``kwargs`` as the standard's signature ``params`` takes them (see
    :func:`as_keywords`); a ``TypeError`` naming ``fname`` if they do not fit it."""
    if params.also:
        args, kwargs = as_keywords(fname, params, args, kwargs)
    n = len(args)
    if not params.varargs and n > len(params.positional):
        allowed = len(params.positional)
        also = ""
        if params.also:
            allowed += len(params.also)
            also = (
                f", and it takes {', '.join(params.also)} by position as well, as NumPy, "
                "PyTorch, JAX and CuPy do"
            )
        kw_only = sorted(params.keywords - {*params.positional, *params.also})
        hint = f" Pass {', '.join(kw_only)} by keyword (e.g. {kw_only[0]}=...)." if kw_only else ""
        raise TypeError(
            f"arraymux.{fname}: takes {allowed} positional argument(s), but {n} were given; "
            f"its signature is {fname.rsplit('.', 1)[-1]}{params.text}{also}.{hint}"
        )
    for k in kwargs:
        if k not in params.keywords:
            if k in params.positional:
                raise TypeError(
                    f"arraymux.{fname}: {k!r} is positional-only; pass it by position "
                    f"(signature {fname.rsplit('.', 1)[-1]}{params.text})."
                )
            known = ", ".join(sorted(params.keywords)) or "none"
            raise TypeError(
                f"arraymux.{fname}: unexpected keyword argument {k!r}; its keyword arguments "
                f"are: {known} (signature {fname.rsplit('.', 1)[-1]}{params.text})."
            )
        if k in params.positional and params.positional.index(k) < n:
            raise TypeError(f"arraymux.{fname}: got {k!r} both by position and by keyword.")
    if n < params.required:
        missing = [p for p in params.positional[n : params.required] if p not in kwargs]
        if missing:
            raise TypeError(
                f"arraymux.{fname}: missing required argument(s): {', '.join(missing)} "
                f"(signature {fname.rsplit('.', 1)[-1]}{params.text})."
            )
    return args, kwargs


# ---------------------------------------------------------------------------------------------
# Python and NumPy scalars

_SCALAR_TYPES = (bool, int, float, complex)


def python_scalar(value: object) -> object:
    """``value`` as a Python scalar if it is a NumPy scalar of a standard kind (``np.int64(2)``,
    ``np.float32(1.5)``, ``np.bool_``), else ``value`` itself.

    NumPy scalars take part in arraymux operations the way Python scalars do (the array's
    dtype wins); a ``np.float64`` is a subclass of ``float`` and is made a plain one too, so that
    NumPy does not promote a float32 array to float64 behind arraymux's back."""
    t = type(value)
    if t is bool or t is int or t is float or t is complex:
        return value
    if t.__module__ != "numpy":
        return value
    import numpy as np

    if not isinstance(value, np.generic):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.longdouble | np.clongdouble) and value.dtype.itemsize > 16:
        return value  # wider than Python's float: not converted, refused later
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.complexfloating):
        return complex(value)
    return value


# ---------------------------------------------------------------------------------------------
# Values of the non-array parameters


def _type_name(v: object) -> str:
    t = type(v)
    if t.__module__ == "builtins":
        return t.__qualname__
    if t.__module__.startswith("arraymux."):  # (by its public name: arraymux.Array)
        return f"arraymux.{t.__qualname__}"
    return f"{t.__module__}.{t.__qualname__}"


def _is_array(v: object) -> bool:
    """Whether ``v`` is an array: an object of the standard's array protocol (arraymux's
    ``Array`` among them; NumPy's scalars, which have it too, are numbers here) or a native
    array of a registered backend."""
    t = type(v)
    if hasattr(t, "__array_namespace__"):
        numpy = sys.modules.get("numpy")  # not imported: v is no NumPy scalar
        return numpy is None or not isinstance(v, numpy.generic)
    return backend_of_type(t) is not None


def _not_an_array(fname: str, pname: str, v: object, what: str) -> TypeError:
    if not tuple(getattr(v, "shape", (1,))):
        return TypeError(
            f"arraymux.{fname}: {pname} must be {what}, not an array ({_type_name(v)}): not "
            "every backend takes a 0-d array for it, so arraymux does not either. Convert it "
            "first, e.g. with int(...) or float(...)."
        )
    return TypeError(
        f"arraymux.{fname}: {pname} must be {what}, not an array ({_type_name(v)}); "
        "convert it first, e.g. with int(...) or tuple(...)."
    )


def check_int(fname: str, pname: str, v: Any, what: str = "an int") -> int:
    """``v`` as a Python int (anything with ``__index__``); a bool, an array or another value
    raises a ``TypeError`` that names ``arraymux.<fname>``, ``pname`` and ``what`` it must be."""
    if isinstance(v, bool) or _is_array(v):
        if _is_array(v):
            raise _not_an_array(fname, pname, v, what)
        raise TypeError(f"arraymux.{fname}: {pname} must be {what}, not a bool.")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"arraymux.{fname}: {pname} must be {what}, not {_type_name(v)}.") from None


def check_ndim(fname: str, x: object, least: int) -> None:
    """Refuse an array ``x`` of fewer than ``least`` dimensions (``Record.min_ndim``) with one
    ``ValueError`` on every backend; anything else passes (the dispatched function explains)."""
    ndim = getattr(x, "ndim", None)
    if type(ndim) is int and ndim < least:
        raise ValueError(
            f"arraymux.{fname}: x has {ndim} dimension(s); the standard defines {fname} for "
            f"arrays of {least} or more."
        )


def check_vectors(fname: str, given: dict[str, object]) -> None:
    """Refuse an array among ``given`` (parameter name -> native array) that is not
    one-dimensional (``Record.vectors``) with one ``ValueError`` on every backend; anything
    else passes (None: not given)."""
    for pname, x in given.items():
        ndim = getattr(x, "ndim", None)
        if type(ndim) is int and ndim != 1:
            raise ValueError(
                f"arraymux.{fname}: {pname} has {ndim} dimension(s); the standard defines "
                f"{fname} for a one-dimensional {pname}."
            )


def _ints(fname: str, pname: str, v: object, what: str) -> tuple[int, ...]:
    if isinstance(v, tuple | list):
        return tuple(check_int(fname, f"{pname}[{i}]", a, what) for i, a in enumerate(v))
    if _is_array(v):
        raise _not_an_array(fname, pname, v, what)
    raise TypeError(f"arraymux.{fname}: {pname} must be {what}, not {_type_name(v)}.")


def _axis_range(fname: str, pname: str, axis: int, ndim: int | None) -> int:
    # A 0-d array's axis 0 or -1 passes, as NumPy's and torch's own functions take it (JAX
    # and Dask refuse it, in their words): the checked path then agrees with the plain one.
    if ndim is not None and not -max(ndim, 1) <= axis < max(ndim, 1):
        raise AxisError(
            f"arraymux.{fname}: {pname} {axis} is out of range for an array of {ndim} "
            f"dimension(s) (valid: {-max(ndim, 1)} to {max(ndim, 1) - 1})."
        )
    return axis


def _axes(
    fname: str, pname: str, v: object, ndim: int | None, *, none: bool, many: bool
) -> int | tuple[int, ...] | None:
    what = "an int" + (", a tuple of ints" if many else "") + (" or None" if none else "")
    if v is None:
        if none:
            return None
        raise TypeError(f"arraymux.{fname}: {pname} must be {what}, not None.")
    if isinstance(v, tuple | list) and many:
        axes = tuple(
            _axis_range(fname, pname, check_int(fname, f"{pname}[{i}]", a, what), ndim)
            for i, a in enumerate(v)
        )
        if ndim is not None and len({a % max(ndim, 1) for a in axes}) != len(axes):
            raise ValueError(f"arraymux.{fname}: {pname} {tuple(axes)} repeats an axis.")
        return axes
    return _axis_range(fname, pname, check_int(fname, pname, v, what), ndim)


def check_bool(fname: str, pname: str, v: object) -> bool:
    """``v`` as True or False (a NumPy bool read as one); anything else
    raises a ``TypeError`` that names ``arraymux.<fname>`` and ``pname``."""
    if isinstance(v, bool):
        return v
    v = python_scalar(v)
    if isinstance(v, bool):
        return v
    raise TypeError(f"arraymux.{fname}: {pname} must be True or False, not {_type_name(v)}.")


def check_copy(fname: str, v: object) -> bool | None:
    """``copy=`` as True, False or None (a NumPy bool read as one); anything else raises a
    ``TypeError`` that names ``arraymux.<fname>`` (an array there was read with ``bool()``)."""
    if v is None or isinstance(v, bool):
        return v
    v = python_scalar(v)
    if isinstance(v, bool):
        return v
    raise TypeError(f"arraymux.{fname}: copy must be True, False or None, not {_type_name(v)}.")


@overload
def check_number(fname: str, pname: str, v: object, *, complex_ok: Literal[False]) -> float: ...


@overload
def check_number(
    fname: str, pname: str, v: object, *, complex_ok: Literal[True] = True
) -> complex: ...


def check_number(fname: str, pname: str, v: object, *, complex_ok: bool = True) -> complex:
    """``v`` as a Python number (a bool, int or float, or a complex where ``complex_ok``); an
    array or another value raises a ``TypeError`` that names ``arraymux.<fname>`` and
    ``pname``."""
    if _is_array(v):
        raise _not_an_array(fname, pname, v, "a Python number")
    v = python_scalar(v)
    kinds = _SCALAR_TYPES if complex_ok else (bool, int, float)
    if not isinstance(v, kinds):
        raise TypeError(f"arraymux.{fname}: {pname} must be a number, not {_type_name(v)}.")
    return v


def read_zero_d(fname: str, pname: str, v: object) -> object:
    """``v`` with its 0-d arrays read as Python values where every backend takes one for
    ``pname`` of ``fname`` (:data:`arraymux._signatures.ZERO_D`), as the value itself or among
    the entries of a tuple or list (``shape``, ``axis``). Any other array is left as it is,
    for the checks that follow to refuse."""
    names = ZERO_D.get(fname)
    if names is None:
        return v
    if isinstance(v, tuple | list):
        if (pname in names or f"{pname}[]" in names) and any(_is_array(a) for a in v):
            return type(v)(
                _host_value(fname, f"{pname}[{i}]", a) if _is_array(a) else a
                for i, a in enumerate(v)
            )
        return v
    if pname in names and _is_array(v):
        return _host_value(fname, pname, v)
    return v


def _host_value(fname: str, pname: str, v: Any) -> complex:
    """The Python value of ``v``, a 0-d array (of any backend) given for ``pname``: read on
    the host, as each backend reads one there (a GPU waits for it)."""
    shape = tuple(getattr(v, "shape", ()))
    if shape:
        raise TypeError(
            f"arraymux.{fname}: {pname} must be a Python number or a 0-d array, not an array "
            f"of shape {shape}."
        )
    kind = str(getattr(v, "dtype", ""))
    try:
        if "bool" in kind:
            return bool(v)
        if "int" in kind:
            return int(v)
        if "complex" in kind:
            return complex(v)
        return float(v)
    except Exception as e:
        raise TypeError(
            f"arraymux.{fname}: {pname} is a 0-d array whose value cannot be read here "
            f"({type(e).__name__}: {e}); pass a Python number (under arraymux.jit, make the "
            "argument static)."
        ) from e


def _choice(fname: str, pname: str, v: object, options: tuple[object, ...]) -> object:
    if isinstance(v, str | int | float) and not isinstance(v, bool) and v in options:
        return v
    shown = ", ".join(repr(o) for o in options)
    raise ValueError(f"arraymux.{fname}: {pname} must be one of {shown}, not {v!r}.")


def _ord(fname: str, pname: str, v: object, names: tuple[str, ...]) -> object:
    if isinstance(v, str):
        if not names:  # (a vector norm's)
            raise ValueError(f"arraymux.{fname}: {pname} must be a real number, not {v!r}.")
        return _choice(fname, pname, v, names)
    return check_number(fname, pname, v, complex_ok=False)


def check_shape(fname: str, pname: str, v: object, *, minus_one: bool = False) -> tuple[int, ...]:
    """A shape: an int or a tuple of ints, each at least 0 (``-1`` once where allowed)."""
    if type(v) is not tuple or not all(type(n) is int for n in v):
        v = read_zero_d(fname, pname, v)
    what = "an int or a tuple of ints"
    dims = (
        (check_int(fname, pname, v, what),)
        if not isinstance(v, tuple | list)
        else _ints(fname, pname, v, what)
    )
    unknown = 0
    for i, n in enumerate(dims):
        if n == -1 and minus_one:
            unknown += 1
            continue
        if n < 0:
            raise ValueError(
                f"arraymux.{fname}: {pname} {dims} has a negative size at position {i}; sizes "
                "must be 0 or more."
            )
    if unknown > 1:
        raise ValueError(f"arraymux.{fname}: {pname} {dims} has more than one -1.")
    if unknown and 0 in dims:
        raise ValueError(
            f"arraymux.{fname}: {pname} {dims} has a -1 beside a size 0, which leaves the -1 "
            "any size."
        )
    check_size(fname, tuple(n for n in dims if n != -1), 1)
    return dims


#: The largest number of bytes an array may have: 2**63 - 1. A larger size overflows the
#: 64-bit byte counts of every backend (jaxlib aborts the process on one).
MAX_BYTES = 2**63 - 1


def check_size(fname: str, shape: tuple[int, ...], itemsize: int) -> None:
    """Raise before a backend is asked for an array whose byte size overflows 64 bits.

    The sizes are multiplied with the zeros left out: backends multiply them in order, and
    jaxlib aborts the process on an overflow before it meets a zero (``(2**62, 0)``)."""
    # A list, not a generator: torch.compile cannot pass a generator to a builtin.
    extent = math.prod([n for n in shape if n])
    if extent * max(itemsize, 1) <= MAX_BYTES:
        return
    size = math.prod(shape)
    if size:
        what = f"would hold {_count(size)} elements ({_count(size * max(itemsize, 1))} bytes)"
    else:
        what = f"has sizes whose product, zeros left out, is {_count(extent)}"
        what += f" ({_count(extent * max(itemsize, 1))} bytes)"
    parts = [str(_count(n)) for n in shape]
    shown = f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"
    raise ValueError(
        f"arraymux.{fname}: an array of shape {shown} {what}, more than any device "
        "can address (2**63 bytes)."
    )


def _count(n: int) -> int | str:
    """``n`` as it reads in a message: exact up to 20 digits, else about ``1.1e+602``."""
    return (
        n
        if n < 10**20
        else f"about {float(n):.1e}"
        if n < 10**300
        else f"about 10**{len(str(n)) - 1}"
    )


# ---------------------------------------------------------------------------------------------
# Indices

#: Python ints of an index of this magnitude or more are checked against the array's shape
#: before a backend sees them: the backends take them as machine integers and wrap or overflow
#: (JAX wrote ``x[2**63] = v`` to index 0; torch's ``x[:: 2**63 - 1]`` was empty).
INDEX_CHECKED = 2**31


def check_index(fname: str, key: object, shape: tuple[int | float | None, ...]) -> object:
    """``key``, an index of an array of ``shape``, with its Python ints checked against it.

    An int out of bounds raises ``IndexError``; a slice's start, stop and step beyond the
    length of its axis are brought to it (the same elements, in numbers every backend takes).
    Arrays in the key count for the axes they index; anything else goes to the backend as it
    is, which explains. Sizes that are not ints (lazy ones) are not checked."""
    items = tuple(python_scalar(k) for k in (key if type(key) is tuple else (key,)))
    ndim = len(shape)
    spent = sum(_axes_indexed(k) for k in items if k is not Ellipsis)
    out = []
    axis = 0
    for k in items:
        if k is Ellipsis:
            axis += max(ndim - spent, 0)
        elif isinstance(k, int | slice) and type(k) is not bool:
            n = shape[axis] if axis < ndim else None
            if type(n) is int:
                k = _clamped(k, n) if isinstance(k, slice) else _in_bounds(fname, k, axis, n)
            axis += 1
        else:
            axis += _axes_indexed(k)
        out.append(k)
    return tuple(out) if type(key) is tuple else out[0]


def _axes_indexed(k: Any) -> int:
    """How many axes of the array the index item ``k`` takes."""
    if k is None or type(k) is bool:
        return 0
    try:
        if "bool" in str(getattr(k, "dtype", "")):
            return len(k.shape)  # a boolean mask: as many as it has
    except Exception:  # not an index: the backend explains
        pass
    return 1


def _in_bounds(fname: str, k: int, axis: int, n: int) -> int:
    if -n <= k < n:
        return k
    valid = f"valid: {-n} to {n - 1}" if n else "it has no elements"
    raise IndexError(
        f"arraymux.{fname}: index {k} is out of bounds for axis {axis} of size {n} ({valid})."
    )


def _clamped(k: slice, n: int) -> slice:
    """``k`` with its Python ints brought within ``[-n - 1, n]`` (a step within ``n``): the
    same elements of an axis of length ``n``."""
    start, stop, step = k.start, k.stop, k.step
    if type(step) is int and abs(step) > max(n, 1):
        step = max(n, 1) if step > 0 else -max(n, 1)
    if type(start) is int:
        start = min(max(start, -n - 1), n)
    if type(stop) is int:
        stop = min(max(stop, -n - 1), n)
    return slice(start, stop, step)


#: The widest element an FFT computes with (complex128): ``n`` and ``s`` are sizes of its
#: result and of the input padded to them.
_FFT_ITEMSIZE = 16


def check_value(fname: str, pname: str, v: object, ndim: int | None) -> Any:
    """The value of the non-array parameter ``pname`` of ``fname``, checked and made plain
    (NumPy scalars become Python scalars); ``ndim``: the array argument's, if known. (Its
    type is that of ``pname``'s values: an int for ``num``, a bool for ``endpoint``...)"""
    t = type(v)
    if t is not int and t is not bool and t is not float and t is not str and v is not None:
        v = read_zero_d(fname, pname, v)
    if pname == "axis":
        if fname in ("expand_dims",):
            return _axes(fname, pname, v, None if ndim is None else ndim + 1, none=False, many=True)
        if fname in ("stack",):
            return _axes(
                fname, pname, v, None if ndim is None else ndim + 1, none=False, many=False
            )
        many = fname in _MANY_AXES
        none = fname in _AXIS_NONE
        return _axes(fname, pname, v, ndim, none=none, many=many)
    if pname in ("source", "destination"):
        return _axes(fname, pname, v, ndim, none=False, many=True)
    if pname == "axes":
        if fname in ("tensordot", "linalg.tensordot"):
            if isinstance(v, tuple | list):
                if len(v) != 2:
                    raise ValueError(
                        f"arraymux.{fname}: axes must be an int or a pair of sequences of axes."
                    )
                return tuple(
                    _ints(fname, f"axes[{i}]", a, "a sequence of ints") for i, a in enumerate(v)
                )
            n = check_int(fname, pname, v, "an int or a pair of sequences of ints")
            if n < 0:
                raise ValueError(f"arraymux.{fname}: axes must be 0 or more, not {n}.")
            return n
        if fname == "permute_dims":
            axes = _ints(fname, pname, v, "a tuple of ints")
            if ndim is not None and len(axes) != ndim:
                raise ValueError(
                    f"arraymux.{fname}: axes {axes} must name each of the {ndim} axes once."
                )
            return _axes(fname, pname, axes, ndim, none=False, many=True)
        return _axes(fname, pname, v, ndim, none=True, many=True)  # fft, fftshift
    if pname == "shape":
        return check_shape(fname, pname, v, minus_one=fname == "reshape")
    if pname in ("shift",):
        if isinstance(v, tuple | list):
            return _ints(fname, pname, v, "an int or a tuple of ints")
        return check_int(fname, pname, v, "an int or a tuple of ints")
    if pname in ("repetitions", "s"):
        if v is None and pname == "s":
            return None
        dims = _ints(fname, pname, v, "a tuple of ints")
        if any(d < (1 if pname == "s" else 0) for d in dims):
            raise ValueError(
                f"arraymux.{fname}: {pname} {dims} must hold sizes of at least "
                f"{1 if pname == 's' else 0}."
            )
        check_size(fname, dims, _FFT_ITEMSIZE if pname == "s" else 1)
        return dims
    if pname in ("k", "offset"):
        return check_int(fname, pname, v)
    if pname == "n":
        if v is None and fname.startswith("fft.") and not fname.endswith("freq"):
            return None  # the transforms' length: the input's (fftfreq's n is required)
        n = check_int(fname, pname, v)
        if fname == "diff" and n < 0:
            raise ValueError(f"arraymux.{fname}: n must be 0 or more, not {n}.")
        if fname.startswith("fft.") and n < 1:
            raise ValueError(f"arraymux.{fname}: n must be at least 1, not {n}.")
        if fname.startswith("fft."):
            check_size(fname, (n,), _FFT_ITEMSIZE)
        return n
    if pname in ("n_rows", "n_cols", "num"):
        if v is None and pname == "n_cols":
            return None
        n = check_int(fname, pname, v)
        if n < 0:
            raise ValueError(f"arraymux.{fname}: {pname} must be 0 or more, not {n}.")
        return n
    if pname in (
        "keepdims",
        "descending",
        "stable",
        "endpoint",
        "upper",
        "invert",
        "full_matrices",
        "include_initial",
    ):
        return check_bool(fname, pname, v)
    if pname == "copy":
        return None if v is None else check_bool(fname, pname, v)
    if pname == "correction":
        c = check_number(fname, pname, v, complex_ok=False)
        if isinstance(c, bool):
            raise TypeError(f"arraymux.{fname}: correction must be a number, not a bool.")
        return c
    if pname in ("d", "start", "stop", "step", "fill_value", "min", "max", "rtol"):
        if v is None and pname in ("stop", "min", "max", "rtol"):
            return None
        return check_number(fname, pname, v)
    if pname == "ord":
        if fname == "linalg.matrix_norm":
            return _ord(fname, pname, v, CHOICES["ord"])
        return _ord(fname, pname, v, ())
    if pname in CHOICES:  # (ord: above)
        return _choice(fname, pname, v, CHOICES[pname])
    if _is_array(v):
        raise _not_an_array(fname, pname, v, "a Python value")
    return python_scalar(v)


# Functions whose ``axis`` may be a tuple of axes, and those whose ``axis`` may be None
# (their records' ``axis``).
_MANY_AXES = frozenset(r.name for r in RECORDS if r.axis in ("tuple or None", "tuple"))
_AXIS_NONE = frozenset(r.name for r in RECORDS if r.axis in ("tuple or None", "int or None"))


def bound_diff(nargs: list[Any], nkwargs: dict[str, Any]) -> None:
    """``diff``'s ``n`` capped at the length of its axis: beyond it the result is empty anyway,
    and NumPy and JAX would loop ``n`` times (``n=2**40`` never returns)."""
    n = nkwargs.get("n", 1)
    if n <= 1:
        return
    x = nargs[0]
    axis = nkwargs.get("axis", -1)
    length = x.shape[axis]
    if length is None or isinstance(length, float):
        return
    for extra in (nkwargs.get("prepend"), nkwargs.get("append")):
        if extra is not None:
            length += extra.shape[axis] if getattr(extra, "ndim", 0) else 1
    nkwargs["n"] = min(n, int(length))
