"""Device ordinals other than 0 without GPUs: ``test_multi_device.py`` in a process where JAX
splits the host in two (``XLA_FLAGS=--xla_force_host_platform_device_count=2`` gives
``jax:cpu:0`` and ``jax:cpu:1``).

The flag must be set before JAX starts, so the file runs in a child pytest; this test fails when
any of its tests fails, or when none ran on the two JAX host devices.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")


def test_multi_device_tests_pass_on_two_jax_host_devices():
    here = os.path.dirname(__file__)
    env = os.environ | {"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    env.pop("PYTEST_XDIST_WORKER", None)
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            os.path.join(here, "test_multi_device.py"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        cwd=here,
    )
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-2000:]
    # Every pair test ran for jax:cpu (GPU backends join it on a machine with two GPUs).
    ran = re.findall(r"(\d+) passed", res.stdout)
    assert ran and int(ran[-1]) >= 10, res.stdout[-3000:]
    assert "needs two devices of one backend" not in res.stdout, res.stdout[-3000:]
