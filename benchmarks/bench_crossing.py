"""A torch model feeding a JAX function, differentiated end to end: arraymux.on_device against
the hand-written bridge (a ``torch.autograd.Function`` whose forward calls ``jax.vjp`` and whose
backward calls the pullback, arrays crossing through DLPack, as the jax2torch project writes
it). Both sides run in one process, alternating, on the 2-layer MLP of bench_transforms (about
1k and 1M parameters); the JAX part is jitted on both sides. Also counts the bytes that the
crossing copies per training step (a copy is a move whose result does not share the source's
memory). Prints markdown tables.

    python benchmarks/bench_crossing.py [--quick] [--torch-device torch:cuda] [--jax-device jax:gpu]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _timing import fmt, paired
from bench_transforms import SIZES, n_params, params_of

import arraymux as xp


def physics(u: Any) -> Any:
    """The JAX side: an energy of the model's output, written with arraymux."""
    return xp.sum(xp.sin(u) ** 2 + 0.5 * u * u) / u.shape[0]


def rows(torch_device: str, jax_device: str, budget: float, quick: bool) -> list[tuple[Any, ...]]:
    import jax
    import torch

    place = torch_device.split(":", 1)[1]
    jdev = xp.Device(jax_device).native

    def sync(out: Any) -> None:
        if place.startswith("cuda"):
            torch.cuda.synchronize()

    jphys = jax.jit(lambda u: physics(xp.asarray(u)).native)

    class HandWritten(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, u: Any) -> Any:
            uj = jax.device_put(jax.dlpack.from_dlpack(u.detach()), jdev)
            y, ctx.pull = jax.vjp(jphys, uj)
            return torch.from_dlpack(y)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (gu,) = ctx.pull(jax.dlpack.from_dlpack(g.contiguous()))
            return torch.from_dlpack(gu)

    crossed = xp.on_device(xp.jit(physics), jax_device)

    def mlp_t(p: Any, x: Any) -> Any:
        return torch.tanh(x @ p["w1"] + p["b1"]) @ p["w2"]

    def mlp_a(p: Any, x: Any) -> Any:
        return xp.matmul(xp.tanh(xp.matmul(x, p["w1"]) + p["b1"]), p["w2"])

    def one(size: str) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        p, x, _ = params_of(size)
        tp = {k: torch.from_numpy(v).to(place).requires_grad_() for k, v in p.items()}
        tx = torch.from_numpy(x).to(place)

        def backward_step(bridge: Any) -> Any:
            for v in tp.values():
                v.grad = None
            loss = bridge(mlp_t(tp, tx))
            loss.backward()
            return loss

        ap = {k: xp.asarray(v.detach()) for k, v in tp.items()}
        ax = xp.asarray(tx)
        vg = xp.value_and_grad(lambda p, x: crossed(mlp_a(p, x)))
        cases = [
            (
                "loss.backward()",
                lambda: backward_step(HandWritten.apply),
                lambda: backward_step(crossed),
            ),
            (
                # The hand-written Function (forward with ctx) cannot run under torch.func:
                # its .backward() step is the reference for both rows.
                "xp.value_and_grad",
                lambda: backward_step(HandWritten.apply),
                lambda: vg(ap, ax),
            ),
        ]
        for name, native, ours in cases:
            tn, ta, spread = paired(native, ours, sync, budget)
            out.append((f"{torch_device} -> {jax_device}", size, name, tn, ta, spread))

        # Without a crossing: the same loss all in torch, xp.value_and_grad (torch.autograd
        # there, outside other transforms) against loss.backward().
        def torch_energy(u: Any) -> Any:
            return (torch.sin(u) ** 2 + 0.5 * u * u).sum() / u.shape[0]

        vg_torch = xp.value_and_grad(lambda p, x: xp.asarray(torch_energy(mlp_a(p, x).native)))
        tn, ta, spread = paired(
            lambda: backward_step(torch_energy), lambda: vg_torch(ap, ax), sync, budget
        )
        out.append(
            (
                torch_device,
                size,
                "no crossing: xp.value_and_grad vs loss.backward()",
                tn,
                ta,
                spread,
            )
        )
        return out

    return [row for size in SIZES for row in one(size)]


def copied_bytes(torch_device: str, jax_device: str) -> list[tuple[str, int, int]]:
    """Per size: the bytes the crossing moved and the bytes it copied in one
    ``xp.value_and_grad`` step (inputs in, the value and the cotangents back)."""
    import torch

    from arraymux import _transfer

    place = torch_device.split(":", 1)[1]
    crossed = xp.on_device(xp.jit(physics), jax_device)
    res = []
    real = _transfer.move
    for size in SIZES:
        p, x, _ = params_of(size)
        ap = {k: xp.asarray(torch.from_numpy(v).to(place)) for k, v in p.items()}
        ax = xp.asarray(torch.from_numpy(x).to(place))
        vg = xp.value_and_grad(
            lambda p, x: crossed(xp.matmul(xp.tanh(xp.matmul(x, p["w1"]) + p["b1"]), p["w2"]))
        )
        vg(ap, ax)
        moved = copied = 0

        def spy(native: Any, src: Any, target: Any, *a: Any, **k: Any) -> Any:
            nonlocal moved, copied
            result = real(native, src, target, *a, **k)
            nbytes = _nbytes(native)
            before = _transfer._data_ptr(native, src)
            after = _transfer._data_ptr(result[0], target)
            moved += nbytes
            if before is None or before != after:
                copied += nbytes
            return result

        crossing = sys.modules["arraymux.transforms._crossing"]
        crossing.move = spy  # type: ignore[attr-defined]
        try:
            vg(ap, ax)
        finally:
            crossing.move = real  # type: ignore[attr-defined]
        res.append((size, moved, copied))
    return res


def _nbytes(native: Any) -> int:
    nbytes = getattr(native, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    return int(native.numel() * native.element_size())  # torch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    parser.add_argument("--torch-device", default="torch:cpu")
    parser.add_argument("--jax-device", default="jax:cpu")
    args = parser.parse_args()
    if not (importlib.util.find_spec("torch") and importlib.util.find_spec("jax")):
        sys.exit("needs torch and jax")
    budget = 0.4 if args.quick else 1.5
    print(f"## torch model -> JAX function ({args.torch_device} -> {args.jax_device})\n")
    print(
        "| devices | params | step | hand-written bridge | arraymux.on_device | ratio (q1 / median / q3) |"
    )
    print("|---|---|---|---|---|---|")
    for dev, size, name, tn, ta, (q1, med, q3) in rows(
        args.torch_device, args.jax_device, budget, args.quick
    ):
        print(
            f"| {dev} | {n_params(size):,} | {name} | {fmt(tn)} | {fmt(ta)} | "
            f"{ta / tn:.2f} ({q1:.2f} / {med:.2f} / {q3:.2f}) |"
        )
    print("\n## bytes copied by the crossing per value_and_grad step\n")
    print("| params | bytes moved | bytes copied |")
    print("|---|---|---|")
    for size, moved, copied in copied_bytes(args.torch_device, args.jax_device):
        print(f"| {n_params(size):,} | {moved:,} | {copied:,} |")


if __name__ == "__main__":
    main()
