"""The checks of ``arraymux.random``'s arguments, shared by the key API, the distributions and
the :class:`~arraymux.random.Generator`.

``fname`` is the name after ``arraymux.random.`` (``normal``, ``Generator.normal``); every check
runs before a number is drawn, so that a refused call leaves a Generator where it was.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from types import ModuleType
from typing import TypeAlias

from .. import _default_dtypes
from .._arguments import check_int, check_number, check_shape, check_size, python_scalar
from .._array import Array
from .._devices import Device
from .._dtype_rules import as_dtype
from .._dtypes import DType, float32, float64
from .._errors import (
    BackendMismatchError,
    DeviceMismatchError,
    unsupported,
)
from .._narrowing import narrowed
from .._typing import DTypeLike, NativeArray
from ._threefry import MASK32, word_dtype

__all__ = [
    "array_arg",
    "check_key",
    "default_dtype",
    "draw_dtype",
    "DTypeArg",
    "draw_shape",
    "finite_real",
    "integer_bounds",
    "known_shape",
    "HostReals",
    "MAX_DRAW",
    "ParamLike",
    "same_device",
    "seed_words",
    "Shape",
    "SizeArg",
]

Shape = int | Sequence[int]
#: Real numbers given on the host: a Python or NumPy number, or a (nested) sequence of them.
HostReals: TypeAlias = "float | Sequence[HostReals]"
#: A distribution's parameter: host numbers, a NumPy array, or an Array on the key's device.
ParamLike: TypeAlias = "Array | NativeArray | HostReals"
#: NumPy's ``size``: the shape of the draws, or None for the parameters' broadcast shape.
SizeArg: TypeAlias = "Shape | None"
#: A dtype, or None for the default of the draws' kind.
DTypeArg: TypeAlias = "DTypeLike | None"

#: The most numbers one call of the counter-based generator draws (its counter is one word).
MAX_DRAW = 1 << 31


def _xp() -> ModuleType:
    import arraymux

    return arraymux


def draw_shape(shape: object, fname: str, *, limit: bool = True) -> tuple[int, ...]:
    """A shape or size: an int or a sequence of ints (NumPy integers too; not bools, floats or
    strings), each at least 0; at most :data:`MAX_DRAW` numbers where ``limit``."""
    if type(shape) is tuple:  # the common case, without check_shape's general walk
        out = shape
        for n in shape:
            if type(n) is not int or n < 0:
                out = _general_shape(shape, fname)
                break
    elif type(shape) is int and shape >= 0:
        out = (shape,)
    else:
        out = _general_shape(shape, fname)
    size = math.prod(out)
    if limit:
        if size > MAX_DRAW:
            raise ValueError(
                f"arraymux.random.{fname}: shape {out} asks for {size} numbers; at most "
                "2**31 per call. Draw in several calls, each with its own key."
            )
        if size:
            return out  # at most 2**31 numbers of 8 bytes: no byte count overflows
    check_size(f"random.{fname}", out, 8)
    return out


def _general_shape(shape: object, fname: str) -> tuple[int, ...]:
    if isinstance(shape, Sequence) and not isinstance(shape, str | bytes | tuple | list):
        shape = list(shape)  # range and other sequences (torch.Size is a tuple)
    return check_shape(f"random.{fname}", "shape", shape)


def default_dtype(device: Device, kind: str) -> DType:
    """The dtype of draws of ``kind`` ("real floating" or "integral") made without ``dtype=``:
    the default dtype policy's where one is in force and ``device`` holds it, else float32 and
    int32 on every device (not the device's own default: NumPy's float64 would give other
    numbers than torch's and JAX's float32 from the same key)."""
    xp = _xp()
    if _default_dtypes.active:
        floating, integral = _default_dtypes.get_default_dtypes()
        want = floating if kind == "real floating" else integral
        if want is not None and device.supports(want):
            return want
    return xp.float32 if kind == "real floating" else xp.int32


def draw_dtype(device: Device, dtype: DTypeLike | None, kind: str, fname: str) -> DType:
    """The dtype of the numbers: ``dtype`` or :func:`default_dtype`'s of ``kind`` ("real floating"
    or "integral"), checked to be of that kind and held by ``device`` (narrowed only where
    narrowing is on)."""
    if dtype is None:
        return default_dtype(device, kind)
    if (
        (dtype is float32 or dtype is float64)
        and kind == "real floating"
        and device.supports(dtype)
    ):
        return dtype  # the common case: a float dtype the device holds
    xp = _xp()
    try:
        dt = as_dtype(dtype)
    except (TypeError, ValueError, KeyError) as e:
        text = str(e) if str(e) else f"{dtype!r} is not a dtype"
        raise TypeError(f"arraymux.random.{fname}: dtype={text}") from None
    if kind == "real floating" and dt not in (xp.float32, xp.float64):
        raise ValueError(f"arraymux.random.{fname}: dtype must be float32 or float64, got {dt}.")
    if kind == "integral" and not xp.isdtype(dt, "integral"):
        raise ValueError(
            f"arraymux.random.{fname}: dtype must be an integer dtype (int8 to int64, uint8 to "
            f"uint64), got {dt}."
        )
    if not device.supports(dt):
        to = narrowed(dt, device, f"random.{fname}")
        if to is None:
            raise unsupported(dt, device, f"random.{fname}")
        dt = to
    return dt


def finite_real(value: object, pname: str, fname: str) -> float:
    """A finite real Python number (NumPy scalars too, not bools, complex or arrays)."""
    if type(value) is float and math.isfinite(value):  # the common case, checked at once
        return value
    v = check_number(f"random.{fname}", pname, value, complex_ok=False)
    if isinstance(v, bool):
        raise TypeError(f"arraymux.random.{fname}: {pname} must be a real number, not a bool.")
    if not math.isfinite(v):
        raise ValueError(f"arraymux.random.{fname}: {pname} must be finite, got {v}.")
    return float(v)


def integer_bounds(
    low: object, high: object, dt: DType, fname: str, *, limit: bool = True
) -> tuple[int, int]:
    """``[low, high)`` of :func:`integers` as ints (``[0, low)`` if ``high`` is None), checked
    to be non-empty and to fit ``dt``; at most 2**32 wide where ``limit``."""
    if type(low) is not int:
        low = check_int(f"random.{fname}", "low", low)
    if high is None:
        low, high = 0, low
    elif type(high) is not int:
        high = check_int(f"random.{fname}", "high", high)
    if low >= high:
        raise ValueError(f"arraymux.random.{fname}: needs low < high, got [{low}, {high}).")
    least, most = _int_range(dt)
    for name, value in (("low", low), ("high", high - 1)):
        if not least <= value <= most:
            raise ValueError(
                f"arraymux.random.{fname}: {name} is out of bounds for {dt.name}: [{low}, "
                f"{high}) does not fit in [{least}, {most}]. Use a wider dtype."
            )
    if limit and high - low > 1 << 32:
        raise ValueError(f"arraymux.random.{fname}: the range [{low}, {high}) is wider than 2**32.")
    return low, high


@functools.lru_cache(maxsize=16)
def _int_range(dt: DType) -> tuple[int, int]:
    info = _xp().iinfo(dt)
    return int(info.min), int(info.max)


def same_device(x: Array, pname: str, device: Device, fname: str) -> None:
    """Refuse an array argument that is not where the numbers are drawn (arraymux never moves
    arrays implicitly)."""
    if x.device is device or x.device == device:
        return
    kind = BackendMismatchError if x.device.backend != device.backend else DeviceMismatchError
    what = "backend" if kind is BackendMismatchError else "device"
    raise kind(
        f"arraymux.random.{fname}: {pname} is on {x.device} but the numbers are drawn on "
        f"{device} (another {what}). Move it first, e.g. {pname} = arraymux.to_device({pname}, "
        f'"{device}"), or draw on its device.'
    )


def array_arg(x: object, pname: str, fname: str, device: Device) -> Array:
    """An array argument (``x`` of :func:`permutation`, ``a`` of :func:`choice`): an Array
    of at least one dimension on ``device``."""
    if not isinstance(x, Array):
        raise TypeError(
            f"arraymux.random.{fname}: {pname} must be an int or an arraymux Array, not "
            f"{type(x).__module__}.{type(x).__qualname__}. Convert it first with "
            "arraymux.asarray(...)."
        )
    if x.ndim == 0:
        raise ValueError(
            f"arraymux.random.{fname}: {pname} must be an int or an array of at least one "
            "dimension, got a 0-d array."
        )
    same_device(x, pname, device, fname)
    return x


def known_shape(shape: tuple[int | None, ...], fname: str) -> tuple[int, ...]:
    if any(n is None for n in shape):
        raise ValueError(f"arraymux.random.{fname}: the array's shape {shape} is not known yet.")
    return tuple(n for n in shape if n is not None)


def seed_words(seed: object, fname: str) -> tuple[int, int]:
    seed = python_scalar(seed)  # NumPy integers are ints
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(
            f"arraymux.random.{fname}: the seed must be a Python int, not {type(seed).__name__}."
        )
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"arraymux.random.{fname}: the seed must be in [0, 2**64), got {seed}.")
    return seed >> 32, seed & MASK32


def check_key(k: object, fname: str) -> Array:
    if type(k) is Array and k.dtype is word_dtype(k.device) and k.shape == (2,):
        return k  # the common case: a key of the device's words
    xp = _xp()
    if not isinstance(k, Array):
        raise TypeError(
            f"arraymux.random.{fname}: expected a key made by arraymux.random.key, got "
            f"{type(k).__name__}."
        )
    if k.shape != (2,) or k.dtype not in (xp.uint32, xp.int32):
        raise ValueError(
            f"arraymux.random.{fname}: a key is a (2,) array of uint32 or int32 words (from "
            f"arraymux.random.key); got shape {k.shape} and dtype {k.dtype}."
        )
    words = word_dtype(k.device)
    return k if k.dtype == words else xp.astype(k, words)
