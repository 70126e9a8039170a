"""JAX adapter (the interface is described in ``_numpy.py``).

``jax.numpy`` is itself an Array API namespace. JAX's arrays are immutable (``__setitem__`` is
emulated by :class:`arraymux.Array` with ``.at[].set``), and 64-bit dtypes exist only with
``jax_enable_x64``: without it arraymux raises UnsupportedDTypeError instead of letting JAX
narrow float64 to float32.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from .. import _dtypes
from ._numpy import dtype_from_numpy, raise_unknown_place

_PLATFORM_ALIASES = {"cuda": "gpu", "rocm": "gpu"}


def namespace() -> Any:
    return jnp


def overrides(ns: Any) -> dict[str, Any]:
    return {}


def x64_enabled() -> bool:
    return bool(jax.config.read("jax_enable_x64"))


def places() -> list[str]:
    out = []
    for platform in ("cpu", "gpu", "tpu"):
        try:
            devs = jax.devices(platform)
        except RuntimeError:
            continue
        out += [f"{platform}:{d.id}" for d in devs]
    return out


def parse_place(place: str | None) -> str:
    if place in (None, ""):
        return place_of_device(jax.devices()[0])
    platform, _, index = place.partition(":")
    platform = _PLATFORM_ALIASES.get(platform, platform)
    canon = f"{platform}:{index or 0}"
    if canon not in places():
        raise_unknown_place("jax", place, places())
    return canon


def native_device(place: str) -> Any:
    platform, _, index = place.partition(":")
    for d in jax.devices(platform):
        if d.id == int(index):
            return d
    raise_unknown_place("jax", place, places())


def place_of_device(native: Any) -> str:
    return f"{native.platform}:{native.id}"


def place_of(x: Any) -> str:
    try:
        dev = x.device
    except Exception:  # a tracer has no concrete device
        return place_of_device(jax.devices()[0])
    if not hasattr(dev, "platform"):  # sharded arrays report a Sharding
        dev = next(iter(x.devices()))
    return place_of_device(dev)


def dtype_from_native(obj: Any) -> _dtypes.DType | None:
    return dtype_from_numpy(obj)


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    return dtype.bits < 64 or dtype is _dtypes.complex64 or x64_enabled()


def unsupported_hint(dtype: _dtypes.DType) -> str:
    return (
        f"JAX holds {dtype} only with 64-bit mode on: call "
        "jax.config.update('jax_enable_x64', True) at startup (or set JAX_ENABLE_X64=1), "
        f"or use a 32-bit dtype."
    )


def default_dtypes(place: str) -> dict[str, _dtypes.DType]:
    if x64_enabled():
        return {
            "real floating": _dtypes.float64,
            "complex floating": _dtypes.complex128,
            "integral": _dtypes.int64,
            "indexing": _dtypes.int64,
        }
    return {
        "real floating": _dtypes.float32,
        "complex floating": _dtypes.complex64,
        "integral": _dtypes.int32,
        "indexing": _dtypes.int32,
    }


def scalar_operand(name: str, value: Any, other: Any, position: int) -> Any:
    return value


def to_numpy(x: Any) -> Any:
    import numpy as np

    if isinstance(x, jax.core.Tracer):
        raise TypeError(
            "cannot read a traced JAX value on the host inside jax.jit/vmap/grad; "
            "return it from the transformed function instead."
        )
    return np.asarray(x)


def setitem(x: Any, key: Any, value: Any) -> Any:
    """JAX arrays are immutable: the updated array replaces the wrapped one."""
    return x.at[key].set(value)


# Transfer hooks (see arraymux._transfer).


def memory(place: str) -> tuple[str, int]:
    platform, _, index = place.partition(":")
    if platform == "cpu":
        return ("cpu", 0)
    return ("cuda" if platform == "gpu" else platform, int(index))


def traced(x: Any) -> bool:
    return isinstance(x, jax.core.Tracer)


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> Any:
    # Zero-copy only for row-major buffers aligned to 64 bytes; copy=False raises otherwise.
    # copy=True is done here: from_dlpack(copy=True) can still return a view of host memory.
    device = None if place is None else native_device(place)
    out = jax.dlpack.from_dlpack(obj, device=device, copy=None if copy else copy)
    return jnp.array(out, copy=True) if copy else out


def from_host(a: Any, place: str) -> Any:
    return jax.device_put(a, native_device(place))  # one copy into a buffer of JAX's own


def data_ptr(x: Any) -> int:
    return int(x.unsafe_buffer_pointer())


def to_host_many(xs: list[Any]) -> list[Any]:
    for x in xs:
        if traced(x):
            to_numpy(x)  # raises the error for traced values
    return list(jax.device_get(xs))


def _register_array_pytree() -> None:
    # arraymux.Array is a JAX pytree node, so jax.jit/vmap/vjp accept functions of Arrays.
    from .._transforms_jax import register_pytree

    register_pytree()


_register_array_pytree()
