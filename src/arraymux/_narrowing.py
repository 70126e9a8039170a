"""Opt-in narrowing of 64-bit dtypes on devices that cannot hold them (JAX without x64).

By default a dtype the device cannot hold raises :class:`UnsupportedDTypeError`: arraymux never
narrows silently. Code that must run a library asking for float64 or int64 (a SciPy or
scikit-learn function, say) on 32-bit JAX can opt in, globally with :func:`set_narrowing` or
around the calls with ``with arraymux.narrowing():``; each narrowing then warns with
:class:`NarrowingWarning`, as ``jax.numpy`` does.
"""

from __future__ import annotations

import contextlib
import contextvars
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import _dtypes

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
    arraymux.zeros: array_api_strict:no_float64 cannot hold float64; narrowed to float32 because narrowing is on (arraymux.narrowing / set_narrowing).
    """


def set_narrowing(enabled: bool) -> None:
    """Narrow 64-bit dtypes that a device cannot hold (float64 -> float32, int64 -> int32,
    complex128 -> complex64, uint64 -> uint32), with a :class:`NarrowingWarning`, for the
    whole process; ``False`` (the default) raises :class:`UnsupportedDTypeError` instead.

    A ``with arraymux.narrowing(...)`` block wins over this setting inside it. Narrowing
    applies where arraymux makes an array (``asarray``, creation functions, ``astype``);
    ``to_device`` never narrows, and a Python int that does not fit 32 bits still raises.

    Parameters
    ----------
    enabled : bool
        True to narrow (with a warning) from now on, False to raise again.

    Returns
    -------
    None

    Examples
    --------
    >>> import warnings
    >>> import arraymux as xp
    >>> xp.set_narrowing(True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", xp.NarrowingWarning)
    ...     xp.ones(2, dtype=xp.int64, device="array_api_strict:no_x64").dtype
    arraymux.int32
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


def narrowed(dt: _dtypes.DType, device: Device, fname: str) -> _dtypes.DType | None:
    """The dtype to use instead of ``dt``, which ``device`` cannot hold, when narrowing is on
    (after warning); None when it is off or no narrower dtype fits."""
    if not enabled():
        return None
    to = _NARROWER.get(dt)
    if to is None or not device.supports(to):
        return None
    warnings.warn(
        f"arraymux.{fname}: {device} cannot hold {dt.name}; narrowed to {to.name} because "
        "narrowing is on (arraymux.narrowing / set_narrowing).",
        NarrowingWarning,
        stacklevel=4,
    )
    return to
