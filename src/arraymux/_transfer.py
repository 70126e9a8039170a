"""Moving arrays between devices and backends, and reading them on the host."""

from __future__ import annotations

from typing import Any

from ._array import Array
from ._devices import Device
from ._dispatch import dtype_of, not_an_array, operand, unsupported, wrap

__all__ = ["to_device", "to_numpy"]


def _operand_or_raise(x: Any, fname: str, pos: int = 0) -> tuple[Any, Device]:
    op = operand(x)
    if op is None:
        raise not_an_array(fname, pos, x)
    return op


def to_device(
    x: Any, device: Device | str, /, *, stream: Any = None, copy: bool | None = None
) -> Array:
    """``x`` on ``device``, which may belong to another backend.

    Same backend: the backend's own device move. Another backend: DLPack when the target can
    use the memory as it is, else one copy through host memory.

    Parameters
    ----------
    x
        An Array or a native array.
    device
        The target :class:`Device` or device string.
    copy
        True always copies; False raises if a copy would be needed; None copies only when
        needed.

    Raises
    ------
    UnsupportedDTypeError
        The target cannot hold ``x``'s dtype.
    ValueError
        ``copy=False`` but the move needs a copy.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.asarray([1.0, 2.0])
    >>> xp.to_device(x, "numpy:cpu") is x
    True
    """
    native, src = _operand_or_raise(x, "to_device")
    target = Device(device)
    dt = dtype_of(native, src)
    if not target.supports(dt):
        raise unsupported(dt, target, "to_device")
    if target is src:
        if copy:
            return wrap(src._fns["asarray"](native, copy=True), src)
        return x if type(x) is Array else wrap(native, src)
    if target._backend is src._backend:
        import array_api_compat

        moved = array_api_compat.to_device(native, target.native, stream=stream)
        return wrap(moved, target)
    host = src._backend.adapter.to_numpy(native)
    if copy is False:
        raise ValueError(
            f"arraymux.to_device: moving from {src} to {target} needs a copy, but copy=False "
            "was given."
        )
    r = target._fns["asarray"](host, device=target.native, copy=True)
    return wrap(r, target)


def to_numpy(*arrays: Any) -> Any:
    """The arrays as NumPy arrays on the host: one array gives one ndarray, several a tuple.

    Dask arrays are computed; GPU arrays are copied to the host.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.to_numpy(xp.asarray([1, 2]))
    array([1, 2])
    """
    if not arrays:
        raise TypeError("to_numpy needs at least one array")
    out = []
    for i, x in enumerate(arrays):
        native, src = _operand_or_raise(x, "to_numpy", i)
        out.append(src._backend.adapter.to_numpy(native))
    return out[0] if len(arrays) == 1 else tuple(out)


def repr_values(x: Array) -> str:
    import numpy as np

    try:
        values = x._device._backend.adapter.to_numpy(x._native)
    except Exception:
        return "<not readable here>"
    return np.array2string(np.asarray(values), separator=", ", prefix="Array(")


_HOST_BACKENDS = frozenset({"numpy", "dask", "array_api_strict"})


def host_array_for_numpy(x: Array, dtype: Any, copy: bool | None) -> Any:
    """NumPy's ``__array__`` protocol: only for arrays already in host memory."""
    import numpy as np

    d = x._device
    if d._name not in _HOST_BACKENDS and d._place.split(":")[0] != "cpu":
        raise TypeError(
            f"cannot convert an array on {d} to NumPy implicitly; copy it to the host "
            "explicitly with arraymux.to_numpy(x)."
        )
    out = d._backend.adapter.to_numpy(x._native)
    if dtype is not None:
        out = out.astype(dtype, copy=False)
    if copy:
        out = np.array(out, copy=True)
    return out
