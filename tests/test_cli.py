"""``arraymux info`` in process and as ``python -m arraymux info``."""

from __future__ import annotations

import subprocess
import sys

import pytest

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
