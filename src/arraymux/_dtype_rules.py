"""Which dtype a result takes: dtypes named by users or backends, the defaults of a device
under the default dtype policy, the dtype an array takes to meet a Python scalar, and casts
that narrow where a device cannot hold a dtype."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _default_dtypes, _dtypes, _narrowing
from ._array import Array, operand
from ._devices import Device
from ._errors import not_an_array, raise_error, unsupported

if TYPE_CHECKING:
    from ._backends import Backend
    from ._backends._adapter import NativeArray
    from ._typing import DTypeLike

__all__ = [
    "NOT_FLOATING_KINDS",
    "as_dtype",
    "astype_native",
    "check_integer_arrays",
    "default_dtype",
    "default_kind",
    "dtype_arg",
    "dtype_of",
    "floating_operands_dtype",
    "native_dtype",
    "policy_dtype",
    "result_dtype",
    "scalar_dtype",
    "standard_dtype",
]


def as_dtype(dtype: DTypeLike) -> _dtypes.DType:
    """An arraymux dtype from an arraymux dtype, a backend's dtype, or a dtype name."""
    if type(dtype) is _dtypes.DType:
        return dtype
    if isinstance(dtype, str):
        return _dtypes.DType(dtype)
    from ._backends import backend_owning, loaded

    if isinstance(dtype, type) and any(dtype is t for t in (float, int, complex, bool)):
        raise TypeError(
            f"{dtype.__name__} is a Python type, not an array dtype; use arraymux.float64, "
            "arraymux.int64, ... or leave dtype=None for the device's default."
        )
    op = operand(dtype)
    if op is not None:  # (described without its values, which a lazy array would compute)
        kind = "Array" if type(dtype) is Array else type(dtype).__qualname__
        raise TypeError(
            f"{kind} of shape {tuple(op[0].shape)} is an array, not a dtype; pass its dtype "
            "(x.dtype) instead."
        )
    found = _from_native(dtype, loaded())
    if found is None:
        owner = backend_owning(dtype)  # (a dtype of a library whose backend has not loaded)
        if owner is not None:
            found = _from_native(dtype, (owner,))
    if found is not None:
        return found
    raise TypeError(f"{dtype!r} is not a dtype arraymux knows.")


def _from_native(dtype: object, backends: tuple[Backend, ...]) -> _dtypes.DType | None:
    """The arraymux dtype of a backend's dtype, looked up among ``backends``; None if none
    knows it."""
    tp = type(dtype)
    for backend in backends:
        # Only look a dtype up among dtypes of its own kind: comparing across libraries can
        # warn (array-api-strict warns when its dtypes meet NumPy's).
        if tp not in backend.native_dtype_types:
            continue
        try:
            return backend.from_native_dtype[dtype]
        except (KeyError, TypeError):
            continue
    for backend in backends:
        found = backend.adapter.dtype_from_native(dtype)
        if found is not None:
            return found
    return None


def dtype_arg(dtype: DTypeLike, fname: str) -> _dtypes.DType:
    """:func:`as_dtype` of the ``dtype=`` argument of ``arraymux.<fname>``, whose errors name
    the function (an object that is no dtype, a name that names none)."""
    try:
        return as_dtype(dtype)
    except TypeError as e:
        if str(e).startswith("arraymux."):
            raise
        raise TypeError(f"arraymux.{fname}: dtype={e}") from None
    except ValueError as e:  # a name that names no dtype
        raise ValueError(f"arraymux.{fname}: {e}") from None


def native_dtype(
    dtype: DTypeLike, device: Device, fname: str, data: NativeArray | None = None
) -> Any:
    """The backend's dtype for ``dtype`` on ``device``; raises if the device cannot hold it.
    Where narrowing gives a narrower dtype, the values of ``data`` (a native array of
    ``device`` to be cast, if any) must fit it."""
    dt = dtype_arg(dtype, fname)
    if not device._backend.adapter.supports_dtype(dt, device._place):
        to = _narrowing.narrower(dt, device)
        if to is not None and data is not None:
            _narrowing.check_data(fname, data, device, to, dt, device)  # before the warning
        dt = _narrowing.narrowed(dt, device, fname) or raise_error(unsupported(dt, device, fname))
    return device._backend.to_native_dtype[dt]


def dtype_of(native: NativeArray, device: Device) -> _dtypes.DType:
    return device._backend.dtype_from_native(native.dtype)


def check_integer_arrays(
    fname: str, params: tuple[str, ...], given: dict[str, Any], device: Device
) -> None:
    """Refuse a bool or floating array among ``given``'s ``params`` (``Record.integer_arrays``:
    positions or counts), with one ``TypeError`` on every backend: NumPy and JAX take booleans
    as 0 and 1 and Dask as a mask, Dask truncates floats, the others refuse."""
    for pname in params:
        native = given.get(pname)
        if native is None or type(native) is int:
            continue
        if isinstance(native, bool | float | complex):
            name = type(native).__name__
        elif getattr(native, "ndim", None) is None:
            continue  # not an array: the backend explains
        else:
            dt = dtype_of(native, device)
            if dt._kind in _dtypes.INTEGER_KINDS:
                continue
            name = dt.name
        raise TypeError(
            f"arraymux.{fname}: {pname} must have an integer dtype, not {name} (bool and "
            "floating positions or counts are refused on every backend, which read them "
            f"differently); cast it first, e.g. {pname} = arraymux.astype({pname}, "
            "arraymux.int64)."
        )


def default_dtype(device: Device, kind: str) -> _dtypes.DType:
    """The default dtype of ``kind`` on ``device``, under the default dtype policy."""
    table = device._backend.adapter.default_dtypes(device._place)
    if _default_dtypes.active:
        table = _default_dtypes.apply(device, table)
    return table[kind]


def policy_dtype(device: Device, kind: str | None) -> Any:
    """The native dtype that the default dtype policy gives results of ``kind`` made without
    ``dtype=`` on ``device``, or None where the backend's own default stands."""
    if kind is None:
        return None
    own = device._backend.adapter.default_dtypes(device._place)
    want = _default_dtypes.apply(device, own)[kind]
    return None if want is own[kind] else device._backend.to_native_dtype[want]


def default_kind(device: Device, native_dtype: object) -> str | None:
    """The kind whose backend default ``native_dtype`` is on ``device`` (what the backend
    chose for Python data), or None."""
    made = device._backend.dtype_from_native(native_dtype)
    own = device._backend.adapter.default_dtypes(device._place)
    kinds = ("real floating", "complex floating", "integral")
    return next((kind for kind in kinds if own[kind] is made), None)


def astype_native(native: Any, dt: _dtypes.DType, device: Device, fname: str = "astype") -> Any:
    if dtype_of(native, device) is dt:
        return native
    if not device._backend.adapter.supports_dtype(dt, device._place):
        to = _narrowing.narrower(dt, device) or raise_error(unsupported(dt, device, fname))
        if dtype_of(native, device) is to:
            return native  # nothing narrowed here (the other operand's cast warns)
        _narrowing.check_data(fname, native, device, to, dt, device)  # before the warning
        _narrowing.warn(fname, dt, to, device, stacklevel=5)
        dt = to
    return device._fns["astype"](native, device._backend.to_native_dtype[dt])


def scalar_dtype(fname: str, value: Any, dt: _dtypes.DType, device: Device) -> _dtypes.DType:
    """The dtype an array of dtype ``dt`` must take to meet the Python scalar ``value``."""
    kind = _dtypes.python_scalar_kind(value)
    if kind is None:
        raise not_an_array(fname, 1, value, scalars_ok=True)
    if kind == "signed integer":
        if dt.kind in ("signed integer", "unsigned integer"):
            return _holding(fname, value, dt, "Cast the array first with arraymux.astype.")
        if dt.kind == "bool":  # the default integer dtype, which must hold the int too
            target = default_dtype(device, "integral")
            why = f"A bool array takes {device}'s default integer dtype with an int."
            return _holding(fname, value, target, why)
    if _dtypes.kind_rank(kind) <= _dtypes.kind_rank(dt.kind):
        return dt
    if kind == "complex floating" and dt.kind == "real floating":
        return _dtypes.complex128 if dt is _dtypes.float64 else _dtypes.complex64
    return default_dtype(device, kind)


def _holding(fname: str, value: int, dt: _dtypes.DType, why: str) -> _dtypes.DType:
    """``dt``, where the Python int ``value`` fits in it; else an ``OverflowError`` naming
    ``arraymux.<fname>`` and the range, ending with the sentence ``why``."""
    lo, hi = _dtypes.int_range(dt)
    if not lo <= value <= hi:
        raise OverflowError(
            f"arraymux.{fname}: the Python int {value} does not fit in {dt} (range {lo} to "
            f"{hi}). {why}"
        )
    return dt


def standard_dtype(fname: str, native: NativeArray, device: Device) -> _dtypes.DType:
    """The arraymux dtype of a native array; a ``TypeError`` naming ``fname`` for an array of
    a dtype that is not the standard's (strings, objects, float16, ...)."""
    try:
        return device._backend.dtype_from_native(native.dtype)
    except (TypeError, AttributeError):
        dt = getattr(native, "dtype", type(native).__name__)
        raise TypeError(
            f"arraymux.{fname}: an array of dtype {dt} is not an array of the standard; "
            "arraymux holds bool, (u)int8-64, float32/64 and complex64/128. Convert it first "
            "(e.g. with its astype method)."
        ) from None


NOT_FLOATING_KINDS = frozenset({"bool", "signed integer", "unsigned integer"})


def floating_operands_dtype(dt: _dtypes.DType, device: Device) -> _dtypes.DType:
    """The dtype in which a function the standard defines for floating operands computes
    operands of dtype ``dt``: ``dt`` itself where it is floating, else the device's default
    real floating dtype (the default-dtype policy included), on every backend."""
    if dt.kind in NOT_FLOATING_KINDS:
        return default_dtype(device, "real floating")
    return dt


def result_dtype(device: Device, name: str, operands: _dtypes.DType) -> Any:
    """The native dtype of ``name``'s result on operands of dtype ``operands``, or None."""
    return device._results[name].get(device._backend.array_dtypes_by_name.get(operands.name))
