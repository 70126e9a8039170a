"""arraymux's own dtype objects and the standard's type promotion rules.

Each backend maps these to its own dtypes (see ``_backends``); promotion is decided here, once,
so that ``int8 + uint8`` gives ``int16`` whichever backend computes it.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = [
    "DType",
    "bool",
    "complex64",
    "complex128",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
]

_builtin_bool = bool


class DType:
    """An arraymux data type, such as ``arraymux.float32``.

    DTypes are immutable singletons: compare them with ``==`` (or ``is``). Every backend's own
    dtype objects are accepted wherever arraymux takes a dtype, and ``Array.dtype`` always
    returns one of these.

    Parameters
    ----------
    name : str
        The dtype's name in the standard (``"float32"``, ``"int64"``, ``"bool"``, ...); the
        existing singleton is returned.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.float32
    arraymux.float32
    >>> xp.DType("float32") is xp.float32
    True
    >>> xp.float32.kind, xp.float32.bits
    ('real floating', 32)
    """

    __slots__ = ("_bits", "_kind", "_name")
    _name: str
    _kind: str
    _bits: int

    def __new__(cls, name: str) -> DType:
        try:
            return _BY_NAME[name]
        except KeyError:
            raise ValueError(
                f"arraymux has no dtype named {name!r}; the dtypes are: {', '.join(_BY_NAME)}."
            ) from None

    @classmethod
    def _make(cls, name: str, kind: str, bits: int) -> DType:
        self = object.__new__(cls)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_bits", bits)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("arraymux dtypes are immutable")

    @property
    def name(self) -> str:
        """The standard's name of the dtype, e.g. ``"float32"``."""
        return self._name

    @property
    def kind(self) -> str:
        """One of ``"bool"``, ``"signed integer"``, ``"unsigned integer"``, ``"real floating"``,
        ``"complex floating"`` (the kind names of :func:`arraymux.isdtype`)."""
        return self._kind

    @property
    def bits(self) -> int:
        """Width in bits (8 for bool)."""
        return self._bits

    @property
    def itemsize(self) -> int:
        """Width in bytes."""
        return max(self._bits // 8, 1)

    def __repr__(self) -> str:
        return f"arraymux.{self._name}"

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return DType, (self._name,)

    def __copy__(self) -> DType:
        return self

    def __deepcopy__(self, memo: object) -> DType:
        return self


_BY_NAME: dict[str, DType] = {}


def _def(name: str, kind: str, bits: int) -> DType:
    dt = DType._make(name, kind, bits)
    _BY_NAME[name] = dt
    return dt


bool: Final = _def("bool", "bool", 8)
int8: Final = _def("int8", "signed integer", 8)
int16: Final = _def("int16", "signed integer", 16)
int32: Final = _def("int32", "signed integer", 32)
int64: Final = _def("int64", "signed integer", 64)
uint8: Final = _def("uint8", "unsigned integer", 8)
uint16: Final = _def("uint16", "unsigned integer", 16)
uint32: Final = _def("uint32", "unsigned integer", 32)
uint64: Final = _def("uint64", "unsigned integer", 64)
float32: Final = _def("float32", "real floating", 32)
float64: Final = _def("float64", "real floating", 64)
complex64: Final = _def("complex64", "complex floating", 64)
complex128: Final = _def("complex128", "complex floating", 128)

ALL_DTYPES: Final = tuple(_BY_NAME.values())

# The standard's kind names for isdtype(); each maps to the kinds it covers.
KIND_GROUPS: Final[dict[str, frozenset[str]]] = {
    "bool": frozenset({"bool"}),
    "signed integer": frozenset({"signed integer"}),
    "unsigned integer": frozenset({"unsigned integer"}),
    "integral": frozenset({"signed integer", "unsigned integer"}),
    "real floating": frozenset({"real floating"}),
    "complex floating": frozenset({"complex floating"}),
    "numeric": frozenset(
        {"signed integer", "unsigned integer", "real floating", "complex floating"}
    ),
}

# Rank of kinds for mixed-kind promotion (beyond the standard): bool < integers < real < complex.
_KIND_RANK: Final = {
    "bool": 0,
    "signed integer": 1,
    "unsigned integer": 1,
    "real floating": 2,
    "complex floating": 3,
}


def _promotion_table() -> dict[tuple[DType, DType], DType]:
    """The standard's promotion table (both orders), plus same-dtype pairs."""
    t: dict[tuple[DType, DType], DType] = {}
    signed = [int8, int16, int32, int64]
    unsigned = [uint8, uint16, uint32, uint64]
    for group in (signed, unsigned, [float32, float64], [complex64, complex128]):
        for a in group:
            for b in group:
                t[a, b] = a if a.bits >= b.bits else b
    for u in unsigned[:3]:
        for s in signed:
            r = s if s.bits > u.bits else _BY_NAME[f"int{u.bits * 2}"]
            t[u, s] = t[s, u] = r
    t[float32, complex64] = t[complex64, float32] = complex64
    for a, b in ((float64, complex64), (float32, complex128), (float64, complex128)):
        t[a, b] = t[b, a] = complex128
    t[bool, bool] = bool
    return t


PROMOTION_TABLE: Final = _promotion_table()


def promote(a: DType, b: DType) -> DType:
    """Promote two dtypes as the standard says; mixed kinds follow arraymux's extension.

    The standard defines promotion within a kind (and signed with unsigned integers). For mixed
    kinds arraymux picks the same rule on every backend: the operand of the higher kind wins
    (bool < integer < real floating < complex floating), with real floating + complex giving the
    complex dtype wide enough for both. ``uint64`` with a signed integer has no exact result and
    raises.
    """
    try:
        return PROMOTION_TABLE[a, b]
    except KeyError:
        pass
    ra, rb = _KIND_RANK[a._kind], _KIND_RANK[b._kind]
    if ra == rb:  # uint64 with a signed integer
        raise TypeError(
            f"{a} and {b} have no common dtype that holds both exactly. "
            "Consider casting one of them with arraymux.astype."
        )
    return a if ra > rb else b


def python_scalar_kind(value: object) -> str | None:
    """The kind of a Python scalar, or None if ``value`` is not one."""
    if isinstance(value, _builtin_bool):
        return "bool"
    if isinstance(value, int):
        return "signed integer"
    if isinstance(value, float):
        return "real floating"
    if isinstance(value, complex):
        return "complex floating"
    return None


def kind_rank(kind: str) -> int:
    return _KIND_RANK[kind]


def int_range(dt: DType) -> tuple[int, int]:
    """Smallest and largest value of an integer dtype."""
    if dt._kind == "unsigned integer":
        return 0, (1 << dt._bits) - 1
    return -(1 << (dt._bits - 1)), (1 << (dt._bits - 1)) - 1


#: The kinds of the floating-point dtypes, real and complex.
FLOATING_KINDS: Final = frozenset({"real floating", "complex floating"})


def number_for(fname: str, value: object, dt: DType) -> object:
    """``value`` as an array of ``dt`` takes it: a Python int beside a floating-point ``dt``
    through :func:`int_for_floats`, anything else as it is."""
    if type(value) is int and dt._kind in FLOATING_KINDS:
        return int_for_floats(fname, value)
    return value


def fill_for(fname: str, value: object, dt: DType) -> object:
    """``value`` as ``arraymux.<fname>`` stores it in every element of an array of ``dt``
    (``full``'s and ``full_like``'s fill value): :func:`number_for`, and a Python float in an
    integer dtype truncated toward zero, as every backend casts it, once it is finite and its
    integer fits ``dt``. (NumPy filled ``full((2,), 1e10, dtype=int32)`` with ``-2**31`` and
    ``full((2,), 300.0, dtype=uint8)`` with 44; torch refused ``-0.5`` in uint8.) A complex
    value in a dtype that is not complex raises ``TypeError`` (NumPy dropped the imaginary
    part; torch and JAX refused), and a float beyond float32's range in float32 is an
    infinity, as NumPy and JAX round it (torch refused it)."""
    if type(value) is complex and dt._kind != "complex floating":
        raise TypeError(
            f"arraymux.{fname}: cannot store the complex {value!r} in {dt}; pass a complex "
            "dtype, or the real part."
        )
    if type(value) is float and dt is float32 and abs(value) > _FLOAT32_MAX:
        import numpy as np

        with np.errstate(over="ignore"):  # (the nearest float32: infinity, or the largest)
            return float(np.float32(value))
    if type(value) is float and dt._kind in INTEGER_KINDS:
        if not math.isfinite(value):
            raise ValueError(
                f"arraymux.{fname}: cannot store the float {value} in {dt}, which holds "
                "integers only."
            )
        lo, hi = int_range(dt)
        if not lo <= int(value) <= hi:
            raise OverflowError(
                f"arraymux.{fname}: the Python float {value!r} does not fit in {dt} (range "
                f"{lo} to {hi}). Pass a wider dtype, or a floating-point one."
            )
        return int(value)
    return number_for(fname, value, dt)


_FLOAT32_MAX: Final = 3.4028234663852886e38

#: The kinds of the integer dtypes, signed and unsigned.
INTEGER_KINDS: Final = frozenset({"signed integer", "unsigned integer"})


def int_for_floats(fname: str, value: int) -> int | float:
    """A Python int that a floating-point or complex array takes (``arraymux.<fname>`` stores
    it, or computes with it): as it is within int64, where every backend takes it; beyond, its
    nearest float64, as NumPy converts it (torch, CuPy and array-api-strict refuse such ints);
    an int beyond float64 raises ``OverflowError``, as in NumPy."""
    if -(1 << 63) <= value < (1 << 63):
        return value
    try:
        return float(value)
    except OverflowError:
        raise OverflowError(
            f"arraymux.{fname}: the Python int of {value.bit_length()} bits is beyond the range "
            "of every floating-point dtype."
        ) from None
