"""What a backend adapter provides: the contract, and one set of defaults for what is optional.

An adapter is a module (named by :class:`BackendSpec.adapter <arraymux._backends.BackendSpec>`)
that tells arraymux how to use one array library. The registry checks it against
:class:`Adapter` when the backend loads, and fills in each optional hook the module leaves out
with the default of :data:`DEFAULTS`. A backend that another package registers through the
``arraymux.backends`` entry point is held to the same contract.

Hooks that arraymux calls only where an adapter defines them (and does something generic
otherwise) are listed in :data:`TRANSFER_HOOKS` and :data:`OTHER_HOOKS`; see ``_transfer.py``
for what each transfer hook does.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from .. import _dtypes

__all__ = ["DEFAULTS", "OTHER_HOOKS", "TRANSFER_HOOKS", "Adapter", "complete"]


@runtime_checkable
class Adapter(Protocol):
    """The hooks every adapter module defines (the registry supplies the optional ones)."""

    def namespace(self) -> Any:
        """The backend's Array API namespace (from array-api-compat, or the library's own)."""

    def places(self) -> list[str]:
        """The device places this machine has (``["cpu"]``, ``["cpu", "cuda:0"]``, ...)."""

    def parse_place(self, place: str | None) -> str:
        """The canonical place for a user's string (``None``: the backend's default)."""

    def native_device(self, place: str) -> Any:
        """The backend's own device object for ``place``."""

    def place_of_device(self, native: Any) -> str:
        """The place of one of the backend's own device objects."""

    def place_of(self, x: Any) -> str:
        """The place of a native array."""

    def supports_dtype(self, dtype: _dtypes.DType, place: str) -> bool:
        """Whether arrays of ``dtype`` can live on ``place``."""

    def to_numpy(self, x: Any) -> Any:
        """The native array as a NumPy array on the host."""

    # Optional: the registry fills these in from DEFAULTS where the module leaves them out.

    def overrides(self, ns: Any) -> dict[str, Callable[..., Any]]:
        """Standard names mapped to callables that replace the namespace's own (fixes of the
        backend's departures from the standard, or faster paths with the same semantics)."""

    def dtype_from_native(self, obj: Any) -> _dtypes.DType | None:
        """An arraymux dtype for a dtype-like object the plain mapping does not know."""

    def default_dtypes(self, place: str) -> dict[str, _dtypes.DType]:
        """The default dtypes of ``place``, keyed as ``Info.default_dtypes`` keys them."""

    def scalar_operand(self, name: str, value: Any, other: Any, position: int) -> Any:
        """A Python scalar as the backend's function ``name`` takes it beside array
        ``other`` (most take the scalar itself)."""

    def normalize(self, x: Any) -> Any:
        """The native result as an array (NumPy returns scalars for 0-d results)."""

    def array_dtype(self, native: Any) -> Any:
        """The dtype object arrays report for a dtype of the namespace, where they differ
        (NumPy, JAX, CuPy, Dask report ``np.dtype`` objects)."""

    def single_operand(self) -> dict[str, Any]:
        """Standard names mapped to faster callables for a call with the array alone, or to a
        ``(callable, dtypes)`` pair: not for operands of those native dtypes."""

    def unsupported_hint(self, dtype: _dtypes.DType) -> str:
        """A sentence telling how to make ``dtype`` available, or where to hold it instead
        ("": arraymux says to use a dtype the device holds)."""


def _no_overrides(ns: Any) -> dict[str, Callable[..., Any]]:
    return {}


def _no_dtype(obj: Any) -> _dtypes.DType | None:
    return None


def _dtypes_64(place: str) -> dict[str, _dtypes.DType]:
    return {
        "real floating": _dtypes.float64,
        "complex floating": _dtypes.complex128,
        "integral": _dtypes.int64,
        "indexing": _dtypes.int64,
    }


def _the_scalar(name: str, value: Any, other: Any, position: int) -> Any:
    return value


def _identity(x: Any) -> Any:
    return x


def _none_faster() -> dict[str, Callable[..., Any]]:
    return {}


def _no_hint(dtype: _dtypes.DType) -> str:
    return ""


#: The default of each optional hook of :class:`Adapter`.
DEFAULTS: dict[str, Callable[..., Any]] = {
    "overrides": _no_overrides,
    "dtype_from_native": _no_dtype,
    "default_dtypes": _dtypes_64,
    "scalar_operand": _the_scalar,
    "normalize": _identity,
    "array_dtype": _identity,
    "single_operand": _none_faster,
    "unsupported_hint": _no_hint,
}

#: Transfer hooks, used where an adapter defines them (see ``_transfer.py``).
TRANSFER_HOOKS = (
    "export",
    "from_dlpack",
    "from_host",
    "to_host",
    "to_host_many",
    "memory",
    "data_ptr",
    "copy_array",
    "unshared",
    "traced",
    "move_within",
    "current_gpu",
    "fast_route",
    "WRITABLE_IMPORTS",
    "IMPLICIT_HOST_COPY",
    "SLOW_PEER_COPY",
    "SETS_CURRENT_GPU",
    "IMPORT_ALIGNMENT",
)

#: Other hooks used where an adapter defines them: ``getitem(x, key)`` and
#: ``setitem(x, key, value)`` (indexing the backend lacks; ``setitem`` is required of an
#: immutable backend), ``synchronize(place, natives)`` (wait for queued work: asynchronous
#: backends only), ``fuse(fun)`` (``fun``, written with operators, as one kernel over native
#: arrays: CuPy), and, for a backend whose transforms run on another backend's engine
#: (``BackendSpec.bridged``), ``engine_place(place)``: the device string of the engine's device
#: that computes for arrays on ``place`` (``"torch:cpu"`` for NumPy), and
#: ``emulate(name, fns, args, kwargs)``: the result of standard function ``name`` (``fns`` is the
#: backend's function table) for operands of a dtype the backend holds but lacks kernels for,
#: or ``NotImplemented`` to call the backend's own function (the dispatcher's checking path
#: asks it before each call); ``index_array(native)``: an integer index array as the backend
#: indexes with it (torch takes int64 only); ``REVERSED``: a dict of standard names to functions
#: that compute ``name(scalar, x)`` when called as ``f(x, scalar)`` (torch's ``rsub``), which
#: the compiled path uses for a Python scalar on the left; ``placed(fn)``: ``fn`` made to run on
#: the device of its operands (or of ``device=``), for a backend that computes on a current
#: device whatever its operands' (CuPy); every function of the table goes through it.
OTHER_HOOKS = (
    "getitem",
    "setitem",
    "synchronize",
    "fuse",
    "engine_place",
    "emulate",
    "index_array",
    "REVERSED",
    "placed",
)

_REQUIRED = (
    "namespace",
    "places",
    "parse_place",
    "native_device",
    "place_of_device",
    "place_of",
    "supports_dtype",
    "to_numpy",
)


def complete(module: ModuleType, backend: str) -> ModuleType:
    """Check ``module`` against :class:`Adapter` and fill in the optional hooks it leaves out
    (on the module itself, so that patching a module attribute later still takes effect)."""
    missing = [name for name in _REQUIRED if not callable(getattr(module, name, None))]
    if missing:
        raise TypeError(
            f"the adapter {module.__name__} of the {backend} backend lacks "
            f"{', '.join(missing)}; see arraymux._backends._adapter.Adapter for what an adapter "
            "provides."
        )
    for name, default in DEFAULTS.items():
        if getattr(module, name, None) is None:
            setattr(module, name, default)
    return module
