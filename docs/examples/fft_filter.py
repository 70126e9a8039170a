"""Low-pass filtering of a noisy signal through the FFT, on any backend.

A sum of two slow sines is buried in white noise; :func:`arraymux.fft.rfft` takes it to the
frequency domain, the frequencies above a cut-off are zeroed, and :func:`arraymux.fft.irfft`
brings it back. The filtered signal is much closer to the clean one than the noisy input was.

Run it with ``python docs/examples/fft_filter.py [--device jax:cpu] [--plot signal.png]``; it
prints the error before and after filtering, and with ``--plot`` saves the signals and the
spectrum (matplotlib).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import arraymux as xp


def signals(n: int, device: str, seed: int = 0):
    """The clean signal and a noisy copy, ``n`` samples over one second."""
    t = xp.linspace(0.0, 1.0, n, endpoint=False, dtype=xp.float32, device=device)
    clean = xp.sin(2 * math.pi * 3 * t) + 0.5 * xp.sin(2 * math.pi * 7 * t)
    noise = np.random.default_rng(seed).normal(0.0, 0.5, n).astype(np.float32)
    return t, clean, clean + xp.asarray(noise, device=device)


def low_pass(x, cutoff: int):
    """``x`` without its frequencies above ``cutoff`` (in cycles over the signal)."""
    spectrum = xp.fft.rfft(x)
    freqs = xp.fft.rfftfreq(x.shape[0], d=1.0 / x.shape[0], device=x.device)
    kept = xp.where(freqs <= cutoff, spectrum, xp.zeros_like(spectrum))
    return xp.fft.irfft(kept, n=x.shape[0])


def rms(x) -> float:
    return float(xp.sqrt(xp.mean(x * x)))


def run(device: str = "numpy", n: int = 512, cutoff: int = 10):
    """``(t, clean, noisy, filtered, error before, error after)``."""
    t, clean, noisy = signals(n, device)
    filtered = low_pass(noisy, cutoff)
    before, after = rms(noisy - clean), rms(filtered - clean)
    print(f"rms error on {device}: noisy {before:.3f}, filtered {after:.3f}")
    return t, clean, noisy, filtered, before, after


def figure(t, clean, noisy, filtered, cutoff: int = 10):
    """The three signals over the first half second, and the spectrum of the noisy one."""
    import matplotlib.pyplot as plt

    t, clean, noisy, filtered = xp.to_numpy(t, clean, noisy, filtered)
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 3.2), width_ratios=[2, 1])
    half = t < 0.5
    left.plot(t[half], noisy[half], lw=0.6, color="0.6", label="noisy input")
    left.plot(t[half], filtered[half], lw=1.6, color="tab:blue", label="filtered")
    left.plot(t[half], clean[half], "--", lw=1.2, color="black", label="clean signal")
    left.set_xlabel("time (s)")
    left.set_ylabel("amplitude (arbitrary units)")
    left.set_title("Signals (first 0.5 s)")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
    power = np.abs(np.fft.rfft(noisy)) ** 2 / len(noisy)
    freqs = np.fft.rfftfreq(len(noisy), d=t[1] - t[0])
    right.semilogy(freqs, power, lw=0.8, color="0.4")
    right.axvline(cutoff, color="tab:red", lw=1, label=f"cut-off, {cutoff} Hz")
    right.set_xlim(0, 60)
    right.set_xlabel("frequency (Hz)")
    right.set_ylabel("power (arbitrary units)")
    right.set_title("Spectrum of the input")
    right.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="numpy")
    parser.add_argument("--plot", help="save the signals and the spectrum to this file")
    args = parser.parse_args()
    t, clean, noisy, filtered, _, _ = run(args.device)
    if args.plot:
        figure(t, clean, noisy, filtered).savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
