"""A tiny library written once against arraymux; its tests run on every device."""

from __future__ import annotations

import arraymux as xp


def softmax(x: xp.Array, axis: int = -1) -> xp.Array:
    """The softmax of ``x`` along ``axis``, stable for large inputs."""
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    e = xp.exp(shifted)
    return e / xp.sum(e, axis=axis, keepdims=True)


def rms(x: xp.Array) -> xp.Array:
    """The root mean square of ``x``."""
    return xp.sqrt(xp.mean(x * x))
