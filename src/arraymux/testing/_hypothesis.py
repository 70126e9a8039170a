"""Hypothesis's Array API strategies over a backend's native namespace, made once per backend:
the public strategies (``strategies``) and the conformance checks (``_conformance``) draw
through them."""

from __future__ import annotations

import warnings
from functools import cache
from typing import Any, Final

from hypothesis.errors import HypothesisWarning
from hypothesis.extra.array_api import make_strategies_namespace

from .._devices import devices

__all__ = ["API_VERSION", "namespace", "reference_namespace"]

#: The version of the standard that the strategies draw for.
API_VERSION: Final = "2024.12"


@cache
def namespace(backend: str) -> Any:
    """The hypothesis strategies namespace over a backend's native Array API namespace."""
    dev = next(d for d in devices(backend))
    with warnings.catch_warnings():
        # array-api-compat's wrapped namespaces do not look like Array API modules to hypothesis.
        warnings.simplefilter("ignore", HypothesisWarning)
        return make_strategies_namespace(dev.namespace, api_version=API_VERSION)


def reference_namespace() -> Any:
    """The strategies namespace over NumPy, where reference values and shapes are drawn."""
    return namespace("numpy")
