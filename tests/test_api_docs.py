"""Every public callable documents its parameters, its result and its use, and its examples run.

The docstrings are numpy-style: ``Parameters`` (every parameter of the signature),
``Returns`` (functions), ``Examples`` with doctests. The examples of ``arraymux``,
``arraymux.linalg``, ``arraymux.fft`` and ``arraymux.special`` run here one object at a time,
so that the functions made by the dispatch factories (whose ``__module__`` is not where they
are defined) are covered too.
"""

from __future__ import annotations

import doctest
import inspect
import re
import warnings
from types import ModuleType
from typing import Any

import numpy
import pytest

import arraymux
import arraymux.fft
import arraymux.linalg
import arraymux.special
import arraymux.testing
import arraymux.testing.strategies

DOCUMENTED = (
    arraymux,
    arraymux.linalg,
    arraymux.fft,
    arraymux.special,
    arraymux.testing,
    arraymux.testing.strategies,
)
DOCTESTED = (arraymux, arraymux.linalg, arraymux.fft, arraymux.special)
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _callables(module: ModuleType) -> list[tuple[str, Any]]:
    """``(qualified name, object)`` of each public callable of ``module`` (not dtypes, not
    modules, not constants)."""
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.ismodule(obj) or isinstance(obj, arraymux.DType) or not callable(obj):
            continue
        out.append((f"{module.__name__}.{name}", obj))
    return out


def _section(doc: str, title: str) -> str | None:
    """The text of the numpy-style section ``title`` of ``doc``, or None."""
    m = re.search(rf"^{title}\n-{{3,}}\n(.*?)(?=^\w[\w ]*\n-{{3,}}\n|\Z)", doc, re.M | re.S)
    return None if m is None else m.group(1)


def _has_parameters(obj: Any) -> bool:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):  # builtin classes (the exceptions) have none to show
        return False
    return bool(sig.parameters)


def _problems(obj: Any) -> list[str]:
    doc = inspect.cleandoc(obj.__doc__ or "")
    if not doc:
        return ["no docstring"]
    out = []
    if _has_parameters(obj):
        params = _section(doc, "Parameters")
        if params is None:
            out.append("no Parameters section")
        else:
            # "name : type" lines, or "a, b : type" for several parameters.
            listed = {
                n.strip().lstrip("*")
                for line in params.splitlines()
                if line and not line[0].isspace()
                for n in line.split(" : ")[0].split(",")
            }
            for p in inspect.signature(obj).parameters.values():
                if p.name not in listed:
                    out.append(f"parameter {p.name} not in Parameters")
    if not inspect.isclass(obj) and _section(doc, "Returns") is None:
        out.append("no Returns section")
    examples = _section(doc, "Examples")
    if examples is None or ">>> " not in examples:
        out.append("no Examples section with a doctest")
    return out


def test_every_public_callable_has_parameters_returns_and_examples():
    offenders = []
    for module in DOCUMENTED:
        for name, obj in _callables(module):
            offenders += [f"{name}: {p}" for p in _problems(obj)]
    assert not offenders, "docstrings lacking sections:\n" + "\n".join(offenders)


def test_generated_docstrings_list_the_standards_parameters():
    # The generated functions' Parameters sections come from arraymux._docstrings.
    doc = inspect.cleandoc(arraymux.sum.__doc__)
    params = _section(doc, "Parameters")
    assert params is not None
    for name in ("x : Array", "axis : int, tuple of ints or None, optional", "dtype :", "keepdims"):
        assert name in params
    assert "Should have a numeric dtype." in params
    assert "``sum`` of the Array API standard, dispatched to the array's backend." in doc


_DOCTEST_NAMES = [name for module in DOCTESTED for name, _ in _callables(module)]


@pytest.mark.parametrize("name", _DOCTEST_NAMES)
def test_docstring_examples_run(name):
    module_name, _, attr = name.rpartition(".")
    obj = getattr(__import__(module_name, fromlist=["_"]), attr)
    globs = {"xp": arraymux, "arraymux": arraymux, "np": numpy}
    tests = doctest.DocTestFinder().find(obj, name, globs=globs)
    assert any(t.examples for t in tests), f"{name} has no examples"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    try:
        with warnings.catch_warnings():
            # torch.func and inductor import torch.jit.script, which torch itself deprecates.
            for category in (DeprecationWarning, FutureWarning):
                warnings.filterwarnings("ignore", r".*torch\.jit\.script.*", category)
                warnings.filterwarnings("ignore", r".*script_method.*", category)
            for test in tests:
                runner.run(test, out=report.append)
    finally:
        arraymux.set_default_device(None)
    assert runner.failures == 0, "".join(report)
