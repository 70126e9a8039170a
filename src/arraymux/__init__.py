"""arraymux: write array code once, run it on NumPy, PyTorch, JAX, CuPy, Dask or array-api-strict.

``arraymux`` is itself an Array API namespace (standard 2025.12; 2024.12 through
:func:`namespace`). Every function routes to the backend of its first array operand::

    import arraymux as xp
    x = xp.linspace(0, 1, 5, device="torch:cpu")
    y = xp.sin(x) * 2 + 1        # computed by torch; y.device == xp.Device("torch:cpu")
"""

from __future__ import annotations

import math as _math
import sys as _sys

from . import (
    _creation_functions,
    _data_type_functions,
    _dynamo,
    _elementwise_functions,
    _indexing_functions,
    _linear_algebra_functions,
    _manipulation_functions,
    _operators,
    _searching_functions,
    _set_functions,
    _sorting_functions,
    _statistical_functions,
    _utility_functions,
    fft,
    linalg,
    random,
    special,
)
from ._array import Array
from ._clients import NumPyFallbackWarning
from ._creation_functions import *  # noqa: F403
from ._data_type_functions import *  # noqa: F403
from ._default_dtypes import default_dtypes, get_default_dtypes, set_default_dtypes
from ._devices import Device, default_device, devices, get_default_device, set_default_device
from ._dtypes import (
    DType,
    bool,
    complex64,
    complex128,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._elementwise_functions import *  # noqa: F403
from ._errors import (
    ArraymuxError,
    AxisError,
    BackendMismatchError,
    BackendUnavailableError,
    DeviceMismatchError,
    TransformUnavailableError,
    UnsupportedDTypeError,
)
from ._indexing_functions import *  # noqa: F403
from ._info import __array_namespace_info__
from ._linear_algebra_functions import *  # noqa: F403
from ._manipulation_functions import *  # noqa: F403
from ._namespace import namespace
from ._narrowing import NarrowingWarning, narrowing, set_narrowing
from ._natively import call_natively, natively
from ._searching_functions import *  # noqa: F403
from ._set_functions import *  # noqa: F403
from ._sorting_functions import *  # noqa: F403
from ._statistical_functions import *  # noqa: F403
from ._transfer import block_until_ready, synchronize, to_device, to_numpy
from ._utility_functions import *  # noqa: F403
from .transforms import (
    TreeDef,
    checkpoint,
    cond,
    custom_jvp,
    custom_vjp,
    fori_loop,
    grad,
    hessian,
    jacobian,
    jit,
    jvp,
    on_device,
    register_dataclass,
    register_tree_node,
    scan,
    stop_gradient,
    switch,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
    value_and_grad,
    vjp,
    vmap,
    while_loop,
)

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None

_operators.install(_sys.modules[__name__])
_dynamo.watch()  # arraymux inside torch.compile: ready before dynamo traces (see _dynamo)

__all__ = [
    "Array",
    "ArraymuxError",
    "AxisError",
    "BackendMismatchError",
    "BackendUnavailableError",
    "DType",
    "Device",
    "DeviceMismatchError",
    "TransformUnavailableError",
    "TreeDef",
    "NarrowingWarning",
    "NumPyFallbackWarning",
    "UnsupportedDTypeError",
    "__array_api_version__",
    "__array_namespace_info__",
    "block_until_ready",
    "bool",
    "call_natively",
    "checkpoint",
    "complex128",
    "complex64",
    "cond",
    "custom_jvp",
    "custom_vjp",
    "default_device",
    "default_dtypes",
    "devices",
    "e",
    "fft",
    "float32",
    "float64",
    "fori_loop",
    "get_default_device",
    "get_default_dtypes",
    "grad",
    "hessian",
    "inf",
    "int16",
    "int32",
    "int64",
    "int8",
    "jacobian",
    "jit",
    "jvp",
    "linalg",
    "namespace",
    "on_device",
    "narrowing",
    "nan",
    "natively",
    "newaxis",
    "pi",
    "random",
    "register_dataclass",
    "register_tree_node",
    "scan",
    "set_default_device",
    "set_default_dtypes",
    "set_narrowing",
    "special",
    "stop_gradient",
    "switch",
    "synchronize",
    "to_device",
    "to_numpy",
    "tree_flatten",
    "tree_leaves",
    "tree_map",
    "tree_structure",
    "tree_unflatten",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "value_and_grad",
    "vjp",
    "vmap",
    "while_loop",
]
# The functions of the standard, section by section (generated from their records).
__all__ += _creation_functions.__all__
__all__ += _data_type_functions.__all__
__all__ += _elementwise_functions.__all__
__all__ += _indexing_functions.__all__
__all__ += _linear_algebra_functions.__all__
__all__ += _manipulation_functions.__all__
__all__ += _searching_functions.__all__
__all__ += _set_functions.__all__
__all__ += _sorting_functions.__all__
__all__ += _statistical_functions.__all__
__all__ += _utility_functions.__all__


def __dir__() -> list[str]:
    return list(__all__)
