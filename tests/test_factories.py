"""The functions of several arrays take their plain calls straight to the device.

``take``, ``vecdot``, ``concat``, ``clip``, ... hand a plain call (Arrays of one device, those
they promote of one dtype, Python values by keyword) to the device's function and every
other call to the general path, which checks, promotes and explains. These tests hold the
plain path to the general path's answers, and check which calls take which path.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import arraymux as xp
from arraymux import _dispatch, _factories


def _cases(device: xp.Device) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    f = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    g = xp.asarray(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), device=device)
    v = xp.asarray(np.array([0.5, 2.5, 7.0], np.float32), device=device)
    k = xp.asarray([2, 0], device=device)
    kk = xp.asarray([[1, 0, 3, 2]] * 3, device=device)
    return [
        ("take", (f, k), {"axis": 1}),
        ("take", (f, k), {"axis": 0}),
        ("take_along_axis", (f, kk), {"axis": 1}),
        ("vecdot", (f, g), {}),
        ("vecdot", (f, g), {"axis": -2}),
        ("tensordot", (f, g), {"axes": 2}),
        ("linalg.outer", (v, v), {}),
        ("concat", ([f, g],), {}),
        ("concat", ((f, g),), {"axis": 1}),
        ("concat", ([f, g],), {"axis": None}),
        ("stack", ([f, g, f],), {"axis": -1}),
        ("searchsorted", (v, v), {"side": "right"}),
        ("isin", (kk, k), {}),
        ("broadcast_arrays", (f, g[0, ...]), {}),
        ("clip", (f, 1.0, 8.0), {}),
        ("clip", (f,), {"max": 5}),
        ("clip", (f, g), {}),
        ("clip", (f, None, g), {}),
    ]


def _fn(name: str) -> Callable[..., Any]:
    mod: Any = xp
    for part in name.split("."):
        mod = getattr(mod, part)
    return mod


def _host(r: Any) -> list[np.ndarray]:
    return [xp.to_numpy(a) for a in (r if isinstance(r, tuple | list) else [r])]


def test_plain_calls_go_to_the_device_and_agree_with_the_general_path(
    device: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, args, kwargs in _cases(device):
        want = _dispatch.call(name, args, dict(kwargs))

        def refuse(*a: object, _name: str = name, **k: object) -> None:
            raise AssertionError(f"{_name}: a plain call took the general path")

        with monkeypatch.context() as m:
            m.setattr(_factories, "call", refuse)
            got = _fn(name)(*args, **kwargs)
        for a, b, r in zip(
            _host(got), _host(want), got if isinstance(got, tuple | list) else [got], strict=True
        ):
            assert a.dtype == b.dtype and a.shape == b.shape, name
            np.testing.assert_array_equal(a, b, err_msg=name)
            assert r.device == device, name


def test_other_calls_take_the_general_path(
    device: xp.Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = xp.asarray(np.ones((2, 3), np.float32), device=device)
    other = xp.asarray(np.ones((2, 3), np.int32), device=device)
    zero_d = xp.asarray(np.float32(1.0), device=device)
    seen: list[str] = []
    real = _factories.call

    def spy(name: str, args: tuple[object, ...], kwargs: dict[str, object]) -> object:
        seen.append(name)
        return real(name, args, kwargs)

    monkeypatch.setattr(_factories, "call", spy)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("vecdot of two dtypes", lambda: xp.vecdot(f, other)),
        ("concat of two dtypes", lambda: xp.concat([f, other])),
        ("concat of a native array", lambda: xp.concat([f, f.native])),
        ("take with a list", lambda: xp.take(f, [0], axis=1)),  # refused there
        ("clip beyond int64", lambda: xp.clip(f, 0, 2**70)),
        ("clip of a NumPy scalar", lambda: xp.clip(f, np.float32(0.5))),
        ("clip of a bound of another dtype", lambda: xp.clip(f, other)),
        ("stack of nothing", lambda: xp.stack([])),
        ("concat of 0-d arrays", lambda: xp.concat([zero_d, zero_d])),
    ]
    for what, thunk in calls:
        seen.clear()
        with contextlib.suppress(TypeError, ValueError):
            thunk()  # (an error: the general path's answer to a call the standard refuses)
        assert seen, what


def test_the_backends_refusals_are_explained(device: xp.Device) -> None:
    f = xp.asarray(np.ones((2, 3), np.float32), device=device)
    k = xp.asarray([0], device=device)
    with pytest.raises(xp.AxisError, match=r"arraymux\.take: axis 5"):
        xp.take(f, k, axis=5)
    with pytest.raises((ValueError, TypeError), match=r"arraymux\.concat"):  # (JAX: TypeError)
        xp.concat([f, xp.ones((3, 3), dtype=xp.float32, device=device)], axis=1)
    with pytest.raises(TypeError, match=r"arraymux\.vecdot: axis must be an int"):
        xp.vecdot(f, f, axis=True)
    with pytest.raises(TypeError, match="both by position and by keyword"):
        xp.clip(f, 0.0, min=1.0)


_BOOL_AXES: list[tuple[str, Callable[[xp.Array, xp.Array], object]]] = [
    ("sum(axis=True)", lambda x, k: xp.sum(x, axis=True)),
    ("sum(axis=(True,))", lambda x, k: xp.sum(x, axis=(True,))),
    ("flip(axis=True)", lambda x, k: xp.flip(x, axis=True)),
    ("argmax(axis=True)", lambda x, k: xp.argmax(x, axis=True)),
    ("cumulative_sum(axis=True)", lambda x, k: xp.cumulative_sum(x, axis=True)),
    ("expand_dims(x, True)", lambda x, k: xp.expand_dims(x, True)),
    ("vecdot(axis=True)", lambda x, k: xp.vecdot(x, x, axis=True)),
    ("take(axis=True)", lambda x, k: xp.take(x, k, axis=True)),
    ("concat(axis=True)", lambda x, k: xp.concat([x, x], axis=True)),
    ("stack(axis=False)", lambda x, k: xp.stack([x, x], axis=False)),
]


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "python"])
def test_a_bool_is_no_axis_on_any_path(device: xp.Device, pure: bool) -> None:
    """JAX and Dask read ``axis=True`` as the axis 1; the standard takes ints. The fast paths
    pass bools only to the standard's bool parameters, so every backend refuses the same."""
    from arraymux._compiled import python_twin

    x = xp.ones((2, 3), dtype=xp.float32, device=device)
    k = xp.asarray([0], device=device)
    for _what, call in _BOOL_AXES:
        if pure:
            twin = {f: python_twin(f) for f in (xp.sum, xp.flip, xp.argmax, xp.expand_dims)}
            with pytest.MonkeyPatch.context() as m:
                for f, t in twin.items():
                    m.setattr(xp, f.__name__, t)
                with pytest.raises(TypeError, match="not a bool"):
                    call(x, k)
        else:
            with pytest.raises(TypeError, match="not a bool"):
                call(x, k)
    assert xp.sum(x, axis=1, keepdims=True).shape == (2, 1)  # a bool where one belongs
    assert xp.to_numpy(xp.isin(k, k, invert=True)).tolist() == [False]


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_plain_calls_of_emulated_dtypes_are_emulated(dtype):
    """torch holds uint16/32/64 without kernels for most functions: a plain call with such an
    array goes through the adapter's emulation (other plain calls skip its look through the
    arguments); the values are NumPy's."""
    dt = getattr(xp, dtype)
    top = int(np.iinfo(dtype).max)
    a = np.asarray([top, 3, 0, top - 1], dtype=dtype)
    b = np.asarray([1, top, 2, 5], dtype=dtype)
    x = xp.asarray(a, device="torch:cpu")
    y = xp.asarray(b, device="torch:cpu")
    idx = xp.asarray(np.asarray([3, 0], dtype=dtype), device="torch:cpu")
    assert x.dtype == dt
    cases = [
        (xp.concat([x, y]), np.concatenate([a, b])),
        (xp.stack([x, y], axis=1), np.stack([a, b], axis=1)),
        (xp.clip(x, 2, top - 1), np.clip(a, 2, top - 1)),
        (xp.clip(x, y), np.clip(a, b, None)),
        (xp.take(x, idx), a[[3, 0]]),
        (xp.take(xp.asarray(np.arange(5.0), device="torch:cpu"), idx[1:]), np.arange(5.0)[[0]]),
        (xp.searchsorted(xp.sort(x), y), np.searchsorted(np.sort(a), b)),
    ]
    for got, want in cases:
        assert got.device == xp.Device("torch:cpu")
        np.testing.assert_array_equal(xp.to_numpy(got), want)
        assert xp.to_numpy(got).dtype == want.dtype


def test_plain_calls_look_for_emulated_dtypes_only_where_an_array_has_one(monkeypatch):
    """The plain path hands a call with a uint16/32/64 array to torch's emulation (through
    ``call_backend``) and every other call to the device's function itself."""
    calls: list[str] = []
    real = _factories.call_backend

    def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(_factories, "call_backend", counted)
    f = xp.asarray(np.arange(4, dtype=np.float32), device="torch:cpu")
    u = xp.asarray(np.arange(4, dtype=np.uint32), device="torch:cpu")
    xp.concat([f, f])
    xp.clip(f, 0.5, 2.0)
    xp.stack([f, f])
    assert calls == []
    xp.concat([u, u])
    xp.clip(u, 1, 2)
    assert calls == ["concat", "clip"]
