"""Special cases of the standard that NumPy, PyTorch and JAX get wrong, written once over a
backend's Array API namespace ``ns``. Each factory takes the backend's own function and returns
one that agrees with it everywhere except on the special cases, where it follows the standard.

``make_complex(re, im)`` builds a complex array from its parts keeping signed zeros, infinities
and NaNs (``re + 1j * im`` does not). Only the dtypes concerned pay for a fix (real floating for
``floor_divide``, ``remainder`` and ``sign``, complex for the others); other dtypes go straight
to the backend's function after one dtype check.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import EllipsisType, ModuleType
from typing import Any, Protocol, Self, TypeVar, cast

from ._adapter import NativeArray, RealBased

#: The backend's native array (what ``base`` returns and ``make_complex`` builds).
_A = TypeVar("_A", bound=NativeArray)
#: An operand of ``componentwise`` (a native array or a Python scalar), and one of its parts.
_X = TypeVar("_X")
_P = TypeVar("_P")
_R = TypeVar("_R")


class _Dividing(NativeArray, Protocol):
    """A native array as ``floor_divide``'s fix reads it: it divides and is divided."""

    def __truediv__(self, other: _Dividing | float, /) -> NativeArray: ...

    def __rtruediv__(self, other: float, /) -> NativeArray: ...


_S = TypeVar("_S", bound=NativeArray)


class _Scaling(NativeArray, Protocol):
    """A native array as ``corrected`` reads it: times a number, an array of its kind."""

    def __mul__(self, other: float, /) -> Self: ...


_M = TypeVar("_M", bound=_Scaling)


class _Stack(Protocol):
    """A stack of matrices (or vectors) as ``solve`` reads it."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def ndim(self) -> int: ...

    @property
    def device(self) -> object: ...

    def __getitem__(self, key: tuple[EllipsisType, int], /) -> _Stack: ...


_SCALARS = (bool, int, float)  # real scalars: the only ones floor_divide meets on floats


def complex_only(fixed: Callable[..., _R], base: Callable[..., object]) -> RealBased[_R]:
    """Mark ``fixed`` as ``base`` itself on every operand that is not complex: the compiled
    hot path then calls ``base`` directly for those (see ``Backend``'s "name(x)" entries)."""
    marked = cast("RealBased[_R]", fixed)  # a function object takes the attribute it names
    marked.real_base = base
    return marked


class Kinds(dict[object, bool]):
    """Native dtype -> whether it is of ``kind`` (one of ``isdtype``'s kinds, or a tuple of
    them), asked of ``ns.isdtype`` once per dtype: the fixes check the dtype of every call, and
    a dict lookup costs a tenth of ``isdtype``.

    Filled at once with the namespace's own dtypes (about 6 us): a lookup that first fills an
    entry inside ``torch.compile``'s trace is a side effect that the compiled function would
    replay (clear the dict, set it again) on every call; other dtypes are asked on first use.
    """

    def __init__(self, ns: ModuleType, kind: str | tuple[str, ...]) -> None:
        super().__init__()
        self.ns = ns
        self.kind = kind
        try:
            dtypes = ns.__array_namespace_info__().dtypes().values()
        except Exception:  # a namespace without (working) inspection: filled on first use
            return
        for dtype in dtypes:
            self[dtype] = bool(ns.isdtype(dtype, kind))

    def __missing__(self, dtype: object) -> bool:
        out = self[dtype] = bool(self.ns.isdtype(dtype, self.kind))
        return out


def _negated(x: _M) -> _M:
    """``-x`` keeping the signs of zeros when compiled too: ``x * -1.0``. Triton, which
    torch.compile writes GPU code in, computes ``-x`` as ``0 - x``, which makes ``-(+0)``
    ``+0``; a product by -1 keeps IEEE's sign rule."""
    return x * -1.0


def _on_complex(
    ns: ModuleType, base: Callable[..., _A], fix: Callable[[_A, _A], _A]
) -> RealBased[_A]:
    """``base``, whose result ``r`` on a complex operand ``x`` is replaced by ``fix(x, r)``
    (named as ``fix``); other dtypes pay one dtype check."""
    kinds = Kinds(ns, "complex floating")

    def fixed(x: _A, /) -> _A:
        r = base(x)
        if not kinds[x.dtype]:
            return r
        return fix(x, r)

    fixed.__name__, fixed.__qualname__ = fix.__name__, fix.__qualname__
    return complex_only(fixed, base)


def floor_divide(
    ns: ModuleType, base: Callable[..., _A], zero_results: bool = False
) -> Callable[..., _A]:
    """``floor(x1 / x2)`` where an operand is infinite or ``x1`` is zero: NumPy, PyTorch and JAX
    follow Python's ``//`` there (``inf // 2`` is NaN, ``1 // -inf`` is -1) or lose the sign of
    a zero; the standard does not. ``zero_results``: also where the result is zero (XLA on GPUs
    gives ``-1.0 // -2.5`` as ``-0``)."""

    kinds = Kinds(ns, "real floating")

    def floor_divide(x1: _Dividing | float, x2: _Dividing | float, /) -> _A:
        r = base(x1, x2)
        if not kinds[r.dtype]:
            return r
        if zero_results:
            return ns.where(r == 0, ns.floor(_quotient(x1, x2)), _fixed_floor_divide(x1, x2, r))
        return _fixed_floor_divide(x1, x2, r)

    def _quotient(x1: _Dividing | float, x2: _Dividing | float) -> object:
        # A Python number over an array as an array over an array: torch computes number /
        # tensor as reciprocal(tensor) * number, which gives 0 / 5e-324 as NaN (0 * inf).
        if isinstance(x1, _SCALARS) and not isinstance(x2, _SCALARS):
            return ns.full_like(x2, x1) / x2
        return x1 / x2

    def _inf_or_zero(x1: _Dividing) -> object:
        # x1 + x1 == x1 holds for the infinities and the zeros alone (NaN != NaN, and 2 * x1
        # of a finite non-zero x1 is another number, or an infinity where it overflows): two
        # operations on the array, where isinf | (== 0) takes three, two of them slower on
        # torch (8 floats // 2 on its CPU: 14.5 -> 10 us). JAX keeps the plain test, compiled.
        if zero_results:
            return ns.isinf(x1) | (x1 == 0)
        return x1 + x1 == x1  # type: ignore[operator]

    def _fixed_floor_divide(x1: _Dividing | float, x2: _Dividing | float, r: _A) -> _A:
        # x1 infinite or zero (JAX gives -0 // 2 == +0), or x2 infinite.
        masks = [
            (math.isinf(x1) or x1 == 0) if isinstance(x1, _SCALARS) else _inf_or_zero(x1),
            math.isinf(x2) if isinstance(x2, _SCALARS) else ns.isinf(x2),
        ]
        if masks[0] is False:
            mask = masks[1]
        elif masks[1] is False:
            mask = masks[0]
        elif masks[0] is True or masks[1] is True:
            return ns.floor(_quotient(x1, x2))
        else:
            mask = ns.logical_or(masks[0], masks[1])
        if mask is False:
            return r
        return ns.where(mask, ns.floor(_quotient(x1, x2)), r)

    return floor_divide


def expm1(
    ns: ModuleType, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """Complex ``expm1`` with the standard's special cases (infinite and NaN parts, signed
    zeros), computed as ``expm1(a) cos(b) - 2 sin(b/2)**2 + i exp(a) sin(b)``, which also keeps
    accuracy near zero."""

    kinds = Kinds(ns, "complex floating")

    def expm1(x: _A, /) -> _A:
        if not kinds[x.dtype]:
            return base(x)
        a, b = ns.real(x), ns.imag(x)
        s = ns.sin(b / 2)
        re = ns.expm1(a) * ns.cos(b) - 2 * s * s
        im = ns.exp(a) * ns.sin(b)
        b_finite = ns.isfinite(b)
        b_zero = b == 0
        # b == +-0: the imaginary part is b itself, the real part expm1(a) (+0 for a == -0).
        e = ns.expm1(a)  # (zeros replaced, not e + 0.0: compiled, XLA drops an added zero)
        re = ns.where(b_zero, ns.where(e == 0, ns.zeros_like(e), e), re)
        im = ns.where(b_zero, b, im)
        # a == -inf: exp(a) == 0, so -1 + 0j whatever b is.
        a_ninf = a == -math.inf
        re = ns.where(a_ninf, -1.0, re)
        im = ns.where(a_ninf & ~b_finite, 0.0, im)
        # a == +inf and b infinite or NaN: inf + NaN j.
        a_pinf_bad = (a == math.inf) & ~b_finite
        re = ns.where(a_pinf_bad, math.inf, re)
        im = ns.where(a_pinf_bad, math.nan, im)
        return make_complex(re, im)

    return complex_only(expm1, base)


def tanh(
    ns: ModuleType, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """Complex ``tanh``: ``tanh(+inf + bj)`` is ``1 + 0j`` for finite ``b`` (with the sign of
    ``b`` on the zero); the backends give ``1 + 0 * sin(2b) j``."""

    def tanh(x: _A, r: _A) -> _A:
        a, b = ns.real(x), ns.imag(x)
        mask = (a == math.inf) & ns.isfinite(b)
        # A zero with the sign of b (0 * b, compiled, lost it: inductor folds the product)
        im = ns.where(mask, ns.copysign(ns.zeros_like(b), b), ns.imag(r))
        return make_complex(ns.real(r), im)

    return _on_complex(ns, base, tanh)


def remainder(ns: ModuleType, base: Callable[..., _A]) -> Callable[..., _A]:
    """A zero remainder takes the sign of ``x2`` (``-0 % 2`` is ``+0``), as the standard and
    Python say; PyTorch and JAX keep the sign of ``x1``."""

    kinds = Kinds(ns, "real floating")

    def remainder(x1: object, x2: object, /) -> _A:
        r = base(x1, x2)
        if not kinds[r.dtype]:
            return r
        if type(x2) is float or type(x2) is int:
            # A Python divisor: every remainder has its sign (or is NaN), so one operation
            # gives zeros that sign too (three, where, copysign and ==, cost 4-5x on torch).
            if x2 > 0:
                return ns.abs(r)
            if x2 < 0:
                return _negated(ns.abs(r))
            return r  # (a zero or NaN divisor: NaN remainders)
        return ns.where(r == 0, ns.copysign(r, x2), r)

    return remainder


def change_of_base(
    ns: ModuleType,
    base: Callable[..., _A],
    log: Callable[..., _A],
    radix: float,
    make_complex: Callable[[_A, _A], _A],
) -> Callable[..., _A]:
    """Complex ``log2``/``log10`` as the standard defines their special cases: ``log(x) /
    log(radix)`` with ``log`` meeting its own (JAX and CuPy give ``NaN + NaN j`` for
    ``inf + NaN j``, CuPy ``-inf + NaN j`` for ``0j``), the division made part by part."""
    scale = 1 / math.log(radix)

    kinds = Kinds(ns, "complex floating")

    def fixed(x: _A, /) -> _A:
        if not kinds[x.dtype]:
            return base(x)
        r = log(x)
        return make_complex(ns.real(r) * scale, ns.imag(r) * scale)

    return complex_only(fixed, base)


def complex_abs(ns: ModuleType, base: Callable[..., _A]) -> Callable[..., _A]:
    """Complex ``abs`` of an operand with an infinite part is ``+inf`` even where the other
    part is NaN (JAX gives NaN)."""

    def abs(x: _A, r: _A) -> _A:
        return ns.where(ns.isinf(ns.real(x)) | ns.isinf(ns.imag(x)), math.inf, r)

    return _on_complex(ns, base, abs)


def acos(
    ns: ModuleType, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """Complex ``acos(+-0 + 0j)`` is ``pi/2 - 0j`` (PyTorch gives ``pi/2 + 0j``)."""

    def acos(x: _A, r: _A) -> _A:
        a, b = ns.real(x), ns.imag(x)
        mask = (a == 0) & (b == 0)
        return make_complex(ns.real(r), ns.where(mask, _negated(b), ns.imag(r)))

    return _on_complex(ns, base, acos)


def log1p(
    ns: ModuleType, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """Complex ``log1p`` of an operand with an infinite part is ``log|1 + z| + i arg(1 + z)``,
    which meets the standard's special cases (``inf + pi/2 j``, ``inf + NaN j``) where PyTorch
    and JAX give NaNs."""

    def log1p(x: _A, r: _A) -> _A:
        a1, b = ns.real(x) + 1, ns.imag(x)
        mask = ns.isinf(a1) | ns.isinf(b)
        re = ns.where(mask, ns.hypot(a1, b), ns.real(r))
        im = ns.where(mask, ns.atan2(b, a1), ns.imag(r))
        return make_complex(re, im)

    return _on_complex(ns, base, log1p)


def sign(ns: ModuleType, base: Callable[..., _S]) -> Callable[..., _S]:
    """``sign(-0)`` is ``+0`` (JAX gives ``-0``). The zeros are replaced, not ``r + 0.0``:
    compiled, XLA drops an added zero."""

    kinds = Kinds(ns, ("real floating", "complex floating"))

    def sign(x: _S, /) -> _S:
        r = base(x)
        if kinds[r.dtype]:
            return cast("_S", ns.where(r == 0, ns.zeros_like(r), r))
        return r

    return sign


def corrected(base: Callable[..., _M]) -> Callable[..., _M]:
    """``std`` or ``var`` with the standard's special case: NaN where ``N - correction <= 0``
    (``N`` the number of elements reduced). NumPy, CuPy, torch and array-api-strict divide by
    zero or by a negative count there, giving infinity (NaN for equal values); JAX and Dask
    give NaN. The count is read from the shape: no data is read."""

    def fn(
        x: _M,
        /,
        *,
        axis: int | tuple[int, ...] | None = None,
        correction: float = 0.0,
        keepdims: bool = False,
    ) -> _M:
        if correction > 0 and _count(x.shape, axis) <= correction:
            # (the backend's own warning of no degrees of freedom left out)
            return base(x, axis=axis, keepdims=keepdims) * _NAN
        return base(x, axis=axis, correction=correction, keepdims=keepdims)

    fn.__name__ = fn.__qualname__ = getattr(base, "__name__", "std_or_var")
    return fn


def nonnegative_count(base: Callable[..., _A]) -> Callable[..., _A]:
    """``repeat`` refusing a negative count given as a Python int with ``ValueError``, as
    NumPy and torch refuse it for any array but an empty one: NumPy, CuPy, Dask and
    array-api-strict repeated an empty array -1 times, and JAX raised ``TypeError``."""

    def repeat(x: _A, repeats: object, /, **kwargs: object) -> _A:
        if type(repeats) is int and repeats < 0:
            raise ValueError("repeats may not be negative.")
        return base(x, repeats, **kwargs)

    repeat.__name__ = repeat.__qualname__ = "repeat"
    return repeat


def squeeze_of_axis(base: Callable[..., _A]) -> Callable[..., _A]:
    """``squeeze`` with its ``axis`` required, as the standard has it and torch's and
    array-api-strict's are: NumPy's, JAX's and Dask's remove every axis of length 1 without
    one, so ``squeeze(x)`` computed on three backends and raised on two. A call without
    ``axis`` raises ``TypeError`` here, which arraymux's checks then explain."""

    def squeeze(x: _A, /, axis: int | tuple[int, ...]) -> _A:
        return base(x, axis=axis)

    return squeeze


def inf_norm_of_nothing(ns: ModuleType, base: Callable[..., _A]) -> Callable[..., _A]:
    """``linalg.vector_norm`` whose ``ord=inf`` norm of no elements is 0, as NumPy's, JAX's,
    array-api-strict's and Dask's (the largest absolute value of none, where every value is
    at least 0); torch and CuPy refuse it. Read from the shape: no data is read."""

    def vector_norm(
        x: _A,
        /,
        *,
        axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False,
        ord: float = 2,
    ) -> _A:
        if ord == math.inf and 0 in x.shape:
            # Over an empty axis every result is 0; over full ones of an empty array, none.
            return cast(_A, ns.sum(ns.abs(x), axis=axis, keepdims=keepdims))
        return base(x, axis=axis, keepdims=keepdims, ord=ord)

    vector_norm.__name__ = "vector_norm"
    return vector_norm


def stable_descending(ns: ModuleType, base: Callable[..., _A]) -> Callable[..., _A]:
    """``sort`` whose stable descending order keeps equal elements in their order, as the
    standard asks: NumPy, CuPy, JAX, Dask and array-api-strict sort ascending and reverse the
    result, which reverses equal elements too (``-0.0`` before ``0.0`` came out ``0.0``,
    ``-0.0``; torch keeps them). Sorting the reversed input ascending and reversing that keeps
    them (two views more on NumPy)."""

    def sort(x: _A, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> _A:
        if descending and stable:
            r = base(ns.flip(x, axis=axis), axis=axis, stable=True)
            return cast(_A, ns.flip(r, axis=axis))
        return base(x, axis=axis, descending=descending, stable=stable)

    sort.__name__ = sort.__qualname__ = "sort"
    return sort


def _count(shape: tuple[int | float | None, ...], axis: int | tuple[int, ...] | None) -> float:
    """The number of elements that a reduction over ``axis`` of an array of ``shape`` reads
    (NaN where a length is unknown: Dask's)."""
    sizes = (
        shape if axis is None else [shape[a] for a in ((axis,) if isinstance(axis, int) else axis)]
    )
    return math.prod(math.nan if n is None else n for n in sizes)


# -- complex special cases from a table ---------------------------------------------------------
#
# Each case is ``(condition, re, im)`` on the canonical quadrant (real part >= +0 for odd and
# even functions, imaginary part >= +0 for every function here, all conjugate symmetric); the
# parity of the function maps the other quadrants onto it. ``re`` and ``im`` are numbers (NaN
# where the standard leaves the result NaN, and any sign where it leaves the sign open).

_INF, _NAN, _HALF_PI = math.inf, math.nan, math.pi / 2


def _zero(v: NativeArray) -> Any:
    return v == 0


def _pinf(v: NativeArray) -> Any:
    return v == _INF


def _finite_nonzero(ns: ModuleType, v: NativeArray) -> Any:
    return ns.isfinite(v) & (v != 0)


#: function -> (parity: "odd", "even" or None, cases). Only the cases the backends get wrong.
COMPLEX_CASES: dict[str, tuple[str | None, list[tuple[Callable[..., Any], float, float]]]] = {
    # The finite-nonzero cases: XLA on GPUs gives a finite part there (JAX 0.11, x64).
    "acos": (
        None,
        [
            (lambda ns, a, b: _zero(a) & ns.isnan(b), _HALF_PI, _NAN),
            (lambda ns, a, b: _finite_nonzero(ns, a) & ns.isnan(b), _NAN, _NAN),
        ],
    ),
    "acosh": (
        None,
        [
            (lambda ns, a, b: _zero(a) & ~ns.signbit(a) & ns.isnan(b), _NAN, _HALF_PI),
            (lambda ns, a, b: _finite_nonzero(ns, a) & ns.isnan(b), _NAN, _NAN),
        ],
    ),
    "asinh": (
        "odd",
        [
            (lambda ns, a, b: ns.isnan(a) & _zero(b), _NAN, 0.0),
            (lambda ns, a, b: ns.isnan(a) & _finite_nonzero(ns, b), _NAN, _NAN),
        ],
    ),
    "atanh": (
        "odd",
        [
            (lambda ns, a, b: _finite_nonzero(ns, a) & ns.isnan(b), _NAN, _NAN),
            (lambda ns, a, b: _zero(a) & ns.isnan(b), 0.0, _NAN),
            (lambda ns, a, b: _pinf(a) & ns.isnan(b), 0.0, _NAN),
            (lambda ns, a, b: ns.isnan(a) & ~ns.isinf(b), _NAN, _NAN),
        ],
    ),
    "cosh": (
        "even",
        [
            (lambda ns, a, b: _zero(a) & (_pinf(b) | ns.isnan(b)), _NAN, 0.0),
            (lambda ns, a, b: _pinf(a) & (_pinf(b) | ns.isnan(b)), _INF, _NAN),
        ],
    ),
    "sinh": (
        "odd",
        [
            (lambda ns, a, b: _zero(a) & (_pinf(b) | ns.isnan(b)), 0.0, _NAN),
            (lambda ns, a, b: _pinf(a) & (_pinf(b) | ns.isnan(b)), _INF, _NAN),
        ],
    ),
    "tanh": ("odd", [(lambda ns, a, b: _zero(a) & (_pinf(b) | ns.isnan(b)), 0.0, _NAN)]),
    "exp": (
        None,
        [
            (lambda ns, a, b: _pinf(a) & (_pinf(b) | ns.isnan(b)), _INF, _NAN),
            (lambda ns, a, b: (a == -_INF) & (_pinf(b) | ns.isnan(b)), 0.0, 0.0),
        ],
    ),
    "log": (
        None,
        [
            (lambda ns, a, b: ns.isinf(a) & ns.isnan(b), _INF, _NAN),
            (lambda ns, a, b: ns.isnan(a) & _pinf(b), _INF, _NAN),
        ],
    ),
    "sqrt": (
        None,
        [
            (lambda ns, a, b: _pinf(a) & ns.isnan(b), _INF, _NAN),
            (lambda ns, a, b: (a == -_INF) & ns.isnan(b), _NAN, _INF),
        ],
    ),
}


def complex_cases(
    ns: ModuleType, name: str, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """``base`` with the special cases of :data:`COMPLEX_CASES` for ``name`` on complex input;
    other dtypes pay one dtype check."""
    parity, cases = COMPLEX_CASES[name]

    def fixed(x: _A, r: _A) -> _A:
        a, b = ns.real(x), ns.imag(x)
        # Onto the canonical quadrant: |b| (conjugate symmetry), |a| (parity).
        flip_a = (ns.signbit(a) & ~ns.isnan(a)) if parity else None
        flip_b = ns.signbit(b) & ~ns.isnan(b)
        ca = ns.abs(a) if parity else a
        cb = ns.abs(b)
        re, im = ns.real(r), ns.imag(r)
        hit = None
        case_re, case_im = re, im
        for cond, c_re, c_im in cases:
            m = cond(ns, ca, cb)
            case_re = ns.where(m, c_re, case_re)
            case_im = ns.where(m, c_im, case_im)
            hit = m if hit is None else hit | m
        if parity == "odd":  # f(-z) = -f(z): with conj symmetry, f(-a+bj) = -conj f(a+bj)
            case_re = ns.where(flip_a, _negated(case_re), case_re)
        if parity is not None:  # both odd and even flip the imaginary part with a
            case_im = ns.where(flip_a ^ flip_b, _negated(case_im), case_im)
        else:
            case_im = ns.where(flip_b, _negated(case_im), case_im)
        return make_complex(ns.where(hit, case_re, re), ns.where(hit, case_im, im))

    return _on_complex(ns, base, fixed)


def reciprocal(
    ns: ModuleType, base: Callable[..., _A], make_complex: Callable[[_A, _A], _A]
) -> Callable[..., _A]:
    """Complex ``reciprocal(0)`` is ``NaN + NaN j``: the standard computes it as ``1 / x`` by the
    textbook formula when every part is finite (``0 / 0`` in both parts); PyTorch and JAX give
    the C99 complex infinity ``inf + NaN j``."""

    def reciprocal(x: _A, r: _A) -> _A:
        zero = x == 0
        nan = ns.where(zero, _NAN, ns.real(r))
        return make_complex(nan, ns.where(zero, _NAN, ns.imag(r)))

    return _on_complex(ns, base, reciprocal)


def componentwise(
    base: Callable[..., _A],
    combine: Callable[[_P, _P], _P],
    parts: Callable[[_X], tuple[_P, _P]],
    make_complex: Callable[[_P, _P], _A],
    is_complex: Callable[[_A], bool],
) -> Callable[..., _A]:
    """Complex ``add`` and ``subtract`` part by part, as the standard defines them: PyTorch
    computes ``x1 + alpha * x2`` with a complex product, so an infinite part of ``x2`` gives
    ``inf * 0 = NaN`` in the other part (``(1 + 2j) + -inf`` is ``-inf + NaN j``, NumPy and JAX
    give ``-inf + 2j``). ``combine(a, b)`` is the real operation; ``parts(v)`` splits an
    operand (a tensor or a Python scalar) into its real and imaginary parts."""

    def fixed(x1: _X, x2: _X, /) -> _A:
        r = base(x1, x2)
        if not is_complex(r):
            return r
        re1, im1 = parts(x1)
        re2, im2 = parts(x2)
        return make_complex(combine(re1, re2), combine(im1, im2))

    fixed.__name__ = fixed.__qualname__ = getattr(base, "__name__", "fixed")
    return complex_only(fixed, base)


def complex_pow(
    ns: ModuleType, base: Callable[..., _A], is_complex: Callable[[_A], bool]
) -> Callable[..., _A]:
    """Complex ``pow(x1, 0)`` is ``1 + 0j`` for every ``x1`` (as NumPy, JAX and C99's ``cpow``
    give; the standard allows this care); PyTorch gives ``NaN + NaN j`` for ``x1 == 0``.
    ``is_complex(result)``: the backend's cheapest test (``pow`` is on hot paths)."""

    def pow(x1: object, x2: object, /) -> _A:
        r = base(x1, x2)
        return r if not is_complex(r) else complex_pow_of_zero(ns, r, x2)

    return complex_only(pow, base)


def complex_pow_of_zero(ns: ModuleType, r: _A, x2: object) -> _A:
    """``r``, a complex ``pow(x1, x2)``, with ``1 + 0j`` where ``x2`` is 0 (see
    :func:`complex_pow`)."""
    if isinstance(x2, bool | int | float | complex):
        return cast("_A", ns.ones_like(r)) if x2 == 0 else r
    return cast("_A", ns.where(x2 == 0, ns.ones_like(r), r))


def half_powers(
    ns: ModuleType, base: Callable[..., _A], is_real: Callable[[_A], bool]
) -> Callable[..., _A]:
    """``pow`` with the standard's ``pow(-0, 0.5) = +0`` and ``pow(-inf, 0.5) = +inf`` over a
    backend that runs NumPy's kernels (Dask's chunks, array-api-strict): NumPy computes
    ``x ** 0.5`` as ``sqrt(x)``, ``-0`` and NaN there, for an exponent shared by every element
    (a Python scalar, a 0-d array, an axis of stride 0, which a chunk of a filled Dask array
    is), so every array exponent is mended. ``is_real(result)``: whether it is real floating.
    (torch and NumPy have their own ``pow``, which tests less.)"""

    def pow(x1: Any, x2: Any, /) -> _A:
        r: Any = base(x1, x2)
        if isinstance(x2, bool | int) or not is_real(r):
            return cast("_A", r)
        if type(x2) is float:
            return cast("_A", half_power_cases(ns, x1, x2, r) if x2 == 0.5 else r)
        return cast("_A", half_power_where(ns, x1, x2, r))

    return pow


def half_power_where(ns: ModuleType, x1: Any, x2: Any, r: Any) -> Any:
    """``r``, ``pow(x1, x2)`` of an array exponent, with the standard's values where ``x2`` is
    0.5 and ``x1`` is ``-0`` or ``-inf`` (``+0``, ``+inf``)."""
    half = x2 == 0.5
    r = ns.where(half & (x1 == -math.inf), math.inf, r)
    return ns.where(half & (x1 == 0), 0.0, r)


def half_power_cases(ns: ModuleType, x1: Any, x2: float, r: Any) -> Any:
    """``r``, ``pow(x1, x2)`` for ``x2`` 0.5 or -0.5 computed as a square root or its
    reciprocal, with the standard's values for ``x1`` of ``-0`` and ``-inf``."""
    if x2 > 0:  # abs turns -0 into +0 and leaves every other root (r + 0.0 did, but
        # torch 2.14's compiler drops an added zero)
        return ns.where(x1 == -math.inf, math.inf, ns.abs(r))
    return ns.where(x1 == 0, math.inf, ns.where(x1 == -math.inf, 0.0, r))


def empty_selection(shape: tuple[int, ...], mask_shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """The shape of ``x[mask]`` when ``mask`` has an axis of length 0 that meets an axis of
    ``x`` of another length, or None.

    The standard (and NumPy) accept a mask length of 0 against any length and select nothing;
    torch and dask want equal lengths. A mask that does not fit ``x`` otherwise gives None, so
    the backend raises its own ``IndexError``.
    """
    if 0 not in mask_shape or len(mask_shape) > len(shape):
        return None
    if any(k not in (n, 0) for k, n in zip(mask_shape, shape)):
        return None
    return (0, *shape[len(mask_shape) :])


def solve(ns: ModuleType, base: Callable[..., _Stack]) -> Callable[..., _Stack]:
    """``linalg.solve`` with the standard's shapes: ``x2`` is one vector only when 1-D, and
    the stacks of ``x1`` and ``x2`` broadcast (CuPy wants ``(..., M, K)`` stacks of one
    shape). ``base`` is called with operands of matching stacks only."""

    def solve(x1: _Stack, x2: _Stack, /) -> _Stack:
        if math.prod(x1.shape) == 0 or math.prod(x2.shape) == 0:  # CuPy divides by zero
            if x2.ndim == 1:
                shape = x1.shape[:-1]
            else:
                stack = ns.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
                shape = (*stack, x1.shape[-2], x2.shape[-1])
            return ns.zeros(shape, dtype=ns.result_type(x1, x2), device=x1.device)
        if x2.ndim == 1:
            b = ns.broadcast_to(ns.expand_dims(x2, axis=-1), (*x1.shape[:-1], 1))
            return base(x1, b)[..., 0]
        stack = ns.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
        if x1.shape[:-2] != stack:
            x1 = ns.broadcast_to(x1, (*stack, *x1.shape[-2:]))
        if x2.shape[:-2] != stack:
            x2 = ns.broadcast_to(x2, (*stack, *x2.shape[-2:]))
        return base(x1, x2)

    return solve
