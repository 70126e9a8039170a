"""The documentation's generated pages, from records made up here: the gallery's run-time
tables and the conformance summary take GPU rows from recorded files when there are some (and
say how to record them when there are none), and the performance captions explain every value
below zero or one that the figures show.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
try:
    import arraymux_docs
    import gallery_pages
    import performance_plots
finally:
    sys.path.remove(str(DOCS / "_ext"))


def _row(program: str, device: str, **extra: object) -> dict[str, object]:
    return {"program": program, "device": device, **extra}


def _cpu_record(out: Path) -> None:
    rows = [
        _row(
            "kmeans",
            "numpy:cpu",
            cold_s=0.2,
            warm_s=[0.003, 0.002, 0.004],
            median_s=0.003,
            output="centres: (0.00, 5.00)\n",
        ),
        _row(
            "kmeans",
            "dask",
            error="arraymux.TransformUnavailableError: arraymux.jit: no "
            "engine here. Move the arrays first.",
        ),
        _row("kmeans", "jax:cpu", skipped="by design"),
    ]
    record = {"benchmark": "gallery", "machine": {"where": "this build", "cpus": 2}, "rows": rows}
    (out / "times-cpu.json").write_text(json.dumps(record))


def test_gallery_without_a_gpu_record_says_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.setattr(gallery_pages, "RESULTS", tmp_path / "none")
    _cpu_record(tmp_path)
    gallery_pages.pages(tmp_path)
    page = (tmp_path / "kmeans.md").read_text()
    nb = "\u00a0"
    assert f"| `numpy:cpu` | 200{nb}ms | 3.0{nb}ms (3{nb}runs) | `centres: (0.00, 5.00)` |" in page
    assert "refused, `TransformUnavailableError`: arraymux.jit: no engine here." in page
    assert "| `jax:cpu` | | | not run: by design |" in page
    assert "No GPU run is recorded yet: `python benchmarks/record_gpu_docs.py`" in page
    assert "{download}`Download kmeans.py <../../examples/kmeans.py>`" in page
    assert "```{eval-rst}" in page  # the docstring's roles render
    index = (tmp_path / "index.md").read_text()
    assert "kmeans" in index and "torch_model_jax_physics" in index


def test_gallery_reads_the_recorded_gpu_rows(tmp_path, monkeypatch):
    results = tmp_path / "results"
    results.mkdir()
    gpu = {
        "benchmark": "gallery",
        "machine": {"gpu": "NVIDIA H200", "cpus": 16},
        "date": "2026-12-05",
        "rows": [
            _row(
                "kmeans",
                "torch:cuda:0",
                cold_s=3.5,
                warm_s=[0.0004, 0.0005],
                median_s=0.00045,
                output="centres: (0.00, 5.00)\n",
            )
        ],
    }
    (results / "gallery-gpu.json").write_text(json.dumps(gpu))
    monkeypatch.setattr(gallery_pages, "RESULTS", results)
    _cpu_record(tmp_path)
    gallery_pages.pages(tmp_path)
    page = (tmp_path / "kmeans.md").read_text()
    assert "| device | measured on | cold start |" in page
    nb = "\u00a0"
    assert (
        f"| `torch:cuda:0` | NVIDIA H200, 2026-12-05 | 3.50{nb}s | 450{nb}µs (2{nb}runs) |" in page
    )
    assert f"| `numpy:cpu` | this build | 200{nb}ms |" in page
    assert "No GPU run is recorded yet" not in page
    assert "No GPU run of this program" not in page
    # A record that holds some programs only: the others say so.
    other = (tmp_path / "torch_model_jax_physics.md").read_text()
    assert "No GPU run of this program is recorded yet" in other


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(4.2e-5, "42 µs"), (0.0031, "3.1 ms"), (0.468, "468 ms"), (5.72, "5.72 s"), (23.9, "23.9 s")],
)
def test_times_in_the_unit_that_reads_best(seconds, shown):
    assert gallery_pages.seconds(seconds) == shown.replace(" ", "\u00a0")  # kept on one line


def _conformance(devices: list[str], status: str) -> dict[str, object]:
    results = [
        {"function": f, "device": d, "status": status if f == "add" else "pass", "detail": "x"}
        for f in ("add", "sin")
        for d in devices
    ]
    return {"devices": devices, "results": results}


def test_conformance_summary_and_grid_take_the_recorded_gpu_runs(tmp_path, monkeypatch):
    results = tmp_path / "results"
    results.mkdir()
    monkeypatch.setattr(arraymux_docs, "RESULTS", results)
    cpu = _conformance(["numpy:cpu"], "pass") | {"machine": {"where": "this build"}}
    (tmp_path / "conformance-cpu.json").write_text(json.dumps(cpu))
    arraymux_docs.conformance_pages(tmp_path)
    summary = (tmp_path / "conformance-summary.md").read_text()
    assert "| `numpy:cpu` | this build | 2 | 2 | 0 | 0 | 0 | 0 |" in summary
    assert "No GPU run is recorded yet" in summary
    gpu = _conformance(["torch:cuda:0"], "FAIL") | {
        "machine": {"gpu": "NVIDIA H200"},
        "date": "2026-12-05",
    }
    (results / "conformance-gpu.json").write_text(json.dumps(gpu))
    arraymux_docs.conformance_pages(tmp_path)
    summary = (tmp_path / "conformance-summary.md").read_text()
    assert (
        "| `torch:cuda:0` | NVIDIA H200, recorded 2026-12-05 (`conformance-gpu.json`) | 2 | 1 | 1 |"
        in summary
    )
    assert "No GPU run is recorded yet" not in summary
    grid = (tmp_path / "conformance-matrix.md").read_text()
    assert "| function | `numpy:cpu` | `torch:cuda:0` |" in grid
    assert "| `add` | ✓ | **FAIL** |" in grid
    assert "- FAIL `add` on `torch:cuda:0`: x" in grid


def test_overhead_caption_explains_values_below_zero(tmp_path):
    pytest.importorskip("matplotlib")
    rows = [
        {"device": "numpy", "op": "sum", "size": 8, "native": 1e-6, "arraymux fn": 0.3e-6},
        {"device": "jax:cpu", "op": "add", "size": 8, "native": 5e-6, "arraymux fn": 4.9e-6},
        {"device": "torch:cpu", "op": "add", "size": 8, "native": 1e-6, "arraymux fn": 1.05e-6},
    ]
    caption = performance_plots.overhead({"rows": rows, "machine": {}}, tmp_path / "o.png")
    assert (tmp_path / "o.png").stat().st_size > 0
    assert "np.add.reduce" in caption
    assert "run-to-run spread" in caption
    fine = performance_plots.overhead({"rows": rows[2:], "machine": {}}, tmp_path / "p.png")
    assert "below zero" not in fine


def test_transforms_caption_names_rows_below_one_in_every_round(tmp_path):
    pytest.importorskip("matplotlib")

    def row(arrays: str, q: list[float]) -> dict[str, object]:
        return {
            "arrays": arrays,
            "size": "10",
            "transform": "grad",
            "engine": "jax",
            "native_s": 1.0,
            "arraymux_s": q[1],
            "ratio_quartiles": q,
        }

    data = {
        "rows": [row("jax:cpu:0", [0.8, 0.85, 0.9]), row("torch:cpu", [0.97, 1.0, 1.04])],
        "machine": {},
        "parameters": {"10": 12},
    }
    caption = performance_plots.transforms(data, tmp_path / "t.png")
    assert "below 1.0 in every round (jax:cpu:0 grad)" in caption
    assert "torch:cpu grad" not in caption


def test_every_device_keeps_its_colour():
    torch_cpu, torch_gpu = (
        performance_plots.device_style(d)["color"] for d in ("torch:cpu", "torch:cuda:0")
    )
    assert torch_cpu != torch_gpu
    assert performance_plots.device_style("torch:cuda:1")["color"] == torch_gpu
    assert (
        performance_plots.device_style("torch:cuda:1")["marker"]
        != performance_plots.device_style("torch:cuda:0")["marker"]
    )
    assert performance_plots.device_style("numpy:cpu") == performance_plots.device_style("numpy")
