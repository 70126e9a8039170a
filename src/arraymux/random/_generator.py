"""The stateful generator of :mod:`arraymux.random`."""

from __future__ import annotations

import abc
import functools
import inspect
import secrets
import threading
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    Concatenate,
    Generic,
    ParamSpec,
    TypedDict,
    TypeVar,
    cast,
)

from .._arguments import check_bool
from .._array import Array
from .._array import wrap as _wrap
from .._devices import Device, resolve_device
from .._dtypes import DType
from .._typing import DeviceLike, DTypeLike, NativeArray
from ._checks import (
    DTypeArg,
    ParamLike,
    Shape,
    SizeArg,
    draw_dtype,
    draw_shape,
    finite_real,
    integer_bounds,
    seed_words,
)
from ._core import (
    apply,
    bernoulli_args,
    draw_integers,
    draw_normal,
    draw_permutation,
    draw_uniform,
    fold_block_kernel,
    fused,
    host_floats,
    host_integers,
    host_integers_here,
    host_loop,
    in_range,
    jax_draw_step,
    jax_fold,
    jax_kernel_step,
    normal_kernel,
    permutation_args,
    run,
    select,
)
from ._distributions import (
    NON_NEGATIVE,
    POSITIVE,
    PROBABILITY,
    REAL,
    Param,
    counts_fit,
    draw_beta,
    draw_binomial,
    draw_chisquare,
    draw_dirichlet,
    draw_gamma,
    draw_poisson,
    draw_t,
    exponential_kernel,
    float_dtype,
    gumbel_kernel,
    laplace_kernel,
    logistic_kernel,
    lognormal_kernel,
    mvn_arguments,
    mvn_kernel,
    on_device,
    out_shape,
    param,
    pareto_kernel,
    weibull_kernel,
    whole_numbers,
)
from ._special import rounded
from ._threefry import key_array, threefry2x32_int, word_dtype

if TYPE_CHECKING:
    import jax
    import torch

    from ._distributions import Domain

    class _TorchDraw(TypedDict):
        """The keywords of a torch generator's draws."""

        generator: torch.Generator
        device: torch.device
        dtype: torch.dtype


_P = ParamSpec("_P")
#: A backend's dtype object (``torch.dtype``...), as a generator's backend takes it.
_ND = TypeVar("_ND")

__all__ = [
    "Generator",
]


def _xp() -> ModuleType:
    import arraymux

    return arraymux


def _size_alias(
    method: Callable[Concatenate[Generator, _P], Array],
) -> Callable[Concatenate[Generator, _P], Array]:
    """Let a method take NumPy's ``size=`` for ``shape=``, so NumPy code ports unchanged."""
    position = list(inspect.signature(method).parameters).index("shape")  # counting self

    @functools.wraps(method)
    def with_size(self: Generator, *args: _P.args, **kwargs: _P.kwargs) -> Array:
        if "size" in kwargs:
            if "shape" in kwargs or len(args) >= position:
                raise TypeError(
                    f"arraymux.random.Generator.{method.__name__}: pass shape= or size=, not both."
                )
            kwargs["shape"] = kwargs.pop("size")
        return method(self, *args, **kwargs)

    return with_size


class Generator:
    """A NumPy-style generator: each call draws new numbers and advances the state.

    By default the numbers come from :mod:`arraymux.random`'s counter-based generator, so a
    seed gives the same numbers on every device. Without ``dtype=``, floats are float32 and
    integers int32 (in both modes), unless a default dtype policy says otherwise. Call ``i``
    (counting from 0) uses the key ``fold_in(key(seed, device=device), i)``, computed on the
    device (nothing is copied from the host per call, which on a GPU would wait for the
    queue), so a generator's stream does not depend on where it draws.

    The methods take their arguments in NumPy's order, and ``size=`` as NumPy spells
    ``shape=``. Errors name the method (``arraymux.random.Generator.normal: ...``). The
    distributions (``gamma(shape, scale, size)``, ``beta``, ``dirichlet``, ``exponential``,
    ``laplace``, ``logistic``, ``gumbel``, ``poisson``, ``binomial``, ``standard_t``,
    ``chisquare``, ``lognormal``, ``pareto``, ``weibull``, ``multivariate_normal``) have NumPy's
    names and parameters, ``size=None`` for the parameters' shape, and ``dtype=``; they draw as
    the functions of :mod:`arraymux.random` draw (``pareto`` and ``weibull`` as NumPy defines
    them), then apply NumPy's location and scale. The keys of the next 64 calls are derived at
    once (one Threefry call; on NumPy the first call's key is derived alone); on JAX the
    counter stays on the device.

    A generator is safe to share between threads, as NumPy's is: each call reads and advances
    the state under a lock, so no two calls draw the same numbers (which thread gets which
    numbers depends on the scheduling). The arguments are checked before the state advances:
    a refused call draws nothing.

    Parameters
    ----------
    seed
        An int in ``[0, 2**64)``; a fresh random seed if omitted (read it back from
        :attr:`seed`).
    device
        Where the numbers live; the default device when the generator is made, if omitted.
    fast
        Use the backend's own generator (NumPy's PCG64, ``torch.Generator``, ``jax.random``,
        CuPy's and Dask's ``default_rng``) seeded with ``seed``: faster, but its numbers depend on
        the backend, and on torch on the device too. Its arguments are checked as the default
        mode checks them (bounds that do not fit the dtype, probabilities), on every backend.

    Examples
    --------
    >>> import arraymux as xp
    >>> g = xp.random.Generator(0, device="numpy")
    >>> xp.to_numpy(g.integers(0, 10, shape=(5,))).tolist()
    [1, 1, 7, 7, 6]
    >>> h = xp.random.Generator(0, device="torch:cpu")
    >>> xp.to_numpy(h.integers(0, 10, shape=(5,))).tolist()
    [1, 1, 7, 7, 6]
    """

    def __init__(
        self, seed: int | None = None, device: DeviceLike | None = None, *, fast: bool = False
    ) -> None:
        if seed is None:
            seed = secrets.randbits(64)
        self._words = seed_words(seed, "Generator")
        self.seed = (self._words[0] << 32) | self._words[1]
        self.device: Device = resolve_device(device, "random.Generator")
        self.fast = check_bool("random.Generator", "fast", fast)
        self._calls = 0
        self._lock = threading.Lock()
        self._native = _native_generator(self.device, self.seed) if self.fast else None
        self._counter: Array | None = None  # on JAX, the reference state's counter
        if self._native is None:  # the key and, on JAX, the counter live on the device
            self._key0 = key_array(self._words, self.device)
            self._counter = (
                _xp().zeros((), dtype=self._key0.dtype, device=self.device)
                if self.device.backend == "jax"
                else None
            )
            self._block_index = -1
            self._block: Array | None = None
            # torch: the block's rows as views made at once (indexing one per call cost
            # about 3 of a draw's 15.7 us for 8 normals)
            self._rows: Sequence[NativeArray] | None = None
            # NumPy and torch's CPU: the block's rows as ints, for the draws made in C
            self._words_of_rows: list[list[int]] | None = None

    def __repr__(self) -> str:
        mode = ", fast=True" if self.fast else ""
        return f"Generator(seed={self.seed}, device='{self.device}'{mode})"

    def _key(self) -> Array:
        with self._lock:  # read and advance at once: threads never share a key
            if self._counter is not None:  # JAX: one compiled step, the counter stays there
                self._calls += 1
                k, self._counter = jax_fold()(self._key0, self._counter)
                return k
            j, block = self._take()
            rows = self._rows
        if block is None:
            import numpy as np

            return _wrap(np.array(threefry2x32_int(self._words, (0, 0)), np.uint32), self.device)
        # row j of the block, as block[j, ...] gives it (j is in range: no checks to run)
        return _wrap(block.native[j, ...] if rows is None else rows[j], block.device)

    def _key_words(self) -> tuple[int, int]:
        """The next call's key as its two words, as :meth:`_key` would give it (for the
        devices that draw on the host)."""
        with self._lock:
            j, block = self._take()
            if block is None:
                return threefry2x32_int(self._words, (0, 0))
            if self._words_of_rows is None:
                self._words_of_rows = _xp().to_numpy(block).tolist()
            w0, w1 = self._words_of_rows[j]
        return w0, w1

    def _take(self) -> tuple[int, Array | None]:
        """The next call's row in its block of keys, and the block (made where it is not the
        last one made); no block for NumPy's first call, whose key alone is ``fold_in(key,
        0)`` (a generator that draws once makes none). The caller holds the lock."""
        i = self._calls
        self._calls += 1
        if i == 0 and self.device.backend == "numpy":
            return 0, None
        # Elsewhere the keys of the next _BLOCK calls come from one Threefry call.
        b, j = divmod(i, _BLOCK)
        if b != self._block_index:
            self._block = fused(fold_block_kernel, self._key0, b * _BLOCK, _BLOCK)
            self._block_index = b
            native = self._block.native
            self._rows = native.unbind(0) if self.device.backend == "torch" else None
            self._words_of_rows = None
        return j, self._block

    def _host_draw(self, kind: str, shape: tuple[int, ...], dtype: DType) -> Array | None:
        """The ``kind`` floats of the next key drawn in one step where the device allows, else
        None: in C from its words where the device draws on the host (NumPy, torch's CPU: 8
        normals 9.5 us there instead of 12), with the key's derivation in one compiled call on
        JAX (8 normals on its CPU: 40 us as two calls)."""
        if self._counter is not None:
            with self._lock:
                self._calls += 1
                out, self._counter = jax_draw_step(kind, shape, dtype)(self._key0, self._counter)
            return out
        loop = host_loop(kind, dtype, self.device)
        if loop is None:
            return None
        w0, w1 = self._key_words()
        return host_floats(loop, w0, w1, shape, self.device)

    # The draws, on checked arguments; each takes the next state once.

    def _random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        if self._native is not None:
            return self._native.random(shape, dtype)
        out = self._host_draw("uniform", shape, dtype)
        return draw_uniform(self._key(), shape, dtype) if out is None else out

    def _integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        if self._native is not None:
            return self._native.integers(low, high, shape, dtype)
        if self._counter is None and host_integers_here(dtype, self.device):
            w0, w1 = self._key_words()
            return host_integers(w0, w1, shape, low, high - low, dtype, self.device)
        return draw_integers(self._key(), shape, low, high, dtype)

    def _permutation(self, n: int) -> Array:
        if self._native is None:
            return draw_permutation(self._key(), n)
        # A stable sort breaks ties by position.
        return _xp().argsort(self._random((n,), self._dtype(None, "_permutation")), stable=True)

    def _shape(self, shape: object, fname: str) -> tuple[int, ...]:
        return draw_shape(shape, f"Generator.{fname}", limit=not self.fast)

    def _dtype(self, dtype: DTypeLike | None, fname: str, kind: str = "real floating") -> DType:
        return draw_dtype(self.device, dtype, kind, f"Generator.{fname}")

    @_size_alias
    def random(self, shape: Shape = (), dtype: DTypeArg = None) -> Array:
        """Floats uniform in ``[0, 1)``; float32 (or the policy's float) if ``dtype`` is
        omitted."""
        return self._random(self._shape(shape, "random"), self._dtype(dtype, "random"))

    @_size_alias
    def uniform(
        self, low: float = 0.0, high: float = 1.0, shape: Shape = (), dtype: DTypeArg = None
    ) -> Array:
        """Floats uniform in ``[low, high)`` (finite real numbers)."""
        lo, hi = (
            finite_real(low, "low", "Generator.uniform"),
            finite_real(high, "high", "Generator.uniform"),
        )
        shp, dt = self._shape(shape, "uniform"), self._dtype(dtype, "uniform")
        return in_range(self._random(shp, dt), lo, hi)

    @_size_alias
    def normal(
        self, loc: float = 0.0, scale: float = 1.0, shape: Shape = (), dtype: DTypeArg = None
    ) -> Array:
        """Normal floats of mean ``loc`` and standard deviation ``scale >= 0``."""
        mu = finite_real(loc, "loc", "Generator.normal")
        sigma = finite_real(scale, "scale", "Generator.normal")
        if sigma < 0:
            raise ValueError(f"arraymux.random.Generator.normal: scale must be >= 0, got {sigma}.")
        shp, dt = self._shape(shape, "normal"), self._dtype(dtype, "normal")
        if self._native is not None:
            z = self._native.normal(shp, dt)
        elif self._counter is not None and (mu, sigma) != (0.0, 1.0):  # JAX: one call
            s, m = self._arrays([Param("scale", sigma, True), Param("loc", mu, True)], dt)
            return self._run(normal_kernel, (), (shp, dt), "normal", _affine, (s, m))
        else:
            host = self._host_draw("normal", shp, dt)
            z = draw_normal(self._key(), shp, dt) if host is None else host
        return z if (mu, sigma) == (0.0, 1.0) else z * sigma + mu

    @_size_alias
    def integers(
        self, low: int, high: int | None = None, shape: Shape = (), dtype: DTypeArg = None
    ) -> Array:
        """Integers uniform in ``[low, high)`` (``[0, low)`` if ``high`` is omitted).

        Bounds that do not fit ``dtype`` raise ``ValueError`` ("high is out of bounds for
        uint8"), as NumPy's do, in both modes."""
        shp = self._shape(shape, "integers")
        dt = self._dtype(dtype, "integers", "integral")
        lo, hi = integer_bounds(low, high, dt, "Generator.integers", limit=not self.fast)
        return self._integers(lo, hi, shp, dt)

    def permutation(self, x: int | Array, axis: int = 0) -> Array:
        """A random permutation of ``arange(x)`` or of ``x`` along ``axis`` (an array on the
        generator's device)."""
        n, ax = permutation_args(x, axis, self.device, "Generator.permutation")
        order = self._permutation(n)
        return order if ax is None else _xp().take(x, order, axis=ax)

    @_size_alias
    def choice(
        self, a: int | Array, shape: Shape = (), replace: bool = True, p: ParamLike | None = None
    ) -> Array:
        """Values from ``a``, with or without replacement, uniformly or with probabilities
        ``p``, checked as :func:`arraymux.random.choice` checks them (NumPy's rules: finite,
        non-negative, summing to 1; items of probability 0 are never drawn)."""
        return select(a, shape, replace, p, _Draws(self), "Generator.choice")

    @_size_alias
    def bernoulli(self, p: float | Array = 0.5, shape: Shape | None = None) -> Array:
        """Booleans, true with probability ``p`` (a number in ``[0, 1]`` or a float array)."""
        prob, shp, dt = bernoulli_args(p, shape, self.device, "Generator.bernoulli")
        return self._random(shp, dt) < prob

    # -- the distributions, in NumPy's names and argument order (jax.random's algorithms) ----

    def _draw_key(self) -> Array:
        """The key of one draw: the next state, or in the fast mode a key drawn from the
        backend's generator (for a distribution it lacks)."""
        if self._native is None:
            return self._key()
        return self._native.key()

    def _checked(
        self,
        fname: str,
        size: Shape | None,
        dtype: DTypeLike | None,
        specs: list[tuple[str, ParamLike, Domain]],
        *,
        kind: str = "real floating",
    ) -> tuple[tuple[int, ...], DType, list[Param]]:
        """The shape, dtype and parameters of method ``fname``, checked before anything is
        drawn (the parameters broadcast to ``size``; their broadcast shape where None)."""
        where = f"Generator.{fname}"
        ps = [param(v, n, where, self.device, d) for n, v, d in specs]
        shp = out_shape(size, ps, where)
        if not self.fast:
            self._shape(shp, fname)  # at most 2**31 numbers per call
        if kind == "integral":
            dt = self._dtype(dtype, fname, "integral")
        else:
            dt = float_dtype(self.device, dtype, ps, where)
        return shp, dt, ps

    def _arrays(self, ps: list[Param], dt: DType) -> tuple[Array, ...]:
        return tuple(on_device(p, dt, self.device) for p in ps)

    def _native_draw(
        self,
        name: str,
        ps: list[Param],
        shp: tuple[int, ...],
        dt: DType,
        pdt: DType | None = None,
        **kw: str,
    ) -> Array | None:
        """The backend's own draw (fast mode), or None where it has no such distribution; the
        parameters in ``pdt`` (``dt`` if None)."""
        if self._native is None:
            return None
        if 0 in shp:  # nothing to draw (Dask's own draws fail on empty parameters)
            return _xp().empty(shp, dtype=dt, device=self.device)
        try:
            return self._native.dist(name, self._arrays(ps, pdt or dt), shp, dt, **kw)
        except (ValueError, RuntimeError) as e:  # the backend's check of the values
            if type(e) is RuntimeError and "invalid" not in str(e):
                raise  # (torch's own words for a value: "invalid Poisson rate"; not a GPU's)
            raise ValueError(
                f"arraymux.random.Generator.{name}: {e} (fast=True draws with the backend's own "
                "generator, which checks the values of array parameters)"
            ) from None

    def _scaled(self, x: Array, scale: Param | None, loc: Param | None, dt: DType) -> Array:
        """``loc + scale * x`` (NumPy's location and scale), each omitted where it is None."""
        if scale is None and loc is None:
            return x
        s, lo = self._arrays([scale or _ONE, loc or _ZERO], dt)
        return apply(_affine, (x, s, lo))

    def gamma(
        self, shape: ParamLike, scale: ParamLike = 1.0, size: SizeArg = None, dtype: DTypeArg = None
    ) -> Array:
        """Gamma floats of ``shape > 0`` and ``scale > 0`` (NumPy's ``gamma``; drawn as
        :func:`arraymux.random.gamma` draws them, then scaled)."""
        shp, dt, ps = self._checked(
            "gamma", size, dtype, [("shape", shape, POSITIVE), ("scale", scale, POSITIVE)]
        )
        out = self._native_draw("gamma", ps, shp, dt)
        if out is not None:
            return out
        (a,) = self._arrays(ps[:1], dt)
        g = draw_gamma(self._draw_key(), a, shp, False, "Generator.gamma")
        return self._scaled(g, ps[1], None, dt)

    def beta(
        self, a: ParamLike, b: ParamLike, size: SizeArg = None, dtype: DTypeArg = None
    ) -> Array:
        """Beta floats of ``a > 0`` and ``b > 0`` (as :func:`arraymux.random.beta`)."""
        shp, dt, ps = self._checked("beta", size, dtype, [("a", a, POSITIVE), ("b", b, POSITIVE)])
        out = self._native_draw("beta", ps, shp, dt)
        if out is not None:
            return out
        pa, pb = self._arrays(ps, dt)
        return draw_beta(self._draw_key(), pa, pb, shp, dt, "Generator.beta")

    def dirichlet(self, alpha: ParamLike, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Dirichlet vectors of concentrations ``alpha > 0`` (``(..., n)``); ``size`` is the
        batch shape, the result ``size + (n,)`` (as :func:`arraymux.random.dirichlet`)."""
        where = "Generator.dirichlet"
        pa = param(alpha, "alpha", where, self.device, POSITIVE)
        if len(pa.shape) < 1 or pa.shape[-1] < 1:
            raise ValueError(
                f"arraymux.random.{where}: alpha must have at least one dimension and one "
                f"concentration, got shape {pa.shape}."
            )
        shp = out_shape(size, [("the batch shape of alpha", pa.shape[:-1])], where)
        dt = float_dtype(self.device, dtype, [pa], where)
        out = self._native_draw("dirichlet", [pa], shp, dt)
        if out is not None:
            return out
        (arr,) = self._arrays([pa], dt)
        return draw_dirichlet(self._draw_key(), arr, shp, dt, where)

    def _standard(
        self,
        name: str,
        kernel: Callable[..., Array],
        specs: list[tuple[str, ParamLike, Domain]],
        size: Shape | None,
        dtype: DTypeLike | None,
    ) -> Array:
        """A location-scale family: the standard draw, then ``loc + scale * x``."""
        shp, dt, ps = self._checked(name, size, dtype, specs)
        out = self._native_draw(name, ps, shp, dt)
        if out is not None:
            return out
        named = {p.name: p for p in ps}
        scale, loc = named.get("scale"), named.get("loc")
        static = (shp, dt, *_EXTRA.get(name, ()))
        if self._counter is None:
            x = run(kernel, self._draw_key(), (), static, f"Generator.{name}")
            return self._scaled(x, scale, loc, dt)
        return self._run(
            kernel, (), static, name, _affine, self._arrays([scale or _ONE, loc or _ZERO], dt)
        )

    def _run(
        self,
        kernel: Callable[..., Array],
        params: tuple[Array, ...],
        static: tuple[Hashable, ...],
        name: str,
        then: Callable[..., Array] | None = None,
        then_params: tuple[Array, ...] = (),
    ) -> Array:
        """``kernel`` run on the next key (:func:`run`), then ``then(x, *then_params)`` where
        given; on JAX's reference generator the key's derivation, the draw and ``then`` in one
        compiled call (8 exponential floats on the CPU: 40 us, against 190 as four calls)."""
        if self._counter is None:
            x = run(kernel, self._draw_key(), params, static, f"Generator.{name}")
            return x if then is None else apply(then, (x, *then_params))
        step = jax_kernel_step(kernel, static, len(params), then)
        with self._lock:
            self._calls += 1
            out, self._counter = step(self._key0, self._counter, *params, *then_params)
        return out

    def _located(
        self,
        name: str,
        kernel: Callable[..., Array],
        loc: ParamLike,
        scale: ParamLike,
        size: Shape | None,
        dtype: DTypeLike | None,
    ) -> Array:
        """:meth:`_standard` of a family of location ``loc`` (real) and ``scale > 0``."""
        specs = [("loc", loc, REAL), ("scale", scale, POSITIVE)]
        return self._standard(name, kernel, specs, size, dtype)

    def exponential(
        self, scale: ParamLike = 1.0, size: SizeArg = None, dtype: DTypeArg = None
    ) -> Array:
        """Exponential floats of ``scale > 0`` (the inverse of the rate)."""
        specs = [("scale", scale, POSITIVE)]
        return self._standard("exponential", exponential_kernel, specs, size, dtype)

    def laplace(
        self,
        loc: ParamLike = 0.0,
        scale: ParamLike = 1.0,
        size: SizeArg = None,
        dtype: DTypeArg = None,
    ) -> Array:
        """Laplace floats of location ``loc`` and ``scale > 0``."""
        return self._located("laplace", laplace_kernel, loc, scale, size, dtype)

    def logistic(
        self,
        loc: ParamLike = 0.0,
        scale: ParamLike = 1.0,
        size: SizeArg = None,
        dtype: DTypeArg = None,
    ) -> Array:
        """Logistic floats of location ``loc`` and ``scale > 0``."""
        return self._located("logistic", logistic_kernel, loc, scale, size, dtype)

    def gumbel(
        self,
        loc: ParamLike = 0.0,
        scale: ParamLike = 1.0,
        size: SizeArg = None,
        dtype: DTypeArg = None,
    ) -> Array:
        """Gumbel floats of location ``loc`` and ``scale > 0``."""
        return self._located("gumbel", gumbel_kernel, loc, scale, size, dtype)

    def poisson(self, lam: ParamLike = 1.0, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Poisson integers of mean ``lam >= 0``; int32 (or the default dtype policy's integer)
        if ``dtype`` is omitted."""
        shp, dt, ps = self._checked(
            "poisson", size, dtype, [("lam", lam, NON_NEGATIVE)], kind="integral"
        )
        ft = float_dtype(self.device, None, ps, "Generator.poisson")
        out = self._native_draw("poisson", ps, shp, dt, ft)
        if out is not None:
            return out
        return draw_poisson(self._draw_key(), ps[0], shp, dt, "Generator.poisson")

    def binomial(
        self, n: ParamLike, p: ParamLike, size: SizeArg = None, dtype: DTypeArg = None
    ) -> Array:
        """Binomial integers of ``n >= 0`` trials of probability ``p`` in ``[0, 1]``; int32 (or
        the default dtype policy's integer) if ``dtype`` is omitted (drawn as
        :func:`arraymux.random.binomial` draws them, in float32, then cast)."""
        shp, it, ps = self._checked(
            "binomial",
            size,
            dtype,
            [("n", n, NON_NEGATIVE), ("p", p, PROBABILITY)],
            kind="integral",
        )
        counts_fit(ps[0], it, "Generator.binomial")
        ft = float_dtype(self.device, None, ps, "Generator.binomial")
        out = self._native_draw("binomial", ps, shp, it, ft)
        if out is not None:
            return out
        x = draw_binomial(self._draw_key(), ps[0], ps[1], shp, ft, "Generator.binomial")
        return apply(whole_numbers, (x,), (it,))  # (compiled on JAX: no constant moved)

    def standard_t(self, df: ParamLike, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Student's t floats of ``df > 0`` degrees of freedom (:func:`arraymux.random.t`)."""
        shp, dt, ps = self._checked("standard_t", size, dtype, [("df", df, POSITIVE)])
        out = self._native_draw("standard_t", ps, shp, dt)
        if out is not None:
            return out
        (d,) = self._arrays(ps, dt)
        return draw_t(self._draw_key(), d, shp, dt, "Generator.standard_t")

    def chisquare(self, df: ParamLike, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Chi-square floats of ``df > 0`` degrees of freedom."""
        shp, dt, ps = self._checked("chisquare", size, dtype, [("df", df, POSITIVE)])
        out = self._native_draw("chisquare", ps, shp, dt)
        if out is not None:
            return out
        (d,) = self._arrays(ps, dt)
        return draw_chisquare(self._draw_key(), d, shp, dt, "Generator.chisquare")

    def lognormal(
        self,
        mean: ParamLike = 0.0,
        sigma: ParamLike = 1.0,
        size: SizeArg = None,
        dtype: DTypeArg = None,
    ) -> Array:
        """Log-normal floats ``exp(mean + sigma * z)`` (NumPy's parameters: the mean and the
        standard deviation ``sigma >= 0`` of the underlying normal)."""
        shp, dt, ps = self._checked(
            "lognormal", size, dtype, [("mean", mean, REAL), ("sigma", sigma, NON_NEGATIVE)]
        )
        out = self._native_draw("lognormal", ps, shp, dt)
        if out is not None:
            return out
        mu, sd = self._arrays(ps, dt)
        return self._run(lognormal_kernel, (sd, mu), (shp, dt), "lognormal")

    def pareto(self, a: ParamLike, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Pareto II (Lomax) floats ``>= 0`` of shape ``a > 0``, as NumPy's ``pareto`` draws
        them: :func:`arraymux.random.pareto` minus 1."""
        shp, dt, ps = self._checked("pareto", size, dtype, [("a", a, POSITIVE)])
        out = self._native_draw("pareto", ps, shp, dt)
        if out is not None:
            return out
        return self._run(pareto_kernel, self._arrays(ps, dt), (shp, dt), "pareto", _minus_one)

    def weibull(self, a: ParamLike, size: SizeArg = None, dtype: DTypeArg = None) -> Array:
        """Weibull floats of shape ``a > 0`` and scale 1 (:func:`arraymux.random.weibull_min`
        with ``concentration=a``)."""
        shp, dt, ps = self._checked("weibull", size, dtype, [("a", a, POSITIVE)])
        out = self._native_draw("weibull", ps, shp, dt)
        if out is not None:
            return out
        one_and_c = self._arrays([_ONE, *ps], dt)
        return self._run(weibull_kernel, one_and_c, (shp, dt), "weibull")

    def multivariate_normal(
        self,
        mean: ParamLike,
        cov: ParamLike,
        size: SizeArg = None,
        dtype: DTypeArg = None,
        *,
        method: str = "cholesky",
    ) -> Array:
        """Normal vectors of ``mean`` (``(..., n)``) and covariance ``cov`` (``(..., n, n)``);
        ``size`` is the batch shape (as :func:`arraymux.random.multivariate_normal`, whose
        ``method`` it takes; NumPy's default is ``"svd"``)."""
        where = "Generator.multivariate_normal"
        shp, dt, pm, pc = mvn_arguments(where, self.device, mean, cov, size, dtype, method)
        out = self._native_draw("multivariate_normal", [pm, pc], shp, dt, method=method)
        if out is not None:
            return out
        arrays = self._arrays([pm, pc], dt)
        return run(mvn_kernel, self._draw_key(), arrays, (shp, dt, method), where)


def _affine(x: Array, scale: Array, loc: Array) -> Array:
    return rounded(x * scale) + loc


def _minus_one(x: Array) -> Array:
    return x - 1.0


#: The scale and location that :func:`_affine` takes where a distribution has none.
_ONE, _ZERO = Param("scale", 1.0, True), Param("loc", 0.0, True)


#: The keys a reference generator derives at once (fold_in of the next calls' numbers).
_BLOCK = 64

#: Static arguments of the standard kernels beyond shape and dtype.
_EXTRA: dict[str, tuple[Hashable, ...]] = {"gumbel": ("low",)}


class _Draws:
    """The draws that :func:`arraymux.random._core.select` takes, from a generator."""

    def __init__(self, g: Generator) -> None:
        self.device = g.device
        self.random = g._random
        self.integers = g._integers
        self.permutation = g._permutation


class _Native(abc.ABC, Generic[_ND]):
    """The three draws that the fast mode takes from a backend's own generator.

    Each draw holds :attr:`lock` while it reads and advances the backend's state: JAX's key
    is a Python attribute, and Dask's and CuPy's generators do not lock (threads sharing one
    drew the same numbers: up to 152 of 200 draws on JAX); NumPy and torch lock on their own,
    and the extra lock costs them about 0.1 us."""

    def __init__(self, device: Device, seed: int) -> None:
        self.device = device
        self.seed = seed
        self.lock = threading.Lock()
        self._dtypes: dict[DType, _ND] = {}

    def wrap(self, native: NativeArray) -> Array:
        # The backend made it on this device: wrap it without asarray's checks.
        return _wrap(native, self.device)

    def native(self, dtype: DType) -> _ND:
        """The backend's dtype for ``dtype`` (cached: the fast mode's calls are short)."""
        try:
            return self._dtypes[dtype]
        except KeyError:
            # the dtype object of this generator's backend (_ND names it per backend)
            nd = self._dtypes[dtype] = cast(_ND, _native_dtype(self.device, dtype))
            return nd

    @abc.abstractmethod
    def random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        """Floats uniform in [0, 1)."""

    @abc.abstractmethod
    def normal(self, shape: tuple[int, ...], dtype: DType) -> Array:
        """Standard normal floats."""

    @abc.abstractmethod
    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        """Integers uniform in [low, high)."""

    def dist(
        self, name: str, params: tuple[Array, ...], shape: tuple[int, ...], dtype: DType, **kw: str
    ) -> Array | None:
        """A draw of the distribution ``name`` (a method of NumPy's ``Generator``, NumPy's
        parameters, already checked and on the device), or None where the backend has none."""
        return None

    def key(self) -> Array:
        """A key for :mod:`arraymux.random`'s samplers, drawn from this generator (for a
        distribution the backend lacks): reproducible from the seed, made on the device."""
        xp = _xp()
        words = self.integers(0, 1 << 31, (2,), xp.int32)
        return xp.astype(words, word_dtype(self.device))


def _native_dtype(device: Device, dtype: DType) -> object:
    from .._dtype_rules import native_dtype

    return native_dtype(dtype, device, "random.Generator")


class _NumPyLike(_Native[object]):
    """NumPy, CuPy and Dask: ``default_rng(seed)`` with ``random``, ``standard_normal`` and
    ``integers``; array-api-strict draws with NumPy's and wraps."""

    def __init__(self, device: Device, seed: int, module: ModuleType) -> None:
        super().__init__(device, seed)
        self.rng = module.default_rng(seed)
        self.own = device.backend in ("numpy", "cupy", "dask")

    def wrap(self, native: NativeArray) -> Array:
        # array-api-strict and third-party backends draw with NumPy's generator: move there.
        return super().wrap(native) if self.own else _xp().asarray(native, device=self.device)

    def random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        with self.lock:
            out = self.rng.random(shape, dtype=dtype.name)
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: DType) -> Array:
        with self.lock:
            out = self.rng.standard_normal(shape, dtype=dtype.name)
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        with self.lock:
            out = self.rng.integers(low, high, shape, dtype=dtype.name)
        return self.wrap(out)

    def dist(
        self, name: str, params: tuple[Array, ...], shape: tuple[int, ...], dtype: DType, **kw: str
    ) -> Array | None:
        sample = getattr(self.rng, name, None)
        # NumPy's dirichlet and multivariate_normal take one distribution, not a batch.
        batched = name in ("dirichlet", "multivariate_normal") and any(
            p.ndim > (2 if i else 1) for i, p in enumerate(params)
        )
        if sample is None or batched:
            return None
        xp = _xp()
        if name == "binomial":  # NumPy takes whole numbers of trials only
            it = xp.int64 if self.device.supports(xp.int64) else xp.int32
            params = (xp.astype(xp.floor(params[0]), it), params[1])
        # Their samplers compute in float64: float32 parameters widen (exactly) first, as
        # CuPy's beta needs them (it gives NaNs for float32 parameter arrays).
        args = [
            (p.native if p.dtype != xp.float32 else xp.astype(p, xp.float64).native)
            if self.own
            else xp.to_numpy(p)
            for p in params
        ]
        if name == "multivariate_normal":
            kw = {"method": kw.get("method", "cholesky")}
        with self.lock:
            out = sample(*args, size=shape, **kw)
        x = self.wrap(out)
        return x if x.dtype == dtype else xp.astype(x, dtype)


class _Torch(_Native["torch.dtype"]):
    def __init__(self, device: Device, seed: int) -> None:
        import torch

        super().__init__(device, seed)
        self.torch = torch
        self.place = device._backend.adapter.native_device(device._place)
        self.gen = torch.Generator(device=self.place)
        self.gen.manual_seed(seed)

    def _kw(self, dtype: DType) -> _TorchDraw:
        return {
            "generator": self.gen,
            "device": self.place,
            "dtype": self.native(dtype),
        }

    def random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.rand(shape, **kw)
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: DType) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.randn(shape, **kw)
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.randint(low, high, shape, **kw)
        return self.wrap(out)

    def dist(
        self, name: str, params: tuple[Array, ...], shape: tuple[int, ...], dtype: DType, **kw: str
    ) -> Array | None:
        """torch's own samplers (``_standard_gamma``, ``poisson``, ``binomial``,
        ``_sample_dirichlet``, ``exponential_``) and what follows from them and its uniform
        floats; None for a multivariate normal."""
        t = self.torch
        nd = self.native(dtype)
        ft = nd if nd.is_floating_point else t.float32
        a = [p.native.to(ft) for p in params]

        def full(x: torch.Tensor, shp: tuple[int, ...] = shape) -> torch.Tensor:
            return x.broadcast_to(shp).contiguous()

        def gamma(alpha: torch.Tensor) -> torch.Tensor:
            return t._standard_gamma(full(alpha), generator=self.gen)

        def unit() -> torch.Tensor:  # uniform in (0, 1]: 1 - [0, 1)
            return 1.0 - t.rand(shape, generator=self.gen, device=self.place, dtype=ft)

        with self.lock:
            if name == "gamma":
                out = gamma(a[0]) * a[1]
            elif name == "beta":
                x, y = gamma(a[0]), gamma(a[1])
                out = x / (x + y)
            elif name == "dirichlet":
                alpha = full(a[0], (*shape, a[0].shape[-1]))
                out = t._sample_dirichlet(alpha, generator=self.gen)
            elif name == "chisquare":
                out = 2.0 * gamma(a[0] / 2.0)
            elif name == "standard_t":
                z = t.randn(shape, generator=self.gen, device=self.place, dtype=ft)
                out = z / t.sqrt(2.0 * gamma(a[0] / 2.0) / a[0])
            elif name == "exponential":
                e = t.empty(shape, device=self.place, dtype=ft).exponential_(generator=self.gen)
                out = e * a[0]
            elif name == "poisson":
                out = t.poisson(full(a[0]), generator=self.gen)
            elif name == "binomial":
                out = t.binomial(full(t.floor(a[0])), full(a[1]), generator=self.gen)
            elif name == "lognormal":
                z = t.randn(shape, generator=self.gen, device=self.place, dtype=ft)
                out = t.exp(a[0] + a[1] * z)
            elif name == "laplace":
                u = unit() - 0.5
                out = a[0] - a[1] * t.sign(u) * t.log1p(-2.0 * u.abs())
            elif name == "logistic":
                u = unit()
                out = a[0] + a[1] * (t.log(u) - t.log1p(-u))
            elif name == "gumbel":
                out = a[0] - a[1] * t.log(-t.log(unit()))
            elif name == "pareto":
                out = t.expm1(-t.log(unit()) / a[0])
            elif name == "weibull":
                out = (-t.log(unit())) ** (1.0 / a[0])
            else:
                return None
        return self.wrap(out if out.dtype == nd else out.to(nd))


class _Jax(_Native[object]):
    def __init__(self, device: Device, seed: int) -> None:
        import jax

        super().__init__(device, seed)
        self.jax = jax
        self.place = device._backend.adapter.native_device(device._place)
        # The key's raw words: a typed key as the output of each step costs more to return.
        raw = jax.random.key_data(jax.random.key(seed % (1 << 63)))
        self.state = jax.device_put(raw, self.place)

    def _step(self, name: str, static: tuple[Hashable, ...], *args: jax.Array) -> Array:
        """Split the key and draw, in one compiled step: the key is an argument, so one
        compilation serves every generator (per shape, dtype and sampler)."""
        step = _jax_step(name)
        with self.lock:  # the step is dispatched asynchronously: the lock is held briefly
            self.state, out = step(self.state, static, *args)
        return self.wrap(out)

    def random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        return self._step("uniform", (shape, self.native(dtype)))

    def normal(self, shape: tuple[int, ...], dtype: DType) -> Array:
        return self._step("normal", (shape, self.native(dtype)))

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        return self._step("randint", (shape, self.native(dtype), low, high))

    def dist(
        self, name: str, params: tuple[Array, ...], shape: tuple[int, ...], dtype: DType, **kw: str
    ) -> Array | None:
        natives = tuple(p.native for p in params)
        extra = (kw.get("method", "cholesky"),) if name == "multivariate_normal" else ()
        return self._step(name, (shape, self.native(dtype), *extra), *natives)

    def key(self) -> Array:
        raise AssertionError("jax.random has every distribution")  # pragma: no cover


def _jax_sampler(name: str) -> Callable[..., jax.Array]:
    """``jax.random``'s sampler for a NumPy-named distribution and its parameters."""
    import jax
    import jax.numpy as jnp

    r = jax.random
    table: dict[str, Callable[..., jax.Array]] = {
        "uniform": lambda k, s, d: r.uniform(k, s, d),
        "normal": lambda k, s, d: r.normal(k, s, d),
        "randint": lambda k, s, d, low, high: r.randint(k, s, low, high, d),
        "gamma": lambda k, s, d, a, scale: r.gamma(k, a, s, d) * scale,
        "beta": lambda k, s, d, a, b: r.beta(k, a, b, s, d),
        "dirichlet": lambda k, s, d, alpha: r.dirichlet(k, alpha, s, d),
        "exponential": lambda k, s, d, scale: r.exponential(k, s, d) * scale,
        "laplace": lambda k, s, d, loc, scale: loc + scale * r.laplace(k, s, d),
        "logistic": lambda k, s, d, loc, scale: loc + scale * r.logistic(k, s, d),
        "gumbel": lambda k, s, d, loc, scale: loc + scale * r.gumbel(k, s, d),
        "poisson": lambda k, s, d, lam: r.poisson(k, lam, s, d),
        "binomial": lambda k, s, d, n, p: r.binomial(k, n, p, s).astype(d),
        "standard_t": lambda k, s, d, df: r.t(k, df, s, d),
        "chisquare": lambda k, s, d, df: r.chisquare(k, df, s, d),
        "lognormal": lambda k, s, d, mean, sigma: jnp.exp(mean + sigma * r.normal(k, s, d)),
        "pareto": lambda k, s, d, a: r.pareto(k, a, s, d) - 1,
        "weibull": lambda k, s, d, a: r.weibull_min(k, 1.0, a, s, d),
        "multivariate_normal": lambda k, s, d, method, mean, cov: r.multivariate_normal(
            k, mean, cov, s, d, method
        ),
    }
    return table[name]


@functools.cache
def _jax_step(name: str) -> Callable[..., tuple[jax.Array, jax.Array]]:
    """One compiled function per sampler, shared by every fast JAX generator: it splits the
    key it is given and draws with the second half. ``static`` (the shape, the dtype, then
    randint's bounds or the factorization's method) is static; the key and the parameters are
    arguments, so neither a new generator nor a new parameter value compiles again (static
    arguments by position: jax.jit's fast path takes those)."""
    import jax

    sample = _jax_sampler(name)

    def step(
        raw: jax.Array, static: tuple[Hashable, ...], *params: jax.Array
    ) -> tuple[jax.Array, jax.Array]:
        key, sub = jax.random.split(jax.random.wrap_key_data(raw))
        return jax.random.key_data(key), sample(sub, *static, *params)

    return jax.jit(step, static_argnums=1)


def _native_generator(device: Device, seed: int) -> _Native:
    backend = device.backend
    if backend == "torch":
        return _Torch(device, seed)
    if backend == "jax":
        return _Jax(device, seed)
    if backend == "cupy":
        import cupy

        with cupy.cuda.Device(int(device._place)):
            return _NumPyLike(device, seed, cupy.random)
    if backend == "dask":
        import dask.array as da

        return _NumPyLike(device, seed, da.random)
    import numpy as np

    # NumPy, array-api-strict and third-party backends: NumPy's generator, moved there.
    return _NumPyLike(device, seed, np.random)
