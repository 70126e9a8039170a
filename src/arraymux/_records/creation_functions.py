"""The records of the standard's creation functions: one per function."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ._record import (
    CREATION_DTYPE,
    LIKE_DEVICE,
    LIKE_DTYPE,
    LIKE_X,
    MATRICES,
    VARARGS,
    Record,
    Text,
    section,
)

#: The end of the returns text of the functions that leave the elements uninitialized.
UNINITIALIZED: Final = "; its contents are whatever memory held"


def new(
    name: str,
    contents: str,
    *,
    signature: str = "(shape, *, dtype=None, device=None)",
    parameters: Mapping[str, Text] | None = None,
    result: str | None = None,
    zero_d: tuple[str, ...] = ("shape",),
    example: str,
) -> Record:
    """A new array of the given shape, with the ``contents`` its summary names (``result``: how
    the returns text ends where it does not name them)."""
    return Record(
        name,
        "creation",
        signature=signature,
        summary=f"A new array of the given shape, {contents}.",
        parameters=parameters or {"dtype": CREATION_DTYPE},
        returns=("Array", f"Array of shape ``shape`` on ``device``{result or ', ' + contents}."),
        zero_d=zero_d,
        example=example,
    )


def like(
    name: str,
    contents: str,
    *,
    signature: str = "(x, /, *, dtype=None, device=None)",
    result: str | None = None,
    zero_d: tuple[str, ...] = (),
    example: str,
) -> Record:
    """The ``*_like`` function of :func:`new`: a new array with the shape of ``x``."""
    return Record(
        name,
        "like",
        signature=signature,
        summary=f"A new array with the shape of ``x``, {contents}.",
        parameters={"x": LIKE_X, "dtype": LIKE_DTYPE, "device": LIKE_DEVICE},
        returns=("Array", f"Array of the shape of ``x``{result or ', ' + contents}."),
        zero_d=zero_d,
        example=example,
    )


def triangle(name: str, part: str, zeroed: str, *, example: str) -> Record:
    """The ``part`` (``"Lower"``, ``"Upper"``) triangle of a matrix: the elements ``zeroed``
    (``"above"``, ``"below"``) the ``k``-th diagonal are zeroed."""
    return Record(
        name,
        "first",
        signature="(x, /, *, k=0)",
        summary=f"{part} triangular part of a matrix (or stack of matrices) ``x``.",
        parameters={
            "x": MATRICES,
            "k": (
                "int",
                f"Diagonal {zeroed} which elements are zeroed: 0 (the default) is the main "
                "diagonal, a positive value a diagonal above it, a negative value one below it.",
            ),
        },
        returns=(
            "Array",
            f"``x`` with the elements {zeroed} the ``k``-th diagonal zeroed; same shape and dtype.",
        ),
        keeps_dtype=True,
        also_positional=("k",),
        min_ndim=2,  # (NumPy took a 1-D array as a row of a matrix, the others raised)
        example=example,
    )


RECORDS = section(
    "creation_functions",
    Record(
        "arange",
        "creation",
        signature="(start, /, stop=None, step=1, *, dtype=None, device=None)",
        summary="Evenly spaced values in the half-open interval ``[start, stop)``.",
        parameters={
            "start": (
                "int or float",
                "Start of the interval (included) if ``stop`` is given; else the end of the "
                "interval (excluded), the start being 0.",
            ),
            "stop": (
                "int, float or None",
                "End of the interval (excluded); None (the default): see ``start``.",
            ),
            "step": (
                "int or float",
                "Distance between two adjacent elements; must not be 0. Default 1.",
            ),
            "dtype": (
                "DType or None",
                "Dtype of the result; None (the default) gives the default integer dtype if "
                "``start``, ``stop`` and ``step`` are ints, else the default real floating-point "
                "dtype.",
            ),
        },
        returns=(
            "Array",
            "One-dimensional array of the values ``start + i * step`` in ``[start, stop)``, of "
            "length ``ceil((stop - start) / step)`` (0 if that is negative).",
        ),
        zero_d=("start", "step", "stop"),
        example="""\
>>> xp.arange(5)
Array([0, 1, 2, 3, 4], dtype=int64, device='numpy:cpu')
>>> xp.arange(1.0, 2.0, 0.25)
Array([1.  , 1.25, 1.5 , 1.75], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "asarray",
        "creation",
        signature="(obj, /, *, dtype=None, device=None, copy=None)",
        by_hand=True,
    ),
    new(
        "empty",
        "its elements uninitialized",
        result=UNINITIALIZED,
        example="""\
>>> x = xp.empty((2, 3))
>>> x.shape, x.dtype
((2, 3), arraymux.float64)
""",
    ),
    Record(
        "eye",
        "creation",
        signature="(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)",
        summary="A two-dimensional array with ones on the ``k``-th diagonal and zeros elsewhere.",
        parameters={"dtype": CREATION_DTYPE},
        returns=(
            "Array",
            "Array of shape ``(n_rows, n_cols)``: ones on the ``k``-th diagonal, zeros elsewhere.",
        ),
        zero_d=("k", "n_cols", "n_rows"),
        example="""\
>>> xp.eye(2, 3, k=1)
Array([[0., 1., 0.],
       [0., 0., 1.]], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "from_dlpack",
        "creation",
        signature="(x, /, *, device=None, copy=None)",
        by_hand=True,
    ),
    new(
        "full",
        "every element ``fill_value``",
        signature="(shape, fill_value, *, dtype=None, device=None)",
        parameters={
            "dtype": (
                "DType or None",
                "Dtype of the result; None (the default) infers it from ``fill_value``: bool for "
                "a bool, else the device's default integer, real or complex floating-point dtype "
                "for an int, float or complex number.",
            ),
        },
        zero_d=("fill_value", "shape[]"),
        example="""\
>>> xp.full((2, 2), 7)
Array([[7, 7],
       [7, 7]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "linspace",
        "creation",
        signature="(start, stop, /, num, *, dtype=None, device=None, endpoint=True)",
        summary="``num`` evenly spaced numbers over the interval from ``start`` to ``stop``.",
        parameters={
            "dtype": (
                "DType or None",
                "Dtype of the result; should be floating-point. None (the default) gives the "
                "device's default complex floating-point dtype if ``start`` or ``stop`` is "
                "complex, else its default real floating-point dtype.",
            )
        },
        returns=("Array", "One-dimensional array of ``num`` evenly spaced values."),
        zero_d=("num", "start", "stop"),
        example="""\
>>> xp.linspace(0, 1, 5)
Array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64, device='numpy:cpu')
>>> xp.linspace(0, 1, 4, endpoint=False)
Array([0.  , 0.25, 0.5 , 0.75], dtype=float64, device='numpy:cpu')
""",
    ),
    new(
        "ones",
        "filled with ones",
        example="""\
>>> xp.ones((2, 3), dtype=xp.int32)
Array([[1, 1, 1],
       [1, 1, 1]], dtype=int32, device='numpy:cpu')
""",
    ),
    new(
        "zeros",
        "filled with zeros",
        example="""\
>>> xp.zeros(3)
Array([0., 0., 0.], dtype=float64, device='numpy:cpu')
""",
    ),
    like(
        "empty_like",
        "its elements uninitialized",
        result=UNINITIALIZED,
        example="""\
>>> x = xp.empty_like(xp.asarray([[1, 2], [3, 4]], dtype=xp.int16))
>>> x.shape, x.dtype
((2, 2), arraymux.int16)
""",
    ),
    like(
        "full_like",
        "every element ``fill_value``",
        signature="(x, /, fill_value, *, dtype=None, device=None)",
        zero_d=("fill_value",),
        example="""\
>>> xp.full_like(xp.asarray([1.0, 2.0]), 7)
Array([7., 7.], dtype=float64, device='numpy:cpu')
""",
    ),
    like(
        "ones_like",
        "filled with ones",
        example="""\
>>> xp.ones_like(xp.asarray([[1, 2], [3, 4]]))
Array([[1, 1],
       [1, 1]], dtype=int64, device='numpy:cpu')
""",
    ),
    like(
        "zeros_like",
        "filled with zeros",
        example="""\
>>> xp.zeros_like(xp.asarray([1.0, 2.0]), dtype=xp.int8)
Array([0, 0], dtype=int8, device='numpy:cpu')
""",
    ),
    triangle(
        "tril",
        "Lower",
        "above",
        example="""\
>>> xp.tril(xp.reshape(xp.arange(1, 10), (3, 3)))
Array([[1, 0, 0],
       [4, 5, 0],
       [7, 8, 9]], dtype=int64, device='numpy:cpu')
""",
    ),
    triangle(
        "triu",
        "Upper",
        "below",
        example="""\
>>> xp.triu(xp.reshape(xp.arange(1, 10), (3, 3)), k=1)
Array([[0, 2, 3],
       [0, 0, 6],
       [0, 0, 0]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "meshgrid",
        "generic",
        signature="(*arrays, indexing='xy')",
        summary="Coordinate matrices from coordinate vectors.",
        parameters={
            "arrays": (
                "Array",
                "One-dimensional arrays of grid coordinates, on one device; should have the same "
                "numeric dtype.",
            )
        },
        returns=(
            "tuple of Arrays",
            "One array per input array, each with as many axes as there are inputs: of shape "
            "``(N1, N2, ...)`` for ``'ij'`` indexing, ``(N2, N1, ...)`` for ``'xy'``.",
        ),
        result=tuple,
        arrays=VARARGS,
        vectors=("arrays",),  # (NumPy, Dask and array-api-strict flattened others)
        example="""\
>>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([4, 5]))
>>> X
Array([[1, 2, 3],
       [1, 2, 3]], dtype=int64, device='numpy:cpu')
>>> Y
Array([[4, 4, 4],
       [5, 5, 5]], dtype=int64, device='numpy:cpu')
""",
    ),
)
