"""Opt-in narrowing of 64-bit dtypes on devices that cannot hold them (JAX without x64).

By default a dtype the device cannot hold raises :class:`UnsupportedDTypeError`: arraymux never
narrows silently. Code that must run a library asking for float64 or int64 (a SciPy or
scikit-learn function, say) on 32-bit JAX can opt in, globally with :func:`set_narrowing` or
around the calls with ``with arraymux.narrowing():``; each narrowing then warns with
:class:`NarrowingWarning`, as ``jax.numpy`` does. Narrowing changes a dtype, never a value:
a value the narrower dtype cannot hold raises :class:`OverflowError`. Like the default device
and the default dtypes, the ``with`` block's setting is a context variable: each thread and
each asyncio task sees its own blocks, and :func:`set_narrowing`'s setting elsewhere.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from . import _dtypes
from ._backends._adapter import NativeArray

if TYPE_CHECKING:
    from ._devices import Device

__all__ = ["NarrowingWarning", "narrowing", "set_narrowing"]

_NARROWER = {
    _dtypes.float64: _dtypes.float32,
    _dtypes.complex128: _dtypes.complex64,
    _dtypes.int64: _dtypes.int32,
    _dtypes.uint64: _dtypes.uint32,
}

_SCOPED: contextvars.ContextVar[bool | None] = contextvars.ContextVar(
    "arraymux_narrowing", default=None
)
_process = False


class NarrowingWarning(UserWarning):
    """A 64-bit dtype was narrowed to 32 bits because narrowing is on (see
    :func:`arraymux.narrowing`).

    Examples
    --------
    >>> import warnings
    >>> import arraymux as xp
    >>> with xp.narrowing(), warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     x = xp.zeros(2, dtype=xp.float64, device="array_api_strict:no_float64")
    >>> x.dtype
    arraymux.float32
    >>> caught[0].category.__name__
    'NarrowingWarning'
    >>> print(caught[0].message)
    arraymux.zeros: array_api_strict:no_float64 cannot hold arraymux.float64; narrowed to arraymux.float32 because narrowing is on (arraymux.narrowing / arraymux.set_narrowing).
    """


def set_narrowing(enabled: bool) -> None:
    """Narrow 64-bit dtypes that a device cannot hold (float64 -> float32, int64 -> int32,
    complex128 -> complex64, uint64 -> uint32), with a :class:`NarrowingWarning`, for the
    whole process; ``False`` (the default) raises :class:`UnsupportedDTypeError` instead.

    A ``with arraymux.narrowing(...)`` block wins over this setting inside it. Narrowing
    applies where arraymux makes an array (``asarray``, creation functions, ``astype``, the
    promotion of two operands); ``to_device`` never narrows. Narrowing changes a dtype, never
    a value: a value that the narrower dtype cannot hold (a Python int or an array's integer
    beyond 32 bits, a finite float beyond float32's range) raises :class:`OverflowError`
    naming the function, before any warning.

    Parameters
    ----------
    enabled : bool
        True to narrow (with a warning) from now on, False to raise again.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        ``enabled`` is not a bool.

    Examples
    --------
    >>> import warnings
    >>> import arraymux as xp
    >>> xp.set_narrowing(True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", xp.NarrowingWarning)
    ...     xp.ones(2, dtype=xp.int64, device="array_api_strict:no_x64").dtype
    arraymux.int32
    >>> xp.full(2, 2**40, dtype=xp.int64, device="array_api_strict:no_x64")
    Traceback (most recent call last):
    ...
    OverflowError: arraymux.full: the Python int 1099511627776 does not fit in arraymux.int32 (range -2147483648 to 2147483647), the dtype that narrowing makes of arraymux.int64 on array_api_strict:no_x64. Pass values that fit arraymux.int32, or use a device that holds arraymux.int64.
    >>> xp.set_narrowing(False)
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"arraymux.set_narrowing: expected True or False, got {enabled!r}.")
    global _process
    _process = enabled


@contextlib.contextmanager
def narrowing(enabled: bool = True) -> Iterator[None]:
    """Narrow 64-bit dtypes that a device cannot hold inside a ``with`` block (a context
    variable: threads and asyncio tasks each see their own), with a
    :class:`NarrowingWarning` each time. See :func:`set_narrowing`.

    Parameters
    ----------
    enabled : bool, optional
        True (the default) to narrow inside the block, False to raise inside it (whatever
        :func:`set_narrowing` says).

    Returns
    -------
    context manager
        A context manager for a ``with`` block; it yields None.

    Examples
    --------
    >>> import warnings
    >>> import arraymux as xp
    >>> with xp.narrowing(), warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", xp.NarrowingWarning)
    ...     xp.zeros(2, dtype=xp.float64).dtype  # float64 on NumPy: nothing to narrow
    arraymux.float64
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"arraymux.narrowing: expected True or False, got {enabled!r}.")
    token = _SCOPED.set(enabled)
    try:
        yield
    finally:
        _SCOPED.reset(token)


def enabled() -> bool:
    scoped = _SCOPED.get()
    return _process if scoped is None else scoped


def narrower(dt: _dtypes.DType, device: Device) -> _dtypes.DType | None:
    """The dtype narrowing makes of ``dt``, which ``device`` cannot hold: None where narrowing
    is off or no narrower dtype fits. Warns of nothing (see :func:`narrowed`)."""
    if not enabled():
        return None
    to = _NARROWER.get(dt)
    return to if to is not None and device.supports(to) else None


def narrowed(dt: _dtypes.DType, device: Device, fname: str) -> _dtypes.DType | None:
    """The dtype to use instead of ``dt``, which ``device`` cannot hold, when narrowing is on
    (after warning); None when it is off or no narrower dtype fits."""
    to = narrower(dt, device)
    if to is not None:
        warn(fname, dt, to, device, stacklevel=5)
    return to


def warn(fname: str, dt: _dtypes.DType, to: _dtypes.DType, device: Device, stacklevel: int) -> None:
    """Warn that ``arraymux.<fname>`` narrows ``dt`` to ``to`` on ``device``."""
    warnings.warn(
        f"arraymux.{fname}: {device} cannot hold {dt}; narrowed to {to} because narrowing is "
        "on (arraymux.narrowing / arraymux.set_narrowing).",
        NarrowingWarning,
        stacklevel=stacklevel,
    )


# ---------------------------------------------------------------------------------------------
# Values that the narrower dtype cannot hold raise: narrowing changes the precision of the
# values it keeps, never the values themselves (JAX would wrap 2**40 to 0, a float 1e300
# would become inf).

_FLOAT32_MAX = 3.4028234663852886e38


def _misfit(value: object, to: _dtypes.DType) -> bool:
    """Whether the Python number ``value`` does not fit ``to`` (a narrower dtype)."""
    if type(value) is complex:
        return _misfit(value.real, to) or _misfit(value.imag, to)
    if type(value) is not int and type(value) is not float:
        return False  # bool, or data the caller does not look into
    if value != value or value in (math.inf, -math.inf):
        return False  # NaN and infinities stay what they are
    if to.kind in ("signed integer", "unsigned integer"):
        lo, hi = _dtypes.int_range(to)
        return not lo <= value <= hi
    return abs(value) > _FLOAT32_MAX  # float32, complex64 (per part)


def _range(to: _dtypes.DType) -> str:
    if to.kind in ("signed integer", "unsigned integer"):
        lo, hi = _dtypes.int_range(to)
        return f"range {lo} to {hi}"
    return f"largest magnitude {_FLOAT32_MAX:.8g}"


def value_error(
    fname: str, what: str, to: _dtypes.DType, dt: _dtypes.DType, device: Device
) -> OverflowError:
    """The error for a value (``what`` names it), which ``to``, the dtype narrowing makes of
    ``dt`` on ``device``, cannot hold."""
    hint = device._backend.adapter.unsupported_hint(dt)
    return OverflowError(
        f"arraymux.{fname}: {what} does not fit in {to} ({_range(to)}), the dtype that "
        f"narrowing makes of {dt} on {device}. Pass values that fit {to}, or use a device "
        f"that holds {dt}." + (f" {hint}" if hint else "")
    )


def _plain(value: object) -> bool:
    return type(value) in (int, float, complex)


def check_values(
    fname: str, values: Iterable[Any], to: _dtypes.DType, dt: _dtypes.DType, device: Device
) -> None:
    """Raise :class:`OverflowError` where one of the Python numbers ``values`` does not fit
    ``to``, the dtype that narrowing makes of ``dt`` on ``device``; other values are skipped."""
    for v in values:
        if _misfit(v, to):
            raise value_error(fname, f"the Python {type(v).__name__} {v!r}", to, dt, device)


def python_values(obj: object) -> Iterator[Any]:
    """The Python numbers in ``obj``, a Python number or nested lists and tuples of them
    (anything else inside is skipped)."""
    if isinstance(obj, list | tuple):
        for item in obj:
            yield from python_values(item)
    elif _plain(obj):
        yield obj


def check_data(
    fname: str,
    native: NativeArray,
    src: Device,
    to: _dtypes.DType,
    dt: _dtypes.DType,
    device: Device,
) -> None:
    """Raise :class:`OverflowError` where a value of the array ``native`` (on ``src``), which
    ``dt`` holds, does not fit ``to``, the dtype narrowing makes of ``dt`` on ``device``. The
    check computes on ``src``: the array's extremes (integers), or its largest finite
    magnitude (floating point); values ``dt`` cannot hold either are astype's business."""
    have = src._backend.dtype_from_native(native.dtype)
    if have is to or 0 in tuple(native.shape):
        return
    fns = src._fns
    adapter = src._backend.adapter

    def item(x: Any) -> Any:
        return adapter.to_numpy(x).item()

    if to.kind in ("signed integer", "unsigned integer"):
        if have.kind not in ("signed integer", "unsigned integer"):
            return
        wide_lo, wide_hi = _dtypes.int_range(dt)
        lo, hi = _dtypes.int_range(to)
        for v in (int(item(fns["min"](native))), int(item(fns["max"](native)))):
            if wide_lo <= v <= wide_hi and not lo <= v <= hi:
                raise value_error(fname, f"the value {v} of the array on {src}", to, dt, device)
        return
    if have.kind not in ("real floating", "complex floating"):
        return
    parts = [native] if have.kind == "real floating" else [fns["real"](native), fns["imag"](native)]
    for part in parts:
        magnitude = fns["abs"](part)
        finite = fns["where"](fns["isfinite"](part), magnitude, fns["zeros_like"](magnitude))
        largest = float(item(fns["max"](finite)))
        if largest > _FLOAT32_MAX:
            what = f"the value {largest!r} (in magnitude) of the array on {src}"
            raise value_error(fname, what, to, dt, device)
