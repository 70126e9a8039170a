"""The standard's signatures (2025.12) of the functions made by the dispatch factories, from
their records (:mod:`arraymux._records`).

The factories make functions that take ``*args, **kwargs``; ``inspect.signature`` reports these
instead, so that introspection (and tools that read signatures) sees the standard's parameters.
Unary and binary elementwise functions are left out: their real signatures already match.
"""

from __future__ import annotations

import inspect
import re
from typing import Final

from ._records import RECORDS

__all__ = [
    "ALSO_POSITIONAL",
    "BOOL_KEYWORDS",
    "CHOICES",
    "SIGNATURES",
    "WORDS",
    "ZERO_D",
    "signature",
]

#: The standard's signature of each function that is not unary or binary, from its record.
SIGNATURES: Final[dict[str, str]] = {r.name: r.signature for r in RECORDS if r.signature}
#: The parameters that take a bool in the standard's signatures (their default is True or
#: False: keepdims, stable, copy...). The hot paths pass a Python bool as it is only to them:
#: JAX and Dask read ``axis=True`` as axis 1, which the standard refuses.
BOOL_KEYWORDS: Final[frozenset[str]] = frozenset(
    m
    for sig in SIGNATURES.values()
    for m in re.findall(r"(\w+)\s*(?::[^=,)]*)?=\s*(?:True|False)", sig)
)
#: The values of the standard's parameters that take one of a few strings (a matrix norm's
#: ``ord`` takes numbers too).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "side": ("left", "right"),
    "mode": ("reduced", "complete"),
    "norm": ("backward", "ortho", "forward"),
    "indexing": ("xy", "ij"),
    "ord": ("fro", "nuc"),
}
#: Every one of those strings: the hot paths pass a str as it is only if it is one of them
#: (NumPy's ``qr`` took ``mode="r"``, and returned R alone, and ``"full"``).
WORDS: Final[frozenset[str]] = frozenset(w for words in CHOICES.values() for w in words)

# ---------------------------------------------------------------------------------------------
# What every backend accepts beyond the standard's signatures
#
# Where NumPy, PyTorch, JAX and CuPy all accept a call that the standard does not require,
# arraymux accepts it too; where any of them refuses it, arraymux refuses it (docs/dispatch.md
# gives the rule and lists the cases). Checked against each library's own functions
# (``torch.diff``, not array-api-compat's stricter wrapper of it); each record lists its own.

#: Keyword-only parameters that every backend takes by position as well, in this order after
#: the standard's positional parameters (``xp.diff(x, 2)``, ``xp.sum(x, 0)``). Not listed
#: because a backend refuses them by position: ``take``'s axis (``torch.take`` has none),
#: ``concat``'s (``jax.numpy.concat``), ``flip``'s (torch takes a tuple only),
#: ``cumulative_sum``'s and ``unstack``'s (NumPy), ``searchsorted``'s side and ``isin``'s
#: invert (torch), ``eye``'s k (torch), and every ``dtype=`` (torch).
ALSO_POSITIONAL: Final[dict[str, tuple[str, ...]]] = {
    r.name: r.also_positional for r in RECORDS if r.also_positional
}

#: Parameters of a Python int or number for which every backend takes a 0-d array as well
#: (``xp.linspace(start, stop, n)`` with 0-d ``start`` and ``stop``, as SciPy's ``freqs``
#: calls it). A name ending in ``[]`` takes 0-d arrays among the entries of its tuple only
#: (``reshape(x, (n, -1))``; torch refuses a 0-d array as the whole shape). Not listed
#: because a backend refuses a 0-d array there: JAX for ``count_nonzero``'s, ``argsort``'s,
#: ``sort``'s, ``unstack``'s, ``take_along_axis``'s and ``linalg.cross``'s axis, the FFTs'
#: ``axis`` and ``axes``, ``tensordot``'s axes, ``tril``'s and ``triu``'s k,
#: ``linalg.diagonal``'s offset, ``diff``'s and ``linalg.matrix_power``'s n,
#: ``linalg.matrix_norm``'s ord; NumPy for ``fftfreq``'s and ``rfftfreq``'s n and
#: ``fftshift``'s axes; torch for a 0-d shape of ``full``, ``reshape``, ``broadcast_to`` and
#: ``tile``.
ZERO_D: Final[dict[str, frozenset[str]]] = {
    r.name: frozenset(r.zero_d) for r in RECORDS if r.zero_d
}

_cache: dict[str, inspect.Signature] = {}


def _build() -> None:
    src = "\n".join(f"def f{i}{sig}: pass" for i, sig in enumerate(SIGNATURES.values()))
    ns: dict[str, object] = {}
    exec(compile(src, "<arraymux signatures>", "exec"), ns)
    for i, name in enumerate(SIGNATURES):
        fn = ns[f"f{i}"]
        assert callable(fn)  # the def of the line above
        _cache[name] = inspect.signature(fn)


def signature(name: str) -> inspect.Signature | None:
    """The standard's signature of ``name`` (``"linalg.qr"``), or None if not listed."""
    if not _cache:
        _build()
    return _cache.get(name)
