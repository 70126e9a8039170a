"""The adapter contract: every built-in adapter satisfies it, and a third-party backend written
against it alone works through the ``arraymux.backends`` entry point."""

from __future__ import annotations

import importlib
import os
import textwrap
from pathlib import Path

import pytest

from _child import assert_child_ok
from arraymux import _backends
from arraymux._backends import _adapter

HERE = Path(__file__).parent


@pytest.mark.parametrize("spec", _backends.specs(), ids=lambda s: s.name)
def test_builtin_adapters_follow_the_contract(spec):
    if not _backends.is_installed(spec.name):
        pytest.skip(f"{spec.name} is not installed")
    backend = _backends.get_backend(spec.name)
    assert isinstance(backend.adapter, _adapter.Adapter)
    for name in _adapter.DEFAULTS:
        assert callable(getattr(backend.adapter, name))
    if spec.bridged:
        assert callable(getattr(backend.adapter, "engine_place", None))
    if not spec.mutable:
        assert callable(getattr(backend.adapter, "setitem", None))


def test_an_adapter_without_a_required_hook_is_refused():
    module = importlib.import_module("arraymux._backends._adapter")  # any module lacking hooks
    with pytest.raises(TypeError, match="lacks namespace, places"):
        _adapter.complete(module, "broken")


def test_a_third_party_backend_through_the_entry_point(tmp_path):
    pytest.importorskip("array_api_strict")
    dist = tmp_path / "strictish-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: strictish\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[arraymux.backends]\nstrictish = strictish_adapter:SPEC\n"
    )
    code = textwrap.dedent(
        """
        import arraymux as xp
        assert xp.Device("strictish") in xp.devices(), xp.devices()
        x = xp.asarray([1.0, 2.0, 3.0], device="strictish")
        y = xp.ones(3, device="strictish")
        assert str(x.device) == "strictish:CPU_DEVICE"
        assert xp.to_numpy(xp.sum(x * 2 + y, axis=0)).tolist() == 15.0
        # defaults filled in: 64-bit default dtypes, Python scalars passed as they are
        assert x.dtype == xp.float64 and (x + 1).dtype == xp.float64
        info = xp.__array_namespace_info__()
        assert info.default_dtypes(device="strictish")["integral"] == xp.int64
        try:
            x + xp.asarray([1.0, 2.0, 3.0], device="array_api_strict")
        except xp.BackendMismatchError as e:
            assert "strictish" in str(e) and "array_api_strict" in str(e), e
        else:
            raise AssertionError("no mismatch error")
        moved = xp.to_device(x, "numpy")
        assert xp.to_numpy(moved).tolist() == [1.0, 2.0, 3.0]
        print("ok")
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(tmp_path), str(HERE / "thirdparty"), env.get("PYTHONPATH", "")]
    )
    assert_child_ok(code, env=env, timeout=120)
