"""Tests of mylib that use only arraymux's public testing tools: fixtures, markers, strategies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mylib import rms, softmax

from arraymux.testing import assert_close, assert_same_device
from arraymux.testing import strategies as axst


def test_softmax_sums_to_one(xp, device):
    x = xp.asarray([[1.0, 2.0, 3.0], [0.0, 0.0, 1000.0]], device=device)
    y = softmax(x)
    assert_same_device(x, y)
    assert_close(xp.sum(y, axis=-1), xp.ones(2, dtype=y.dtype, device=device))


def test_rms_matches_numpy(xp, device):
    values = np.asarray([3.0, 4.0], dtype=np.float32)
    assert_close(rms(xp.asarray(values, device=device)), np.sqrt(np.mean(values**2)))


@pytest.mark.skip_devices("dask", reason="shows that skip_devices takes a backend name")
def test_not_on_dask(device):
    assert device.backend != "dask"


@pytest.mark.xfail_devices("numpy", reason="shows that xfail_devices takes a backend name")
def test_expected_failure_on_numpy(device):
    assert device.backend != "numpy"


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_softmax_property(xp, device, data):
    x = data.draw(
        axst.arrays(
            device,
            "float32",
            axst.shapes(min_dims=1, max_dims=2, max_side=4),
            elements={"min_value": -50, "max_value": 50},
        )
    )
    y = softmax(x)
    assert y.shape == x.shape
    assert bool(xp.all(y >= 0))
