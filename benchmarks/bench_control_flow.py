"""Loops under jit against the engines' own loops: arraymux.scan and fori_loop inside
arraymux.jit versus jax.lax.scan / fori_loop inside jax.jit, and versus torch's own loops under
torch.compile, on the same recurrent computation (``c = tanh(c @ W + x_t)``, batch 16, at the
step counts and hidden sizes of ``--configs``; scan also stacks every ``c``). On torch, arraymux's scan and static fori_loop are
Python loops that dynamo unrolls, so the native side is the same loop written with torch
(``for`` over the steps, ``torch.stack``) under torch.compile; torch's own ``scan`` operator
(compiled with ``fullgraph=True``, which it needs in torch 2.13) is shown beside it. Eager
rows compare the loops without a compiler. Prints a markdown table; ratios are arraymux /
native (the median over alternating rounds, with the quartiles).

    python benchmarks/bench_control_flow.py [--configs 100x32,100x256]
        [--devices jax:cpu,torch:cpu,jax:gpu:0,torch:cuda:0] [--threads N]
        [--rounds 21] [--budget SECONDS] [--json PATH]

The clock is the wall clock: inductor's and XLA's kernels run on worker threads, which the
calling thread's CPU time does not see.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

import numpy as np
from _timing import ROUNDS, fmt, paired, set_rounds

import arraymux as xp

BATCH = 16


def data(steps: int, hidden: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32)
    xs = rng.standard_normal((steps, BATCH, hidden)).astype(np.float32)
    c0 = np.zeros((BATCH, hidden), np.float32)
    return w, xs, c0


# -- the computation, written once with arraymux ------------------------------------------------


def xp_scan(w: Any, c0: Any, xs: Any) -> Any:
    def step(c: Any, x: Any) -> Any:
        c = xp.tanh(xp.matmul(c, w) + x)
        return c, c

    return xp.scan(step, c0, xs)


def xp_fori(w: Any, c0: Any, steps: int) -> Any:
    return xp.fori_loop(0, steps, lambda i, c: xp.tanh(xp.matmul(c, w) + c * 0.1), c0)


# -- engines ----------------------------------------------------------------------------------


def jax_rows(device: str, steps: int, hidden: int, budget: float) -> list[dict[str, Any]]:
    import jax
    import jax.numpy as jnp
    from jax import lax

    place = xp.Device(device).native
    w, xs, c0 = (jax.device_put(a, place) for a in data(steps, hidden))
    aw, axs, ac0 = xp.asarray(w), xp.asarray(xs), xp.asarray(c0)

    # The products at full float32 precision, as arraymux computes them on every device (JAX's
    # GPU default rounds their inputs to TF32: another computation, with other results).
    def mm(a: Any, b: Any) -> Any:
        return jnp.matmul(a, b, precision=lax.Precision.HIGHEST)

    def native_scan(w: Any, c0: Any, xs: Any) -> Any:
        def step(c: Any, x: Any) -> Any:
            c = jnp.tanh(mm(c, w) + x)
            return c, c

        return lax.scan(step, c0, xs)

    def native_fori(w: Any, c0: Any) -> Any:
        return lax.fori_loop(0, steps, lambda i, c: jnp.tanh(mm(c, w) + c * 0.1), c0)

    def sync(out: Any) -> None:
        jax.block_until_ready(
            jax.tree.map(
                lambda a: a.native if isinstance(a, xp.Array) else a,
                out,
                is_leaf=lambda a: isinstance(a, xp.Array),
            )
        )

    ns, os_ = jax.jit(native_scan), xp.jit(xp_scan)
    nf, of = jax.jit(native_fori), xp.jit(lambda w, c0: xp_fori(w, c0, steps))
    check(ns(w, c0, xs)[1], os_(aw, ac0, axs)[1])
    check(nf(w, c0), of(aw, ac0))
    return [
        row(
            device,
            "scan",
            "jax.jit(lax.scan)",
            (steps, hidden),
            *paired(lambda: ns(w, c0, xs), lambda: os_(aw, ac0, axs), sync, budget),
        ),
        row(
            device,
            "fori_loop",
            "jax.jit(lax.fori_loop)",
            (steps, hidden),
            *paired(lambda: nf(w, c0), lambda: of(aw, ac0), sync, budget),
        ),
    ]


def torch_rows(device: str, steps: int, hidden: int, budget: float) -> list[dict[str, Any]]:
    import torch
    from torch._higher_order_ops import scan as torch_scan

    place = xp.Device(device).native
    w, xs, c0 = (torch.from_numpy(a).to(place) for a in data(steps, hidden))
    aw, axs, ac0 = xp.asarray(w), xp.asarray(xs), xp.asarray(c0)

    def native_scan(w: Any, c0: Any, xs: Any) -> Any:
        c, ys = c0, []
        for t in range(xs.shape[0]):
            c = torch.tanh(c @ w + xs[t])
            ys.append(c)
        return c, torch.stack(ys)

    def native_fori(w: Any, c0: Any) -> Any:
        c = c0
        for _ in range(steps):
            c = torch.tanh(c @ w + c * 0.1)
        return c

    def hop_scan(w: Any, c0: Any, xs: Any) -> Any:
        def step(c: Any, x: Any) -> Any:
            c = torch.tanh(c @ w + x)
            return c, c.clone()

        return torch_scan(step, c0, xs)

    def sync(out: Any) -> None:
        if place.type == "cuda":
            torch.cuda.synchronize()

    rows = []
    # eager: the Python loops themselves
    check(native_scan(w, c0, xs)[1], xp_scan(aw, ac0, axs)[1])
    rows.append(
        row(
            device,
            "scan, eager",
            "Python loop",
            (steps, hidden),
            *paired(lambda: native_scan(w, c0, xs), lambda: xp_scan(aw, ac0, axs), sync, budget),
        )
    )
    rows.append(
        row(
            device,
            "fori_loop, eager",
            "Python loop",
            (steps, hidden),
            *paired(lambda: native_fori(w, c0), lambda: xp_fori(aw, ac0, steps), sync, budget),
        )
    )
    ns, os_ = torch.compile(native_scan), xp.jit(xp_scan)
    nf, of = torch.compile(native_fori), xp.jit(lambda w, c0: xp_fori(w, c0, steps))
    hs = torch.compile(hop_scan, fullgraph=True)
    check(ns(w, c0, xs)[1], os_(aw, ac0, axs)[1])
    check(hs(w, c0, xs)[1], os_(aw, ac0, axs)[1])
    check(nf(w, c0), of(aw, ac0))
    rows.append(
        row(
            device,
            "scan",
            "torch.compile(Python loop)",
            (steps, hidden),
            *paired(lambda: ns(w, c0, xs), lambda: os_(aw, ac0, axs), sync, budget),
        )
    )
    rows.append(
        row(
            device,
            "scan",
            "torch.compile(torch scan operator)",
            (steps, hidden),
            *paired(lambda: hs(w, c0, xs), lambda: os_(aw, ac0, axs), sync, budget),
        )
    )
    rows.append(
        row(
            device,
            "fori_loop",
            "torch.compile(Python loop)",
            (steps, hidden),
            *paired(lambda: nf(w, c0), lambda: of(aw, ac0), sync, budget),
        )
    )
    return rows


# -- measuring ----------------------------------------------------------------------------------


def check(native: Any, ours: Any) -> None:
    # to_numpy takes native arrays of every backend too (a CUDA tensor refuses np.asarray)
    np.testing.assert_allclose(xp.to_numpy(native), xp.to_numpy(ours), rtol=1e-4, atol=1e-5)


def row(
    device: str,
    case: str,
    native_name: str,
    size: tuple[int, int],
    native: float,
    ours: float,
    spread: tuple[float, float, float],
) -> dict[str, Any]:
    return {
        "device": device,
        "case": case,
        "native": native_name,
        "steps": size[0],
        "hidden": size[1],
        "native_s": native,
        "arraymux_s": ours,
        "ratio_q1": spread[0],
        "ratio": spread[1],
        "ratio_q3": spread[2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--configs", default="100x32,100x256", help="STEPSxHIDDEN,...")
    parser.add_argument("--devices", default="jax:cpu,torch:cpu")
    parser.add_argument("--threads", type=int, help="torch's CPU threads")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--budget", type=float, default=4.0, help="seconds per row")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    set_rounds(args.rounds)
    devices = args.devices.split(",")
    if args.threads and importlib.util.find_spec("torch"):
        import torch

        torch.set_num_threads(args.threads)
    rows: list[dict[str, Any]] = []
    for config in args.configs.split(","):
        steps, hidden = map(int, config.split("x"))
        for device in devices:
            rows += (jax_rows if device.startswith("jax") else torch_rows)(
                device, steps, hidden, args.budget
            )
    print(
        "| device | loop | native | steps x hidden | native | arraymux "
        "| arraymux / native (quartiles) |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['device']} | {r['case']} | {r['native']} | {r['steps']} x {r['hidden']} | "
            f"{fmt(r['native_s'])} | {fmt(r['arraymux_s'])} | {r['ratio']:.3f} "
            f"({r['ratio_q1']:.3f}-{r['ratio_q3']:.3f}) |"
        )
    if args.json:
        from _record import write_json

        write_json(args.json, "control_flow", rows, configs=args.configs)


if __name__ == "__main__":
    main()
