"""``log``, ``log1p`` and ``erfinv`` written with exactly rounded operations only.

Each backend has its own ``log`` (NumPy's SIMD kernels, torch's SLEEF, XLA's polynomial), and
their last bits differ, so samplers built on them would give other floats on each device.
These are built from ``+``, ``-``, ``*``, ``/``, ``sqrt``, comparisons and ``where``, which IEEE
754 rounds exactly everywhere, so they give the same bits on every device:

- ``log`` scales its argument by powers of two (exact) into ``[sqrt(1/2), sqrt(2))`` and
  evaluates the polynomial of Cephes' ``logf`` (float32) or the rational function of its
  ``log`` (float64), within about an ulp of the true value;
- ``erfinv`` is Giles' approximation ("Approximating the erfinv function", GPU Computing Gems
  Jade Edition, 2011), the one XLA, and so ``jax.random.normal``, evaluates.

XLA contracts a product followed by a sum into one fused multiply-add, rounded once, which
NumPy and torch never do; :func:`rounded` keeps the product's own rounding on JAX (a ``where``
that the compiler cannot see through), so that JAX's bits are the others'.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import TYPE_CHECKING

from .._array import Array
from .._array import wrap as _wrap

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def _xp() -> ModuleType:
    import arraymux

    return arraymux


def rounded(p: Array) -> Array:
    """``p``, a product about to be added to, kept apart from the addition (see the module's
    docstring); the identity except on JAX."""
    if p.device.backend != "jax":
        return p
    xp = _xp()
    return xp.where(xp.isnan(p), math.nan, p)


def div(a: Array, b: Array | float) -> Array:
    """``a / b``, where ``b`` is a constant, a broadcast scalar or a square root: XLA divides
    by those as a multiplication by their reciprocal (``rsqrt``), rounded twice, and so does
    torch on a GPU by a Python number. On JAX the divisor goes through an optimization
    barrier, which XLA's rewrites do not see through; on torch's GPUs it is a 0-d tensor."""
    if a.device.backend == "torch" and a.device.place != "cpu" and not isinstance(b, Array):
        # torch multiplies by the reciprocal of a Python number on its GPUs (rounded twice):
        # a 0-d tensor on the device divides
        return a / _xp().full((), b, dtype=a.dtype, device=a.device)
    if a.device.backend != "jax":
        return a / b
    import jax

    xp = _xp()
    d = b if isinstance(b, Array) else xp.full_like(a, b)
    shape = xp.broadcast_shapes(a.shape, d.shape)
    if d.shape != shape:  # a broadcast behind the barrier would be rewritten all the same
        d = xp.broadcast_to(d, shape)
    return a / _wrap(jax.lax.optimization_barrier(d.native), d.device)


def _mul(a: Array, b: Array | float) -> Array:
    return rounded(a * b)


def _horner(x: Array, coefficients: tuple[float, ...]) -> Array:
    """``c[0] * x**(n-1) + ... + c[n-1]``, evaluated as Horner's rule does."""
    if len(coefficients) == 1:
        return _xp().full_like(x, coefficients[0])
    p = _mul(x, coefficients[0]) + coefficients[1]  # the same as full(c[0]) * x + c[1]
    for c in coefficients[2:]:
        p = _mul(p, x) + c
    return p


# Cephes logf: log(1 + f) = f - f**2/2 + f**3 * P(f) for sqrt(1/2) <= 1 + f < sqrt(2).
_LOGF_P = (
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
)
# Cephes log: log(1 + f) = f - f**2/2 + f**3 * P(f) / Q(f).
_LOG_P = (
    1.01875663804580931796e-4,
    4.97494994976747001425e-1,
    4.70579119878881725854e0,
    1.44989225341610930846e1,
    1.79368678507819816313e1,
    7.70838733755885391666e0,
)
_LOG_Q = (
    1.0,
    1.12873587189167450590e1,
    4.52279145837532221105e1,
    8.29875266912776603211e1,
    7.11544750618563894466e1,
    2.31251620126765340583e1,
)
# ln 2 split in two, the first part exact with few bits, as Cephes does (the second part to
# float32's and float64's precision).
_LN2_HI, _LN2_LO_32, _LN2_LO_64 = 0.693359375, -2.12194440e-4, -2.121944400546905827679e-4
_SQRT_HALF = 0.70710678118654752440


def _reduce(y: Array) -> tuple[Array, Array]:
    """``(m, e)`` with ``y = m * 2**e``, ``m`` in ``[sqrt(1/2), sqrt(2))``, for positive normal
    ``y``: scaled by powers of two, which is exact (the backend's ``frexp``, exact too, where
    its namespace has one: one operation instead of about 60)."""
    xp = _xp()
    frexp = getattr(y.device._backend.ns, "frexp", None)
    if frexp is not None:
        if y.device.backend == "dask":
            # dask's frexp runs NumPy's on an uninitialised placeholder to learn the result's
            # type, which may warn of an invalid value that no data of the draw has.
            import numpy as np  # not at the top: importing arraymux loads no backend

            with np.errstate(invalid="ignore"):
                nm, ne = frexp(y.native)
        else:
            nm, ne = frexp(y.native)
        m, e = _wrap(nm, y.device), xp.astype(_wrap(ne, y.device), y.dtype)
        low = m < _SQRT_HALF
        return xp.where(low, m * 2.0, m), xp.where(low, e - 1.0, e)
    steps = (
        (64, 32, 16, 8, 4, 2, 1)
        if y.dtype == xp.float32
        else (512, 256, 128, 64, 32, 16, 8, 4, 2, 1)
    )
    m, e = y, xp.zeros_like(y)
    for b in steps:  # down to [0, 2)
        big = m >= 2.0**b
        m, e = xp.where(big, m * 2.0**-b, m), xp.where(big, e + b, e)
    for b in steps:  # up to [1, 2)
        small = m < 2.0 ** (1 - b)
        m, e = xp.where(small, m * 2.0**b, m), xp.where(small, e - b, e)
    high = m >= 2 * _SQRT_HALF
    return xp.where(high, m * 0.5, m), xp.where(high, e + 1, e)


def _log1p_small(f: Array, e: Array) -> Array:
    """``log(1 + f) + e * ln 2`` for ``sqrt(1/2) <= 1 + f < sqrt(2)``."""
    xp = _xp()
    z = f * f
    if f.dtype == xp.float32:
        y = _mul(_mul(_horner(f, _LOGF_P), f), z)
    else:
        y = _mul(f, _mul(z, _horner(f, _LOG_P)) / _horner(f, _LOG_Q))
    y = y + _mul(e, _LN2_LO_32 if f.dtype == xp.float32 else _LN2_LO_64)
    y = y - _mul(z, 0.5)
    return (f + y) + _mul(e, _LN2_HI)


def log(y: Array) -> Array:
    """The natural logarithm of positive normal floats (float32 or float64)."""
    m, e = _reduce(y)
    return _log1p_small(m - 1.0, e)


# Cephes log1p: log(1 + x) = x - x**2/2 + x**3 * P(x) / Q(x) for |x| < sqrt(2) - 1, the
# rational function XLA's log1p evaluates there (also for float32).
_LOG1P_P = (
    2.0039553499201281259648e1,
    5.7112963590585538103336e1,
    6.0949667980987787057556e1,
    2.9911919328553073277375e1,
    6.5787325942061044846969e0,
    4.9854102823193375972212e-1,
    4.5270000862445199635215e-5,
)
_LOG1P_Q = (
    6.0118660497603843919306e1,
    2.1642788614495947685003e2,
    3.0909872225312059774938e2,
    2.2176239823732856465394e2,
    8.3047565967967209469434e1,
    1.5062909083469192043167e1,
    1.0,
)


#: Below this magnitude, float32 ``log1p`` evaluates Cephes' rational function of ``x``.
LOG1P_LIMIT = 0.41421356237309504880


def log1p(x: Array) -> Array:
    """``log(1 + x)`` for floats ``x > -1`` (with ``1 + x`` a normal number), accurate for small
    ``x`` too. float32 as XLA computes it (Cephes' rational function of ``x`` below
    ``sqrt(2) - 1`` in magnitude, else ``log(1 + x)``), within an ulp or two of JAX's; float64
    with ``x`` itself as the argument of :func:`log`'s polynomial where ``1 + x`` needs no
    scaling."""
    xp = _xp()
    if x.dtype == xp.float64:
        y = 1.0 + x
        near = (y >= _SQRT_HALF) & (y < 2 * _SQRT_HALF)
        m, e = _reduce(xp.where(near, 1.0, y))
        return _log1p_small(xp.where(near, x, m - 1.0), xp.where(near, 0.0, e))
    small = xp.abs(x) < LOG1P_LIMIT
    xs = xp.where(small, x, 0.0)
    z = xs * xs
    ratio = _horner(xs, _LOG1P_P[::-1]) / _horner(xs, _LOG1P_Q[::-1])
    near = xs + (_mul(z, -0.5) + _mul(_mul(xs, z), ratio))
    return xp.where(small, near, log(xp.where(small, 1.0, 1.0 + x)))


# Giles' erfinv: float32, w = -log(1 - x**2) below 5 and above.
_ERFINV_32 = (
    (
        2.81022636e-08,
        3.43273939e-07,
        -3.5233877e-06,
        -4.39150654e-06,
        0.00021858087,
        -0.00125372503,
        -0.00417768164,
        0.246640727,
        1.50140941,
    ),
    (
        -0.000200214257,
        0.000100950558,
        0.00134934322,
        -0.00367342844,
        0.00573950773,
        -0.0076224613,
        0.00943887047,
        1.00167406,
        2.83297682,
    ),
)
# float64: w below 6.25, below 16, and above.
_ERFINV_64 = (
    (
        -3.6444120640178196996e-21,
        -1.685059138182016589e-19,
        1.2858480715256400167e-18,
        1.115787767802518096e-17,
        -1.333171662854620906e-16,
        2.0972767875968561637e-17,
        6.6376381343583238325e-15,
        -4.0545662729752068639e-14,
        -8.1519341976054721522e-14,
        2.6335093153082322977e-12,
        -1.2975133253453532498e-11,
        -5.4154120542946279317e-11,
        1.051212273321532285e-09,
        -4.1126339803469836976e-09,
        -2.9070369957882005086e-08,
        4.2347877827932403518e-07,
        -1.3654692000834678645e-06,
        -1.3882523362786468719e-05,
        0.0001867342080340571352,
        -0.00074070253416626697512,
        -0.0060336708714301490533,
        0.24015818242558961693,
        1.6536545626831027356,
    ),
    (
        2.2137376921775787049e-09,
        9.0756561938885390979e-08,
        -2.7517406297064545428e-07,
        1.8239629214389227755e-08,
        1.5027403968909827627e-06,
        -4.013867526981545969e-06,
        2.9234449089955446044e-06,
        1.2475304481671778723e-05,
        -4.7318229009055733981e-05,
        6.8284851459573175448e-05,
        2.4031110387097893999e-05,
        -0.0003550375203628474796,
        0.00095328937973738049703,
        -0.0016882755560235047313,
        0.0024914420961078508066,
        -0.0037512085075692412107,
        0.005370914553590063617,
        1.0052589676941592334,
        3.0838856104922207635,
    ),
    (
        -2.7109920616438573243e-11,
        -2.5556418169965252055e-10,
        1.5076572693500548083e-09,
        -3.7894654401267369937e-09,
        7.6157012080783393804e-09,
        -1.4960026627149240478e-08,
        2.9147953450901080826e-08,
        -6.7711997758452339498e-08,
        2.2900482228026654717e-07,
        -9.9298272942317002539e-07,
        4.5260625972231537039e-06,
        -1.9681778105531670567e-05,
        7.5995277030017761139e-05,
        -0.00021503011930044477347,
        -0.00013871931833623122026,
        1.0103004648645343977,
        4.8499064014085844221,
    ),
)


def normal_constants() -> NDArray[np.float64]:
    """The numbers of :func:`erfinv`, :func:`log1p` and :func:`log` for float32, and of the
    normal floats of uniform ones, as the C loop of ``_speedups.normal_f32`` takes them (a
    float64 array: the coefficients have one source, these tables)."""
    global _NORMAL_CONSTANTS
    if _NORMAL_CONSTANTS is None:
        import numpy as np

        f32 = np.float32
        numbers = [
            *_LOG1P_P[::-1],
            *_LOG1P_Q[::-1],
            *_LOGF_P,
            *_ERFINV_32[0],
            *_ERFINV_32[1],
            _LN2_HI,
            _LN2_LO_32,
            _SQRT_HALF,
            LOG1P_LIMIT,
            float(np.nextafter(f32(-1.0), f32(0.0))),
            float(f32(math.sqrt(2.0))),
            2.0**-23,
        ]
        _NORMAL_CONSTANTS = np.array(numbers, dtype=np.float64)
        _NORMAL_CONSTANTS.flags.writeable = False
    return _NORMAL_CONSTANTS


_NORMAL_CONSTANTS: NDArray[np.float64] | None = None


def normal64_constants() -> NDArray[np.float64]:
    """The numbers of :func:`erfinv`, :func:`log1p` and :func:`log` for float64, and of the
    normal floats of uniform ones, as the C loop of ``_speedups.normal_f64`` takes them."""
    global _NORMAL64_CONSTANTS
    if _NORMAL64_CONSTANTS is None:
        import numpy as np

        f64 = np.float64
        numbers = [
            *_LOG_P,
            *_LOG_Q,
            *_ERFINV_64[0],
            *_ERFINV_64[1],
            *_ERFINV_64[2],
            _LN2_HI,
            _LN2_LO_64,
            _SQRT_HALF,
            float(np.nextafter(f64(-1.0), f64(0.0))),
            float(f64(math.sqrt(2.0))),
        ]
        _NORMAL64_CONSTANTS = np.array(numbers, dtype=np.float64)
        _NORMAL64_CONSTANTS.flags.writeable = False
    return _NORMAL64_CONSTANTS


_NORMAL64_CONSTANTS: NDArray[np.float64] | None = None


def erfinv(x: Array, *, edges: bool = False) -> Array:
    """The inverse error function of floats in ``(-1, 1)`` (Giles' approximation); with
    ``edges``, also ``+-inf`` at ``+-1``, as XLA's."""
    xp = _xp()
    if edges:
        one = xp.abs(x) == 1.0
        inner = erfinv(xp.where(one, 0.0, x))
        return xp.where(one, x * math.inf, inner)
    w = -log1p(-(x * x))
    if x.dtype == xp.float32:
        small, large = _ERFINV_32
        lt = w < 5.0
        t = xp.where(lt, w - 2.5, xp.sqrt(w) - 3.0)
        p = xp.where(lt, _horner(t, small), _horner(t, large))
    else:
        c6, c16, c_big = _ERFINV_64
        lt6, lt16 = w < 6.25, w < 16.0
        root = xp.sqrt(w)
        p6 = _horner(w - 3.125, c6)
        p16 = _horner(root - 3.25, c16)
        p_big = _horner(root - 5.0, c_big)
        p = xp.where(lt6, p6, xp.where(lt16, p16, p_big))
    return p * x


def log0(y: Array) -> Array:
    """:func:`log` extended to zero (``-inf``) and ``+inf``: logarithms of uniform draws,
    which may be 0."""
    xp = _xp()
    positive = (y > 0) & (y < math.inf)
    out = log(xp.where(positive, y, 1.0))
    edge = xp.where(y > 0, xp.full_like(y, math.inf), math.nan)
    return xp.where(positive, out, xp.where(y == 0, -math.inf, edge))


def _pow2(k: Array) -> Array:
    """``2.0 ** k`` for integer-valued floats ``|k| <= 127`` (float32) or ``1023`` (float64),
    built from powers of two: exact."""
    xp = _xp()
    steps = (
        (64, 32, 16, 8, 4, 2, 1)
        if k.dtype == xp.float32
        else (512, 256, 128, 64, 32, 16, 8, 4, 2, 1)
    )
    m = xp.abs(k)
    p = xp.ones_like(k)
    for b in steps:
        take = m >= b
        p, m = xp.where(take, p * 2.0**b, p), xp.where(take, m - b, m)
    return xp.where(k < 0, 1.0 / p, p)


def scale2(y: Array, n: Array) -> Array:
    """``y * 2**n`` for integer-valued floats ``n`` (``ldexp``), as two exact powers of two:
    exact unless the result is subnormal."""
    half = _xp().floor(n * 0.5)
    return (y * _pow2(half)) * _pow2(n - half)


# Cephes expf: exp(r) = 1 + r + r**2 * P(r) for |r| <= ln(2) / 2.
_EXPF_P = (
    1.9875691500e-4,
    1.3981999507e-3,
    8.3334519073e-3,
    4.1665795894e-2,
    1.6666665459e-1,
    5.0000001201e-1,
)
# Cephes exp: exp(r) = 1 + 2 r P(r**2) / (Q(r**2) - r P(r**2)).
_EXP_P = (1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1)
_EXP_Q = (
    3.00198505138664455042e-6,
    2.52448340349684104192e-3,
    2.27265548208155028766e-1,
    2.00000000000000000009e0,
)
_LOG2E = 1.4426950408889634073599
# ln 2 in two parts for the reduction, the first exact in few bits (Cephes' C1, C2).
_EXP_LN2 = {
    "float32": (0.693359375, -2.12194440e-4),
    "float64": (6.93145751953125e-1, 1.42860682030941723212e-6),
}
# The arguments beyond which exp is inf, or 0 (below the smallest subnormal).
_EXP_LIMITS = {
    "float32": (88.72283905206835, -103.97207708),
    "float64": (709.782712893384, -745.1332191019412),
}


def exp(x: Array, lo: Array | None = None) -> Array:
    """``exp(x)`` (``exp(x + lo)`` for a float-float argument ``(x, lo)``, ``|lo|`` below an
    ulp of ``x``): Cephes' reduction by ``n ln 2`` and polynomial (float32) or Padé form
    (float64), within about an ulp."""
    xp = _xp()
    name = "float32" if x.dtype == xp.float32 else "float64"
    c1, c2 = _EXP_LN2[name]
    most, least = _EXP_LIMITS[name]
    finite = (x <= most) & (x >= least)
    xs = xp.where(finite, x, 0.0)
    n = xp.floor(_mul(xs, _LOG2E) + 0.5)
    r = xs - _mul(n, c1)
    r = r + _mul(n, -c2) if name == "float32" else r - _mul(n, c2)
    if lo is not None:
        r = r + xp.where(finite, lo, 0.0)
    z = _mul(r, r)
    if name == "float32":
        y = (_mul(_horner(r, _EXPF_P), z) + r) + 1.0
    else:
        px = _mul(r, _horner(z, _EXP_P))
        y = _mul(px / (_horner(z, _EXP_Q) - px), 2.0) + 1.0
    y = scale2(y, n)
    big = xp.where(x > 0, xp.full_like(x, math.inf), 0.0)
    return xp.where(finite, y, xp.where(xp.isnan(x), math.nan, big))


# -- float-float arithmetic (Dekker): a value as an unevaluated sum hi + lo ----------------------


def _two_sum(a: Array, b: Array | float) -> tuple[Array, Array]:
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a: Array) -> tuple[Array, Array]:
    """``a`` as ``hi + lo``, each with half the significand's bits (Veltkamp)."""
    xp = _xp()
    c = rounded(a * (4097.0 if a.dtype == xp.float32 else 134217729.0))
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a: Array, b: Array) -> tuple[Array, Array]:
    """``(p, e)`` with ``p = fl(a * b)`` and ``a * b = p + e`` exactly (Dekker): the partial
    products of the halves are exact, so a fused multiply-add computes the same."""
    p = rounded(a * b)
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((rounded(ah * bh) - p) + rounded(ah * bl) + rounded(al * bh)) + rounded(al * bl)
    return p, e


def _log_parts(x: Array) -> tuple[Array, Array]:
    """``log(x)`` of positive normal ``x`` as float-float ``(hi, lo)``: the leading terms of
    Cephes' series exact, its tail (a few hundredths at most) rounded."""
    xp = _xp()
    m, e = _reduce(x)
    f = m - 1.0  # exact
    z = f * f
    if f.dtype == xp.float32:
        tail = _mul(_mul(_horner(f, _LOGF_P), f), z)
        ln2_lo = _LN2_LO_32
    else:
        tail = _mul(f, _mul(z, _horner(f, _LOG_P)) / _horner(f, _LOG_Q))
        ln2_lo = _LN2_LO_64
    p, pe = _two_prod(f, f)
    s, err1 = _two_sum(_mul(e, _LN2_HI), f)  # e * ln2_hi is exact
    s, err2 = _two_sum(s, _mul(p, -0.5))
    lo = ((err1 + err2) + _mul(pe, -0.5)) + (tail + _mul(e, ln2_lo))
    hi = s + lo
    return hi, lo - (hi - s)


def pow(x: Array, y: Array | float) -> Array:
    """``x ** y`` for ``x >= 0`` and finite ``y``, within about an ulp: ``exp(y log(x))`` with
    the logarithm and the product carried in float-float, so that their rounding does not grow
    with ``y log(x)`` (``exp(y * log(x))`` in one precision is off by up to a hundred ulp)."""
    xp = _xp()
    yy = y if isinstance(y, Array) else xp.full_like(x, y)
    positive = (x > 0) & (x < math.inf)
    hi, lo = _log_parts(xp.where(positive, x, 1.0))
    yf = xp.where(yy == math.inf, 0.0, yy)
    zh, zl = _two_prod(yf, hi)
    zl = zl + _mul(yf, lo)
    out = exp(zh, zl)
    # x == 0: 0 for y > 0, inf for y < 0; x == inf the other way round; x ** 0 == 1.
    edge = xp.where((x == 0) == (yy > 0), xp.zeros_like(x), math.inf)
    out = xp.where(positive, out, edge)
    # y == inf: 0 below 1, 1 at 1, inf above (exp(inf * log(x)))
    out = xp.where(yy == math.inf, xp.where(x < 1.0, 0.0, xp.where(x == 1.0, 1.0, edge)), out)
    return xp.where(yy == 0, 1.0, xp.where(xp.isnan(x) | (x < 0), math.nan, out))


# XLA's erf: float32 a rational function of x**2 on x clamped to +-3.74 (Eigen's); float64
# Cephes' erf below 1 and 1 - erfc above.
_ERF32_ALPHA = (
    0.00022905065861350646,
    0.0034082910107109506,
    0.050955695062380861,
    0.18520832239976145,
    1.128379143519084,
)
_ERF32_BETA = (
    -1.1791602954361697e-7,
    0.000023547966471313185,
    0.0010179625278914885,
    0.014070470171167667,
    0.11098505178285362,
    0.49746925110067538,
    1.0,
)
_ERF64_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_ERF64_U = (
    1.00000000000000000000e0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)
_ERFC64_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_ERFC64_Q = (
    1.00000000000000000000e0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
_ERFC64_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
_ERFC64_S = (
    1.00000000000000000000e0,
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)


def erf(x: Array) -> Array:
    """The error function (XLA's approximations), ``+-1`` at ``+-inf``."""
    xp = _xp()
    if x.dtype == xp.float32:
        # XLA CPU: +-1 from |x| >= 3.8325 on (erfinv(1 - 2**-24)); its multiply-adds are fused
        # there, which puts its values a few ulp from these.
        ones = xp.abs(x) >= 3.832506856900711
        xc = xp.where(ones, 0.0, x)
        x2 = xc * xc
        ratio = _mul(xc, _horner(x2, _ERF32_ALPHA)) / _horner(x2, _ERF32_BETA)
        return xp.where(ones, xp.sign(x), ratio)
    ax = xp.abs(x)
    small = ax < 1.0
    xs = xp.where(small, x, 0.0)
    z = xs * xs
    inner = _mul(xs, _horner(z, _ERF64_T)) / _horner(z, _ERF64_U)
    a = xp.where(small, 8.0, xp.where(ax < math.inf, ax, 8.0))  # |x| >= 1 (finite) here
    ez = exp(-_mul(a, a))
    mid = _mul(ez, _horner(a, _ERFC64_P)) / _horner(a, _ERFC64_Q)
    far = _mul(ez, _horner(a, _ERFC64_R)) / _horner(a, _ERFC64_S)
    erfc = xp.where(a < 8.0, mid, far)
    erfc = xp.where(ax == math.inf, 0.0, erfc)
    outer = xp.where(x < 0, erfc - 1.0, 1.0 - erfc)
    return xp.where(small, inner, outer)


# XLA's lgamma: Lanczos' approximation with g = 7 and 9 coefficients.
_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = (
    676.520368121885098567009190444019,
    -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,
    -176.61502916214059906584551354,
    12.507343278686904814458936853,
    -0.13857109526572011689554707,
    9.984369578019570859563e-6,
    1.50563273514931155834e-7,
)


def lgamma(x: Array) -> Array:
    """``log(gamma(x))`` for ``x >= 0.5`` (XLA's Lanczos approximation, without its
    reflection for smaller ``x``)."""
    z = x - 1.0
    a = _xp().full_like(x, _LANCZOS_BASE)
    for i, c in enumerate(_LANCZOS):
        a = a + c / (z + float(i) + 1.0)
    t = z + (_LANCZOS_G + 0.5)
    log_t = math.log(_LANCZOS_G + 0.5) + log1p(div(z, _LANCZOS_G + 0.5))
    half_log_2pi = (math.log(2.0) + math.log(math.pi)) / 2
    return (half_log_2pi + _mul((z + 0.5) - t / log_t, log_t)) + log(a)
