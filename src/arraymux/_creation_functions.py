"""Creation functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from . import _default_dtypes, _docstrings, _dtypes, _narrowing
from ._arguments import check_call, check_shape, check_size, check_value, params_of, python_scalar
from ._array import Array, operand, wrap
from ._backend_errors import BACKEND_ERRORS, raise_annotated
from ._devices import Device, device_arg, device_of_native, get_default_device, resolve_device
from ._dispatch import call_backend, first, generic
from ._docstrings import finish
from ._dtype_rules import (
    as_dtype,
    default_dtype,
    default_kind,
    dtype_of,
    native_dtype,
    policy_dtype,
    standard_dtype,
)
from ._errors import mismatch, not_an_array, raise_error, unsupported
from ._narrowing import check_data, check_values, narrowed, narrower, python_values
from ._signatures import signature
from ._typing import ArrayLike, DeviceLike

__all__ = [
    "asarray",
    "empty_like",
    "from_dlpack",
    "full_like",
    "ones_like",
    "zeros_like",
    "arange",
    "empty",
    "eye",
    "full",
    "linspace",
    "meshgrid",
    "ones",
    "tril",
    "triu",
    "zeros",
]


# ---------------------------------------------------------------------------------------------
# The factory of the creation functions that take no array


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


#: The parameters whose values a creation function stores in its result. A 0-d array given
#: for one of them (as every backend takes one) routes the call to its device; ``linspace``
#: and ``full`` then compute there, without reading it (see :func:`_of_arrays`).
_STORED: dict[str, tuple[str, ...]] = {
    "arange": ("start", "stop", "step"),
    "linspace": ("start", "stop"),
    "full": ("fill_value",),
}


def _stored_device(name: str, bound: dict[str, Any], device: Any) -> Device | None:
    """The device of the arrays given for the values ``name`` stores, or None if none is an
    array; ``device=``, if given, must be that device (arraymux never moves an array)."""
    found: Device | None = None
    where = ""
    for p in _STORED[name]:
        op = operand(bound.get(p))
        if op is None:
            continue
        if found is None:
            found, where = op[1], p
        elif op[1] is not found:
            raise mismatch(name, p, op[1], where, found)
    if found is not None and device is not None:
        target = device_arg(device, name)
        if target is not found:
            raise mismatch(name, where, found, "device", target)
    return found


def _zero_d_operand(name: str, pname: str, value: Any, d: Device) -> Any:
    """The native 0-d array of ``value`` (an array on ``d``), or ``value`` itself if it is not
    an array (a Python number, checked)."""
    op = operand(value)
    if op is None:
        return check_value(name, pname, value, None)
    native = op[0]
    standard_dtype(name, native, d)
    if tuple(native.shape):
        raise TypeError(
            f"arraymux.{name}: {pname} must be a Python number or a 0-d array, not an array of "
            f"shape {tuple(native.shape)}."
        )
    return native


def _filled(name: str, d: Device, shape: tuple[int, ...], fill: Any, dt: _dtypes.DType) -> Array:
    """An array of ``shape`` and dtype ``dt`` on ``d`` whose every element is the 0-d native
    array ``fill``, cast as ``astype`` casts: made on the device, without reading ``fill``."""
    fns = d._fns
    ndt = native_dtype(dt, d, name)
    try:
        value = fns["astype"](fill, ndt)
        r = fns["asarray"](fns["broadcast_to"](value, shape), copy=True)
    except BACKEND_ERRORS as e:
        raise_annotated(name, d, e)
    return wrap(r, d)


def _linspace_dtype(d: Device, bounds: list[Any], dtype: Any) -> _dtypes.DType:
    """The dtype of ``linspace`` with array bounds: ``dtype``, else the bounds' floating
    dtypes promoted (as NumPy and JAX keep a float32 array's precision), else the device's
    default real floating dtype; complex where a bound is."""
    if dtype is not None:
        return as_dtype(dtype)
    floating = [
        dtype_of(b, d)
        for b in bounds
        if operand(b) is not None and dtype_of(b, d).kind in ("real floating", "complex floating")
    ]
    dt = default_dtype(d, "real floating")
    if floating:
        dt = floating[0]
        for other in floating[1:]:
            dt = _dtypes.promote(dt, other)
    if dt.kind == "real floating" and any(type(b) is complex for b in bounds):
        dt = _dtypes.complex128 if dt is _dtypes.float64 else _dtypes.complex64
    return dt


def _linspace_of_arrays(
    d: Device, start: Any, stop: Any, num: int, endpoint: bool, dtype: Any
) -> Array:
    """``linspace`` with 0-d array bounds (natives of ``d``, or Python numbers), computed on
    ``d`` as NumPy computes it (``start + i * step``, the last value ``stop`` itself), without
    reading the bounds: no synchronisation on a GPU, and traceable under ``arraymux.jit``."""
    fns = d._fns
    dt = _linspace_dtype(d, [start, stop], dtype)
    work = dt
    if dt.kind not in ("real floating", "complex floating"):
        work = default_dtype(d, "real floating")  # then floored and cast, as NumPy does
    ndt = native_dtype(work, d, "linspace")
    try:
        s, e = (fns["astype"](b, ndt) if operand(b) is not None else b for b in (start, stop))
        i = fns["arange"](num, dtype=ndt, device=d.native)
        delta = e - s
        div = num - 1 if endpoint else num
        if div > 0:
            step = delta / div
            # A step that underflows to 0 (NumPy's special case): i / div * delta instead.
            y = fns["where"](step == 0, i / div * delta, i * step) + s
        else:  # 0 or 1 values: the step is undefined
            y = i * delta + s
        if endpoint and num > 1:
            y = fns["where"](i == num - 1, e, y)
        if work is not dt:
            y = fns["astype"](fns["floor"](y), native_dtype(dt, d, "linspace"))
    except BACKEND_ERRORS as err:
        raise_annotated("linspace", d, err)
    return wrap(y, d)


def _of_arrays(name: str, d: Device, bound: dict[str, Any], dtype: Any) -> Array:
    """``linspace`` or ``full`` whose bounds or fill value include 0-d arrays on ``d``."""
    if name == "full":
        shape = check_shape(name, "shape", bound["shape"])
        check_size(name, shape, 16 if dtype is None else as_dtype(dtype).itemsize)
        fill = _zero_d_operand(name, "fill_value", bound["fill_value"], d)
        return _filled(
            name, d, shape, fill, dtype_of(fill, d) if dtype is None else as_dtype(dtype)
        )
    num = check_value(name, "num", bound["num"], None)
    check_size(name, (num,), 16)
    endpoint = check_value(name, "endpoint", bound.get("endpoint", True), None)
    start = _zero_d_operand(name, "start", bound["start"], d)
    stop = _zero_d_operand(name, "stop", bound["stop"], d)
    return _linspace_of_arrays(d, start, stop, num, endpoint, dtype)


#: The creation functions with a fast path for their commonest call (see :func:`_common_call`).
_COMMON = frozenset({"zeros", "ones", "empty", "arange"})


def _common_call(name: str, a: Any, dtype: Any, device: Any) -> Array | None:
    """``zeros``, ``ones`` or ``empty`` of a shape of Python ints, or ``arange`` of one
    Python int, checked as the general path checks it (sizes, the values stored, the dtype);
    None for any other call, which the general path takes."""
    if type(a) is int:
        if a < 0 or (name == "arange" and a >= 2**31):
            return None  # an empty shape's error, or values a default dtype may not hold
        shape: tuple[int, ...] = (a,)
    elif type(a) is tuple and name != "arange":
        for n in a:
            if type(n) is not int or n < 0:
                return None
        shape = a
    else:
        return None
    d = resolve_device(device, name)
    kwargs = {"device": d.native}
    itemsize = 16
    if dtype is not None:
        kwargs["dtype"] = native_dtype(dtype, d, name)
        dt = as_dtype(dtype)
        itemsize = dt.itemsize
        if name == "arange" and a:
            check_stored(name, d, [0, a - 1], dt)
    check_size(name, shape, itemsize)
    try:
        r = call_backend(name, d, (a if name == "arange" else shape,), kwargs)
    except BACKEND_ERRORS as e:
        raise_annotated(name, d, e)
    standard_dtype(name, r, d)
    return wrap(r, d)


def creation(name: str) -> Callable[..., Array]:
    params = params_of(name)
    stored = name in _STORED
    common = name in _COMMON

    def fn(*args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Array:
        if common and len(args) == 1 and not kwargs and not _default_dtypes.active:
            r = _common_call(name, args[0], dtype, device)
            if r is not None:
                return r
        if params is None:
            d = resolve_device(device, name)
        else:
            args, kwargs = check_call(name, params, args, kwargs)
            bound = dict(zip(params.positional, args)) | kwargs
            at = _stored_device(name, bound, device) if stored else None
            if at is not None and name != "arange":
                return _of_arrays(name, at, bound, dtype)
            d = at if at is not None else resolve_device(device, name)
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
            r = call_backend(name, d, args, dict(kwargs, device=d.native))
        except BACKEND_ERRORS as e:
            raise_annotated(name, d, e)
        standard_dtype(name, r, d)
        return wrap(r, d)

    return finish(fn, name, "creation")


arange = creation("arange")
empty = creation("empty")
eye = creation("eye")
full = creation("full")
linspace = creation("linspace")
ones = creation("ones")
zeros = creation("zeros")
tril = first("tril")
triu = first("triu")
meshgrid = generic("meshgrid")


def asarray(
    obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
) -> Array:
    """Make an arraymux Array from an array, a Python scalar or nested sequence, or a buffer.

    A native array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ...) is wrapped without
    copying, on its own backend and device, unless ``device=``, ``dtype=`` or ``copy=True``
    asks for something else. Python data goes to ``device=``, else to the default device.

    Parameters
    ----------
    obj
        An Array, a native array, a Python scalar, a nested sequence, or a buffer.
    dtype
        An arraymux dtype (``arraymux.float32``), a backend's dtype, or None to keep the
        input's dtype (or use the device's default for Python data).
    device
        A :class:`Device` or device string; None keeps a native array where it is and sends
        Python data to the default device.
    copy
        True always copies, False never copies (and raises if it must), None copies only
        when needed.

    Returns
    -------
    Array
        An array with the data of ``obj``, on ``device`` (or where ``obj`` is), of ``dtype``
        (or that of ``obj``).

    Raises
    ------
    UnsupportedDTypeError
        The device cannot hold the dtype (float64 on JAX with x64 off), instead of narrowing.
    TypeError
        ``obj`` cannot be made into an array of a standard dtype.

    Examples
    --------
    >>> import arraymux as xp
    >>> import numpy as np
    >>> a = np.arange(3.0)
    >>> x = xp.asarray(a)          # wraps, no copy
    >>> x.native is a
    True
    >>> xp.asarray([1, 2], dtype=xp.int8)
    Array([1, 2], dtype=int8, device='numpy:cpu')
    """
    target = None if device is None else device_arg(device, "asarray")
    op = operand(obj)
    if op is not None:
        native, src = op
        if type(obj) is not Array:
            standard_dtype("asarray", native, src)
        if target is not None and target is not src:
            from ._transfer import to_device

            want = as_dtype(dtype) if dtype is not None else dtype_of(native, src)
            if not target.supports(want):
                to = narrower(want, target)
                if to is not None:  # the values must fit, before the warning
                    check_data("asarray", native, src, to, want, target)
                dtype = narrowed(want, target, "asarray") or raise_error(
                    unsupported(want, target, "asarray")
                )
            if dtype is not None:
                # Cast where the data is, so that the target never sees a dtype it cannot hold.
                native = src._fns["astype"](native, native_dtype(dtype, src, "asarray"), copy=False)
            return to_device(wrap(native, src), target, copy=copy)
        if dtype is not None and not copy and as_dtype(dtype) == dtype_of(native, src):
            dtype = None  # the dtype it has: the same Array back, as NumPy does
        if dtype is not None and copy is False:
            # Every backend the same way (JAX would copy silently, NumPy and torch raise
            # their own errors).
            raise ValueError(
                f"arraymux.asarray: casting {dtype_of(native, src)} to {as_dtype(dtype)} needs "
                "a copy, but copy=False was given. Use copy=None to copy only when needed."
            )
        if dtype is None and not copy:
            return obj if type(obj) is Array else wrap(native, src)
        kwargs: dict[str, Any] = {"copy": copy}
        if dtype is not None:
            kwargs["dtype"] = native_dtype(dtype, src, "asarray")
        return wrap(src._fns["asarray"](native, **kwargs), src)
    d = target if target is not None else get_default_device()
    if type(obj) is str or type(obj) is bytes or obj is None:
        raise TypeError(
            f"arraymux.asarray: cannot make an array of a {type(obj).__name__}; pass numbers, "
            "nested sequences of numbers, a buffer, or an array."
        )
    if copy is False and isinstance(obj, list | tuple | int | float | complex | bool):
        raise ValueError(
            f"arraymux.asarray: a {type(obj).__name__} of Python values always needs a copy "
            "to become an array, but copy=False was given. Use copy=None."
        )
    obj = _unwrap_nested(obj, d)
    if dtype is not None:
        dt = as_dtype(dtype)
        to = None if d.supports(dt) else narrower(dt, d)
        if to is not None:  # the values must fit, before the warning
            check_values("asarray", python_values(obj), to, dt, d)
    ndt = None if dtype is None else native_dtype(dtype, d, "asarray")
    src_dtype = getattr(obj, "dtype", None)
    if ndt is None and src_dtype is not None:
        src_dt = as_dtype(src_dtype)
        if not d.supports(src_dt):
            to = narrower(src_dt, d)
            if to is not None:  # a NumPy scalar, or another object with a dtype
                import numpy as np

                check_data("asarray", np.asarray(obj), Device("numpy"), to, src_dt, d)
            to = narrowed(src_dt, d, "asarray") or raise_error(unsupported(src_dt, d, "asarray"))
            ndt = d._backend.to_native_dtype[to]
    try:
        r = d._fns["asarray"](obj, dtype=ndt, device=d.native, copy=copy)
        if ndt is None and src_dtype is None and _default_dtypes.active:
            # Python data: the backend chose its own default; the policy may name another.
            want = policy_dtype(d, default_kind(d, r.dtype))
            if want is not None:
                r = d._fns["asarray"](obj, dtype=want, device=d.native, copy=copy)
    except BACKEND_ERRORS as e:
        raise_annotated("asarray", d, e)
    try:
        d._backend.dtype_from_native(r.dtype)
    except TypeError:
        raise TypeError(
            f"arraymux.asarray: {type(obj).__name__} data makes a {r.dtype} array, which is not "
            "a dtype of the standard."
        ) from None
    return wrap(r, d)


def _unwrap_nested(obj: Any, device: Device) -> Any:
    """Replace arraymux Arrays inside nested lists/tuples by Python scalars (0-d) or natives."""
    if isinstance(obj, list | tuple):
        if any(isinstance(o, list | tuple) or type(o) is Array for o in obj):
            return [_unwrap_nested(o, device) for o in obj]
        return obj
    if type(obj) is Array:
        if obj.ndim == 0:
            return obj._device._backend.adapter.to_numpy(obj._native).item()
        if obj._device is not device:
            raise mismatch("asarray", "obj", obj._device, "device", device)
        return obj.native
    return obj


def from_dlpack(
    x: ArrayLike, /, *, device: DeviceLike | None = None, copy: bool | None = None
) -> Array:
    """An Array sharing memory with any object that implements ``__dlpack__``.

    An array of a known backend (an Array, a ``torch.Tensor``, ...) stays on its own device
    and shares its memory (``copy=True`` copies). Any other producer is imported by the
    backend of ``device=``, else of the default device.

    Parameters
    ----------
    x : object
        An object that implements ``__dlpack__`` (an Array, a native array of any backend,
        or another library's array).
    device : Device, str or None, optional
        Device of the result; None (the default) keeps an array of a known backend on its
        device and imports any other one on the default device.
    copy : bool or None, optional
        True always copies, False never copies (and raises if it must), None (the default)
        copies only when needed.

    Returns
    -------
    Array
        An array with the data of ``x``, sharing its memory unless a copy was made.

    Raises
    ------
    TypeError
        ``x`` does not implement ``__dlpack__``.

    Examples
    --------
    >>> import arraymux as xp
    >>> import numpy as np
    >>> xp.from_dlpack(np.arange(3)).device
    Device('numpy:cpu')
    >>> xp.from_dlpack(np.arange(3.0), device="torch:cpu")
    Array([0., 1., 2.], dtype=float64, device='torch:cpu')
    """
    op = operand(x)
    target = None if device is None else resolve_device(device, "from_dlpack")
    if op is not None:
        native, src = op
        if type(x) is not Array:
            standard_dtype("from_dlpack", native, src)
        if target is None or target is src:
            # An array of a known backend stays on its own device, as the standard says.
            if copy:
                return wrap(src._fns["asarray"](native, copy=True), src)
            return wrap(native, src)
        # To another device: as to_device moves it (zero-copy where the memory is shared, a
        # device-to-host copy where not, and copy=False refused then; Dask computes).
        from ._transfer import to_device

        return to_device(wrap(native, src), target, copy=copy)
    if target is None:
        target = resolve_device(None, "from_dlpack")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(
            f"arraymux.from_dlpack: {type(x).__name__} does not implement __dlpack__; "
            "use arraymux.asarray instead."
        )
    kwargs: dict[str, Any] = {}
    if copy is not None:
        kwargs["copy"] = copy
    if not hasattr(target._backend.ns, "from_dlpack"):
        # A backend without DLPack import (Dask): NumPy takes the memory, the backend wraps it.
        import numpy as np

        from ._transfer import to_device

        host = np.from_dlpack(x, **kwargs)
        standard_dtype("from_dlpack", host, Device("numpy"))
        return to_device(host, target)
    if device is not None:
        kwargs["device"] = target.native
    r = target._backend.ns.from_dlpack(x, **kwargs)
    at = device_of_native(target._backend, r)
    standard_dtype("from_dlpack", r, at)  # the producer's dtype is known only now
    return wrap(r, at)


def _like(name: str, make: str) -> Any:
    def fn(x: Any, /, *args: Any, dtype: Any = None, device: Any = None, **kw: Any) -> Array:
        if kw:
            if name != "full_like" or args or set(kw) != {"fill_value"}:
                raise TypeError(f"arraymux.{name}: unexpected arguments {sorted(kw)}")
            args = (kw["fill_value"],)
        if len(args) > (name == "full_like"):
            raise TypeError(
                f"arraymux.{name}: takes {1 + (name == 'full_like')} positional argument(s), "
                f"but {1 + len(args)} were given; pass dtype= and device= by keyword."
            )
        op = operand(x)
        if op is None:
            raise not_an_array(name, 0, x)
        native, src = op
        if type(x) is not Array:  # a native of a dtype arraymux lacks: refused, as asarray does
            standard_dtype(name, native, src)
        d = src if device is None else device_arg(device, name)
        if args and operand(args[0]) is not None:
            # A 0-d array, as every backend takes one: it must lie on the result's device
            # (JAX would make the result where the fill value lies), and stays there.
            fop = operand(args[0])
            assert fop is not None
            if fop[1] is not d:
                raise mismatch(name, "fill_value", fop[1], "x" if device is None else "device", d)
            fill = _zero_d_operand(name, "fill_value", args[0], d)
            dt = as_dtype(dtype) if dtype is not None else dtype_of(native, src)
            return _filled(name, d, tuple(native.shape), fill, dt)
        if args:  # a Python number
            args = (check_value(name, "fill_value", args[0], None),)
        if args:  # full_like: the fill value must fit the result's dtype
            dt = as_dtype(dtype) if dtype is not None else dtype_of(native, src)
            check_stored(name, d, [python_scalar(args[0])], dt)
        if d._backend is not src._backend:
            dt = dtype if dtype is not None else src._backend.dtype_from_native(native.dtype)
            shape = tuple(native.shape)
            maker = {"empty_like": empty, "zeros_like": zeros, "ones_like": ones}.get(name)
            if maker is not None:
                return maker(shape, dtype=dt, device=d)
            return full(shape, *args, dtype=dt, device=d)
        kwargs: dict[str, Any] = {}
        if dtype is not None:
            kwargs["dtype"] = native_dtype(dtype, d, name)
        if device is not None:
            kwargs["device"] = d.native
        try:
            r = d._fns[name](native, *args, **kwargs)
        except BACKEND_ERRORS as e:
            raise_annotated(name, d, e)
        return wrap(r, d)

    fn.__name__ = fn.__qualname__ = name
    sig = signature(name)
    assert sig is not None
    fn.__signature__ = sig  # type: ignore[attr-defined]
    fn.__doc__ = (
        f"{_docstrings.SUMMARIES[name]}\n\n"
        f"``{name}`` of the Array API standard: like ``{make}``, with the shape of ``x``.\n\n"
        "Runs on the backend and device of ``x``, or on ``device=`` when given (another "
        "backend included).\n\n"
        f"See the standard's page: {_docstrings.spec_url(name)}\n\n"
        f"{_docstrings.sections(name, sig)}\n"
        "Raises\n------\n"
        "TypeError\n"
        "    ``x`` of a dtype that no standard dtype matches (strings, float16, bfloat16).\n"
        "ValueError\n"
        "    A ``dtype`` or ``device`` name that names none.\n"
        "BackendUnavailableError\n"
        "    A ``device`` that this machine does not have.\n"
        "UnsupportedDTypeError\n"
        "    A ``dtype`` the device cannot hold.\n\n"
        f"{_docstrings.examples(name)}"
    )
    return fn


empty_like = _like("empty_like", "empty")
full_like = _like("full_like", "full")
ones_like = _like("ones_like", "ones")
zeros_like = _like("zeros_like", "zeros")
