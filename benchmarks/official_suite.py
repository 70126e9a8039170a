"""Run the Array API consortium's test suite (data-apis/array-api-tests) against arraymux.

Give it a checkout of the suite (with its ``array-api`` submodule, which holds the standard's
signatures); it never downloads or copies the suite. For each device it runs the suite once
against ``arraymux`` with that device as the default (``ARRAYMUX_DEVICE``), and, with
``--native``, once against the namespace arraymux wraps there, then prints the table of
docs/conformance.md and writes the details (every failing test, the slowest tests and where
the time went) as JSON.

    python benchmarks/official_suite.py --suite ../array-api-tests \\
        --devices numpy,torch:cpu,jax:cpu --max-examples 10 --seed 0 --workers 4 \\
        --json official.json

``--x64`` runs JAX devices with 64-bit mode on (``JAX_ENABLE_X64=1``). pytest-xdist runs the
tests in ``--workers`` processes when it is installed. A run that exceeds ``--timeout``
seconds is stopped and reported with the tests that finished by then.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# The namespace each backend's arrays use when arraymux is not in between.
NATIVE = {
    "numpy": "array_api_compat.numpy",
    "torch": "array_api_compat.torch",
    "jax": "jax.numpy",
    "cupy": "array_api_compat.cupy",
    "dask": "array_api_compat.dask.array",
    "array_api_strict": "array_api_strict",
}


@dataclass
class Run:
    module: str
    device: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    seconds: float = 0.0
    timed_out: bool = False
    failures: list[str] = field(default_factory=list)
    slowest: list[tuple[str, float]] = field(default_factory=list)
    seconds_per_file: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.errors


def run_one(suite: Path, module: str, device: str, args: argparse.Namespace) -> Run:
    """One run of the suite against ``module`` (``device`` is arraymux's default device, or
    "" for a backend's own namespace)."""
    env = dict(os.environ)
    env.update(
        ARRAY_API_TESTS_MODULE=module,
        ARRAY_API_TESTS_VERSION=args.version,
        PYTHONHASHSEED="0",
    )
    env.pop("ARRAY_API_TESTS_SKIP_DTYPES", None)
    if device:
        env["ARRAYMUX_DEVICE"] = device
    if args.x64:
        env["JAX_ENABLE_X64"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "array_api_tests",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:arraymux",  # arraymux's own plugin stays out of the suite's run
            "--max-examples",
            str(args.max_examples),
            "--disable-deadline",
            f"--hypothesis-seed={args.seed}",
            "-v",  # one line per test: what a run stopped at the time limit still reports
            f"--junitxml={report}",
            "-o",
            "junit_duration_report=call",
        ]
        if args.workers > 1 and importlib.util.find_spec("xdist") is not None:
            cmd += ["-n", str(args.workers)]
        log = Path(tmp) / "pytest.log"
        t0 = time.perf_counter()
        timed_out = False
        with log.open("w") as out:
            try:
                subprocess.run(
                    cmd,
                    cwd=suite,
                    env=env,
                    timeout=args.timeout,
                    stdout=None if args.verbose else out,
                    stderr=subprocess.STDOUT if not args.verbose else None,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                timed_out = True
        run = Run(module, device or "—", seconds=time.perf_counter() - t0, timed_out=timed_out)
        if report.exists():
            _read_junit(report, run)
        elif log.exists():
            _read_log(log.read_text(), run)
        if run.total == 0 and not timed_out:
            tail = log.read_text()[-3000:] if log.exists() else ""
            raise SystemExit(f"no test ran against {module} {device}; pytest said:\n{tail}")
    return run


def _read_junit(path: Path, run: Run) -> None:
    per_file: dict[str, float] = collections.defaultdict(float)
    times = []
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        took = float(case.get("time") or 0.0)
        times.append((name, took))
        per_file[case.get("classname") or "?"] += took
        kinds = {child.tag for child in case}
        if "skipped" in kinds:
            run.skipped += 1
        elif "failure" in kinds:
            run.failed += 1
            run.failures.append(name)
        elif "error" in kinds:
            run.errors += 1
            run.failures.append(name)
        else:
            run.passed += 1
    run.slowest = sorted(times, key=lambda t: -t[1])[:10]
    run.seconds_per_file = dict(sorted(per_file.items(), key=lambda kv: -kv[1]))


_OUTCOME = re.compile(r"\b(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b")
_TEST = re.compile(r"(array_api_tests/\S+::\S+)")


def _read_log(text: str, run: Run) -> None:
    """The outcomes in pytest's ``-v`` output (with or without xdist), for a run stopped
    before it wrote its report."""
    for line in text.splitlines():
        outcome, test = _OUTCOME.search(line), _TEST.search(line)
        if not (outcome and test):
            continue
        kind = outcome.group(1)
        if kind == "SKIPPED":
            run.skipped += 1
        elif kind in ("FAILED", "ERROR"):
            run.failed += kind == "FAILED"
            run.errors += kind == "ERROR"
            run.failures.append(test.group(1))
        else:
            run.passed += 1


def table(runs: list[Run], args: argparse.Namespace) -> str:
    lines = [
        "| module | device | passed | failed | skipped | errors | share passed | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        share = f"{100 * r.passed / r.total:.2f} %" if r.total else "—"
        late = " (stopped at the time limit)" if r.timed_out else ""
        lines.append(
            f"| `{r.module}` | `{r.device}` | {r.passed} | {r.failed} | {r.skipped} | "
            f"{r.errors} | {share} | {r.seconds:.0f}{late} |"
        )
    head = (
        f"standard {args.version}, {args.max_examples} examples per test, hypothesis seed "
        f"{args.seed}{', JAX_ENABLE_X64=1' if args.x64 else ''}, no skips file"
    )
    return head + "\n\n" + "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, type=Path, help="checkout of array-api-tests")
    parser.add_argument("--devices", default="numpy,torch:cpu,jax:cpu")
    parser.add_argument("--max-examples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--version", default="2025.12")
    parser.add_argument("--workers", type=int, default=1, help="pytest-xdist processes")
    parser.add_argument("--x64", action="store_true", help="JAX with 64-bit mode on")
    parser.add_argument("--native", action="store_true", help="also the backends' namespaces")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per run")
    parser.add_argument("--json", type=Path, help="write the details here")
    parser.add_argument("--verbose", action="store_true", help="show pytest's output")
    args = parser.parse_args(argv)
    suite = args.suite.resolve()
    if not (suite / "array_api_tests").is_dir():
        parser.error(f"{suite} is not a checkout of data-apis/array-api-tests")
    if not any((suite / "array-api").glob("spec/*")):
        parser.error(
            f"{suite}/array-api is empty: the suite needs its submodule "
            "(git submodule update --init)"
        )
    runs: list[Run] = []
    for device in [d.strip() for d in args.devices.split(",") if d.strip()]:
        print(f"arraymux on {device} ...", file=sys.stderr, flush=True)
        runs.append(run_one(suite, "arraymux", device, args))
        backend = device.split(":", 1)[0]
        if args.native and backend in NATIVE:
            print(f"{NATIVE[backend]} ...", file=sys.stderr, flush=True)
            runs.append(run_one(suite, NATIVE[backend], "", args))
    print(table(runs, args))
    for r in runs:
        if r.failures:
            print(f"\nfailing on {r.module} {r.device}:")
            for name in r.failures:
                print(f"  {name}")
    if args.json:
        details: dict[str, Any] = {
            "settings": {k: str(v) for k, v in vars(args).items()},
            "runs": [asdict(r) for r in runs],
        }
        args.json.write_text(json.dumps(details, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
