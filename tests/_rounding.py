"""Which devices round float32 division and square roots exactly, and the comparison of draws
that follows from it.

XLA's GPU backend divides float32 numbers with PTX's ``div.full.f32`` (within 1 ulp; about 29 %
of random quotients differ from the correctly rounded ones on an H100) and takes their square
roots approximately (about 17 % differ), for ``jax.random`` as for arraymux. Every other device
rounds both exactly, so draws there are the same bits; on ``jax:gpu`` floats are within a few
ulp of them, integers and uniform floats still the same bits.
"""

from __future__ import annotations

import numpy as np

import arraymux as xp

#: The largest distance of a float on a device that divides approximately, in units of
#: ``eps * max(|x|, 1)``: a few ulp, up to 6.4 measured in truncated normals' tails (on an
#: H100), where the inverse error function magnifies the error of ``erf`` at the bounds.
APPROXIMATE_TOLERANCE = 8


def rounds_exactly(device: xp.Device) -> bool:
    """Whether ``device`` rounds float32 division and square roots as IEEE 754 does."""
    return not (device.backend == "jax" and not device.place.startswith("cpu"))


def assert_same_draws(got: np.ndarray, want: np.ndarray, device: xp.Device, name: str) -> None:
    """``got`` (drawn on ``device``) holds the bits or the values of ``want``; on a device that
    divides approximately, floats may be within :data:`APPROXIMATE_TOLERANCE` instead."""
    if got.tobytes() == want.tobytes() or got.tolist() == want.tolist():
        return  # the same bits (torch's words are int32, NumPy's uint32), or the same values
    assert got.dtype == want.dtype and got.dtype.kind == "f", f"{name} differs on {device}"
    assert not rounds_exactly(device), f"{name} differs on {device}"
    assert got.shape == want.shape, name
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
    g, w = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(w)
    np.testing.assert_array_equal(g[~finite], w[~finite], err_msg=name)
    scale = np.finfo(got.dtype).eps * np.maximum(np.abs(w[finite]), 1.0)
    err = np.abs(g[finite] - w[finite]) / scale
    assert err.max(initial=0) <= APPROXIMATE_TOLERANCE, f"{name}: {err.max():.1f} on {device}"
