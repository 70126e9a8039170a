""":func:`stop_gradient`: a value that the transforms treat as a constant."""

from __future__ import annotations

from .._array import Array, operand, wrap
from .._dtype_rules import standard_dtype
from ._pytrees import tree_map
from ._tree import PyTree

__all__ = ["stop_gradient"]


def stop_gradient(x: PyTree) -> PyTree:
    """``x`` as a constant: its value, through which no derivative flows.

    Inside :func:`grad`, :func:`value_and_grad`, :func:`vjp`, :func:`jvp`, :func:`jacobian`
    and :func:`hessian` (and the engines' own transforms), the result has the value of ``x``
    and a derivative of zero, to every order. On torch it is ``x.detach()`` (which
    ``torch.func`` treats as a constant at every level), on JAX ``jax.lax.stop_gradient(x)``;
    NumPy and CuPy arrays inside a transform are torch tensors, and outside one, as on Dask
    and array-api-strict (which have no engine), there is nothing to stop: ``x`` is returned
    as it is.

    Parameters
    ----------
    x
        An array (an :class:`Array` or a native array), or a pytree of them; its other leaves
        (Python scalars, None, ...) are left as they are.

    Returns
    -------
    Array or pytree
        ``x``, with each array a constant of the same value, dtype and device (a native array
        comes back as an :class:`Array`).

    Examples
    --------
    The gradient flows through ``x`` only once in ``x * stop_gradient(x)``:

    >>> import arraymux as xp
    >>> f = lambda x: xp.sum(x * xp.stop_gradient(x))
    >>> xp.grad(f)(xp.asarray([1.0, 3.0]))
    Array([1., 3.], dtype=float64, device='numpy:cpu')

    A target held fixed while the prediction moves (a "semi-gradient", as in temporal
    difference learning):

    >>> w = xp.asarray([0.5, 1.0], device="torch:cpu")
    >>> def loss(w):
    ...     target = 1.0 + 0.5 * xp.stop_gradient(w[1])
    ...     return (w[0] - target) ** 2
    >>> xp.grad(loss)(w)
    Array([-2.,  0.], dtype=float32, device='torch:cpu')
    """
    return tree_map(_stopped, x)


def _stopped(leaf: object) -> object:
    op = operand(leaf)
    if op is None:
        return leaf
    native, device = op
    if type(leaf) is not Array:  # a native array: of a dtype of the standard, or refused
        standard_dtype("stop_gradient", native, device)
    stop = device._backend.hooks.stop_gradient
    if stop is None:
        return leaf if type(leaf) is Array else wrap(native, device)
    return wrap(stop(native), device, leaf._dtype if type(leaf) is Array else None)
