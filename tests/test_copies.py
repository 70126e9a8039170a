"""No copy that the user did not ask for, and no second copy where one was asked for."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import arraymux as xp


def _recording_astype(device, monkeypatch):
    calls = []
    fns = device._fns
    base = fns["astype"]

    def astype(x, dtype, /, **kwargs):
        calls.append(kwargs.get("copy", True))
        return base(x, dtype, **kwargs)

    monkeypatch.setitem(fns, "astype", astype)
    return calls


def test_astype_to_another_dtype_copies_once(device, monkeypatch):
    """A cast makes a new array by itself: the backend is not asked to copy it again (JAX's
    astype(copy=True) did, doubling its cost), and the result is still a new array."""
    x = xp.asarray([1.5, -2.5, 3.0], dtype=xp.float32, device=device)
    calls = _recording_astype(x.device, monkeypatch)
    y = xp.astype(x, xp.int32)
    assert calls == [False]
    assert y.dtype == xp.int32
    assert xp.to_numpy(y).tolist() == [1, -2, 3]
    z = xp.astype(x, xp.float32)  # the same dtype: copied, as asked
    assert calls == [False, True]
    if device.backend not in ("jax", "dask"):  # mutable: the copy is independent
        z[0] = 7.0
        assert xp.to_numpy(x)[0] == 1.5
    assert xp.astype(x, xp.float32, copy=False).dtype == xp.float32
    assert calls[-1] is False


def test_astype_allocates_the_result_once_on_numpy():
    x = xp.asarray(np.ones(1 << 20, np.float64), device="numpy")  # 8 MiB
    xp.astype(x, xp.float32)  # warm up
    tracemalloc.start()
    try:
        y = xp.astype(x, xp.float32)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert y.dtype == xp.float32
    assert peak < 1.5 * (4 << 20), peak  # one 4 MiB result, not two


@pytest.mark.parametrize("copy", [True, None])
def test_astype_with_copy_keeps_the_input_intact(device, copy):
    x = xp.asarray([1, 2, 3], dtype=xp.int16, device=device)
    kwargs = {} if copy is None else {"copy": copy}
    y = xp.astype(x, xp.int32, **kwargs)
    assert y.dtype == xp.int32 and xp.to_numpy(y).tolist() == [1, 2, 3]


@pytest.mark.parametrize("bad", ["yes", 1, [True]])
def test_copy_arguments_take_true_false_or_none(device, bad):
    """``copy=`` of ``asarray``, ``from_dlpack``, ``to_device`` and ``astype`` takes True,
    False or None (a NumPy bool too); anything else raises a TypeError naming the function
    (an array there was read with ``bool()``, a string was taken as True)."""
    x = xp.asarray([1.0, 2.0], device=device)
    calls = [
        ("asarray", lambda c: xp.asarray(x, copy=c)),
        ("asarray", lambda c: x.__array_namespace__().asarray(x, copy=c)),
        ("from_dlpack", lambda c: xp.from_dlpack(x, copy=c)),
        ("to_device", lambda c: xp.to_device(x, "numpy", copy=c)),
        ("astype", lambda c: xp.astype(x, x.dtype, copy=c)),
    ]
    for name, call in calls:
        for wrong in (bad, x):
            with pytest.raises(TypeError, match=rf"arraymux\.{name}: copy must be True, False or"):
                call(wrong)
        assert xp.to_numpy(call(np.bool_(True))).tolist() == [1.0, 2.0]
        assert xp.to_numpy(call(None)).tolist() == [1.0, 2.0]
