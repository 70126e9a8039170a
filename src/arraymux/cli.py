"""The ``arraymux`` command line: ``arraymux info`` and ``arraymux conformance``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["main"]


def _distribution_version(distribution: str, module: str | None = None) -> str:
    """An installed distribution's version, read from its metadata (no import); where no
    distribution has that name, that of the one that installs ``module`` (CuPy comes as
    ``cupy-cuda12x``, ``cupy-cuda13x``, ``cupy-rocm-...``)."""
    from importlib.metadata import PackageNotFoundError, packages_distributions, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        pass
    for name in packages_distributions().get(module, []) if module else []:
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "?"


def _info_rows(probe: bool) -> tuple[list[dict[str, str]], list[str]]:
    """One row per backend, and the notes below the table (how to install a backend, why one
    failed to load). Versions come from package metadata and the transforms from the registry,
    without importing any backend; ``probe`` loads each installed backend to list its devices
    and what they hold (seconds: importing torch, JAX and Dask)."""
    from ._backends import get_backend, is_installed, specs

    rows, notes = [], []
    for spec in specs():
        row = {"backend": spec.name, "version": "not installed", "autodiff": "-", "jit": "-"}
        if probe:
            row.update({"float64": "-", "complex": "-", "dlpack": "-", "devices": "-"})
        rows.append(row)
        if not is_installed(spec.name):  # find_spec: no import
            notes.append(f"{spec.name} is not installed: {spec.install_hint}")
            continue
        autodiff = spec.autodiff or "-"
        row.update(
            version=_distribution_version(spec.distribution, spec.module),
            autodiff=f"{autodiff} (bridged)" if spec.bridged else autodiff,
            jit=spec.jit or "-",
        )
        if not probe:
            continue
        from ._devices import devices
        from ._dtypes import complex64, float64

        try:
            backend = get_backend(spec.name)
            devs = devices(spec.name)
        except Exception as e:  # a broken install is reported, not fatal
            row["devices"] = "broken"
            notes.append(f"{spec.name} failed to load: {type(e).__name__}: {e}")
            continue
        first = devs[0] if devs else None
        row.update(
            float64="yes" if first is not None and first.supports(float64) else "no",
            complex="yes" if first is not None and first.supports(complex64) else "no",
            dlpack="yes" if hasattr(backend.ns, "from_dlpack") else "no",
            devices=", ".join(str(d) for d in devs) or "none",
        )
    return rows, notes


def _default_device(probe: bool) -> str:
    """The default device of a new process: checked where ``probe`` (which loads its
    backend), else as the environment gives it."""
    import os

    from ._devices import EMBEDDED_DEFAULT, get_default_device

    given = os.environ.get("ARRAYMUX_DEVICE")
    source = " (from ARRAYMUX_DEVICE)" if given else ""
    if not probe:
        return f"{given or EMBEDDED_DEFAULT}{source}"
    try:
        return f"{get_default_device()}{source}"
    except Exception as e:
        return f"{given!r}{source} is not a device here: {e}"


_PROBE_HINT = "Devices and their dtypes: arraymux info --devices (imports each backend)."


def print_info(
    stream: TextIO | None = None,
    terminal: bool | None = None,
    width: int | None = None,
    probe: bool = False,
) -> None:
    """Print what ``arraymux info`` shows to ``stream`` (stdout): tables that fit the
    terminal's width, or plain text where ``stream`` is not a terminal (``terminal`` and
    ``width`` force either, for tests and previews). ``probe`` (``--devices``) loads every
    installed backend to list its devices and what they hold; without it no backend is
    imported."""
    import platform

    import arraymux

    from ._console import console, emit, fits, fitted_widths, table

    out = console(sys.stdout if stream is None else stream, terminal, width)
    styled = out.is_terminal
    python = f"{platform.python_implementation()} {platform.python_version()}"
    emit(out, f"arraymux {arraymux.__version__} (Array API {arraymux.__array_api_version__})")
    emit(out, f"{python} on {platform.system()} {platform.machine()}")
    emit(out, f"default device: {_default_device(probe)}")
    emit(out, "")
    rows, notes = _info_rows(probe)
    versions = ["backend", "version", "autodiff", "jit"]
    holds = ["float64", "complex", "dlpack"]

    def drawn(cols: list[str], wrap: tuple[str, ...] = ()) -> Table:
        t = table(cols, [[r[c] for c in cols] for r in rows], styled, wrap=wrap)
        widths = fitted_widths(out, t) if styled and wrap else None
        if widths is None:
            return t
        return table(cols, [[r[c] for c in cols] for r in rows], styled, wrap=wrap, widths=widths)

    if not probe:
        parts = [drawn(versions, wrap=("autodiff",))]
    elif not styled:  # one line per row: the devices one a line, in a table of their own
        listed = [
            [r["backend"], d] for r in rows if r["devices"] != "-" for d in r["devices"].split(", ")
        ]
        parts = [drawn(versions + holds), table(["backend", "device"], listed, styled)]
    else:  # one table where the terminal is wide enough, else the devices in a second one
        wrap = ("autodiff", "devices")
        parts = [drawn([*versions, *holds, "devices"], wrap)]
        if not fits(out, parts[0]):
            parts = [drawn(versions, wrap), drawn(["backend", *holds, "devices"], wrap)]
    for i, part in enumerate(parts):
        if i:
            emit(out, "")
        emit(out, part)
    if notes or not probe:
        emit(out, "")
    for note in notes:
        emit(out, note)
    if not probe:
        emit(out, _PROBE_HINT)


def _cmd_info(args: argparse.Namespace) -> int:
    print_info(probe=args.devices)
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
    info = sub.add_parser(
        "info",
        help="arraymux, Python and backend versions, the default device, transforms",
        description="Print the arraymux and Python versions, the default device, and for each "
        "backend its version (read from package metadata, without importing it) and the "
        "engines behind arraymux's transforms (autodiff, jit). Quick: no backend is imported "
        "unless --devices is given.",
    )
    info.add_argument(
        "--devices",
        action="store_true",
        help="also import each installed backend to list its devices and whether they hold "
        "float64 and complex arrays and take DLPack (seconds: torch, JAX and Dask load)",
    )
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
