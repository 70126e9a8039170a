"""The dtype cached on an Array by the hot paths is always the dtype of the native result.

The hot paths pass a result's native dtype on without reading it from the native array (that
read costs 50-250 ns on torch and JAX). These tests call every function listed in
``RESULT_DTYPES`` with every dtype it lists, through the public API, on every device, and
compare the cached dtype with the one read back from the native result.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import arraymux as xp
from arraymux._function_table import TABLE
from arraymux._result_dtypes import RESULT_DTYPES

SAME_DTYPE_FIRST = [e.name for e in TABLE if e.keeps_dtype]


def _operand(dt: xp.DType, device: xp.Device) -> xp.Array:
    if dt is xp.bool:
        x = xp.asarray([True, False, True, False], device=device)
        assert x.dtype is dt
        return x
    values = [1, 2, 3, 4] if dt.kind != "complex floating" else [1 + 1j, 2, 3 - 1j, 4]
    if dt.kind in ("real floating", "complex floating"):
        values = [v / 8 for v in values]  # inside the domain of asin, atanh, ...
    x = xp.asarray(values, dtype=dt, device=device)
    assert x.dtype is dt  # reads the native dtype and caches it
    return x


def _call(name: str, *args: Any) -> Any:
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    if name in ("matmul", "linalg.matmul"):
        args = tuple(xp.reshape(a, (2, 2)) for a in args)
    return fn(*args)


def _check(out: xp.Array, expected: xp.DType | None) -> None:
    assert out._dtype is None or out._dtype == out._native.dtype
    if expected is not None:
        assert out._dtype is not None
        assert out.dtype is expected


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_result_dtypes_match_the_native_result(device: xp.Device) -> None:
    checked = 0
    for name, table in RESULT_DTYPES.items():
        nargs = 1 if name in _UNARY else 2
        for dt, expected in table.items():
            if dt not in _SAMPLE or not xp.__array_namespace_info__().dtypes(device=device).get(
                dt.name
            ):
                continue
            x = _operand(dt, device)
            try:
                out = _call(name, *([x] * nargs))
            except (TypeError, ValueError, RuntimeError, NotImplementedError):
                continue  # the backend does not implement it for this dtype
            _check(out, expected)
            checked += 1
            if nargs == 2 and dt in (xp.int16, xp.float32) and "matmul" not in name:
                scalar = 2 if dt.kind in ("signed integer", "unsigned integer") else 0.5
                for args in ((x, scalar), (scalar, x)):
                    try:
                        out = _call(name, *args)
                    except (TypeError, ValueError, RuntimeError, NotImplementedError):
                        continue
                    _check(out, expected)
    assert checked > 100


# One or two dtypes of each kind (the rules go by kind): every dtype would mean a thousand
# JAX compilations.
_SAMPLE = (xp.bool, xp.int16, xp.int64, xp.uint8, xp.float32, xp.float64, xp.complex128)
_UNARY = {e.name for e in xp._function_table.TABLE if e.rule == "unary"}


@pytest.mark.parametrize("name", sorted(SAME_DTYPE_FIRST))
def test_shape_functions_keep_the_cached_dtype(device: xp.Device, name: str) -> None:
    x = xp.reshape(xp.arange(6, dtype=xp.int32, device=device), (2, 3))
    assert x.dtype is xp.int32  # now cached
    args: dict[str, tuple[Any, ...]] = {
        "broadcast_to": ((2, 2, 3),),
        "expand_dims": (0,),
        "moveaxis": (0, 1),
        "permute_dims": ((1, 0),),
        "reshape": ((3, 2),),
        "roll": (1,),
        "squeeze": (),
        "tile": ((2, 1),),
    }
    y = xp.expand_dims(x, 0) if name == "squeeze" else x
    if name == "squeeze":
        y.dtype  # noqa: B018  (fill the cache)
        out = xp.squeeze(y, 0)
    elif name.startswith("fft."):
        z = xp.astype(x, xp.float32)
        z.dtype  # noqa: B018
        out = _call(name, z)
    else:
        out = _call(name, y, *args.get(name, ()))
    _check(out, None)
    assert out._dtype is not None


def test_in_place_operators_and_setitem_keep_the_cache_true(device: xp.Device) -> None:
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32, device=device)
    x += 1
    x[0] = 5.0
    x *= x
    _check(x, xp.float32)
    assert xp.to_numpy(x).tolist() == [25.0, 9.0, 16.0]
    item = x[1]
    _check(item, xp.float32)


def test_the_cache_is_not_pickled() -> None:
    x = xp.asarray([1, 2], dtype=xp.int16)
    assert x.dtype is xp.int16
    y = pickle.loads(pickle.dumps(x))
    assert y._dtype is None
    assert y.dtype is xp.int16


def test_a_native_dtype_without_an_arraymux_equivalent_is_refused() -> None:
    # A wrapped bfloat16 tensor would carry a dtype no function of the standard knows: its
    # .dtype, repr and promotion would fail later, far from the cause.
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match=r"arraymux.asarray: .*bfloat16.*astype"):
        xp.asarray(torch.ones(3, dtype=torch.bfloat16))
    a = xp.asarray(torch.ones(3, dtype=torch.bfloat16).float())
    assert (a + a).dtype is xp.float32
