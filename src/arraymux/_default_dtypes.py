"""The default dtype policy: one default float (and integer) on every device.

Each backend has its own defaults (NumPy float64 and int64; torch float32 and int64; JAX
float32 and, without x64, int32), so ``xp.zeros(3)`` differs by device. A policy set here
replaces a device's default float (with the matching complex dtype) and default integer
wherever the device holds the policy's dtype; creation functions without ``dtype=`` then use it,
and ``__array_namespace_info__().default_dtypes()`` reports it. The innermost
``with arraymux.default_dtypes(...)`` wins, then :func:`set_default_dtypes`, then the
``ARRAYMUX_DEFAULT_DTYPES`` environment variable (``"float32"``, ``"float32,int32"``...), then
each device's own defaults.

The policy follows the default device (:mod:`arraymux._devices`): a ``with`` block sets a
context variable, so each thread and each asyncio task sees its own blocks and, outside them,
the process-wide policy; the environment variable is read when arraymux is imported (and
again by ``set_default_dtypes()`` with no arguments), so every reader agrees, and none takes a
lock (which would break a ``torch.compile`` graph).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import _dtypes
from ._devices import TRANSFORM

if TYPE_CHECKING:
    from ._devices import Device
    from ._typing import DTypeLike

__all__ = ["default_dtypes", "get_default_dtypes", "set_default_dtypes"]

Policy = tuple["_dtypes.DType | None", "_dtypes.DType | None"]


class _Scope:
    """One ``default_dtypes`` block's policy, as the context variable holds it. Each is
    tracked weakly, so that the readers know whether any context can still see a block's
    policy (a task a block started may outlive it) and skip the context variable otherwise:
    reading one costs little, but breaks a ``torch.compile`` graph."""

    __slots__ = ("__weakref__", "policy")

    def __init__(self, policy: Policy) -> None:
        self.policy = policy


_SCOPED: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar(
    "arraymux_default_dtypes", default=None
)
_NONE: Policy = (None, None)
#: The process-wide policy: set_default_dtypes's, else the environment's, else _NONE; None
#: until the environment has been read.
_process: Policy | None = None
#: Weak references to every block's _Scope still alive in some context.
_LIVE: set[weakref.ref[_Scope]] = set()
# Held while the process policy or _LIVE changes (never on the readers' path once the
# environment was read). Re-entrant: a scope's weakref callback may run inside a locked region
# of its own thread (a garbage collection there).
_LOCK = threading.RLock()

#: Whether a block's policy may be in force in some context (readers then ask _SCOPED).
scoped = False
#: Whether a policy may be in force (the creation functions' fast check): while a block's
#: policy lives in some context, while a process or environment policy is set, and until the
#: environment was read.
active = True


#: Transforms of a bridged backend's arrays (NumPy's, CuPy's) running now, on any thread:
#: while one runs, readers ask :func:`apply` (see :func:`enter_bridged`).
_bridged_runs = 0


def _update_active() -> None:
    """Recompute the fast checks (with _LOCK held)."""
    global scoped, active
    scoped = bool(_LIVE)
    active = scoped or _process is not _NONE or _bridged_runs > 0


def enter_bridged() -> None:
    """Note that a transform of a bridged backend's arrays starts running the user's function
    on this thread, its engine as ``TRANSFORM.bridge``: until :func:`exit_bridged`, the
    engine's device takes the defaults of the user's (``xp.asarray(0.1)`` in a function of
    NumPy arrays is float64 there too, not torch's float32)."""
    global _bridged_runs
    with _LOCK:
        _bridged_runs += 1
        _update_active()


def exit_bridged() -> None:
    """Undo one :func:`enter_bridged`."""
    global _bridged_runs
    with _LOCK:
        _bridged_runs -= 1
        _update_active()


def _gone(ref: weakref.ref[_Scope]) -> None:
    with _LOCK:
        _LIVE.discard(ref)
        _update_active()


def _enter(policy: Policy) -> _Scope:
    scope = _Scope(policy)
    with _LOCK:
        _LIVE.add(weakref.ref(scope, _gone))
        _update_active()
    return scope


def _dtype(value: object, kinds: tuple[str, ...], what: str, fname: str) -> _dtypes.DType | None:
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


def _check(real_floating: DTypeLike | None, integral: DTypeLike | None, fname: str) -> Policy:
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
    policy = _check(floats[0] if floats else None, ints[0] if ints else None, "default_dtypes")
    return _NONE if policy == _NONE else policy


def _read_environment() -> Policy:
    """The process policy, reading the environment if it was not read yet."""
    global _process
    with _LOCK:
        if _process is None:
            _process = _from_environment()
            _update_active()
        return _process


def _read_at_import() -> None:
    """Read the environment once, as the module loads, so that no reader takes the lock
    (inside ``torch.compile`` a lock breaks the graph); a malformed value is read again, and
    raises, at the first need."""
    global _process
    try:
        _process = _from_environment()
    except ValueError:
        return
    _update_active()


_read_at_import()


def get_default_dtypes() -> Policy:
    """The policy in force: ``(real_floating, integral)``, ``None`` where each device keeps
    its own default.

    In order: the innermost ``with arraymux.default_dtypes(...)`` block of this thread or
    asyncio task (a context variable, as for :func:`default_device`); the last
    :func:`set_default_dtypes`; the ``ARRAYMUX_DEFAULT_DTYPES`` environment variable, read
    when arraymux is imported and again by ``set_default_dtypes()`` with no arguments (so this
    function, the creation functions and ``__array_namespace_info__().default_dtypes()``
    agree); each device's own defaults.

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
    if scoped:
        scope = _SCOPED.get()
        if scope is not None:
            return scope.policy
    policy = _process
    return policy if policy is not None else _read_environment()


def set_default_dtypes(
    real_floating: DTypeLike | None = None, integral: DTypeLike | None = None
) -> None:
    """Give every device the same default float and integer, for this process.

    Calling it with neither restores the environment's policy (``ARRAYMUX_DEFAULT_DTYPES``,
    read again now), else each device's own defaults. Every
    thread and asyncio task sees the new policy, except inside its own
    ``with arraymux.default_dtypes(...)`` blocks, which still win.

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
        The policy applies from the next call on; read it back with
        :func:`get_default_dtypes`.

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
    if policy == _NONE:
        policy = _from_environment()
    with _LOCK:
        _process = policy
        _update_active()


@contextlib.contextmanager
def default_dtypes(
    real_floating: DTypeLike | None = None, integral: DTypeLike | None = None
) -> Iterator[Policy]:
    """Use a default float and integer on every device inside a ``with`` block.

    The arguments are those of :func:`set_default_dtypes`; ``None`` keeps each device's own
    default for that kind. The setting is a context variable, as the default device's is
    (:func:`default_device`): each thread and each asyncio task sees its own blocks only (a
    task started inside a block keeps its policy), and the process-wide policy elsewhere.

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
    policy = _check(real_floating, integral, "default_dtypes")
    # No local name holds the scope: once the block ends, only the contexts copied inside it
    # (tasks it started) keep it alive, and _gone turns the fast checks off after the last.
    token = _SCOPED.set(_enter(policy))
    try:
        yield policy
    finally:
        _SCOPED.reset(token)


_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def apply(device: Device, table: dict[str, _dtypes.DType]) -> dict[str, _dtypes.DType]:
    """``table`` (a device's own defaults) with the policy in force, where the device holds
    the policy's dtypes. On the device a bridged transform of this thread computes on, the
    user's device's own defaults replace ``table``."""
    bridge = TRANSFORM.bridge
    if bridge is not None and device is bridge.device:
        user = bridge.user
        table = user._backend.adapter.default_dtypes(user._place)
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
