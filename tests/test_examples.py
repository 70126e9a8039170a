"""The programs of docs/examples run and do what their explanation says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not (importlib.util.find_spec("torch") and importlib.util.find_spec("jax")),
    reason="needs torch and jax",
)
@pytest.mark.filterwarnings("ignore:`torch.jit.script(_method)?` is deprecated")
def test_torch_model_trained_through_jax_physics(capsys):
    example = _load("torch_model_jax_physics")
    params, history = example.train(steps=30)
    assert history[-1] < history[0] / 50  # from about 120 to below 2
    assert all(v.device == example.xp.Device("torch:cpu") for v in params.values())
    assert "step    0" in capsys.readouterr().out
