"""The programs of docs/examples run and do what their explanation says."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not (importlib.util.find_spec("torch") and importlib.util.find_spec("jax")),
    reason="needs torch and jax",
)
@pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated")
def test_torch_model_trained_through_jax_physics(capsys):
    example = _load("torch_model_jax_physics")
    params, history = example.train(steps=30)
    assert history[-1] < history[0] / 50  # from about 120 to below 2
    assert all(v.device == example.xp.Device("torch:cpu") for v in params.values())
    assert "step    0" in capsys.readouterr().out


# -- the gallery: each program on every CPU device that can run it ------------------------------

import arraymux as xp  # noqa: E402

CPU = [
    str(d)
    for d in xp.devices()
    if not d.simulated and d.place.split(":")[0] in ("cpu", "CPU_DEVICE", "")
]
ENGINES = [d for d in CPU if xp.Device(d).backend in ("numpy", "torch", "jax")]
EAGER = [d for d in CPU if xp.Device(d).backend != "dask"]  # iterative solvers read numbers back


@pytest.mark.parametrize("device", ENGINES)
def test_logistic_regression(device, capsys):
    example = _load("logistic_regression")
    params, losses, accuracy = example.train(device, steps=60)
    assert losses[-1] < losses[0] / 2
    assert accuracy > 0.9
    assert params["w"].device == xp.Device(device)


@pytest.mark.parametrize("device", CPU)
def test_kmeans(device):
    example = _load("kmeans")
    centres, _, inertia = example.kmeans(example.data(40, device))
    assert centres.device == xp.Device(device)
    found = sorted(map(tuple, xp.to_numpy(centres).round(0).tolist()))
    assert found == sorted(map(tuple, example.TRUE_CENTRES.tolist()))
    assert inertia[-1] <= inertia[0]


@pytest.mark.parametrize("device", EAGER)
def test_conjugate_gradient(device):
    example = _load("conjugate_gradient")
    u, history, error = example.solve(device, m=8)
    assert u.device == xp.Device(device)
    assert history[-1] < 1e-6 * history[0]
    assert error < (1e-6 if xp.Device(device).supports(xp.float64) else 1e-4)


@pytest.mark.parametrize("device", CPU)
def test_fft_filter(device):
    example = _load("fft_filter")
    *_, before, after = example.run(device, n=256)
    assert after < before / 3


@pytest.mark.parametrize("device", ENGINES)
@pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated")
def test_heat_equation(device):
    example = _load("heat_equation")
    u, history = example.run(device, n=16, steps=50)
    assert u.device == xp.Device(device)
    (heat0, peak0), (heat1, peak1) = history
    assert peak1 < peak0 and 0 < heat1 < heat0


@pytest.mark.parametrize("device", CPU)
def test_statistics_with_scipy(device):
    pytest.importorskip("scipy")
    pytest.importorskip("sklearn")
    example = _load("statistics_with_scipy")
    test, ratios = example.run(device)
    assert float(test.statistic) < -3 and float(test.pvalue) < 1e-3
    assert ratios.device == xp.Device(device)
    assert 0.3 < float(ratios[0]) < 0.5


def test_statistics_with_scipy_without_float64(capsys):
    """A device without float64 (array_api_strict's, as JAX without 64-bit mode): SciPy's
    requests for float64 are narrowed inside the program, which says so; results in float32."""
    pytest.importorskip("scipy")
    pytest.importorskip("sklearn")
    device = "array_api_strict:no_float64"
    test, ratios = _load("statistics_with_scipy").run(device)
    assert float(test.statistic) < -3 and float(test.pvalue) < 1e-3
    assert ratios.device == xp.Device(device) and ratios.dtype == xp.float32
    assert "(float32: no float64 on this device)" in capsys.readouterr().out


@pytest.mark.parametrize("device", ENGINES)
@pytest.mark.timeout(600)
def test_ode_fit(device, capsys):
    example = _load("ode_fit")
    # torch.compile of the unrolled integrator takes minutes on a 2-core machine: jit on JAX.
    theta, history = example.train(device, steps=100, jit=xp.Device(device).backend == "jax")
    assert theta.device == xp.Device(device)
    assert history[-1] < history[0] / 1000
    k, c = xp.to_numpy(theta).tolist()
    assert abs(k - 4.0) < 0.1 and abs(c - 0.5) < 0.05
    assert "step  100" in capsys.readouterr().out


# -- every program: --device, a labelled figure, formatted results --------------------------

PROGRAMS = sorted(p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("_"))
# The device each program's figure is checked on (the first CPU backend it runs on).
FIRST = {"torch_model_jax_physics": "torch:cpu"}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.filterwarnings("ignore")
def test_program_takes_device_and_draws_a_labelled_figure(name, tmp_path, monkeypatch, capsys):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    device = FIRST.get(name, "numpy")
    if name == "statistics_with_scipy":
        pytest.importorskip("sklearn")
    if xp.Device(device).backend not in {xp.Device(d).backend for d in CPU}:
        pytest.skip(f"{device} is not installed")
    drawn: list[Figure] = []
    save = Figure.savefig
    monkeypatch.setattr(
        Figure, "savefig", lambda fig, *a, **k: (drawn.append(fig), save(fig, *a, **k))[1]
    )
    example = _load(name)
    png = tmp_path / f"{name}.png"
    monkeypatch.setattr(sys, "argv", [name, "--device", device, "--plot", str(png)])
    example.main()
    printed = capsys.readouterr().out
    assert png.stat().st_size > 10_000
    assert len(drawn) == 1
    for ax in drawn[0].axes:
        if not ax.get_visible():
            continue
        # A colour bar's axes carry its label; every other axes names both of its axes.
        assert ax.get_xlabel() or ax.get_ylabel(), f"{name}: an axes without labels"
        if ax.get_label() != "<colorbar>":
            assert ax.get_xlabel() and ax.get_ylabel(), f"{name}: {ax.get_title()!r}"
    # Results formatted: no float32 reprs of many digits.
    assert not re.search(r"\d\.\d{7,}", printed), printed
