"""Calling a function that takes only native arrays: ``natively`` and ``call_natively``.

A library that recognises a backend by its own array type (SciPy calls ``cupyx.scipy`` for a
CuPy array, ``torch.special`` for a tensor) cannot see the backend behind an Array. These
helpers hand it the native arrays themselves and wrap what it returns, on the device where it
returned it.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

from ._array import Array, operand, wrap
from ._creation_functions import asarray

__all__ = ["call_natively", "natively"]


def _map(fn: Callable[[Any], object], tree: Any) -> Any:
    """``tree`` with ``fn`` applied to every leaf. Nodes are tuples, lists and dicts; named
    tuples (SciPy's result tuples among them, with their extra attributes) and dict subclasses
    (SciPy's ``OptimizeResult``) keep their type. Anything else is a leaf."""
    t = type(tree)
    if t is tuple or t is list:
        return t(_map(fn, v) for v in tree)
    if t is dict:
        return {k: _map(fn, v) for k, v in tree.items()}
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        # Made without calling the class, whose constructor may take more than the fields
        # (SciPy's result classes); the instance's other attributes follow as they are, for
        # its methods read them (SciPy's ``df``, which ``confidence_interval()`` uses).
        out = tuple.__new__(t, [_map(fn, v) for v in tree])
        state = getattr(tree, "__dict__", None)
        if state:
            out.__dict__.update(state)
        return out
    if isinstance(tree, dict):
        new = copy.copy(tree)
        for k, v in tree.items():
            new[k] = _map(fn, v)
        return new
    return fn(tree)


class _Unwrap:
    """Unwraps Arrays into their native arrays, noting whether one was NumPy's."""

    __slots__ = ("numpy",)

    def __init__(self) -> None:
        self.numpy = False

    def __call__(self, leaf: Any) -> Any:
        if type(leaf) is not Array:
            return leaf
        if leaf.device.backend == "numpy":
            self.numpy = True
        return leaf.native


def _to_array(leaf: Any) -> Any:
    if type(leaf) is Array:
        return leaf
    op = operand(leaf)
    if op is None:
        return leaf
    native, device = op
    try:
        device._backend.dtype_from_native(native.dtype)
    except (TypeError, AttributeError):
        return leaf  # a dtype the standard lacks (float16, strings): left as it is
    return wrap(native, device)  # on its own device, without a copy


def _to_array_or_0d(leaf: Any) -> Any:
    """``_to_array``, and a NumPy scalar (NumPy's form of a 0-d result) as a 0-d Array."""
    if type(leaf).__module__ == "numpy":
        import numpy

        if isinstance(leaf, numpy.generic):
            try:
                return asarray(leaf, device="numpy")
            except TypeError:
                return leaf  # a NumPy scalar of a dtype arraymux lacks
    return _to_array(leaf)


def _call(fun: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object]) -> Any:
    unwrap = _Unwrap()
    if args:
        args = _map(unwrap, args)
    if kwargs:
        kwargs = _map(unwrap, kwargs)
    return _map(_to_array_or_0d if unwrap.numpy else _to_array, fun(*args, **kwargs))


def call_natively(fun: Callable[..., object], /, *args: object, **kwargs: object) -> Any:
    """Call ``fun`` on the native arrays of its Array arguments, and wrap the arrays it
    returns.

    Every :class:`Array` among ``args`` and ``kwargs`` (at any depth of tuples, lists and
    dicts) is replaced by its native array (``x.native``: a ``numpy.ndarray``,
    ``torch.Tensor``, ``jax.Array``, ``cupy.ndarray``, ...), ``fun`` is called, and every
    native array of an arraymux backend in its result (at any depth of tuples, named tuples,
    lists and dicts; the fields of SciPy's result tuples, whose other attributes stay as
    SciPy made them) is wrapped as an Array on the device where it lies, without a copy.
    Other values pass through unchanged both ways: Python scalars, dtypes, devices, arrays of
    a dtype that arraymux lacks (``float16``). NumPy scalars, NumPy's form of a 0-d result,
    become 0-d Arrays on ``numpy:cpu`` where an argument was an Array there, and pass through
    otherwise.

    Under a transform (:func:`arraymux.grad`, ...), ``fun`` sees the arrays the engine traces:
    torch tensors for NumPy and CuPy arrays as for torch's, JAX's traced arrays on JAX; the
    result is differentiable where ``fun`` is for that engine.

    Use it for a function that handles each library's own arrays (for CuPy arrays, SciPy
    calls ``cupyx.scipy``; for tensors, ``torch.special``), where it would not recognise an
    Array: see :func:`natively` and the guide *Using arraymux arrays with SciPy and
    scikit-learn*. ``fun`` sees the native arrays only: it must accept those of the devices
    you give it, and dtypes or devices you pass must be its own.

    Parameters
    ----------
    fun : callable
        The function to call.
    *args, **kwargs
        Its arguments, Arrays among them.

    Returns
    -------
    object
        What ``fun`` returned, with its native arrays wrapped as Arrays.

    Examples
    --------
    >>> import arraymux as xp
    >>> import numpy as np
    >>> x = xp.asarray([1.0, 2.0, 3.0], device="torch:cpu")
    >>> def double(t):
    ...     return t * 2, type(t).__name__
    >>> xp.call_natively(double, x)
    (Array([2., 4., 6.], dtype=float32, device='torch:cpu'), 'Tensor')
    >>> xp.call_natively(np.convolve, xp.asarray([1.0, 2.0]), xp.asarray([1.0, 1.0]))
    Array([1., 3., 2.], dtype=float64, device='numpy:cpu')
    """
    if not callable(fun):
        raise TypeError(
            f"arraymux.call_natively: fun must be callable, not {type(fun).__name__}; call "
            "it as xp.call_natively(fun, *args, **kwargs)."
        )
    return _call(fun, args, kwargs)


def natively(fun: Callable[..., object], /) -> Callable[..., Any]:
    """``fun`` as a function of Arrays that computes on their native arrays.

    The function returned unwraps every :class:`Array` in its arguments (at any depth of
    tuples, lists and dicts), calls ``fun`` on the native arrays, and wraps the native arrays
    of the result as Arrays on the device where each lies; see :func:`call_natively`.

    It lets a library take its own path for each backend. SciPy, for instance, calls
    ``cupyx.scipy.signal`` for CuPy arrays, ``torch.special`` for tensors and ``jax.scipy`` for
    JAX arrays, but for an Array, whose namespace it does not know, it takes its generic path,
    which may convert through NumPy (and a GPU array then fails to convert):
    ``xp.natively(scipy.signal.convolve)(a, b)`` runs the path SciPy takes for native arrays
    of ``a``'s backend. Use it where a library has a path of its own for the backend and none
    through the Array API: calls that work on Arrays as they are need no wrapper.

    Parameters
    ----------
    fun : callable
        A function of native arrays.

    Returns
    -------
    callable
        A function of Arrays with ``fun``'s name and docstring (``functools.wraps``).

    Examples
    --------
    >>> import arraymux as xp
    >>> import numpy as np
    >>> convolve = xp.natively(np.convolve)
    >>> convolve(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([0.0, 1.0, 0.5]))
    Array([0. , 1. , 2.5, 4. , 1.5], dtype=float64, device='numpy:cpu')

    As a decorator, on a function written for one backend's arrays:

    >>> import torch
    >>> @xp.natively
    ... def soft_sign(t):
    ...     return torch.nn.functional.softsign(t)
    >>> soft_sign(xp.asarray([-1.0, 0.0, 3.0], device="torch:cpu"))
    Array([-0.5 ,  0.  ,  0.75], dtype=float32, device='torch:cpu')
    """
    if not callable(fun):
        raise TypeError(
            f"arraymux.natively: fun must be callable, not {type(fun).__name__}; use it as "
            "xp.natively(fun)(*args) or as a decorator."
        )

    @functools.wraps(fun)
    def native_call(*args: object, **kwargs: object) -> Any:
        return _call(fun, args, kwargs)

    return native_call
