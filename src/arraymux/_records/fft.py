"""The records of the fft extension: one per function."""

from __future__ import annotations

from collections.abc import Mapping

from ._record import (
    COMPLEX_OF_X,
    CREATION_DTYPE,
    FFT_AXIS,
    FREQ_N,
    OUT_N,
    REAL_OF_X,
    SHIFT_AXES,
    Record,
    Text,
    section,
)


def transform(
    name: str,
    summary: str,
    result: str,
    *,
    axes: bool,
    real: bool,
    parameters: Mapping[str, Text] | None = None,
    example: str,
) -> Record:
    """A transform (written by hand) over one axis (``n``, ``axis``) or, with ``axes``, several
    (``s``, ``axes``), of a complex input or, with ``real``, a real-valued one; ``result``
    describes the result (its returns text)."""
    sizes, over = ("s", "axes") if axes else ("n", "axis")
    if not axes:
        parameters = {**(parameters or {}), "axis": FFT_AXIS}
    return Record(
        name,
        "first",
        signature=f"(x, /, *, {sizes}=None, {over}={'None' if axes else -1}, norm='backward')",
        summary=summary,
        dtypes="real-valued floating-point" if real else "complex floating-point",
        parameters=parameters,
        returns=("Array", result),
        operands="floating" if real else "complex",
        also_positional=(sizes, over, "norm"),
        zero_d=("s[]",) if axes else ("n",),
        by_hand=True,
        # complex input, which every library refuses with an error of its own type
        refused=("complex floating",) if real else (),
        example=example,
    )


def complex_transform(name: str, *, axes: bool, inverse: bool, example: str) -> Record:
    """The discrete Fourier transform of a complex input (``inverse``: its inverse), over one
    axis or, with ``axes``, several."""
    dimensional, along, length = (
        ("N-dimensional", "axes", "lengths ``s[i]``")
        if axes
        else ("One-dimensional", "axis", "length ``n``")
    )
    kind = "inverse " if inverse else ""
    return transform(
        name,
        f"{dimensional} {kind}discrete Fourier transform.",
        f"The {kind}transform, with the shape of ``x`` except along the transformed {along}, of "
        f"{length}, and the dtype of ``x``.",
        axes=axes,
        real=False,
        example=example,
    )


def shift(name: str, summary: str, *, example: str) -> Record:
    """A shift of the zero-frequency component of a spectrum (or its inverse)."""
    return Record(
        name,
        "first",
        signature="(x, /, *, axes=None)",
        summary=summary,
        dtypes="floating-point",
        parameters={"axes": SHIFT_AXES},
        returns=("Array", "The shifted array, of the shape and dtype of ``x``."),
        keeps_dtype=True,
        also_positional=("axes",),
        example=example,
    )


def frequencies(name: str, summary: str, result: str, *, example: str) -> Record:
    """The sample frequencies of a transform of ``n`` samples spaced ``d`` apart."""
    return Record(
        name,
        "creation",
        signature="(n, /, *, d=1.0, dtype=None, device=None)",
        summary=summary,
        parameters={"n": FREQ_N, "dtype": CREATION_DTYPE},
        returns=("Array", result),
        also_positional=("d",),
        zero_d=("d",),
        example=example,
    )


RECORDS = section(
    "fft",
    complex_transform(
        "fft.fft",
        axes=False,
        inverse=False,
        example="""\
>>> xp.fft.fft(xp.asarray([0.0, 1.0, 0.0, 0.0], dtype=xp.complex128))
Array([ 1.+0.j,  0.-1.j, -1.+0.j,  0.+1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    complex_transform(
        "fft.ifft",
        axes=False,
        inverse=True,
        example="""\
>>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0], dtype=xp.complex128))
Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    complex_transform(
        "fft.fftn",
        axes=True,
        inverse=False,
        example="""\
>>> xp.fft.fftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.complex128))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    complex_transform(
        "fft.ifftn",
        axes=True,
        inverse=True,
        example="""\
>>> xp.fft.ifftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1.+0.j, 2.+0.j],
       [3.+0.j, 4.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    transform(
        "fft.rfft",
        "One-dimensional discrete Fourier transform of a real-valued input.",
        (
            "The non-negative frequency terms, with the shape of ``x`` except along ``axis``, "
            f"of length ``n//2 + 1``, of {COMPLEX_OF_X}."
        ),
        axes=False,
        real=True,
        example="""\
>>> xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    transform(
        "fft.irfft",
        "Inverse of ``rfft``: a real-valued signal from the one-sided spectrum ``x``.",
        (
            "The real signal, with the shape of ``x`` except along ``axis``, of length ``n``, "
            f"of {REAL_OF_X}."
        ),
        axes=False,
        real=False,
        parameters={"n": OUT_N},
        example="""\
>>> xp.fft.irfft(xp.asarray([10.0, -2.0 + 2.0j, -2.0]))
Array([1., 2., 3., 4.], dtype=float64, device='numpy:cpu')
""",
    ),
    transform(
        "fft.rfftn",
        "N-dimensional discrete Fourier transform of a real-valued input.",
        (
            "The transform, with the shape of ``x`` except along the transformed axes: "
            f"``s[-1]//2 + 1`` for the last one, ``s[i]`` for the others; of {COMPLEX_OF_X}."
        ),
        axes=True,
        real=True,
        example="""\
>>> xp.fft.rfftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    transform(
        "fft.irfftn",
        "Inverse of ``rfftn``: a real-valued signal from the one-sided spectrum ``x``.",
        (
            "The real signal, with the shape of ``x`` except along the transformed axes, of "
            f"lengths ``s[i]``; of {REAL_OF_X}."
        ),
        axes=True,
        real=False,
        parameters={
            "s": (
                "sequence of ints or None",
                "Length of each transformed axis of the output (in the order of ``axes``); the "
                "last input axis is zero-padded or trimmed to ``s[-1]//2 + 1`` elements, the "
                "others to ``s[i]``. None (the default) keeps the lengths, except ``2*(m - 1)`` "
                "for the last axis. Requires ``axes``.",
            ),
        },
        example="""\
>>> xp.fft.irfftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1., 2.],
       [3., 4.]], dtype=float64, device='numpy:cpu')
""",
    ),
    transform(
        "fft.hfft",
        "Discrete Fourier transform of a signal with Hermitian symmetry (a real spectrum).",
        (
            "The real spectrum, with the shape of ``x`` except along ``axis``, of length ``n``, "
            f"of {REAL_OF_X}."
        ),
        axes=False,
        real=False,
        parameters={"n": OUT_N},
        example="""\
>>> xp.fft.hfft(xp.asarray([1.0, 2.0, 3.0], dtype=xp.complex128))
Array([ 8., -2.,  0., -2.], dtype=float64, device='numpy:cpu')
""",
    ),
    transform(
        "fft.ihfft",
        "Inverse discrete Fourier transform of a real signal, whose spectrum is Hermitian.",
        (
            "The non-negative frequency terms of the inverse transform, with the shape of ``x`` "
            f"except along ``axis``, of length ``n//2 + 1``, of {COMPLEX_OF_X}."
        ),
        axes=False,
        real=True,
        example="""\
>>> xp.fft.ihfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([ 2.5-0.j , -0.5-0.5j, -0.5-0.j ], dtype=complex128, device='numpy:cpu')
""",
    ),
    shift(
        "fft.fftshift",
        "Spectrum with its zero-frequency component shifted to the center.",
        example="""\
>>> xp.fft.fftshift(xp.fft.fftfreq(4))
Array([-0.5 , -0.25,  0.  ,  0.25], dtype=float64, device='numpy:cpu')
""",
    ),
    shift(
        "fft.ifftshift",
        "Inverse of ``fftshift``.",
        example="""\
>>> xp.fft.ifftshift(xp.asarray([-0.5, -0.25, 0.0, 0.25]))
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
""",
    ),
    frequencies(
        "fft.fftfreq",
        "Sample frequencies of the discrete Fourier transform.",
        "Array of shape ``(n,)``: ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d*n)``.",
        example="""\
>>> xp.fft.fftfreq(4)
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
>>> xp.fft.fftfreq(4, d=0.5)
Array([ 0. ,  0.5, -1. , -0.5], dtype=float64, device='numpy:cpu')
""",
    ),
    frequencies(
        "fft.rfftfreq",
        "Sample frequencies of ``rfft`` and ``irfft`` (the non-negative ones).",
        "Array of shape ``(n//2 + 1,)``: ``[0, 1, ..., n//2] / (d*n)``.",
        example="""\
>>> xp.fft.rfftfreq(4)
Array([0.  , 0.25, 0.5 ], dtype=float64, device='numpy:cpu')
""",
    ),
)
