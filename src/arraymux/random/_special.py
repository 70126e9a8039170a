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
from typing import Any

from .._array import Array


def _xp() -> Any:
    import arraymux

    return arraymux


def rounded(p: Array) -> Array:
    """``p``, a product about to be added to, kept apart from the addition (see the module's
    docstring); the identity except on JAX."""
    if p.device.backend != "jax":
        return p
    xp = _xp()
    return xp.where(xp.isnan(p), math.nan, p)


def _mul(a: Any, b: Any) -> Array:
    return rounded(a * b)


def _horner(x: Array, coefficients: tuple[float, ...]) -> Array:
    """``c[0] * x**(n-1) + ... + c[n-1]``, evaluated as Horner's rule does."""
    p = _xp().full_like(x, coefficients[0])
    for c in coefficients[1:]:
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
    ``y``: scaled by powers of two, which is exact."""
    xp = _xp()
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
    small = xp.abs(x) < 0.41421356237309504880
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


def erfinv(x: Array) -> Array:
    """The inverse error function of floats in ``(-1, 1)`` (Giles' approximation)."""
    xp = _xp()
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
