"""Conformance suite: the properties of ``arraymux.testing._conformance`` on every device.

Hypothesis profiles: ``ci`` (the default: few examples, derandomized so that runs repeat) and
``thorough`` (many examples), chosen with the ``ARRAYMUX_HYPOTHESIS_PROFILE`` environment
variable. Devices come from the arraymux pytest plugin (``--arraymux-devices``). Known
deviations (``arraymux.testing._deviations``) are strict expected failures.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import settings

from arraymux.testing._conformance import Unsupported, run_property
from arraymux.testing._deviations import known_deviation

PROFILE_ENV = "ARRAYMUX_HYPOTHESIS_PROFILE"

settings.register_profile("ci", max_examples=5, derandomize=True, deadline=None, database=None)
settings.register_profile("thorough", max_examples=200, deadline=None, database=None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or "function" not in callspec.params:
            continue
        reason = known_deviation(callspec.params["function"], str(callspec.params.get("device")))
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))


@pytest.fixture
def check_function() -> Callable[..., None]:
    """Run one function's property on one device; a function the backend lacks is skipped."""
    profile = os.environ.get(PROFILE_ENV, "ci")

    def run(function: str, device: object) -> None:
        try:
            run_property(function, str(device), profile=profile)
        except Unsupported as e:
            pytest.skip(f"not supported by the backend: {e}")

    return run
