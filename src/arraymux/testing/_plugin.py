"""The arraymux pytest plugin, loaded through the ``pytest11`` entry point.

It gives tests two fixtures and two markers:

- ``xp``: the :mod:`arraymux` namespace;
- ``device``: an :class:`arraymux.Device`; a test that asks for it runs once per selected
  device, with ids such as ``torch:cpu``;
- ``@pytest.mark.skip_devices(*names, reason=...)`` and
  ``@pytest.mark.xfail_devices(*names, reason=...)``: a name is a backend (``"jax"``) or a
  device (``"torch:cpu"``).

Devices come from ``--arraymux-devices=numpy,torch:cpu``, else the ``ARRAYMUX_TEST_DEVICES``
environment variable, else every device of :func:`arraymux.devices` except the simulated
extra devices of array-api-strict (``device1``, ``device2``, ``no_float64``, ``no_x64``, which
can be named explicitly).

Nothing here imports a backend until a test uses the ``device`` fixture, and a project whose
own ``device`` fixture overrides this one is left alone.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

ENV_VAR = "ARRAYMUX_TEST_DEVICES"
_DEVICES_KEY = pytest.StashKey[list[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("arraymux")
    group.addoption(
        "--arraymux-devices",
        default=None,
        metavar="DEVICES",
        help="comma-separated arraymux devices for the 'device' fixture, e.g. "
        f"numpy,torch:cpu (default: ${ENV_VAR}, else every available device)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "skip_devices(*names, reason=None): skip on these arraymux backends or devices",
    )
    config.addinivalue_line(
        "markers",
        "xfail_devices(*names, reason=None, strict=None): expected failure on these "
        "arraymux backends or devices",
    )


def selected_devices(config: pytest.Config) -> list[str]:
    """The device strings the ``device`` fixture runs over (computed once per session)."""
    if _DEVICES_KEY in config.stash:
        return config.stash[_DEVICES_KEY]
    from arraymux import Device, devices

    text = config.getoption("arraymux_devices", None) or os.environ.get(ENV_VAR, "")
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names:
        out = []
        for n in names:
            try:
                out.append(str(Device(n)))
            except Exception as e:
                raise pytest.UsageError(f"--arraymux-devices: {n!r}: {e}") from None
    else:
        out = [str(d) for d in devices() if not d.simulated]
    result = list(dict.fromkeys(out))
    config.stash[_DEVICES_KEY] = result
    return result


def _uses_our_device_fixture(metafunc: pytest.Metafunc) -> bool:
    defs = getattr(metafunc, "_arg2fixturedefs", {}).get("device")
    if not defs:
        return False
    return getattr(defs[-1].func, "__module__", None) == __name__


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "device" not in metafunc.fixturenames or not _uses_our_device_fixture(metafunc):
        return
    devs = selected_devices(metafunc.config)
    metafunc.parametrize("device", devs, indirect=True, ids=devs)


def matches(name: str, device: str) -> bool:
    """Whether a marker's ``name`` (a backend or a device) names ``device``."""
    if name == device:
        return True
    from arraymux import Device
    from arraymux._backends import canonical_name

    backend = device.partition(":")[0]
    if ":" not in name and canonical_name(name) == backend:
        return True
    try:
        return Device(name) == Device(device)
    except Exception:
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        dev = None if callspec is None else callspec.params.get("device")
        if not isinstance(dev, str):
            continue
        for mark in item.iter_markers("skip_devices"):
            if any(matches(n, dev) for n in mark.args):
                reason = mark.kwargs.get("reason") or f"skipped on {dev}"
                item.add_marker(pytest.mark.skip(reason=reason))
        for mark in item.iter_markers("xfail_devices"):
            if any(matches(n, dev) for n in mark.args):
                kwargs: dict[str, Any] = {"reason": mark.kwargs.get("reason") or f"fails on {dev}"}
                if mark.kwargs.get("strict") is not None:
                    kwargs["strict"] = mark.kwargs["strict"]
                item.add_marker(pytest.mark.xfail(**kwargs))


@pytest.fixture(scope="session")
def xp() -> Any:
    """The :mod:`arraymux` namespace (session-scoped, so hypothesis tests may use it)."""
    import arraymux

    return arraymux


@pytest.fixture(scope="session")
def device(request: pytest.FixtureRequest) -> Any:
    """An :class:`arraymux.Device`: each selected device in turn (ids like ``torch:cpu``)."""
    import arraymux

    param = getattr(request, "param", None)
    if param is None:
        return arraymux.get_default_device()
    return arraymux.Device(param)
