"""Programs run in a child Python process, for what a test cannot risk in its own process (an
abort, a flag read at import, an environment variable, a cold torch.compile)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def mode_env(pure: bool) -> dict[str, str]:
    """This process's environment, with the C extension turned off in the child
    (``ARRAYMUX_PURE_PYTHON=1``) where ``pure``, and left on otherwise."""
    env = dict(os.environ)
    env.pop("ARRAYMUX_PURE_PYTHON", None)
    if pure:
        env["ARRAYMUX_PURE_PYTHON"] = "1"
    return env


def child_output(code: str, *, pure: bool) -> str:
    """What ``code`` prints in a child Python run with the environment of :func:`mode_env`;
    the child must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=mode_env(pure), capture_output=True, text=True, check=True
    )
    return done.stdout


def assert_child_ok(
    code: str, *args: str, env: Mapping[str, str] | None = None, timeout: float = 300
) -> None:
    """Run ``code`` (``args``: its ``sys.argv[1:]``) in a child Python with the environment
    ``env`` and check that it succeeds and prints ``ok``."""
    r = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "ok" in r.stdout


def run_counting_frames(program: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """Run ``program`` (with ``arraymux`` imported as ``xp``, warnings off) in a fresh process
    whose torch.compile cache is the folder ``cache`` (a cold compile there takes the same
    time whatever the rest of the suite compiled); its last line of output is the number of
    frames dynamo compiled, then the number of graph breaks."""
    code = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "import arraymux as xp\n"
        "from torch._dynamo.utils import counters\n"
        f"{program}"
        "print(counters['frames']['total'], len(counters['graph_break']))\n"
    )
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=850, env=env
    )
