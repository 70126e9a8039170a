"""Function transforms that work whichever backend holds the arrays.

``grad``, ``value_and_grad``, ``vjp``, ``jvp``, ``jacobian``, ``hessian``, ``vmap``, ``jit`` and
``checkpoint`` follow JAX's conventions. ``fun`` is written with arraymux functions; its
arguments and results are pytrees (nested tuples, lists and dicts) of :class:`arraymux.Array`
and Python scalars. The engine follows the arrays:

========================  ===================================================================
arrays on                 engine
========================  ===================================================================
torch                     ``torch.func`` (``torch.compile`` for :func:`jit`)
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
scope must be on the engine's backend; pass them as arguments otherwise. Transformed functions
take positional arguments (:func:`jit` also takes keyword arguments).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from . import _compiled
from ._array import Array
from ._backends import backend_of_type, specs
from ._devices import _TRANSFORM, Device, get_default_device
from ._dispatch import _SCALARS, operand, wrap
from ._errors import (
    BackendMismatchError,
    BackendUnavailableError,
    DeviceMismatchError,
    TransformUnavailableError,
)

__all__ = [
    "checkpoint",
    "grad",
    "hessian",
    "jacobian",
    "jit",
    "jvp",
    "value_and_grad",
    "vjp",
    "vmap",
]

_FLOATING = ("real floating", "complex floating")


# -- pytrees ----------------------------------------------------------------------------------


def _map(fn: Callable[[Any, str], Any], tree: Any, path: str = "") -> Any:
    """``tree`` with every leaf replaced by ``fn(leaf, path)``; nodes are tuple, list, dict."""
    t = type(tree)
    if t is tuple or t is list:
        return t(_map(fn, v, f"{path}[{i}]") for i, v in enumerate(tree))
    if t is dict:
        return {k: _map(fn, v, f"{path}[{k!r}]") for k, v in tree.items()}
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t(*(_map(fn, v, f"{path}.{f}") for f, v in zip(tree._fields, tree)))
    return fn(tree, path)


def _visit_at(visit: Callable[[Any, str], Any], pos: int | str, leaf: Any, path: str) -> Any:
    return visit(leaf, _where(pos, path))


def _where(pos: int | str, path: str) -> str:
    return f"argument {pos}{path}" if isinstance(pos, int) else f"{pos}{path}"


def _name(fun: Any) -> str:
    return getattr(fun, "__name__", None) or type(fun).__name__


def _engines() -> str:
    out = []
    for s in specs():
        if s.autodiff:
            out.append(f"{s.name} (through torch)" if "bridged" in s.autodiff else s.name)
    return ", ".join(out)


# -- fast paths -------------------------------------------------------------------------------
#
# The walks below run on every call of a transformed function, so they build no paths and
# no closures. Anything unusual (arrays on two devices, a Python scalar to differentiate, a
# non-floating input) raises ``_Slow``, and the call redoes its work on the slow path, which
# knows where each leaf is and explains the problem.


class _Slow(Exception):
    """The fast path cannot handle these arguments: take the slow one."""


_REAL: set[Any] = set()  # native dtypes known to be real floating
_FLOAT: set[Any] = set()  # native dtypes known to be real or complex floating


def _is_float(backend: Any, dtype: Any, real: bool = False) -> bool:
    known = _REAL if real else _FLOAT
    key = (type(dtype), dtype)  # some dtypes refuse comparisons with other backends' ones
    try:
        if key in known:
            return True
        kind = backend.dtype_from_native(dtype).kind
    except Exception:
        return False
    ok = kind == "real floating" if real else kind in _FLOATING
    if ok:
        known.add(key)
    return ok


def _all_float(tree: Any, device: Device) -> bool:
    """Whether every leaf of ``tree`` (natives, in tuples, lists and dicts) is a floating
    array of ``device``'s backend."""
    t = type(tree)
    if t is tuple or t is list:
        return all(_all_float(v, device) for v in tree)
    if t is dict:
        return all(_all_float(v, device) for v in tree.values())
    if isinstance(tree, _SCALARS) or tree is None:
        return False
    dtype = getattr(tree, "dtype", None)
    return dtype is not None and _is_float(device._backend, dtype)


def _natives(tree: Any, found: list[Device], diff: bool) -> Any:
    """``tree`` with its arrays replaced by their natives, all on ``found[0]`` (set by the
    first array when ``found`` is empty); with ``diff``, every leaf must be a floating array."""
    t = type(tree)
    if t is Array:
        native, dev = tree._native, tree._device
    elif t is tuple or t is list:
        return t([_natives(v, found, diff) for v in tree])
    elif t is dict:
        return {k: _natives(v, found, diff) for k, v in tree.items()}
    elif isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return t(*[_natives(v, found, diff) for v in tree])
    else:
        op = operand(tree)
        if op is None:
            if diff:
                raise _Slow
            return tree
        native, dev = op
    if not found:
        found.append(dev)
    elif dev is not found[0]:
        raise _Slow
    if diff and not _is_float(dev._backend, native.dtype):
        raise _Slow
    return native


def _convert(tree: Any, fn: Callable[[Any], Any], backend: Any) -> Any:
    """``tree`` with every native array of ``backend`` replaced by ``fn(array)``."""
    t = type(tree)
    if t is tuple or t is list:
        return t([_convert(v, fn, backend) for v in tree])
    if t is dict:
        return {k: _convert(v, fn, backend) for k, v in tree.items()}
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return t(*[_convert(v, fn, backend) for v in tree])
    # isinstance first: inside torch.compile, a lookup in the type cache would add guards.
    if isinstance(tree, backend.array_classes):
        return fn(tree)
    if isinstance(tree, _SCALARS) or tree is None:
        return tree
    if backend_of_type(t) is backend:  # a class whose module was imported after the backend
        return fn(tree)
    return tree


def _wrap_all(tree: Any, backend: Any, device: Device) -> Any:
    """``tree`` with every native array of ``backend`` wrapped as an Array on ``device``."""
    if device._backend is backend:
        fast = _compiled.wrap_tree(tree, device)
        if fast is not None:
            return fast
    return _convert(tree, lambda native: wrap(native, device), backend)


def _unwrap_all(tree: Any, backend: Any) -> Any:
    """``tree`` with its Arrays (which must be of ``backend``) replaced by their natives."""
    fast = _compiled.natives(tree)
    if fast is not None and fast[1]._backend is backend:
        return fast[0]
    t = type(tree)
    if t is Array:
        if tree._device._backend is not backend:
            raise _Slow
        return tree._native
    if t is tuple or t is list:
        return t([_unwrap_all(v, backend) for v in tree])
    if t is dict:
        return {k: _unwrap_all(v, backend) for k, v in tree.items()}
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return t(*[_unwrap_all(v, backend) for v in tree])
    return tree


_ENGINES: dict[tuple[str, str, bool], _Engine] = {}  # (transform, device, bridge)
_WANTED: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}


# -- the engine of one call -------------------------------------------------------------------


class _Engine:
    """The engine for one call: the user's device, the engine's device and its adapter."""

    __slots__ = ("backend", "bridged", "device", "mod", "placement", "tname", "user")

    def __init__(self, tname: str, user: Device, *, bridge: bool = True) -> None:
        self.tname = tname
        self.user = user
        self.bridged = False
        name = user._name
        mod: Any
        if name == "jax":
            from . import _transforms_jax as mod

            mod.register_pytree()
            self.device = user
            # Off JAX's default device, its default is set around each call (see placement).
            self.placement = mod.placement(user)
        elif name == "torch" or (bridge and "bridged" in (user._backend.spec.autodiff or "")):
            try:
                from . import _transforms_torch as mod
            except ImportError:
                raise BackendUnavailableError(
                    f"arraymux.{tname}: transforms on {user} run on torch, which is not "
                    'installed. Install it with: pip install "arraymux[torch]"'
                ) from None
            self.bridged = name != "torch"
            self.placement = None
            self.device = Device(mod.engine_place(name, user._place)) if self.bridged else user
        else:
            raise TransformUnavailableError(
                f"arraymux.{tname}: the {name} backend ({user}) has no autodiff or tracing "
                f"engine. Transforms run on: {_engines()}. Move the arrays first, e.g. "
                'x = arraymux.to_device(x, "torch:cpu").'
            )
        self.mod: Any = mod
        self.backend = self.device._backend

    @staticmethod
    def device_of(
        tname: str, *groups: tuple[int | str, Any], expect: tuple[Device, str] | None = None
    ) -> Device:
        """The one device of every array in ``groups`` (pairs of position and pytree)."""
        found: list[tuple[Device, str]] = [expect] if expect else []

        def visit(leaf: Any, where: str) -> Any:
            op = operand(leaf)
            if op is None:
                return leaf
            dev = op[1]
            if not found:
                found.append((dev, where))
            elif dev is not found[0][0]:
                first, first_where = found[0]
                kind = BackendMismatchError if dev._name != first._name else DeviceMismatchError
                raise kind(
                    f"arraymux.{tname}: {where} is on {dev} but {first_where} is on {first}. "
                    f'Move one of them first, e.g. x = arraymux.to_device(x, "{first}").'
                )
            return leaf

        for pos, tree in groups:
            _map(functools.partial(_visit_at, visit, pos), tree)
        return found[0][0] if found else get_default_device()

    @classmethod
    def get(cls, tname: str, user: Device, *, bridge: bool = True) -> _Engine:
        """The (cached) engine of ``tname`` for arrays on ``user``."""
        key = (tname, user._str, bridge)  # a Device is hashed in Python: dynamo < 2.13 breaks there
        e = _ENGINES.get(key)
        if e is None:
            e = _ENGINES[key] = cls(tname, user, bridge=bridge)
        return e

    @classmethod
    def of(cls, tname: str, args: Sequence[Any], *, bridge: bool = True) -> _Engine:
        found: list[Device] = []
        try:
            _natives(args, found, False)
        except _Slow:
            found = []
        user = found[0] if found else cls.device_of(tname, *enumerate(args))
        return cls.get(tname, user, bridge=bridge)

    @classmethod
    def inputs(
        cls, tname: str, args: tuple[Any, ...], wanted: frozenset[int] = frozenset()
    ) -> tuple[_Engine, list[Any]]:
        """The engine for ``args`` and the args as engine natives; ``wanted``: the positions
        to differentiate (checked to be floating)."""
        fast = _compiled.natives(args)
        if fast is not None:
            nargs, dev = fast
            if all(_all_float(nargs[i], dev) for i in wanted):
                e = cls.get(tname, dev)
                if e.bridged:
                    return e, _convert(list(nargs), e.to_engine, dev._backend)
                return e, list(nargs)
        found: list[Device] = []
        try:
            nargs = [_natives(a, found, i in wanted) for i, a in enumerate(args)]
            if not found:
                raise _Slow
            e = cls.get(tname, found[0])
            if e.bridged:
                nargs = _convert(nargs, e.to_engine, found[0]._backend)
            return e, nargs
        except _Slow:
            pass
        e = cls.get(tname, cls.device_of(tname, *enumerate(args)))
        return e, [e.into(a, i, diff=i in wanted) for i, a in enumerate(args)]

    # -- crossing into and out of the engine ----------------------------------------------------

    def to_engine(self, native: Any) -> Any:
        return self.mod.to_engine(self.user._backend.normalize(native))

    def into(self, tree: Any, pos: int | str = 0, diff: bool = False) -> Any:
        """A pytree of the user's values with its arrays made the engine's native arrays."""
        try:
            out = _natives(tree, [self.user], diff)
            if self.bridged:
                out = _convert(out, self.to_engine, self.user._backend)
            return out
        except _Slow:
            pass

        def leaf_in(leaf: Any, path: str) -> Any:
            if type(leaf) is Array:
                native, dev = leaf._native, leaf._device
            else:
                op = operand(leaf)
                if op is None:
                    if diff:
                        return self._scalar_in(leaf, _where(pos, path))
                    return leaf
                native, dev = op
            if diff:
                dt = dev._backend.dtype_from_native(native.dtype)
                if dt.kind not in _FLOATING:
                    raise TypeError(
                        f"arraymux.{self.tname}: {_where(pos, path)} has dtype {dt.name}, but only "
                        "floating-point inputs can be differentiated. Cast it first, e.g. "
                        "x = arraymux.astype(x, arraymux.float32), or leave it out of argnums."
                    )
            if self.bridged:
                return self.mod.to_engine(dev._backend.normalize(native))
            return native

        return _map(leaf_in, tree)

    def _scalar_in(self, leaf: Any, where: str) -> Any:
        if isinstance(leaf, float | complex):
            from ._creation_functions import asarray

            return self.into(asarray(leaf, device=self.user))
        raise TypeError(
            f"arraymux.{self.tname}: {where} is {leaf!r} ({type(leaf).__name__}); only "
            "floating-point arrays and Python floats can be differentiated. Pass a float "
            "array, or leave it out of argnums."
        )

    def out(self, tree: Any) -> Any:
        """The engine's results as Arrays on the user's device."""
        if self.bridged:
            return _convert(tree, self._from_engine, self.backend)
        return _wrap_all(tree, self.backend, self.device)

    def _from_engine(self, leaf: Any) -> Array:
        return wrap(self.mod.from_engine(leaf, self.user._name), self.user)

    def native_fun(
        self, fun: Callable[..., Any], check: Callable[[Any], None] | None = None
    ) -> Callable[..., Any]:
        """``fun`` as a function of the engine's native arrays (what the engine transforms)."""
        device, backend, tname = self.device, self.backend, self.tname

        def nat(leaf: Any, path: str) -> Any:
            if type(leaf) is Array:
                if leaf._device._backend is not backend:
                    raise BackendMismatchError(
                        f"arraymux.{tname}: {_name(fun)} returned an array on {leaf._device}"
                        f"{path and ' at ' + path}, but it computes on {device}. Return arrays "
                        "of the backend of its arguments."
                    )
                return leaf._native
            return leaf

        def unwrap_out(result: Any) -> Any:
            try:
                return _unwrap_all(result, backend)
            except _Slow:
                return _map(nat, result)

        def f(*nargs: Any, **nkwargs: Any) -> Any:
            args = _wrap_all(nargs, backend, device)
            if nkwargs:
                out = unwrap_out(fun(*args, **_wrap_all(nkwargs, backend, device)))
            else:
                out = unwrap_out(fun(*args))
            if check is not None:
                check(out)
            return out

        return f

    def run(
        self, fun: Callable[..., Any], call: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Any:
        """``call(*args, **kwargs)`` with the engine's device as default; explain backend
        clashes."""
        transform = _TRANSFORM
        outer, transform.device = transform.device, self.device
        try:
            if self.placement is not None:
                return self.mod.placed(call, self.placement)(*args, **kwargs)
            return call(*args, **kwargs)
        except BackendMismatchError as e:
            err = self.explained(fun, e)
            if err is e:
                raise
            raise err from e
        finally:
            transform.device = outer

    def explained(self, fun: Callable[..., Any], e: BackendMismatchError) -> BackendMismatchError:
        """``e``, raised while ``fun`` ran in the engine, with what to do about closures."""
        if getattr(e, "_explained", False):
            return e
        via = f" (its {self.user} arguments are computed by torch there)" if self.bridged else ""
        err = BackendMismatchError(
            f"{e}\nInside arraymux.{self.tname}, {_name(fun)} computes on {self.device}{via}; "
            "arrays it reads from an enclosing scope (a closure) must be on that backend "
            "too. Pass them as arguments instead (outside argnums if they are not "
            "differentiated), or move them with arraymux.to_device."
        )
        err._explained = True  # type: ignore[attr-defined]
        return err


def _argnums(tname: str, argnums: int | Sequence[int]) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums or not all(isinstance(i, int) for i in nums):
        raise TypeError(f"arraymux.{tname}: argnums must be an int or a tuple of ints.")
    return nums


def _wanted(tname: str, nums: tuple[int, ...], n: int) -> frozenset[int]:
    """The positions ``nums`` of ``n`` arguments, checked and made non-negative."""
    key = (nums, n)
    w = _WANTED.get(key)
    if w is None:
        for i in nums:
            if not -n <= i < n:
                raise ValueError(
                    f"arraymux.{tname}: argnums has {i}, but the function got {n} argument(s)."
                )
        w = _WANTED[key] = frozenset(i % n for i in nums)
    return w


def _user_device(tname: str, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None) -> Device:
    """The one device of the arrays in ``args`` and ``kwargs``."""
    found: list[Device] = []
    try:
        _natives(args, found, False)
        if kwargs:
            _natives(kwargs, found, False)
        if found:
            return found[0]
    except _Slow:
        pass
    return _Engine.device_of(tname, *enumerate(args), *(kwargs or {}).items())


def _diff_inputs(e: _Engine, args: Sequence[Any], nums: tuple[int, ...]) -> list[Any]:
    n = len(args)
    for i in nums:
        if not -n <= i < n:
            raise ValueError(
                f"arraymux.{e.tname}: argnums has {i}, but the function got {n} argument(s)."
            )
    wanted = {i % n for i in nums}
    return [e.into(a, i, diff=i in wanted) for i, a in enumerate(args)]


def _scalar_check(e: _Engine, has_aux: bool) -> Callable[[Any], None]:
    tname = e.tname

    def check(out: Any) -> None:
        if has_aux:
            if not (isinstance(out, tuple | list) and len(out) == 2):
                raise TypeError(
                    f"arraymux.{tname}: with has_aux=True the function must return a pair "
                    f"(output, aux), not {type(out).__name__}."
                )
            out = out[0]
        if backend_of_type(type(out)) is not e.backend:
            raise TypeError(
                f"arraymux.{tname}: the function must return a 0-d floating-point array, not "
                f"{type(out).__name__}."
            )
        shape = tuple(out.shape)
        if shape != ():
            raise TypeError(
                f"arraymux.{tname}: the function must return a scalar (a 0-d array), but it "
                f"returned an array of shape {shape}. Reduce it first (arraymux.sum, ...), or "
                "use arraymux.jacobian or arraymux.vjp for non-scalar outputs."
            )
        if not _is_float(e.backend, out.dtype, real=True):
            raise TypeError(
                f"arraymux.{tname}: the function must return a real floating-point scalar, "
                f"not {e.backend.dtype_from_native(out.dtype).name}."
            )

    return check


def _check_fun(tname: str, fun: Any) -> None:
    if not callable(fun):
        raise TypeError(f"arraymux.{tname}: expected a function, got {type(fun).__name__}.")


# -- the transforms ---------------------------------------------------------------------------


def grad(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., Any]:
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

    Examples
    --------
    >>> import arraymux as xp
    >>> df = xp.grad(lambda x: xp.sum(x**2))
    >>> df(xp.asarray([1.0, 2.0]))
    Array([2., 4.], dtype=float64, device='numpy:cpu')
    >>> xp.grad(lambda w, b: xp.sum(w * b), argnums=(0, 1))(xp.asarray(3.0), xp.asarray(4.0))
    (Array(4., dtype=float64, device='numpy:cpu'), Array(3., dtype=float64, device='numpy:cpu'))
    """
    _check_fun("grad", fun)
    nums = _argnums("grad", argnums)

    made: dict[_Engine, Callable[..., Any]] = {}  # the engine's grad of fun, per engine

    @functools.wraps(fun)
    def grad_fun(*args: Any) -> Any:
        e, nargs = _Engine.inputs("grad", args, _wanted("grad", nums, len(args)))
        g = made.get(e)
        if g is None:
            f = e.native_fun(fun, _scalar_check(e, has_aux))
            g = made[e] = e.mod.grad(f, argnums, has_aux=has_aux)
        return e.out(e.run(fun, g, *nargs))

    return grad_fun


def value_and_grad(
    fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The value of a scalar function and its gradient, computed together.

    Parameters are those of :func:`grad`.

    Returns
    -------
    callable
        Returns ``(value, gradient)``, or ``((value, aux), gradient)`` with ``has_aux``.

    Raises
    ------
    TypeError, BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> value, g = xp.value_and_grad(lambda x: xp.sum(x**2))(xp.asarray([1.0, 2.0]))
    >>> value, g
    (Array(5., dtype=float64, device='numpy:cpu'), Array([2., 4.], dtype=float64, device='numpy:cpu'))
    """
    _check_fun("value_and_grad", fun)
    nums = _argnums("value_and_grad", argnums)

    made: dict[_Engine, Callable[..., Any]] = {}

    @functools.wraps(fun)
    def value_and_grad_fun(*args: Any) -> Any:
        wanted = _wanted("value_and_grad", nums, len(args))
        e, nargs = _Engine.inputs("value_and_grad", args, wanted)
        vg = made.get(e)
        if vg is None:
            f = e.native_fun(fun, _scalar_check(e, has_aux))
            vg = made[e] = e.mod.value_and_grad(f, argnums, has_aux=has_aux)
        return e.out(e.run(fun, vg, *nargs))

    return value_and_grad_fun


def vjp(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
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
    _check_fun("vjp", fun)
    e = _Engine.of("vjp", primals)
    nargs = _diff_inputs(e, primals, tuple(range(len(primals))))
    f = e.native_fun(fun, _aux_check(e) if has_aux else None)
    res = e.run(fun, e.mod.vjp, f, *nargs, has_aux=has_aux)
    pull = res[1]

    def vjp_fn(cotangent: Any) -> tuple[Any, ...]:
        e.device_of("vjp", ("the cotangent", cotangent), expect=(e.user, "the primals"))
        nct = e.into(cotangent, "the cotangent")
        return tuple(e.out(e.run(fun, pull, nct)))

    if has_aux:
        return e.out(res[0]), vjp_fn, e.out(res[2])
    return e.out(res[0]), vjp_fn


def _aux_check(e: _Engine) -> Callable[[Any], None]:
    def check(out: Any) -> None:
        if not (isinstance(out, tuple | list) and len(out) == 2):
            raise TypeError(
                f"arraymux.{e.tname}: with has_aux=True the function must return a pair "
                f"(output, aux), not {type(out).__name__}."
            )

    return check


def jvp(
    fun: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any]
) -> tuple[Any, Any]:
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
    _check_fun("jvp", fun)
    if not isinstance(primals, tuple | list) or not isinstance(tangents, tuple | list):
        raise TypeError("arraymux.jvp: primals and tangents must be tuples or lists.")
    if len(primals) != len(tangents):
        raise ValueError(
            f"arraymux.jvp: got {len(primals)} primal(s) but {len(tangents)} tangent(s)."
        )
    user = _Engine.device_of("jvp", ("primals", primals), ("tangents", tangents))
    e = _Engine.get("jvp", user)
    nprimals = tuple(_diff_inputs(e, primals, tuple(range(len(primals)))))
    ntangents = tuple(e.into(t, f"tangents[{i}]") for i, t in enumerate(tangents))
    f = e.native_fun(fun)
    out, tangent_out = e.out(tuple(e.run(fun, e.mod.jvp, f, nprimals, ntangents)))
    return out, tangent_out


def jacobian(fun: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
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
    return _derivative(
        "jacobian", fun, argnums, lambda e: e.mod.jacobian(e.native_fun(fun), argnums=argnums)
    )


def hessian(fun: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
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
    return _derivative(
        "hessian",
        fun,
        argnums,
        lambda e: e.mod.hessian(e.native_fun(fun, _scalar_check(e, False)), argnums=argnums),
    )


def _derivative(
    name: str,
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    build: Callable[[_Engine], Callable[..., Any]],
) -> Callable[..., Any]:
    """A transform whose result is the engine's transformed function applied as it is
    (jacobian, hessian): ``build(engine)`` makes it once per engine."""
    _check_fun(name, fun)
    nums = _argnums(name, argnums)
    made: dict[_Engine, Callable[..., Any]] = {}

    @functools.wraps(fun)
    def derivative_fun(*args: Any) -> Any:
        e, nargs = _Engine.inputs(name, args, _wanted(name, nums, len(args)))
        t = made.get(e)
        if t is None:
            t = made[e] = build(e)
        return e.out(e.run(fun, t, *nargs))

    return derivative_fun


def vmap(fun: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
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
    _check_fun("vmap", fun)
    if type(in_axes) is list:
        in_axes = tuple(in_axes)

    made: dict[_Engine, Callable[..., Any]] = {}

    @functools.wraps(fun)
    def vmap_fun(*args: Any) -> Any:
        e, nargs = _Engine.inputs("vmap", args)
        mapped = made.get(e)
        if mapped is None:
            mapped = made[e] = e.mod.vmap(e.native_fun(fun), in_axes, out_axes)
        return e.out(e.run(fun, mapped, *nargs))

    return vmap_fun


def _traced(e: _Engine, fun: Callable[..., Any]) -> Callable[..., Any]:
    """``fun`` as a function of natives for a tracing compiler (jax.jit): it runs only while
    the compiler traces, and sets the device for creation functions then."""
    inner = e.native_fun(fun)

    def traced(*nargs: Any, **nkwargs: Any) -> Any:
        return e.run(fun, inner, *nargs, **nkwargs)

    return traced


def jit(fun: Callable[..., Any]) -> Callable[..., Any]:
    """Compile ``fun`` for the backend of the arrays it is called with.

    JAX arrays use ``jax.jit`` and torch tensors ``torch.compile``; one compiled function is
    kept per device. NumPy and CuPy have no compiler: the function runs as it is. The first
    call on each device traces and compiles; Python scalars and the arrays' shapes are part of
    what a recompile depends on, as with the engines themselves. On torch, ``torch.compile``
    traces ``fun`` through its Array arguments and rebuilds the Arrays it returns, so a call
    costs what a call of the compiled native function costs plus a check of the arguments'
    device. Each jitted function has a compilation cache of its own (dynamo's limit of 8
    compilations applies per function), and the checks dynamo runs before each call cover the
    function, what it reads (globals, closures) and the tensors, not arraymux's own internal
    state (modules, an Array's device and cached dtype, which its tensor already fixes).
    With torch older than 2.14, dynamo does not trace the ``@`` and ``~`` operators of a Python
    class and breaks the graph there (the code still runs); ``xp.matmul(a, b)`` and
    ``xp.bitwise_invert(a)`` compile on every version. A transform of a transform
    (``xp.jit(xp.grad(f))``) compiles whole from torch 2.13; torch 2.11 breaks its graph
    where arraymux looks up its caches, with the same results.

    Parameters
    ----------
    fun
        A function of arrays (positional and keyword arguments).

    Returns
    -------
    callable
        The compiled function.

    Raises
    ------
    BackendMismatchError, TransformUnavailableError
        As :func:`grad`.

    Examples
    --------
    >>> import arraymux as xp
    >>> f = xp.jit(lambda x: xp.sin(x) ** 2 + xp.cos(x) ** 2)
    >>> f(xp.asarray([0.5, 1.0]))  # NumPy: runs as it is
    Array([1., 1.], dtype=float64, device='numpy:cpu')
    """
    _check_fun("jit", fun)
    # Per device of the arguments: its engine, the compiled function and whether that takes
    # Arrays (torch.compile traces through them) or natives (jax.jit); None: run as is.
    compiled: dict[Device, tuple[_Engine, Callable[..., Any], bool] | None] = {}
    # The last call's device, compiled function, engine and whether that function takes
    # Arrays: the next call with Arrays on the same device goes straight to it.
    hot: list[tuple[Device | None, Callable[..., Any], _Engine | None, bool]] = [
        (None, fun, None, False)
    ]
    transform = _TRANSFORM

    def compile_for(user: Device) -> tuple[_Engine, Callable[..., Any], bool] | None:
        entry: tuple[_Engine, Callable[..., Any], bool] | None = None
        if user._name not in ("numpy", "cupy"):
            e = _Engine.get("jit", user)
            if e.mod.JIT_TAKES_ARRAYS:
                entry = (e, e.mod.jit(fun), True)
            else:
                c = e.mod.jit(_traced(e, fun))
                if e.placement is not None:
                    c = e.mod.placed(c, e.placement)
                entry = (e, c, False)
        compiled[user] = entry
        return entry

    @functools.wraps(fun)
    def jit_fun(*args: Any, **kwargs: Any) -> Any:
        # The steady state: a walk in C that checks the arguments' device, then the compiled
        # call. torch's compiled function takes and returns Arrays (the device for creation
        # functions is set around it, for what runs outside its graphs); JAX's takes natives,
        # unwrapped and wrapped by walks in C, and sets the device itself, as it runs Python
        # only while it traces. What _Engine.run does is written out here: each Python call on
        # this path costs about 1 us next to a compiled call (a 1k-parameter MLP on the CPU).
        last, c, e, takes_arrays = hot[0]
        if e is not None:
            if not takes_arrays:
                fast = _compiled.natives((args, kwargs))
                if fast is not None and fast[1] is last:
                    nargs, nkwargs = fast[0]
                    out = c(*nargs, **nkwargs)
                    wrapped = _compiled.wrap_tree(out, last)
                    return wrapped if wrapped is not None else e.out(out)
            elif _compiled.device_of((args, kwargs)) is last:
                outer = transform.device
                transform.device = e.device
                try:
                    return c(*args, **kwargs)
                except BackendMismatchError as err:
                    explained = e.explained(fun, err)
                    if explained is err:
                        raise
                    raise explained from err
                finally:
                    transform.device = outer
        return call(args, kwargs)

    def call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # The first call on a device, and arguments with native arrays.
        fast = _compiled.natives((args, kwargs))
        if fast is not None:
            (nargs, nkwargs), user = fast
        else:
            found: list[Device] = []
            try:
                nargs = _natives(args, found, False)
                nkwargs = _natives(kwargs, found, False) if kwargs else kwargs
                if not found:
                    raise _Slow
                user = found[0]
            except _Slow:
                user = _Engine.device_of("jit", *enumerate(args), *kwargs.items())
                nargs = None
        try:
            entry = compiled[user]
        except KeyError:
            entry = compile_for(user)
        if entry is None:
            return fun(*args, **kwargs)
        e, c, takes_arrays = entry
        if nargs is None:  # native arrays among the arguments
            nargs = [e.into(a, i) for i, a in enumerate(args)]
            nkwargs = {k: e.into(v, k) for k, v in kwargs.items()}
            if takes_arrays:
                args, kwargs = e.out(nargs), e.out(nkwargs)
        elif fast is not None:  # Arrays of one device: the next call can take the hot path
            hot[0] = (user, c, e, takes_arrays)
        if takes_arrays:
            return e.run(fun, c, *args, **kwargs)
        return e.out(c(*nargs, **nkwargs))

    return jit_fun


def checkpoint(fun: Callable[..., Any], policy: str | Callable[..., Any] | None = None) -> Any:
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
    _check_fun("checkpoint", fun)
    if policy is not None and not isinstance(policy, str) and not callable(policy):
        raise TypeError(
            "arraymux.checkpoint: policy must be None, a policy name, or a callable, not "
            f"{type(policy).__name__}."
        )
    made: dict[_Engine, Callable[..., Any]] = {}

    @functools.wraps(fun)
    def checkpoint_fun(*args: Any) -> Any:
        user = _user_device("checkpoint", args)
        if user._name in ("numpy", "cupy"):
            return fun(*args)
        e = _Engine.get("checkpoint", user)
        c = made.get(e)
        if c is None:
            c = made[e] = e.mod.checkpoint(e.native_fun(fun), policy)
        nargs = [e.into(a, i) for i, a in enumerate(args)]
        return e.out(e.run(fun, c, *nargs))

    return checkpoint_fun
