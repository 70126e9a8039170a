"""Transfer benchmark: arraymux.to_device for every pair of devices, beside the naive route.

For each ordered pair of devices this machine has and each size, it prints the time of
``arraymux.to_device`` (and whether it was zero-copy) beside the naive route, ``np.asarray`` on
the source then the target's ``asarray`` (a copy where sharing would let torch or CuPy write
into a JAX array, as ``to_device`` makes), measured in the same run. Host<->GPU pairs also get
GB/s, beside torch's own pinned-memory bandwidth measured in the same run. With two GPUs,
moves between them (torch:cuda:0 -> torch:cuda:1, cupy:0 -> jax:gpu:1, ...) follow, beside
torch's own ``Tensor.to("cuda:1")``. On a GPU machine, uploads of a torch:cpu tensor in pinned
memory follow. Last, it reads 64
arrays of 1000 elements per device with one batched ``to_numpy`` and one by one.

Usage::

    python benchmarks/bench_transfer.py [--quick] [--sizes 1KiB,1MiB,64MiB,256MiB]
                                        [--devices numpy,torch:cuda:0,cupy:0] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import arraymux as xp
from arraymux import _transfer

_UNITS = {"B": 1, "KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30}


def parse_size(text: str) -> int:
    t = text.strip().upper()
    for unit in ("KIB", "MIB", "GIB", "B"):
        if t.endswith(unit):
            return int(float(t[: -len(unit)]) * _UNITS[unit])
    return int(t)


def label(n: int) -> str:
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div:
            return f"{n // div}{unit}"
    return f"{n}B"


def sync(device: xp.Device) -> None:
    """Wait for the work queued on ``device``."""
    if device.backend == "torch" and device.place.startswith("cuda"):
        import torch

        torch.cuda.synchronize(device.native)
    elif device.backend == "cupy":
        import cupy

        with device.native:
            cupy.cuda.get_current_stream().synchronize()


def block(native: Any) -> None:
    ready = getattr(native, "block_until_ready", None)
    if ready is not None:
        ready()


def timeit(
    fn: Callable[..., Any],
    device: xp.Device,
    budget: float,
    max_reps: int,
    fresh: Callable[[], Any] | None = None,
) -> float:
    """Best time of ``fn`` in seconds (results are synchronised and dropped each time).

    With ``fresh``, each repetition calls ``fn(fresh())``, making the argument outside the
    timed region: a backend that caches the host copy of an array (``np.asarray`` of a
    ``jax.Array`` keeps its NumPy value) would otherwise read it for free from the second
    repetition on."""
    best = float("inf")
    spent = 0.0
    reps = 0
    while reps < max_reps and (reps < 2 or spent < budget):
        args = () if fresh is None else (fresh(),)
        t0 = time.perf_counter()
        out = fn(*args)
        block(getattr(out, "native", out))
        sync(device)
        dt = time.perf_counter() - t0
        del out, args
        best = min(best, dt)
        spent += dt
        reps += 1
    return best


def timeit_pair(
    ours: Callable[..., Any],
    base: Callable[..., Any],
    device: xp.Device,
    budget: float,
    max_reps: int,
    fresh: Callable[[], Any] | None = None,
) -> tuple[float, float]:
    """Best times of ``ours`` and ``base`` as :func:`timeit` gives them, measured in
    alternating repetitions, so that both see the same state of the machine (at 64 MiB and
    more, the memory the allocator holds changes from one repetition to the next)."""
    best = [float("inf"), float("inf")]
    spent = 0.0
    rounds = 0
    while rounds < max_reps and (rounds < 2 or spent < 2 * budget):
        for k, fn in enumerate((ours, base)):
            t = timeit(fn, device, 0.0, 1, fresh)
            best[k] = min(best[k], t)
            spent += t
        rounds += 1
    return best[0], best[1]


def constant(native: Any) -> Callable[[], Any]:
    return lambda: native


def refresher(native: Any, device: xp.Device) -> Callable[[], Any] | None:
    """A maker of fresh copies of ``native`` where its backend caches host copies (JAX)."""
    if device.backend != "jax":
        return None
    import jax.numpy as jnp

    def fresh() -> Any:
        out = jnp.copy(native)
        out.block_until_ready()
        return out

    return fresh


def source(device: xp.Device, nbytes: int) -> Any:
    """A native float32 array of about ``nbytes`` on ``device``, in the backend's own memory."""
    n = max(1, nbytes // 4)
    host = np.random.default_rng(0).random(n, dtype=np.float32)
    return xp.to_device(host, device, copy=True).native


def naive(native: Any, src: xp.Device, dst: xp.Device) -> Any:
    """``np.asarray`` on the source, then ``asarray`` on the target; with ``copy=True`` where
    sharing would let the target write into an immutable source (a JAX array seen by torch or
    CuPy, which have no read-only arrays: torch warns and shares), as ``to_device`` does."""
    warnings.filterwarnings("ignore", "The given NumPy array is not writable")
    if src.backend == "torch":
        host = native.cpu().numpy()  # np.asarray refuses CUDA tensors
    elif src.backend == "cupy":
        host = native.get()
    else:
        host = np.asarray(native)
    if _transfer._would_write_immutable(src, dst) and _transfer.memory(dst) == ("cpu", 0):
        return dst.namespace.asarray(host, device=dst.native, copy=True)
    return dst.namespace.asarray(host, device=dst.native)


def zero_copy(src: xp.Device, copied: bool) -> str:
    if src.backend == "dask":
        return "computed"
    return "no" if copied else "yes"


def fmt_t(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def is_gpu(d: xp.Device) -> bool:
    return d.backend == "cupy" or d.place.split(":")[0] in ("cuda", "gpu")


def torch_pinned_bandwidth(nbytes: int) -> tuple[float, float] | None:
    """torch's own host->GPU and GPU->host GB/s with pinned memory, or None without CUDA."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    n = nbytes // 4
    host = torch.empty(n, dtype=torch.float32, pin_memory=True)
    dev = torch.empty(n, dtype=torch.float32, device="cuda")
    cuda = xp.Device("torch:cuda:0")
    up = timeit(lambda: dev.copy_(host, non_blocking=True), cuda, 0.5, 10)
    down = timeit(lambda: host.copy_(dev, non_blocking=True), cuda, 0.5, 10)
    return nbytes / up / 1e9, nbytes / down / 1e9


def bench_pairs(
    devices: list[xp.Device], sizes: list[int], quick: bool, record: list[dict[str, Any]]
) -> None:
    bw = torch_pinned_bandwidth(max(sizes)) if any(is_gpu(d) for d in devices) else None
    if bw is not None:
        print(
            f"torch pinned bandwidth ({label(max(sizes))}): up {bw[0]:.1f} GB/s, down {bw[1]:.1f} GB/s\n"
        )
    head = f"| {'pair':<42} | {'size':>6} | {'route':<6} | {'zero-copy':<9} | {'to_device':>10} | {'naive':>10} | {'naive/ours':>10} | {'GB/s':>18} |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    budget = 0.05 if quick else 0.2
    times: dict[tuple[str, int], tuple[float, bool]] = {}
    ratios: dict[str, dict[int, float]] = {}  # pair -> size -> naive / ours
    for nbytes in sizes:
        reps = 3 if nbytes >= 64 << 20 else (20 if quick else 100)
        natives = {d: source(d, nbytes) for d in devices}
        for src in devices:
            x = natives[src]
            fresh = refresher(x, src) or constant(x)
            for dst in devices:
                if dst is src:
                    continue
                _, route, copied = _transfer.move_report(x, dst)
                ours, base = timeit_pair(
                    lambda v, d=dst: xp.to_device(v, d),
                    lambda v, s=src, d=dst: naive(v, s, d),
                    dst,
                    budget,
                    reps,
                    fresh,
                )
                pair = f"{src} -> {dst}"
                zc = zero_copy(src, copied)
                times[(pair, nbytes)] = (ours, zc == "yes")
                ratios.setdefault(pair, {})[nbytes] = base / ours
                record.append(
                    {
                        "source": str(src),
                        "target": str(dst),
                        "bytes": nbytes,
                        "route": route,
                        "zero_copy": zc,
                        "to_device_s": ours,
                        "naive_s": base,
                    }
                )
                gbs = ""
                if is_gpu(src) != is_gpu(dst):
                    gbs = f"{nbytes / ours / 1e9:.1f}"
                    if bw is not None:
                        ref = bw[0] if is_gpu(dst) else bw[1]
                        gbs += f" ({100 * nbytes / ours / 1e9 / ref:.0f}% of torch)"
                print(
                    f"| {pair:<42} | {label(nbytes):>6} | {route:<6} | "
                    f"{zc:<9} | {fmt_t(ours):>10} | {fmt_t(base):>10} | "
                    f"{base / ours:>9.1f}x | {gbs:>18} |"
                )
        del natives
        gc.collect()
    zero_copy_table(times, sizes)
    crossing_table(ratios)


def crossing_table(ratios: dict[str, dict[int, float]]) -> None:
    """Per pair: the sizes where ``to_device`` is slower than the naive route (by more than the
    5 % a shared machine moves between runs), and from which size on it is as fast or faster."""
    print("\nwhere to_device crosses the naive route (naive/ours per size; >= 0.95 counts as even)")
    head = f"| {'pair':<42} | {'slower at':<24} | {'as fast from':>12} |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for pair, by_size in ratios.items():
        sizes = sorted(by_size)
        slower = [s for s in sizes if by_size[s] < 0.95]
        from_size = next(
            (s for i, s in enumerate(sizes) if all(by_size[t] >= 0.95 for t in sizes[i:])), None
        )
        slow_text = ", ".join(f"{label(s)} ({by_size[s]:.2f}x)" for s in slower) or "-"
        print(f"| {pair:<42} | {slow_text:<24} | {label(from_size) if from_size else '-':>12} |")


def zero_copy_table(times: dict[tuple[str, int], tuple[float, bool]], sizes: list[int]) -> None:
    """Zero-copy moves at the smallest and the largest size: the goal is the same cost."""
    small, large = min(sizes), max(sizes)
    if small == large:
        return
    print(f"\nzero-copy moves: cost at {label(small)} vs {label(large)} (goal: the same)")
    head = f"| {'pair':<42} | {label(small):>10} | {label(large):>10} | {'ratio':>7} |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    pairs = dict.fromkeys(p for p, _ in times)
    for pair in pairs:
        a, b = times.get((pair, small)), times.get((pair, large))
        if a is None or b is None or not (a[1] and b[1]):
            continue
        print(f"| {pair:<42} | {fmt_t(a[0]):>10} | {fmt_t(b[0]):>10} | {b[0] / a[0]:>6.2f}x |")


def sync_gpus() -> None:
    """Wait for every CUDA device (torch's synchronize waits for the device as a whole, so
    for the work CuPy and JAX queued there too)."""
    import torch

    for i in range(torch.cuda.device_count()):
        torch.cuda.synchronize(i)


def timed_gpus(fn: Callable[[], Any], budget: float, max_reps: int) -> float:
    """Best time of ``fn`` in seconds, every GPU synchronised before and after each call."""
    best = float("inf")
    spent = 0.0
    reps = 0
    while reps < max_reps and (reps < 2 or spent < budget):
        sync_gpus()
        t0 = time.perf_counter()
        out = fn()
        block(getattr(out, "native", out))
        sync_gpus()
        dt = time.perf_counter() - t0
        del out
        best = min(best, dt)
        spent += dt
        reps += 1
    return best


def bench_between_gpus(
    devices: list[xp.Device], sizes: list[int], quick: bool, record: list[dict[str, Any]]
) -> None:
    """Moves between two GPUs (same backend or not), beside torch's own ``Tensor.to`` between
    the same two ordinals, measured in the same run: time, GB/s and the share of torch's."""
    ordinal = {d: _transfer.memory(d)[1] for d in devices if is_gpu(d)}
    pairs = [(s, d) for s in ordinal for d in ordinal if ordinal[s] != ordinal[d]]
    if not pairs:
        return
    import torch

    print("\nmoves between GPUs, beside torch's Tensor.to between the same ordinals")
    head = (
        f"| {'pair':<36} | {'size':>6} | {'route':<5} | {'to_device':>10} | "
        f"{'torch .to':>10} | {'GB/s':>6} | {'of torch':>8} |"
    )
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for nbytes in sizes:
        reps = 5 if nbytes >= 64 << 20 else (20 if quick else 100)
        budget = 0.05 if quick else 0.2
        natives = {d: source(d, nbytes) for d in ordinal}
        refs: dict[tuple[int, int], float] = {}
        for src, dst in pairs:
            key = (ordinal[src], ordinal[dst])
            if key not in refs:
                t = torch.empty(max(1, nbytes // 4), dtype=torch.float32, device=f"cuda:{key[0]}")
                refs[key] = timed_gpus(lambda t=t, b=key[1]: t.to(f"cuda:{b}"), budget, reps)
                del t
            x = natives[src]
            _, route, _ = _transfer.move_report(x, dst)
            ours = timed_gpus(lambda x=x, d=dst: xp.to_device(x, d), budget, reps)
            ref = refs[key]
            record.append(
                {
                    "source": str(src),
                    "target": str(dst),
                    "bytes": nbytes,
                    "route": route,
                    "zero_copy": "no",
                    "to_device_s": ours,
                    "torch_to_s": ref,
                }
            )
            print(
                f"| {f'{src} -> {dst}':<36} | {label(nbytes):>6} | {route:<5} | "
                f"{fmt_t(ours):>10} | {fmt_t(ref):>10} | {nbytes / ours / 1e9:>6.1f} | "
                f"{100 * ref / ours:>7.0f}% |"
            )
        del natives
        gc.collect()


def bench_pinned_sources(devices: list[xp.Device], nbytes: int) -> None:
    """Uploads from a torch:cpu tensor in pinned memory: one DMA, no staging copy."""
    gpus = [d for d in devices if is_gpu(d) and d.backend in ("torch", "cupy")]
    bw = torch_pinned_bandwidth(nbytes) if gpus else None
    if bw is None:
        return
    import torch

    print(f"\nuploads of a pinned torch:cpu tensor ({label(nbytes)})")
    head = f"| {'pair':<42} | {'to_device':>10} | {'GB/s':>18} |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    pinned = torch.from_numpy(source(xp.Device("numpy"), nbytes)).pin_memory()
    for dst in gpus:
        t = timeit(lambda d=dst: xp.to_device(pinned, d), dst, 0.2, 10)
        gbs = f"{nbytes / t / 1e9:.1f} ({100 * nbytes / t / 1e9 / bw[0]:.0f}% of torch)"
        print(f"| {'torch:cpu (pinned) -> ' + str(dst):<42} | {fmt_t(t):>10} | {gbs:>18} |")


def bench_batched(devices: list[xp.Device], quick: bool) -> None:
    print("\nto_numpy of 64 arrays of 1000 float32 elements")
    head = f"| {'device':<30} | {'one by one':>11} | {'batched':>11} | {'speed-up':>8} |"
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for d in devices:
        arrays: list[Any] = [
            xp.to_device(np.full(1000, i, dtype=np.float32), d, copy=True) for i in range(64)
        ]
        if d.backend == "dask":
            arrays = [a + 0 for a in arrays]  # lazy arrays with a graph to compute
        reps = 20 if quick else 100
        one = timeit(lambda a=arrays: [xp.to_numpy(v) for v in a], d, 0.1, reps)
        many = timeit(lambda a=arrays: xp.to_numpy(*a), d, 0.1, reps)
        print(f"| {d!s:<30} | {fmt_t(one):>11} | {fmt_t(many):>11} | {one / many:>7.2f}x |")
    mixed = [
        xp.to_device(np.full(1000, i, dtype=np.float32), devices[i % len(devices)], copy=True)
        for i in range(64)
    ]
    one = timeit(lambda: [xp.to_numpy(v) for v in mixed], devices[0], 0.1, 20)
    many = timeit(lambda: xp.to_numpy(*mixed), devices[0], 0.1, 20)
    print(
        f"| {'mixed, every device':<30} | {fmt_t(one):>11} | {fmt_t(many):>11} | {one / many:>7.2f}x |"
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats, sizes up to 64MiB")
    p.add_argument("--sizes", help="comma-separated sizes, e.g. 1KiB,1MiB,64MiB,256MiB")
    p.add_argument(
        "--devices", help="comma-separated devices, e.g. numpy,torch:cuda:0 (default: all)"
    )
    p.add_argument("--json", metavar="PATH", help="also write the pairs' rows as JSON")
    args = p.parse_args(argv)
    if args.sizes:
        sizes = [parse_size(s) for s in args.sizes.split(",")]
    elif args.quick:
        sizes = [1 << 10, 1 << 20, 64 << 20]
    else:
        sizes = [1 << 10, 1 << 20, 64 << 20, 256 << 20]
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
    except ImportError:
        pass
    if args.devices:
        devices = [xp.Device(name) for name in args.devices.split(",")]
    else:
        devices = [
            d
            for d in xp.devices()
            if not (d.backend == "array_api_strict" and d.place != "CPU_DEVICE")
        ]
    print("devices:", ", ".join(map(str, devices)), "\n")
    record: list[dict[str, Any]] = []
    bench_pairs(devices, sizes, args.quick, record)
    bench_between_gpus(devices, sizes, args.quick, record)
    if args.json:
        from _record import write_json

        write_json(args.json, "transfer", record, naive="np.asarray on the source, then asarray")
    bench_pinned_sources(devices, max(sizes))
    bench_batched(devices, args.quick)


if __name__ == "__main__":
    main()
