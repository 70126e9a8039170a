"""The command line: ``arraymux info`` and the conformance report's table, in process and as
``python -m arraymux`` in a terminal of 80 and 200 columns (a pseudo-terminal) and piped."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import tempfile
import time

import pytest

import arraymux as xp
from arraymux import cli
from arraymux._backends import is_installed, specs
from arraymux.testing._report import Result

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _visible(text: str) -> list[str]:
    return _ANSI.sub("", text).splitlines()


def _run(args: list[str], columns: int | None = None, terminal: bool = False) -> str:
    """The output of ``python -m arraymux *args``: piped, or on a pseudo-terminal
    ``columns`` wide (``COLUMNS`` set as a shell sets it), with ``\\r\\n`` read as ``\\n``."""
    env = dict(os.environ)
    env.pop("ARRAYMUX_DEVICE", None)
    if columns is not None:
        env["COLUMNS"] = str(columns)
    cmd = [sys.executable, "-m", "arraymux", *args]
    if not terminal:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns or 80, 0, 0))
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=follower, stderr=err, env=env)
        os.close(follower)
        chunks = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(leader)
        rc = proc.wait(timeout=60)
        err.seek(0)
        assert rc == 0, err.read().decode()
    return b"".join(chunks).decode().replace("\r\n", "\n")


def _names() -> list[str]:
    return [str(d) for d in xp.devices()]


def _whole(name: str, line: str) -> bool:
    """Whether the device ``name`` appears in ``line`` as a whole (not the start of a longer
    one: ``array_api_strict:dev`` is not ``array_api_strict:device1``)."""
    return re.search(rf"(?<![\w:]){re.escape(name)}(?![\w:])", line) is not None


def _installed_version(distribution: str, module: str) -> str:
    """The version pip reports for the backend: by its distribution's name, else by the
    distribution that installs its module (CuPy's wheels are ``cupy-cuda12x`` and such)."""
    from importlib.metadata import PackageNotFoundError, packages_distributions, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return version(packages_distributions()[module][0])


def _check_info(text: str, probe: bool) -> None:
    assert "arraymux 0." in text
    assert f"{sys.version_info.major}.{sys.version_info.minor}." in text  # Python's version
    assert "default device: numpy:cpu" in text
    rows: dict[str, str] = {}  # the first line of each backend: its row in the first table
    for line in text.splitlines():
        if line.split():
            rows.setdefault(line.split()[0], line)
    for spec in specs():
        row = rows[spec.name]
        if is_installed(spec.name):
            assert _installed_version(spec.distribution, spec.module) in row, row
            if spec.jit:
                assert spec.jit in row, row
        else:  # no capabilities for a backend that is not installed
            assert "not installed" in row and "-" in row, row
            assert spec.autodiff is None or spec.autodiff not in row, row
            assert spec.install_hint in text
    if probe:
        assert "float64" in text and "dlpack" in text
        assert "info --devices" not in text
    else:  # says how to see the devices, and lists none
        assert "arraymux info --devices" in text
        assert "array_api_strict:CPU_DEVICE" not in text


@pytest.mark.parametrize("probe", [False, True], ids=["info", "info --devices"])
def test_info_in_process(capsys, probe):
    assert cli.main(["info", "--devices"] if probe else ["info"]) == 0
    text = capsys.readouterr().out
    _check_info(text, probe)
    if probe:
        for name in _names():
            assert any(_whole(name, line) for line in text.splitlines()), name


def test_info_imports_no_backend():
    """Without ``--devices``, ``arraymux info`` reads versions from package metadata: no
    backend (NumPy included) is imported, which is what keeps it quick."""
    code = (
        "import contextlib, io, sys\n"
        "from arraymux import cli\n"
        "from arraymux._backends import specs\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert cli.main(['info']) == 0\n"
        "assert 'torch.compile' in out.getvalue()\n"
        "print(sorted(s.module for s in specs() if s.module in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_cli_needs_a_command(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code != 0


def test_info_help_names_devices(capsys):
    with pytest.raises(SystemExit):
        cli.main(["info", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--devices" in help_text and "import each installed backend" in help_text


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("probe", [False, True], ids=["info", "info --devices"])
def test_info_in_a_terminal(columns, probe):
    raw = _run(["info", "--devices"] if probe else ["info"], columns, terminal=True)
    assert "\x1b[" in raw  # styled
    lines = _visible(raw)
    assert max(len(line) for line in lines) <= columns, "\n".join(lines)
    _check_info("\n".join(lines), probe)
    if not probe:
        return
    # Every device name whole on a line: a name is never broken across two.
    for name in _names():
        assert any(_whole(name, line) for line in lines), (name, "\n".join(lines))
    header = next(line for line in lines if line.startswith("backend"))
    if columns == 200:  # room for one table: versions, transforms, dtypes and devices
        assert "autodiff" in header and "devices" in header, header
    else:  # two tables
        assert "autodiff" in header and "devices" not in header, header


@pytest.mark.parametrize("probe", [False, True], ids=["info", "info --devices"])
def test_info_piped_is_plain_text(probe):
    text = _run(["info", "--devices"] if probe else ["info"], columns=80)
    assert "\x1b[" not in text
    lines = text.splitlines()
    assert all(line == line.rstrip() for line in lines)  # no padding at the ends of lines
    assert max(len(line) for line in lines) <= 120, text  # not padded out to the widest row
    _check_info(text, probe)
    if probe:  # one device a line, under its backend's name
        for name in _names():
            assert any(re.fullmatch(rf"\S+\s+\|\s+{re.escape(name)}", line) for line in lines)


class _Terminal(io.StringIO):
    """What a terminal looks like to the command line (isatty), for checking its layout."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("width", [80, 100, 120, 150, 200])
def test_info_fits_the_terminal(width):
    out = _Terminal()
    cli.print_info(out, terminal=True, width=width, probe=True)
    lines = _visible(out.getvalue())
    assert max(len(line) for line in lines) <= width
    for name in _names():
        assert any(_whole(name, line) for line in lines), (name, "\n".join(lines))


def test_conformance_report_fits_the_terminal_and_shows_progress(staged_deviation):
    from arraymux._console import console
    from arraymux.testing._report import print_report, run_report

    err = _Terminal()
    devices = ["numpy:cpu", "array_api_strict:CPU_DEVICE"]
    results = run_report(devices, ["abs", "isin"], 2, stream=err)
    assert "ran 4 checks" in err.getvalue()
    assert "4/4" in "\n".join(_visible(err.getvalue()))  # the bar's count
    out = _Terminal()
    print_report(results, console(out, width=60))
    lines = _visible(out.getvalue())
    assert max(len(line) for line in lines) <= 60
    text = "\n".join(lines)
    assert "summary: 3 pass, 1 xfail" in text
    assert "xfail isin on" in text and "array_api_strict:CPU_DEVICE" in text


_DEVICES = ["numpy:cpu", "torch:cpu", "jax:cpu:0", "dask", "array_api_strict:CPU_DEVICE"]
_FUNCTIONS = ["add", "linalg.inv", "linalg.matrix_transpose", "fft.irfftn"]


def _report(width: int) -> list[str]:
    from arraymux._console import console
    from arraymux.testing._report import print_report

    results = [Result(f, d, "pass") for f in _FUNCTIONS for d in _DEVICES]
    results[-1] = Result(_FUNCTIONS[-1], _DEVICES[-1], "xfail", "a known deviation")
    out = _Terminal()
    print_report(results, console(out, width=width))
    return _visible(out.getvalue())


def _cut_from(word: str, names: list[str]) -> bool:
    """Whether ``word`` is one of ``names`` or a piece of one, whole or cut with an ellipsis."""
    return any((word[:-1] if word.endswith("…") else word) in n for n in names)


@pytest.mark.parametrize("width", [60, 70, 80, 100])
def test_conformance_table_never_cuts_a_cell_silently(width):
    """Every device at 80 columns (and narrower): device names break only after a colon,
    what still does not fit ends with an ellipsis, and no status is cut."""
    lines = _report(width)
    assert max(len(line) for line in lines) <= width, "\n".join(lines)
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    header, body = lines[:rule], lines[rule + 1 : rule + 1 + len(_FUNCTIONS)]
    for word in " ".join(header).split():
        assert word == "function" or _cut_from(word, _DEVICES), "\n".join(lines)
    for line, f in zip(body, _FUNCTIONS, strict=True):
        name, *statuses = line.split()
        assert name == f or (name.endswith("…") and f.startswith(name[:-1])), line
        assert statuses in (["pass"] * 5, ["pass"] * 4 + ["xfail"]), line


def test_conformance_table_at_80_columns_keeps_every_name():
    lines = _report(80)
    text = "\n".join(lines)
    for f in _FUNCTIONS:  # room for every function name once the device names break
        assert any(line.split()[:1] == [f] for line in lines), text
    assert "array_api_strict:" in text and "CPU_DEVICE" in text
    assert "…" not in text
    assert "xfail fft.irfftn on array_api_strict:CPU_DEVICE: a known deviation" in text


def test_conformance_table_ellipsises_what_does_not_fit():
    lines = _report(60)
    assert any(line.startswith("linalg.matr…") for line in lines), "\n".join(lines)


def test_info_reads_the_version_of_a_backend_under_another_distribution_name(monkeypatch):
    # CuPy installs as cupy-cuda12x (or cupy-cuda13x, cupy-rocm-...): no distribution is named
    # "cupy", and arraymux info reports the version of the one that installs the module.
    import importlib.metadata as md

    versions = {"cupy-cuda12x": "14.2.0"}

    def version(name: str) -> str:
        if name not in versions:
            raise md.PackageNotFoundError(name)
        return versions[name]

    monkeypatch.setattr(md, "version", version)
    monkeypatch.setattr(md, "packages_distributions", lambda: {"cupy": ["cupy-cuda12x"]})
    assert cli._distribution_version("cupy", "cupy") == "14.2.0"
    assert cli._distribution_version("cupy") == "?"
    assert cli._distribution_version("nothing-installed", "nothing") == "?"


@pytest.mark.parametrize("width", [100, 120, 150])
def test_info_never_cuts_a_device_name(monkeypatch, width):
    # The rows of a machine with GPUs and CuPy: rich narrowed the devices column below its
    # longest name at 120 columns (array_api_strict:CPU / _DEVICE on two lines).
    original = cli._info_rows

    def rows(probe):
        out, notes = original(probe)
        gpu = {
            "torch": {"version": "2.11.0+cu130", "devices": "torch:cpu, torch:cuda:0"},
            "jax": {"version": "0.11.2", "devices": "jax:cpu:0, jax:gpu:0"},
            "cupy": {
                "version": "14.2.0",
                "autodiff": "torch.func (bridged)",
                "jit": "-",
                **{k: "yes" for k in ("float64", "complex", "dlpack")},
                "devices": "cupy:0",
            },
        }
        for row in out:
            row.update(gpu.get(row["backend"], {}))
        return out, notes

    monkeypatch.setattr(cli, "_info_rows", rows)
    out = _Terminal()
    cli.print_info(out, terminal=True, width=width, probe=True)
    lines = _visible(out.getvalue())
    assert max(len(line) for line in lines) <= width
    for name in ["torch:cuda:0", "jax:gpu:0", "cupy:0", *_names()]:
        assert any(_whole(name, line) for line in lines), (name, "\n".join(lines))
