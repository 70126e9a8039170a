"""The compiled hot path (``arraymux._speedups``) against its Python twins.

Each compiled function must give what the Python function of ``_dispatch`` gives, on the fast
path and off it (mixed dtypes, scalars, native arrays, keywords, errors), on every device.
"""

from __future__ import annotations

import inspect
import operator
import sys
import types

import numpy as np
import pytest

import arraymux as xp
from _child import child_output
from arraymux import _compiled
from arraymux._compiled import python_twin

needs_ext = pytest.mark.skipif(not _compiled.ENABLED, reason="built without the C extension")


def _devices():
    return [d for d in xp.devices() if not d.simulated]


def _np(a):
    return xp.to_numpy(a)


def _same(a, b):
    assert type(a) is xp.Array and type(b) is xp.Array
    assert a.device == b.device
    assert a.dtype == b.dtype
    assert a.shape == b.shape
    np.testing.assert_array_equal(_np(a), _np(b))


@needs_ext
def test_functions_are_builtins_with_the_standards_names():
    for fn, name, module in [
        (xp.add, "add", "arraymux"),
        (xp.sin, "sin", "arraymux"),
        (xp.sum, "sum", "arraymux"),
        (xp.linalg.matmul, "matmul", "arraymux.linalg"),
        (xp.where, "where", "arraymux"),
    ]:
        assert isinstance(fn, types.BuiltinFunctionType)
        assert fn.__name__ == name
        assert fn.__module__ == module
        assert repr(fn) == f"<built-in function {name}>"
        assert "dispatched to the array's backend" in fn.__doc__
        twin = python_twin(fn)
        assert twin is not fn and isinstance(twin, types.FunctionType)
        assert list(inspect.signature(fn).parameters) == list(inspect.signature(twin).parameters)


def test_python_twin_of_a_plain_function_is_itself():
    assert python_twin(len) is len
    assert python_twin(xp.asarray) is xp.asarray


@pytest.mark.parametrize(
    "call",
    [
        lambda f, a, b: f(a, b),
        lambda f, a, b: f(a, 2),
        lambda f, a, b: f(3, b),
        lambda f, a, b: f(a, b.native),
        lambda f, a, b: f(a.native, b),
        lambda f, a, b: f(a, xp.astype(b, xp.int32)),
    ],
    ids=["arrays", "scalar-right", "scalar-left", "native-right", "native-left", "mixed-dtypes"],
)
def test_binary_matches_its_twin(device, call):
    a = xp.asarray([1.0, 2.0, 4.0], dtype=xp.float32, device=device)
    b = xp.asarray([3.0, 5.0, 6.0], dtype=xp.float32, device=device)
    for name in ("add", "multiply", "less", "divide"):
        fn = getattr(xp, name)
        _same(call(fn, a, b), call(python_twin(fn), a, b))


_SCALAR_FUNCTIONS = ("add", "subtract", "multiply", "divide", "pow", "less", "bitwise_and", "atan2")
_SCALAR_DTYPES = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex64")
_SCALARS = (True, 3, -2, 128, 2**63, 1.5, float("nan"), 2j)


def _outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # the compiled path must raise what the Python path raises
        return e


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # 0 ** -2, 1 / 0: both paths warn
@pytest.mark.parametrize("dtype", _SCALAR_DTYPES)
def test_array_and_scalar_match_the_twin(device, dtype):
    """An array beside a Python scalar on either side (the compiled scalar path, planned per
    device, dtype, scalar type and side): the Python path's result, dtype and errors, for
    scalars in and out of an integer dtype's range, of every kind, 0-d and 1-d arrays."""
    dt = getattr(xp, dtype)
    if dt not in xp.__array_namespace_info__().dtypes(device=device).values():
        pytest.skip(f"{device} does not hold {dtype}")
    for shape in ((3,), ()):
        a = xp.astype(
            xp.reshape(xp.asarray([1, 0, 2], device=device)[: shape[0] if shape else 1], shape), dt
        )
        for name in _SCALAR_FUNCTIONS:
            fn = getattr(xp, name)
            for value in _SCALARS:
                for args in ((a, value), (value, a)):
                    got, want = _outcome(fn, *args), _outcome(python_twin(fn), *args)
                    if isinstance(want, Exception):
                        assert type(got) is type(want), (name, args, got, want)
                        if str(want).startswith("arraymux."):  # arraymux's own message
                            assert str(got) == str(want)
                    else:
                        assert not isinstance(got, Exception), (name, args, got)
                        np.testing.assert_array_equal(_np(got), _np(want))
                        assert got.dtype == want.dtype and got.device == want.device
                        # The label is the data's: read afresh from the native array.
                        assert xp.asarray(got.native).dtype == got.dtype, (name, args)


_WHERE_DTYPES = ("bool", "int8", "uint8", "int64", "float32", "float64", "complex64")
_WHERE_SCALARS = (True, 3, -2, 128, 2**63, 2**70, 1.5, float("nan"), 2j)


@pytest.mark.parametrize("dtype", _WHERE_DTYPES)
def test_where_matches_its_twin(device, dtype):
    """``where`` (a builtin with its own fast path) gives the Python function's result, dtype
    and errors: arrays of one dtype or of two, a Python scalar of each kind on either side
    (ints in and out of the dtype's range), a condition that is not bool, native operands,
    0-d and 1-d arrays."""
    dt = getattr(xp, dtype)
    if dt not in xp.__array_namespace_info__().dtypes(device=device).values():
        pytest.skip(f"{device} does not hold {dtype}")
    for shape in ((3,), ()):
        n = shape[0] if shape else 1
        c = xp.reshape(xp.asarray([True, False, True], device=device)[:n], shape)
        a = xp.astype(xp.reshape(xp.asarray([1, 0, 2], device=device)[:n], shape), dt)
        b = xp.astype(xp.reshape(xp.asarray([5, 6, 7], device=device)[:n], shape), dt)
        other = xp.reshape(xp.asarray([5, 6, 7], dtype=xp.int16, device=device)[:n], shape)
        calls = [(c, a, b), (c, a, other), (c, other, a), (a, a, b), (c, a.native, b)]
        for value in _WHERE_SCALARS:
            calls += [(c, a, value), (c, value, b), (c, value, value)]
        for args in calls:
            got, want = _outcome(xp.where, *args), _outcome(python_twin(xp.where), *args)
            if isinstance(want, Exception):
                assert type(got) is type(want), (args, got, want)
                assert str(got) == str(want)
            else:
                assert not isinstance(got, Exception), (args, got)
                np.testing.assert_array_equal(_np(got), _np(want))
                assert got.dtype == want.dtype and got.device == want.device
                assert xp.asarray(got.native).dtype == got.dtype, args  # the data's label


@needs_ext
def test_where_takes_the_compiled_path_and_follows_one_plan(monkeypatch):
    """Arrays of one dtype and the scalars the plan admits never reach the Python function;
    the plan says which scalars meet which dtype."""
    from arraymux import _searching_functions

    def slow(*args):
        pytest.fail("the checking path ran")

    monkeypatch.setattr(_searching_functions, "call", slow)
    c = xp.asarray([True, False], device="numpy")
    x = xp.asarray([1.0, 2.0], device="numpy")
    assert xp.where(c, x, 0.5).dtype == xp.float64
    assert xp.where(c, 3, x).dtype == xp.float64
    i = xp.asarray([1, 2], dtype=xp.int8, device="numpy")
    assert _np(xp.where(c, i, -128)).tolist() == [1, -128]
    assert _np(xp.where(c, True, c)).tolist() == [True, False]
    plan = _compiled.where_plan(c.device, c.native.dtype, i.native.dtype)
    assert plan is not None and plan[1:] == (False, False, True, -128, 127)
    assert _compiled.where_plan(c.device, i.native.dtype, i.native.dtype) is None  # not bool
    with pytest.raises(pytest.fail.Exception):
        xp.where(c, i, 128)  # beyond int8: the checking path decides


def test_where_and_clip_of_python_ints_beyond_int64_beside_floats(device):
    """The nearest float, as NumPy takes such an int (torch raised "int too big")."""
    c = xp.asarray([True, False], device=device)
    x = xp.asarray([1.0, 2.0], device=device)
    big = float(np.asarray(2.0**70, dtype=_np(x).dtype))
    assert _np(xp.where(c, x, 2**70)).tolist() == [1.0, big]
    assert _np(xp.where(c, -(2**70), x)).tolist() == [-big, 2.0]
    assert _np(xp.clip(x, 2**70)).tolist() == [big, big]
    assert _np(xp.clip(x, max=-(2**70))).tolist() == [-big, -big]
    with pytest.raises(OverflowError, match=r"arraymux\.where: .* beyond the range"):
        xp.where(c, x, 2**1100)


@needs_ext
def test_array_and_scalar_operators_take_the_compiled_path():
    a = xp.asarray([1.0, 2.0], dtype=xp.float32)
    for f in (lambda: a * 2, lambda: 2 * a, lambda: a < 1, lambda: xp.add(a, 1.5), lambda: 3 - a):
        f()  # plans made
    frames = []
    sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
    try:
        r = (a * 2, 2 * a, a < 1, xp.add(a, 1.5), 3 - a)
    finally:
        sys.setprofile(None)
    if _compiled.ENABLED:
        assert [f.f_code.co_name for f in frames] == []
    _same(r[0], xp.multiply(a, xp.asarray(2.0, dtype=xp.float32)))
    _same(r[1], r[0])
    _same(r[2], xp.asarray([False, False]))
    _same(r[3], xp.asarray([2.5, 3.5], dtype=xp.float32))
    _same(r[4], xp.asarray([2.0, 1.0], dtype=xp.float32))


def test_int_scalar_out_of_range_raises():
    a = xp.asarray([1, 2], dtype=xp.int8)
    for _ in range(2):  # the second call runs from the cached plan
        _same(a + 100, xp.asarray([101, 102], dtype=xp.int8))
        with pytest.raises(OverflowError, match=r"does not fit in arraymux\.int8"):
            a + 128
        with pytest.raises(OverflowError, match=r"does not fit in arraymux\.int8"):
            -129 + a
        with pytest.raises(OverflowError, match=r"does not fit in arraymux\.int8"):
            a * 2**70


def test_bool_array_with_an_int_beyond_the_default_integer_raises(device):
    """A bool array meets a Python int in the default integer dtype: an int beyond its range
    raises OverflowError naming the function and that dtype on every device (array-api-strict
    raised NumPy's own unnamed error, the others their backend's)."""
    b = xp.asarray([True, False], device=device)
    default = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    _same(b + 3, xp.asarray([4, 3], dtype=default, device=device))
    for big in (2**70, -(2**70)):
        for fn, args in (
            (operator.add, (b, big)),
            (operator.mul, (big, b)),
            (xp.maximum, (b, big)),
        ):
            with pytest.raises(OverflowError, match=rf"arraymux\.\w+: the Python int {big} does "):
                fn(*args)


def test_unary_and_first_match_their_twins(device):
    a = xp.asarray([[1.0, -2.0], [3.5, 4.0]], dtype=xp.float32, device=device)
    for fn in (xp.abs, xp.negative, xp.sin, xp.isnan):
        _same(fn(a), python_twin(fn)(a))
    cases = [
        (xp.sum, (), {}),
        (xp.sum, (), {"axis": 0}),
        (xp.sum, (), {"axis": 1, "keepdims": True}),
        (xp.sum, (), {"dtype": xp.float64 if device.backend != "jax" else xp.float32}),
        (xp.reshape, ((4,),), {}),
        (xp.permute_dims, ((1, 0),), {}),
        (xp.cumulative_sum, (), {"axis": 0, "include_initial": True}),
    ]
    for fn, args, kwargs in cases:
        _same(fn(a, *args, **kwargs), python_twin(fn)(a, *args, **kwargs))


@needs_ext
def test_first_with_many_arguments(monkeypatch):
    # More than eight arguments and keywords: the compiled path builds its argument list on
    # the heap. A device function that returns what it was called with shows what it got.
    a = xp.asarray([3.0, 1.0, 2.0])
    monkeypatch.setitem(a.device._fns, "echo_for_test", lambda *args, **kwargs: (args, kwargs))
    fn = _compiled.function(
        "first",
        "echo_for_test",
        lambda *args, **kwargs: None,
        keywords=frozenset({"k", "k1", "k2", "k3"}),
    )
    out = fn(a, 1, 2, 3, 4, 5, 6, k1=7, k2=8, k3=9)
    args, kwargs = out._native
    assert args[0] is a.native and args[1:] == (1, 2, 3, 4, 5, 6)
    assert kwargs == {"k1": 7, "k2": 8, "k3": 9}
    out = fn(a, 1, k=2)  # and on the stack
    assert out._native == ((a.native, 1), {"k": 2})
    assert float(xp.sum(a, axis=0, keepdims=False)) == 6.0


def test_operators_match_their_twins(device):
    a = xp.asarray([1, 2, 3], dtype=xp.int32, device=device)
    b = xp.asarray([3, 2, 1], dtype=xp.int32, device=device)
    _same(a + b, xp.add(a, b))
    _same(a - 1, xp.subtract(a, 1))
    _same(2 * a, xp.multiply(2, a))
    _same(a < b, xp.less(a, b))
    _same(-a, xp.negative(a))
    _same(~a, xp.bitwise_invert(a))
    _same(a & b, xp.bitwise_and(a, b))
    c = xp.asarray([1, 1, 1], dtype=xp.int32, device=device)
    c += a
    _same(c, a + 1)


_BINARY_OPERATORS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "truediv": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "pow": lambda a, b: a**b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "lshift": lambda a, b: a << b,
    "rshift": lambda a, b: a >> b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}
_UNARY_OPERATORS = {"neg": "__neg__", "pos": "__pos__", "abs": "__abs__", "invert": "__invert__"}


@pytest.mark.parametrize("op", sorted(_BINARY_OPERATORS))
def test_operator_slots_match_the_python_methods(device, op):
    """``a + b`` runs the C slot; ``Array.__add__(a, b)`` the Python method: same results, on
    the fast path (one dtype), off it (promotion, a scalar on either side), and in errors."""
    form = _BINARY_OPERATORS[op]
    method = getattr(xp.Array, f"__{op}__")
    assert isinstance(method, types.FunctionType)  # the reference stays in the class
    a = xp.asarray([1, 2, 3], dtype=xp.int32, device=device)
    b = xp.asarray([3, 2, 1], dtype=xp.int32, device=device)
    c = xp.asarray([1, 3, 2], dtype=xp.int16, device=device)
    _same(form(a, b), method(a, b))
    _same(form(a, c), method(a, c))
    _same(form(a, 2), method(a, 2))
    if op not in ("lt", "le", "eq", "ne", "gt", "ge"):
        _same(form(2, a), getattr(xp.Array, f"__r{op}__")(a, 2))


def test_operator_slots_handle_the_other_operand():
    """Off the fast path the slot does what CPython's own would: the other operand's
    reflected method, NotImplemented to a TypeError, pow with a modulus refused."""
    a = xp.asarray([1.0, 2.0])

    class Other:
        def __radd__(self, other):
            return ("radd", other)

        def __rmatmul__(self, other):
            return ("rmatmul", other)

    o = Other()
    assert a + o == ("radd", a)
    assert a @ o == ("rmatmul", a)
    with pytest.raises(TypeError, match="unsupported operand"):
        a + "x"
    with pytest.raises(TypeError, match="unsupported operand"):
        "x" - a
    with pytest.raises(TypeError):
        pow(a, a, 2)
    _same(1.0 + a, xp.add(1.0, a))
    _same(np.float64(3.0) - a, xp.subtract(3.0, a))
    assert (a == "x") is False  # both sides NotImplemented: Python compares identities
    assert (a != "x") is True


def test_operator_slots_raise_the_python_errors():
    a = xp.asarray([1.0, 2.0])
    with pytest.raises(xp.BackendMismatchError) as caught:
        a + xp.asarray([1.0, 2.0], device="array_api_strict")
    assert "arraymux.add" in str(caught.value) and "to_device" in str(caught.value)
    with pytest.raises(ValueError, match=r"arraymux\.add"):
        a + xp.asarray([1.0, 2.0, 3.0])


def test_assigning_an_operator_takes_effect(monkeypatch):
    """Setting an operator on the class puts CPython's own slot back: the new method runs."""
    from arraymux import _operators

    a = xp.asarray([1.0, 2.0])
    try:
        monkeypatch.setattr(xp.Array, "__add__", lambda self, other: "patched")
        monkeypatch.setattr(xp.Array, "__neg__", lambda self: "negated")
        monkeypatch.setattr(xp.Array, "__lt__", lambda self, other: "less")
        assert a + a == "patched"
        assert a + 1 == "patched"
        assert -a == "negated"
        assert (a < a) == "less"
    finally:
        monkeypatch.undo()
        _operators.install_slots()
    _same(a + a, xp.add(a, a))


@needs_ext
def test_operator_slots_are_installed():
    # The extension's function refuses anything but its own builtins.
    from arraymux import _speedups

    with pytest.raises(TypeError, match="not a compiled function"):
        _speedups.number_slots({"add": lambda a, b: a})
    a = xp.asarray([1.0, 2.0])
    # On the fast path no Python frame runs: not the method, not the Python function.
    frames = []
    sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
    try:
        r1, r2, r3 = a + a, a < a, -a
    finally:
        sys.setprofile(None)
    assert frames == []
    _same(r1, xp.add(a, a))
    _same(r2, xp.less(a, a))
    _same(r3, xp.negative(a))
    # The unary slots (reached through the operator module): the methods' results.
    b = xp.asarray([1, -2], dtype=xp.int8)
    for name, dunder in _UNARY_OPERATORS.items():
        _same(getattr(operator, name)(b), getattr(xp.Array, dunder)(b))


def test_result_dtype_is_cached_and_right(device):
    a = xp.asarray([1.0, 2.0], dtype=xp.float32, device=device)
    for name in ("add", "less", "equal", "sin", "isnan"):
        fn = getattr(xp, name)
        out = fn(a, a) if name in ("add", "less", "equal") else fn(a)
        # the cached dtype is the native array's own
        assert out._dtype is None or out._dtype == out._native.dtype
        assert (
            out.dtype
            == python_twin(fn)(*([a, a] if name in ("add", "less", "equal") else [a])).dtype
        )


def test_one_function_alternating_devices():
    # The compiled functions remember the last device; switching back and forth must not
    # reuse another device's function.
    arrays = [xp.asarray([1.0, 2.0], dtype=xp.float32, device=d) for d in _devices()]
    for _ in range(3):
        for x in arrays:
            out = xp.add(x, x)
            assert out.device == x.device
            assert type(out.native) is type(x.native)
            assert _np(out).tolist() == [2.0, 4.0]
            assert xp.sum(out).device == x.device
            assert xp.sin(out).device == x.device


def test_errors_come_from_the_python_path():
    a = xp.asarray([1.0])
    with pytest.raises(TypeError, match=r"arraymux\.add: at least one operand must be an array"):
        xp.add(1, 2)
    with pytest.raises(TypeError, match=r"add"):
        xp.add(a, "text")
    with pytest.raises(TypeError):
        xp.add(a)
    with pytest.raises(TypeError):
        xp.sin(a, a)
    other = [d for d in _devices() if d.backend != "numpy"]
    if other:
        b = xp.asarray([1.0], device=other[0])
        with pytest.raises(xp.BackendMismatchError, match="to_device"):
            xp.add(a, b)
        with pytest.raises(xp.BackendMismatchError, match="to_device"):
            a + b


def test_a_failing_native_call_propagates():
    a = xp.asarray([[1.0, 2.0]])
    with pytest.raises(ValueError):
        xp.matmul(a, a)  # (1, 2) @ (1, 2)
    assert xp.matmul(a, xp.matrix_transpose(a)).shape == (1, 1)


def test_pure_python_mode_gives_the_same_results():
    code = (
        "import arraymux as xp, types\n"
        "assert not xp._compiled.ENABLED\n"
        "assert isinstance(xp.add, types.FunctionType)\n"
        "a = xp.asarray([1.0, 2.0, 3.0])\n"
        "print(xp.to_numpy(xp.sum(xp.sin(a) * 2 + a, axis=0)).item())\n"
    )
    out = child_output(code, pure=True)
    a = xp.asarray([1.0, 2.0, 3.0])
    expected = xp.to_numpy(xp.sum(xp.sin(a) * 2 + a, axis=0)).item()
    assert float(out) == pytest.approx(expected, rel=0, abs=0)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float32"])
def test_sum_of_the_array_alone_matches_its_twin(device, dtype):
    # Backends may give a faster function for sum(x) with no other argument ("sum(x)" in
    # their table); its dtype and value must be the general function's.
    dt = getattr(xp, dtype)
    x = xp.asarray([1, 0, 1, 1], dtype=dt, device=device)
    _same(xp.sum(x), python_twin(xp.sum)(x))
    _same(xp.sum(x), xp.sum(x, axis=None))


@needs_ext
def test_natives_unwraps_trees_of_one_device():
    a = xp.asarray([1.0, 2.0])
    b = xp.asarray([3.0])
    tree = ((a, {"w": b, "n": 3}, [1.5, None, True]), {"k": a})
    (out, kw), dev = _compiled.natives(tree)
    assert dev == a.device
    assert out[0] is a.native and out[1]["w"] is b.native and out[1]["n"] == 3
    assert out[2] == [1.5, None, True] and kw["k"] is a.native
    # Anything the Python path must decide: native arrays, other objects, no array at all,
    # two devices, very deep trees.
    assert _compiled.natives((a, np.ones(2))) is None
    assert _compiled.natives((a, "text")) is None
    assert _compiled.natives((1, 2.0)) is None
    others = [d for d in _devices() if d != a.device]
    if others:
        assert _compiled.natives((a, xp.asarray([1.0], device=others[0]))) is None
    deep: object = a
    for _ in range(200):
        deep = [deep]
    assert _compiled.natives(deep) is None


@needs_ext
def test_device_of_agrees_with_natives():
    a = xp.asarray([1.0, 2.0])
    b = xp.asarray([3.0])
    trees = [((a, {"w": b, "n": 3}, [1.5, None, True]), {"k": a}), (a, np.ones(2)), (a, "text")]
    trees += [(1, 2.0), ((), {}), {"x": [b]}]
    others = [d for d in _devices() if d != a.device]
    if others:
        trees.append((a, xp.asarray([1.0], device=others[0])))
    deep: object = a
    for _ in range(200):
        deep = [deep]
    trees.append(deep)
    for tree in trees:
        got = _compiled.natives(tree)
        assert _compiled.device_of(tree) is (None if got is None else got[1])


@needs_ext
def test_wrap_tree_wraps_the_backends_arrays(device):
    x = xp.asarray([1.0, 2.0], device=device)
    n = x.native
    # The C walk knows native types from the registry's cache (filled on first sight in
    # Python, emptied when a backend is registered): see the type once, as any call would.
    from arraymux._backends import backend_of_type

    backend_of_type(type(n))
    out = _compiled.wrap_tree({"a": n, "b": (n, 2.0, None), "c": [n]}, device)
    assert out["b"][1:] == (2.0, None)
    for leaf in (out["a"], out["b"][0], out["c"][0]):
        assert type(leaf) is xp.Array and leaf.device == device and leaf.native is n
    assert _compiled.wrap_tree((n, "text"), device) is None
    assert (
        _compiled.wrap_tree((n, np.ones(1) if device.backend != "numpy" else [object()]), device)
        is None
    )


@needs_ext
def test_convert_tree_converts_leaves_of_one_type():
    a, b = np.ones(2), np.zeros(3)
    seen = []

    def fn(leaf):
        seen.append(leaf)
        return leaf * 2

    out = _compiled.convert_tree((a, {"w": b, "n": 3}, [1.5, None]), np.ndarray, fn)
    np.testing.assert_array_equal(out[0], [2, 2])
    np.testing.assert_array_equal(out[1]["w"], [0, 0, 0])
    assert out[1]["n"] == 3 and out[2] == [1.5, None] and len(seen) == 2
    # With a device, every converted leaf is an Array on it (its dtype read when asked).
    d = xp.Device("numpy")
    wrapped = _compiled.convert_tree({"a": a}, np.ndarray, lambda leaf: leaf + 1, d)
    assert type(wrapped["a"]) is xp.Array and wrapped["a"].device == d
    assert wrapped["a"].dtype == xp.float64
    np.testing.assert_array_equal(wrapped["a"].native, [2, 2])
    # Other leaves (a subclass, another type, text) leave it to Python; errors propagate.
    assert _compiled.convert_tree((a, np.ma.masked_array([1.0])), np.ndarray, fn) is None
    assert _compiled.convert_tree((a, "text"), np.ndarray, fn) is None
    with pytest.raises(ZeroDivisionError):
        _compiled.convert_tree([a], np.ndarray, lambda leaf: 1 / 0)
    with pytest.raises(TypeError):
        _compiled.convert_tree([a], "not a type", fn)


@needs_ext
def test_convert_tree_survives_a_function_that_changes_the_tree():
    """``fn`` runs Python code: it may drop the tree's last other reference or resize it."""
    tree = [np.ones(1) for _ in range(4)]
    box = {"tree": tree}

    def shrink(leaf):
        box["tree"].clear()  # the list being walked
        return leaf

    assert _compiled.convert_tree(tree, np.ndarray, shrink) is None
    d = {"a": np.ones(1), "b": np.ones(1)}

    def grow(leaf):
        d[str(len(d))] = np.ones(1)
        return leaf

    assert _compiled.convert_tree(d, np.ndarray, grow) is None

    def drop(leaf):
        box.clear()  # the tree's only other reference
        return leaf + 1

    box["tree"] = [np.ones(1), np.ones(1)]
    out = _compiled.convert_tree(box["tree"], np.ndarray, drop)
    assert [float(v[0]) for v in out] == [2.0, 2.0]


@needs_ext
def test_dtypes_in_checks_every_leaf():
    floats = frozenset({np.dtype("float32"), np.dtype("float64")})
    f = xp.asarray([1.0], dtype=xp.float32)
    i = xp.asarray([1], dtype=xp.int32)
    assert _compiled.dtypes_in(f, floats) is True
    assert _compiled.dtypes_in({"a": (f, [f]), "b": f}, floats) is True
    assert _compiled.dtypes_in({"a": (f, [i])}, floats) is False
    assert _compiled.dtypes_in((f, 1.0), floats) is False  # a scalar: told by the Python walk
    assert _compiled.dtypes_in((f, f.native), floats) is False
    assert _compiled.dtypes_in((), floats) is True
    with pytest.raises(TypeError):
        _compiled.dtypes_in(f, {np.dtype("float32")})


@needs_ext
def test_dtypes_in_survives_a_dtype_that_changes_the_tree():
    """Looking a dtype up runs its __hash__: one that empties the list being walked must not
    crash the walk."""
    floats = frozenset({np.dtype("float64")})
    a, b = xp.asarray([1.0]), xp.asarray([2.0])
    tree: list = []

    class Rude:
        def __hash__(self):
            tree.clear()
            return 0

    b._dtype = Rude()
    tree.extend([b, a, a, a])
    assert _compiled.dtypes_in(tree, floats) is False
    tree.extend([a, a])
    assert _compiled.dtypes_in({"k": tree, "j": (a, a)}, floats) is True


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # Dask computes outside errstate
@pytest.mark.parametrize("name", ["tanh", "expm1", "log1p", "acos", "reciprocal", "abs", "sinh"])
def test_complex_fixes_skipped_only_for_real_operands(device, name):
    """A fix of complex special cases is the backend's own function for real operands, which
    the compiled path calls directly ("name(x)"); complex operands still get the fix. Both
    match the Python path, special values included."""
    fn = getattr(xp, name)
    if device.backend == "numpy" and name in ("tanh", "expm1"):
        assert f"{name}(x)" in device._fns  # NumPy's fix of the complex cases has one
    if f"{name}(x)" in device._fns:
        assert device._fns[f"{name}(x) not for"]  # the complex dtypes
    inf, nan = float("inf"), float("nan")
    reals = [0.5, -0.0, inf, -inf, nan, 2.0]
    complexes = [complex(inf, nan), complex(nan, inf), complex(-0.0, 0.0), 1 + 2j, complex(inf, 1)]
    for values, dtype in ((reals, xp.float32), (complexes, xp.complex64)):
        a = xp.asarray(values, dtype=dtype, device=device)
        with np.errstate(all="ignore"):
            got, want = fn(a), python_twin(fn)(a)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(_np(got), _np(want))


def test_stacked_complex_fixes_resolve_to_the_backend_function():
    """Where fixes of complex cases stack (torch's and CuPy's ``tanh``: the infinity fix over
    the sign fix), real operands reach the backend's own function, not a fix that only hands
    them on; ``pow`` of two real arrays is ``torch.pow``, and with a Python exponent the
    adapter's scalar kernel (``torch.pow``, save for the exponents 0.5 and -0.5, which torch
    takes as square roots, and the complex fix)."""
    torch = pytest.importorskip("torch")
    from arraymux._backends import _torch
    from arraymux._compiled import scalar_plan

    d = xp.Device("torch:cpu")
    assert d._fns["tanh(x)"] is torch.tanh
    assert d._fns["pow(x1, x2)"] is torch.pow
    for dtype in (torch.float32, torch.complex64):
        for kind in (int, float):
            assert scalar_plan("pow", d, dtype, kind, 1)[0] is _torch.SCALAR_KERNELS["pow"]
    x = xp.asarray([-0.0, 4.0], device=d)
    np.testing.assert_array_equal(np.signbit(_np(x**0.5)), [False, False])
    z = xp.asarray([0j, complex(float("inf"), 1.0)], dtype=xp.complex64, device=d)
    np.testing.assert_array_equal(_np(z**0), [1, 1])  # the fix: torch gives nan at 0
    np.testing.assert_array_equal(_np(xp.tanh(z))[1], 1 + 0j)


def test_torch_matmul_of_floating_arrays_calls_the_kernel():
    """torch's ``matmul`` carries a Python wrapper for its integer fallback (CUDA has no
    integer kernel); two floating arrays of one dtype reach ``torch.matmul`` itself, without
    a Python frame, other dtypes the full function."""
    torch = pytest.importorskip("torch")
    d = xp.Device("torch:cpu")
    assert d._fns["matmul(x1, x2)"] is torch.matmul
    skip = d._fns["matmul(x1, x2) not for"]
    assert torch.int64 in skip and torch.bool in skip
    assert torch.float32 not in skip and torch.complex64 not in skip
    assert d._fns["pow(x1, x2)"] is torch.pow  # a complex fix: real operands skip it
    a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32, device=d)
    i = xp.asarray([[1, 2], [3, 4]], device=d)
    for x in (a, i, xp.astype(a, xp.complex64)):
        _same(xp.matmul(x, x), python_twin(xp.matmul)(x, x))
    if _compiled.ENABLED:
        xp.matmul(a, a)
        frames = []
        sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
        try:
            xp.matmul(a, a)
        finally:
            sys.setprofile(None)
        assert frames == []


def test_torch_mean_of_the_array_alone():
    pytest.importorskip("torch")
    d = xp.Device("torch:cpu")
    a = xp.asarray([[1.0, 2.0], [3.0, 5.0]], device=d)
    _same(xp.mean(a), python_twin(xp.mean)(a))
    _same(xp.mean(xp.astype(a, xp.complex64)), python_twin(xp.mean)(xp.astype(a, xp.complex64)))
    i = xp.asarray([1, 2], dtype=xp.int32, device=d)
    # Integer operands compute in the default float (torch's own mean refuses them).
    _same(xp.mean(i), python_twin(xp.mean)(i))
    assert xp.mean(i).dtype == xp.float32


@needs_ext
def test_torch_scalar_on_the_left_takes_the_compiled_path():
    """torch takes a Python scalar only on the right: ``1 - x`` runs as ``torch.rsub(x, 1)``
    and ``2 * x`` as ``x * 2``, without a Python frame, with the checking path's results."""
    pytest.importorskip("torch")
    t = xp.asarray([[0.25, 1.5], [2.0, -3.0]], dtype=xp.float32, device="torch:cpu")
    for f in (lambda: 1 - t, lambda: 2 * t, lambda: 0.5 + t):
        f()
    frames = []
    sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
    try:
        r = (1 - t, 2 * t, 0.5 + t)
    finally:
        sys.setprofile(None)
    assert frames == []
    for got, (fn, s) in zip(r, ((xp.subtract, 1), (xp.multiply, 2), (xp.add, 0.5))):
        _same(got, python_twin(fn)(s, t))


@needs_ext
def test_wrap_tree_learns_a_backends_array_type_it_has_not_seen():
    """The results of a compiled JAX function are of a type that the user never passed in
    natively: the compiled walk learns it (as backend_of_type would) instead of leaving every
    call to the Python walk (about 10 us a call for 5 results)."""
    pytest.importorskip("jax")
    code = (
        "import arraymux as xp\n"
        "from arraymux.transforms import _tree\n"
        "calls = []\n"
        "slow = _tree.convert_natives\n"
        "_tree.convert_natives = lambda *a: calls.append(1) or slow(*a)\n"
        "x = xp.asarray([1.0, 2.0], device='jax:cpu')\n"
        "f = xp.jit(lambda a, b: (a * 2, b + 1, xp.sum(a)))\n"
        "for _ in range(3):\n"
        "    out = f(x, x)\n"
        "assert [type(o) for o in out] == [xp.Array] * 3, out\n"
        "print(len(calls))\n"
    )
    out = child_output(code, pure=False)
    assert out.strip() == "0", out


def test_zero_d_arrays_with_python_scalars_match_the_checking_path(device):
    """Beside a 0-d array the adapter may make an array of the scalar (torch: a 0-d tensor
    filled on the device, since torch.func.jvp gives a Python float a float64 tangent there);
    the compiled plan does the same through its 0-d function."""
    from arraymux._dispatch import binary_slow

    s = xp.asarray(1.5, dtype=xp.float32, device=device)
    for name, x1, x2 in [
        ("multiply", s, 0.5),
        ("multiply", 0.5, s),
        ("subtract", 1, s),
        ("divide", s, 2),
        ("divide", 2, s),
        ("pow", s, 2),
        ("less", s, 1),
        ("maximum", s, 0.0),
        ("atan2", 1.0, s),
    ]:
        for _ in range(2):  # the second call takes the cached plan
            _same(getattr(xp, name)(x1, x2), binary_slow(name, x1, x2))


@needs_ext
def test_zero_d_torch_arrays_take_python_scalars_as_they_are(monkeypatch):
    """Outside torch.func's transforms the compiled path passes a Python scalar to torch
    beside a 0-d tensor as beside larger ones: no 0-d tensor is filled for it (on a GPU, a
    kernel launch more); inside ``jvp`` it is filled (the float64 tangent, see above)."""
    torch = pytest.importorskip("torch")
    s = xp.asarray(1.5, dtype=xp.float32, device="torch:cpu")
    for f in (lambda s: s * 0.5, lambda s: 1 - s, lambda s: s / 2, lambda s: 0.5 * s):
        f(s)  # the plan, made once
    filled = []
    real_full = torch.full
    monkeypatch.setattr(torch, "full", lambda *a, **k: filled.append(a) or real_full(*a, **k))
    outs = [s * 0.5, 1 - s, s / 2, 0.5 * s]
    assert filled == []
    assert [float(o) for o in outs] == [0.75, -0.5, 0.75, 0.75]
    assert all(o.dtype == xp.float32 for o in outs)
    # torch.func builds dynamo's table of torch's functions on first use, by their ids: a
    # stand-in torch.full met there would stay in it (and break torch.compile's graphs at
    # torch.full later in this process).
    monkeypatch.undo()
    _, tangent = xp.jvp(lambda s: s * 0.5, (s,), (xp.ones_like(s),))
    assert tangent.dtype == xp.float32


def test_where_refuses_a_condition_that_is_not_bool(device):
    """The standard requires a bool condition: NumPy, JAX and Dask would take the truth of
    numbers and torch refuses floats, so arraymux refuses them on every backend alike."""
    x = xp.asarray([1.0, 0.0, 2.0], device=device)
    for cond in (x, xp.asarray([1, 0, 2], dtype=xp.uint8, device=device), x.native):
        with pytest.raises(TypeError, match=r"arraymux\.where: condition must have a bool"):
            xp.where(cond, x, 0.0)
    assert _np(xp.where(x != 0, x, 5.0)).tolist() == [1.0, 5.0, 2.0]


def test_where_names_itself_for_a_condition_outside_the_standard():
    """A NumPy array of strings as the condition: the error names ``where`` and the fix, as
    it does for such an array among the other operands."""
    x = xp.asarray([1, 2], dtype=xp.int32, device="numpy")
    for args in ((np.array(["a", "b"]), x, x), (x != 1, x, np.array(["a", "b"]))):
        with pytest.raises(TypeError, match=r"arraymux\.where: an array of dtype <U1 is not"):
            xp.where(*args)


def test_where_from_many_threads_at_once(device):
    """Threads that meet ``where``'s plans for the first time together (each dtype's plan is
    made once per device and cached in Python and in the builtin) all get the right values
    and labels."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    dtypes = [
        dt
        for dt in (xp.bool, xp.int8, xp.int32, xp.float32, xp.complex64)
        if dt in xp.__array_namespace_info__().dtypes(device=device).values()
    ]
    c = xp.asarray([True, False, True], device=device)
    arrays = [xp.astype(xp.asarray([1, 0, 1], device=device), dt) for dt in dtypes]
    barrier = threading.Barrier(8)

    def work(k: int) -> None:
        barrier.wait()
        for _ in range(50):
            for i in range(len(arrays)):
                a = arrays[(i + k) % len(arrays)]
                r = xp.where(c, a, xp.zeros_like(a))
                assert r.dtype == a.dtype
                assert xp.asarray(r.native).dtype == r.dtype
                assert _np(r).tolist() == _np(a).tolist()

    with ThreadPoolExecutor(8) as pool:
        for done in [pool.submit(work, k) for k in range(8)]:
            done.result()  # (raises what the thread raised)


#: Keys the subscript slot runs itself on a device that indexes plainly, and keys it leaves to
#: ``Array.__getitem__`` (negative steps, bools, ints beyond INDEX_CHECKED, out of bounds,
#: arrays, lists, a step of 0).
_BASIC_KEYS = [
    0,
    -1,
    slice(None),
    slice(1, None),
    slice(None, None, 2),
    slice(-3, 5, 1),
    (slice(None), None),
    (None, Ellipsis),
    (Ellipsis, 0),
    (0, slice(1, 3)),
    (),
    Ellipsis,
    None,
]
_OTHER_KEYS = [
    slice(None, None, -1),
    (slice(None), slice(3, 0, -2)),
    True,
    (0, False),
    2**31,
    -(2**31) - 1,
    (0, 2**40),
    7,
    (0, 9),
    slice(0, 2**63),
    slice(None, None, 0),
    [0, 1],
    1.0,
]


@needs_ext
@pytest.mark.parametrize("key", _BASIC_KEYS + _OTHER_KEYS, ids=repr)
def test_indexing_slot_matches_the_method(device, key):
    """``x[key]`` (the subscript slot) gives what ``Array.__getitem__`` gives, or its error."""
    x = xp.reshape(xp.arange(12, device=device), (3, 4))
    try:
        expected = xp.Array.__getitem__(x, key)
    except Exception as e:
        with pytest.raises(type(e)) as info:
            x[key]
        assert str(info.value) == str(e)
        return
    got = x[key]
    assert got._dtype is expected._dtype
    _same(got, expected)


@needs_ext
def test_basic_indexing_runs_no_python_frame():
    a = xp.reshape(xp.arange(12.0, device="numpy"), (3, 4))
    t = xp.reshape(xp.arange(12.0, device="torch:cpu"), (3, 4)) if _has("torch") else a
    assert a.device._plain_index
    frames = []
    sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
    try:
        got = [a[:, None], a[1:3], a[0, -1], a[..., 1], t[:, None]]
    finally:
        sys.setprofile(None)
    assert frames == []
    _same(got[0], xp.expand_dims(a, axis=1))
    assert got[2].shape == () and float(got[2]) == 3.0
    # A key the slot leaves to the method runs it.
    sys.setprofile(lambda frame, event, arg: event == "call" and frames.append(frame))
    try:
        a[::-1]
    finally:
        sys.setprofile(None)
    assert any(f.f_code.co_name == "__getitem__" for f in frames)


def _has(backend):
    return any(d.backend == backend for d in _devices())


def test_devices_that_index_plainly():
    """The slot's flag: backends that are mutable, eager and index on their own."""
    for d in _devices():
        b = d._backend
        expected = b.spec.mutable and not b.spec.lazy and b.getitem is None
        assert d._plain_index is expected
    assert xp.Device("numpy")._plain_index
    if _has("jax"):
        assert not xp.Device("jax:cpu")._plain_index  # bounds are checked against the shape
    if _has("dask"):
        assert not xp.Device("dask")._plain_index  # lengths of results indexed by arrays


def test_getitem_takes_one_key():
    x = xp.asarray([1.0, 2.0, 3.0])
    assert list(inspect.signature(xp.Array.__getitem__).parameters) == ["self", "key"]
    with pytest.raises(TypeError, match="takes one key, got 2"):
        x.__getitem__(0, 1)
    _same(x.__getitem__(slice(1, None)), x[1:])


@needs_ext
def test_first_functions_with_keywords_skip_the_refusing_wrapper(device):
    """``mean(x, axis=...)`` of a floating array calls the function inside the device's
    refusing wrapper (no frame of the wrapper runs); an integer array still meets the wrapper,
    whose refusal hands the call to the checking path, as in the Python function."""
    if not device.supports(xp.float32):
        pytest.skip(f"{device} holds no float32")
    x = xp.reshape(xp.arange(6.0, dtype=xp.float32, device=device), (2, 3))
    fn = device._fns["mean"]
    if getattr(fn, "refused", None) is None:
        pytest.skip("this device's mean refuses no dtype")
    xp.mean(x, axis=1)  # the cache, filled
    names = []
    sys.setprofile(lambda frame, event, arg: event == "call" and names.append(frame.f_code.co_name))
    try:
        got = xp.mean(x, axis=1)
    finally:
        sys.setprofile(None)
    assert "refusing" not in names
    _same(got, python_twin(xp.mean)(x, axis=1))
    i = xp.reshape(xp.arange(6, device=device), (2, 3))
    for kwargs in ({"axis": 1}, {"axis": 0, "keepdims": True}):
        _same(xp.mean(i, **kwargs), python_twin(xp.mean)(i, **kwargs))
        _same(xp.var(i, **kwargs), python_twin(xp.var)(i, **kwargs))


def test_indexing_and_keyword_reductions_from_many_threads_at_once(device):
    """Threads that index with basic and other keys, and call ``mean``/``var`` with keywords
    on arrays of several dtypes and devices' caches at once, all get the values and labels of
    the Python methods (the subscript slot and the refusing wrapper's check keep no state
    between calls but the per-function cache of the device)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = xp.asarray(a, device=device)
    i = xp.reshape(xp.arange(24, device=device), (2, 3, 4))
    keys = [
        (slice(None), None, Ellipsis),
        (1, Ellipsis, 2),
        (slice(None, None, -1), Ellipsis),
        (0, Ellipsis),
        Ellipsis,
    ]
    barrier = threading.Barrier(8)

    def work(k: int) -> None:
        barrier.wait()
        for n in range(40):
            key = keys[(n + k) % len(keys)]
            got = x[key]
            assert got.dtype == xp.float32 and got.device == device
            np.testing.assert_array_equal(_np(got), a[key])
            arr = x if (n + k) % 2 else i  # a floating operand, then one the wrapper refuses
            _same(xp.mean(arr, axis=1), python_twin(xp.mean)(arr, axis=1))
            _same(
                xp.var(arr, axis=-1, keepdims=True),
                python_twin(xp.var)(arr, axis=-1, keepdims=True),
            )

    with ThreadPoolExecutor(8) as pool:
        for done in [pool.submit(work, k) for k in range(8)]:
            done.result()  # (raises what the thread raised)


def _python_reaches(monkeypatch, out, kept, leaves):
    """``_reaches_beyond`` by its Python walk."""
    from arraymux.transforms import _torch as engine

    with monkeypatch.context() as m:
        m.setattr(_compiled, "graph_reaches", lambda *args: None)
        return engine._reaches_beyond(out, kept, leaves)


@needs_ext
def test_graph_reaches_matches_the_python_walk(monkeypatch):
    """The compiled walk of an autograd graph tells what the Python walk tells: for graphs of
    the leaves alone, with a tensor from outside that requires grad (a leaf, or through an
    operation), with shared subgraphs (walked once), with leaves of an inner gradient
    (marked) and with aux tensors."""
    torch = pytest.importorskip("torch")
    from arraymux.transforms import _torch as engine

    calls = []
    real = _compiled.graph_reaches
    monkeypatch.setattr(_compiled, "graph_reaches", lambda *args: calls.append(1) or real(*args))
    a, b = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
    outside = torch.randn(3, requires_grad=True)
    inner = torch.randn(3, requires_grad=True)
    setattr(inner, engine._INNER, True)
    falsy = torch.randn(3, requires_grad=True)
    setattr(falsy, engine._INNER, 0)
    shared = torch.tanh(a * b)
    graphs = {
        "ours": (torch.sum(torch.sin(a) * b), [], [a, b]),
        "a constant": (torch.sum(a * torch.ones(3)), [], [a]),
        "a leaf from outside": (torch.sum(a * outside), [], [a, b]),
        "outside through an operation": (torch.sum(a + torch.exp(outside) ** 2), [], [a]),
        "shared nodes": (torch.sum(shared * shared + shared.sum() * a), [], [a, b]),
        "an inner gradient's leaf": (torch.sum(a * inner), [], [a]),
        "a falsy mark": (torch.sum(a * falsy), [], [a]),
        "outside in aux": (torch.sum(a), [torch.cos(outside)], [a]),
        "ours in aux": (torch.sum(a), [a * 2.0], [a]),
        "only b of two": (torch.sum(a * b), [], [b]),
    }
    want = {
        "ours": False,
        "a constant": False,
        "a leaf from outside": True,
        "outside through an operation": True,
        "shared nodes": False,
        "an inner gradient's leaf": False,
        "a falsy mark": True,
        "outside in aux": True,
        "ours in aux": False,
        "only b of two": True,
    }
    for name, (out, kept, leaves) in graphs.items():
        before = len(calls)
        got = engine._reaches_beyond(out, kept, leaves)
        assert len(calls) == before + 1, name  # the compiled walk ran
        assert got is want[name], name
        assert _python_reaches(monkeypatch, out, kept, leaves) is want[name], name


class _Node:
    """A stand-in for an autograd node: its edges are whatever a test gives."""

    def __init__(self, edges):
        self._edges = edges

    @property
    def next_functions(self):
        edges = self._edges
        if isinstance(edges, BaseException):
            raise edges
        return edges() if callable(edges) else edges


class _Leaf:
    def __init__(self, variable):
        self._variable = variable

    @property
    def variable(self):
        if isinstance(self._variable, BaseException):
            raise self._variable
        return self._variable


class _Marked:
    """A variable whose mark raises when it is read for its truth."""

    def __bool__(self):
        raise ValueError("no truth here")


@needs_ext
def test_graph_reaches_survives_hostile_nodes():
    """Bad arguments raise TypeError; a node whose edges or leaf raise, or whose edges are not
    pairs, raises that error; a node that drops the last reference to the graph while it is
    read leaves the walk holding what it reads (no crash); what is reached is answered as by
    the Python walk."""
    walk = _compiled.graph_reaches
    for bad in [
        ((), set(), _Leaf, "m"),
        ([], [], _Leaf, "m"),
        ([], set(), "not a type", "m"),
        ([], set(), _Leaf, 3),
        ([], set()),
    ]:
        with pytest.raises(TypeError, match="graph_reaches"):
            walk(*bad)
    mine = object()
    ours = {id(mine)}
    assert walk([], ours, _Leaf, "m") is False
    assert walk([_Node(((_Leaf(mine), 0), (None, 0)))], ours, _Leaf, "m") is False
    assert walk([_Node(((_Leaf(object()), 0),))], ours, _Leaf, "m") is True
    with pytest.raises(KeyError):
        walk([_Node(KeyError("edges"))], ours, _Leaf, "m")
    with pytest.raises(TypeError, match="not a pair"):
        walk([_Node((3,))], ours, _Leaf, "m")
    with pytest.raises(TypeError, match="not a pair"):
        walk([_Node(((1, 2, 3),))], ours, _Leaf, "m")
    with pytest.raises(TypeError):
        walk([_Node(5)], ours, _Leaf, "m")
    with pytest.raises(RuntimeError, match="variable"):
        walk([_Node(((_Leaf(RuntimeError("variable")), 0),))], ours, _Leaf, "m")
    marked = types.SimpleNamespace(m=_Marked())
    with pytest.raises(ValueError, match="no truth"):
        walk([_Node(((_Leaf(marked), 0),))], ours, _Leaf, "m")
    # A node's edges made fresh on each read, and dropped as soon as the walk moves on; a
    # cycle (which autograd never makes) is walked once.
    deep = _Node(((_Leaf(mine), 0),))
    assert walk([_Node(lambda: ((_Node(lambda: ((deep, 0),)), 0),))], ours, _Leaf, "m") is False
    ring = _Node(())
    ring._edges = ((ring, 0), (_Leaf(mine), 0))
    assert walk([ring], ours, _Leaf, "m") is False
    roots = [_Node(((_Leaf(object()), 0),))]
    assert walk(roots, ours, _Leaf, "m") is True and len(roots) == 1  # the list stays as it is
    # A node whose hash empties the list of edges being walked (the list is its parent's
    # next_functions): the walk reads a copy, holding every edge it reads (no crash).
    edges: list = []

    class Emptying(_Node):
        def __hash__(self):
            edges.clear()
            return 1

    edges.extend([(Emptying(()), 0)] + [(_Leaf(object()), 0) for _ in range(50)])
    assert walk([_Node(lambda: edges)], ours, _Leaf, "m") is True
    assert walk([_Node(lambda: edges)], ours, _Leaf, "m") is False  # emptied: nothing reached


@needs_ext
def test_an_interrupt_in_a_dtype_lookup_is_not_dropped():
    """Ctrl-C met while the compiled path looks a dtype up (its __hash__ runs Python code)
    reaches the caller as KeyboardInterrupt, as it does on the Python path; the lookup's
    other errors send the call to the Python path, which answers."""
    calls = []

    class Interrupted:
        def __hash__(self):
            calls.append(1)
            raise KeyboardInterrupt

        def __eq__(self, other):
            return False

    class Unhashable:
        __hash__ = None

    for call in (lambda a: xp.sin(a), lambda a: a * 2.0, lambda a: xp.add(a, a)):
        a = xp.asarray([1.0, 2.0])
        a._dtype = Interrupted()
        before = len(calls)
        with pytest.raises(KeyboardInterrupt):
            call(a)
            for _ in range(100):  # the interrupt is raised at the next check for signals
                pass
        assert len(calls) > before  # the lookup ran
        b = xp.asarray([1.0, 2.0])
        b._dtype = Unhashable()
        want = call(xp.asarray([1.0, 2.0]))
        np.testing.assert_array_equal(_np(call(b)), _np(want))
