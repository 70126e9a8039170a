"""The docstrings of the functions of :mod:`arraymux.special`, and the table of what computes
each function on each backend, made from the records of :mod:`._table`."""

from __future__ import annotations

import inspect
from typing import Final

from .._records.special import BY_NAME, RECORDS, SAME, Special
from ._composites import NEEDS
from ._sources import MODULES

__all__ = ["BACKENDS", "docstring", "implementations", "table_markdown"]

#: The backends the docs name, with their labels.
BACKENDS: Final = (
    ("numpy", "NumPy"),
    ("torch", "PyTorch"),
    ("jax", "JAX"),
    ("cupy", "CuPy"),
    ("dask", "Dask"),
    ("array_api_strict", "array-api-strict"),
)
_HOST = {
    "torch": "``scipy.special`` on the host, for CPU tensors outside transforms",
    "jax": "``scipy.special`` on the host, outside transforms",
}


def _own_path(rec: Special, backend: str) -> str | None:
    native = rec.native(backend)
    if native is None:
        return None
    if native == SAME:
        native = rec.name
    return native if "." in native else f"{MODULES[backend]}.{native}"


def _composite_serves(rec: Special, backend: str) -> bool:
    return rec.composite and all(
        _own_path(BY_NAME[n], backend) is not None for n in NEEDS.get(rec.name, ())
    )


def implementations(rec: Special) -> dict[str, str]:
    """What computes ``rec`` on each backend, in words (reStructuredText)."""
    scipy = f"``scipy.special.{rec.name}``"
    out = {
        "numpy": scipy,
        "dask": f"{scipy}, block by block",
        "array_api_strict": f"{scipy} on its NumPy data",
    }
    for backend in ("torch", "jax", "cupy"):
        own = _own_path(rec, backend)
        if own is not None:
            out[backend] = f"``{own}``"
        elif _composite_serves(rec, backend):
            out[backend] = "arraymux, from the backend's own functions"
            if rec.name == "zeta" and backend in _HOST:
                out[backend] += f" (Riemann's: {_HOST[backend]})"
        else:
            out[backend] = _HOST.get(backend, "none")
    return {b: out[b] for b, _ in BACKENDS}


def docstring(rec: Special, sig: inspect.Signature) -> str:
    """The docstring of the function of ``rec``, whose signature is ``sig``."""
    params = []
    for pname, p in sig.parameters.items():
        if pname in rec.ints:
            kind = "int"
        elif p.default is None:
            kind = "Array, Python scalar or None, optional"
        else:
            kind = "Array or Python scalar"
        params.append(f"{pname} : {kind}\n    {rec.parameters[pname]}")
    dtypes = "real or complex" if rec.complex else "real"
    computed = "\n".join(
        f"- {label}: {text}" for (b, label), text in zip(BACKENDS, implementations(rec).values())
    )
    integer = ""
    if rec.integer:
        names = " and ".join(f"``{n}``" for n in rec.integer)
        integer = f" Integer operands of {names} stay integers, as SciPy's loops take them."
    source, shown = rec.example
    return (
        f"{rec.summary}\n\n"
        f"``scipy.special.{rec.name}`` with SciPy's signature, computed by the backend of the "
        "array operands, on their device. The array operands are promoted to one dtype "
        "(Python scalars take the arrays' dtype): float32 operands give float32, float64 "
        "ones float64, bool and integer ones float64 where the device holds it (else its "
        f"default float); SciPy defines ``{rec.name}`` for {dtypes} operands.{integer}\n\n"
        "Parameters\n----------\n" + "\n".join(params) + "\n\n"
        "Returns\n-------\n"
        "Array\n"
        f"    ``{rec.name}`` of the operands, broadcast together, on their device.\n\n"
        "Raises\n------\n"
        "BackendMismatchError, DeviceMismatchError\n"
        "    Array operands on different backends or devices.\n"
        "TypeError\n"
        "    Arguments that SciPy's signature does not take, no array operand"
        + (", or complex operands" if not rec.complex else "")
        + ".\n"
        "NotImplementedError\n"
        "    The backend has no implementation for these arrays (see Notes).\n\n"
        "Notes\n-----\n"
        "Computed on each backend by:\n\n"
        f"{computed}\n\n"
        "Examples\n--------\n"
        ">>> import arraymux as xp\n"
        f">>> {source}\n"
        f"{shown}\n"
    )


def _cell(rec: Special, backend: str) -> str:
    native = rec.native(backend)
    if native is not None:
        return f"`{rec.name if native == SAME else native}`"
    if _composite_serves(rec, backend):
        return "composite"
    return "host" if backend in _HOST else "none"


def table_markdown() -> str:
    """The table of docs/special.md: each function and what computes it on PyTorch, JAX and
    CuPy (names in their special-function modules, or dotted paths; "composite": arraymux
    from the backend's functions; "host": ``scipy.special`` on the host)."""
    rows = ["| function | PyTorch | JAX | CuPy |", "| --- | --- | --- | --- |"]
    for rec in RECORDS:
        cells = " | ".join(_cell(rec, b) for b in ("torch", "jax", "cupy"))
        rows.append(f"| `{rec.name}` | {cells} |")
    return "\n".join(rows)
