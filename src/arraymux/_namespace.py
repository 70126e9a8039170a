"""The namespaces arraymux hands out: one per version of the standard
(``arraymux.namespace(api_version=...)``), and one per version and device
(``Array.__array_namespace__()``, ``arraymux.namespace(device=...)``)."""

from __future__ import annotations

import functools
import threading
import types
from collections.abc import Callable

from ._devices import Device, device_arg
from ._function_table import BY_NAME, NEW_IN_2025_12
from ._typing import DeviceLike

__all__ = ["SUPPORTED_VERSIONS", "namespace"]

SUPPORTED_VERSIONS = ("2024.12", "2025.12")
_VIEWS: dict[str, types.ModuleType] = {}
_BOUND: dict[tuple[Device, str], types.ModuleType] = {}
# Held while a namespace is made: lookups of existing ones take no lock. Re-entrant, as making
# a bound namespace makes its version's unbound one.
_LOCK = threading.RLock()


def namespace(
    api_version: str | None = None, *, device: DeviceLike | None = None
) -> types.ModuleType:
    """The arraymux namespace for one version of the standard, optionally bound to a device.

    ``"2025.12"`` (the default) is the ``arraymux`` module itself. ``"2024.12"`` is a module
    with the same functions, minus the names the 2025.12 revision added
    (``broadcast_shapes``, ``isin``, ``linalg.eig``, ``linalg.eigvals``).

    With ``device=``, the namespace is bound to that device: its creation functions
    (``asarray`` of Python data or of a native array, ``zeros``, ``ones``, ``arange``,
    ``eye``, ``full``, ``linspace``, ``empty``, ``fft.fftfreq``, ``fft.rfftfreq``) put their
    results on ``device`` when called without ``device=``, and its
    ``__array_namespace_info__()`` answers for ``device`` (default device and dtypes,
    capabilities, the devices of its backend). Every other function is arraymux's own and
    routes by its array operands as usual. This is the namespace
    ``Array.__array_namespace__()`` returns, and so what ``array_api_compat.array_namespace(x)``
    gives a library such as SciPy or scikit-learn: its ``xp.asarray(...)`` and ``xp.ones(...)``
    land beside the arrays it was given. There is one bound namespace per device and version,
    so every array of one device has the same namespace.

    Parameters
    ----------
    api_version : str or None, optional
        ``"2025.12"`` or ``"2024.12"``; None (the default) means ``"2025.12"``.
    device : Device, str or None, optional
        Device to bind the namespace to; None (the default) gives the unbound namespace.

    Returns
    -------
    module
        The namespace: a module with the standard's functions, constants and dtypes.

    Raises
    ------
    ValueError
        A version of the standard arraymux does not implement.

    Examples
    --------
    >>> import arraymux as xp
    >>> ns = xp.namespace("2024.12")
    >>> ns.__array_api_version__, hasattr(ns, "isin")
    ('2024.12', False)
    >>> x = xp.asarray([1.0, 2.0])
    >>> bound = x.__array_namespace__()
    >>> bound is xp.namespace(device=x.device)
    True
    >>> bound.ones(2).device
    Device('numpy:cpu')
    """
    if api_version is not None and type(api_version) is not str:
        raise TypeError(
            "arraymux.namespace: api_version must be a version string such as '2024.12', "
            f"not {type(api_version).__name__}."
        )
    if device is not None:
        dev = device if type(device) is Device else device_arg(device, "namespace")
        version = api_version or "2025.12"
        try:
            return _BOUND[dev, version]
        except KeyError:
            pass
        _check_version(version)
        with _LOCK:  # two threads' first call must make one namespace, not two
            ns = _BOUND.get((dev, version))
            if ns is None:
                ns = _BOUND[dev, version] = _bound(_version(version), dev)
        return ns
    return _version(api_version)


def _check_version(api_version: str | None) -> None:
    if api_version is not None and api_version not in SUPPORTED_VERSIONS:
        raise ValueError(
            f"arraymux.namespace: arraymux implements the Array API standard "
            f"{', '.join(SUPPORTED_VERSIONS)}; not {api_version!r}."
        )


def _version(api_version: str | None) -> types.ModuleType:
    """The unbound namespace of one version."""
    import arraymux

    if api_version is None or api_version == "2025.12":
        return arraymux
    _check_version(api_version)
    view = _VIEWS.get(api_version)
    if view is not None:
        return view
    with _LOCK:
        view = _VIEWS.get(api_version)
        if view is None:
            view = _VIEWS[api_version] = _view(arraymux, api_version)
    return view


def _view(arraymux: types.ModuleType, api_version: str) -> types.ModuleType:
    """A new unbound namespace of an earlier version than arraymux's own."""
    view = types.ModuleType(f"arraymux[{api_version}]", arraymux.__doc__)
    drop = {n for n in NEW_IN_2025_12 if "." not in n}
    names = [n for n in arraymux.__all__ if n not in drop]
    view.__dict__["__all__"] = names
    for name in names:
        setattr(view, name, getattr(arraymux, name))
    for sub in ("linalg", "fft", "special"):
        mod = types.ModuleType(f"arraymux[{api_version}].{sub}")
        src = getattr(arraymux, sub)
        gone = {n.split(".", 1)[1] for n in NEW_IN_2025_12 if n.startswith(sub + ".")}
        kept = [n for n in src.__all__ if n not in gone]
        mod.__dict__["__all__"] = kept
        for name in kept:
            setattr(mod, name, getattr(src, name))
        setattr(view, sub, mod)
    from ._info import info_2024_12

    view.__dict__.update(__array_namespace_info__=info_2024_12, __array_api_version__=api_version)
    return view


def _on_device(fn: Callable[..., object], device: Device) -> Callable[..., object]:
    """``fn`` (a creation function) with ``device=`` defaulting to ``device``."""

    @functools.wraps(fn)
    def bound(*args: object, device: DeviceLike | None = None, **kwargs: object) -> object:
        return fn(*args, device=bound_device if device is None else device, **kwargs)

    bound_device = device
    return bound


#: The keywords with which ``asarray`` of an Array gives it back when they are None (or
#: ``copy=False``): SciPy's ``_asarray`` passes both.
_PLAIN = frozenset({"dtype", "copy"})


def _asarray_on(fn: Callable[..., object], device: Device) -> Callable[..., object]:
    """``asarray`` whose Python data and native arrays default to ``device``; an Array stays
    where it is, as the standard asks."""
    from ._array import Array

    @functools.wraps(fn)
    def asarray(obj: object, /, *, device: DeviceLike | None = None, **kwargs: object) -> object:
        if device is None:
            if type(obj) is Array:
                if not kwargs or (
                    kwargs.keys() <= _PLAIN
                    and kwargs.get("dtype") is None
                    and (kwargs.get("copy") is None or kwargs.get("copy") is False)
                ):
                    return obj  # (as asarray gives it back: clients call this most)
            else:
                device = bound_device
        return fn(obj, device=device, **kwargs)

    bound_device = device
    return asarray


def _bound(base: types.ModuleType, device: Device) -> types.ModuleType:
    """``base`` (a version's namespace) with its creation functions defaulting to ``device``."""
    from ._info import Info

    version = base.__array_api_version__
    ns = types.ModuleType(f"{base.__name__}[{device}]", base.__doc__)
    for name in base.__all__:
        setattr(ns, name, getattr(base, name))
    for name in ("linalg", "fft", "special"):
        sub = getattr(base, name)
        mod = types.ModuleType(f"{ns.__name__}.{name}", sub.__doc__)
        mod.__dict__["__all__"] = list(sub.__all__)
        for attr in sub.__all__:
            setattr(mod, attr, getattr(sub, attr))
        setattr(ns, name, mod)
    for full, entry in BY_NAME.items():
        if entry.rule != "creation" or full == "from_dlpack":
            continue
        sub_name, _, name = full.rpartition(".")
        owner = getattr(ns, sub_name) if sub_name else ns
        if not hasattr(owner, name):  # not in this version
            continue
        fn = getattr(owner, name)
        setattr(
            owner, name, _asarray_on(fn, device) if full == "asarray" else _on_device(fn, device)
        )

    def __array_namespace_info__() -> Info:
        return Info(version, device=device)

    ns.__dict__.update(
        __array_namespace_info__=__array_namespace_info__,
        __array_api_version__=version,
        __all__=list(base.__all__),
    )
    return ns
