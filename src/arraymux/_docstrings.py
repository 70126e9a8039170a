"""The docstrings of the functions that :mod:`arraymux._factories` makes.

A generated function's docstring (made in :mod:`arraymux._factories` and, for the ``*_like``
functions, :mod:`arraymux._creation_functions`) is assembled here by :func:`finish` from the
function's record (:mod:`arraymux._records`: its summary, the parameters that mean something
of their own there, the dtype its array operands should have, its result and its example)
and from the vocabulary shared by every function:

- ``PARAMETERS``: the type and description of each parameter by its name (``x``, ``axis``,
  ``keepdims``, ``dtype``, ...), with ``RULE_PARAMETERS`` for the parameters a dispatch rule
  gives its own meaning (the operands of binary functions may be Python scalars).

Descriptions follow the Array API standard 2025.12; the parameters listed are those of each
function's signature (:mod:`arraymux._signatures`, or the function's own).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Final, Protocol, TypeVar, cast

from ._records import RECORDS, Text
from ._records._record import REDUCE_AXIS

__all__ = [
    "DTYPES",
    "EXAMPLES",
    "OVERRIDES",
    "PARAMETERS",
    "RETURNS",
    "RULE_PARAMETERS",
    "SUMMARIES",
    "examples",
    "finish",
    "parameter",
    "sections",
    "set_signature",
    "spec_url",
]

#: (type, description) of a parameter or of a result.
Entry = Text

# ---------------------------------------------------------------------------------------------
# What the records say, by function

#: The one-line summary of each function.
SUMMARIES: Final[dict[str, str]] = {r.name: r.summary for r in RECORDS if r.summary}
#: By function: the parameters that mean something else there.
OVERRIDES: Final[dict[str, dict[str, Entry]]] = {
    r.name: dict(r.parameters) for r in RECORDS if r.parameters
}
#: By function: the dtype its array operands ``x``, ``x1`` and ``x2`` should have.
DTYPES: Final[dict[str, str]] = {r.name: r.dtypes for r in RECORDS if r.dtypes}
#: The type and meaning of each function's result.
RETURNS: Final[dict[str, Entry]] = {r.name: r.returns for r in RECORDS if r.returns}
#: Each function's doctest: its input lines and their expected output written out
#: (``import arraymux as xp`` is put in front); they run on the default device, NumPy.
EXAMPLES: Final[dict[str, str]] = {r.name: r.example for r in RECORDS if r.example}

# ---------------------------------------------------------------------------------------------
# Parameters, by name

#: By parameter name.
PARAMETERS: Final[dict[str, Entry]] = {
    "x": ("Array", "Input array."),
    "x1": ("Array", "First input array."),
    "x2": ("Array", "Second input array; must be broadcast-compatible with ``x1``."),
    "axis": REDUCE_AXIS,
    "keepdims": (
        "bool",
        "If True, the reduced axes stay in the result as axes of size one, so that it "
        "broadcasts against ``x``; if False (the default), they are left out.",
    ),
    "dtype": (
        "DType or None",
        "Dtype of the result (an arraymux dtype, a backend's dtype, or a dtype name); None "
        "(the default) infers it from the arguments: the device's default integer, real or "
        "complex floating-point dtype for Python ints, floats or complex numbers.",
    ),
    "device": (
        "Device, str or None",
        "Device to create the array on: a :class:`Device`, a device string such as "
        '``"torch:cuda:0"``, or a backend\'s device object; None (the default) uses '
        ":func:`get_default_device`.",
    ),
    "copy": (
        "bool or None",
        "True always copies; False never copies and raises ``ValueError`` where a copy is "
        "needed; None (the default) copies only if needed.",
    ),
    "correction": (
        "int or float",
        "Degrees of freedom adjustment: the divisor is ``N - correction``, where ``N`` is the "
        "number of elements reduced; 0 (the default) gives the population value, 1 the "
        "unbiased sample value (Bessel's correction).",
    ),
    "descending": (
        "bool",
        "If True, sort in descending order; if False (the default), in ascending order.",
    ),
    "stable": (
        "bool",
        "If True (the default), elements that compare equal keep their relative order; if "
        "False, their relative order is unspecified.",
    ),
    "shape": ("int or tuple of ints", "Shape of the result."),
    "fill_value": ("bool, int, float or complex", "Value of every element."),
    "start": ("int, float or complex", "Start of the interval (included)."),
    "stop": ("int, float or complex", "End of the interval."),
    "num": ("int", "Number of samples; must be non-negative."),
    "endpoint": (
        "bool",
        "If True (the default), the interval is closed and ``stop`` is the last sample; if "
        "False, ``stop`` is left out (the interval is half-open).",
    ),
    "n_rows": ("int", "Number of rows of the result."),
    "n_cols": (
        "int or None",
        "Number of columns of the result; None (the default) means ``n_rows``.",
    ),
    "k": (
        "int",
        "Index of the diagonal: 0 (the default) is the main diagonal, a positive value a "
        "diagonal above it, a negative value one below it.",
    ),
    "offset": (
        "int",
        "Offset of the diagonal from the main diagonal: 0 (the default) is the main diagonal, "
        "a positive value a diagonal above it, a negative value one below it.",
    ),
    "arrays": (
        "tuple or list of Arrays",
        "Arrays to join, on one device; they must have the same shape, except along ``axis``.",
    ),
    "indexing": (
        "{'xy', 'ij'}",
        "Cartesian (``'xy'``, the default: the first two axes of the results are swapped) or "
        "matrix (``'ij'``) indexing of the results; without effect for fewer than two arrays.",
    ),
    "indices": (
        "Array",
        "One-dimensional array of integer indices; a negative index counts from the last element.",
    ),
    "shift": (
        "int or tuple of ints",
        "Number of places to shift the elements by (toward larger indices if positive); a "
        "tuple gives one shift per axis of ``axis``, an int shifts every axis of ``axis`` by it.",
    ),
    "source": ("int or tuple of ints", "Axis (or axes) to move."),
    "destination": (
        "int or tuple of ints",
        "New position of each axis of ``source``, in the same order.",
    ),
    "repetitions": (
        "tuple of ints",
        "Number of repetitions along each axis; the shorter of ``x.shape`` and "
        "``repetitions`` is padded with ones at the front.",
    ),
    "repeats": (
        "int or Array",
        "Number of repetitions of each element: an int for every element, or a "
        "one-dimensional integer array of length 1 or of the length of the axis (of the "
        "flattened ``x`` if ``axis`` is None).",
    ),
    "side": (
        "{'left', 'right'}",
        "For a value equal to an element of ``x1``: ``'left'`` (the default) gives the index of "
        "the first such element, ``'right'`` the index after the last one.",
    ),
    "sorter": (
        "Array or None",
        "Integer indices that sort ``x1`` in ascending order (as :func:`argsort` gives); None "
        "(the default): ``x1`` is sorted already.",
    ),
    "invert": (
        "bool",
        "If True, test whether each element of ``x1`` is not in ``x2`` instead; default False.",
    ),
    "condition": (
        "Array",
        "Where True, take the element of ``x1``, elsewhere that of ``x2``; must be "
        "broadcast-compatible with them. Should have a boolean dtype.",
    ),
    "min": (
        "int, float, Array or None",
        "Lower bound, broadcast-compatible with ``x``; None (the default): no lower bound. "
        "Should have the dtype of ``x``.",
    ),
    "max": (
        "int, float, Array or None",
        "Upper bound, broadcast-compatible with ``x``; None (the default): no upper bound. "
        "Should have the dtype of ``x``.",
    ),
    "include_initial": (
        "bool",
        "If True, the result starts with the initial value (the identity of the operation) "
        "and its axis is one longer than that of ``x``; default False.",
    ),
    "prepend": (
        "Array or None",
        "Values to put before ``x`` along ``axis`` before differencing; same shape as ``x`` "
        "except along ``axis``. Should have the dtype of ``x``.",
    ),
    "append": (
        "Array or None",
        "Values to put after ``x`` along ``axis`` before differencing; same shape as ``x`` "
        "except along ``axis``. Should have the dtype of ``x``.",
    ),
    "upper": (
        "bool",
        "If True, return the upper-triangular factor ``U`` (``x = U^H @ U``); if False (the "
        "default), the lower-triangular factor ``L`` (``x = L @ L^H``).",
    ),
    "mode": (
        "{'reduced', 'complete'}",
        "``'reduced'`` (the default): ``Q`` of shape ``(..., M, K)`` and ``R`` of shape "
        "``(..., K, N)``, with ``K = min(M, N)``; ``'complete'``: ``Q`` of shape "
        "``(..., M, M)`` and ``R`` of shape ``(..., M, N)``.",
    ),
    "full_matrices": (
        "bool",
        "If True (the default), ``U`` has shape ``(..., M, M)`` and ``Vh`` ``(..., N, N)``; if "
        "False, ``(..., M, K)`` and ``(..., K, N)``, with ``K = min(M, N)``.",
    ),
    "rtol": (
        "float, Array or None",
        "Relative tolerance: singular values at most ``rtol`` times the largest one count as "
        "zero; None (the default) uses ``max(M, N)`` times the machine epsilon of the dtype of "
        "``x``. An array must broadcast against ``x.shape[:-2]``.",
    ),
    "ord": (
        "int, float, inf or -inf",
        "Order of the norm: 2 (the default) the Euclidean norm, 1 the sum of absolute values, "
        "``inf`` the largest absolute value, other values ``p >= 1`` the p-norm; 0, ``-inf`` and "
        "other negative values give the standard's non-norms (number of non-zeros, smallest "
        "absolute value, ...).",
    ),
    "n": (
        "int or None",
        "Length of the transformed axis of the input: it is zero-padded or trimmed to ``n`` "
        "elements; None (the default) uses its length.",
    ),
    "s": (
        "sequence of ints or None",
        "Length of each transformed axis of the input (in the order of ``axes``): each is "
        "zero-padded or trimmed to it, -1 keeping its length; None (the default) keeps every "
        "length. Requires ``axes``.",
    ),
    "axes": (
        "sequence of ints or None",
        "Axes to transform; None (the default) transforms every axis. A negative axis counts "
        "from the last axis.",
    ),
    "norm": (
        "{'backward', 'ortho', 'forward'}",
        "Normalization: ``'backward'`` (the default) scales only inverse transforms, by "
        "``1/n``; ``'ortho'`` scales both directions by ``1/sqrt(n)``; ``'forward'`` scales only "
        "forward transforms, by ``1/n`` (``n``: the number of points transformed).",
    ),
    "d": ("float", "Sample spacing (the inverse of the sampling rate); default 1.0."),
}

#: The parameters that a dispatch rule gives its own meaning.
RULE_PARAMETERS: Final[dict[str, dict[str, Entry]]] = {
    "binary": {
        "x1": (
            "Array or Python scalar",
            "First input array; may be a Python scalar if ``x2`` is an array.",
        ),
        "x2": (
            "Array or Python scalar",
            "Second input array, broadcast-compatible with ``x1``; may be a Python scalar if "
            "``x1`` is an array.",
        ),
    },
}


# ---------------------------------------------------------------------------------------------
# Assembly

_WIDTH = 92
_LITERAL = re.compile(r"``[^`]*``")


def _para(text: str, indent: str = "    ") -> str:
    """``text`` wrapped and indented, never inside an inline literal (````(..., M, N)````)."""
    words = _LITERAL.sub(lambda m: m.group(0).replace(" ", "\0"), text).split()
    lines: list[str] = []
    line = indent
    for word in words:
        if line != indent and len(line) + 1 + len(word) > _WIDTH:
            lines.append(line)
            line = indent
        line = f"{line} {word}" if line != indent else indent + word
    lines.append(line)
    return "\n".join(lines).replace("\0", " ")


def parameter(name: str, pname: str, rule: str | None = None) -> Entry:
    """The (type, description) of parameter ``pname`` of the function ``name``, whose
    dispatch rule is ``rule``."""
    found = OVERRIDES.get(name, {}).get(pname) or RULE_PARAMETERS.get(rule or "", {}).get(pname)
    kind, text = found or PARAMETERS[pname]
    dtype = DTYPES.get(name)
    if dtype is not None and pname in ("x", "x1", "x2"):
        article = "an" if dtype[0] in "aeiou" else "a"
        text = f"{text} Should have {article} {dtype} dtype."
    return kind, text


def sections(name: str, sig: inspect.Signature, rule: str | None = None) -> str:
    """The ``Parameters`` (every parameter of ``sig``) and ``Returns`` sections of the
    function ``name``."""
    out = []
    if sig.parameters:
        out.append("Parameters\n----------")
        for p in sig.parameters.values():
            kind, text = parameter(name, p.name, rule)
            stars = "*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else ""
            shown = stars + p.name
            optional = ", optional" if p.default is not p.empty else ""
            out.append(f"{shown} : {kind}{optional}\n{_para(text)}")
        out.append("")
    kind, text = RETURNS[name]
    out.append(f"Returns\n-------\n{kind}\n{_para(text)}\n")
    return "\n".join(out)


def examples(name: str) -> str:
    """The ``Examples`` section of the function ``name``."""
    return f"Examples\n--------\n>>> import arraymux as xp\n{EXAMPLES[name]}"


# ---------------------------------------------------------------------------------------------
# The docstring of each function of the namespace


_SPEC = "https://data-apis.org/array-api/2025.12"


def spec_url(name: str) -> str:
    """The standard's page of the function ``name`` (``"add"``, ``"linalg.inv"``): the
    extensions' functions have theirs under ``extensions/``."""
    part = "extensions" if "." in name else "API_specification"
    return f"{_SPEC}/{part}/generated/array_api.{name}.html"


_RULE_DOC = {
    "unary": "Runs on the backend and device of ``x``.",
    "binary": (
        "Runs on the backend and device of the first array operand; the other operand must be "
        "on the same device or be a Python scalar. Operands are promoted to one dtype by the "
        "standard's rules first, the same way on every backend."
    ),
    "first": (
        "Runs on the backend and device of ``x``; its other arguments are Python values "
        "(axes, shapes, options), never arrays."
    ),
    "generic": (
        "Runs on the backend and device of the first array argument; every other array "
        "argument must be on that device."
    ),
    "sequence": "Runs on the backend and device of the first array of the sequence.",
    "creation": "Runs on ``device=`` if given, else on the default device.",
}


class _Signed(Protocol):
    __signature__: inspect.Signature


def set_signature(fn: Callable[..., object], sig: inspect.Signature) -> None:
    """Make ``inspect.signature(fn)`` report ``sig`` (a function object takes the attribute)."""
    cast("_Signed", fn).__signature__ = sig


_F = TypeVar("_F", bound=Callable[..., object])


def finish(fn: _F, name: str, rule: str) -> _F:
    """Name ``fn`` after the standard's function ``name`` and give it the signature and the
    docstring of the namespace (``rule``: how it is dispatched, see :data:`_RULE_DOC`)."""
    short = name.rsplit(".", 1)[-1]
    fn.__name__ = short
    fn.__qualname__ = short
    fn.__module__ = "arraymux" if "." not in name else f"arraymux.{name.split('.')[0]}"
    from ._signatures import signature

    sig = signature(name)
    if sig is None:  # unary and binary functions: their own parameters, without annotations
        # (as the compiled builtins report them: ``(x, /)``)
        own = inspect.signature(fn)
        sig = own.replace(
            parameters=[p.replace(annotation=p.empty) for p in own.parameters.values()],
            return_annotation=own.empty,
        )
    set_signature(fn, sig)
    fn.__doc__ = (
        f"{SUMMARIES[name]}\n\n"
        f"``{name}`` of the Array API standard, dispatched to the array's backend.\n\n"
        f"{_RULE_DOC[rule]}\n\n"
        f"See the standard's page: {spec_url(name)}\n\n"
        f"{sections(name, sig, rule)}\n"
        "Raises\n------\n"
        "BackendMismatchError, DeviceMismatchError\n"
        "    Array arguments on different backends or devices.\n"
        "TypeError, ValueError, IndexError\n"
        "    Arguments the standard does not allow (each error names the function).\n\n"
        f"{examples(name)}"
    )
    return fn
