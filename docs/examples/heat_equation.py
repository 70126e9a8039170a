"""The 2-D heat equation stepped under ``jit``: the same step compiled by JAX or torch.

A hot square in a cold plate diffuses; each explicit step (the five-point Laplacian, written
with slicing) is compiled by :func:`arraymux.jit`: ``jax.jit`` for JAX arrays,
``torch.compile`` for torch tensors, and run as it is for NumPy and CuPy (Dask and
array-api-strict have no engine: ``jit`` raises ``TransformUnavailableError`` there). Heat
leaves through the cold border, and the peak temperature falls.

Run it with ``python docs/examples/heat_equation.py [--device jax:cpu] [--steps N]
[--plot heat.png]``; it prints the total heat and the peak every 50 steps, and with ``--plot``
saves the final temperature field (matplotlib).
"""

from __future__ import annotations

import argparse

import arraymux as xp

ALPHA = 0.2  # diffusion number; explicit steps are stable below 0.25


def step(u):
    """One explicit step; the border stays at zero."""
    inner = u[1:-1, 1:-1] + ALPHA * (
        u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    )
    row = xp.zeros_like(u[:1, 1:-1])
    inner = xp.concat([row, inner, row], axis=0)
    col = xp.zeros_like(inner[:, :1])
    return xp.concat([col, inner, col], axis=1)


def run(device: str = "numpy", n: int = 32, steps: int = 100):
    """The field after ``steps`` jitted steps, and (total heat, peak) every 50 steps."""
    u = xp.zeros((n, n), dtype=xp.float32, device=device)
    q = n // 4
    u = xp.where(
        (xp.abs(xp.arange(n, device=device) - n // 2) < q)[:, None]
        & (xp.abs(xp.arange(n, device=device) - n // 2) < q)[None, :],
        1.0,
        u,
    )
    fast_step = xp.jit(step)
    history = []
    for i in range(steps + 1):
        if i % 50 == 0:
            history.append((float(xp.sum(u)), float(xp.max(u))))
            print(f"step {i:4d}  heat {history[-1][0]:8.2f}  peak {history[-1][1]:.3f}")
        if i < steps:
            u = fast_step(u)
    return u, history


def figure(u, steps: int):
    """The temperature field after ``steps`` steps, with its colour bar."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.2, 4.2))
    image = ax.imshow(xp.to_numpy(u), cmap="inferno", origin="lower", vmin=0.0)
    ax.set_xlabel("x (grid cells)")
    ax.set_ylabel("y (grid cells)")
    ax.set_title(f"Temperature after {steps} steps")
    fig.colorbar(image, ax=ax, label="temperature (initial hot square = 1)")
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--plot", help="save the final field to this file")
    args = parser.parse_args()
    u, _ = run(args.device, steps=args.steps)
    if args.plot:
        figure(u, args.steps).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
