"""Testing tools for code written against arraymux.

- :func:`assert_close` and :func:`assert_same_device` compare arrays across backends;
- a pytest plugin (loaded automatically once arraymux is installed) gives every test the
  fixtures ``xp`` and ``device`` and the markers ``skip_devices`` and ``xfail_devices``;
- :mod:`arraymux.testing.strategies` holds hypothesis strategies that take a device.

Examples
--------
>>> import arraymux as xp
>>> from arraymux.testing import assert_close
>>> assert_close(xp.sin(xp.asarray([0.0, 1.0])), xp.asarray([0.0, 0.8414709848078965]))
"""

from __future__ import annotations

from typing import Any

__all__ = ["assert_close", "assert_same_device", "default_tolerance"]

# (rtol, atol) by dtype name; integers and bool compare exactly.
_TOLERANCES: dict[str, tuple[float, float]] = {
    "float32": (1.3e-6, 1e-5),
    "complex64": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex128": (1e-7, 1e-7),
}


def default_tolerance(dtype: object) -> tuple[float, float]:
    """The ``(rtol, atol)`` that :func:`assert_close` uses for ``dtype``.

    Parameters
    ----------
    dtype
        An arraymux dtype, a backend's dtype, or a dtype name.

    Returns
    -------
    tuple of float
        ``(1.3e-6, 1e-5)`` for float32 and complex64, ``(1e-7, 1e-7)`` for float64 and
        complex128, ``(0, 0)`` (exact) for integers and bool.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import default_tolerance
    >>> default_tolerance(xp.float32)
    (1.3e-06, 1e-05)
    >>> default_tolerance("int8")
    (0.0, 0.0)
    """
    return _TOLERANCES.get(_dtype_name(dtype), (0.0, 0.0))


def _dtype_name(dtype: Any) -> str:
    if isinstance(dtype, str):
        return dtype
    name = getattr(dtype, "name", None)
    if isinstance(name, str):
        return name
    import numpy as np

    try:
        return np.dtype(dtype).name
    except TypeError:
        return str(dtype).rsplit(".", 1)[-1]


def _describe(x: Any) -> tuple[Any, str | None, Any]:
    """``(numpy value, dtype name or None, Device or None)`` of an array or a scalar."""
    import numpy as np

    from .._array import operand
    from .._dtype_rules import dtype_of
    from .._transfer import to_numpy

    op = operand(x)
    if op is not None:
        native, dev = op
        value = np.asarray(to_numpy(x))
        name = dtype_of(native, dev).name
        # A plain NumPy array is a reference value: it has no device to compare.
        device = None if type(x) is np.ndarray else dev
        return value, name, device
    value = np.asarray(x)
    return value, (value.dtype.name if isinstance(x, np.generic) else None), None


def assert_close(
    actual: Any,
    desired: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
    check_device: bool = True,
) -> None:
    """Assert that two arrays, possibly of different backends, hold close values.

    Both are read on the host with :func:`arraymux.to_numpy`. Shapes must be equal (no
    broadcasting); NaNs compare equal to NaNs, infinities to infinities of the same sign.

    Parameters
    ----------
    actual, desired
        arraymux Arrays, native arrays of any backend, NumPy arrays or Python scalars. A
        NumPy array or a scalar as ``desired`` is a reference value: its dtype is checked
        only if it is an array, its device never.
    rtol, atol
        Relative and absolute tolerance; by default those of :func:`default_tolerance` for
        ``actual``'s dtype (exact for integers and bool).
    check_dtype
        Whether the dtypes must be equal.
    check_device
        Whether both must live on the same device (when both have one).

    Returns
    -------
    None
        Returns only if the arrays are close.

    Raises
    ------
    AssertionError
        Shapes, dtypes, devices or values differ; the message says where and by how much.

    Examples
    --------
    >>> import arraymux as xp
    >>> import numpy as np
    >>> from arraymux.testing import assert_close
    >>> x = xp.asarray([1.0, 2.0], dtype=xp.float32)
    >>> assert_close(x + 1e-7, np.asarray([1.0, 2.0], dtype=np.float32))
    >>> assert_close(x, x + 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: arrays not close: 2 of 2 elements differ (rtol=1.3e-06, atol=1e-05); ...
    """
    import numpy as np

    a, a_dtype, a_dev = _describe(actual)
    d, d_dtype, d_dev = _describe(desired)
    if a.shape != d.shape:
        raise AssertionError(f"shapes differ: actual {a.shape}, desired {d.shape}")
    if check_dtype and a_dtype is not None and d_dtype is not None and a_dtype != d_dtype:
        raise AssertionError(f"dtypes differ: actual {a_dtype}, desired {d_dtype}")
    if check_device and a_dev is not None and d_dev is not None and a_dev != d_dev:
        raise AssertionError(
            f"devices differ: actual on {a_dev}, desired on {d_dev}; "
            "pass check_device=False to compare values across devices."
        )
    default_rtol, default_atol = default_tolerance(a_dtype or a.dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    if a.dtype.kind in "biu" and d.dtype.kind in "biu" and rtol == 0 and atol == 0:
        ok = np.asarray(a == d)
    else:
        with np.errstate(all="ignore"):
            if a.dtype.kind == "c" or d.dtype.kind == "c":
                # Real and imaginary parts separately, so that an infinite part compares.
                ok = np.isclose(a.real, d.real, rtol=rtol, atol=atol, equal_nan=True)
                ok &= np.isclose(a.imag, d.imag, rtol=rtol, atol=atol, equal_nan=True)
            else:
                ok = np.isclose(a, d, rtol=rtol, atol=atol, equal_nan=True)
    if bool(np.all(ok)):
        return
    bad = np.argwhere(~np.broadcast_to(ok, a.shape))
    first = tuple(int(i) for i in bad[0]) if a.ndim else ()
    with np.errstate(all="ignore"):
        diff = np.abs(a.astype(np.complex128) - d.astype(np.complex128))
    finite = diff[np.isfinite(diff)]
    worst = f"; largest absolute difference {finite.max():.3g}" if finite.size else ""
    raise AssertionError(
        f"arrays not close: {len(bad)} of {a.size} elements differ "
        f"(rtol={rtol:g}, atol={atol:g}); first at index {first}: "
        f"actual {a[first].item()!r}, desired {d[first].item()!r}{worst}"
    )


def assert_same_device(*arrays: Any) -> None:
    """Assert that every array lives on the same device.

    Parameters
    ----------
    *arrays
        arraymux Arrays or native arrays of any backend.

    Returns
    -------
    None
        Returns only if every array is on the same device.

    Raises
    ------
    AssertionError
        Two arrays are on different devices, or an argument is not an array.

    Examples
    --------
    >>> import arraymux as xp
    >>> from arraymux.testing import assert_same_device
    >>> assert_same_device(xp.ones(2, device="numpy"), xp.zeros(3, device="numpy"))
    """
    from .._array import operand

    first = None
    for i, x in enumerate(arrays):
        op = operand(x)
        if op is None:
            raise AssertionError(f"argument {i} is not an array: {type(x).__name__}")
        if first is None:
            first = op[1]
        elif op[1] != first:
            raise AssertionError(f"argument {i} is on {op[1]} but argument 0 is on {first}")


def __dir__() -> list[str]:
    return [*__all__, "strategies"]
