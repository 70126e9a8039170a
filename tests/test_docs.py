"""Every example in the docstrings, the README and docs/ runs and prints what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import warnings
from pathlib import Path

import pytest

import arraymux

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    names = ["arraymux"]
    for info in pkgutil.walk_packages(arraymux.__path__, "arraymux."):
        if info.name.endswith("__main__") or "._backends._cupy" in info.name:
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    with warnings.catch_warnings():
        # torch.func and inductor import torch.jit.script, which torch itself deprecates
        # (DeprecationWarning up to torch 2.13, FutureWarning from 2.14).
        for category in (DeprecationWarning, FutureWarning):
            warnings.filterwarnings("ignore", message=r".*torch\.jit\.script.*", category=category)
            warnings.filterwarnings("ignore", message=r".*script_method.*", category=category)
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
    arraymux.set_default_device(None)


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name
)
def test_markdown_examples_run(path, capsys):
    blocks = _python_blocks(path)
    for block in blocks:
        if "def test_" in block:
            compile(block, str(path), "exec")  # a test for pytest to collect: it must parse
            continue
        exec(compile(block, str(path), "exec"), {"__name__": "__docs__"})
    arraymux.set_default_device(None)
