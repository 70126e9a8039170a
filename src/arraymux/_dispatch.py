"""The hot path: find the backend of the first array operand, check the others, unwrap, call,
wrap. Every public function of the standard is made here from its entry in the function table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _dtypes
from ._arguments import (
    bound_diff,
    check_call,
    check_value,
    check_vectors,
    params_of,
    python_scalar,
)
from ._array import Array, operand, wrap
from ._backend_errors import BACKEND_ERRORS, raise_annotated
from ._devices import Bridge, Device, closure_constant, constant_bridge
from ._dtype_rules import (
    NOT_FLOATING_KINDS,
    astype_native,
    check_integer_arrays,
    default_dtype,
    dtype_of,
    floating_operands_dtype,
    native_dtype,
    result_dtype,
    scalar_dtype,
    standard_dtype,
)
from ._errors import mismatch, not_an_array
from ._function_table import BY_NAME, COMMUTATIVE, VARARGS, Record

__all__ = [
    "SCALARS",
    "binary_slow",
    "call",
    "call_backend",
    "wrap_result",
]

#: The Python scalar types that meet arrays as operands.
SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------------------------------------
# results


def wrap_result(fname: str, r: Any, device: Device) -> Array | tuple[object, ...]:
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

    def take(self, fname: str, pos: int | str, value: object, pname: str | None = None) -> object:
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
            constant = closure_constant(native, dev, self.device)
            if constant is not None:
                return constant
            bridge = constant_bridge(self.device, dev)
            if bridge is not None:
                raise _ConstantFirst(bridge)  # the operands taken so far cross too: see call
            raise mismatch(fname, pos, dev, self.pos, self.device, pname, self.pname)
        return native


class _ConstantFirst(Exception):
    """An array that a transformed function reads from an enclosing scope came before one of
    the transform's in a call (see :func:`arraymux._devices.constant_bridge`); the argument is
    the transform's engine."""


def _engine_constants(value: object, bridge: Bridge) -> object:
    """``value`` (an argument: an array, a sequence of them, anything else) with the arrays of
    ``bridge``'s user device made Arrays of its engine's device."""
    if type(value) is list or type(value) is tuple:
        return type(value)(_engine_constants(v, bridge) for v in value)
    op = operand(value)
    if op is None or op[1] is not bridge.user:
        return value
    return wrap(bridge.to_engine(op[0]), bridge.device)


_FIRST_ONLY: dict[str, bool] = {"x": False}

# Array parameters that may be None (``clip(x, None, 1.0)``).
_MAY_BE_NONE = frozenset({"min", "max", "sorter", "prepend", "append", "rtol"})


def _array_arg(
    fname: str, pos: int | str, pname: str, value: object, scalars_ok: bool, found: _Found
) -> object:
    if value is None and pname in _MAY_BE_NONE:
        return None
    if type(value) is Array or operand(value) is not None:
        return found.take(fname, pos, value, pname)
    value = python_scalar(value)
    if scalars_ok and isinstance(value, SCALARS):
        return value
    raise not_an_array(fname, pos, value, scalars_ok)


def _ndim(native: object) -> int | None:
    shape = getattr(native, "shape", None)
    if shape is None:
        return None
    try:
        return len(shape)
    except TypeError:  # a shape without a length
        return None


def call(fname: str, args: tuple[object, ...], kwargs: dict[str, object]) -> Any:
    """Dispatch ``fname`` on arbitrary arguments (the slow, general path): check them against
    the standard's signature, unwrap the arrays and check their devices, check and convert the
    other values, promote, call the backend and wrap the result."""
    try:
        return _call(fname, args, kwargs)
    except _ConstantFirst as e:
        bridge = e.args[0]
        args = tuple(_engine_constants(a, bridge) for a in args)
        kwargs = {k: _engine_constants(v, bridge) for k, v in kwargs.items()}
        return _call(fname, args, kwargs)


def _call(fname: str, args: tuple[object, ...], kwargs: dict[str, object]) -> Any:
    entry = BY_NAME[fname]
    rule = entry.rule
    params = params_of(fname)
    if params is not None:
        args, kwargs = check_call(fname, params, args, kwargs)
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
        if entry.vectors:  # (meshgrid's arrays)
            check_vectors(fname, {f"argument {i}": a for i, a in enumerate(nargs)})
        if fname == "meshgrid" and found.device is not None:
            dtypes = [dtype_of(a, found.device) for a in nargs]
            if len(set(dtypes)) > 1:
                # NumPy, JAX and Dask kept each array's dtype; torch and array-api-strict raised.
                raise TypeError(
                    f"arraymux.meshgrid: the arrays have different dtypes "
                    f"({', '.join(dt.name for dt in dtypes)}); the standard's meshgrid takes "
                    "arrays of one dtype: cast them first (arraymux.astype)."
                )
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
    if entry.refused:  # every array operand (searchsorted's x2 as its x1)
        for a in nargs:
            if not isinstance(a, SCALARS) and _ndim(a) is not None:
                refuse_kind(entry, dtype_of(a, device))
    if entry.integer_arrays or entry.vectors:
        given = {**dict(zip(names, nargs)), **nkwargs}
        check_integer_arrays(fname, entry.integer_arrays, given, device)
        if entry.vectors and entry.arrays is not VARARGS:
            check_vectors(fname, {p: given.get(p) for p in entry.vectors})
    if entry.operands != "any" and nargs:
        rounded = _operand_kinds(entry, device, nargs)
        if rounded is not None:
            return rounded
    if fname == "diff":
        bound_diff(nargs, nkwargs)
    elif fname == "clip":
        _clip_bounds(device, nargs, nkwargs)
    try:
        result = call_backend(fname, device, nargs, nkwargs)
    except BACKEND_ERRORS as e:
        raise_annotated(fname, device, e)
    if entry.section == "elementwise_functions":
        checked = _checked_elementwise(fname, device, nargs, nkwargs, result)
        if checked is not result:
            return checked
    return wrap_result(fname, result, device)


_BINARY_PARAMS: dict[str, bool] = {"x1": True, "x2": True}


def call_backend(
    fname: str, device: Device, args: Sequence[object], kwargs: dict[str, object]
) -> Any:
    """The backend's ``fname`` on native arguments, or the adapter's emulation of it for
    dtypes the backend holds without kernels (torch's uint16/32/64)."""
    emulate = device._backend.emulate
    if emulate is not None:
        r = emulate(fname, device._fns, args, kwargs)
        if r is not NotImplemented:
            return r
    return device._fns[fname](*args, **kwargs)


def _clip_bounds(device: Device, nargs: list[Any], nkwargs: dict[str, Any]) -> None:
    """``clip``'s bounds as one answer on every backend. Beside a floating-point ``x``, Python
    int bounds beyond int64 are the nearest floats, as NumPy takes them (torch raised "int too
    big to convert"). Beside an integer ``x``, Python int bounds beyond its dtype's range are
    that range's ends (JAX wrapped them: ``clip`` of int8 between -1000 and 1000 gave -24),
    and floating bounds are refused (NumPy kept ``x``'s dtype, torch and JAX computed in
    floating point, array-api-strict refused)."""
    dt = dtype_of(nargs[0], device)
    bounds: list[tuple[int | str, str, Any]] = [
        (i, ("min", "max")[i - 1], v) for i, v in enumerate(nargs[1:3], 1)
    ]
    bounds += [(k, k, nkwargs[k]) for k in ("min", "max") if k in nkwargs]
    for where, name, v in bounds:
        if dt._kind in _dtypes.INTEGER_KINDS:
            if type(v) is int:
                lo, hi = _dtypes.int_range(dt)
                v = min(max(v, lo), hi)
            elif isinstance(v, float) or (
                not isinstance(v, SCALARS)
                and _ndim(v) is not None
                and dtype_of(v, device)._kind.endswith("floating")
            ):
                raise TypeError(
                    f"arraymux.clip: {name} is floating-point but x has the integer dtype "
                    f"{dt.name}; the standard leaves mixed kinds open and the backends "
                    "disagree (NumPy kept x's dtype, torch and JAX computed in floating "
                    "point). Give an integer bound, or cast x first (arraymux.astype)."
                )
        else:
            v = _dtypes.number_for("clip", v, dt)
        if isinstance(where, int):
            nargs[where] = v
        else:
            nkwargs[where] = v


def _checked_elementwise(
    fname: str, device: Device, nargs: list[Any], nkwargs: dict[str, Any], result: object
) -> object:
    """``result`` if its dtype is one of the standard's; else the standard's answer.

    A backend may give a dtype outside the standard for inputs the standard leaves open: NumPy
    computes ``sin`` of int8 or bool arrays in float16. For bool and integer operands of a
    function with a floating-point result, arraymux computes in the device's default real
    floating dtype instead (what torch and JAX do); anything else is refused."""
    known = device._known
    try:
        if getattr(result, "dtype", None) in known:
            return result
    except TypeError:  # an unhashable dtype
        pass
    arrays = [i for i, a in enumerate(nargs) if not isinstance(a, SCALARS)]
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


_TO_INTEGERS = "cast them to an integer dtype first (arraymux.astype)"
_REFUSAL_FIXES = {
    "complex floating": "use their real parts (arraymux.real) or magnitudes (arraymux.abs) instead",
    "bool": _TO_INTEGERS,
    "real floating": _TO_INTEGERS,
}
_REFUSAL_FIXES_BY_NAME = {  # where the fix is the function's own, whatever the kind
    "imag": "the imaginary part of a real array is zero (arraymux.zeros_like)",
    **dict.fromkeys(
        (
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "bitwise_invert",
            "bitwise_left_shift",
            "bitwise_right_shift",
        ),
        _TO_INTEGERS,
    ),
}


def refuse_kind(entry: Record, dt: _dtypes.DType) -> None:
    """Raise the ``TypeError`` of operands of dtype ``dt`` where ``entry`` refuses its kind
    (``Record.refused``: NumPy, PyTorch, JAX and CuPy disagree on them, some computing, or
    refusing with errors of other types, so arraymux refuses them on every backend)."""
    if dt.kind not in entry.refused:
        return
    name = entry.name
    fix = _REFUSAL_FIXES_BY_NAME.get(name) or _REFUSAL_FIXES[dt.kind]
    raise TypeError(
        f"arraymux.{name}: operands of dtype {dt.name} are refused on every backend: the "
        f"standard defines {name} for {entry.dtypes} dtypes, and the libraries disagree on "
        f"{dt.kind} operands (some compute them, some raise errors of other types); {fix}."
    ) from None  # (raised while the hot path's refusal is handled: not a second error)


def _operand_kinds(entry: Record, device: Device, nargs: list[Any]) -> Array | None:
    """Apply the rule for operand kinds outside a function's domain, in place: bool and
    integer arrays of a function defined for floating operands are cast to the device's
    default real floating dtype (complex: real arrays to the complex dtype of their precision,
    bool and integer ones to the default complex dtype); a boolean array given to a rounding
    function comes back as a copy (as integer arrays do). Returns the result where the function need not be called."""
    positions = entry.promote or (0,)
    for i in positions:
        if i >= len(nargs) or isinstance(nargs[i], SCALARS) or _ndim(nargs[i]) is None:
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


def _promote(entry: Record, device: Device, nargs: list[Any]) -> None:
    """Bring the array operands of ``nargs`` that ``entry`` promotes to one dtype, in place."""
    fname = entry.name
    if entry.rule == "sequence":
        items = nargs[0]
        idx = list(range(len(items)))
    else:
        items = nargs
        idx = [i for i in entry.promote if i < len(items)]
    arrays = [i for i in idx if not isinstance(items[i], SCALARS)]
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
        if isinstance(v, SCALARS):
            target = scalar_dtype(fname, v, target, device)
    for i in idx:
        v = items[i]
        if not isinstance(v, SCALARS):
            items[i] = astype_native(v, target, device, fname)
        else:
            items[i] = _dtypes.number_for(fname, v, target)


# ---------------------------------------------------------------------------------------------
# the general path of binary functions and operators


def binary_slow(name: str, x1: object, x2: object, operator: bool = False) -> Any:
    # Not for Arrays: inside torch.compile, reading an Array's type's module adds a guard to
    # every call of the compiled function.
    if type(x1) is not Array:
        x1 = python_scalar(x1)
    if type(x2) is not Array:
        x2 = python_scalar(x2)
    op1 = operand(x1)
    op2 = operand(x2)
    if operator and (
        (op1 is None and not isinstance(x1, SCALARS))
        or (op2 is None and not isinstance(x2, SCALARS))
    ):
        return NotImplemented
    if op1 is None and op2 is None:
        if not isinstance(x1, SCALARS):
            raise not_an_array(name, 0, x1, scalars_ok=True)
        if not isinstance(x2, SCALARS):
            raise not_an_array(name, 1, x2, scalars_ok=True)
        raise TypeError(
            f"arraymux.{name}: at least one operand must be an array, got two Python scalars. "
            "Wrap one with arraymux.asarray(...)."
        )
    kernel = None  # a function of (array, Python scalar): the adapter's scalar_kernels
    if op1 is not None and op2 is not None:
        (a, d), (b, d2) = op1, op2
        if d2 is not d:
            constant = closure_constant(b, d2, d)
            if constant is not None:
                b = constant
            else:
                constant = closure_constant(a, d, d2)
                if constant is None:
                    raise mismatch(name, 1, d2, 0, d, "x2", "x1")
                a, d = constant, d2
        dt1, dt2 = standard_dtype(name, a, d), standard_dtype(name, b, d)
        target = dt1
        if dt1 is not dt2:
            try:
                target = _dtypes.promote(dt1, dt2)
            except TypeError as e:
                raise TypeError(f"arraymux.{name}: {e}") from None
        entry = BY_NAME[name]
        refuse_kind(entry, target)
        if entry.operands == "floating":
            target = floating_operands_dtype(target, d)
        a = astype_native(a, target, d, name)
        b = astype_native(b, target, d, name)
        nargs = [a, b]
    else:
        if op1 is not None:
            (a, d), value, pos = op1, x2, 1
        elif op2 is not None:  # (one of them is: two scalars were refused above)
            (a, d), value, pos = op2, x1, 0
        if not isinstance(value, SCALARS):
            raise not_an_array(name, pos, value, scalars_ok=True)
        dt = standard_dtype(name, a, d)
        target = scalar_dtype(name, value, dt, d)
        refuse_kind(BY_NAME[name], target)
        if BY_NAME[name].operands == "floating":
            target = floating_operands_dtype(target, d)
        if type(value) is int and target.kind in _dtypes.FLOATING_KINDS:
            value = _dtypes.int_for_floats(name, value)
        if target is not dt:
            a = astype_native(a, target, d, name)
        kernel = d._backend.hooks.scalar_kernels.get(name)
        if kernel is not None and name in COMMUTATIVE:
            pos = 1  # the scalar on the right, where the kernel takes it
        try:  # (array-api-strict converts the number here: a too large int overflows)
            s = d._backend.adapter.scalar_operand(name, value, a, pos)
        except BACKEND_ERRORS as e:
            raise_annotated(name, d, e)
        nargs = [a, s] if pos == 1 else [s, a]
        if s is not value or pos != 1:
            kernel = None  # the backend's function takes the array the adapter made
    try:
        r = call_backend(name, d, nargs, {}) if kernel is None else kernel(a, s)
    except BACKEND_ERRORS as e:
        raise_annotated(name, d, e)
    # A target the device cannot hold was narrowed: the result's dtype is read, not known.
    rt = result_dtype(d, name, target) if d.supports(target) else None
    if rt is None:
        checked = _checked_elementwise(name, d, nargs, {}, r)
        if checked is not r:
            return checked
    return wrap(r, d, rt)
