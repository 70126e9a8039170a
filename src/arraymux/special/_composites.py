"""Special functions computed from a backend's elementary functions, where the backend has none
of its own (:attr:`Special.composite <arraymux.special._table.Special>`).

Each function here is named after its record and takes a :class:`Context`; it returns the
implementation on the backend's native arrays, or None where a function it needs is missing.
Operands come in one floating dtype (the dispatcher casts them first), and every formula
computes in it. The formulas are exact rearrangements, accurate to a few units in the last
place (``cbrt`` takes one Newton step after ``pow``, whose rounded exponent 1/3 costs digits
for large arguments), or the ones SciPy itself uses on backends without the function
(``chdtr``, ``chdtrc``, ``stdtr``, ``betaincc``); special values (zeros, infinities, NaN,
arguments outside the domain) follow ``scipy.special``'s (``kl_div`` stays finite where
``x / y`` overflows, as SciPy's ``rel_entr`` does and its ``kl_div`` does not). Functions whose accurate forms are not short (the degree
trigonometry, ``gamma`` from ``gammaln``, ``betaln`` from ``gammaln``) are not here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple, Protocol

from .._typing import NativeArray


class Native(NativeArray, Protocol):
    """A backend's array as the composites compute with it: elementwise operators with other
    arrays and Python floats (comparisons give boolean arrays, ``==`` aside)."""

    def __add__(self, other: Native | float, /) -> Native: ...
    def __radd__(self, other: float, /) -> Native: ...
    def __sub__(self, other: Native | float, /) -> Native: ...
    def __rsub__(self, other: float, /) -> Native: ...
    def __mul__(self, other: Native | float, /) -> Native: ...
    def __rmul__(self, other: float, /) -> Native: ...
    def __truediv__(self, other: Native | float, /) -> Native: ...
    def __rtruediv__(self, other: float, /) -> Native: ...
    def __pow__(self, other: Native | float, /) -> Native: ...
    def __rpow__(self, other: float, /) -> Native: ...
    def __mod__(self, other: Native | float, /) -> Native: ...
    def __lt__(self, other: Native | float, /) -> Native: ...
    def __le__(self, other: Native | float, /) -> Native: ...
    def __gt__(self, other: Native | float, /) -> Native: ...
    def __ge__(self, other: Native | float, /) -> Native: ...
    def __and__(self, other: Native | bool, /) -> Native: ...
    def __rand__(self, other: bool, /) -> Native: ...
    def __or__(self, other: Native | bool, /) -> Native: ...
    def __ror__(self, other: bool, /) -> Native: ...


#: A backend's implementation of a special function, on its native arrays.
Impl = Callable[..., Native]


class Context(NamedTuple):
    """What a composite needs of the backend it computes on.

    ``ns``: the backend's Array API namespace (of native arrays); ``special(name)``: the
    backend's own implementation of the special function ``name``, or None; ``hurwitz``: the
    backend's Hurwitz zeta ``zeta(x, q)`` (``q`` required), or None; ``host(name)``: ``name``
    computed by ``scipy.special`` on the host where the backend's arrays allow it, or None
    where the backend cannot be read on the host at all."""

    backend: str
    ns: ModuleType
    special: Callable[[str], Impl | None]
    hurwitz: Impl | None
    host: Callable[[str], Impl | None]


def cbrt(ctx: Context) -> Impl:
    ns = ctx.ns

    def cbrt(x: Native) -> Native:
        a = ns.abs(x)
        y = a ** (1.0 / 3.0)
        y = y - (y - a / (y * y)) / 3.0  # one Newton step
        y = ns.where((a > 0.0) & ns.isfinite(a), y, a)  # 0, inf and NaN as they are
        return ns.copysign(y, x)

    return cbrt


def exp10(ctx: Context) -> Impl:
    def exp10(x: Native) -> Native:
        return 10.0**x

    return exp10


def exp2(ctx: Context) -> Impl:
    def exp2(x: Native) -> Native:
        return 2.0**x

    return exp2


def exprel(ctx: Context) -> Impl:
    ns = ctx.ns

    def exprel(x: Native) -> Native:
        q = ns.expm1(x) / x
        q = ns.where(x == math.inf, x, q)  # inf / inf
        return ns.where(x == 0.0, ns.ones_like(x), q)

    return exprel


def cosm1(ctx: Context) -> Impl:
    ns = ctx.ns

    def cosm1(x: Native) -> Native:
        s = ns.sin(x * 0.5)
        return 0.0 - 2.0 * s * s  # +0.0 at 0, as SciPy

    return cosm1


def _xlogxy(ns: ModuleType, x: Native, y: Native) -> Native:
    """``x * log(x / y)`` for positive ``x`` and ``y``, without overflow of ``x / y``."""
    r = x / y
    direct = x * ns.log(r)
    apart = x * (ns.log(x) - ns.log(y))
    return ns.where((r > 0.0) & ns.isfinite(r), direct, apart)


def rel_entr(ctx: Context) -> Impl:
    ns = ctx.ns

    def rel_entr(x: Native, y: Native) -> Native:
        both = (x > 0.0) & (y > 0.0)
        inf = ns.full_like(x + y, math.inf)
        out = ns.where(both, _xlogxy(ns, x, y), inf)
        out = ns.where((x == 0.0) & (y >= 0.0), ns.zeros_like(out), out)
        return ns.where(ns.isnan(x) | ns.isnan(y), x + y, out)

    return rel_entr


def kl_div(ctx: Context) -> Impl:
    ns = ctx.ns

    def kl_div(x: Native, y: Native) -> Native:
        both = (x > 0.0) & (y > 0.0)
        inf = ns.full_like(x + y, math.inf)
        out = ns.where(both, _xlogxy(ns, x, y) - x + y, inf)
        out = ns.where((x == 0.0) & (y >= 0.0), y + ns.zeros_like(out), out)
        return ns.where(ns.isnan(x) | ns.isnan(y), x + y, out)

    return kl_div


def huber(ctx: Context) -> Impl:
    ns = ctx.ns

    def huber(delta: Native, r: Native) -> Native:
        a = ns.abs(r)
        out = ns.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))
        return ns.where(delta < 0.0, ns.full_like(out, math.inf), out)

    return huber


def _using(
    name: str,
) -> Callable[[Callable[[Context, Impl], Impl]], Callable[[Context], Impl | None]]:
    """A composite made with the backend's special function ``name``, which ``make`` takes
    beside the context: None where the backend lacks it."""

    def decorate(make: Callable[[Context, Impl], Impl]) -> Callable[[Context], Impl | None]:
        @functools.wraps(make)
        def composite(ctx: Context) -> Impl | None:
            f = ctx.special(name)
            return None if f is None else make(ctx, f)

        return composite

    return decorate


@_using("gammainc")
def chdtr(ctx: Context, gammainc: Impl) -> Impl:
    ns = ctx.ns

    def chdtr(v: Native, x: Native) -> Native:
        # SciPy's form for backends without chdtr (JAX's gammainc is NaN at v == 0)
        res = gammainc(v / 2.0, x / 2.0)
        res = ns.where((v == 0.0) & (x > 0.0), ns.ones_like(res), res)
        nan = ns.full_like(res, math.nan)
        return ns.where((ns.isinf(v) & ns.isinf(x)) | (x < 0.0), nan, res)

    return chdtr


@_using("gammaincc")
def chdtrc(ctx: Context, gammaincc: Impl) -> Impl:
    ns = ctx.ns

    def chdtrc(v: Native, x: Native) -> Native:
        res = gammaincc(v / 2.0, x / 2.0)
        bad = ((x == 0.0) & (v == 0.0)) | ns.isnan(x) | ns.isnan(v) | (v <= 0.0) | (x < 0.0)
        return ns.where(bad, ns.full_like(res, math.nan), res)

    return chdtrc


@_using("betainc")
def stdtr(ctx: Context, betainc: Impl) -> Impl:
    ns = ctx.ns

    def stdtr(df: Native, t: Native) -> Native:
        x = df / (t * t + df)
        tail = betainc(df / 2.0, ns.full_like(x, 0.5), x) / 2.0
        return ns.where(t < 0.0, tail, 1.0 - tail)

    return stdtr


@_using("betainc")
def betaincc(ctx: Context, betainc: Impl) -> Impl:
    def betaincc(a: Native, b: Native, x: Native) -> Native:
        return betainc(b, a, 1.0 - x)

    return betaincc


def polygamma(ctx: Context) -> Impl | None:
    psi = ctx.special("psi")
    gamma = ctx.special("gamma")
    gammaln = ctx.special("gammaln")
    hurwitz = ctx.hurwitz
    if psi is None or hurwitz is None:
        return None
    ns = ctx.ns
    if gamma is not None:
        factorial: Impl = gamma
    elif gammaln is not None:
        factorial = _exp_of(ns, gammaln)
    else:
        return None

    def polygamma(n: Native, x: Native) -> Native:
        # SciPy's own formula: (-1)**(n + 1) * n! * zeta(n + 1, x), and psi where n is 0
        n, x = ns.broadcast_arrays(ns.astype(n, x.dtype), x)  # an integer n stays one
        sign = 1.0 - 2.0 * ((n + 1.0) % 2.0)
        return ns.where(n == 0.0, psi(x), sign * factorial(n + 1.0) * hurwitz(n + 1.0, x))

    return polygamma


def _exp_of(ns: ModuleType, f: Impl) -> Impl:
    def exp_of(x: Native) -> Native:
        return ns.exp(f(x))

    return exp_of


def _plus_one(f: Impl) -> Impl:
    def plus_one(x: Native) -> Native:
        return f(x) + 1.0

    return plus_one


def zeta(ctx: Context) -> Impl | None:
    hurwitz = ctx.hurwitz
    if hurwitz is None:
        return None
    zetac = ctx.special("zetac")
    # The Riemann zeta function below x = 1 is not Hurwitz's at q = 1 (NaN there): zetac + 1,
    # or on the host with SciPy where the arrays allow it.
    riemann = ctx.host("zeta") if zetac is None else _plus_one(zetac)

    def zeta(x: Native, q: Native | None = None) -> Native:
        if q is not None:
            return hurwitz(x, q)
        if riemann is None:
            raise NotImplementedError(
                f"arraymux.special.zeta: the {ctx.backend} backend has a Hurwitz zeta function "
                "only; pass q (q=1.0 gives the Riemann zeta function for x > 1), or move the "
                'array to a backend with the Riemann zeta function, e.g. arraymux.to_device(x, "numpy").'
            )
        return riemann(x)

    return zeta


#: The special functions each composite computes with (beside the elementary ones): a
#: composite serves a backend that has them (the docs say which).
NEEDS: dict[str, tuple[str, ...]] = {
    "betaincc": ("betainc",),
    "chdtr": ("gammainc",),
    "chdtrc": ("gammaincc",),
    "polygamma": ("psi", "gammaln"),
    "stdtr": ("betainc",),
}

#: The composite of each function that has one, by name.
COMPOSITES: dict[str, Callable[[Context], Impl | None]] = {
    f.__name__: f
    for f in (
        betaincc,
        cbrt,
        chdtr,
        chdtrc,
        cosm1,
        exp10,
        exp2,
        exprel,
        huber,
        kl_div,
        polygamma,
        rel_entr,
        stdtr,
        zeta,
    )
}
