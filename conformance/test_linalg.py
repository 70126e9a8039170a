"""Conformance of the linalg extension, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("linalg"))
def test_linalg(function, device, check_function):
    check_function(function, device)
