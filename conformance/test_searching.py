"""Conformance of searching functions, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("searching_functions"))
def test_searching(function, device, check_function):
    check_function(function, device)
