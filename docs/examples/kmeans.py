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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--plot", help="save the clusters to this file")
    args = parser.parse_args()
    points = data(100, args.device)
    centres, labels, inertia = kmeans(points)
    for i, v in enumerate(inertia):
        print(f"iteration {i}  inertia {v:.1f}")
    print("centres:", np.round(xp.to_numpy(centres), 2).tolist())
    if args.plot:
        import matplotlib.pyplot as plt

        p, c = xp.to_numpy(points), xp.to_numpy(centres)
        plt.scatter(p[:, 0], p[:, 1], c=xp.to_numpy(labels), s=8)
        plt.scatter(c[:, 0], c[:, 1], c="red", marker="x", s=100)
        plt.title(f"k-means on {args.device}")
        plt.savefig(args.plot)


if __name__ == "__main__":
    main()
