"""The hot path: find the backend of the first array operand, check the others, unwrap, call,
wrap. Every public function of the standard is made here from its entry in the function table.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

from . import _compiled, _default_dtypes, _docstrings, _dtypes, _narrowing
from ._arguments import (
    check_call,
    check_shape,
    check_size,
    check_value,
    params_of,
    python_scalar,
)
from ._array import Array, operand, wrap
from ._backend_errors import BACKEND_ERRORS, raise_annotated
from ._devices import Device, resolve_device
from ._dtype_rules import (
    NOT_FLOATING_KINDS,
    as_dtype,
    astype_native,
    default_dtype,
    dtype_of,
    floating_operands_dtype,
    native_dtype,
    policy_dtype,
    result_dtype,
    scalar_dtype,
    standard_dtype,
)
from ._errors import argument_label, mismatch, not_an_array, unsupported
from ._function_table import BY_NAME, VARARGS, Entry
from ._signatures import signature

_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------------------------------------
# dtypes


def _creation_kind(name: str, bound: dict[str, Any]) -> str | None:
    if name in ("zeros", "ones", "empty", "eye", "linspace", "fft.fftfreq", "fft.rfftfreq"):
        return "real floating"
    values = (
        [bound.get("fill_value")]
        if name == "full"
        else [bound.get(k) for k in ("start", "stop", "step")]
    )
    kinds = {type(python_scalar(v)) for v in values if v is not None}
    if complex in kinds:
        return "complex floating"
    if float in kinds:
        return "real floating"
    if int in kinds:
        return "integral"
    return None


# ---------------------------------------------------------------------------------------------
# results


def wrap_result(fname: str, r: Any, device: Device) -> Any:
    """Wrap a backend's result: an array, or a (named) tuple or list of arrays."""
    if isinstance(r, tuple | list):
        items = [wrap(v, device) for v in r]
        result_type = BY_NAME[fname].result if fname in BY_NAME else None
        if result_type is not None and result_type is not tuple:
            return result_type(*items)
        return tuple(items)
    return wrap(r, device)


# ---------------------------------------------------------------------------------------------
# the generic path


class _Found:
    """The operands of one call: the routing device and where it came from."""

    __slots__ = ("device", "pname", "pos")

    def __init__(self) -> None:
        self.device: Device | None = None
        self.pos: int | str = 0
        self.pname: str | None = None

    def take(self, fname: str, pos: int | str, value: Any, pname: str | None = None) -> Any:
        """Unwrap ``value`` if it is an array, checking it against the routing device."""
        if type(value) is Array:
            native, dev = value._native, value._device
        else:
            op = operand(value)
            if op is None:
                return value
            native, dev = op
            standard_dtype(fname, native, dev)
        if self.device is None:
            self.device, self.pos, self.pname = dev, pos, pname
        elif dev is not self.device:
            raise mismatch(fname, pos, dev, self.pos, self.device, pname, self.pname)
        return native




_FIRST_ONLY: dict[str, bool] = {"x": False}

# Array parameters that may be None (``clip(x, None, 1.0)``).
_MAY_BE_NONE = frozenset({"min", "max", "sorter", "prepend", "append", "rtol"})


def _array_arg(
    fname: str, pos: int | str, pname: str, value: Any, scalars_ok: bool, found: _Found
) -> Any:
    if value is None and pname in _MAY_BE_NONE:
        return None
    if type(value) is Array or operand(value) is not None:
        return found.take(fname, pos, value, pname)
    value = python_scalar(value)
    if scalars_ok and isinstance(value, _SCALARS):
        return value
    raise not_an_array(fname, pos, value, scalars_ok)


def _ndim(native: Any) -> int | None:
    try:
        return len(native.shape)
    except (AttributeError, TypeError):
        return None


def call(fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Dispatch ``fname`` on arbitrary arguments (the slow, general path): check them against
    the standard's signature, unwrap the arrays and check their devices, check and convert the
    other values, promote, call the backend and wrap the result."""
    entry = BY_NAME[fname]
    rule = entry.rule
    params = params_of(fname)
    if params is not None:
        check_call(fname, params, args, kwargs)
    names: tuple[str, ...] = params.positional if params is not None else ()
    found = _Found()
    if rule == "sequence":
        seq = args[0] if args else kwargs.get("arrays")
        if not isinstance(seq, list | tuple):
            raise TypeError(f"arraymux.{fname}: argument 0 must be a tuple or list of arrays.")
        natives = []
        for i, item in enumerate(seq):
            if type(item) is not Array and operand(item) is None:
                raise not_an_array(fname, f"arrays[{i}]", item)
            natives.append(found.take(fname, f"arrays[{i}]", item))
        nargs: list[Any] = [natives]
        ndim = _ndim(natives[0]) if natives else None
        nkwargs = {k: check_value(fname, k, v, ndim) for k, v in kwargs.items() if k != "arrays"}
        if natives and "axis" not in nkwargs and fname == "concat" and ndim == 0:
            raise ValueError(f"arraymux.{fname}: 0-d arrays cannot be concatenated.")
    elif entry.arrays is VARARGS:
        nargs = []
        for i, a in enumerate(args):
            if type(a) is not Array and operand(a) is None:
                raise not_an_array(fname, i, a)
            nargs.append(found.take(fname, i, a))
        nkwargs = {k: check_value(fname, k, v, None) for k, v in kwargs.items()}
    else:
        arrays = entry.arrays or (_FIRST_ONLY if rule != "binary" else _BINARY_PARAMS)
        nargs = list(args)
        nkwargs = dict(kwargs)
        for i, a in enumerate(args):
            pname = names[i] if i < len(names) else f"x{i}"
            if pname in arrays:
                nargs[i] = _array_arg(fname, i, pname, a, arrays[pname], found)
        for k, v in kwargs.items():
            if k in arrays:
                nkwargs[k] = _array_arg(fname, k, k, v, arrays[k], found)
        if found.device is None:
            first_name = names[0] if names else "x"
            if first_name in arrays and (args or first_name in kwargs):
                value = args[0] if args else kwargs[first_name]
                raise not_an_array(fname, 0, value)
        ndim = None
        if found.device is not None:
            first_array = next(
                (v for v in (*nargs, *nkwargs.values()) if v is not None and _ndim(v) is not None),
                None,
            )
            ndim = None if first_array is None else _ndim(first_array)
        for i, a in enumerate(args):
            pname = names[i] if i < len(names) else f"x{i}"
            if pname not in arrays:
                nargs[i] = check_value(fname, pname, a, ndim)
        for k, v in kwargs.items():
            if k not in arrays and k not in ("dtype", "device"):
                nkwargs[k] = check_value(fname, k, v, ndim)
    device = found.device
    if device is None:
        if rule == "sequence":
            raise ValueError(f"arraymux.{fname}: needs at least one array.")
        if entry.arrays is VARARGS:
            return ()
        raise TypeError(f"arraymux.{fname}: needs at least one array argument.")
    if nkwargs.get("dtype") is not None:
        nkwargs["dtype"] = native_dtype(nkwargs["dtype"], device, fname)
    if entry.promote:
        _promote(entry, device, nargs)
    if entry.operands != "any" and nargs:
        rounded = _operand_kinds(entry, device, nargs)
        if rounded is not None:
            return rounded
    if fname == "diff":
        _bound_diff(nargs, nkwargs)
    try:
        result = _call_backend(fname, device, nargs, nkwargs)
    except BACKEND_ERRORS as e:
        raise_annotated(fname, device, e)
    if entry.section == "elementwise_functions":
        checked = _checked_elementwise(fname, device, nargs, nkwargs, result)
        if checked is not result:
            return checked
    return wrap_result(fname, result, device)


_BINARY_PARAMS: dict[str, bool] = {"x1": True, "x2": True}


def _call_backend(fname: str, device: Device, args: Any, kwargs: dict[str, Any]) -> Any:
    """The backend's ``fname`` on native arguments, or the adapter's emulation of it for
    dtypes the backend holds without kernels (torch's uint16/32/64)."""
    emulate = device._backend.emulate
    if emulate is not None:
        r = emulate(fname, device._fns, args, kwargs)
        if r is not NotImplemented:
            return r
    return device._fns[fname](*args, **kwargs)


def _bound_diff(nargs: list[Any], nkwargs: dict[str, Any]) -> None:
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


def _checked_elementwise(
    fname: str, device: Device, nargs: list[Any], nkwargs: dict[str, Any], result: Any
) -> Any:
    """``result`` if its dtype is one of the standard's; else the standard's answer.

    A backend may give a dtype outside the standard for inputs the standard leaves open: NumPy
    computes ``sin`` of int8 or bool arrays in float16. For bool and integer operands of a
    function with a floating-point result, arraymux computes in the device's default real
    floating dtype instead (what torch and JAX do); anything else is refused."""
    known = device._known
    try:
        if result.dtype in known:
            return result
    except (AttributeError, TypeError):
        pass
    arrays = [i for i, a in enumerate(nargs) if not isinstance(a, _SCALARS)]
    kinds = {dtype_of(nargs[i], device).kind for i in arrays}
    if kinds <= {"bool", "signed integer", "unsigned integer"}:
        target = default_dtype(device, "real floating")
        cast = list(nargs)
        for i in arrays:
            cast[i] = astype_native(nargs[i], target, device, fname)
        out = device._fns[fname](*cast, **nkwargs)
        if getattr(out, "dtype", None) in known:
            return wrap(out, device)
    got = getattr(result, "dtype", type(result).__name__)
    raise TypeError(
        f"arraymux.{fname}: the {device.backend} backend gives a {got} result for these "
        "operands, which is not a dtype of the standard. Cast the operands to a dtype the "
        "function is defined for first (arraymux.astype)."
    )


def _operand_kinds(entry: Entry, device: Device, nargs: list[Any]) -> Any:
    """Apply the rule for operand kinds outside a function's domain, in place: bool and
    integer arrays of a function defined for floating operands are cast to the device's
    default real floating dtype (complex: real arrays to the complex dtype of their precision,
    bool and integer ones to the default complex dtype); a boolean array given to a rounding
    function comes back as a copy (as integer arrays do). Returns the result where the function need not be called."""
    positions = entry.promote or (0,)
    for i in positions:
        if i >= len(nargs) or isinstance(nargs[i], _SCALARS) or _ndim(nargs[i]) is None:
            continue
        dt = dtype_of(nargs[i], device)
        if entry.operands == "complex" and dt.kind != "complex floating":
            if dt.kind == "real floating":
                target = _dtypes.complex128 if dt is _dtypes.float64 else _dtypes.complex64
            else:
                target = default_dtype(device, "complex floating")
            nargs[i] = astype_native(nargs[i], target, device, entry.name)
            continue
        if dt.kind not in NOT_FLOATING_KINDS:
            continue
        if entry.operands == "numeric":
            if dt.kind == "bool":
                return wrap(device._fns["asarray"](nargs[i], copy=True), device)
            continue
        nargs[i] = astype_native(
            nargs[i], default_dtype(device, "real floating"), device, entry.name
        )
    return None


def _promote(entry: Entry, device: Device, nargs: list[Any]) -> None:
    """Bring the array operands of ``nargs`` that ``entry`` promotes to one dtype, in place."""
    fname = entry.name
    if entry.rule == "sequence":
        items = nargs[0]
        idx = list(range(len(items)))
    else:
        items = nargs
        idx = [i for i in entry.promote if i < len(items)]
    arrays = [i for i in idx if not isinstance(items[i], _SCALARS)]
    if not arrays:
        return
    dts = [dtype_of(items[i], device) for i in arrays]
    target = dts[0]
    try:
        for dt in dts[1:]:
            target = _dtypes.promote(target, dt)
    except TypeError as e:
        raise TypeError(f"arraymux.{fname}: {e}") from None
    for i in idx:
        v = items[i]
        if isinstance(v, _SCALARS):
            target = scalar_dtype(fname, v, target, device)
    for i in idx:
        v = items[i]
        if isinstance(v, _SCALARS):
            continue
        items[i] = astype_native(v, target, device, fname)


# ---------------------------------------------------------------------------------------------
# function factories

_SPEC_URL = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"
_RULE_DOC = {
    "unary": "Runs on the backend and device of ``x``.",
    "binary": (
        "Runs on the backend and device of the first array operand; the other operand must be "
        "on the same device or be a Python scalar. Operands are promoted to one dtype by the "
        "standard's rules first, the same way on every backend."
    ),
    "first": (
        "Runs on the backend and device of ``x``; its other arguments are Python values "
        "(axes, shapes, options), never arrays."
    ),
    "generic": (
        "Runs on the backend and device of the first array argument; every other array "
        "argument must be on that device."
    ),
    "sequence": "Runs on the backend and device of the first array of the sequence.",
    "creation": "Runs on ``device=`` if given, else on the default device.",
}


def _finish(fn: Any, name: str, rule: str) -> Any:
    short = name.rsplit(".", 1)[-1]
    fn.__name__ = short
    fn.__qualname__ = short
    fn.__module__ = "arraymux" if "." not in name else f"arraymux.{name.split('.')[0]}"
    sig = signature(name)
    if sig is not None:
        fn.__signature__ = sig
    fn.__doc__ = (
        f"{_docstrings.SUMMARIES[name]}\n\n"
        f"``{name}`` of the Array API standard, dispatched to the array's backend.\n\n"
        f"{_RULE_DOC[rule]}\n\n"
        f"See the standard's page: {_SPEC_URL.format(name)}\n\n"
        f"{_docstrings.sections(name, sig or inspect.signature(fn), rule)}\n"
        "Raises\n------\n"
        "BackendMismatchError, DeviceMismatchError\n"
        "    Array arguments on different backends or devices.\n"
        "TypeError, ValueError, IndexError\n"
        "    Arguments the standard does not allow (each error names the function).\n\n"
        f"{_docstrings.examples(name)}"
    )
    return fn


def unary(name: str) -> Callable[..., Array]:
    def fn(x: Any, /) -> Array:
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

    return _compiled.function("unary", name, _finish(fn, name, "unary"))


def binary(name: str, operator: bool = False) -> Callable[..., Array]:
    """The function for a binary standard name; ``operator=True`` makes the method form,
    which returns ``NotImplemented`` for operands it does not know (so Python can try the
    other operand's reflected method)."""

    def fn(x1: Any, x2: Any, /) -> Array:
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

    fn = _finish(fn, name, "binary")
    return fn if operator else _compiled.function("binary", name, fn)  # operators: see _array


def reflected(name: str) -> Callable[..., Array]:
    """The reflected operator method (``__radd__``): ``other`` is the left operand."""

    def fn(x2: Any, x1: Any, /) -> Array:
        return binary_slow(name, x1, x2, True)

    return _finish(fn, name, "binary")


def binary_slow(name: str, x1: Any, x2: Any, operator: bool = False) -> Any:
    # Not for Arrays: inside torch.compile, reading an Array's type's module adds a guard to
    # every call of the compiled function.
    if type(x1) is not Array:
        x1 = python_scalar(x1)
    if type(x2) is not Array:
        x2 = python_scalar(x2)
    op1 = operand(x1)
    op2 = operand(x2)
    if operator and (
        (op1 is None and not isinstance(x1, _SCALARS))
        or (op2 is None and not isinstance(x2, _SCALARS))
    ):
        return NotImplemented
    if op1 is None and op2 is None:
        if not isinstance(x1, _SCALARS):
            raise not_an_array(name, 0, x1, scalars_ok=True)
        if not isinstance(x2, _SCALARS):
            raise not_an_array(name, 1, x2, scalars_ok=True)
        raise TypeError(
            f"arraymux.{name}: at least one operand must be an array, got two Python scalars. "
            "Wrap one with arraymux.asarray(...)."
        )
    if op1 is not None and op2 is not None:
        (a, d), (b, d2) = op1, op2
        if d2 is not d:
            raise mismatch(name, 1, d2, 0, d, "x2", "x1")
        dt1, dt2 = standard_dtype(name, a, d), standard_dtype(name, b, d)
        target = dt1
        if dt1 is not dt2:
            try:
                target = _dtypes.promote(dt1, dt2)
            except TypeError as e:
                raise TypeError(f"arraymux.{name}: {e}") from None
        if BY_NAME[name].operands == "floating":
            target = floating_operands_dtype(target, d)
        a = astype_native(a, target, d, name)
        b = astype_native(b, target, d, name)
        nargs = [a, b]
    else:
        if op1 is not None:
            (a, d), value, pos = op1, x2, 1
        else:
            (a, d), value, pos = op2, x1, 0  # type: ignore[misc]
        if not isinstance(value, _SCALARS):
            raise not_an_array(name, pos, value, scalars_ok=True)
        dt = standard_dtype(name, a, d)
        target = scalar_dtype(name, value, dt, d)
        if BY_NAME[name].operands == "floating":
            target = floating_operands_dtype(target, d)
        if target is not dt:
            a = astype_native(a, target, d, name)
        s = d._backend.adapter.scalar_operand(name, value, a, pos)
        nargs = [a, s] if pos == 1 else [s, a]
    try:
        r = _call_backend(name, d, nargs, {})
    except BACKEND_ERRORS as e:
        raise_annotated(name, d, e)
    # A target the device cannot hold was narrowed: the result's dtype is read, not known.
    rt = result_dtype(d, name, target) if d.supports(target) else None
    if rt is None:
        checked = _checked_elementwise(name, d, nargs, {}, r)
        if checked is not r:
            return checked
    return wrap(r, d, rt)


# Types of the values that may go to a backend as they are (the hot paths pass nothing else:
# anything that could be or hold an array, a NumPy scalar included, is checked first).
_PLAIN = frozenset({int, float, bool, complex, str, type(None)})
_NUMBERS = frozenset({int, float, bool, complex, type(None)})


def _plain(values: Any) -> bool:
    for v in values:
        t = type(v)
        if t in _PLAIN:
            continue
        if (t is tuple or t is list) and all(type(i) in _NUMBERS for i in v):
            continue
        return False
    return True


def first(name: str) -> Callable[..., Any]:
    params = params_of(name)
    # The most positional arguments after x, and the keywords, that the hot path passes on
    # (any other call goes through `call`, which checks it).
    extra = len(params.positional) - 1 if params is not None and not params.varargs else 0
    keywords = (params.keywords if params is not None else frozenset()) - {"dtype"}

    def plain_call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        return (not args or (len(args) <= extra and _plain(args))) and (
            not kwargs or (kwargs.keys() <= keywords and _plain(kwargs.values()))
        )

    if BY_NAME[name].result is not None:

        def fn_tuple(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            if type(x) is Array and plain_call(args, kwargs):
                d = x._device
                try:
                    r = d._fns[name](x._native, *args, **kwargs)
                except BACKEND_ERRORS:
                    return call(name, (x, *args), kwargs)  # explains the backend's error
                return wrap_result(name, r, d)
            return call(name, (x, *args), kwargs)

        return _finish(fn_tuple, name, "first")

    keeps_dtype = BY_NAME[name].keeps_dtype

    def fn(x: Any, /, *args: Any, **kwargs: Any) -> Any:
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
    return _compiled.function(
        "first", name, _finish(fn, name, "first"), keeps_dtype, max_args, frozenset(keywords)
    )


def _where_operand(x: Any, d: Device, t: Any, dt: _dtypes.DType) -> Any:
    """``x``'s native array (or the Python scalar itself) where it meets the other operand of
    ``where``, of native dtype ``t`` on ``d``, without a cast; None where ``call`` decides."""
    tx = type(x)
    if tx is Array:
        if x._device is not d:
            return None
        tn = x._dtype
        if tn is None:
            tn = x._dtype = x._native.dtype
        return x._native if tn is t else None
    kind = dt.kind
    if tx is float:
        return x if kind in ("real floating", "complex floating") else None
    if tx is bool:
        return x if kind == "bool" else None
    if tx is int:
        if kind in ("real floating", "complex floating"):
            return x
        if kind in ("signed integer", "unsigned integer"):
            lo, hi = _dtypes.int_range(dt)
            return x if lo <= x <= hi else None
    return None


def where_function() -> Callable[..., Any]:
    """``where``: Arrays of one device with operands of one dtype (or a Python scalar that
    keeps it) go straight to the backend; anything else takes the checking path."""

    def where(condition: Any, x1: Any, x2: Any, /) -> Any:
        if type(condition) is Array:
            d = condition._device
            tc = condition._dtype
            if tc is None:
                tc = condition._dtype = condition._native.dtype
            first_array = x1 if type(x1) is Array else x2
            dtypes = d._backend.from_native_dtype
            if (
                type(first_array) is Array
                and first_array._device is d
                and dtypes.get(tc) is _dtypes.bool
            ):
                t = first_array._dtype
                if t is None:
                    t = first_array._dtype = first_array._native.dtype
                dt = dtypes.get(t)
                if dt is not None:
                    a = _where_operand(x1, d, t, dt)
                    b = _where_operand(x2, d, t, dt)
                    if a is not None and b is not None:
                        try:
                            r = d._fns["where"](condition._native, a, b)
                        except BACKEND_ERRORS:
                            return call("where", (condition, x1, x2), {})
                        out = object.__new__(Array)
                        out._native = r
                        out._device = d
                        out._dtype = t
                        return out
        return call("where", (condition, x1, x2), {})

    return _finish(where, "where", "generic")


def generic(name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        return call(name, args, kwargs)

    return _finish(fn, name, BY_NAME[name].rule)


# Creation functions: the shape of the result, from the bound arguments.
_SHAPE_OF: dict[str, Callable[[dict[str, Any]], tuple[int, ...]]] = {
    "empty": lambda a: a["shape"],
    "zeros": lambda a: a["shape"],
    "ones": lambda a: a["shape"],
    "full": lambda a: a["shape"],
    "eye": lambda a: (a["n_rows"], a["n_rows"] if a.get("n_cols") is None else a["n_cols"]),
    "linspace": lambda a: (a["num"],),
    "arange": lambda a: (_arange_count(a),),
    "fft.fftfreq": lambda a: (a["n"],),
    "fft.rfftfreq": lambda a: (a["n"] // 2 + 1,),
}


def _arange_range(a: dict[str, Any]) -> tuple[Any, Any, Any]:
    start, stop, step = a["start"], a.get("stop"), a.get("step", 1)
    return (0, start, step) if stop is None else (start, stop, step)


def _arange_count(a: dict[str, Any]) -> int:
    start, stop, step = _arange_range(a)
    if step == 0:
        raise ValueError("arraymux.arange: step must not be 0.")
    if any(isinstance(v, complex) for v in (start, stop, step)):
        raise TypeError("arraymux.arange: start, stop and step must be real numbers.")
    if any(isinstance(v, float) and not math.isfinite(v) for v in (start, stop, step)):
        raise ValueError(
            f"arraymux.arange: start, stop and step must be finite, got {start}, {stop}, {step}."
        )
    if all(type(v) is int for v in (start, stop, step)):
        return max(0, -((start - stop) // step))
    return max(0, math.ceil((stop - start) / step))


def _stored_values(name: str, a: dict[str, Any]) -> list[Any]:
    """The Python numbers a creation call stores in its result (``full``'s fill value,
    ``arange``'s first and last values, ``linspace``'s ends)."""
    if name == "full":
        return [a.get("fill_value")]
    if name == "arange":
        start, _, step = _arange_range(a)
        count = _arange_count(a)
        return [start, start + (count - 1) * step] if count else []
    if name == "linspace":
        return [a.get("start"), a.get("stop")] if a.get("endpoint", True) else [a.get("start")]
    return []


def check_stored(name: str, d: Device, values: list[Any], dt: _dtypes.DType | None) -> None:
    """Check that the Python ints among ``values``, which ``arraymux.<name>`` stores in its
    result on ``d``, fit the dtype they will be stored in: ``dt``, or the device's default
    integer where it is None; where ``d`` cannot hold ``dt`` and narrowing is on, every number
    must fit the narrower dtype (JAX without 64-bit mode would wrap ``2**40`` to 0)."""
    if dt is not None and not d.supports(dt):
        to = _narrowing.narrower(dt, d)
        if to is not None:
            _narrowing.check_values(name, values, to, dt, d)
        return  # else native_dtype refuses dt
    ints = [v for v in values if type(v) is int]
    if not ints:
        return
    target = dt if dt is not None else default_dtype(d, "integral")
    if target.kind not in ("signed integer", "unsigned integer"):
        return
    lo, hi = _dtypes.int_range(target)
    for v in ints:
        if lo <= v <= hi:
            continue
        if dt is None and -(2**63) <= v < 2**63 and not d.supports(_dtypes.int64):
            raise unsupported(_dtypes.int64, d, name)  # JAX without 64-bit mode
        raise OverflowError(
            f"arraymux.{name}: the Python int {v} does not fit in {target} (range {lo} to "
            f"{hi}). Pass a wider dtype, or a float."
        )


def _check_creation(name: str, d: Device, bound: dict[str, Any], dtype: Any) -> None:
    """Check a creation call's values before the backend sees them (in place): shapes of
    non-negative ints, a byte size that fits 64 bits, and Python numbers that fit the dtype
    they will be stored in (see :func:`check_stored`)."""
    for key, v in bound.items():
        bound[key] = (
            check_shape(name, key, v) if key == "shape" else check_value(name, key, v, None)
        )
    dt = None if dtype is None else as_dtype(dtype)
    shape_of = _SHAPE_OF.get(name)
    if shape_of is not None:
        check_size(name, tuple(shape_of(bound)), 16 if dt is None else dt.itemsize)
    if dt is None and _creation_kind(name, bound) != "integral":
        return  # Python floats in a floating-point result
    values = _stored_values(name, bound)
    if values:
        check_stored(name, d, values, dt)


def creation(name: str) -> Callable[..., Array]:
    params = params_of(name)

    def fn(*args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Array:
        if params is not None:
            check_call(name, params, args, kwargs)
        for i, a in enumerate(args):
            if type(a) is Array or operand(a) is not None:
                raise TypeError(
                    f"arraymux.{name}: {argument_label(i)} must be a Python number or shape, not an "
                    "array; convert it with int(...) or float(...)."
                )
        d = resolve_device(device, name)
        if params is not None:
            bound = dict(zip(params.positional, args)) | kwargs
            _check_creation(name, d, bound, dtype)
            # The leading run of parameters given goes by position; one after a gap (``step``
            # without ``stop``) stays a keyword, or it would take the gap's place.
            positional = []
            for p in params.positional:
                if p not in bound:
                    break
                positional.append(bound.pop(p))
            args, kwargs = tuple(positional), bound
        if dtype is not None:
            kwargs["dtype"] = native_dtype(dtype, d, name)
        elif _default_dtypes.active and params is not None:
            kind = _creation_kind(name, dict(zip(params.positional, args)) | kwargs)
            ndt = policy_dtype(d, kind)
            if ndt is not None:
                kwargs["dtype"] = ndt
        try:
            r = _call_backend(name, d, args, dict(kwargs, device=d.native))
        except BACKEND_ERRORS as e:
            raise_annotated(name, d, e)
        standard_dtype(name, r, d)
        return wrap(r, d)

    return _finish(fn, name, "creation")


def set_device_check(device: Device, other: Any, fname: str, pos: int | str) -> Any:
    """Unwrap ``other`` for use with an array on ``device`` (scalars pass through)."""
    other = python_scalar(other)
    if isinstance(other, _SCALARS):
        return other
    op = operand(other)
    if op is None:
        raise not_an_array(fname, pos, other, scalars_ok=True)
    native, dev = op
    if dev is not device:
        raise mismatch(fname, pos, dev, "self", device)
    return native
