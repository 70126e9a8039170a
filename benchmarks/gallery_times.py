"""Run the gallery's programs (``docs/examples/*.py``) on devices and time them.

Each program runs on each device in a process of its own: first a **cold** run (importing
the device's backend, compiling, filling its caches), then **warm** runs in the same process
(3, fewer once they have taken 20 s; at least 2), of which the page shows the median. What
the first run prints is kept as the program's output; one more, untimed run on the first
device saves the figure with ``--plot``. The documentation build runs it on the CPU devices
of the building machine; on a machine with GPUs, ``benchmarks/record_gpu_docs.py`` runs it on
the GPU devices and records the rows in ``benchmarks/results/gallery-gpu.json``, which the
gallery's pages read.

Run::

    python benchmarks/gallery_times.py --devices torch:cpu,jax:cpu --json times.json
    python benchmarks/gallery_times.py --programs kmeans --devices numpy --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"

#: Programs that run only on some backends, and why (the pages say so for the others).
ONLY_ON: dict[str, tuple[tuple[str, ...], str]] = {
    "torch_model_jax_physics": (
        ("torch", "jax"),
        "a network held by torch (or JAX) trained through a JAX simulator, by design",
    ),
    "conjugate_gradient": (
        ("numpy", "torch", "jax", "cupy", "array_api_strict"),
        "an iterative solver reads a number back each iteration, and each read recomputes "
        "Dask's growing graph",
    ),
}
#: Seconds one program may take on one device (all its runs) before it is stopped.
LIMIT = 180
#: Warm runs: at most RUNS, fewer once they have taken WARM_BUDGET seconds, at least 2.
RUNS = 3
WARM_BUDGET = 20.0

_CHILD = r"""
import contextlib, importlib.util, io, json, signal, statistics, sys, time, traceback, warnings
warnings.simplefilter("ignore")
path, devices, plot, limit, runs, budget = sys.argv[1:7]
devices, limit, runs, budget = devices.split(","), int(limit), int(runs), float(budget)

def too_slow(*_):
    raise TimeoutError(f"did not finish in {limit} s")

signal.signal(signal.SIGALRM, too_slow)
spec = importlib.util.spec_from_file_location("example", path)
mod = importlib.util.module_from_spec(spec)
sys.modules["example"] = mod
spec.loader.exec_module(mod)

def once(argv):
    sys.argv = argv
    out = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out):
        mod.main()
    return time.perf_counter() - t0, out.getvalue()

for i, d in enumerate(devices):
    argv = [path, "--device", d]
    row = {"device": d}
    signal.alarm(limit)
    try:
        row["cold_s"], row["output"] = once(argv)
        warm = []
        while len(warm) < runs and (len(warm) < 2 or sum(warm) < budget):
            warm.append(once(argv)[0])
        row["warm_s"] = warm
        row["median_s"] = statistics.median(warm)
        if i == 0 and plot != "-":
            once(argv + ["--plot", plot])  # the figure, untimed
    except BaseException as e:
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        row["error"] = last[:400]
    finally:
        signal.alarm(0)
    print(json.dumps(row), flush=True)
"""


def programs() -> list[str]:
    return sorted(p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("_"))


def backend_of(device: str) -> str:
    return device.split(":")[0]


def run_program(
    name: str, devices: list[str], plot: Path | None = None, runs: int = RUNS
) -> list[dict[str, Any]]:
    """The rows of ``name`` on ``devices`` (those its ``ONLY_ON`` entry allows)."""
    allowed, why = ONLY_ON.get(name, (None, ""))
    mine = [d for d in devices if allowed is None or backend_of(d) in allowed]
    rows: list[dict[str, Any]] = []
    for i, device in enumerate(mine):
        # A process per device: its cold start imports the backend and compiles, whatever
        # the devices before it loaded.
        res = subprocess.run(
            [
                sys.executable,
                "-c",
                _CHILD,
                str(EXAMPLES / f"{name}.py"),
                device,
                str(plot) if plot and i == 0 else "-",
                str(LIMIT),
                str(runs),
                str(WARM_BUDGET),
            ],
            capture_output=True,
            text=True,
            timeout=LIMIT + 60,
            cwd=str(EXAMPLES),
            env=os.environ | {"MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"},
        )
        found = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
        if res.returncode != 0 or len(found) != 1:
            raise RuntimeError(f"gallery: {name} on {device} failed:\n{res.stderr[-3000:]}")
        rows += found
    rows += [{"device": d, "skipped": why} for d in devices if d not in mine]
    for r in rows:
        r["program"] = name
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", help="comma-separated names (default: every program)")
    parser.add_argument("--devices", required=True, help="comma-separated device names")
    parser.add_argument("--runs", type=int, default=RUNS, help="warm runs per device, at most")
    parser.add_argument("--json", help="write the rows, with the machine, to this file")
    args = parser.parse_args()
    names = args.programs.split(",") if args.programs else programs()
    devices = args.devices.split(",")
    rows = []
    for name in names:
        for r in run_program(name, devices, runs=args.runs):
            rows.append(r)
            if "median_s" in r:
                print(
                    f"{name:26s} {r['device']:20s} cold {r['cold_s']:7.2f} s   "
                    f"warm {r['median_s']:7.3f} s (median of {len(r['warm_s'])})"
                )
            else:
                print(f"{name:26s} {r['device']:20s} {r.get('error') or r.get('skipped')}")
    if args.json:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _record import write_json

        write_json(args.json, "gallery", rows, date=time.strftime("%Y-%m-%d"))


if __name__ == "__main__":
    main()
