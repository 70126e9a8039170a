"""Tests of arraymux.testing: assert_close, the pytest plugin, the strategies and the
``arraymux conformance`` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

import arraymux as ax
from arraymux.cli import main
from arraymux.testing import assert_close, assert_same_device, default_tolerance
from arraymux.testing import strategies as axst

EXAMPLE = Path(__file__).parent / "example_pkg"


def _run_pytest(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    # A session of its own: not the options of this one, nor its xdist worker's variables
    # (which other plugins read as "xdist is active" in the child).
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTEST_ADDOPTS" and not k.startswith("PYTEST_XDIST_")
    }
    full_env.update(env or {})
    # arraymux's plugin by its entry point where arraymux is installed, by name where it runs
    # from a checkout on the path
    installed = any(e.value == "arraymux.testing._plugin" for e in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "arraymux.testing._plugin"]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugin, *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return f"rc={proc.returncode}\n{proc.stdout}\n{proc.stderr}"


# --- assert_close / assert_same_device -------------------------------------------------------


def test_assert_close_across_backends():
    x = ax.asarray([1.0, 2.0], dtype=ax.float32, device="numpy")
    y = ax.asarray(np.asarray([1.0, 2.0 + 1e-7], dtype=np.float32), device="array_api_strict")
    assert_close(x, y, check_device=False)
    with pytest.raises(AssertionError, match="devices differ"):
        assert_close(x, y)


def test_assert_close_reports_shape_dtype_and_values():
    x = ax.asarray([1.0, 2.0], dtype=ax.float32)
    with pytest.raises(AssertionError, match="shapes differ"):
        assert_close(x, np.ones(3, dtype=np.float32))
    with pytest.raises(AssertionError, match="dtypes differ"):
        assert_close(x, np.asarray([1.0, 2.0]))
    assert_close(x, np.asarray([1.0, 2.0]), check_dtype=False)
    with pytest.raises(AssertionError, match=r"1 of 2 elements differ; |index \(1,\)"):
        assert_close(x, np.asarray([1.0, 2.1], dtype=np.float32))


def test_assert_close_nan_inf_and_integers():
    x = ax.asarray([np.nan, np.inf, -np.inf])
    assert_close(x, np.asarray([np.nan, np.inf, -np.inf]))
    with pytest.raises(AssertionError):
        assert_close(x, np.asarray([np.nan, -np.inf, -np.inf]))
    with pytest.raises(AssertionError):
        assert_close(ax.asarray([1, 2]), np.asarray([1, 3]))
    assert_close(ax.asarray([1, 2]), np.asarray([1, 3]), atol=1)
    assert_close(ax.asarray([1 + 1j]), np.asarray([1 + 1j]))


def test_default_tolerances():
    assert default_tolerance(ax.float32) == (1.3e-6, 1e-5)
    assert default_tolerance("float64") == (1e-7, 1e-7)
    assert default_tolerance(np.int16) == (0.0, 0.0)


def test_assert_same_device():
    a = ax.ones(2, device="numpy")
    assert_same_device(a, ax.zeros(1, device="numpy"), np.zeros(3))
    with pytest.raises(AssertionError, match="argument 1 is on"):
        assert_same_device(a, ax.ones(2, device="array_api_strict"))
    with pytest.raises(AssertionError, match="not an array"):
        assert_same_device(a, [1, 2])


# --- strategies ------------------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(x=axst.arrays("numpy", "int16", axst.shapes(max_dims=2), elements={"min_value": 0}))
def test_arrays_by_dtype_name(x):
    assert isinstance(x, ax.Array)
    assert x.dtype == ax.int16 and x.device == ax.Device("numpy")
    assert bool(ax.all(x >= 0))


@settings(max_examples=10, deadline=None)
@given(
    data=axst.arrays(
        "array_api_strict", axst.dtypes("array_api_strict", kind="real floating"), (3,), unique=True
    )
)
def test_arrays_with_dtype_strategy_on_another_backend(data):
    assert data.device == ax.Device("array_api_strict")
    assert data.dtype in (ax.float32, ax.float64)
    values = ax.to_numpy(data)
    assert len(set(values.tolist())) == 3


@settings(max_examples=10, deadline=None)
@given(s=axst.mutually_broadcastable_shapes(3))
def test_mutually_broadcastable_shapes(s):
    assert ax.broadcast_shapes(*s.input_shapes) == s.result_shape


@settings(max_examples=10, deadline=None)
@given(d=axst.devices())
def test_devices(d):
    assert d in ax.devices()


@settings(max_examples=10, deadline=None)
@given(dt=axst.dtypes("array_api_strict:no_float64", kind="real floating"))
def test_dtypes_respect_the_device(dt):
    assert dt == ax.float32


def test_dtypes_reject_unknown_kinds():
    with pytest.raises(ValueError, match="unknown dtype kind"):
        axst.dtypes("numpy", kind="floats")


def test_arrays_of_an_unsupported_dtype_raise():
    with pytest.raises(ax.UnsupportedDTypeError):
        axst.arrays("array_api_strict:no_float64", ax.float64, 2)


# --- the pytest plugin -----------------------------------------------------------------------


def test_example_package_runs_on_every_selected_device():
    out = _run_pytest(
        ["check_mylib.py", "-c", "pytest.ini", "-v", "--arraymux-devices=numpy,array_api_strict"],
        cwd=EXAMPLE,
    )
    assert "rc=0" in out, out
    assert "test_softmax_sums_to_one[numpy:cpu] PASSED" in out, out
    assert "test_softmax_sums_to_one[array_api_strict:CPU_DEVICE] PASSED" in out, out
    assert "test_expected_failure_on_numpy[numpy:cpu] XFAIL" in out, out
    assert "test_softmax_property[array_api_strict:CPU_DEVICE] PASSED" in out, out


def test_example_package_devices_from_the_environment():
    out = _run_pytest(
        ["check_mylib.py", "-c", "pytest.ini", "-v"],
        cwd=EXAMPLE,
        env={"ARRAYMUX_TEST_DEVICES": "dask"},
    )
    if "dask" not in [d.backend for d in ax.devices()]:
        pytest.skip("dask is not installed")
    assert "rc=0" in out, out
    assert "test_not_on_dask[dask] SKIPPED" in out, out
    assert "numpy:cpu" not in out, out


def test_plugin_imports_no_backend_and_leaves_other_projects_alone(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n")
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent(
            """
            import pytest

            @pytest.fixture
            def device():
                return "the project's own device"
            """
        )
    )
    (tmp_path / "test_other.py").write_text(
        textwrap.dedent(
            """
            import sys

            def test_no_backend_imported():
                for name in ("torch", "jax", "dask", "array_api_strict", "cupy"):
                    assert name not in sys.modules, name

            def test_own_device_fixture(device):
                assert device == "the project's own device"
            """
        )
    )
    out = _run_pytest(["-v", "-c", "pytest.ini"], cwd=tmp_path)
    assert "rc=0" in out, out
    assert "2 passed" in out, out
    assert "[numpy" not in out, out


def test_plugin_rejects_an_unknown_device(tmp_path):
    (tmp_path / "test_x.py").write_text("def test_x(device):\n    pass\n")
    out = _run_pytest(["--arraymux-devices=nosuch:0"], cwd=tmp_path)
    assert "rc=0" not in out, out
    assert "nosuch" in out, out


# --- arraymux conformance --------------------------------------------------------------------


def test_conformance_command_json(capsys):
    rc = main(
        [
            "conformance",
            "--devices",
            "numpy",
            "--functions",
            "add,sum,linalg.inv",
            "--max-examples",
            "3",
            "--format",
            "json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert out["devices"] == ["numpy:cpu"]
    assert [r["status"] for r in out["results"]] == ["pass", "pass", "pass"]


def test_conformance_command_table_and_known_deviation(capsys, staged_deviation):
    rc = main(
        [
            "conformance",
            "--devices",
            "array_api_strict",
            "--functions",
            "isin,abs",
            "--max-examples",
            "2",
        ]
    )
    captured = capsys.readouterr()
    assert rc == 0
    assert "xfail" in captured.out and "abs" in captured.out
    assert "summary: 1 pass, 1 xfail" in captured.out
    assert "abs on array_api_strict:CPU_DEVICE: pass" in captured.err


def test_conformance_command_markdown(capsys):
    rc = main(["conformance", "--devices", "numpy", "--functions", "abs", "--format", "markdown"])
    assert rc == 0
    assert "| function | numpy:cpu |" in capsys.readouterr().out


def test_conformance_command_fails_on_an_unexpected_failure(capsys, monkeypatch):
    from arraymux.testing import _conformance

    def broken(d, name):
        raise AssertionError("wrong on purpose")

    monkeypatch.setitem(_conformance.PROPERTIES, "abs", broken)
    rc = main(["conformance", "--devices", "numpy", "--functions", "abs"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "FAIL abs on numpy:cpu: wrong on purpose" in out


def test_conformance_command_rejects_unknown_names(capsys):
    assert main(["conformance", "--functions", "nosuch"]) == 2
    assert "unknown functions nosuch" in capsys.readouterr().err


def test_info_still_works(capsys):
    assert main(["info"]) == 0
    assert "default device" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["std", "var"])
def test_conformance_runs_accept_the_backends_degrees_of_freedom_warnings(name):
    """``correction >= N`` gives NaN with a warning on NumPy (a RuntimeWarning), Dask and torch
    (a UserWarning): a property run ignores each, as it ignores floating-point warnings."""
    import warnings

    from arraymux.testing._conformance._run import _quiet

    present = {d.backend for d in ax.devices()}
    for d in [d for d in ("numpy", "torch:cpu", "dask") if d.split(":")[0] in present]:
        x = ax.asarray([0.0], device=d)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with _quiet():
                r = ax.to_numpy(getattr(ax, name)(x, correction=1))
        assert np.isnan(r), d
    with pytest.warns(UserWarning, match="degrees of freedom"), _quiet():
        warnings.warn("an unrelated degrees of freedom remark", UserWarning, stacklevel=1)
