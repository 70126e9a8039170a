"""The hot path: find the backend of the first array operand, check the others, unwrap, call,
wrap. Every public function of the standard is made here from its entry in the function table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from . import _compiled, _dtypes
from ._array import Array
from ._backends import backend_of_type
from ._devices import Device, device_of_native, get_default_device
from ._errors import BackendMismatchError, DeviceMismatchError, UnsupportedDTypeError
from ._function_table import BY_NAME
from ._result_dtypes import SAME_DTYPE_FIRST
from ._signatures import signature

_SCALARS = (bool, int, float, complex)


def wrap(native: Any, device: Device, dtype: Any = None) -> Array:
    """Wrap a native array of ``device`` without copying; ``dtype``, when given, must be
    ``native.dtype`` (the hot paths cache it, see :mod:`arraymux._result_dtypes`)."""
    # Written out each time, not through an alias: torch.compile before 2.13 traces
    # ``object.__new__(cls)`` only in this form.
    out = object.__new__(Array)
    out._native = native
    out._device = device
    out._dtype = dtype
    return out


def operand(x: Any) -> tuple[Any, Device] | None:
    """``(native, device)`` for an Array or a native array of a registered backend, else None."""
    t = type(x)
    if t is Array:
        return x._native, x._device
    if t is float or t is int or t is bool or t is complex:
        return None
    backend = backend_of_type(t)
    if backend is None:
        return None
    return x, device_of_native(backend, x)


def _label(position: int | str) -> str:
    return f"argument {position}" if isinstance(position, int) else f"argument {position!r}"


def mismatch(
    fname: str, pos: int | str, dev: Device, first_pos: int | str, first: Device
) -> Exception:
    """The error for an operand on another backend or device than the first array operand."""
    kind = BackendMismatchError if dev._name != first._name else DeviceMismatchError
    what = "backend" if kind is BackendMismatchError else "device"
    arg = f"x{pos}" if isinstance(pos, int) else str(pos)
    msg = (
        f"arraymux.{fname}: {_label(pos)} is on {dev} but {_label(first_pos)} is on {first} "
        f"(another {what}). Move one of them first, e.g. "
        f'{arg} = arraymux.to_device({arg}, "{first}").'
    )
    return kind(msg)


def not_an_array(fname: str, pos: int | str, value: Any, scalars_ok: bool = False) -> TypeError:
    what = "an array or a Python scalar" if scalars_ok else "an array"
    return TypeError(
        f"arraymux.{fname}: {_label(pos)} must be {what}, not {type(value).__module__}."
        f"{type(value).__qualname__}. Convert it first with arraymux.asarray(...)."
    )


# ---------------------------------------------------------------------------------------------
# dtypes


def as_dtype(dtype: Any) -> _dtypes.DType:
    """An arraymux dtype from an arraymux dtype, a backend's dtype, or a dtype name."""
    if type(dtype) is _dtypes.DType:
        return dtype
    if isinstance(dtype, str):
        return _dtypes.DType(dtype)
    from ._backends import _BACKENDS

    if any(dtype is t for t in (float, int, complex, bool)):
        raise TypeError(
            f"{dtype.__name__} is a Python type, not an array dtype; use arraymux.float64, "
            "arraymux.int64, ... or leave dtype=None for the device's default."
        )
    tp = type(dtype)
    for backend in tuple(_BACKENDS.values()):
        # Only look a dtype up among dtypes of its own kind: comparing across libraries can
        # warn (array-api-strict warns when its dtypes meet NumPy's).
        if tp not in backend.native_dtype_types:
            continue
        try:
            return backend.from_native_dtype[dtype]
        except (KeyError, TypeError):
            continue
    for backend in tuple(_BACKENDS.values()):
        found = backend.adapter.dtype_from_native(dtype)
        if found is not None:
            return found
    raise TypeError(f"{dtype!r} is not a dtype arraymux knows.")


def unsupported(dt: _dtypes.DType, device: Device, fname: str) -> UnsupportedDTypeError:
    hint = getattr(device._backend.adapter, "unsupported_hint", None)
    extra = hint(dt) if hint else f"Use a dtype that {device} holds."
    return UnsupportedDTypeError(f"arraymux.{fname}: {device} cannot hold {dt}. {extra}")


def native_dtype(dtype: Any, device: Device, fname: str) -> Any:
    """The backend's dtype for ``dtype`` on ``device``; raises if the device cannot hold it."""
    dt = as_dtype(dtype)
    if not device._backend.adapter.supports_dtype(dt, device._place):
        raise unsupported(dt, device, fname)
    return device._backend.to_native_dtype[dt]


def dtype_of(native: Any, device: Device) -> _dtypes.DType:
    return device._backend.dtype_from_native(native.dtype)


def default_dtype(device: Device, kind: str) -> _dtypes.DType:
    return device._backend.adapter.default_dtypes(device._place)[kind]


def astype_native(native: Any, dt: _dtypes.DType, device: Device, fname: str = "astype") -> Any:
    if dtype_of(native, device) is dt:
        return native
    if not device._backend.adapter.supports_dtype(dt, device._place):
        raise unsupported(dt, device, fname)
    return device._fns["astype"](native, device._backend.to_native_dtype[dt])


def scalar_dtype(fname: str, value: Any, dt: _dtypes.DType, device: Device) -> _dtypes.DType:
    """The dtype an array of dtype ``dt`` must take to meet the Python scalar ``value``."""
    kind = _dtypes.python_scalar_kind(value)
    if kind is None:
        raise not_an_array(fname, 1, value, scalars_ok=True)
    if kind == "signed integer" and dt.kind in ("signed integer", "unsigned integer"):
        lo, hi = _dtypes.int_range(dt)
        if not lo <= value <= hi:
            raise OverflowError(
                f"arraymux.{fname}: the Python int {value} does not fit in {dt} "
                f"(range {lo} to {hi}). Cast the array first with arraymux.astype."
            )
        return dt
    if _dtypes.kind_rank(kind) <= _dtypes.kind_rank(dt.kind):
        return dt
    if kind == "complex floating" and dt.kind == "real floating":
        return _dtypes.complex128 if dt is _dtypes.float64 else _dtypes.complex64
    group = "integral" if kind == "signed integer" else kind
    return default_dtype(device, group)


# ---------------------------------------------------------------------------------------------
# results


class _Results:
    """Named tuples the standard returns, keyed by function name."""

    class EighResult(NamedTuple):
        eigenvalues: Any
        eigenvectors: Any

    class EigResult(NamedTuple):
        eigenvalues: Any
        eigenvectors: Any

    class QRResult(NamedTuple):
        Q: Any
        R: Any

    class SlogdetResult(NamedTuple):
        sign: Any
        logabsdet: Any

    class SVDResult(NamedTuple):
        U: Any
        S: Any
        Vh: Any

    class UniqueAllResult(NamedTuple):
        values: Any
        indices: Any
        inverse_indices: Any
        counts: Any

    class UniqueCountsResult(NamedTuple):
        values: Any
        counts: Any

    class UniqueInverseResult(NamedTuple):
        values: Any
        inverse_indices: Any


_RESULT_TYPES: dict[str, Any] = {
    "linalg.eigh": _Results.EighResult,
    "linalg.eig": _Results.EigResult,
    "linalg.qr": _Results.QRResult,
    "linalg.slogdet": _Results.SlogdetResult,
    "linalg.svd": _Results.SVDResult,
    "unique_all": _Results.UniqueAllResult,
    "unique_counts": _Results.UniqueCountsResult,
    "unique_inverse": _Results.UniqueInverseResult,
}


def wrap_result(fname: str, r: Any, device: Device) -> Any:
    """Wrap a backend's result: an array, or a (named) tuple or list of arrays."""
    if isinstance(r, tuple | list):
        items = [wrap(v, device) for v in r]
        result_type = _RESULT_TYPES.get(fname)
        return result_type(*items) if result_type is not None else tuple(items)
    return wrap(r, device)


# ---------------------------------------------------------------------------------------------
# the generic path


class _Found:
    """The operands of one call: the routing device and where it came from."""

    __slots__ = ("device", "dtypes", "pos")

    def __init__(self) -> None:
        self.device: Device | None = None
        self.pos: int | str = 0
        self.dtypes: list[tuple[int | str, Any]] = []

    def take(self, fname: str, pos: int | str, value: Any) -> Any:
        """Unwrap ``value`` if it is an array, checking it against the routing device."""
        if type(value) is Array:
            native, dev = value._native, value._device
        else:
            op = operand(value)
            if op is None:
                return value
            native, dev = op
        if self.device is None:
            self.device, self.pos = dev, pos
        elif dev is not self.device:
            raise mismatch(fname, pos, dev, self.pos, self.device)
        return native


# Parameters that must hold arrays (or, where marked, Python scalars) in generic functions.
_ARRAY_PARAMS: dict[str, tuple[tuple[int | str, bool], ...]] = {
    "clip": ((0, False), ("min", True), ("max", True), (1, True), (2, True)),
    "where": ((0, False), (1, True), (2, True)),
    "take": ((0, False), (1, False)),
    "take_along_axis": ((0, False), (1, False)),
    "searchsorted": ((0, False), (1, True), ("sorter", False)),
    "isin": ((0, True), (1, True)),
    "repeat": ((0, False), (1, True)),
    "diff": ((0, False), ("prepend", False), ("append", False)),
    "astype": ((0, False),),
    "tensordot": ((0, False), (1, False)),
    "vecdot": ((0, False), (1, False)),
    "linalg.cross": ((0, False), (1, False)),
    "linalg.outer": ((0, False), (1, False)),
    "linalg.solve": ((0, False), (1, False)),
    "linalg.tensordot": ((0, False), (1, False)),
    "linalg.vecdot": ((0, False), (1, False)),
    "linalg.matrix_rank": ((0, False), ("rtol", True)),
    "linalg.pinv": ((0, False), ("rtol", True)),
}

# Positional parameters that may be None (``clip(x, None, 1.0)``).
_OPTIONAL_POSITIONAL = frozenset({("clip", 1), ("clip", 2)})


def _check_params(fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for pos, scalars_ok in _ARRAY_PARAMS.get(fname, ()):
        if isinstance(pos, int):
            if pos >= len(args):
                continue
            value = args[pos]
        elif pos in kwargs:
            value = kwargs[pos]
        else:
            continue
        if value is None and (isinstance(pos, str) or (fname, pos) in _OPTIONAL_POSITIONAL):
            continue
        if type(value) is Array or backend_of_type(type(value)) is not None:
            continue
        if scalars_ok and isinstance(value, _SCALARS):
            continue
        raise not_an_array(fname, pos, value, scalars_ok)


def call(fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Dispatch ``fname`` on arbitrary arguments (the slow, general path)."""
    entry = BY_NAME[fname]
    found = _Found()
    rule = entry.rule
    if rule == "sequence":
        if not args or not isinstance(args[0], list | tuple):
            raise TypeError(f"arraymux.{fname}: argument 0 must be a tuple or list of arrays.")
        seq = []
        for i, item in enumerate(args[0]):
            native = found.take(fname, f"arrays[{i}]", item)
            if native is item and type(item) is not Array and operand(item) is None:
                raise not_an_array(fname, f"arrays[{i}]", item)
            seq.append(native)
        nargs: list[Any] = [seq, *args[1:]]
    else:
        if rule in ("first", "unary", "like") and args and operand(args[0]) is None:
            raise not_an_array(fname, 0, args[0])
        if fname in ("meshgrid", "broadcast_arrays"):
            for i, a in enumerate(args):
                if operand(a) is None:
                    raise not_an_array(fname, i, a)
        _check_params(fname, args, kwargs)
        nargs = [found.take(fname, i, a) for i, a in enumerate(args)]
    nkwargs = {}
    for k, v in kwargs.items():
        nkwargs[k] = found.take(fname, k, v) if k not in ("dtype", "device") else v
    device = found.device
    if device is None:
        if rule == "sequence":
            raise ValueError(f"arraymux.{fname}: needs at least one array.")
        if fname in ("meshgrid", "broadcast_arrays"):
            return ()
        raise TypeError(f"arraymux.{fname}: needs at least one array argument.")
    if nkwargs.get("dtype") is not None:
        nkwargs["dtype"] = native_dtype(nkwargs["dtype"], device, fname)
    if entry.promote:
        _promote(fname, device, nargs)
    result = device._fns[fname](*nargs, **nkwargs)
    return wrap_result(fname, result, device)


def _promote(fname: str, device: Device, nargs: list[Any]) -> None:
    """Bring the array operands of ``nargs`` to one dtype, in place."""
    if fname == "concat" or fname == "stack":
        items = nargs[0]
        idx = list(range(len(items)))
    else:
        items = nargs
        idx = [1, 2] if fname == "where" else [0, 1]
        idx = [i for i in idx if i < len(items)]
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
    "first": "Runs on the backend and device of ``x``.",
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
    fn.__doc__ = (
        f"``{name}`` of the Array API standard, dispatched to the array's backend.\n\n"
        f"{_RULE_DOC[rule]}\n\n"
        "Raises\n------\n"
        "BackendMismatchError, DeviceMismatchError\n"
        "    Array arguments on different backends or devices.\n\n"
        f"See the standard's page: {_SPEC_URL.format(name)}\n"
    )
    sig = signature(name)
    if sig is not None:
        fn.__signature__ = sig
    return fn


def unary(name: str) -> Callable[..., Array]:
    def fn(x: Any, /) -> Array:
        if type(x) is Array:
            d = x._device
            out = object.__new__(Array)
            out._native = d._fns[name](x._native)
            out._device = d
            out._dtype = d._results[name].get(x._dtype)
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
                out = object.__new__(Array)
                out._native = d._fns[name](x1._native, x2._native)
                out._device = d
                out._dtype = d._results[name].get(t)
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
            raise mismatch(name, 1, d2, 0, d)
        dt1, dt2 = dtype_of(a, d), dtype_of(b, d)
        target = dt1
        if dt1 is not dt2:
            try:
                target = _dtypes.promote(dt1, dt2)
            except TypeError as e:
                raise TypeError(f"arraymux.{name}: {e}") from None
            a = astype_native(a, target, d, name)
            b = astype_native(b, target, d, name)
        return wrap(d._fns[name](a, b), d, _result_dtype(d, name, target))
    if op1 is not None:
        (a, d), value, pos = op1, x2, 1
    else:
        (a, d), value, pos = op2, x1, 0  # type: ignore[misc]
    if not isinstance(value, _SCALARS):
        raise not_an_array(name, pos, value, scalars_ok=True)
    dt = dtype_of(a, d)
    target = scalar_dtype(name, value, dt, d)
    if target is not dt:
        a = astype_native(a, target, d, name)
    s = d._backend.adapter.scalar_operand(name, value, a, pos)
    r = d._fns[name](a, s) if pos == 1 else d._fns[name](s, a)
    return wrap(r, d, _result_dtype(d, name, target))


def _result_dtype(device: Device, name: str, operands: _dtypes.DType) -> Any:
    """The native dtype of ``name``'s result on operands of dtype ``operands``, or None."""
    return device._results[name].get(device._backend.array_dtypes_by_name.get(operands.name))


# Functions whose result is a tuple (or named tuple) of arrays.
_TUPLE_RESULTS = frozenset(
    {
        "unstack",
        "nonzero",
        "unique_all",
        "unique_counts",
        "unique_inverse",
        "linalg.eig",
        "linalg.eigh",
        "linalg.qr",
        "linalg.slogdet",
        "linalg.svd",
        "meshgrid",
        "broadcast_arrays",
    }
)


def first(name: str) -> Callable[..., Any]:
    if name in _TUPLE_RESULTS:

        def fn_tuple(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            if type(x) is Array and "dtype" not in kwargs:
                d = x._device
                return wrap_result(name, d._fns[name](x._native, *args, **kwargs), d)
            return call(name, (x, *args), kwargs)

        return _finish(fn_tuple, name, "first")

    keeps_dtype = name in SAME_DTYPE_FIRST

    def fn(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if type(x) is Array:
            d = x._device
            if not kwargs:
                r = d._fns[name](x._native, *args) if args else d._fns[name](x._native)
            elif "dtype" not in kwargs:
                r = d._fns[name](x._native, *args, **kwargs)
            else:
                return call(name, (x, *args), kwargs)
            out = object.__new__(Array)
            out._native = r
            out._device = d
            out._dtype = x._dtype if keeps_dtype else None
            return out
        return call(name, (x, *args), kwargs)

    return _compiled.function("first", name, _finish(fn, name, "first"), keeps_dtype)


def generic(name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        return call(name, args, kwargs)

    return _finish(fn, name, BY_NAME[name].rule)


def resolve_device(device: Any) -> Device:
    """The device a creation function targets: ``device=`` or else the default."""
    if device is None:
        return get_default_device()
    return Device(device)


def creation(name: str) -> Callable[..., Array]:
    def fn(*args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Array:
        for i, a in enumerate(args):
            if type(a) is Array or operand(a) is not None:
                raise TypeError(
                    f"arraymux.{name}: {_label(i)} must be a Python number or shape, not an "
                    "array; convert it with int(...) or float(...)."
                )
        d = resolve_device(device)
        if dtype is not None:
            kwargs["dtype"] = native_dtype(dtype, d, name)
        return wrap(d._fns[name](*args, device=d.native, **kwargs), d)

    return _finish(fn, name, "creation")


def set_device_check(device: Device, other: Any, fname: str, pos: int | str) -> Any:
    """Unwrap ``other`` for use with an array on ``device`` (scalars pass through)."""
    if isinstance(other, _SCALARS):
        return other
    op = operand(other)
    if op is None:
        raise not_an_array(fname, pos, other, scalars_ok=True)
    native, dev = op
    if dev is not device:
        raise mismatch(fname, pos, dev, "self", device)
    return native
