"""Fitting the parameters of an ODE through its integrator: ``scan`` and ``custom_vjp``.

A damped oscillator, ``x'' = -k x - c x'``, is integrated with fourth-order Runge-Kutta steps
by :func:`arraymux.scan`, which carries the state ``(x, x')`` from step to step and stacks the
positions. Observations come from ``k = 4``, ``c = 0.5``; starting from ``k = 1``, ``c = 0.1``,
gradient descent on the squared error recovers them, the gradient flowing back through every
step of the integrator: ``jax.lax.scan`` on JAX (the whole training step compiled by
:func:`arraymux.jit`), a Python loop that torch differentiates on torch and NumPy. A
:class:`arraymux.custom_vjp` function, the identity whose gradient is clipped, keeps the first
steps, far from the answer, from overshooting. Dask and array-api-strict have no engine to
differentiate with (``TransformUnavailableError``).

Run it with ``python docs/examples/ode_fit.py [--device jax:cpu] [--steps N] [--no-jit]
[--plot fit.png]``; it prints the loss and the parameters every 50 steps, and with ``--plot``
saves the observed and the fitted trajectories (matplotlib).
"""

from __future__ import annotations

import argparse
import functools

import arraymux as xp

DT = 0.1  # time step
N_STEPS = 60  # integration steps: 6 time units
TRUE = (4.0, 0.5)  # k, c of the observations


def rhs(state, theta):
    """``(x', x'')`` of the oscillator."""
    x, v = state[0], state[1]
    return xp.stack([v, -theta[0] * x - theta[1] * v])


def rk4(state, theta):
    """One fourth-order Runge-Kutta step."""
    k1 = rhs(state, theta)
    k2 = rhs(state + 0.5 * DT * k1, theta)
    k3 = rhs(state + 0.5 * DT * k2, theta)
    k4 = rhs(state + DT * k3, theta)
    return state + DT / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def positions(theta, state0):
    """The positions after each of ``N_STEPS`` steps from ``state0``."""

    def step(state, _):
        state = rk4(state, theta)
        return state, state[0]

    _, xs = xp.scan(step, state0, length=N_STEPS)
    return xs


@functools.partial(xp.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    """The identity, whose gradient is clipped to ``[-bound, bound]``."""
    return x


def _clip_fwd(x, bound):
    return x, None


def _clip_bwd(bound, _, g):
    return (xp.clip(g, -bound, bound),)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


def loss(theta, state0, observed):
    return xp.mean((positions(clip_gradient(theta, 1.0), state0) - observed) ** 2)


def train(device: str = "numpy", steps: int = 200, lr: float = 0.5, jit: bool = True):
    """The fitted ``(k, c)`` and the loss every 50 steps."""
    state0 = xp.asarray([1.0, 0.0], dtype=xp.float32, device=device)
    observed = positions(xp.asarray(TRUE, dtype=xp.float32, device=device), state0)
    theta = xp.asarray([1.0, 0.1], dtype=xp.float32, device=device)
    value_and_grad = xp.value_and_grad(loss)
    if jit:
        value_and_grad = xp.jit(value_and_grad)
    history = []
    for i in range(steps + 1):
        value, g = value_and_grad(theta, state0, observed)
        if i % 50 == 0:
            history.append(float(value))
            k, c = xp.to_numpy(theta).tolist()
            print(f"step {i:4d}  loss {history[-1]:.2e}  k {k:.3f}  c {c:.3f}")
        theta = theta - lr * g
    return theta, history


def figure(theta, device: str = "numpy"):
    """The observed positions and those of the fitted parameters."""
    import matplotlib.pyplot as plt
    import numpy as np

    state0 = xp.asarray([1.0, 0.0], dtype=xp.float32, device=device)
    t = DT * np.arange(1, N_STEPS + 1)
    observed = xp.to_numpy(positions(xp.asarray(TRUE, dtype=xp.float32, device=device), state0))
    fitted = xp.to_numpy(positions(theta, state0))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(t, observed, "o", ms=3, label=f"observed (k={TRUE[0]}, c={TRUE[1]})")
    k, c = xp.to_numpy(theta).tolist()
    ax.plot(t, fitted, "-", label=f"fitted (k={k:.3f}, c={c:.3f})")
    ax.set_xlabel("time")
    ax.set_ylabel("x")
    ax.legend()
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--no-jit", action="store_true", help="differentiate without jit")
    parser.add_argument("--plot", help="save the trajectories to this file")
    args = parser.parse_args()
    theta, _ = train(args.device, args.steps, jit=not args.no_jit)
    print("fitted k, c:", [round(v, 3) for v in xp.to_numpy(theta).tolist()], "true:", TRUE)
    if args.plot:
        figure(theta, args.device).savefig(args.plot, dpi=120)


if __name__ == "__main__":
    main()
