"""What the tests of the transforms share: the devices the engines run for, the skip marks, the
warnings of torch's own modules to ignore, and arrays made and compared the same way.

Used by ``test_transforms.py``, ``test_transforms_closures.py``, ``test_control_flow.py`` and
``test_custom_derivatives.py``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import arraymux as xp

#: torch's own modules use torch.jit.script / script_method when torch.func.jvp (and so
#: hessian) or torch.compile's inductor first loads them, which warns that both are deprecated
#: (DeprecationWarning up to torch 2.13, FutureWarning from 2.14).
TORCH_SCRIPT_WARNINGS = [
    pytest.mark.filterwarnings(
        "ignore:`torch.jit.script(_method)?` is deprecated:DeprecationWarning"
    ),
    pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated:FutureWarning"),
]

NEEDS_TORCH = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch")
NEEDS_JAX = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax")

#: The CPU devices whose arrays the transforms run for, each skipped without its engine.
CPU_ENGINES = [
    pytest.param(d, id=d, marks=pytest.mark.skipif(importlib.util.find_spec(m) is None, reason=m))
    for d, m in (("numpy", "torch"), ("torch:cpu", "torch"), ("jax:cpu", "jax"))
]

#: The GPUs present: torch's, JAX's and CuPy's (which torch differentiates).
GPUS = [
    str(d)
    for d in xp.devices()
    if not d.simulated and (d.backend == "cupy" or d.place.split(":")[0] in ("cuda", "gpu"))
]


def arr(values: Any, device: Any, dtype: Any = np.float32) -> xp.Array:
    """``values`` as an Array on ``device``; float32 by default (JAX's default, and the backends
    stay comparable)."""
    return xp.asarray(np.asarray(values, dtype=dtype), device=device)


def close(a: Any, b: Any, tol: float = 1e-5) -> None:
    """Assert that ``a`` and ``b`` (Arrays, lists of them, or anything NumPy reads) agree to
    ``tol``, compared as float64; arrays on a GPU are copied to the host explicitly."""
    np.testing.assert_allclose(_host(a), _host(b), rtol=tol, atol=tol)


def _host(a: Any) -> np.ndarray:
    if isinstance(a, xp.Array):
        return np.asarray(xp.to_numpy(a), dtype=np.float64)
    if isinstance(a, list | tuple):
        return np.asarray([_host(v) for v in a], dtype=np.float64)
    return np.asarray(a, dtype=np.float64)
