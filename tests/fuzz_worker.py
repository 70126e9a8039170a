"""Call every public function, ``linalg``/``fft`` function, ``Info`` method and ``Array`` method
with hostile arguments, and report what happened as one line of JSON.

Run by ``tests/test_reliability.py`` in a subprocess (a crash or a hang then fails one test, not
the whole run), once compiled and once with ``ARRAYMUX_PURE_PYTHON=1``::

    python tests/fuzz_worker.py --examples 2000 --seed 0 [--log cases.txt]

The cases are drawn by hypothesis: a target, up to four positional values and up to two keyword
values, from a pool of hostile values (None, strings, ragged lists, objects whose properties
raise, arrays of another backend, NumPy scalars, 0-d and empty arrays, huge integers, wrong
keywords and arity). Each case must either return Arrays whose labels (backend, device, dtype)
agree with their native data, or raise one of the errors a user can act on; a case running
longer than ``--case-timeout`` seconds dumps its traceback and ends the process (a hang).
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import math
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import arraymux as xp
from arraymux._backends import backend_of_type

# What a user can act on: the standard's error types, arraymux's own, and a backend's
# statement that it lacks a case.
ALLOWED = (
    TypeError,
    ValueError,
    IndexError,
    ArithmeticError,
    MemoryError,
    NotImplementedError,  # a backend without this case (dask's data-dependent shapes...)
    xp.ArraymuxError,
)
# Backends of the CPU machine; each case puts its arrays on one of them.
DEVICES = [d for d in ("numpy", "torch:cpu", "jax:cpu", "dask", "array_api_strict")]
DEVICES = [d for d in DEVICES if xp.Device(d).backend in {x.backend for x in xp.devices()}]


class _Raises:
    """An object whose every conversion raises: ``__index__``, ``__len__``, ``__float__``..."""

    def _fail(self, *args: Any) -> Any:
        raise RuntimeError("hostile object")

    __index__ = __len__ = __float__ = __int__ = __iter__ = __hash__ = __bool__ = _fail
    __array__ = __dlpack__ = __array_namespace__ = _fail

    @property
    def shape(self) -> Any:
        raise RuntimeError("hostile shape")

    @property
    def dtype(self) -> Any:
        raise RuntimeError("hostile dtype")

    def __repr__(self) -> str:
        return "<hostile>"


class _Lies:
    """An object that claims to be an array of another shape and dtype than it is."""

    shape = (3, 2)
    dtype = "float32"
    ndim = 7
    device = "cpu"

    def __len__(self) -> int:
        return -1

    def __repr__(self) -> str:
        return "<liar>"


def _array(device: str, kind: str) -> Any:
    if kind == "f32":
        return xp.asarray([1.5, -2.0, 0.0], dtype=xp.float32, device=device)
    if kind == "i32":
        return xp.asarray([[1, 2], [3, 4]], dtype=xp.int32, device=device)
    if kind == "bool":
        return xp.asarray([True, False], device=device)
    if kind == "0d":
        return xp.asarray(2.0, device=device)
    if kind == "empty":
        return xp.zeros((0, 3), dtype=xp.float32, device=device)
    if kind == "c64":
        return xp.asarray([1 + 2j], dtype=xp.complex64, device=device)
    if kind == "key":
        return xp.random.key(7, device=device)
    raise AssertionError(kind)


ARRAY_KINDS = ("f32", "i32", "bool", "0d", "empty", "c64", "key")

# Values that need no device. Integers stay far from sizes that would allocate for real.
PLAIN: list[tuple[str, Callable[[], Any]]] = [
    ("None", lambda: None),
    ("0", lambda: 0),
    ("1", lambda: 1),
    ("2", lambda: 2),
    ("-1", lambda: -1),
    ("-7", lambda: -7),
    ("True", lambda: True),
    ("1.5", lambda: 1.5),
    ("nan", lambda: math.nan),
    ("inf", lambda: math.inf),
    ("1+2j", lambda: 1 + 2j),
    ("2**62", lambda: 2**62),
    ("2**70", lambda: 2**70),
    ("-2**63", lambda: -(2**63)),
    ("'abc'", lambda: "abc"),
    ("''", lambda: ""),
    ("[[1],[1,2]]", lambda: [[1], [1, 2]]),
    ("[1.0,2.0,3.0]", lambda: [1.0, 2.0, 3.0]),
    ("(2,3)", lambda: (2, 3)),
    ("(-1,)", lambda: (-1,)),
    ("(2**40,2**40)", lambda: (2**40, 2**40)),
    ("(0,0,5)", lambda: (0, 0, 5)),
    ("{'a':1}", lambda: {"a": 1}),
    ("np.float64(1.5)", lambda: np.float64(1.5)),
    ("np.int64(2)", lambda: np.int64(2)),
    ("np.float32(2)", lambda: np.float32(2)),
    ("np.bool_(True)", lambda: np.bool_(True)),
    ("np.zeros(3)", lambda: np.zeros(3)),
    ("np.array(['a'])", lambda: np.array(["a"])),
    ("np.array([1,None])", lambda: np.array([1, None], dtype=object)),
    ("xp.float32", lambda: xp.float32),
    ("xp.int8", lambda: xp.int8),
    ("np.dtype('f8')", lambda: np.dtype("float64")),
    ("slice(None,2)", lambda: slice(None, 2)),
    ("Ellipsis", lambda: ...),
    ("hostile", _Raises),
    ("liar", _Lies),
    ("lambda", lambda: lambda x: x),
    ("'numpy'", lambda: "numpy"),
    ("'torch:cpu'", lambda: "torch:cpu"),
]
KEYWORDS = (
    "axis",
    "axes",
    "keepdims",
    "dtype",
    "device",
    "copy",
    "shape",
    "n",
    "k",
    "out",
    "bogus",
    "min",
    "max",
    "correction",
    "stable",
    "descending",
    "offset",
    "norm",
    "s",
    "ord",
    "side",
    "indexing",
    "fill_value",
)


# The functions of a device-bound namespace that differ from arraymux's own.
BOUND = (
    "asarray",
    "zeros",
    "ones",
    "empty",
    "arange",
    "eye",
    "full",
    "linspace",
    "fft.fftfreq",
    "fft.rfftfreq",
    "__array_namespace_info__",
)


def _targets() -> list[tuple[str, Callable[..., Any] | None]]:
    """(name, function) of every public function; Array methods have None (bound per case)."""
    skip = {
        "set_default_device",  # changes the process's state
        "default_device",
        "Array",
        "Device",
        "conformance",
    }
    out: list[tuple[str, Callable[..., Any] | None]] = []
    for name in xp.__all__:
        obj = getattr(xp, name)
        if name in skip or isinstance(obj, type) or not callable(obj) or name[0].isupper():
            continue
        if name in ("grad", "value_and_grad", "vjp", "jvp", "jacobian", "hessian"):
            continue  # transforms take functions; their hostile inputs are tested by hand
        if name in ("vmap", "jit", "checkpoint"):
            continue
        out.append((name, obj))
    for ext in ("linalg", "fft"):
        mod = getattr(xp, ext)
        for name in mod.__all__:
            out.append((f"{ext}.{name}", getattr(mod, name)))
    for name in xp.random.__all__:
        if name != "Generator":
            out.append((f"random.{name}", getattr(xp.random, name)))
    # Generator methods and bound namespaces' functions: bound per case, to the case's device.
    for name in sorted(vars(xp.random.Generator)):
        if not name.startswith("_") and callable(getattr(xp.random.Generator, name)):
            out.append((f"Generator.{name}", None))
    out.append(("random.Generator", xp.random.Generator))
    for name in BOUND:
        out.append((f"bound.{name}", None))
    info = xp.__array_namespace_info__()
    for name in ("capabilities", "default_device", "default_dtypes", "dtypes", "devices"):
        out.append((f"info.{name}", getattr(info, name)))
    for name in sorted(vars(xp.Array)):
        if (
            name.startswith("__")
            and name
            not in {
                "__init__",
                "__new__",
                "__repr__",
                "__str__",
                "__getattribute__",
                "__setattr__",
                "__delattr__",
                "__init_subclass__",
                "__class_getitem__",
                "__reduce__",
                "__reduce_ex__",
                "__getstate__",
                "__setstate__",
                "__slots__",
                "__module__",
                "__doc__",
                "__hash__",
                "__dict__",
                "__weakref__",
                "__annotations__",
                "__array_priority__",
                "__array_ufunc__",  # NumPy's protocol: tests/clients/test_switches.py
            }
        ) or (not name.startswith("_") and callable(getattr(xp.Array, name, None))):
            out.append((f"Array.{name}", None))
    return out


TARGETS = _targets()


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str, list[str], dict[str, str]]:
    target = draw(st.sampled_from([t[0] for t in TARGETS]))
    device = draw(st.sampled_from(DEVICES))
    value = st.one_of(
        st.sampled_from([f"array:{k}" for k in ARRAY_KINDS]),
        st.sampled_from([f"foreign:{k}" for k in ARRAY_KINDS]),
        st.sampled_from([p[0] for p in PLAIN]),
    )
    # Most calls start with an array of the device, as users' calls do; a third are plain
    # calls with one or two arrays (which mostly succeed: their results' labels are checked).
    local = st.sampled_from([f"array:{k}" for k in ARRAY_KINDS])
    shape = draw(st.sampled_from(["one array", "two arrays", "hostile", "hostile"]))
    if shape == "one array":
        return target, device, [draw(local)], {}
    if shape == "two arrays":
        return target, device, [draw(local), draw(local)], {}
    first = draw(local | value)
    rest = draw(st.lists(value, max_size=3))
    kwargs = draw(st.dictionaries(st.sampled_from(KEYWORDS), value, max_size=2))
    return target, device, [first, *rest], kwargs


_PLAIN = dict(PLAIN)


def _value(code: str, device: str) -> Any:
    if code.startswith("array:"):
        return _array(device, code[6:])
    if code.startswith("foreign:"):
        other = DEVICES[(DEVICES.index(device) + 1) % len(DEVICES)]
        return _array(other, code[8:])
    return _PLAIN[code]()


def _label_error(r: Any) -> str | None:
    """Why Array ``r``'s labels disagree with its native data, or None."""
    device = r._device
    backend = device._backend
    native = backend.normalize(r._native)  # NumPy's 0-d results may be scalars
    if backend_of_type(type(native)) is not backend:
        return f"labelled {device} but holds a {type(native).__module__}.{type(native).__name__}"
    try:
        dt = backend.dtype_from_native(native.dtype)
    except TypeError as e:
        return f"holds a dtype of no standard: {e}"
    if r.dtype != dt:
        return f"labelled {r.dtype} but holds {dt}"
    place = backend.adapter.place_of(native)
    if place != device.place and device.backend != "array_api_strict":
        return f"labelled {device} but its data is on {place}"
    return None


def _check_result(out: Any) -> str | None:
    if type(out) is xp.Array:
        return _label_error(out)
    if isinstance(out, tuple | list):
        for item in out:
            bad = _check_result(item)
            if bad:
                return bad
    return None


class Stats:
    def __init__(self) -> None:
        self.cases = 0
        self.returned = 0
        self.errors = 0
        self.named = 0  # the message mentions the function
        self.named_in_form = 0  # ... as arraymux.<name> (the house form)
        self.unnamed_in_form = []  # type: list[str]
        self.passed_on = 0  # errors of the user's own objects, raised through as they are
        self.wrong = []  # type: list[str]
        self.internal = []  # type: list[str]
        self.unnamed = []  # type: list[str]


def _short(name: str) -> list[str]:
    """The names an error about target ``name`` may mention."""
    from arraymux._operators import _COMPARISONS, _OPERATORS, _UNARY

    base = name.split(".")[-1]
    names = [base]
    if name.startswith("Array.__"):
        op = base.strip("_")
        op = op[1:] if op.startswith(("i", "r")) and op[1:] in _OPERATORS.values() else op
        for table in (_OPERATORS, _COMPARISONS, _UNARY):
            names += [std for std, o in table.items() if o == op]
        names += ["arraymux.Array", "arraymux."]
    if name.startswith("Generator."):
        names = [f"random.Generator.{base}", f"Generator.{base}", f"random.{base}"]
    elif name.startswith("bound."):
        names = [name[6:]]
    elif name.startswith(("random.", "linalg.", "fft.")):
        names = [name, base]
    elif name == "block_until_ready":
        names = [name, "synchronize"]
    elif name.startswith("info."):
        names = [f"Info.{base}", base]
    return names


def run_case(stats: Stats, case: Any, log: Any) -> None:
    target, device, codes, kwcodes = case
    if log is not None:
        log.write(f"{case!r}\n")
        log.flush()
    stats.cases += 1
    try:
        args = [_value(c, device) for c in codes]
        kwargs = {k: _value(c, device) for k, c in kwcodes.items()}
    except Exception as e:  # building the inputs is not under test
        raise AssertionError(f"cannot build {case!r}: {e!r}") from e
    if target.startswith("Array."):
        if type(args[0]) is not xp.Array:
            args[0] = _array(device, "f32")
        fn = getattr(args[0], target[6:])
        args = args[1:]
    elif target.startswith("Generator."):
        fn = getattr(xp.random.Generator(3, device=device, fast=len(codes) % 2 == 0), target[10:])
    elif target.startswith("bound."):
        fn = xp.namespace(device=device)
        for part in target[6:].split("."):
            fn = getattr(fn, part)
    else:
        fn = dict(TARGETS)[target]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args, **kwargs)
            bad = _check_result(out)
    except ALLOWED as e:
        stats.errors += 1
        msg = "\n".join([str(e), *getattr(e, "__notes__", ())])
        # The house form, or Python's own signature errors ("sin() takes 1 positional
        # argument but 2 were given"), which name the function the same way.
        forms = [f"arraymux.{n}" for n in _short(target) if not n.startswith("arraymux.")]
        forms += [f"{n.split('.')[-1]}()" for n in _short(target) if not n.startswith("arraymux.")]
        if target.startswith("Array."):
            forms.append(f"arraymux.Array.{target[6:]}")
        if any(f in msg for f in forms):
            stats.named_in_form += 1
        elif len(stats.unnamed_in_form) < 200:
            stats.unnamed_in_form.append(f"{case!r}: {type(e).__name__}: {msg[:200]}")
        if any(n in msg for n in _short(target)):
            stats.named += 1
        elif len(stats.unnamed) < 200:
            stats.unnamed.append(f"{case!r}: {type(e).__name__}: {msg[:200]}")
        return
    except RuntimeError as e:
        if str(e).startswith("hostile"):  # the user's object's own error, passed on as is
            stats.passed_on += 1
        else:
            stats.errors += 1
            stats.internal.append(f"{case!r}: {type(e).__name__}: {str(e)[:300]}")
        return
    except Exception as e:
        stats.errors += 1
        stats.internal.append(f"{case!r}: {type(e).__name__}: {str(e)[:300]}")
        return
    finally:  # the process-wide settings a case may have changed
        xp.set_default_dtypes()
        xp.set_narrowing(False)
    stats.returned += 1
    if bad:
        stats.wrong.append(f"{case!r}: {bad}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--examples", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--case-timeout", type=float, default=60.0)
    p.add_argument("--log", default=None, help="write each case here before running it")
    ns = p.parse_args(argv)
    faulthandler.enable()
    stats = Stats()
    log = open(ns.log, "w") if ns.log else None  # noqa: SIM115
    timeout = ns.case_timeout

    @seed(ns.seed)
    @settings(
        max_examples=ns.examples,
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def fuzz(case: Any) -> None:
        faulthandler.dump_traceback_later(timeout, exit=True)
        try:
            run_case(stats, case, log)
        finally:
            faulthandler.cancel_dump_traceback_later()

    fuzz()
    print(
        json.dumps(
            {
                "mode": "pure" if os.environ.get("ARRAYMUX_PURE_PYTHON") else "compiled",
                "cases": stats.cases,
                "returned": stats.returned,
                "errors": stats.errors,
                "named": stats.named,
                "named_in_form": stats.named_in_form,
                "passed_on": stats.passed_on,
                "wrong": stats.wrong,
                "internal": stats.internal,
                "unnamed": stats.unnamed,
                "unnamed_in_form": stats.unnamed_in_form,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
