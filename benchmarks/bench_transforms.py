"""Transforms against the engines used directly: arraymux.grad / value_and_grad / jit versus
torch.func.grad / grad_and_value / torch.compile and jax.grad / value_and_grad / jax.jit, on
the same 2-layer MLP loss at about 10, 1k, 100k and 1M parameters, plus the memory that
checkpoint saves on a deep chain. On torch, value_and_grad is also measured against the
hand-written training step (``loss.backward()`` into the parameters' ``.grad``). Prints
markdown tables, and for each device and transform the size from which arraymux stays within
5 % of the engine (where it crosses the native line).

    python benchmarks/bench_transforms.py [--quick] [--sizes 10,1k] [--engines torch]
        [--transforms grad,value_and_grad,backward,jit,numpy] [--rounds 21] [--cpu-time]
        [--no-memory] [--json PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from typing import Any

import numpy as np
from _timing import ROUNDS, fmt, paired, set_rounds

import arraymux as xp

# in, hidden, out: 12, 800, 103k and 1.05M parameters
SIZES = {"10": (2, 3, 1), "1k": (16, 32, 8), "100k": (160, 320, 160), "1M": (512, 1024, 512)}
BATCH = 64
# The cases measured (--transforms); the alternating rounds of each (--rounds) and the clock
# (--cpu-time) are set in _timing.
TRANSFORMS = {"grad", "value_and_grad", "backward", "jit", "numpy"}


def params_of(size: str, seed: int = 0) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    n_in, n_hidden, n_out = SIZES[size]
    rng = np.random.default_rng(seed)
    p = {
        "w1": (rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)).astype(np.float32),
        "b1": np.zeros(n_hidden, np.float32),
        "w2": (rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)).astype(np.float32),
    }
    x = rng.standard_normal((BATCH, n_in)).astype(np.float32)
    y = rng.standard_normal((BATCH, n_out)).astype(np.float32)
    return p, x, y


def n_params(size: str) -> int:
    return sum(v.size for v in params_of(size)[0].values())


def loss(p: Any, x: Any, y: Any) -> Any:
    """The MLP loss, written once with arraymux."""
    h = xp.tanh(xp.matmul(x, p["w1"]) + p["b1"])
    return xp.mean((xp.matmul(h, p["w2"]) - y) ** 2)


def torch_rows(device: str, budget: float, quick: bool) -> list[tuple[Any, ...]]:
    import torch
    import torch.func as tf

    place = device.split(":", 1)[1]

    def native_loss(p: Any, x: Any, y: Any) -> Any:
        h = torch.tanh(torch.matmul(x, p["w1"]) + p["b1"])
        return torch.mean((torch.matmul(h, p["w2"]) - y) ** 2)

    def sync(out: Any) -> None:
        if place.startswith("cuda"):
            torch.cuda.synchronize()

    rows: list[tuple[Any, ...]] = []

    def one(size: str) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = []
        p, x, y = params_of(size)
        tp = {k: torch.from_numpy(v).to(place) for k, v in p.items()}
        tx, ty = torch.from_numpy(x).to(place), torch.from_numpy(y).to(place)
        ap = {k: xp.asarray(v) for k, v in tp.items()}
        ax, ay = xp.asarray(tx), xp.asarray(ty)
        # Both sides transform once and call many times, as a training loop does.
        gn, ga = tf.grad(native_loss), xp.grad(loss)
        vn, va = tf.grad_and_value(native_loss), xp.value_and_grad(loss)
        # The hand-written training step: the parameters are leaves that require grad, and
        # loss.backward() accumulates into their .grad (reset before each step).
        leaves = {k: v.clone().requires_grad_() for k, v in tp.items()}

        def backward_step() -> Any:
            for v in leaves.values():
                v.grad = None
            value = native_loss(leaves, tx, ty)
            value.backward()
            return value, {k: v.grad for k, v in leaves.items()}

        engine = "torch.func / torch.compile"
        cases = [
            ("grad", "grad", engine, lambda: gn(tp, tx, ty), lambda: ga(ap, ax, ay)),
            (
                "value_and_grad",
                "value_and_grad",
                engine,
                lambda: vn(tp, tx, ty),
                lambda: va(ap, ax, ay),
            ),
            (
                "backward",
                "value_and_grad vs backward",
                "loss.backward()",
                backward_step,
                lambda: va(ap, ax, ay),
            ),
        ]
        if "jit" in TRANSFORMS and not (quick and size == "1M"):
            torch._dynamo.reset()
            cn = torch.compile(native_loss)
            ca = xp.jit(loss)
            cases.append(
                ("jit", "jit (forward)", engine, lambda: cn(tp, tx, ty), lambda: ca(ap, ax, ay))
            )
        for key, name, native_engine, native, ours in cases:
            if key in TRANSFORMS:
                tn, ta, spread = paired(native, ours, sync, budget)
                rows.append((device, size, name, native_engine, tn, ta, spread))
        # NumPy arrays (CuPy arrays on the GPU), differentiated by torch through DLPack.
        bridged = "numpy" if place == "cpu" else "cupy:" + (place.partition(":")[2] or "0")
        if "numpy" in TRANSFORMS and (place == "cpu" or importlib.util.find_spec("cupy")):
            bp = {k: xp.to_device(v, bridged) for k, v in p.items()}
            bx, by = xp.to_device(x, bridged), xp.to_device(y, bridged)
            tn, ta, spread = paired(lambda: gn(tp, tx, ty), lambda: ga(bp, bx, by), sync, budget)
            label = "numpy" if place == "cpu" else bridged
            rows.append((label, size, "grad", "torch.func on tensors", tn, ta, spread))
        return rows

    for size in SIZES:
        rows += one(size)
    return rows


def crossings(rows: list[tuple[Any, ...]]) -> list[tuple[str, str, str, str]]:
    """Per arrays and transform: the median ratio at each size, and the smallest size from
    which every larger one is within 5 % of the engine ("-" where none is)."""
    by: dict[tuple[str, str], dict[str, float]] = {}
    for device, size, name, _, _, _, (_, med, _) in rows:
        by.setdefault((device, name), {})[size] = med
    out = []
    for (device, name), ratios in by.items():
        sizes = [s for s in SIZES if s in ratios]
        within = "-"
        for i, size in enumerate(sizes):
            if all(ratios[s] <= 1.05 for s in sizes[i:]):
                within = size
                break
        out.append((device, name, " ".join(f"{s}: {ratios[s]:.2f}" for s in sizes), within))
    return out


# -- jax --------------------------------------------------------------------------------------


def _leaves(out: Any) -> list[Any]:
    """The native arrays of a result (dicts, tuples and lists of arrays or Arrays)."""
    if isinstance(out, dict):
        return [leaf for v in out.values() for leaf in _leaves(v)]
    if isinstance(out, tuple | list):
        return [leaf for v in out for leaf in _leaves(v)]
    return [out.native if type(out) is xp.Array else out]


def jax_rows(device: str, budget: float) -> list[tuple[Any, ...]]:
    import jax
    import jax.numpy as jnp

    dev = xp.Device(device)
    # The same arithmetic on both sides: on an accelerator arraymux asks JAX for full float32
    # products (JAX's default there is TF32 inputs), so the native loss does too.
    precision = None if dev.native.platform == "cpu" else jax.lax.Precision.HIGHEST

    def native_loss(p: Any, x: Any, y: Any) -> Any:
        h = jnp.tanh(jnp.matmul(x, p["w1"], precision=precision) + p["b1"])
        return jnp.mean((jnp.matmul(h, p["w2"], precision=precision) - y) ** 2)

    def sync(out: Any) -> None:
        # The same walk for both sides: jax.tree_util would flatten and rebuild each Array
        # (a pytree node, in Python) and charge that to arraymux.
        jax.block_until_ready(_leaves(out))

    rows: list[tuple[Any, ...]] = []

    def one(size: str) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = []
        p, x, y = params_of(size)
        jp = {k: jax.device_put(v, dev.native) for k, v in p.items()}
        jx, jy = jax.device_put(x, dev.native), jax.device_put(y, dev.native)
        ap = {k: xp.asarray(v) for k, v in jp.items()}
        ax, ay = xp.asarray(jx), xp.asarray(jy)
        jit_native = jax.jit(jax.grad(native_loss))
        jit_ours = xp.jit(xp.grad(loss))
        gn, ga = jax.grad(native_loss), xp.grad(loss)
        vn, va = jax.value_and_grad(native_loss), xp.value_and_grad(loss)
        cases = [
            ("grad", "grad", lambda: gn(jp, jx, jy), lambda: ga(ap, ax, ay)),
            ("value_and_grad", "value_and_grad", lambda: vn(jp, jx, jy), lambda: va(ap, ax, ay)),
            ("jit", "jit (grad)", lambda: jit_native(jp, jx, jy), lambda: jit_ours(ap, ax, ay)),
        ]
        for key, name, native, ours in cases:
            if key in TRANSFORMS:
                tn, ta, spread = paired(native, ours, sync, budget)
                rows.append((device, size, name, "jax", tn, ta, spread))
        return rows

    for size in SIZES:
        rows += one(size)
    return rows


# -- checkpoint memory ------------------------------------------------------------------------

DEPTH, WIDTH, SEGMENT = 32, 256, 8


def chain(ws: list[Any], x: Any, ckpt: bool, policy: Any = None) -> Any:
    def segment(h: Any, *seg_ws: Any) -> Any:
        for w in seg_ws:
            h = xp.tanh(xp.matmul(h, w))
        return h

    run = xp.checkpoint(segment, policy=policy) if ckpt else segment
    h = x
    for i in range(0, len(ws), SEGMENT):
        h = run(h, *ws[i : i + SEGMENT])
    return xp.mean(h**2)


def memory_rows() -> list[tuple[str, str, str]]:
    rng = np.random.default_rng(0)
    ws = [(rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH)).astype(np.float32)] * DEPTH
    x = rng.standard_normal((BATCH, WIDTH)).astype(np.float32)
    rows = []
    if importlib.util.find_spec("torch"):
        import torch

        # Activations only: the weights (which every layer saves a reference to, and whose
        # gradients would dominate a peak) are constants; the chain is differentiated in x.
        def saved_bytes(ckpt: bool) -> int:
            total = [0]
            tw = [torch.from_numpy(w.copy()) for w in ws]
            weights = {w.data_ptr() for w in tw}

            def pack(t: Any) -> Any:
                if t.data_ptr() not in weights:
                    total[0] += t.numel() * t.element_size()
                return t

            tx = torch.from_numpy(x).requires_grad_()
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                out = chain([xp.asarray(w) for w in tw], xp.asarray(tx), ckpt)
            out.native.backward()
            return total[0]

        plain, ck = saved_bytes(False), saved_bytes(True)
        rows.append(
            ("torch:cpu (saved-tensor bytes)", f"{plain / 2**20:.1f} MiB", f"{ck / 2**20:.1f} MiB")
        )

        def cpu_peak(ckpt: bool) -> int:
            """Peak bytes allocated on the CPU during xp.grad, from the profiler's records."""
            from torch.profiler import ProfilerActivity, profile

            tw = [xp.asarray(torch.from_numpy(w.copy())) for w in ws]
            tx = xp.asarray(torch.from_numpy(x.copy()))
            with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
                xp.grad(lambda h: chain(tw, h, ckpt))(tx)
            events = prof.profiler.kineto_results.events()  # type: ignore[union-attr]
            records = sorted(
                (ev.start_ns(), ev.nbytes()) for ev in events if ev.name() == "[memory]"
            )
            now = top = 0
            for _, n in records:
                now += n
                top = max(top, now)
            return top

        p0, p1 = cpu_peak(False), cpu_peak(True)
        rows.append(
            ("torch:cpu xp.grad (peak allocated)", f"{p0 / 2**20:.1f} MiB", f"{p1 / 2**20:.1f} MiB")
        )
        if torch.cuda.is_available():

            def peak(ckpt: bool) -> int:
                tw = [xp.asarray(torch.from_numpy(w).cuda()) for w in ws]
                tx = xp.asarray(torch.from_numpy(x).cuda())
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
                base = torch.cuda.memory_allocated()
                xp.grad(lambda h: chain(tw, h, ckpt))(tx)
                torch.cuda.synchronize()
                return torch.cuda.max_memory_allocated() - base

            p0, p1 = peak(False), peak(True)
            rows.append(
                (
                    "torch:cuda xp.grad (peak allocated)",
                    f"{p0 / 2**20:.1f} MiB",
                    f"{p1 / 2**20:.1f} MiB",
                )
            )
    if importlib.util.find_spec("jax"):
        import jax

        try:
            from jax.ad_checkpoint import saved_residuals  # type: ignore[attr-defined]
        except ImportError:  # only print_saved_residuals is public in recent JAX
            from jax._src.ad_checkpoint import saved_residuals

        jw = [xp.asarray(w, device="jax:cpu") for w in ws]
        jx = xp.asarray(x, device="jax:cpu")

        def residual_bytes(ckpt: bool, policy: Any = None) -> int:
            res = saved_residuals(lambda h: chain(jw, h, ckpt, policy).native, jx)
            return sum(int(np.prod(aval.shape)) * aval.dtype.itemsize for aval, _ in res)

        del jax
        plain, ck = residual_bytes(False), residual_bytes(True)
        dots = residual_bytes(True, "dots_saveable")
        rows.append(
            ("jax:cpu (residual bytes)", f"{plain / 2**20:.1f} MiB", f"{ck / 2**20:.1f} MiB")
        )
        rows.append(
            ("jax:cpu, policy dots_saveable", f"{plain / 2**20:.1f} MiB", f"{dots / 2**20:.1f} MiB")
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shorter timings, fewer compiles")
    parser.add_argument("--sizes", help=f"comma-separated sizes among {', '.join(SIZES)}")
    parser.add_argument("--engines", default="torch,jax", help="comma-separated: torch, jax")
    parser.add_argument(
        "--transforms",
        help=f"comma-separated cases among {', '.join(sorted(TRANSFORMS))} (default: all)",
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="alternating rounds per row")
    parser.add_argument("--no-memory", action="store_true", help="skip the checkpoint memory")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time the calling thread's CPU time (CPU devices only: steadier on a shared machine)",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    set_rounds(args.rounds, time.thread_time if args.cpu_time else time.perf_counter)
    if args.sizes:
        for name in [k for k in SIZES if k not in args.sizes.split(",")]:
            del SIZES[name]
    if args.transforms:
        TRANSFORMS.intersection_update(args.transforms.split(","))
    engines = args.engines.split(",")
    budget = 0.3 if args.quick else 1.0
    rows: list[tuple[Any, ...]] = []
    if "torch" in engines and importlib.util.find_spec("torch"):
        import torch

        # One intra-op thread: on a small shared CPU, OpenMP's spinning threads make the
        # timings of both sides swing by orders of magnitude.
        torch.set_num_threads(1)
        rows += torch_rows("torch:cpu", budget, args.quick)
        if torch.cuda.is_available() and not args.cpu_time:
            rows += torch_rows("torch:cuda:0", budget, args.quick)
    if "jax" in engines and importlib.util.find_spec("jax"):
        rows += jax_rows("jax:cpu:0", budget)
        if any(d.place.startswith("gpu") for d in xp.devices("jax")) and not args.cpu_time:
            rows += jax_rows("jax:gpu:0", budget)

    sizes = ", ".join(f"{k} = {n_params(k)} parameters" for k in SIZES)
    print(f"## Transforms vs the engines used directly (batch {BATCH}; {sizes})\n")
    print(
        "Times: the best round of each side. Ratio: arraymux / native over rounds that alternate "
        "the two, median [quartiles]; the quartiles show how much the machine moved. JAX on a "
        "GPU: both sides with full float32 matrix products (arraymux's choice there; JAX's "
        "default is TF32)."
        + (" Clock: the calling thread's CPU time." if args.cpu_time else "")
        + "\n"
    )
    print("| arrays | size | transform | native | native time | arraymux | ratio of best | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for device, size, name, engine, tn, ta, (q1, med, q3) in rows:
        print(
            f"| {device} | {size} | {name} | {engine} | {fmt(tn)} | {fmt(ta)} | {ta / tn:.2f} "
            f"| {med:.2f} [{q1:.2f}-{q3:.2f}] |"
        )
    print("\n## Where arraymux crosses the native line (median ratio per size; within 5 % from)\n")
    print("| arrays | transform | ratio by size | within 5 % from |")
    print("|---|---|---|---|")
    for device, name, ratios, within in crossings(rows):
        print(f"| {device} | {name} | {ratios} | {within} |")
    if args.json:
        from _record import write_json

        write_json(
            args.json,
            "transforms",
            [
                {
                    "arrays": device,
                    "size": size,
                    "transform": name,
                    "engine": engine,
                    "native_s": tn,
                    "arraymux_s": ta,
                    "ratio_quartiles": [q1, med, q3],
                }
                for device, size, name, engine, tn, ta, (q1, med, q3) in rows
            ],
            parameters={k: n_params(k) for k in SIZES},
        )
    if args.no_memory:
        return
    print(
        f"\n## checkpoint: memory kept for the backward pass ({DEPTH} layers of {WIDTH}x{WIDTH}, segments of {SEGMENT})\n"
    )
    print("| measure | without checkpoint | with checkpoint |")
    print("|---|---|---|")
    for r in memory_rows():
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
