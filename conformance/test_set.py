"""Conformance of set functions, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("set_functions"))
def test_set(function, device, check_function):
    check_function(function, device)
