"""The stateful generator of :mod:`arraymux.random`."""

from __future__ import annotations

import abc
import functools
import secrets
import threading
from typing import Any

from .._array import Array
from .._devices import Device, resolve_device
from .._dispatch import wrap as _wrap
from .._typing import DeviceLike
from . import (
    Shape,
    _default_float,
    _known_shape,
    _seed_words,
    _shape,
    bernoulli,
    choice,
    integers,
    normal,
    permutation,
    select,
    uniform,
)
from ._threefry import key_array, threefry2x32_int


def _xp() -> Any:
    import arraymux

    return arraymux


def _size_alias(method: Any) -> Any:
    """Let a method take NumPy's ``size=`` for ``shape=``, so NumPy code ports unchanged."""

    @functools.wraps(method)
    def with_size(self: Any, *args: Any, **kwargs: Any) -> Any:
        if "size" in kwargs:
            if "shape" in kwargs:
                raise TypeError(
                    f"arraymux.random.Generator.{method.__name__}: pass shape= or size=, not both."
                )
            kwargs["shape"] = kwargs.pop("size")
        return method(self, *args, **kwargs)

    return with_size


class Generator:
    """A NumPy-style generator: each call draws new numbers and advances the state.

    By default the numbers come from :mod:`arraymux.random`'s counter-based generator, so a
    seed gives the same integers on every device (and the same floats within the backend's
    rounding). Call ``i`` (counting from 0) uses the key ``fold_in(key(seed), i)``, computed on
    the host, so a generator's stream does not depend on where it draws.

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
        the backend, and on torch on the device too.

    The methods take their arguments in NumPy's order, and ``size=`` as NumPy spells
    ``shape=``.

    Examples
    --------
    >>> import arraymux as xp
    >>> g = xp.random.Generator(0, device="numpy")
    >>> xp.to_numpy(g.integers(0, 10, shape=(5,))).tolist()
    [9, 1, 3, 0, 4]
    >>> h = xp.random.Generator(0, device="torch:cpu")
    >>> xp.to_numpy(h.integers(0, 10, shape=(5,))).tolist()
    [9, 1, 3, 0, 4]
    """

    def __init__(
        self, seed: int | None = None, device: DeviceLike | None = None, *, fast: bool = False
    ) -> None:
        if seed is None:
            seed = secrets.randbits(64)
        self._words = _seed_words(seed, "Generator")
        self.seed = seed
        self.device: Device = resolve_device(device, "random.Generator")
        self.fast = bool(fast)
        self._calls = 0
        self._lock = threading.Lock()
        self._native = _native_generator(self.device, seed) if self.fast else None

    def __repr__(self) -> str:
        mode = ", fast=True" if self.fast else ""
        return f"Generator(seed={self.seed}, device='{self.device}'{mode})"

    def _key(self) -> Array:
        with self._lock:
            i = self._calls
            self._calls += 1
        return key_array(threefry2x32_int(self._words, (0, i)), self.device)

    @_size_alias
    def random(self, shape: Shape = (), dtype: Any = None) -> Array:
        """Floats uniform in ``[0, 1)``; the device's default float if ``dtype`` is omitted."""
        if self._native is not None:
            return self._native.random(_shape(shape, "Generator.random"), self._float(dtype))
        return uniform(self._key(), shape, dtype)

    @_size_alias
    def uniform(
        self, low: float = 0.0, high: float = 1.0, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Floats uniform in ``[low, high)``."""
        u = self.random(shape, dtype)
        return u if (low, high) == (0.0, 1.0) else u * (high - low) + low

    @_size_alias
    def normal(
        self, loc: float = 0.0, scale: float = 1.0, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Normal floats of mean ``loc`` and standard deviation ``scale``."""
        if self._native is not None:
            z = self._native.normal(_shape(shape, "Generator.normal"), self._float(dtype))
        else:
            z = normal(self._key(), shape, dtype)
        if (loc, scale) == (0.0, 1.0):
            return z
        return z * scale + loc

    @_size_alias
    def integers(
        self, low: int, high: int | None = None, shape: Shape = (), dtype: Any = None
    ) -> Array:
        """Integers uniform in ``[low, high)`` (``[0, low)`` if ``high`` is omitted)."""
        if self._native is None:
            return integers(self._key(), low, high, shape, dtype)
        if high is None:
            low, high = 0, low
        if high <= low:
            raise ValueError(
                f"arraymux.random.Generator.integers: needs low < high, got [{low}, {high})."
            )
        xp = _xp()
        if dtype is None:
            dtype = xp.__array_namespace_info__().default_dtypes(device=self.device)["integral"]
        return self._native.integers(int(low), int(high), _shape(shape, "integers"), dtype)

    def permutation(self, x: int | Array, axis: int = 0) -> Array:
        """A random permutation of ``arange(x)`` or of ``x`` along ``axis``."""
        if self._native is None:
            return permutation(self._key(), x, axis)
        xp = _xp()
        n = x if isinstance(x, int) else _known_shape(x.shape, "Generator.permutation")[axis]
        order = xp.argsort(self.random((n,)), stable=True)  # a stable sort breaks ties by position
        return order if isinstance(x, int) else xp.take(x, order, axis=axis)

    @_size_alias
    def choice(
        self, a: int | Array, shape: Shape = (), replace: bool = True, p: Array | None = None
    ) -> Array:
        """Values from ``a``, with or without replacement, uniformly or with probabilities
        ``p``."""
        if self._native is None:
            return choice(self._key(), a, shape, replace, p)
        return select(a, shape, replace, p, self, "Generator.choice")

    @_size_alias
    def bernoulli(self, p: float | Array = 0.5, shape: Shape | None = None) -> Array:
        """Booleans, true with probability ``p``."""
        if self._native is None:
            return bernoulli(self._key(), p, shape)
        if shape is None:
            shape = _known_shape(p.shape, "Generator.bernoulli") if isinstance(p, Array) else ()
        wide = isinstance(p, Array) and p.dtype == _xp().float64
        return self.random(shape, _xp().float64 if wide else _xp().float32) < p

    def _float(self, dtype: Any) -> Any:
        return _default_float(self.device, dtype, "Generator")


class _Native(abc.ABC):
    """The three draws that the fast mode takes from a backend's own generator."""

    def __init__(self, device: Device, seed: int) -> None:
        self.device = device
        self.seed = seed
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
    from .._dispatch import native_dtype

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
        return self.wrap(self.rng.random(shape, dtype=dtype.name))

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        return self.wrap(self.rng.standard_normal(shape, dtype=dtype.name))

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        return self.wrap(self.rng.integers(low, high, shape, dtype=dtype.name))


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
        return self.wrap(self.torch.rand(shape, **self._kw(dtype)))

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        return self.wrap(self.torch.randn(shape, **self._kw(dtype)))

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        return self.wrap(self.torch.randint(low, high, shape, **self._kw(dtype)))


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
        self.key, out = self.step["uniform"](self.key, shape, self.native(dtype))
        return self.wrap(out)

    def normal(self, shape: tuple[int, ...], dtype: Any) -> Array:
        self.key, out = self.step["normal"](self.key, shape, self.native(dtype))
        return self.wrap(out)

    def integers(self, low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Array:
        self.key, out = self.randint(self.key, shape, low, high, self.native(dtype))
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
