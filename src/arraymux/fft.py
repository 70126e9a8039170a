"""The ``fft`` extension of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import creation, first

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]

fft = first("fft.fft")
ifft = first("fft.ifft")
fftn = first("fft.fftn")
ifftn = first("fft.ifftn")
rfft = first("fft.rfft")
irfft = first("fft.irfft")
rfftn = first("fft.rfftn")
irfftn = first("fft.irfftn")
hfft = first("fft.hfft")
ihfft = first("fft.ihfft")
fftshift = first("fft.fftshift")
ifftshift = first("fft.ifftshift")
fftfreq = creation("fft.fftfreq")
rfftfreq = creation("fft.rfftfreq")
