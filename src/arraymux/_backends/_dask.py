"""Dask adapter (the contract every adapter follows is ``_adapter.Adapter``).

Dask arrays are lazy: arraymux builds the graph and computes only when a value is read
(``to_numpy``, ``bool()``, ``float()``, ``repr``). The device string is plain ``"dask"``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Literal, cast

import array_api_compat.dask.array as _xp

from . import _special_cases
from ._common import array_dtype as array_dtype
from ._common import (
    dtype_from_numpy,
    every_dtype,
    raise_unknown_place,
    sized_broadcast_to,
    sized_reshape,
)

if TYPE_CHECKING:
    import dask.array as da
    import numpy as np
    import numpy.typing as npt


# What arrays report are NumPy dtypes, and every dtype lives everywhere.
dtype_from_native = dtype_from_numpy
supports_dtype = every_dtype


def namespace() -> ModuleType:
    return _xp


def places() -> list[str]:
    return [""]


def parse_place(place: str | None) -> str:
    if place in (None, "", "cpu"):
        return ""
    raise_unknown_place("dask", place, ["cpu"])
    raise AssertionError


def native_device(place: str) -> str:
    return "cpu"


def place_of_device(native: object) -> str:
    return ""


def place_of(x: da.Array) -> str:
    return ""


def getitem(x: da.Array, key: object) -> da.Array:
    """``x[key]`` for a key with arrays, whose results have a known shape.

    Dask leaves the length of ``x[mask]`` unknown (``nan``) and then refuses to index the
    result, mislabels the length of ``x[i]`` for some 1-D integer dask arrays ``i`` (a
    1-element index of a 1-chunk array claims the array's length), and takes only one
    integer array per key. arraymux computes the index arrays (not ``x``) first, so the
    result's shape is known and the rest of the work stays lazy; several integer arrays
    (and a mask of more than one dimension, through its ``nonzero``) are gathered with
    ``vindex`` and their axes placed where NumPy places them. A 0-d mask, which dask
    refuses, gives ``x`` with a new first axis of length 1 (true) or 0 (false), and a mask
    with a zero-length axis selects nothing, as the standard says.
    """
    import dask.array as da
    import numpy as np

    parts: list[object] = [
        _computed(p) if isinstance(p, da.Array) else p
        for p in (key if isinstance(key, tuple) else (key,))
    ]
    if len(parts) == 1 and isinstance(parts[0], np.ndarray) and parts[0].dtype == bool:
        mask = parts[0]
        if mask.ndim == 0:
            return da.expand_dims(x, 0)[: int(bool(mask))]
        empty = _special_cases.empty_selection(x.shape, mask.shape)
        if empty is not None:  # a zero-length mask axis selects nothing (dask refuses)
            return da.zeros(empty, dtype=x.dtype, chunks=-1)
        if mask.ndim == 1:
            return x[mask]
        parts = list(np.nonzero(mask))
    arrays = [p.ndim for p in parts if isinstance(p, np.ndarray) and p.ndim > 0]
    if len(arrays) <= 1 and max(arrays, default=1) == 1:  # dask's own: one 1-D array
        return x[tuple(parts)]
    return _gather(x, parts)


def _computed(index: da.Array) -> int | np.ndarray:
    """A dask index array computed: a 0-d integer one as a Python int, which dask takes."""
    out = index.compute()
    return int(out) if out.ndim == 0 and out.dtype.kind in "iu" else out


def _gather(x: da.Array, parts: list[object]) -> da.Array:
    """``x[tuple(parts)]`` for several integer arrays, or one of more than one dimension
    (and ints, slices, None, Ellipsis),
    with NumPy's placement of the broadcast axes."""
    import dask.array as da
    import numpy as np

    consumed = sum(p is not None and p is not Ellipsis for p in parts)
    if any(p is Ellipsis for p in parts):
        i = next(j for j, p in enumerate(parts) if p is Ellipsis)
        parts[i : i + 1] = [slice(None)] * (x.ndim - consumed)
    else:
        parts += [slice(None)] * (x.ndim - consumed)
    if any(p is None for p in parts):  # new axes first, then sliced whole like the others
        x = x[tuple(None if p is None else slice(None) for p in parts)]
        parts = [slice(None) if p is None else p for p in parts]
    advanced = [i for i, p in enumerate(parts) if not isinstance(p, slice)]
    out = x.vindex[tuple(parts)]
    # vindex puts the broadcast axes first; NumPy keeps them in place when the integer
    # indices are next to each other.
    if advanced[-1] - advanced[0] == len(advanced) - 1 and advanced[0] > 0:
        # the parts that are not slices are ints and index arrays
        shapes = (np.shape(cast("npt.ArrayLike", parts[i])) for i in advanced)
        n = len(np.broadcast_shapes(*shapes))
        out = da.moveaxis(out, list(range(n)), list(range(advanced[0], advanced[0] + n)))
    return out


def _reshape(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``reshape`` that refuses ``copy=False`` plainly: a reshaped Dask array is a new graph,
    which a write to either array does not reach (array-api-compat tried to set its shape,
    and failed with ``AttributeError: Can't set attribute``)."""

    def reshape(x: da.Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> da.Array:
        if copy is False:
            raise ValueError(
                "a reshaped Dask array shares no memory with the array (writes to one do not "
                "reach the other), so copy=False cannot be honoured; pass copy=None"
            )
        return base(x, shape, copy=copy)

    return reshape


def overrides(ns: ModuleType) -> dict[str, Callable[..., object]]:
    table: dict[str, Callable[..., object]] = {
        "take_along_axis": _take_along_axis,
        "take": _take(ns.take),
        "matmul": _matmul(ns.matmul),
        "linalg.matmul": _matmul(ns.linalg.matmul),
        "linalg.eigh": _eigh,
        "linalg.cross": _cross,
        "searchsorted": _searchsorted,
        "diff": _diff(ns.diff),
        "sort": _special_cases.stable_descending(ns, ns.sort),
        "squeeze": _special_cases.squeeze_of_axis(ns.squeeze),
        "flip": _flip(ns.flip),
        "eye": _eye,
        "broadcast_shapes": _broadcast_shapes,
        "repeat": _special_cases.nonnegative_count(_repeat(ns.repeat)),
        "linspace": _linspace(ns.linspace),
        # a shape too large fails only when computed
        "reshape": sized_reshape(_reshape(ns.reshape)),
        "broadcast_to": sized_broadcast_to(ns.broadcast_to),  # (so does a negative size)
        "tensordot": _same_dtype(ns.tensordot),
        "linalg.tensordot": _same_dtype(ns.linalg.tensordot),
        **_STACKED,
        # NumPy's special cases, fixed the same way for the chunks.
        "floor_divide": _special_cases.floor_divide(ns, ns.floor_divide),
        "expm1": _special_cases.expm1(ns, ns.expm1, _make_complex),
        "tanh": _special_cases.tanh(ns, ns.tanh, _make_complex),
        "pow": _special_cases.half_powers(ns, ns.pow, lambda r: r.dtype.kind == "f"),
        "std": _special_cases.corrected(ns.std),
        "var": _special_cases.corrected(ns.var),
    }
    import array_api_compat.numpy as cnp
    import numpy

    for name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        table[name] = _with_known_lengths(getattr(ns, name), getattr(cnp, name))
    table["nonzero"] = _with_known_lengths(ns.nonzero)
    for name, base, numpys in (
        ("max", ns.max, numpy.max),
        ("min", ns.min, numpy.min),
        ("roll", ns.roll, numpy.roll),
        ("linalg.vector_norm", ns.linalg.vector_norm, cnp.linalg.vector_norm),
    ):
        table[name] = _empty_through_numpy(base, numpys)
    for name in ("zeros", "ones", "empty", "full"):
        table[name] = _empty_in_one_chunk(getattr(ns, name))
    table["asarray"] = _asarray(ns.asarray)
    return table


def _empty_through_numpy(
    base: Callable[..., object], numpys: Callable[..., object]
) -> Callable[..., object]:
    """``base`` for an array with elements; for an empty array of known shape, NumPy's
    function of an empty array of that shape (nothing to compute), as a Dask array: its
    result's shape and its errors are NumPy's. Dask's ``max`` and ``min`` over an empty axis
    reported the shape of a reduction and computed an empty array (``max`` of a (0, 5) array
    over axis 0: shape (5,), data of shape (0,)), failed when computed over a full axis of an
    empty array (NumPy gives an empty result), and so did ``linalg.vector_norm`` with
    ``ord=inf`` and ``roll``."""

    @functools.wraps(base)
    def fn(x: da.Array, /, *args: object, **kwargs: object) -> object:
        shape = x.shape
        if 0 in shape and all(s == s for s in shape):  # (nan: a length not known yet)
            import dask.array
            import numpy as np

            r = numpys(np.empty(shape, dtype=x.dtype), *args, **kwargs)
            return dask.array.from_array(np.asarray(r), chunks=-1)
        return base(x, *args, **kwargs)

    return fn


def _diff(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``diff`` that takes boolean arrays as NumPy, PyTorch, JAX and CuPy do (each difference
    is ``!=`` of neighbours); dask's subtracts them, which NumPy refuses for booleans."""

    @functools.wraps(base)
    def diff(
        x: da.Array,
        /,
        *,
        axis: int = -1,
        n: int = 1,
        prepend: da.Array | None = None,
        append: da.Array | None = None,
    ) -> da.Array:
        import dask.array as da

        extras = [e for e in (prepend, append) if e is not None]
        kinds = {getattr(e, "dtype", None) and e.dtype.kind for e in (x, *extras)}
        if kinds != {"b"}:
            return base(x, axis=axis, n=n, prepend=prepend, append=append)
        axis = axis % x.ndim if x.ndim else axis
        parts = []
        for part in (prepend, x, append):
            if part is None:
                continue
            if part.ndim == 0:  # a 0-d array repeats along the axis, as NumPy's does
                shape = list(x.shape)
                shape[axis] = 1
                part = da.broadcast_to(part, tuple(shape))
            parts.append(part)
        y = da.concatenate(parts, axis=axis) if len(parts) > 1 else x
        for _ in range(n):
            head = tuple(slice(1, None) if i == axis else slice(None) for i in range(y.ndim))
            tail = tuple(slice(None, -1) if i == axis else slice(None) for i in range(y.ndim))
            y = y[head] != y[tail]
        return y

    return diff


def _empty_in_one_chunk(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """A creation function that makes an empty array of any shape: dask's automatic
    chunking divides by zero for some (``zeros((0, 0, 0, 0, 0, 18))``); an empty array needs
    one chunk. The common path pays nothing."""

    @functools.wraps(base)
    def create(shape: object, *args: object, **kwargs: object) -> da.Array:
        try:
            return base(shape, *args, **kwargs)
        except ZeroDivisionError:
            return base(shape, *args, **kwargs, chunks=-1)

    return create


def _asarray(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``asarray`` that takes empty data of any shape (see ``_empty_in_one_chunk``)."""

    @functools.wraps(base)
    def asarray(
        obj: npt.ArrayLike, /, *, dtype: npt.DTypeLike | None = None, **kwargs: object
    ) -> da.Array:
        try:
            return base(obj, dtype=dtype, **kwargs)
        except ZeroDivisionError:
            import numpy as np

            return from_host(np.array(obj, dtype=dtype), "")

    return asarray


def _make_complex(re: da.Array, im: da.Array) -> da.Array:
    """A complex dask array from its parts, keeping signed zeros, infinities and NaNs."""
    import dask.array as da
    import numpy as np

    from ._common import make_complex as parts_to_complex

    return da.map_blocks(parts_to_complex, re, im, dtype=np.result_type(re.dtype, np.complex64))


def _with_known_lengths(
    unique: Callable[..., da.Array | tuple[da.Array, ...]],
    with_nans: Callable[..., np.ndarray | tuple[np.ndarray, ...]] | None = None,
) -> Callable[..., da.Array | tuple[da.Array, ...]]:
    """``unique`` (or ``nonzero``), whose results have a known length.

    Dask leaves the length of such a result unknown (``nan``, which arraymux shows as the
    standard's ``None``) until computed. Clients read it at once (scikit-learn's
    ``type_of_target`` asks ``unique_values(y).shape[0] > 2``; with ``nan`` it takes three
    classes for two), so arraymux computes the result once here, keeps it in memory
    (``dask.persist``) and gives its chunks their sizes; later work on it stays lazy.

    Dask's unique functions take the NaNs of an array as one value, count it 0 times, give
    its inverse index as 0 (the first value's) and fail in ``unique_all``; the standard
    takes each NaN as a value of its own. A floating array with a NaN is computed and given
    to ``with_nans`` (NumPy's, through array-api-compat), whose results come back as Dask
    arrays of one chunk: the check costs a pass over the data of floating arrays.
    """
    import dask
    import dask.array

    def whole(a: np.ndarray) -> da.Array:
        return dask.array.from_array(a, chunks=-1)

    @functools.wraps(unique)
    def known(x: da.Array, /) -> da.Array | tuple[da.Array, ...]:
        if with_nans is not None and x.dtype.kind in "fc" and bool(dask.array.isnan(x).any()):
            got = with_nans(x.compute())
            if isinstance(got, tuple):
                return cast("tuple[da.Array, ...]", type(got)(*map(whole, got)))
            return whole(got)
        out = unique(x)
        parts = out if isinstance(out, tuple) else (out,)
        parts = tuple(p.compute_chunk_sizes() for p in dask.persist(*parts))
        if not isinstance(out, tuple):
            return parts[0]
        return parts if type(out) is tuple else type(out)(*parts)

    return known


def _matmul(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``matmul`` that refuses mismatched inner dimensions, as the standard says: dask
    multiplies ``(2, 0) @ (1, 3)`` or ``(0,) @ (1,)`` without a word (a length 0 or 1
    broadcasts in its blockwise product)."""

    @functools.wraps(base)
    def matmul(x1: da.Array, x2: da.Array, /) -> da.Array:
        if x1.ndim and x2.ndim:
            k1, k2 = x1.shape[-1], x2.shape[-2 if x2.ndim > 1 else 0]
            if k1 != k2:
                raise ValueError(
                    f"matmul: the inner dimensions differ: {k1} (last axis of x1) and {k2} "
                    f"({'second-to-last' if x2.ndim > 1 else 'only'} axis of x2)"
                )
        return base(x1, x2)

    return matmul


def _take(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``take`` with the indices computed first: dask mislabels the length of a result
    taken with some integer dask arrays (one index from a one-chunk array claims the whole
    length) and leaves others unknown; a NumPy index gives the right, known shape."""
    import dask.array as da

    @functools.wraps(base)
    def take(x: da.Array, indices: da.Array, /, *, axis: int | None = None) -> da.Array:
        if isinstance(indices, da.Array):
            indices = indices.compute()
        return base(x, indices) if axis is None else base(x, indices, axis=axis)

    return take


def _take_along_axis(x: da.Array, indices: da.Array, /, *, axis: int = -1) -> da.Array:
    """``take_along_axis``, which dask lacks: NumPy's on blocks that hold the whole of
    ``axis`` (the other axes keep their chunks)."""
    import dask.array as da
    import numpy as np

    if x.ndim != indices.ndim:
        raise ValueError(
            f"x has {x.ndim} dimensions but indices has {indices.ndim}; they must match."
        )
    axis = axis % x.ndim if -x.ndim <= axis < x.ndim else axis
    if not 0 <= axis < x.ndim:
        raise IndexError(f"axis {axis} is out of range for an array of {x.ndim} dimensions.")
    others = np.broadcast_shapes(
        *(tuple(1 if i == axis else n for i, n in enumerate(a.shape)) for a in (x, indices))
    )
    x = da.broadcast_to(x, tuple(x.shape[i] if i == axis else n for i, n in enumerate(others)))
    indices = da.broadcast_to(
        indices, tuple(indices.shape[i] if i == axis else n for i, n in enumerate(others))
    )
    x, indices = x.rechunk({axis: -1}), indices.rechunk({axis: -1})
    out_ind = tuple(range(x.ndim))
    x_ind = tuple(-1 if i == axis else i for i in out_ind)
    return da.blockwise(
        functools.partial(np.take_along_axis, axis=axis),
        out_ind,
        x,
        x_ind,
        indices,
        out_ind,
        dtype=x.dtype,
        concatenate=True,
    )


def _eigh(x: da.Array, /) -> tuple[da.Array, da.Array]:
    """``linalg.eigh``, which dask lacks: NumPy's on each matrix of the stack (each whole in
    one chunk), lazily."""
    import dask.array as da
    import numpy as np

    real = np.finfo(x.dtype).dtype
    return tuple(
        da.apply_gufunc(
            np.linalg.eigh,
            "(m,m)->(m),(m,m)",
            x,
            output_dtypes=(real, x.dtype),
            allow_rechunk=True,
        )
    )


def _stacked(
    name: str,
    signature: str,
    out_dtypes: Callable[[np.dtype], tuple[np.dtype, ...]] | None = None,
    np_fn: Callable[..., np.ndarray | tuple[np.ndarray, ...]] | None = None,
) -> Callable[..., da.Array | tuple[da.Array, ...]]:
    """``linalg.<name>``, which dask lacks or takes for 2-D arrays only: NumPy's on each matrix
    of the stack (each whole in one chunk), lazily. ``out_dtypes(input dtype)``: the result's
    dtypes where the standard fixes them (NumPy's ``eigvals`` gives real results where the
    eigenvalues happen to be real; the standard wants complex); by default the input's. A core
    dimension ``k`` of the result is ``min(m, n)``."""
    import numpy as np

    fn_np = np_fn or getattr(np.linalg, name)
    nout = signature.split("->")[1].count("),(") + 1

    def fn(x: da.Array, /, **kwargs: object) -> da.Array | tuple[da.Array, ...]:
        import dask.array as da

        dts = out_dtypes(np.dtype(x.dtype)) if out_dtypes else (np.dtype(x.dtype),) * nout

        def on_block(a: np.ndarray) -> np.ndarray | tuple[np.ndarray, ...]:
            out = fn_np(a, **kwargs)
            if nout == 1:
                return np.asarray(out, dtype=dts[0])
            return tuple(np.asarray(o, dtype=dt) for o, dt in zip(out, dts))

        if 0 in x.shape:  # dask's rechunking divides by the size; nothing to compute
            empty = on_block(np.zeros(x.shape, dtype=x.dtype))
            if isinstance(empty, tuple):  # nout > 1
                return tuple(map(_one_chunk, empty))
            return _one_chunk(empty)
        with warnings.catch_warnings():
            # dask casts an empty complex meta array to a real output dtype (slogdet)
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            out = da.apply_gufunc(
                on_block,
                signature,
                x,
                output_dtypes=dts[0] if nout == 1 else dts,
                output_sizes={"k": min(x.shape[-2:])},
                allow_rechunk=True,
            )
        return tuple(out) if nout > 1 else out

    fn.__name__ = name
    return fn


def _one_chunk(a: np.ndarray) -> da.Array:
    """A small NumPy result (an empty one) as a dask array of one chunk."""
    import dask.array as da

    return da.from_array(a, chunks=-1)


def _real(dt: np.dtype) -> tuple[np.dtype, ...]:
    import numpy as np

    return (np.finfo(dt).dtype,)


def _complex(dt: np.dtype) -> tuple[np.dtype, ...]:
    import numpy as np

    c = np.result_type(dt, np.complex64)
    return (c, c)


def _np_int64() -> np.dtype:
    import numpy as np

    return np.dtype(np.int64)


def _svdvals(a: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.linalg.svd(a, compute_uv=False)


_STACKED = {
    "linalg.inv": _stacked("inv", "(m,m)->(m,m)"),
    "linalg.cholesky": _stacked("cholesky", "(m,m)->(m,m)"),
    "linalg.det": _stacked("det", "(m,m)->()"),
    "linalg.eigvalsh": _stacked("eigvalsh", "(m,m)->(m)", _real),
    "linalg.eigvals": _stacked("eigvals", "(m,m)->(m)", _complex),
    "linalg.eig": _stacked("eig", "(m,m)->(m),(m,m)", _complex),
    "linalg.svdvals": _stacked("svdvals", "(m,n)->(k)", _real, _svdvals),
    "linalg.slogdet": _stacked("slogdet", "(m,m)->(),()", lambda dt: (dt, *_real(dt))),
}


def _with_rtol(
    name: str,
    signature: str,
    out_dtypes: Callable[[np.dtype], tuple[np.dtype, ...]] | None = None,
) -> Callable[..., da.Array | tuple[da.Array, ...]]:
    """``linalg.<name>(x, /, *, rtol=None)`` per matrix of the stack; an array ``rtol``
    broadcasts against the stack's shape (one tolerance per matrix)."""
    import numpy as np

    stacked = _stacked(name, signature, out_dtypes)
    np_fn = getattr(np.linalg, name)
    core_in, core_out = signature.split("->")

    def fn(
        x: da.Array, /, *, rtol: float | da.Array | None = None
    ) -> da.Array | tuple[da.Array, ...]:
        import dask.array as da

        if rtol is None or isinstance(rtol, int | float):
            return stacked(x, rtol=rtol)
        stack = x.shape[:-2]
        r = da.broadcast_to(da.asarray(rtol), da.core.broadcast_shapes(stack, rtol.shape))
        x = da.broadcast_to(x, (*r.shape, *x.shape[-2:]))
        dt = (out_dtypes(np.dtype(x.dtype)) if out_dtypes else (np.dtype(x.dtype),))[0]
        if 0 in x.shape:
            return _one_chunk(
                np.asarray(np_fn(np.zeros(x.shape, x.dtype), rtol=np.zeros(r.shape)), dtype=dt)
            )
        return da.apply_gufunc(
            lambda a, t: np.asarray(np_fn(a, rtol=t), dtype=dt),
            f"{core_in},()->{core_out}",
            x,
            r,
            output_dtypes=dt,
            allow_rechunk=True,
        )

    fn.__name__ = name
    return fn


_STACKED["linalg.matrix_rank"] = _with_rtol("matrix_rank", "(m,n)->()", lambda dt: (_np_int64(),))
_STACKED["linalg.pinv"] = _with_rtol("pinv", "(m,n)->(n,m)")
_power = _stacked("matrix_power", "(m,m)->(m,m)")


def _matrix_power(x: da.Array, n: int, /) -> da.Array | tuple[da.Array, ...]:
    """``linalg.matrix_power`` (which dask lacks) per matrix of the stack."""
    return _power(x, n=n)


_STACKED["linalg.matrix_power"] = _matrix_power

_qr_complete = _stacked("qr", "(m,n)->(m,m),(m,n)")
_qr_reduced = _stacked("qr", "(m,n)->(m,k),(k,n)")


def _qr(x: da.Array, /, *, mode: str = "reduced") -> da.Array | tuple[da.Array, ...]:
    """``linalg.qr`` per matrix of the stack; dask's takes tall-and-skinny 2-D arrays in
    ``mode="reduced"`` only."""
    if mode == "complete":
        return _qr_complete(x, mode="complete")
    return _qr_reduced(x, mode=mode)


def _solve(x1: da.Array, x2: da.Array, /) -> da.Array:
    """``linalg.solve`` per matrix of the broadcast stacks (dask's takes one 2-D system and
    factors it blockwise). ``x2`` is a vector only when it is 1-D, as the standard says."""
    import dask.array as da
    import numpy as np

    dt = np.result_type(x1.dtype, x2.dtype)
    vector = x2.ndim == 1

    def on_block(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if vector:
            return np.linalg.solve(a, b[..., None])[..., 0].astype(dt, copy=False)
        return np.linalg.solve(a, b).astype(dt, copy=False)

    if 0 in x1.shape or 0 in x2.shape:  # nothing to compute (dask's rechunking divides)
        eye = np.broadcast_to(np.eye(x1.shape[-1], dtype=x1.dtype), x1.shape)
        return _one_chunk(on_block(eye, np.zeros(x2.shape, x2.dtype)))
    signature = "(m,m),(m)->(m)" if vector else "(m,m),(m,k)->(m,k)"
    return da.apply_gufunc(on_block, signature, x1, x2, output_dtypes=dt, allow_rechunk=True)


_STACKED["linalg.qr"] = _qr
_STACKED["linalg.solve"] = _solve

_svd_full = _stacked("svd", "(m,n)->(m,m),(k),(n,n)", lambda dt: (dt, *_real(dt), dt))
_svd_reduced = _stacked("svd", "(m,n)->(m,k),(k),(k,n)", lambda dt: (dt, *_real(dt), dt))


def _svd(x: da.Array, /, *, full_matrices: bool = True) -> da.Array | tuple[da.Array, ...]:
    """``linalg.svd`` per matrix of the stack; dask's has no ``full_matrices=True``."""
    if full_matrices:
        return _svd_full(x, full_matrices=True)
    return _svd_reduced(x, full_matrices=False)


def _same_dtype(fn: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``fn`` whose result keeps its (promoted) operands' dtype: dask's ``tensordot`` of 0-d
    small integers gives uint64 / int64."""

    @functools.wraps(fn)
    def kept(x1: da.Array, x2: da.Array, /, **kwargs: object) -> da.Array:
        out = fn(x1, x2, **kwargs)
        return out if out.dtype == x1.dtype else out.astype(x1.dtype)

    return kept


_STACKED["linalg.svd"] = _svd


def _matrix_norm(
    x: da.Array, /, *, keepdims: bool = False, ord: float | Literal["fro", "nuc"] = "fro"
) -> da.Array:
    """``linalg.matrix_norm`` per matrix of the stack; dask's fails on stacks and some ``ord``."""
    import dask.array as da
    import numpy as np

    dt = np.finfo(x.dtype).dtype

    def norm(a: np.ndarray) -> np.ndarray:
        return np.asarray(np.linalg.norm(a, ord=ord, axis=(-2, -1)), dtype=dt)

    if 0 in x.shape:
        out = _one_chunk(norm(np.zeros(x.shape, x.dtype)))
    else:
        out = da.apply_gufunc(norm, "(m,n)->()", x, output_dtypes=dt, allow_rechunk=True)
    return out[..., None, None] if keepdims else out


_STACKED["linalg.matrix_norm"] = _matrix_norm


def _cross(x1: da.Array, x2: da.Array, /, *, axis: int = -1) -> da.Array:
    """``linalg.cross`` of 3-element vectors along ``axis``, from dask's own operations."""
    import dask.array as da

    x1, x2 = da.broadcast_arrays(x1, x2)
    if x1.shape[axis] != 3:
        raise ValueError(f"linalg.cross: the axis {axis} must have size 3, not {x1.shape[axis]}")
    a = [da.take(x1, i, axis=axis) for i in range(3)]
    b = [da.take(x2, i, axis=axis) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return da.stack(parts, axis=axis)


def _flip(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``flip``, refusing axes named twice as the other backends do (dask flipped them)."""

    def flip(x: da.Array, /, *, axis: int | tuple[int, ...] | None = None) -> da.Array:
        if isinstance(axis, tuple | list) and len({a % max(x.ndim, 1) for a in axis}) != len(axis):
            raise ValueError(f"flip: axis {tuple(axis)} repeats an axis")
        return base(x, axis=axis)

    return flip


def _searchsorted(
    x1: da.Array, x2: object, /, *, side: str = "left", sorter: da.Array | None = None
) -> da.Array:
    """``searchsorted`` with what dask's lacks: ``sorter``, a 0-d or Python scalar ``x2``."""
    import dask.array as da

    if sorter is not None:
        x1 = da.take(x1, sorter)
    v = x2 if isinstance(x2, da.Array) else da.asarray(x2, dtype=x1.dtype)
    if v.ndim == 0:
        return da.searchsorted(x1, v.reshape(1), side=side).reshape(())
    found = da.searchsorted(x1, v, side=side)
    if 0 in v.shape:  # dask's computed an array of shape (1, 0) for any empty x2
        return da.zeros(v.shape, dtype=found.dtype, chunks=v.chunks)
    return found


def _eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: npt.DTypeLike | None = None,
    device: object = None,
) -> da.Array:
    """``eye``, chunk by chunk: dask's own gives wrong results or fails to compute for many
    shapes and offsets (``eye(3, 5, k=-1)``, ``eye(0, 1)``)."""
    import dask.array as da
    import numpy as np
    from dask.base import tokenize

    m = n_rows if n_cols is None else n_cols
    dt = np.dtype(np.float64 if dtype is None else dtype)
    chunks = da.core.normalize_chunks("auto", (n_rows, m), dtype=dt)

    def block(
        block_info: dict[None, dict[str, list[tuple[int, int]]]] | None = None,
    ) -> np.ndarray:
        assert block_info is not None  # dask passes it to a function that names it
        (r0, r1), (c0, c1) = block_info[None]["array-location"]
        # Global column = global row + k: locally, the offset shifts by r0 - c0.
        return np.eye(r1 - r0, c1 - c0, k=k + r0 - c0, dtype=dt)

    # Named here: Dask would name the graph by pickling the closure (about 0.7 ms).
    name = f"eye-{tokenize(n_rows, m, k, dt, chunks)}"
    return da.map_blocks(block, chunks=chunks, dtype=dt, meta=np.empty((0, 0), dtype=dt), name=name)


def _broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """``broadcast_shapes``, with dask's unknown lengths (``None`` in the standard)."""
    import dask.array as da

    nan = float("nan")
    out = da.core.broadcast_shapes(*[tuple(nan if d is None else d for d in s) for s in shapes])
    return tuple(None if d != d else int(d) for d in out)


def _repeat(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``repeat`` with ``axis=None`` (the flattened array), which dask refuses."""

    def repeat(x: da.Array, repeats: object, /, *, axis: int | None = None) -> da.Array:
        import dask.array as da
        import numpy as np

        if axis is None:
            x, axis = x.reshape(-1), 0
        if isinstance(repeats, int):
            counts = np.asarray(repeats)
        else:
            # Counts per element: the result's length depends on them, so they are computed
            # (as unique_values does); x itself stays lazy, gathered by index.
            counts = np.asarray(repeats.compute() if isinstance(repeats, da.Array) else repeats)
            counts = counts.astype(np.intp)  # NumPy refuses uint64 counts
        if x.shape[axis] == 0:
            # Dask concatenates no pieces and fails; the counts are checked as NumPy checks
            # them (one per element, none negative), and there is nothing to repeat.
            np.repeat(np.empty(0), counts)
            return x
        if isinstance(repeats, int):
            return base(x, repeats, axis=axis)
        if counts.size == 1:
            return base(x, int(counts.reshape(())), axis=axis)
        index = np.repeat(np.arange(x.shape[axis]), counts)
        return da.take(x, index, axis=axis)

    return repeat


def _linspace(base: Callable[..., da.Array]) -> Callable[..., da.Array]:
    """``linspace`` whose last element is ``stop`` exactly with ``endpoint=True`` (dask adds
    steps to ``start``, which misses it for large ranges in float32)."""

    def linspace(start: complex, stop: complex, /, num: int, **kwargs: object) -> da.Array:
        import dask.array as da
        import numpy as np

        if isinstance(start, complex) or isinstance(stop, complex):
            # dask's linspace is real only: the two parts, each a real linspace
            given = cast("npt.DTypeLike | None", kwargs.pop("dtype", None))  # the dtype keyword
            dt = np.dtype(given or np.complex128)
            real_kw = {**kwargs, "dtype": np.finfo(dt).dtype}
            start, stop = complex(start), complex(stop)
            return _make_complex(
                linspace(start.real, stop.real, num, **real_kw),
                linspace(start.imag, stop.imag, num, **real_kw),
            ).astype(dt)
        out = base(start, stop, num, **kwargs)
        if not kwargs.get("endpoint", True) or num < 2:
            return out
        last = da.arange(num, chunks=out.chunks) == num - 1
        return da.where(last, da.asarray(stop, dtype=out.dtype), out)

    return linspace


def to_numpy(x: da.Array) -> np.ndarray:
    import numpy as np

    return np.asarray(x.compute())


# Transfer hooks (see arraymux._transfer). Dask arrays are lazy: moving one away computes it
# (no copy of existing memory); moving to Dask wraps the data lazily in chunks with
# dask.array.from_array, which takes a copy of NumPy input (so nothing is shared).


def export(x: da.Array) -> tuple[np.ndarray, bool]:
    return to_numpy(x), False


def from_dlpack(obj: object, place: str | None, copy: bool | None) -> da.Array:
    raise BufferError("dask.array.from_array copies its input")


def from_host(a: np.ndarray, place: str) -> da.Array:
    import dask.array as da

    try:
        return da.from_array(a, chunks="auto", name=False)
    except ZeroDivisionError:  # dask's automatic chunks fail for some empty shapes
        return da.from_array(a, chunks=-1, name=False)


def to_host_many(xs: list[object]) -> list[object]:
    import dask
    import numpy as np

    return [np.asarray(r) for r in dask.compute(*xs)]
