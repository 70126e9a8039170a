"""Where each backend's special functions come from: its own module, arraymux's composites,
or ``scipy.special`` on the host.

For an array of a backend, the implementation of a special function is, in this order:

1. the backend's own function (the record names it: ``torch.special.bessel_j0``,
   ``jax.scipy.special.digamma``, ``cupyx.scipy.special.erf``; NumPy's are ``scipy.special``'s,
   Dask computes them block by block, array-api-strict on its NumPy data, on its device);
2. a composite of the backend's elementary functions (:mod:`._composites`), where the record
   has one;
3. ``scipy.special`` on the host, for the arrays that SciPy itself reads on the host when it
   has no native function: torch tensors on the CPU and JAX arrays, not while they are
   differentiated or traced; the result goes back to the array's device. The GPU arrays of
   torch and CuPy are never copied to the host behind the user's back;
4. otherwise an error naming the function, the backend and what to do.

The implementation is found on the first call for a backend (importing ``scipy.special``,
``jax.scipy.special`` ... only then) and kept in the backend's function table under
``"special.<name>"`` (see :func:`register`), which the dispatcher, and for the functions of
one operand the compiled hot path, read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, cast

from .._backends import OperandKindError
from .._backends._adapter import Wrapping
from .._records.special import BY_NAME, SAME, Special
from .._typing import NativeArray
from ._composites import COMPOSITES, Context, Native
from ._composites import Impl as Composite

if TYPE_CHECKING:
    import jax
    import numpy as np
    import torch

    from .._backends import Backend


#: The module of each backend's own special functions.
MODULES: dict[str, str] = {
    "numpy": "scipy.special",
    "torch": "torch.special",
    "jax": "jax.scipy.special",
    "cupy": "cupyx.scipy.special",
}
#: The function table key of a special function (``"special.erf"``).
KEY = "special.{}"
#: A special function on native arrays of a backend.
Impl = Callable[..., NativeArray]


def implementation(backend: Backend, name: str) -> Impl:
    """The implementation of the special function ``name`` on native arrays of ``backend``:
    found on the first call, then kept in the backend's tables (see :func:`register`)."""
    entry = backend.fns.get(KEY.format(name))
    # The table's entry is the one register made.
    guarded = register(backend, name) if entry is None else cast("Wrapping", entry)
    return cast("Impl", guarded.__wrapped__)  # the implementation that register found


def register(backend: Backend, name: str) -> Wrapping:
    """Find the implementation of ``name`` for ``backend`` and enter it in the backend's
    tables as the compiled hot path of the standard's functions reads them, for those
    defined for floating operands: ``fns["special.<name>"]``, the implementation refusing
    operands of any dtype but float32 and float64 with ``OperandKindError`` (the Python
    function casts bool and integer operands first, and explains what a backend refuses),
    and for functions of one operand ``fns["special.<name>(x)"]``, the implementation itself,
    ``fns["special.<name>(x) not for"]``, the dtypes it is not called for, and
    ``result_dtypes["special.<name>"]``: float32 gives float32, float64 float64."""
    key = KEY.format(name)
    rec = BY_NAME[name]
    impl = _find(backend, rec)
    placed = getattr(backend.adapter, "placed", None)
    if placed is not None:  # computed on the operands' device (CuPy)
        impl = placed(impl)
    floats = {
        dt: native for dt, native in backend.array_dtypes.items() if dt.kind == "real floating"
    }
    taken = frozenset(floats.values())
    guarded = _floats_only(impl, taken, rec.name)
    if len(rec.parameters) == 1:
        others = frozenset(n for n in backend.array_dtypes.values() if n not in taken)
        backend.fns[f"{key}(x) not for"] = others
        backend.fns[f"{key}(x)"] = impl
        backend.result_dtypes[key] = {native: native for native in taken}
    backend.fns[key] = guarded  # last: its presence tells that the others are there
    return guarded


def _floats_only(impl: Impl, floats: frozenset[object], name: str) -> Wrapping:
    def floats_only(*args: object) -> NativeArray:
        for a in args:
            dtype = getattr(a, "dtype", None)
            if dtype is not None and dtype not in floats:
                raise OperandKindError(f"special.{name}: operands of dtype {dtype}")
        return impl(*args)

    floats_only.__name__ = floats_only.__qualname__ = name
    marked = cast("Wrapping", floats_only)  # a function object takes the attribute it names
    marked.__wrapped__ = impl
    return marked


def _find(backend: Backend, rec: Special) -> Impl:
    name = backend.name
    if name == "numpy":
        return _scipy(rec)
    if name == "dask":
        return _by_blocks(_scipy(rec))
    if name == "array_api_strict":
        return _through_numpy(_scipy(rec))
    own = _own(name, rec)
    if own is not None:
        return own
    if rec.composite:
        made = COMPOSITES[rec.name](_context(backend))
        if made is not None:
            return made
    host = _host(backend, rec)
    if host is not None:
        return host
    return _missing(backend, rec)


def _resolve_path(path: str) -> Composite | None:
    module, _, attr = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr, None)
    except ImportError:
        return None


def _own(backend: str, rec: Special) -> Composite | None:
    """The backend's own function for ``rec``, or None."""
    module = MODULES.get(backend)
    native = rec.native(backend)
    if module is None or native is None:
        return None
    if native == SAME:
        native = rec.name
    return _resolve_path(native if "." in native else f"{module}.{native}")


def _context(backend: Backend) -> Context:
    name = backend.name
    module = MODULES.get(name)

    def special(other: str) -> Composite | None:
        return _own(name, BY_NAME[other])

    def host(other: str) -> Composite | None:
        return _host(backend, BY_NAME[other])

    hurwitz = None if module is None else _resolve_path(f"{module}.zeta")
    return Context(name, backend.ns, special, hurwitz, host)


# -- NumPy, Dask, array-api-strict: scipy.special --------------------------------------------


def _scipy(rec: Special) -> Callable[..., np.ndarray]:
    """``scipy.special``'s function, on NumPy arrays, giving NumPy arrays (not scalars)."""
    import numpy as np

    f = _resolve_path(f"scipy.special.{rec.name}")
    if f is None:
        raise NotImplementedError(
            f"arraymux.special.{rec.name}: this SciPy has no scipy.special.{rec.name}; "
            "upgrade SciPy (pip install -U scipy)."
        )
    # With SCIPY_ARRAY_API=1, scipy.special's functions are wrappers that look up the
    # namespace of their arguments; the function they wrap takes NumPy arrays directly.
    f = getattr(f, "__wrapped__", f)
    ndarray = np.ndarray

    def on_numpy(*args: object) -> np.ndarray:
        out = f(*args)
        return out if type(out) is ndarray else np.asarray(out)

    on_numpy.__name__ = rec.name
    return on_numpy


def _by_blocks(f: Callable[..., np.ndarray]) -> Impl:
    """``f`` applied to each block of Dask arrays (the functions are elementwise)."""
    import dask.array as da
    from dask.array.core import elemwise  # broadcasts the blocks, as ufuncs do
    from dask.base import tokenize

    # The graph's name from the function's name, not from ``f``: Dask would tokenize a
    # closure by pickling it (about 1 ms a call, four times the rest of the call).
    label = f"arraymux.special.{f.__name__}"

    def by_blocks(*args: object) -> NativeArray:
        # the dtype of the floating operands (integer ones of integer parameters stay so)
        dtype = next(a.dtype for a in args if isinstance(a, da.Array) and a.dtype.kind in "fc")
        name = f"{f.__name__}-{tokenize(label, dtype, *args)}"
        return elemwise(f, *args, dtype=dtype, name=name)

    return by_blocks


def _through_numpy(f: Callable[..., np.ndarray]) -> Impl:
    """``f`` on the NumPy data of array-api-strict arrays, the result on their device."""
    from array_api_strict._array_object import Array

    def through_numpy(*args: object) -> NativeArray:
        device = next(a.device for a in args if isinstance(a, Array))
        out = f(*(a._array if isinstance(a, Array) else a for a in args))
        return Array._new(out, device=device)

    return through_numpy


# -- torch and JAX without a function of their own: scipy.special on the host ----------------


def _torch_refusal(x: torch.Tensor) -> str | None:
    import torch

    if torch._C._functorch.is_functorch_wrapped_tensor(x) or x.requires_grad:
        return "cannot be differentiated or traced"
    if x.device.type != "cpu":
        return f"computes only for tensors on the CPU (this one is on {x.device})"
    return None


def _jax_refusal(x: jax.Array) -> str | None:
    import jax

    if isinstance(x, jax.core.Tracer):
        return "cannot be differentiated or traced (jax.jit, jax.grad, ...)"
    return None


#: Backends whose arrays SciPy reads on the host where it has no native function: why a given
#: array cannot be (None: it can).
_HOST: dict[str, Callable[[Any], str | None]] = {"torch": _torch_refusal, "jax": _jax_refusal}


def _host(backend: Backend, rec: Special) -> Composite | None:
    refusal = _HOST.get(backend.name)
    if refusal is None:
        return None
    f = _scipy(rec)
    adapter = backend.adapter
    array_types = tuple(backend.array_classes)
    name = backend.name

    def on_host(*args: object) -> Native:
        first = None
        for a in args:
            if isinstance(a, array_types):
                why = refusal(a)
                if why is not None:
                    raise NotImplementedError(
                        f"arraymux.special.{rec.name}: {name} has no {rec.name} of its own; "
                        f"arraymux computes it with scipy.special on the host, which {why}. "
                        f"{_ELSEWHERE}"
                    )
                if first is None:
                    first = a
        out = f(*(adapter.to_numpy(a) if isinstance(a, array_types) else a for a in args))
        return adapter.from_host(out, adapter.place_of(first))

    return on_host


_ELSEWHERE = (
    'Compute it on NumPy first (x = arraymux.to_device(x, "numpy")), where scipy.special '
    "computes it, and move the result back."
)


def _missing(backend: Backend, rec: Special) -> Impl:
    module = MODULES.get(backend.name)
    where = f" ({module} lacks it)" if module else ""

    def missing(*args: object) -> NoReturn:
        raise NotImplementedError(
            f"arraymux.special.{rec.name}: the {backend.name} backend has no {rec.name}{where}. "
            f"{_ELSEWHERE}"
        )

    return missing
