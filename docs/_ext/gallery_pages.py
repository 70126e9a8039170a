"""The gallery: a page per program of ``docs/examples/``.

Each page holds the program's explanation (its docstring, rst), its figure, a link to download
it, a table of its run times per device (a cold start apart from the median of warm runs,
``benchmarks/gallery_times.py``) for every CPU device of the machine that builds the site and
for the GPU devices of the runs recorded in ``benchmarks/results/gallery-*.json``
(``benchmarks/record_gpu_docs.py``), what it printed, and its source.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
EXAMPLES = DOCS / "examples"
RESULTS = ROOT / "benchmarks" / "results"


def _times_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gallery_times", ROOT / "benchmarks" / "gallery_times.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def cpu_devices() -> list[str]:
    """The CPU devices of this machine (array-api-strict's simulated ones left out)."""
    import arraymux

    return [
        str(d)
        for d in arraymux.devices()
        if not d.simulated
        and (d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu"))
    ]


def doc_parts(path: Path) -> tuple[str, str]:
    """The program's title (its docstring's first line) and the rest of its docstring."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or path.stem
    title, _, rest = doc.partition("\n")
    return title.strip().rstrip("."), textwrap.dedent(rest).strip()


def seconds(t: float) -> str:
    """``t`` seconds in the unit that reads best, µs, ms or s (a no-break space before it)."""
    if t < 1e-3:
        text = f"{t * 1e6:.0f} µs"
    elif t < 1:
        text = f"{t * 1e3:.1f} ms" if t < 0.1 else f"{t * 1e3:.0f} ms"
    else:
        text = f"{t:.2f} s" if t < 10 else f"{t:.1f} s"
    return text.replace(" ", "\u00a0")


def run_cpu(out: Path) -> None:
    """Run every program on every CPU device into ``times-cpu.json`` (and its figure)."""
    import platform

    times = _times_module()
    devices = cpu_devices()
    out.mkdir(parents=True, exist_ok=True)  # the programs save their figures here
    rows: list[dict[str, Any]] = []
    for name in times.programs():
        figure = out / f"{name}.png"
        mine = times.run_program(name, devices, plot=figure)
        if not figure.exists():
            first = next((r for r in mine if "skipped" not in r), {})
            raise RuntimeError(
                f"gallery: {name} drew no figure on {first.get('device')}: {first.get('error')}"
            )
        rows += mine
    record = {
        "benchmark": "gallery",
        "machine": {
            "where": "this build",
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "rows": rows,
    }
    _write(out / "times-cpu.json", json.dumps(record, indent=1))


def _records(out: Path) -> list[dict[str, Any]]:
    records = [json.loads((out / "times-cpu.json").read_text())]
    for path in sorted(RESULTS.glob("gallery-*.json")):
        records.append(json.loads(path.read_text()) | {"file": path.name})
    return records


def _where(record: dict[str, Any]) -> str:
    m = record.get("machine", {})
    if m.get("where"):
        return "this build"
    date = f", {record['date']}" if record.get("date") else ""
    return f"{m.get('gpu', 'GPU machine')}{date}"


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("`", "'")


def _refusal(error: str) -> str:
    """``"arraymux.X: f: what. What to do."`` as ``X``: its first sentence (it wraps)."""
    kind, _, message = error.partition(": ")
    first = message.split(". ")[0].rstrip(".")
    return f"refused, `{kind.rsplit('.', 1)[-1]}`: {_cell(first)}."


def _table(name: str, records: list[dict[str, Any]]) -> list[str]:
    where = len(records) > 1  # a column for the machine once GPU records join the build's
    head = "| device |" + (" measured on |" if where else "")
    lines = [
        head + " cold start | warm run, median | result |",
        "|---|" + ("---|" if where else "") + "---:|---:|---|",
    ]
    for record in records:
        machine = f" {_where(record)} |" if where else ""
        for r in record["rows"]:
            if r["program"] != name:
                continue
            device = f"| `{r['device']}` |{machine}"
            if "skipped" in r:
                lines.append(f"{device} | | not run: {r['skipped']} |")
            elif "error" in r:
                lines.append(f"{device} | | {_refusal(r['error'])} |")
            else:
                last = (r["output"].strip().splitlines() or [""])[-1]
                warm = f"{seconds(r['median_s'])} ({len(r['warm_s'])}\u00a0runs)"
                lines.append(f"{device} {seconds(r['cold_s'])} | {warm} | `{_cell(last[:100])}` |")
    return lines


def pages(out: Path) -> None:
    """The gallery's pages, from ``times-cpu.json`` and the recorded GPU runs."""
    records = _records(out)
    gpu = len(records) > 1
    cards = []
    for script in sorted(EXAMPLES.glob("*.py")):
        if script.stem.startswith("_"):
            continue
        name = script.stem
        title, text = doc_parts(script)
        figure = out / f"{name}.png"
        cpu_rows = [r for r in records[0]["rows"] if r["program"] == name and "output" in r]
        page = [f"# {title}", "", "```{eval-rst}", text, "```", ""]
        if figure.exists():
            page += [
                f"```{{image}} {figure.name}",
                f":alt: {title}: the figure the program draws",
                ":class: arraymux-figure",
                "```",
                "",
            ]
        page += [
            f"{{download}}`Download {name}.py <../../examples/{name}.py>` and run it on any "
            f"device: `python {name}.py --device torch:cpu --plot {name}.png`.",
            "",
            "## Run time per device",
            "",
            "Each device runs the program in a process of its own: the **cold start** is its "
            "first run there, which imports the backend and compiles; the **warm run** is the "
            "median of the runs after it (2 or 3). CPU rows are measured while this site is "
            f"built, on {records[0]['machine'].get('cpus', '?')} CPU cores shared with the rest "
            "of the build (the conformance report runs beside the programs), so they vary by "
            "some tens of per cent between builds; they compare devices, not libraries "
            "(`benchmarks/` does that).",
            "",
            *_table(name, records),
            "",
        ]
        if not gpu:
            page += [
                "No GPU run is recorded yet: `python benchmarks/record_gpu_docs.py` on a "
                "machine with GPUs writes `benchmarks/results/gallery-gpu.json`, whose rows "
                "the next build adds here.",
                "",
            ]
        elif not any(r["program"] == name for rec in records[1:] for r in rec["rows"]):
            page += [
                "No GPU run of this program is recorded yet: `python "
                "benchmarks/record_gpu_docs.py --only gallery` on a machine with GPUs records "
                "every program's.",
                "",
            ]
        if cpu_rows:
            page += [
                "## Output",
                "",
                f"On `{cpu_rows[0]['device']}`:",
                "",
                "```text",
                cpu_rows[0]["output"].strip(),
                "```",
                "",
            ]
        page += [
            "## Source",
            "",
            f"```{{literalinclude}} ../../examples/{name}.py",
            ":language: python",
            "```",
            "",
        ]
        _write(out / f"{name}.md", "\n".join(page))
        summary = " ".join(text.split("\n\n")[0].split())
        cards.append((name, title, figure.exists(), summary))
    index = [
        "# Gallery",
        "",
        "Programs written once against `arraymux`, each run on every CPU device while this site",
        "was built (and on GPUs, from a recorded run). Each page has the program's figure, its",
        "run times per device, what it printed, its source and a download link; every program",
        "takes `--device` (and `--plot FILE` for its figure).",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        ":hidden:",
        "",
        *[name for name, *_ in cards],
        "```",
        "",
    ]
    for name, title, has_fig, summary in cards:
        index += [f"## [{title}]({name}.md)", ""]
        if has_fig:
            index += [
                f"```{{image}} {name}.png",
                f":alt: {title}",
                ":width: 480px",
                f":target: {name}.html",
                "```",
                "",
            ]
        index += ["```{eval-rst}", summary, "```", ""]
    _write(out / "index.md", "\n".join(index))


def gallery(out: Path, reuse: bool = False) -> None:
    """Run the programs (unless ``reuse`` and a run exists), then write the pages."""
    if not (reuse and (out / "times-cpu.json").exists()):
        run_cpu(out)
    pages(out)


if __name__ == "__main__":
    gallery(Path(sys.argv[1]))
