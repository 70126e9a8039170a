"""A program run in a child Python process, for what a test cannot risk in its own process
(an abort, a flag read at import, an environment variable)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping


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
