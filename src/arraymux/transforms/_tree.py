"""The pytree walks of the transforms: find the arrays' device, unwrap Arrays into natives and
wrap natives back, convert leaves between a backend and its engine."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from .. import _compiled, _dtypes
from .._array import Array, operand, wrap
from .._backends import backend_of_type, specs
from .._devices import Device, get_default_device
from .._dispatch import SCALARS
from .._errors import BackendMismatchError, DeviceMismatchError
from ._pytrees import NODES

if TYPE_CHECKING:
    from jax.core import ShapedArray

    from .._backends import Backend
    from .._typing import NativeArray

#: What the transforms take and return: arrays (arraymux's or a backend's) and Python scalars
#: in tuples (named tuples too), lists and dicts (a registered class stands as its own type).
PyTree: TypeAlias = (
    "Array | NativeArray | complex | str"
    " | tuple[PyTree, ...] | list[PyTree] | dict[Hashable, PyTree] | None"
)

__all__ = [
    "argument_path",
    "CALL",
    "convert_natives",
    "device_of",
    "ENGINE_API",
    "engine_backends",
    "find",
    "float_natives",
    "Foreign",
    "FLOATING",
    "function_name",
    "is_float",
    "JVP",
    "map_leaves",
    "PyTree",
    "natives_of",
    "Slow",
    "unwrap_all",
    "VJP",
    "wrap_all",
]


class Foreign(Protocol):
    """What an engine's crossing primitive reads of one call of a function crossed to another
    device inside a transform (``on_device``'s ``_crossing._Foreign``)."""

    fun: Callable[..., object]
    target: Device
    home: Device
    floats: list[bool]
    out_floats: list[bool]
    keep_pull: bool
    avals: dict[Hashable, tuple[ShapedArray, ...]]

    def run(
        self, kind: int, nb: int, natives: Sequence[NativeArray], back: Device | None = None
    ) -> list[NativeArray]: ...


#: What each engine module (``_torch``, ``_jax``) defines for the transforms.
ENGINE_API = (
    "checkpoint",
    "CHECKPOINT_POLICIES",
    "crossing",
    "grad",
    "hessian",
    "jacobian",
    "jit",
    "JIT_TAKES_ARRAYS",
    "jvp",
    "value_and_grad",
    "vjp",
    "vmap",
)

# The kinds of foreign computation a crossing primitive performs (see _crossing).
CALL, VJP, JVP = 0, 1, 2

FLOATING = ("real floating", "complex floating")


# -- pytrees ----------------------------------------------------------------------------------


def map_leaves(fn: Callable[[Any, str], object], tree: Any, path: str = "") -> Any:
    """``tree`` with every leaf replaced by ``fn(leaf, path)``; the nodes are those of
    :mod:`._pytrees` (tuple, list, dict, named tuples, registered classes)."""
    t = type(tree)
    if t is tuple or t is list:
        return t(map_leaves(fn, v, f"{path}[{i}]") for i, v in enumerate(tree))
    if t is dict:
        return {k: map_leaves(fn, v, f"{path}[{k!r}]") for k, v in tree.items()}
    node = NODES.get(t)
    if node is not None:
        children, aux = node.flatten(tree)
        names = node.names
        return node.unflatten(
            aux,
            [
                map_leaves(fn, v, f"{path}.{names[i]}" if names else f"{path}[{i}]")
                for i, v in enumerate(children)
            ],
        )
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t(*(map_leaves(fn, v, f"{path}.{f}") for f, v in zip(tree._fields, tree)))
    return fn(tree, path)


def map_plain(fn: Callable[[Any], object], tree: Any) -> Any:
    """``tree`` with every leaf replaced by ``fn(leaf)``: :func:`map_leaves` without the
    paths, for the walks that run on every call."""
    t = type(tree)
    if t is tuple or t is list:
        return t([map_plain(fn, v) for v in tree])
    if t is dict:
        return {k: map_plain(fn, v) for k, v in tree.items()}
    node = NODES.get(t)
    if node is not None:
        children, aux = node.flatten(tree)
        return node.unflatten(aux, [map_plain(fn, v) for v in children])
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t(*[map_plain(fn, v) for v in tree])
    return fn(tree)


def _visit_at(
    visit: Callable[[object, str], object], pos: int | str, leaf: object, path: str
) -> object:
    return visit(leaf, argument_path(pos, path))


def argument_path(pos: int | str, path: str) -> str:
    return f"argument {pos}{path}" if isinstance(pos, int) else f"{pos}{path}"


def function_name(fun: object) -> str:
    return getattr(fun, "__name__", None) or type(fun).__name__


def engine_backends() -> str:
    out = []
    for s in specs():
        if s.autodiff:
            out.append(f"{s.name} (through {s.autodiff})" if s.bridged else s.name)
    return ", ".join(out)


# -- fast paths -------------------------------------------------------------------------------
#
# The walks below run on every call of a transformed function, so they build no paths and
# no closures. Anything unusual (arrays on two devices, a Python scalar to differentiate, a
# non-floating input) raises ``Slow``, and the call redoes its work on the slow path, which
# knows where each leaf is and explains the problem.


class Slow(Exception):
    """The fast path cannot handle these arguments: take the slow one."""


_REAL: set[tuple[type, object]] = set()  # native dtypes known to be real floating
_FLOAT: set[tuple[type, object]] = set()  # native dtypes known to be real or complex floating


def is_float(backend: Backend, dtype: object, real: bool = False) -> bool:
    known = _REAL if real else _FLOAT
    key = (type(dtype), dtype)  # some dtypes refuse comparisons with other backends' ones
    try:
        if key in known:
            return True
        kind = backend.dtype_from_native(dtype).kind
    except Exception:
        return False
    ok = kind == "real floating" if real else kind in FLOATING
    if ok:
        known.add(key)
    return ok


def _all_float(tree: object, device: Device) -> bool:
    """Whether every leaf of ``tree`` (natives, in tuples, lists and dicts) is a floating
    array of ``device``'s backend."""
    backend = device._backend
    return _leaves_float(tree, backend, float_natives(backend))


# (backend name, real only) -> the native dtypes of that backend's floating arrays
_REAL_FLOATING = frozenset({"real floating"})


def float_natives(backend: Backend, real: bool = False) -> frozenset[object]:
    """The native dtypes of ``backend``'s floating arrays (real ones only with ``real``)."""
    return backend.natives_of(_REAL_FLOATING if real else _dtypes.FLOATING_KINDS)


def _leaves_float(tree: Any, backend: Backend, floats: frozenset[object]) -> bool:
    t = type(tree)
    if t is tuple or t is list or t is dict or t in NODES:
        if t is dict:
            children: Iterable[object] = tree.values()
        elif t in NODES:
            children = NODES[t].flatten(tree)[0]
        else:
            children = tree
        return all(_leaves_float(v, backend, floats) for v in children)
    if isinstance(tree, SCALARS) or tree is None:
        return False
    dtype = getattr(tree, "dtype", None)
    if dtype is None:
        return False
    try:
        if dtype in floats:
            return True
    except TypeError:  # an unhashable dtype
        pass
    return is_float(backend, dtype)


def natives_of(tree: Any, found: list[Device], diff: bool) -> object:
    """``tree`` with its arrays replaced by their natives, all on ``found[0]`` (set by the
    first array when ``found`` is empty); with ``diff``, every leaf must be a floating array."""

    def native_of(leaf: object) -> object:
        op = operand(leaf)
        if op is None:
            if diff:
                raise Slow
            return leaf
        native, dev = op
        if not found:
            found.append(dev)
        elif dev is not found[0]:
            raise Slow
        if diff and not is_float(dev._backend, native.dtype):
            raise Slow
        return native

    return map_plain(native_of, tree)


def device_of(
    tname: str, *groups: tuple[int | str, object], expect: tuple[Device, str] | None = None
) -> Device:
    """The one device of every array in ``groups`` (pairs of position and pytree), else the
    default device; arrays on two devices raise an error that names both places."""
    found: list[tuple[Device, str]] = [expect] if expect else []

    def visit(leaf: object, where: str) -> object:
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
        map_leaves(functools.partial(_visit_at, visit, pos), tree)
    return found[0][0] if found else get_default_device()


def find(
    tname: str,
    args: Sequence[object],
    kwargs: Mapping[str, object] | None = None,
    wanted: frozenset[int] = frozenset(),
) -> tuple[Device, Any, bool]:
    """The device of the arrays of a transformed function's arguments, and the arguments as
    natives of that device: ``(device, natives, only_arrays)``.

    ``natives`` is the tuple of positional natives (``(args, kwargs)`` when ``kwargs`` is
    given), or None where the arguments need the engine's leaf-by-leaf crossing (no array at
    all, a Python scalar or a non-floating array at a position in ``wanted``); ``only_arrays``
    says the arguments held Arrays and Python scalars only (what the compiled walk takes).
    Arrays on two devices raise the error of :func:`device_of`. Every transform finds its
    arguments' device here: the compiled walk first, then the Python walk, then the slow one.
    """
    tree = args if kwargs is None else (args, kwargs)
    fast = _compiled.natives(tree)
    if fast is not None:
        natives, dev = fast
        pos = natives if kwargs is None else natives[0]
        floats = float_natives(dev._backend)
        for i in wanted:
            if not (_compiled.dtypes_in(args[i], floats) or _all_float(pos[i], dev)):
                break
        else:
            return dev, natives, True
    found: list[Device] = []
    try:
        pos = tuple([natives_of(a, found, i in wanted) for i, a in enumerate(args)])
        natives = pos if kwargs is None else (pos, natives_of(kwargs, found, False))
        if found:
            return found[0], natives, False
    except Slow:
        pass
    return device_of(tname, *enumerate(args), *(kwargs or {}).items()), None, False


def convert_natives(tree: Any, fn: Callable[[Any], object], backend: Backend) -> Any:
    """``tree`` with every native array of ``backend`` replaced by ``fn(array)``."""

    def convert(leaf: Any) -> object:
        # isinstance first: inside torch.compile, a lookup in the type cache would add guards.
        if isinstance(leaf, backend.array_classes):
            return fn(leaf)
        if isinstance(leaf, SCALARS) or leaf is None:
            return leaf
        if backend_of_type(type(leaf)) is backend:  # a class whose module came after
            return fn(leaf)
        # An Array's native may be what the backend returns for a 0-d result (NumPy: a
        # scalar).
        normalized = backend.normalize(leaf)
        if normalized is not leaf and isinstance(normalized, backend.array_classes):
            return fn(normalized)
        return leaf

    return map_plain(convert, tree)


def wrap_all(tree: object, backend: Backend, device: Device) -> Any:
    """``tree`` with every native array of ``backend`` wrapped as an Array on ``device``."""
    if device._backend is backend:
        fast = _compiled.wrap_tree(tree, device)
        if fast is not None:
            return fast
    return convert_natives(tree, lambda native: wrap(native, device), backend)


def unwrap_all(tree: Any, backend: Backend) -> Any:
    """``tree`` with its Arrays (which must be of ``backend``) replaced by their natives."""
    fast = _compiled.natives(tree)
    if fast is not None and fast[1]._backend is backend:
        return fast[0]
    t = type(tree)
    if t is Array:
        if tree._device._backend is not backend:
            raise Slow
        return tree._native
    if t is tuple or t is list:
        return t([unwrap_all(v, backend) for v in tree])
    if t is dict:
        return {k: unwrap_all(v, backend) for k, v in tree.items()}
    if t in NODES:
        children, aux = NODES[t].flatten(tree)
        return NODES[t].unflatten(aux, [unwrap_all(v, backend) for v in children])
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return t(*[unwrap_all(v, backend) for v in tree])
    return tree
