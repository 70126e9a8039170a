"""Dask adapter (the contract every adapter follows is ``_adapter.Adapter``).

Dask arrays are lazy: arraymux builds the graph and computes only when a value is read
(``to_numpy``, ``bool()``, ``float()``, ``repr``). The device string is plain ``"dask"``.
"""

from __future__ import annotations

from typing import Any

import array_api_compat.dask.array as _xp

from .. import _dtypes
from ._numpy import array_dtype as array_dtype
from ._numpy import dtype_from_numpy, raise_unknown_place


def namespace() -> Any:
    return _xp


def places() -> list[str]:
    return [""]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return ""
    raise_unknown_place("dask", place, ["cpu"])
    raise AssertionError


def native_device(place: str) -> Any:
    return "cpu"


def place_of_device(native: Any) -> str:
    return ""


def place_of(x: Any) -> str:
    return ""


def dtype_from_native(obj: Any) -> _dtypes.DType | None:
    return dtype_from_numpy(obj)


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    return True


def to_numpy(x: Any) -> Any:
    import numpy as np

    return np.asarray(x.compute())


# Transfer hooks (see arraymux._transfer). Dask arrays are lazy: moving one away computes it
# (no copy of existing memory); moving to Dask wraps the data lazily in chunks with
# dask.array.from_array, which takes a copy of NumPy input (so nothing is shared).


def export(x: Any) -> tuple[Any, bool]:
    return to_numpy(x), False


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> Any:
    raise BufferError("dask.array.from_array copies its input")


def from_host(a: Any, place: str) -> Any:
    import dask.array as da

    return da.from_array(a, chunks="auto", name=False)


def to_host_many(xs: list[Any]) -> list[Any]:
    import dask
    import numpy as np

    return [np.asarray(r) for r in dask.compute(*xs)]
