"""Statistics computed with arraymux, then handed to SciPy and scikit-learn as they are.

Two groups of measurements are standardised with arraymux functions; SciPy's Welch t-test
(``scipy.stats.ttest_ind``) and scikit-learn's PCA (with ``array_api_dispatch``) take the
arraymux arrays directly and give their results back on the same device. SciPy reads the
Array API only with ``SCIPY_ARRAY_API=1`` set before it is imported, which this program does.

It runs on every CPU backend. On a GPU, parts of ``ttest_ind`` and ``PCA`` fall back to NumPy:
torch and CuPy refuse that implicit host copy (arraymux says so, as the native arrays do), and
JAX without 64-bit mode refuses the float64 these libraries ask for (run inside
``arraymux.narrowing()`` to accept float32 there).

Run it with ``python docs/examples/statistics_with_scipy.py [--device torch:cpu]``; it prints
the t statistic, the p-value and the variance ratios of the principal components.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np

import arraymux as xp


def groups(n: int, device: str, seed: int = 0):
    """Two groups of ``n`` three-feature measurements; the second is shifted in feature 0."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, 1.0, (n, 3))
    b = rng.normal(0.0, 1.0, (n, 3)) + np.array([1.0, 0.0, 0.0])
    dtype = xp.float64 if xp.Device(device).supports(xp.float64) else xp.float32
    return xp.asarray(a, dtype=dtype, device=device), xp.asarray(b, dtype=dtype, device=device)


def run(device: str = "numpy", n: int = 60):
    """``(t, p, explained variance ratio)``: the t-test of feature 0 between the groups and the
    PCA of the standardised pooled data."""
    import scipy.stats
    from sklearn import config_context
    from sklearn.decomposition import PCA

    a, b = groups(n, device)
    pooled = xp.concat([a, b], axis=0)
    standard = (pooled - xp.mean(pooled, axis=0)) / xp.std(pooled, axis=0, correction=1)
    test = scipy.stats.ttest_ind(a[:, 0], b[:, 0], equal_var=False)
    with config_context(array_api_dispatch=True):
        ratios = PCA(n_components=2, svd_solver="full").fit(standard).explained_variance_ratio_
    t, p = float(test.statistic), float(test.pvalue)
    print(f"on {device}: t = {t:.2f}, p = {p:.2g}; PCA variance ratios {xp.to_numpy(ratios)}")
    return test, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    args = parser.parse_args()
    run(args.device)


if __name__ == "__main__":
    main()
