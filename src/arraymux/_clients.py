"""What arraymux knows of the libraries that consume arrays (SciPy, scikit-learn): the switch
each needs before it computes with Arrays, whether that switch is on, and the advice that
errors and warnings give when a library hands an Array to NumPy instead.

A library without its switch on treats an Array as an unknown object: NumPy's ufuncs refuse it
(``Array.__array_ufunc__``), and ``numpy.asarray`` converts it (``Array.__array__``), so that
the library's results come back as NumPy arrays. Both places ask this module who called and
what would fix it; the answer names the library's switch where it is off, and otherwise
:func:`arraymux.natively` and :func:`arraymux.to_numpy`.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ._devices import Device

__all__ = ["NumPyFallbackWarning", "advice", "caller", "ufunc_library", "warn_fallback"]


class NumPyFallbackWarning(UserWarning):
    """A library converted an Array to NumPy because its Array API switch is off.

    SciPy computes with Arrays only when the environment variable ``SCIPY_ARRAY_API=1`` is
    set before SciPy is first imported, and scikit-learn only under
    ``sklearn.set_config(array_api_dispatch=True)``. Without the switch they convert their
    inputs with ``numpy.asarray`` and return NumPy arrays; arraymux warns when that happens
    to an Array. Switch the library on, or convert explicitly with :func:`arraymux.to_numpy`.

    Examples
    --------
    >>> import warnings
    >>> import arraymux as xp
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", xp.NumPyFallbackWarning)  # a fallback now raises
    ...     xp.to_numpy(xp.asarray([1.0, 2.0]))  # an explicit conversion never warns
    array([1., 2.])
    """


class _Library(NamedTuple):
    name: str  # as users know it
    switch: str  # how to turn its Array API support on
    on: bool  # whether that switch is on now


def _scipy_on() -> bool:
    # SciPy reads the variable once, when it is first imported (scipy 1.15-1.17 keep it in
    # scipy._lib._array_api_override.SCIPY_ARRAY_API, earlier ones in scipy._lib._array_api).
    for name in ("scipy._lib._array_api_override", "scipy._lib._array_api"):
        value = getattr(sys.modules.get(name), "SCIPY_ARRAY_API", None)
        if value is not None:
            return value not in (False, "", "0")
    return os.environ.get("SCIPY_ARRAY_API", "") not in ("", "0")


def _sklearn_on() -> bool:
    config = sys.modules.get("sklearn._config")
    if config is None:  # scikit-learn not imported
        return False
    try:
        return bool(config.get_config()["array_api_dispatch"])
    except Exception:  # an older or newer scikit-learn: say how to switch it on
        return False


_SCIPY_SWITCH = "set the environment variable SCIPY_ARRAY_API=1 before SciPy is first imported"
_SKLEARN_SWITCH = (
    "call sklearn.set_config(array_api_dispatch=True) (with SCIPY_ARRAY_API=1 set before SciPy "
    "is first imported)"
)

# Modules between the library and the Array: NumPy itself, array-api-compat, arraymux.
_PASSING = ("numpy", "array_api_compat", "arraymux", "functools", "contextlib")


def caller() -> tuple[_Library | None, int]:
    """The library (SciPy or scikit-learn) that handed an Array to NumPy, found by walking up
    from the function that calls this one past arraymux, NumPy and array-api-compat; and the
    ``stacklevel`` at which that function's warning points at the code that called the
    library. ``(None, 0)`` where the user's own code handed it over."""
    if "scipy" not in sys.modules and "sklearn" not in sys.modules:
        return None, 0
    frame: FrameType | None = sys._getframe(1)
    library = None
    level = 1
    while frame is not None:
        module = frame.f_globals.get("__name__") or ""
        top = module.partition(".")[0]
        if top in ("scipy", "sklearn"):
            if library is None:
                library = (
                    _Library("SciPy", _SCIPY_SWITCH, _scipy_on())
                    if top == "scipy"
                    else _Library("scikit-learn", _SKLEARN_SWITCH, _sklearn_on())
                )
        elif library is not None or top not in _PASSING:
            break  # out of the library again, or code that is no library's
        frame = frame.f_back
        level += 1
    return (library, level) if library is not None else (None, 0)


def ufunc_library(ufunc: object) -> _Library | None:
    """SciPy where ``ufunc`` is one of ``scipy.special``'s ufuncs (which SciPy hands out as
    they are while its Array API support is off), else None."""
    special = sys.modules.get("scipy.special._ufuncs")
    name = getattr(ufunc, "__name__", None)
    if special is None or not isinstance(name, str) or getattr(special, name, None) is not ufunc:
        return None
    return _Library("SciPy", _SCIPY_SWITCH, _scipy_on())


def advice(library: _Library | None, device: Device) -> str:
    """What fixes an Array handed to NumPy by ``library`` (None: by the user's own code)."""
    natively = (
        "call the function on native arrays through xp.natively(fun)(x), which takes its path "
        f"for {device.backend} arrays"
    )
    if library is None:
        return (
            "In your own code, use arraymux's functions (xp.sin(x), xp.sum(x), ...), or "
            "compute in NumPy on xp.to_numpy(x). If a library made this call, switch its Array "
            "API support on (SciPy: set SCIPY_ARRAY_API=1 in the environment before SciPy is "
            "first imported; scikit-learn: sklearn.set_config(array_api_dispatch=True)), or "
            f"{natively}."
        )
    if not library.on:
        return (
            f"{library.name} computes with Arrays through the Array API only when switched "
            f"on: {library.switch}. Otherwise, {natively}, or convert with xp.to_numpy(x)."
        )
    return (
        f"{library.name}'s Array API support is on, but this function of it has no Array API "
        f"path: {natively}, or convert with xp.to_numpy(x)."
    )


def warn_fallback(device: object) -> None:
    """Warn with :class:`NumPyFallbackWarning` if SciPy or scikit-learn, with its switch
    off, is converting an Array on ``device`` to NumPy (called inside ``Array.__array__``)."""
    library, level = caller()
    if library is None or library.on:
        return
    warnings.warn(
        f"{library.name} converted an Array on {device} to NumPy, and returns NumPy arrays: "
        f"its Array API support is off. To compute on {device}, {library.switch}. To keep "
        "NumPy, convert explicitly with xp.to_numpy(x).",
        NumPyFallbackWarning,
        stacklevel=level,
    )
