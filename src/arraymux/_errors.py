"""The exceptions arraymux raises. All of them subclass :class:`ArraymuxError`."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, NoReturn, Protocol

if TYPE_CHECKING:
    from ._dtypes import DType

__all__ = [
    "ArraymuxError",
    "AxisError",
    "BackendMismatchError",
    "BackendUnavailableError",
    "DeviceMismatchError",
    "TransformUnavailableError",
    "UnsupportedDTypeError",
    "argument_label",
    "mismatch",
    "not_an_array",
    "raise_error",
    "unsupported",
]


class ArraymuxError(Exception):
    """Base class of every error arraymux raises on purpose.

    Each one is also a subclass of the built-in exception that code written for any backend
    expects (``TypeError``, ``ValueError``, ``RuntimeError``), so catching either works.

    Examples
    --------
    >>> import arraymux as xp
    >>> issubclass(xp.DeviceMismatchError, xp.ArraymuxError)
    True
    >>> try:
    ...     xp.Device("numpy:gpu")
    ... except xp.ArraymuxError as e:
    ...     print(type(e).__name__)
    BackendUnavailableError
    """


class BackendMismatchError(ArraymuxError, TypeError):
    """Operands of one call live on different backends (say NumPy and PyTorch).

    Move one of them first with :func:`arraymux.to_device`.

    Examples
    --------
    >>> import arraymux as xp
    >>> a = xp.asarray([1.0])
    >>> b = xp.asarray([2.0], device="torch:cpu")
    >>> xp.add(a, b)
    Traceback (most recent call last):
        ...
    arraymux.BackendMismatchError: arraymux.add: argument 1 (x2) is on torch:cpu but argument 0
    (x1) is on numpy:cpu (another backend). Move one of them first, e.g.
    x2 = arraymux.to_device(x2, "numpy:cpu").
    >>> xp.add(a, xp.to_device(b, a.device))
    Array([3.], dtype=float64, device='numpy:cpu')
    """


class DeviceMismatchError(ArraymuxError, ValueError):
    """Operands of one call live on one backend but on different devices.

    Move one of them first with :func:`arraymux.to_device`.

    Examples
    --------
    >>> import arraymux as xp
    >>> a = xp.asarray([1.0], device="array_api_strict:device1")
    >>> b = xp.asarray([2.0], device="array_api_strict:CPU_DEVICE")
    >>> xp.add(a, b)
    Traceback (most recent call last):
        ...
    arraymux.DeviceMismatchError: arraymux.add: argument 1 (x2) is on
    array_api_strict:CPU_DEVICE but argument 0 (x1) is on array_api_strict:device1 (another
    device). Move one of them first, e.g. x2 = arraymux.to_device(x2,
    "array_api_strict:device1").
    """


class BackendUnavailableError(ArraymuxError, RuntimeError):
    """A backend is not installed, or the device asked for does not exist on this machine.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.Device("numpy:gpu")
    Traceback (most recent call last):
        ...
    arraymux.BackendUnavailableError: device numpy:gpu does not exist on this machine; the
    numpy devices here are: numpy:cpu. arraymux.devices() lists every device.
    """


class UnsupportedDTypeError(ArraymuxError, TypeError):
    """A dtype that the target device cannot hold (float64 on JAX with x64 off, say).

    arraymux raises this instead of silently casting to a narrower dtype.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.zeros(2, dtype=xp.float64, device="array_api_strict:no_float64")
    Traceback (most recent call last):
        ...
    arraymux.UnsupportedDTypeError: arraymux.zeros: array_api_strict:no_float64 cannot hold
    arraymux.float64. Use a dtype that array_api_strict:no_float64 holds.
    """


class AxisError(ArraymuxError, ValueError, IndexError):
    """An axis out of range for the array (a ``ValueError`` and an ``IndexError``, as NumPy's
    ``AxisError``, so that code written for any backend catches it).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.sum(xp.ones((2, 2)), axis=2)
    Traceback (most recent call last):
        ...
    arraymux.AxisError: arraymux.sum: axis 2 is out of range for an array of 2 dimension(s)
    (valid: -2 to 1).
    >>> isinstance(xp.AxisError("x"), IndexError), isinstance(xp.AxisError("x"), ValueError)
    (True, True)
    """


class TransformUnavailableError(ArraymuxError, TypeError):
    """A transform (grad, vmap, jit, ...) on a backend that has no autodiff or tracing engine.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.asarray([1.0, 2.0], device="dask")
    >>> xp.grad(lambda x: xp.sum(x**2))(x)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    arraymux.TransformUnavailableError: arraymux.grad: the dask backend (dask) has no autodiff
    or tracing engine. Transforms run on: ... Move the arrays first, e.g.
    x = arraymux.to_device(x, "torch:cpu").
    """


# ---------------------------------------------------------------------------------------------
# The messages of the errors raised in many places


class _Loaded(Protocol):
    @property
    def adapter(self) -> ModuleType: ...


class _Placed(Protocol):
    """What the messages read of an ``arraymux.Device`` (this module sits below
    :mod:`arraymux._devices`, which imports the backends, which raise these errors)."""

    @property
    def _name(self) -> str: ...

    @property
    def _backend(self) -> _Loaded: ...


def argument_label(position: int | str, pname: str | None = None) -> str:
    if isinstance(position, int):
        return f"argument {position}" + (f" ({pname})" if pname else "")
    return f"argument {position!r}"


def mismatch(
    fname: str,
    pos: int | str,
    dev: _Placed,
    first_pos: int | str,
    first: _Placed,
    pname: str | None = None,
    first_pname: str | None = None,
) -> Exception:
    """The error for an operand on another backend or device than the first array operand;
    ``pname`` is the standard's name of the parameter at ``pos`` (``x2``), if it has one."""
    kind = BackendMismatchError if dev._name != first._name else DeviceMismatchError
    what = "backend" if kind is BackendMismatchError else "device"
    arg = pname or (pos if isinstance(pos, str) and pos.isidentifier() else "x")
    msg = (
        f"arraymux.{fname}: {argument_label(pos, pname)} is on {dev} but "
        f"{argument_label(first_pos, first_pname)} is on {first} (another {what}). Move one of them "
        f'first, e.g. {arg} = arraymux.to_device({arg}, "{first}").'
    )
    return kind(msg)


def not_an_array(fname: str, pos: int | str, value: object, scalars_ok: bool = False) -> TypeError:
    what = "an array or a Python scalar" if scalars_ok else "an array"
    return TypeError(
        f"arraymux.{fname}: {argument_label(pos)} must be {what}, not {type(value).__module__}."
        f"{type(value).__qualname__}. Convert it first with arraymux.asarray(...)."
    )


def unsupported(dt: DType, device: _Placed, fname: str) -> UnsupportedDTypeError:
    extra = device._backend.adapter.unsupported_hint(dt) or f"Use a dtype that {device} holds."
    return UnsupportedDTypeError(f"arraymux.{fname}: {device} cannot hold {dt}. {extra}")


def raise_error(e: Exception) -> NoReturn:
    """Raise ``e``: for the right side of ``x or raise_error(...)``."""
    raise e


# Tracebacks and reprs name the errors where users import them from: arraymux.DeviceMismatchError.
for _error in (ArraymuxError, *ArraymuxError.__subclasses__()):
    _error.__module__ = "arraymux"
