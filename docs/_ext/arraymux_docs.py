"""Pages of the documentation made while it is built, into ``docs/generated/``.

- ``api/``: the API reference, a page per public object of ``arraymux`` and its namespaces
  (``api_reference.py``; autodoc and napoleon read the docstrings);
- ``gallery/``: a page per program of ``docs/examples/``: its explanation, the figure it
  draws, its run time on every CPU device (each program runs once per device, now), its source;
- ``performance/``: plots drawn from the JSON files of ``benchmarks/results/`` (no benchmark
  runs while the site is built);
- ``conformance-matrix.md``: the function x device matrix of an ``arraymux conformance
  --format json`` run on every CPU device.

Run ``python docs/_ext/arraymux_docs.py OUT`` to make them without Sphinx.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from api_reference import api_pages, reference_entries

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


# -- the gallery --------------------------------------------------------------------------------

# Devices a program is not run on, and why (said on its page).
_NOT_ON = {
    "conjugate_gradient": {
        "dask": "an iterative solver reads a number back each iteration, and each read "
        "recomputes Dask's growing graph",
    },
}
# Seconds one program may take on one device before the gallery records it as too slow.
_LIMIT = 90

_RUNNER = r"""
import contextlib, importlib.util, io, json, signal, sys, time, traceback, warnings
warnings.simplefilter("ignore")
path, devices, plot, limit = sys.argv[1], sys.argv[2].split(","), sys.argv[3], int(sys.argv[4])

def too_slow(*_):
    raise TimeoutError(f"did not finish in {limit} s")

signal.signal(signal.SIGALRM, too_slow)
spec = importlib.util.spec_from_file_location("example", path)
mod = importlib.util.module_from_spec(spec)
sys.modules["example"] = mod
spec.loader.exec_module(mod)
rows = []
for d in devices:
    argv = [path] + ([] if d == "-" else ["--device", d])
    if d == devices[0] and plot != "-":
        argv += ["--plot", plot]
    sys.argv = argv
    out = io.StringIO()
    t0 = time.perf_counter()
    signal.alarm(limit)
    try:
        with contextlib.redirect_stdout(out):
            mod.main()
        signal.alarm(0)
        rows.append({"device": d, "seconds": time.perf_counter() - t0, "output": out.getvalue()})
    except BaseException as e:
        signal.alarm(0)
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        rows.append({"device": d, "error": last[:300], "output": out.getvalue()})
print(json.dumps(rows))
"""


def _cpu_devices() -> list[str]:
    import arraymux

    return [
        str(d)
        for d in arraymux.devices()
        if not d.simulated
        and (d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu"))
    ]


def arraymux_device(name: str) -> Any:
    import arraymux

    return arraymux.Device(name)


def _doc_parts(path: Path) -> tuple[str, str]:
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text())) or path.stem
    title, _, rest = doc.partition("\n")
    return title.strip().rstrip("."), textwrap.dedent(rest).strip()


def gallery(out: Path) -> None:
    devices = _cpu_devices()
    scripts = sorted(EXAMPLES.glob("*.py"))
    cards = []
    for script in scripts:
        title, text = _doc_parts(script)
        takes_device = "--device" in script.read_text()
        skipped = _NOT_ON.get(script.stem, {})
        run_on = [d for d in devices if arraymux_device(d).backend not in skipped]
        figure = out / f"{script.stem}.png"
        out.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(
            [
                sys.executable,
                "-c",
                _RUNNER,
                str(script),
                ",".join(run_on if takes_device else ["-"]),
                str(figure) if "--plot" in script.read_text() else "-",
                str(_LIMIT),
            ],
            capture_output=True,
            text=True,
            timeout=_LIMIT * (len(run_on) + 1),
            cwd=str(EXAMPLES),
            env=os.environ | {"MPLBACKEND": "Agg"},
        )
        if res.returncode != 0:
            raise RuntimeError(f"gallery: {script.name} failed:\n{res.stderr[-3000:]}")
        rows = json.loads(res.stdout.strip().splitlines()[-1])
        table = ["| device | run time | result |", "|---|---|---|"]
        for r in rows:
            device = "its own devices" if r["device"] == "-" else f"`{r['device']}`"
            if "error" in r:
                table.append(f"| {device} | - | refused: `{r['error'].replace('|', '/')}` |")
            else:
                last = (r["output"].strip().splitlines() or [""])[-1].replace("|", "/")
                table.append(f"| {device} | {r['seconds']:.2f} s | `{last[:90]}` |")
        for backend, why in skipped.items():
            table.append(f"| `{backend}` | - | not run: {why} |")
        ok = [r for r in rows if "error" not in r]
        if not ok:
            raise RuntimeError(f"gallery: {script.name} ran on no device: {rows}")
        shown = ok[0]["output"].strip()
        page = [
            f"# {title}",
            "",
            text,
            "",
        ]
        if figure.exists():
            page += [f"![{title}]({figure.name})", ""]
        page += [
            "## Run time per device",
            "",
            "Measured while this site was built: one run of the program with its default "
            "arguments on each CPU device of the machine that built it (the first run on a "
            "device includes its compilation and warm-up).",
            "",
            *table,
            "",
            "## Output",
            "",
            f"On `{ok[0]['device']}`:" if ok[0]["device"] != "-" else "",
            "",
            "```text",
            shown,
            "```",
            "",
            "## Source",
            "",
            f"```{{literalinclude}} ../../examples/{script.name}",
            ":language: python",
            "```",
            "",
        ]
        _write(out / f"{script.stem}.md", "\n".join(page))
        cards.append((script.stem, title, figure.exists()))
    index = [
        "# Gallery",
        "",
        "Programs written once against `arraymux`, each run on every CPU device while this site",
        "was built. Each page has the program's figure, its run time per device and its source;",
        "run one yourself with `python docs/examples/NAME.py --device torch:cpu --plot out.png`.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        ":hidden:",
        "",
        *[name for name, _, _ in cards],
        "```",
        "",
    ]
    for name, title, has_fig in cards:
        index += [f"## [{title}]({name}.md)", ""]
        if has_fig:
            index += [
                f"```{{image}} {name}.png",
                f":alt: {title}",
                ":width: 420px",
                f":target: {name}.html",
                "```",
                "",
            ]
    _write(out / "index.md", "\n".join(index))


# -- performance plots --------------------------------------------------------------------------


def _machine(meta: dict[str, Any]) -> str:
    m = meta.get("machine", {})
    gpu = f", {m['gpu']}" if m.get("gpu") else ""
    return f"{m.get('cpus', '?')} CPU cores{gpu}, Python {m.get('python', '?')}"


def performance(out: Path) -> dict[str, str]:
    """Draw one PNG per benchmark JSON file; return file name -> caption."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    captions: dict[str, str] = {}
    for path in sorted(RESULTS.glob("*.json")):
        data = json.loads(path.read_text())
        kind = data.get("benchmark")
        rows = data["rows"]
        png = out / f"{path.stem}.png"
        if kind == "overhead":
            devices = list(dict.fromkeys(r["device"] for r in rows))
            peers = [
                k
                for k in ("arraymux fn", "arraymux op", "compat (cached)", "autoray.do", "eagerpy")
                if any(k in r for r in rows)
            ]
            fig, axes = plt.subplots(1, len(devices), figsize=(4.2 * len(devices), 3.6))
            for ax, d in zip(list(getattr(axes, "flat", [axes])), devices):
                # Small operands, where the fixed cost shows; at a million elements the
                # backend's own work varies between runs by more than the whole overhead.
                mine = [r for r in rows if r["device"] == d and r["size"] <= 1000]
                labels = [f"{r['op']} {r['size']}" for r in mine]
                width = 0.8 / len(peers)
                for i, k in enumerate(peers):
                    over = [(r[k] - r["native"]) * 1e9 if r.get(k) is not None else 0 for r in mine]
                    ax.bar([j + i * width for j in range(len(mine))], over, width, label=k)
                ax.set_xticks([j + 0.4 - width / 2 for j in range(len(mine))], labels, rotation=60)
                ax.set_title(d)
                ax.set_ylabel("ns over the native call")
                ax.axhline(0, color="black", linewidth=0.6)
            axes_list = list(getattr(axes, "flat", [axes]))
            axes_list[0].legend(fontsize=7)
            captions[png.name] = (
                "Cost per call over the backend's own function, small operands (ns; lower is "
                "better): "
                "arraymux's function and operator forms beside array-api-compat, autoray and "
                f"EagerPy. Measured on {_machine(data)}."
            )
        elif kind == "transfer":
            # A run on several GPUs also holds the moves between GPUs beside torch's own
            # Tensor.to: those are the file's plot (the other pairs have the CPU's).
            between = [r for r in rows if "torch_to_s" in r]
            rows = between or rows
            pairs = list(dict.fromkeys((r["source"], r["target"]) for r in rows))
            fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
            for src, dst in pairs:
                mine = sorted(
                    (r for r in rows if (r["source"], r["target"]) == (src, dst)),
                    key=lambda r: r["bytes"],
                )
                sizes = [r["bytes"] for r in mine]
                style = "-" if mine[-1].get("zero_copy") == "yes" else "--"
                label = f"{src} → {dst}"
                left.plot(sizes, [r["to_device_s"] * 1e6 for r in mine], style, marker="o")
                base = "naive_s" if "naive_s" in mine[0] else "torch_to_s"
                right.plot(
                    sizes,
                    [r[base] / r["to_device_s"] for r in mine],
                    style,
                    marker="o",
                    label=label,
                )
            for ax in (left, right):
                ax.set_xscale("log")
                ax.set_xlabel("bytes moved")
            left.set_yscale("log")
            left.set_ylabel("to_device, us (lower is better)")
            right.set_yscale("log")
            right.axhline(1.0, color="black", linewidth=0.8)
            right.set_ylabel("reference time / to_device time")
            right.legend(fontsize=6, ncol=2)
            reference = data.get("naive", "the naive route")
            if between:
                reference = "torch's Tensor.to between the same two GPUs"
            captions[png.name] = (
                "Left: time of `to_device` per pair of devices and size (solid: zero-copy, "
                "the same memory, whose cost does not grow with the size; dashed: copied). "
                f"Right: speed against the reference route ({reference}; above 1: faster). "
                f"Measured on {_machine(data)}."
            )
        elif kind == "transforms":
            order = {"10": 0, "1k": 1, "100k": 2, "1M": 3}
            series = list(dict.fromkeys((r["arrays"], r["transform"]) for r in rows))
            fig, ax = plt.subplots(figsize=(8, 4.5))
            for arrays, transform in series:
                mine = sorted(
                    (r for r in rows if (r["arrays"], r["transform"]) == (arrays, transform)),
                    key=lambda r: order.get(r["size"], 9),
                )
                ax.plot(
                    [r["size"] for r in mine],
                    [r["arraymux_s"] / r["native_s"] for r in mine],
                    marker="o",
                    label=f"{transform} of {arrays}",
                )
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.axhline(1.05, color="grey", linewidth=0.8, linestyle=":")
            ax.set_xlabel("parameters")
            ax.set_ylabel("time, arraymux / engine")
            ax.legend(fontsize=7)
            captions[png.name] = (
                "Transforms: arraymux's time over the engine's own (torch.func, JAX) for a "
                "two-layer network (1.0: the same; dotted: 5 % more). Measured on "
                f"{_machine(data)}."
            )
        else:
            continue
        fig.tight_layout()
        fig.savefig(png, dpi=110)
        plt.close(fig)
    return captions


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


def conformance(out: Path) -> None:
    devices = _cpu_devices()
    res = subprocess.run(
        [
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
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if res.returncode not in (0, 1) or not res.stdout.strip():
        raise RuntimeError(f"conformance run failed:\n{res.stderr[-3000:]}")
    data = json.loads(res.stdout)
    marks = {"pass": "✓", "fail": "✗", "xfail": "xfail", "n/a": "n/a"}
    cells: dict[str, dict[str, str]] = {}
    for r in data["results"]:
        cells.setdefault(r["function"], {})[r["device"]] = marks.get(r["status"], r["status"])
    counts: dict[str, int] = {}
    for r in data["results"]:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lines = [
        f"Run while this site was built: {len(cells)} functions on {len(data['devices'])} devices, "
        "5 examples per property; "
        + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        + ".",
        "",
        "| function | " + " | ".join(f"`{d}`" for d in data["devices"]) + " |",
        "|---|" + "---|" * len(data["devices"]),
    ]
    for fn, row in cells.items():
        lines.append(f"| `{fn}` | " + " | ".join(row.get(d, "") for d in data["devices"]) + " |")
    _write(out / "conformance-matrix.md", "\n".join(lines) + "\n")


def generate(out: Path) -> None:
    """Make every generated page. ``ARRAYMUX_DOCS_REUSE=1`` keeps the conformance run's and the
    gallery's pages of an earlier build where they exist (they take minutes; a check of the
    other pages need not wait for them)."""
    reuse = os.environ.get("ARRAYMUX_DOCS_REUSE") == "1"
    api_pages(out / "api")
    versions(out)
    performance(out / "performance")
    if not (reuse and (out / "conformance-matrix.md").exists()):
        conformance(out)
    if not (reuse and (out / "gallery" / "index.md").exists()):
        gallery(out / "gallery")


def _on_init(app: Any) -> None:
    generate(Path(app.srcdir) / "generated")


def setup(app: Any) -> dict[str, Any]:
    import api_reference

    app.connect("builder-inited", _on_init)
    api_reference.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    generate(Path(sys.argv[1]))
