"""Pages of the documentation made while it is built, into ``docs/generated/``.

- ``api/``: the API reference, a page per public object of ``arraymux`` and its namespaces
  (``api_reference.py``; autodoc and napoleon read the docstrings);
- ``gallery/``: a page per program of ``docs/examples/`` (``gallery_pages.py``): its
  explanation, figure, download link, run times per device (cold start and the median of warm
  runs; CPU devices from this build, GPUs from recorded runs), output and source;
- ``performance/``: a figure per question from the JSON files of ``benchmarks/results/``
  (``performance_plots.py``; no benchmark runs while the site is built);
- ``conformance-summary.md`` and ``conformance-matrix.md``: the device x status summary and
  the function x device grid of an ``arraymux conformance --format json`` run on every CPU
  device, with the GPU runs recorded in ``benchmarks/results/conformance-*.json``;
- ``versions-table.md``: the supported and tested versions of Python and the backends.

Run ``python docs/_ext/arraymux_docs.py OUT`` to make them without Sphinx.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from api_reference import api_pages, reference_entries
from gallery_pages import cpu_devices, gallery
from performance_plots import performance

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
EXAMPLES = DOCS / "examples"
RESULTS = ROOT / "benchmarks" / "results"

__all__ = ["api_pages", "generate", "reference_entries"]


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file holds it already (Sphinx rereads changed files only)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


# -- supported versions ---------------------------------------------------------------------

# The packages of each backend and extra, in the order the page lists them.
_PACKAGES = {
    "(core)": ["numpy", "array-api-compat", "hypothesis", "rich"],
    "torch": ["torch"],
    "jax": ["jax", "jaxlib"],
    "cupy": ["cupy-cuda12x"],
    "dask": ["dask", "distributed"],
    "strict": ["array-api-strict"],
    "clients": ["scipy", "scikit-learn", "array-api-extra"],
}


def _requirements() -> tuple[str, dict[str, str]]:
    """``requires-python`` and package -> the version range pyproject.toml asks for."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    ranges: dict[str, str] = {}
    for spec in project["dependencies"] + [
        r for extra in project["optional-dependencies"].values() for r in extra
    ]:
        req = Requirement(spec)
        if not req.name.startswith("arraymux"):
            ranges.setdefault(req.name, str(req.specifier) or "any")
    return project["requires-python"], ranges


def _gpu_record() -> dict[str, Any]:
    """The machine of the newest GPU record in ``benchmarks/results/`` (versions, Python)."""
    newest: dict[str, Any] = {}
    for path in sorted(RESULTS.glob("*.json")):
        machine = json.loads(path.read_text()).get("machine", {})
        if machine.get("gpu") and len(machine.get("versions", {})) >= len(
            newest.get("versions", {})
        ):
            newest = machine | {"file": path.name}
    return newest


def versions(out: Path) -> None:
    """The table of supported versions: what pyproject.toml asks for, what this build ran
    with (the CI machine's, when CI builds the site), and what the GPU records ran with."""
    import platform
    from importlib import metadata

    python, ranges = _requirements()
    gpu = _gpu_record()
    gpu_versions = {k.lower(): v for k, v in gpu.get("versions", {}).items()}
    gpu_head = f"GPU record ({gpu['gpu']}, `{gpu['file']}`)" if gpu else "GPU record"
    lines = [
        f"| extra | package | supported | tested by this build | {gpu_head} |",
        "|---|---|---|---|---|",
        f"| | Python | `{python}` | {platform.python_version()} | {gpu.get('python', '—')} |",
    ]
    for extra, packages in _PACKAGES.items():
        for package in packages:
            try:
                here = metadata.version(package).split("+")[0]
            except metadata.PackageNotFoundError:
                here = "not installed"
            there = gpu_versions.get(package) or gpu_versions.get(package.split("-cuda")[0])
            name = f"`arraymux[{extra}]`" if extra != "(core)" else "always"
            supported = f"`{ranges[package]}`" if package in ranges else "with jax"
            lines.append(f"| {name} | {package} | {supported} | {here} | {there or '—'} |")
    _write(out / "versions-table.md", "\n".join(lines) + "\n")


# -- the conformance matrix ---------------------------------------------------------------------


_STATUSES = ("pass", "FAIL", "xfail", "xpass", "n/a")


def conformance_command(devices: list[str]) -> list[str]:
    """The conformance run whose results the conformance pages show: ``arraymux conformance``
    with 5 examples per property, as JSON, on ``devices`` (the build's CPUs, or the GPUs of
    ``benchmarks/record_gpu_docs.py``)."""
    return [
        sys.executable,
        "-m",
        "arraymux",
        "conformance",
        "--format",
        "json",
        "--max-examples",
        "5",
        "--devices",
        ",".join(devices),
    ]


def conformance_start(out: Path) -> Any:
    """Start ``arraymux conformance`` on every CPU device, its JSON into a file; the build
    goes on beside it (it takes one core of the two a CI machine has) until
    :func:`conformance_finish`."""
    devices = cpu_devices()
    raw = out / "conformance-run.json"
    raw.parent.mkdir(parents=True, exist_ok=True)
    with raw.open("w") as stdout:
        return subprocess.Popen(
            conformance_command(devices),
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )


def conformance_finish(out: Path, run: Any) -> None:
    """Wait for the run :func:`conformance_start` began; keep it as ``conformance-cpu.json``."""
    _, stderr = run.communicate(timeout=1200)
    raw = out / "conformance-run.json"
    if run.returncode not in (0, 1) or not raw.read_text().strip():
        raise RuntimeError(f"conformance run failed:\n{stderr[-3000:]}")
    data = json.loads(raw.read_text())
    raw.unlink()
    data["machine"] = {"where": "this build"}
    _write(out / "conformance-cpu.json", json.dumps(data, indent=1))


def _recorded(pattern: str) -> list[dict[str, Any]]:
    """The records of ``benchmarks/results/`` matching ``pattern``, each with its file name."""
    return [json.loads(p.read_text()) | {"file": p.name} for p in sorted(RESULTS.glob(pattern))]


def _where(record: dict[str, Any]) -> str:
    m = record.get("machine", {})
    if m.get("where"):
        return m["where"]
    gpu = m.get("gpu", "a GPU machine")
    date = record.get("date", "")
    return f"{gpu}, recorded {date} (`{record['file']}`)" if date else f"{gpu} (`{record['file']}`)"


def conformance_pages(out: Path) -> None:
    """The summary (device x status counts) and the function x device grid, from this build's
    run and the GPU runs recorded in ``benchmarks/results/conformance-*.json``."""
    records = [json.loads((out / "conformance-cpu.json").read_text())]
    records += _recorded("conformance-*.json")
    summary = [
        "| device | run | functions | pass | FAIL | xfail | xpass | n/a |",
        "|---|---|---|---|---|---|---|---|",
    ]
    devices: list[str] = []
    cells: dict[str, dict[str, str]] = {}
    notes: list[str] = []
    marks = {"pass": "✓", "FAIL": "**FAIL**", "xfail": "xfail", "xpass": "xpass", "n/a": "n/a"}
    for record in records:
        for d in record["devices"]:
            mine = [r for r in record["results"] if r["device"] == d]
            counts = {s: sum(r["status"] == s for r in mine) for s in _STATUSES}
            summary.append(
                f"| `{d}` | {_where(record)} | {len(mine)} | "
                + " | ".join(str(counts[s]) for s in _STATUSES)
                + " |"
            )
            devices.append(d)
            for r in mine:
                cells.setdefault(r["function"], {})[d] = marks.get(r["status"], r["status"])
                if r["status"] in ("FAIL", "xpass", "xfail") and r.get("detail"):
                    detail = " ".join(r["detail"].split())[:300]
                    notes.append(f"- {r['status']} `{r['function']}` on `{d}`: {detail}")
    if len(records) == 1:
        summary += [
            "",
            "No GPU run is recorded yet: `python benchmarks/record_gpu_docs.py` on a machine with "
            "GPUs writes `benchmarks/results/conformance-gpu.json`, and the next build shows "
            "its rows here.",
        ]
    _write(out / "conformance-summary.md", "\n".join(summary) + "\n")
    grid = [
        "| function | " + " | ".join(f"`{d}`" for d in devices) + " |",
        "|---|" + "---|" * len(devices),
    ]
    for fn, row in cells.items():
        grid.append(f"| `{fn}` | " + " | ".join(row.get(d, "") for d in devices) + " |")
    if notes:
        grid += ["", "The first counterexample of each failure and known deviation:", "", *notes]
    _write(out / "conformance-matrix.md", "\n".join(grid) + "\n")


def generate(out: Path) -> None:
    """Make every generated page. ``ARRAYMUX_DOCS_REUSE=1`` keeps the conformance run's and the
    gallery's pages of an earlier build where they exist (they take minutes; a check of the
    other pages need not wait for them)."""
    reuse = os.environ.get("ARRAYMUX_DOCS_REUSE") == "1"
    run = None
    if not (reuse and (out / "conformance-cpu.json").exists()):
        run = conformance_start(out)
    try:
        api_pages(out / "api")
        versions(out)
        performance(out / "performance")
        gallery(out / "gallery", reuse=reuse)
    except BaseException:
        if run is not None:
            run.kill()
        raise
    if run is not None:
        conformance_finish(out, run)
    conformance_pages(out)


def _on_init(app: Any) -> None:
    generate(Path(app.srcdir) / "generated")


def setup(app: Any) -> dict[str, Any]:
    import api_reference

    app.connect("builder-inited", _on_init)
    api_reference.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    generate(Path(sys.argv[1]))
