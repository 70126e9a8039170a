"""The records of the standard's statistical functions: one per function."""

from __future__ import annotations

from ._record import ACCUMULATE, ORDER_DTYPE, Record, reduction, section


def cumulative(name: str, operation: str, *, example: str) -> Record:
    """The cumulative ``operation`` (``"sum"``, ``"product"``) along ``axis``."""
    return Record(
        name,
        "first",
        signature="(x, /, *, axis=None, dtype=None, include_initial=False)",
        summary=f"Cumulative {operation} of the elements of ``x`` along an axis.",
        dtypes="numeric",
        parameters={
            "x": (
                "Array",
                "Input array of one or more dimensions: a 0-d array is refused on every "
                "backend (NumPy gave an array of shape ``(1,)``, torch a 0-d one, JAX and Dask "
                "raised).",
            ),
            "axis": ACCUMULATE,
            "dtype": ORDER_DTYPE,
        },
        returns=(
            "Array",
            f"The cumulative {operation}s, of the shape of ``x`` (``axis`` one longer with "
            "``include_initial``) and the dtype described under ``dtype``.",
        ),
        zero_d=("axis",),
        axis="int or None",
        min_ndim=1,
        example=example,
    )


def extreme(name: str, which: str, results: str, *, example: str) -> Record:
    """The maximum or minimum (``which``) of real-valued elements over the given axes."""
    return reduction(
        name,
        f"{which} of the elements of ``x``, over the given axes.",
        f"The {results}, with the dtype of ``x``",
        dtypes="real-valued",
        refused=("complex floating",),  # torch has no order of complex numbers
        example=example,
    )


def total(name: str, operation: str, results: str, *, example: str) -> Record:
    """The sum or product (``operation``) over the given axes, in the dtype of ``dtype``."""
    return reduction(
        name,
        f"{operation} of the elements of ``x``, over the given axes.",
        f"The {results}, with the dtype described under ``dtype``",
        signature="(x, /, *, axis=None, dtype=None, keepdims=False)",
        dtypes="numeric",
        parameters={"dtype": ORDER_DTYPE},
        example=example,
    )


def spread(name: str, statistic: str, results: str, *, example: str) -> Record:
    """The standard deviation or variance (``statistic``), with ``correction`` degrees of
    freedom, over the given axes."""
    return reduction(
        name,
        f"{statistic} of the elements of ``x``, over the given axes.",
        f"The {results}, with the dtype of ``x``",
        signature="(x, /, *, axis=None, correction=0.0, keepdims=False)",
        dtypes="real-valued floating-point",
        operands="floating",
        zero_d=("axis", "correction"),
        example=example,
    )


RECORDS = section(
    "statistical_functions",
    cumulative(
        "cumulative_sum",
        "sum",
        example="""\
>>> x = xp.asarray([1, 2, 3])
>>> xp.cumulative_sum(x)
Array([1, 3, 6], dtype=int64, device='numpy:cpu')
>>> xp.cumulative_sum(x, include_initial=True)
Array([0, 1, 3, 6], dtype=int64, device='numpy:cpu')
""",
    ),
    cumulative(
        "cumulative_prod",
        "product",
        example="""\
>>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
Array([ 1,  2,  6, 24], dtype=int64, device='numpy:cpu')
""",
    ),
    extreme(
        "max",
        "Maximum",
        "maxima",
        example="""\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.max(x)
Array(5, dtype=int64, device='numpy:cpu')
>>> xp.max(x, axis=0)
Array([3, 5], dtype=int64, device='numpy:cpu')
""",
    ),
    reduction(
        "mean",
        "Arithmetic mean of the elements of ``x``, over the given axes.",
        "The means, with the dtype of ``x``",
        dtypes="floating-point",
        operands="floating",
        example="""\
>>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    extreme(
        "min",
        "Minimum",
        "minima",
        example="""\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.min(x)
Array(1, dtype=int64, device='numpy:cpu')
>>> xp.min(x, axis=1, keepdims=True)
Array([[1],
       [2]], dtype=int64, device='numpy:cpu')
""",
    ),
    total(
        "prod",
        "Product",
        "products",
        example="""\
>>> xp.prod(xp.asarray([1, 2, 3, 4]))
Array(24, dtype=int64, device='numpy:cpu')
""",
    ),
    spread(
        "std",
        "Standard deviation",
        "standard deviations",
        example="""\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.std(x)
Array(2., dtype=float64, device='numpy:cpu')
>>> xp.std(x, correction=1)
Array(2.13808994, dtype=float64, device='numpy:cpu')
""",
    ),
    total(
        "sum",
        "Sum",
        "sums",
        example="""\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.sum(x)
Array(10, dtype=int64, device='numpy:cpu')
>>> xp.sum(x, axis=1)
Array([3, 7], dtype=int64, device='numpy:cpu')
""",
    ),
    spread(
        "var",
        "Variance",
        "variances",
        example="""\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.var(x)
Array(4., dtype=float64, device='numpy:cpu')
>>> xp.var(x, correction=1)
Array(4.57142857, dtype=float64, device='numpy:cpu')
""",
    ),
)
