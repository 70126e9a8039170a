"""Complete programs, written once with arraymux and once natively, timed in the same run.

Each program is written twice: with arraymux (``import arraymux as xp``, one device-agnostic
version for every device) and natively, as a user of NumPy, CuPy, torch or ``jax.numpy`` would
write it with that library's idioms. Both sides run the same iteration on the same data, and
their results are checked to agree before any timing. Programs (sizes in ``SIZES``):

1. ``logistic``: logistic regression by gradient descent written by hand, with Python scalar
   constants (``1 / (1 + exp(-z))``, ``lr * gradient``) and a 0-d bias;
2. ``mlp``: a two-layer tanh network trained with ``xp.value_and_grad`` against
   ``torch.func.grad_and_value`` and a ``loss.backward()`` loop (torch) and
   ``jax.value_and_grad`` (JAX). NumPy and CuPy have no autodiff: there the native side is the
   gradient derived by hand, so the ratio also holds the difference between torch.func's
   backward pass (which differentiates arraymux's NumPy and CuPy arrays) and the written one;
3. ``kmeans``: Lloyd's algorithm with a one-hot matrix product, one iteration a step;
4. ``pi``: a Monte Carlo estimate of pi from uniform numbers, with arraymux's functional keys
   (``xp.random.key``/``split``/``uniform``: Threefry computed with arraymux's operations) and
   with its ``Generator(fast=True)`` (the backend's own generator), both against the backend's
   own generator (``numpy.random.Generator``, ``torch.Generator``, ``jax.random``, CuPy's);
5. ``chain``: twenty small elementwise operations on 1000 elements: the cost of dispatch.

On JAX, the programs are also timed compiled on both sides (``xp.jit`` against ``jax.jit``,
as JAX users write their steps). torch's rows are eager: ``torch.compile`` is not how a torch
user writes these loops (``bench_transforms.py`` times it).

Two timings per program and device, in rounds that alternate the two sides (and their order):
**throughput**, N iterations then one wait for the result (``xp.synchronize`` on arraymux's
side; ``torch.cuda.synchronize``, ``jax.block_until_ready`` or CuPy's stream on the native
side, nothing on NumPy and torch's CPU), and **latency**, a wait after every iteration. The
ratio arraymux / native is the median over the rounds of the ratio of the two batches of a
round, with its quartiles, beside the ratio of the best batches of each side (steadier where
other processes share the CPU); native times are the median per iteration. Single-threaded,
as the other benchmarks.

Devices: every one present whose backend has native versions here (NumPy, torch, JAX, CuPy),
the first GPU of each kind only; ``--devices`` names others.

Run::

    python benchmarks/bench_programs.py                   # every device present
    python benchmarks/bench_programs.py --quick           # 1.5 s a program instead of 10
    python benchmarks/bench_programs.py --devices numpy,torch:cuda:0 --programs mlp,chain
    python benchmarks/bench_programs.py --json PATH       # also write the rows as JSON
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

import numpy as np  # noqa: E402
from _timing import fmt  # noqa: E402

import arraymux as xp  # noqa: E402

SIZES = {
    "logistic": {"n": 4096, "d": 32},
    "mlp": {"batch": 256, "d_in": 32, "hidden": 64},
    "kmeans": {"n": 4096, "d": 8, "k": 16},
    "pi": {"n": 65536},
    "chain": {"n": 1000},
}
LR = 0.1
CHECK_STEPS = 3
BATCH_S = 0.005  # seconds of one timed batch
MAX_ROUNDS = 400
BACKENDS = ("numpy", "torch", "jax", "cupy")  # those with native versions here

Results = tuple[np.ndarray, ...]


@dataclass
class Side:
    """One way of running a program: a fresh state, one iteration, the wait, the result."""

    init: Callable[[], Any]
    step: Callable[..., Any]  # step(state, *data) -> the next state
    sync: Callable[[Any], Any]
    result: Callable[[Any], Results]  # for the check
    data: tuple[Any, ...] = ()
    state: Any = None


@dataclass
class Case:
    program: str
    variant: str
    device: str
    native_name: str  # what the native side uses
    native: Side
    ours: Side
    check: Callable[[Results, Results], None]
    note: str = ""


# -- helpers ----------------------------------------------------------------------------------


def native_lib(device: xp.Device) -> Any:
    """The module a user of the backend calls: numpy, cupy, torch or jax.numpy."""
    name = {"numpy": "numpy", "cupy": "cupy", "torch": "torch", "jax": "jax.numpy"}
    return __import__(name[device.backend], fromlist=["_"])


def native_of(a: np.ndarray, device: xp.Device) -> Any:
    """A native copy of the NumPy array ``a`` on ``device``."""
    return xp.asarray(np.array(a, copy=True), device=device).native


def host(v: Any) -> np.ndarray:
    """A NumPy copy of an Array, a native array or a number (for the checks only)."""
    if isinstance(v, int | float | np.generic):
        return np.asarray(v)
    if hasattr(v, "detach"):  # a tensor that requires grad
        v = v.detach()
    return np.asarray(xp.to_numpy(v))


def native_sync(device: xp.Device) -> Callable[[Any], Any]:
    """How a user of the backend waits for a result (nothing where calls are eager)."""
    if device.backend == "torch" and device.place.startswith("cuda"):
        import torch

        where = device.native
        return lambda state: torch.cuda.synchronize(where)
    if device.backend == "jax":
        import jax

        return jax.block_until_ready
    if device.backend == "cupy":
        import cupy

        return lambda state: cupy.cuda.get_current_stream().synchronize()
    return lambda state: None


def device_context(device: xp.Device) -> contextlib.AbstractContextManager[Any]:
    """What a user of the backend writes around the program to run it on ``device``: its GPU
    made current (native creation functions, CuPy's generator and stream follow it); for JAX
    on an accelerator also full float32 matrix products, which arraymux asks for there (JAX's
    default is TF32 inputs), so that both sides do the same arithmetic."""
    stack = contextlib.ExitStack()
    if device.backend == "cupy":
        stack.enter_context(device.native)
    elif device.backend == "torch" and device.place.startswith("cuda"):
        import torch

        stack.enter_context(torch.cuda.device(device.native))
    elif device.backend == "jax":
        import jax

        if device.native != jax.devices()[0]:
            stack.enter_context(jax.default_device(device.native))
        if device.native.platform != "cpu":
            stack.enter_context(jax.default_matmul_precision("highest"))
    return stack


def close(rtol: float, atol: float) -> Callable[[Results, Results], None]:
    def check(native: Results, ours: Results) -> None:
        for a, b in zip(native, ours, strict=True):
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)

    return check


def sync_all(state: Any) -> Any:
    """arraymux's wait for a state that is a tuple of arrays."""
    return xp.synchronize(*state)


# -- 1. logistic regression -------------------------------------------------------------------


def logistic_xp(state: Any, X: Any, y: Any) -> Any:
    w, b = state
    z = X @ w + b
    p = 1 / (1 + xp.exp(-z))
    err = p - y
    gw = X.T @ err / X.shape[0]
    gb = xp.mean(err)
    return w - LR * gw, b - LR * gb


def logistic_cases(device: xp.Device) -> list[Case]:
    n, d = SIZES["logistic"]["n"], SIZES["logistic"]["d"]
    rng = np.random.default_rng(1)
    X0 = rng.standard_normal((n, d), dtype=np.float32)
    noise = 0.5 * rng.standard_normal(n, dtype=np.float32)
    y0 = (X0 @ rng.standard_normal(d, dtype=np.float32) + noise > 0).astype(np.float32)
    w0, b0 = np.zeros(d, np.float32), np.zeros((), np.float32)
    X, y = native_of(X0, device), native_of(y0, device)
    lib = native_lib(device)

    # NumPy, CuPy, torch and jax.numpy spell this program the same way.
    def native(state: Any, X: Any, y: Any) -> Any:
        w, b = state
        z = X @ w + b
        p = 1 / (1 + lib.exp(-z))
        err = p - y
        gw = X.T @ err / X.shape[0]
        gb = err.mean()
        return w - LR * gw, b - LR * gb

    def result(state: Any) -> Results:
        return host(state[0]), host(state[1])

    def make(variant: str, name: str, native_step: Any, ours_step: Any) -> Case:
        return Case(
            "logistic",
            variant,
            str(device),
            name,
            Side(
                lambda: (native_of(w0, device), native_of(b0, device)),
                native_step,
                native_sync(device),
                result,
                (X, y),
            ),
            Side(
                lambda: (xp.asarray(native_of(w0, device)), xp.asarray(native_of(b0, device))),
                ours_step,
                sync_all,
                result,
                (xp.asarray(X), xp.asarray(y)),
            ),
            close(1e-4, 1e-5),
        )

    cases = [make("", f"{lib.__name__} eager", native, logistic_xp)]
    if device.backend == "jax":
        import jax

        cases.append(make("jit", "jax.jit", jax.jit(native), xp.jit(logistic_xp)))
    return cases


# -- 2. MLP trained with value_and_grad -------------------------------------------------------


def mlp_loss(ns: Any, p: dict[str, Any], x: Any, y: Any) -> Any:
    """The loss, in the names that arraymux, torch and jax.numpy share."""
    h = ns.tanh(x @ p["w1"] + p["b1"])
    return ns.mean((h @ p["w2"] + p["b2"] - y) ** 2)


def mlp_loss_xp(p: dict[str, Any], x: Any, y: Any) -> Any:
    return mlp_loss(xp, p, x, y)


mlp_value_and_grad = xp.value_and_grad(mlp_loss_xp)


def mlp_xp(state: Any, x: Any, y: Any) -> Any:
    params, _ = state
    loss, grads = mlp_value_and_grad(params, x, y)
    return {k: params[k] - LR * grads[k] for k in params}, loss


def mlp_cases(device: xp.Device) -> list[Case]:
    s = SIZES["mlp"]
    batch, d_in, hidden = s["batch"], s["d_in"], s["hidden"]
    rng = np.random.default_rng(2)
    p0 = {
        "w1": (rng.standard_normal((d_in, hidden)) / np.sqrt(d_in)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, 1)) / np.sqrt(hidden)).astype(np.float32),
        "b2": np.zeros(1, np.float32),
    }
    x0 = rng.standard_normal((batch, d_in), dtype=np.float32)
    y0 = np.sin(x0[:, :1] + x0[:, 1:2])
    x, y = native_of(x0, device), native_of(y0, device)
    lib = native_lib(device)
    wait = native_sync(device)
    zero = np.zeros((), np.float32)

    # The state: the parameters and the last loss.
    def native_init() -> Any:
        return {k: native_of(v, device) for k, v in p0.items()}, native_of(zero, device)

    def ours_init() -> Any:
        params = {k: xp.asarray(native_of(v, device)) for k, v in p0.items()}
        return params, xp.asarray(native_of(zero, device))

    def result(state: Any) -> Results:
        params, loss = state
        return (host(loss), *(host(params[k]) for k in sorted(params)))

    def ours_sync(state: Any) -> Any:
        params, loss = state
        return xp.synchronize(loss, *params.values())

    def make(
        variant: str,
        name: str,
        native_step: Any,
        init: Any = native_init,
        ours_step: Any = mlp_xp,
        note: str = "",
    ) -> Case:
        return Case(
            "mlp",
            variant,
            str(device),
            name,
            Side(init, native_step, wait, result, (x, y)),
            Side(ours_init, ours_step, ours_sync, result, (xp.asarray(x), xp.asarray(y))),
            close(2e-4, 2e-6),  # float32 steps differentiated two ways: last bits differ
            note,
        )

    if device.backend in ("numpy", "cupy"):

        def by_hand(state: Any, x: Any, y: Any) -> Any:
            p, _ = state
            h = lib.tanh(x @ p["w1"] + p["b1"])
            r = h @ p["w2"] + p["b2"] - y
            loss = (r**2).mean()
            d_out = 2 * r / r.size
            d_pre = (d_out @ p["w2"].T) * (1 - h**2)
            grads = {
                "w1": x.T @ d_pre,
                "b1": d_pre.sum(axis=0),
                "w2": h.T @ d_out,
                "b2": d_out.sum(axis=0),
            }
            return {k: p[k] - LR * grads[k] for k in p}, loss

        note = (
            f"{lib.__name__} has no autodiff: against the gradient derived by hand "
            "(arraymux differentiates with torch.func)"
        )
        return [make("value_and_grad", "gradient by hand", by_hand, note=note)]

    if device.backend == "torch":
        import torch
        import torch.func

        def torch_loss(p: dict[str, Any], x: Any, y: Any) -> Any:
            return mlp_loss(torch, p, x, y)

        grad_and_value = torch.func.grad_and_value(torch_loss)

        def functional(state: Any, x: Any, y: Any) -> Any:
            p, _ = state
            grads, loss = grad_and_value(p, x, y)
            return {k: p[k] - LR * grads[k] for k in p}, loss

        def leaves() -> Any:
            params = {k: native_of(v, device).requires_grad_() for k, v in p0.items()}
            return params, native_of(zero, device)

        def backward(state: Any, x: Any, y: Any) -> Any:
            p, _ = state
            loss = torch_loss(p, x, y)
            loss.backward()
            with torch.no_grad():
                for t in p.values():
                    t -= LR * t.grad
                    t.grad = None
            return p, loss.detach()

        return [
            make("torch.func", "torch.func.grad_and_value", functional),
            make("backward", "loss.backward()", backward, leaves),
        ]

    import jax

    def jax_loss(p: dict[str, Any], x: Any, y: Any) -> Any:
        return mlp_loss(lib, p, x, y)

    value_and_grad = jax.value_and_grad(jax_loss)

    def jax_step(state: Any, x: Any, y: Any) -> Any:
        p, _ = state
        loss, grads = value_and_grad(p, x, y)
        return jax.tree_util.tree_map(lambda a, g: a - LR * g, p, grads), loss

    return [
        make("value_and_grad", "jax.value_and_grad", jax_step),
        make("jit", "jax.jit", jax.jit(jax_step), ours_step=xp.jit(mlp_xp)),
    ]


# -- 3. k-means -------------------------------------------------------------------------------


def kmeans_xp(C: Any, X: Any) -> Any:
    k = C.shape[0]
    d2 = xp.sum(C * C, axis=1) - 2 * (X @ C.T)  # |x - c|^2 less |x|^2, the same in a row
    labels = xp.argmin(d2, axis=1)
    onehot = xp.astype(labels[:, None] == xp.arange(k, device=X.device), X.dtype)
    counts = xp.sum(onehot, axis=0)
    sums = onehot.T @ X
    return xp.where(counts[:, None] > 0, sums / xp.maximum(counts, 1)[:, None], C)


def kmeans_cases(device: xp.Device) -> list[Case]:
    s = SIZES["kmeans"]
    n, d, k = s["n"], s["d"], s["k"]
    rng = np.random.default_rng(3)
    centres = 4 * rng.standard_normal((k, d))
    X0 = (centres[rng.integers(0, k, n)] + rng.standard_normal((n, d))).astype(np.float32)
    C0 = X0[:k].copy()
    X = native_of(X0, device)
    lib = native_lib(device)

    if device.backend in ("numpy", "cupy"):

        def native(C: Any, X: Any) -> Any:
            d2 = (C * C).sum(axis=1) - 2 * (X @ C.T)
            labels = d2.argmin(axis=1)
            onehot = (labels[:, None] == lib.arange(C.shape[0])).astype(X.dtype)
            counts = onehot.sum(axis=0)
            sums = onehot.T @ X
            return lib.where(counts[:, None] > 0, sums / lib.maximum(counts, 1)[:, None], C)

    elif device.backend == "torch":
        import torch

        def native(C: Any, X: Any) -> Any:
            d2 = (C * C).sum(dim=1) - 2 * (X @ C.T)
            labels = d2.argmin(dim=1)
            onehot = torch.nn.functional.one_hot(labels, C.shape[0]).to(X.dtype)
            counts = onehot.sum(dim=0)
            sums = onehot.T @ X
            return torch.where(counts[:, None] > 0, sums / counts.clamp(min=1)[:, None], C)

    else:
        import jax

        def native(C: Any, X: Any) -> Any:
            d2 = (C * C).sum(axis=1) - 2 * (X @ C.T)
            labels = d2.argmin(axis=1)
            onehot = jax.nn.one_hot(labels, C.shape[0], dtype=X.dtype)
            counts = onehot.sum(axis=0)
            sums = onehot.T @ X
            return lib.where(counts[:, None] > 0, sums / lib.maximum(counts, 1)[:, None], C)

    def make(variant: str, name: str, native_step: Any, ours_step: Any) -> Case:
        def result(C: Any) -> Results:
            return (host(C),)

        return Case(
            "kmeans",
            variant,
            str(device),
            name,
            Side(lambda: native_of(C0, device), native_step, native_sync(device), result, (X,)),
            Side(
                lambda: xp.asarray(native_of(C0, device)),
                ours_step,
                xp.synchronize,
                result,
                (xp.asarray(X),),
            ),
            close(1e-4, 1e-4),
        )

    cases = [make("", f"{lib.__name__} eager", native, kmeans_xp)]
    if device.backend == "jax":
        import jax

        cases.append(make("jit", "jax.jit", jax.jit(native), xp.jit(kmeans_xp)))
    return cases


# -- 4. Monte Carlo estimate of pi ------------------------------------------------------------


def pi_cases(device: xp.Device) -> list[Case]:
    n = SIZES["pi"]["n"]
    lib = native_lib(device)

    def keys_xp(state: Any) -> Any:
        key, inside = state
        key, sub = xp.random.split(key)
        u = xp.random.uniform(sub, (n, 2), dtype=xp.float32)
        return key, inside + xp.count_nonzero(xp.sum(u * u, axis=1) <= 1)

    generator = xp.random.Generator(0, device=device, fast=True)

    def fast_xp(inside: Any) -> Any:
        u = generator.random((n, 2), dtype=xp.float32)
        return inside + xp.count_nonzero(xp.sum(u * u, axis=1) <= 1)

    integral = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]

    def keys_init() -> Any:
        return xp.random.key(0, device=device), xp.zeros((), dtype=integral, device=device)

    def fast_init() -> Any:
        return xp.zeros((), dtype=integral, device=device)

    keyed = device.backend == "jax"  # the native state: (key, count) on JAX, else the count
    if device.backend in ("numpy", "cupy"):
        rng = lib.random.default_rng(0)

        def native(inside: Any) -> Any:
            u = rng.random((n, 2), dtype=lib.float32)
            return inside + lib.count_nonzero((u * u).sum(axis=1) <= 1)

        def native_init() -> Any:
            return 0

        name = f"{lib.__name__}.random.default_rng"
    elif device.backend == "torch":
        import torch

        gen = torch.Generator(device=device.native)
        gen.manual_seed(0)
        where = device.native

        def native(inside: Any) -> Any:
            u = torch.rand((n, 2), generator=gen, device=where)
            return inside + torch.count_nonzero((u * u).sum(dim=1) <= 1)

        def native_init() -> Any:
            return torch.zeros((), dtype=torch.int64, device=where)

        name = "torch.Generator"
    else:
        import jax

        def native(state: Any) -> Any:
            key, inside = state
            key, sub = jax.random.split(key)
            u = jax.random.uniform(sub, (n, 2), dtype=lib.float32)
            return key, inside + lib.count_nonzero((u * u).sum(axis=1) <= 1)

        def native_init() -> Any:
            return jax.device_put((jax.random.key(0), lib.zeros((), lib.int32)), device.native)

        name = "jax.random"

    def estimate(inside: Any) -> Results:
        # the number of draws is not in the state: the check runs CHECK_STEPS steps
        return (np.asarray(4.0 * float(host(inside)) / (n * CHECK_STEPS)),)

    def check(native: Results, ours: Results) -> None:
        # Other random numbers on each side: both must be near pi (5 standard deviations).
        tol = 5 * 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / (n * CHECK_STEPS))
        for side, value in (("native", native[0]), ("arraymux", ours[0])):
            assert abs(float(value) - math.pi) < tol, f"the {side} estimate {value} is not pi"

    def native_side(step: Any) -> Side:
        count = (lambda s: estimate(s[1])) if keyed else estimate
        return Side(native_init, step, native_sync(device), count)

    def keys_side(step: Any) -> Side:
        return Side(keys_init, step, sync_all, lambda s: estimate(s[1]))

    cases = [
        Case("pi", "keys", str(device), name, native_side(native), keys_side(keys_xp), check),
        Case(
            "pi",
            "Generator(fast=True)",
            str(device),
            name,
            native_side(native),
            Side(fast_init, fast_xp, xp.synchronize, estimate),
            check,
        ),
    ]
    if keyed:
        import jax

        jitted = keys_side(xp.jit(keys_xp))
        cases.append(
            Case(
                "pi",
                "keys, jit",
                str(device),
                "jax.jit",
                native_side(jax.jit(native)),
                jitted,
                check,
            )
        )
    return cases


# -- 5. a chain of small elementwise operations -----------------------------------------------


def chain(ns: Any, x: Any) -> Any:
    """The program, in the names that arraymux, NumPy, CuPy, torch and jax.numpy share."""
    y = x * 1.5
    y = y + 0.25
    y = ns.sin(y)
    y = y * y
    y = y + x
    y = ns.abs(y)
    y = ns.sqrt(y)
    y = y - 0.5
    y = ns.tanh(y)
    y = y * 2.0
    y = ns.exp(-y)
    y = ns.log1p(y)
    y = y / 3.0
    y = ns.maximum(y, x)
    y = ns.cos(y)
    y = y**2
    y = 1.0 - y
    return ns.where(y > 0.5, y, x)  # 20 operations with the negation and the comparison


def chain_xp(x: Any) -> Any:
    return chain(xp, x)


def chain_cases(device: xp.Device) -> list[Case]:
    x0 = np.random.default_rng(5).random(SIZES["chain"]["n"], dtype=np.float32)
    lib = native_lib(device)

    # NumPy, CuPy, torch and jax.numpy spell this program the same way.
    def native(x: Any) -> Any:
        return chain(lib, x)

    def make(variant: str, name: str, native_step: Any, ours_step: Any) -> Case:
        def result(x: Any) -> Results:
            return (host(x),)

        return Case(
            "chain",
            variant,
            str(device),
            name,
            Side(lambda: native_of(x0, device), native_step, native_sync(device), result),
            Side(lambda: xp.asarray(native_of(x0, device)), ours_step, xp.synchronize, result),
            close(1e-5, 1e-6),
        )

    cases = [make("", f"{lib.__name__} eager", native, chain_xp)]
    if device.backend == "jax":
        import jax

        cases.append(make("jit", "jax.jit", jax.jit(native), xp.jit(chain_xp)))
    return cases


PROGRAMS: dict[str, Callable[[xp.Device], list[Case]]] = {
    "logistic": logistic_cases,
    "mlp": mlp_cases,
    "kmeans": kmeans_cases,
    "pi": pi_cases,
    "chain": chain_cases,
}


# -- timing -----------------------------------------------------------------------------------


def verify(case: Case) -> None:
    """Run both sides ``CHECK_STEPS`` iterations from their first state and compare."""
    results = []
    for side in (case.native, case.ours):
        state = side.init()
        for _ in range(CHECK_STEPS):
            state = side.step(state, *side.data)
        side.sync(state)
        results.append(side.result(state))
    try:
        case.check(*results)
    except AssertionError as e:
        where = f"{label(vars(case))} on {case.device}"
        raise AssertionError(f"{where}: arraymux and the native program disagree: {e}") from None


def batch(side: Side, n: int, latency: bool) -> float:
    """Seconds per iteration over ``n`` iterations, waiting once at the end or after each."""
    step, sync, data, state = side.step, side.sync, side.data, side.state
    if latency:
        t0 = time.perf_counter()
        for _ in range(n):
            state = step(state, *data)
            sync(state)
        took = time.perf_counter() - t0
    else:
        t0 = time.perf_counter()
        for _ in range(n):
            state = step(state, *data)
        sync(state)
        took = time.perf_counter() - t0
    side.state = state
    return took / n


def measure(case: Case, budget: float, min_rounds: int) -> dict[str, Any]:
    """Rounds of four batches (native and arraymux, throughput and latency), the order of the
    two sides swapped every round, for about ``budget`` seconds (at least ``min_rounds``
    rounds). Batches are short (about ``BATCH_S``, at least one iteration, the same number of
    iterations on both sides) and many: on a shared machine a pair of short batches that no
    other process disturbed is likely, so the median ratio is steady."""
    sides = (case.native, case.ours)
    for side in sides:
        side.state = side.init()
        batch(side, 2, latency=True)  # warm up (compiles, caches, the allocator)
    once = max(batch(side, 3, latency=True) for side in sides)
    n = max(1, round(BATCH_S / max(once, 1e-7)))
    rounds = min(MAX_ROUNDS, max(min_rounds, int(budget / (4 * n * once))))
    times: dict[str, tuple[list[float], list[float]]] = {
        "throughput": ([], []),
        "latency": ([], []),
    }
    for r in range(rounds):
        for mode, (native, ours) in times.items():
            for k in (0, 1) if r % 2 == 0 else (1, 0):
                (native, ours)[k].append(batch(sides[k], n, latency=mode == "latency"))
    row: dict[str, Any] = {
        "program": case.program,
        "variant": case.variant,
        "device": case.device,
        "native": case.native_name,
        "iterations": n,
        "rounds": rounds,
    }
    for mode, (native, ours) in times.items():
        ratios = [b / a for a, b in zip(native, ours, strict=True)]
        q1, med, q3 = np.quantile(ratios, [0.25, 0.5, 0.75])
        row[f"{mode}_native_s"] = float(np.median(native))
        row[f"{mode}_arraymux_s"] = float(np.median(ours))
        row[f"{mode}_ratio_quartiles"] = [float(q1), float(med), float(q3)]
        row[f"{mode}_best_ratio"] = min(ours) / min(native)
    if case.note:
        row["note"] = case.note
    return row


# -- output -----------------------------------------------------------------------------------


def ratio_cell(q: list[float]) -> str:
    return f"{q[1]:.3f} [{q[0]:.2f}-{q[2]:.2f}]"


def label(row: dict[str, Any]) -> str:
    return f"{row['program']} ({row['variant']})" if row["variant"] else row["program"]


def table(rows: list[dict[str, Any]]) -> str:
    head = ["program", "device", "native"]
    for mode in ("throughput", "latency"):
        head += [f"native time, {mode}", f"ratio, {mode}", "best"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [label(r), r["device"], r["native"]]
        for mode in ("throughput", "latency"):
            cells += [
                fmt(r[f"{mode}_native_s"]),
                ratio_cell(r[f"{mode}_ratio_quartiles"]),
                f"{r[f'{mode}_best_ratio']:.3f}",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def default_devices() -> list[xp.Device]:
    """Every device present with native versions here, the first GPU of each kind only."""
    out, seen = [], set()
    for d in xp.devices():
        if d.simulated or d.backend not in BACKENDS:
            continue
        kind = (d.backend, "gpu" if d.backend == "cupy" else d.place.split(":")[0])
        if kind not in seen:
            seen.add(kind)
            out.append(d)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", help="comma-separated devices (default: every one present)")
    parser.add_argument("--programs", help=f"comma-separated among {', '.join(PROGRAMS)}")
    parser.add_argument(
        "--quick", action="store_true", help="about 1.5 s per program and device instead of 10"
    )
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    chosen = args.devices.split(",") if args.devices else None
    devices = [xp.Device(d) for d in chosen] if chosen else default_devices()
    programs = args.programs.split(",") if args.programs else list(PROGRAMS)
    unknown = [p for p in programs if p not in PROGRAMS]
    if unknown:
        parser.error(f"unknown programs {unknown}; choose among {', '.join(PROGRAMS)}")
    try:
        import torch

        # One intra-op thread: on a small shared CPU, OpenMP's spinning threads make the
        # timings of both sides swing by orders of magnitude.
        torch.set_num_threads(1)
    except ImportError:
        pass
    min_rounds, budget = (11, 1.5) if args.quick else (31, 10.0)
    rows = []
    for device in devices:
        for program in programs:
            with device_context(device):
                cases = PROGRAMS[program](device)
            for case in cases:
                with device_context(device):
                    verify(case)
                    row = measure(case, budget, min_rounds)
                rows.append(row)
                print(
                    f"{label(row)} on {row['device']}: throughput "
                    f"{ratio_cell(row['throughput_ratio_quartiles'])}, latency "
                    f"{ratio_cell(row['latency_ratio_quartiles'])}, native "
                    f"{fmt(row['throughput_native_s'])}",
                    file=sys.stderr,
                    flush=True,
                )
    sizes = "; ".join(
        f"{p}: " + ", ".join(f"{k} = {v}" for k, v in SIZES[p].items()) for p in programs
    )
    print(f"## Programs, arraymux / native ({sizes})\n")
    print(
        "Ratio: arraymux's time over the native program's, median [quartiles] over rounds "
        "that alternate the two; best: the ratio of the best batches of each side (steadier "
        "than the median where other processes share the CPU); native time: the median per "
        "iteration. Throughput: one wait after N iterations; latency: a wait after each.\n"
    )
    print(table(rows))
    for r in rows:
        if "note" in r:
            print(f"\n{label(r)} on {r['device']}: {r['note']}.")
    slow = [
        f"{label(r)} on {r['device']}"
        for r in rows
        if max(r["throughput_ratio_quartiles"][1], r["latency_ratio_quartiles"][1]) > 1.05
    ]
    if slow:
        print("\nMore than 5 % slower than native: " + ", ".join(slow) + ".")
    if args.json:
        from _record import write_json

        write_json(
            args.json,
            "programs",
            rows,
            sizes={p: SIZES[p] for p in programs},
            unit="seconds per iteration",
        )


if __name__ == "__main__":
    main()
