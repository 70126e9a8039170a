"""JAX adapter (the contract every adapter follows is ``_adapter.Adapter``).

``jax.numpy`` is itself an Array API namespace. JAX's arrays are immutable (``__setitem__`` is
emulated by :class:`arraymux.Array` with ``.at[].set``), and 64-bit dtypes exist only with
``jax_enable_x64``: without it arraymux raises UnsupportedDTypeError instead of letting JAX
narrow float64 to float32.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import jax
import jax.numpy as jnp

from .. import _dtypes
from . import _special_cases
from ._common import array_dtype as array_dtype
from ._common import dtype_from_numpy, raise_unknown_place, sized_reshape

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_R = TypeVar("_R")

_PLATFORM_ALIASES = {"cuda": "gpu", "rocm": "gpu"}

#: ``numpy.asarray(x)`` of an array in GPU memory copies it to the host, as JAX does for its
#: own arrays (torch and CuPy refuse; see ``_transfer.host_array_for_numpy``).
IMPLICIT_HOST_COPY = True

#: ``jax.device_put`` between two GPUs runs at 55-68 % of the link's bandwidth at 256 MiB and
#: costs about 200 us for 1 KiB (H200 pair, NVLink): moves between GPUs copy with torch or
#: CuPy where one is loaded and hand the buffers over through DLPack (``_transfer``).
SLOW_PEER_COPY = True

#: JAX's CPU client takes host memory through DLPack without a copy only at 64-byte
#: boundaries (``_transfer`` says so when ``copy=False`` is refused for another address).
IMPORT_ALIGNMENT = 64

#: JAX makes the GPU it works on (a DLPack hand-over, a computation) the calling thread's
#: current CUDA device and leaves it so: a move restores the caller's (``_transfer``).
SETS_CURRENT_GPU = True


# What arrays report are NumPy dtypes.
dtype_from_native = dtype_from_numpy


def namespace() -> ModuleType:
    return jnp


def overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    out = _fixed(ns)
    out["squeeze"] = _special_cases.squeeze_of_axis(ns.squeeze)
    # Compiled whole: the two reversals in one program (eagerly, each is a dispatch of its own).
    out["sort"] = jax.jit(
        _special_cases.stable_descending(ns, ns.sort),
        static_argnames=("axis", "descending", "stable"),
    )
    for name, radix in (("log2", 2.0), ("log10", 10.0)):
        out[name] = _special_cases.change_of_base(
            ns, getattr(ns, name), out["log"], radix, jax.lax.complex
        )
    for name in _COMPILED_FIXES:
        out[name] = _compiled_fix(out[name])
    return out


#: The functions whose special cases arraymux fixes with operations on Python constants,
#: compiled (the fixes replace zeros rather than add one, which XLA's rewrites drop).
_COMPILED_FIXES = (
    "abs",
    "sign",
    "expm1",
    "floor_divide",
    "remainder",
    "reciprocal",
    "log1p",
    "log2",
    "log10",
    *_special_cases.COMPLEX_CASES,
)


def _compiled_fix(fn: Callable[..., object]) -> Callable[..., object]:
    """``fn`` compiled where every operand is an array: the Python constants of its fixes
    (``where(r == 0, ...)``) become part of the program. Run eagerly, ``jax.numpy`` moves
    each constant to the device, a host-to-device transfer that the backend's own function
    does not make; compiled, a complex ``acos`` also runs as one program instead of a dozen
    (CPU, 2 x 2 complex64: 169 -> 8.8 us). A Python scalar operand (``x % 2``) takes ``fn`` as
    it is: JAX moves it, as its own functions do."""
    compiled = jax.jit(fn)

    @functools.wraps(fn)
    def fixed(*args: object) -> object:
        for a in args:
            if not isinstance(a, jax.Array):
                return fn(*args)
        return compiled(*args)

    return fixed


def _repeat(base: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``repeat`` refusing negative counts in an array of them, as NumPy, PyTorch and Dask do:
    ``jnp.repeat`` gave an empty array for ``repeat(x, [1, -1])``. ``jnp.repeat`` reads the
    counts to size its result anyway: they are read once, here, and passed on as read. Inside
    a trace they cannot be read, and JAX asks for a total there."""

    def repeat(x: jax.Array, repeats: int | jax.Array, /, **kwargs: object) -> jax.Array:
        if isinstance(repeats, jax.Array):
            import numpy as np

            try:
                counts = np.asarray(repeats)
            except jax.errors.TracerArrayConversionError:  # traced: not to be read
                return base(x, repeats, **kwargs)
            if counts.size and counts.min() < 0:
                raise ValueError("repeats may not contain negative values.")
            return base(x, counts, **kwargs)
        return base(x, repeats, **kwargs)

    return repeat


def _fixed(ns: ModuleType) -> dict[str, Callable[..., object]]:
    fixed: dict[str, Callable[..., object]] = {
        "abs": _special_cases.complex_abs(ns, ns.abs),
        "any": _truth_of_complex(ns.any, ns),
        "all": _truth_of_complex(ns.all, ns),
        "floor_divide": _special_cases.floor_divide(ns, ns.floor_divide, zero_results=True),
        "expm1": _special_cases.expm1(ns, ns.expm1, jax.lax.complex),
        "remainder": _special_cases.remainder(ns, ns.remainder),
        "reciprocal": _special_cases.reciprocal(ns, ns.reciprocal, jax.lax.complex),
        "sign": _special_cases.sign(ns, ns.sign),
        "searchsorted": _searchsorted,
        "repeat": _special_cases.nonnegative_count(_repeat(ns.repeat)),
        "permute_dims": _permute_dims(ns.permute_dims),
        "cumulative_prod": _cumulative_prod,
        "log1p": _special_cases.log1p(ns, ns.log1p, jax.lax.complex),
        **{
            name: _special_cases.complex_cases(ns, name, getattr(ns, name), jax.lax.complex)
            for name in _special_cases.COMPLEX_CASES
            if name != "tanh"
        },
        "tanh": _special_cases.complex_cases(
            ns, "tanh", _special_cases.tanh(ns, ns.tanh, jax.lax.complex), jax.lax.complex
        ),
        **{name: _kept_in_place(getattr(ns, name)) for name in _CONSTANT_RESULTS},
        **_full_precision_products(),
        # jaxlib aborts the process on a shape whose byte size overflows 64 bits.
        "reshape": sized_reshape(ns.reshape, jax.lax.reshape),  # jax.lax: 2 us, jax.numpy: 6
    }
    creations = {name: _compiled_creation(name, getattr(ns, name)) for name in _COMPILED_CREATION}
    return {**fixed, **creations, "asarray": _scalar_asarray(ns.asarray, creations["full"])}


def _scalar_asarray(
    base: Callable[..., jax.Array], full: Callable[..., jax.Array]
) -> Callable[..., jax.Array]:
    """``asarray`` that makes a Python number on a device as ``full((), value)`` compiled
    (see :func:`_compiled_creation`): ``jax.numpy.asarray(3.0, device=)`` converts on the
    default device and moves the result, 180 us on the CPU, where a compiled creation takes a
    few microseconds and a moved value ~50. The dtype is the one ``jax.numpy`` would choose,
    without its weak type (arraymux promotes by the standard's rules, not JAX's); other
    objects and numbers that the dtype cannot hold take ``base``."""
    import numpy as np

    def asarray(
        obj: object,
        dtype: object = None,
        *,
        device: jax.Device | None = None,
        copy: bool | None = None,
    ) -> jax.Array:
        t = type(obj)
        if device is not None and copy is not False and t in _SCALAR_DTYPES:
            dt = _SCALAR_DTYPES[t]() if dtype is None else np.dtype(cast("npt.DTypeLike", dtype))
            if _kept(obj, dt):  # (others: base's errors and warnings)
                return full((), obj, dtype=dt, device=device)
        return base(obj, dtype=dtype, device=device, copy=copy)

    return asarray


def _kept(value: object, dt: np.dtype) -> bool:
    """Whether the Python number ``value`` is held by ``dt`` as it is, or widened (a float in
    an integer dtype, or an int out of its range, is not)."""
    t, kind = type(value), dt.kind
    if t is int and kind in "iu":
        standard = dtype_from_numpy(dt)
        if standard is None:
            return False
        lo, hi = _dtypes.int_range(standard)
        return lo <= cast(int, value) <= hi
    return (
        t is bool
        or (t is int and kind in "fc")
        or (t is float and kind in "fc")
        or (t is complex and kind == "c")
    )


def _default(kind: str) -> Callable[[], np.dtype]:
    def default() -> np.dtype:
        import numpy as np

        return np.dtype(jax.dtypes.canonicalize_dtype(np.dtype(kind)))

    return default


#: The dtype ``jax.numpy`` gives a Python number (64-bit ones narrowed without x64).
_SCALAR_DTYPES: dict[type, Callable[[], np.dtype]] = {
    bool: _default("bool"),
    int: _default("int64"),
    float: _default("float64"),
    complex: _default("complex128"),
}


#: The creation functions whose calls with ``device=`` run compiled (see
#: :func:`_compiled_creation`).
_COMPILED_CREATION = ("zeros", "ones", "empty", "full", "arange", "eye", "linspace")
#: The compiled creations made so far, by :func:`_creation_key`; emptied when it is full.
_CREATED: dict[tuple[object, ...], Callable[[], jax.Array]] = {}
_CREATED_MAX = 1024


def _compiled_creation(name: str, base: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``base`` (a ``jax.numpy`` creation function) whose calls with a ``device=`` and plain
    Python arguments run as a function compiled once per call (its shape, values, dtype and
    device), with the device as its output sharding.

    ``jax.numpy``'s ``device=`` makes the array on JAX's default device and then puts it on
    the device asked for: a ``device_put`` of 90-250 us on the CPU, even where that is the
    same device, which the array arraymux makes needs (an array without ``device=`` is not
    committed to its device: a later ``jax.default_device`` would move its computations,
    and with them its data, elsewhere). The compiled call costs about 5 us and gives the same
    committed array; JAX's own eager operations compile per shape the same way. Other calls
    (arrays as arguments, inside a trace) take ``base`` as they are."""

    def create(*args: object, device: jax.Device | None = None, **kwargs: object) -> jax.Array:
        key = None if device is None else _creation_key(name, args, kwargs, device)
        if key is None:
            return base(*args, device=device, **kwargs)
        made = _CREATED.get(key)
        if made is None:
            if name == "full" and _many_fill_values(key, args, kwargs):
                return _full_of_value(args, kwargs, device)
            if len(_CREATED) >= _CREATED_MAX:
                _CREATED.clear()
                _FILL_VALUES.clear()
            sharding = jax.sharding.SingleDeviceSharding(device)
            made = _CREATED[key] = jax.jit(
                functools.partial(base, *args, **kwargs), out_shardings=sharding
            )
        return made()

    return functools.wraps(base)(create)


#: The most fill values of ``full`` compiled into a creation for one shape, dtype and device;
#: beyond them each call moves its value instead (see :func:`_full_of_value`).
FILL_VALUES_COMPILED = 8
#: The fill values compiled so far, by shape, dtype and device.
_FILL_VALUES: dict[tuple[object, ...], int] = {}


def _many_fill_values(
    key: tuple[object, ...], args: tuple[object, ...], kwargs: dict[str, object]
) -> bool:
    """Whether ``full``'s creations of this shape, dtype and device have compiled
    :data:`FILL_VALUES_COMPILED` fill values already (counting this one otherwise): a program
    that fills with a new value at every step (a parameter of a loop, a random
    distribution's scale) would compile at every step, 15 ms each."""
    if len(args) != 2 or set(kwargs) != {"dtype"}:
        return False  # the fill value's dtype decides: compiled as before
    import numpy as np

    if not _kept(args[1], np.dtype(cast("npt.DTypeLike", kwargs["dtype"]))):
        return False  # a cast that changes the value: jax.numpy's, compiled as before
    family = (key[1], args[0], kwargs["dtype"])
    seen = _FILL_VALUES.get(family, 0)
    if seen >= FILL_VALUES_COMPILED:
        return True
    _FILL_VALUES[family] = seen + 1
    return False


def _full_of_value(
    args: tuple[object, ...], kwargs: dict[str, object], device: jax.Device
) -> jax.Array:
    """``full(shape, value, dtype=)`` with the value moved to ``device`` (an explicit transfer
    of one element, as ``jax.numpy.full`` makes an implicit one), broadcast by a creation
    compiled once per shape and dtype."""
    import numpy as np

    shape, value = args
    dtype = cast("npt.DTypeLike", kwargs["dtype"])
    one = jax.device_put(np.asarray(value, dtype=dtype), device)
    if shape == ():
        return one
    return _broadcast_to(cast("tuple[int, ...]", shape), device)(one)


@functools.lru_cache(maxsize=256)
def _broadcast_to(shape: tuple[int, ...], device: jax.Device) -> Callable[[jax.Array], jax.Array]:
    sharding = jax.sharding.SingleDeviceSharding(device)
    return jax.jit(lambda one: jnp.broadcast_to(one, shape), out_shardings=sharding)


def _creation_key(
    name: str, args: tuple[object, ...], kwargs: dict[str, object], device: object
) -> tuple[object, ...] | None:
    """What tells one compiled creation from another: each argument with its type (``1``,
    ``1.0`` and ``True`` make other arrays), floats by their ``repr`` (``0.0`` and ``-0.0``
    are equal but make other arrays; NaN is equal to nothing); None where an argument is
    not a Python number, a tuple of ints, a dtype or None (an array: ``base`` itself)."""
    if not isinstance(device, jax.Device):
        return None
    key: list[object] = [name, device]
    for k, v in (*enumerate(args), *kwargs.items()):
        t = type(v)
        if t is float or t is complex:
            key.append((k, t, repr(v)))
        elif t in (int, bool, type(None)) or (
            t is tuple and all(type(n) is int for n in cast("tuple[object, ...]", v))
        ):
            key.append((k, t, v))
        elif k == "dtype" and (isinstance(v, type) or t.__module__.startswith("numpy")):
            key.append((k, v))  # a NumPy scalar type or dtype (numpy.dtypes.Float32DType)
        else:
            return None
    return tuple(key)


def _permute_dims(base: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``permute_dims`` taking negative axes, as NumPy and torch do (JAX refuses them)."""

    def permute_dims(x: jax.Array, /, axes: tuple[int, ...]) -> jax.Array:
        if any(a < 0 for a in axes):
            axes = tuple(a + x.ndim if a < 0 else a for a in axes)
        return base(x, axes)

    return permute_dims


def _truth_of_complex(base: Callable[..., jax.Array], ns: ModuleType) -> Callable[..., jax.Array]:
    """``any``/``all`` where a complex element is true when either part is nonzero (JAX tests
    the real part only: ``any(1j)`` is False)."""

    def fn(
        x: jax.Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
    ) -> jax.Array:
        if x.dtype.kind == "c":
            x = x != 0
        return base(x, axis=axis, keepdims=keepdims)

    fn.__name__ = fn.__qualname__ = base.__name__
    return fn


#: Functions whose result JAX builds with ``full_like`` for some dtypes (``isinf`` of an
#: integer, ``imag`` of a real, ``signbit`` of a bool), which puts it on the default device
#: rather than the input's.
_CONSTANT_RESULTS = ("isinf", "isfinite", "imag", "signbit")


def _kept_in_place(fun: Callable[[jax.Array], jax.Array]) -> Callable[[jax.Array], jax.Array]:
    """``fun`` with its result on its input's device."""

    def placed(x: jax.Array, /) -> jax.Array:
        out = fun(x)
        try:
            src, dst = x.devices(), out.devices()
        except (AttributeError, jax.errors.ConcretizationTypeError):  # traced: no placement
            return out
        return out if src == dst else jax.device_put(out, next(iter(src)))

    placed.__name__ = getattr(fun, "__name__", "placed")
    return placed


def _full_precision_products() -> dict[str, Callable[..., object]]:
    """Products at full precision where JAX has an accelerator; on a CPU-only JAX the
    default is already full precision, and the keyword would only slow each call."""
    if jax.default_backend() == "cpu":
        return {}
    names = ("matmul", "tensordot", "vecdot")
    return {
        **{name: _full_precision(getattr(jnp, name)) for name in names},
        **{f"linalg.{name}": _full_precision(getattr(jnp.linalg, name)) for name in names},
    }


class _Options(Protocol):
    """The option of ``jax.config`` read as an attribute (JAX's stubs declare its methods
    only)."""

    @property
    def jax_default_matmul_precision(self) -> str | None: ...


_OPTIONS = cast("_Options", jax.config)


def _full_precision(fn: Callable[..., _R]) -> Callable[..., _R]:
    """``fn`` at full float32 precision unless the user chose a default for JAX.

    On GPUs JAX computes float32 and complex64 products with TF32 inputs by default (about
    three decimal digits), where NumPy, torch and CuPy keep full float32 precision; the same
    code would give different answers by backend. ``jax_default_matmul_precision``, when set,
    is respected.
    """

    def full(*args: object, **kwargs: object) -> _R:
        if "precision" not in kwargs and _OPTIONS.jax_default_matmul_precision is None:
            kwargs["precision"] = jax.lax.Precision.HIGHEST
        return fn(*args, **kwargs)

    full.__name__ = fn.__name__
    return full


def _searchsorted(
    x1: jax.Array, x2: jax.Array | float, /, *, side: str = "left", sorter: jax.Array | None = None
) -> jax.Array:
    # jnp.searchsorted returns int32 even with x64 on; the standard wants the indexing dtype.
    r = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
    return r.astype(jax.dtypes.canonicalize_dtype(jnp.int64))


def _cumulative_prod(
    x: jax.Array,
    /,
    *,
    axis: int | None = None,
    dtype: jnp.dtype | None = None,
    include_initial: bool = False,
) -> jax.Array:
    # jnp.cumulative_prod keeps small integer dtypes on empty input; the standard promotes
    # them to the default (unsigned) integer dtype, as for prod.
    if dtype is None and x.dtype != jnp.bool_ and jnp.issubdtype(x.dtype, jnp.integer):
        wide = jnp.uint64 if jnp.issubdtype(x.dtype, jnp.unsignedinteger) else jnp.int64
        wide = jax.dtypes.canonicalize_dtype(wide)
        if x.dtype.itemsize < wide.itemsize:
            dtype = wide
    return jnp.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial)


def x64_enabled() -> bool:
    return bool(jax.config.read("jax_enable_x64"))


def places() -> list[str]:
    out = []
    for platform in ("cpu", "gpu", "tpu"):
        try:
            devs = jax.devices(platform)
        except RuntimeError:
            continue
        out += [f"{platform}:{d.id}" for d in devs]
    return out


def parse_place(place: str | None) -> str:
    if place in (None, ""):
        return place_of_device(jax.devices()[0])
    platform, _, index = place.partition(":")
    platform = _PLATFORM_ALIASES.get(platform, platform)
    canon = f"{platform}:{index or 0}"
    if canon not in places():
        raise_unknown_place("jax", place, places())
    return canon


def native_device(place: str) -> jax.Device:
    platform, _, index = place.partition(":")
    for d in jax.devices(platform):
        if d.id == int(index):
            return d
    raise_unknown_place("jax", place, places())


def place_of_device(native: jax.Device) -> str:
    return f"{native.platform}:{native.id}"


# Per sharding: the place of its arrays (reading an array's device costs several times more).
_PLACES: dict[jax.sharding.Sharding, str] = {}


def place_of(x: jax.Array) -> str:
    if isinstance(x, jax.core.Tracer):  # no concrete device: JAX's default
        return place_of_device(jax.devices()[0])
    try:
        return _PLACES[x.sharding]
    except Exception:  # not seen yet, or an unhashable sharding: read the device
        pass
    dev = x.device
    if not hasattr(dev, "platform"):  # sharded arrays report a Sharding
        dev = next(iter(x.devices()))
    place = place_of_device(dev)
    with contextlib.suppress(TypeError):  # an unhashable sharding: no memo
        _PLACES[x.sharding] = place
    return place


def supports_dtype(dtype: _dtypes.DType, place: str) -> bool:
    return dtype.bits < 64 or dtype is _dtypes.complex64 or x64_enabled()


def unsupported_hint(dtype: _dtypes.DType) -> str:
    return (
        f"JAX holds {dtype} only with 64-bit mode on: call "
        "jax.config.update('jax_enable_x64', True) at startup (or set JAX_ENABLE_X64=1), "
        f"or use a 32-bit dtype."
    )


def synchronize(place: str, xs: list[jax.Array]) -> None:
    """Block until the arrays are computed (JAX tracks pending work per array)."""
    try:  # each array's own method: no pytree walk (synchronize runs in timing loops)
        for x in xs:
            x.block_until_ready()
    except AttributeError:
        jax.block_until_ready(xs)


def default_dtypes(place: str) -> dict[str, _dtypes.DType]:
    if x64_enabled():
        return {
            "real floating": _dtypes.float64,
            "complex floating": _dtypes.complex128,
            "integral": _dtypes.int64,
            "indexing": _dtypes.int64,
        }
    return {
        "real floating": _dtypes.float32,
        "complex floating": _dtypes.complex64,
        "integral": _dtypes.int32,
        "indexing": _dtypes.int32,
    }


def to_numpy(x: jax.Array) -> np.ndarray:
    import numpy as np

    if isinstance(x, jax.core.Tracer):
        raise TypeError(
            "cannot read a traced JAX value on the host inside jax.jit/vmap/grad; "
            "return it from the transformed function instead."
        )
    return np.asarray(x)


#: The compiled forms of basic indexing made so far (see :func:`basic_getitem`); emptied when
#: it is full.
_INDEXERS: dict[tuple[object, ...], Callable[..., jax.Array]] = {}
_INDEXERS_MAX = 512


def basic_getitem(x: jax.Array, key: object) -> jax.Array:
    """``x[key]``, compiled once per form of a basic key (its slices, ``None`` and ``...``, with
    its ints as arguments) where ``x`` is a concrete array; any other key, and a traced ``x``,
    as ``jax.numpy`` indexes.

    ``jax.numpy`` indexes eagerly through a gather or a slice built per call: 40-50 us for
    ``x[0]`` or ``x[1:3, 2]`` on the CPU, where the compiled form costs about 4 us. Its ints
    move to the device as arguments, as ``jax.numpy``'s own indexing moves them; the caller
    has checked them against the shape (JAX clamps an index out of bounds)."""
    form = _index_form(key)
    if form is None or isinstance(x, jax.core.Tracer):
        return cast("jax.Array", cast(Any, x)[key])
    return _indexer("get", form, _take)(x, *_dynamic_of(key))


def _indexer(
    kind: str, form: tuple[object, ...], fun: Callable[..., jax.Array]
) -> Callable[..., jax.Array]:
    """``fun`` with ``form`` bound, compiled (kept in :data:`_INDEXERS`)."""
    indexer = _INDEXERS.get((kind, form))
    if indexer is None:
        if len(_INDEXERS) >= _INDEXERS_MAX:
            _INDEXERS.clear()
        indexer = _INDEXERS[kind, form] = jax.jit(functools.partial(fun, form))
    return indexer


def _dynamic_of(key: object) -> list[object]:
    """The ints and integer arrays of a key of a form (:func:`_index_form`), in order."""
    return [
        k for k in (key if type(key) is tuple else (key,)) if type(k) is int or type(k) is _ARRAY
    ]


#: The class of JAX's concrete arrays (a key's integer arrays must be of it to be arguments).
_ARRAY = type(jnp.zeros(()))


def _index_form(key: object) -> tuple[object, ...] | None:
    """The form of a key: ``"int"`` for each int, ``"array"`` for each concrete integer array,
    ``(start, stop, step)`` for each slice, ``None`` and ``...`` as they are; None for a key
    of another kind (a boolean mask, whose result's shape depends on its values; a traced
    array), or one that selects nothing (``x[...]``, ``x[()]``: the array itself)."""
    form: list[object] = []
    selects = False
    for k in key if type(key) is tuple else (key,):
        t = type(k)
        if t is int:
            form.append("int")
        elif t is _ARRAY:
            if cast("jax.Array", k).dtype.kind not in "iu":
                return None
            form.append("array")
        elif t is slice:
            s = cast("slice", k)
            form.append((s.start, s.stop, s.step))
        elif k is None:
            form.append(None)
        elif k is Ellipsis:
            form.append(k)
            continue
        else:
            return None
        selects = True
    return tuple(form) if selects else None


def _key_of(form: tuple[object, ...], dynamic: tuple[object, ...]) -> tuple[object, ...]:
    """The key of ``form`` with ``dynamic`` (its ints and arrays) in their places."""
    given = iter(dynamic)
    return tuple(
        next(given)
        if f == "int" or f == "array"
        else slice(*cast("tuple[Any, ...]", f))
        if type(f) is tuple
        else f
        for f in form
    )


def _take(form: tuple[object, ...], x: jax.Array, *dynamic: object) -> jax.Array:
    return cast("jax.Array", cast(Any, x)[_key_of(form, dynamic)])


def _put(form: tuple[object, ...], x: jax.Array, value: object, *dynamic: object) -> jax.Array:
    return x.at[_key_of(form, dynamic)].set(value)


def _put_where(mask: jax.Array, x: jax.Array, value: object) -> jax.Array:
    """``x[mask] = value`` of a boolean mask over the leading axes and one value, as a
    selection that keeps its shape (compiled once per shape: the mask's own indexing would
    read its values)."""
    extra = (1,) * (x.ndim - mask.ndim)
    return jnp.where(jnp.reshape(mask, mask.shape + extra), jnp.asarray(value, x.dtype), x)


_PUT_WHERE = jax.jit(_put_where)


#: The Python numbers :func:`setitem` hands a compiled update as they are.
_NUMBERS = (bool, int, float, complex)


def setitem(x: jax.Array, key: object, value: object) -> jax.Array:
    """JAX arrays are immutable: the updated array replaces the wrapped one. A basic key of a
    concrete array with a number or a concrete array as the value runs compiled, once per
    form of the key (see :func:`basic_getitem`): ``x.at[key].set(value)`` takes 180-210 us
    eagerly on the CPU, the compiled update about 8 us."""
    import numpy as np

    if type(value) is int:
        # JAX takes a Python int as an int32 without 64-bit mode: one the caller has checked
        # against the array's dtype goes as a value of that dtype (a float for a
        # floating-point array: 2**40 fits float32, not int32).
        dt = np.dtype(x.dtype)
        value = float(value) if dt.kind in "fc" else np.asarray(value, dtype=dt)
    concrete = not isinstance(x, jax.core.Tracer) and (
        type(value) in _NUMBERS or type(value) in (type(x), np.ndarray)
    )
    if (
        concrete
        and type(key) is _ARRAY
        and key.dtype == np.bool_
        and key.shape == x.shape[: key.ndim]
        and np.ndim(cast("complex", value)) == 0
    ):
        return cast("jax.Array", _PUT_WHERE(key, x, value))
    form = _index_form(key)
    if form is None or not concrete:
        return x.at[key].set(value)
    return _indexer("set", form, _put)(x, value, *_dynamic_of(key))


# Transfer hooks (see arraymux._transfer).


def memory(place: str) -> tuple[str, int]:
    platform, _, index = place.partition(":")
    if platform == "cpu":
        return ("cpu", 0)
    return ("cuda" if platform == "gpu" else platform, int(index))


def fast_route(
    direction: str, place: str, other: str, other_place: str
) -> Callable[[jax.Array], np.ndarray | None] | None:
    """``to_device(x, "numpy")`` (``copy=None``) of an array in host memory: NumPy's read-only
    view of it, which the DLPack exchange also gives, at a fraction of its fixed cost."""
    if direction == "export" and other == "numpy" and place.startswith("cpu"):
        return host_view
    return None


def host_view(x: jax.Array) -> np.ndarray | None:
    """NumPy's read-only view of a JAX array in host memory, or None for a traced value (or
    one NumPy would hand out writable: a copy, not a view)."""
    import numpy as np

    if isinstance(x, jax.core.Tracer):  # the general path explains
        return None
    out = np.asarray(x)
    return None if out.flags.writeable else out  # never a writable view of an immutable array


def traced(x: jax.Array) -> bool:
    return isinstance(x, jax.core.Tracer)


stop_gradient = jax.lax.stop_gradient


# Bytes of a result that one live array may cost to scan for (about 0.5 us each on the CPU
# machine, where a copy into torch runs at about 3 KB/us; a GPU copies much faster than that).
_SCAN_BYTES = {"cpu": 2048}
_SCAN_BYTES_GPU = 65536


def unshared(x: jax.Array) -> bool:
    """Whether no other live JAX array holds ``x``'s buffer: ``jax.device_put`` to an array's
    own device makes a second array over the same buffer, and nothing counts them, so the
    live arrays of ``x``'s platform are scanned for its address. False (not known) for an
    array over several devices, and where the scan would cost more than copying ``x``."""
    if not isinstance(x, jax.Array) or isinstance(x, jax.core.Tracer):
        return False
    nbytes = x.size * x.dtype.itemsize
    if nbytes == 0:
        return True
    platform = x.platform()  # "cpu", "cuda", "rocm"...
    per_array = _SCAN_BYTES.get(platform, _SCAN_BYTES_GPU)
    if nbytes < per_array:  # x itself is live: copying costs less than listing them
        return False
    try:
        ptr = x.unsafe_buffer_pointer()  # one device only
    except Exception:
        return False
    live = jax.live_arrays(platform)
    if len(live) * per_array > nbytes:
        return False
    seen = 0
    for a in live:
        try:
            if a.unsafe_buffer_pointer() == ptr:
                seen += 1
        except Exception:  # over several devices: its shards
            try:
                seen += sum(s.data.unsafe_buffer_pointer() == ptr for s in a.addressable_shards)
            except Exception:
                return False
    return seen == 1  # x itself


def from_dlpack(obj: object, place: str | None, copy: bool | None) -> jax.Array:
    # Zero-copy only for row-major buffers aligned to 64 bytes; copy=False raises otherwise.
    # copy=True is done here: from_dlpack(copy=True) can still return a view of host memory.
    device = None if place is None else native_device(place)
    out = jax.dlpack.from_dlpack(obj, device=device, copy=None if copy else copy)
    return jnp.array(out, copy=True) if copy else out


def from_host(a: np.ndarray, place: str) -> jax.Array:
    from ._staging import STAGE_MIN

    device = native_device(place)
    if device.platform == "gpu" and a.nbytes >= STAGE_MIN:
        out = _gpu_upload(a, device)
        if out is not None:
            return out
    return jax.device_put(a, device)  # one copy into a buffer of JAX's own


def _cuda_ordinal(device: jax.Device) -> int:
    hardware = getattr(device, "local_hardware_id", None)
    return int(device.id if hardware is None else hardware)


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _gpu_upload(a: np.ndarray, device: jax.Device) -> jax.Array | None:
    """``a`` uploaded by torch's or CuPy's pipelined pinned upload, then taken over through
    DLPack (no copy on the GPU); None when neither can do it."""
    ordinal = _cuda_ordinal(device)
    uploads = []
    if _has("torch"):
        uploads.append(("torch", f"cuda:{ordinal}"))
    if _has("cupy"):
        uploads.append(("cupy", str(ordinal)))
    for backend, place in uploads:
        try:
            if backend == "torch":
                import torch

                if not torch.cuda.is_available():
                    continue
                from ._torch import upload
            else:
                from ._cupy import upload
            buf = upload(a, place)
            out = jax.dlpack.from_dlpack(buf)
        except (BufferError, ValueError, RuntimeError, TypeError, ImportError):
            continue  # e.g. a dtype this DLPack exchange does not carry
        if out.dtype != a.dtype or out.shape != a.shape:
            continue
        if place_of(out) != place_of_device(device):
            out = jax.device_put(out, device)
        return out
    return None


def _gpu_read(x: jax.Array) -> np.ndarray | None:
    """A host ndarray of ``x`` (one GPU array) read through torch's or CuPy's pinned download,
    taking ``x`` over through DLPack first; None when neither can do it."""
    if _has("torch"):
        try:
            import torch

            from ._torch import pinned_reads

            return pinned_reads([torch.from_dlpack(x)])[0].numpy()
        except (BufferError, ValueError, RuntimeError, TypeError, ImportError):
            pass
    if _has("cupy"):
        try:
            import cupy

            from ._cupy import to_host_many as cupy_reads

            return cupy_reads([cupy.from_dlpack(x)])[0]
        except (BufferError, ValueError, RuntimeError, TypeError, ImportError):
            pass
    return None


def _is_big_gpu(x: jax.Array) -> bool:
    from ._staging import PINNED_READ_MIN

    if traced(x) or x.nbytes < PINNED_READ_MIN:
        return False
    try:
        devices = x.devices()
    except Exception:
        return False
    return len(devices) == 1 and next(iter(devices)).platform == "gpu"


def to_host(x: jax.Array) -> np.ndarray:
    if _is_big_gpu(x):
        out = _gpu_read(x)
        if out is not None:
            return out
    return to_numpy(x)


def move_within(x: jax.Array, src: str, dst: str) -> jax.Array | None:
    """jax:gpu <-> jax:cpu through pinned memory (None: leave it to ``jax.device_put``)."""
    from ._staging import STAGE_MIN

    if traced(x):
        return None
    if src.startswith("gpu") and dst.startswith("cpu") and _is_big_gpu(x):
        host = _gpu_read(x)
        if host is None:
            return None
        return from_dlpack(host, dst, None)  # zero-copy when 64-byte aligned, else one copy
    if src.startswith("cpu") and dst.startswith("gpu") and x.nbytes >= STAGE_MIN:
        return from_host(np_view(x), dst)
    return None


def np_view(x: jax.Array) -> np.ndarray:
    import numpy as np

    return np.asarray(x)


def data_ptr(x: jax.Array) -> int:
    return int(x.unsafe_buffer_pointer())


_HOST_SHARDINGS: dict[jax.sharding.Sharding, bool] = {}


def _on_host(x: jax.Array) -> bool:
    """Whether ``x`` lives in host memory (memoised per sharding: reading the devices costs
    more than reading the array)."""
    sharding = x.sharding
    try:
        return _HOST_SHARDINGS[sharding]
    except KeyError:
        on = _HOST_SHARDINGS[sharding] = all(d.platform == "cpu" for d in x.devices())
        return on


def to_host_many(xs: list[jax.Array]) -> list[np.ndarray]:
    """Large GPU arrays through pinned memory, other device arrays with one batched
    ``device_get``; arrays in host memory as NumPy's view of them (batching them gains
    nothing: ``device_get`` of 64 small host arrays costs 4x reading them one by one)."""
    for x in xs:
        if traced(x):
            to_numpy(x)  # raises the error for traced values
    out: list[np.ndarray | None] = [None] * len(xs)
    rest = []
    for i, x in enumerate(xs):
        if _on_host(x):
            out[i] = to_numpy(x)
        elif _is_big_gpu(x):
            out[i] = _gpu_read(x)
        if out[i] is None:
            rest.append(i)
    if rest:
        for i, h in zip(rest, jax.device_get([xs[i] for i in rest])):
            out[i] = h
    return cast("list[np.ndarray]", out)  # every slot is filled above


_pytree_types: set[type] = set()


def register_pytree(array_type: type) -> None:
    """Make ``array_type`` (:class:`arraymux.Array`) a JAX pytree node whose leaf is its native
    array, so that ``jax.jit``, ``jax.vmap``, ``jax.vjp``... take and return Arrays (once).

    Called by the layer that defines the class when this backend loads."""
    if array_type in _pytree_types:
        return

    # (an Array's slots, named here: the registry sits below the Array class)
    def flatten(x: Any) -> tuple[tuple[object], object]:
        return (x._native,), x._device

    def unflatten(device: object, children: tuple[object, ...]) -> object:
        out: Any = object.__new__(array_type)
        out._native = children[0]
        out._device = device
        out._dtype = None
        return out

    jax.tree_util.register_pytree_node(array_type, flatten, unflatten)
    _pytree_types.add(array_type)
