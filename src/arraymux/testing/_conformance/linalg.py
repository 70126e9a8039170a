"""Properties of the linalg extension."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ..._dtypes import DType
from .. import assert_close
from .._hypothesis import reference_namespace
from ._core import (
    FLOAT,
    INF,
    NUMERIC,
    REAL,
    Draw,
    axis_kwargs,
    check,
    reference_ns,
    register,
    scale_of,
)

# ---------------------------------------------------------------------------------------------
# The linalg extension


def _matrix(
    d: Draw, dt: DType, batch: bool = True, n: int | None = None, kind: str = "general"
) -> np.ndarray:
    n = d.draw(st.integers(1, 4), "n") if n is None else n
    b = d.shape(max_dims=1, max_side=2) if batch else ()
    a = d.array(dt, (*b, n, n), {"min_value": -1.0, "max_value": 1.0}, label="A")
    eye = np.eye(n, dtype=a.dtype)
    if kind == "spd":
        return np.asarray(a @ np.swapaxes(a, -1, -2) + n * eye, dtype=a.dtype)
    if kind == "symmetric":
        return np.asarray(a + np.swapaxes(a, -1, -2), dtype=a.dtype)
    if kind == "invertible":
        return np.asarray(a + 2 * n * eye, dtype=a.dtype)
    return a


def _la_check(out: Any, ref: Any, d: Draw, dt: DType, scale: float = 10.0, **kw: Any) -> None:
    check(out, ref, d.device, dtype=dt, ulps=256, scale=scale, **kw)


@register("linalg.cholesky")
def _cholesky(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    a = _matrix(d, dt, kind="spd")
    upper = d.draw(st.booleans(), "upper")
    ref = np.linalg.cholesky(a.astype(np.float64))
    if upper:
        ref = np.swapaxes(ref, -1, -2)
    _la_check(ax.linalg.cholesky(d.dev(a), upper=upper), ref, d, dt)


@register("linalg.det", "linalg.slogdet")
def _det(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    a = _matrix(d, dt, kind="invertible")
    a64 = a.astype(np.float64)
    if name == "linalg.det":
        _la_check(
            ax.linalg.det(d.dev(a)),
            np.linalg.det(a64),
            d,
            dt,
            scale=abs(float(np.max(np.abs(np.linalg.det(a64))))) + 1,
        )
        return
    sign, logabs = ax.linalg.slogdet(d.dev(a))
    rs, rl = np.linalg.slogdet(a64)
    _la_check(sign, rs, d, dt, what="sign")
    _la_check(logabs, rl, d, dt, what="logabsdet")


@register("linalg.inv", "linalg.solve", "linalg.matrix_power")
def _inv_solve(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    a = _matrix(d, dt, kind="invertible")
    a64 = a.astype(np.float64)
    if name == "linalg.inv":
        _la_check(ax.linalg.inv(d.dev(a)), np.linalg.inv(a64), d, dt, what="inv")
        return
    if name == "linalg.solve":
        b = d.array(
            dt,
            (*a.shape[:-1], d.draw(st.integers(1, 3), "nrhs")),
            {"min_value": -1.0, "max_value": 1.0},
            label="B",
        )
        _la_check(
            ax.linalg.solve(d.dev(a), d.dev(b)),
            np.linalg.solve(a64, b.astype(np.float64)),
            d,
            dt,
            what="solve",
        )
        return
    p = d.draw(st.integers(-1, 3), "power")
    ref = np.linalg.matrix_power(a64, p)
    _la_check(
        ax.linalg.matrix_power(d.dev(a), p),
        ref,
        d,
        dt,
        scale=float(np.max(np.abs(ref))) + 1,
        what="matrix_power",
    )


@register("linalg.eigh", "linalg.eigvalsh")
def _eigh(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    a = _matrix(d, dt, kind="symmetric")
    w_ref = np.linalg.eigvalsh(a.astype(np.float64))
    if name == "linalg.eigvalsh":
        _la_check(ax.linalg.eigvalsh(d.dev(a)), w_ref, d, dt, what="eigvalsh")
        return
    w, v = ax.linalg.eigh(d.dev(a))
    _la_check(w, w_ref, d, dt, what="eigenvalues")
    wn, vn = ax.to_numpy(w, v)
    recon = (vn * wn[..., None, :]) @ np.swapaxes(vn, -1, -2)
    assert_close(recon, a, rtol=1e-3, atol=1e-3, check_dtype=False)


@register("linalg.eig", "linalg.eigvals")
def _eig(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    a = _matrix(d, dt, batch=False, kind="symmetric")
    # Entries near the bottom of the float range beside entries near 1 make the nonsymmetric
    # QR iteration of some LAPACK builds stop unconverged (torch's, measured on
    # [[1e-218, 1, 1e-218], [1e-218] * 3, [1e-218] * 3]); such entries become zeros here.
    a = np.where(np.abs(a) < 1e-30, 0, a).astype(a.dtype)
    cdt = ax.complex64 if dt is ax.float32 else ax.complex128
    if name == "linalg.eig":
        vals, vecs = ax.linalg.eig(d.dev(a))
        vn, vv = ax.to_numpy(vals, vecs)
        assert_close(
            a.astype(vv.dtype) @ vv, vv * vn[None, :], rtol=1e-3, atol=1e-3, check_dtype=False
        )
        return
    w = ax.linalg.eigvals(d.dev(a))
    if w.dtype != cdt or tuple(w.shape) != a.shape[:-1]:
        raise AssertionError(f"eigvals: {w.shape} {w.dtype}, expected {a.shape[:-1]} {cdt}")
    wn = np.sort_complex(np.asarray(ax.to_numpy(w)).astype(np.complex128))
    ref = np.sort_complex(np.linalg.eigvals(a.astype(np.float64)))
    assert_close(wn, ref, rtol=1e-3, atol=1e-3, check_dtype=False)


@register("linalg.svd", "linalg.svdvals", "linalg.matrix_rank", "linalg.pinv")
def _svd(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    m, n = d.draw(st.integers(1, 4), "m"), d.draw(st.integers(1, 4), "n")
    a = d.array(dt, (m, n), {"min_value": -3.0, "max_value": 3.0}, label="A")
    a = np.round(a).astype(a.dtype)  # integer-valued: ranks are clear-cut
    a64 = a.astype(np.float64)
    s_ref = np.linalg.svd(a64, compute_uv=False)
    if name == "linalg.svdvals":
        _la_check(ax.linalg.svdvals(d.dev(a)), s_ref, d, dt, what="svdvals", scale=10)
        return
    if name == "linalg.matrix_rank":
        check(ax.linalg.matrix_rank(d.dev(a)), np.linalg.matrix_rank(a64), d.device, defaults=True)
        return
    if name == "linalg.pinv":
        if s_ref.min() > 0.1:
            _la_check(ax.linalg.pinv(d.dev(a)), np.linalg.pinv(a64), d, dt, scale=100, what="pinv")
        return
    u, s, vh = ax.linalg.svd(d.dev(a), full_matrices=False)
    _la_check(s, s_ref, d, dt, what="S")
    un, sn, vhn = ax.to_numpy(u, s, vh)
    assert_close((un * sn[None, :]) @ vhn, a, rtol=1e-3, atol=1e-3, check_dtype=False)


@register("linalg.qr")
def _qr(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    m, n = d.draw(st.integers(1, 4), "m"), d.draw(st.integers(1, 4), "n")
    a = d.array(dt, (m, n), {"min_value": -1.0, "max_value": 1.0}, label="A")
    q, r = ax.linalg.qr(d.dev(a))
    k = min(m, n)
    if tuple(q.shape) != (m, k) or tuple(r.shape) != (k, n) or q.dtype != dt:
        raise AssertionError(f"qr: Q {q.shape} R {r.shape} {q.dtype}")
    qn, rn = ax.to_numpy(q, r)
    assert_close(qn @ rn, a, rtol=1e-3, atol=1e-3, check_dtype=False)
    assert_close(np.triu(rn), rn, check_dtype=False)


@register("linalg.cross")
def _cross(d: Draw, name: str) -> None:
    dt = d.dtype(REAL if False else ("real floating", "signed integer"))
    shapes = d.draw(
        reference_namespace().mutually_broadcastable_shapes(2, max_dims=2, max_side=2), "batch"
    )
    e = {"min_value": -10, "max_value": 10} if dt.kind != "real floating" else None
    x1 = d.array(dt, (*shapes.input_shapes[0], 3), e, label="x1")
    x2 = d.array(dt, (*shapes.input_shapes[1], 3), e, label="x2")
    check(
        ax.linalg.cross(d.dev(x1), d.dev(x2)),
        np.cross(x1, x2),
        d.device,
        dtype=dt,
        scale=scale_of(x1, x2) ** 2,
    )


@register("linalg.diagonal", "linalg.trace")
def _diagonal(d: Draw, name: str) -> None:
    dt = d.dtype(NUMERIC)
    x = d.array(
        dt,
        d.shape(min_dims=2),
        {"min_value": -10, "max_value": 10} if dt.kind == "signed integer" else None,
    )
    offset = d.draw(st.integers(-2, 2), "offset")
    if name == "linalg.diagonal":
        check(
            ax.linalg.diagonal(d.dev(x), offset=offset),
            np.diagonal(x, offset, -2, -1),
            d.device,
            dtype=dt,
        )
        return
    ref = reference_ns().linalg.trace(x, offset=offset)
    check(
        ax.linalg.trace(d.dev(x), offset=offset),
        ref,
        d.device,
        defaults=dt.kind in ("signed integer", "unsigned integer"),
        scale=scale_of(x) * 4,
    )


@register("linalg.outer")
def _outer(d: Draw, name: str) -> None:
    dt = d.dtype(NUMERIC)
    e = (
        {"min_value": 0, "max_value": 10}
        if dt.kind in ("signed integer", "unsigned integer")
        else None
    )
    x1 = d.array(dt, d.draw(st.integers(1, 4)), e, label="x1")
    x2 = d.array(dt, d.draw(st.integers(1, 4)), e, label="x2")
    check(
        ax.linalg.outer(d.dev(x1), d.dev(x2)),
        np.outer(x1, x2),
        d.device,
        dtype=dt,
        scale=scale_of(x1, x2) ** 2,
    )


@register("linalg.matrix_norm")
def _matrix_norm(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    x = d.array(dt, d.shape(min_dims=2, max_dims=3), {"min_value": -10.0, "max_value": 10.0})
    ord_ = d.draw(st.sampled_from(["fro", "nuc", 1, -1, 2, -2, INF, -INF]), "ord")
    keepdims = d.draw(st.booleans(), "keepdims")
    ref = reference_ns().linalg.matrix_norm(x.astype(np.float64), ord=ord_, keepdims=keepdims)
    _la_check(
        ax.linalg.matrix_norm(d.dev(x), ord=ord_, keepdims=keepdims),
        ref,
        d,
        dt,
        scale=scale_of(x) * 16,
    )


@register("linalg.vector_norm")
def _vector_norm(d: Draw, name: str) -> None:
    dt = d.dtype(FLOAT)
    x = d.array(dt, d.shape(), {"min_value": -10.0, "max_value": 10.0})
    kw = axis_kwargs(d, x.ndim, tuples=True)
    ord_ = d.draw(st.sampled_from([2, 1, 3, INF, -INF, 0]), "ord")
    ref = reference_ns().linalg.vector_norm(x.astype(np.float64), ord=ord_, **kw)
    _la_check(
        ax.linalg.vector_norm(d.dev(x), ord=ord_, **kw),
        ref,
        d,
        dt,
        scale=scale_of(x) * max(x.size, 1),
    )
