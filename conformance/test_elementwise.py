"""Conformance of elementwise functions: result shapes (broadcasting), dtypes (promotion), the standard's special cases and values, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("elementwise_functions"))
def test_elementwise(function, device, check_function):
    check_function(function, device)
