"""Libraries that consume the Array API, fed arraymux arrays and the same backend's native
arrays: arraymux must do at least as well as native (every call that works on native arrays
works on arraymux arrays), give NumPy's values, and hand results back on the input's device.

Runs where SciPy, scikit-learn and array-api-extra are installed (the ``clients`` extra);
``SCIPY_ARRAY_API=1`` is set by ``tests/conftest.py`` before SciPy is imported.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import arraymux as xp

pytest.importorskip("scipy")
pytest.importorskip("sklearn")
xpx = pytest.importorskip("array_api_extra")

import scipy.linalg  # noqa: E402
import scipy.signal  # noqa: E402
import scipy.special  # noqa: E402
import scipy.stats  # noqa: E402
from sklearn import config_context, metrics, preprocessing  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.metrics import pairwise  # noqa: E402

_RNG = np.random.default_rng(0)
A = _RNG.random(24) + 0.1
B = _RNG.random(24) + 0.1
M = _RNG.random((12, 3))
LABELS = np.array([0, 1, 1, 0, 2, 1, 0, 2, 2, 1, 0, 1])
PRED = np.array([0, 1, 0, 0, 2, 1, 1, 2, 1, 1, 0, 2])

# name -> (function of (a, b, m, labels, pred), uses integer labels)
CASES: dict[str, Callable[..., Any]] = {
    # SciPy
    "scipy.stats.ttest_ind": lambda a, b, m, y, p: scipy.stats.ttest_ind(a, b).statistic,
    "scipy.stats.ttest_1samp": lambda a, b, m, y, p: scipy.stats.ttest_1samp(a, 0.5).statistic,
    "scipy.stats.pearsonr": lambda a, b, m, y, p: scipy.stats.pearsonr(a, b).statistic,
    "scipy.stats.rankdata": lambda a, b, m, y, p: scipy.stats.rankdata(a),
    "scipy.stats.describe": lambda a, b, m, y, p: scipy.stats.describe(a).variance,
    "scipy.stats.variation": lambda a, b, m, y, p: scipy.stats.variation(a),
    "scipy.stats.entropy": lambda a, b, m, y, p: scipy.stats.entropy(a, b),
    "scipy.stats.zscore": lambda a, b, m, y, p: scipy.stats.zscore(a),
    "scipy.stats.skew": lambda a, b, m, y, p: scipy.stats.skew(a),
    "scipy.stats.kurtosis": lambda a, b, m, y, p: scipy.stats.kurtosis(a),
    "scipy.stats.sem": lambda a, b, m, y, p: scipy.stats.sem(a),
    "scipy.stats.gmean": lambda a, b, m, y, p: scipy.stats.gmean(a),
    "scipy.stats.moment": lambda a, b, m, y, p: scipy.stats.moment(a, order=3),
    "scipy.stats.quantile": lambda a, b, m, y, p: scipy.stats.quantile(a, 0.3),
    "scipy.special.logsumexp": lambda a, b, m, y, p: scipy.special.logsumexp(a),
    "scipy.special.softmax": lambda a, b, m, y, p: scipy.special.softmax(a),
    "scipy.special.rel_entr": lambda a, b, m, y, p: scipy.special.rel_entr(a, b),
    "scipy.special.erf": lambda a, b, m, y, p: scipy.special.erf(a),
    "scipy.linalg.block_diag": lambda a, b, m, y, p: scipy.linalg.block_diag(m, m[:2]),
    "scipy.signal.savgol_filter": lambda a, b, m, y, p: scipy.signal.savgol_filter(a, 5, 2),
    # scikit-learn
    "sklearn.accuracy_score": lambda a, b, m, y, p: metrics.accuracy_score(y, p),
    "sklearn.hamming_loss": lambda a, b, m, y, p: metrics.hamming_loss(y, p),
    "sklearn.r2_score": lambda a, b, m, y, p: metrics.r2_score(a, b),
    "sklearn.mean_squared_error": lambda a, b, m, y, p: metrics.mean_squared_error(a, b),
    "sklearn.MinMaxScaler": lambda a, b, m, y, p: preprocessing.MinMaxScaler().fit_transform(m),
    "sklearn.StandardScaler": lambda a, b, m, y, p: preprocessing.StandardScaler().fit_transform(m),
    "sklearn.euclidean_distances": lambda a, b, m, y, p: pairwise.euclidean_distances(m, m),
    "sklearn.cosine_similarity": lambda a, b, m, y, p: pairwise.cosine_similarity(m),
    "sklearn.PCA": lambda a, b, m, y, p: abs(
        PCA(n_components=2, svd_solver="full").fit(m).explained_variance_
    ),
    # array-api-extra
    "xpx.atleast_nd": lambda a, b, m, y, p: xpx.atleast_nd(a, ndim=3),
    "xpx.cov": lambda a, b, m, y, p: xpx.cov(m.T),
    "xpx.kron": lambda a, b, m, y, p: xpx.kron(m[:2], m[:2]),
    "xpx.sinc": lambda a, b, m, y, p: xpx.sinc(a),
    "xpx.isclose": lambda a, b, m, y, p: xpx.isclose(a, b),
    "xpx.pad": lambda a, b, m, y, p: xpx.pad(a, 2),
    "xpx.expand_dims": lambda a, b, m, y, p: xpx.expand_dims(a, axis=(0, 2)),
    "xpx.create_diagonal": lambda a, b, m, y, p: xpx.create_diagonal(a[:4]),
    "xpx.nunique": lambda a, b, m, y, p: xpx.nunique(y),
}


def _inputs(device: xp.Device, native: bool) -> list[Any]:
    dt = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    it = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    out = [xp.asarray(v, dtype=dt, device=device) for v in (A, B, M)]
    out += [xp.asarray(v, dtype=it, device=device) for v in (LABELS, PRED)]
    return [x.native for x in out] if native else out


def _call(name: str, args: list[Any], narrowing: bool = False) -> Any:
    with warnings.catch_warnings(), config_context(array_api_dispatch=True):
        warnings.simplefilter("ignore")
        with xp.narrowing(narrowing):
            return CASES[name](*args)


def _host(r: Any) -> np.ndarray:
    if isinstance(r, xp.Array):
        return xp.to_numpy(r)
    if hasattr(r, "compute"):
        r = r.compute()
    if hasattr(r, "__dlpack__") and not isinstance(r, np.ndarray):
        try:
            return np.asarray(xp.to_numpy(xp.asarray(r)))
        except Exception:
            pass
    return np.asarray(r)


def _refused_host_copy(device: xp.Device, e: Exception) -> bool:
    """Whether ``e`` is arraymux refusing ``numpy.asarray`` of GPU memory, as torch and CuPy
    refuse it for their own arrays."""
    gpu = device.backend == "cupy" or device.place.startswith("cuda")
    return gpu and isinstance(e, TypeError) and "implicitly" in str(e)


@pytest.mark.parametrize("name", sorted(CASES))
def test_client_call(device, name):
    if device.simulated:
        pytest.skip("simulated device")
    # Where the device holds no float64 (JAX without x64), native JAX narrows with a warning;
    # arraymux raises unless asked to narrow, so the comparison opts in (arraymux.narrowing).
    narrowing = not device.supports(xp.float64)
    ref = np.asarray(_call(name, [np.asarray(_host(x)) for x in _inputs(device, True)]))
    try:
        _call(name, _inputs(device, True))
    except Exception as e:  # the library does not support this backend: nothing to beat
        native_error: Exception | None = e
    else:
        native_error = None
    try:
        out = _call(name, _inputs(device, False), narrowing)
    except Exception as e:
        if native_error is None and _refused_host_copy(device, e):
            pytest.xfail(
                f"{name}: SciPy calls {device.backend}'s own library for native arrays but falls "
                f"back to NumPy for arraymux's, and {device.backend} refuses the hidden copy from "
                "the GPU (see the README)"
            )
        if native_error is None:
            raise AssertionError(
                f"{name} works on native {device.backend} arrays but raises on arraymux "
                f"arrays: {type(e).__name__}: {e}"
            ) from e
        pytest.skip(f"{name} raises on native {device.backend} arrays too ({native_error!r:.80})")
    got = _host(out)
    single = xp.__array_namespace_info__().default_dtypes(device=device)["real floating"]
    rtol = 1e-4 if single is xp.float32 or got.dtype in (np.float32, np.complex64) else 1e-9
    np.testing.assert_allclose(got, ref.astype(got.dtype), rtol=rtol, atol=rtol)
    if isinstance(out, xp.Array):
        assert out.device == device, f"{name} returned its result on {out.device}"
    elif native_error is None and out is not None and not np.isscalar(out):
        # A Python scalar is fine (the library returned float(...)); an array must be ours.
        pytest.fail(f"{name} returned {type(out).__name__}, not an arraymux Array")
