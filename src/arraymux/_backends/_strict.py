"""array-api-strict adapter (the contract every adapter follows is ``_adapter.Adapter``).

array-api-strict is the standard's reference implementation. Its fake devices (``device1``,
``device2``, and ``no_float64``/``no_x64`` which lack 64-bit dtypes) let the device-mismatch and
unsupported-dtype paths be tested on a CPU-only machine.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import array_api_strict as _xp
import numpy as _np
from array_api_strict._array_object import Array as _Array

from .. import _dtypes
from . import _special_cases
from ._common import make_complex as _numpy_complex
from ._common import raise_unknown_place

if TYPE_CHECKING:
    import jax
    import torch


def namespace() -> ModuleType:
    return _xp


def places() -> list[str]:
    return [d._device for d in _xp.__array_namespace_info__().devices()]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return "CPU_DEVICE"
    if place not in places():
        raise_unknown_place("array_api_strict", place, places())
    return place


def native_device(place: str) -> _xp.Device:
    return _xp.Device(place)


def place_of_device(native: _xp.Device) -> str:
    return str(native._device)


def place_of(x: _Array) -> str:
    return str(x.device._device)


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    if place == "no_x64":
        return dtype.bits < 64 or dtype is _dtypes.complex64
    if place == "no_float64":
        return dtype not in (_dtypes.float64, _dtypes.complex128)
    return True


def default_dtypes(place: str) -> dict[str, _dtypes.DType]:
    info = _xp.__array_namespace_info__().default_dtypes(device=native_device(place))
    return {k: _dtypes.DType(str(v).rsplit(".", 1)[-1]) for k, v in info.items()}


def scalar_operand(name: str, value: complex, other: _Array, position: int) -> _Array:
    return _xp.asarray(value, dtype=other.dtype, device=other.device)


def overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    # The reference runs NumPy's kernels underneath, with NumPy's special-case deviations;
    # the fixes shared with the NumPy adapter apply here too.
    return {
        "asarray": _asarray(ns.asarray),
        "divide": _divide,
        "floor_divide": _special_cases.floor_divide(ns, ns.floor_divide),
        "expm1": _special_cases.expm1(ns, ns.expm1, _make_complex),
        "tanh": _special_cases.tanh(ns, ns.tanh, _make_complex),
        "sign": _special_cases.sign(ns, ns.sign),
        "std": _special_cases.corrected(ns.std),
        "var": _special_cases.corrected(ns.var),
        "sort": _special_cases.stable_descending(ns, ns.sort),
        "isin": _isin(ns),
        "reshape": _reshape(ns.reshape),
        "repeat": _special_cases.nonnegative_count(ns.repeat),
        "pow": _special_cases.half_powers(
            ns, ns.pow, lambda r: bool(ns.isdtype(r.dtype, "real floating"))
        ),
    }


def _reshape(base: Callable[..., _Array]) -> Callable[..., _Array]:
    """``reshape`` whose refusal of ``copy=False`` (a shape that needs a copy) is the
    ``ValueError`` that NumPy and torch raise: array-api-strict raised ``AttributeError``."""

    def reshape(x: _Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> _Array:
        try:
            return base(x, shape, copy=copy)
        except AttributeError as e:
            raise ValueError(str(e)) from None

    return reshape


def _isin(ns: ModuleType) -> Callable[..., _Array]:
    """``isin`` with ``invert``: array-api-strict 2.6 takes the keyword and leaves it unread
    (``isin([1, 2], [1], invert=True)`` gave ``[True, False]``)."""

    def isin(x1: _Array, x2: _Array, /, *, invert: bool = False) -> _Array:
        r = ns.isin(x1, x2)
        return ns.logical_not(r) if invert else r

    return isin


def _make_complex(re: _Array, im: _Array) -> _Array:
    """A complex array from its parts, keeping signed zeros, infinities and NaNs."""
    out = _numpy_complex(to_numpy(re), to_numpy(im))
    return _xp.asarray(out, device=re.device)


def _asarray(base: Callable[..., _Array]) -> Callable[..., _Array]:
    """``asarray``, refusing Python ints beyond int64 without a dtype: array-api-strict casts
    Python integer data to the default int64 and wrapped them (2**63 became -2**63)."""

    def asarray(obj: object, /, *, dtype: object = None, **kwargs: object) -> _Array:
        if dtype is None and isinstance(obj, int | list | tuple):
            import numpy as np

            huge = (
                not -(2**63) <= obj < 2**63
                if isinstance(obj, int)
                else np.asarray(obj).dtype == np.uint64
            )
            if huge:
                raise OverflowError("a Python int beyond int64 without a dtype")
        return base(obj, dtype=dtype, **kwargs)

    return asarray


def _divide(x1: _Array | float, x2: _Array | float, /) -> _Array:
    """``divide``, where integer operands divide in the device's default floating dtype, as
    NumPy, torch, JAX and dask do (array-api-strict refuses them; the standard leaves the
    result implementation-defined)."""
    arrays = [x for x in (x1, x2) if isinstance(x, _Array)]
    if arrays and all(_xp.isdtype(x.dtype, "integral") for x in arrays):
        device = arrays[0].device
        dtype = _xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
        x1, x2 = (
            _xp.astype(x, dtype)
            if isinstance(x, _Array)
            else _xp.asarray(x, dtype=dtype, device=device)
            for x in (x1, x2)
        )
    return _xp.divide(x1, x2)


def to_numpy(x: _Array) -> _np.ndarray:
    import numpy as np

    cpu = _xp.Device("CPU_DEVICE")
    if x.device != cpu:
        x = x.to_device(cpu)
    return np.asarray(x)


# Transfer hooks (see arraymux._transfer).


def fast_route(
    direction: str, place: str, other: str, other_place: str
) -> Callable[..., object] | None:
    """``to_device`` (``copy=None``) between the CPU device and NumPy, torch or JAX on the CPU,
    through NumPy's view of the memory: the memory a DLPack exchange shares (writable as the
    source is; read-only from JAX), at a fraction of the cost of array-api-strict's
    ``__dlpack__`` (Python, asked twice per exchange) or of its import of another producer."""
    if place != "CPU_DEVICE" or not (other == "numpy" or other_place.startswith("cpu")):
        return None
    routes: dict[str, Callable[..., object]]
    if direction == "export":
        routes = {"numpy": _numpy_view, "torch": _torch_view}
    else:
        routes = {"numpy": _from_numpy, "torch": _from_tensor, "jax": _from_jax}
    return routes.get(other)


# The routes below take arrays of the CPU device only (routes are per pair of devices).


def _numpy_view(x: _Array) -> _np.ndarray:
    return _np.asarray(x).view()  # not the array's own ndarray object: a reshape stays here


def _torch_view(x: _Array) -> torch.Tensor | None:
    from ._torch import shared_tensor

    # None for a read-only view (an array imported from JAX): torch would write through it.
    return shared_tensor(_np.asarray(x))


def _from_numpy(a: object) -> _Array | None:
    if type(a) is not _np.ndarray or not a.dtype.isnative:  # DLPack: native byte order only
        return None
    return _xp.from_dlpack(a)


def _from_tensor(t: torch.Tensor) -> _Array | None:
    try:
        view = t.numpy()  # not for tensors that require grad or carry a conjugate bit
    except (RuntimeError, TypeError):
        return None
    return _xp.from_dlpack(view)


def _from_jax(x: jax.Array) -> _Array | None:
    from ._jax import host_view

    view = host_view(x)  # read-only; None for a traced value
    return None if view is None else _xp.from_dlpack(view)


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> _Array:
    device = _xp.Device(place or "CPU_DEVICE")
    return _xp.from_dlpack(obj, device=device, copy=copy)


def data_ptr(x: _Array) -> int:
    import numpy as np

    return int(np.from_dlpack(x).__array_interface__["data"][0])
