"""``__array_namespace_info__``: what arraymux and this machine offer."""

from __future__ import annotations

from typing import Any

from . import _dtypes
from ._devices import Device, devices, get_default_device, resolve_device
from ._typing import DeviceLike

__all__ = ["__array_namespace_info__"]


class Info:
    """The inspection namespace of the standard, over every backend.

    Examples
    --------
    >>> import arraymux as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.default_dtypes(device="numpy")["real floating"]
    arraymux.float64
    """

    __module__ = "arraymux"

    def __init__(self, api_version: str = "2025.12") -> None:
        self._api_version = api_version

    def capabilities(self) -> dict[str, Any]:
        """Boolean indexing and data-dependent shapes (true for the default device's backend,
        false on lazy backends); ``max dimensions`` is None (no fixed limit)."""
        lazy = get_default_device()._backend.spec.lazy
        return {
            "boolean indexing": not lazy,
            "data-dependent shapes": not lazy,
            "max dimensions": None,
        }

    def default_device(self) -> Device:
        return get_default_device()

    def devices(self) -> tuple[Device, ...] | list[Device]:
        """Every available device: a tuple (a list for the 2024.12 namespace)."""
        devs = devices()
        return devs if self._api_version < "2025.12" else tuple(devs)

    def default_dtypes(self, *, device: DeviceLike | None = None) -> dict[str, _dtypes.DType]:
        d = resolve_device(device, "Info.default_dtypes")
        return dict(d._backend.adapter.default_dtypes(d._place))

    def dtypes(
        self, *, device: DeviceLike | None = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, _dtypes.DType]:
        d = resolve_device(device, "Info.dtypes")
        out = {dt.name: dt for dt in _dtypes.ALL_DTYPES if d.supports(dt)}
        if kind is None:
            return out
        kinds = kind if isinstance(kind, tuple) else (kind,)
        groups: set[str] = set()
        for k in kinds:
            try:
                groups |= _dtypes.KIND_GROUPS[k]
            except KeyError:
                raise ValueError(
                    f"arraymux.Info.dtypes: unknown dtype kind {k!r}; the kinds are "
                    f"{', '.join(_dtypes.KIND_GROUPS)}."
                ) from None
        return {n: dt for n, dt in out.items() if dt.kind in groups}


def __array_namespace_info__() -> Info:
    return Info()


def _info_2024_12() -> Info:
    return Info("2024.12")


_info_2024_12.__name__ = _info_2024_12.__qualname__ = "__array_namespace_info__"
