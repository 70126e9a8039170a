"""Type aliases of arraymux's public signatures (array-api-compat names its own the same way).

They say what a parameter takes where the honest static type is wide: a backend's own array
or device object is any object a registered backend recognises, so those parts stay ``Any``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from ._array import Array
    from ._devices import Device
    from ._dtypes import DType

#: A backend's own array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``...).
NativeArray: TypeAlias = Any
#: What a function that takes an array accepts: an arraymux ``Array`` or a backend's array.
ArrayLike: TypeAlias = "Array | NativeArray"
#: A device: a ``Device``, a device string (``"torch:cuda:1"``) or a backend's device object.
DeviceLike: TypeAlias = "Device | str | Any"
#: A dtype: an arraymux dtype, a backend's dtype object, or a dtype's name (``"float32"``).
DTypeLike: TypeAlias = "DType | str | Any"

__all__ = ["ArrayLike", "DTypeLike", "DeviceLike", "NativeArray"]
