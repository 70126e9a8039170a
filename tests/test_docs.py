"""Every example in the docstrings, the README and docs/ runs and prints what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import sys
import types
import warnings
from pathlib import Path
from typing import Any, NamedTuple

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


# Fenced blocks of a page: ```pycon (doctest: what it prints is checked) and ```python (run; it
# must print nothing, its results are checked by asserts or by a later pycon block).
_FENCE = re.compile(r"^```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
# "<!-- devices: numpy, torch:cpu | why -->" right above a block: the devices it runs on (the
# reason is required); "<!-- page-devices: ... | why -->": the same for every block of the page.
_NOTE = re.compile(r"<!--\s*(?P<scope>page-)?devices:\s*(?P<devs>[^|]*?)\s*\|(?P<why>.*?)-->", re.S)
_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
# The device a page's outputs are written for; on another default device, its name in what a
# block prints reads as this one.
_PAGE_DEVICE = "numpy:cpu"


class Block(NamedTuple):
    lang: str
    source: str
    line: int
    devices: tuple[str, ...] | None  # None: every CPU device


def _page_blocks(path: Path) -> list[Block]:
    text = path.read_text()
    page = None
    for m in _NOTE.finditer(text):
        if m.group("scope"):
            assert m.group("why").strip(), f"{path.name}: a page-devices note without a reason"
            page = tuple(d.strip() for d in m.group("devs").split(","))
    out = []
    for m in _FENCE.finditer(text):
        if m.group("lang") not in ("python", "pycon"):
            continue
        before = text[: m.start()].rstrip()
        note = None
        if before.endswith("-->"):
            last = list(_NOTE.finditer(before))
            if last and last[-1].end() == len(before) and not last[-1].group("scope"):
                assert last[-1].group("why").strip(), (
                    f"{path.name}: a devices note without a reason"
                )
                note = tuple(d.strip() for d in last[-1].group("devs").split(","))
        line = text.count("\n", 0, m.start()) + 2
        out.append(Block(m.group("lang"), m.group("body"), line, note or page))
    return out


def _cpu_devices() -> list[str]:
    return [str(d) for d in arraymux.devices() if not d.simulated and _memory_kind(d) == "cpu"]


def _memory_kind(d: arraymux.Device) -> str:
    return (
        "cpu"
        if d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu")
        else "gpu"
    )


class _Checker(doctest.OutputChecker):
    """Doctest's checker, reading the default device's name in the output as the page's."""

    def __init__(self, device: str) -> None:
        self.device = device

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        if self.device == _PAGE_DEVICE:
            return False
        # A result on the default device: its name as the page shows it.
        read = re.sub(rf"(?<![\w:]){re.escape(self.device)}(?![\w:])", _PAGE_DEVICE, got)
        return super().check_output(want, read, optionflags)


def _run_page(path: Path, device: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Run the page's blocks for ``device`` (the default device) in one namespace, in order;
    return a line per failure."""
    failures: list[str] = []
    # The blocks' namespace is a module's, importable by its name as a script's __main__ is
    # (torch.compile imports the module of the functions it compiles).
    page = types.ModuleType("__docs__")
    globs: dict[str, Any] = page.__dict__
    parser = doctest.DocTestParser()
    arraymux.set_default_device(device)
    sys.modules[page.__name__] = page
    try:
        for b in _page_blocks(path):
            if b.devices is not None and device not in [
                str(arraymux.Device(d)) for d in b.devices if _known(d)
            ]:
                continue
            where = f"{path.name}:{b.line} on {device}"
            if b.lang == "pycon":
                test = parser.get_doctest(b.source, globs, where, str(path), b.line)
                runner = doctest.DocTestRunner(_Checker(device), optionflags=_FLAGS)
                out: list[str] = []
                runner.run(test, out=out.append, clear_globs=False)
                globs.update(test.globs)  # names a block defines serve the blocks after it
                if runner.failures:
                    failures.append(f"{where}:\n" + "".join(out))
                continue
            if "def test_" in b.source:
                compile(b.source, str(path), "exec")  # a test for pytest to collect: it parses
                continue
            capsys.readouterr()
            try:
                exec(compile(b.source, where, "exec"), globs)
            except Exception as e:
                failures.append(f"{where}: raised {type(e).__name__}: {e}")
            printed = capsys.readouterr().out
            if printed:
                failures.append(
                    f"{where}: a python block printed (show it in a pycon block):\n{printed}"
                )
    finally:
        arraymux.set_default_device(None)
        del sys.modules[page.__name__]
    return failures


def _known(name: str) -> bool:
    try:
        arraymux.Device(name)
    except arraymux.ArraymuxError:
        return False
    return True


_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("device", _cpu_devices())
@pytest.mark.parametrize("path", _PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_print_what_the_page_shows(path, device, capsys):
    """Every pycon and python block of README.md and docs/, on every CPU device as the default
    device (unless a devices note above it says otherwise, and why)."""
    failures = _run_page(path, device, capsys)
    assert not failures, "\n".join(failures)


def test_page_blocks_are_found():
    blocks = [b for p in _PAGES for b in _page_blocks(p)]
    assert sum(b.lang == "pycon" for b in blocks) >= 1
    assert all(b.source.strip() for b in blocks)


class _RunsOnly(doctest.OutputChecker):
    """Any output passes: outputs are compared on NumPy, where the docstrings are written."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return True


class _Runner(doctest.DocTestRunner):
    """Records each exception an example did not expect, except the library's own clear
    refusals that a device explains: no engine for a transform (Dask, array-api-strict), no
    64-bit dtypes (JAX without x64)."""

    def __init__(self, allowed: tuple[type[BaseException], ...]) -> None:
        super().__init__(_RunsOnly(), optionflags=_FLAGS)
        self.allowed = allowed
        self.unexpected: list[str] = []
        self.refused: set[str] = set()

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[no-untyped-def]
        if isinstance(exc_info[1], self.allowed):
            self.refused.add(test.name)  # the lines after it use what it did not make
        elif not (test.name in self.refused and isinstance(exc_info[1], NameError)):
            self.unexpected.append(
                f"{test.name}: {example.source.strip()} raised "
                f"{type(exc_info[1]).__name__}: {exc_info[1]}"[:400]
            )


def _public_docstrings() -> list[doctest.DocTest]:
    import numpy

    finder = doctest.DocTestFinder()
    globs = {"xp": arraymux, "arraymux": arraymux, "np": numpy}
    tests = []
    for modname in ("arraymux", "arraymux.linalg", "arraymux.fft", "arraymux.special"):
        mod = importlib.import_module(modname)
        for n in mod.__all__:
            tests += [t for t in finder.find(getattr(mod, n), n, globs=globs) if t.examples]
    return tests


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("device", [d for d in _cpu_devices() if d != _PAGE_DEVICE])
def test_docstring_examples_run_on_every_cpu_device(device):
    """The docstring examples of the public functions, with each CPU device as the default
    device: each runs (what it prints is checked on NumPy, for which it is written: reprs name
    the device and each backend's default dtypes)."""
    d = arraymux.Device(device)
    allowed: tuple[type[BaseException], ...] = ()
    if d.backend in ("dask", "array_api_strict"):
        allowed += (arraymux.TransformUnavailableError,)
    if not d.supports(arraymux.float64):
        allowed += (arraymux.UnsupportedDTypeError,)
    runner = _Runner(allowed)
    arraymux.set_default_device(device)
    try:
        for test in _public_docstrings():
            # Globals kept: torch.compile (the jit examples) stores entries in them that its
            # own clean-up deletes later.
            runner.run(test, out=lambda _: None, clear_globs=False)
    finally:
        arraymux.set_default_device(None)
    assert not runner.unexpected, "\n".join(runner.unexpected)
