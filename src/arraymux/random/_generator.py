"""The stateful generator of :mod:`arraymux.random`."""

from __future__ import annotations

import abc
import functools
import inspect
import secrets
import threading
from typing import Any

from .._arguments import _bool
from .._array import Array
from .._array import wrap as _wrap
from .._devices import Device, resolve_device
from .._dtypes import DType
from .._typing import DeviceLike
from . import (
    Shape,
    _bernoulli_args,
    _bounds,
    _draw_integers,
    _draw_normal,
    _draw_permutation,
    _draw_uniform,
    _dtype,
    _jax_fold,
    _permutation_args,
    _real,
    _scaled,
    _seed_words,
    _shape,
    fold,
    select,
)
from ._threefry import key_array


def _xp() -> Any:
    import arraymux

    return arraymux


def _size_alias(method: Any) -> Any:
    """Let a method take NumPy's ``size=`` for ``shape=``, so NumPy code ports unchanged."""
    position = list(inspect.signature(method).parameters).index("shape")  # counting self

    @functools.wraps(method)
    def with_size(self: Any, *args: Any, **kwargs: Any) -> Any:
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
    ``shape=``. Errors name the method (``arraymux.random.Generator.normal: ...``).

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
        self._words = _seed_words(seed, "Generator")
        self.seed = (self._words[0] << 32) | self._words[1]
        self.device: Device = resolve_device(device, "random.Generator")
        self.fast = _bool("random.Generator", "fast", fast)
        self._calls = 0
        self._lock = threading.Lock()
        self._native = _native_generator(self.device, self.seed) if self.fast else None
        if self._native is None:  # the key and, on JAX, the counter live on the device
            self._key0 = key_array(self._words, self.device)
            self._counter = (
                _xp().zeros((), dtype=self._key0.dtype, device=self.device)
                if self.device.backend == "jax"
                else None
            )

    def __repr__(self) -> str:
        mode = ", fast=True" if self.fast else ""
        return f"Generator(seed={self.seed}, device='{self.device}'{mode})"

    def _key(self) -> Array:
        with self._lock:  # read and advance at once: threads never share a key
            i = self._calls
            self._calls += 1
            if self._counter is not None:  # JAX: one compiled step, the counter stays there
                k, self._counter = _jax_fold()(self._key0, self._counter)
                return k
        return fold(self._key0, i)

    # The draws, on checked arguments; each takes the next state once.

    def _random(self, shape: tuple[int, ...], dtype: DType) -> Array:
        if self._native is not None:
            return self._native.random(shape, dtype)
        return _draw_uniform(self._key(), shape, dtype)

    def _integers(self, low: int, high: int, shape: tuple[int, ...], dtype: DType) -> Array:
        if self._native is not None:
            return self._native.integers(low, high, shape, dtype)
        return _draw_integers(self._key(), shape, low, high, dtype)

    def _permutation(self, n: int) -> Array:
        if self._native is None:
            return _draw_permutation(self._key(), n)
        # A stable sort breaks ties by position.
        return _xp().argsort(self._random((n,), self._dtype(None, "_permutation")), stable=True)

    def _shape(self, shape: Any, fname: str) -> tuple[int, ...]:
        return _shape(shape, f"Generator.{fname}", limit=not self.fast)

    def _dtype(self, dtype: Any, fname: str, kind: str = "real floating") -> DType:
        return _dtype(self.device, dtype, kind, f"Generator.{fname}")

    @_size_alias
    def random(self, shape: Shape = (), dtype: Any = None) -> Array:
        """Floats uniform in ``[0, 1)``; float32 (or the policy's float) if ``dtype`` is
        omitted."""
        return self._random(self._shape(shape, "random"), self._dtype(dtype, "random"))

    @_size_alias
    def uniform(
        self, low: float = 0.0, high: float = 1.0, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Floats uniform in ``[low, high)`` (finite real numbers)."""
        lo, hi = _real(low, "low", "Generator.uniform"), _real(high, "high", "Generator.uniform")
        shp, dt = self._shape(shape, "uniform"), self._dtype(dtype, "uniform")
        return _scaled(self._random(shp, dt), lo, hi)

    @_size_alias
    def normal(
        self, loc: float = 0.0, scale: float = 1.0, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Normal floats of mean ``loc`` and standard deviation ``scale >= 0``."""
        mu = _real(loc, "loc", "Generator.normal")
        sigma = _real(scale, "scale", "Generator.normal")
        if sigma < 0:
            raise ValueError(f"arraymux.random.Generator.normal: scale must be >= 0, got {sigma}.")
        shp, dt = self._shape(shape, "normal"), self._dtype(dtype, "normal")
        if self._native is not None:
            z = self._native.normal(shp, dt)
        else:
            z = _draw_normal(self._key(), shp, dt)
        return z if (mu, sigma) == (0.0, 1.0) else z * sigma + mu

    @_size_alias
    def integers(
        self, low: int, high: int | None = None, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Integers uniform in ``[low, high)`` (``[0, low)`` if ``high`` is omitted).

        Bounds that do not fit ``dtype`` raise ``ValueError`` ("high is out of bounds for
        uint8"), as NumPy's do, in both modes."""
        shp = self._shape(shape, "integers")
        dt = self._dtype(dtype, "integers", "integral")
        lo, hi = _bounds(low, high, dt, "Generator.integers", limit=not self.fast)
        return self._integers(lo, hi, shp, dt)

    def permutation(self, x: int | Array, axis: int = 0) -> Array:
        """A random permutation of ``arange(x)`` or of ``x`` along ``axis`` (an array on the
        generator's device)."""
        n, ax = _permutation_args(x, axis, self.device, "Generator.permutation")
        order = self._permutation(n)
        return order if ax is None else _xp().take(x, order, axis=ax)

    @_size_alias
    def choice(
        self, a: int | Array, shape: Shape = (), replace: bool = True, p: Any = None
    ) -> Array:
        """Values from ``a``, with or without replacement, uniformly or with probabilities
        ``p``, checked as :func:`arraymux.random.choice` checks them (NumPy's rules: finite,
        non-negative, summing to 1; items of probability 0 are never drawn)."""
        return select(a, shape, replace, p, _Draws(self), "Generator.choice")

    @_size_alias
    def bernoulli(self, p: float | Array = 0.5, shape: Shape | None = None) -> Array:
        """Booleans, true with probability ``p`` (a number in ``[0, 1]`` or a float array)."""
        prob, shp, dt = _bernoulli_args(p, shape, self.device, "Generator.bernoulli")
        return self._random(shp, dt) < prob


class _Draws:
    """The draws that :func:`arraymux.random.select` takes, from a generator."""

    def __init__(self, g: Generator) -> None:
        self.device = g.device
        self.random = g._random
        self.integers = g._integers
        self.permutation = g._permutation


class _Native(abc.ABC):
    """The three draws that the fast mode takes from a backend's own generator.

    Each draw holds :attr:`lock` while it reads and advances the backend's state: JAX's key
    is a Python attribute, and Dask's and CuPy's generators do not lock (threads sharing one
    drew the same numbers: up to 152 of 200 draws on JAX); NumPy and torch lock on their own,
    and the extra lock costs them about 0.1 us."""

    def __init__(self, device: Device, seed: int) -> None:
        self.device = device
        self.seed = seed
        self.lock = threading.Lock()
        self._dtypes: dict[Any, Any] = {}

    def wrap(self, native: Any) -> Array:
        # The backend made it on this device: wrap it without asarray's checks.
        return _wrap(native, self.device)

    def native(self, dtype: Any) -> Any:
        """The backend's dtype for ``dtype`` (cached: the fast mode's calls are short)."""
        try:
            return self._dtypes[dtype]
        except KeyError:
            nd = self._dtypes[dtype] = _native_dtype(self.device, dtype)
            return nd

    @abc.abstractmethod
    def random(self, shape: tuple[int, ...], dtype: Any) -> Array:
        """Floats uniform in [0, 1)."""

    @abc.abstractmethod
    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        """Standard normal floats."""

    @abc.abstractmethod
    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        """Integers uniform in [low, high)."""


def _native_dtype(device: Device, dtype: Any) -> Any:
    from .._dtype_rules import native_dtype

    return native_dtype(dtype, device, "random.Generator")


class _NumPyLike(_Native):
    """NumPy, CuPy and Dask: ``default_rng(seed)`` with ``random``, ``standard_normal`` and
    ``integers``; array-api-strict draws with NumPy's and wraps."""

    def __init__(self, device: Device, seed: int, module: Any) -> None:
        super().__init__(device, seed)
        self.rng = module.default_rng(seed)
        self.own = device.backend in ("numpy", "cupy", "dask")

    def wrap(self, native: Any) -> Array:
        # array-api-strict and third-party backends draw with NumPy's generator: move there.
        return super().wrap(native) if self.own else _xp().asarray(native, device=self.device)

    def random(self, shape: tuple[int, ...], dtype: Any) -> Array:
        with self.lock:
            out = self.rng.random(shape, dtype=dtype.name)
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        with self.lock:
            out = self.rng.standard_normal(shape, dtype=dtype.name)
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        with self.lock:
            out = self.rng.integers(low, high, shape, dtype=dtype.name)
        return self.wrap(out)


class _Torch(_Native):
    def __init__(self, device: Device, seed: int) -> None:
        import torch

        super().__init__(device, seed)
        self.torch = torch
        self.place = device._backend.adapter.native_device(device._place)
        self.gen = torch.Generator(device=self.place)
        self.gen.manual_seed(seed)

    def _kw(self, dtype: Any) -> dict[str, Any]:
        return {
            "generator": self.gen,
            "device": self.place,
            "dtype": self.native(dtype),
        }

    def random(self, shape: tuple[int, ...], dtype: Any) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.rand(shape, **kw)
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.randn(shape, **kw)
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        kw = self._kw(dtype)
        with self.lock:
            out = self.torch.randint(low, high, shape, **kw)
        return self.wrap(out)


class _Jax(_Native):
    def __init__(self, device: Device, seed: int) -> None:
        import jax

        super().__init__(device, seed)
        self.jax = jax
        self.place = device._backend.adapter.native_device(device._place)
        self.key = jax.device_put(jax.random.key(seed % (1 << 63)), self.place)
        # One compiled step per sampler: split the key and draw, without eager dispatches.
        self.step = {
            name: jax.jit(
                functools.partial(_jax_step, getattr(jax.random, name)), static_argnums=(1, 2)
            )
            for name in ("uniform", "normal")
        }
        self.randint = jax.jit(_jax_randint, static_argnums=(1, 2, 3, 4))

    def random(self, shape: tuple[int, ...], dtype: Any) -> Array:
        nd = self.native(dtype)
        with self.lock:  # the step is dispatched asynchronously: the lock is held briefly
            self.key, out = self.step["uniform"](self.key, shape, nd)
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        nd = self.native(dtype)
        with self.lock:
            self.key, out = self.step["normal"](self.key, shape, nd)
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        nd = self.native(dtype)
        with self.lock:
            self.key, out = self.randint(self.key, shape, low, high, nd)
        return self.wrap(out)


def _jax_step(sample: Any, key: Any, shape: tuple[int, ...], dtype: Any) -> tuple[Any, Any]:
    import jax

    key, sub = jax.random.split(key)
    return key, sample(sub, shape, dtype)


def _jax_randint(
    key: Any, shape: tuple[int, ...], low: int, high: int, dtype: Any
) -> tuple[Any, Any]:
    import jax

    key, sub = jax.random.split(key)
    return key, jax.random.randint(sub, shape, low, high, dtype)


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
