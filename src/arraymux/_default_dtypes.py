"""The default dtype policy: one default float (and integer) on every device.

Each backend has its own defaults (NumPy float64 and int64; torch float32 and int64; JAX
float32 and, without x64, int32), so ``xp.zeros(3)`` differs by device. A policy set here
replaces a device's default float (with the matching complex dtype) and default integer
wherever the device holds the policy's dtype; creation functions without ``dtype=`` then use it,
and ``__array_namespace_info__().default_dtypes()`` reports it. The innermost
``with arraymux.default_dtypes(...)`` wins, then :func:`set_default_dtypes`, then the
``ARRAYMUX_DEFAULT_DTYPES`` environment variable (``"float32"``, ``"float32,int32"``...), then
each device's own defaults.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import _dtypes

if TYPE_CHECKING:
    from ._devices import Device

__all__ = ["default_dtypes", "get_default_dtypes", "set_default_dtypes"]

Policy = tuple["_dtypes.DType | None", "_dtypes.DType | None"]


class _Block(threading.local):
    """The innermost ``default_dtypes`` block's policy on this thread. A thread-local, not a
    context variable: ``torch.compile`` traces a thread-local's attribute, while reading a
    context variable breaks its graph (creation functions read the policy)."""

    def __init__(self) -> None:
        self.policy: Policy | None = None


_BLOCK = _Block()
_process: Policy | None = None
_NONE: Policy = (None, None)


def _dtype(value: Any, kinds: tuple[str, ...], what: str, fname: str) -> _dtypes.DType | None:
    if value is None:
        return None
    dt = value if type(value) is _dtypes.DType else None
    if isinstance(value, str):
        try:
            dt = _dtypes.DType(value)
        except (TypeError, ValueError, KeyError):
            dt = None
    if dt is None or dt.name not in kinds:
        raise ValueError(
            f"arraymux.{fname}: {what} must be one of {', '.join(kinds)}, got {value!r}."
        )
    return dt


def _check(real_floating: Any, integral: Any, fname: str) -> Policy:
    return (
        _dtype(real_floating, ("float32", "float64"), "real_floating", fname),
        _dtype(integral, ("int32", "int64"), "integral", fname),
    )


def _from_environment() -> Policy:
    text = os.environ.get("ARRAYMUX_DEFAULT_DTYPES", "").strip()
    if not text:
        return _NONE
    names = [t.strip() for t in text.split(",") if t.strip()]
    floats = [n for n in names if n.startswith("float")]
    ints = [n for n in names if n.startswith("int")]
    if len(floats) > 1 or len(ints) > 1 or len(floats) + len(ints) != len(names):
        raise ValueError(
            f"ARRAYMUX_DEFAULT_DTYPES={text!r}: give at most one float dtype and one integer "
            "dtype, comma-separated, e.g. 'float32' or 'float32,int32'."
        )
    return _check(floats[0] if floats else None, ints[0] if ints else None, "default_dtypes")


def get_default_dtypes() -> Policy:
    """The policy in force: ``(real_floating, integral)``, ``None`` where each device keeps
    its own default.

    Returns
    -------
    tuple of (DType or None, DType or None)
        The default real floating-point dtype and the default integer dtype in force, None
        for a kind whose default each device chooses.

    Examples
    --------
    >>> import arraymux as xp
    >>> with xp.default_dtypes(real_floating=xp.float32):
    ...     xp.get_default_dtypes()
    (arraymux.float32, None)
    """
    policy = _BLOCK.policy
    if policy is not None:
        return policy
    global _process
    if _process is None:
        _process = _from_environment()
    return _process


def set_default_dtypes(real_floating: Any = None, integral: Any = None) -> None:
    """Give every device the same default float and integer, for this process.

    Calling it with neither restores the environment's policy (``ARRAYMUX_DEFAULT_DTYPES``),
    else each device's own defaults. A ``with arraymux.default_dtypes(...)`` block still wins
    inside it.

    Parameters
    ----------
    real_floating : DType, str or None, optional
        ``float32`` or ``float64`` (a dtype or its name): the default float wherever the
        device holds it; complex defaults follow (``complex64`` or ``complex128``).
    integral : DType, str or None, optional
        ``int32`` or ``int64``: the default integer wherever the device holds it.

    Returns
    -------
    None

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.set_default_dtypes(real_floating="float32")
    >>> xp.zeros(2, device="numpy").dtype
    arraymux.float32
    >>> xp.set_default_dtypes()
    >>> xp.zeros(2, device="numpy").dtype
    arraymux.float64
    """
    global _process
    policy = _check(real_floating, integral, "set_default_dtypes")
    _process = None if policy == _NONE else policy
    _update_active()


@contextlib.contextmanager
def default_dtypes(real_floating: Any = None, integral: Any = None) -> Iterator[Policy]:
    """Use a default float and integer on every device inside a ``with`` block.

    The arguments are those of :func:`set_default_dtypes`; ``None`` keeps each device's own
    default for that kind. The setting is per thread (a thread's own blocks only).

    Parameters
    ----------
    real_floating : DType, str or None, optional
        ``float32`` or ``float64``: the default float inside the block (complex defaults
        follow); None (the default) keeps each device's own.
    integral : DType, str or None, optional
        ``int32`` or ``int64``: the default integer inside the block; None (the default)
        keeps each device's own.

    Returns
    -------
    context manager
        A context manager for a ``with`` block; it yields the policy
        ``(real_floating, integral)`` as dtypes.

    Examples
    --------
    >>> import arraymux as xp
    >>> with xp.default_dtypes(real_floating=xp.float64):
    ...     xp.ones(2, device="torch:cpu").dtype
    arraymux.float64
    >>> xp.ones(2, device="torch:cpu").dtype
    arraymux.float32
    """
    global _open_blocks
    policy = _check(real_floating, integral, "default_dtypes")
    outer, _BLOCK.policy = _BLOCK.policy, policy
    with _LOCK:
        _open_blocks += 1
        _update_active()
    try:
        yield policy
    finally:
        _BLOCK.policy = outer
        with _LOCK:
            _open_blocks -= 1
            _update_active()


_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def apply(device: Device, table: dict[str, _dtypes.DType]) -> dict[str, _dtypes.DType]:
    """``table`` (a device's own defaults) with the policy in force, where the device holds
    the policy's dtypes."""
    if not active:
        return table
    real, integral = get_default_dtypes()
    if real is None and integral is None:
        return table
    table = dict(table)
    if real is not None and device.supports(real):
        table["real floating"] = real
        complex_ = _dtypes.DType(_COMPLEX[real.name])
        if device.supports(complex_):
            table["complex floating"] = complex_
    if integral is not None and device.supports(integral):
        table["integral"] = integral
    return table


#: Whether a policy may be in force (the creation functions' fast check): while a
#: ``default_dtypes`` block is open on any thread, or a process or environment policy is set.
active = False
_open_blocks = 0
_LOCK = threading.Lock()


def _update_active() -> None:
    global active
    env = bool(os.environ.get("ARRAYMUX_DEFAULT_DTYPES", "").strip())
    active = _open_blocks > 0 or env or (_process is not None and _process != _NONE)


_update_active()
