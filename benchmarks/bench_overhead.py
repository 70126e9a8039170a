"""Dispatch overhead of arraymux against the native call and other wrapping layers.

For float32 ``add`` and ``sum`` on 8, 1000 and 1e6 elements and ``matmul`` on 8x8 and 256x256,
this prints the time per call of the native library and the time each layer adds to it:
array-api-compat (namespace cached, and looked up with ``array_namespace`` on every call),
``autoray.do``, EagerPy (tensors wrapped beforehand), and arraymux (function and operator).
Every figure is the minimum over interleaved repeats, measured in one run, single-threaded.

Run::

    python benchmarks/bench_overhead.py              # CPU backends present
    python benchmarks/bench_overhead.py --gpu        # torch:cuda, jax:gpu, cupy as present
    python benchmarks/bench_overhead.py --quick      # fewer repeats
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


def _time(fn: Callable[[], Any], budget: float) -> float:
    """Seconds per call: the number of calls is chosen so one batch takes about ``budget``."""
    n, t = 1, 0.0
    while True:
        t = timeit.timeit(fn, number=n)
        if t > budget / 4 or n >= 1_000_000:
            break
        n *= 4
    n = max(1, int(n * budget / max(t, 1e-9)))
    return timeit.timeit(fn, number=n) / n


def _layers(device: str, op: str, size: int) -> tuple[dict[str, Callable[[], Any]], Any]:
    import array_api_compat

    import arraymux as xp

    backend = device.split(":")[0]
    d = xp.Device(device)
    shape = (size, size) if op == "matmul" else (size,)
    a = xp.reshape(xp.linspace(0, 1, _numel(shape), dtype=xp.float32, device=d), shape)
    b = a + 1
    na, nb = a.native, b.native
    sync: Callable[[Any], Any] = _sync_fn(backend)
    mod = {"numpy": "numpy", "torch": "torch", "jax": "jax.numpy", "cupy": "cupy"}[backend]
    native_mod = __import__(mod, fromlist=["_"])
    compat = array_api_compat.array_namespace(na)
    layers: dict[str, Callable[[], Any]] = {}
    if op == "add":
        nf, cf, xf = native_mod.add, compat.add, xp.add
        layers["native"] = lambda: sync(nf(na, nb))
        layers["compat (cached)"] = lambda: sync(cf(na, nb))
        layers["compat (lookup)"] = lambda: sync(
            array_api_compat.array_namespace(na, nb).add(na, nb)
        )
        layers["arraymux fn"] = lambda: sync(xf(a, b)._native)
        layers["arraymux op"] = lambda: sync((a + b)._native)
    elif op == "sum":
        nf, cf, xf = native_mod.sum, compat.sum, xp.sum
        layers["native"] = lambda: sync(nf(na))
        layers["compat (cached)"] = lambda: sync(cf(na))
        layers["compat (lookup)"] = lambda: sync(array_api_compat.array_namespace(na).sum(na))
        layers["arraymux fn"] = lambda: sync(xf(a)._native)
        layers["arraymux op"] = layers["arraymux fn"]
    else:
        nf, cf, xf = native_mod.matmul, compat.matmul, xp.matmul
        layers["native"] = lambda: sync(nf(na, nb))
        layers["compat (cached)"] = lambda: sync(cf(na, nb))
        layers["compat (lookup)"] = lambda: sync(
            array_api_compat.array_namespace(na, nb).matmul(na, nb)
        )
        layers["arraymux fn"] = lambda: sync(xf(a, b)._native)
        layers["arraymux op"] = lambda: sync((a @ b)._native)
    try:
        import autoray

        layers["autoray.do"] = lambda: sync(
            autoray.do(op, na, nb) if op != "sum" else autoray.do("sum", na)
        )
    except ImportError:
        pass
    if backend in ("numpy", "torch", "jax"):
        try:
            import eagerpy as ep

            ea, eb = ep.astensor(na), ep.astensor(nb)
            if op == "add":
                layers["eagerpy"] = lambda: sync((ea + eb).raw)
            elif op == "sum":
                layers["eagerpy"] = lambda: sync(ea.sum().raw)
            else:
                layers["eagerpy"] = lambda: sync(ep.matmul(ea, eb).raw)
        except ImportError:
            pass
    return layers, (na, nb)


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _sync_fn(backend: str) -> Callable[[Any], Any]:
    if backend == "jax":
        return lambda r: r.block_until_ready()
    if backend == "torch":
        import torch

        if torch.cuda.is_available():
            return lambda r: r
    return lambda r: r


def _gpu_sync(device: str) -> Callable[[], None]:
    backend = device.split(":")[0]
    if backend == "torch":
        import torch

        return torch.cuda.synchronize
    if backend == "cupy":
        import cupy

        return cupy.cuda.Device().synchronize
    return lambda: None


ORDER = [
    "native",
    "compat (cached)",
    "compat (lookup)",
    "autoray.do",
    "eagerpy",
    "arraymux fn",
    "arraymux op",
]


def run(devices: list[str], repeats: int, budget: float) -> list[dict[str, Any]]:
    rows = []
    for device in devices:
        for op, size in CASES:
            layers, _ = _layers(device, op, size)
            gsync = _gpu_sync(device) if "cuda" in device or device.startswith("cupy") else None
            best = {k: float("inf") for k in layers}
            for fn in layers.values():  # warm up
                fn()
            for _ in range(repeats):
                for name, fn in layers.items():
                    if gsync is not None:

                        def timed(fn: Callable[[], Any] = fn, gsync: Any = gsync) -> None:
                            for _ in range(20):
                                fn()
                            gsync()

                        t = _time(timed, budget) / 20
                    else:
                        t = _time(fn, budget)
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
    rows = run(devices, repeats=3 if args.quick else 7, budget=0.02 if args.quick else 0.05)
    print(markdown(rows))


if __name__ == "__main__":
    main()
