"""Type aliases of arraymux's public signatures (array-api-compat names its own the same way).

They say what a parameter takes where the honest static type is wide: a backend's own array
or device object is any object a registered backend recognises, so those parts stay ``Any``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from ._devices import DeviceLike

if TYPE_CHECKING:
    from ._array import Array
    from ._dtypes import DType

#: A backend's own array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``...).
NativeArray: TypeAlias = Any
#: What a function that takes an array accepts: an arraymux ``Array`` or a backend's array.
ArrayLike: TypeAlias = "Array | NativeArray"
#: A dtype: an arraymux dtype, a backend's dtype object, or a dtype's name (``"float32"``).
DTypeLike: TypeAlias = "DType | str | Any"

__all__ = ["ArrayLike", "DTypeLike", "DeviceLike", "NativeArray"]
