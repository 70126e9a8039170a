"""Hypothesis strategies that take an arraymux device.

They are built on :mod:`hypothesis.extra.array_api`: arrays are drawn through the strategies
namespace of the device's own library and wrapped with :func:`arraymux.asarray`, so every draw
is an :class:`arraymux.Array` on the requested device.

Examples
--------
>>> import arraymux as xp
>>> from hypothesis import given
>>> from arraymux.testing import strategies as axst
>>> @given(x=axst.arrays("numpy", "float32", axst.shapes(max_dims=2)))
... def test_abs_is_not_negative(x):
...     assert not xp.any(xp.abs(x) < 0)
>>> test_abs_is_not_negative()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from .._backends._adapter import NativeArray
from .._devices import Device
from .._devices import devices as _all_devices
from .._dtypes import ALL_DTYPES, KIND_GROUPS, DType
from ._hypothesis import namespace, reference_namespace

__all__ = ["arrays", "devices", "dtypes", "mutually_broadcastable_shapes", "shapes"]


def _as_dtype(dtype: DType | str | Any) -> DType:
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        return DType(dtype)
    from .._dtype_rules import as_dtype

    return as_dtype(dtype)


def devices(*, backends: Sequence[str] | None = None) -> st.SearchStrategy[Device]:
    """The devices of this machine (``arraymux.devices()``), optionally of some backends.

    Parameters
    ----------
    backends
        Backend names to keep, e.g. ``["numpy", "torch"]``; default: all installed.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy that draws :class:`arraymux.Device` objects.

    Raises
    ------
    ValueError
        No device of ``backends`` is available here.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import strategies as axst
    >>> from hypothesis import given
    >>> @given(axst.devices(backends=["numpy"]))
    ... def check(device):
    ...     assert device == xp.Device("numpy:cpu")
    >>> check()
    """
    devs = _all_devices()
    if backends is not None:
        devs = [d for d in devs if d.backend in backends]
    if not devs:
        raise ValueError(f"no device of the backends {backends!r} is available here")
    return st.sampled_from(devs)


def dtypes(
    device: Device | str, kind: str | tuple[str, ...] | None = None
) -> st.SearchStrategy[DType]:
    """arraymux dtypes that ``device`` can hold, optionally of some kinds.

    Parameters
    ----------
    device
        A :class:`arraymux.Device` or device string.
    kind
        A kind of :func:`arraymux.isdtype` (``"bool"``, ``"signed integer"``,
        ``"unsigned integer"``, ``"integral"``, ``"real floating"``, ``"complex floating"``,
        ``"numeric"``) or a tuple of them; default: every dtype.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy that draws arraymux dtypes.

    Raises
    ------
    ValueError
        An unknown kind, or ``device`` holds no dtype of ``kind``.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import strategies as axst
    >>> axst.dtypes("numpy", kind="real floating")
    sampled_from([arraymux.float32, arraymux.float64])
    """
    dev = Device(device)
    kinds: tuple[str, ...] = (kind,) if isinstance(kind, str) else tuple(kind or ())
    groups: set[str] = set()
    for k in kinds:
        try:
            groups |= KIND_GROUPS[k]
        except KeyError:
            raise ValueError(
                f"unknown dtype kind {k!r}; the kinds are {list(KIND_GROUPS)}"
            ) from None
    out = [dt for dt in ALL_DTYPES if dev.supports(dt) and (not groups or dt.kind in groups)]
    if not out:
        raise ValueError(f"{dev} holds no dtype of kind {kind!r}")
    return st.sampled_from(out)


def shapes(
    *,
    min_dims: int = 1,
    max_dims: int | None = None,
    min_side: int = 1,
    max_side: int | None = None,
) -> st.SearchStrategy[tuple[int, ...]]:
    """Array shapes (tuples of ints), as ``hypothesis.extra.array_api``'s ``array_shapes``.

    Parameters
    ----------
    min_dims
        Smallest number of dimensions; default 1.
    max_dims
        Largest number of dimensions; default ``min_dims + 2``.
    min_side
        Smallest size of a dimension; default 1.
    max_side
        Largest size of a dimension; default ``min_side + 5``.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy that draws tuples of ints.

    Examples
    --------
    >>> from hypothesis import given
    >>> from arraymux.testing import strategies as axst
    >>> @given(axst.shapes(min_dims=2, max_dims=2))
    ... def check(shape):
    ...     assert len(shape) == 2
    >>> check()
    """
    return reference_namespace().array_shapes(
        min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    )


def mutually_broadcastable_shapes(
    num_shapes: int,
    *,
    base_shape: tuple[int, ...] = (),
    min_dims: int = 0,
    max_dims: int | None = None,
    min_side: int = 1,
    max_side: int | None = None,
) -> st.SearchStrategy[Any]:
    """Shapes that broadcast together: draws have ``.input_shapes`` and ``.result_shape``.

    As ``hypothesis.extra.array_api``'s ``mutually_broadcastable_shapes``.

    Parameters
    ----------
    num_shapes
        Number of shapes in each draw.
    base_shape
        Shape that every drawn shape also broadcasts against; default ``()``.
    min_dims
        Smallest number of dimensions of a drawn shape; default 0.
    max_dims
        Largest number of dimensions of a drawn shape; default
        ``max(len(base_shape), min_dims) + 2``.
    min_side
        Smallest size of a dimension not aligned with ``base_shape``; default 1.
    max_side
        Largest size of a dimension not aligned with ``base_shape``; default 2 more than
        the largest aligned dimension.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy that draws named tuples ``(input_shapes, result_shape)``.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import strategies as axst
    >>> from hypothesis import given
    >>> @given(axst.mutually_broadcastable_shapes(2))
    ... def check(s):
    ...     assert xp.broadcast_shapes(*s.input_shapes) == s.result_shape
    >>> check()
    """
    return reference_namespace().mutually_broadcastable_shapes(
        num_shapes,
        base_shape=base_shape,
        min_dims=min_dims,
        max_dims=max_dims,
        min_side=min_side,
        max_side=max_side,
    )


def arrays(
    device: Device | str,
    dtype: DType | str | Any | st.SearchStrategy[Any],
    shape: int | tuple[int, ...] | st.SearchStrategy[tuple[int, ...]],
    *,
    elements: st.SearchStrategy[Any] | Mapping[str, Any] | None = None,
    unique: bool = False,
) -> st.SearchStrategy[Any]:
    """arraymux Arrays on ``device``.

    Parameters
    ----------
    device
        A :class:`arraymux.Device` or device string.
    dtype
        An arraymux dtype, its name (``"float32"``), a backend's dtype, or a strategy of these.
    shape
        An int, a tuple of ints, or a strategy of shapes (see :func:`shapes`).
    elements
        A strategy of Python scalars for the elements, or keyword arguments for hypothesis's
        ``from_dtype`` such as ``{"min_value": 0, "allow_nan": False}``.
    unique
        Whether the elements must all differ.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy that draws :class:`arraymux.Array` objects on ``device``.

    Raises
    ------
    arraymux.UnsupportedDTypeError
        When drawing, if ``device`` cannot hold the dtype.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import strategies as axst
    >>> from hypothesis import given
    >>> @given(axst.arrays("numpy", "int8", (2, 3), elements={"min_value": 0}))
    ... def check(x):
    ...     assert (x.shape, x.dtype, x.device) == ((2, 3), xp.int8, xp.Device("numpy"))
    ...     assert bool(xp.all(x >= 0))
    >>> check()
    """
    dev = Device(device)
    if isinstance(dtype, st.SearchStrategy):
        return dtype.flatmap(lambda dt: arrays(dev, dt, shape, elements=elements, unique=unique))
    dt = _as_dtype(dtype)
    if not dev.supports(dt):
        from .._errors import unsupported

        raise unsupported(dt, dev, "testing.strategies.arrays")
    xps = namespace(dev.backend)
    native_dtype = dev._backend.to_native_dtype[dt]
    return xps.arrays(native_dtype, shape, elements=elements, unique=unique).map(
        lambda native: _wrap(native, dev)
    )


def _wrap(native: NativeArray, device: Device) -> Any:
    import arraymux

    x = arraymux.asarray(native)
    if x.device != device:
        x = arraymux.to_device(x, device)
    return x
