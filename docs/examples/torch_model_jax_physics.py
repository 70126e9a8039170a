"""A torch model trained through a JAX physics step.

A small network written with arraymux and held by torch chooses the launch velocity of a
projectile; a simulator, also written with arraymux but run by JAX (``jax.jit`` compiles it),
flies the projectile through air with drag and reports where it lands. The loss is the squared
distance to a target, and :func:`arraymux.value_and_grad` differentiates it end to end: torch
differentiates the network, JAX differentiates the simulator, and :func:`arraymux.on_device`
carries values and derivatives across without copying them.

Run it with ``python docs/examples/torch_model_jax_physics.py [--steps N] [--plot loss.png]``;
it prints the loss every 20 steps and, with ``--plot``, saves the loss curve (matplotlib).
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


# The simulator runs on JAX, compiled once; called from torch arrays, its results and their
# derivatives come back to torch.
simulate = xp.on_device(xp.jit(fly), "jax:cpu")


def init(seed=0, hidden=32):
    gen = xp.random.Generator(seed, device="torch:cpu")
    return {
        "w1": gen.normal(shape=(2, hidden), dtype=xp.float32) * 0.5,
        "b1": xp.zeros(hidden, dtype=xp.float32, device="torch:cpu"),
        "w2": gen.normal(shape=(hidden, 2), dtype=xp.float32) * (0.5 / hidden**0.5),
        "b2": xp.asarray([5.0, 5.0], device="torch:cpu"),
    }


def policy(params, targets):
    """The network: a launch velocity for each target."""
    h = xp.tanh(targets @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def loss(params, targets):
    landed = simulate(policy(params, targets))
    return xp.mean(xp.sum((landed - targets) ** 2, axis=-1))


def train(steps=200, lr=0.02, seed=0):
    """Plain gradient descent; returns the parameters and the loss after each step."""
    gen = xp.random.Generator(seed + 1, device="torch:cpu")
    targets = gen.uniform(0.5, 4.0, (64, 2), dtype=xp.float32)  # points up and right
    params = init(seed)
    step = xp.value_and_grad(loss)
    history = []
    for i in range(steps):
        value, grads = step(params, targets)
        params = {k: params[k] - lr * grads[k] for k in params}
        history.append(float(value))
        if i % 20 == 0:
            print(f"step {i:4d}  loss {history[-1]:.4f}")
    return params, history


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--plot", help="save the loss curve to this file")
    args = parser.parse_args()
    _, history = train(args.steps)
    print(f"final loss {history[-1]:.4f} (first {history[0]:.4f})")
    if args.plot:
        try:
            import matplotlib
        except ImportError:
            raise SystemExit("--plot needs matplotlib: pip install matplotlib") from None

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(5, 3))
        ax.semilogy(history)
        ax.set_xlabel("step")
        ax.set_ylabel("loss (squared distance)")
        ax.set_title("torch policy trained through a JAX simulator")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


if __name__ == "__main__":
    main()
