"""The distributions of ``jax.random``, with its algorithms, on every device.

Each sampler follows ``jax.random``'s code (with ``jax_threefry_partitionable``, JAX's
default): the same keys are split in the same order and the same uniform floats drawn, then
transformed by the same formulas. The transforms use :mod:`._special`'s ``log``, ``exp``,
``pow``, ``erf``, ``erfinv`` and ``lgamma``, written with exactly rounded operations, so a key
gives the same bits on every device; they are within an ulp or two of XLA's own functions,
so the numbers are within a few ulp of ``jax.random``'s. The rejection samplers (``gamma``
and those built on it, ``poisson``, ``binomial``) compare such floats with bounds: where a
draw falls within an ulp of a bound, JAX may accept it and arraymux reject it (or the other
way round), and that element then takes other draws (about one element in ten million).

Parameters are Python numbers, sequences of numbers (checked on the host), or arrays on the
key's device (not read: values outside a distribution's domain give NaN where JAX gives NaN).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from .._arguments import check_bool, check_int, python_scalar
from .._array import Array
from .._devices import Device
from .._dtypes import DType
from .._errors import AxisError
from .._typing import DeviceLike, DTypeLike
from ._checks import (
    DTypeArg,
    ParamLike,
    Shape,
    default_dtype,
    draw_dtype,
    draw_shape,
    known_shape,
    same_device,
)
from ._core import (
    EAGER,
    QUIET,
    apply,
    blocks,
    floats,
    fused,
    in_range,
    key_on,
    normal_kernel,
    normal_of,
    run,
    split_kernel,
    unit_floats,
)
from ._loop import State, while_loop
from ._special import div, erf, erfinv, exp, lgamma, log0, log1p, pow, rounded
from ._threefry import threefry2x32

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    #: A parameter's values on the host, checked (float64).
    HostValues = NDArray[np.float64]

__all__ = [
    "beta",
    "binomial",
    "categorical",
    "chisquare",
    "dirichlet",
    "draw_beta",
    "draw_binomial",
    "draw_chisquare",
    "draw_dirichlet",
    "draw_gamma",
    "draw_poisson",
    "draw_t",
    "exponential",
    "exponential_kernel",
    "float_dtype",
    "gamma",
    "gumbel",
    "gumbel_kernel",
    "laplace",
    "laplace_kernel",
    "loggamma",
    "logistic",
    "logistic_kernel",
    "lognormal",
    "lognormal_kernel",
    "multivariate_normal",
    "mvn_arguments",
    "mvn_kernel",
    "NON_NEGATIVE",
    "on_device",
    "out_shape",
    "Param",
    "param",
    "pareto",
    "pareto_kernel",
    "poisson",
    "POSITIVE",
    "PROBABILITY",
    "REAL",
    "t",
    "truncated_normal",
    "weibull_kernel",
    "weibull_min",
    "whole_numbers",
    "counts_fit",
]


def _xp() -> ModuleType:
    import arraymux

    return arraymux


# ---------------------------------------------------------------------------------------------
# Parameters: checked before anything is drawn.

#: A domain: the test of a NumPy array of values, and how an error states it.
Domain: TypeAlias = (
    "tuple[Callable[[float | HostValues], bool | np.bool_ | NDArray[np.bool_]], str]"
)
POSITIVE: Domain = (lambda a: a > 0, "> 0")
NON_NEGATIVE: Domain = (lambda a: a >= 0, ">= 0")
PROBABILITY: Domain = (lambda a: (a >= 0) & (a <= 1), "in [0, 1]")
REAL: Domain = (lambda a: a == a, "a real number")


class Param:
    """One parameter as given: an Array on the device, or host values (a float or a float64
    NumPy array) already checked against its domain."""

    __slots__ = ("host", "name", "value")

    def __init__(self, name: str, value: Array | float | HostValues, host: bool) -> None:
        self.name, self.value, self.host = name, value, host

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(getattr(self.value, "shape", ()))  # an Array's, a NumPy array's or ()


def param(
    value: object, pname: str, fname: str, device: Device, domain: Domain, *, infinite: bool = False
) -> Param:
    """``value`` checked: an Array on ``device`` of a real dtype (its values are not read), or
    a Python number, a NumPy number or array, or a (nested) sequence of numbers, each finite
    (``+-inf`` too where ``infinite``) and in ``domain``."""
    import numpy as np

    xp = _xp()
    where = f"arraymux.random.{fname}"
    if isinstance(value, Array):
        same_device(value, pname, device, fname)
        if value.dtype == xp.bool or xp.isdtype(value.dtype, "complex floating"):
            raise TypeError(
                f"{where}: {pname} must be real numbers, got an array of {value.dtype}."
            )
        known_shape(value.shape, fname)
        return Param(pname, value, False)
    value = python_scalar(value)
    if isinstance(value, bool | str | bytes):
        raise TypeError(f"{where}: {pname} must be a real number, not {type(value).__name__}.")
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an int beyond float64
            raise ValueError(
                f"{where}: {pname} must be finite, got an int of {int(value).bit_length()} bits."
            ) from None
        # checked in Python: the domains' tests take a float as they take an array
        if math.isnan(number) or (not infinite and math.isinf(number)):
            raise ValueError(f"{where}: {pname} must be finite, got {number!r}.")
        test, text = domain
        if not test(number):
            raise ValueError(f"{where}: {pname} must be {text}, got {number!r}.")
        return Param(pname, number, True)
    if isinstance(value, Sequence) or type(value).__module__ == "numpy":
        try:
            values = np.asarray(value)
        except (TypeError, ValueError):
            values = np.asarray(None)
        if values.dtype.kind not in "iuf":
            raise TypeError(
                f"{where}: {pname} must be a real number, a sequence of them or an arraymux "
                f"Array, got {value!r:.60}."
            )
        host: HostValues = values.astype(np.float64)
        values = host
    else:
        raise TypeError(
            f"{where}: {pname} must be a real number, a sequence of them or an arraymux Array, "
            f"not {type(value).__module__}.{type(value).__qualname__}."
        )
    if np.isnan(values).any() or (not infinite and np.isinf(values).any()):
        raise ValueError(f"{where}: {pname} must be finite, got {_show(values)}.")
    test, text = domain
    if not np.all(test(values)):
        bad = values[~test(values)] if values.ndim else values
        raise ValueError(f"{where}: {pname} must be {text}, got {_show(bad)}.")
    return Param(pname, host, True)


def _show(values: HostValues) -> str:
    return repr(float(values.ravel()[0]) if values.size else values.tolist())


def float_dtype(
    device: Device, dtype: DTypeLike | None, params: Sequence[Param], fname: str
) -> DType:
    """The dtype of floating draws: ``dtype``, else that of the floating Arrays among the
    parameters (promoted together), else float32 (or the default dtype policy's float), on
    every device."""
    xp = _xp()
    if dtype is not None:
        return draw_dtype(device, dtype, "real floating", fname)
    given = [p.value.dtype for p in params if isinstance(p.value, Array)]
    given = [dt for dt in given if xp.isdtype(dt, "real floating")]
    if given:
        return xp.result_type(*given)
    return default_dtype(device, "real floating")


def out_shape(
    shape: Shape | None, params: Sequence[Param | tuple[str, tuple[int, ...]]], fname: str
) -> tuple[int, ...]:
    """``shape`` checked, and the parameters' shapes checked to broadcast to it (their
    broadcast shape where ``shape`` is None), as ``jax.random`` checks them. A parameter is a
    :class:`Param` or a ``(label, shape)`` pair ("the batch shape of alpha", its shape)."""
    named = [(f"{p.name} of shape", p.shape) if isinstance(p, Param) else p for p in params]
    if shape is None:
        shapes = [s for _, s in named]
        try:
            return draw_shape(_xp().broadcast_shapes(*shapes) if shapes else (), fname)
        except ValueError:
            raise ValueError(
                f"arraymux.random.{fname}: the shapes "
                f"{', '.join(f'{n} {s}' for n, s in named)} do not broadcast together."
            ) from None
    shp = draw_shape(shape, fname)
    for label, s in named:
        fits = len(s) <= len(shp) and all(
            a in (1, b) for a, b in zip(s[::-1], shp[::-1], strict=False)
        )
        if not fits:
            raise ValueError(
                f"arraymux.random.{fname}: {label} {s} does not broadcast to shape {shp}; give "
                "a shape it broadcasts to, or shape=None."
            )
    return shp


#: Python-number parameters filled on JAX devices, by (value, dtype, device): JAX's arrays
#: are immutable, and a fill is a dispatch of its own (13-30 us on the CPU, against the 15-40
#: of the draw itself). Emptied when full.
_FILLED: dict[tuple[str, DType, Device], Array] = {}
_FILLED_MAX = 64


def on_device(p: Param, dt: DType, device: Device) -> Array:
    """The parameter as an array of ``dt`` on ``device``: a Python number filled there (no host
    data is copied; on JAX once per value), host values moved once."""
    xp = _xp()
    if isinstance(p.value, Array):
        return p.value if p.value.dtype == dt else xp.astype(p.value, dt)
    if isinstance(p.value, float):
        if device.backend != "jax":
            return xp.full((), p.value, dtype=dt, device=device)
        key = (p.value.hex(), dt, device)  # the hex keeps -0.0 apart from 0.0
        out = _FILLED.get(key)
        if out is None:
            out = xp.full((), p.value, dtype=dt, device=device)
            if _is_concrete(out):  # never a tracer of a transform's computation
                if len(_FILLED) >= _FILLED_MAX:
                    _FILLED.clear()
                _FILLED[key] = out
        return out
    return xp.asarray(p.value, dtype=dt, device=device)


def _is_concrete(a: Array) -> bool:
    import jax

    return not isinstance(a.native, jax.core.Tracer)


def _floating(
    fname: str,
    key: Array,
    device: DeviceLike | None,
    shape: Shape | None,
    dtype: DTypeLike | None,
    specs: Sequence[tuple[str, ParamLike, Domain]],
    *,
    infinite: bool = False,
) -> tuple[Array, tuple[int, ...], DType, tuple[Array, ...]]:
    """The checked key (on ``device``), shape, dtype and parameters of a floating sampler."""
    k = key_on(key, device, fname)
    ps = [param(v, n, fname, k.device, d, infinite=infinite) for n, v, d in specs]
    shp = out_shape(shape, ps, fname)
    dt = float_dtype(k.device, dtype, ps, fname)
    return k, shp, dt, tuple(on_device(p, dt, k.device) for p in ps)


def _plain(
    fname: str, key: Array, device: DeviceLike | None, shape: Shape, dtype: DTypeLike | None
) -> tuple[Array, tuple[int, ...], DType]:
    """The checked key, shape and dtype of a sampler without parameters."""
    k = key_on(key, device, fname)
    shp = draw_shape(shape, fname)
    return k, shp, draw_dtype(k.device, dtype, "real floating", fname)


def _standard(
    fname: str,
    kernel: Callable[..., Array],
    key: Array,
    device: DeviceLike | None,
    shape: Shape,
    dtype: DTypeLike | None,
    *static: Hashable,
) -> Array:
    """A sampler without parameters: ``kernel`` of the checked key, shape, dtype and ``static``."""
    k, shp, dt = _plain(fname, key, device, shape, dtype)
    return draw(kernel, k, (), (shp, dt, *static), fname)


def _mode(mode: object, fname: str) -> str:
    if mode is None:
        return "low"
    if type(mode) is not str or mode not in ("low", "high"):  # (an array compares per element)
        raise ValueError(
            f'arraymux.random.{fname}: mode must be "low", "high" or None, got {mode!r}.'
        )
    return str(mode)


# ---------------------------------------------------------------------------------------------
# Keys held per element: element i of a sampler that splits per element (gamma) has key
# (k0[i], k1[i]); Threefry computes for all of them at once.


def split_each(k0: Array, k1: Array, num: int) -> list[tuple[Array, Array]]:
    """``split(key, num)`` of every element's key: ``num`` pairs of word arrays."""
    xp = _xp()
    counter = xp.reshape(xp.arange(num, dtype=k0.dtype, device=k0.device), (num, 1))
    y0, y1 = threefry2x32(k0[None, ...], k1[None, ...], 0, counter)
    y0 = xp.broadcast_to(y0, y1.shape)
    return [(y0[j, ...], y1[j, ...]) for j in range(num)]


def uniform_each(k0: Array, k1: Array, dtype: DType) -> Array:
    """``uniform(key, ())`` of every element's key."""
    return floats(*threefry2x32(k0, k1, 0, 0), dtype)


def dims(x: Array) -> tuple[int, ...]:
    """``x.shape`` of an array whose shape is known (every array a sampler makes)."""
    return tuple(n or 0 for n in x.shape)


def _flat_param(p: Array, shp: tuple[int, ...]) -> Array:
    xp = _xp()
    return xp.reshape(xp.broadcast_to(p, shp), (math.prod(shp),))


# ---------------------------------------------------------------------------------------------
# Samplers without loops


def exponential_kernel(k: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    return _xp().reshape(unit_floats(k, math.prod(shp), dtype, _minus_log1p_minus), shp)


def _minus_log1p_minus(u: Array) -> Array:
    return -log1p(-u)


def laplace_kernel(k: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    xp = _xp()
    epsneg = 2.0**-24 if dtype == xp.float32 else 2.0**-53

    def laplace(f: Array) -> Array:
        u = in_range(f, -1.0 + epsneg, 1.0)
        return xp.sign(u) * log1p(-xp.abs(u))

    return xp.reshape(unit_floats(k, math.prod(shp), dtype, laplace), shp)


def _tiny(dtype: DType) -> float:
    xp = _xp()
    return float(xp.finfo(dtype).smallest_normal)


def logistic_kernel(k: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    tiny = _tiny(dtype)

    def logistic(f: Array) -> Array:
        x = in_range(f, tiny, 1.0)
        return log0(x) - log1p(-x)

    return _xp().reshape(unit_floats(k, math.prod(shp), dtype, logistic), shp)


def gumbel_kernel(k: Array, shp: tuple[int, ...], dtype: DType, mode: str) -> Array:
    xp = _xp()
    n = math.prod(shp)
    tiny = _tiny(dtype)
    if mode == "low":

        def gumbel(f: Array) -> Array:
            return -log0(-log0(in_range(f, tiny, 1.0)))

        return xp.reshape(unit_floats(k, n, dtype, gumbel), shp)
    both = unit_floats(k, 2 * n, dtype)
    high, low = both[:n], both[n:]
    nmant = 23 if dtype == xp.float32 else 52
    x = xp.where(high >= 0.5, high, (high + low * 2.0**-nmant) + tiny)
    return xp.reshape(-log0(-log1p(-x)), shp)


def pareto_kernel(k: Array, b: Array, shp: tuple[int, ...], dtype: DType) -> Array:
    e = exponential_kernel(k, shp, dtype)
    return exp(div(e, b))


def weibull_kernel(
    k: Array, scale: Array, concentration: Array, shp: tuple[int, ...], dtype: DType
) -> Array:
    e = _xp().reshape(unit_floats(k, math.prod(shp), dtype, _minus_log1p_minus), shp)
    return pow(e, _xp().broadcast_to(1.0 / concentration, shp)) * scale


def lognormal_kernel(
    k: Array, sigma: Array, mean: Array, shp: tuple[int, ...], dtype: DType
) -> Array:
    z = _xp().reshape(unit_floats(k, math.prod(shp), dtype, normal_of), shp)
    return exp(rounded(z * sigma) + mean)


def _truncated_normal_kernel(
    k: Array, lower: Array, upper: Array, shp: tuple[int, ...], dtype: DType
) -> Array:
    import numpy as np

    xp = _xp()
    nd = np.float32 if dtype == xp.float32 else np.float64
    sqrt2 = float(nd(math.sqrt(2.0)))
    lower, upper = xp.broadcast_to(lower, shp), xp.broadcast_to(upper, shp)
    a, b = erf(div(lower, sqrt2)), erf(div(upper, sqrt2))
    f = xp.reshape(unit_floats(k, math.prod(shp), dtype), shp)
    u = xp.maximum(rounded(f * (b - a)) + a, a)
    out = erfinv(u, edges=True) * sqrt2
    lo = xp.nextafter(lower, xp.full_like(lower, math.inf))
    hi = xp.nextafter(upper, xp.full_like(upper, -math.inf))
    return xp.minimum(xp.maximum(out, lo), hi)


def _categorical_kernel(
    k: Array, logits: Array, shp: tuple[int, ...], axis: int, replace: bool, mode: str
) -> Array:
    """``jax.random.categorical``: the Gumbel-max trick (``argmax`` of logits plus Gumbel
    noise), or its top-k without replacement; the first index among equal scores."""
    xp = _xp()
    nd = logits.ndim
    lshape = dims(logits)
    batch = tuple(n for i, n in enumerate(lshape) if i != axis % nd)
    prefix = shp[: len(shp) - len(batch)]
    if replace:
        ax = axis - nd if axis >= 0 else axis
        middle = list(shp[len(shp) - len(batch) :])
        middle.insert(ax % nd, lshape[ax])
        g = gumbel_kernel(k, (*prefix, *middle), logits.dtype, mode)
        scores = g + xp.reshape(logits, (1,) * len(prefix) + lshape)
        return xp.argmax(scores, axis=ax)
    scores = logits + gumbel_kernel(k, lshape, logits.dtype, mode)
    m = math.prod(prefix)
    order = xp.argsort(-xp.moveaxis(scores, axis, -1), axis=-1, stable=True)[..., :m]
    return xp.reshape(xp.moveaxis(order, -1, 0), shp)


# ---------------------------------------------------------------------------------------------
# Gamma: Marsaglia and Tsang's method, one key per element (jax.random's _gamma_one, vmapped)


def gamma_flat(k: Array, alpha: Array, log_space: bool) -> Array:
    """Gamma draws of the 1-d ``alpha`` (its dtype), element ``i`` from key ``i`` of
    ``split(k, n)``: ``jax.random.gamma`` (or ``loggamma`` where ``log_space``)."""
    xp = _xp()
    n = dims(alpha)[0]
    dtype = alpha.dtype
    boost = alpha >= 1.0
    alpha_b = xp.where(boost, alpha, alpha + 1.0)
    d = alpha_b - 1.0 / 3.0
    c = div(xp.full_like(d, 1.0 / 3.0), xp.sqrt(d))
    (key0, key1), (sub0, sub1) = split_each(*blocks(k, n), 2)

    def inner(s: State) -> State:
        kk0, kk1, x, v, need = s
        (a0, a1), (b0, b1) = split_each(kk0, kk1, 2)
        nx = normal_of(uniform_each(b0, b1, dtype))
        nv = rounded(nx * c) + 1.0
        return (
            xp.where(need, a0, kk0),
            xp.where(need, a1, kk1),
            xp.where(need, nx, x),
            xp.where(need, nv, v),
            need & (nv <= 0.0),
        )

    def outer(s: State) -> State:
        k0, k1, X, V, U, active = s
        (n0, n1), (x0, x1), (u0, u1) = split_each(k0, k1, 3)
        # v = 1 + x * c until v > 0 (the first round always runs)
        start = (x0, x1, xp.zeros_like(alpha), -xp.ones_like(alpha), active)
        _, _, x, v, _ = while_loop(_any_of(4), inner, start, runs=True)
        nX = x * x
        nV = rounded(v * v) * v
        nU = uniform_each(u0, u1, dtype)
        squeeze = nU >= 1.0 - rounded(0.0331 * rounded(nX * nX))
        again = squeeze & (log0(nU) >= rounded(nX * 0.5) + rounded(d * ((1.0 - nV) + log0(nV))))
        return (
            xp.where(active, n0, k0),
            xp.where(active, n1, k1),
            xp.where(active, nX, X),
            xp.where(active, nV, V),
            xp.where(active, nU, U),
            active & again,
        )

    zero = xp.zeros_like(alpha)
    start = (key0, key1, zero, zero + 1.0, zero + 2.0, xp.ones_like(boost))
    _, _, _, V, _, _ = while_loop(_any_of(5), outer, start, runs=True)
    u = uniform_each(sub0, sub1, dtype)
    if log_space:
        log_u = log1p(-u)  # -exponential(subkey)
        log_boost = xp.where(boost | (log_u == 0.0), 0.0, rounded(log_u * (1.0 / alpha)))
        return (log0(d) + log0(V)) + log_boost
    boost_factor = xp.where(boost, 1.0, pow(1.0 - u, 1.0 / alpha))
    return (d * V) * boost_factor


def _any_of(i: int) -> Callable[[State], Array]:
    """The loop condition: any element of ``state[i]`` is true."""
    return lambda s: _xp().any(s[i])


def _gamma_kernel(k: Array, a: Array, log_space: bool) -> Array:
    return gamma_flat(k, a, log_space)


def draw_gamma(k: Array, a: Array, shp: tuple[int, ...], log_space: bool, fname: str) -> Array:
    """Gamma draws of ``a`` (of the draws' dtype) broadcast to ``shp``: compiled on JAX per
    number of elements (not per shape), so that every sampler built on gamma draws of as many
    elements shares one compilation."""
    xp = _xp()
    flat = _flat_param(a, shp)
    return xp.reshape(run(_gamma_kernel, k, (flat,), (log_space,), fname), shp)


def _beta_combine(lga: Array, lgb: Array) -> Array:
    """``ga / (ga + gb)`` of two log-gamma draws, scaled by the larger (``jax.random.beta``)."""
    xp = _xp()
    top = xp.maximum(lga, lgb)
    ga, gb = exp(lga - top), exp(lgb - top)
    return ga / (ga + gb)


def _softmax(lg: Array) -> Array:
    """``jax.nn.softmax`` over the last axis, its sum pairwise in a fixed order."""
    e = exp(lg - _xp().max(lg, axis=-1, keepdims=True))
    return div(e, sum_last(e))  # a divisor broadcast along the last axis


def sum_last(x: Array) -> Array:
    """The sum over the last axis (kept), pairwise in a fixed order: the same bits on every
    device (backends' reductions sum in orders of their own)."""
    xp = _xp()
    while dims(x)[-1] > 1:
        m = dims(x)[-1]
        h = m // 2
        s = x[..., :h] + x[..., h : 2 * h]
        x = s if m == 2 * h else xp.concat([s, x[..., 2 * h :]], axis=-1)
    return x


def _half(df: Array) -> Array:
    return df / 2.0


def _t_combine(z: Array, half: Array, g: Array) -> Array:
    return z * _xp().sqrt(half / g)


def _chisquare_combine(lg: Array) -> Array:
    return exp(lg) * 2.0


# ---------------------------------------------------------------------------------------------
# Poisson and binomial: whole-array loops with one key per round, as jax.random runs them. An
# accepted draw may be replaced by a later accepted one while other elements still draw, so
# the rounds run over the whole array until every element is accepted, as in JAX.


#: Whether elements take a branch: known from host parameters ("yes", "no"), or not
#: ("maybe": on JAX the branch is compiled, elsewhere one read of the mask decides).
Branch = str
#: Host values that a branch flag is decided on.
_H = TypeVar("_H")


def _needed(branch: Branch, mask: Array) -> bool:
    if branch != "maybe":
        return branch == "yes"
    if mask.device._backend.spec.jit == "jax.jit":
        return True
    from ._loop import holds

    return holds(_xp().any(mask))


def _branch(host: _H | None, test: Callable[[_H], np.bool_ | NDArray[np.bool_]]) -> Branch:
    """The branch flag of host values (None for an array parameter)."""
    if host is None:
        return "maybe"
    import numpy as np

    return "yes" if bool(np.any(test(host))) else "no"


def _poisson_kernel(
    k: Array, lam: Array, shp: tuple[int, ...], dtype: DType, branches: tuple[Branch, Branch]
) -> Array:
    xp = _xp()
    lam = xp.broadcast_to(lam, shp)
    knuth = xp.isnan(lam) | (lam < 10.0)
    out = xp.full(shp, -1.0, dtype=lam.dtype, device=k.device)
    if _needed(branches[0], knuth):
        out = _poisson_knuth(k, xp.where(knuth, lam, 0.0), shp)
    rejection = ~knuth
    if _needed(branches[1], rejection):
        out = xp.where(knuth, out, _poisson_rejection(k, xp.where(knuth, 1e5, lam), shp))
    return whole_numbers(xp.where(lam == 0.0, 0.0, out), dtype)


def counts_fit(p: Param, dtype: DType, fname: str) -> None:
    """Refuse a parameter given on the host (``poisson``'s rate, ``binomial``'s trials)
    whose counts cannot fit the integer ``dtype``; an array's values are not read (its counts
    past the dtype come out as its largest value: :func:`whole_numbers`)."""
    if not p.host:
        return
    import numpy as np

    largest = float(np.max(np.float32(p.value), initial=0.0))
    top = _xp().iinfo(dtype).max
    if largest >= top:
        raise ValueError(
            f"arraymux.random.{fname}: {p.name} must be below {top} for counts in {dtype}, "
            f"got {largest!r}; ask for dtype=int64."
        )


def whole_numbers(x: Array, dtype: DType) -> Array:
    """Whole floats ``x`` (counts, at least -1) as the integer ``dtype``, a count past its
    largest value as that value, as JAX converts them on every device: a C cast of such a
    float is undefined (NumPy and torch gave -2**31 for ``poisson(1e10)`` in int32, JAX
    2**31 - 1)."""
    xp = _xp()
    top = float(xp.iinfo(dtype).max)  # (rounds up to a power of 2 in float32: none reach it)
    over = x >= top
    return xp.where(over, xp.iinfo(dtype).max, xp.astype(xp.where(over, 0.0, x), dtype))


def _poisson_knuth(k: Array, lam: Array, shp: tuple[int, ...]) -> Array:
    """Knuth's method: count uniform factors until their product falls below exp(-lam)."""
    xp = _xp()
    n = math.prod(shp)

    def body(s: State) -> State:
        rng, count, log_prod = s
        keys = split_kernel(rng, 2)
        count = xp.where(log_prod > -lam, count + 1.0, count)
        u = xp.reshape(unit_floats(keys[1, ...], n, xp.float32), shp)
        return keys[0, ...], count, log_prod + log0(u)

    start = (k, xp.zeros_like(lam), xp.zeros_like(lam))
    _, count, _ = while_loop(lambda s: xp.any(s[2] > -lam), body, start)
    return count - 1.0


def _poisson_rejection(k: Array, lam: Array, shp: tuple[int, ...]) -> Array:
    """Hörmann's transformed rejection (PTRS)."""
    xp = _xp()
    n = math.prod(shp)
    log_lam = log0(lam)
    b = rounded(2.53 * xp.sqrt(lam)) + 0.931
    a = rounded(0.02483 * b) - 0.059
    inv_alpha = 1.1328 / (b - 3.4) + 1.1239
    v_r = 0.9277 - 3.6224 / (b - 2.0)

    def body(s: State) -> State:
        key, k_out, accepted = s
        keys = split_kernel(key, 3)
        u = xp.reshape(unit_floats(keys[1, ...], n, xp.float32), shp) - 0.5
        v = xp.reshape(unit_floats(keys[2, ...], n, xp.float32), shp)
        us = 0.5 - xp.abs(u)
        kk = xp.floor((rounded(((2.0 * a) / us + b) * u) + lam) + 0.43)
        s_ = log0(rounded(v * inv_alpha) / (a / rounded(us * us) + b))
        valid = kk >= 0.0
        t = (-lam + rounded(kk * log_lam)) - lgamma(xp.where(valid, kk, 0.0) + 1.0)
        accept1 = (us >= 0.07) & (v <= v_r)
        reject = ~valid | ((us < 0.013) & (v > us))
        accept = accept1 | (~reject & (s_ <= t))
        return keys[0, ...], xp.where(accept, kk, k_out), accepted | accept

    start = (
        k,
        xp.full(shp, -1.0, dtype=lam.dtype, device=k.device),
        xp.zeros(shp, dtype=xp.bool, device=k.device),
    )
    _, out, _ = while_loop(lambda s: ~xp.all(s[2]), body, start)
    return out


_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_tail(k: Array) -> Array:
    """``log(k!) - (log(sqrt(2 pi)) + (k + 1/2) log(k + 1) - (k + 1))``: tabulated to 9, a
    series above (JAX's ``_stirling_approx_tail``)."""
    xp = _xp()
    kc = xp.clip(k, 0.0, 9.0)
    kp1sq = rounded((kc + 1.0) * (kc + 1.0))
    approx = (1.0 / 12 - (1.0 / 360 - (1.0 / 1260) / kp1sq) / kp1sq) / (kc + 1.0)
    whole = xp.floor(kc)
    table = xp.full_like(k, _STIRLING_TAIL[0])
    for i, v in enumerate(_STIRLING_TAIL[1:], 1):
        table = xp.where(whole == float(i), v, table)
    return xp.where(k <= 9.0, table, approx)


def _binomial_kernel(
    k: Array,
    count: Array,
    prob: Array,
    shp: tuple[int, ...],
    dtype: DType,
    branches: tuple[Branch, Branch],
) -> Array:
    xp = _xp()
    count, prob = xp.broadcast_to(count, shp), xp.broadcast_to(prob, shp)
    p_lt_half = prob < 0.5
    q = xp.where(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = xp.isnan(count) | (count < 0.0)
    count_inf = xp.isinf(count)
    q_is_nan = xp.isnan(q)
    q_l_0 = q < 0.0
    q = xp.where(q_is_nan | q_l_0, 0.01, q)
    use_inversion = count_nan_or_neg | (rounded(count * q) <= 10.0)
    count = xp.floor(count)
    samples = xp.zeros_like(q)
    if _needed(branches[0], use_inversion):
        samples = _binomial_inversion(k, xp.where(use_inversion, count, 0.0), q, shp)
    if _needed(branches[1], ~use_inversion):
        count_btrs = xp.where(use_inversion, 1e4, count)
        q_btrs = xp.where(use_inversion, 0.5, q)
        samples = xp.where(use_inversion, samples, _btrs(k, count_btrs, q_btrs, shp))
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = xp.where(invalid, math.nan, samples)
    samples = xp.where(count_inf & ~invalid, math.inf, samples)
    keep = p_lt_half | count_nan_or_neg | q_is_nan | count_inf
    return xp.where(keep, samples, count - samples)


def _binomial_inversion(k: Array, count: Array, prob: Array, shp: tuple[int, ...]) -> Array:
    """The number of geometric gaps that fit in ``count`` trials."""
    xp = _xp()
    n = math.prod(shp)
    log1minusprob = log1p(-prob)

    def body(s: State) -> State:
        key, num_geom, geom_sum = s
        keys = split_kernel(key, 2)
        num_geom = xp.where(geom_sum <= count, num_geom + 1.0, num_geom)
        u = xp.reshape(unit_floats(keys[0, ...], n, prob.dtype), shp)
        geom = xp.ceil(div(log0(u), log1minusprob))
        return keys[1, ...], num_geom, geom_sum + geom

    zero = xp.zeros_like(prob)
    _, num_geom, _ = while_loop(lambda s: xp.any(s[2] <= count), body, (k, zero, zero))
    return num_geom - 1.0


def _btrs(k: Array, count: Array, prob: Array, shp: tuple[int, ...]) -> Array:
    """Hörmann's transformed rejection with squeeze (BTRS)."""
    xp = _xp()
    n = math.prod(shp)
    stddev = xp.sqrt(rounded(count * prob) * (1.0 - prob))
    b = rounded(2.53 * stddev) + 1.15
    a = (rounded(0.0248 * b) - 0.0873) + rounded(0.01 * prob)
    c = rounded(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1.0 - prob)
    alpha = (5.1 / b + 2.83) * stddev
    m = xp.floor((count + 1.0) * prob)

    def body(s: State) -> State:
        key, k_out, accepted = s
        keys = split_kernel(key, 3)
        u = xp.reshape(unit_floats(keys[1, ...], n, prob.dtype), shp)
        v = xp.reshape(unit_floats(keys[2, ...], n, prob.dtype), shp)
        u = u - 0.5
        us = 0.5 - xp.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        kk = xp.floor(rounded(((2.0 * a) / us + b) * u) + c)
        reject = (kk < 0.0) | (kk > count)
        v = log0(rounded(v * alpha) / (a / rounded(us * us) + b))
        ub = (
            rounded((m + 0.5) * log0((m + 1.0) / (r * (count - m + 1.0))))
            + rounded((count + 1.0) * log0((count - m + 1.0) / (count - kk + 1.0)))
        ) + rounded((kk + 0.5) * log0(rounded(r * (count - kk + 1.0)) / (kk + 1.0)))
        ub = ((ub + _stirling_tail(m)) + _stirling_tail(count - m)) - _stirling_tail(kk)
        ub = ub - _stirling_tail(count - kk)
        accept = accept1 | (~reject & (v <= ub))
        return keys[0, ...], xp.where(accept, kk, k_out), accepted | accept

    start = (
        k,
        xp.full(shp, -1.0, dtype=prob.dtype, device=k.device),
        xp.zeros(shp, dtype=xp.bool, device=k.device),
    )
    _, out, _ = while_loop(lambda s: ~xp.all(s[2]), body, start)
    return out


# ---------------------------------------------------------------------------------------------
# Multivariate normal


def cholesky(a: Array) -> Array:
    """The lower Cholesky factor of the symmetric positive definite matrices ``a`` (``(..., n,
    n)``), column by column with rank-one updates: elementwise operations in a fixed order, so
    the same bits on every device (LAPACK's blocked factorizations round in orders of their
    own). A matrix that is not positive definite gives NaN."""
    xp = _xp()
    n = dims(a)[-1]
    rows = xp.reshape(xp.arange(n, device=a.device), (n,))
    columns = []
    for j in range(n):
        pivot = a[..., j, j]
        d = xp.sqrt(xp.where(pivot > 0.0, pivot, math.nan))
        col = xp.where(rows > j, div(a[..., :, j], d[..., None]), 0.0)
        columns.append(xp.where(rows == j, d[..., None], col))
        if j + 1 < n:
            a = a - rounded(col[..., :, None] * col[..., None, :])
    return xp.stack(columns, axis=-1)


def mvn_kernel(
    k: Array, mean: Array, cov: Array, shp: tuple[int, ...], dtype: DType, method: str
) -> Array:
    xp = _xp()
    n = dims(mean)[-1]
    if method == "cholesky":
        factor = cholesky(cov)
    elif method == "svd":
        u, s, _ = xp.linalg.svd(cov)
        factor = u * xp.sqrt(s[..., None, :])
    else:
        w, v = xp.linalg.eigh(cov)
        factor = v * xp.sqrt(w[..., None, :])
    z = xp.reshape(normal_of(unit_floats(k, math.prod(shp) * n, dtype)), (*shp, n))
    acc = rounded(factor[..., :, 0] * z[..., 0:1])
    for j in range(1, n):
        acc = acc + rounded(factor[..., :, j] * z[..., j : j + 1])
    return mean + acc


for _k in (
    exponential_kernel,
    laplace_kernel,
    logistic_kernel,
    gumbel_kernel,
    pareto_kernel,
    weibull_kernel,
    lognormal_kernel,
    _truncated_normal_kernel,
    _categorical_kernel,
    mvn_kernel,
    _gamma_kernel,
    _poisson_kernel,
    _binomial_kernel,
):
    QUIET.add(_k)
    EAGER.add(_k)


# ---------------------------------------------------------------------------------------------
# The public samplers. Each checks its arguments, then draws with ``draw`` (which the
# Generator's methods share).


def draw(
    kernel: Callable[..., Array],
    k: Array,
    params: tuple[Array, ...],
    static: tuple[Hashable, ...],
    fname: str,
) -> Array:
    """``kernel`` on a checked key and parameters (see :func:`arraymux.random._core.run`)."""
    return run(kernel, k, params, static, fname)


def gamma(
    key: Array,
    a: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Gamma floats of shape parameter ``a > 0`` and scale 1 (``jax.random.gamma``).

    Marsaglia and Tsang's method, each element with a key of its own (``split(key, n)``),
    ``a < 1`` boosted by ``u ** (1 / a)``. Multiply by a scale (or divide by a rate) for other
    gamma distributions.

    Parameters
    ----------
    key
        A key from :func:`key` or :func:`split` (or :func:`fold_in`).
    a
        A number, a sequence of numbers or an array on the key's device, broadcasting to
        ``shape``.
    shape
        The shape of the result; ``a``'s shape if None.
    dtype
        ``float32`` or ``float64``; if omitted, that of a float array ``a``, else float32 (or
        the default dtype policy's float), on every device.
    device
        Where to draw (the key moves there); the key's device if omitted.

    Returns
    -------
    Array
        Positive floats (0 where ``a`` is so small that they underflow).

    Raises
    ------
    TypeError
        A bad key, a parameter that is not real numbers, a dtype the device lacks.
    ValueError
        ``a <= 0`` (numbers; arrays are not read), shapes that do not broadcast.

    Examples
    --------
    >>> import arraymux as xp
    >>> g = xp.random.gamma(xp.random.key(0), 2.0, (10000,))
    >>> abs(float(xp.mean(g)) - 2.0) < 0.1
    True
    """
    k, shp, _, (pa,) = _floating("gamma", key, device, shape, dtype, [("a", a, POSITIVE)])
    return draw_gamma(k, pa, shp, False, "gamma")


def loggamma(
    key: Array,
    a: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """The logarithms of gamma floats (``jax.random.loggamma``): accurate where ``a`` is small
    and the draws themselves underflow. Arguments as :func:`gamma`'s.

    Examples
    --------
    >>> import arraymux as xp
    >>> lg = xp.random.loggamma(xp.random.key(0), 0.01, (5,))
    >>> bool(xp.all(xp.isfinite(lg)))
    True
    """
    k, shp, _, (pa,) = _floating("loggamma", key, device, shape, dtype, [("a", a, POSITIVE)])
    return draw_gamma(k, pa, shp, True, "loggamma")


def beta(
    key: Array,
    a: ParamLike,
    b: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Beta floats in ``[0, 1]`` of parameters ``a, b > 0`` (``jax.random.beta``): the ratio
    of two gamma draws, taken from their logarithms (the keys of ``split(key)``).

    ``a`` and ``b`` broadcast together (to ``shape`` where given); other arguments as
    :func:`gamma`'s.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.beta(xp.random.key(0), 2.0, 6.0, (10000,))
    >>> abs(float(xp.mean(x)) - 0.25) < 0.01
    True
    """
    k, shp, dt, (pa, pb) = _floating(
        "beta", key, device, shape, dtype, [("a", a, POSITIVE), ("b", b, POSITIVE)]
    )
    return draw_beta(k, pa, pb, shp, dt, "beta")


def draw_beta(k: Array, a: Array, b: Array, shp: tuple[int, ...], dt: DType, fname: str) -> Array:
    """:func:`beta` of checked arguments: two log-gamma draws (each compiled on its own on JAX,
    and shared with the other samplers built on them), combined."""
    keys = fused(split_kernel, k, 2)
    lga = draw_gamma(keys[0, ...], a, shp, True, fname)
    lgb = draw_gamma(keys[1, ...], b, shp, True, fname)
    return apply(_beta_combine, (lga, lgb))


def dirichlet(
    key: Array,
    alpha: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Dirichlet vectors of concentrations ``alpha > 0`` (``jax.random.dirichlet``).

    Each vector sums to 1 (within rounding): the softmax of log-gamma draws, summed pairwise
    in a fixed order. The other arguments are as :func:`gamma`'s.

    Parameters
    ----------
    alpha
        ``(..., n)`` concentrations: a sequence or an array on the key's device.
    shape
        The batch shape (the result is ``shape + (n,)``), to which ``alpha.shape[:-1]``
        broadcasts; ``alpha.shape[:-1]`` if None.

    Examples
    --------
    >>> import arraymux as xp
    >>> p = xp.random.dirichlet(xp.random.key(0), [1.0, 2.0, 3.0], (4,))
    >>> p.shape
    (4, 3)
    """
    k = key_on(key, device, "dirichlet")
    pa = param(alpha, "alpha", "dirichlet", k.device, POSITIVE)
    if len(pa.shape) < 1 or pa.shape[-1] < 1:
        raise ValueError(
            "arraymux.random.dirichlet: alpha must have at least one dimension and one "
            f"concentration, got shape {pa.shape}."
        )
    shp = out_shape(shape, [("the batch shape of alpha", pa.shape[:-1])], "dirichlet")
    dt = float_dtype(k.device, dtype, [pa], "dirichlet")
    return draw_dirichlet(k, on_device(pa, dt, k.device), shp, dt, "dirichlet")


def draw_dirichlet(k: Array, alpha: Array, shp: tuple[int, ...], dt: DType, fname: str) -> Array:
    full = (*shp, dims(alpha)[-1])
    lg = draw_gamma(k, alpha, full, True, fname)
    return apply(_softmax, (lg,))


def exponential(
    key: Array, shape: Shape = (), dtype: DTypeArg = None, *, device: DeviceLike | None = None
) -> Array:
    """Exponential floats of rate 1 (``jax.random.exponential``): ``-log1p(-u)``.

    Examples
    --------
    >>> import arraymux as xp
    >>> e = xp.random.exponential(xp.random.key(0), (10000,))
    >>> abs(float(xp.mean(e)) - 1.0) < 0.05
    True
    """
    return _standard("exponential", exponential_kernel, key, device, shape, dtype)


def laplace(
    key: Array, shape: Shape = (), dtype: DTypeArg = None, *, device: DeviceLike | None = None
) -> Array:
    """Laplace floats of location 0 and scale 1 (``jax.random.laplace``).

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.laplace(xp.random.key(0), (10000,))
    >>> abs(float(xp.var(x)) - 2.0) < 0.2
    True
    """
    return _standard("laplace", laplace_kernel, key, device, shape, dtype)


def logistic(
    key: Array, shape: Shape = (), dtype: DTypeArg = None, *, device: DeviceLike | None = None
) -> Array:
    """Logistic floats of location 0 and scale 1 (``jax.random.logistic``).

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.logistic(xp.random.key(0), (10000,))
    >>> abs(float(xp.mean(x))) < 0.1
    True
    """
    return _standard("logistic", logistic_kernel, key, device, shape, dtype)


def gumbel(
    key: Array,
    shape: Shape = (),
    dtype: DTypeArg = None,
    mode: str | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Gumbel floats of location 0 and scale 1 (``jax.random.gumbel``).

    ``mode="high"`` draws two uniform floats per value, for a wider range in the upper tail
    (about 32 instead of 16 in float32); ``"low"`` (the default, ``None``) one.

    Examples
    --------
    >>> import arraymux as xp
    >>> g = xp.random.gumbel(xp.random.key(0), (10000,))
    >>> abs(float(xp.mean(g)) - 0.5772) < 0.05
    True
    """
    return _standard("gumbel", gumbel_kernel, key, device, shape, dtype, _mode(mode, "gumbel"))


def pareto(
    key: Array,
    b: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Pareto floats ``>= 1`` of shape ``b > 0`` (``jax.random.pareto``): ``exp(e / b)`` of
    exponential ``e``. (NumPy's ``pareto`` is this minus 1: see :meth:`Generator.pareto`.)

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.pareto(xp.random.key(0), 3.0, (5,))
    >>> bool(xp.all(x >= 1.0))
    True
    """
    k, shp, dt, (pb,) = _floating("pareto", key, device, shape, dtype, [("b", b, POSITIVE)])
    return draw(pareto_kernel, k, (pb,), (shp, dt), "pareto")


def weibull_min(
    key: Array,
    scale: ParamLike,
    concentration: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Weibull floats of ``scale > 0`` and ``concentration > 0`` (``jax.random.weibull_min``):
    ``scale * (-log1p(-u)) ** (1 / concentration)``.

    ``shape`` is the parameters' broadcast shape if None (``jax.random.weibull_min`` draws one
    uniform float for every element of ``shape``, ``()`` by default: give the same ``shape``
    for the same numbers).

    Examples
    --------
    >>> import arraymux as xp
    >>> w = xp.random.weibull_min(xp.random.key(0), 2.0, 1.0, (10000,))
    >>> abs(float(xp.mean(w)) - 2.0) < 0.1
    True
    """
    k, shp, dt, (ps, pc) = _floating(
        "weibull_min",
        key,
        device,
        shape,
        dtype,
        [("scale", scale, POSITIVE), ("concentration", concentration, POSITIVE)],
    )
    return draw(weibull_kernel, k, (ps, pc), (shp, dt), "weibull_min")


def lognormal(
    key: Array,
    sigma: ParamLike = 1.0,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Log-normal floats ``exp(sigma * z)`` of standard normal ``z`` (``jax.random.lognormal``),
    ``sigma >= 0``.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.lognormal(xp.random.key(0), 0.5, (5,))
    >>> bool(xp.all(x > 0))
    True
    """
    k, shp, dt, (ps,) = _floating(
        "lognormal", key, device, shape, dtype, [("sigma", sigma, NON_NEGATIVE)]
    )
    zero = _xp().zeros((), dtype=dt, device=k.device)
    return draw(lognormal_kernel, k, (ps, zero), (shp, dt), "lognormal")


def truncated_normal(
    key: Array,
    lower: ParamLike,
    upper: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Standard normal floats truncated to ``(lower, upper)`` (``jax.random.truncated_normal``):
    the inverse of the normal distribution function at uniform points between ``erf`` of the
    bounds, clipped inside the open interval.

    ``lower < upper`` may be infinite; they broadcast together (to ``shape`` where given).

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.truncated_normal(xp.random.key(0), -1.0, 2.0, (1000,))
    >>> bool(xp.all((x > -1.0) & (x < 2.0)))
    True
    """
    k, shp, dt, (lo, hi) = _floating(
        "truncated_normal",
        key,
        device,
        shape,
        dtype,
        [("lower", lower, REAL), ("upper", upper, REAL)],
        infinite=True,
    )
    if isinstance(lower, int | float) and isinstance(upper, int | float) and not lower < upper:
        raise ValueError(
            f"arraymux.random.truncated_normal: needs lower < upper, got ({lower}, {upper})."
        )
    return draw(_truncated_normal_kernel, k, (lo, hi), (shp, dt), "truncated_normal")


def t(
    key: Array,
    df: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Student's t floats of ``df > 0`` degrees of freedom (``jax.random.t``): a normal draw
    over the square root of a gamma draw (the keys of ``split(key)``).

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.t(xp.random.key(0), 5.0, (10000,))
    >>> abs(float(xp.mean(x))) < 0.05
    True
    """
    k, shp, dt, (pd,) = _floating("t", key, device, shape, dtype, [("df", df, POSITIVE)])
    return draw_t(k, pd, shp, dt, "t")


def draw_t(k: Array, df: Array, shp: tuple[int, ...], dt: DType, fname: str) -> Array:
    keys = fused(split_kernel, k, 2)
    z = fused(normal_kernel, keys[0, ...], shp, dt)
    half = apply(_half, (df,))
    g = draw_gamma(keys[1, ...], half, shp, False, fname)
    return apply(_t_combine, (z, half, g))


def chisquare(
    key: Array,
    df: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Chi-square floats of ``df > 0`` degrees of freedom (``jax.random.chisquare``): twice a
    gamma draw of shape ``df / 2``, drawn in log space.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.chisquare(xp.random.key(0), 4.0, (10000,))
    >>> abs(float(xp.mean(x)) - 4.0) < 0.2
    True
    """
    k, shp, dt, (pd,) = _floating("chisquare", key, device, shape, dtype, [("df", df, POSITIVE)])
    return draw_chisquare(k, pd, shp, dt, "chisquare")


def draw_chisquare(k: Array, df: Array, shp: tuple[int, ...], dt: DType, fname: str) -> Array:
    lg = draw_gamma(k, apply(_half, (df,)), shp, True, fname)
    return apply(_chisquare_combine, (lg,))


def poisson(
    key: Array,
    lam: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Poisson integers of mean ``lam >= 0`` (``jax.random.poisson``): Knuth's method below 10,
    Hörmann's transformed rejection above, computed in float32 as JAX computes them.

    Parameters
    ----------
    lam
        A number, a sequence or an array on the key's device (cast to float32).
    shape
        The shape of the result; ``lam``'s if None.
    dtype
        An integer dtype; int32 (or the default dtype policy's integer) if omitted.

    Examples
    --------
    >>> import arraymux as xp
    >>> n = xp.random.poisson(xp.random.key(0), 3.0, (10000,))
    >>> n.dtype, abs(float(xp.mean(xp.astype(n, xp.float32))) - 3.0) < 0.1
    (arraymux.int32, True)
    """
    k = key_on(key, device, "poisson")
    pl = param(lam, "lam", "poisson", k.device, NON_NEGATIVE)
    shp = out_shape(shape, [pl], "poisson")
    dt = draw_dtype(k.device, dtype, "integral", "poisson")
    return draw_poisson(k, pl, shp, dt, "poisson")


def draw_poisson(k: Array, lam: Param, shp: tuple[int, ...], dt: DType, fname: str) -> Array:
    """:func:`poisson` of checked arguments: the branches that host values of ``lam`` take
    are known, and only those are drawn (and compiled, on JAX)."""
    import numpy as np

    counts_fit(lam, dt, fname)
    host = np.float32(lam.value) if lam.host else None
    branches = _compiled_branches(
        k, (_branch(host, lambda v: v < 10), _branch(host, lambda v: v >= 10))
    )
    rate = on_device(lam, _xp().float32, k.device)
    return draw(_poisson_kernel, k, (rate,), (shp, dt, branches), fname)


def binomial(
    key: Array,
    n: ParamLike,
    p: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Binomial counts of ``n >= 0`` trials of success probability ``p`` in ``[0, 1]``, as
    floats (``jax.random.binomial``): geometric gaps where ``n * min(p, 1 - p) <= 10``,
    Hörmann's BTRS rejection otherwise. A non-integer ``n`` is rounded down, as NumPy does.

    ``n`` and ``p`` broadcast together (to ``shape`` where given); ``dtype`` is a float dtype
    (see :meth:`Generator.binomial` for integers).

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.binomial(xp.random.key(0), 20, 0.3, (10000,))
    >>> abs(float(xp.mean(x)) - 6.0) < 0.1
    True
    """
    k = key_on(key, device, "binomial")
    pn = param(n, "n", "binomial", k.device, NON_NEGATIVE)
    pp = param(p, "p", "binomial", k.device, PROBABILITY)
    shp = out_shape(shape, [pn, pp], "binomial")
    dt = float_dtype(k.device, dtype, [pn, pp], "binomial")
    return draw_binomial(k, pn, pp, shp, dt, "binomial")


def draw_binomial(
    k: Array, n: Param, p: Param, shp: tuple[int, ...], dt: DType, fname: str
) -> Array:
    """:func:`binomial` of checked arguments, drawing only the branches that host values of
    ``n`` and ``p`` take (decided in the dtype of the draws, as the device decides)."""
    import numpy as np

    branches: tuple[Branch, Branch] = ("maybe", "maybe")
    if n.host and p.host:
        nd = np.dtype(dt.name)
        count, prob = np.asarray(n.value, dtype=nd), np.asarray(p.value, dtype=nd)
        q = np.where(prob < 0.5, prob, nd.type(1) - prob)
        inversion = count * q <= nd.type(10)
        branches = (_branch(inversion, lambda v: v), _branch(inversion, lambda v: ~v))
    params = (on_device(n, dt, k.device), on_device(p, dt, k.device))
    branches = _compiled_branches(k, branches)
    return draw(_binomial_kernel, k, params, (shp, dt, branches), fname)


def _compiled_branches(k: Array, branches: tuple[Branch, Branch]) -> tuple[Branch, Branch]:
    """On JAX, where a branch that may be taken is compiled, "maybe" is "yes": one
    compilation serves array parameters and numbers that take both branches."""
    if k.device._backend.spec.jit != "jax.jit":
        return branches
    return ("yes" if branches[0] != "no" else "no", "yes" if branches[1] != "no" else "no")


def categorical(
    key: Array,
    logits: ParamLike,
    axis: int = -1,
    shape: Shape | None = None,
    replace: bool = True,
    mode: str | None = None,
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Indices drawn with probabilities ``softmax(logits, axis)`` (``jax.random.categorical``):
    the Gumbel-max trick, or its top-k without replacement.

    Parameters
    ----------
    logits
        Unnormalised log-probabilities: an array on the key's device (or a sequence), at least
        one dimension; ``-inf`` for an impossible category.
    axis
        The axis of the categories.
    shape
        The result's shape: a prefix of draws followed by the other axes of ``logits`` (to
        which they broadcast); those axes if None.
    replace
        Without replacement, each batch takes ``prod(prefix)`` distinct categories, and the
        axes after the prefix must be those of ``logits`` exactly.
    mode
        As :func:`gumbel`'s.

    Returns
    -------
    Array
        int32 indices (or the default dtype policy's integer).

    Examples
    --------
    >>> import arraymux as xp
    >>> logits = xp.log(xp.asarray([0.2, 0.8]))
    >>> c = xp.random.categorical(xp.random.key(0), logits, shape=(10000,))
    >>> abs(float(xp.mean(xp.astype(c, xp.float32))) - 0.8) < 0.02
    True
    """
    xp = _xp()
    fname = "categorical"
    k = key_on(key, device, fname)
    pl = param(logits, "logits", fname, k.device, (lambda a: a < math.inf, "< inf"), infinite=True)
    lshape = pl.shape
    if not lshape:
        raise ValueError(f"arraymux.random.{fname}: logits must have at least one dimension.")
    ax = check_int(f"random.{fname}", "axis", axis)
    if not -len(lshape) <= ax < len(lshape):
        raise AxisError(
            f"arraymux.random.{fname}: axis {ax} is out of range for logits of "
            f"{len(lshape)} dimension(s)."
        )
    replace = check_bool(f"random.{fname}", "replace", replace)
    batch = tuple(n for i, n in enumerate(lshape) if i != ax % len(lshape))
    if shape is None:
        shp = draw_shape(batch, fname)
    else:
        shp = draw_shape(shape, fname)
        tail = shp[len(shp) - len(batch) :] if batch else ()
        fits = len(shp) >= len(batch) and all(a in (1, b) for a, b in zip(batch, tail, strict=True))
        if not fits or (not replace and tail != batch):
            raise ValueError(
                f"arraymux.random.{fname}: shape {shp} must end with the batch shape {batch} of "
                f"logits (the axes other than axis {ax})"
                + ("" if replace else " exactly, without replacement")
                + "."
            )
    prefix = shp[: len(shp) - len(batch)]
    if not replace and math.prod(prefix) > lshape[ax]:
        raise ValueError(
            f"arraymux.random.{fname}: cannot take {math.prod(prefix)} categories from "
            f"{lshape[ax]} without replacement."
        )
    dt = float_dtype(k.device, None, [pl], fname)
    lg = on_device(pl, dt, k.device)
    idx = draw(_categorical_kernel, k, (lg,), (shp, ax, replace, _mode(mode, fname)), fname)
    it = default_dtype(k.device, "integral")
    return idx if idx.dtype == it else xp.astype(idx, it)


def multivariate_normal(
    key: Array,
    mean: ParamLike,
    cov: ParamLike,
    shape: Shape | None = None,
    dtype: DTypeArg = None,
    method: str = "cholesky",
    *,
    device: DeviceLike | None = None,
) -> Array:
    """Multivariate normal vectors of ``mean`` (``(..., n)``) and covariance ``cov``
    (``(..., n, n)``, symmetric positive definite), as ``jax.random.multivariate_normal``
    draws them: ``mean + factor @ z`` for standard normal ``z`` of shape ``shape + (n,)``.

    Parameters
    ----------
    mean, cov
        Sequences or arrays on the key's device; their batch shapes broadcast together.
    shape
        The batch shape of the result (``shape + (n,)``); the broadcast batch shape if None.
    dtype
        As :func:`gamma`'s (a float array ``mean`` or ``cov`` gives its dtype).
    method
        ``"cholesky"`` (the default) factors ``cov`` with arraymux's own Cholesky
        factorization, so the draws are the same on every device (NaN where ``cov`` is not
        positive definite); ``"eigh"`` and ``"svd"`` use the backend's ``linalg`` (also for a
        singular ``cov``), whose last bits differ from backend to backend.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.random.multivariate_normal(
    ...     xp.random.key(0), [0.0, 10.0], [[1.0, 0.5], [0.5, 2.0]], (5000,)
    ... )
    >>> x.shape, abs(float(xp.mean(x[:, 1])) - 10.0) < 0.1
    ((5000, 2), True)
    """
    fname = "multivariate_normal"
    k = key_on(key, device, fname)
    shp, dt, pm, pc = mvn_arguments(fname, k.device, mean, cov, shape, dtype, method)
    params = (on_device(pm, dt, k.device), on_device(pc, dt, k.device))
    return draw(mvn_kernel, k, params, (shp, dt, method), fname)


def mvn_arguments(
    fname: str,
    device: Device,
    mean: ParamLike,
    cov: ParamLike,
    shape: Shape | None,
    dtype: DTypeLike | None,
    method: object,
) -> tuple[tuple[int, ...], DType, Param, Param]:
    """The shape, dtype, mean and covariance of :func:`multivariate_normal` (and of
    ``Generator.multivariate_normal``: ``fname``), checked before anything is drawn."""
    if type(method) is not str or method not in ("cholesky", "eigh", "svd"):
        raise ValueError(
            f'arraymux.random.{fname}: method must be "cholesky", "eigh" or "svd", got {method!r}.'
        )
    pm = param(mean, "mean", fname, device, REAL)
    pc = param(cov, "cov", fname, device, REAL)
    ms, cs = pm.shape, pc.shape
    if len(ms) < 1 or len(cs) < 2 or cs[-2:] != (ms[-1], ms[-1]):
        raise ValueError(
            f"arraymux.random.{fname}: needs mean of shape (..., n) and cov of shape (..., n, "
            f"n), got {ms} and {cs}."
        )
    batches = [("the batch shape of mean", ms[:-1]), ("the batch shape of cov", cs[:-2])]
    shp = out_shape(shape, batches, fname)
    return shp, float_dtype(device, dtype, [pm, pc], fname), pm, pc
