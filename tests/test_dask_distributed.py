"""Dask through arraymux: lazy until read, and run on a dask.distributed LocalCluster."""

from __future__ import annotations

import numpy as np
import pytest

import arraymux as xp

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")


def _is_dask(x: xp.Array) -> bool:
    return isinstance(x._native, da.Array)


def test_dask_ops_stay_lazy():
    import dask

    calls = []

    @dask.delayed
    def source():
        calls.append(1)
        return np.arange(6.0)

    raw = da.from_delayed(source(), shape=(6,), dtype=np.float64)
    x = xp.asarray(raw)
    assert x.device == xp.Device("dask")
    y = xp.sum(xp.sin(x) * 2 + 1)
    z = xp.reshape(x, (2, 3)) @ xp.ones((3, 2), device="dask")
    assert _is_dask(y)
    assert _is_dask(z)
    assert y.shape == ()
    assert z.shape == (2, 2)
    assert calls == []
    np.testing.assert_allclose(float(y), np.sum(np.sin(np.arange(6.0)) * 2 + 1))
    assert len(calls) == 1
    assert bool(y > 0) is True
    assert "device='dask'" in repr(z)
    np.testing.assert_allclose(xp.to_numpy(z), np.arange(6.0).reshape(2, 3) @ np.ones((3, 2)))


@pytest.mark.timeout(240)
def test_local_cluster_computation():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    )
    client = Client(cluster)
    try:
        assert len(client.scheduler_info()["workers"]) == 2
        ref = np.arange(40.0).reshape(8, 5)
        x = xp.asarray(da.from_array(ref, chunks=(2, 5)))
        y = xp.mean(xp.exp(x / 40.0) * x, axis=0) + xp.max(x)
        w = xp.where(x > 10.0, x, -x)
        assert _is_dask(y)
        assert _is_dask(w)
        np.testing.assert_allclose(xp.to_numpy(y), np.mean(np.exp(ref / 40.0) * ref, axis=0) + 39)
        np.testing.assert_allclose(xp.to_numpy(w), np.where(ref > 10.0, ref, -ref))
        assert float(xp.sum(w)) == pytest.approx(float(np.sum(np.where(ref > 10, ref, -ref))))
    finally:
        client.close()
        cluster.close()
