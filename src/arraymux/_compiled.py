"""The compiled hot path, where the optional ``_speedups`` extension is built.

Each function of the hot path exists twice: the Python function made in
:mod:`arraymux._factories` (the reference, and the fallback for every call off the fast path)
and, when the extension is available, a builtin of the same name that does the fast path in C
and hands everything else to the Python function. The operators of ``Array`` are one-line
Python methods that call such builtins. ``ARRAYMUX_PURE_PYTHON=1`` turns the builtins off.
torch.compile cannot look inside a builtin, so :func:`register_for_dynamo` tells it to trace
the Python twin instead.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from . import _dtypes
from ._backends import TYPE_CACHE, on_load, real_base
from ._dtype_rules import result_dtype, scalar_dtype
from ._function_table import COMMUTATIVE

if TYPE_CHECKING:
    from ._backends import Backend
    from ._devices import Device, ScalarPlan

_F = TypeVar("_F", bound=Callable[..., object])
_T = TypeVar("_T")


__all__ = [
    "ENABLED",
    "function",
    "natives",
    "device_of",
    "dtypes_in",
    "wrap_tree",
    "convert_tree",
    "graph_reaches",
    "operator",
    "operator_slots",
    "python_twin",
    "register_for_dynamo",
    "register_for_dynamo_on_import",
    "scalar_plan",
    "where_plan",
    "where_plan_of",
    "threefry2x32",
    "normal_f32",
    "uniform_f32",
    "uniform_f64",
    "normal_f64",
    "integers",
    "threefry_pair",
    "threefry_keys",
]


# ---------------------------------------------------------------------------------------------
# Scalar plans: how the fast path calls a function on an array and a Python scalar


_PROBE_VALUES: dict[type, complex] = {bool: True, int: 1, float: 1.0, complex: 1j}
_INTEGER_KINDS = ("signed integer", "unsigned integer")


def scalar_plan(
    name: str, device: Device, dtype: object, kind: type, position: int
) -> ScalarPlan | None:
    """How the compiled fast path may call ``name`` on an array of native ``dtype`` on
    ``device`` and a Python scalar of type ``kind`` at ``position`` (0 or 1), or None where it
    must take :func:`arraymux._dispatch.binary_slow`.

    A plan is ``(fn, result dtype, lo, hi, zero_d, swap)``: call ``fn`` with the native array
    and the scalar itself, in their order (``swap``: the array first in any case), and label
    the result with the result dtype. It exists only
    where :func:`arraymux._dispatch.binary_slow` would do exactly that: the scalar leaves the array's dtype as it
    is (``lo``/``hi``: the range an int scalar must be in, or None), the adapter passes the
    scalar as it is (``zero_d``: False, or, where it does so only beside arrays of one or more
    dimensions, the function for 0-d arrays, which makes the adapter's array of the scalar),
    no emulation runs, and the result's dtype is known. Plans are cached per device."""
    key = (name, dtype, kind, position)
    plans = device._scalar_plans
    if key in plans:
        return plans[key]
    try:
        plan = _scalar_plan(name, device, dtype, kind, position)
    except Exception:  # the slow path meets the same problem and explains it
        plan = None
    plans[key] = plan
    return plan


def _scalar_plan(
    name: str, device: Device, dtype: object, kind: type, position: int
) -> ScalarPlan | None:
    backend = device._backend
    value = _PROBE_VALUES.get(kind)
    if value is None:
        return None
    dt = backend.dtype_from_native(dtype)
    if scalar_dtype(name, value, dt, device) is not dt:
        return None  # the array is cast first
    rt = result_dtype(device, name, dt)
    if rt is None:
        return None
    creation = device._fns["zeros"]
    native_dtype = backend.array_dtypes_by_name.get(dt.name, dtype)
    fn = device._fns[name]
    refused = getattr(fn, "refused", None)
    if refused is not None and native_dtype not in refused:
        fn = fn.__wrapped__  # operands of a kind the backend's function takes as they are
    if dt.kind != "complex floating" and kind is not complex:
        fn = real_base(fn)  # a real array and a real scalar: no complex special case applies
    probes = [creation(shape, dtype=native_dtype) for shape in ((1,), ())]
    passes = _scalar_passes(backend, name, value, position, probes)
    swap = False  # call fn(array, scalar) although the scalar came first
    if passes is None:
        return None
    if not passes[0] and position == 0:
        # The adapter makes an array of a scalar on the left (torch); on the right it takes
        # the scalar itself: for functions whose operands commute, and those the adapter
        # computes in reverse (torch.rsub for subtract), the scalar goes on the right.
        reverse = backend.hooks.reversed.get(name)
        if name in COMMUTATIVE or reverse is not None:
            passes = _scalar_passes(backend, name, value, 1, probes)
            if reverse is not None:
                fn = (
                    reverse
                    if dt.kind == "complex floating" or kind is complex
                    else real_base(reverse)
                )
            swap = True
    if passes is None or not passes[0]:
        return None
    lo = hi = None
    if kind is int:  # beside floats, ints beyond int64 take the slow path (made floats there)
        lo, hi = _dtypes.int_range(dt if dt.kind in _INTEGER_KINDS else _dtypes.int64)
    # The backend's function takes arrays only where a kernel takes the scalar itself.
    kernel = backend.hooks.scalar_kernels.get(name)
    plain = fn if kernel is None else kernel
    zero_d: Callable[..., object] | Literal[False] = (
        False if passes[1] else _zero_d(backend, name, fn, plain, position == 1 or swap)
    )
    return (plain, rt, lo, hi, zero_d, swap)


#: How the fast path of ``where`` calls the device's function: ``(fn, float_ok, bool_ok,
#: int_ok, lo, hi)`` (see :func:`where_plan`).
WherePlan = tuple[Callable[..., object], bool, bool, bool, "int | None", "int | None"]
_WHERE_PLANS: dict[tuple[Device, object, object], WherePlan | None] = {}


def where_plan(device: Device, condition_dtype: object, dtype: object) -> WherePlan | None:
    """How the fast path may call ``where`` on ``device`` with a condition of native dtype
    ``condition_dtype`` and operands of native ``dtype``, or None where the Python function
    must decide (a condition that is not bool, a dtype outside the standard).

    A plan is ``(fn, float_ok, bool_ok, int_ok, lo, hi)``: ``fn`` is the device's ``where``,
    called on the natives and on the Python scalars that keep ``dtype`` as it is, which the
    flags name (a float beside floating-point arrays, a bool beside bool arrays, an int within
    ``lo`` and ``hi`` beside numbers); the result has ``dtype``. Both fast paths, in C and in
    Python, follow the plan, so they take the same calls."""
    key = (device, condition_dtype, dtype)
    if key in _WHERE_PLANS:
        return _WHERE_PLANS[key]
    plan = _WHERE_PLANS[key] = where_plan_of(device, condition_dtype, dtype)
    return plan


def _where_scalars(dt: _dtypes.DType) -> tuple[bool, bool, bool, int | None, int | None]:
    floating = dt.kind in _dtypes.FLOATING_KINDS
    integral = dt.kind in _INTEGER_KINDS
    lo = hi = None
    if floating or integral:  # beside floats, ints beyond int64 take the Python function
        lo, hi = _dtypes.int_range(dt if integral else _dtypes.int64)
    return (floating, dt.kind == "bool", floating or integral, lo, hi)


#: Per dtype of ``where``'s operands, the plan's flags (see :func:`where_plan`): fixed, so that
#: torch.compile, which traces :func:`where_plan_of`, reads a table that never changes.
_WHERE_SCALARS = {dt: _where_scalars(dt) for dt in _dtypes.ALL_DTYPES}


def where_plan_of(device: Device, condition_dtype: object, dtype: object) -> WherePlan | None:
    """:func:`where_plan` made afresh, without its cache: what the Python function follows,
    which torch.compile traces (a cache filled while tracing would make it trace again)."""
    known = device._known
    dt = known.get(dtype)
    if dt is None or known.get(condition_dtype) is not _dtypes.bool:
        return None
    return (device._fns["where"], *_WHERE_SCALARS[dt])


def _zero_d(
    backend: Backend,
    name: str,
    fn: Callable[..., object],
    plain: Callable[..., object],
    array_first: bool,
) -> Callable[..., object]:
    """The plan's function for 0-d arrays, where the adapter makes an array of the scalar
    beside them (torch: a 0-d tensor filled on the device) and calls ``fn``, in the plan's
    argument order; where the adapter's ``scalars_beside_0d`` says so at the call, ``plain``
    (what the plan calls beside larger arrays) with the scalar itself."""
    made = backend.adapter.scalar_operand
    now = backend.hooks.scalars_beside_0d
    if now is None:
        if array_first:
            return lambda a, s: fn(a, made(name, s, a, 1))
        return lambda s, a: fn(made(name, s, a, 0), a)
    if array_first:
        return lambda a, s: plain(a, s) if now() else fn(a, made(name, s, a, 1))
    return lambda s, a: plain(s, a) if now() else fn(made(name, s, a, 0), a)


def _scalar_passes(
    backend: Backend, name: str, value: complex, position: int, probes: list[object]
) -> list[bool] | None:
    """For each probe array, whether the adapter passes the scalar beside it as it is; None
    where the backend emulates ``name`` for the probes' dtype."""
    out = []
    for probe in probes:
        out.append(backend.adapter.scalar_operand(name, value, probe, position) is value)
        if backend.emulate is not None:
            args = [probe, value] if position == 1 else [value, probe]
            if backend.emulate(name, backend.fns, args, {}) is not NotImplemented:
                return None
    return out


def _load() -> ModuleType | None:
    if os.environ.get("ARRAYMUX_PURE_PYTHON", "").strip() not in ("", "0"):
        return None
    try:
        # (by name: a compiled module, which the type checker does not read)
        _speedups = importlib.import_module(f"{__package__}._speedups")
    except ImportError:
        return None
    from ._array import Array
    from ._backend_errors import BACKEND_ERRORS
    from ._devices import Device
    from ._signatures import BOOL_KEYWORDS, WORDS

    _speedups.setup(
        Array, Device, TYPE_CACHE, BACKEND_ERRORS, scalar_plan, where_plan, BOOL_KEYWORDS, WORDS
    )
    # ``x[key]`` of a basic key on a device that indexes plainly runs from Array's subscript
    # slot; ``Array.__getitem__`` stays the reference (and what torch.compile traces).
    _speedups.index_slot()
    # torch.compile traces the Python twins of the builtins (registered once dynamo loads).
    on_load("torch", lambda backend: register_for_dynamo_on_import())
    return _speedups


_ext = _load()
ENABLED: bool = _ext is not None

#: ``threefry2x32(k0, k1, counter, out0, out1)``: the Threefry-2x32 rounds in C over uint32
#: buffers (see ``_speedups.c``), or None where the extension is off; the Python twin is
#: :func:`arraymux.random._threefry.threefry_numpy`'s own loop of NumPy operations.
threefry2x32: Callable[..., None] | None = None if _ext is None else _ext.threefry2x32
#: ``normal_f32(k0, k1, counter, out, constants)``: float32 normals of Threefry words in C (see
#: ``_speedups.c``), or None; the Python twin is :func:`arraymux.random._core.normal_kernel`'s
#: own path through ``floats`` and ``normal_of``.
normal_f32: Callable[..., None] | None = None if _ext is None else _ext.normal_f32
#: ``uniform_f32(k0, k1, start, out)``: float32 uniforms of Threefry words in C, or None; the
#: Python twin is :func:`arraymux.random._core.floats`.
uniform_f32: Callable[..., None] | None = None if _ext is None else _ext.uniform_f32
#: ``uniform_f64(k0, k1, start, out)``: float64 uniforms of Threefry words in C, or None; the
#: Python twin is :func:`arraymux.random._core.floats`.
uniform_f64: Callable[..., None] | None = None if _ext is None else _ext.uniform_f64
#: ``normal_f64(k0, k1, start, out, constants)``: float64 normals of Threefry words in C, or
#: None; the Python twin is :func:`arraymux.random._core.normal_kernel`'s own path.
normal_f64: Callable[..., None] | None = None if _ext is None else _ext.normal_f64
#: ``integers(k0, k1, start, out, span, low)``: ``jax.random.randint``'s integers in C, or
#: None; the Python twin is the NumPy path of :func:`arraymux.random._core._integers_kernel`.
integers: Callable[..., None] | None = None if _ext is None else _ext.integers
#: ``threefry_pair(k0, k1, c0, c1) -> (y0, y1)``: Threefry of one counter on ints in C, or
#: None; the Python twin is :func:`arraymux.random._threefry.threefry2x32_int_ops`.
threefry_pair: Callable[[int, int, int, int], tuple[int, int]] | None = (
    None if _ext is None else _ext.threefry_pair
)
#: ``threefry_keys(k0, k1, start, out)``: the keys of consecutive counters as the rows of an
#: ``(n, 2)`` uint32 array in C, or None; the Python twin is
#: :func:`arraymux.random._threefry.threefry_numpy_ops` of the counters, stacked.
threefry_keys: Callable[..., None] | None = None if _ext is None else _ext.threefry_keys

# builtin -> the Python function it stands for
_TWINS: dict[int, tuple[Callable[..., object], Callable[..., object]]] = {}
_dynamo_done = False


def _python_path(*args: object) -> None:
    """What :func:`natives` and :func:`wrap_tree` return where the Python path must run: what
    torch.compile traces in their place."""
    return None


if _ext is not None:
    for _fn in (_ext.natives, _ext.device_of, _ext.dtypes_in, _ext.wrap_tree):
        _TWINS[id(_fn)] = (_fn, _python_path)


def _text_signature(fn: Callable[..., object], first: str) -> str:
    """``fn``'s signature as a builtin's ``__text_signature__`` (no annotations)."""
    sig = inspect.signature(fn)
    sig = sig.replace(
        parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
        return_annotation=sig.empty,
    )
    text = str(sig)
    return f"({first}, {text[1:]}" if text != "()" else f"({first})"


def function(
    kind: str,
    name: str,
    slow: _F,
    keeps_dtype: bool = False,
    max_args: int = -1,
    keywords: frozenset[str] | None = None,
) -> _F:
    """The builtin for the standard function ``name`` (kind ``"binary"``, ``"unary"``,
    ``"first"`` or ``"where"``) that falls back to ``slow``; ``slow`` itself where the
    extension is absent.

    A ``"first"`` builtin takes its fast path only for calls with at most ``max_args``
    positional arguments (-1: any), keywords among ``keywords`` and plain values after the
    array; every other call goes to ``slow``, which checks it."""
    if _ext is None:
        return slow
    code = {
        "binary": _ext.BINARY,
        "unary": _ext.UNARY,
        "first": _ext.FIRST,
        "where": _ext.WHERE,
    }[kind]
    doc = f"{slow.__name__}{_text_signature(slow, '$module')}\n--\n\n{slow.__doc__ or ''}"
    fn = _ext.function(
        code, name, slow.__name__, slow.__module__, doc, slow, keeps_dtype, max_args, keywords
    )
    _TWINS[id(fn)] = (fn, slow)
    return fn


def operator(dunder: str, fn: Callable[..., object], unary: bool = False) -> Callable[..., object]:
    """The method of ``Array`` for the operator ``dunder`` (``"__add__"``) that calls ``fn``:
    ``fn`` itself where it is a Python function (it binds as a method), else a one-line Python
    method over the builtin (torch.compile traces operators only through Python methods)."""
    if python_twin(fn) is fn:
        return fn
    if unary:

        def method_unary(self: object, /) -> object:
            return fn(self)

        method: Callable[..., object] = method_unary
    else:

        def method_binary(self: object, other: object, /) -> object:
            return fn(self, other)

        method = method_binary
    method.__name__ = method.__qualname__ = dunder
    method.__doc__ = fn.__doc__
    method.__module__ = "arraymux"
    return method


def operator_slots(builtins: dict[str, Callable[..., object]]) -> None:
    """Run the builtins' fast paths straight from ``Array``'s operator slots.

    ``builtins`` maps an operator's short name (``"add"``, ``"eq"``, ``"neg"``) to the builtin
    its Python method (made by :func:`operator`) calls. The methods stay in the class (the
    reference, and what torch.compile traces); CPython's own slots for them become C functions
    that take the fast path for exact Arrays and call the methods for everything else, which
    saves the frame of the method on every operator. Nothing where the extension is absent.
    """
    if _ext is not None:
        _ext.number_slots({k: fn for k, fn in builtins.items() if python_twin(fn) is not fn})


# The trees that come back have the shape of the trees passed, which no annotation can say:
# their callers unpack them as they built them.


def natives(tree: object) -> tuple[Any, Device] | None:
    """``(tree with its Arrays unwrapped, their device)`` for a tree of tuples, lists and dicts
    of Arrays of one device and Python scalars; None for anything else (or without the
    extension): the caller then takes its Python path."""
    return None


def device_of(tree: object) -> Device | None:
    """The one device of the Arrays of a tree of tuples, lists and dicts of Arrays and Python
    scalars (what :func:`natives` accepts), without unwrapping anything; None for anything
    else, for a tree without Arrays, or without the extension."""
    return None


def dtypes_in(tree: object, dtypes: frozenset[object]) -> bool:
    """Whether every leaf of a tree of tuples, lists and dicts is an Array whose cached native
    dtype is in ``dtypes``; False where that cannot be told from the Arrays (or without the
    extension): the caller then checks the natives."""
    return False


def wrap_tree(tree: object, device: Device) -> Any:
    """``tree`` with the native arrays of ``device``'s backend wrapped as Arrays on
    ``device``, or None where the tree holds anything else (the caller wraps it in Python)."""
    return None


def convert_tree(
    tree: object, type_: type[_T], fn: Callable[[_T], object], device: Device | None = None
) -> Any:
    """``tree`` with every leaf of exactly ``type_`` replaced by ``fn(leaf)``, wrapped as an
    Array on ``device`` when one is given; None where the tree holds other leaves than those,
    Python scalars and None (or without the extension): the caller converts it in Python."""
    return None


def graph_reaches(roots: list[Any], mine: set[int], accumulate: type, inner: str) -> bool | None:
    """Whether the autograd graph below the nodes ``roots`` reaches a leaf node (of type
    ``accumulate``) whose variable's id is not in ``mine`` and whose attribute ``inner`` is
    not true; None without the extension (the caller walks the graph in Python)."""
    return None


if _ext is not None:
    # The extension's functions themselves: on the transforms' hot paths a Python call around
    # each would cost more than the walk.
    natives = _ext.natives
    device_of = _ext.device_of
    dtypes_in = _ext.dtypes_in
    wrap_tree = _ext.wrap_tree
    convert_tree = _ext.convert_tree
    graph_reaches = _ext.graph_reaches


def python_twin(fn: Callable[..., object]) -> Callable[..., object]:
    """The Python function a builtin of the hot path stands for (``fn`` if it is not one)."""
    entry = _TWINS.get(id(fn))
    return entry[1] if entry is not None and entry[0] is fn else fn


def register_for_dynamo() -> None:
    """Let torch.compile trace the Python twin of every builtin (idempotent).

    Called when torch's dynamo is in use: by :func:`arraymux.jit` on torch arrays, and when
    the torch backend loads after ``torch._dynamo`` was imported.
    """
    global _dynamo_done
    if _dynamo_done or not _TWINS:
        return
    import torch._dynamo

    substitute = getattr(torch._dynamo, "substitute_in_graph", None)
    if substitute is None:  # torch < 2.5: dynamo breaks the graph at the builtins
        _dynamo_done = True
        return
    for fn, slow in list(_TWINS.values()):
        try:
            substitute(fn, skip_signature_check=True)(slow)
        except (TypeError, ValueError):
            continue
    _dynamo_done = True


def register_for_dynamo_on_import() -> None:
    """Register the twins now if dynamo is loaded (torch backend load); else
    :mod:`arraymux._dynamo` does as soon as it is."""
    if _TWINS and not _dynamo_done and "torch._dynamo" in sys.modules:
        register_for_dynamo()
