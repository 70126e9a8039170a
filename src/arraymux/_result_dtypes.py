"""The dtype of a result, where it is known before the call: cached on the result by the hot
paths so that the next call compares dtypes without reading them from the native arrays.

Reading a native dtype costs 50-250 ns (torch, JAX): a large share of a call on small
arrays. The rules are written once, in each function's record (:mod:`arraymux._records`), in
arraymux dtypes (:data:`RESULT_DTYPES`) and turned into the native dtype objects of each
backend as it loads (:func:`native_table`), since the cache holds the native dtype object, as
``x.native.dtype`` reports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import _dtypes
from ._records import CATEGORIES, RECORDS

__all__ = ["CATEGORY_DTYPES", "RESULT_DTYPES", "native_table", "result_table"]


#: The dtypes of each category that records name (``Record.result_dtypes``).
CATEGORY_DTYPES: dict[str, tuple[_dtypes.DType, ...]] = {
    category: tuple(
        dt
        for dt in _dtypes.ALL_DTYPES
        if any(dt.kind in _dtypes.KIND_GROUPS[kind] for kind in kinds)
    )
    for category, kinds in CATEGORIES.items()
}

_REAL_OF = {_dtypes.complex64: _dtypes.float32, _dtypes.complex128: _dtypes.float64}
_RULES: dict[str, Callable[[_dtypes.DType], _dtypes.DType]] = {
    "same": lambda dt: dt,
    "bool": lambda dt: _dtypes.bool,
    "real": lambda dt: _REAL_OF.get(dt, dt),
}


def result_table(spec: str) -> dict[_dtypes.DType, _dtypes.DType]:
    """Operand dtype -> result dtype for a record's ``result_dtypes`` (``"same numeric"``:
    the rule, then the category of operand dtypes it holds for)."""
    rule, category = spec.split(" ", 1)
    return {dt: _RULES[rule](dt) for dt in CATEGORY_DTYPES[category]}


# The dtype of an elementwise result, by function and operand dtype (the operands of a binary
# function brought to one dtype first), where it is the same on every backend. The hot paths
# cache it on the result so that the next call need not read the native dtype; a function or
# dtype missing here leaves the result's dtype to be read when it is needed. A test checks
# every entry against the native result on every installed backend.
RESULT_DTYPES: dict[str, dict[_dtypes.DType, _dtypes.DType]] = {
    r.name: result_table(r.result_dtypes) for r in RECORDS if r.result_dtypes
}


def native_table(
    native_of: Mapping[_dtypes.DType, object], dtype_of: Callable[[object], _dtypes.DType | None]
) -> dict[str, dict[object, object]]:
    """One backend's :data:`RESULT_DTYPES` in its own dtype objects: per function, native
    operand dtype -> native result dtype (every function of the standard has a dict).

    ``native_of`` maps arraymux dtypes to the dtype objects the backend's arrays report;
    ``dtype_of`` maps those back: entries that do not round-trip are left out, so an odd
    mapping cannot make a wrong entry. Each backend has its own table, holding its dtype
    objects only (``torch.compile`` traces the lookups in torch's)."""
    out: dict[str, dict[object, object]] = {}
    for name, table in RESULT_DTYPES.items():
        entries = out[name] = {}
        for dt, result in table.items():
            a, r = native_of.get(dt), native_of.get(result)
            if a is None or r is None or dtype_of(a) is not dt or dtype_of(r) is not result:
                continue
            entries[a] = r
    return out
