"""The special functions of :mod:`arraymux.special`: one record per function.

Each :class:`Special` says everything arraymux knows about one function of ``scipy.special``:
its parameters (SciPy's names, in SciPy's order), which of them take Python ints rather than
arrays, whether SciPy defines it for complex operands, where each backend keeps its own
implementation, whether arraymux can compute it from a backend's elementary functions where
the backend has none, a one-line summary, a description of each parameter and an example.
The functions of :mod:`arraymux.special`, their signatures and their docstrings are made from
these records; adding a function means adding its record here, then running ``python -m
arraymux._records``, which writes its name into ``arraymux/special/__init__.py``.

The names are those of ``scipy.special._support_alternative_backends`` (SciPy 1.17): the
functions SciPy looks up as ``xp.special.<name>`` on an array namespace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

#: A backend field's value for "the function of the same name in the backend's module".
SAME: Final = "="


class Special(NamedTuple):
    """One special function.

    ``signature``: SciPy's parameters (positional-only where SciPy's function is a ufunc).
    ``parameters``: each parameter's description. ``example``: a doctest's input line and the
    output it shows on NumPy. ``torch``, ``jax``, ``cupy``: the backend's own function, as a
    name in its special-function module (``torch.special``, ``jax.scipy.special``,
    ``cupyx.scipy.special``) or as a dotted path from the library's top
    (``"jax.numpy.sinc"``); :data:`SAME` for the function of the same name there; None where
    the backend has none. (NumPy arrays are computed by ``scipy.special``, Dask arrays by it
    block by block, and array-api-strict arrays by it on their NumPy data.) ``composite``:
    arraymux computes the function from the backend's elementary functions where the backend
    has none of its own (:mod:`arraymux.special._composites`). ``complex``: SciPy defines it
    for complex operands. ``ints``: the parameters that take a Python int, not an array.
    """

    name: str
    signature: str
    summary: str
    parameters: Mapping[str, str]
    example: tuple[str, str]
    torch: str | None = SAME
    jax: str | None = SAME
    cupy: str | None = SAME
    composite: bool = False
    complex: bool = False
    ints: tuple[str, ...] = ()
    integer: tuple[str, ...] = ()

    def native(self, backend: str) -> str | None:
        """The name of ``backend``'s own function (see the class), or None."""
        if backend == "torch":
            return self.torch
        if backend == "jax":
            return self.jax
        if backend == "cupy":
            return self.cupy
        return SAME


_X = {"x": "Argument."}
_Z = {"z": "Argument, real or complex."}
_X_COMPLEX = {"x": "Argument, real or complex."}
_ORDER_N = {"n": "Order (an integer value)."}
_KNP = {
    "k": "Number of successes (an integer value).",
    "n": "Number of trials (an integer value).",
}
_NB = {
    "k": "Number of allowed failures (an integer value).",
    "n": "Target number of successes (an integer value).",
}
_DEGREES = {"x": "Angle in degrees."}
_LMBDA = {"lmbda": "Parameter of the Box-Cox transformation."}
_F = {
    "dfn": "Degrees of freedom of the numerator (positive).",
    "dfd": "Degrees of freedom of the denominator (positive).",
}
_GAMMA_AB = {
    "a": "Rate parameter of the gamma distribution (the inverse of its scale).",
    "b": "Shape parameter of the gamma distribution.",
}
_BETA_AB = {"a": "Positive parameter.", "b": "Positive parameter."}
_DELTA_R = {"delta": "Threshold between the quadratic and the linear regime.", "r": "Residual."}
_KL = {"x": "First argument (a probability).", "y": "Second argument (a probability)."}

RECORDS: Final[tuple[Special, ...]] = (
    Special(
        "bdtr",
        "(k, n, p, /)",
        "Binomial distribution cumulative distribution function: P(at most ``k`` successes).",
        {**_KNP, "p": "Probability of success in a single trial."},
        (
            "xp.special.bdtr(xp.asarray([1.0, 2.0]), 4, 0.5)",
            "Array([0.3125, 0.6875], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("n",),
    ),
    Special(
        "bdtrc",
        "(k, n, p, /)",
        "Binomial distribution survival function: P(more than ``k`` successes).",
        {**_KNP, "p": "Probability of success in a single trial."},
        (
            "xp.special.bdtrc(xp.asarray([1.0, 2.0]), 4, 0.5)",
            "Array([0.6875, 0.3125], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("n",),
    ),
    Special(
        "bdtri",
        "(k, n, y, /)",
        "Inverse of ``bdtr`` with respect to the probability of success ``p``.",
        {**_KNP, "y": "Probability of at most ``k`` successes."},
        (
            "xp.special.bdtri(xp.asarray([1.0, 2.0]), 4, 0.5)",
            "Array([0.38572757, 0.61427243], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("n",),
    ),
    Special(
        "betainc",
        "(a, b, x, /)",
        "Regularized incomplete beta function.",
        {**_BETA_AB, "x": "Upper limit of integration, in [0, 1]."},
        (
            "xp.special.betainc(2.0, 3.0, xp.asarray([0.25, 0.5]))",
            "Array([0.26171875, 0.6875    ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "betaincc",
        "(a, b, x, /)",
        "Complement of the regularized incomplete beta function, ``1 - betainc(a, b, x)``.",
        {**_BETA_AB, "x": "Lower limit of integration, in [0, 1]."},
        (
            "xp.special.betaincc(2.0, 3.0, xp.asarray([0.25, 0.5]))",
            "Array([0.73828125, 0.3125    ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "betaincinv",
        "(a, b, y, /)",
        "Inverse of the regularized incomplete beta function with respect to ``x``.",
        {**_BETA_AB, "y": "Value of the regularized incomplete beta function, in [0, 1]."},
        (
            "xp.special.betaincinv(2.0, 3.0, xp.asarray([0.25, 0.5]))",
            "Array([0.24302208, 0.38572757], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "betaln",
        "(a, b, /)",
        "Natural logarithm of the absolute value of the beta function.",
        _BETA_AB,
        (
            "xp.special.betaln(xp.asarray([1.0, 2.0]), 3.0)",
            "Array([-1.09861229, -2.48490665], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "binom",
        "(x, y, /)",
        "Binomial coefficient ``x`` choose ``y``, as a function of two real variables.",
        {"x": "Number of items.", "y": "Number of items chosen."},
        (
            "xp.special.binom(xp.asarray([4.0, 5.0]), 2.0)",
            "Array([ 6., 10.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "boxcox",
        "(x, lmbda, /)",
        "Box-Cox transformation: ``(x**lmbda - 1) / lmbda``, or ``log(x)`` where ``lmbda`` is 0.",
        {"x": "Data to transform (positive).", **_LMBDA},
        (
            "xp.special.boxcox(xp.asarray([1.0, 2.0, 4.0]), 0.5)",
            "Array([0.        , 0.82842712, 2.        ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "boxcox1p",
        "(x, lmbda, /)",
        "Box-Cox transformation of ``1 + x``, accurate where ``x`` is near zero.",
        {"x": "Data to transform (greater than -1).", **_LMBDA},
        (
            "xp.special.boxcox1p(xp.asarray([0.0, 1.0, 3.0]), 0.5)",
            "Array([0.        , 0.82842712, 2.        ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "cbrt",
        "(x, /)",
        "Real cube root of each element of ``x``.",
        _X,
        (
            "xp.special.cbrt(xp.asarray([-8.0, 1.0, 27.0]))",
            "Array([-2.,  1.,  3.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax="jax.numpy.cbrt",
        composite=True,
    ),
    Special(
        "chdtr",
        "(v, x, /)",
        "Chi square cumulative distribution function.",
        {"v": "Degrees of freedom.", "x": "Upper bound of the integral (the quantile)."},
        (
            "xp.special.chdtr(2.0, xp.asarray([1.0, 2.0]))",
            "Array([0.39346934, 0.63212056], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "chdtrc",
        "(v, x, /)",
        "Chi square survival function.",
        {"v": "Degrees of freedom.", "x": "Lower bound of the integral (the quantile)."},
        (
            "xp.special.chdtrc(2.0, xp.asarray([1.0, 2.0]))",
            "Array([0.60653066, 0.36787944], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "chdtri",
        "(v, p, /)",
        "Inverse of ``chdtrc`` with respect to ``x``: the quantile of a survival probability.",
        {"v": "Degrees of freedom.", "p": "Probability of exceeding the quantile."},
        (
            "xp.special.chdtri(2.0, xp.asarray([0.25, 0.5]))",
            "Array([2.77258872, 1.38629436], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "cosdg",
        "(x, /)",
        "Cosine of the angle ``x`` given in degrees.",
        _DEGREES,
        (
            "xp.special.cosdg(xp.asarray([0.0, 60.0, 90.0]))",
            "Array([ 1. ,  0.5, -0. ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "cosm1",
        "(x, /)",
        "``cos(x) - 1``, accurate where ``x`` is near zero.",
        _X,
        (
            "xp.special.cosm1(xp.asarray([1e-8, 1.0]))",
            "Array([-5.00000000e-17, -4.59697694e-01], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "cotdg",
        "(x, /)",
        "Cotangent of the angle ``x`` given in degrees.",
        _DEGREES,
        (
            "xp.special.cotdg(xp.asarray([45.0, 90.0]))",
            "Array([1., 0.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "ellipk",
        "(m, /)",
        "Complete elliptic integral of the first kind, with parameter ``m``.",
        {"m": "Parameter of the elliptic integral."},
        (
            "xp.special.ellipk(xp.asarray([0.0, 0.5]))",
            "Array([1.57079633, 1.85407468], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "ellipkm1",
        "(p, /)",
        "Complete elliptic integral of the first kind around ``m = 1``, with ``p = 1 - m``.",
        {"p": "The parameter's distance from 1, ``1 - m``."},
        (
            "xp.special.ellipkm1(xp.asarray([1.0, 0.5]))",
            "Array([1.57079633, 1.85407468], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "entr",
        "(x, /)",
        "Elementwise entropy: ``-x * log(x)`` for ``x > 0``, 0 at 0, ``-inf`` below.",
        _X,
        (
            "xp.special.entr(xp.asarray([0.0, 0.5, 1.0]))",
            "Array([ 0.        ,  0.34657359, -0.        ], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "erf",
        "(z, /)",
        "Error function of each element of ``z``.",
        _Z,
        (
            "xp.special.erf(xp.asarray([0.0, 0.5, 1.0]))",
            "Array([0.        , 0.52049988, 0.84270079], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "erfc",
        "(x, /)",
        "Complementary error function, ``1 - erf(x)``.",
        _X_COMPLEX,
        (
            "xp.special.erfc(xp.asarray([0.0, 0.5, 1.0]))",
            "Array([1.        , 0.47950012, 0.15729921], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "erfcx",
        "(x, /)",
        "Scaled complementary error function, ``exp(x**2) * erfc(x)``.",
        _X_COMPLEX,
        (
            "xp.special.erfcx(xp.asarray([0.0, 1.0, 10.0]))",
            "Array([1.        , 0.42758358, 0.05614099], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "erfinv",
        "(y, /)",
        "Inverse of the error function.",
        {"y": "Value of the error function, in [-1, 1]."},
        (
            "xp.special.erfinv(xp.asarray([0.0, 0.5, 1.0]))",
            "Array([0.        , 0.47693628,        inf], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "exp1",
        "(z, /)",
        "Exponential integral E1.",
        _Z,
        (
            "xp.special.exp1(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([0.55977359, 0.21938393, 0.04890051], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        complex=True,
    ),
    Special(
        "exp10",
        "(x, /)",
        "``10**x`` of each element of ``x``.",
        _X,
        (
            "xp.special.exp10(xp.asarray([-1.0, 0.0, 2.0]))",
            "Array([  0.1,   1. , 100. ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "exp2",
        "(x, /)",
        "``2**x`` of each element of ``x``.",
        _X,
        (
            "xp.special.exp2(xp.asarray([-1.0, 0.0, 3.0]))",
            "Array([0.5, 1. , 8. ], dtype=float64, device='numpy:cpu')",
        ),
        jax="jax.numpy.exp2",
        composite=True,
    ),
    Special(
        "exprel",
        "(x, /)",
        "Relative error exponential, ``(exp(x) - 1) / x``, accurate where ``x`` is near zero.",
        _X,
        (
            "xp.special.exprel(xp.asarray([0.0, 1e-8, 1.0]))",
            "Array([1.        , 1.00000001, 1.71828183], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "expi",
        "(x, /)",
        "Exponential integral Ei.",
        _X_COMPLEX,
        (
            "xp.special.expi(xp.asarray([-1.0, 0.5, 1.0]))",
            "Array([-0.21938393,  0.4542199 ,  1.89511782], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        complex=True,
    ),
    Special(
        "expit",
        "(x, /)",
        "Logistic sigmoid ``1 / (1 + exp(-x))``, the inverse of ``logit``.",
        _X,
        (
            "xp.special.expit(xp.asarray([-1.0, 0.0, 1.0]))",
            "Array([0.26894142, 0.5       , 0.73105858], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "expn",
        "(n, x, /)",
        "Generalized exponential integral En.",
        {"n": "Order (a non-negative integer value).", "x": "Argument."},
        (
            "xp.special.expn(2.0, xp.asarray([0.5, 1.0]))",
            "Array([0.32664386, 0.14849551], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        integer=("n",),
    ),
    Special(
        "fdtr",
        "(dfn, dfd, x, /)",
        "F cumulative distribution function.",
        {**_F, "x": "Upper limit of integration (the quantile, non-negative)."},
        (
            "xp.special.fdtr(2.0, 3.0, xp.asarray([0.5, 1.0]))",
            "Array([0.35048095, 0.535242  ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "fdtrc",
        "(dfn, dfd, x, /)",
        "F survival function.",
        {**_F, "x": "Lower limit of integration (the quantile, non-negative)."},
        (
            "xp.special.fdtrc(2.0, 3.0, xp.asarray([0.5, 1.0]))",
            "Array([0.64951905, 0.464758  ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "fdtri",
        "(dfn, dfd, p, /)",
        "The ``p``-th quantile of the F distribution.",
        {**_F, "p": "Cumulative probability, in [0, 1]."},
        (
            "xp.special.fdtri(2.0, 3.0, xp.asarray([0.25, 0.5]))",
            "Array([0.31712059, 0.88110158], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "gamma",
        "(z, /)",
        "Gamma function of each element of ``z``.",
        _Z,
        (
            "xp.special.gamma(xp.asarray([0.5, 1.0, 5.0]))",
            "Array([ 1.77245385,  1.        , 24.        ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        complex=True,
    ),
    Special(
        "gammainc",
        "(a, x, /)",
        "Regularized lower incomplete gamma function.",
        {"a": "Positive parameter.", "x": "Non-negative argument."},
        (
            "xp.special.gammainc(2.0, xp.asarray([0.5, 1.0, 2.0]))",
            "Array([0.09020401, 0.26424112, 0.59399415], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "gammaincc",
        "(a, x, /)",
        "Regularized upper incomplete gamma function, ``1 - gammainc(a, x)``.",
        {"a": "Positive parameter.", "x": "Non-negative argument."},
        (
            "xp.special.gammaincc(2.0, xp.asarray([0.5, 1.0, 2.0]))",
            "Array([0.90979599, 0.73575888, 0.40600585], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "gammainccinv",
        "(a, y, /)",
        "Inverse of the regularized upper incomplete gamma function with respect to ``x``.",
        {"a": "Positive parameter.", "y": "Value of ``gammaincc``, in [0, 1]."},
        (
            "xp.special.gammainccinv(2.0, xp.asarray([0.25, 0.5]))",
            "Array([2.69263453, 1.67834699], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "gammaincinv",
        "(a, y, /)",
        "Inverse of the regularized lower incomplete gamma function with respect to ``x``.",
        {"a": "Positive parameter.", "y": "Value of ``gammainc``, in [0, 1]."},
        (
            "xp.special.gammaincinv(2.0, xp.asarray([0.25, 0.5]))",
            "Array([0.96127876, 1.67834699], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "gammaln",
        "(x, /)",
        "Natural logarithm of the absolute value of the gamma function.",
        _X,
        (
            "xp.special.gammaln(xp.asarray([0.5, 1.0, 10.0]))",
            "Array([ 0.57236494,  0.        , 12.80182748], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "gammasgn",
        "(x, /)",
        "Sign of the gamma function.",
        _X,
        (
            "xp.special.gammasgn(xp.asarray([-1.5, -0.5, 2.0]))",
            "Array([ 1., -1.,  1.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "gdtr",
        "(a, b, x, /)",
        "Gamma distribution cumulative distribution function.",
        {**_GAMMA_AB, "x": "Upper limit of integration (the quantile)."},
        (
            "xp.special.gdtr(1.0, 2.0, xp.asarray([0.5, 1.0]))",
            "Array([0.09020401, 0.26424112], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "gdtrc",
        "(a, b, x, /)",
        "Gamma distribution survival function.",
        {**_GAMMA_AB, "x": "Lower limit of integration (the quantile)."},
        (
            "xp.special.gdtrc(1.0, 2.0, xp.asarray([0.5, 1.0]))",
            "Array([0.90979599, 0.73575888], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "huber",
        "(delta, r, /)",
        "Huber loss: ``r**2 / 2`` where ``|r| <= delta``, ``delta * (|r| - delta / 2)`` beyond.",
        _DELTA_R,
        (
            "xp.special.huber(1.0, xp.asarray([0.5, 2.0]))",
            "Array([0.125, 1.5  ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "hyp1f1",
        "(a, b, x, /)",
        "Confluent hypergeometric function 1F1.",
        {"a": "Parameter.", "b": "Parameter.", "x": "Argument, real or complex."},
        (
            "xp.special.hyp1f1(1.0, 2.0, xp.asarray([0.5, 1.0]))",
            "Array([1.29744254, 1.71828183], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        cupy=None,
        complex=True,
    ),
    Special(
        "inv_boxcox",
        "(y, lmbda, /)",
        "Inverse of the Box-Cox transformation.",
        {"y": "Transformed data.", **_LMBDA},
        (
            "xp.special.inv_boxcox(xp.asarray([0.0, 1.0]), 0.5)",
            "Array([1.  , 2.25], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "inv_boxcox1p",
        "(y, lmbda, /)",
        "Inverse of the Box-Cox transformation of ``1 + x``.",
        {"y": "Transformed data.", **_LMBDA},
        (
            "xp.special.inv_boxcox1p(xp.asarray([0.0, 1.0]), 0.5)",
            "Array([0.  , 1.25], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "i0",
        "(x, /)",
        "Modified Bessel function of the first kind of order 0.",
        _X,
        (
            "xp.special.i0(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([1.        , 1.26606588, 2.2795853 ], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "i0e",
        "(x, /)",
        "Exponentially scaled modified Bessel function of the first kind of order 0.",
        _X,
        (
            "xp.special.i0e(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([1.        , 0.46575961, 0.30850832], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "i1",
        "(x, /)",
        "Modified Bessel function of the first kind of order 1.",
        _X,
        (
            "xp.special.i1(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([0.        , 0.5651591 , 1.59063685], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "i1e",
        "(x, /)",
        "Exponentially scaled modified Bessel function of the first kind of order 1.",
        _X,
        (
            "xp.special.i1e(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([0.        , 0.20791042, 0.21526929], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "j0",
        "(x, /)",
        "Bessel function of the first kind of order 0.",
        _X,
        (
            "xp.special.j0(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([1.        , 0.76519769, 0.22389078], dtype=float64, device='numpy:cpu')",
        ),
        torch="bessel_j0",
        jax=None,
    ),
    Special(
        "j1",
        "(x, /)",
        "Bessel function of the first kind of order 1.",
        _X,
        (
            "xp.special.j1(xp.asarray([0.0, 1.0, 2.0]))",
            "Array([0.        , 0.44005059, 0.57672481], dtype=float64, device='numpy:cpu')",
        ),
        torch="bessel_j1",
        jax=None,
    ),
    Special(
        "k0",
        "(x, /)",
        "Modified Bessel function of the second kind of order 0.",
        _X,
        (
            "xp.special.k0(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([0.92441907, 0.42102444, 0.11389387], dtype=float64, device='numpy:cpu')",
        ),
        torch="modified_bessel_k0",
        jax=None,
    ),
    Special(
        "k0e",
        "(x, /)",
        "Exponentially scaled modified Bessel function of the second kind of order 0.",
        _X,
        (
            "xp.special.k0e(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([1.52410939, 1.14446308, 0.84156822], dtype=float64, device='numpy:cpu')",
        ),
        torch="scaled_modified_bessel_k0",
        jax=None,
    ),
    Special(
        "k1",
        "(x, /)",
        "Modified Bessel function of the second kind of order 1.",
        _X,
        (
            "xp.special.k1(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([1.65644112, 0.60190723, 0.13986588], dtype=float64, device='numpy:cpu')",
        ),
        torch="modified_bessel_k1",
        jax=None,
    ),
    Special(
        "k1e",
        "(x, /)",
        "Exponentially scaled modified Bessel function of the second kind of order 1.",
        _X,
        (
            "xp.special.k1e(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([2.73100971, 1.63615349, 1.03347685], dtype=float64, device='numpy:cpu')",
        ),
        torch="scaled_modified_bessel_k1",
        jax=None,
    ),
    Special(
        "kl_div",
        "(x, y, /)",
        "Elementwise Kullback-Leibler divergence term ``x * log(x / y) - x + y``.",
        _KL,
        (
            "xp.special.kl_div(xp.asarray([0.5, 0.25]), 0.5)",
            "Array([0.       , 0.0767132], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        composite=True,
    ),
    Special(
        "log_ndtr",
        "(x, /)",
        "Logarithm of the standard normal cumulative distribution function.",
        _X_COMPLEX,
        (
            "xp.special.log_ndtr(xp.asarray([-10.0, 0.0, 1.0]))",
            "Array([-53.23128515,  -0.69314718,  -0.17275378], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "loggamma",
        "(z, /)",
        "Principal branch of the logarithm of the gamma function.",
        _Z,
        (
            "xp.special.loggamma(xp.asarray([0.5, 1.0, 10.0]))",
            "Array([ 0.57236494,  0.        , 12.80182748], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        complex=True,
    ),
    Special(
        "logit",
        "(x, /)",
        "Logit ``log(x / (1 - x))``, the inverse of ``expit``.",
        {"x": "Probability, in [0, 1]."},
        (
            "xp.special.logit(xp.asarray([0.25, 0.5, 0.75]))",
            "Array([-1.09861229,  0.        ,  1.09861229], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "lpmv",
        "(m, v, x, /)",
        "Associated Legendre function of integer order ``m`` and real degree ``v``.",
        {"m": "Order (an integer value).", "v": "Degree.", "x": "Argument, in [-1, 1]."},
        (
            "xp.special.lpmv(1.0, 2.0, xp.asarray([0.0, 0.5]))",
            "Array([ 0.        , -1.29903811], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "multigammaln",
        "(a, d)",
        "Logarithm of the multivariate gamma function of dimension ``d``.",
        {
            "a": "Argument, each element greater than ``(d - 1) / 2`` (below, SciPy raises "
            "``ValueError``; torch and JAX give ``inf`` or NaN).",
            "d": "Dimension.",
        },
        (
            "xp.special.multigammaln(xp.asarray([2.0, 3.0]), 2)",
            "Array([0.45158271, 1.55019499], dtype=float64, device='numpy:cpu')",
        ),
        ints=("d",),
    ),
    Special(
        "nbdtr",
        "(k, n, p, /)",
        "Negative binomial cumulative distribution function.",
        {**_NB, "p": "Probability of success in a single trial."},
        (
            "xp.special.nbdtr(xp.asarray([1.0, 2.0]), 3.0, 0.5)",
            "Array([0.3125, 0.5   ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("k", "n"),
    ),
    Special(
        "nbdtrc",
        "(k, n, p, /)",
        "Negative binomial survival function.",
        {**_NB, "p": "Probability of success in a single trial."},
        (
            "xp.special.nbdtrc(xp.asarray([1.0, 2.0]), 3.0, 0.5)",
            "Array([0.6875, 0.5   ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("k", "n"),
    ),
    Special(
        "nbdtri",
        "(k, n, y, /)",
        "Inverse of ``nbdtr`` with respect to the probability of success ``p``.",
        {**_NB, "y": "Probability of at most ``k`` failures before ``n`` successes."},
        (
            "xp.special.nbdtri(xp.asarray([1.0, 2.0]), 3.0, 0.5)",
            "Array([0.61427243, 0.5       ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("k", "n"),
    ),
    Special(
        "ndtr",
        "(x, /)",
        "Standard normal cumulative distribution function.",
        _X_COMPLEX,
        (
            "xp.special.ndtr(xp.asarray([-1.0, 0.0, 1.0]))",
            "Array([0.15865525, 0.5       , 0.84134475], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "ndtri",
        "(y, /)",
        "Inverse of ``ndtr``: the quantile of the standard normal distribution.",
        {"y": "Probability, in [0, 1]."},
        (
            "xp.special.ndtri(xp.asarray([0.25, 0.5, 0.975]))",
            "Array([-0.67448975,  0.        ,  1.95996398], dtype=float64, device='numpy:cpu')",
        ),
    ),
    Special(
        "pdtr",
        "(k, m, /)",
        "Poisson cumulative distribution function: P(at most ``k`` events).",
        {"k": "Number of occurrences (non-negative).", "m": "Shape parameter (the mean)."},
        (
            "xp.special.pdtr(xp.asarray([0.0, 1.0, 2.0]), 1.0)",
            "Array([0.36787944, 0.73575888, 0.9196986 ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "pdtrc",
        "(k, m, /)",
        "Poisson survival function: P(more than ``k`` events).",
        {"k": "Number of occurrences (non-negative).", "m": "Shape parameter (the mean)."},
        (
            "xp.special.pdtrc(xp.asarray([0.0, 1.0, 2.0]), 1.0)",
            "Array([0.63212056, 0.26424112, 0.0803014 ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "pdtri",
        "(k, y, /)",
        "Inverse of ``pdtr`` with respect to the mean ``m``.",
        {"k": "Number of occurrences (an integer value).", "y": "Probability."},
        (
            "xp.special.pdtri(xp.asarray([0.0, 1.0]), 0.5)",
            "Array([0.69314718, 1.67834699], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("k",),
    ),
    Special(
        "poch",
        "(z, m, /)",
        "Pochhammer symbol (rising factorial) ``gamma(z + m) / gamma(z)``.",
        {"z": "Argument.", "m": "Number of terms."},
        (
            "xp.special.poch(xp.asarray([1.0, 2.0]), 3.0)",
            "Array([ 6., 24.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
    ),
    Special(
        "pseudo_huber",
        "(delta, r, /)",
        "Pseudo-Huber loss ``delta**2 * (sqrt(1 + (r / delta)**2) - 1)``.",
        _DELTA_R,
        (
            "xp.special.pseudo_huber(1.0, xp.asarray([0.5, 2.0]))",
            "Array([0.11803399, 1.23606798], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "polygamma",
        "(n, x)",
        "Polygamma function of order ``n``: the ``n``-th derivative of the digamma function.",
        {"n": "Order (a non-negative integer value).", "x": "Argument."},
        (
            "xp.special.polygamma(1, xp.asarray([1.0, 2.0]))",
            "Array([1.64493407, 0.64493407], dtype=float64, device='numpy:cpu')",
        ),
        # torch's and JAX's take an integer order only (torch: a Python int)
        torch=None,
        jax=None,
        composite=True,
        integer=("n",),
    ),
    Special(
        "psi",
        "(z, /)",
        "Digamma function, the derivative of the logarithm of the gamma function.",
        _Z,
        (
            "xp.special.psi(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([-1.96351003, -0.57721566,  0.42278434], dtype=float64, device='numpy:cpu')",
        ),
        jax="digamma",
        complex=True,
    ),
    Special(
        "radian",
        "(d, m, s, /)",
        "Angle of ``d`` degrees, ``m`` minutes and ``s`` seconds, in radians.",
        {"d": "Degrees.", "m": "Minutes.", "s": "Seconds."},
        (
            "xp.special.radian(xp.asarray([90.0, 180.0]), 0.0, 0.0)",
            "Array([1.57079633, 3.14159265], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "rel_entr",
        "(x, y, /)",
        "Elementwise relative entropy term ``x * log(x / y)``.",
        _KL,
        (
            "xp.special.rel_entr(xp.asarray([0.5, 0.25]), 0.5)",
            "Array([ 0.       , -0.1732868], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        composite=True,
    ),
    Special(
        "rgamma",
        "(z, /)",
        "Reciprocal of the gamma function, ``1 / gamma(z)``.",
        _Z,
        (
            "xp.special.rgamma(xp.asarray([-1.0, 0.5, 5.0]))",
            "Array([0.        , 0.56418958, 0.04166667], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        complex=True,
    ),
    Special(
        "sinc",
        "(x)",
        "Normalized sinc function, ``sin(pi * x) / (pi * x)``.",
        _X,
        (
            "xp.special.sinc(xp.asarray([0.0, 0.5, 1.0]))",
            "Array([1.00000000e+00, 6.36619772e-01, 3.89817183e-17], dtype=float64, device='numpy:cpu')",
        ),
        jax="jax.numpy.sinc",
        cupy="cupy.sinc",
    ),
    Special(
        "sindg",
        "(x, /)",
        "Sine of the angle ``x`` given in degrees.",
        _DEGREES,
        (
            "xp.special.sindg(xp.asarray([0.0, 30.0, 90.0]))",
            "Array([0. , 0.5, 1. ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "spence",
        "(z, /)",
        "Spence's function (the dilogarithm).",
        _Z,
        (
            "xp.special.spence(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([ 0.58224053,  0.        , -0.82246703], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        cupy=None,
        complex=True,
    ),
    Special(
        "stdtr",
        "(df, t, /)",
        "Student t distribution cumulative distribution function.",
        {"df": "Degrees of freedom (positive).", "t": "Upper bound of the integral."},
        (
            "xp.special.stdtr(3.0, xp.asarray([-1.0, 0.0, 2.0]))",
            "Array([0.19550111, 0.5       , 0.93033702], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        composite=True,
    ),
    Special(
        "stdtrit",
        "(df, p, /)",
        "The ``p``-th quantile of the Student t distribution.",
        {"df": "Degrees of freedom (positive).", "p": "Probability, in [0, 1]."},
        (
            "xp.special.stdtrit(3.0, xp.asarray([0.25, 0.5]))",
            "Array([-0.76489233,  0.        ], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "tandg",
        "(x, /)",
        "Tangent of the angle ``x`` given in degrees.",
        _DEGREES,
        (
            "xp.special.tandg(xp.asarray([0.0, 45.0]))",
            "Array([0., 1.], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
    Special(
        "xlog1py",
        "(x, y, /)",
        "``x * log1p(y)``, 0 where ``x`` is 0.",
        {"x": "Multiplier.", "y": "Argument of ``log1p``."},
        (
            "xp.special.xlog1py(xp.asarray([0.0, 1.0]), 1.0)",
            "Array([0.        , 0.69314718], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "xlogy",
        "(x, y, /)",
        "``x * log(y)``, 0 where ``x`` is 0.",
        {"x": "Multiplier.", "y": "Argument of ``log``."},
        (
            "xp.special.xlogy(xp.asarray([0.0, 1.0]), 2.0)",
            "Array([0.        , 0.69314718], dtype=float64, device='numpy:cpu')",
        ),
        complex=True,
    ),
    Special(
        "y0",
        "(x, /)",
        "Bessel function of the second kind of order 0.",
        _X,
        (
            "xp.special.y0(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([-0.44451873,  0.08825696,  0.51037567], dtype=float64, device='numpy:cpu')",
        ),
        torch="bessel_y0",
        jax=None,
    ),
    Special(
        "y1",
        "(x, /)",
        "Bessel function of the second kind of order 1.",
        _X,
        (
            "xp.special.y1(xp.asarray([0.5, 1.0, 2.0]))",
            "Array([-1.47147239, -0.78121282, -0.10703243], dtype=float64, device='numpy:cpu')",
        ),
        torch="bessel_y1",
        jax=None,
    ),
    Special(
        "yn",
        "(n, x, /)",
        "Bessel function of the second kind of integer order ``n``.",
        {**_ORDER_N, "x": "Argument."},
        (
            "xp.special.yn(2.0, xp.asarray([0.5, 1.0]))",
            "Array([-5.44137084, -1.65068261], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
        integer=("n",),
    ),
    Special(
        "zeta",
        "(x, q=None)",
        "Riemann zeta function, or the Hurwitz zeta function of ``x`` and ``q``.",
        {"x": "Argument.", "q": "Offset of the Hurwitz zeta function; None for Riemann's."},
        (
            "xp.special.zeta(xp.asarray([2.0, 4.0]))",
            "Array([1.64493407, 1.08232323], dtype=float64, device='numpy:cpu')",
        ),
        # torch's, JAX's and CuPy's are Hurwitz's only (``q`` required)
        torch=None,
        jax=None,
        cupy=None,
        composite=True,
    ),
    Special(
        "zetac",
        "(x, /)",
        "Riemann zeta function minus 1.",
        _X,
        (
            "xp.special.zetac(xp.asarray([2.0, 4.0]))",
            "Array([0.64493407, 0.08232323], dtype=float64, device='numpy:cpu')",
        ),
        torch=None,
        jax=None,
    ),
)

BY_NAME: Final[Mapping[str, Special]] = {s.name: s for s in RECORDS}

#: Other names of functions of the table (SciPy's), as ``scipy.special`` has them.
ALIASES: Final[Mapping[str, str]] = {"digamma": "psi"}
