"""Statistical functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import first

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]

cumulative_sum = first("cumulative_sum")
cumulative_prod = first("cumulative_prod")
max = first("max")
mean = first("mean")
min = first("min")
prod = first("prod")
std = first("std")
sum = first("sum")
var = first("var")
