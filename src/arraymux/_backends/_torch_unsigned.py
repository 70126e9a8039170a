"""uint16, uint32 and uint64 on torch, computed through signed kernels where torch has none.

torch stores these dtypes (DLPack, NumPy conversion, casting, indexing, ``sort``, ``unique``
keep them) but implements few kernels for them: ``add``, ``less``, ``max``, ``arange``,
``floor_divide``, ``flip``, ``eye``, ... raise ``NotImplementedError``. arraymux keeps arrays
in the unsigned dtype and computes each such function on the same bits read as the signed
dtype of the same width (``Tensor.view``, which copies nothing):

- *modular* functions (``add``, ``subtract``, ``multiply``, ``negative``, bitwise operations,
  ``matmul``, ``where`` and the functions that only move elements) give the same bits in two's
  complement, so they run on the signed view as they are;
- *ordered* functions (comparisons, ``maximum``, ``max``, ``argmax``, ``clip``, ``sort``,
  ``searchsorted``, ``unique_*``) run on the bits with the top bit flipped, which maps the
  unsigned order onto the signed one;
- *divisions* (``floor_divide``, ``remainder``, ``pow``) and *shifts* run on uint16 and
  uint32 widened exactly to int64, and on uint64 through an unsigned long division (and logical
  shifts) written with int64 operations: exact over the whole range; true ``divide`` casts to
  torch's default floating dtype, as for signed integers;
- *reductions* (``sum``, ``prod``, ``cumulative_sum``, ``cumulative_prod``, ``linalg.trace``)
  accumulate in uint64, as the standard asks (torch's own kernels give int64).

:func:`emulate` is the adapter's ``emulate`` hook: the dispatcher calls it on the checking
path, where a function meets an unsigned operand (the fast path tries torch's own kernel first,
so functions torch implements cost nothing extra).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import torch

from .._function_table import BY_NAME

if TYPE_CHECKING:
    from torch._C import _Index

__all__ = ["EMULATED", "UNSIGNED", "emulate", "reduction", "reread", "setitem"]

#: The signed dtype of the same width, whose view computes what torch lacks.
SIGNED = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}
UNSIGNED = frozenset(SIGNED)
_BITS = {torch.uint16: 16, torch.uint32: 32, torch.uint64: 64}
_TOP = {torch.int16: -(2**15), torch.int32: -(2**31), torch.int64: -(2**63)}
_INT64_MAX = 2**63 - 1

#: The backend's function table (its functions give tensors, tuples or lists of them).
Fns = dict[str, Callable[..., Any]]

_wrapped = torch._C._functorch.is_functorch_wrapped_tensor


def reread(v: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """The bits of ``v`` read as ``dtype``, an integer dtype of the same width: a view, which
    copies nothing. Inside ``torch.func`` transforms of torch versions without a batching rule
    for ``view(dtype)`` (torch 2.11's ``vmap``), a cast, which keeps the bits of same-width
    integers (casts between them are modular)."""
    try:
        return v.view(dtype)
    except RuntimeError:
        if not _wrapped(v):
            raise
        return v.to(dtype)


# Functions whose results are the same bits whether the operands are read as signed or unsigned.
_MODULAR = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "negative",
        "positive",
        "square",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_invert",
        "equal",
        "not_equal",
        "where",
        "flip",
        "roll",
        "take",
        "take_along_axis",
        "repeat",
        "tile",
        "concat",
        "stack",
        "unstack",
        "meshgrid",
        "broadcast_arrays",
        "broadcast_to",
        "expand_dims",
        "squeeze",
        "reshape",
        "permute_dims",
        "moveaxis",
        "matrix_transpose",
        "linalg.matrix_transpose",
        "linalg.diagonal",
        "tril",
        "triu",
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
        "nonzero",
        "count_nonzero",
        "any",
        "all",
        "isnan",
        "isinf",
        "isfinite",
        "floor",
        "ceil",
        "trunc",
        "round",
        "real",
        "conj",
        "matmul",
        "linalg.matmul",
        "vecdot",
        "linalg.vecdot",
        "tensordot",
        "linalg.tensordot",
        "linalg.outer",
        "linalg.cross",
        "diff",
        "isin",
    }
)
# Functions that compare: run on the bits with the top bit flipped.
_ORDERED = frozenset(
    {
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "maximum",
        "minimum",
        "max",
        "min",
        "argmax",
        "argmin",
        "clip",
        "sort",
        "argsort",
        "searchsorted",
        "unique_all",
        "unique_counts",
        "unique_inverse",
        "unique_values",
    }
)
# Functions whose integer results are positions or counts, not values of the operands' dtype.
_INDEX_RESULTS = frozenset(
    {"nonzero", "count_nonzero", "argmax", "argmin", "argsort", "searchsorted"}
)
# Functions that read their second operand as positions or counts.
_INDEXED = frozenset({"take", "take_along_axis", "repeat"})
_REDUCTIONS = frozenset({"sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace"})
_CREATION = frozenset({"arange", "eye", "linspace", "full", "zeros", "ones", "empty"})
_OWN = frozenset(
    {
        "floor_divide",
        "remainder",
        "divide",
        "pow",
        "bitwise_left_shift",
        "bitwise_right_shift",
        "abs",
        "sign",
    }
)

# The positions of operands that may be Python scalars meeting the unsigned arrays.
_VALUE_OPERANDS: dict[str, tuple[int, ...]] = {
    **{name: (0, 1) for name, entry in BY_NAME.items() if entry.rule == "binary"},
    "where": (1, 2),
    "clip": (1, 2),
    "searchsorted": (1,),
}

#: Every function computed here for unsigned operands (the docs list them).
EMULATED = _MODULAR | _ORDERED | _REDUCTIONS | _CREATION | _OWN


def _unsigned_of(args: Iterable[object], kwargs: dict[str, object]) -> torch.dtype | None:
    """The dtype of the first unsigned tensor among the operands (in lists too), or None."""
    for v in args:
        u = _unsigned_in(v)
        if u is not None:
            return u
    for v in kwargs.values():
        u = _unsigned_in(v)
        if u is not None:
            return u
    return None


#: Operand types that are never tensors (``isinstance`` against ``torch.Tensor`` costs ~100 ns
#: for anything else, and this runs before every call of the Python paths on torch).
_NO_TENSOR = frozenset({bool, int, float, complex, str, type(None), slice})


def _unsigned_in(v: object) -> torch.dtype | None:
    """The dtype of ``v``, or of the first unsigned tensor of a list or tuple ``v``, if
    unsigned."""
    kind = type(v)
    if kind in _NO_TENSOR:
        return None
    if kind is list or kind is tuple:
        for item in v:  # type: ignore[attr-defined]
            if isinstance(item, torch.Tensor) and item.dtype in UNSIGNED:
                return item.dtype
        return None
    if isinstance(v, torch.Tensor):
        dt = v.dtype
        return dt if dt in UNSIGNED else None
    return None


def _tensor(v: object, u: torch.dtype, like: torch.Tensor) -> object:
    """A Python int beside arrays of ``u`` as a 0-d tensor of ``u`` (others unchanged)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return _filled(v, u, like.device)
    return v


def _first_tensor(args: Iterable[object]) -> torch.Tensor:
    for v in args:
        if isinstance(v, torch.Tensor):
            return v
        if isinstance(v, list | tuple) and v and isinstance(v[0], torch.Tensor):
            return v[0]
    raise TypeError("no array operand")


def _map(
    args: tuple[object, ...], kwargs: dict[str, object], f: Callable[[object], object]
) -> tuple[list[object], dict[str, object]]:
    def one(v: object) -> object:
        if isinstance(v, list | tuple):
            return type(v)(f(i) for i in v)
        return f(v)

    return [one(v) for v in args], {k: one(v) for k, v in kwargs.items()}


def _bits(u: torch.dtype) -> Callable[[object], object]:
    s = SIGNED[u]

    def f(v: object) -> object:
        if isinstance(v, torch.Tensor) and v.dtype == u:
            return reread(v, s)
        if v is u:  # a dtype= keyword
            return s
        return v

    return f


def _flipped(u: torch.dtype) -> Callable[[object], object]:
    s = SIGNED[u]
    top = _TOP[s]

    def f(v: object) -> object:
        if isinstance(v, torch.Tensor) and v.dtype == u:
            return reread(v, s) ^ top
        return v

    return f


def _back(r: object, u: torch.dtype, index_results: bool, flip: bool) -> object:
    s = SIGNED[u]
    if isinstance(r, list | tuple):
        items = [_back(v, u, index_results, flip) for v in r]
        make: Callable[..., object] = type(r)
        if hasattr(r, "_fields"):
            return make(*items)
        return make(items)
    if not isinstance(r, torch.Tensor) or r.dtype != s or index_results:
        return r
    if flip:
        r = r ^ _TOP[s]
    return reread(r, u)


def emulate(name: str, fns: Fns, args: tuple[object, ...], kwargs: dict[str, object]) -> object:
    """``name`` computed on unsigned operands through signed kernels, or ``NotImplemented``
    where no operand (nor ``dtype=``) is uint16, uint32 or uint64, or where ``name`` runs on
    torch's own kernels as it is."""
    if name not in EMULATED:
        return NotImplemented
    if name in _CREATION:
        return _creation(name, fns, args, kwargs)
    u = _unsigned_of(args, kwargs)
    if name in _REDUCTIONS and (u is not None or kwargs.get("dtype") in UNSIGNED):
        x = cast("torch.Tensor", args[0])  # a reduction's first operand is the array
        return reduction(name, fns, x, *args[1:], **kwargs)
    if u is None or name not in EMULATED:
        return NotImplemented
    positions = _VALUE_OPERANDS.get(name)
    if positions is not None:  # Python ints beside unsigned arrays: tensors of their dtype
        like = _first_tensor(args)
        args = tuple(_tensor(v, u, like) if i in positions else v for i, v in enumerate(args))
        if name == "clip":
            kwargs = {k: _tensor(v, u, like) for k, v in kwargs.items()}
    if name == "broadcast_arrays":  # each result keeps its own operand's dtype
        arrays = cast("tuple[torch.Tensor, ...]", args)  # its operands are arrays only
        out = fns[name](*(_bits(a.dtype)(a) if a.dtype in UNSIGNED else a for a in arrays))
        return [reread(o, a.dtype) if a.dtype in UNSIGNED else o for o, a in zip(out, arrays)]
    if name in _MODULAR:
        # Unsigned indices (or counts) beside a signed array: only the indices are read.
        index_only = name in _INDEXED and getattr(args[0], "dtype", None) not in UNSIGNED
        if name in _INDEXED:  # torch indexes with int64 only
            args = (args[0], *(_as_index(v) for v in args[1:]))
            kwargs = {k: _as_index(v) for k, v in kwargs.items()}
        if name == "full_like" and "fill_value" in kwargs:
            kwargs = dict(kwargs, fill_value=_signed_int(kwargs["fill_value"], u))
        elif name == "full_like" and len(args) > 1:
            args = (args[0], _signed_int(args[1], u), *args[2:])
        nargs, nkwargs = _map(args, kwargs, _bits(u))
        out = fns[name](*nargs, **nkwargs)
        return _back(out, u, index_only or name in _INDEX_RESULTS, flip=False)
    if name in _ORDERED:
        nargs, nkwargs = _map(args, kwargs, _flipped(u))
        out = fns[name](*nargs, **nkwargs)
        if name.startswith("unique_") and isinstance(out, tuple):
            make: Callable[..., object] = type(out)
            return make(_back(out[0], u, False, True), *out[1:])
        return _back(out, u, name in _INDEX_RESULTS, flip=True)
    return _OWN_FNS[name](fns, u, *args, **kwargs)


def _as_index(v: object) -> object:
    if isinstance(v, torch.Tensor) and v.dtype in UNSIGNED:
        return v.to(torch.int64)  # same bits for uint64, as a view's
    return v


def _filled(value: complex, u: torch.dtype, device: torch.device) -> torch.Tensor:
    """A 0-d tensor of ``u`` holding ``value``, filled on ``device`` (no copy from host
    memory); a Python int out of ``u``'s range is refused (``torch.full`` would wrap it)."""
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 2 ** _BITS[u]:
        raise OverflowError(f"the Python int {value} does not fit in {u}")
    return torch.full((), value, dtype=u, device=device)


def setitem(
    x: torch.Tensor, key: _Index | tuple[_Index, ...], value: torch.Tensor | complex
) -> torch.Tensor:
    """``x[key] = value`` for an unsigned ``x``, written through its signed view."""
    u = x.dtype
    if not isinstance(value, torch.Tensor):
        value = _filled(value, u, x.device)
    elif value.dtype != u:
        value = value.to(u)
    x.view(SIGNED[u])[key] = value.view(SIGNED[u])
    return x


def _signed_int(v: object, u: torch.dtype) -> object:
    """A Python int in the range of ``u`` as the signed int of the same bits."""
    if isinstance(v, int) and not isinstance(v, bool) and v >= 2 ** (_BITS[u] - 1):
        return v - 2 ** _BITS[u]
    return v


def reduction(
    name: str, fns: Fns, x: torch.Tensor, *args: object, **kwargs: object
) -> torch.Tensor:
    """``sum``, ``prod``, ``cumulative_sum``, ``cumulative_prod`` or ``linalg.trace`` of an
    unsigned ``x``: accumulated in ``dtype``, by default uint64 (torch's kernels give int64)."""
    given = kwargs.get("dtype")
    # the dispatcher passes dtypes as torch's own
    target = torch.uint64 if given is None else cast("torch.dtype", given)
    x = x.to(target)
    if target in SIGNED:
        out = fns[name](reread(x, SIGNED[target]), *args, **dict(kwargs, dtype=SIGNED[target]))
        return reread(out, target)
    return fns[name](x, *args, **dict(kwargs, dtype=target))


def _creation(name: str, fns: Fns, args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
    u = kwargs.get("dtype")
    if u not in UNSIGNED:
        return NotImplemented
    if name == "arange" and all(isinstance(v, int) for v in args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        step = kwargs.get("step", step)
        stop = kwargs.get("stop", stop)
        if stop is None:
            start, stop = 0, start
        n = max(0, -((start - stop) // step))
        base = fns["arange"](n, dtype=torch.int64, device=kwargs.get("device"))
        out = base * _signed_int(step, torch.uint64) + _signed_int(start, torch.uint64)
        return out.to(u)  # modular: the low bits of the int64 values
    if name in ("full", "zeros", "ones", "empty"):
        return NotImplemented  # torch fills unsigned tensors itself
    # eye, linspace, arange of floats: made in int64 (float64 for linspace), then cast.
    if name == "linspace":  # in int64 (see _torch._linspace), then cast
        return fns[name](*args, **dict(kwargs, dtype=torch.int64)).to(u)
    return fns[name](*args, **dict(kwargs, dtype=torch.int64)).to(u)


# --- division, powers, shifts, abs, sign --------------------------------------------------


def _wide(v: torch.Tensor) -> torch.Tensor:
    return v.to(torch.int64) if isinstance(v, torch.Tensor) else v


def _narrow(r: torch.Tensor, u: torch.dtype) -> torch.Tensor:
    return r.to(u)  # modular: the low bits


def _uge(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``a >= b`` for int64 tensors holding uint64 bits."""
    return (a ^ _TOP[torch.int64]) >= (b ^ _TOP[torch.int64])


def _divmod64(fns: Fns, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Unsigned quotient and remainder of int64 tensors holding uint64 bits."""
    big = b < 0  # divisors of 2**63 and more: the quotient is 0 or 1
    bs = torch.where(big, 1, b)
    half = (a >> 1) & _INT64_MAX  # a // 2, as a non-negative int64
    q = fns["floor_divide"](half, bs) << 1
    r = a - q * bs  # below 2 * bs: at most one correction
    fix = _uge(r, bs)
    q = torch.where(fix, q + 1, q)
    r = torch.where(fix, r - bs, r)
    ge = _uge(a, b)
    q = torch.where(big, ge.to(torch.int64), q)
    r = torch.where(big, torch.where(ge, a - b, a), r)
    return q, r


def _floor_divide(fns: Fns, u: torch.dtype, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    if u != torch.uint64:
        return _narrow(fns["floor_divide"](_wide(x1), _wide(x2)), u)
    return reread(_divmod64(fns, reread(x1, torch.int64), reread(x2, torch.int64))[0], u)


def _remainder(fns: Fns, u: torch.dtype, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    if u != torch.uint64:
        return _narrow(fns["remainder"](_wide(x1), _wide(x2)), u)
    return reread(_divmod64(fns, reread(x1, torch.int64), reread(x2, torch.int64))[1], u)


def _divide(
    fns: Fns, u: torch.dtype, x1: torch.Tensor | float, x2: torch.Tensor | float
) -> torch.Tensor:
    # In torch's default floating dtype, as true division of any integers gives on torch.
    real = torch.get_default_dtype()
    return fns["divide"](*(v.to(real) if isinstance(v, torch.Tensor) else v for v in (x1, x2)))


def _pow(fns: Fns, u: torch.dtype, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    if u != torch.uint64:
        return _narrow(torch.pow(_wide(x1), _wide(x2)), u)
    a, e = reread(x1, torch.int64), reread(x2, torch.int64)
    # Exponents of 2**63 and more: odd bases have an order dividing 2**62 modulo 2**64, and
    # even bases give 0 from the 64th power on.
    huge = e < 0
    out = torch.pow(a, torch.where(huge, e & (2**62 - 1), e))
    return reread(torch.where(huge & ((a & 1) == 0), 0, out), u)


def _shift_counts(k: torch.Tensor, width: int) -> torch.Tensor:
    """Shift counts as int64, those of ``width`` and more (and uint64 ones above 2**63)
    made ``width``."""
    k = k.to(torch.int64)  # same bits for uint64, as a view's
    return torch.where((k < 0) | (k > width), width, k)


def _left_shift(fns: Fns, u: torch.dtype, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    width = _BITS[u]
    k = _shift_counts(x2, width)
    if u != torch.uint64:
        return _narrow(_wide(x1) << k, u)
    a = reread(x1, torch.int64)
    return reread(torch.where(k >= 64, 0, a << torch.clamp(k, max=63)), u)


def _right_shift(fns: Fns, u: torch.dtype, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    width = _BITS[u]
    k = _shift_counts(x2, width)
    if u != torch.uint64:
        return _narrow(_wide(x1) >> k, u)  # zero-extended: the shift is logical
    a = reread(x1, torch.int64)
    logical = ((a >> 1) & _INT64_MAX) >> torch.clamp(k - 1, 0, 62)
    return reread(torch.where(k >= 64, 0, torch.where(k == 0, a, logical)), u)


def _abs(fns: Fns, u: torch.dtype, x: torch.Tensor) -> torch.Tensor:
    return x.clone()


def _sign(fns: Fns, u: torch.dtype, x: torch.Tensor) -> torch.Tensor:
    return (reread(x, SIGNED[u]) != 0).to(u)


_OWN_FNS: dict[str, Callable[..., torch.Tensor]] = {
    "floor_divide": _floor_divide,
    "remainder": _remainder,
    "divide": _divide,
    "pow": _pow,
    "bitwise_left_shift": _left_shift,
    "bitwise_right_shift": _right_shift,
    "abs": _abs,
    "sign": _sign,
}
