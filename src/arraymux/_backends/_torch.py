"""PyTorch adapter (the contract every adapter follows is ``_adapter.Adapter``)."""

from __future__ import annotations

import math
import operator
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import array_api_compat.torch as _xp
import numpy as _np
import torch

from .. import _dtypes
from . import _special_cases, _staging
from . import _torch_unsigned as _unsigned
from ._adapter import Kernelled
from ._common import raise_unknown_place, sized_broadcast_to

if TYPE_CHECKING:
    import cupy
    from torch._C import _Index

    from ._staging import StagingRing

#: A key torch indexes tensors with.
_Key: TypeAlias = "_Index | tuple[_Index, ...]"

# uint16/32/64 functions torch has no kernels for, computed through signed ones (the
# dispatcher's checking path asks this hook first).
emulate = _unsigned.emulate
EMULATED_DTYPES: frozenset[object] = frozenset(_unsigned.UNSIGNED)

# Binary functions whose torch callable matches the standard once both operands are tensors of
# one dtype on one device. arraymux promotes before calling, so it can skip array-api-compat's
# promotion wrappers (which cost about 1 us per call) and call torch directly.
_SAME_DTYPE_BINARY: dict[str, Callable[..., torch.Tensor]] = {
    "add": torch.add,
    "subtract": torch.subtract,
    "multiply": torch.multiply,
    "divide": torch.divide,
    # The comparisons through the tensor's own operators, as native code writes them: torch's
    # functions parse their arguments 0.1 us slower (a Python number beside a tensor too).
    "equal": operator.eq,
    "not_equal": operator.ne,
    "greater": operator.gt,
    "greater_equal": operator.ge,
    "less": operator.lt,
    "less_equal": operator.le,
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
}

# Binary functions that take a Python number as their second operand, and those that take
# one as their first (torch wraps it as a scalar the kernel reads by value: no tensor is made
# from host memory, which on a GPU would be a copy that synchronises the stream).
_BITWISE = frozenset(
    {
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_left_shift",
        "bitwise_right_shift",
    }
)
_SCALAR_LEFT = _BITWISE | {
    "add",
    "subtract",
    "multiply",
    "divide",
    "pow",
    "remainder",
    "floor_divide",
}
_SCALAR_RIGHT = _SCALAR_LEFT | {
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "copysign",
}


_compat_sum = _xp.sum
_torch_sum = torch.sum


# Unsigned dtypes whose sums and products the standard accumulates in uint64 (torch's
# kernels give int64).
_UNSIGNED = _unsigned.UNSIGNED | {torch.uint8}


def _sum(
    x: torch.Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: torch.dtype | None = None,
    keepdims: bool = False,
) -> torch.Tensor:
    if x.dtype in _UNSIGNED or dtype in _UNSIGNED:
        return _unsigned.reduction("sum", _SIGNED_SUM, x, axis=axis, dtype=dtype, keepdims=keepdims)
    if dtype is None:
        # A full reduction, or one axis (an int), is already the standard's: floats keep
        # their dtype, bool and signed integers give int64.
        if axis is None and not keepdims:
            return _torch_sum(x)
        if type(axis) is int:
            return _torch_sum(x, axis, keepdim=keepdims)
        if x.dtype is torch.bool:  # (array-api-compat's sum over axis=() kept bool)
            dtype = torch.int64
    return _compat_sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


_SIGNED_SUM = {"sum": _compat_sum}


def _accumulating(name: str, base: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``base`` (``prod``, ``cumulative_sum``, ...), accumulating unsigned integers in uint64
    as the standard asks (torch's kernels give int64). Along one axis (an int) of a floating
    array, with no other argument but ``keepdims`` (``prod``), torch's own kernel: what
    ``base`` calls there, without array-api-compat's wrapper (``cumulative_sum`` looks up
    the array's namespace on every call)."""
    fns = {name: base}
    kernel = _ALONG_ONE_AXIS.get(name)

    def fn(x: torch.Tensor, /, *args: object, **kwargs: object) -> torch.Tensor:
        if (
            kernel is not None
            and not args
            and x.dtype not in _NOT_FLOATING
            and kwargs.keys() <= _AXIS_ONLY
        ):
            axis = kwargs.get("axis")
            if axis is None:  # the whole array: prod's over every axis, a 1-D array's one
                if name == "prod" and not kwargs.get("keepdims"):
                    return kernel(x)
                if name != "prod" and x.ndim == 1:
                    axis = 0
            if type(axis) is int:
                keepdims = kwargs.get("keepdims")
                return kernel(x, axis) if keepdims is None else kernel(x, axis, keepdim=keepdims)
        if x.dtype in _UNSIGNED or kwargs.get("dtype") in _UNSIGNED:
            return _unsigned.reduction(name, fns, x, *args, **kwargs)
        if x.dtype is torch.bool and kwargs.get("dtype") is None and name == "prod":
            kwargs["dtype"] = torch.int64  # (array-api-compat's prod over axis=() kept bool)
        return base(x, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = name.rpartition(".")[2]
    return fn


#: torch's kernels of the accumulating functions along one axis (see :func:`_accumulating`).
_ALONG_ONE_AXIS: dict[str, Callable[..., torch.Tensor]] = {
    "prod": torch.prod,
    "cumulative_sum": torch.cumsum,
    "cumulative_prod": torch.cumprod,
}
_AXIS_ONLY = frozenset({"axis", "keepdims"})

_INDEX_DTYPES = frozenset({torch.int64, torch.bool})


def index_array(k: object) -> object:
    """An integer index array (or array of counts) as torch takes it: int64. torch refuses
    other integer dtypes, and reads a uint8 index as a mask."""
    if isinstance(k, torch.Tensor) and k.dtype not in _INDEX_DTYPES:
        if k.dtype == torch.uint64:
            return _unsigned.reread(k, torch.int64)
        if not (k.dtype.is_floating_point or k.dtype.is_complex):
            return k.to(torch.int64)
    return k


def _indexed(base: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``base`` (``take``, ``take_along_axis``, ``repeat``) for indices of any integer
    dtype."""

    def fn(x: torch.Tensor, indices: object, /, *args: object, **kwargs: object) -> torch.Tensor:
        return base(x, index_array(indices), *args, **kwargs)

    fn.__name__ = fn.__qualname__ = base.__name__
    return fn


def _take(general: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``take`` of a 1-D index tensor as torch's indexing, one gather that counts negative
    indices from the end as the standard does (array-api-compat's ``take`` is
    ``torch.index_select``, which refuses them, behind a ``torch.where`` that mends them: three
    kernels more); ``general`` for anything else, which also explains wrong arguments."""

    def take(x: torch.Tensor, indices: object, /, *, axis: int | None = None) -> torch.Tensor:
        nd = x.ndim
        if (
            type(indices) is torch.Tensor
            and indices.ndim == 1
            and nd
            and (nd == 1 if axis is None else -nd <= axis < nd)
        ):
            index = index_array(indices)
            if type(index) is torch.Tensor and index.dtype == torch.int64:  # (not a mask)
                where = 0 if axis is None else axis % nd
                return x[(_ALL,) * where + (index,)]
        return general(x, indices, axis=axis)

    return take


_ALL = slice(None)


def _take_along_axis(general: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``take_along_axis`` as one ``torch.gather`` of the operands broadcast but along the
    axis, negative indices counted from the end. array-api-compat's calls
    ``torch.take_along_dim``, which takes every index modulo the axis's length: index 3 of
    three elements picked the first (NumPy, Dask and array-api-strict raise ``IndexError``).
    ``gather`` refuses an index out of range, as torch's indexing does (on CUDA through a
    device-side assertion, as ``x[i]``). ``general`` for other operands, which also explains
    wrong arguments."""

    def take_along_axis(x: torch.Tensor, indices: object, /, *, axis: int = -1) -> torch.Tensor:
        nd = x.ndim
        index = index_array(indices)
        if not (
            type(index) is torch.Tensor
            and index.dtype == torch.int64
            and index.ndim == nd
            and type(axis) is int
            and -nd <= axis < nd
        ):
            return general(x, indices, axis=axis)
        axis %= nd
        index = torch.where(index < 0, index + x.shape[axis], index)
        xs, js = x.shape, index.shape
        if xs[:axis] != js[:axis] or xs[axis + 1 :] != js[axis + 1 :]:
            rest = torch.broadcast_shapes(
                (*xs[:axis], 1, *xs[axis + 1 :]), (*js[:axis], 1, *js[axis + 1 :])
            )
            x = x.expand(rest[:axis] + xs[axis : axis + 1] + rest[axis + 1 :])
            index = index.expand(rest[:axis] + js[axis : axis + 1] + rest[axis + 1 :])
        try:
            return torch.gather(x, axis, index)
        except RuntimeError as e:
            if "out of bounds" not in str(e):
                raise
            n = x.shape[axis]  # (torch names the index after the negative ones were counted)
            raise IndexError(f"an index is outside [-{n}, {n}) along axis {axis}.") from None

    return take_along_axis


def _vecdot(general: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``vecdot`` as ``torch.linalg.vecdot`` (a product and a sum over one axis, the first
    operand conjugated, broadcast: the standard's function); array-api-compat's moves the axes
    with ``torch.moveaxis``, which ``torch.func.vmap`` refuses, and multiplies a batch of
    1 x n by n x 1 matrices, a batched matrix product (11x slower for 8 x 8 floats on the
    CPU). An axis that counts from the front counts in each operand, as array-api-compat's
    does; ``general`` for what is not an integer, which also explains wrong arguments."""

    def vecdot(x1: torch.Tensor, x2: torch.Tensor, /, *, axis: int = -1) -> torch.Tensor:
        if type(axis) is not int:
            return general(x1, x2, axis=axis)
        if x1.shape[axis] != x2.shape[axis]:
            raise ValueError("x1 and x2 must have the same size along the given axis")
        if -min(x1.ndim, x2.ndim) <= axis < 0:
            return torch.linalg.vecdot(x1, x2, dim=axis)
        return torch.linalg.vecdot(torch.movedim(x1, axis, -1), torch.movedim(x2, axis, -1))

    vecdot.__name__ = "vecdot"
    return vecdot


_compat_arange = _xp.arange
_torch_arange = torch.arange


def _arange(
    start: float,
    /,
    stop: float | None = None,
    step: float = 1,
    *,
    dtype: torch.dtype | None = None,
    device: torch.device | None = None,
) -> torch.Tensor:
    """``arange``: ``torch.arange(n)`` itself for a positive count of Python ints in the
    default dtype (compat's wrapper, which mends empty ranges and the dtypes torch's arange
    refuses, costs a third more there)."""
    if dtype is None and stop is None and step == 1 and type(start) is int and start > 0:
        return _torch_arange(start, dtype=dtype, device=device)
    return _compat_arange(start, stop, step, dtype=dtype, device=device)


_compat_asarray = _xp.asarray
#: torch's integer dtypes, by the NumPy dtype of the same name.
_INTS = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16)
_NUMPY_INTS = {
    t: _np.dtype(str(t).removeprefix("torch.")) for t in (*_INTS, torch.uint32, torch.uint64)
}


def _asarray(
    obj: object,
    /,
    *,
    dtype: torch.dtype | None = None,
    device: torch.device | None = None,
    copy: bool | None = None,
) -> torch.Tensor:
    """``asarray``, refusing Python numbers that an integer ``dtype`` cannot hold as NumPy,
    JAX, Dask and array-api-strict refuse them (``OverflowError``): torch wrapped ``-1`` to
    255 in uint8 and said ``RuntimeError`` of 300."""
    if dtype in _NUMPY_INTS and type(obj) in (list, tuple, int, float):
        try:
            _np.asarray(obj, dtype=_NUMPY_INTS[dtype])  # NumPy's check of each number
        except OverflowError:
            raise
        except Exception:  # tensors in the list (CUDA ones NumPy cannot read), ...: torch's
            pass
    return _compat_asarray(obj, dtype=dtype, device=device, copy=copy)


_compat_linspace = _xp.linspace


def _linspace(
    start: float,
    stop: float,
    /,
    num: int,
    *,
    dtype: torch.dtype | None = None,
    device: torch.device | None = None,
    endpoint: bool = True,
) -> torch.Tensor:
    """``linspace``; in an integer dtype, NumPy's float64 values, ``start + i * step`` (the
    last ``stop`` where ``endpoint``), rounded toward -inf, as NumPy (since 2.0), JAX, Dask and
    array-api-strict give them: torch truncated its own values
    (``linspace(-3.7, 3.7, 5, dtype=int16)`` gave ``[-3, -1, 0, 1, 3]`` for
    ``[-4, -2, 0, 1, 3]``, and the middle of ``linspace(-2.5, 2.5, 7)`` was just below 0)."""
    if dtype in _NUMPY_INTS:
        return _floored(start, stop, num, endpoint, device).to(dtype)
    return _compat_linspace(start, stop, num, dtype=dtype, device=device, endpoint=endpoint)


def _floored(
    start: float, stop: float, num: int, endpoint: bool, device: torch.device | None
) -> torch.Tensor:
    """NumPy's ``floor(linspace(start, stop, num, endpoint))`` in float64."""
    y = _torch_arange(num, dtype=torch.float64, device=device)
    div = num - 1 if endpoint else num
    if div > 0:
        y = y * ((stop - start) / div)
    y = y + start
    if endpoint and num > 1:
        y[-1] = stop
    return torch.floor(y)


def single_operand() -> dict[str, object]:
    """Functions called with the array alone, where torch's own is the standard's (sum: not for
    unsigned integers, whose sums torch gives as int64; mean: floating operands only, the others
    take the checking path)."""
    return {"sum": (_torch_sum, _UNSIGNED), "mean": (torch.mean, _NOT_FLOATING)}


_NOT_FLOATING = frozenset(
    {torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}
) | frozenset(_unsigned.UNSIGNED)


def _spread(name: str) -> Callable[..., torch.Tensor]:
    """``std`` or ``var``: torch's own along one axis (an int), array-api-compat's otherwise.
    torch's std takes only integral corrections: another is the square root of the variance
    (torch's var takes any)."""
    root = name == "std"
    kernel, compat = (torch.std, _xp.std) if root else (torch.var, _xp.var)

    def fn(
        x: torch.Tensor,
        /,
        *,
        axis: int | tuple[int, ...] | None = None,
        correction: float = 0.0,
        keepdims: bool = False,
    ) -> torch.Tensor:
        if root and isinstance(correction, float) and not correction.is_integer():
            return torch.sqrt(_xp.var(x, axis=axis, correction=correction, keepdims=keepdims))
        if type(axis) is int:
            return kernel(x, axis, correction=correction, keepdim=keepdims)
        return compat(x, axis=axis, correction=correction, keepdims=keepdims)

    fn.__name__ = fn.__qualname__ = name
    return fn


def _searchsorted(base: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``searchsorted`` that finds NaNs where arraymux sorts them, last, as NumPy, JAX, Dask
    and array-api-strict do: torch's binary search, meeting a NaN of ``x1``, went right
    (``searchsorted([1.0, 2.0, nan], 2.0)`` was 3, not 1). Where ``x1`` holds NaNs, they are
    searched as infinities, and the NaNs and infinities of ``x2`` placed by the count of
    ``x1``'s other values. A CPU tensor whose largest element is not NaN (no NaN, then) is
    searched by torch alone; elsewhere (a GPU, where reading it would synchronise, a traced
    tensor) the few element-wise steps run always. A ``sorter`` of another integer dtype
    than int64 is converted (torch refused it)."""

    def searchsorted(
        x1: torch.Tensor,
        x2: torch.Tensor | float,
        /,
        *,
        side: str = "left",
        sorter: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if sorter is not None and sorter.dtype != torch.int64:  # torch takes int64 only
            sorter = sorter.to(torch.int64)
        if not x1.dtype.is_floating_point or not _nan_last(x1, sorter):
            return base(x1, x2, side=side, sorter=sorter)
        nan = torch.isnan(x1)
        found = base(torch.where(nan, math.inf, x1), x2, side=side, sorter=sorter)
        numbers = (~nan).sum(-1)  # (x1 is 1-D)
        if not isinstance(x2, torch.Tensor):
            # a Python number decided on the host: no tensor of it copied to the device
            v = float(x2.real if isinstance(x2, complex) else x2)
            if math.isnan(v):
                return numbers if side == "left" else torch.full_like(found, x1.shape[-1])
            return numbers if side == "right" and v == math.inf else found
        if side == "left":  # a NaN after the numbers; inf before the first inf or NaN
            return torch.where(torch.isnan(x2), numbers, found)
        # right: inf after the numbers, a NaN after everything
        return torch.where(
            torch.isnan(x2), x1.shape[-1], torch.where(x2 == math.inf, numbers, found)
        )

    searchsorted.__name__ = "searchsorted"
    return searchsorted


def _nan_last(x1: torch.Tensor, sorter: torch.Tensor | None) -> bool:
    """Whether the largest element of the sorted ``x1`` may be NaN: read on the CPU (through
    NumPy's view, half the cost of ``.item()``), assumed elsewhere (a GPU, where the read
    would synchronise; a tensor torch.compile or torch.func traces, which has no value)."""
    if not x1.is_cpu or torch.compiler.is_compiling():
        return True
    try:
        last = x1.numpy()[-1] if sorter is None else x1[sorter[-1]].item()
    except IndexError:  # empty: nothing to search
        return False
    except RuntimeError:  # traced, or differentiated: no value to read
        return True
    return math.isnan(last)


def _count_nonzero(base: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``count_nonzero`` as a sum of ``x != 0`` on a GPU and inside ``torch.func`` transforms:
    ``torch.count_nonzero`` has no batching rule on GPUs, nor on the CPU before torch 2.13
    (``vmap`` warned, and ran the call once per row); an eager CPU tensor takes torch's own.
    Over ``axis=()`` (no axis) each element's own count, as NumPy, JAX, Dask and
    array-api-strict give it: torch's counted the whole array."""

    def count_nonzero(
        x: torch.Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
    ) -> torch.Tensor:
        if axis == ():  # no axis reduced: torch's counted every element
            return (x != 0).to(torch.int64)
        if (
            x.is_cpu
            and not torch.compiler.is_compiling()
            and not torch._C._functorch.is_functorch_wrapped_tensor(x)
        ):
            # (is_cpu: no device object made, as x.device does)
            # torch's own without keepdims (array-api-compat's passes it on, a frame later)
            return (
                torch.count_nonzero(x, dim=axis)
                if not keepdims
                else base(x, axis=axis, keepdims=True)
            )
        return torch.sum(x != 0, dim=axis, keepdim=keepdims)

    count_nonzero.__name__ = "count_nonzero"
    return count_nonzero


def _extremum(base: Callable[..., torch.Tensor], operation: str) -> Callable[..., torch.Tensor]:
    """``max`` or ``min`` refusing a reduction over an empty axis with ``ValueError``, as
    NumPy, JAX, CuPy and Dask do (torch raises ``IndexError``). Nothing is added to a call
    that succeeds."""

    def fn(
        x: torch.Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
    ) -> torch.Tensor:
        try:
            return base(x, axis=axis, keepdims=keepdims)
        except IndexError:
            if x.numel() == 0:
                raise ValueError(
                    f"zero-size array to reduction operation {operation} which has no identity"
                ) from None
            raise

    fn.__name__ = fn.__qualname__ = base.__name__
    return fn


def _mean(
    x: torch.Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> torch.Tensor:
    """``mean``: torch's own along one axis (an int), array-api-compat's otherwise."""
    if type(axis) is int:
        return torch.mean(x, axis, keepdim=keepdims)
    return _xp.mean(x, axis=axis, keepdims=keepdims)


def _parts(v: torch.Tensor | complex) -> tuple[torch.Tensor | float, torch.Tensor | float]:
    """The real and imaginary parts of a tensor or a Python scalar (one of them complex)."""
    if isinstance(v, torch.Tensor):
        if v.is_complex():
            return torch.real(v), torch.imag(v)
        return v, torch.zeros_like(v)
    v = complex(v)
    return v.real, v.imag


def _make_complex(re: torch.Tensor | float, im: torch.Tensor | float) -> torch.Tensor:
    if isinstance(re, torch.Tensor):
        return torch.complex(re, im if isinstance(im, torch.Tensor) else torch.full_like(re, im))
    tensor = cast("torch.Tensor", im)  # one of the two parts is a tensor
    return torch.complex(torch.full_like(tensor, re), tensor)


# Complex add and subtract part by part: torch's ``x1 + alpha * x2`` turns an infinite part
# into NaN in the other part.
_ADD = _special_cases.componentwise(
    torch.add, operator.add, _parts, _make_complex, torch.Tensor.is_complex
)
_SUBTRACT = _special_cases.componentwise(
    torch.subtract, operator.sub, _parts, _make_complex, torch.Tensor.is_complex
)
#: Standard functions of a scalar and a tensor computed from (tensor, scalar): ``1 - x`` as
#: ``torch.rsub(x, 1)``, which takes the scalar as it is (see _compiled.scalar_plan).
REVERSED = {
    "subtract": _special_cases.componentwise(
        torch.rsub, lambda a, b: b - a, _parts, _make_complex, torch.Tensor.is_complex
    )
}


def _maximum_scalar(x: torch.Tensor, s: float) -> torch.Tensor:
    # torch.maximum takes tensors only; clamp takes the bound as a number. A NaN bound gives
    # NaN, as maximum does (torch.clamp(x, nan) gives x: pytorch/pytorch#172067).
    return torch.clamp(x, min=s) if s == s else torch.full_like(x, s)


def _minimum_scalar(x: torch.Tensor, s: float) -> torch.Tensor:
    return torch.clamp(x, max=s) if s == s else torch.full_like(x, s)


#: ``maximum(x, 0.0)`` as ``torch.clamp(x, min=0.0)``: no 0-d tensor is filled for the scalar
#: (a kernel of its own on a GPU, and about 1 us of host time).
SCALAR_KERNELS: dict[str, Callable[..., torch.Tensor]] = {
    "maximum": _maximum_scalar,
    "minimum": _minimum_scalar,
}


def _astype(
    x: torch.Tensor,
    dtype: torch.dtype,
    /,
    *,
    copy: bool = True,
    device: torch.device | None = None,
) -> torch.Tensor:
    """``astype``: array-api-compat's, without its wrapper's frame (a cast of a small tensor
    costs about 0.8 us; the wrapper added 0.3)."""
    if device is None:
        return x.to(dtype=dtype, copy=copy)
    return x.to(device, dtype=dtype, copy=copy)


def _unstack(x: torch.Tensor, /, *, axis: int = 0) -> tuple[torch.Tensor, ...]:
    """``unstack``: ``Tensor.unbind`` itself (array-api-compat moves the axis first and
    iterates over the tensor, which costs half as much again)."""
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return x.unbind(axis)


_compat_eye = _xp.eye
#: The dtypes torch.eye refuses (torch 2.13: "eye" not implemented for them).
_NO_EYE = frozenset({torch.uint16, torch.uint32, torch.uint64})


def _eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: torch.dtype | None = None,
    device: torch.device | None = None,
) -> torch.Tensor:
    """``eye``: ``torch.eye`` itself for the main diagonal (one kernel on a GPU);
    array-api-compat's zeros and diagonal fill for the others, and the dtypes torch.eye
    refuses."""
    if k == 0 and dtype not in _NO_EYE:
        cols = n_rows if n_cols is None else n_cols
        return torch.eye(n_rows, cols, dtype=dtype, device=device)
    return _compat_eye(n_rows, n_cols, k=k, dtype=dtype, device=device)


def namespace() -> ModuleType:
    return _xp


def overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    out: dict[str, Callable[..., object]] = dict(_SAME_DTYPE_BINARY)
    out["sum"] = _sum
    out["astype"] = _astype
    out["unstack"] = _unstack
    # torch.moveaxis of integers has no batching rule (vmap refused it); movedim is the same.
    out["moveaxis"] = torch.movedim
    out["eye"] = _eye
    out["arange"] = _arange
    # torch's own (compat's wrappers only pass their arguments on, 0.1 us later)
    out["zeros"], out["ones"], out["empty"] = torch.zeros, torch.ones, torch.empty
    out["asarray"] = _asarray
    out["linspace"] = _linspace
    for name in ("prod", "cumulative_sum", "cumulative_prod"):
        out[name] = _accumulating(name, getattr(ns, name))
    out["linalg.trace"] = _accumulating("linalg.trace", ns.linalg.trace)
    out["repeat"] = _indexed(ns.repeat)
    out["take_along_axis"] = _take_along_axis(_indexed(ns.take_along_axis))
    out["take"] = _take(_indexed(ns.take))
    out["std"] = _special_cases.corrected(_spread("std"))
    out["var"] = _special_cases.corrected(_spread("var"))
    out["mean"] = _mean
    out["linalg.vector_norm"] = _special_cases.inf_norm_of_nothing(ns, ns.linalg.vector_norm)
    out["count_nonzero"] = _count_nonzero(ns.count_nonzero)
    out["searchsorted"] = _searchsorted(ns.searchsorted)
    out["broadcast_to"] = sized_broadcast_to(torch.broadcast_to)
    out["max"] = _extremum(ns.max, "maximum")
    out["min"] = _extremum(ns.min, "minimum")
    out["sign"] = _sign
    out["floor_divide"] = _special_cases.floor_divide(
        ns, _traced_division("floor_divide", _div_floor)
    )
    out["expm1"] = _special_cases.expm1(ns, _traced_on_cpu(ns.expm1, _expm1), torch.complex)
    out["atanh"] = _traced_on_cpu(ns.atanh, _atanh)
    out["asinh"] = _traced_on_cpu(ns.asinh, _asinh)
    # tanh(+0 + inf j), tanh(+0 + nan j), acosh(+0 + nan j): wrong on CUDA.
    out["tanh"] = _special_cases.complex_cases(
        ns, "tanh", _special_cases.tanh(ns, ns.tanh, torch.complex), torch.complex
    )
    out["acosh"] = _special_cases.complex_cases(
        ns, "acosh", _traced_on_cpu(ns.acosh, _acosh), torch.complex
    )
    out["reciprocal"] = _special_cases.reciprocal(ns, ns.reciprocal, torch.complex)
    # arraymux promotes first, as for _SAME_DTYPE_BINARY: torch.pow itself, no compat wrapper.
    # Two real arrays: torch.pow itself; a Python exponent: SCALAR_KERNELS's _pow.
    out["pow"] = _special_cases.complex_only(_pow, torch.pow)
    out["remainder"] = _special_cases.remainder(ns, _traced_division("remainder", ns.remainder))
    out["acos"] = _special_cases.acos(ns, ns.acos, torch.complex)
    out["log1p"] = _special_cases.log1p(ns, ns.log1p, torch.complex)
    out["add"] = _ADD
    # arraymux promotes where's operands first: torch.where itself, no compat wrapper.
    out["where"] = torch.where
    out["subtract"] = _SUBTRACT
    out["any"] = _whole_truth(ns.any, torch.any)
    out["all"] = _whole_truth(ns.all, torch.all)
    out["unique_all"] = _unique_all
    out["unique_values"] = _unique_values
    out["unique_counts"] = _unique_counts
    out["unique_inverse"] = _unique_inverse
    out["matmul"] = out["linalg.matmul"] = _integer_fallback(torch.matmul, _integer_matmul)
    out["tensordot"] = out["linalg.tensordot"] = _integer_fallback(_xp.tensordot, integer_tensordot)
    out["vecdot"] = out["linalg.vecdot"] = _integer_fallback(_vecdot(ns.vecdot), _integer_vecdot)
    return out


def _pow(x1: Any, x2: Any, /) -> torch.Tensor:
    """``torch.pow`` with the standard's special cases: complex ``pow(x1, 0)`` is ``1 + 0j``
    (``_special_cases.complex_pow``), and a Python exponent 0.5 or -0.5 gives the standard's
    values for ``-0`` and ``-inf`` (:func:`_half_power`)."""
    if (
        type(x2) is float
        and (x2 == 0.5 or x2 == -0.5)
        and isinstance(x1, torch.Tensor)
        and x1.is_floating_point()
    ):
        return _half_power(x1, x2)
    if isinstance(x1, torch.Tensor) and x1.dtype in _unsigned.UNSIGNED:
        # (as a scalar kernel it runs where the boundary would have emulated uint16-64)
        return cast("torch.Tensor", _unsigned.emulate("pow", _NO_FNS, (x1, x2), {}))
    r = torch.pow(x1, x2)
    return _special_cases.complex_pow_of_zero(_xp, r, x2) if r.is_complex() else r


_NO_FNS: dict[str, Callable[..., object]] = {}  # (the emulated pow calls no function of the table)


def _half_power(x1: torch.Tensor, x2: float) -> torch.Tensor:
    """``x1 ** x2`` for ``x2`` 0.5 or -0.5, where torch takes ``sqrt`` and ``rsqrt``, which give
    ``-0`` and NaN for ``-0`` and ``-inf`` (see ``_special_cases.half_powers``). The exponent
    goes as a 0-d tensor on the device, which takes torch's general kernel, on a GPU (one
    kernel, as fast as a square root where memory bounds it) and for small arrays on the CPU
    (0.9 us against 1.5 for the square root of 8 floats); for a larger one on the CPU, whose
    general kernel costs 8 square roots, the square root stands where ``x1`` has no sign bit
    set (one test of the whole array) and is mended otherwise, as it is in a transform or a
    compiled graph, which cannot branch on values."""
    if x1.device.type != "cpu" or x1.numel() <= _GENERAL_POW_MAX:
        return torch.pow(x1, _exponent(x2, x1))
    r = torch.pow(x1, x2)
    if _plain(x1) and not bool(torch.signbit(x1).any()):
        return r
    return cast("torch.Tensor", _special_cases.half_power_cases(_xp, x1, x2, r))


SCALAR_KERNELS["pow"] = _pow  # (the half powers of a Python exponent)

#: The most elements whose half power the CPU computes with torch's general kernel.
_GENERAL_POW_MAX = 2048
#: 0-d tensors of the exponents :func:`_half_power` passes, by value, device and dtype.
_EXPONENTS: dict[tuple[float, torch.device, torch.dtype], torch.Tensor] = {}


def _exponent(value: float, x: torch.Tensor) -> torch.Tensor:
    if torch.compiler.is_compiling():
        return torch.full((), value, dtype=x.dtype, device=x.device)
    key = (value, x.device, x.dtype)
    t = _EXPONENTS.get(key)
    if t is None:
        # A tensor made in inference mode could never meet autograd again: made outside it.
        with torch.inference_mode(False):
            t = _EXPONENTS[key] = torch.full((), value, dtype=x.dtype, device=x.device)
    return t


def _div_floor(x1: torch.Tensor | float, x2: torch.Tensor | float, /) -> torch.Tensor:
    """``torch.floor_divide``'s values from ``torch.div(rounding_mode="floor")``, which has a
    derivative (zero, as JAX's ``floor_divide``): ``xp.grad`` through ``x // 2`` raised
    "derivative for aten::floor_divide is not implemented"."""
    return torch.div(x1, x2, rounding_mode="floor")


def _sign(x: torch.Tensor, /) -> torch.Tensor:
    """``sign`` with NaN for NaN (``torch.sign`` gives 0) and ``x / |x|`` for complex numbers
    (``torch.sign`` refuses them), written with ``where``: array-api-compat's writes through
    a boolean mask, which ``vmap`` refuses ("cannot batch over indexing")."""
    if x.dtype.is_complex:
        a = torch.abs(x)
        zero = a == 0
        # (|x| read only where it is not zero: no NaN gradient from the branch left aside)
        return torch.where(zero, torch.zeros_like(x), x / torch.where(zero, 1.0, a))
    r = torch.sign(x)
    if x.dtype.is_floating_point:
        return torch.where(torch.isnan(x), x, r)
    return r


def _traced_on_cpu(
    eager: Callable[..., torch.Tensor], traced: Callable[[torch.Tensor], torch.Tensor]
) -> Callable[..., torch.Tensor]:
    """``eager``, except for a real floating tensor of the CPU in a graph that torch.compile
    traces, which ``traced`` computes: inductor's vectorised CPU code computes ``expm1(x)``
    as ``exp(x) - 1`` (``expm1(1e-30)`` is 0, ``expm1(-0.0)`` +0), ``atanh`` from
    ``log((1 + x) / (1 - x))`` (``atanh(1e-30)`` is 0) and ``acosh`` from ``x * x`` (inf
    from 1.8e19 in float32; pytorch/pytorch#198134). The replacements, written with
    functions it computes well (``log1p``, ``log``, ``exp``, ``sqrt``), fuse into one
    kernel."""

    def fn(x: torch.Tensor, /) -> torch.Tensor:
        if torch.compiler.is_compiling() and x.dtype.is_floating_point and x.device.type == "cpu":
            return traced(x)
        return eager(x)

    fn.__name__ = fn.__qualname__ = traced.__name__.lstrip("_")
    return fn


def _expm1(x: torch.Tensor) -> torch.Tensor:
    # exp(x) - 1 rescaled by x / log(exp(x)), which cancels its rounding error (a few ulp),
    # where exp(x) is neither 1, infinite nor so small that exp(x) - 1 is -1: there x itself,
    # exp(x) - 1. The rescaling reads x only where it applies (1.0 elsewhere), so that no
    # branch left aside gives a gradient of NaN.
    u = torch.exp(x)
    d = u - 1
    scaled = (u != 1) & (d != -1) & ~torch.isinf(u)
    xs = torch.where(scaled, x, 1.0)
    us = torch.exp(xs)
    return torch.where(scaled, (us - 1) / torch.log(us) * xs, torch.where(u == 1, x, d))


def _atanh(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * torch.log1p(2 * x / (1 - x))


def _asinh(x: torch.Tensor) -> torch.Tensor:
    # log1p(a + a * a / (1 + sqrt(1 + a * a))) of a = |x|, the sign put back, and past 2**28
    # log(2|x|), without x * x (inductor's code on some CPUs lost asinh of large or tiny
    # values). The zeros are x itself (their signs); each branch reads x only where it
    # applies, and |x| is written as a choice, so that the derivative at 0 is 1.
    far = torch.abs(x) > 2.0**28  # (NaN: not far, computed by the first branch)
    m = torch.where(far, 0.0, x)
    a = torch.where(m < 0, -m, m)
    f = torch.log1p(a + a * a / (1 + torch.sqrt(1 + a * a)))
    top = torch.log(torch.where(x > 0, x, -x).where(far, 2.0**29)) + math.log(2.0)
    r = torch.where(far, torch.where(x > 0, top, -top), torch.where(m < 0, -f, f))
    return torch.where(x == 0, x, r)


def _acosh(x: torch.Tensor) -> torch.Tensor:
    # Past 2**28, sqrt(x * x - 1) is x to the last bit of float64: log(2x), without x * x.
    # (Each branch reads x only where it applies: no NaN gradient from the other.)
    far, below = x > 2.0**28, x < 1  # (below 1: NaN, where (x - 1) * (x + 1) may overflow)
    near = torch.where(far | below, 2.0, x)
    big = torch.where(far, x, 2.0**29)
    r = torch.where(
        far,
        torch.log(big) + math.log(2.0),
        torch.log1p((near - 1) + torch.sqrt((near - 1) * (near + 1))),
    )
    return torch.where(below, math.nan, r)


def _traced_division(name: str, eager: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``eager`` (torch's ``remainder`` or ``floor_divide``), except in a graph that
    torch.compile traces, where floats take NumPy's algorithm written with ``torch.fmod``:
    inductor's CPU code computes ``x1 - floor(x1 / x2) * x2`` and ``floor(x1 / x2)`` from the
    rounded quotient, so that ``1e20 % 3.0`` was 0.0 (2.0), ``5.5 % inf`` NaN (5.5) and
    ``1.0 // 0.1`` 10.0 (9.0) inside ``arraymux.jit`` (pytorch/pytorch#198057). Compiled,
    the steps below fuse into the one kernel."""

    def division(x1: torch.Tensor | float, x2: torch.Tensor | float, /) -> torch.Tensor:
        if not torch.compiler.is_compiling():
            return eager(x1, x2)
        # (the operands' dtype as dynamo traces it: torch.result_type would break the graph;
        # arraymux has promoted two arrays to one dtype, and a Python number takes theirs)
        like = x1 if isinstance(x1, torch.Tensor) else cast("torch.Tensor", x2)
        dtype = like.dtype
        if not dtype.is_floating_point or any(
            isinstance(x, torch.Tensor) and x.dtype != dtype for x in (x1, x2)
        ):
            return eager(x1, x2)
        a, b = (x if isinstance(x, torch.Tensor) else torch.full_like(like, x) for x in (x1, x2))
        mod = torch.fmod(a, b)
        moved = (mod != 0) & ((mod < 0) != (b < 0))  # into the divisor's sign
        if name == "remainder":
            mod = torch.where(moved, mod + b, mod)
            return torch.where(mod == 0, torch.copysign(torch.zeros_like(mod), b), mod)
        # (inductor's CPU fmod gives NaN for a subnormal divisor or an overflowing quotient,
        # as torch's own vectorised one does: the floor of the rounded quotient there)
        lost = torch.isnan(mod) & torch.isfinite(a) & torch.isfinite(b) & (b != 0)
        div = torch.where(moved, (a - mod) / b - 1, (a - mod) / b)
        whole = torch.floor(div)
        whole = torch.where(div - whole > 0.5, whole + 1, whole)
        whole = torch.where(div == 0, torch.copysign(torch.zeros_like(div), a / b), whole)
        whole = torch.where(lost, torch.floor(a / b), whole)
        return torch.where(b == 0, a / b, whole)

    division.__name__ = division.__qualname__ = name
    return division


def _plain(x: torch.Tensor) -> bool:
    """Whether ``x`` holds values Python may branch on: not a tensor of a functorch transform
    (vmap's batched tensors refuse ``bool()``), nor of a graph torch.compile traces."""
    return (
        not torch.compiler.is_compiling() and not torch._C._functorch.is_functorch_wrapped_tensor(x)
    )


def _whole_truth(
    base: Callable[..., torch.Tensor], whole: Callable[[torch.Tensor], torch.Tensor]
) -> Callable[..., torch.Tensor]:
    """``any`` or ``all`` (``base``, array-api-compat's) with the reduction of the whole array
    as torch's own call (``whole``), cast to bool only where torch gives another dtype
    (uint8): 1.5 us where the wrapper, which casts and reshapes every result, takes 2.7."""

    def reduce(
        x: torch.Tensor, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
    ) -> torch.Tensor:
        if axis is None and not keepdims:
            r = whole(x)
            return r if r.dtype is torch.bool else r.to(torch.bool)
        return base(x, axis=axis, keepdims=keepdims)

    return reduce


def _integer_fallback(
    kernel: Callable[..., torch.Tensor], fallback: Callable[..., torch.Tensor]
) -> Kernelled:
    """``kernel``, and ``fallback`` where torch has no kernel for integer operands of one
    dtype (CUDA's ``matmul``, ``tensordot``, ``vecdot``); other refusals are the kernel's."""

    def fn(x1: torch.Tensor, x2: torch.Tensor, /, **kwargs: object) -> torch.Tensor:
        try:
            return kernel(x1, x2, **kwargs)
        except (NotImplementedError, RuntimeError):
            dt = x1.dtype
            if dt.is_floating_point or dt.is_complex or dt == torch.bool or x2.dtype != dt:
                raise
            return fallback(x1, x2, **kwargs)

    fn.__name__ = fallback.__name__.removeprefix("_integer_").removeprefix("integer_")
    # What the compiled hot path calls directly for floating operands (see Backend).
    marked = cast("Kernelled", fn)  # a function object takes the attributes it names
    marked.kernel = kernel
    marked.kernel_kinds = ("real floating", "complex floating")
    return marked


def _integer_vecdot(x1: torch.Tensor, x2: torch.Tensor, /, *, axis: int = -1) -> torch.Tensor:
    """Integer ``vecdot``: the product summed in the operands' dtype, wrapping as the
    kernels do."""
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(
            f"vecdot: the lengths of axis {axis} differ ({x1.shape[axis]} and {x2.shape[axis]})"
        )
    return torch.sum(x1 * x2, dim=axis, dtype=x1.dtype)


def integer_tensordot(
    x1: torch.Tensor,
    x2: torch.Tensor,
    axes: int | tuple[int | Sequence[int], int | Sequence[int]] = 2,
) -> torch.Tensor:
    """Integer ``tensordot`` as one :func:`_integer_matmul` of the operands with their
    contracted axes moved together."""
    if isinstance(axes, int):
        a1, a2 = list(range(x1.ndim - axes, x1.ndim)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
    a1 = [a % x1.ndim for a in a1] if x1.ndim else []
    a2 = [a % x2.ndim for a in a2] if x2.ndim else []
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    shape1, shape2 = [x1.shape[i] for i in free1], [x2.shape[i] for i in free2]
    k = math.prod(x1.shape[i] for i in a1)
    # Sizes written out (not -1): any of them may be 0.
    a = x1.permute((*free1, *a1)).reshape(math.prod(shape1), k)
    b = x2.permute((*a2, *free2)).reshape(k, math.prod(shape2))
    return _integer_matmul(a, b).reshape((*shape1, *shape2))


def _integer_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Exact integer matmul (wrapping on overflow, as the kernels do) from elementwise
    products summed over blocks of the inner axis, the temporary kept to about 2**26
    elements."""
    vector_a, vector_b = a.ndim == 1, b.ndim == 1
    if vector_a:
        a = a[None, :]
    if vector_b:
        b = b[:, None]
    batch = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if b.shape[-2] != k:
        raise ValueError(f"matmul: inner dimensions differ ({k} and {b.shape[-2]})")
    out = torch.zeros((*batch, n, m), dtype=a.dtype, device=a.device)
    step = max(1, 2**26 // max(1, out.numel()))
    for j in range(0, k, step):
        part = a[..., :, j : j + step, None] * b[..., None, j : j + step, :]
        out += part.sum(-2, dtype=a.dtype)
    if vector_a:
        out = out.squeeze(-2)
    if vector_b:
        out = out.squeeze(-1)
    return out


def _unique_all(
    x: torch.Tensor, /
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``unique_all``, which array-api-compat does not provide for torch.

    ``indices`` holds the first position (in the flattened array) of each unique value.
    """
    flat = x.reshape(-1)
    values, inverse, counts = _unique(flat, inverse=True, counts=True)
    positions = torch.arange(flat.numel(), device=x.device)
    first = torch.full((values.numel(),), flat.numel(), dtype=torch.int64, device=x.device)
    indices = first.scatter_reduce(0, inverse, positions, reduce="amin")
    return values, indices, inverse.reshape(x.shape), counts


def _unique(
    flat: torch.Tensor, inverse: bool = False, counts: bool = False
) -> tuple[torch.Tensor, ...]:
    """``torch.unique`` of a 1-D tensor, sorted, as a tuple (the values, then the inverse and
    the counts asked for); complex values (which torch's unique refuses) as the unique rows of
    their (real, imag) pairs, in lexicographic order."""
    if not flat.is_complex():
        r = torch.unique(flat, sorted=True, return_inverse=inverse, return_counts=counts)
        return r if isinstance(r, tuple) else (r,)
    pairs = torch.view_as_real(flat.resolve_conj())
    r = torch.unique(pairs, sorted=True, return_inverse=inverse, return_counts=counts, dim=0)
    if isinstance(r, tuple):
        return (torch.view_as_complex(r[0].contiguous()), *r[1:])
    return (torch.view_as_complex(r.contiguous()),)


def _unique_values(x: torch.Tensor, /) -> torch.Tensor:
    return _unique(x.reshape(-1))[0]


def _unique_counts(x: torch.Tensor, /) -> tuple[torch.Tensor, torch.Tensor]:
    values, counts = _unique(x.reshape(-1), counts=True)
    return values, counts


def _unique_inverse(x: torch.Tensor, /) -> tuple[torch.Tensor, torch.Tensor]:
    values, inverse = _unique(x.reshape(-1), inverse=True)
    return values, inverse.reshape(x.shape)


_peek_interpreter = torch._C._functorch.peek_interpreter_stack


def scalars_beside_0d() -> bool:
    """Whether a Python scalar may meet a 0-d tensor as it is now (as it meets larger ones):
    outside torch.func's transforms, whose ``jvp`` gives the product of a 0-d tensor and a
    Python float a float64 tangent (torch 2.11 to 2.13). Elsewhere :func:`scalar_operand`
    makes the scalar a 0-d tensor of the other's dtype (on a GPU, a fill kernel more). Only
    the compiled fast path asks (torch.compile traces the Python functions, which do not)."""
    return _peek_interpreter() is None


def scalar_operand(name: str, value: complex, other: torch.Tensor, position: int) -> object:
    """A Python scalar made ready to meet ``other`` (a tensor) in ``name``: the number itself
    where the kernel takes one, else a 0-d tensor filled on ``other``'s device (never one
    built from host memory: on a GPU that copy synchronises the stream)."""
    # Not for 0-d tensors: torch.func.jvp gives their product with a Python float a float64
    # tangent (torch 2.11 to 2.13), while a tensor of their dtype keeps it (the fast paths
    # pass the scalar as it is where scalars_beside_0d says so).
    if other.dim() and name in (_SCALAR_RIGHT if position else _SCALAR_LEFT):
        return value
    if (
        position
        and other.dim()
        and name in SCALAR_KERNELS
        and not isinstance(value, complex)
        and other.dtype not in _unsigned.UNSIGNED  # emulated: torch has no clamp for them
        and other.dtype != torch.bool  # nor for bool
    ):
        return value  # computed by SCALAR_KERNELS[name](other, value)
    return torch.full((), value, dtype=other.dtype, device=other.device)


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


def native_device(place: str) -> torch.device:
    return torch.device(place)


def place_of_device(native: torch.device | str | int) -> str:
    dev = torch.device(native)
    if dev.type in ("cpu", "meta", "mps"):
        return dev.type
    index = dev.index
    if index is None:
        # The current device of that type; asking torch for it where the type is absent
        # (``cuda`` on a CPU build) fails inside torch, so name ordinal 0 and let the caller
        # report the devices that exist.
        module = getattr(torch, dev.type, None)
        available = getattr(module, "is_available", lambda: False)
        index = module.current_device() if available() else 0
    return f"{dev.type}:{index}"


def place_of(x: torch.Tensor) -> str:
    dev = x.device
    if dev.type == "cpu":
        return "cpu"
    return place_of_device(dev)


def dtype_from_native(obj: object) -> _dtypes.DType | None:
    if isinstance(obj, torch.dtype):
        return None
    from ._common import dtype_from_numpy

    return dtype_from_numpy(obj)


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    if place == "mps":
        return dtype.bits < 64 or dtype.kind in ("signed integer", "unsigned integer")
    return True


def unsupported_hint(dtype: _dtypes.DType) -> str:
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


def to_numpy(x: torch.Tensor) -> _np.ndarray:
    if x.requires_grad:
        x = x.detach()
    if x.is_conj():
        x = x.resolve_conj()
    if x.is_neg():
        x = x.resolve_neg()
    return x.cpu().numpy()


# Transfer hooks (see arraymux._transfer).

# Arrays imported through DLPack can be written in place (there are no read-only tensors):
# a zero-copy move from an immutable backend (JAX) copies unless copy=False asks to share.
WRITABLE_IMPORTS = True


def memory(place: str) -> tuple[str, int]:
    kind, _, index = place.partition(":")
    return ("cpu", 0) if kind == "cpu" else (kind, int(index or 0))


class _Differentiating(threading.local):
    """How many computations of arraymux.grad by torch.autograd (outside torch.func) this
    thread is inside: while they run, their tensors that require grad are traced values."""

    depth = 0


DIFFERENTIATING = _Differentiating()


def traced(x: torch.Tensor) -> bool:
    """Whether ``x`` is a value being differentiated or traced, which cannot leave torch
    without cutting its derivatives: inside a torch.func transform, or requiring grad inside
    arraymux.grad computed by torch.autograd where autograd records (not in the forward of
    an autograd.Function such as on_device's crossing, which moves it by design)."""
    return bool(torch._C._functorch.is_functorch_wrapped_tensor(x)) or bool(
        DIFFERENTIATING.depth and x.requires_grad and torch.is_grad_enabled()
    )


def stop_gradient(x: torch.Tensor) -> torch.Tensor:
    # detach is level-aware inside torch.func: no transform differentiates through it.
    return x.detach()


def current_gpu(place: str) -> AbstractContextManager[object]:
    return torch.cuda.device(int(place.partition(":")[2] or 0))


def copy_array(x: torch.Tensor) -> torch.Tensor:
    return x.clone()


# Private in torch 2.13 (torch's own tests use them); without them no tensor counts as unshared.
_STORAGE_USE_COUNT = getattr(torch._C, "_storage_Use_Count", None)
_IMPL_USE_COUNT = getattr(torch.Tensor, "_use_count", None)


def unshared(x: torch.Tensor) -> bool:
    """Whether nothing but ``x`` reaches its memory: its storage comes from torch's allocator
    (not DLPack, NumPy or a buffer, which another owner can write) and is held by no other
    tensor (a view, a detached alias, a NumPy array over it), and no C++ code holds ``x``."""
    if type(x) is not torch.Tensor or _STORAGE_USE_COUNT is None or _IMPL_USE_COUNT is None:
        return False
    if x.layout is not torch.strided or _IMPL_USE_COUNT(x) != 1:
        return False
    storage = x.untyped_storage()
    # Held by x and by the Python object `storage` only.
    return bool(storage.resizable()) and _STORAGE_USE_COUNT(storage._cdata) == 2


def fast_route(
    direction: str, place: str, other: str, other_place: str
) -> Callable[..., object] | None:
    """Cheaper ways for ``to_device(x, d)`` (``copy=None``): ``export`` from torch on ``place``
    to ``other`` (a backend name) on ``other_place``, or ``import`` from there to torch.

    Each takes the native array and returns the moved one, or None where the array needs the
    general path (which explains refusals): the same memory as the DLPack exchange between
    CPU arrays, at a fraction of its fixed cost; a plain copy for small arrays to and from a
    GPU, which costs less than the pinned and staged routes below their thresholds; one host
    copy of a JAX array, which torch may not share."""
    if other == "torch":  # torch:cpu <-> torch:cuda, small: Tensor.to, as the general path
        if direction == "export" and (place == "cpu") != (other_place == "cpu"):
            return lambda t: _small_move(t, other_place)
        return None
    if direction == "import" and other == "jax" and place == "cpu":
        return _copied_from_jax if other_place.startswith("cpu") else None
    if direction == "import" and other == "cupy" and place == "cpu":
        return _small_from_cupy
    if other != "numpy":
        return None
    if direction == "export":
        return _numpy_view if place == "cpu" else _small_read
    if place == "cpu":
        return shared_tensor
    return lambda a: _small_upload(a, place)


def _copied_from_jax(x: object) -> torch.Tensor | None:
    """A tensor holding a copy of a JAX array in host memory (a tensor sharing it could change
    the immutable JAX array): one host copy, as the general path makes."""
    try:
        # Read-only, so torch copies it: torch's own copy (256 MiB: 54 ms against NumPy's 75).
        view = _np.asarray(x)
    except TypeError:  # a traced value: the general path explains
        return None
    try:
        return torch.asarray(view, copy=True)
    except (TypeError, RuntimeError):  # a dtype torch does not take (bfloat16)
        return None


def _small_move(t: torch.Tensor, dst: str) -> torch.Tensor | None:
    """``t`` on ``dst`` through ``Tensor.to``, below the sizes that go through pinned memory."""
    limit = _staging.PINNED_READ_MIN if dst == "cpu" else _staging.STAGE_MIN
    if t.numel() * t.element_size() >= limit:
        return None
    return t.to(dst)


def _small_from_cupy(x: cupy.ndarray) -> torch.Tensor | None:
    """A tensor holding a host copy of a small CuPy array."""
    if x.nbytes >= _staging.PINNED_READ_MIN:
        return None
    return torch.from_numpy(x.get())


def _numpy_view(t: torch.Tensor) -> _np.ndarray | None:
    """A NumPy array over a CPU tensor's memory (not for tensors that require grad, or with
    a conjugate or negative bit: torch refuses those)."""
    try:
        return t.numpy()
    except (RuntimeError, TypeError):
        return None


def shared_tensor(a: object) -> torch.Tensor | None:
    """A tensor over a writable ndarray's memory (torch has no read-only tensors and no
    negative strides)."""
    if type(a) is not _np.ndarray or not a.flags.writeable:
        return None
    if not a.flags.c_contiguous and any(s < 0 for s in a.strides):
        return None
    try:
        return torch.from_numpy(a)
    except (TypeError, ValueError):  # a dtype or byte order torch.from_numpy does not take
        return None


def _small_read(t: torch.Tensor) -> _np.ndarray | None:
    """A host copy of a small CUDA tensor, read with a plain copy (None for tensors that
    require grad or carry a conjugate or negative bit, which ``numpy()`` refuses)."""
    if t.nbytes >= _staging.PINNED_READ_MIN or traced(t):
        return None
    try:
        return t.cpu().numpy()
    except (RuntimeError, TypeError):
        return None


def _small_upload(a: object, place: str) -> torch.Tensor | None:
    """A small ndarray on the GPU in one plain copy."""
    if type(a) is not _np.ndarray or a.nbytes >= _staging.STAGE_MIN or not a.dtype.isnative:
        return None
    try:
        return torch.asarray(a, device=place, copy=True)
    except (TypeError, ValueError, RuntimeError):
        return None


def export(x: torch.Tensor) -> tuple[torch.Tensor, bool]:
    # DLPack refuses tensors that require grad and lazy conjugate/negative views.
    x = x.detach()
    if x.is_conj() or x.is_neg():
        return x.resolve_conj().resolve_neg(), True
    return x, False


def _on_host(obj: object) -> bool:
    device = getattr(obj, "__dlpack_device__", None)
    if device is None:
        return False
    try:
        return int(device()[0]) == 1  # kDLCPU
    except (AttributeError, TypeError, ValueError):
        return False


def from_dlpack(obj: Any, place: str | None, copy: bool | None) -> torch.Tensor:
    if (
        type(obj) is _np.ndarray
        and place in (None, "cpu")
        and obj.flags.writeable
        and all(s >= 0 for s in obj.strides)
    ):
        # The same memory as torch.from_dlpack gives, at a third of its fixed cost.
        try:
            out = torch.from_numpy(obj)
        except TypeError:  # a dtype torch.from_numpy does not know
            pass
        else:
            return out.clone() if copy else out
    strides = getattr(obj, "strides", None)
    flags = getattr(obj, "flags", None)
    # JAX arrays are always row-major; other host objects without strides (array-api-strict)
    # are asked through NumPy's view, which also says whether the memory is read-only (an
    # array-api-strict array over a JAX buffer).
    if (
        strides is None
        and not isinstance(obj, torch.Tensor)
        and not type(obj).__module__.startswith("jax")
        and _on_host(obj)
    ):
        view = _np.from_dlpack(obj)
        strides = view.strides  # torch aborts on negative DLPack strides
        flags = view.flags
    if strides is not None and any(s < 0 for s in strides):
        raise BufferError("torch tensors cannot have negative strides")
    if flags is not None and not getattr(flags, "writeable", True) and not copy:
        raise BufferError("torch has no read-only tensors")
    out = torch.from_dlpack(obj)
    if copy:
        out = out.clone()
    if place is not None and place != place_of(out):
        out = out.to(place)
    return out


def from_host(a: _np.ndarray, place: str) -> torch.Tensor:
    from ._staging import STAGE_MIN

    if place.startswith("cuda") and a.nbytes >= STAGE_MIN:
        return upload(a, place)
    import numpy as np

    if place == "cpu" or not a.flags.c_contiguous or not a.flags.writeable:
        a = np.array(a, order="C", copy=True)
        t = torch.from_numpy(a)
        return t if place == "cpu" else t.to(place)
    return torch.from_numpy(a).to(place)


def _torch_dtype(dt: _np.dtype) -> torch.dtype:
    import numpy as np

    return torch.from_numpy(np.empty(0, dtype=dt)).dtype


def _make_ring(dev: torch.device) -> Callable[[int, int], StagingRing]:
    from ._staging import StagingRing

    def make(chunk: int, count: int) -> StagingRing:
        pinned = [torch.empty(chunk, dtype=torch.uint8, pin_memory=True) for _ in range(count)]
        return StagingRing([p.numpy() for p in pinned], pinned, torch.cuda.Stream(dev))

    return make


def _pinned_bytes(a: _np.ndarray) -> torch.Tensor | None:
    """The bytes of ``a`` as a uint8 CPU tensor when ``a`` is C-contiguous and lies in page-locked
    memory (a pinned torch tensor's ``.numpy()``, memory registered with CUDA), else None."""
    import numpy as np

    if not (a.flags.c_contiguous and a.flags.writeable):  # from_numpy warns on read-only
        return None
    t = torch.from_numpy(a.reshape(-1).view(np.uint8))
    return t if t.is_pinned() else None


def upload(a: _np.ndarray, place: str) -> torch.Tensor:
    """A new CUDA tensor holding ``a`` (a host ndarray in native byte order, any layout).

    A C-contiguous ``a`` in page-locked memory is copied with one DMA. Otherwise the copy is
    pipelined through the device's ring of pinned buffers (``arraymux._backends._staging.staged_copy``):
    worker threads fill the buffers while the GPU copies the filled ones, on a stream of the
    ring; one synchronisation at the end."""
    from ._staging import staging_ring
    from ._staging import upload as staged_upload

    dev = torch.device(place)
    dtype = _torch_dtype(a.dtype)
    flat = torch.empty(a.nbytes, dtype=torch.uint8, device=dev)
    direct = _pinned_bytes(a)
    if direct is not None:
        # Page-locked already: one DMA at the full pinned bandwidth, no staging.
        flat.copy_(direct)
        return flat.view(dtype).reshape(a.shape)
    ring = staging_ring(("torch", str(dev)), _make_ring(dev))
    pinned = cast("list[torch.Tensor]", ring.keep)  # as _make_ring made the ring
    with ring.lock:
        stream = cast("torch.cuda.Stream", ring.stream)
        # The new memory may have been in use on the current stream until just now.
        stream.wait_stream(torch.cuda.current_stream(dev))

        def to_device(slot: int, offset: int, n: int) -> torch.cuda.Event:
            flat[offset : offset + n].copy_(pinned[slot][:n], non_blocking=True)
            event = torch.cuda.Event()
            event.record(stream)
            return event

        try:
            with torch.cuda.stream(stream):
                staged_upload(a, ring, to_device)
        finally:
            stream.synchronize()
    return flat.view(dtype).reshape(a.shape)


def move_within(x: torch.Tensor, src: str, dst: str) -> torch.Tensor | None:
    """torch:cuda <-> torch:cpu through pinned memory (None: leave it to ``Tensor.to``)."""
    from ._staging import PINNED_READ_MIN, STAGE_MIN

    if x.requires_grad or traced(x):
        return None  # Tensor.to keeps the autograd graph
    nbytes = x.numel() * x.element_size()
    if src.startswith("cuda") and dst == "cpu" and nbytes >= PINNED_READ_MIN:
        return pinned_reads([x])[0]
    if src == "cpu" and dst.startswith("cuda") and nbytes >= STAGE_MIN:
        try:
            a = x.resolve_conj().resolve_neg().numpy()
        except (TypeError, RuntimeError):
            return None
        return upload(a, dst)
    return None


def data_ptr(x: torch.Tensor) -> int:
    return int(x.data_ptr())


def to_host(x: torch.Tensor) -> _np.ndarray:
    return to_host_many([x])[0]


# Batched reads of CUDA tensors up to this size are gathered into one device buffer per dtype
# and read with one copy.
_GATHER_MAX = 64 << 10


def pinned_reads(xs: list[torch.Tensor]) -> list[torch.Tensor]:
    """CPU tensors in pinned memory holding ``xs`` (CUDA tensors): one synchronize per device."""
    out = []
    pending = set()
    for x in xs:
        buf = torch.empty(x.shape, dtype=x.dtype, pin_memory=True)
        buf.copy_(x, non_blocking=True)
        out.append(buf)
        pending.add(x.device)
    for dev in pending:
        torch.cuda.synchronize(dev)
    return out


def to_host_many(xs: list[torch.Tensor]) -> list[_np.ndarray]:
    """Non-blocking copies into pinned buffers, one synchronize per device.

    Small tensors of one device and dtype are first gathered into one device buffer (one
    kernel), read with one copy and split on the host; one small tensor alone is read with a
    plain copy, which costs less than a pinned one."""
    from ._staging import PINNED_READ_MIN

    out: list[_np.ndarray | None] = [None] * len(xs)
    groups: dict[tuple[torch.device, torch.dtype], list[int]] = {}
    big: list[int] = []
    ready: list[torch.Tensor] = list(xs)
    for i, x in enumerate(xs):
        if traced(x):
            raise TypeError(
                "cannot read a tensor that a transform differentiates (torch.func, "
                "arraymux.grad) on the host; return it from the transformed function instead."
            )
        if not x.is_cuda:  # the memory itself where torch allows it, as one by one
            view = _numpy_view(x)
            out[i] = view if view is not None else to_numpy(x)
            continue
        x = ready[i] = x.detach().resolve_conj().resolve_neg()
        nbytes = x.numel() * x.element_size()
        if len(xs) == 1 and nbytes < PINNED_READ_MIN:
            out[i] = x.cpu().numpy()
        elif len(xs) > 1 and nbytes <= _GATHER_MAX:
            groups.setdefault((x.device, x.dtype), []).append(i)
        else:
            big.append(i)
    gathered = []
    for idx in groups.values():
        if len(idx) == 1:
            big += idx
            continue
        try:
            flat = torch.cat([ready[i].reshape(-1) for i in idx])
        except (RuntimeError, NotImplementedError):  # cat has no kernel for some dtypes
            big += idx
            continue
        gathered.append((idx, flat))
    reads = pinned_reads([ready[i] for i in big] + [f for _, f in gathered])
    for i, buf in zip(big, reads):
        out[i] = buf.numpy()
    for (idx, _), buf in zip(gathered, reads[len(big) :]):
        host = buf.numpy()
        start = 0
        for i in idx:
            n = ready[i].numel()
            out[i] = host[start : start + n].reshape(tuple(ready[i].shape))
            start += n
    return cast("list[_np.ndarray]", out)  # every slot is filled above


def synchronize(place: str, xs: list[object]) -> None:
    """Wait for the device's queued work (CUDA, XPU, MPS); the CPU computes eagerly."""
    if place == "cpu":
        return
    kind = place.split(":")[0]
    if kind in ("cuda", "xpu"):
        getattr(torch, kind).synchronize(torch.device(place))
    elif kind == "mps":
        torch.mps.synchronize()


def setitem(x: torch.Tensor, key: _Key, value: Any) -> torch.Tensor:
    """``x[key] = value`` where torch refuses it as it is: slices with negative steps, a
    uint16/32/64 array (written through its signed view where torch has no kernel, as for
    masks), or a Python int that torch cannot unpack into an int64 (made a 0-d tensor of
    ``x``'s dtype first)."""
    mirrored = _mirrored(x, key)
    if mirrored is not None:  # negative steps: written into a flipped copy, flipped back
        flips, fixed = mirrored
        y = _flip(x, flips)
        setitem(y, fixed, value)
        x.copy_(_flip(y, flips))
        return x
    if x.dtype in _unsigned.UNSIGNED:
        return _unsigned.setitem(x, key, value)
    if type(value) is int and not -(2**63) <= value < 2**63:
        value = torch.full((), value, dtype=x.dtype, device=x.device)
    x[key] = value
    return x


def fill(x: torch.Tensor, key: _Key, value: complex) -> bool:
    """``x[key] = value`` for a Python number and a key of Python ints, slices, None and
    Ellipsis: the view it selects filled by a kernel that takes the number itself (torch's
    own ``x[key] = value`` makes a tensor of the number and copies it in, which a GPU waits
    for); False, having done nothing, for other keys and values (``setitem`` then)."""
    if x.dtype in _unsigned.UNSIGNED or (type(value) is int and not -(2**63) <= value < 2**63):
        return False
    parts = key if type(key) is tuple else (key,)
    for k in parts:
        if not (type(k) is int or k is None or k is Ellipsis or (type(k) is slice and _forward(k))):
            return False
    x[key].fill_(value)
    return True


def _forward(s: slice) -> bool:
    """Whether torch takes the slice as it is (no negative step, which it refuses)."""
    return s.step is None or (type(s.step) is int and s.step > 0)


def getitem(x: torch.Tensor, key: _Key) -> torch.Tensor:
    """``x[key]`` where torch refuses it: slices with negative steps, or a boolean mask
    with a zero-length axis (selects nothing).

    Each such axis is flipped (a copy: torch has no negative strides) and sliced with the
    mirrored positive step; the other parts of the key are applied as they are.
    """
    mirrored = _mirrored(x, key)
    if mirrored is None:
        if isinstance(key, torch.Tensor) and key.dtype == torch.bool:
            empty = _special_cases.empty_selection(tuple(x.shape), tuple(key.shape))
            if empty is not None:
                return x.new_empty(empty)
        return x[key]
    flips, fixed = mirrored
    return _flip(x, flips)[fixed]


def _flip(x: torch.Tensor, dims: list[int]) -> torch.Tensor:
    """``torch.flip``, through the signed view for uint16/32/64 (torch has no kernel)."""
    if x.dtype in _unsigned.UNSIGNED:
        flipped = torch.flip(_unsigned.reread(x, _unsigned.SIGNED[x.dtype]), dims)
        return _unsigned.reread(flipped, x.dtype)
    return torch.flip(x, dims)


def _mirrored(x: torch.Tensor, key: _Key) -> tuple[list[int], tuple[_Index, ...]] | None:
    """The axes to flip and the key with positive steps that select, from ``x`` flipped on
    those axes, what ``key`` (with negative steps) selects from ``x``; None without them."""
    parts = list(key) if isinstance(key, tuple) else [key]
    if not any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in parts):
        return None
    consumed = sum(1 for k in parts if k is not None and k is not Ellipsis)
    if any(k is Ellipsis for k in parts):
        i = next(j for j, k in enumerate(parts) if k is Ellipsis)
        parts[i : i + 1] = [slice(None)] * (x.ndim - consumed)
    else:
        parts += [slice(None)] * (x.ndim - consumed)
    axis = 0
    flips: list[int] = []
    fixed: list[_Index] = []
    for k in parts:
        if k is None:
            fixed.append(k)
            continue
        if isinstance(k, slice) and k.step is not None and k.step < 0:
            n = x.shape[axis]
            start, stop, step = k.indices(n)
            flips.append(axis)
            fixed.append(slice(n - 1 - start, n - 1 - stop, -step))
        else:
            fixed.append(k)
        axis += 1
    return flips, tuple(fixed)
