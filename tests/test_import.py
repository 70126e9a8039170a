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


# The layers of docs/architecture.md, bottom up: a module imports (at any depth of its code)
# only modules of its own layer or below.
_SRC = __import__("pathlib").Path(__file__).parents[1] / "src" / "arraymux"
_BOTTOM = {"_dtypes", "_errors", "_function_table", "_result_dtypes", "_signatures"}


def _imports(path):
    import ast

    tree = ast.parse(path.read_text())
    rel = path.relative_to(_SRC).with_suffix("").parts
    package = rel[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package)[: len(package) - (node.level - 1)]
            target = [*base, *(node.module.split(".") if node.module else [])]
            if node.module is None:  # from . import x, y
                out |= {".".join([*base, a.name]) for a in node.names}
            else:
                out.add(".".join(target))
        elif isinstance(node, ast.Import | ast.ImportFrom) and not getattr(node, "level", 0):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            out |= {n.split(".", 1)[1] for n in names if n and n.startswith("arraymux.")}
    return out


def test_backends_import_nothing_above_them():
    allowed = _BOTTOM | {"_backends"}
    for path in sorted((_SRC / "_backends").glob("*.py")):
        for mod in _imports(path):
            top = mod.split(".")[0]
            assert top in allowed, f"_backends/{path.name} imports arraymux.{mod}"


def test_array_imports_nothing_that_imports_it():
    # Array's operators and the calls it makes upwards are installed from _operators.py, so no
    # import cycle runs through _array.py.
    mods = {m.split(".")[0] for m in _imports(_SRC / "_array.py")}
    below = {"_arguments", "_backend_errors", "_backends", "_clients", "_devices", "_dtypes"}
    assert mods <= below | {"_errors", "_typing"}, mods
