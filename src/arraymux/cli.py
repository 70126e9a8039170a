"""The ``arraymux`` command line: ``arraymux info`` and ``arraymux conformance``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

__all__ = ["main"]


def _info_rows() -> list[dict[str, str]]:
    from ._backends import get_backend, is_installed, specs
    from ._devices import devices
    from ._dtypes import complex64, float64

    rows = []
    for spec in specs():
        row = {
            "backend": spec.name,
            "installed": "no",
            "version": "-",
            "devices": "-",
            "float64": "-",
            "complex": "-",
            "autodiff": f"{spec.autodiff} (bridged)" if spec.bridged else spec.autodiff or "-",
            "jit": spec.jit or "-",
            "dlpack": "-",
        }
        if not is_installed(spec.name):
            row["devices"] = spec.install_hint
            rows.append(row)
            continue
        try:
            backend = get_backend(spec.name)
            devs = devices(spec.name)
        except Exception as e:  # a broken install is reported, not fatal
            row["installed"] = f"broken ({type(e).__name__})"
            rows.append(row)
            continue
        first = devs[0] if devs else None
        row.update(
            installed="yes",
            version=backend.version(),
            devices=", ".join(str(d) for d in devs) or "none",
            float64="yes" if first is not None and first.supports(float64) else "no",
            complex="yes" if first is not None and first.supports(complex64) else "no",
            dlpack="yes" if hasattr(backend.ns, "from_dlpack") else "no",
        )
        rows.append(row)
    return rows


def print_info(
    stream: TextIO | None = None, terminal: bool | None = None, width: int | None = None
) -> None:
    """Print what ``arraymux info`` shows to ``stream`` (stdout): a table that fits the
    terminal's width, or plain text where ``stream`` is not a terminal (``terminal`` and
    ``width`` force either, for tests and previews)."""
    import arraymux

    from ._console import console, emit, table
    from ._devices import get_default_device

    out = console(sys.stdout if stream is None else stream, terminal, width)
    styled = out.is_terminal
    out.print(f"arraymux {arraymux.__version__} (Array API {arraymux.__array_api_version__})")
    out.print(f"default device: {get_default_device()}")
    out.print()
    rows = _info_rows()
    if styled:  # one device a line: array-api-strict's five would not fit on one
        for r in rows:
            r["devices"] = r["devices"].replace(", ", "\n")
    wrap = ("devices", "autodiff", "jit")
    header = list(rows[0])
    if styled and out.width < 150:  # two narrower tables: capabilities, then devices
        parts = [[c for c in header if c not in wrap], ["backend", *wrap]]
    else:
        parts = [header]
    for i, cols in enumerate(parts):
        if i:
            out.print()
        emit(out, table(cols, [[r[c] for c in cols] for r in rows], styled, wrap=wrap))


def _cmd_info(args: argparse.Namespace) -> int:
    print_info()
    return 0


def _default_conformance_devices() -> list[str]:
    """The embedded default: NumPy, plus array-api-strict when it is installed."""
    from ._backends import is_installed

    out = ["numpy:cpu"]
    if is_installed("array_api_strict"):
        out.append("array_api_strict:CPU_DEVICE")
    return out


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _cmd_conformance(args: argparse.Namespace) -> int:
    from ._devices import Device
    from .testing._conformance import PROPERTIES, functions
    from .testing._report import print_report, render, run_report

    if args.devices == "all":
        from ._devices import devices as all_devices

        devs = [str(d) for d in all_devices() if not d.simulated]
    else:
        devs = _split(args.devices) or _default_conformance_devices()
        try:
            devs = [str(Device(d)) for d in devs]
        except Exception as e:
            print(f"arraymux conformance: {e}", file=sys.stderr)
            return 2
    names = _split(args.functions) or functions()
    unknown = [n for n in names if n not in PROPERTIES]
    if unknown:
        print(
            f"arraymux conformance: unknown functions {', '.join(unknown)}; "
            "names are the standard's, e.g. add, linalg.inv, fft.fft.",
            file=sys.stderr,
        )
        return 2
    results = run_report(devs, names, args.max_examples)
    if args.format == "table" and sys.stdout.isatty():
        from ._console import console

        print_report(results, console(sys.stdout))
    else:
        print(render(results, args.format))
    return 1 if any(r.unexpected for r in results) else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arraymux",
        description="One Array API namespace over NumPy, PyTorch, JAX, CuPy, "
        "Dask and array-api-strict.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="backends, versions, devices and capabilities")
    info.set_defaults(func=_cmd_info)
    conf = sub.add_parser(
        "conformance",
        help="check every function of the standard on some devices (a function x device report)",
        description="Run the conformance properties (result shapes, dtypes, special cases, "
        "values against NumPy) and print a function x device matrix: pass, FAIL with the first "
        "counterexample, xfail (a known deviation) or n/a (not provided by the backend). Exits "
        "with status 1 on an unexpected failure.",
    )
    conf.add_argument(
        "--devices",
        help="comma-separated devices, or 'all' (default: numpy, and array_api_strict when "
        "installed)",
    )
    conf.add_argument("--functions", help="comma-separated function names (default: all)")
    conf.add_argument(
        "--max-examples", type=int, default=10, help="hypothesis examples per check (default 10)"
    )
    conf.add_argument("--format", choices=["table", "markdown", "json"], default="table")
    conf.set_defaults(func=_cmd_conformance)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
