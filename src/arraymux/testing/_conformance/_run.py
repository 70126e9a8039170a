"""Running a property on a device: the function list, support checks, and hypothesis settings."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..._devices import Device
from ..._function_table import BY_NAME, TABLE
from ._core import PROPERTIES, Draw, Unsupported
from .elementwise import check_special_cases

# ---------------------------------------------------------------------------------------------
# Running


def functions(section: str | None = None) -> list[str]:
    """The standard's function names (of one section of the function table), in its order."""
    return [e.name for e in TABLE if section is None or e.section == section]


def is_supported(name: str, device: Device) -> bool:
    if BY_NAME[name].rule == "local":
        return True
    fn = device._backend.resolve(name)
    return not getattr(fn, "__qualname__", "").startswith("_missing.")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    # Floating-point warnings of the backends (divide by zero, invalid value) are expected here.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # torch's word for NumPy's "Degrees of freedom <= 0" (std and var with correction >= N)
        warnings.filterwarnings("ignore", r"(std|var)\(\): degrees of freedom", UserWarning)
        yield


def run_property(
    name: str,
    device: Device | str,
    *,
    max_examples: int | None = None,
    profile: str | None = None,
) -> None:
    """Run the property of ``name`` on ``device``.

    Uses the hypothesis settings profile ``profile`` (default: the current one), with
    ``max_examples`` overriding its count.

    Raises
    ------
    Unsupported
        The backend has no such function.
    AssertionError (or the error the function raised)
        A draw broke the property; hypothesis's notes on the exception give the falsifying
        example.
    """
    dev = Device(device)
    if name not in PROPERTIES:
        raise KeyError(f"no property for {name!r}")
    if not is_supported(name, dev):
        raise Unsupported(f"{name} is not provided by the {dev.backend} backend")
    prop = PROPERTIES[name]
    if BY_NAME[name].section == "elementwise_functions":
        with _quiet():
            check_special_cases(name, dev)

    overrides: dict[str, Any] = {
        "deadline": None,
        "database": None,
        "suppress_health_check": list(HealthCheck),
    }
    if max_examples is not None:
        overrides["max_examples"] = max_examples

    parent = settings.get_profile(profile) if profile is not None else settings.default

    @settings(parent, **overrides)
    @given(data=st.data())
    def test(data: Any) -> None:
        with _quiet():
            prop(Draw(dev, data, name), name)

    test.__name__ = test.__qualname__ = f"{name.replace('.', '_')}_on_{str(dev).replace(':', '_')}"
    try:
        test()
    except NotImplementedError as e:
        raise Unsupported(str(e)) from e
