"""Random numbers that are the same on every backend.

The standard has no random API and each backend has its own streams (NumPy PCG64, torch
Mersenne Twister on the CPU and Philox on CUDA, JAX Threefry), so the same seed gives other
numbers on each. ``arraymux.random`` computes its numbers with arraymux's own operations from
a counter-based generator, Threefry-2x32 with 20 rounds, exactly as ``jax.random`` does (with
``jax_threefry_partitionable``, JAX's default), so:

- **a key gives bit-identical numbers on every device** (NumPy, torch CPU and CUDA, JAX CPU
  and GPU, CuPy, Dask, array-api-strict): the bits come from exact integer operations, and
  the floats from operations that IEEE 754 rounds exactly (``+``, ``*``, ``/``, ``sqrt``; the
  ``log``, ``exp``, ``pow``, ``erf``, ``erfinv`` and ``lgamma`` they need are written with
  those, see ``_special``);
- **the same numbers as jax.random** for the same seed: :func:`key` (``PRNGKey``),
  :func:`split`, :func:`fold_in`, :func:`bits`, :func:`integers` (``randint``),
  :func:`uniform` on ``[0, 1)``, :func:`bernoulli`, :func:`permutation` and :func:`choice`
  bit for bit; :func:`normal` within 3 ulp (XLA fuses the multiply-adds of its ``erfinv``) and
  :func:`uniform` on other bounds within an ulp of ``maxval - minval``; and ``jax.random``'s
  distributions with its algorithms (see ``_distributions``): :func:`gamma`, :func:`loggamma`,
  :func:`beta`, :func:`dirichlet`, :func:`exponential`, :func:`laplace`, :func:`logistic`,
  :func:`gumbel`, :func:`pareto`, :func:`weibull_min`, :func:`lognormal`,
  :func:`truncated_normal`, :func:`t`, :func:`chisquare` and :func:`multivariate_normal`
  within ``4 * eps * max(|x|, 1)``, :func:`poisson`, :func:`binomial` and :func:`categorical`
  equal;
- **float32 and int32 unless told otherwise**: draws without ``dtype=`` are float32 (floats)
  and int32 (integers) on every device, not the device's default (NumPy's float64 would give
  other numbers than torch's float32 from the same key), unless a default dtype policy
  (``arraymux.default_dtypes``, ``set_default_dtypes``) names a dtype the device holds.

Two interfaces:

- the **functional key API**, as JAX offers it, usable inside ``grad``, ``vmap`` and ``jit``:
  a key is an array; :func:`split` and :func:`fold_in` derive new keys, and every sampler takes
  a key and never changes it (:func:`key`, :func:`split`, :func:`fold_in`, :func:`bits`,
  :func:`uniform`, :func:`normal`, :func:`integers`, :func:`bernoulli`, :func:`permutation`,
  :func:`choice` and the distributions);
- a **stateful** :class:`Generator`, as NumPy offers it, which draws a fresh key for each call
  and is safe to share between threads (each call takes the next state under a lock).
  ``Generator(seed, device, fast=True)`` uses the backend's own generator instead: faster, but
  its numbers depend on the backend (and on the device for torch).

Every argument is checked before anything is drawn, the same way in both interfaces and on
every backend, and an error names the function (``arraymux.random.normal: ...``,
``arraymux.random.Generator.integers: ...``): shapes are ints or sequences of ints, dtypes of
the right kind that the device holds, integer bounds within the dtype, probabilities finite,
non-negative and summing to 1, and array arguments on the device the numbers are drawn on.

Examples
--------
>>> import arraymux as xp
>>> k = xp.random.key(0)
>>> xp.to_numpy(xp.random.integers(k, 0, 10, shape=(5,))).tolist()
[9, 0, 2, 3, 1]
>>> k1, k2 = xp.random.split(k)
>>> g = xp.random.Generator(42, device="torch:cpu")
>>> g.normal(shape=(2, 3)).shape
(2, 3)
"""

from __future__ import annotations

from ._core import (
    bernoulli,
    bits,
    choice,
    fold_in,
    integers,
    key,
    normal,
    permutation,
    split,
    uniform,
)
from ._distributions import (
    beta,
    binomial,
    categorical,
    chisquare,
    dirichlet,
    exponential,
    gamma,
    gumbel,
    laplace,
    loggamma,
    logistic,
    lognormal,
    multivariate_normal,
    pareto,
    poisson,
    t,
    truncated_normal,
    weibull_min,
)
from ._generator import Generator

__all__ = [
    "Generator",
    "bernoulli",
    "beta",
    "binomial",
    "bits",
    "categorical",
    "chisquare",
    "choice",
    "dirichlet",
    "exponential",
    "fold_in",
    "gamma",
    "gumbel",
    "integers",
    "key",
    "laplace",
    "loggamma",
    "logistic",
    "lognormal",
    "multivariate_normal",
    "normal",
    "pareto",
    "permutation",
    "poisson",
    "split",
    "t",
    "truncated_normal",
    "uniform",
    "weibull_min",
]
