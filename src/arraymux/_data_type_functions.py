"""Data type functions of the Array API standard.

Promotion (:func:`result_type`, :func:`can_cast`) is computed by arraymux from the standard's
table, so it is the same on every backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _dtypes
from ._array import Array, operand, wrap
from ._devices import device_arg
from ._dtype_rules import as_dtype, dtype_of, native_dtype
from ._dtypes import DType
from ._errors import not_an_array
from ._typing import ArrayLike, DeviceLike, DTypeLike

__all__ = [
    "astype",
    "can_cast",
    "finfo",
    "finfo_object",
    "iinfo",
    "iinfo_object",
    "isdtype",
    "result_type",
]


def _dtype_arg(x: Any, fname: str) -> DType:
    """The dtype of array or dtype ``x``, an argument of ``arraymux.<fname>``."""
    if type(x) is Array:
        return x.dtype
    try:
        op = operand(x)
        if op is not None:
            return dtype_of(*op)
        return as_dtype(x)
    except (TypeError, ValueError) as e:  # ValueError: an unknown dtype name
        if str(e).startswith("arraymux."):
            raise
        raise type(e)(f"arraymux.{fname}: {e}") from None


def _named_dtype(x: Any, fname: str) -> DType:
    """``as_dtype(x)`` for an argument of ``arraymux.<fname>``."""
    try:
        return as_dtype(x)
    except (TypeError, ValueError) as e:  # ValueError: an unknown dtype name
        if str(e).startswith("arraymux."):
            raise
        raise type(e)(f"arraymux.{fname}: {e}") from None


def astype(
    x: ArrayLike, dtype: DTypeLike, /, *, copy: bool = True, device: DeviceLike | None = None
) -> Array:
    """``x`` cast to ``dtype`` (and moved to ``device=`` if given).

    Parameters
    ----------
    x : Array
        Array to cast (an Array or a backend's native array).
    dtype : DType
        Dtype to cast to (an arraymux dtype, a backend's dtype, or a dtype name), whatever the
        standard's promotion rules say.
    copy : bool, optional
        If True (the default), always copy; if False, do not copy when ``x`` has ``dtype``
        already (the result shares the memory of ``x``).
    device : Device, str or None, optional
        Device to move the result to; None (the default) keeps the device of ``x``.

    Returns
    -------
    Array
        Array of the shape of ``x`` and dtype ``dtype``.

    Raises
    ------
    UnsupportedDTypeError
        The device cannot hold ``dtype``.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.astype(xp.asarray([1.7, -2.5]), xp.int32)
    Array([ 1, -2], dtype=int32, device='numpy:cpu')
    """
    op = operand(x)
    if op is None:
        raise not_an_array("astype", 0, x)
    native, d = op
    target = d if device is None else device_arg(device, "astype")
    if target is not d:
        from ._transfer import to_device

        moved = to_device(wrap(native, d), target)
        return astype(moved, dtype, copy=False)
    ndt = native_dtype(dtype, d, "astype", native)
    if copy and _cast_copies(native, ndt, d):
        copy = False  # the cast makes a new array: JAX's copy=True would copy it again
    return wrap(d._fns["astype"](native, ndt, copy=copy), d)


def _cast_copies(native: Any, ndt: Any, d: Any) -> bool:
    """Whether casting ``native`` to the native dtype ``ndt`` makes a new array by itself
    (the dtypes differ)."""
    from_native = d._backend.dtype_from_native
    try:
        return from_native(native.dtype) is not from_native(ndt)
    except TypeError:
        return False


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether the standard's promotion rules allow casting ``from_`` to ``to``.

    Parameters
    ----------
    from_ : DType or Array
        Dtype (or array, for its dtype) to cast from.
    to : DType
        Dtype to cast to.

    Returns
    -------
    bool
        True if promoting ``from_`` with ``to`` gives ``to``, else False.

    Raises
    ------
    ValueError
        A dtype name that names no dtype of arraymux.
    TypeError
        An argument that is neither a dtype nor an array.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.can_cast(xp.int8, xp.int16), xp.can_cast(xp.float64, xp.float32)
    (True, False)
    """
    a, b = _dtype_arg(from_, "can_cast"), _named_dtype(to, "can_cast")
    if a is b:
        return True
    return _dtypes.PROMOTION_TABLE.get((a, b)) is b


def result_type(*arrays_and_dtypes: Any) -> DType:
    """The dtype the standard's promotion rules give for the arguments.

    Python scalars take part as the standard says: they adopt the dtype of the arrays/dtypes
    they meet when their kind allows it.

    Parameters
    ----------
    *arrays_and_dtypes : Array, DType, bool, int, float or complex
        Arrays, dtypes and Python scalars; at least one array or dtype.

    Returns
    -------
    DType
        The dtype that an operation on all the arguments gives.

    Raises
    ------
    ValueError
        No argument, or a dtype name that names no dtype of arraymux.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.result_type(xp.int8, xp.uint8)
    arraymux.int16
    >>> xp.result_type(xp.float32, 1.0)
    arraymux.float32
    """
    dtypes: list[DType] = []
    scalars: list[Any] = []
    for a in arrays_and_dtypes:
        if isinstance(a, bool | int | float | complex):
            scalars.append(a)
        else:
            dtypes.append(_dtype_arg(a, "result_type"))
    if not dtypes:
        raise ValueError("arraymux.result_type: needs at least one array or dtype")
    result = dtypes[0]
    for dt in dtypes[1:]:
        result = _dtypes.promote(result, dt)
    for s in scalars:
        kind = _dtypes.python_scalar_kind(s)
        assert kind is not None
        if _dtypes.kind_rank(kind) > _dtypes.kind_rank(result.kind):
            raise TypeError(
                f"arraymux.result_type: a Python {type(s).__name__} does not fit {result} by "
                "the standard's rules. Pass a dtype instead."
            )
    return result


def isdtype(dtype: DTypeLike, kind: DTypeLike | str | tuple[DTypeLike | str, ...]) -> bool:
    """Whether ``dtype`` is of ``kind`` (a dtype, a kind name, or a tuple of them).

    Parameters
    ----------
    dtype : DType
        Dtype to test.
    kind : DType, str or tuple
        A dtype (``dtype`` must be it), a kind name (``"bool"``, ``"signed integer"``,
        ``"unsigned integer"``, ``"integral"``, ``"real floating"``, ``"complex floating"``,
        ``"numeric"``), or a tuple of these (``dtype`` must match one).

    Returns
    -------
    bool
        True if ``dtype`` is of ``kind``.

    Raises
    ------
    ValueError
        A kind that the standard does not name.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.isdtype(xp.float32, "real floating"), xp.isdtype(xp.int8, ("bool", xp.int8))
    (True, True)
    """
    dt = _named_dtype(dtype, "isdtype")
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        try:
            return dt.kind in _dtypes.KIND_GROUPS[kind]
        except KeyError:
            raise ValueError(
                f"arraymux.isdtype: unknown dtype kind {kind!r}; the kinds are "
                f"{', '.join(_dtypes.KIND_GROUPS)}."
            ) from None
    return dt is _named_dtype(kind, "isdtype")


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (returned by :func:`finfo`).

    Parameters
    ----------
    bits : int
        Number of bits of the dtype.
    eps : float
        Difference between 1.0 and the next larger representable number.
    max : float
        Largest representable number.
    min : float
        Smallest (most negative) representable number.
    smallest_normal : float
        Smallest positive normal number.
    dtype : DType
        The real floating-point dtype described (that of the real part for a complex dtype).

    Examples
    --------
    >>> import arraymux as xp
    >>> f = xp.finfo(xp.float32)
    >>> f.bits, f.eps, f.dtype
    (32, 1.1920928955078125e-07, arraymux.float32)
    >>> xp.finfo(xp.complex128).dtype
    arraymux.float64
    """

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype (returned by :func:`iinfo`).

    Parameters
    ----------
    bits : int
        Number of bits of the dtype.
    max : int
        Largest representable number.
    min : int
        Smallest representable number.
    dtype : DType
        The integer dtype described.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.iinfo(xp.uint8)
    iinfo_object(bits=8, max=255, min=0, dtype=arraymux.uint8)
    """

    bits: int
    max: int
    min: int
    dtype: DType


def finfo(type: Any, /) -> finfo_object:
    """Limits of a floating-point dtype (complex: those of its real part, whose dtype
    ``finfo(...).dtype`` is, as the standard says).

    Parameters
    ----------
    type : DType or Array
        A floating-point dtype, or an array of one.

    Returns
    -------
    finfo_object
        Its ``bits``, ``eps``, ``max``, ``min``, ``smallest_normal`` and ``dtype``.

    Raises
    ------
    TypeError
        A dtype that is not floating-point (use :func:`iinfo` for integers).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.finfo(xp.float32).bits
    32
    """
    import numpy as np

    dt = _dtype_arg(type, "finfo")
    if dt.kind not in ("real floating", "complex floating"):
        raise TypeError(
            f"arraymux.finfo: {dt} is not a floating-point dtype. Use arraymux.iinfo for "
            "integer dtypes."
        )
    real = {"complex64": _dtypes.float32, "complex128": _dtypes.float64}.get(dt.name, dt)
    f = np.finfo(real.name)
    return finfo_object(
        int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real
    )


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype.

    Parameters
    ----------
    type : DType or Array
        An integer dtype, or an array of one.

    Returns
    -------
    iinfo_object
        Its ``bits``, ``max``, ``min`` and ``dtype``.

    Raises
    ------
    TypeError
        A dtype that is not an integer dtype (use :func:`finfo` for floating point).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.iinfo(xp.int8).max
    127
    """
    dt = _dtype_arg(type, "iinfo")
    if dt.kind not in ("signed integer", "unsigned integer"):
        raise TypeError(
            f"arraymux.iinfo: {dt} is not an integer dtype. Use arraymux.finfo for "
            "floating-point dtypes."
        )
    lo, hi = _dtypes.int_range(dt)
    return iinfo_object(dt.bits, hi, lo, dt)
