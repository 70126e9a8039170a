"""``arraymux.Array``: a thin wrapper over one backend's native array."""

from __future__ import annotations

import inspect
import math
import operator
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn, cast

from . import _dtypes
from ._arguments import INDEX_CHECKED, check_index
from ._backend_errors import BACKEND_ERRORS, raise_annotated
from ._backends import backend_of_type, on_load
from ._backends._adapter import NativeArray
from ._clients import advice, caller, ufunc_library
from ._devices import constant_bridge, device_of_native
from ._errors import BackendMismatchError

if TYPE_CHECKING:
    from typing import SupportsIndex

    import numpy as np

    from ._backends import Backend
    from ._devices import Bridge, Device, DeviceLike
    from ._dtypes import DType

__all__ = ["Array", "connect", "operand", "wrap"]


class Array:
    """An array on one device of one backend.

    ``Array`` wraps a native array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ...)
    without copying it. Operations route to the backend that holds it; mixing arrays of two
    backends or devices raises an error that says how to move one. Make arrays with
    :func:`arraymux.asarray` and the other creation functions, not with ``Array(...)``.

    Parameters
    ----------
    *args, **kwargs
        None are accepted: ``Array(...)`` raises ``TypeError``; :func:`arraymux.asarray`
        makes arrays.

    Examples
    --------
    >>> import arraymux as xp
    >>> x = xp.asarray([1.0, 2.0, 3.0])
    >>> x * 2 + 1
    Array([3., 5., 7.], dtype=float64, device='numpy:cpu')
    >>> x.device, x.dtype, x.shape
    (Device('numpy:cpu'), arraymux.float64, (3,))
    """

    __slots__ = ("__weakref__", "_device", "_dtype", "_native")
    _native: Any
    _device: Device
    _dtype: object  # native.dtype once read (the hot paths cache it), else None

    __array_priority__ = 1000

    if TYPE_CHECKING:
        # The operators are installed at import (``_operators.install``); these declarations
        # tell type checkers what they take and give.
        def __add__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __radd__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __iadd__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __sub__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rsub__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __isub__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __mul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rmul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __imul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __truediv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rtruediv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __itruediv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __floordiv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rfloordiv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ifloordiv__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __mod__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rmod__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __imod__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __pow__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rpow__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ipow__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __matmul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rmatmul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __imatmul__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __and__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rand__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __iand__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __or__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ror__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ior__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __xor__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rxor__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ixor__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __lshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rlshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ilshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __rrshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __irshift__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __lt__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __le__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __gt__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __ge__(self, other: Array | bool | int | float | complex, /) -> Array: ...
        def __eq__(self, other: object, /) -> Array: ...  # type: ignore[override]
        def __ne__(self, other: object, /) -> Array: ...  # type: ignore[override]
        def __neg__(self) -> Array: ...
        def __pos__(self) -> Array: ...
        def __abs__(self) -> Array: ...
        def __invert__(self) -> Array: ...

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError(
            "arraymux.Array cannot be constructed directly; use arraymux.asarray(obj, "
            "device=...) to make an array (it wraps native arrays without copying)."
        )

    # -- attributes ---------------------------------------------------------------------------

    @property
    def native(self) -> Any:
        """The wrapped native array (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ...)."""
        return self._device._backend.normalize(self._native)

    @property
    def device(self) -> Device:
        """The :class:`arraymux.Device` holding the array."""
        return self._device

    @property
    def dtype(self) -> DType:
        """The arraymux dtype of the array."""
        t = self._dtype
        if t is None:
            t = self._dtype = self._native.dtype
        return self._device._backend.dtype_from_native(t)

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The shape; ``None`` marks a dimension a lazy backend does not know yet."""
        shape = self._native.shape
        if not self._device._lazy:  # every dimension known, as Python ints
            return shape if type(shape) is tuple else tuple(shape)  # (torch.Size: a tuple)
        return tuple(
            None if isinstance(n, float) and math.isnan(n) else (None if n is None else int(n))
            for n in shape
        )

    @property
    def ndim(self) -> int:
        """Number of dimensions (axes), ``len(x.shape)``."""
        return self._native.ndim  # (every backend's array has it)

    @property
    def size(self) -> int | None:
        """Number of elements, or ``None`` if some dimension is unknown."""
        if not self._device._lazy:
            return math.prod(self._native.shape)
        shape = self.shape
        return None if None in shape else math.prod(cast("tuple[int, ...]", shape))

    @property
    def T(self) -> Array:
        """Transpose of a 2-D array (use :attr:`mT` for stacks of matrices)."""
        if self._native.ndim != 2:
            raise ValueError(
                f"Array.T needs a 2-D array, this one has {self.ndim} dimensions; "
                "use x.mT or arraymux.permute_dims."
            )
        # Every backend's own ``.T`` of a 2-D array is this view (permute_dims through the
        # dispatcher cost 0.7 us more on NumPy, a tenth of a small training step's overhead).
        try:
            r = self._native.T
        except BACKEND_ERRORS as e:
            raise_annotated("Array.T", self._device, e)
        return _wrap(r, self._device, self._dtype)

    @property
    def mT(self) -> Array:
        """Transpose of the last two axes."""
        native = self._native
        if len(native.shape) >= 2:
            # The backend's own ``.mT``, where it has one, is matrix_transpose's view.
            mt = getattr(native, "mT", None)
            if mt is not None:
                return _wrap(mt, self._device, self._dtype)
        return _ops.matrix_transpose(self)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        """The arraymux namespace bound to this array's device (one object per device and
        version): its creation functions default to this device, so a library that calls
        ``xp.asarray(...)`` or ``xp.zeros(...)`` on it keeps its results beside this array.
        See :func:`arraymux.namespace`."""
        return _namespace_of(api_version, device=self._device)

    # -- conversion ---------------------------------------------------------------------------

    def _to_python(self, kind: type) -> Any:
        try:
            value = kind(self._native)
        except BACKEND_ERRORS as e:
            if kind is int and self._unsigned_scalar():
                # torch converts through int64: uint64 values above 2**63 - 1 overflow.
                return int(self._device._backend.adapter.to_numpy(self._native))
            err = _conversion_error(self, kind.__name__, e)
            if err is e:
                raise
            raise err from e
        if kind is not bool and self._native.ndim != 0:
            # NumPy and JAX convert 0-d arrays only; torch and Dask took any one element
            raise TypeError(
                f"arraymux.Array.__{kind.__name__}__: cannot convert an array of shape "
                f"{self.shape} on {self._device} to a Python {kind.__name__}; the standard "
                "converts 0-d arrays only (index the element first: x[0])."
            )
        return value

    def __bool__(self) -> bool:
        """``bool(x)`` of a 0-d array (reads the value back from its device)."""
        return self._to_python(bool)

    def __int__(self) -> int:
        """``int(x)`` of a 0-d array (reads the value back; uint64 values stay exact)."""
        return self._to_python(int)

    def __float__(self) -> float:
        """``float(x)`` of a 0-d array (reads the value back from its device)."""
        return self._to_python(float)

    def __complex__(self) -> complex:
        """``complex(x)`` of a 0-d array (reads the value back from its device)."""
        return self._to_python(complex)

    def _unsigned_scalar(self) -> bool:
        try:
            return self.ndim == 0 and self.dtype.kind == "unsigned integer"
        except BACKEND_ERRORS:
            return False

    def __index__(self) -> int:
        """``operator.index(x)`` of a 0-d integer array, so it can index a Python sequence;
        other arrays raise ``TypeError``."""
        # Checked first, one answer on every backend (Dask computed the array, and took a
        # one-element array of any shape).
        if self.ndim != 0 or self.dtype.kind not in ("signed integer", "unsigned integer"):
            raise TypeError(
                f"arraymux.Array.__index__: only 0-d integer arrays are indices; this one "
                f"has shape {self.shape} and dtype {self.dtype}."
            )
        try:
            return operator.index(self._native)
        except RuntimeError:
            if not self._unsigned_scalar():
                raise
            return self._to_python(int)
        except TypeError:  # CuPy's 0-d arrays have no __index__
            return int(self._native)

    def __len__(self) -> int:
        """``len(x)``: the length of the first axis (``TypeError`` for a 0-d array, or where a
        lazy backend does not know it yet)."""
        if self.ndim == 0:
            raise TypeError("arraymux.Array.__len__: len() of a 0-d array")
        n = self.shape[0]
        if n is None:
            raise TypeError("len() of an array whose first dimension is not known yet")
        return n

    def __iter__(self) -> Iterator[Array]:
        """Iterate over the first axis: ``x[0, ...]``, ``x[1, ...]``, ... (each an Array)."""
        shape = self._native.shape
        if not shape:
            raise TypeError("arraymux.Array.__iter__: iteration over a 0-d array")
        n = shape[0]
        # (i, ...) rather than i: the standard leaves indexing fewer axes than ndim unspecified.
        return (self[i, ...] for i in range(n if type(n) is int else len(self)))

    def __dlpack__(
        self,
        /,
        *,
        stream: object = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object:
        """Export the array as a DLPack capsule, for another library's ``from_dlpack``.

        The native array's own export where it has one, so the capsule shares its memory.

        Parameters
        ----------
        stream
            The consumer's stream (CUDA), passed on to the native export.
        max_version
            The highest DLPack version the consumer takes, ``(major, minor)``; below
            ``(1, 0)`` a legacy capsule is made.
        dl_device
            The ``(device type, device id)`` the consumer wants; another device than the
            array's is met by a host copy to the CPU ``(1, 0)`` only.
        copy
            ``True``: always a copy; ``False``: never (``BufferError`` where one is
            needed, e.g. a Dask array, which has no memory until computed); ``None``: a copy
            only where needed.

        Returns
        -------
        PyCapsule
            A DLPack capsule named ``"dltensor"`` (or ``"dltensor_versioned"``).

        Raises
        ------
        BufferError
            ``copy=False`` where a copy is needed, or a ``dl_device`` other than the CPU.
        TypeError
            A backend without a DLPack export.

        Examples
        --------
        >>> import numpy as np
        >>> import arraymux as xp
        >>> x = xp.asarray([1.0, 2.0], device="numpy")
        >>> np.from_dlpack(x)
        array([1., 2.])
        """
        # Pass on only what was given: not every backend takes every keyword.
        kwargs: dict[str, Any] = {}
        if stream is not None:
            kwargs["stream"] = stream
        if max_version is not None:
            kwargs["max_version"] = max_version
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        if copy is not None:
            kwargs["copy"] = copy
        native = self.native
        if not hasattr(native, "__dlpack__"):
            if not self._device._backend.spec.lazy:
                raise TypeError(
                    f"arraymux.Array.__dlpack__: {self._device.backend} arrays have no DLPack "
                    "export; move the array first, e.g. x = arraymux.to_device(x, 'numpy')."
                )
            # A lazy array (Dask) is computed, as for __array__, into new host memory.
            if copy is False:
                raise BufferError(
                    f"arraymux.Array.__dlpack__: a {self._device.backend} array has no memory "
                    "to share until it is computed, which makes a new buffer; copy=False "
                    "cannot be met."
                )
            kwargs.pop("copy", None)
            native = _transfer.host_array_for_numpy(self, None, None)
        if dl_device is not None:
            here = self.__dlpack_device__()
            if (int(dl_device[0]), int(dl_device[1])) != (int(here[0]), int(here[1])):
                native = self._export_to(dl_device, copy)
                kwargs.pop("dl_device")
                kwargs.pop("copy", None)
        try:
            return _capsule(native, kwargs)
        except BufferError:
            if not copy or "copy" not in kwargs:
                raise
            # A backend that makes copies for the CPU only (CuPy): the copy made here.
            del kwargs["copy"]
            return _capsule(self._device._fns["asarray"](native, copy=True), kwargs)

    def _export_to(self, dl_device: tuple[int, int], copy: bool | None) -> np.ndarray:
        """A host copy of this array to export to ``dl_device`` (the CPU: the standard's
        only required target), for ``__dlpack__(dl_device=...)`` from another device."""
        if int(dl_device[0]) != 1:  # kDLCPU
            raise BufferError(
                f"arraymux.Array.__dlpack__: cannot export an array on {self._device} to "
                f"DLPack device {tuple(dl_device)}; only the CPU (1, 0) is supported. Move it "
                "first with arraymux.to_device."
            )
        if copy is False:
            raise BufferError(
                f"arraymux.Array.__dlpack__: the array is on {self._device}; exporting it to "
                "the CPU needs a copy, and copy=False forbids one."
            )
        host = self._device._backend.adapter.to_numpy(self._native)
        # A read-only host array (JAX's) cannot go out through a legacy capsule.
        return host if host.flags.writeable else host.copy()

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(device type, device id)`` of the array's memory in DLPack's enumeration (CPU is
        ``(1, 0)``, CUDA ``(2, id)``); a Dask array reports the CPU, where ``__dlpack__``
        computes it.

        Examples
        --------
        >>> import arraymux as xp
        >>> xp.asarray([1.0]).__dlpack_device__()
        (1, 0)
        """
        native = self.native
        if not hasattr(native, "__dlpack_device__"):
            if self._device._backend.spec.lazy:
                return (1, 0)  # kDLCPU: __dlpack__ computes it into host memory
            raise TypeError(
                f"arraymux.Array.__dlpack_device__: {self._device.backend} arrays have no DLPack "
                "export; move the array first, e.g. x = arraymux.to_device(x, 'numpy')."
            )
        return native.__dlpack_device__()

    def __array__(self, dtype: object = None, copy: bool | None = None) -> np.ndarray:
        """``numpy.asarray(x)``: the values in host memory (shared where the array already
        is there, a copy from a GPU or of a lazy array)."""
        return _transfer.host_array_for_numpy(self, dtype, copy)

    def __array_ufunc__(
        self, ufunc: object, method: str, *inputs: object, **kwargs: object
    ) -> object:
        """NumPy's ufuncs meeting an Array: an operator of a NumPy array or scalar with an
        Array (``ndarray + x``, ``np.float32(2) * x``) computes as the Array's own operator
        would; any other ufunc (``np.sin(x)``, ``scipy.special.erf(x)``, an ``out=``) is
        refused with a ``TypeError`` that says what to use instead."""
        if method == "__call__" and not kwargs and len(inputs) == 2:
            names = _UFUNC_OPERATORS.get(getattr(ufunc, "__name__", ""))
            if names is not None:
                if inputs[0] is self:
                    result = getattr(Array, names[0])(self, inputs[1])
                else:
                    result = getattr(Array, names[1])(self, inputs[0])
                if result is not NotImplemented:
                    return result
        raise TypeError(_ufunc_refusal(self, ufunc, method, kwargs))

    def to_device(
        self, device: DeviceLike, /, *, stream: object = None, copy: bool | None = None
    ) -> Array:
        """This array on ``device`` (any backend); see :func:`arraymux.to_device`."""
        return _transfer.to_device(self, device, stream=stream, copy=copy)

    def __repr__(self) -> str:
        """The values, dtype and device: ``Array([1., 2.], dtype=float64, device='numpy:cpu')``."""
        return f"Array({_transfer.repr_values(self)}, dtype={self.dtype.name}, device='{self._device}')"

    __str__ = __repr__

    # -- indexing -----------------------------------------------------------------------------

    # ``*_more`` keeps CPython (3.11+) from calling this method straight from ``x[key]`` (its
    # specialisation takes functions of two positional parameters only), so that ``x[key]``
    # goes through the subscript slot, where the compiled hot path runs basic keys (see
    # ``_compiled``); its signature shows one key.
    def __getitem__(self, key: object, /, *_more: object) -> Array:
        """``x[key]``: the standard's indexing on every backend.

        ``key`` is an int, a slice (negative steps too), ``...``, ``None`` (a new axis), a
        tuple of those, a boolean array of the indexed axes' shape, or integer arrays (each
        the index of one axis, broadcast together). Index arrays must be on the array's
        device.

        Examples
        --------
        >>> import arraymux as xp
        >>> x = xp.reshape(xp.arange(6), (2, 3))
        >>> x[1, ::-1]
        Array([5, 4, 3], dtype=int64, device='numpy:cpu')
        >>> x[x > 3]
        Array([4, 5], dtype=int64, device='numpy:cpu')
        >>> x[:, None, 0].shape
        (2, 1)
        """
        if _more:
            raise TypeError(f"arraymux.Array.__getitem__ takes one key, got {1 + len(_more)}")
        d = self._device
        try:
            nkey = _native_key(self, key, "__getitem__")
        except BackendMismatchError:
            # An array read from an enclosing scope of a transformed function, indexed with
            # an array of the transform: a constant of its computation (see constant_bridge).
            bridge = _index_bridge(d, key)
            if bridge is None:
                raise
            return _wrap(bridge.to_engine(self._native), bridge.device)[key]
        try:
            if d._backend.spec.lazy and _has_array(nkey):
                # A lazy backend leaves the length of a result indexed by arrays unknown; its
                # adapter's getitem, if any, computes the index so that the length is known.
                fix = d._backend.hooks.getitem
                r = self._native[nkey] if fix is None else fix(self._native, nkey)
            elif _negative_step(nkey) and not d._backend.spec.lazy and d._backend.hooks.getitem:
                # torch takes no negative step: its adapter flips the axes, without the
                # exception torch would raise first (20 us on the CPU).
                r = d._backend.hooks.getitem(self._native, nkey)
            else:
                try:
                    placed = d._backend.getitem
                    r = self._native[nkey] if placed is None else placed(self._native, nkey)
                except (ValueError, IndexError, NotImplementedError):
                    # A backend may lack part of the standard's indexing (torch: negative
                    # steps, dask: a 0-d boolean mask); its adapter's getitem does it another way.
                    fix = d._backend.hooks.getitem
                    if fix is None:
                        raise
                    r = fix(self._native, nkey)
        except BACKEND_ERRORS as e:
            _refuse_floating_keys(nkey, d, "__getitem__")
            raise_annotated("Array.__getitem__", d, e)
        return _wrap(r, d, self._dtype)

    setattr(  # noqa: B010 (a function's attribute, set in the class body)
        __getitem__,
        "__signature__",
        inspect.signature(__getitem__).replace(
            parameters=list(inspect.signature(__getitem__).parameters.values())[:2]
        ),
    )

    def __setitem__(self, key: object, value: object, /) -> None:
        """``x[key] = value``: write in place (``key`` as for ``x[key]``; ``value`` a Python
        scalar or an array on the same device, broadcast to the selection). On JAX, whose
        arrays are immutable, the Array takes the updated native array.

        Examples
        --------
        >>> import arraymux as xp
        >>> x = xp.zeros(4)
        >>> x[1:3] = 5.0
        >>> x
        Array([0., 5., 5., 0.], dtype=float64, device='numpy:cpu')
        """
        d = self._device
        nkey = _native_key(self, key, "__setitem__")
        nvalue = _set_operand(d, value, "__setitem__", "value")
        kind = type(nvalue)
        if kind is int:
            nvalue = _int_value(self.dtype, cast("int", nvalue))
        elif kind is float or kind is complex:
            mine = self._dtype
            if mine is None:
                mine = self._dtype = self._native.dtype
            dt = d._backend.from_native_dtype.get(mine) or self.dtype
            held = dt._kind
            if held != "complex floating" and (held != "real floating" or kind is complex):
                _refuse_kind(dt, cast("complex", nvalue))
        elif kind is not bool and hasattr(nvalue, "dtype"):
            mine = self._dtype
            if mine is None:
                mine = self._dtype = self._native.dtype
            if nvalue.dtype is not mine:  # (the common case, one dtype, costs one look)
                nvalue = _same_kind_value(self.dtype, cast("NativeArray", nvalue), d)
        elif isinstance(nvalue, float | complex) and not self.dtype._kind.endswith("floating"):
            _refuse_kind(self.dtype, cast("complex", nvalue))  # a subclass of float
        backend = d._backend
        try:
            if backend.spec.mutable:
                native = backend.normalize(self._native)
                self._native = native
                try:
                    if backend.setitem is None:
                        fill = backend.hooks.fill  # a number written by a kernel (torch)
                        if (
                            fill is None
                            or type(nvalue) not in _NUMBERS
                            or not fill(native, nkey, cast("complex", nvalue))
                        ):
                            native[nkey] = nvalue
                    else:
                        backend.setitem(native, nkey, nvalue)
                except (ValueError, RuntimeError, OverflowError):
                    # A value the backend cannot take as it is (torch: a Python int beyond
                    # int64 into a uint64 array); its adapter's setitem converts it.
                    fix = backend.hooks.setitem
                    if fix is None:
                        raise
                    self._native = fix(native, nkey, nvalue)
            else:  # an immutable backend's adapter must have a setitem hook (see complete)
                setitem = backend.hooks.setitem
                if setitem is None:
                    raise TypeError(f"arraymux: {d} holds immutable arrays and cannot set items.")
                self._native = setitem(self._native, nkey, nvalue)
        except BACKEND_ERRORS as e:
            _refuse_floating_keys(nkey, d, "__setitem__")
            raise_annotated("Array.__setitem__", d, e)

    # -- shared state for pickling --------------------------------------------------------------

    def __getstate__(self) -> tuple[object, str]:
        return self.native, str(self._device)

    def __setstate__(self, state: tuple[object, str]) -> None:
        from ._devices import Device

        self._native, self._device, self._dtype = state[0], Device(state[1]), None


#: NumPy's ufuncs behind the operators, with the Array's method for each order of operands
#: (``ndarray - x`` is ``x.__rsub__(ndarray)``; ``ndarray < x`` is ``x > ndarray``).
_UFUNC_OPERATORS: dict[str, tuple[str, str]] = {
    "add": ("__add__", "__radd__"),
    "subtract": ("__sub__", "__rsub__"),
    "multiply": ("__mul__", "__rmul__"),
    "divide": ("__truediv__", "__rtruediv__"),
    "true_divide": ("__truediv__", "__rtruediv__"),
    "floor_divide": ("__floordiv__", "__rfloordiv__"),
    "remainder": ("__mod__", "__rmod__"),
    "power": ("__pow__", "__rpow__"),
    "matmul": ("__matmul__", "__rmatmul__"),
    "bitwise_and": ("__and__", "__rand__"),
    "bitwise_or": ("__or__", "__ror__"),
    "bitwise_xor": ("__xor__", "__rxor__"),
    "left_shift": ("__lshift__", "__rlshift__"),
    "right_shift": ("__rshift__", "__rrshift__"),
    "less": ("__lt__", "__gt__"),
    "less_equal": ("__le__", "__ge__"),
    "greater": ("__gt__", "__lt__"),
    "greater_equal": ("__ge__", "__le__"),
    "equal": ("__eq__", "__eq__"),
    "not_equal": ("__ne__", "__ne__"),
}


def _ufunc_refusal(x: Array, ufunc: object, method: str, kwargs: dict[str, object]) -> str:
    name = getattr(ufunc, "__name__", repr(ufunc))
    call = name if method == "__call__" else f"{name}.{method}"
    what = "with out= " if "out" in kwargs else ""
    library = caller()[0] or ufunc_library(ufunc)
    return (
        f"arraymux.Array.__array_ufunc__: NumPy's ufunc {call!r} was called {what}on an Array "
        f"on {x._device}; Arrays do not take part in NumPy's ufuncs. {advice(library, x._device)}"
    )


class _LargeInt(Exception):
    """An int of an index that only the array's shape can check (see ``_native_key``)."""


#: The Python numbers an adapter's ``fill`` hook may write (exact types).
_NUMBERS = frozenset({bool, int, float, complex})


def _native_key(x: Array, key: object, fname: str) -> object:
    """``key`` as the backend of ``x`` takes it. Python ints that only the shape can check
    are checked against it (``_arguments.check_index``): large ones on every backend, which
    take them as machine integers, and every one on an immutable backend (JAX), whose
    gathers clamp an index out of bounds and whose scatters drop it, without an error."""
    d = x._device
    if d._backend.spec.mutable:
        try:
            return _unwrap_key(key, d, fname, INDEX_CHECKED)
        except _LargeInt:
            pass
    key = check_index(f"Array.{fname}", key, tuple(x._native.shape))
    return _unwrap_key(key, d, fname, math.inf)


def _negative_step(key: object) -> bool:
    """Whether ``key`` (a native key) holds a slice with a negative int step."""
    for k in key if type(key) is tuple else (key,):
        if type(k) is slice and type(k.step) is int and k.step < 0:
            return True
    return False


def _index_bridge(device: Device, key: object) -> Bridge | None:
    """The running transform's engine where ``key`` holds an array of its device and arrays of
    ``device`` are constants there (see :func:`arraymux._devices.constant_bridge`)."""
    for k in key if type(key) is tuple else (key,):
        if type(k) is Array:
            bridge = constant_bridge(device, k._device)
            if bridge is not None:
                return bridge
    return None


def _unwrap_key(key: object, device: Device, fname: str, limit: float) -> object:
    if type(key) is tuple:
        # The common keys (``x[:, None]``, ``x[..., 0]``, ``x[i, j]``) pass unchanged: checked
        # here without a call per item.
        ellipsis = False
        for k in key:
            if k is None:
                continue
            if k is Ellipsis:
                if ellipsis:  # (torch took a second one)
                    raise _two_ellipses(fname)
                ellipsis = True
                continue
            t = type(k)
            if t is int:
                if -limit <= k < limit:
                    continue
                raise _LargeInt
            if t is slice:
                a, b, c = k.start, k.stop, k.step
                if (
                    (a is None or (type(a) is int and -limit <= a < limit))
                    and (b is None or (type(b) is int and -limit <= b < limit))
                    and (c is None or (type(c) is int and -limit <= c < limit))
                ):
                    continue
            if sum(1 for k in key if k is Ellipsis) > 1:
                raise _two_ellipses(fname)
            return tuple([_unwrap_key_item(k, device, fname, limit) for k in key])
        return key
    return _unwrap_key_item(key, device, fname, limit)


def _two_ellipses(fname: str) -> IndexError:
    return IndexError(f"arraymux.Array.{fname}: an index can hold one ellipsis ('...') at most.")


def _capsule(native: Any, kwargs: dict[str, Any]) -> object:
    """``native.__dlpack__(**kwargs)``; a consumer that asks for a version below 1.0 takes a
    legacy (unversioned) capsule, which every backend can make (JAX refuses max_version
    below (0, 5))."""
    try:
        return native.__dlpack__(**kwargs)
    except BufferError:
        max_version = kwargs.get("max_version")
        if max_version is None or tuple(max_version) >= (1, 0):
            raise
        return native.__dlpack__(**{k: v for k, v in kwargs.items() if k != "max_version"})


def _has_array(key: object) -> bool:
    """Whether a native index (of a lazy backend, whose dtypes are NumPy's) holds an array."""
    return any(
        hasattr(k, "ndim") and getattr(getattr(k, "dtype", None), "kind", None) in ("b", "i", "u")
        for k in (key if type(key) is tuple else (key,))
    )


def _unwrap_key_item(k: Any, device: Device, fname: str, limit: float) -> Any:
    t = type(k)
    if t is int:
        if -limit <= k < limit:
            return k
        raise _LargeInt
    if t is slice:
        start, stop, step = k.start, k.stop, k.step
        if not (
            (start is None or type(start) is int)
            and (stop is None or type(stop) is int)
            and (step is None or type(step) is int)
        ):
            # Other integers (0-d integer Arrays, NumPy's) as bounds: their Python ints (Dask
            # takes no 0-d arrays, and truncated floats where the others refuse them).
            k = slice(*(_slice_bound(v, fname) for v in (start, stop, step)))
            start, stop, step = k.start, k.stop, k.step
        # torch and JAX compute a slice's length with machine integers (x[:: 2**63 - 1] was
        # empty), and torch truncates bounds beyond int64 with a warning.
        if (
            (type(start) is int and not -limit <= start < limit)
            or (type(stop) is int and not -limit <= stop < limit)
            or (type(step) is int and not -limit <= step < limit)
        ):
            raise _LargeInt
        return k
    if t is bool:
        # NumPy, torch and JAX read a Python bool as a 0-d boolean mask (``x[True]`` adds an
        # axis of length 1, ``x[False]`` of length 0); Dask took it as the int 1 or 0, and
        # array-api-strict refuses it: a 0-d boolean array of the device on every backend.
        k = _ops.asarray(k, device=device)
        t = Array
    elif k is None or k is Ellipsis or isinstance(k, int):
        return k
    if t is not Array and isinstance(k, (float, complex)):  # Dask took the int below it
        raise IndexError(
            f"arraymux.Array.{fname}: an index must be an int, a slice, ..., None or an "
            f"integer or bool array, not the {t.__name__} {k!r}."
        )
    native = _set_operand(device, k, fname, "index")
    if device._backend.spec.lazy:
        # Dask truncates floating indices (and writes through them): checked first. The
        # other backends refuse them, and their errors are explained (_refuse_floating_keys).
        _refuse_floating_keys(native, device, fname)
    fix = device._backend.hooks.index_array
    return native if fix is None else fix(native)


def _refuse_floating_keys(nkey: object, device: Device, fname: str) -> None:
    """Raise the ``IndexError`` of a floating index array in the native key ``nkey``, the
    same on every backend (NumPy, torch and array-api-strict raise ``IndexError``, JAX
    ``TypeError``)."""
    floats = device._backend.floating_natives
    for k in nkey if type(nkey) is tuple else (nkey,):
        dtype = getattr(k, "dtype", None)
        if dtype in floats:
            raise IndexError(
                f"arraymux.Array.{fname}: an index array must have an integer or bool dtype, "
                f"not {device._backend.dtype_from_native(dtype).name}; cast it first, e.g. "
                "i = arraymux.astype(i, arraymux.int64)."
            ) from None


def _slice_bound(v: object, fname: str) -> int | None:
    """A slice bound as a Python int: an integer of any kind (0-d integer Arrays, NumPy's)."""
    if v is None:
        return None
    try:
        return operator.index(cast("SupportsIndex", v))
    except TypeError:
        if type(v) is Array and v.dtype._kind in _dtypes.INTEGER_KINDS:
            raise  # a traced integer: the engine's error names the user's parameter
        what = (
            f"an array of dtype {v.dtype.name}"
            if type(v) is Array
            else f"the {type(v).__name__} {v!r}"
        )
        raise TypeError(
            f"arraymux.Array.{fname}: slice bounds must be ints or None, not {what}."
        ) from None


def _int_value(dt: DType, value: int) -> int | float:
    """A Python int stored into an array of ``dt``: one stored into an integer array must fit
    its dtype (torch would wrap it); one beyond int64 stored into a floating-point array is its
    nearest float, as NumPy stores it (torch and array-api-strict refused it)."""
    if dt.kind in ("signed integer", "unsigned integer"):
        lo, hi = _dtypes.int_range(dt)
        if not lo <= value <= hi:
            raise OverflowError(
                f"arraymux.Array.__setitem__: the Python int {value} does not fit in {dt} "
                f"(range {lo} to {hi})."
            )
    elif dt.kind in ("real floating", "complex floating"):
        return _dtypes.int_for_floats("Array.__setitem__", value)
    return value


def _refuse_kind(dt: DType, value: complex) -> NoReturn:
    """Refuse a Python float stored into an integer or bool array, or a complex into a real
    one: the standard leaves such writes open, array-api-strict refuses them, and NumPy,
    torch and JAX drop the fraction (or the imaginary part) without a word."""
    raise TypeError(
        f"arraymux.Array.__setitem__: cannot store the Python {type(value).__name__} {value!r} "
        f"in an array of {dt} without losing part of it. Convert it first (int(value), "
        "value.real), or cast the array (arraymux.astype)."
    )


def _same_kind_value(dt: DType, value: NativeArray, d: Device) -> NativeArray:
    """An array written into an array of ``dt``, cast to ``dt``; one of a greater kind
    (floats into integers, ints into bools, complex into real) is refused: NumPy's
    ``same_kind`` rule, which JAX announces it will enforce. NumPy, torch and Dask cast
    without a word; array-api-strict refused every other dtype."""
    try:
        have = d._backend.dtype_from_native(value.dtype)
    except TypeError:
        return value  # a dtype of no standard: the backend's own answer
    if have is dt:
        return value
    if _dtypes.kind_rank(have.kind) > _dtypes.kind_rank(dt.kind):
        raise TypeError(
            f"arraymux.Array.__setitem__: cannot store an array of {have} in an array of "
            f"{dt} without losing part of its values. Cast the value first "
            f"(arraymux.astype(value, {dt}))."
        )
    return d._fns["astype"](value, d._backend.to_native_dtype[dt])


def _conversion_error(x: Array, kind: str, e: Exception) -> Exception:
    """The error of ``kind(x)`` (``float(x)``...) that the backend refused, naming arraymux."""
    if not isinstance(e, BACKEND_ERRORS):
        return e
    if x.ndim == 0:
        traced = x._device._backend.hooks.traced
        if isinstance(e, RuntimeError) and traced is not None and not traced(x._native):
            # a value that is known but could not be read (torch's synchronisation guard,
            # ``torch.cuda.set_sync_debug_mode("error")``, refused it): the backend's error
            e.add_note(f"(arraymux.Array.__{kind}__ read this 0-d array from {x._device})")
            return e
        what = (
            f"arraymux.Array.__{kind}__: the value of this 0-d array on {x._device} is not "
            f"known here (a transform traces it, or the backend is lazy), so it has no Python "
            f"{kind}"
        )
    else:
        what = (
            f"arraymux.Array.__{kind}__: cannot convert an array of shape {x.shape} on "
            f"{x._device} to a Python {kind}; the standard converts 0-d arrays only"
        )
    if isinstance(e, TypeError | ValueError):  # keep its type (JAX's tracer errors...)
        e.add_note(what)
        return e
    return TypeError(f"{what} ({type(e).__name__}: {e}).")


# What the layers above this module give ``Array`` once they exist (see :func:`connect`).
def _not_imported(*args: object, **kwargs: object) -> NoReturn:
    raise RuntimeError("arraymux is not fully imported: import arraymux first")


_ops: ModuleType = ModuleType("arraymux (not fully imported)")
_namespace_of: Callable[..., ModuleType] = _not_imported
_transfer: ModuleType = ModuleType("arraymux (not fully imported)")


_set_operand: Callable[[Device, object, str, str], object] = _not_imported


def connect(
    *,
    ops: ModuleType,
    namespace_of: Callable[..., ModuleType],
    transfer: ModuleType,
    set_operand: Callable[[Device, object, str, str], object],
) -> None:
    """Give ``Array`` what the layers above this module provide, once they exist (this module
    is below them; ``arraymux._operators.install`` calls this once): the namespace's functions
    (``x.T`` calls ``permute_dims``), ``namespace(version, device=)`` for
    ``__array_namespace__``, the moves module (``to_device``, ``repr``, ``__array__``), and the
    check that unwraps an index or the value of ``x[key] = value`` on the array's device."""
    global _ops, _namespace_of, _transfer, _set_operand
    _ops, _namespace_of, _transfer = ops, namespace_of, transfer
    _set_operand = set_operand


def _wrap(native: NativeArray, device: Device, dtype: object = None) -> Array:
    out = object.__new__(Array)
    out._native = native
    out._device = device
    out._dtype = dtype
    return out


def _register_with_jax(backend: Backend) -> None:
    backend.adapter.register_pytree(Array)


# An Array is a JAX pytree node (jax.jit, jax.vmap... take and return Arrays).
on_load("jax", _register_with_jax)


# ---------------------------------------------------------------------------------------------
# Native arrays in and out


def wrap(native: NativeArray, device: Device, dtype: object = None) -> Array:
    """Wrap a native array of ``device`` without copying; ``dtype``, when given, must be
    ``native.dtype`` (the hot paths cache it, see :mod:`arraymux._result_dtypes`)."""
    # Written out each time, not through an alias: torch.compile before 2.13 traces
    # ``object.__new__(cls)`` only in this form.
    out = object.__new__(Array)
    out._native = native
    out._device = device
    out._dtype = dtype
    return out


def operand(x: Any) -> tuple[Any, Device] | None:
    """``(native, device)`` for an Array or a native array of a registered backend, else None."""
    t = type(x)
    if t is Array:
        return x._native, x._device
    if t is float or t is int or t is bool or t is complex:
        return None
    backend = backend_of_type(t)
    if backend is None:
        return None
    return x, device_of_native(backend, x)
