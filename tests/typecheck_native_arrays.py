"""Static checks of :mod:`arraymux._typing`, for mypy (not collected by pytest): every backend
that ships types satisfies ``NativeArray`` and ``SupportsDLPack``, and other values do not.

Run: ``mypy tests/typecheck_native_arrays.py`` (an unneeded ignore below is an error).
"""

from __future__ import annotations

import jax
import numpy as np
import numpy.typing as npt
import torch
from array_api_strict._array_object import Array as StrictArray

import arraymux as xp
from arraymux._typing import ArrayLike, NativeArray, SupportsDLPack


def native(x: NativeArray) -> None: ...


def array_like(x: ArrayLike) -> None: ...


def dlpack(x: SupportsDLPack) -> None: ...


def backends_arrays(
    n: npt.NDArray[np.float32], t: torch.Tensor, j: jax.Array, s: StrictArray, a: xp.Array
) -> None:
    native(n)
    native(t)
    native(j)
    native(s)
    array_like(n)
    array_like(t)
    array_like(j)
    array_like(a)
    dlpack(n)
    dlpack(t)
    dlpack(j)
    dlpack(s)
    dlpack(a)
    native(np.float32(1.0))  # NumPy's scalars have a shape and a dtype too


def other_values() -> None:
    native(1.0)  # type: ignore[arg-type]
    native([1.0, 2.0])  # type: ignore[arg-type]
    array_like("x")  # type: ignore[arg-type]
