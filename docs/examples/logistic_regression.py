"""Logistic regression trained with ``value_and_grad``, on any backend with an autodiff engine.

Two Gaussian clouds in the plane are separated by a linear classifier. The loss (mean binary
cross-entropy, written with arraymux functions) and its gradient come from
:func:`arraymux.value_and_grad` in one call; plain gradient descent updates the weights. The
same code trains on NumPy arrays (differentiated by torch through shared memory), torch
tensors, JAX arrays and CuPy arrays; Dask and array-api-strict have no autodiff engine.

Run it with ``python docs/examples/logistic_regression.py [--device torch:cpu] [--steps N]
[--plot loss.png]``; it prints the loss every 50 steps and the final accuracy, and with
``--plot`` saves the loss curve and the learnt decision boundary (matplotlib).
"""

from __future__ import annotations

import argparse

import numpy as np

import arraymux as xp


def data(n: int, device: str, seed: int = 0):
    """``n`` points per class around (-1, -1) and (1, 1), and their labels (0 and 1)."""
    rng = np.random.default_rng(seed)
    points = np.concatenate([rng.normal(-1, 0.8, (n, 2)), rng.normal(1, 0.8, (n, 2))])
    labels = np.concatenate([np.zeros(n), np.ones(n)])
    return (
        xp.asarray(points.astype(np.float32), device=device),
        xp.asarray(labels.astype(np.float32), device=device),
    )


def loss(params, x, y):
    """Mean binary cross-entropy of the logistic model ``sigmoid(x @ w + b)``."""
    logits = xp.matmul(x, params["w"]) + params["b"]
    # log(1 + exp(-|z|)) + max(z, 0) - y z: the stable form of the cross-entropy
    return xp.mean(xp.log1p(xp.exp(-xp.abs(logits))) + xp.maximum(logits, 0.0) - y * logits)


def train(device: str = "numpy", steps: int = 200, lr: float = 0.5, n: int = 100):
    """Train from zero weights; returns ``(params, losses, accuracy)``."""
    x, y = data(n, device)
    params = {"w": xp.zeros(2, dtype=xp.float32, device=device)}
    params["b"] = xp.asarray(0.0, dtype=xp.float32, device=device)
    step = xp.value_and_grad(loss)
    losses = []
    for i in range(steps):
        value, g = step(params, x, y)
        params = {k: params[k] - lr * g[k] for k in params}
        losses.append(float(value))
        if i % 50 == 0:
            print(f"step {i:4d}  loss {losses[-1]:.4f}")
    predicted = xp.astype(xp.matmul(x, params["w"]) + params["b"] > 0, xp.float32)
    accuracy = float(xp.mean(xp.astype(predicted == y, xp.float32)))
    print(f"accuracy {accuracy:.3f} on {device}")
    return params, losses, accuracy


def figure(params, losses, device: str, n: int = 100):
    """The loss per step, and the two classes with the learnt decision boundary."""
    import matplotlib.pyplot as plt

    x, y = xp.to_numpy(*data(n, device))
    w, b = xp.to_numpy(params["w"], params["b"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 3.3))
    left.plot(np.arange(len(losses)), losses, color="tab:blue")
    left.set_xlabel("gradient step")
    left.set_ylabel("loss (mean cross-entropy, nats)")
    left.set_title("Training loss")
    for label, colour in ((0, "tab:orange"), (1, "tab:blue")):
        mine = x[y == label]
        right.scatter(mine[:, 0], mine[:, 1], s=8, color=colour, label=f"class {label}")
    xs = np.linspace(x[:, 0].min(), x[:, 0].max(), 2)
    right.plot(xs, -(w[0] * xs + b) / w[1], color="black", lw=1.2, label="decision boundary")
    right.set_xlabel("feature 1 (arbitrary units)")
    right.set_ylabel("feature 2 (arbitrary units)")
    right.set_title("Classes and the learnt boundary")
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--plot", help="save the loss curve and the boundary to this file")
    args = parser.parse_args()
    params, losses, _ = train(args.device, args.steps)
    if args.plot:
        figure(params, losses, args.device).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
