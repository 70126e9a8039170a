"""PyTorch adapter (the interface is described in ``_numpy.py``)."""

from __future__ import annotations

from typing import Any

import array_api_compat.torch as _xp
import torch

from .. import _dtypes
from ._numpy import raise_unknown_place

# Binary functions whose torch callable matches the standard once both operands are tensors of
# one dtype on one device. arraymux promotes before calling, so it can skip array-api-compat's
# promotion wrappers (which cost about 1 us per call) and call torch directly.
_SAME_DTYPE_BINARY = {
    "add": torch.add,
    "subtract": torch.subtract,
    "multiply": torch.multiply,
    "divide": torch.divide,
    "equal": torch.eq,
    "not_equal": torch.not_equal,
    "greater": torch.greater,
    "greater_equal": torch.greater_equal,
    "less": torch.less,
    "less_equal": torch.less_equal,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "atan2": torch.atan2,
    "hypot": torch.hypot,
    "logaddexp": torch.logaddexp,
    "copysign": torch.copysign,
    "nextafter": torch.nextafter,
    "logical_and": torch.logical_and,
    "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor,
    "matmul": torch.matmul,
}

# Binary functions that take a Python number as their second operand.
_SCALAR_RIGHT = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "divide",
        "pow",
        "remainder",
        "floor_divide",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "copysign",
    }
)

_compat_sum = _xp.sum


def _sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    if axis is None and dtype is None and not keepdims and x.dtype.is_floating_point:
        return torch.sum(x)
    return _compat_sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def namespace() -> Any:
    return _xp


def overrides(ns: Any) -> dict[str, Any]:
    out: dict[str, Any] = dict(_SAME_DTYPE_BINARY)
    out["sum"] = _sum
    return out


def scalar_operand(name: str, value: Any, other: Any, position: int) -> Any:
    """A Python scalar made ready to meet ``other`` (a tensor) in ``name``."""
    if position == 1 and name in _SCALAR_RIGHT:
        return value
    return torch.tensor(value, dtype=other.dtype, device=other.device)


def places() -> list[str]:
    out = ["cpu"]
    if torch.cuda.is_available():
        out += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        out.append("mps")
    xpu = getattr(torch, "xpu", None)
    if xpu is not None and xpu.is_available():
        out += [f"xpu:{i}" for i in range(xpu.device_count())]
    return out


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return "cpu"
    if place == "meta":
        return "meta"
    try:
        dev = torch.device(place)
    except (RuntimeError, TypeError):
        raise ValueError(f"{place!r} is not a torch device") from None
    return _check(place_of_device(dev), place)


def _check(canon: str, given: object) -> str:
    if canon not in places():
        raise_unknown_place("torch", given, places())
    return canon


def native_device(place: str) -> Any:
    return torch.device(place)


def place_of_device(native: Any) -> str:
    dev = torch.device(native)
    if dev.type in ("cpu", "meta", "mps"):
        return dev.type
    index = dev.index
    if index is None:
        index = getattr(torch, dev.type).current_device()
    return f"{dev.type}:{index}"


def place_of(x: Any) -> str:
    dev = x.device
    if dev.type == "cpu":
        return "cpu"
    return place_of_device(dev)


def dtype_from_native(obj: Any) -> _dtypes.DType | None:
    if isinstance(obj, torch.dtype):
        return None
    from ._numpy import dtype_from_numpy

    return dtype_from_numpy(obj)


# torch has uint16/32/64 only as storage types: most of its kernels (add, maximum, ...) are not
# implemented for them, and array-api-compat leaves them out of torch's dtypes.
_STORAGE_ONLY = frozenset({_dtypes.uint16, _dtypes.uint32, _dtypes.uint64})


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    if dtype in _STORAGE_ONLY:
        return False
    if place == "mps":
        return dtype.bits < 64 or dtype.kind in ("signed integer", "unsigned integer")
    return True


def unsupported_hint(dtype: _dtypes.DType) -> str:
    if dtype in _STORAGE_ONLY:
        return (
            f"torch implements almost no operations on {dtype}; use a signed integer dtype "
            "(e.g. arraymux.int64) on torch."
        )
    return "Use a dtype that this torch device holds (no 64-bit dtypes on MPS)."


def default_dtypes(place: str) -> dict[str, _dtypes.DType]:
    f = torch.get_default_dtype()
    real = _dtypes.float64 if f == torch.float64 else _dtypes.float32
    cplx = _dtypes.complex128 if real is _dtypes.float64 else _dtypes.complex64
    return {
        "real floating": real,
        "complex floating": cplx,
        "integral": _dtypes.int64,
        "indexing": _dtypes.int64,
    }


def to_numpy(x: Any) -> Any:
    if x.requires_grad:
        x = x.detach()
    if x.is_conj():
        x = x.resolve_conj()
    if x.is_neg():
        x = x.resolve_neg()
    return x.cpu().numpy()


# Transfer hooks (see arraymux._transfer).


def memory(place: str) -> tuple[str, int]:
    kind, _, index = place.partition(":")
    return ("cpu", 0) if kind == "cpu" else (kind, int(index or 0))


def traced(x: Any) -> bool:
    return bool(torch._C._functorch.is_functorch_wrapped_tensor(x))


def copy_array(x: Any) -> Any:
    return x.clone()


def export(x: Any) -> tuple[Any, bool]:
    # DLPack refuses tensors that require grad and lazy conjugate/negative views.
    x = x.detach()
    if x.is_conj() or x.is_neg():
        return x.resolve_conj().resolve_neg(), True
    return x, False


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> Any:
    strides = getattr(obj, "strides", None)
    if strides is not None and any(s < 0 for s in strides):
        raise BufferError("torch tensors cannot have negative strides")
    flags = getattr(obj, "flags", None)
    if flags is not None and not getattr(flags, "writeable", True) and not copy:
        raise BufferError("torch has no read-only tensors")
    out = torch.from_dlpack(obj)
    if copy:
        out = out.clone()
    if place is not None and place != place_of(out):
        out = out.to(place)
    return out


def from_host(a: Any, place: str) -> Any:
    import numpy as np

    if place == "cpu" or not a.flags.c_contiguous or not a.flags.writeable:
        a = np.array(a, order="C", copy=True)
        t = torch.from_numpy(a)
        return t if place == "cpu" else t.to(place)
    return torch.from_numpy(a).to(place)


def data_ptr(x: Any) -> int:
    return int(x.data_ptr())


def to_host(x: Any) -> Any:
    return to_host_many([x])[0]


def to_host_many(xs: list[Any]) -> list[Any]:
    """One pinned buffer per device tensor, non-blocking copies, one synchronize per device."""
    out: list[Any] = [None] * len(xs)
    pending: set[Any] = set()
    for i, x in enumerate(xs):
        if traced(x):
            raise TypeError(
                "cannot read a tensor inside a torch.func transform on the host; return it "
                "from the transformed function instead."
            )
        x = x.detach().resolve_conj().resolve_neg()
        if x.device.type != "cuda":
            out[i] = to_numpy(x)
            continue
        buf = torch.empty(x.shape, dtype=x.dtype, pin_memory=True)
        buf.copy_(x, non_blocking=True)
        out[i] = buf
        pending.add(x.device)
    for dev in pending:
        torch.cuda.synchronize(dev)
    return [o if not isinstance(o, torch.Tensor) else o.numpy() for o in out]
