"""Function transforms that work whichever backend holds the arrays.

``grad``, ``value_and_grad``, ``vjp``, ``jvp``, ``jacobian``, ``hessian``, ``vmap``, ``jit`` and
``checkpoint`` follow JAX's conventions. ``fun`` is written with arraymux functions; its
arguments and results are pytrees (nested tuples, lists, dicts, named tuples and the classes
registered with :func:`register_tree_node`) of :class:`arraymux.Array` and Python scalars.
The engine follows the arrays:

========================  ===================================================================
arrays on                 engine
========================  ===================================================================
torch                     ``torch.func`` (``torch.compile`` for :func:`jit`; ``torch.autograd``
                          for :func:`grad` and :func:`value_and_grad` outside other
                          transforms)
jax                       ``jax`` (``jax.jit`` for :func:`jit`)
numpy                     ``torch.func`` on the CPU; arrays cross through DLPack without a
                          copy and results come back as NumPy arrays. :func:`jit` runs the
                          function as it is.
cupy                      ``torch.func`` on the same CUDA device, the same way
dask, array_api_strict    none: :class:`arraymux.TransformUnavailableError`
========================  ===================================================================

Inside a transform, ``fun`` sees Arrays on the engine's device (``torch:cpu`` for NumPy
arguments), and that device is the default one, so creation functions called without
``device=`` put their arrays beside the arguments. Arrays that ``fun`` reads from an enclosing
scope (a closure) on the device of the arguments are constants of the computation: nothing is
differentiated with respect to them, and NumPy and CuPy ones cross to torch without a copy
where they meet the arguments. Arrays of another device raise
:class:`arraymux.BackendMismatchError` (or :class:`arraymux.DeviceMismatchError`) there; move
them or pass them as arguments. Transformed functions take positional arguments (:func:`jit`
also takes keyword arguments), and their arguments and results are pytrees (see
:func:`tree_map`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeAlias

from ._control import cond, fori_loop, scan, switch, while_loop
from ._crossing import on_device
from ._custom import custom_jvp, custom_vjp
from ._engine import (
    Engine,
    as_constants,
    aux_check,
    cached_transform,
    check_argnums,
    check_function,
    diff_inputs,
    scalar_check,
)
from ._jit import jit
from ._pytrees import (
    TreeDef,
    register_dataclass,
    register_tree_node,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)
from ._stop_gradient import stop_gradient
from ._tree import PyTree, device_of

#: What :func:`vjp` returns to pull a cotangent of the output back: one per primal.
Pullback: TypeAlias = "Callable[[PyTree], tuple[PyTree, ...]]"
#: The mapped axes of :func:`vmap`: an int or None, or a pytree of them per argument.
Axes: TypeAlias = "int | tuple[Axes, ...] | list[Axes] | dict[Hashable, Axes] | None"

__all__ = [
    "TreeDef",
    "checkpoint",
    "cond",
    "custom_jvp",
    "custom_vjp",
    "fori_loop",
    "grad",
    "hessian",
    "jacobian",
    "jit",
    "jvp",
    "on_device",
    "register_dataclass",
    "register_tree_node",
    "scan",
    "stop_gradient",
    "switch",
    "tree_flatten",
    "tree_leaves",
    "tree_map",
    "tree_structure",
    "tree_unflatten",
    "value_and_grad",
    "vjp",
    "vmap",
    "while_loop",
]

# -- the transforms ---------------------------------------------------------------------------


def grad(
    fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., PyTree]:
    """The gradient of a scalar function.

    Parameters
    ----------
    fun
        A function of arrays that returns a 0-d floating-point array (or, with ``has_aux``,
        a pair ``(output, aux)``).
    argnums
        The positional argument(s) to differentiate: an int, or a tuple of ints.
    has_aux
        Whether ``fun`` returns ``(output, aux)``; ``aux`` is returned beside the gradient.

    Returns
    -------
    callable
        Takes the arguments of ``fun`` and returns the gradient, shaped like the argument (a
        tuple of them for a tuple ``argnums``), or ``(gradient, aux)``.

    Raises
    ------
    TypeError
        ``fun`` returns a non-scalar or non-floating array, or a differentiated argument is
        not floating-point.
    BackendMismatchError
        Arguments on different backends, or ``fun`` reads arrays of another backend.
    TransformUnavailableError
        The arrays are on a backend without an engine (Dask, array-api-strict).

    Notes
    -----
    On torch (and on NumPy and CuPy arrays, which torch differentiates), a call outside any
    other transform computes with ``torch.autograd`` itself: the differentiated arguments
    become fresh leaves over their memory, ``fun`` runs once and ``torch.autograd.grad``
    differentiates it, close to the cost of a hand-written ``loss.backward()`` step. Inside
    torch.func's transforms (:func:`vmap`, :func:`jacobian`, :func:`hessian`, :func:`jvp`),
    under ``torch.compile`` (:func:`jit`), in inference mode, and where a differentiated
    argument requires grad (an enclosing grad differentiates it), it is ``torch.func.grad``.
    Both give the same values, gradients, dtypes and devices; where ``fun`` reads tensors
    that torch's own autograd differentiates around the call, the gradient stays
    differentiable with respect to them, as torch.func's does.

    Examples
    --------
    >>> import arraymux as xp
    >>> df = xp.grad(lambda x: xp.sum(x**2))
    >>> df(xp.asarray([1.0, 2.0]))
    Array([2., 4.], dtype=float64, device='numpy:cpu')
    >>> xp.grad(lambda w, b: xp.sum(w * b), argnums=(0, 1))(xp.asarray(3.0), xp.asarray(4.0))
    (Array(4., dtype=float64, device='numpy:cpu'), Array(3., dtype=float64, device='numpy:cpu'))
    """
    return _gradient("grad", fun, argnums, has_aux)


def value_and_grad(
    fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., PyTree]:
    """The value of a scalar function and its gradient, computed together.

    Parameters
    ----------
    fun
        A function of arrays that returns a 0-d floating-point array (or, with ``has_aux``,
        a pair ``(output, aux)``).
    argnums
        The positional argument(s) to differentiate: an int, or a tuple of ints.
    has_aux
        Whether ``fun`` returns ``(output, aux)``; ``aux`` is returned beside the value.

    Returns
    -------
    callable
        Returns ``(value, gradient)``, or ``((value, aux), gradient)`` with ``has_aux``.

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Notes
    -----
    The engine is chosen as for :func:`grad`: on torch, ``torch.autograd`` outside other
    transforms (a training step costs close to what ``loss.backward()`` costs), else
    ``torch.func.grad_and_value``.

    Examples
    --------
    >>> import arraymux as xp
    >>> value, g = xp.value_and_grad(lambda x: xp.sum(x**2))(xp.asarray([1.0, 2.0]))
    >>> value, g
    (Array(5., dtype=float64, device='numpy:cpu'), Array([2., 4.], dtype=float64, device='numpy:cpu'))
    """
    return _gradient("value_and_grad", fun, argnums, has_aux)


def _gradient(
    tname: str, fun: Callable[..., PyTree], argnums: int | Sequence[int], has_aux: bool
) -> Callable[..., PyTree]:
    """``grad`` or ``value_and_grad`` (``tname``, the engine's function of that name)."""
    check_function(tname, fun)
    nums = check_argnums(tname, argnums)

    def build(e: Engine) -> Callable[..., object]:
        f = e.native_fun(fun, scalar_check(e, has_aux))
        return getattr(e.mod, tname)(f, argnums, has_aux=has_aux)

    return cached_transform(tname, fun, build, nums)


def vjp(
    fun: Callable[..., PyTree], *primals: PyTree, has_aux: bool = False
) -> tuple[PyTree, Pullback] | tuple[PyTree, Pullback, PyTree]:
    """Evaluate ``fun`` and get a function that pulls cotangents back (reverse mode).

    Parameters
    ----------
    fun
        A function of arrays returning a pytree of arrays (with ``has_aux``, a pair
        ``(output, aux)``).
    *primals
        The arguments at which to evaluate; all are differentiated.
    has_aux
        Whether ``fun`` returns ``(output, aux)``.

    Returns
    -------
    tuple
        ``(output, vjp_fn)`` or ``(output, vjp_fn, aux)``. ``vjp_fn(cotangent)`` takes a
        cotangent shaped like ``output`` and returns a tuple with one cotangent per primal.

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> out, pull = xp.vjp(lambda x: x * x, xp.asarray([1.0, 2.0]))
    >>> pull(xp.asarray([1.0, 10.0]))
    (Array([ 2., 40.], dtype=float64, device='numpy:cpu'),)
    """
    check_function("vjp", fun)
    primals = as_constants(primals)
    e = Engine.of("vjp", primals)
    nargs = diff_inputs(e, primals, tuple(range(len(primals))))
    f = e.native_fun(fun, aux_check(e) if has_aux else None)
    res = e.run(fun, e.mod.vjp, f, *nargs, has_aux=has_aux)
    pull = res[1]

    def vjp_fn(cotangent: PyTree) -> tuple[PyTree, ...]:
        cotangent = as_constants(cotangent)
        device_of("vjp", ("the cotangent", cotangent), expect=(e.user, "the primals"))
        nct = e.into(cotangent, "the cotangent")
        return tuple(e.out(e.run(fun, pull, nct)))

    if has_aux:
        return e.out(res[0]), vjp_fn, e.out(res[2])
    return e.out(res[0]), vjp_fn


def jvp(
    fun: Callable[..., PyTree], primals: Sequence[PyTree], tangents: Sequence[PyTree]
) -> tuple[PyTree, PyTree]:
    """Evaluate ``fun`` and its directional derivative (forward mode).

    Parameters
    ----------
    fun
        A function of arrays returning a pytree of arrays.
    primals
        A tuple or list of the arguments.
    tangents
        A tuple or list of tangents, one per primal, with the same shapes and dtypes.

    Returns
    -------
    tuple
        ``(output, tangent_out)``.

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.jvp(lambda x: x**3, (xp.asarray([1.0, 2.0]),), (xp.asarray([1.0, 1.0]),))
    (Array([1., 8.], dtype=float64, device='numpy:cpu'), Array([ 3., 12.], dtype=float64, device='numpy:cpu'))
    """
    check_function("jvp", fun)
    if not isinstance(primals, tuple | list) or not isinstance(tangents, tuple | list):
        raise TypeError("arraymux.jvp: primals and tangents must be tuples or lists.")
    if len(primals) != len(tangents):
        raise ValueError(
            f"arraymux.jvp: got {len(primals)} primal(s) but {len(tangents)} tangent(s)."
        )
    primals, tangents = as_constants((tuple(primals), tuple(tangents)))
    user = device_of("jvp", ("primals", primals), ("tangents", tangents))
    e = Engine.get("jvp", user)
    nprimals = tuple(diff_inputs(e, primals, tuple(range(len(primals)))))
    ntangents = tuple(e.into(t, f"tangents[{i}]") for i, t in enumerate(tangents))
    f = e.native_fun(fun)
    out, tangent_out = e.out(tuple(e.run(fun, e.mod.jvp, f, nprimals, ntangents)))
    return out, tangent_out


def jacobian(fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0) -> Callable[..., PyTree]:
    """The Jacobian of ``fun``, computed in reverse mode.

    Parameters
    ----------
    fun
        A function of arrays returning a pytree of arrays.
    argnums
        The positional argument(s) to differentiate.

    Returns
    -------
    callable
        Returns the Jacobian: for an output of shape ``O`` and an input of shape ``I``, an
        array of shape ``O + I`` (nested like the output and ``argnums``).

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.jacobian(lambda x: x**2)(xp.asarray([1.0, 2.0]))
    Array([[2., 0.],
           [0., 4.]], dtype=float64, device='numpy:cpu')
    """
    check_function("jacobian", fun)
    nums = check_argnums("jacobian", argnums)
    return cached_transform(
        "jacobian", fun, lambda e: e.mod.jacobian(e.native_fun(fun), argnums=argnums), nums
    )


def hessian(fun: Callable[..., PyTree], argnums: int | Sequence[int] = 0) -> Callable[..., PyTree]:
    """The Hessian of a scalar function (forward over reverse mode).

    Parameters
    ----------
    fun
        A function of arrays returning a 0-d floating-point array.
    argnums
        The positional argument(s) to differentiate.

    Returns
    -------
    callable
        Returns the Hessian, of shape ``I + I`` for an input of shape ``I``.

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.hessian(lambda x: xp.sum(x**3))(xp.asarray([1.0, 2.0]))
    Array([[ 6.,  0.],
           [ 0., 12.]], dtype=float64, device='numpy:cpu')
    """
    check_function("hessian", fun)
    nums = check_argnums("hessian", argnums)
    return cached_transform(
        "hessian",
        fun,
        lambda e: e.mod.hessian(e.native_fun(fun, scalar_check(e, False)), argnums=argnums),
        nums,
    )


def vmap(
    fun: Callable[..., PyTree], in_axes: Axes = 0, out_axes: Axes = 0
) -> Callable[..., PyTree]:
    """Map ``fun`` over an axis of its arguments, as if in a loop, but vectorised.

    Parameters
    ----------
    fun
        A function of arrays.
    in_axes
        The axis of each positional argument to map over: an int or None for all of them, or a
        tuple with one entry (int, None, or a pytree of them) per argument.
    out_axes
        Where the mapped axis goes in the outputs.

    Returns
    -------
    callable
        The vectorised function.

    Raises
    ------
    BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> dot = lambda a, b: xp.sum(a * b)
    >>> xp.vmap(dot, in_axes=(0, None))(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), xp.asarray([1.0, 1.0]))
    Array([3., 7.], dtype=float64, device='numpy:cpu')
    """
    check_function("vmap", fun)
    if type(in_axes) is list:
        in_axes = tuple(in_axes)

    return cached_transform("vmap", fun, lambda e: e.mod.vmap(e.native_fun(fun), in_axes, out_axes))


def checkpoint(
    fun: Callable[..., PyTree], policy: str | Callable[..., bool] | None = None
) -> Callable[..., PyTree]:
    """Recompute ``fun``'s intermediates during differentiation instead of storing them.

    Gradients are unchanged; peak memory falls on deep chains, at the cost of running ``fun``
    again in the backward pass.

    Parameters
    ----------
    fun
        A function of arrays.
    policy
        What may be saved anyway. On JAX, the name of a policy of
        ``jax.checkpoint_policies`` (``"dots_saveable"``, ``"nothing_saveable"``, ...) or a
        policy callable. On torch, ``None`` or ``"nothing_saveable"`` (non-reentrant
        ``torch.utils.checkpoint``; inside ``arraymux.grad`` and friends, an equivalent
        recomputing autograd function), or ``"everything_saveable"`` (no recomputation).
        ``None`` saves nothing.

    Returns
    -------
    callable
        ``fun``, recomputed in the backward pass. Outside any differentiation (NumPy or CuPy
        arrays not inside a transform) it runs as it is.

    Raises
    ------
    ValueError
        An unknown policy name for the engine.
    BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> layer = xp.checkpoint(lambda x: xp.sin(xp.sin(x)))
    >>> g = xp.grad(lambda x: xp.sum(layer(x)))(xp.asarray([0.0, 1.0]))
    >>> xp.to_numpy(g).round(4)
    array([1.  , 0.36])
    """
    check_function("checkpoint", fun)
    if policy is not None and not isinstance(policy, str) and not callable(policy):
        raise TypeError(
            "arraymux.checkpoint: policy must be None, a policy name, or a callable, not "
            f"{type(policy).__name__}."
        )
    return cached_transform(
        "checkpoint",
        fun,
        lambda e: e.mod.checkpoint(e.native_fun(fun), policy),
        bridged_as_is=True,
    )
