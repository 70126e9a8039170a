"""Custom derivatives with JAX's interface: :class:`custom_vjp` and :class:`custom_jvp`.

A decorated function is called like the function itself. Which engine carries its rules
follows the arrays of its arguments:

- JAX: ``jax.custom_vjp`` / ``jax.custom_jvp`` (Arrays are JAX pytrees), under every JAX
  transform.
- torch (and NumPy and CuPy arrays inside a transform, which reach the function as torch
  tensors): a ``torch.autograd.Function`` with ``setup_context``, a generated ``vmap`` rule and
  the rules of the decorated function (``_custom_torch``), under torch.autograd, torch.func's
  transforms and ``torch.compile``. Where nothing differentiates the tensors, the function
  itself runs.
- NumPy, CuPy, Dask, array-api-strict outside transforms: the function itself (nothing is
  differentiated there; the transforms refuse Dask and array-api-strict arrays).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Self, TypeVar

from .._devices import Device
from ._control_common import as_arrays
from ._tree import device_of, function_name

__all__ = ["custom_jvp", "custom_vjp"]

_F = TypeVar("_F", bound=Callable[..., object])


def _nondiff(kind: str, nondiff_argnums: int | Sequence[int]) -> tuple[int, ...]:
    nums = (nondiff_argnums,) if isinstance(nondiff_argnums, int) else tuple(nondiff_argnums)
    if not all(type(i) is int and i >= 0 for i in nums):
        raise TypeError(
            f"arraymux.{kind}: nondiff_argnums must be non-negative ints, not {nondiff_argnums!r}."
        )
    return tuple(sorted(set(nums)))


class _Custom:
    """What :class:`custom_vjp` and :class:`custom_jvp` share: the function, its
    non-differentiated arguments, and the call that finds the engine."""

    _kind = ""

    def __init__(
        self, fun: Callable[..., object], nondiff_argnums: int | Sequence[int] = ()
    ) -> None:
        if not callable(fun):
            raise TypeError(
                f"arraymux.{self._kind}: expected a function, got {type(fun).__name__}."
            )
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = _nondiff(self._kind, nondiff_argnums)
        self._jax: Callable[..., object] | None = (
            None  # the jax.custom_* function, made on the first JAX call
        )

    def __get__(self, obj: object, objtype: type | None = None) -> Self | functools.partial[object]:
        # Decorating a method: bind it as functions are bound.
        return self if obj is None else functools.partial(self, obj)

    def _ruled(self) -> bool:
        raise NotImplementedError

    def __call__(self, *args: object) -> object:
        name = function_name(self.fun)
        if not self._ruled():
            rule = "defvjp(fwd, bwd)" if self._kind == "custom_vjp" else "defjvp(jvp)"
            raise TypeError(
                f"arraymux.{self._kind}: {name} has no rule: define it with {name}.{rule} "
                "before calling it."
            )
        n = len(args)
        for i in self.nondiff_argnums:
            if i >= n:
                raise TypeError(
                    f"arraymux.{self._kind}: nondiff_argnums has {i}, but {name} was called "
                    f"with {n} argument(s)."
                )
        dev = device_of(self._kind, *((i, a) for i, a in enumerate(args)))
        diff = [i for i in range(n) if i not in self.nondiff_argnums]
        name_ = dev._name
        if name_ == "jax":
            from . import _custom_jax

            return _custom_jax.call(self, _arrays(args, diff, dev), diff, dev)
        if name_ == "torch":
            from . import _custom_torch

            return _custom_torch.call(self, _arrays(args, diff, dev), diff, dev)
        return self.fun(*args)


def _arrays(args: tuple[object, ...], diff: list[int], dev: Device) -> tuple[object, ...]:
    """``args`` with the native arrays of every argument wrapped as Arrays, and the Python
    scalars of the differentiated ones made 0-d Arrays of ``dev`` (what the rules see, on every
    engine)."""
    return tuple(as_arrays(a, dev, _is_number if i in diff else None) for i, a in enumerate(args))


def _is_number(v: object) -> bool:
    return isinstance(v, bool | int | float | complex)


class custom_vjp(_Custom):
    """A function with a reverse-mode derivative of its own, as ``jax.custom_vjp``.

    Decorate the function, then give its rule with :meth:`defvjp`: ``fwd`` takes the
    function's arguments and returns ``(output, residuals)``; ``bwd`` takes the
    non-differentiated arguments, the residuals and the output's cotangent, and returns a
    tuple with one cotangent per differentiated argument (None for a zero one)::

        @xp.custom_vjp
        def f(x): ...
        def f_fwd(x): return f(x), residuals
        def f_bwd(residuals, g): return (cotangent_of_x,)
        f.defvjp(f_fwd, f_bwd)

    Parameters
    ----------
    fun
        The function: arrays (pytrees of them) in, arrays out.
    nondiff_argnums
        Positions of arguments that are not differentiated (Python values such as a
        threshold or a function); ``bwd`` receives them first. Use it as
        ``functools.partial(xp.custom_vjp, nondiff_argnums=(1,))``.

    Raises
    ------
    TypeError
        At a call: no rule defined yet, or ``bwd`` returns the wrong number or structure of
        cotangents.
    TransformUnavailableError
        Forward mode (:func:`arraymux.jvp`, :func:`arraymux.hessian`) through the function,
        which has no forward-mode rule (``jax.custom_vjp`` refuses it too); use
        :class:`custom_jvp` for that.

    Notes
    -----
    On JAX it is ``jax.custom_vjp``. On torch (and on NumPy and CuPy arrays inside a
    transform, which torch computes) it is a ``torch.autograd.Function`` with
    ``setup_context`` and a ``vmap`` rule, so the rule is used by :func:`arraymux.grad` and
    the other transforms, by ``loss.backward()``, by ``torch.func`` and under
    :func:`arraymux.jit`. Where nothing differentiates the call (NumPy, Dask and
    array-api-strict arrays outside transforms, torch tensors that nothing differentiates),
    the function itself runs. Differentiated twice (a Hessian-vector product through
    ``bwd``), the residuals are recomputed from the arguments so that their own derivatives
    count.

    Examples
    --------
    >>> import arraymux as xp
    >>> import functools
    >>> @functools.partial(xp.custom_vjp, nondiff_argnums=(1,))
    ... def clip_gradient(x, bound):
    ...     return x  # the identity, whose gradient is clipped
    >>> def fwd(x, bound):
    ...     return x, None
    >>> def bwd(bound, residuals, g):
    ...     return (xp.clip(g, -bound, bound),)
    >>> clip_gradient.defvjp(fwd, bwd)
    >>> xp.grad(lambda x: xp.sum(clip_gradient(x, 1.0) * 5.0))(xp.asarray([1.0, 2.0]))
    Array([1., 1.], dtype=float64, device='numpy:cpu')
    """

    _kind = "custom_vjp"
    # The rule, None until defvjp gives it.
    fwd: Callable[..., object] | None = None
    bwd: Callable[..., object] | None = None

    def _ruled(self) -> bool:
        return self.fwd is not None

    def defvjp(self, fwd: Callable[..., object], bwd: Callable[..., object]) -> None:
        """Define the reverse-mode rule.

        Parameters
        ----------
        fwd
            ``fwd(*args) -> (output, residuals)``: the output of the function and what
            ``bwd`` needs (a pytree of arrays and Python values).
        bwd
            ``bwd(*nondiff_args, residuals, g) -> tuple``: one cotangent per differentiated
            argument, shaped like it (a pytree like it, or None for zero).

        Returns
        -------
        None
            The rule is kept on the function; calling ``defvjp`` again replaces it.

        Examples
        --------
        >>> import arraymux as xp
        >>> @xp.custom_vjp
        ... def square(x):
        ...     return x * x
        >>> square.defvjp(lambda x: (x * x, x), lambda x, g: (2 * x * g,))
        >>> xp.grad(lambda x: xp.sum(square(x)))(xp.asarray([3.0]))
        Array([6.], dtype=float64, device='numpy:cpu')
        """
        for what, f in (("fwd", fwd), ("bwd", bwd)):
            if not callable(f):
                raise TypeError(
                    f"arraymux.custom_vjp.defvjp: {what} must be a function, not "
                    f"{type(f).__name__}."
                )
        self.fwd, self.bwd = fwd, bwd
        self._jax = None


class custom_jvp(_Custom):
    """A function with a forward-mode derivative of its own, as ``jax.custom_jvp``.

    Decorate the function, then give its rule with :meth:`defjvp` (also usable as a
    decorator): ``jvp(primals, tangents)`` takes a tuple of the differentiated arguments
    and one of their tangents and returns ``(output, tangent_out)``, with ``tangent_out``
    linear in the tangents. Reverse mode comes from the same rule, transposed::

        @xp.custom_jvp
        def f(x): ...
        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return f(x), derivative_at(x) * t

    Parameters
    ----------
    fun
        The function: arrays (pytrees of them) in, arrays out.
    nondiff_argnums
        Positions of arguments that are not differentiated; the rule receives them first:
        ``jvp(*nondiff_args, primals, tangents)``.

    Raises
    ------
    TypeError
        At a call: no rule defined yet, or the rule returns something other than a pair.

    Notes
    -----
    On JAX it is ``jax.custom_jvp``, which transposes the rule for reverse mode. On torch
    (and on NumPy and CuPy arrays inside a transform) it is a ``torch.autograd.Function``
    whose ``jvp`` is the rule and whose ``backward`` is the transpose of the rule's tangent
    map (a ``torch.func.vjp`` of it, which runs the rule once more), with a ``vmap`` rule,
    under torch.autograd, torch.func and :func:`arraymux.jit`. Where nothing differentiates
    the call, the function itself runs.

    Examples
    --------
    >>> import arraymux as xp
    >>> @xp.custom_jvp
    ... def log1pexp(x):
    ...     return xp.log1p(xp.exp(x))
    >>> @log1pexp.defjvp
    ... def log1pexp_jvp(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return log1pexp(x), t / (1 + xp.exp(-x))  # stable where exp(x) overflows
    >>> xp.grad(lambda x: xp.sum(log1pexp(x)))(xp.asarray([0.0, 1000.0]))
    Array([0.5, 1. ], dtype=float64, device='numpy:cpu')
    """

    _kind = "custom_jvp"
    # The rule, None until defjvp gives it.
    jvp: Callable[..., object] | None = None

    def _ruled(self) -> bool:
        return self.jvp is not None

    def defjvp(self, jvp: _F) -> _F:
        """Define the forward-mode rule.

        Parameters
        ----------
        jvp
            ``jvp(*nondiff_args, primals, tangents) -> (output, tangent_out)``, where
            ``primals`` and ``tangents`` are tuples with one entry per differentiated
            argument and ``tangent_out`` is linear in ``tangents``.

        Returns
        -------
        callable
            ``jvp`` itself, so that ``defjvp`` works as a decorator.

        Examples
        --------
        >>> import arraymux as xp
        >>> @xp.custom_jvp
        ... def cube(x):
        ...     return x**3
        >>> @cube.defjvp
        ... def cube_jvp(primals, tangents):
        ...     (x,), (t,) = primals, tangents
        ...     return cube(x), 3 * x**2 * t
        >>> xp.jvp(cube, (xp.asarray([2.0]),), (xp.asarray([1.0]),))
        (Array([8.], dtype=float64, device='numpy:cpu'), Array([12.], dtype=float64, device='numpy:cpu'))
        """
        if not callable(jvp):
            raise TypeError(
                f"arraymux.custom_jvp.defjvp: jvp must be a function, not {type(jvp).__name__}."
            )
        self.jvp = jvp
        self._jax = None
        return jvp
