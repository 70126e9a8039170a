"""``import arraymux`` imports no backend."""

from __future__ import annotations

import subprocess
import sys

BACKEND_MODULES = ("numpy", "torch", "jax", "dask", "cupy", "array_api_strict", "array_api_compat")


def test_import_loads_no_backend():
    code = (
        "import sys, arraymux\n"
        "mods = " + repr(BACKEND_MODULES) + "\n"
        "loaded = [m for m in mods if m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "", f"import arraymux loaded: {out.stdout.strip()}"


def test_first_use_loads_only_that_backend():
    code = (
        "import sys, arraymux\n"
        "arraymux.asarray([1.0, 2.0], device='numpy')\n"
        "print(','.join(m for m in ('torch', 'jax', 'dask', 'array_api_strict') "
        "if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == ""
