"""k-means clustering (Lloyd's algorithm) written once, run on every backend.

Each iteration assigns every point to its nearest centre (a distance matrix and ``argmin``) and
moves each centre to the mean of its points (a one-hot matrix product, so no Python loop over
clusters and no boolean indexing, which lazy Dask arrays could not size). It runs on NumPy,
torch, JAX, CuPy, Dask and array-api-strict alike.

Run it with ``python docs/examples/kmeans.py [--device dask] [--plot clusters.png]``; it prints
the inertia (the sum of squared distances to the centres) per iteration, and with ``--plot``
saves the points coloured by cluster (matplotlib).
"""

from __future__ import annotations

import argparse

import numpy as np

import arraymux as xp

TRUE_CENTRES = np.array([[0.0, 0.0], [4.0, 4.0], [0.0, 5.0]], dtype=np.float32)


def data(n: int, device: str, seed: int = 0):
    """``n`` points around each of three centres."""
    rng = np.random.default_rng(seed)
    points = np.concatenate([c + rng.normal(0, 0.6, (n, 2)) for c in TRUE_CENTRES])
    return xp.asarray(points.astype(np.float32), device=device)


def kmeans(points, k: int = 3, iterations: int = 10):
    """Centres, labels and the inertia of each iteration, starting from ``k`` of the points."""
    n = points.shape[0]
    centres = xp.take(points, xp.asarray([0, n // 2, n - 1], device=points.device)[:k], axis=0)
    inertia = []
    for _ in range(iterations):
        d2 = xp.sum((points[:, None, :] - centres[None, :, :]) ** 2, axis=-1)  # (n, k)
        labels = xp.argmin(d2, axis=1)
        onehot = xp.astype(labels[:, None] == xp.arange(k, device=points.device), points.dtype)
        counts = xp.sum(onehot, axis=0)
        centres = xp.matmul(xp.matrix_transpose(onehot), points) / xp.maximum(counts, 1.0)[:, None]
        inertia.append(float(xp.sum(xp.min(d2, axis=1))))
    return centres, labels, inertia


def figure(points, centres, labels, device: str):
    """The points coloured by cluster, with the centres found and the true ones."""
    import matplotlib.pyplot as plt

    p, c, lab = xp.to_numpy(points, centres, labels)
    fig, ax = plt.subplots(figsize=(6.2, 4.4))
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown"]
    for k in range(c.shape[0]):
        mine = p[lab == k]
        ax.scatter(mine[:, 0], mine[:, 1], s=8, color=colours[k % 5], label=f"cluster {k}")
    ax.scatter(c[:, 0], c[:, 1], c="black", marker="x", s=90, label="centres found")
    ax.scatter(*TRUE_CENTRES.T, facecolors="none", edgecolors="red", s=140, label="true centres")
    ax.set_xlabel("x (arbitrary units)")
    ax.set_ylabel("y (arbitrary units)")
    ax.set_title(f"k-means on {device}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--plot", help="save the clusters to this file")
    args = parser.parse_args()
    points = data(100, args.device)
    centres, labels, inertia = kmeans(points)
    for i, v in enumerate(inertia):
        print(f"iteration {i}  inertia {v:.1f}")
    found = sorted(xp.to_numpy(centres).tolist())
    print("centres: " + ", ".join(f"({x:.2f}, {y:.2f})" for x, y in found))
    if args.plot:
        figure(points, centres, labels, args.device).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
