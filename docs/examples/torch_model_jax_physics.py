"""A torch model trained through a JAX physics step.

A small network written with arraymux and held by torch chooses the launch velocity of a
projectile; a simulator, also written with arraymux but run by JAX (``jax.jit`` compiles it),
flies the projectile through air with drag and reports where it lands. The loss is the squared
distance to a target, and :func:`arraymux.value_and_grad` differentiates it end to end: torch
differentiates the network, JAX differentiates the simulator, and :func:`arraymux.on_device`
carries values and derivatives across without copying them.

Run it with ``python docs/examples/torch_model_jax_physics.py [--device torch:cuda]
[--physics jax:gpu] [--steps N] [--plot loss.png]``: ``--device`` holds the network (torch's
CPU by default), ``--physics`` runs the simulator (JAX's GPU beside a GPU model where JAX has
one, else JAX's CPU). It prints the loss every 20 steps and, with ``--plot``, saves the loss
curve and where trained launches land (matplotlib).
"""

from __future__ import annotations

import argparse

import arraymux as xp

DT, STEPS, DRAG, GRAVITY = 0.04, 50, 0.1, 9.81


def fly(velocity):
    """Where a projectile launched from the origin with ``velocity`` (shape (batch, 2)) lies
    after ``STEPS`` steps of explicit Euler with quadratic drag."""
    pos = xp.zeros_like(velocity)
    g = xp.asarray([0.0, -GRAVITY], dtype=velocity.dtype)
    for _ in range(STEPS):
        speed = xp.sqrt(xp.sum(velocity * velocity, axis=-1, keepdims=True))
        velocity = velocity + DT * (g - DRAG * speed * velocity)
        pos = pos + DT * velocity
    return pos


def physics_device(device: str) -> str:
    """JAX's device beside ``device``: a JAX GPU for a model on a GPU where JAX has one, else
    JAX's CPU."""
    on_gpu = not xp.Device(device).place.startswith("cpu")
    if on_gpu and any(d.backend == "jax" and d.place.startswith("gpu") for d in xp.devices()):
        return "jax:gpu"
    return "jax:cpu"


def simulator(physics: str):
    """The simulator on JAX's device ``physics``, compiled once (``jax.jit``); called with the
    model's arrays, its results and their derivatives come back to the model's device."""
    return xp.on_device(xp.jit(fly), physics)


def init(seed=0, hidden=32, device="torch:cpu"):
    gen = xp.random.Generator(seed, device=device)
    return {
        "w1": gen.normal(shape=(2, hidden), dtype=xp.float32) * 0.5,
        "b1": xp.zeros(hidden, dtype=xp.float32, device=device),
        "w2": gen.normal(shape=(hidden, 2), dtype=xp.float32) * (0.5 / hidden**0.5),
        "b2": xp.asarray([5.0, 5.0], dtype=xp.float32, device=device),
    }


def policy(params, targets):
    """The network: a launch velocity for each target."""
    h = xp.tanh(targets @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def loss(params, targets, simulate):
    """Mean squared distance (m²) between where the projectiles land and their targets."""
    landed = simulate(policy(params, targets))
    return xp.mean(xp.sum((landed - targets) ** 2, axis=-1))


def train(steps=100, lr=0.02, seed=0, device="torch:cpu", physics=None):
    """Plain gradient descent of the model on ``device`` through the simulator on JAX's
    ``physics`` device (by default :func:`physics_device`); returns the parameters and the
    loss after each step."""
    simulate = simulator(physics or physics_device(device))
    gen = xp.random.Generator(seed + 1, device=device)
    targets = gen.uniform(0.5, 4.0, (64, 2), dtype=xp.float32)  # points up and right
    params = init(seed, device=device)
    step = xp.value_and_grad(loss)
    history = []
    for i in range(steps):
        value, grads = step(params, targets, simulate)
        params = {k: params[k] - lr * grads[k] for k in params}
        history.append(float(value))
        if i % 20 == 0:
            print(f"step {i:4d}  loss {history[-1]:.4f}")
    return params, history


def figure(params, history, device: str):
    """The loss per step, and where a few trained launches land against their targets."""
    import matplotlib.pyplot as plt

    simulate = simulator(physics_device(device))
    targets = xp.asarray(
        [[1.0, 1.0], [2.0, 3.5], [3.5, 0.8], [0.8, 3.0]], dtype=xp.float32, device=device
    )
    landed, targets = xp.to_numpy(simulate(policy(params, targets)), targets)
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 3.3))
    left.semilogy(range(len(history)), history, color="tab:blue")
    left.set_xlabel("gradient step")
    left.set_ylabel("loss (mean squared miss, m²)")
    left.set_title("Training through the JAX simulator")
    right.scatter(
        *targets.T, marker="o", facecolors="none", edgecolors="tab:red", s=90, label="target"
    )
    right.scatter(*landed.T, marker="x", color="black", s=50, label="landing point")
    right.set_xlim(0, 4.5)
    right.set_ylim(0, 4.5)
    right.set_xlabel("x (m)")
    right.set_ylabel("y (m)")
    right.set_title("Trained launches")
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--device", default="torch:cpu", help="where the network lives (torch:cpu, torch:cuda)"
    )
    parser.add_argument("--physics", help="JAX's device for the simulator (jax:cpu, jax:gpu)")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--plot", help="save the loss curve and trained launches to this file")
    args = parser.parse_args()
    params, history = train(args.steps, device=args.device, physics=args.physics)
    print(f"final loss {history[-1]:.4f} m² (first {history[0]:.4f} m²)")
    if args.plot:
        figure(params, history, args.device).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
