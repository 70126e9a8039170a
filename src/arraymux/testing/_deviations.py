"""Known deviations from the standard, found by the conformance properties.

Each entry names a function, the backends or devices it concerns (a backend name such as
``"dask"`` or a full device string), and why. An entry without ``dtypes`` is a strict expected
failure of the whole property (``arraymux conformance`` reports it as ``xfail``); an entry with
``dtypes`` leaves those dtypes out of the draws for that function on those devices, so the rest
is still checked.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["DEVIATIONS", "Deviation", "excluded_dtypes", "known_deviation"]


class Deviation(NamedTuple):
    function: str
    devices: tuple[str, ...]
    reason: str
    dtypes: tuple[str, ...] = ()


_ALL = ("numpy", "torch", "jax", "cupy", "dask", "array_api_strict")

#: None at present (array-api-strict 2.6's ``isin``, which ignored ``invert=True``, is mended
#: by its adapter).
DEVIATIONS: tuple[Deviation, ...] = ()


def _concerns(dev: Deviation, device: str) -> bool:
    return device in dev.devices or device.partition(":")[0] in dev.devices


def known_deviation(function: str, device: str) -> str | None:
    """The reason ``function`` is expected to fail on ``device``, or None."""
    for dev in DEVIATIONS:
        if dev.function == function and not dev.dtypes and _concerns(dev, device):
            return dev.reason
    return None


def excluded_dtypes(function: str, device: str) -> frozenset[str]:
    """Dtype names left out of the draws of ``function`` on ``device``."""
    out: set[str] = set()
    for dev in DEVIATIONS:
        if dev.function == function and dev.dtypes and _concerns(dev, device):
            out.update(dev.dtypes)
    return frozenset(out)
