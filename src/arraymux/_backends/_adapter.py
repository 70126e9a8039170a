"""What a backend adapter provides: the contract, and one set of defaults for what is optional.

An adapter is a module (named by :class:`BackendSpec.adapter <arraymux._backends.BackendSpec>`)
that tells arraymux how to use one array library. The registry checks it against
:class:`Adapter` when the backend loads, and fills in each optional hook the module leaves out
with the default of :data:`DEFAULTS`. A backend that another package registers through the
``arraymux.backends`` entry point is held to the same contract.

Hooks that arraymux calls only where an adapter defines them (and does something generic
otherwise) are the typed fields of :class:`Hooks`, read once per backend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar, runtime_checkable

from .. import _dtypes

if TYPE_CHECKING:
    import numpy

__all__ = [
    "DEFAULTS",
    "Fusing",
    "HOOKS",
    "Adapter",
    "Hooks",
    "Kernelled",
    "NativeArray",
    "RealBased",
    "Refusing",
    "Wrapping",
    "complete",
]


class NativeArray(Protocol):
    """A backend's own array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``...), as
    arraymux reads it: its shape, its dtype object and its number of dimensions. A lazy
    backend (Dask) reports a dimension it does not know yet as NaN; methods of one library
    are called by that library's adapter only. (Exported as ``arraymux._typing.NativeArray``;
    defined here, below the registry, so that the adapters' signatures can name it.)"""

    @property
    def shape(self) -> tuple[int | float | None, ...]: ...

    @property
    def dtype(self) -> object: ...

    @property
    def ndim(self) -> int: ...


# The functions of a backend's table carry attributes that the registry and the compiled hot
# path read; a function object takes any attribute, and these say which.


class Wrapping(Protocol):
    """A function that checks or converts its operands, then calls ``__wrapped__``."""

    __wrapped__: Callable[..., object]

    def __call__(self, *args: object, **kwargs: object) -> object: ...


class Refusing(Wrapping, Protocol):
    """The backend's function (``__wrapped__``), refusing operands whose native dtype is in
    ``refused``."""

    refused: frozenset[object]


_R_co = TypeVar("_R_co", covariant=True)
_P = ParamSpec("_P")
_R = TypeVar("_R")


class RealBased(Protocol[_R_co]):
    """A fix of complex special cases: ``real_base`` on every operand that is not complex."""

    real_base: Callable[..., object]

    def __call__(self, *args: object, **kwargs: object) -> _R_co: ...


class Kernelled(Protocol):
    """A binary function that calls the backend's ``kernel`` for the dtype kinds of
    ``kernel_kinds`` only (torch's matmul and its integer fallback)."""

    kernel: Callable[..., object]
    kernel_kinds: tuple[str, ...]

    def __call__(self, *args: object, **kwargs: object) -> object: ...


class Fusing(Protocol):
    """A backend's fusion of a function into one kernel (CuPy's ``fuse``): it is called as
    ``fun`` is."""

    def __call__(self, fun: Callable[_P, _R], /) -> Callable[_P, _R]: ...


@runtime_checkable
class Adapter(Protocol):
    """The hooks every adapter module defines (the registry supplies the optional ones)."""

    def namespace(self) -> ModuleType:
        """The backend's Array API namespace (from array-api-compat, or the library's own)."""

    def places(self) -> list[str]:
        """The device places this machine has (``["cpu"]``, ``["cpu", "cuda:0"]``, ...)."""

    def parse_place(self, place: str | None) -> str:
        """The canonical place for a user's string (``None``: the backend's default)."""

    def native_device(self, place: str) -> object:
        """The backend's own device object for ``place``."""

    def place_of_device(self, native: object) -> str:
        """The place of one of the backend's own device objects."""

    def place_of(self, x: NativeArray) -> str:
        """The place of a native array."""

    def supports_dtype(self, dtype: _dtypes.DType, place: str) -> bool:
        """Whether arrays of ``dtype`` can live on ``place``."""

    def to_numpy(self, x: NativeArray) -> numpy.ndarray:
        """The native array as a NumPy array on the host."""

    # Optional: the registry fills these in from DEFAULTS where the module leaves them out.

    def overrides(self, ns: ModuleType) -> dict[str, Callable[..., object]]:
        """Standard names mapped to callables that replace the namespace's own (fixes of the
        backend's departures from the standard, or faster paths with the same semantics)."""

    def dtype_from_native(self, obj: object) -> _dtypes.DType | None:
        """An arraymux dtype for a dtype-like object the plain mapping does not know."""

    def default_dtypes(self, place: str) -> dict[str, _dtypes.DType]:
        """The default dtypes of ``place``, keyed as ``Info.default_dtypes`` keys them."""

    def scalar_operand(
        self, name: str, value: complex, other: NativeArray, position: int
    ) -> object:
        """A Python scalar as the backend's function ``name`` takes it beside array
        ``other`` (most take the scalar itself)."""

    def normalize(self, x: NativeArray) -> NativeArray:
        """The native result as an array (NumPy returns scalars for 0-d results)."""

    def array_dtype(self, native: object) -> object:
        """The dtype object arrays report for a dtype of the namespace, where they differ
        (NumPy, JAX, CuPy, Dask report ``np.dtype`` objects)."""

    def single_operand(self) -> dict[str, object]:
        """Standard names mapped to faster callables for a call with the array alone, or to a
        ``(callable, dtypes)`` pair: not for operands of those native dtypes."""

    def unsupported_hint(self, dtype: _dtypes.DType) -> str:
        """A sentence telling how to make ``dtype`` available, or where to hold it instead
        ("": arraymux says to use a dtype the device holds)."""


def _no_overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    return {}


_T = TypeVar("_T")


def _no_dtype(obj: object) -> _dtypes.DType | None:
    return None


def _dtypes_64(place: str) -> dict[str, _dtypes.DType]:
    return {
        "real floating": _dtypes.float64,
        "complex floating": _dtypes.complex128,
        "integral": _dtypes.int64,
        "indexing": _dtypes.int64,
    }


def _the_scalar(name: str, value: _T, other: object, position: int) -> _T:
    return value


def _identity(x: _T) -> _T:
    return x


def _none_faster() -> dict[str, object]:
    return {}


def _no_hint(dtype: _dtypes.DType) -> str:
    return ""


#: The default of each optional hook of :class:`Adapter`.
DEFAULTS: dict[str, Callable[..., object]] = {
    "overrides": _no_overrides,
    "dtype_from_native": _no_dtype,
    "default_dtypes": _dtypes_64,
    "scalar_operand": _the_scalar,
    "normalize": _identity,
    "array_dtype": _identity,
    "single_operand": _none_faster,
    "unsupported_hint": _no_hint,
}


@dataclass(frozen=True, slots=True)
class Hooks:
    """The optional hooks of one adapter, typed; each is ``None`` (or false) where the adapter
    leaves it out, and arraymux then does the generic thing. :attr:`Backend.hooks
    <arraymux._backends.Backend>` holds them, read once when the backend loads: code asks
    ``backend.hooks.export``, never the module by name.

    Moving data (see ``_transfer.py``): ``export(x) -> (obj, copied)`` (a DLPack producer for
    ``x``), ``from_dlpack(obj, place, copy)``, ``from_host(a, place)`` / ``to_host(x)`` /
    ``to_host_many(xs)`` (NumPy arrays in and out, the last batched with one wait),
    ``memory(place) -> (kind, index)`` (where the place's memory is: ``("cuda", 0)``),
    ``data_ptr(x)``, ``copy_array(x)``, ``unshared(x)`` (whether ``x`` owns its memory alone),
    ``traced(x)`` (whether ``x`` is a tracer of a transform), ``move_within(x, src, dst)``
    (between two places of the backend), ``current_gpu(place)`` (a context that makes
    ``place`` current), ``fast_route(direction, place, other, other_place)`` (a faster path
    to or from another backend, or None); ``writable_imports`` (memory the backend imports
    may be written through it), ``implicit_host_copy`` (reading its arrays as NumPy copies
    them), ``slow_peer_copy`` (copies between its GPUs are slow without a stream),
    ``sets_current_gpu`` (its copies change the current GPU) and ``import_alignment`` (the
    byte boundary it imports host memory at without a copy; 0: any).

    Computing: ``getitem(x, key)`` / ``setitem(x, key, value)`` (indexing the backend lacks;
    ``setitem`` is required of an immutable backend), ``basic_getitem(x, key)`` (``x[key]``
    for every key, where the backend's own indexing is slow for a basic one: ints, slices,
    ``None`` and ``...``; JAX compiles each form of such a key once), ``fill(x, key, number) -> bool`` (write
    a Python number where the backend's own ``x[key] = number`` would copy it from host
    memory; False where it wrote nothing), ``synchronize(place, natives)`` (wait
    for queued work: asynchronous backends only), ``fuse(fun)`` (``fun``, written with
    operators, as one kernel over native arrays: CuPy), ``engine_place(place)`` (for a backend
    whose transforms run on another backend's engine, ``BackendSpec.bridged``: the device
    string of the engine's device that computes for arrays on ``place``, ``"torch:cpu"`` for
    NumPy), ``emulate(name, fns, args, kwargs)`` (the result of standard function ``name`` for
    operands of a dtype the backend holds but lacks kernels for, or ``NotImplemented``),
    ``emulated_dtypes`` (the native dtypes of the operands ``emulate`` computes for: a call
    whose arrays have none of them, and no ``dtype=``, goes to the backend's function itself),
    ``index_array(native)`` (an integer index array as the backend indexes with it: torch
    takes int64 only), ``reversed`` (standard names mapped to functions that compute
    ``name(scalar, x)`` when called as ``f(x, scalar)``: torch's ``rsub``), ``scalar_kernels``
    (standard names mapped to functions that compute ``name(x, scalar)`` from the Python
    scalar itself, where the backend's own function takes arrays only: ``torch.maximum`` as
    ``torch.clamp``; the adapter's ``scalar_operand`` then passes the scalar as it is),
    ``scalars_beside_0d()`` (whether, at this moment, a Python scalar that ``scalar_operand``
    makes an array beside a 0-d array, and passes as it is beside larger ones, may pass as it
    is beside 0-d ones too: torch, outside torch.func's transforms), ``placed(fn)``
    (``fn`` made to run on the device of its operands, for a backend that computes on a
    current device: CuPy) and ``stop_gradient(native)`` (``native`` as a constant of the
    backend's autodiff engine).
    """

    export: Callable[[NativeArray], tuple[NativeArray, bool]] | None = None
    from_dlpack: Callable[[object, str | None, bool | None], NativeArray] | None = None
    from_host: Callable[[numpy.ndarray, str], NativeArray] | None = None
    to_host: Callable[[NativeArray], numpy.ndarray] | None = None
    to_host_many: Callable[[list[object]], list[numpy.ndarray]] | None = None
    memory: Callable[[str], tuple[str, int]] | None = None
    data_ptr: Callable[[NativeArray], int] | None = None
    copy_array: Callable[[NativeArray], NativeArray] | None = None
    unshared: Callable[[NativeArray], bool] | None = None
    traced: Callable[[NativeArray], bool] | None = None
    move_within: Callable[[NativeArray, str, str], NativeArray | None] | None = None
    current_gpu: Callable[[str], AbstractContextManager[object]] | None = None
    fast_route: (
        Callable[[str, str, str, str], Callable[[NativeArray], NativeArray | None] | None] | None
    ) = None
    writable_imports: bool = False
    implicit_host_copy: bool = False
    slow_peer_copy: bool = False
    sets_current_gpu: bool = False
    import_alignment: int = 0
    getitem: Callable[[NativeArray, object], NativeArray] | None = None
    basic_getitem: Callable[[NativeArray, object], NativeArray] | None = None
    setitem: Callable[[NativeArray, object, object], NativeArray] | None = None
    fill: Callable[[NativeArray, object, complex], bool] | None = None
    synchronize: Callable[[str, list[object]], None] | None = None
    fuse: Fusing | None = None
    engine_place: Callable[[str], str] | None = None
    emulate: (
        Callable[[str, Mapping[str, object], tuple[object, ...], dict[str, object]], object] | None
    ) = None
    emulated_dtypes: frozenset[object] = frozenset()
    index_array: Callable[[object], object] | None = None
    reversed: Mapping[str, Callable[..., object]] = field(default_factory=dict)
    scalar_kernels: Mapping[str, Callable[[NativeArray, complex], NativeArray]] = field(
        default_factory=dict
    )
    scalars_beside_0d: Callable[[], bool] | None = None
    placed: Callable[[Callable[..., object]], Callable[..., object]] | None = None
    stop_gradient: Callable[[NativeArray], NativeArray] | None = None

    @classmethod
    def of(cls, module: ModuleType) -> Hooks:
        """The hooks ``module`` defines (constants are spelled in capitals there:
        ``WRITABLE_IMPORTS``)."""
        found = {}
        for f in fields(cls):
            for spelling in (f.name, f.name.upper()):
                value = getattr(module, spelling, None)
                if value is not None:
                    found[f.name] = value
                    break
        return cls(**found)


#: The names of the optional hooks (the fields of :class:`Hooks`).
HOOKS: tuple[str, ...] = tuple(f.name for f in fields(Hooks))


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
