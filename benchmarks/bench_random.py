"""Random-number benchmark: float32 normals per device, arraymux.random beside the backend.

For each device it times, in the same run and in alternating rounds, the backend's own
generator (``numpy.random.Generator.standard_normal``, ``torch.randn``, ``jax.random.normal``
under ``jax.jit``, ``cupy.random.Generator.standard_normal``, ``dask.array.random``), arraymux's
reproducible generator (``Generator(seed, device)``: Threefry-2x32, the same numbers on every
device), the same inside ``xp.jit`` on torch and JAX
(compiled once before timing; on torch also beside ``torch.randn`` under ``torch.compile``,
the backend's own generator inside its own compiler, as JAX's already is), and its fast mode (``fast=True``: the backend's own
generator behind arraymux's API), and prints the ratios. Each timing waits for the result
(``arraymux.synchronize``): after every draw (the latency), or with ``--queued N`` once after
N queued draws (the throughput on a GPU, where a hidden synchronisation would show).

Usage::

    python benchmarks/bench_random.py [--n 1e7] [--rounds 5] [--queued 1] [--devices numpy,torch:cpu]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import arraymux as xp


def native_normal(device: xp.Device, n: int) -> Callable[[], Any]:
    """The backend's own generator drawing ``n`` float32 normals on ``device``."""
    b = device.backend
    if b == "torch":
        import torch

        gen = torch.Generator(device=device.native)
        gen.manual_seed(0)
        return lambda: torch.randn(n, generator=gen, device=device.native, dtype=torch.float32)
    if b == "jax":
        import jax

        key = jax.device_put(jax.random.key(0), device.native)
        f = jax.jit(lambda k: jax.random.normal(k, (n,), "float32"))
        return lambda: f(key)
    if b == "cupy":
        import cupy

        with device.native:
            rng = cupy.random.default_rng(0)
        return lambda: rng.standard_normal(n, dtype="float32")
    if b == "dask":
        import dask.array as da

        rng = da.random.default_rng(0)
        return lambda: rng.standard_normal(n, dtype="float32").persist()
    import numpy as np

    rng = np.random.default_rng(0)
    return lambda: rng.standard_normal(n, dtype=np.float32)


def native_compiled(device: xp.Device, n: int) -> Callable[[], Any] | None:
    """The backend's own generator inside its compiler, where that differs from
    :func:`native_normal`: ``torch.randn`` under ``torch.compile`` (inductor's own random
    kernel); JAX's native draw is already under ``jax.jit``."""
    if device.backend != "torch":
        return None
    import torch

    place = device.native
    return torch.compile(lambda: torch.randn(n, device=place, dtype=torch.float32))


def best(fun: Callable[[], Any], device: xp.Device, queued: int = 1) -> float:
    """Seconds per call of ``fun``: ``queued`` calls, then one wait for the last result (1:
    the latency of a call; more: the throughput of a queue of calls, as a program runs)."""
    start = time.perf_counter()
    for _ in range(queued - 1):
        fun()
    out = fun()
    if device.backend == "dask" and isinstance(out, xp.Array):
        out = out.native.persist()
    xp.synchronize(out if not isinstance(out, xp.Array) or device.backend != "dask" else device)
    if device.backend in ("torch", "cupy"):
        xp.synchronize(device)
    return (time.perf_counter() - start) / queued


def _time(t: float) -> str:
    """Seconds as microseconds below a millisecond, else as milliseconds."""
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms"


def run(devices: list[xp.Device], n: int, rounds: int, queued: int = 1) -> None:
    how = "a wait after each draw" if queued == 1 else f"{queued} draws queued, then one wait"
    print(f"float32 normals, n = {n:g}; best of {rounds} alternating rounds, {how}\n")
    print(
        "| device | native | native compiled | arraymux reproducible | ratio "
        "| reproducible in xp.jit | ratio | vs native compiled | arraymux fast | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for device in devices:
        native = native_normal(device, n)
        repro = xp.random.Generator(0, device=device)
        fast = xp.random.Generator(0, device=device, fast=True)
        cases = {
            "native": native,
            "repro": lambda g=repro: g.normal(shape=(n,), dtype=xp.float32),
            "fast": lambda g=fast: g.normal(shape=(n,), dtype=xp.float32),
        }
        if device.backend in ("torch", "jax"):
            # Inside a user's xp.jit the engine fuses the generator's integer operations.
            key = xp.random.key(0, device=device)
            fused = xp.jit(lambda k: xp.random.normal(k, (n,), xp.float32))
            cases["jit"] = lambda f=fused, k=key: f(k)
        compiled = native_compiled(device, n)
        if compiled is not None:
            cases["compiled"] = compiled
        times = {name: float("inf") for name in cases}
        for fun in cases.values():  # warm up (compiles, allocator)
            best(fun, device)
        for _ in range(rounds):
            for name, fun in cases.items():
                times[name] = min(times[name], best(fun, device, queued))
        t0 = times["native"]
        # JAX's native draw is compiled (jax.jit) already.
        tc = times.get("compiled", t0 if device.backend == "jax" else None)
        cells = [_time(t0), "-" if "compiled" not in times else _time(times["compiled"])]
        for name in ("repro", "jit", "fast"):
            t = times.get(name)
            cells += ["-", "-"] if t is None else [_time(t), f"{t / t0:.2f}x"]
            if name == "jit":
                cells.append("-" if t is None or tc is None else f"{t / tc:.2f}x")
        print(f"| {device} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=float, default=1e7, help="numbers per draw")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--queued",
        type=int,
        default=1,
        help="draws per wait: 1 times the latency, more the throughput (GPUs)",
    )
    parser.add_argument("--devices", default="", help="comma-separated; all real devices if empty")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message=r".*torch\.jit\.script.*")
    if args.devices:
        devices = [xp.Device(d) for d in args.devices.split(",")]
    else:
        devices = [d for d in xp.devices() if not d.simulated and d.backend != "array_api_strict"]
    run(devices, int(args.n), args.rounds, args.queued)


if __name__ == "__main__":
    main()
