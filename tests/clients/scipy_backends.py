"""A pytest plugin that runs SciPy's own array-API tests on arraymux's namespaces as well.

SciPy's test suite parametrizes its ``xp`` fixture over the array libraries it knows (NumPy,
array-api-strict, torch, CuPy, JAX, Dask). This plugin adds arraymux's namespace bound to each
device of ``ARRAYMUX_SCIPY_DEVICES`` (default ``numpy,torch:cpu,jax:cpu``), as backends with
ids ``arraymux[<device>]``, and skips or xfails each test where SciPy's markers skip or xfail
the native backend of that device: every arraymux row then runs the tests that the native row
beside it runs, and the two can be compared. Usage::

    SCIPY_ARRAY_API=1 python -m pytest -p tests.clients.scipy_backends \\
        --pyargs scipy.signal.tests.test_filter_design -k "freqs" -q

It must be loaded before SciPy's ``conftest.py`` is imported (``-p`` does that): it replaces
that module's ``xp`` fixture before pytest reads it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

import arraymux

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import scipy.conftest as _scipy_conftest

#: SciPy's name of the native namespace of each arraymux backend (its skip markers use them).
_NATIVE_NAMES = {
    "numpy": "numpy",
    "torch": "torch",
    "jax": "jax.numpy",
    "cupy": "cupy",
    "dask": "dask.array",
    "array_api_strict": "array_api_strict",
}


def _arraymux_params() -> list[Any]:
    wanted = os.environ.get("ARRAYMUX_SCIPY_DEVICES", "numpy,torch:cpu,jax:cpu")
    out = []
    for name in (d.strip() for d in wanted.split(",") if d.strip()):
        device = arraymux.Device(name)
        out.append(
            pytest.param(
                arraymux.namespace(device=device),
                id=f"arraymux[{device}]",
                marks=pytest.mark.array_api_backends,
            )
        )
    return out


def _skip_or_xfail(request: pytest.FixtureRequest, kind: str) -> None:
    """SciPy's skip/xfail markers, read for the native backend of an arraymux namespace."""
    if f"{kind}_xp_backends" not in request.keywords:
        return
    reasons = _scipy_conftest._backends_kwargs_from_request(request, skip_or_xfail=kind)
    backend = request.param.__array_namespace_info__().default_device().backend
    reason = reasons.get(_NATIVE_NAMES.get(backend, backend))
    if reason:
        getattr(pytest, kind)(reason=reason)


_native_xp = _scipy_conftest.xp
_params = [*_scipy_conftest.xp_available_backends, *_arraymux_params()]


@pytest.fixture(params=_params)
def xp(request: pytest.FixtureRequest) -> Iterator[Any]:
    """SciPy's ``xp`` fixture, with arraymux's bound namespaces among its backends."""
    ns = request.param
    if not ns.__name__.startswith("arraymux"):
        # The native backends: SciPy's own fixture body.
        yield from _native_xp.__wrapped__(request)  # type: ignore[attr-defined]
        return
    _skip_or_xfail(request, "skip")
    _skip_or_xfail(request, "xfail")
    with _scipy_conftest.default_xp(ns):
        yield ns


_scipy_conftest.xp = xp
