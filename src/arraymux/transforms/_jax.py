"""The JAX engine behind :mod:`arraymux.transforms` (Arrays are JAX pytrees: see the adapter).

Every function here takes and returns functions of native JAX arrays (pytrees of them); the
wrapping into :class:`arraymux.Array` happens in ``transforms``.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ParamSpec, TypeVar, cast

import jax

from .._typing import NativeArray
from ._tree import CALL, ENGINE_API, JVP, VJP, Foreign, function_name

if TYPE_CHECKING:
    import numpy as np
    from jax.core import ShapedArray
    from jax.extend.core import Primitive
    from jax.interpreters.ad import Zero

    from .._devices import Device

_P = ParamSpec("_P")
_R = TypeVar("_R")
#: The shapes and dtypes of a crossing's results.
_Avals = tuple["ShapedArray", ...]

__all__ = [
    *ENGINE_API,
    "define_primitive",
    "placed",
    "placement",
    "raised_in_callback",
]

grad = jax.grad
value_and_grad = jax.value_and_grad
jacobian = jax.jacrev
hessian = jax.hessian
vjp = jax.vjp
jvp = jax.jvp
vmap = jax.vmap
jit = jax.jit
# jax.jit is given the function of natives (transforms.jit unwraps and wraps around it).
JIT_TAKES_ARRAYS = False


def placement(device: Device) -> jax.Device | None:
    """The JAX device to make the default while computing for ``device``, or None where it
    already is the default.

    Arrays a traced function creates from constants (``zeros``, the gradient of ``sum``...)
    land on JAX's default device, whatever device its inputs are on.
    """
    native = device.native
    return None if native == jax.devices()[0] else native


def placed(fun: Callable[_P, _R], native: jax.Device) -> Callable[_P, _R]:
    """``fun`` called with ``native`` as JAX's default device (the compiled function of
    ``jax.jit`` caches one executable per default device)."""

    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with jax.default_device(native):
            return fun(*args, **kwargs)

    return call


# The policies of jax.checkpoint_policies that need no arguments.
CHECKPOINT_POLICIES = (
    "checkpoint_dots",
    "checkpoint_dots_with_no_batch_dims",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
)


def checkpoint(f: Callable[_P, _R], policy: str | Callable[..., bool] | None) -> Callable[_P, _R]:
    """``jax.checkpoint`` with a policy given by name or as a callable."""
    if isinstance(policy, str):
        if policy not in CHECKPOINT_POLICIES:
            raise ValueError(
                f"arraymux.checkpoint: {policy!r} is not a named policy; the names are "
                f"{', '.join(CHECKPOINT_POLICIES)}. Policies that take arguments "
                "(jax.checkpoint_policies.save_only_these_names(...), ...) can be passed "
                "as callables."
            )
        rule: Callable[..., bool] | None = getattr(jax.checkpoint_policies, policy)
    else:
        rule = policy
    return jax.checkpoint(f, policy=rule)


# -- calls across engines (on_device) ---------------------------------------------------------
#
# A crossing is one JAX primitive with three kinds (the call, its jvp and its vjp, each
# computed by the target's engine). The JVP rule of the call emits the jvp kind, which is
# linear in its tangents and transposes to the vjp kind; batching adds a leading axis that the
# target maps over. Eagerly the primitive calls the target directly (arrays cross through
# DLPack); under jax.jit it lowers to a host callback.


def crossing(foreign: Foreign, natives: list[NativeArray]) -> list[jax.Array]:
    """The outputs of ``foreign`` (a crossing of :func:`arraymux.on_device`) on ``natives``, as
    one primitive that JAX can differentiate, batch and compile."""
    return _crossing_p().bind(*natives, foreign=foreign, kind=CALL, nb=0, out_avals=None)


@functools.cache
def _crossing_p() -> Primitive:
    import numpy as np
    from jax.extend.core import Primitive
    from jax.interpreters import ad, batching

    p = Primitive("arraymux_on_device")
    p.multiple_results = True

    def second_order(foreign: Foreign) -> Exception:
        from .._errors import TransformUnavailableError

        return TransformUnavailableError(
            f"arraymux: second derivatives through the crossing {foreign!r} (jax -> "
            f"{foreign.target.backend}) are not available; differentiate once through it, or "
            "move the whole computation to one engine."
        )

    def impl(
        *args: NativeArray, foreign: Foreign, kind: int, nb: int, out_avals: _Avals | None
    ) -> list[NativeArray]:
        return foreign.run(kind, nb, args)

    def avals_of(
        args: Sequence[ShapedArray],
        foreign: Foreign,
        kind: int,
        nb: int,
        out_avals: _Avals | None,
    ) -> _Avals:
        if out_avals is not None:
            return out_avals
        key = (kind, nb, tuple((a.shape, a.dtype) for a in args))
        known = foreign.avals.get(key)
        if known is None:
            # The result's shapes: one run of the target on arrays of ones, and one on other
            # values (0, 1, 2, 0, ...), which tells most shapes that depend on the values
            # (x[x > t], unique_values, nonzero) before anything runs. The compiled call
            # checks the shapes it gets against these (see `lowered`).
            host = [np.ones(a.shape, a.dtype) for a in args]
            outs = foreign.run(kind, nb, host, back=_numpy_device())
            known = tuple(jax.core.ShapedArray(o.shape, o.dtype) for o in outs)
            try:
                ramp = [_ramp(a.shape, a.dtype) for a in args]
                with warnings.catch_warnings():  # 1 / 0 is no concern of the user's here
                    warnings.simplefilter("ignore")
                    again = foreign.run(kind, nb, ramp, back=_numpy_device())
                other = [o.shape for o in again]
            except Exception:  # other values fun cannot take (indices out of range...)
                other = None
            if other is not None and other != [a.shape for a in known]:
                raise _data_dependent(
                    foreign, [a.shape for a in known], "on arrays of ones", other, "on other values"
                )
            foreign.avals[key] = known
        return known

    def abstract(
        *avals: ShapedArray, foreign: Foreign, kind: int, nb: int, out_avals: _Avals | None
    ) -> _Avals:
        return avals_of(avals, foreign, kind, nb, out_avals)

    def lowered(
        *args: jax.Array, foreign: Foreign, kind: int, nb: int, out_avals: _Avals | None
    ) -> list[jax.Array]:
        shapes = [
            jax.ShapeDtypeStruct(a.shape, a.dtype)
            for a in avals_of([a.aval for a in args], foreign, kind, nb, out_avals)
        ]

        def host(*arrays: np.ndarray) -> list[np.ndarray]:
            try:
                outs = [np.asarray(o) for o in foreign.run(kind, nb, arrays, back=_numpy_device())]
                got = [o.shape for o in outs]
                if got != [s.shape for s in shapes]:
                    # JAX would take some wrong shapes as they are (an empty one for any).
                    raise _data_dependent(
                        foreign, [s.shape for s in shapes], "when traced", got, "on this call"
                    )
            except Exception as e:
                _RAISED[:] = [e]
                raise
            return outs

        if any(0 in s.shape for s in shapes):
            # XLA drops a pure callback whose results are all empty, and with it the check
            # above: an empty result found on placeholder values could be any size.
            from jax.experimental import io_callback

            return io_callback(host, shapes, *args, ordered=False)
        return jax.pure_callback(host, shapes, *args)

    def jvp(
        primals: Sequence[jax.Array],
        tangents: Sequence[jax.Array | Zero],
        *,
        foreign: Foreign,
        kind: int,
        nb: int,
        out_avals: _Avals | None,
    ) -> tuple[list[jax.Array], list[jax.Array | Zero]]:
        if kind != CALL:
            raise second_order(foreign)
        outs = p.bind(*primals, foreign=foreign, kind=CALL, nb=nb, out_avals=out_avals)
        tans = [ad.instantiate_zeros(t) for t, fl in zip(tangents, foreign.floats) if fl]
        fouts = tuple(
            jax.core.ShapedArray(o.shape, o.dtype) for o, fl in zip(outs, foreign.out_floats) if fl
        )
        res = iter(p.bind(*primals, *tans, foreign=foreign, kind=JVP, nb=nb, out_avals=fouts))
        return outs, [
            next(res) if fl else ad.Zero(jax.typeof(o).to_tangent_aval())
            for o, fl in zip(outs, foreign.out_floats)
        ]

    def transpose(
        cts: Sequence[jax.Array | Zero],
        *args: jax.Array,
        foreign: Foreign,
        kind: int,
        nb: int,
        out_avals: _Avals | None,
    ) -> list[jax.Array | None]:
        n = len(foreign.floats)
        prim = args[:n]
        if kind != JVP or any(ad.is_undefined_primal(x) for x in prim):
            raise second_order(foreign)
        cts = [ad.instantiate_zeros(c) for c in cts]
        avals = tuple(
            jax.core.ShapedArray(x.shape, x.dtype) for x, fl in zip(prim, foreign.floats) if fl
        )
        res = p.bind(*prim, *cts, foreign=foreign, kind=VJP, nb=nb, out_avals=avals)
        return [None] * n + list(res)

    def batch(
        args: Sequence[jax.Array],
        dims: Sequence[int | None],
        *,
        foreign: Foreign,
        kind: int,
        nb: int,
        out_avals: _Avals | None,
    ) -> tuple[list[jax.Array], list[int]]:
        import jax.numpy as jnp

        unmapped = getattr(batching, "not_mapped", None)
        # a mapped axis is an int (JAX's not_mapped is None)
        size = next(x.shape[cast(int, d)] for x, d in zip(args, dims) if d is not unmapped)
        moved = [
            jnp.broadcast_to(x, (size, *x.shape))
            if d is unmapped
            else jnp.moveaxis(x, cast(int, d), 0)
            for x, d in zip(args, dims)
        ]
        avals = (
            None
            if out_avals is None
            else tuple(a.update(shape=(size, *a.shape)) for a in out_avals)
        )
        outs = p.bind(*moved, foreign=foreign, kind=kind, nb=nb + 1, out_avals=avals)
        return outs, [0] * len(outs)

    return define_primitive(p, impl, abstract, lowered, jvp, transpose, batch)


def define_primitive(
    p: Primitive,
    impl: Callable[..., object],
    abstract: Callable[..., object],
    lowered: Callable[..., object],
    jvp: Callable[..., object],
    transpose: Callable[..., object],
    batch: Callable[..., object],
) -> Primitive:
    """The JAX primitive ``p`` with its rules: its evaluation (``impl``), its shapes and dtypes
    (``abstract``), its lowering (``lowered``, in ``jax.numpy``), its forward and reverse
    derivatives (``jvp``, ``transpose``) and its batching (``batch``)."""
    from jax.interpreters import ad, batching, mlir

    p.def_impl(impl)
    p.def_abstract_eval(abstract)
    mlir.register_lowering(p, mlir.lower_fun(lowered, multiple_results=p.multiple_results))
    ad.primitive_jvps[p] = jvp
    ad.primitive_transposes[p] = transpose
    batching.primitive_batchers[p] = batch
    return p


# The last exception raised in a crossing's host callback: JAX reports it as a JaxRuntimeError
# holding its text, and arraymux.jit raises it as it was (see `raised_in_callback`).
_RAISED: list[Exception] = []


def raised_in_callback(err: BaseException) -> Exception | None:
    """The exception raised in a crossing's host callback that JAX reported as ``err``, or
    None where ``err`` is not such a report."""
    if not _RAISED or str(_RAISED[0]) not in str(err):
        return None
    return _RAISED.pop()


def _ramp(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` holding 0, 1, 2, 0, 1, 2, ... (False, True, True,
    ... for booleans)."""
    import numpy as np

    return (np.arange(math.prod(shape)) % 3).astype(dtype).reshape(shape)


def _data_dependent(
    foreign: Foreign,
    shapes: Sequence[tuple[object, ...]],
    when: str,
    others: Sequence[tuple[object, ...]],
    other_when: str,
) -> Exception:
    """The error for a crossed function whose result's shapes depend on its arguments'
    values (``shapes`` ``when``, ``others`` ``other_when``), which jax.jit cannot trace."""
    from .._errors import TransformUnavailableError

    def listed(shapes: Sequence[tuple[object, ...]]) -> str:
        return ", ".join(str(tuple(s)) for s in shapes) or "no arrays"

    return TransformUnavailableError(
        f"arraymux.on_device: the shape of what {function_name(foreign.fun)} returns depends on the "
        f"values of its arguments ({listed(shapes)} {when}, {listed(others)} {other_when}), "
        f"so it cannot be traced under jit (jax.jit needs the shapes before it runs "
        f"{foreign.target}). Call the crossed function outside jit (jit the parts before and "
        "after it), or give its result a fixed shape (xp.where(mask, x, 0) instead of "
        "x[mask])."
    )


def _numpy_device() -> Device:
    from .._devices import Device

    return Device("numpy:cpu")
