"""Devices: a backend plus a place, such as ``torch:cuda:1`` - and the default device."""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
import threading
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from ._backends import Backend, canonical_name, get_backend, is_installed, specs
from ._backends._adapter import NativeArray

if TYPE_CHECKING:
    from ._dtypes import DType

__all__ = [
    "EMBEDDED_DEFAULT",
    "ScalarPlan",
    "TRANSFORM",
    "Device",
    "DeviceLike",
    "default_device",
    "devices",
    "get_default_device",
    "set_default_device",
]

#: How the compiled fast path calls a function on an array and a Python scalar: ``(fn, result
#: dtype, lo, hi, zero_d, swap)`` (see ``_compiled.scalar_plan``); each device keeps its plans.
ScalarPlan: TypeAlias = """tuple[
    Callable[..., object], DType, int | None, int | None, Callable[..., object] | Literal[False], bool
]"""

_VALID_FORMS = (
    '"numpy" or "numpy:cpu"; "torch:cpu", "torch:cuda", "torch:cuda:1", "torch:mps"; '
    '"jax:cpu", "jax:cpu:0", "jax:gpu:0"; "cupy", "cupy:0"; "dask"; '
    '"array_api_strict", "array_api_strict:device1"'
)


class Device:
    """A device: a backend and a place on it, e.g. ``Device("torch:cuda:1")``.

    Devices are immutable and interned: ``Device("numpy") is Device("numpy:cpu")``. Creating
    one checks that the backend is installed and that the place exists here.

    Parameters
    ----------
    spec
        A string ``"backend[:place]"``, another ``Device``, or a backend's own device object
        (``torch.device("cuda:0")``, a JAX device, ``cupy.cuda.Device(0)``, ...).

    Raises
    ------
    ValueError
        The string is malformed or names an unknown backend.
    BackendUnavailableError
        The backend is not installed, or the place does not exist on this machine.

    Examples
    --------
    >>> import arraymux as xp
    >>> d = xp.Device("numpy")
    >>> d
    Device('numpy:cpu')
    >>> d.backend, str(d)
    ('numpy', 'numpy:cpu')
    """

    __slots__ = (
        "__weakref__",
        "_backend",
        "_fns",
        "_hash",
        "_known",
        "_lazy",
        "_name",
        "_native",
        "_place",
        "_plain_index",
        "_results",
        "_scalar_plans",
        "_str",
    )

    _backend: Backend
    _fns: Any
    _results: dict[str, dict[object, object]]  # per function: native operand -> result dtype
    _known: dict[object, DType]  # native dtype -> arraymux dtype (read by the C hot path)
    _scalar_plans: dict[tuple[str, object, type, int], ScalarPlan | None]  # see scalar_plan
    _name: str
    _place: str
    _str: str
    _hash: int
    _native: object  # the backend's device object, once asked for
    # True where ``x[key]`` of a basic key (ints, slices of positive steps, None, ...) is the
    # backend's own ``x[key]``, unchanged (read by the C hot path of ``Array.__getitem__``).
    _plain_index: bool
    # True where the backend may not know a dimension yet (Dask): Array.shape checks them.
    _lazy: bool

    def __new__(cls, spec: DeviceLike) -> Device:
        if type(spec) is Device:
            return spec
        try:
            return _INTERNED[spec]
        except (KeyError, TypeError):
            pass
        dev = _parse(spec) if isinstance(spec, str) else _from_native_device(spec)
        with contextlib.suppress(TypeError):  # unhashable native device objects
            _INTERNED[spec] = dev
        return dev

    @classmethod
    def _make(cls, backend: Backend, place: str) -> Device:
        text = f"{backend.name}:{place}" if place else backend.name
        try:
            return _INTERNED[text]
        except KeyError:
            pass
        with _LOCK:  # two threads' first use must make one Device, not two
            found = _INTERNED.get(text)
            return found if found is not None else cls._new(backend, place, text)

    @classmethod
    def _new(cls, backend: Backend, place: str, text: str) -> Device:
        self = object.__new__(cls)
        object.__setattr__(self, "_backend", backend)
        object.__setattr__(self, "_fns", backend.fns)
        object.__setattr__(self, "_results", backend.result_dtypes)
        object.__setattr__(self, "_known", backend.from_native_dtype)
        object.__setattr__(self, "_scalar_plans", {})
        object.__setattr__(self, "_name", backend.name)
        object.__setattr__(self, "_place", place)
        object.__setattr__(self, "_str", text)
        object.__setattr__(self, "_hash", hash(text))
        object.__setattr__(self, "_native", None)
        spec = backend.spec
        plain = spec.mutable and not spec.lazy and backend.getitem is None
        object.__setattr__(self, "_plain_index", plain)
        object.__setattr__(self, "_lazy", spec.lazy)
        _INTERNED[text] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("arraymux.Device is immutable")

    @property
    def backend(self) -> str:
        """The backend's name: ``"numpy"``, ``"torch"``, ``"jax"``, ``"cupy"``, ``"dask"``, ..."""
        return self._name

    @property
    def place(self) -> str:
        """The part after the backend: ``"cpu"``, ``"cuda:1"``, ``"gpu:0"``, ``"0"``, or ``""``."""
        return self._place

    @property
    def simulated(self) -> bool:
        """Whether this device stands in for one the machine does not have (array-api-strict's
        ``device1``, ``no_float64``...): tests of device errors use them, and the pytest
        plugin's "every device" leaves them out."""
        return self._place in self._backend.spec.simulated

    @property
    def native(self) -> Any:  # of the backend's own type (torch.device, ...)
        """The backend's own device object (``torch.device``, a JAX device, ...)."""
        nat = self._native
        if nat is None:
            nat = self._backend.adapter.native_device(self._place)
            object.__setattr__(self, "_native", nat)
        return nat

    @property
    def namespace(self) -> ModuleType:
        """The backend's own Array API namespace (from array-api-compat where needed)."""
        return self._backend.ns

    def supports(self, dtype: DType) -> bool:
        """Whether arrays of ``dtype`` can live on this device."""
        return bool(self._backend.adapter.supports_dtype(dtype, self._place))

    def __repr__(self) -> str:
        return f"Device({self._str!r})"

    def __str__(self) -> str:
        return self._str

    def __eq__(self, other: object) -> bool:
        if type(other) is Device:
            return self is other or self._str == other._str
        if isinstance(other, str):
            try:
                return Device(other) is self
            except (ValueError, LookupError, RuntimeError):
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Device], tuple[str]]:
        return Device, (self._str,)


_INTERNED: dict[object, Device] = {}
# Held while a Device is made: lookups of existing ones take no lock.
_LOCK = threading.RLock()


#: A device: a ``Device``, a device string (``"torch:cuda:1"``) or a backend's device object.
DeviceLike: TypeAlias = "Device | str | object"


def _parse(spec: str) -> Device:
    text = spec.strip()
    name, sep, place = text.partition(":")
    if not name or (sep and not place) or " " in text:
        raise ValueError(f"malformed device string {spec!r}; valid forms are {_VALID_FORMS}.")
    canon = canonical_name(name)
    if canon is None:
        known = ", ".join(s.name for s in specs())
        raise ValueError(
            f"malformed device string {spec!r}: unknown backend {name!r} (known: {known}); "
            f"valid forms are {_VALID_FORMS}."
        )
    backend = get_backend(canon)
    try:
        canon_place = backend.adapter.parse_place(place or None)
    except ValueError as e:
        raise ValueError(
            f"malformed device string {spec!r}: {e}; valid forms are {_VALID_FORMS}."
        ) from None
    return Device._make(backend, canon_place)


def _from_native_device(obj: object) -> Device:
    module = type(obj).__module__.split(".")[0]
    for spec in specs():
        if spec.module.split(".")[0] == module or (module == "jaxlib" and spec.name == "jax"):
            backend = get_backend(spec.name)
            place = backend.adapter.place_of_device(obj)
            return Device._make(backend, backend.adapter.parse_place(place or None))
    raise TypeError(
        f"{obj!r} is not a device: pass a string such as 'torch:cuda:0', an arraymux.Device, "
        "or a backend's own device object."
    )


def device_of_native(backend: Backend, x: NativeArray) -> Device:
    """The Device of a native array of ``backend``."""
    return Device._make(backend, backend.adapter.place_of(x))


def devices(backend: str | None = None) -> list[Device]:
    """Every device this machine has, over every installed backend (or one backend).

    Parameters
    ----------
    backend : str or None, optional
        A backend's name (``"torch"``) to list only its devices; None (the default) lists
        those of every installed backend.

    Returns
    -------
    list of Device
        The devices, backend by backend.

    Raises
    ------
    ValueError
        ``backend`` is not the name of a backend arraymux knows.
    BackendUnavailableError
        ``backend`` is not installed.

    Examples
    --------
    >>> import arraymux as xp
    >>> Device = xp.Device
    >>> Device("numpy:cpu") in xp.devices()
    True
    >>> xp.devices("numpy")
    [Device('numpy:cpu')]
    """
    if backend is not None and not isinstance(backend, str):
        raise TypeError(
            f"arraymux.devices: backend must be a backend's name such as 'torch', not "
            f"{type(backend).__name__}."
        )
    names = [backend] if backend is not None else [s.name for s in specs()]
    out: list[Device] = []
    for name in names:
        if backend is None and not is_installed(name):
            continue
        try:
            b = get_backend(name)
        except Exception as e:
            if backend is None:
                continue
            if isinstance(e, ValueError | TypeError) and not str(e).startswith("arraymux."):
                e.args = (f"arraymux.devices: {e}",)
            raise
        out += [Device._make(b, p) for p in b.adapter.places()]
    return out


# ---------------------------------------------------------------------------------------------
# The default device

_DEFAULT: contextvars.ContextVar[Device | None] = contextvars.ContextVar(
    "arraymux_default_device", default=None
)
#: The default device where neither the program nor ``ARRAYMUX_DEVICE`` names one.
EMBEDDED_DEFAULT = "numpy:cpu"
_process_default: Device | None = None


class _TransformDevice(threading.local):
    """The device of the transform (grad, jit, ...) running on this thread, while it runs the
    user's function. A thread-local, not a context variable: transforms run synchronously, and
    setting any context variable costs each call of a torch.compile'd function about 3 us,
    while torch.compile traces (and guards) a thread-local's attribute."""

    def __init__(self) -> None:
        # Set per thread (not a class attribute, which torch.compile 2.11 reads instead).
        self.device: Device | None = None
        # The engine of the innermost transform of a bridged backend's arrays (NumPy or CuPy,
        # computed by torch) while it runs the user's function: see constant_bridge.
        self.bridge: Bridge | None = None


class Bridge(Protocol):
    """What :func:`closure_constant` needs of a bridged transform's engine."""

    @property
    def user(self) -> Device:
        """The device of the arguments (``numpy:cpu``)."""

    @property
    def device(self) -> Device:
        """The device the engine computes on (``torch:cpu``)."""

    def to_engine(self, native: NativeArray) -> NativeArray:
        """A native array of ``user`` as one of ``device``, sharing its memory."""


#: The transform state of the calling thread (each thread sees its own).
TRANSFORM = _TransformDevice()


def constant_bridge(dev: Device, other: Device) -> Bridge | None:
    """The running transform's engine where arrays of ``dev`` that meet arrays of ``other`` in
    one call are constants of its computation, to be made arrays of ``other``; else None.

    A transform of NumPy (or CuPy) arrays runs the user's function on torch tensors over their
    memory, so the arrays it reads from an enclosing scope, still NumPy arrays, meet torch
    tensors. They are constants of the computation: each crosses to torch without a copy where
    it meets one (:func:`closure_constant`), and nothing is differentiated with respect to it.
    Arrays of any other device still do not mix."""
    bridge = TRANSFORM.bridge
    if (
        bridge is None
        or dev is not bridge.user
        or other is not bridge.device
        or TRANSFORM.device is not other
    ):
        return None
    return bridge


def closure_constant(native: NativeArray, dev: Device, other: Device) -> Any:
    """``native``, an array of ``dev`` that meets an array of ``other`` in one call, as an
    array of ``other`` where it is a constant of a transform's computation (see
    :func:`constant_bridge`); None where the two do not mix."""
    bridge = constant_bridge(dev, other)
    return None if bridge is None else bridge.to_engine(native)


def get_default_device() -> Device:
    """The device creation functions use when no ``device=`` is given.

    In order: the innermost ``with arraymux.default_device(...)``; inside a function being
    transformed (``arraymux.grad``, ``jit``, ...), the device the transform computes on; the
    last :func:`set_default_device`; the ``ARRAYMUX_DEVICE`` environment variable; and
    ``numpy:cpu``.

    Returns
    -------
    Device
        The default device.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.get_default_device()
    Device('numpy:cpu')
    >>> with xp.default_device("torch:cpu"):
    ...     xp.get_default_device()
    Device('torch:cpu')
    """
    dev = TRANSFORM.device
    if dev is not None:
        return dev
    dev = _DEFAULT.get()
    if dev is not None:
        return dev
    global _process_default
    if _process_default is None:
        _process_default = Device(os.environ.get("ARRAYMUX_DEVICE") or EMBEDDED_DEFAULT)
    return _process_default


def set_default_device(device: str | Device | None) -> None:
    """Set the default device for this process (``None`` restores the environment's/embedded).

    Inside a ``with arraymux.default_device(...)`` block the block's device still wins (the
    innermost setting wins); the new default applies once the block ends.

    Parameters
    ----------
    device : Device, str or None
        The new default device (a :class:`Device` or a device string); None restores the
        ``ARRAYMUX_DEVICE`` environment variable's device, else ``numpy:cpu``.

    Returns
    -------
    None
        Creation functions called without ``device=`` use it from now on (see
        :func:`get_default_device`).

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.set_default_device("numpy")
    >>> xp.zeros(2).device
    Device('numpy:cpu')
    """
    global _process_default
    _process_default = None if device is None else Device(device)


@contextlib.contextmanager
def default_device(device: str | Device) -> Iterator[Device]:
    """Use ``device`` as the default inside a ``with`` block.

    The setting is a context variable, so threads and asyncio tasks each see their own.

    Parameters
    ----------
    device : Device or str
        The default device inside the block (a :class:`Device` or a device string).

    Returns
    -------
    context manager
        A context manager for a ``with`` block; it yields the :class:`Device`.

    Examples
    --------
    >>> import arraymux as xp
    >>> with xp.default_device("numpy:cpu") as d:
    ...     xp.ones(3).device == d
    True
    """
    dev = Device(device)
    token = _DEFAULT.set(dev)
    # Inside a transformed function, this block's device wins over the transform's.
    shadowed, TRANSFORM.device = TRANSFORM.device, None
    try:
        yield dev
    finally:
        TRANSFORM.device = shadowed
        _DEFAULT.reset(token)


_NAMED = re.compile(r"arraymux\.[\w.]+: ")


def device_arg(spec: DeviceLike, fname: str) -> Device:
    """``Device(spec)`` for the ``device`` argument of ``arraymux.<fname>``: an error names
    the function."""
    try:
        return Device(spec)
    except (TypeError, ValueError) as e:
        if _NAMED.match(str(e)):  # names a function already ("arraymux.float32 is not" does not)
            raise
        e.args = (f"arraymux.{fname}: {e}",) if len(e.args) == 1 else e.args
        raise


def resolve_device(device: DeviceLike | None, fname: str) -> Device:
    """The device that ``device=`` of ``arraymux.<fname>`` names, or the default device where
    it is None."""
    if device is None:
        return get_default_device()
    return device_arg(device, fname)
