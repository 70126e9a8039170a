"""The backend registry: data about each backend, loaded lazily.

A :class:`BackendSpec` is plain data (names and strings); nothing is imported until a backend is
first used. The quirks of each backend live in one small adapter module beside this file, named
by ``BackendSpec.adapter``. Third-party backends register a ``BackendSpec`` through the
``arraymux.backends`` entry-point group.
"""

from __future__ import annotations

import importlib
import importlib.util
import operator
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NoReturn, TypeAlias, cast

from .. import _result_dtypes
from .._dtypes import ALL_DTYPES, FLOATING_KINDS, INTEGER_KINDS, DType
from .._errors import BackendUnavailableError
from .._function_table import TABLE, Record
from ._adapter import Hooks, Kernelled, Refusing, complete

__all__ = [
    "TYPE_CACHE",
    "Backend",
    "BackendSpec",
    "FunctionTable",
    "backend_of_type",
    "get_backend",
    "loaded",
    "on_load",
    "register",
    "specs",
]


class OperandKindError(TypeError):
    """A backend function met operands of a kind the dispatcher converts first (bool and
    integer arrays of functions defined for floating operands): raised by the functions of a
    backend's table, caught by the hot paths, which hand the call to the checking path."""


def _positional_arrays(entry: Record) -> int:
    """How many of ``entry``'s leading positional parameters are arrays (at least one)."""
    if not entry.arrays or not entry.signature:
        return 1
    names = entry.signature.strip("()").split("/")[0].split(",")
    count = 0
    for name in (n.strip() for n in names):
        if name not in entry.arrays:
            break
        count += 1
    return max(count, 1)


def _refusing(fn: Callable[..., object], refused: frozenset[object], arity: int) -> Refusing:
    """``fn``, refusing operands (the first ``arity`` positional arguments) whose native dtype
    is in ``refused`` with :class:`OperandKindError`."""

    def refusing(*args: object, **kwargs: object) -> object:
        for a in args[:arity]:
            if getattr(a, "dtype", None) in refused:
                dtype = getattr(a, "dtype", None)
                raise OperandKindError(f"{refusing.__name__}: operands of dtype {dtype}")
        return fn(*args, **kwargs)

    refusing.__name__ = refusing.__qualname__ = getattr(fn, "__name__", "refusing")
    marked = cast("Refusing", refusing)  # a function object takes the attributes it names
    marked.__wrapped__ = fn
    marked.refused = refused
    return marked


def real_base(fn: Callable[..., object]) -> Callable[..., object]:
    """The function ``fn`` is on operands that are not complex: the innermost ``real_base``
    of the complex special cases stacked on it (``tanh``: the complex-infinity fix over the
    sign fix over the backend's own), or ``fn`` itself."""
    while True:
        base = getattr(fn, "real_base", None)
        if base is None:
            return fn
        fn = base


@dataclass(frozen=True, slots=True, kw_only=True)
class BackendSpec:
    """Everything arraymux knows about a backend before importing it.

    Parameters
    ----------
    name
        The backend's name as it appears in device strings (``"torch"``).
    module
        The library's top-level module (``"torch"``); its presence in ``sys.modules`` tells
        whether an object can be one of its arrays.
    array_types
        ``(module, qualname)`` pairs naming the native array classes.
    adapter
        Module holding the backend's adapter (see ``_backends/_numpy.py`` for the interface).
    extra
        The ``pip install "arraymux[extra]"`` extra that installs it.
    distribution
        The library's distribution name on PyPI (what ``arraymux info`` reports versions of).
    autodiff, jit
        The engine behind transforms on this backend, or ``None``.
    bridged
        Whether transforms run on another backend's engine (``autodiff``), the arrays crossing
        through DLPack; the adapter then provides ``engine_place(place)``.
    mutable
        Whether its arrays support in-place updates.
    lazy
        Whether it builds a graph and computes on demand.
    draws_on_numpy
        Whether ``arraymux.random`` computes its draws on NumPy (in host memory) and moves
        them here: a graph of hundreds of tiny tasks per draw (Dask), or every operation
        through a checking layer (array-api-strict), costs far more than the draw.
    aliases
        Other names for it in device strings (``"strict"``).
    simulated
        Places that stand in for devices this machine does not have (array-api-strict's
        ``device1``...): tests of device errors use them; "every device" lists leave them out.
    """

    name: str
    module: str
    array_types: tuple[tuple[str, str], ...]
    adapter: str
    extra: str
    distribution: str
    autodiff: str | None = None
    jit: str | None = None
    bridged: bool = False
    mutable: bool = True
    lazy: bool = False
    draws_on_numpy: bool = False
    aliases: tuple[str, ...] = ()
    simulated: tuple[str, ...] = ()

    @property
    def install_hint(self) -> str:
        return f'pip install "arraymux[{self.extra}]"'


_BUILTIN = (
    BackendSpec(
        name="numpy",
        module="numpy",
        array_types=(("numpy", "ndarray"),),
        adapter="arraymux._backends._numpy",
        extra="all",
        distribution="numpy",
        autodiff="torch.func",
        bridged=True,
    ),
    BackendSpec(
        name="torch",
        module="torch",
        array_types=(("torch", "Tensor"),),
        adapter="arraymux._backends._torch",
        extra="torch",
        distribution="torch",
        autodiff="torch.func",
        jit="torch.compile",
    ),
    BackendSpec(
        name="jax",
        module="jax",
        array_types=(("jax", "Array"), ("jax.core", "Tracer")),
        adapter="arraymux._backends._jax",
        extra="jax",
        distribution="jax",
        autodiff="jax",
        jit="jax.jit",
        mutable=False,
    ),
    BackendSpec(
        name="cupy",
        module="cupy",
        array_types=(("cupy", "ndarray"),),
        adapter="arraymux._backends._cupy",
        extra="cupy",
        distribution="cupy",
        autodiff="torch.func",
        bridged=True,
    ),
    BackendSpec(
        name="dask",
        module="dask",
        array_types=(("dask.array", "Array"),),
        adapter="arraymux._backends._dask",
        extra="dask",
        distribution="dask",
        lazy=True,
        draws_on_numpy=True,
    ),
    BackendSpec(
        name="array_api_strict",
        module="array_api_strict",
        # array-api-strict does not export its Array class at the top level.
        array_types=(("array_api_strict._array_object", "Array"), ("array_api_strict", "Array")),
        adapter="arraymux._backends._strict",
        extra="strict",
        distribution="array-api-strict",
        aliases=("strict",),
        draws_on_numpy=True,
        simulated=("device1", "device2", "no_float64", "no_x64"),
    ),
)

_SPECS: dict[str, BackendSpec] = {}
_ALIASES: dict[str, str] = {}
_entry_points_loaded = False


# Held while the registry changes or a backend loads: two threads using a backend for the
# first time must load it once (two Backend objects would make two devices of one name that
# never match). Lookups of what is loaded take no lock.
_LOCK = threading.RLock()


def register(spec: BackendSpec) -> None:
    """Register a backend. Later registrations of the same name replace earlier ones."""
    with _LOCK:
        _SPECS[spec.name] = spec
        _ALIASES[spec.name] = spec.name
        for alias in spec.aliases:
            _ALIASES[alias] = spec.name
        _BACKENDS.pop(spec.name, None)
        TYPE_CACHE.clear()
        TYPE_CACHE.update(_PYTHON_TYPES)


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    with _LOCK:
        if not _entry_points_loaded:
            _load_entry_points_locked()
            _entry_points_loaded = True


def _load_entry_points_locked() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group="arraymux.backends"):
        spec = ep.load()
        if callable(spec) and not isinstance(spec, BackendSpec):
            spec = spec()
        if not isinstance(spec, BackendSpec):
            raise TypeError(
                f"entry point {ep.name!r} in group 'arraymux.backends' must name a "
                f"BackendSpec, got {type(spec).__name__}"
            )
        register(spec)


def specs() -> tuple[BackendSpec, ...]:
    """Every registered backend, built-in ones first."""
    _load_entry_points()
    # No lock: the tuple is made in one step, and a first sight of a type inside
    # torch.compile's trace comes here (dynamo does not enter a lock: the graph would break).
    return tuple(_SPECS.values())


def canonical_name(name: str) -> str | None:
    if name not in _ALIASES:
        _load_entry_points()
    return _ALIASES.get(name)


#: A backend's function table: each standard name (and the forms the compiled hot path calls,
#: ``"add(x1, x2)"``, ``"sin(x)"``) to its function; each ``"... not for"`` key to the native
#: dtypes of the operands that the function of the same name without it is not for.
FunctionTable: TypeAlias = dict[str, Callable[..., object] | frozenset[object]]


@dataclass(eq=False)
class Backend:
    """A loaded backend: its namespace, adapter, function table and dtype maps."""

    spec: BackendSpec
    adapter: ModuleType
    ns: ModuleType
    native_module: ModuleType
    fns: FunctionTable = field(init=False)
    to_native_dtype: dict[DType, object] = field(init=False)
    from_native_dtype: dict[object, DType] = field(init=False)
    # NumPy's makes a 0-d array of a scalar result and leaves other objects as they are.
    normalize: Callable[[Any], Any] = field(init=False)
    native_dtype_types: frozenset[type] = field(init=False)
    array_dtypes: dict[DType, object] = field(init=False)
    array_dtypes_by_name: dict[str, object] = field(init=False)
    integer_natives: frozenset[object] = field(init=False)
    floating_natives: frozenset[object] = field(init=False)
    array_classes: tuple[type, ...] = field(init=False)
    result_dtypes: dict[str, dict[object, object]] = field(init=False)
    hooks: Hooks = field(init=False)

    def __post_init__(self) -> None:
        self.hooks = Hooks.of(self.adapter)
        self._overrides: dict[str, Callable[..., object]] = self.adapter.overrides(self.ns)
        # A plain dict, filled once: the hot path indexes it on every call, and indexing an
        # exact dict is faster than a subclass with __missing__.
        self.fns = {entry.name: self.resolve(entry.name) for entry in TABLE}
        # "name(x)": the same function for a call with the array alone, where the backend has
        # a faster one (the compiled hot path uses it).
        # A (function, frozenset of native dtypes) pair: not for operands of those dtypes.
        for name, fn in self.adapter.single_operand().items():
            if isinstance(fn, tuple):
                fn, self.fns[f"{name}(x) not for"] = fn[0], frozenset(fn[1])
            self.fns[f"{name}(x)"] = fn
        self.to_native_dtype = {}
        self.from_native_dtype = {}
        for dt in ALL_DTYPES:
            native = getattr(self.ns, dt.name, None)
            if native is None:
                continue
            self.to_native_dtype[dt] = native
            self.from_native_dtype[native] = dt
        self.native_dtype_types = frozenset(type(k) for k in self.from_native_dtype)
        self.normalize = self.adapter.normalize
        # Functions computed for dtypes the backend stores but has no kernels for (torch's
        # uint16/32/64): called on the checking path only.
        self.emulate: Callable[..., object] | None = self.hooks.emulate
        self.emulated_dtypes: frozenset[object] = self.hooks.emulated_dtypes
        # The dtype objects that arrays report (``x.dtype``): JAX's namespace holds scalar
        # types (jnp.float32) where its arrays report NumPy dtypes.
        as_array_dtype = self.adapter.array_dtype
        self.array_dtypes = {dt: as_array_dtype(n) for dt, n in self.to_native_dtype.items()}
        self._natives_of: dict[frozenset[str], frozenset[object]] = {}
        # What index arrays, positions and counts are checked against on every call.
        self.integer_natives = self.natives_of(INTEGER_KINDS)
        self.floating_natives = self.natives_of(FLOATING_KINDS)
        # Bool and integer operands of the functions the standard defines for floating
        # operands (booleans: of the rounding functions) are refused here: the dispatcher's
        # checking path casts them to the device's default floating dtype first (which
        # depends on the device and the dtype policy), and the hot paths hand it such calls.
        not_floating = frozenset(
            n
            for dt, n in self.array_dtypes.items()
            if dt.kind in ("bool", "signed integer", "unsigned integer")
        )
        booleans = frozenset(n for dt, n in self.array_dtypes.items() if dt.kind == "bool")
        real = not_floating | frozenset(
            n for dt, n in self.array_dtypes.items() if dt.kind == "real floating"
        )
        refusals = {"floating": not_floating, "complex": real, "numeric": booleans}
        for entry in TABLE:
            # and the kinds arraymux refuses on every backend (Record.refused): the checking
            # path raises for them
            sent = refusals.get(entry.operands, frozenset()) | frozenset(
                n for dt, n in self.array_dtypes.items() if dt.kind in entry.refused
            )
            if sent:
                arity = 2 if entry.rule == "binary" else _positional_arrays(entry)
                self.fns[entry.name] = _refusing(self.function(entry.name), sent, arity)
        # Fixes of complex special cases are the backend's own function on other operands:
        # "name(x)" entries let the compiled hot path call that directly (with a "not for"
        # set of the operand dtypes that need the full function).
        complex_natives = frozenset(
            n for dt, n in self.array_dtypes.items() if dt.kind == "complex floating"
        )
        # Binary functions take "name(x1, x2)" for two arrays of one dtype. A binary function
        # that wraps the backend's kernel for some dtypes only (torch's matmul and its integer
        # fallback) names the kernel and the kinds of dtype it takes.
        for entry in TABLE:
            name = entry.name
            fn = self.function(name)
            plain = f"{name}(x1, x2)" if entry.rule == "binary" else f"{name}(x)"
            if plain in self.fns:
                continue
            # A function that refuses some operand kinds: the backend's own function for the
            # others (and the set it is not for grows by the refused dtypes).
            refused: frozenset[object] = getattr(fn, "refused", frozenset())
            # (refused only where _refusing made fn)
            inner = cast("Refusing", fn).__wrapped__ if refused else fn
            base, skip = real_base(inner), complex_natives
            kinds = getattr(inner, "kernel_kinds", None)
            if kinds is not None and entry.rule == "binary":
                base = cast("Kernelled", inner).kernel  # (kernel_kinds: it has a kernel)
                skip = frozenset(n for d, n in self.array_dtypes.items() if d.kind not in kinds)
            elif base is inner:
                skip = frozenset()
            if base is not fn:
                self.fns[plain] = base
                self.fns[f"{plain} not for"] = skip | refused
        placed = self.hooks.placed
        # Indexing on the operand's device, where the backend computes on a current device.
        self.getitem: Callable[[object, object], object] | None = None
        self.setitem: Callable[[object, object, object], object] | None = None
        if placed is not None:  # computed on the operands' device (CuPy)
            self.fns = {k: placed(f) if callable(f) else f for k, f in self.fns.items()}
            # (with one GPU, ``placed`` gives the function back: the plain paths then index)
            get, put = placed(operator.getitem), placed(operator.setitem)
            self.getitem = None if get is operator.getitem else get
            self.setitem = None if put is operator.setitem else put
        basic = self.hooks.basic_getitem
        if basic is not None:  # faster than the backend's own indexing (JAX)
            self.getitem = cast("Callable[[object, object], object]", basic)
        for dt, native in self.array_dtypes.items():
            self.from_native_dtype.setdefault(native, dt)  # x.dtype maps in one lookup
        # The same by name: torch.compile guards string keys cheaply, object keys not.
        self.array_dtypes_by_name = {dt.name: n for dt, n in self.array_dtypes.items()}
        self.array_classes = tuple(_array_classes(self.spec))
        self.result_dtypes = _result_dtypes.native_table(
            self.array_dtypes, self.from_native_dtype.get
        )
        for entry in TABLE:
            self.result_dtypes.setdefault(entry.name, {})

    @property
    def name(self) -> str:
        return self.spec.name

    def function(self, name: str) -> Callable[..., object]:
        """The function of a name of the table (``"add"``, ``"add(x1, x2)"``), not a dtype set."""
        fn = self.fns[name]
        if not callable(fn):
            raise TypeError(f"{self.name}: {name!r} names the dtypes a function is not for")
        return fn

    def natives_of(self, kinds: frozenset[str]) -> frozenset[object]:
        """The dtypes that this backend's arrays of the dtype kinds ``kinds`` report
        (``x.dtype``), for checks by set membership on hot paths."""
        found = self._natives_of.get(kinds)
        if found is None:
            found = frozenset(n for dt, n in self.array_dtypes.items() if dt.kind in kinds)
            self._natives_of[kinds] = found
        return found

    def resolve(self, name: str) -> Callable[..., object]:
        """The callable behind a standard name (``"add"``, ``"linalg.inv"``)."""
        if name in self._overrides:
            return self._overrides[name]
        obj: object = self.ns
        try:
            for part in name.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            return _missing(self.spec.name, name)
        return cast("Callable[..., object]", obj)  # a standard name names a function

    def dtype_from_native(self, native: object) -> DType:
        try:
            return self.from_native_dtype[native]
        except (KeyError, TypeError):
            pass
        dt = self.adapter.dtype_from_native(native)
        if dt is None:
            raise TypeError(f"{self.name} dtype {native!r} has no arraymux equivalent")
        return dt

    def version(self) -> str:
        return str(getattr(self.native_module, "__version__", "?"))


def _missing(backend: str, name: str) -> Callable[..., NoReturn]:
    def fn(*args: object, **kwargs: object) -> NoReturn:
        raise NotImplementedError(
            f"arraymux.{name} is not available on the {backend} backend "
            f"(its namespace has no {name!r})."
        )

    return fn


_BACKENDS: dict[str, Backend] = {}


def get_backend(name: str) -> Backend:
    """Load (once) and return a backend by name or alias."""
    try:
        return _BACKENDS[name]
    except KeyError:
        pass
    canon = canonical_name(name)
    if canon is None:
        known = ", ".join(sorted(_SPECS))
        raise ValueError(f"unknown backend {name!r}; the known backends are: {known}.")
    with _LOCK:
        return _load(name, canon)


def _load(name: str, canon: str) -> Backend:
    if canon in _BACKENDS:
        return _BACKENDS[canon]
    spec = _SPECS[canon]
    try:
        native_module = importlib.import_module(spec.module)
    except ImportError as e:
        raise BackendUnavailableError(
            f"the {spec.name} backend is not installed ({e}). Install it with: {spec.install_hint}"
        ) from e
    adapter = complete(importlib.import_module(spec.adapter), spec.name)
    ns = adapter.namespace()
    backend = Backend(spec, adapter, ns, native_module)
    _BACKENDS[canon] = backend
    if name != canon:
        _BACKENDS[name] = backend
    for hook in _ON_LOAD.get(canon, ()):
        hook(backend)
    return backend


def loaded() -> tuple[Backend, ...]:
    """The backends loaded so far, each under its name and its aliases used so far (a snapshot;
    takes no lock, loads nothing)."""
    return tuple(_BACKENDS.values())


# Hooks of the layers above, run when a backend loads: they need the backend, and the
# adapters import nothing above the registry.
_ON_LOAD: dict[str, list[Callable[[Backend], None]]] = {}


def on_load(name: str, hook: Callable[[Backend], None]) -> None:
    """Run ``hook(backend)`` when the backend ``name`` loads (at once if it already has)."""
    with _LOCK:
        _ON_LOAD.setdefault(name, []).append(hook)
        backend = _BACKENDS.get(name)
    if backend is not None:
        hook(backend)


def backend_owning(obj: object) -> Backend | None:
    """The backend whose library defines ``obj`` (a dtype, or a class such as ``np.float32``),
    loaded now if that library is imported; None where no backend's library does."""
    module = getattr(obj if isinstance(obj, type) else type(obj), "__module__", None)
    if not isinstance(module, str):  # (a class may set anything there)
        return None
    top = module.partition(".")[0]
    if top not in sys.modules:
        return None
    for spec in specs():
        if spec.module == top:
            return get_backend(spec.name)
    return None


def is_installed(name: str) -> bool:
    spec = _SPECS.get(canonical_name(name) or "")
    if spec is None:
        return False
    if spec.module in sys.modules:
        return True
    return importlib.util.find_spec(spec.module) is not None


def _array_classes(spec: BackendSpec) -> list[type]:
    """The native array classes of ``spec`` whose modules are imported."""
    out = []
    for module, qualname in spec.array_types:
        cls: object = sys.modules.get(module)
        try:
            for part in qualname.split("."):
                cls = getattr(cls, part)
        except AttributeError:
            continue
        if isinstance(cls, type):
            out.append(cls)
    return out


# type -> Backend (or None for "not an array of any backend"); filled on first sight of a type.
# The types of Python's own values are known up front: a first sight inside torch.compile's
# trace would be a side effect that the compiled function replays on every call.
_PYTHON_TYPES: dict[type, Backend | None] = dict.fromkeys(
    (bool, int, float, complex, str, bytes, type(None), type(...), slice, tuple, list, dict)
)
TYPE_CACHE: dict[type, Backend | None] = dict(_PYTHON_TYPES)


def backend_of_type(tp: type) -> Backend | None:
    """The backend whose native array type ``tp`` is, without importing any backend."""
    try:
        return TYPE_CACHE[tp]
    except KeyError:
        pass
    found: Backend | None = None
    for spec in specs():
        if any(issubclass(tp, cls) for cls in _array_classes(spec)):
            found = get_backend(spec.name)
            break
    TYPE_CACHE[tp] = found
    return found


for _spec in _BUILTIN:
    register(_spec)
del _spec
