"""Conformance of data type functions, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("data_type_functions"))
def test_data_type(function, device, check_function):
    check_function(function, device)
