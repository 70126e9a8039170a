"""Client libraries on arraymux arrays against the same backend's native arrays: the table.

Runs every call of ``tests/clients/test_clients.py`` (SciPy, scikit-learn, array-api-extra) on
each device twice, once on the backend's native arrays and once on arraymux arrays of the
same values, and reports per device: how many calls work on each, how many give a value
other than NumPy's, how many return their result on another device, and the time of each
call on arraymux arrays over its time on native arrays (alternating rounds, a wait for the
result after each batch). The goals: arraymux works wherever native works,
keeps every result on the input's device, and stays within 1.2x of native time.

Usage::

    python benchmarks/bench_clients.py [--devices numpy,torch:cpu] [--size 10000] [--quick]
    python benchmarks/bench_clients.py --calls scipy.special.erf,xpx.cov --json clients.json
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # read by SciPy when it is first imported

import numpy as np

import arraymux as xp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "clients"))

from _timing import fmt, paired, set_rounds  # noqa: E402

# The calls, and how the tests call them and read their results: written once for both.
from test_clients import CASES  # noqa: E402
from test_clients import _call as call  # noqa: E402
from test_clients import _host as to_host  # noqa: E402

# The goal: arraymux arrays within this factor of native arrays' time.
GOAL = 1.2


def inputs(device: xp.Device, size: int, native: bool) -> list[Any]:
    """The five operands of a call (``a``, ``b``: ``size`` positive floats; ``m``: a matrix of
    up to 512 rows and 3 columns; labels and predictions in {0, 1, 2}) in the device's default
    float and integer dtypes, as arraymux arrays or as the backend's own."""
    rng = np.random.default_rng(0)
    rows = max(4, min(size, 512))
    host = [rng.random(size) + 0.1, rng.random(size) + 0.1, rng.random((rows, 3))]
    labels = [rng.integers(0, 3, max(size, 12)) for _ in range(2)]
    defaults = xp.__array_namespace_info__().default_dtypes(device=device)
    out = [xp.asarray(v, dtype=defaults["real floating"], device=device) for v in host]
    out += [xp.asarray(v, dtype=defaults["integral"], device=device) for v in labels]
    return [x.native for x in out] if native else out


def waiter(device: xp.Device) -> Callable[[Any], Any]:
    """Wait for a result: its arrays where it has any (JAX tracks work per array), else the
    device."""

    def wait(out: Any) -> Any:
        arrays = [o for o in (out if isinstance(out, tuple | list) else [out]) if _is_array(o)]
        return xp.synchronize(*arrays) if arrays else xp.synchronize(device)

    return wait


def _is_array(o: Any) -> bool:
    return isinstance(o, xp.Array) or (
        hasattr(o, "__dlpack__") and not isinstance(o, np.ndarray | np.generic)
    )


def measure(device: xp.Device, name: str, size: int, budget: float) -> dict[str, Any]:
    """One row: whether ``name`` works on native and on arraymux arrays of ``device``, whether
    arraymux's value is NumPy's and on ``device``, and both times where both work."""
    narrowing = not device.supports(xp.float64)
    ours_in, native_in = inputs(device, size, False), inputs(device, size, True)
    ref = np.asarray(call(name, [to_host(x) for x in native_in], False))
    row: dict[str, Any] = {"device": str(device), "call": name}
    try:
        call(name, native_in, narrowing)
        row["native"] = "works"
    except Exception as e:
        row["native"] = f"{type(e).__name__}: {e}"[:160]
    try:
        out = call(name, ours_in, narrowing)
    except Exception as e:
        row["arraymux"] = f"{type(e).__name__}: {e}"[:160]
        return row
    row["arraymux"] = "works"
    got = to_host(out)
    defaults = xp.__array_namespace_info__().default_dtypes(device=device)
    single = defaults["real floating"] is xp.float32 or got.dtype in (np.float32, np.complex64)
    tol = 1e-4 if single else 1e-9
    row["same_value"] = bool(np.allclose(got, ref.astype(got.dtype), rtol=tol, atol=tol))
    row["on_device"] = not isinstance(out, xp.Array) or out.device == device
    if row["native"] == "works":
        wait = waiter(device)
        t_native, t_ours, spread = paired(
            lambda: call(name, native_in, narrowing),
            lambda: call(name, ours_in, narrowing),
            wait,
            budget,
        )
        row.update(native_s=t_native, arraymux_s=t_ours, ratio_quartiles=spread)
    return row


def summary(rows: list[dict[str, Any]]) -> str:
    """The per-device table: calls that work on each side, wrong values, results moved, and
    the ratios of time."""
    lines = [
        "| device | native arrays: work | arraymux arrays: work | works only natively "
        "| value differs | result off the device | median ratio | over 1.2x |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for device in dict.fromkeys(r["device"] for r in rows):
        mine = [r for r in rows if r["device"] == device]
        ratios = [r["ratio_quartiles"][1] for r in mine if "ratio_quartiles" in r]
        only_native = [
            r["call"] for r in mine if r["native"] == "works" and r["arraymux"] != "works"
        ]
        slow = [r["call"] for r in mine if r.get("ratio_quartiles", (0, 0))[1] > GOAL]
        lines.append(
            f"| {device} | {sum(r['native'] == 'works' for r in mine)} "
            f"| {sum(r['arraymux'] == 'works' for r in mine)} | {len(only_native)} "
            f"| {sum(r.get('same_value') is False for r in mine)} "
            f"| {sum(r.get('on_device') is False for r in mine)} "
            f"| {_median(ratios)} | {len(slow)} |"
        )
    return "\n".join(lines)


def _median(values: list[float]) -> str:
    return f"{float(np.median(values)):.2f}x" if values else "-"


def details(rows: list[dict[str, Any]]) -> str:
    """Every call where arraymux falls short: works only natively, differs, leaves the
    device, or is slower than the goal."""
    out = []
    for r in rows:
        where = f"{r['call']} on {r['device']}"
        if r["native"] == "works" and r["arraymux"] != "works":
            out.append(f"- {where}: works natively, arraymux: {r['arraymux']}")
        if r.get("same_value") is False:
            out.append(f"- {where}: a value other than NumPy's")
        if r.get("on_device") is False:
            out.append(f"- {where}: the result is not on {r['device']}")
        q = r.get("ratio_quartiles")
        if q is not None and q[1] > GOAL:
            out.append(
                f"- {where}: {q[1]:.2f}x [{q[0]:.2f}-{q[2]:.2f}] "
                f"({fmt(r['arraymux_s'])} against {fmt(r['native_s'])})"
            )
    return "\n".join(out) if out else "(none)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", help="comma-separated devices (default: every one present)")
    parser.add_argument("--calls", help="comma-separated calls (default: every one)")
    parser.add_argument("--size", type=int, default=10_000, help="elements of the vectors")
    parser.add_argument("--quick", action="store_true", help="7 rounds of 0.1 s a call")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    if args.size < 12:
        parser.error("--size must be at least 12 (the calls slice their inputs)")
    devices = (
        [xp.Device(d) for d in args.devices.split(",")]
        if args.devices
        else [d for d in xp.devices() if not d.simulated]
    )
    names = args.calls.split(",") if args.calls else sorted(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown calls {unknown}; choose among {', '.join(sorted(CASES))}")
    set_rounds(7 if args.quick else 21)
    budget = 0.1 if args.quick else 0.5
    rows = []
    for device in devices:
        for k, name in enumerate(names):
            row = measure(device, name, args.size, budget)
            rows.append(row)
            q = row.get("ratio_quartiles")
            shown = (
                f"{q[1]:.2f}x" if q else f"native {row['native'][:40]}, ours {row['arraymux'][:40]}"
            )
            print(f"[{device} {k + 1}/{len(names)}] {name}: {shown}", file=sys.stderr, flush=True)
    print(f"## Client calls, arraymux arrays against native arrays ({args.size} elements)\n")
    print(
        "Ratio: a call's time on arraymux arrays over its time on the backend's own arrays, "
        "the median over alternating rounds.\n"
    )
    print(summary(rows))
    print(
        "\nShort of the goals (works natively only, another value, another device, over "
        f"{GOAL}x):\n"
    )
    print(details(rows))
    if args.json:
        from _record import write_json

        write_json(args.json, "clients", rows, size=args.size, goal=GOAL)


if __name__ == "__main__":
    main()
