"""The JSON that the benchmarks write with ``--json PATH``: the rows measured, and the machine
and versions they were measured with (what a plot drawn from them must say)."""

from __future__ import annotations

import json
import os
import platform
import sys
from importlib import metadata
from typing import Any

_PACKAGES = ("arraymux", "numpy", "torch", "jax", "cupy", "dask", "array-api-strict")


def machine() -> dict[str, Any]:
    """The processor, core count, GPU (when torch sees one) and package versions."""
    out: dict[str, Any] = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name(0)
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    out["versions"] = versions
    return out


def write_json(path: str, benchmark: str, rows: list[dict[str, Any]], **extra: Any) -> None:
    """Write ``rows`` of ``benchmark`` to ``path`` with the machine they were measured on."""
    record = {"benchmark": benchmark, "machine": machine(), **extra, "rows": rows}
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
