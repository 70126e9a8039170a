"""The ``fft`` extension of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

import math
from typing import Any

from ._arguments import MAX_BYTES, Params, as_keywords, check_size, params_of, read_zero_d
from ._array import operand
from ._compiled import python_twin
from ._creation_functions import creation
from ._dispatch import first

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]


#: Sizes whose product is at most this fit in complex128 (16 bytes) without overflow.
_SMALL = MAX_BYTES // 16


def _sized(dispatched: Any) -> Any:
    """``dispatched`` (an FFT whose result size ``n`` or ``s`` gives), refusing a result whose
    size overflows 64 bits before a backend sees it (jaxlib aborts the process on one; NumPy
    tries to allocate exabytes). Where ``n`` (or ``s``) times the size of ``x`` is small, the
    check costs one product."""

    def fn(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if args:  # n and axis (s and axes) by position, as every backend takes them
            given, kwargs = as_keywords(fname, params, (x, *args), kwargs)
            x, args = given[0], given[1:]
        n: Any = kwargs.get("n")
        s: Any = kwargs.get("s")
        if n is None and s is None:
            return dispatched(x, *args, **kwargs)
        if type(n) is not int and n is not None:  # 0-d arrays, as every backend takes them
            n = kwargs["n"] = read_zero_d(fname, "n", n)
        if type(s) is not tuple and s is not None:
            s = kwargs["s"] = read_zero_d(fname, "s", s)
        op: Any = operand(x)
        try:
            size = (n if s is None else math.prod(s)) * math.prod(op[0].shape)
            small = type(size) is int and 0 < size <= _SMALL
        except Exception:  # not sizes, or not an array: the dispatched function explains
            small = True
        if not small:
            _check(op[0].shape, n, s, kwargs)
        return dispatched(x, *args, **kwargs)

    def _check(shape: Any, n: Any, s: Any, kwargs: dict[str, Any]) -> None:
        out = list(shape)
        axes: Any = [kwargs.get("axis", -1)] if s is None else kwargs.get("axes")
        sizes: Any = [n] if s is None else list(s)
        if axes is None:
            axes = list(range(-len(sizes), 0))
        if not isinstance(axes, tuple | list):
            return  # the dispatched function explains
        for axis, size in zip(axes, sizes, strict=False):
            if type(size) is not int or size < 1:
                return
            if type(axis) is int and -len(out) <= axis < len(out):
                out[axis] = size
            else:
                out.append(size)
        if all(type(m) is int for m in out):
            check_size(fname, tuple(out), 16)

    twin = python_twin(dispatched)
    fname = f"fft.{twin.__name__}"
    found = params_of(fname)
    assert found is not None
    params: Params = found
    for attr in ("__doc__", "__signature__", "__name__", "__qualname__", "__module__"):
        setattr(fn, attr, getattr(twin, attr))
    return fn


# The size check uses complex128's 16 bytes, the widest element an FFT computes with.
fft = _sized(first("fft.fft"))
ifft = _sized(first("fft.ifft"))
fftn = _sized(first("fft.fftn"))
ifftn = _sized(first("fft.ifftn"))
rfft = _sized(first("fft.rfft"))
irfft = _sized(first("fft.irfft"))
rfftn = _sized(first("fft.rfftn"))
irfftn = _sized(first("fft.irfftn"))
hfft = _sized(first("fft.hfft"))
ihfft = _sized(first("fft.ihfft"))
fftshift = first("fft.fftshift")
ifftshift = first("fft.ifftshift")
fftfreq = creation("fft.fftfreq")
rfftfreq = creation("fft.rfftfreq")
