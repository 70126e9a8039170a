"""Statistics computed with arraymux, then handed to SciPy and scikit-learn as they are.

Two groups of measurements are standardised with arraymux functions; SciPy's Welch t-test
(``scipy.stats.ttest_ind``) and scikit-learn's PCA (with ``array_api_dispatch``) take the
arraymux arrays directly and give their results back on the same device. SciPy reads the
Array API only with ``SCIPY_ARRAY_API=1`` set before it is imported, which this program does.

It runs on every device. torch has no t distribution of its own (``arraymux.special.stdtr``
computes it with SciPy on the host, which reads only tensors of the CPU), so on torch's GPUs
``ttest_ind`` raises ``NotImplementedError`` rather than copying to the host unasked; this
program then moves the two samples to NumPy itself and says so. JAX without 64-bit mode cannot
hold the float64 that SciPy asks for when it promotes integers (``ttest_ind`` does); arraymux
refuses it rather than computing in float32 unasked, so on such a device this program calls
the libraries inside ``arraymux.narrowing()``, which accepts float32 there, and says so.

Run it with ``python docs/examples/statistics_with_scipy.py [--device torch:cpu]
[--plot stats.png]``; it prints the t statistic, the p-value and the variance ratios of the
principal components, and with ``--plot`` saves the groups and their principal components
(matplotlib).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import warnings

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


@contextlib.contextmanager
def _float32_where_needed(device: str):
    """Inside the block, the float64 that SciPy and scikit-learn ask for becomes float32 on a
    device that cannot hold float64 (JAX without 64-bit mode); elsewhere nothing changes."""
    if xp.Device(device).supports(xp.float64):
        yield False
        return
    with xp.narrowing(), warnings.catch_warnings():
        warnings.simplefilter("ignore", xp.NarrowingWarning)
        yield True


def run(device: str = "numpy", n: int = 60):
    """``(t, p, explained variance ratio)``: the t-test of feature 0 between the groups and the
    PCA of the standardised pooled data."""
    import scipy.stats
    from sklearn import config_context
    from sklearn.decomposition import PCA

    a, b = groups(n, device)
    pooled = xp.concat([a, b], axis=0)
    standard = (pooled - xp.mean(pooled, axis=0)) / xp.std(pooled, axis=0, correction=1)
    with _float32_where_needed(device) as narrowed, config_context(array_api_dispatch=True):
        try:
            test = scipy.stats.ttest_ind(a[:, 0], b[:, 0], equal_var=False)
            on_host = False
        except NotImplementedError:  # no t distribution on this device: on the host, asked
            host = xp.to_device(a[:, 0], "numpy"), xp.to_device(b[:, 0], "numpy")
            test = scipy.stats.ttest_ind(*host, equal_var=False)
            on_host = True
        ratios = PCA(n_components=2, svd_solver="full").fit(standard).explained_variance_ratio_
    t, p = float(test.statistic), float(test.pvalue)
    shares = ", ".join(f"{v:.3f}" for v in xp.to_numpy(ratios).tolist())
    note = " (float32: no float64 on this device)" if narrowed else ""
    note += " (t-test on the host: no t distribution on this device)" if on_host else ""
    print(f"on {device}{note}: t = {t:.2f}, p = {p:.2g}; PCA variance ratios {shares}")
    return test, ratios


def figure(device: str = "numpy", n: int = 60):
    """Feature 0 of each group, and the standardised data on its two principal components."""
    import matplotlib.pyplot as plt
    from sklearn import config_context
    from sklearn.decomposition import PCA

    a, b = groups(n, device)
    pooled = xp.concat([a, b], axis=0)
    standard = (pooled - xp.mean(pooled, axis=0)) / xp.std(pooled, axis=0, correction=1)
    with _float32_where_needed(device), config_context(array_api_dispatch=True):
        pca = PCA(n_components=2, svd_solver="full").fit(standard)
        projected = pca.transform(standard)
    ratios, projected, a0, b0 = xp.to_numpy(
        pca.explained_variance_ratio_, projected, a[:, 0], b[:, 0]
    )
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 3.3))
    bins = np.linspace(min(a0.min(), b0.min()), max(a0.max(), b0.max()), 16)
    left.hist(a0, bins=bins, alpha=0.6, color="tab:blue", label="group A")
    left.hist(b0, bins=bins, alpha=0.6, color="tab:orange", label="group B")
    left.set_xlabel("feature 0 (arbitrary units)")
    left.set_ylabel("measurements per bin")
    left.set_title("Feature 0: Welch's t-test")
    left.legend(fontsize=8, frameon=False)
    right.scatter(projected[:n, 0], projected[:n, 1], s=10, color="tab:blue", label="group A")
    right.scatter(projected[n:, 0], projected[n:, 1], s=10, color="tab:orange", label="group B")
    right.set_xlabel(f"component 1 ({ratios[0]:.0%} of the variance)")
    right.set_ylabel(f"component 2 ({ratios[1]:.0%} of the variance)")
    right.set_title("Standardised data, PCA")
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--plot", help="save the groups and the principal components to this file")
    args = parser.parse_args()
    run(args.device)
    if args.plot:
        figure(args.device).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
