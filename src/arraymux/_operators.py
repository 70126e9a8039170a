"""The operators of :class:`arraymux.Array`, installed once the namespace exists.

``_array.py`` defines the class and sits below the dispatch; this module binds its operators
(``+``, ``==``, ``-x``, the reflected and in-place forms) to the namespace's functions, and gives
``_array`` the functions it calls back (``x.T``, the index and value checks of ``x[k] = v``).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from . import _array, _compiled, _factories, _namespace, _transfer
from ._arguments import python_scalar
from ._array import Array, operand
from ._devices import closure_constant
from ._dispatch import SCALARS
from ._errors import mismatch, not_an_array

if TYPE_CHECKING:
    from ._devices import Device

# The arraymux namespace, once built (``install``): in-place operators call its functions.
_namespace_module: ModuleType | None = None


def _inplace(name: str) -> Callable[[Array, object], Array]:
    symbol = _SYMBOLS[name]

    def op(self: Array, other: object, /) -> Array:
        result = getattr(_namespace_module, name)(self, other)
        if result.dtype is not self.dtype:
            raise TypeError(
                f"arraymux.{name}: x {symbol}= y would change the dtype of x from {self.dtype} "
                f"to {result.dtype}; write x = arraymux.{name}(x, y) instead."
            )
        if tuple(result._native.shape) != tuple(self._native.shape):
            raise ValueError(
                f"arraymux.{name}: x {symbol}= y would change the shape of x from {self.shape} "
                f"to {result.shape} (y broadcasts to a larger shape); write "
                f"x = arraymux.{name}(x, y) instead."
            )
        backend = self._device._backend
        if backend.spec.mutable and 0 not in result._native.shape:
            native = backend.normalize(self._native)
            self._native = native
            native[...] = result._native
        else:  # immutable, or empty (nothing to write; Dask refuses to assign to it)
            self._native = result._native
        return self

    op.__name__ = f"__i{_OPERATORS[name]}__"
    op.__qualname__ = f"Array.{op.__name__}"  # what an arity error shows
    return op


# Standard function name -> operator name.
_OPERATORS = {
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "truediv",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "pow": "pow",
    "matmul": "matmul",
    "bitwise_and": "and",
    "bitwise_or": "or",
    "bitwise_xor": "xor",
    "bitwise_left_shift": "lshift",
    "bitwise_right_shift": "rshift",
}
_SYMBOLS = {
    "add": "+",
    "subtract": "-",
    "multiply": "*",
    "divide": "/",
    "floor_divide": "//",
    "remainder": "%",
    "pow": "**",
    "matmul": "@",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "bitwise_left_shift": "<<",
    "bitwise_right_shift": ">>",
}
_COMPARISONS = {
    "equal": "eq",
    "not_equal": "ne",
    "less": "lt",
    "less_equal": "le",
    "greater": "gt",
    "greater_equal": "ge",
}
_UNARY = {"negative": "neg", "positive": "pos", "abs": "abs", "bitwise_invert": "invert"}


def install(namespace: ModuleType) -> None:
    """Bind the operators of ``Array`` to the hot-path functions of ``_factories``, and give
    ``_array`` the ``namespace`` (arraymux) it calls back."""
    global _namespace_module
    _namespace_module = namespace
    _array.connect(
        ops=namespace,
        namespace_of=_namespace.namespace,
        transfer=_transfer,
        set_operand=_set_device_check,
    )
    builtins: dict[str, Callable[..., object]] = {}
    for name, op in (_OPERATORS | _COMPARISONS).items():
        # The operator form returns NotImplemented for operands it does not know.
        fn = _compiled.function("binary", name, _factories.binary(name, operator=True))
        builtins[op] = fn
        setattr(Array, f"__{op}__", _compiled.operator(f"__{op}__", fn))
    for name, op in _OPERATORS.items():
        setattr(Array, f"__r{op}__", _factories.reflected(name))
        setattr(Array, f"__i{op}__", _inplace(name))
    for name, op in _UNARY.items():
        builtins[op] = fn = _factories.unary(name)
        setattr(Array, f"__{op}__", _compiled.operator(f"__{op}__", fn, True))
    # Unhashable, as == gives an array (set through setattr: object declares a method there).
    setattr(Array, "__hash__", None)  # noqa: B010
    _SLOT_BUILTINS.update(builtins)
    install_slots()


_SLOT_BUILTINS: dict[str, Callable[..., object]] = {}


def install_slots() -> None:
    """Put the compiled operators in ``Array``'s slots (again: assigning an operator on the
    class puts CPython's own slot back, which calls the Python method)."""
    _compiled.operator_slots(_SLOT_BUILTINS)


def _set_device_check(device: Device, other: object, fname: str, pos: int | str) -> object:
    """Unwrap ``other`` for use with an array on ``device`` (scalars pass through)."""
    other = python_scalar(other)
    if isinstance(other, SCALARS):
        return other
    op = operand(other)
    if op is None:
        raise not_an_array(fname, pos, other, scalars_ok=True)
    native, dev = op
    if dev is not device:
        constant = closure_constant(native, dev, device)
        if constant is None:
            raise mismatch(fname, pos, dev, "self", device)
        return constant
    return native
