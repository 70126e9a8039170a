"""Conformance of the fft extension, on every device, against NumPy."""

from __future__ import annotations

import pytest

from arraymux.testing._conformance import functions


@pytest.mark.parametrize("function", functions("fft"))
def test_fft(function, device, check_function):
    check_function(function, device)
