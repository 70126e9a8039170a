"""Device ordinals other than 0: results live where their label says.

JAX can split the host into several devices (``XLA_FLAGS=--xla_force_host_platform_device_count=2``
gives ``jax:cpu:0`` and ``jax:cpu:1``), so the ordinal logic runs without GPUs. The flag must be
set before JAX starts, so the checks run in a fresh interpreter; each compares the native
array's own device with the label.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")

_SCRIPT = r"""
import json, warnings
warnings.simplefilter("ignore")
import arraymux as xp
from arraymux._function_table import TABLE

d1 = xp.Device("jax:cpu:1")
bad = []

def where(a):
    return "cpu:%d" % next(iter(a.native.devices())).id

def check(what, out):
    for a in (out if isinstance(out, (tuple, list)) else (out,)):
        if isinstance(a, xp.Array) and (a.device != d1 or where(a) != "cpu:1"):
            bad.append("%s: labelled %s, data on %s" % (what, a.device, where(a)))

f32 = xp.asarray([0.5, 0.25, 2.0], device=d1)
i32 = xp.asarray([1, 2, 3], dtype=xp.int32, device=d1)
b = xp.asarray([True, False, True], device=d1)
for e in TABLE:
    if e.rule not in ("unary", "binary"):
        continue
    fn = xp
    for part in e.name.split("."):
        fn = getattr(fn, part)
    for x in (f32, i32, b):
        try:
            out = fn(x) if e.rule == "unary" else fn(x, x)
        except Exception:
            continue  # a dtype the function refuses
        check("%s(%s)" % (e.name, x.dtype), out)
m = xp.reshape(xp.arange(1.0, 5.0, device=d1), (2, 2)) + xp.eye(2, device=d1)
for name, call in {
    "sum": lambda: xp.sum(f32), "mean": lambda: xp.mean(f32), "sort": lambda: xp.sort(f32),
    "argsort": lambda: xp.argsort(f32), "cumulative_sum": lambda: xp.cumulative_sum(f32),
    "repeat": lambda: xp.repeat(f32, 2), "take": lambda: xp.take(f32, i32 - 1),
    "where": lambda: xp.where(b, f32, 0.0), "concat": lambda: xp.concat([f32, f32]),
    "unique_values": lambda: xp.unique_values(i32), "nonzero": lambda: xp.nonzero(b),
    "matmul": lambda: m @ m, "linalg.inv": lambda: xp.linalg.inv(m),
    "linalg.eigh": lambda: tuple(xp.linalg.eigh(m + m.T)), "fft.fft": lambda: xp.fft.fft(f32),
    "fft.fftfreq": lambda: xp.fft.fftfreq(4, device=d1), "zeros": lambda: xp.zeros(2, device=d1),
    "arange": lambda: xp.arange(3, device=d1), "full": lambda: xp.full(2, 1.0, device=d1),
    "linspace": lambda: xp.linspace(0, 1, 3, device=d1), "eye": lambda: xp.eye(2, device=d1),
    "zeros_like": lambda: xp.zeros_like(f32), "asarray": lambda: xp.asarray([1.0], device=d1),
    "random": lambda: xp.random.normal(xp.random.key(0, device=d1), (3,)),
}.items():
    check(name, call())
with xp.default_device(d1):
    check("default device", xp.ones(2))
f = lambda v: xp.sum(xp.sin(v) ** 2)
check("grad", xp.grad(f)(f32))
check("value_and_grad", xp.value_and_grad(f)(f32))
check("hessian", xp.hessian(f)(f32))
check("jacobian", xp.jacobian(xp.sin)(f32))
check("vmap", xp.vmap(xp.sin)(f32))
check("jit", xp.jit(f)(f32))
check("checkpoint", xp.grad(xp.checkpoint(f))(f32))
check("jvp", xp.jvp(f, (f32,), (xp.ones(3, device=d1),)))
value, back = xp.vjp(f, f32)
check("vjp", (value, *back(xp.asarray(1.0, device=d1))))
# on_device from ordinal 1 to ordinal 0 and back: derivatives come back to ordinal 1.
on0 = xp.on_device(lambda v: xp.sum(xp.sin(v) ** 2), "jax:cpu:0")
check("on_device 1 -> 0", on0(f32))
check("grad through on_device 1 -> 0", xp.grad(on0)(f32))
check("jit(grad) through on_device 1 -> 0", xp.jit(xp.grad(on0))(f32))
check("vmap(grad) through on_device 1 -> 0", xp.vmap(xp.grad(on0))(xp.stack([f32, f32])))
check("jvp through on_device 1 -> 0", xp.jvp(on0, (f32,), (f32,)))
check("hessian through on_device 1 -> 0", xp.hessian(on0)(f32))
try:
    import torch  # noqa: F401

    to_torch = xp.on_device(lambda v: xp.sum(xp.sin(v) ** 2), "torch:cpu")
    check("grad through on_device 1 -> torch", xp.grad(to_torch)(f32))
    check("vmap through on_device 1 -> torch", xp.vmap(to_torch)(xp.stack([f32, f32])))
except ImportError:
    pass
moved = xp.to_device(xp.ones(2, device="jax:cpu:0"), d1)
check("to_device 0 -> 1", moved)
try:
    f32 + xp.ones(3, device="jax:cpu:0")
    bad.append("no error for operands on two ordinals")
except xp.DeviceMismatchError as err:
    if "jax:cpu:0" not in str(err) or "jax:cpu:1" not in str(err) or "to_device" not in str(err):
        bad.append("mismatch error lacks the ordinals or the fix: %s" % err)
print(json.dumps({"devices": [str(d) for d in xp.devices("jax")], "bad": bad}))
"""


def test_every_result_on_ordinal_1_lives_there():
    env = os.environ | {"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    res = subprocess.run(
        [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads(res.stdout.strip().splitlines()[-1])
    assert {"jax:cpu:0", "jax:cpu:1"} <= set(report["devices"])  # and the GPUs, if any
    assert report["bad"] == []
