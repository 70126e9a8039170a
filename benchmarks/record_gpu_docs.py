"""Record the documentation's GPU rows on a machine with GPUs.

The site is built on a CPU machine; this script, run on a GPU machine from a checkout, records
what the pages show for its GPUs:

- ``benchmarks/results/conformance-gpu.json``: ``arraymux conformance`` (5 examples per
  property, as the build runs it on the CPUs) on the first GPU of each backend, for the
  conformance page's summary and grid;
- ``benchmarks/results/gallery-gpu.json``: every gallery program on those GPUs
  (``gallery_times.py``: a cold start, then the median of warm runs), for the run-time tables.

Each file records the machine (GPU, cores, versions) and the date; commit them, and the next
build of the site shows their rows. Run::

    python benchmarks/record_gpu_docs.py                     # every GPU backend present
    python benchmarks/record_gpu_docs.py --devices torch:cuda,jax:gpu --only gallery
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))


def gpu_devices() -> list[str]:
    """The first GPU of each backend that has one here."""
    import arraymux

    first: dict[str, str] = {}
    for d in arraymux.devices():
        cpu = d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu")
        if not cpu and not d.simulated:
            first.setdefault(d.backend, str(d))
    return list(first.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", help="comma-separated GPU devices (default: one per backend)")
    parser.add_argument("--only", choices=["conformance", "gallery"], help="record one of the two")
    parser.add_argument("--out", default=str(RESULTS), help="folder of the JSON files")
    args = parser.parse_args()
    devices = args.devices.split(",") if args.devices else gpu_devices()
    if not devices:
        raise SystemExit("record_gpu_docs: no GPU device here (arraymux.devices() lists none).")
    import torch  # noqa: F401  (so that the machine record names the GPU)
    from _record import machine, write_json
    from arraymux_docs import conformance_command

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    date = time.strftime("%Y-%m-%d")
    if args.only in (None, "conformance"):
        res = subprocess.run(
            conformance_command(devices),
            capture_output=True,
            text=True,
        )
        if res.returncode not in (0, 1):
            raise SystemExit(f"record_gpu_docs: the conformance run failed:\n{res.stderr[-3000:]}")
        data = json.loads(res.stdout) | {"machine": machine(), "date": date}
        (out / "conformance-gpu.json").write_text(json.dumps(data, indent=1))
        print(f"wrote {out / 'conformance-gpu.json'}: {data['summary']}")
    if args.only in (None, "gallery"):
        from gallery_times import programs, run_program

        rows = [r for name in programs() for r in run_program(name, devices)]
        write_json(str(out / "gallery-gpu.json"), "gallery", rows, date=date)
        print(f"wrote {out / 'gallery-gpu.json'}: {len(rows)} rows")


if __name__ == "__main__":
    main()
