"""Conformance of linear algebra functions, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("linear_algebra_functions"))
def test_linear_algebra(function, device, check_function):
    check_function(function, device)
