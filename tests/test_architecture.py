"""The layout of the package: imports between arraymux's modules run one way only.

Every import counts, wherever it is written: at the top of a module, inside a function (a lazy
import) or under ``if TYPE_CHECKING:``. A circle among modules means neither can be read, tested
or replaced without the other; the modules are layered instead (docs/architecture.md).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import arraymux

PACKAGE = Path(arraymux.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    found = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for ext in PACKAGE.rglob("*.so"):  # the C extension: a module with no imports to read
        found.setdefault(_module_name(ext.with_name(ext.name.split(".")[0] + ".py")), ext)
    return found


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The arraymux modules that the module ``name`` (at ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    if path.suffix != ".py":
        return found
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            # ``import arraymux`` inside a function of a module the namespace is built from
            # (random, transforms, namespace()) reads the finished public namespace at call
            # time: the one import back to the top that the layering allows.
            found.update(a.name for a in node.names if a.name in known and a.name != "arraymux")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in known:
                continue
            submodules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            found.update(submodules)
            if len(submodules) < len(node.names):  # names from the module itself
                found.add(target)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _edges_within(graph: dict[str, set[str]], circle: list[str]) -> list[str]:
    members = set(circle)
    return [f"{a} -> {b}" for a in circle for b in sorted(graph[a] & members)]


def test_the_graph_sees_every_kind_of_import():
    graph = _graph()
    # a top-level import, a lazy one inside a function, and one under TYPE_CHECKING
    assert "arraymux._backends" in graph["arraymux._devices"]
    assert "arraymux._transfer" in graph["arraymux._creation_functions"]
    assert "arraymux._array" in graph["arraymux._typing"]


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    graph = _graph()
    described = ["; ".join(_edges_within(graph, c)) for c in _circles(graph)]
    assert not described, "import circles:\n" + "\n".join(described)


def _private_imports() -> list[str]:
    """Every ``from .x import _name`` across modules (private modules imported whole, such as
    ``from . import _dispatch``, are not counted)."""
    known = _modules()
    found = []
    for name, path in known.items():
        if path.suffix != ".py":
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                private = a.name.startswith("_") and not a.name.startswith("__")
                if private and f"{target}.{a.name}" not in known:
                    found.append(f"{name}: {a.name} from {target}")
    return sorted(set(found))


def test_modules_import_no_private_names_of_others():
    # A name another module needs is public in its module: no underscore, in ``__all__``.
    found = _private_imports()
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_the_private_import_finder_finds_one(tmp_path, monkeypatch):
    pkg = tmp_path / "arraymux"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_a.py").write_text("_hidden = 1\n")
    (pkg / "b.py").write_text("from ._a import _hidden\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", pkg)
    assert _private_imports() == ["arraymux.b: _hidden from arraymux._a"]
