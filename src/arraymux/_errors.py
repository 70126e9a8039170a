"""The exceptions arraymux raises. All of them subclass :class:`ArraymuxError`."""

from __future__ import annotations

__all__ = [
    "ArraymuxError",
    "BackendMismatchError",
    "BackendUnavailableError",
    "DeviceMismatchError",
    "TransformUnavailableError",
    "UnsupportedDTypeError",
]


class ArraymuxError(Exception):
    """Base class of every error arraymux raises on purpose."""


class BackendMismatchError(ArraymuxError, TypeError):
    """Operands of one call live on different backends (say NumPy and PyTorch).

    Move one of them first with :func:`arraymux.to_device`.
    """


class DeviceMismatchError(ArraymuxError, ValueError):
    """Operands of one call live on one backend but on different devices.

    Move one of them first with :func:`arraymux.to_device`.
    """


class BackendUnavailableError(ArraymuxError, RuntimeError):
    """A backend is not installed, or the device asked for does not exist on this machine."""


class UnsupportedDTypeError(ArraymuxError, TypeError):
    """A dtype that the target device cannot hold (float64 on JAX with x64 off, say).

    arraymux raises this instead of silently casting to a narrower dtype.
    """


class AxisError(ArraymuxError, ValueError, IndexError):
    """An axis out of range for the array (a ``ValueError`` and an ``IndexError``, as NumPy's
    ``AxisError``, so that code written for any backend catches it)."""


class TransformUnavailableError(ArraymuxError, TypeError):
    """A transform (grad, vmap, jit, ...) on a backend that has no autodiff or tracing engine."""


# Tracebacks and reprs name the errors where users import them from: arraymux.DeviceMismatchError.
for _name in __all__:
    globals()[_name].__module__ = "arraymux"
