"""A conjugate-gradient solver for symmetric positive definite systems, on any backend.

It solves the 2-D Poisson equation ``-laplace(u) = f`` on an ``m x m`` grid with zero boundary
values, applying the five-point Laplacian as an array expression (no matrix is formed), and
checks the answer against a dense solve with :func:`arraymux.linalg.solve`. Each iteration
reads two numbers back (the step sizes), so on Dask, whose arrays are lazy, every iteration
would compute the whole history again: use an eager backend for iterative solvers.

Run it with ``python docs/examples/conjugate_gradient.py [--device torch:cpu] [--size 32]
[--plot residuals.png]``; it prints the residual norm every 10 iterations and the error
against the dense solve, and with ``--plot`` saves the residual history and the solution
(matplotlib).
"""

from __future__ import annotations

import argparse

import arraymux as xp


def laplacian(u):
    """The five-point Laplacian (negated) of ``u`` with zero values outside the grid."""
    padded = xp.concat([xp.zeros_like(u[:1, :]), u, xp.zeros_like(u[:1, :])], axis=0)
    col = xp.zeros_like(padded[:, :1])
    padded = xp.concat([col, padded, col], axis=1)
    return 4 * u - padded[:-2, 1:-1] - padded[2:, 1:-1] - padded[1:-1, :-2] - padded[1:-1, 2:]


def cg(apply, b, tol: float = 1e-8, max_iter: int = 500):
    """Solve ``apply(x) = b``; returns the solution and the residual norms."""
    x = xp.zeros_like(b)
    r = b - apply(x)
    p = r
    rs = float(xp.sum(r * r))
    history = [rs**0.5]
    for _ in range(max_iter):
        ap = apply(p)
        alpha = rs / float(xp.sum(p * ap))
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = float(xp.sum(r * r))
        history.append(rs_new**0.5)
        if rs_new**0.5 < tol * history[0]:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, history


def solve(device: str = "numpy", m: int = 16):
    """The Poisson problem with a point source: the CG solution, the residuals and the largest
    difference from a dense solve."""
    f = xp.zeros((m, m), dtype=xp.float64 if _has_float64(device) else xp.float32, device=device)
    f = xp.where(
        (xp.arange(m, device=device)[:, None] == m // 2) & (xp.arange(m, device=device) == m // 2),
        1.0,
        f,
    )
    u, history = cg(laplacian, f)
    # The same system as a dense matrix: columns are the Laplacian of unit vectors.
    eye = xp.reshape(xp.eye(m * m, dtype=f.dtype, device=device), (m * m, m, m))
    dense = xp.stack([xp.reshape(laplacian(eye[i, ...]), (m * m,)) for i in range(m * m)], axis=1)
    reference = xp.reshape(xp.linalg.solve(dense, xp.reshape(f, (m * m, 1))), (m, m))
    error = float(xp.max(xp.abs(u - reference)))
    return u, history, error


def _has_float64(device: str) -> bool:
    return xp.Device(device).supports(xp.float64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--plot", help="save the residual history to this file")
    args = parser.parse_args()
    u, history, error = solve(args.device, args.size)
    for i in range(0, len(history), 10):
        print(f"iteration {i:3d}  residual {history[i]:.3e}")
    print(f"{len(history) - 1} iterations; largest difference from a dense solve {error:.1e}")
    if args.plot:
        figure(u, history).savefig(args.plot, dpi=100)


def figure(u, history):
    """The residual norm per iteration, and the solution on the grid with its colour bar."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 3.3))
    left.semilogy(range(len(history)), history, marker=".", color="tab:blue")
    left.set_xlabel("iteration")
    left.set_ylabel("residual norm ||b - A x|| (2-norm)")
    left.set_title("Convergence")
    image = right.imshow(xp.to_numpy(u), cmap="viridis", origin="lower")
    right.set_xlabel("x (grid points)")
    right.set_ylabel("y (grid points)")
    right.set_title("Solution u")
    fig.colorbar(image, ax=right, label="u (potential of a unit point source)")
    fig.tight_layout()
    return fig


if __name__ == "__main__":
    main()
