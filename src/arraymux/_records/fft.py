"""The records of the fft extension: one per function."""

from __future__ import annotations

from ._record import CREATION_DTYPE, FFT_AXIS, FREQ_N, OUT_N, SHIFT_AXES, Record, section

RECORDS = section(
    "fft",
    Record(
        "fft.fft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="One-dimensional discrete Fourier transform.",
        dtypes="complex floating-point",
        parameters={"axis": FFT_AXIS},
        returns=(
            "Array",
            "The transform, with the shape of ``x`` except along the transformed axis, of length "
            "``n``, and the dtype of ``x``.",
        ),
        operands="complex",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.fft(xp.asarray([0.0, 1.0, 0.0, 0.0], dtype=xp.complex128))
Array([ 1.+0.j,  0.-1.j, -1.+0.j,  0.+1.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.ifft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="One-dimensional inverse discrete Fourier transform.",
        dtypes="complex floating-point",
        parameters={"axis": FFT_AXIS},
        returns=(
            "Array",
            "The inverse transform, with the shape of ``x`` except along the transformed axis, of "
            "length ``n``, and the dtype of ``x``.",
        ),
        operands="complex",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.ifft(xp.asarray([4.0, 0.0, 0.0, 0.0], dtype=xp.complex128))
Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.fftn",
        "first",
        signature="(x, /, *, s=None, axes=None, norm='backward')",
        summary="N-dimensional discrete Fourier transform.",
        dtypes="complex floating-point",
        returns=(
            "Array",
            "The transform, with the shape of ``x`` except along the transformed axes, of lengths "
            "``s[i]``, and the dtype of ``x``.",
        ),
        operands="complex",
        also_positional=("s", "axes", "norm"),
        zero_d=("s[]",),
        by_hand=True,
        example="""\
>>> xp.fft.fftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.complex128))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.ifftn",
        "first",
        signature="(x, /, *, s=None, axes=None, norm='backward')",
        summary="N-dimensional inverse discrete Fourier transform.",
        dtypes="complex floating-point",
        returns=(
            "Array",
            "The inverse transform, with the shape of ``x`` except along the transformed axes, of "
            "lengths ``s[i]``, and the dtype of ``x``.",
        ),
        operands="complex",
        also_positional=("s", "axes", "norm"),
        zero_d=("s[]",),
        by_hand=True,
        example="""\
>>> xp.fft.ifftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1.+0.j, 2.+0.j],
       [3.+0.j, 4.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.rfft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="One-dimensional discrete Fourier transform of a real-valued input.",
        dtypes="real-valued floating-point",
        parameters={"axis": FFT_AXIS},
        returns=(
            "Array",
            "The non-negative frequency terms, with the shape of ``x`` except along ``axis``, of "
            "length ``n//2 + 1``, of the complex dtype of the precision of ``x`` (``float64`` "
            "gives ``complex128``).",
        ),
        operands="floating",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.rfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.irfft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="Inverse of ``rfft``: a real-valued signal from the one-sided spectrum ``x``.",
        dtypes="complex floating-point",
        parameters={"n": OUT_N, "axis": FFT_AXIS},
        returns=(
            "Array",
            "The real signal, with the shape of ``x`` except along ``axis``, of length ``n``, of "
            "the real dtype of the precision of ``x`` (``complex128`` gives ``float64``).",
        ),
        operands="complex",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.irfft(xp.asarray([10.0, -2.0 + 2.0j, -2.0]))
Array([1., 2., 3., 4.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.rfftn",
        "first",
        signature="(x, /, *, s=None, axes=None, norm='backward')",
        summary="N-dimensional discrete Fourier transform of a real-valued input.",
        dtypes="real-valued floating-point",
        returns=(
            "Array",
            "The transform, with the shape of ``x`` except along the transformed axes: ``s[-1]//2 "
            "+ 1`` for the last one, ``s[i]`` for the others; of the complex dtype of the "
            "precision of ``x`` (``float64`` gives ``complex128``).",
        ),
        operands="floating",
        also_positional=("s", "axes", "norm"),
        zero_d=("s[]",),
        by_hand=True,
        example="""\
>>> xp.fft.rfftn(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
Array([[10.+0.j, -2.+0.j],
       [-4.+0.j,  0.+0.j]], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.irfftn",
        "first",
        signature="(x, /, *, s=None, axes=None, norm='backward')",
        summary="Inverse of ``rfftn``: a real-valued signal from the one-sided spectrum ``x``.",
        dtypes="complex floating-point",
        parameters={
            "s": (
                "sequence of ints or None",
                "Length of each transformed axis of the output (in the order of ``axes``); the "
                "last input axis is zero-padded or trimmed to ``s[-1]//2 + 1`` elements, the "
                "others to ``s[i]``. None (the default) keeps the lengths, except ``2*(m - 1)`` "
                "for the last axis. Requires ``axes``.",
            )
        },
        returns=(
            "Array",
            "The real signal, with the shape of ``x`` except along the transformed axes, of "
            "lengths ``s[i]``; of the real dtype of the precision of ``x`` (``complex128`` gives "
            "``float64``).",
        ),
        operands="complex",
        also_positional=("s", "axes", "norm"),
        zero_d=("s[]",),
        by_hand=True,
        example="""\
>>> xp.fft.irfftn(xp.asarray([[10.0, -2.0], [-4.0, 0.0]], dtype=xp.complex128))
Array([[1., 2.],
       [3., 4.]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.hfft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="Discrete Fourier transform of a signal with Hermitian symmetry (a real spectrum).",
        dtypes="complex floating-point",
        parameters={"n": OUT_N, "axis": FFT_AXIS},
        returns=(
            "Array",
            "The real spectrum, with the shape of ``x`` except along ``axis``, of length ``n``, of "
            "the real dtype of the precision of ``x`` (``complex128`` gives ``float64``).",
        ),
        operands="complex",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.hfft(xp.asarray([1.0, 2.0, 3.0], dtype=xp.complex128))
Array([ 8., -2.,  0., -2.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.ihfft",
        "first",
        signature="(x, /, *, n=None, axis=-1, norm='backward')",
        summary="Inverse discrete Fourier transform of a real signal, whose spectrum is Hermitian.",
        dtypes="real-valued floating-point",
        parameters={"axis": FFT_AXIS},
        returns=(
            "Array",
            "The non-negative frequency terms of the inverse transform, with the shape of ``x`` "
            "except along ``axis``, of length ``n//2 + 1``, of the complex dtype of the precision "
            "of ``x`` (``float64`` gives ``complex128``).",
        ),
        operands="floating",
        also_positional=("n", "axis", "norm"),
        zero_d=("n",),
        by_hand=True,
        example="""\
>>> xp.fft.ihfft(xp.asarray([1.0, 2.0, 3.0, 4.0]))
Array([ 2.5-0.j , -0.5-0.5j, -0.5-0.j ], dtype=complex128, device='numpy:cpu')
""",
    ),
    Record(
        "fft.fftshift",
        "first",
        signature="(x, /, *, axes=None)",
        summary="Spectrum with its zero-frequency component shifted to the center.",
        dtypes="floating-point",
        parameters={"axes": SHIFT_AXES},
        returns=("Array", "The shifted array, of the shape and dtype of ``x``."),
        keeps_dtype=True,
        also_positional=("axes",),
        example="""\
>>> xp.fft.fftshift(xp.fft.fftfreq(4))
Array([-0.5 , -0.25,  0.  ,  0.25], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.ifftshift",
        "first",
        signature="(x, /, *, axes=None)",
        summary="Inverse of ``fftshift``.",
        dtypes="floating-point",
        parameters={"axes": SHIFT_AXES},
        returns=("Array", "The shifted array, of the shape and dtype of ``x``."),
        keeps_dtype=True,
        also_positional=("axes",),
        example="""\
>>> xp.fft.ifftshift(xp.asarray([-0.5, -0.25, 0.0, 0.25]))
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.fftfreq",
        "creation",
        signature="(n, /, *, d=1.0, dtype=None, device=None)",
        summary="Sample frequencies of the discrete Fourier transform.",
        parameters={"n": FREQ_N, "dtype": CREATION_DTYPE},
        returns=(
            "Array",
            "Array of shape ``(n,)``: ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d*n)``.",
        ),
        also_positional=("d",),
        zero_d=("d",),
        example="""\
>>> xp.fft.fftfreq(4)
Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64, device='numpy:cpu')
>>> xp.fft.fftfreq(4, d=0.5)
Array([ 0. ,  0.5, -1. , -0.5], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "fft.rfftfreq",
        "creation",
        signature="(n, /, *, d=1.0, dtype=None, device=None)",
        summary="Sample frequencies of ``rfft`` and ``irfft`` (the non-negative ones).",
        parameters={"n": FREQ_N, "dtype": CREATION_DTYPE},
        returns=("Array", "Array of shape ``(n//2 + 1,)``: ``[0, 1, ..., n//2] / (d*n)``."),
        also_positional=("d",),
        zero_d=("d",),
        example="""\
>>> xp.fft.rfftfreq(4)
Array([0.  , 0.25, 0.5 ], dtype=float64, device='numpy:cpu')
""",
    ),
)
