"""The records of the standard's statistical functions: one per function."""

from __future__ import annotations

from ._record import ACCUMULATE, ORDER_DTYPE, Record, section

RECORDS = section(
    "statistical_functions",
    Record(
        "cumulative_sum",
        "first",
        signature="(x, /, *, axis=None, dtype=None, include_initial=False)",
        summary="Cumulative sum of the elements of ``x`` along an axis.",
        dtypes="numeric",
        parameters={"axis": ACCUMULATE, "dtype": ORDER_DTYPE},
        returns=(
            "Array",
            "The cumulative sums, of the shape of ``x`` (``axis`` one longer with "
            "``include_initial``) and the dtype described under ``dtype``.",
        ),
        zero_d=("axis",),
        axis="int or None",
        example="""\
>>> x = xp.asarray([1, 2, 3])
>>> xp.cumulative_sum(x)
Array([1, 3, 6], dtype=int64, device='numpy:cpu')
>>> xp.cumulative_sum(x, include_initial=True)
Array([0, 1, 3, 6], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "cumulative_prod",
        "first",
        signature="(x, /, *, axis=None, dtype=None, include_initial=False)",
        summary="Cumulative product of the elements of ``x`` along an axis.",
        dtypes="numeric",
        parameters={"axis": ACCUMULATE, "dtype": ORDER_DTYPE},
        returns=(
            "Array",
            "The cumulative products, of the shape of ``x`` (``axis`` one longer with "
            "``include_initial``) and the dtype described under ``dtype``.",
        ),
        zero_d=("axis",),
        axis="int or None",
        example="""\
>>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
Array([ 1,  2,  6, 24], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "max",
        "first",
        signature="(x, /, *, axis=None, keepdims=False)",
        summary="Maximum of the elements of ``x``, over the given axes.",
        dtypes="real-valued",
        returns=(
            "Array",
            "The maxima, with the dtype of ``x``: a zero-dimensional array if all axes are "
            "reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.max(x)
Array(5, dtype=int64, device='numpy:cpu')
>>> xp.max(x, axis=0)
Array([3, 5], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "mean",
        "first",
        signature="(x, /, *, axis=None, keepdims=False)",
        summary="Arithmetic mean of the elements of ``x``, over the given axes.",
        dtypes="floating-point",
        returns=(
            "Array",
            "The means, with the dtype of ``x``: a zero-dimensional array if all axes are reduced, "
            "else an array without the reduced axes (with them of size one if ``keepdims``).",
        ),
        operands="floating",
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)
Array([2., 3.], dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "min",
        "first",
        signature="(x, /, *, axis=None, keepdims=False)",
        summary="Minimum of the elements of ``x``, over the given axes.",
        dtypes="real-valued",
        returns=(
            "Array",
            "The minima, with the dtype of ``x``: a zero-dimensional array if all axes are "
            "reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([[1, 5], [3, 2]])
>>> xp.min(x)
Array(1, dtype=int64, device='numpy:cpu')
>>> xp.min(x, axis=1, keepdims=True)
Array([[1],
       [2]], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "prod",
        "first",
        signature="(x, /, *, axis=None, dtype=None, keepdims=False)",
        summary="Product of the elements of ``x``, over the given axes.",
        dtypes="numeric",
        parameters={"dtype": ORDER_DTYPE},
        returns=(
            "Array",
            "The products, with the dtype described under ``dtype``: a zero-dimensional array if "
            "all axes are reduced, else an array without the reduced axes (with them of size one "
            "if ``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> xp.prod(xp.asarray([1, 2, 3, 4]))
Array(24, dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "std",
        "first",
        signature="(x, /, *, axis=None, correction=0.0, keepdims=False)",
        summary="Standard deviation of the elements of ``x``, over the given axes.",
        dtypes="real-valued floating-point",
        returns=(
            "Array",
            "The standard deviations, with the dtype of ``x``: a zero-dimensional array if all "
            "axes are reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        operands="floating",
        also_positional=("axis",),
        zero_d=("axis", "correction"),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.std(x)
Array(2., dtype=float64, device='numpy:cpu')
>>> xp.std(x, correction=1)
Array(2.13808994, dtype=float64, device='numpy:cpu')
""",
    ),
    Record(
        "sum",
        "first",
        signature="(x, /, *, axis=None, dtype=None, keepdims=False)",
        summary="Sum of the elements of ``x``, over the given axes.",
        dtypes="numeric",
        parameters={"dtype": ORDER_DTYPE},
        returns=(
            "Array",
            "The sums, with the dtype described under ``dtype``: a zero-dimensional array if all "
            "axes are reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        also_positional=("axis",),
        zero_d=("axis",),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([[1, 2], [3, 4]])
>>> xp.sum(x)
Array(10, dtype=int64, device='numpy:cpu')
>>> xp.sum(x, axis=1)
Array([3, 7], dtype=int64, device='numpy:cpu')
""",
    ),
    Record(
        "var",
        "first",
        signature="(x, /, *, axis=None, correction=0.0, keepdims=False)",
        summary="Variance of the elements of ``x``, over the given axes.",
        dtypes="real-valued floating-point",
        returns=(
            "Array",
            "The variances, with the dtype of ``x``: a zero-dimensional array if all axes are "
            "reduced, else an array without the reduced axes (with them of size one if "
            "``keepdims``).",
        ),
        operands="floating",
        also_positional=("axis",),
        zero_d=("axis", "correction"),
        axis="tuple or None",
        example="""\
>>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
>>> xp.var(x)
Array(4., dtype=float64, device='numpy:cpu')
>>> xp.var(x, correction=1)
Array(4.57142857, dtype=float64, device='numpy:cpu')
""",
    ),
)
