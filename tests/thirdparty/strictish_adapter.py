"""A third-party backend, as another package would write it: array-api-strict under the name
``strictish``, with only the hooks that ``arraymux._backends._adapter.Adapter`` requires.

``tests/test_adapter_contract.py`` installs it through the ``arraymux.backends`` entry point.
"""

from __future__ import annotations

from typing import Any

import array_api_strict as _xp
import numpy as np

from arraymux._backends import BackendSpec

SPEC = BackendSpec(
    name="strictish",
    module="array_api_strict",
    array_types=(("array_api_strict._array_object", "Array"),),
    adapter="strictish_adapter",
    extra="strictish",
    distribution="strictish",
)


def namespace() -> Any:
    return _xp


def places() -> list[str]:
    return ["CPU_DEVICE"]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu", "CPU_DEVICE"):
        return "CPU_DEVICE"
    raise ValueError(f"strictish has no device {place!r}; it has CPU_DEVICE")


def native_device(place: str) -> Any:
    return _xp.Device(place)


def place_of_device(native: Any) -> str:
    return str(native._device)


def place_of(x: Any) -> str:
    return str(x.device._device)


def supports_dtype(dtype: Any, place: str) -> bool:
    return True


def to_numpy(x: Any) -> Any:
    return np.asarray(x)
