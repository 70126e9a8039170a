"""What unsigned integers cost on torch, where arraymux computes uint16/32/64 through signed
kernels: the time of each function on uint arrays against the same function on int64 arrays of
the same shape, both through arraymux on the same device (and NumPy's uint64 for scale).

Run::

    python benchmarks/bench_unsigned.py                    # torch:cpu, 1k and 1M elements
    python benchmarks/bench_unsigned.py --device torch:cuda
    python benchmarks/bench_unsigned.py --json unsigned.json
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import arraymux as xp

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

OPS: dict[str, Callable[[Any, Any], Any]] = {
    "add": lambda a, b: a + b,
    "multiply": lambda a, b: a * b,
    "less": lambda a, b: a < b,
    "maximum": xp.maximum,
    "floor_divide": lambda a, b: a // b,
    "remainder": lambda a, b: a % b,
    "right_shift": lambda a, b: a >> (b & 7),
    "sum": lambda a, b: xp.sum(a),
    "max": lambda a, b: xp.max(a),
    "sort": lambda a, b: xp.sort(a),
    "where": lambda a, b: xp.where(a < b, a, b),
}


def _seconds(fn: Callable[[], Any], budget: float) -> float:
    def run() -> None:
        xp.synchronize(fn())

    run()
    n = max(1, int(0.02 / max(timeit.timeit(run, number=1), 1e-7)))
    rounds = max(3, int(budget / (n * max(timeit.timeit(run, number=1), 1e-7)) // 1))
    return min(timeit.repeat(run, number=n, repeat=min(rounds, 15))) / n


def measure(device: str, sizes: list[int], budget: float) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    rows = []
    for size in sizes:
        base = rng.integers(1, 2**15, size)
        arrays = {
            name: (
                xp.asarray(base.astype(dt), device=dev),
                xp.asarray(base[::-1].astype(dt), device=dev),
            )
            for name, dt, dev in (
                ("int64", "int64", device),
                ("uint16", "uint16", device),
                ("uint32", "uint32", device),
                ("uint64", "uint64", device),
                ("numpy uint64", "uint64", "numpy"),
            )
        }
        for op, fn in OPS.items():
            row: dict[str, Any] = {"op": op, "size": size}
            for name, (a, b) in arrays.items():
                row[name] = _seconds(functools.partial(fn, a, b), budget)
            rows.append(row)
    return rows


def _fmt(s: float) -> str:
    return f"{s * 1e6:.1f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="torch:cpu")
    parser.add_argument("--sizes", default="1000,1000000")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds per figure")
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    rows = measure(args.device, [int(s) for s in args.sizes.split(",")], args.budget)
    print(f"arraymux on {args.device}; time per call, and the ratio to int64")
    print("| op | size | int64 | uint16 | uint32 | uint64 | NumPy uint64 |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        cells = [f"{_fmt(r[n])} ({r[n] / r['int64']:.1f}x)" for n in ("uint16", "uint32", "uint64")]
        print(
            f"| {r['op']} | {r['size']:,} | {_fmt(r['int64'])} | {' | '.join(cells)} "
            f"| {_fmt(r['numpy uint64'])} |"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
