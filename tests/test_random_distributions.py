"""arraymux.random's distributions: jax.random's numbers on every device, the same bits on
every device, sound moments, checked arguments, the Generator's NumPy-named methods, and one
compilation per shape for JAX's fast generator."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

import arraymux as xp

from ._rounding import APPROXIMATE_TOLERANCE, assert_same_draws, rounds_exactly
from .conftest import DEVICES

NEEDS_JAX = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")

SEED = 3
INF = math.inf

# Each case: (function, arguments after the key, keyword arguments), with jax.random's and
# arraymux.random's signatures alike. The gamma family draws 16 gamma numbers in each case,
# so that on JAX two compilations (gamma, log-gamma) serve them all.
CASES: dict[str, tuple[str, tuple, dict]] = {
    "exponential": ("exponential", ((16,),), {}),
    "laplace": ("laplace", ((16,),), {}),
    "logistic": ("logistic", ((16,),), {}),
    "gumbel": ("gumbel", ((16,),), {}),
    "gumbel_high": ("gumbel", ((16,),), {"mode": "high"}),
    "pareto": ("pareto", (3.0, (16,)), {}),
    "weibull_min": ("weibull_min", (2.0, 1.5, (16,)), {}),
    "lognormal": ("lognormal", (0.7, (16,)), {}),
    "truncated_normal": ("truncated_normal", (-1.5, 0.5, (16,)), {}),
    "truncated_normal_tail": ("truncated_normal", (-INF, -2.0, (16,)), {}),
    "gamma": ("gamma", ([0.4, 1.0, 3.5, 12.0], (4, 4)), {}),
    "loggamma": ("loggamma", ([0.05, 2.0], (8, 2)), {}),
    "beta": ("beta", (2.0, [0.3, 5.0], (8, 2)), {}),
    "dirichlet": ("dirichlet", ([0.5, 1.0, 3.0, 0.2], (4,)), {}),
    "t": ("t", (4.0, (16,)), {}),
    "chisquare": ("chisquare", ([3.0, 0.7], (8, 2)), {}),
    "poisson": ("poisson", ([0.0, 3.0, 30.0, 500.0], (4, 4)), {}),
    "binomial": ("binomial", ([10.0, 10.0, 0.0, 300.0], [0.3, 1.0, 0.5, 0.6], (4, 4)), {}),
    "categorical": ("categorical", ([-2.3, -1.6, -0.36],), {"shape": (16,)}),
    "categorical_axis": (
        "categorical",
        ([[-2.3, -1.6, -0.36], [0.0, 0.5, -1.0]],),
        {"axis": 0, "shape": (4, 3)},
    ),
    "categorical_unique": (
        "categorical",
        ([[0.0] * 10, [1.0] * 5 + [0.0] * 5],),
        {"shape": (4, 2), "replace": False},
    ),
    "multivariate_normal": (
        "multivariate_normal",
        ([1.0, 2.0], [[2.0, 0.5], [0.5, 1.0]], (8,)),
        {},
    ),
}

# jax.random's draws for the cases, key jax.random.key(3), JAX 0.10.2 (jax_threefry_partitionable,
# its default; x64 off: float32 and int32). test_the_table_is_jax_randoms checks the table
# against the installed JAX where that is quick to compile.
JAX_DRAWS = {
    "exponential": [
        0.07693781703710556,
        2.7829513549804688,
        1.046846628189087,
        3.7140326499938965,
        0.3262535035610199,
        0.8745205402374268,
        0.11261511594057083,
        0.4805648922920227,
        0.23687998950481415,
        0.13692253828048706,
        1.3352636098861694,
        0.16975563764572144,
        0.35797783732414246,
        0.29696789383888245,
        3.470703601837158,
        0.11412976682186127,
    ],
    "laplace": [
        1.90983247756958,
        -2.0898046493530273,
        -0.3536995053291321,
        -3.0208866596221924,
        0.5856289267539978,
        -0.1813734620809555,
        1.5464110374450684,
        0.27032405138015747,
        0.8631573915481567,
        1.3628727197647095,
        -0.6421164870262146,
        1.163925290107727,
        0.507792055606842,
        0.6657959818840027,
        -2.777557373046875,
        1.5337939262390137,
    ],
    "logistic": [
        -2.5260419845581055,
        2.719099998474121,
        0.6144578456878662,
        3.6893515586853027,
        -0.9525226354598999,
        0.3348461985588074,
        -2.126943349838257,
        -0.48290640115737915,
        -1.3194247484207153,
        -1.9190974235534668,
        1.0299756526947021,
        -1.687317132949829,
        -0.8429614305496216,
        -1.061975359916687,
        3.439114809036255,
        -2.11281156539917,
    ],
    "gumbel": [
        -0.9566569328308105,
        2.7511956691741943,
        0.8384301662445068,
        3.7017173767089844,
        -0.24590350687503815,
        0.6167894005775452,
        -0.8062787055969238,
        0.03721258416771889,
        -0.4423142075538635,
        -0.7207720875740051,
        1.186500072479248,
        -0.6190014481544495,
        -0.1831039935350418,
        -0.30670738220214844,
        3.4549505710601807,
        -0.8006290793418884,
    ],
    "gumbel_high": [
        2.5647568702697754,
        -1.0235120058059692,
        -0.045782435685396194,
        -1.3121182918548584,
        1.1200802326202393,
        0.13407950103282928,
        2.183779001235962,
        0.7327926158905029,
        1.4402014017105103,
        1.9883396625518799,
        -0.28912875056266785,
        1.7733947038650513,
        1.0272841453552246,
        1.2141309976577759,
        -1.2443573474884033,
        2.1704185009002686,
    ],
    "pareto": [
        1.025977611541748,
        2.5285611152648926,
        1.417576789855957,
        3.448746681213379,
        1.114884853363037,
        1.3384428024291992,
        1.0382518768310547,
        1.173731803894043,
        1.0821610689163208,
        1.0466984510421753,
        1.5606273412704468,
        1.0582168102264404,
        1.126737117767334,
        1.1040544509887695,
        3.1800637245178223,
        1.038776159286499,
    ],
    "weibull_min": [
        0.3617900013923645,
        3.9570093154907227,
        2.0619843006134033,
        4.796529769897461,
        0.9478365182876587,
        1.8289843797683716,
        0.46640273928642273,
        1.227056860923767,
        0.7656828165054321,
        0.5313082933425903,
        2.4251651763916016,
        0.613167941570282,
        1.008325457572937,
        0.8902315497398376,
        4.584672927856445,
        0.4705754518508911,
    ],
    "lognormal": [
        0.3633531928062439,
        2.937523126602173,
        1.3070260286331177,
        3.972879648208618,
        0.6627435684204102,
        1.157880187034607,
        0.4182274043560028,
        0.8098070621490479,
        0.5699095726013184,
        0.45146673917770386,
        1.5584570169448853,
        0.4929504692554474,
        0.694025456905365,
        0.6331912875175476,
        3.6893703937530518,
        0.4203781187534332,
    ],
    "truncated_normal": [
        -1.2103906869888306,
        0.3929559588432312,
        -0.06978695094585419,
        0.4571934640407562,
        -0.7040610909461975,
        -0.17397505044937134,
        -1.1107571125030518,
        -0.5096326470375061,
        -0.8467910289764404,
        -1.0505203008651733,
        0.06803884357213974,
        -0.9768003225326538,
        -0.6595444083213806,
        -0.7477640509605408,
        0.44554969668388367,
        -1.1068416833877563,
    ],
    "truncated_normal_tail": [
        -2.931858539581299,
        -2.026771306991577,
        -2.1763687133789062,
        -2.0103797912597656,
        -2.4930167198181152,
        -2.2184550762176514,
        -2.81709361076355,
        -2.378964424133301,
        -2.590033769607544,
        -2.757625102996826,
        -2.1256837844848633,
        -2.6919336318969727,
        -2.4652554988861084,
        -2.5213513374328613,
        -2.013277530670166,
        -2.813040018081665,
    ],
    "gamma": [
        0.09044385701417923,
        0.19266697764396667,
        8.267415046691895,
        8.690032958984375,
        0.008840600028634071,
        0.4028569161891937,
        3.5129148960113525,
        10.875466346740723,
        0.030172623693943024,
        2.141899347305298,
        1.9066389799118042,
        13.782672882080078,
        0.11640960723161697,
        0.3061646521091461,
        3.1410865783691406,
        13.478515625,
    ],
    "loggamma": [
        -11.57359504699707,
        -0.21274572610855103,
        -25.737468719482422,
        -0.3419616222381592,
        -14.886163711547852,
        0.20221832394599915,
        -10.050277709960938,
        0.32132047414779663,
        -26.251693725585938,
        1.2997287511825562,
        -2.2332241535186768,
        0.9331230521202087,
        -11.997977256774902,
        0.042612165212631226,
        -34.16086959838867,
        0.8786131739616394,
    ],
    "beta": [
        0.6755691766738892,
        0.30308079719543457,
        0.7197484970092773,
        0.14560644328594208,
        0.9002625942230225,
        0.3370405435562134,
        0.7906263470649719,
        0.13118110597133636,
        0.9946841597557068,
        0.16625216603279114,
        0.9948711395263672,
        0.38272127509117126,
        0.975307822227478,
        0.110649473965168,
        0.9990515112876892,
        0.3114756941795349,
    ],
    "dirichlet": [
        0.016728419810533524,
        0.02393433079123497,
        0.9301790595054626,
        0.0291580930352211,
        0.004730222746729851,
        0.11714109033346176,
        0.86808180809021,
        0.010046892799437046,
        0.015421874821186066,
        0.5204503536224365,
        0.3711039125919342,
        0.09302389621734619,
        0.05498740077018738,
        0.09710151702165604,
        0.8383022546768188,
        0.009608887135982513,
    ],
    "t": [
        -2.433849334716797,
        -1.6916073560714722,
        -0.5452790856361389,
        -0.6057949662208557,
        0.38057607412338257,
        1.272357702255249,
        1.1142112016677856,
        -3.5312483310699463,
        6.04492712020874,
        -0.9643926024436951,
        -7.091178894042969,
        0.7874606847763062,
        -0.05458623170852661,
        0.137235626578331,
        -0.021636493504047394,
        0.9394922852516174,
    ],
    "chisquare": [
        0.7037352323532104,
        0.28492647409439087,
        9.939547538757324,
        0.6317687630653381,
        0.07582766562700272,
        0.3322758376598358,
        2.7631990909576416,
        0.2939465343952179,
        1.6162222623825073,
        2.1903579235076904,
        0.9596619606018066,
        1.5641136169433594,
        0.9934030175209045,
        0.004486801102757454,
        2.3023343086242676,
        0.3575884997844696,
    ],
    "poisson": [0, 4, 34, 496, 0, 1, 22, 498, 0, 2, 27, 516, 0, 5, 35, 492],
    "binomial": [
        0.0,
        10.0,
        0.0,
        182.0,
        6.0,
        10.0,
        0.0,
        181.0,
        4.0,
        10.0,
        0.0,
        174.0,
        4.0,
        10.0,
        0.0,
        183.0,
    ],
    "categorical": [1, 0, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 2],
    "categorical_axis": [1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    "categorical_unique": [3, 4, 1, 0, 2, 8, 5, 2],
    "multivariate_normal": [
        -1.045316219329834,
        2.9286301136016846,
        1.5409455299377441,
        3.978659152984619,
        0.1689128279685974,
        1.9881186485290527,
        -0.7611604928970337,
        1.2778037786483765,
        -0.13597214221954346,
        0.6533046960830688,
        1.8964017629623413,
        1.2788687944412231,
        0.26209038496017456,
        1.2048537731170654,
        3.6374189853668213,
        1.5013108253479004,
    ],
}

#: How far from jax.random's a float may be, in units of eps * max(|x|, 1): XLA fuses its
#: multiply-adds (one rounding where arraymux rounds twice), and its log, exp, erf and erfinv
#: round in their own ways; integers (poisson, categorical) and binomial counts are exact.
FLOAT_TOLERANCE = 4

#: Cases that jax.random compiles in about a second each (the gamma family, poisson and
#: binomial take 5 to 10 s each on two cores).
QUICK_FOR_JAX = ("exponential", "gumbel", "truncated_normal", "categorical", "multivariate_normal")


def _np(x: xp.Array) -> np.ndarray:
    return xp.to_numpy(x)


def _draw(name: str, device: xp.Device) -> np.ndarray:
    fn, args, kwargs = CASES[name]
    return _np(getattr(xp.random, fn)(xp.random.key(SEED, device=device), *args, **kwargs))


def _assert_near_jax(name: str, got: np.ndarray, want: list, exact: bool = True) -> None:
    """``got`` is jax.random's ``want`` (made on JAX's CPU): floats within
    :data:`FLOAT_TOLERANCE`, plus :data:`APPROXIMATE_TOLERANCE` where drawn on a device
    that divides approximately (not ``exact``)."""
    w = np.asarray(want, dtype=got.dtype).reshape(got.shape)
    if got.dtype.kind != "f" or name == "binomial":
        assert got.tolist() == w.tolist(), name
        return
    scale = np.finfo(got.dtype).eps * np.maximum(np.abs(w.astype(np.float64)), 1.0)
    err = np.abs(got.astype(np.float64) - w.astype(np.float64)) / scale
    tolerance = FLOAT_TOLERANCE + (0 if exact else APPROXIMATE_TOLERANCE)
    assert err.max() <= tolerance, f"{name}: {err.max():.1f} (eps * max(|x|, 1))"


@pytest.fixture(scope="module")
def numpy_draws() -> dict[str, np.ndarray]:
    return {name: _draw(name, xp.Device("numpy")) for name in CASES}


@pytest.mark.parametrize("name", list(CASES))
def test_the_numbers_of_jax_random_on_every_device(device, name, numpy_draws):
    """Every device gives jax.random's numbers (within rounding for floats), and bit for bit
    the numbers of every other device (floats within a few ulp on JAX's GPUs: see
    ``tests/_rounding.py``)."""
    got = _draw(name, device)
    _assert_near_jax(name, got, JAX_DRAWS[name], rounds_exactly(device))
    assert_same_draws(got, numpy_draws[name], device, name)


@NEEDS_JAX
def test_the_table_is_jax_randoms():
    """The stored draws are those of the installed jax.random (for the quick cases), on JAX's
    CPU, where the table was made: XLA's GPU backend divides and takes square roots of
    float32 approximately, so jax.random's floats there differ in their last bits."""
    import jax
    import jax.numpy as jnp

    with jax.default_device(jax.devices("cpu")[0]):
        key = jax.random.key(SEED)
        for name in QUICK_FOR_JAX:
            fn, args, kwargs = CASES[name]
            args = tuple(jnp.asarray(a, jnp.float32) if isinstance(a, list) else a for a in args)
            want = np.asarray(getattr(jax.random, fn)(key, *args, **kwargs)).ravel()
        assert want.tolist() == np.asarray(JAX_DRAWS[name], dtype=want.dtype).tolist(), name


FLOAT64_CASES = {
    "exponential": lambda k: xp.random.exponential(k, (8,), xp.float64),
    "weibull_min": lambda k: xp.random.weibull_min(k, 2.0, 0.7, (8,), xp.float64),
    "truncated_normal": lambda k: xp.random.truncated_normal(k, -3.0, 1.0, (8,), xp.float64),
    "gamma": lambda k: xp.random.gamma(k, [0.3, 4.0], (4, 2), xp.float64),
    "beta": lambda k: xp.random.beta(k, 0.5, 0.5, (8,), xp.float64),
    "binomial": lambda k: xp.random.binomial(k, [5, 80], 0.4, (4, 2), xp.float64),
    "multivariate_normal": lambda k: xp.random.multivariate_normal(
        k, [0.0, 1.0, 2.0], [[1.0, 0.2, 0.1], [0.2, 2.0, 0.3], [0.1, 0.3, 3.0]], (3,), xp.float64
    ),
}


@pytest.mark.parametrize("device", [d for d in DEVICES if d.supports(xp.float64)], ids=str)
def test_float64_draws_are_the_same_bits_on_every_device(device):
    ref = {n: _np(f(xp.random.key(11, device="numpy"))) for n, f in FLOAT64_CASES.items()}
    for name, f in FLOAT64_CASES.items():
        got = f(xp.random.key(11, device=device))
        assert got.dtype == xp.float64 and got.device == device
        assert _np(got).tobytes() == ref[name].tobytes(), f"{name} differs on {device}"


def test_array_parameters_on_the_device(device):
    """Parameters given as arrays on the key's device draw what numbers draw, element by
    element; their floating dtype is the draws' dtype."""
    k = xp.random.key(4, device=device)
    a = xp.asarray([0.5, 2.0, 9.0, 1.0], dtype=xp.float32, device=device)
    got = xp.random.gamma(k, a, (4, 4))  # the cases' shapes: on JAX, their compilations
    assert got.dtype == xp.float32 and got.device == device and got.shape == (4, 4)
    same = xp.random.gamma(k, [0.5, 2.0, 9.0, 1.0], (4, 4))
    assert _np(got).tobytes() == _np(same).tobytes()
    lam = xp.asarray([1.0, 40.0, 0.0, 3.0], dtype=xp.float32, device=device)
    n = _np(xp.random.poisson(k, lam, (4, 4)))
    assert n.tolist() == _np(xp.random.poisson(k, [1.0, 40.0, 0.0, 3.0], (4, 4))).tolist()
    assert xp.random.exponential(k, (2,)).shape == (2,)
    if device.supports(xp.float64):
        b = xp.asarray([1.0, 2.0], dtype=xp.float64, device=device)
        assert xp.random.pareto(k, b).dtype == xp.float64  # shape None: b's shape
        assert xp.random.pareto(k, b).shape == (2,)


# -- sound statistics -------------------------------------------------------------------------

N = 4000


def _moments(name: str) -> tuple[np.ndarray, float, float]:
    k = xp.random.key(2026, device="numpy")
    r = xp.random
    draws = {
        # name: (draws, mean, variance)
        "gamma": (r.gamma(k, 2.5, (N,)), 2.5, 2.5),
        "gamma_small": (r.gamma(k, 0.3, (N,)), 0.3, 0.3),
        "beta": (r.beta(k, 2.0, 5.0, (N,)), 2 / 7, 10 / (49 * 8)),
        "exponential": (r.exponential(k, (N,)), 1.0, 1.0),
        "laplace": (r.laplace(k, (N,)), 0.0, 2.0),
        "logistic": (r.logistic(k, (N,)), 0.0, math.pi**2 / 3),
        "gumbel": (r.gumbel(k, (N,)), 0.5772156649, math.pi**2 / 6),
        "poisson": (r.poisson(k, 4.0, (N,)), 4.0, 4.0),
        "poisson_large": (r.poisson(k, 60.0, (N,)), 60.0, 60.0),
        "binomial": (r.binomial(k, 12, 0.3, (N,)), 3.6, 2.52),
        "binomial_large": (r.binomial(k, 400, 0.7, (N,)), 280.0, 84.0),
        "truncated_normal": (
            r.truncated_normal(k, 0.0, INF, (N,)),
            math.sqrt(2 / math.pi),
            1 - 2 / math.pi,
        ),
        "t": (r.t(k, 6.0, (N,)), 0.0, 1.5),
        "chisquare": (r.chisquare(k, 3.0, (N,)), 3.0, 6.0),
        "lognormal": (
            r.lognormal(k, 0.5, (N,)),
            math.exp(0.125),
            (math.exp(0.25) - 1) * math.exp(0.25),
        ),
        "pareto": (r.pareto(k, 5.0, (N,)), 1.25, 5 / (16 * 3)),
        "weibull_min": (
            r.weibull_min(k, 2.0, 2.0, (N,)),
            2 * math.gamma(1.5),
            4 * (1 - math.gamma(1.5) ** 2),
        ),
    }
    x, mean, var = draws[name]
    return _np(x).astype(np.float64), mean, var


@pytest.mark.parametrize(
    "name",
    [
        "gamma",
        "gamma_small",
        "beta",
        "exponential",
        "laplace",
        "logistic",
        "gumbel",
        "poisson",
        "poisson_large",
        "binomial",
        "binomial_large",
        "truncated_normal",
        "t",
        "chisquare",
        "lognormal",
        "pareto",
        "weibull_min",
    ],
)
def test_moments(name):
    """The sample mean within 5 standard errors, the variance within 20 %."""
    x, mean, var = _moments(name)
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / N), (x.mean(), mean)
    assert abs(x.var() / var - 1) < 0.2, (x.var(), var)


def test_vector_distributions_follow_their_parameters():
    k1, k2, k3 = xp.random.split(xp.random.key(8, device="numpy"), 3)
    alpha = np.array([1.0, 2.0, 7.0])
    p = _np(xp.random.dirichlet(k1, alpha.tolist(), (N,))).astype(np.float64)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(p.mean(axis=0), alpha / alpha.sum(), atol=0.01)
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    z = _np(xp.random.multivariate_normal(k2, [1.0, -1.0], cov.tolist(), (N,))).astype(float)
    np.testing.assert_allclose(z.mean(axis=0), [1.0, -1.0], atol=0.1)
    np.testing.assert_allclose(np.cov(z.T), cov, atol=0.15)
    probs = np.array([0.1, 0.2, 0.7])
    c = _np(xp.random.categorical(k3, np.log(probs).tolist(), shape=(N,)))
    np.testing.assert_allclose(np.bincount(c, minlength=3) / N, probs, atol=0.03)
    u = _np(xp.random.categorical(k3, [0.0] * 6, shape=(6,), replace=False))
    assert sorted(u.tolist()) == list(range(6))


def test_edges_of_the_domains():
    k = xp.random.key(1, device="numpy")
    assert _np(xp.random.poisson(k, 0.0, (5,))).tolist() == [0] * 5
    assert _np(xp.random.binomial(k, 7, 1.0, (3,))).tolist() == [7.0] * 3
    assert _np(xp.random.binomial(k, 7, 0.0, (3,))).tolist() == [0.0] * 3
    assert _np(xp.random.binomial(k, 7.9, 1.0, (2,))).tolist() == [7.0] * 2  # n rounded down
    tail = _np(xp.random.truncated_normal(k, 5.0, INF, (100,)))
    assert (tail > 5.0).all() and np.isfinite(tail).all()
    lg = _np(xp.random.loggamma(k, 1e-3, (100,)))
    assert np.isfinite(lg).all() and lg.max() < 0
    nan = xp.asarray([math.nan], dtype=xp.float32)
    assert np.isnan(_np(xp.random.gamma(k, nan))).all()  # arrays are not read: NaN, as JAX
    singular = [[1.0, 1.0], [1.0, 1.0]]
    assert np.isnan(_np(xp.random.multivariate_normal(k, [0.0, 0.0], singular, (2,)))).any()
    z = _np(xp.random.multivariate_normal(k, [0.0, 0.0], singular, (200,), method="svd"))
    np.testing.assert_allclose(z[:, 0], z[:, 1], atol=1e-5)


# -- arguments are checked, errors name the function -----------------------------------------


def _bad_calls(k: xp.Array):
    r = xp.random
    return [
        (lambda: r.gamma(k, -1.0), ValueError, r"gamma: a must be > 0, got -1\.0"),
        (lambda: r.gamma(k, [1.0, 0.0]), ValueError, r"gamma: a must be > 0, got 0\.0"),
        (lambda: r.gamma(k, math.nan), ValueError, "gamma: a must be finite"),
        (lambda: r.gamma(k, 10**400), ValueError, "gamma: a must be finite"),
        (lambda: r.gamma(k, "2"), TypeError, "gamma: a must be a real number"),
        (lambda: r.gamma(k, True), TypeError, "gamma: a must be a real number"),
        (lambda: r.gamma(k, [1.0, 2.0], (3,)), ValueError, r"gamma: a of shape \(2,\) does"),
        (lambda: r.gamma(k, 1.0, (-1,)), ValueError, "gamma: shape"),
        (lambda: r.gamma(k, 1.0, dtype=xp.int32), ValueError, "gamma: dtype must be float32"),
        (lambda: r.gamma(np.zeros(2), 1.0), TypeError, "gamma: expected a key"),
        (lambda: r.beta(k, 1.0, -2.0), ValueError, "beta: b must be > 0"),
        (lambda: r.beta(k, [1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "beta: the shapes"),
        (lambda: r.dirichlet(k, 2.0), ValueError, "dirichlet: alpha must have at least one"),
        (lambda: r.dirichlet(k, [1.0, 2.0], (3,), xp.int8), ValueError, "dirichlet: dtype"),
        (lambda: r.exponential(k, "3"), TypeError, "exponential: shape"),
        (lambda: r.gumbel(k, (2,), mode="highest"), ValueError, 'gumbel: mode must be "low"'),
        (lambda: r.pareto(k, 0.0), ValueError, "pareto: b must be > 0"),
        (lambda: r.weibull_min(k, 1.0, -1.0), ValueError, "weibull_min: concentration"),
        (lambda: r.lognormal(k, -0.5), ValueError, "lognormal: sigma must be >= 0"),
        (lambda: r.truncated_normal(k, 1.0, 1.0), ValueError, "truncated_normal: needs lower"),
        (lambda: r.truncated_normal(k, 0.0, math.nan), ValueError, "truncated_normal: upper"),
        (lambda: r.t(k, 0.0), ValueError, "t: df must be > 0"),
        (lambda: r.chisquare(k, -3.0), ValueError, "chisquare: df must be > 0"),
        (lambda: r.poisson(k, -1.0), ValueError, "poisson: lam must be >= 0"),
        (lambda: r.poisson(k, 1.0, dtype=xp.float32), ValueError, "poisson: dtype must be an int"),
        (lambda: r.binomial(k, 10, 1.5), ValueError, r"binomial: p must be in \[0, 1\]"),
        (lambda: r.binomial(k, -10, 0.5), ValueError, "binomial: n must be >= 0"),
        (lambda: r.categorical(k, 1.0), ValueError, "categorical: logits must have at least"),
        (lambda: r.categorical(k, [0.0, 1.0], axis=1), xp.AxisError, "categorical: axis 1"),
        (
            lambda: r.categorical(k, [0.0, 1.0], shape=(3,), replace=False),
            ValueError,
            "categorical: cannot take 3 categories from 2",
        ),
        (lambda: r.categorical(k, [INF, 1.0]), ValueError, "categorical: logits must be < inf"),
        (
            lambda: r.multivariate_normal(k, [0.0, 1.0], [[1.0]]),
            ValueError,
            r"multivariate_normal: needs mean of shape \(\.\.\., n\)",
        ),
        (
            lambda: r.multivariate_normal(k, [0.0], [[1.0]], method="qr"),
            ValueError,
            "multivariate_normal: method must be",
        ),
    ]


def test_counts_past_the_integer_range_are_the_same_on_every_device(device):
    """Counts past the dtype's largest value, from array parameters (not read), are that
    value on every device, as JAX converts them: NumPy and torch gave -2**31 (a C cast of a
    float out of range). Host parameters whose mean does not fit are refused, naming the
    function and the fix."""
    g = xp.random.Generator(3, device=device)
    lam = xp.asarray([1e10, 3.0], dtype=xp.float32, device=device)
    counts = _np(g.poisson(lam))
    assert counts[0] == 2**31 - 1 and 0 <= counts[1] < 30
    n = xp.asarray([3e9, 10.0], dtype=xp.float32, device=device)
    assert _np(g.binomial(n, 1.0)).tolist() == [2**31 - 1, 10]
    with pytest.raises(ValueError, match=r"random\.poisson: lam must be below 2147483647.*int64"):
        xp.random.poisson(xp.random.key(0, device=device), 1e10, (2,))
    with pytest.raises(ValueError, match=r"Generator\.poisson: lam must be below"):
        g.poisson([3.0, 3e9])
    with pytest.raises(ValueError, match=r"Generator\.binomial: n must be below.*int64"):
        g.binomial(3e9, 0.5)
    if device.supports(xp.int64):
        assert int(_np(g.binomial(3e9, 1.0, dtype=xp.int64))) == 3_000_000_000


def test_fast_draws_refusing_array_values_name_the_function():
    """torch's own Poisson sampler refuses a negative rate with ``RuntimeError``; the fast
    mode's draws say which function and why, as for NumPy's ``ValueError``."""
    pytest.importorskip("torch")
    g = xp.random.Generator(0, device="torch:cpu", fast=True)
    with pytest.raises(ValueError, match=r"Generator\.poisson: .*fast=True"):
        g.poisson(xp.asarray([-1.0, 2.0], device="torch:cpu"))


def test_bad_arguments_are_refused_naming_the_function():
    for call, error, match in _bad_calls(xp.random.key(0, device="numpy")):
        with pytest.raises(error, match=r"^arraymux\.random\." + match):
            call()


def test_parameters_on_another_device_are_refused(device):
    other = xp.Device("numpy") if device.backend != "numpy" else xp.Device("torch:cpu")
    k = xp.random.key(0, device=device)
    a = xp.ones(3, device=other)
    for call in (
        lambda: xp.random.gamma(k, a),
        lambda: xp.random.multivariate_normal(k, a, xp.eye(3, device=other)),
        lambda: xp.random.Generator(0, device=device).beta(a, 1.0),
    ):
        with pytest.raises((xp.BackendMismatchError, xp.DeviceMismatchError), match=" is on "):
            call()
    with pytest.raises(TypeError, match=r"^arraymux\.random\.poisson: lam must be real"):
        xp.random.poisson(k, xp.asarray([True], device=device))


def test_a_dtype_the_device_lacks():
    k = xp.random.key(0, device="array_api_strict:no_float64")
    with pytest.raises(xp.UnsupportedDTypeError, match=r"^arraymux\.random\.gamma: "):
        xp.random.gamma(k, 1.0, dtype=xp.float64)
    assert xp.random.beta(k, 1.0, 2.0, (3,)).dtype == xp.float32


# -- inside transforms ------------------------------------------------------------------------


@NEEDS_JAX
def test_rejection_loops_inside_jit_and_vmap_on_jax():
    """On JAX the loops are jax.lax.while_loop: they trace under jit and vmap."""
    k = xp.random.key(5, device="jax:cpu")
    eager = _np(xp.random.poisson(k, 3.0, (16,)))
    assert _np(xp.jit(lambda kk: xp.random.poisson(kk, 3.0, (16,)))(k)).tolist() == eager.tolist()
    keys = xp.random.split(k, 3)
    batch = _np(xp.vmap(lambda kk: xp.random.poisson(kk, 3.0, (16,)))(keys))
    for i in range(3):
        assert batch[i].tolist() == _np(xp.random.poisson(keys[i, ...], 3.0, (16,))).tolist()


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch")
def test_rejection_loops_inside_torch_vmap_explain_themselves():
    keys = xp.random.split(xp.random.key(5, device="torch:cpu"), 2)
    with pytest.raises(xp.TransformUnavailableError, match=r"^arraymux\.random\.poisson: its"):
        xp.vmap(lambda kk: xp.random.poisson(kk, 3.0, (4,)))(keys)
    out = xp.vmap(lambda kk: xp.random.exponential(kk, (4,)))(keys)  # no loop: fine
    assert out.shape == (2, 4)


# -- the Generator's methods ------------------------------------------------------------------


def _methods(g: xp.random.Generator) -> dict:
    """Each distribution method, NumPy's arguments, 16 numbers (as the cases draw: on JAX
    the reference generator shares their compilations)."""
    return {
        "gamma": lambda: g.gamma(2.0, 0.5, size=16),
        "beta": lambda: g.beta(2.0, 3.0, size=16),
        "dirichlet": lambda: g.dirichlet([1.0, 2.0, 3.0, 0.5], size=4),
        "exponential": lambda: g.exponential(2.0, size=16),
        "laplace": lambda: g.laplace(1.0, 2.0, size=16),
        "logistic": lambda: g.logistic(1.0, 2.0, size=16),
        "gumbel": lambda: g.gumbel(1.0, 2.0, size=16),
        "poisson": lambda: g.poisson(3.0, size=16),
        "binomial": lambda: g.binomial(20, 0.3, size=16),
        "standard_t": lambda: g.standard_t(5.0, size=16),
        "chisquare": lambda: g.chisquare(4.0, size=16),
        "lognormal": lambda: g.lognormal(0.5, 0.25, size=16),
        "pareto": lambda: g.pareto(3.0, size=16),
        "weibull": lambda: g.weibull(2.0, size=16),
        "multivariate_normal": lambda: g.multivariate_normal(
            [0.0, 1.0], [[1.0, 0.3], [0.3, 1.0]], 8
        ),
    }


SHAPES = {"dirichlet": (4, 4), "multivariate_normal": (8, 2)}
INTEGRAL = {"poisson", "binomial"}
NONNEGATIVE = {
    "gamma",
    "beta",
    "dirichlet",
    "exponential",
    "poisson",
    "binomial",
    "chisquare",
    "lognormal",
    "pareto",
    "weibull",
}


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_generator_methods(device, fast):
    """Every method, in both modes, on every device: NumPy's arguments, the device, float32
    and int32 draws, values in the support, and the same numbers again from the same seed
    in the fast mode (on JAX, only the methods that jax.random compiles quickly)."""
    g, h = (xp.random.Generator(21, device=device, fast=fast) for _ in range(2))
    methods, again = _methods(g), _methods(h) if fast else {}
    if fast and device.backend == "jax":
        methods = {n: methods[n] for n in ("exponential", "gumbel", "lognormal")}
    for name, draw in methods.items():
        x = draw()
        assert x.device == device, name
        assert x.shape == SHAPES.get(name, (16,)), name
        assert x.dtype == (xp.int32 if name in INTEGRAL else xp.float32), name
        values = _np(x)
        assert np.isfinite(values.astype(np.float64)).all(), name
        if name in NONNEGATIVE:
            assert (values >= 0).all(), name
        if fast:  # the reference mode's draws are test_reference_generator_draw_i_...'s
            assert values.tolist() == _np(again[name]()).tolist(), name


def test_reference_generator_draw_i_uses_fold_in(device):
    """Call i of the reference generator draws with fold_in(key(seed), i), as its other
    methods do, then applies NumPy's location and scale."""
    g = xp.random.Generator(9, device=device)
    k = xp.random.key(9, device=device)
    first = _np(g.gamma(3.0, 2.0, size=16))
    want = _np(xp.random.gamma(xp.random.fold_in(k, 0), 3.0, (16,))) * np.float32(2.0)
    assert first.tobytes() == want.tobytes()
    second = _np(g.poisson(4.0, size=16))
    assert second.tolist() == _np(xp.random.poisson(xp.random.fold_in(k, 1), 4.0, (16,))).tolist()
    third = _np(g.pareto(3.0, size=16))
    want = _np(xp.random.pareto(xp.random.fold_in(k, 2), 3.0, (16,))) - np.float32(1.0)
    assert third.tobytes() == want.tobytes()


def test_generator_size_none_and_array_parameters():
    g = xp.random.Generator(1, device="numpy")
    assert g.gamma(2.0).shape == ()  # NumPy's size=None: the parameters' shape
    lam = xp.asarray([1.0, 2.0, 3.0])
    assert g.poisson(lam).shape == (3,)
    assert g.normal(size=(2, 3)).shape == (2, 3)
    assert g.exponential(xp.asarray([[1.0], [2.0]]), size=(2, 4)).shape == (2, 4)


@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_generator_methods_check_their_arguments(fast):
    g = xp.random.Generator(0, device="numpy", fast=fast)
    h = xp.random.Generator(0, device="numpy", fast=fast)
    where = r"^arraymux\.random\.Generator\."
    for call, error, match in (
        (lambda: g.gamma(-1.0), ValueError, r"gamma: shape must be > 0"),
        (lambda: g.gamma(1.0, 0.0), ValueError, r"gamma: scale must be > 0"),
        (lambda: g.exponential(size="3"), TypeError, "exponential: shape"),
        (lambda: g.laplace(0.0, -1.0), ValueError, "laplace: scale must be > 0"),
        (lambda: g.poisson(-2.0), ValueError, "poisson: lam must be >= 0"),
        (lambda: g.binomial(5, 2.0), ValueError, r"binomial: p must be in \[0, 1\]"),
        (lambda: g.dirichlet([]), ValueError, "dirichlet: alpha must have at least one"),
        (lambda: g.weibull(0.0), ValueError, "weibull: a must be > 0"),
        (lambda: g.standard_t([1.0, 2.0], size=3), ValueError, r"standard_t: df of shape \(2,\)"),
        (
            lambda: g.multivariate_normal([0.0], [[1.0]], method="lu"),
            ValueError,
            "multivariate_normal: method",
        ),
        (lambda: g.gamma(1.0, dtype=xp.int64), ValueError, "gamma: dtype must be float32"),
    ):
        with pytest.raises(error, match=where + match):
            call()
    # A refused call draws nothing.
    assert _np(g.random(4)).tolist() == _np(h.random(4)).tolist()


# -- one compilation per shape and dtype on JAX ------------------------------------------------


@NEEDS_JAX
@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_new_generators_do_not_compile_again(fast):
    """Generators made one after the other, each drawing the same shape, compile once: the
    key is an argument of the compiled step, not a constant (fast=True compiled per
    generator: 0.3 s for each first draw)."""
    import jax

    compiles = []

    def listen(event: str, duration: float, **kwargs) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        for seed in (1, 2, 3, 1):
            g = xp.random.Generator(seed, device="jax:cpu", fast=fast)
            xp.synchronize(g.random(37))
            xp.synchronize(g.exponential(2.0, size=37))
        first = len(compiles)
        for seed in (4, 5, 6):
            g = xp.random.Generator(seed, device="jax:cpu", fast=fast)
            xp.synchronize(g.random(37))
            xp.synchronize(g.exponential(2.0, size=37))
        assert len(compiles) == first, f"{len(compiles) - first} compilations for new generators"
        # A new scale at every draw: its 0-d array is compiled for a few values at most (see
        # the JAX adapter's full), then moved; the draws compile nothing.
        from arraymux._backends._jax import FILL_VALUES_COMPILED

        for i in range(FILL_VALUES_COMPILED + 6):
            g = xp.random.Generator(10 + i, device="jax:cpu", fast=fast)
            x = g.exponential(2.0 + (i + 1) / 1024, size=37)
            assert x.dtype == xp.float32 and x.shape == (37,)
        assert len(compiles) - first <= FILL_VALUES_COMPILED
        last = len(compiles)
        for i in range(5):
            xp.synchronize(g.exponential(5.0 + (i + 1) / 1024, size=37))
        assert len(compiles) == last, "new scales compile again"
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
