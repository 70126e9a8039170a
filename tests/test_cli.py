"""``arraymux info`` in process and as ``python -m arraymux info``."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

import arraymux as xp
from arraymux import cli


def _check_table(text: str) -> None:
    assert "arraymux 0." in text
    assert "default device: numpy:cpu" in text
    header = next(line for line in text.splitlines() if line.startswith("backend"))
    for col in (
        "installed",
        "version",
        "devices",
        "float64",
        "complex",
        "autodiff",
        "jit",
        "dlpack",
    ):
        assert col in header
    rows = {line.split()[0]: line for line in text.splitlines() if line.split()}
    for name in ("numpy", "torch", "jax", "dask", "array_api_strict"):
        assert name in rows
        assert " yes " in rows[name], rows[name]
    assert "torch:cpu" in rows["torch"]
    assert "jax:cpu:0" in rows["jax"]
    assert "torch.func" in rows["torch"]


def test_info_in_process(capsys):
    assert cli.main(["info"]) == 0
    _check_table(capsys.readouterr().out)


def test_python_m_arraymux_info():
    out = subprocess.run(
        [sys.executable, "-m", "arraymux", "info"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.returncode == 0, out.stderr
    _check_table(out.stdout)


def test_cli_needs_a_command(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code != 0


class _Terminal(io.StringIO):
    """What a terminal looks like to the command line (isatty), for checking its layout."""

    def isatty(self) -> bool:
        return True


def _visible(text: str) -> list[str]:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).splitlines()


@pytest.mark.parametrize("width", [80, 100, 120, 200])
def test_info_fits_the_terminal(width):
    out = _Terminal()
    cli.print_info(out, terminal=True, width=width)
    lines = _visible(out.getvalue())
    assert max(len(line) for line in lines) <= width
    text = "\n".join(lines)
    for name in ("numpy", "torch", "jax", "dask", "array_api_strict"):
        assert name in text
    assert "\x1b[" in out.getvalue()  # styled on a terminal
    if width >= 100:  # wide enough for each device name on a line of its own
        for d in xp.devices("array_api_strict"):
            assert str(d) in text


def test_info_is_plain_text_off_a_terminal():
    out = io.StringIO()
    cli.print_info(out)
    text = out.getvalue()
    assert "\x1b[" not in text
    assert all(line == line.rstrip() for line in text.splitlines())
    strict = next(line for line in text.splitlines() if line.startswith("array_api_strict"))
    assert all(str(d) in strict for d in xp.devices("array_api_strict"))  # one line


def test_conformance_report_fits_the_terminal_and_shows_progress():
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
