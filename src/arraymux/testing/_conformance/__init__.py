"""Property definitions for the standard's functions, run on any arraymux device.

Each property draws inputs as NumPy arrays (the same draw whatever the device), moves them to
the device with :func:`arraymux.asarray`, calls the arraymux function, and checks the result's
shape and dtype against the standard's rules and its values against NumPy's (through
``array_api_compat.numpy``) within dtype-aware tolerances. Elementwise functions also check a
table of the standard's special cases (nan, +-inf, +-0).

The pytest files under ``conformance/`` and ``arraymux conformance`` both run these.
"""

from . import (  # noqa: F401  (importing a section registers its properties)
    creation,
    data_type,
    elementwise,
    fft,
    indexing,
    linalg,
    linear_algebra,
    manipulation,
    searching,
    set,
    sorting,
    statistical,
    utility,
)
from ._core import PROPERTIES, Unsupported
from ._run import functions, is_supported, run_property
from .elementwise import check_special_cases

__all__ = [
    "PROPERTIES",
    "Unsupported",
    "check_special_cases",
    "functions",
    "is_supported",
    "run_property",
]
