"""The standard's signatures (2025.12) of the functions made by the dispatch factories.

The factories make functions that take ``*args, **kwargs``; ``inspect.signature`` reports these
instead, so that introspection (and tools that read signatures) sees the standard's parameters.
Unary and binary elementwise functions are left out: their real signatures already match.
"""

from __future__ import annotations

import inspect
from typing import Final

SIGNATURES: Final[dict[str, str]] = {
    "clip": "(x, /, min=None, max=None)",
    "arange": "(start, /, stop=None, step=1, *, dtype=None, device=None)",
    "asarray": "(obj, /, *, dtype=None, device=None, copy=None)",
    "empty": "(shape, *, dtype=None, device=None)",
    "eye": "(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)",
    "from_dlpack": "(x, /, *, device=None, copy=None)",
    "full": "(shape, fill_value, *, dtype=None, device=None)",
    "linspace": "(start, stop, /, num, *, dtype=None, device=None, endpoint=True)",
    "ones": "(shape, *, dtype=None, device=None)",
    "zeros": "(shape, *, dtype=None, device=None)",
    "empty_like": "(x, /, *, dtype=None, device=None)",
    "full_like": "(x, /, fill_value, *, dtype=None, device=None)",
    "ones_like": "(x, /, *, dtype=None, device=None)",
    "zeros_like": "(x, /, *, dtype=None, device=None)",
    "tril": "(x, /, *, k=0)",
    "triu": "(x, /, *, k=0)",
    "meshgrid": "(*arrays, indexing='xy')",
    "can_cast": "(from_, to, /)",
    "finfo": "(type, /)",
    "iinfo": "(type, /)",
    "isdtype": "(dtype, kind)",
    "result_type": "(*arrays_and_dtypes)",
    "astype": "(x, dtype, /, *, copy=True, device=None)",
    "take": "(x, indices, /, *, axis=None)",
    "take_along_axis": "(x, indices, /, *, axis=-1)",
    "tensordot": "(x1, x2, /, *, axes=2)",
    "vecdot": "(x1, x2, /, *, axis=-1)",
    "broadcast_arrays": "(*arrays)",
    "broadcast_shapes": "(*shapes)",
    "broadcast_to": "(x, /, shape)",
    "expand_dims": "(x, /, axis)",
    "flip": "(x, /, *, axis=None)",
    "moveaxis": "(x, source, destination, /)",
    "permute_dims": "(x, /, axes)",
    "reshape": "(x, /, shape, *, copy=None)",
    "roll": "(x, /, shift, *, axis=None)",
    "squeeze": "(x, /, axis)",
    "tile": "(x, repetitions, /)",
    "unstack": "(x, /, *, axis=0)",
    "repeat": "(x, repeats, /, *, axis=None)",
    "concat": "(arrays, /, *, axis=0)",
    "stack": "(arrays, /, *, axis=0)",
    "argmax": "(x, /, *, axis=None, keepdims=False)",
    "argmin": "(x, /, *, axis=None, keepdims=False)",
    "count_nonzero": "(x, /, *, axis=None, keepdims=False)",
    "searchsorted": "(x1, x2, /, *, side='left', sorter=None)",
    "where": "(condition, x1, x2, /)",
    "isin": "(x1, x2, /, *, invert=False)",
    "argsort": "(x, /, *, axis=-1, descending=False, stable=True)",
    "sort": "(x, /, *, axis=-1, descending=False, stable=True)",
    "cumulative_sum": "(x, /, *, axis=None, dtype=None, include_initial=False)",
    "cumulative_prod": "(x, /, *, axis=None, dtype=None, include_initial=False)",
    "max": "(x, /, *, axis=None, keepdims=False)",
    "mean": "(x, /, *, axis=None, keepdims=False)",
    "min": "(x, /, *, axis=None, keepdims=False)",
    "prod": "(x, /, *, axis=None, dtype=None, keepdims=False)",
    "std": "(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "sum": "(x, /, *, axis=None, dtype=None, keepdims=False)",
    "var": "(x, /, *, axis=None, correction=0.0, keepdims=False)",
    "all": "(x, /, *, axis=None, keepdims=False)",
    "any": "(x, /, *, axis=None, keepdims=False)",
    "diff": "(x, /, *, axis=-1, n=1, prepend=None, append=None)",
    "matrix_transpose": "(x, /)",
    "nonzero": "(x, /)",
    "unique_all": "(x, /)",
    "unique_counts": "(x, /)",
    "unique_inverse": "(x, /)",
    "unique_values": "(x, /)",
    "linalg.det": "(x, /)",
    "linalg.eig": "(x, /)",
    "linalg.eigh": "(x, /)",
    "linalg.eigvals": "(x, /)",
    "linalg.eigvalsh": "(x, /)",
    "linalg.inv": "(x, /)",
    "linalg.matrix_transpose": "(x, /)",
    "linalg.slogdet": "(x, /)",
    "linalg.svdvals": "(x, /)",
    "linalg.outer": "(x1, x2, /)",
    "linalg.solve": "(x1, x2, /)",
    "linalg.cholesky": "(x, /, *, upper=False)",
    "linalg.diagonal": "(x, /, *, offset=0)",
    "linalg.matrix_norm": "(x, /, *, keepdims=False, ord='fro')",
    "linalg.matrix_power": "(x, n, /)",
    "linalg.qr": "(x, /, *, mode='reduced')",
    "linalg.svd": "(x, /, *, full_matrices=True)",
    "linalg.trace": "(x, /, *, offset=0, dtype=None)",
    "linalg.vector_norm": "(x, /, *, axis=None, keepdims=False, ord=2)",
    "linalg.matrix_rank": "(x, /, *, rtol=None)",
    "linalg.pinv": "(x, /, *, rtol=None)",
    "linalg.cross": "(x1, x2, /, *, axis=-1)",
    "linalg.tensordot": "(x1, x2, /, *, axes=2)",
    "linalg.vecdot": "(x1, x2, /, *, axis=-1)",
    "fft.fft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.ifft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.fftn": "(x, /, *, s=None, axes=None, norm='backward')",
    "fft.ifftn": "(x, /, *, s=None, axes=None, norm='backward')",
    "fft.rfft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.irfft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.rfftn": "(x, /, *, s=None, axes=None, norm='backward')",
    "fft.irfftn": "(x, /, *, s=None, axes=None, norm='backward')",
    "fft.hfft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.ihfft": "(x, /, *, n=None, axis=-1, norm='backward')",
    "fft.fftshift": "(x, /, *, axes=None)",
    "fft.ifftshift": "(x, /, *, axes=None)",
    "fft.fftfreq": "(n, /, *, d=1.0, dtype=None, device=None)",
    "fft.rfftfreq": "(n, /, *, d=1.0, dtype=None, device=None)",
}

# ---------------------------------------------------------------------------------------------
# What every backend accepts beyond the standard's signatures
#
# Where NumPy, PyTorch, JAX and CuPy all accept a call that the standard does not require,
# arraymux accepts it too; where any of them refuses it, arraymux refuses it (docs/dispatch.md
# gives the rule and lists the cases). Checked against each library's own functions
# (``torch.diff``, not array-api-compat's stricter wrapper of it).

_REDUCTIONS = ("sum", "prod", "mean", "max", "min", "all", "any", "std", "var")
_FFTS = ("fft.fft", "fft.ifft", "fft.rfft", "fft.irfft", "fft.hfft", "fft.ihfft")
_FFTNS = ("fft.fftn", "fft.ifftn", "fft.rfftn", "fft.irfftn")

#: Keyword-only parameters that every backend takes by position as well, in this order after
#: the standard's positional parameters (``xp.diff(x, 2)``, ``xp.sum(x, 0)``). Not here because
#: a backend refuses them by position: ``take``'s axis (``torch.take`` has none), ``concat``'s
#: (``jax.numpy.concat``), ``flip``'s (torch takes a tuple only), ``cumulative_sum``'s and
#: ``unstack``'s (NumPy), ``searchsorted``'s side and ``isin``'s invert (torch), ``eye``'s k
#: (torch), and every ``dtype=`` (torch).
ALSO_POSITIONAL: Final[dict[str, tuple[str, ...]]] = {
    **dict.fromkeys(_REDUCTIONS, ("axis",)),
    **dict.fromkeys(("argmax", "argmin", "count_nonzero", "argsort", "sort"), ("axis",)),
    "diff": ("n", "axis"),
    "roll": ("axis",),
    "repeat": ("axis",),
    "take_along_axis": ("axis",),
    "stack": ("axis",),
    "tril": ("k",),
    "triu": ("k",),
    "tensordot": ("axes",),
    "linalg.qr": ("mode",),
    "linalg.svd": ("full_matrices",),
    **dict.fromkeys(_FFTS, ("n", "axis", "norm")),
    **dict.fromkeys(_FFTNS, ("s", "axes", "norm")),
    "fft.fftshift": ("axes",),
    "fft.ifftshift": ("axes",),
    "fft.fftfreq": ("d",),
    "fft.rfftfreq": ("d",),
}

#: Parameters of a Python int or number for which every backend takes a 0-d array as well
#: (``xp.linspace(start, stop, n)`` with 0-d ``start`` and ``stop``, as SciPy's ``freqs``
#: calls it). A name ending in ``[]`` takes 0-d arrays among the entries of its tuple only
#: (``reshape(x, (n, -1))``; torch refuses a 0-d array as the whole shape). Not here because
#: a backend refuses a 0-d array there: JAX for ``count_nonzero``'s, ``argsort``'s,
#: ``sort``'s, ``unstack``'s, ``take_along_axis``'s and ``linalg.cross``'s axis, the FFTs'
#: ``axis`` and ``axes``, ``tensordot``'s axes, ``tril``'s and ``triu``'s k,
#: ``linalg.diagonal``'s offset, ``diff``'s and ``linalg.matrix_power``'s n,
#: ``linalg.matrix_norm``'s ord; NumPy for ``fftfreq``'s and ``rfftfreq``'s n and
#: ``fftshift``'s axes; torch for a 0-d shape of ``full``, ``reshape``, ``broadcast_to`` and
#: ``tile``.
ZERO_D: Final[dict[str, frozenset[str]]] = {
    **dict.fromkeys(_REDUCTIONS, frozenset({"axis"})),
    **dict.fromkeys(("std", "var"), frozenset({"axis", "correction"})),
    **dict.fromkeys(
        ("argmax", "argmin", "cumulative_sum", "cumulative_prod", "flip", "squeeze"),
        frozenset({"axis"}),
    ),
    **dict.fromkeys(
        ("expand_dims", "stack", "concat", "take", "repeat", "vecdot"), frozenset({"axis"})
    ),
    "roll": frozenset({"shift", "axis"}),
    "moveaxis": frozenset({"source", "destination"}),
    "permute_dims": frozenset({"axes[]"}),
    **dict.fromkeys(("zeros", "ones", "empty"), frozenset({"shape"})),
    "full": frozenset({"shape[]", "fill_value"}),
    "full_like": frozenset({"fill_value"}),
    "reshape": frozenset({"shape[]"}),
    "broadcast_to": frozenset({"shape[]"}),
    "tile": frozenset({"repetitions[]"}),
    "eye": frozenset({"n_rows", "n_cols", "k"}),
    "arange": frozenset({"start", "stop", "step"}),
    "linspace": frozenset({"start", "stop", "num"}),
    "linalg.trace": frozenset({"offset"}),
    "linalg.vector_norm": frozenset({"axis", "ord"}),
    "linalg.vecdot": frozenset({"axis"}),
    **dict.fromkeys(_FFTS, frozenset({"n"})),
    **dict.fromkeys(_FFTNS, frozenset({"s[]"})),
    "fft.fftfreq": frozenset({"d"}),
    "fft.rfftfreq": frozenset({"d"}),
}

_cache: dict[str, inspect.Signature] = {}


def _build() -> None:
    src = "\n".join(f"def f{i}{sig}: pass" for i, sig in enumerate(SIGNATURES.values()))
    ns: dict[str, object] = {}
    exec(compile(src, "<arraymux signatures>", "exec"), ns)
    for i, name in enumerate(SIGNATURES):
        _cache[name] = inspect.signature(ns[f"f{i}"])  # type: ignore[arg-type]


def signature(name: str) -> inspect.Signature | None:
    """The standard's signature of ``name`` (``"linalg.qr"``), or None if not listed."""
    if not _cache:
        _build()
    return _cache.get(name)
