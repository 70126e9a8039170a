"""The functions of :mod:`arraymux.special`, made from their records: the argument checks, the
dtype rule, the routing to the backend and device of the array operands, the call of the
backend's implementation (:mod:`._sources`) and the wrapping of its result.

The dtype rule is SciPy's: the array operands are promoted to one dtype (arraymux's
promotion, with Python scalars weak); a floating dtype stays (float32 in, float32 out); bool
and integer operands compute in float64, or in the device's default float where the device
holds no float64 (JAX without x64) or a default dtype policy names a float; complex operands
are taken by the functions SciPy defines for them and refused by the others. Integer operands
of SciPy's integer parameters (``Special.integer``) stay integers.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .. import _compiled, _dtypes
from .._arguments import Params, check_call, parse, python_scalar
from .._array import Array, operand, wrap
from .._backend_errors import BACKEND_ERRORS, raise_annotated
from .._creation_functions import asarray
from .._default_dtypes import get_default_dtypes
from .._devices import Device, closure_constant, constant_bridge
from .._docstrings import set_signature
from .._dtype_rules import (
    NOT_FLOATING_KINDS,
    astype_native,
    default_dtype,
    scalar_dtype,
    standard_dtype,
)
from .._errors import mismatch, not_an_array
from .._records.special import BY_NAME, RECORDS, Special
from .._typing import NativeArray
from ._docs import docstring
from ._sources import KEY, implementation

__all__ = ["call", "function"]

_SCALARS = (bool, int, float, complex)
_INTEGER_KINDS = ("signed integer", "unsigned integer")
_F32 = _dtypes.float32
_F64 = _dtypes.float64

# SciPy's signatures, made in one go: exec once for every record (a parse each would cost
# about 30 us per function at import).
_SIGNATURES: dict[str, inspect.Signature] = {}


def _signatures() -> dict[str, inspect.Signature]:
    if not _SIGNATURES:
        src = "\n".join(f"def f{i}{rec.signature}: pass" for i, rec in enumerate(RECORDS))
        ns: dict[str, object] = {}
        exec(compile(src, "<arraymux.special signatures>", "exec"), ns)
        for i, rec in enumerate(RECORDS):
            f = ns[f"f{i}"]
            assert callable(f)  # the function defined above
            _SIGNATURES[rec.name] = inspect.signature(f)
    return _SIGNATURES


_PARAMS: dict[str, Params] = {}


def _params(rec: Special) -> Params:
    p = _PARAMS.get(rec.name)
    if p is None:
        p = _PARAMS[rec.name] = parse(rec.signature)
    return p


def function(name: str) -> Callable[..., Array]:
    """The public function of the special function ``name``.

    A function of one operand is compiled like the standard's unary functions
    (:func:`arraymux._compiled.function`): the C hot path calls the backend's implementation
    for an Array of float32 or float64 (the entries :func:`._sources.register` makes), and
    everything else goes to the Python function made here, its twin, which takes the same
    hot path in Python and hands every other call to :func:`call`. Functions of several
    operands take a Python hot path for Arrays of one device and one floating dtype."""
    rec = BY_NAME[name]
    key = KEY.format(name)
    arity = len(rec.parameters)
    compiled = arity == 1 and not rec.ints

    if compiled:
        plain = f"{key}(x)"
        skip = f"{key}(x) not for"

        def fn(*args: object, **kwargs: object) -> Array:
            if len(args) == 1 and not kwargs:
                x = args[0]
                if type(x) is Array:
                    d = x._device
                    fns = d._fns
                    if key in fns:
                        t = x._dtype
                        if t is None:
                            t = x._dtype = x._native.dtype
                        f = fns[key] if t in fns[skip] else fns[plain]
                        try:
                            r = f(x._native)
                        except BACKEND_ERRORS:
                            return call(rec, args, kwargs)  # casts, or explains the error
                        rt = d._results[key].get(t)
                        if rt is None:
                            rt = r.dtype
                            if rt not in d._known:
                                return call(rec, args, kwargs)
                        out = object.__new__(Array)
                        out._native = r
                        out._device = d
                        out._dtype = rt
                        return out
            return call(rec, args, kwargs)

    else:
        fast = arity if not rec.ints else -1

        def fn(*args: object, **kwargs: object) -> Array:
            if len(args) == fast and not kwargs:
                x = args[0]
                if type(x) is Array:
                    d = x._device
                    f = d._fns.get(key)
                    n = x._native
                    t = n.dtype
                    dt = d._known.get(t)
                    if f is not None and (dt is _F32 or dt is _F64):
                        natives = [n]
                        for a in args[1:]:
                            if type(a) is not Array or a._device is not d:
                                break
                            m = a._native
                            if m.dtype is not t:
                                break
                            natives.append(m)
                        else:
                            try:
                                r = f(*natives)
                            except BACKEND_ERRORS:
                                return call(rec, args, kwargs)
                            if r.dtype is t:
                                return wrap(r, d, t)
            return call(rec, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "arraymux.special"
    sig = _signatures()[name]
    set_signature(fn, sig)
    fn.__doc__ = docstring(rec, sig)
    return _compiled.function("unary", key, fn) if compiled else fn


def call(rec: Special, args: tuple[object, ...], kwargs: dict[str, object]) -> Array:
    """The special function ``rec`` on any arguments (the general path): check them against
    SciPy's signature, route by the array operands, promote, call the backend, wrap."""
    fname = f"special.{rec.name}"
    args, kwargs = check_call(fname, _params(rec), args, kwargs)
    sig = _signatures()[rec.name]
    values = sig.bind(*args, **kwargs)
    values.apply_defaults()
    # Each value as (parameter, kind, value): kind "array" (an index into `found`, which
    # holds position, parameter, native and device), "scalar", "int" (a parameter of Python
    # ints) or "none" (an optional parameter left out).
    found: list[tuple[int, str, NativeArray, Device]] = []
    given: list[tuple[str, str, Any]] = []
    for i, (pname, v) in enumerate(values.arguments.items()):
        if pname in rec.ints:
            given.append((pname, "int", _python_int(fname, i, pname, v)))
            continue
        if v is None and sig.parameters[pname].default is None:
            given.append((pname, "none", None))
            continue
        op = operand(v)
        if op is not None:
            native, dev = op
            if type(v) is not Array:
                standard_dtype(fname, native, dev)
            given.append((pname, "array", len(found)))
            found.append((i, pname, native, dev))
            continue
        v = python_scalar(v)
        if not isinstance(v, _SCALARS):
            raise not_an_array(fname, i, v, scalars_ok=True)
        given.append((pname, "scalar", v))
    if not found:
        raise TypeError(
            f"arraymux.{fname}: needs at least one array argument; got Python scalars only. "
            "Wrap one with arraymux.asarray(...) to choose the device."
        )
    device, natives = _route(fname, found)
    # Integer operands of SciPy's integer parameters stay integers (its loops take them so;
    # a float there is deprecated by some), and take no part in the promotion.
    kept = [
        pname in rec.integer and standard_dtype(fname, n, device).kind in _INTEGER_KINDS
        for (_, pname, _, _), n in zip(found, natives, strict=True)
    ]
    promoted = [n for n, keep in zip(natives, kept, strict=True) if not keep]
    scalars = [
        v
        for pname, kind, v in given
        if kind == "scalar" and not (pname in rec.integer and type(v) is int)
    ]
    target = _target(fname, rec, device, promoted, scalars)
    operands: list[object] = []
    for pname, kind, v in given:
        if kind == "array":
            native = natives[v]
            operands.append(native if kept[v] else astype_native(native, target, device, fname))
        elif kind == "scalar" and pname in rec.integer and type(v) is int:
            operands.append(asarray(v, device=device)._native)  # the default integer dtype
        elif kind == "scalar":
            operands.append(asarray(v, dtype=target, device=device)._native)
        elif kind == "int":
            operands.append(v)
    # (an optional parameter left out is left out of the call: zeta(x))
    f = implementation(device._backend, rec.name)
    try:
        r = f(*operands)
    except BACKEND_ERRORS as e:
        if target.kind == "complex floating" and not str(e).startswith("arraymux."):
            raise TypeError(
                f"arraymux.{fname}: the {device.backend} backend's {rec.name} does not take "
                f"complex operands ({type(e).__name__}: {e}). SciPy computes it for complex "
                'operands on NumPy: x = arraymux.to_device(x, "numpy").'
            ) from e
        raise_annotated(fname, device, e)
    want = device._backend.to_native_dtype[target]
    if getattr(r, "dtype", None) != want:
        r = device._fns["astype"](r, want)
    return wrap(r, device)


def _python_int(fname: str, pos: int, pname: str, v: object) -> int:
    """``v`` as a Python int: a Python or NumPy integer, or a 0-d integer array."""
    v = python_scalar(v)
    if type(v) is int:
        return v
    op = operand(v)
    if op is not None:
        native, dev = op
        dt = standard_dtype(fname, native, dev)
        if dt.kind in _INTEGER_KINDS and len(native.shape) == 0:
            from .._transfer import to_numpy

            return int(to_numpy(wrap(native, dev)))
    raise TypeError(
        f"arraymux.{fname}: argument {pos} ({pname}) must be a Python int, not "
        f"{type(v).__module__}.{type(v).__qualname__}."
    )


def _route(
    fname: str, found: list[tuple[int, str, NativeArray, Device]]
) -> tuple[Device, list[NativeArray]]:
    """The device of the call and the natives of the array operands on it; arrays of another
    backend or device are refused, except the constants of a running transform (see
    :func:`arraymux._devices.constant_bridge`), which cross to its engine's device."""
    pos, pname, _, device = found[0]
    natives = [n for _, _, n, _ in found]
    for k, (i, name, native, dev) in enumerate(found):
        if dev is device:
            continue
        constant = closure_constant(native, dev, device)
        if constant is not None:
            natives[k] = constant
            continue
        if constant_bridge(device, dev) is not None:  # the earlier ones are the constants
            for j in range(k):
                if found[j][3] is device:
                    natives[j] = closure_constant(natives[j], device, dev)
            device, pos, pname = dev, i, name
            continue
        raise mismatch(fname, i, dev, pos, device, name, pname)
    return device, natives


def _target(
    fname: str, rec: Special, device: Device, natives: list[NativeArray], scalars: list[object]
) -> _dtypes.DType:
    """The dtype the operands are computed in (see the module's docstring)."""
    if not natives:  # integers only
        target = _integer_operands_dtype(device)
    else:
        target = standard_dtype(fname, natives[0], device)
    try:
        for n in natives[1:]:
            target = _dtypes.promote(target, standard_dtype(fname, n, device))
    except TypeError as e:
        raise TypeError(f"arraymux.{fname}: {e}") from None
    for v in scalars:
        target = scalar_dtype(fname, v, target, device)
    if target.kind in NOT_FLOATING_KINDS:
        target = _integer_operands_dtype(device)
    if target.kind == "complex floating" and not rec.complex:
        raise TypeError(
            f"arraymux.{fname}: SciPy defines {rec.name} for real operands only; got "
            f"{target.name} operands. Take the real part first (arraymux.real) if that is meant."
        )
    return target


def _integer_operands_dtype(device: Device) -> _dtypes.DType:
    """The dtype bool and integer operands are computed in: SciPy's float64 where the device
    holds it, unless a default dtype policy names a float (arraymux.set_default_dtypes); else
    the device's default float (float32 on JAX without x64)."""
    if get_default_dtypes()[0] is None and device.supports(_F64):
        return _F64
    return default_dtype(device, "real floating")
