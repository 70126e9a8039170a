"""Shared fixtures: one ``device`` per available device, and a clean default device."""

from __future__ import annotations

import os
import sys

# SciPy reads this when it is first imported: its array-API paths serve tests/clients/.
os.environ.setdefault("SCIPY_ARRAY_API", "1")
# The test modules share helpers (_transform_checks.py, _ordinal_checks.py) imported by name;
# the importlib import mode puts no folder on sys.path, so this one is put there once.
if os.path.dirname(__file__) not in sys.path:
    sys.path.insert(0, os.path.dirname(__file__))

import pytest

import arraymux as xp


def _available_devices() -> list[xp.Device]:
    # array-api-strict's simulated devices (device1, no_float64, ...) exercise error paths in
    # dedicated tests; the parametrized suite runs on real devices only.
    return [d for d in xp.devices() if not d.simulated]


DEVICES = _available_devices()
GPU_DEVICES = [d for d in DEVICES if d.place.split(":")[0] in ("cuda", "gpu", "mps")] + [
    d for d in DEVICES if d.backend == "cupy"
]


@pytest.fixture(params=DEVICES, ids=str)
def device(request: pytest.FixtureRequest) -> xp.Device:
    """Every device this machine has (CPU ones always; GPUs only where present)."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _reset_default_device():
    xp.set_default_device(None)
    yield
    xp.set_default_device(None)


@pytest.fixture
def staged_deviation(monkeypatch: pytest.MonkeyPatch) -> str:
    """A known deviation to report: array-api-strict's own ``isin``, which ignores
    ``invert=True``, put back in place of the adapter's mended one and listed as a
    deviation (none is listed at present). Returns its reason."""
    import array_api_strict

    from arraymux.testing import _deviations

    reason = "array-api-strict 2.6: isin ignores invert=True"
    fns = xp.Device("array_api_strict")._fns
    monkeypatch.setitem(fns, "isin", array_api_strict.isin)
    dev = _deviations.Deviation("isin", ("array_api_strict",), reason)
    monkeypatch.setattr(_deviations, "DEVIATIONS", (dev,))
    return reason
