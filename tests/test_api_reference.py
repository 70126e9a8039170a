"""The API reference of the documentation lists every public name, each with a docstring.

The reference's pages are generated from ``reference_entries`` (docs/_ext/arraymux_docs.py)
when the site is built; this test fails when a public name of ``arraymux``, ``arraymux.linalg``,
``arraymux.fft``, ``arraymux.random``, ``arraymux.testing`` or ``arraymux.testing.strategies``
is missing from it or has no docstring.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import arraymux

DOCS = Path(__file__).resolve().parents[1] / "docs"
MODULES = [
    "arraymux",
    "arraymux.linalg",
    "arraymux.fft",
    "arraymux.random",
    "arraymux.testing",
    "arraymux.testing.strategies",
]


@pytest.fixture(scope="module")
def entries() -> dict[str, list[str]]:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import arraymux_docs
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    return arraymux_docs.reference_entries()


def _public(module: str) -> list[str]:
    mod = importlib.import_module(module)
    return [
        f"{module}.{n}"
        for n in mod.__all__
        if not isinstance(getattr(mod, n), type(arraymux)) or n == "__array_namespace_info__"
    ]


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_is_in_the_reference(entries, module):
    listed = {name for names in entries.values() for name in names}
    missing = [n for n in _public(module) if n not in listed]
    assert not missing, f"not in the API reference: {missing}"


@pytest.mark.parametrize("module", MODULES)
def test_every_public_callable_has_a_docstring(module):
    mod = importlib.import_module(module)
    bare = [
        n
        for n in mod.__all__
        if callable(getattr(mod, n))
        and not isinstance(getattr(mod, n), arraymux.DType)
        and not (getattr(mod, n).__doc__ or "").strip()
    ]
    assert not bare, f"public names without a docstring: {bare}"


def test_reference_pages_name_each_entry(tmp_path, entries):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import arraymux_docs
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    arraymux_docs.api_pages(tmp_path)
    text = "\n".join(p.read_text() for p in tmp_path.glob("*.rst"))
    for names in entries.values():
        for n in names:
            assert n.rsplit(".", 1)[-1] in text, n
