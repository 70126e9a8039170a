"""Properties of the fft extension."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import arraymux as ax

from ._core import INEXACT, PROPERTIES, Draw, PropertyFn, check, fn_of, reference_fn, register

# ---------------------------------------------------------------------------------------------
# The fft extension

_FFT_COMPLEX = ("fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn", "fft.hfft")
_FFT_REAL = ("fft.rfft", "fft.rfftn", "fft.ihfft")


def _fft_case(d: Draw, name: str) -> None:
    real_in = name in _FFT_REAL
    dt = d.dtype("real floating" if real_in else "complex floating")
    nd = name.endswith("n")
    shape = d.shape(min_dims=1, max_dims=3 if nd else 2, min_side=2)
    x = d.array(
        dt, shape, {"min_value": -1.0, "max_value": 1.0} if real_in else {"max_magnitude": 1.0}
    )
    norm = d.draw(st.sampled_from(["backward", "ortho", "forward"]), "norm")
    kw: dict[str, object] = {"norm": norm}
    if nd:
        if d.draw(st.booleans(), "with_axes"):
            kw["axes"] = tuple(
                d.draw(
                    st.lists(st.integers(0, x.ndim - 1), unique=True, min_size=1, max_size=x.ndim),
                    "axes",
                )
            )
    else:
        kw["axis"] = d.axis(x.ndim)
        if d.draw(st.booleans(), "with_n"):
            kw["n"] = d.draw(st.integers(2, 6), "n")
    wide = x.astype(np.complex128 if dt.kind == "complex floating" else np.float64)
    ref = reference_fn(name)(wide, **kw)
    out_dt = (ax.complex64 if dt is ax.float32 else ax.complex128) if real_in else dt
    if name == "fft.hfft":
        out_dt = ax.float32 if dt is ax.complex64 else ax.float64
    check(
        fn_of(name)(d.dev(x), **kw),
        ref,
        d.device,
        dtype=out_dt,
        ulps=64,
        scale=float(max(x.size, 1)) * 4,
    )


def _fft_property(name: str) -> PropertyFn:
    def prop(d: Draw, name: str) -> None:
        _fft_case(d, name)

    return prop


for _n in (*_FFT_COMPLEX, *_FFT_REAL):
    PROPERTIES[_n] = _fft_property(_n)


@register("fft.irfft", "fft.irfftn")
def _irfft(d: Draw, name: str) -> None:
    dt = d.dtype("complex floating")
    shape = d.shape(min_dims=1, max_dims=2, min_side=2)
    x = d.array(dt, shape, {"max_magnitude": 1.0})
    norm = d.draw(st.sampled_from(["backward", "ortho", "forward"]), "norm")
    ref = reference_fn(name)(x.astype(np.complex128), norm=norm)
    out_dt = ax.float32 if dt is ax.complex64 else ax.float64
    check(
        fn_of(name)(d.dev(x), norm=norm),
        ref,
        d.device,
        dtype=out_dt,
        ulps=64,
        scale=float(x.size) * 4,
    )


@register("fft.fftshift", "fft.ifftshift")
def _fftshift(d: Draw, name: str) -> None:
    dt = d.dtype(INEXACT)
    x = d.array(dt, d.shape(min_dims=1))
    check(fn_of(name)(d.dev(x)), reference_fn(name)(x), d.device, dtype=dt)


@register("fft.fftfreq", "fft.rfftfreq")
def _fftfreq(d: Draw, name: str) -> None:
    n = d.draw(st.integers(1, 10), "n")
    spacing = d.draw(st.sampled_from([1.0, 0.5, 2.0]), "d")
    check(
        fn_of(name)(n, d=spacing, device=d.device),
        reference_fn(name)(n, d=spacing),
        d.device,
        defaults=True,
    )
