"""Dispatch overhead of arraymux against the native call and other wrapping layers.

For float32 ``add`` and ``sum`` on 8, 1000 and 1e6 elements and ``matmul`` on 8x8 and 256x256,
this prints the time per call of the native library and the time each layer adds to it:
array-api-compat (namespace cached, and looked up with ``array_namespace`` on every call),
``autoray.do``, EagerPy (tensors wrapped beforehand), and arraymux (function and operator, and the
function's pure-Python twin, which runs where the C extension is not built).
Every figure is the minimum over many interleaved short batches, measured in one run,
single-threaded.

Run::

    python benchmarks/bench_overhead.py              # CPU backends present
    python benchmarks/bench_overhead.py --gpu        # torch:cuda, jax:gpu, cupy as present
    python benchmarks/bench_overhead.py --quick      # fewer repeats
    python benchmarks/bench_overhead.py --json PATH  # also write the rows as JSON
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit
from collections.abc import Callable
from typing import Any

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

CASES = [
    ("add", 8),
    ("add", 1000),
    ("add", 1_000_000),
    ("sum", 8),
    ("sum", 1000),
    ("sum", 1_000_000),
    ("matmul", 8),
    ("matmul", 256),
]


def _batch(fn: Callable[[], Any], target: float = 3e-4) -> int:
    """The number of calls that takes about ``target`` seconds (at least one)."""
    n = 1
    while n < 100_000:
        if timeit.timeit(fn, number=n) > target:
            break
        n *= 2
    return n


def _layers(device: str, op: str, size: int) -> tuple[dict[str, Callable[[], Any]], Any]:
    import array_api_compat

    import arraymux as xp
    from arraymux._compiled import python_twin

    backend = device.split(":")[0]
    d = xp.Device(device)
    shape = (size, size) if op == "matmul" else (size,)
    a = xp.reshape(xp.linspace(0, 1, _numel(shape), dtype=xp.float32, device=d), shape)
    b = a + 1
    na, nb = a.native, b.native
    mod = {"numpy": "numpy", "torch": "torch", "jax": "jax.numpy", "cupy": "cupy"}[backend]
    native_mod = __import__(mod, fromlist=["_"])
    compat = array_api_compat.array_namespace(na)
    layers: dict[str, Callable[[], Any]] = {}
    if op == "add":
        nf, cf, xf = native_mod.add, compat.add, xp.add
        pf = python_twin(xf)
        layers["native"] = lambda: nf(na, nb)
        layers["compat (cached)"] = lambda: cf(na, nb)
        layers["compat (lookup)"] = lambda: array_api_compat.array_namespace(na, nb).add(na, nb)
        layers["arraymux fn"] = lambda: xf(a, b)._native
        layers["arraymux op"] = lambda: (a + b)._native
        layers["arraymux fn, pure Python"] = lambda: pf(a, b)._native
    elif op == "sum":
        nf, cf, xf = native_mod.sum, compat.sum, xp.sum
        pf = python_twin(xf)
        layers["native"] = lambda: nf(na)
        layers["compat (cached)"] = lambda: cf(na)
        layers["compat (lookup)"] = lambda: array_api_compat.array_namespace(na).sum(na)
        layers["arraymux fn"] = lambda: xf(a)._native
        layers["arraymux op"] = layers["arraymux fn"]
        layers["arraymux fn, pure Python"] = lambda: pf(a)._native
    else:
        nf, cf, xf = native_mod.matmul, compat.matmul, xp.matmul
        pf = python_twin(xf)
        layers["native"] = lambda: nf(na, nb)
        layers["compat (cached)"] = lambda: cf(na, nb)
        layers["compat (lookup)"] = lambda: array_api_compat.array_namespace(na, nb).matmul(na, nb)
        layers["arraymux fn"] = lambda: xf(a, b)._native
        layers["arraymux op"] = lambda: (a @ b)._native
        layers["arraymux fn, pure Python"] = lambda: pf(a, b)._native
    try:
        import autoray

        layers["autoray.do"] = lambda: (
            autoray.do(op, na, nb) if op != "sum" else autoray.do("sum", na)
        )
    except ImportError:
        pass
    if backend in ("numpy", "torch", "jax"):
        try:
            import eagerpy as ep

            ea, eb = ep.astensor(na), ep.astensor(nb)
            if op == "add":
                layers["eagerpy"] = lambda: (ea + eb).raw
            elif op == "sum":
                layers["eagerpy"] = lambda: ea.sum().raw
            else:
                layers["eagerpy"] = lambda: ep.matmul(ea, eb).raw
        except ImportError:
            pass
    return layers, (na, nb)


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _identity(r: Any) -> Any:
    return r


def _async_sync(device: str) -> Callable[[Any], None] | None:
    """How to wait for a result of an asynchronous backend (None for a synchronous one).

    JAX, CUDA and CuPy calls return before the work is done: a batch of calls is timed and
    the wait is paid once per batch, so that per-call figures measure dispatch, not the
    latency of a thread hand-off."""
    backend = device.split(":")[0]
    if backend == "jax":
        return lambda r: r.block_until_ready()
    if backend == "torch" and "cuda" in device:
        import torch

        return lambda r: torch.cuda.synchronize()
    if backend == "cupy":
        import cupy

        return lambda r: cupy.cuda.Device().synchronize()
    return None


ORDER = [
    "native",
    "compat (cached)",
    "compat (lookup)",
    "autoray.do",
    "eagerpy",
    "arraymux fn",
    "arraymux op",
    "arraymux fn, pure Python",
]


def run(devices: list[str], rounds: int) -> list[dict[str, Any]]:
    """Per case, ``rounds`` interleaved rounds of one short batch per layer; the minimum wins.

    Short batches (about 0.3 ms) repeated many times give a far steadier minimum than a few
    long ones on a shared machine: a batch that no other process interrupted is likely."""
    rows = []
    for device in devices:
        for op, size in CASES:
            layers, _ = _layers(device, op, size)
            wait = _async_sync(device)
            timed: dict[str, Callable[[], Any]] = {}
            per_batch: dict[str, int] = {}
            for name, fn in layers.items():
                if wait is None:
                    timed[name], per_batch[name] = fn, 1
                else:

                    def burst(fn: Callable[[], Any] = fn, wait: Any = wait) -> None:
                        r = None
                        for _ in range(20):
                            r = fn()
                        wait(r)

                    timed[name], per_batch[name] = burst, 20
            for fn in timed.values():  # warm up
                fn()
            sizes = {name: _batch(fn) for name, fn in timed.items()}
            best = {k: float("inf") for k in layers}
            for _ in range(rounds):
                for name, fn in timed.items():
                    n = sizes[name]
                    t = timeit.timeit(fn, number=n) / (n * per_batch[name])
                    best[name] = min(best[name], t)
            rows.append({"device": device, "op": op, "size": size, **best})
            print(_row_line(rows[-1]), flush=True, file=sys.stderr)
    return rows


def _row_line(r: dict[str, Any]) -> str:
    return f"{r['device']} {r['op']} {r['size']}: " + ", ".join(
        f"{k}={r[k] * 1e9:.0f}ns" for k in ORDER if k in r
    )


def markdown(rows: list[dict[str, Any]]) -> str:
    head = [
        "device",
        "op",
        "size",
        "native",
        *[f"{k} +ns" for k in ORDER[1:]],
        "arraymux fn / native",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        nat = r["native"]
        cells = [r["device"], r["op"], _size(r["op"], r["size"]), _fmt(nat)]
        for k in ORDER[1:]:
            cells.append(f"{(r[k] - nat) * 1e9:+.0f}" if k in r else "-")
        cells.append(f"{r['arraymux fn'] / nat:.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _size(op: str, n: int) -> str:
    return f"{n}x{n}" if op == "matmul" else f"{n:g}"


def _fmt(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", help="comma-separated devices (default: CPU backends)")
    parser.add_argument("--gpu", action="store_true", help="torch:cuda, jax:gpu and cupy")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    import arraymux as xp

    if args.devices:
        devices = args.devices.split(",")
    else:
        present = {str(d) for d in xp.devices()}
        wanted = (
            ["torch:cuda:0", "jax:gpu:0", "cupy:0"]
            if args.gpu
            else ["numpy:cpu", "torch:cpu", "jax:cpu:0"]
        )
        devices = [d for d in wanted if d in present]
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    rows = run(devices, rounds=40 if args.quick else 200)
    print(markdown(rows))
    if args.json:
        from _record import write_json

        write_json(args.json, "overhead", rows, unit="seconds per call")


if __name__ == "__main__":
    main()
