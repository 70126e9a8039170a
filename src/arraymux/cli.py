"""The ``arraymux`` command line: ``arraymux info``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

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
            "autodiff": spec.autodiff or "-",
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


def _table(rows: list[dict[str, str]]) -> str:
    cols = list(rows[0])
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in cols}
    lines = ["  ".join(c.ljust(widths[c]) for c in cols)]
    lines.append("  ".join("-" * widths[c] for c in cols))
    lines += ["  ".join(r[c].ljust(widths[c]) for c in cols) for r in rows]
    return "\n".join(lines)


def _cmd_info(args: argparse.Namespace) -> int:
    import arraymux

    from ._devices import get_default_device

    print(f"arraymux {arraymux.__version__} (Array API {arraymux.__array_api_version__})")
    print(f"default device: {get_default_device()}")
    print()
    print(_table(_info_rows()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arraymux",
        description="One Array API namespace over NumPy, PyTorch, JAX, CuPy, "
        "Dask and array-api-strict.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="backends, versions, devices and capabilities")
    info.set_defaults(func=_cmd_info)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
