"""Type aliases of arraymux's public signatures (array-api-compat names its own the same way).

A backend's own array is described by what arraymux reads of it (:class:`NativeArray`);
a backend's dtype or device object is any object a registered backend recognises, so those
parts are ``object``: arraymux only passes them on to the backend or looks them up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias

from ._backends._adapter import NativeArray
from ._devices import DeviceLike

if TYPE_CHECKING:
    from ._array import Array
    from ._dtypes import DType


class SupportsDLPack(Protocol):
    """An object that exports its memory through DLPack (what ``from_dlpack`` imports)."""

    def __dlpack__(self) -> object: ...


#: What a function that takes an array accepts: an arraymux ``Array`` or a backend's array.
ArrayLike: TypeAlias = "Array | NativeArray"
#: A dtype: an arraymux dtype, a backend's dtype object, or a dtype's name (``"float32"``).
DTypeLike: TypeAlias = "DType | str | object"

__all__ = ["ArrayLike", "DTypeLike", "DeviceLike", "NativeArray", "SupportsDLPack"]
