"""Edge inputs on every device give the NumPy device's answer: the same dtype, the same values
(NaNs and the signs of zeros included), or the same kind of error.

Each case was a place where some backend answered otherwise (torch's ``arange`` and
``linspace`` in integer dtypes, ``std``/``var`` without degrees of freedom, Dask's ``unique``
with NaNs, array-api-strict's ``isin(invert=True)``) or could: the standard's special cases,
empty and 0-d arrays, integer wrap-around, signed zeros, NaNs in sorts and reductions. The
places where the standard leaves the answer to each library and the backends differ are listed
at the end of this module, with the reason arraymux keeps each backend's own answer there.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import arraymux as xp

NAN, INF = float("nan"), float("inf")
F32, I32, I8, U8, BOOL, C64 = xp.float32, xp.int32, xp.int8, xp.uint8, xp.bool, xp.complex64


def _a(v: Any, dt: xp.DType, d: xp.Device) -> xp.Array:
    return xp.asarray(v, dtype=dt, device=d)


def _i32(x: xp.Array) -> xp.Array:
    return xp.astype(x, I32)


def _set(x: xp.Array, key: Any, value: Any) -> xp.Array:
    x[key] = value
    return x


# name -> function of the device. Every dtype is given: default dtypes differ by design.
CASES: dict[str, Callable[[xp.Device], Any]] = {
    # creation in integer dtypes
    "arange float stop int32": lambda d: xp.arange(3.5, dtype=I32, device=d),
    "arange float step int16": lambda d: xp.arange(0.5, 5, 1.3, dtype=xp.int16, device=d),
    "arange negative float step": lambda d: xp.arange(5.5, 0, -1.5, dtype=I32, device=d),
    "arange float below uint8": lambda d: xp.arange(-3.5, 2.0, 0.5, dtype=U8, device=d),
    "linspace int16 rounds down": lambda d: xp.linspace(-3.7, 3.7, 5, dtype=xp.int16, device=d),
    "linspace int32 no end": lambda d: xp.linspace(
        -2.5, 2.5, 7, dtype=I32, device=d, endpoint=False
    ),
    "linspace beyond uint8": lambda d: xp.linspace(0, 256, 4, dtype=U8, device=d),
    "full float in int8": lambda d: xp.full((2,), -2.9, dtype=I8, device=d),
    "full nan in int32": lambda d: xp.full((2,), NAN, dtype=I32, device=d),
    "full 300.0 in uint8": lambda d: xp.full((2,), 300.0, dtype=U8, device=d),
    "full_like -1 in uint8": lambda d: xp.full_like(_a([1, 2], U8, d), -1),
    "asarray -1 in uint8": lambda d: xp.asarray([-1], dtype=U8, device=d),
    "asarray floats in int32": lambda d: xp.asarray([1.7, -2.2], dtype=I32, device=d),
    "eye k beyond": lambda d: xp.eye(2, 3, k=5, dtype=F32, device=d),
    "tril k below": lambda d: xp.tril(xp.ones((3, 3), dtype=I8, device=d), k=-5),
    # statistics
    "std correction = N": lambda d: xp.std(_a([1, 2, 4], F32, d), correction=3),
    "var correction > N": lambda d: xp.var(_a([[1, 2], [3, 3]], F32, d), axis=1, correction=2.5),
    "var of empty": lambda d: xp.var(_a([], F32, d)),
    "mean of empty": lambda d: xp.mean(_a([], F32, d)),
    "sum over an empty axis": lambda d: xp.sum(xp.zeros((0, 3), dtype=F32, device=d), axis=0),
    "prod of empty": lambda d: xp.prod(_a([], F32, d)),
    "sum int8 wraps to int64": lambda d: xp.sum(_a([100, 100], I8, d), dtype=I32),
    "cumulative_sum include_initial": lambda d: xp.cumulative_sum(
        _a([[1, 2], [3, 4]], F32, d), axis=0, include_initial=True
    ),
    "cumulative_sum of a 0-d array": lambda d: xp.cumulative_sum(_a(2, F32, d)),
    "cumulative_prod of a 0-d array": lambda d: xp.cumulative_prod(_a(2, I32, d)),
    "meshgrid of a 0-d array": lambda d: xp.meshgrid(_a([1, 2], F32, d), _a(1, F32, d))[0],
    "meshgrid of a 2-D array": lambda d: xp.meshgrid(_a([[1, 2]], F32, d))[0],
    "clip of int8 within bounds beyond its range": lambda d: xp.clip(
        _a([1, 5], I8, d), -1000, 1000
    ),
    "clip of uint8 from -1": lambda d: xp.clip(_a([1, 5], U8, d), -1, 3),
    "clip of uint8 to 300, by keyword": lambda d: xp.clip(_a([1, 250], U8, d), max=300),
    "clip of ints by a float": lambda d: xp.clip(_a([1, 5], I32, d), 1.5, 6),
    "clip of ints by a float array": lambda d: xp.clip(_a([1, 5], I32, d), _a(1.5, F32, d)),
    "roll of two axes by one shift": lambda d: xp.roll(
        _a([[1, 2], [3, 4]], F32, d), 1, axis=(0, 1)
    ),
    "roll of one axis by two shifts": lambda d: xp.roll(
        _a([[1, 2], [3, 4]], F32, d), (1, 1), axis=0
    ),
    "flip of an axis named twice": lambda d: xp.flip(_a([[1, 2], [3, 4]], F32, d), axis=(0, -2)),
    "matrix_power of integers, negative": lambda d: xp.linalg.matrix_power(
        _a([[2, 0], [0, 2]], I32, d), -1
    ),
    "cross of 2-element vectors": lambda d: xp.linalg.cross(_a([1, 2], F32, d), _a([3, 4], F32, d)),
    "asarray of an int beyond int64": lambda d: xp.asarray([2**63, 2**63], device=d),
    "asarray of an int below int64": lambda d: xp.asarray([-(2**63) - 1], device=d),
    "asarray of a 0-d int beyond int64": lambda d: xp.asarray(2**63, device=d),
    "tril of a 1-D array": lambda d: xp.tril(_a([1, 2, 3], F32, d)),
    "triu of a 0-d array": lambda d: xp.triu(_a(1, F32, d)),
    "searchsorted of no values": lambda d: xp.astype(
        xp.searchsorted(_a([1, 2, 3], F32, d), xp.zeros((0, 3), dtype=F32, device=d)), I32
    ),
    "fft of an empty axis": lambda d: xp.fft.fft(xp.zeros((0,), dtype=C64, device=d)),
    "fft of an empty stack": lambda d: xp.fft.fft(xp.zeros((0, 3), dtype=C64, device=d)),
    "fft of an empty axis, padded": lambda d: xp.fft.fft(
        xp.zeros((2, 0), dtype=C64, device=d), n=3
    ),
    "rfft of an empty stack": lambda d: xp.fft.rfft(xp.zeros((0, 3), dtype=F32, device=d)),
    "irfft of one point": lambda d: xp.fft.irfft(_a([1, 2], C64, d)[:1]),
    "irfft of an empty stack": lambda d: xp.fft.irfft(xp.zeros((0, 3), dtype=C64, device=d)),
    "fftn over an empty axis": lambda d: xp.fft.fftn(xp.zeros((0, 3), dtype=C64, device=d)),
    "rfftn of an empty stack": lambda d: xp.fft.rfftn(
        xp.zeros((0, 4), dtype=F32, device=d), axes=(1,)
    ),
    "max with nan": lambda d: xp.max(_a([1, NAN, 3], F32, d)),
    "argmax with nan": lambda d: xp.astype(xp.argmax(_a([1, NAN, 3], F32, d)), I32),
    "argmin ties": lambda d: xp.astype(xp.argmin(_a([2, 1, 1, 0, 0], F32, d)), I32),
    "count_nonzero nan and -0": lambda d: xp.astype(
        xp.count_nonzero(_a([NAN, 0.0, -0.0], F32, d)), I32
    ),
    "max over an empty axis": lambda d: xp.max(xp.zeros((0, 5), dtype=F32, device=d), axis=0),
    "max over full axes of an empty array": lambda d: xp.max(
        xp.zeros((2, 0, 3), dtype=F32, device=d), axis=(0, 2)
    ),
    "min over a full axis of an empty array": lambda d: xp.min(
        xp.zeros((0, 5), dtype=F32, device=d), axis=1, keepdims=True
    ),
    "inf norm of no elements": lambda d: xp.linalg.vector_norm(
        xp.zeros((0, 5), dtype=F32, device=d), ord=INF
    ),
    "inf norm over an empty axis": lambda d: xp.linalg.vector_norm(
        xp.zeros((0, 5), dtype=F32, device=d), ord=INF, axis=0, keepdims=True
    ),
    "-inf norm over an empty axis": lambda d: xp.linalg.vector_norm(
        xp.zeros((0, 5), dtype=F32, device=d), ord=-INF, axis=0
    ),
    "roll of an empty array": lambda d: xp.roll(xp.zeros((4, 0), dtype=F32, device=d), 1),
    "repeat of an empty axis by too many counts": lambda d: xp.repeat(
        xp.zeros((0, 5), dtype=F32, device=d), _a([1, 0, 2], I32, d), axis=0
    ),
    "repeat of an empty array by a negative count": lambda d: xp.repeat(
        xp.zeros(0, dtype=F32, device=d), -1
    ),
    "count_nonzero over axis ()": lambda d: xp.astype(
        xp.count_nonzero(_a([[1, 0, 2], [0, 0, 3]], F32, d), axis=()), I32
    ),
    "count_nonzero over axis () keepdims": lambda d: xp.astype(
        xp.count_nonzero(_a([[1, 0], [0, 3]], F32, d), axis=(), keepdims=True), I32
    ),
    "min over axis ()": lambda d: xp.min(_a([[1, 5], [3, 4]], F32, d), axis=()),
    # sorting, sets, searching
    "sort with nan and -inf": lambda d: xp.sort(_a([3, NAN, 1, -INF], F32, d)),
    "argsort nan descending": lambda d: xp.astype(
        xp.argsort(_a([3, NAN, 1, NAN], F32, d), descending=True), I32
    ),
    "argsort stable descending ties": lambda d: xp.astype(
        xp.argsort(_a([1, 2, 1, 2], F32, d), descending=True, stable=True), I32
    ),
    "sort stable descending keeps -0 and 0 in order": lambda d: xp.sort(
        _a([[0.0, -0.0], [-0.0, 0.0], [-0.0, 0.0], [1.0, 1.0]], F32, d), axis=0, descending=True
    ),
    "unique_values with nans": lambda d: xp.unique_values(_a([NAN, 1, NAN, 1], F32, d)),
    "unique_counts with nans": lambda d: xp.astype(
        xp.unique_counts(_a([NAN, 1, NAN, 1], F32, d)).counts, I32
    ),
    "isin invert": lambda d: xp.isin(_a([1, 2, 3], I32, d), _a([1, 3], I32, d), invert=True),
    "searchsorted right": lambda d: xp.astype(
        xp.searchsorted(_a([1, 2, 2, 3], F32, d), _a([2, 0, 4], F32, d), side="right"), I32
    ),
    "nonzero of 2-d": lambda d: xp.astype(xp.nonzero(_a([[0, 1], [2, 0]], I32, d))[1], I32),
    # elementwise special cases and integer arithmetic
    "round half to even": lambda d: xp.round(_a([0.5, 1.5, 2.5, -0.5, -1.5], F32, d)),
    "sign of -0 and nan": lambda d: xp.sign(_a([-0.0, 0.0, NAN], F32, d)),
    "floor_divide signed zeros": lambda d: xp.floor_divide(
        _a([-0.0, 1.0, -1.0], F32, d), _a([1.0, INF, INF], F32, d)
    ),
    "remainder signs": lambda d: xp.remainder(
        _a([5, -5, 5, -5], I32, d), _a([3, 3, -3, -3], I32, d)
    ),
    "float remainder signs": lambda d: xp.remainder(
        _a([5.5, -5.5, 5.5, -5.5], F32, d), _a([3, 3, -3, -3], F32, d)
    ),
    "int floor division of negatives": lambda d: _a([-7, 7], I32, d) // _a([2, -2], I32, d),
    "int8 overflow wraps": lambda d: _a([127], I8, d) + _a([1], I8, d),
    "abs of int8 min": lambda d: xp.abs(_a([-128], I8, d)),
    "uint8 square wraps": lambda d: xp.square(_a([200], U8, d)),
    "uint8 minus one wraps": lambda d: _a([0], U8, d) - 1,
    "shift beyond the width": lambda d: xp.bitwise_right_shift(
        _a([-8, 8], I32, d), _a([40, 40], I32, d)
    ),
    "uint8 shift": lambda d: xp.bitwise_right_shift(_a([200], U8, d), _a([9], U8, d)),
    "invert uint8": lambda d: xp.bitwise_invert(_a([0, 255], U8, d)),
    "pow 0 ** 0": lambda d: xp.pow(_a([0.0], F32, d), _a([0.0], F32, d)),
    "sqrt of -1": lambda d: xp.sqrt(_a([-1.0], F32, d)),
    "log of signed zeros": lambda d: xp.log(_a([0.0, -0.0], F32, d)),
    "atan2 of signed zeros": lambda d: xp.atan2(
        _a([0.0, -0.0, 0.0, -0.0], F32, d), _a([-0.0, -0.0, 0.0, 0.0], F32, d)
    ),
    "logaddexp of infinities": lambda d: xp.logaddexp(
        _a([INF, -INF], F32, d), _a([INF, -INF], F32, d)
    ),
    "hypot inf nan": lambda d: xp.hypot(_a([INF], F32, d), _a([NAN], F32, d)),
    "ceil to -0": lambda d: xp.signbit(xp.ceil(_a([-0.5], F32, d))),
    "complex sqrt of -4 with signed zeros": lambda d: xp.sqrt(_a([-4 + 0j, -4 - 0j], C64, d)),
    "complex log of 0": lambda d: xp.log(_a([0j], C64, d)),
    "complex sign": lambda d: xp.sign(_a([3 + 4j, 0j], C64, d)),
    "clip by int arrays": lambda d: xp.clip(_a([1, 5, 9], I32, d), _a([2, 2, 2], I32, d), 6),
    "where with a Python float": lambda d: xp.where(
        _a([True, False], BOOL, d), 1.5, _a([1, 2], F32, d)
    ),
    "int8 matmul wraps": lambda d: xp.matmul(_a([[1, 2]], I8, d), _a([[100], [100]], I8, d)),
    "int8 vecdot wraps": lambda d: xp.vecdot(_a([100, 100], I8, d), _a([1, 1], I8, d)),
    "uint8 plus -1 refused": lambda d: _a([1, 2], U8, d) + (-1),
    "int8 times 200 refused": lambda d: _a([1, 2], I8, d) * 200,
    "uint8 compared with -1": lambda d: _a([1, 255], U8, d) == -1,
    "a float stored into an int32 array": lambda d: _set(_a([1, 2], I32, d), slice(None), 1.5),
    "a complex stored into a float32 array": lambda d: _set(_a([1, 2], F32, d), 0, 1j),
    "a float stored into a bool array": lambda d: _set(_a([True], BOOL, d), 0, 0.5),
    "a float array stored into an int8 array": lambda d: _set(
        _a([1, 2], I8, d), 0, _a(1.5, F32, d)
    ),
    "an int32 array stored into an int8 array": lambda d: _set(
        _a([1, 2], I8, d), slice(None), _a([1, 300], I32, d)
    ),
    "an int array stored into a float32 array": lambda d: _set(_a([1, 2], F32, d), 1, _a(7, I8, d)),
    # manipulation and indexing
    "roll by more than the length": lambda d: xp.roll(_a([1, 2, 3, 4], F32, d), -5),
    "roll two axes": lambda d: xp.roll(_a([[1, 2], [3, 4]], F32, d), (1, 1), axis=(0, 1)),
    "expand_dims two axes": lambda d: xp.expand_dims(_a([1, 2], F32, d), axis=(0, 2)),
    "concat of None axis": lambda d: xp.concat(
        [_a([[1, 2]], F32, d), _a([[3]], F32, d)], axis=None
    ),
    "repeat by an array": lambda d: xp.repeat(_a([1, 2, 3], F32, d), _a([1, 0, 2], I32, d)),
    "diff n=2 with prepend": lambda d: xp.diff(_a([1, 4, 9], I32, d), n=2, prepend=_a([0], I32, d)),
    "diff of bools": lambda d: xp.diff(_a([[True, False, False, True]], BOOL, d), n=2),
    "diff of bools, axis 0, appended": lambda d: xp.diff(
        _a([[True, False]], BOOL, d), axis=0, append=_a([[True, True]], BOOL, d)
    ),
    "take negative index": lambda d: xp.take(_a([1, 2, 3], I32, d), _a([-1], I32, d)),
    "take_along_axis negative": lambda d: xp.take_along_axis(
        _a([[1, 2, 3]], I32, d), _a([[-1, 0]], I32, d), axis=1
    ),
    "broadcast to a zero length": lambda d: xp.broadcast_to(_a([1], I32, d), (0, 1)),
    "getitem negative step": lambda d: _a([1, 2, 3, 4], F32, d)[::-2],
    "getitem ellipsis and None": lambda d: _a([[1, 2], [3, 4]], F32, d)[..., None, 0],
    "getitem int array": lambda d: _a([1, 2, 3, 4], F32, d)[_a([-1, 0], I32, d)],
    "getitem 0-d bool": lambda d: _a([1, 2], F32, d)[xp.asarray(True, device=d)],
    "setitem mask": lambda d: (lambda x: _set(x, x > 1, 0.0))(_a([1, 2, 3], F32, d)),
    "setitem strided slice": lambda d: _set(_a([1, 2, 3], F32, d), slice(None, None, 2), 9.0),
    # linear algebra and fft
    "matrix_norm nuclear": lambda d: xp.linalg.matrix_norm(_a([[1, 2], [3, 4]], F32, d), ord="nuc"),
    "matrix_norm -inf": lambda d: xp.linalg.matrix_norm(_a([[1, 2], [3, 4]], F32, d), ord=-INF),
    "vector_norm order 0": lambda d: xp.linalg.vector_norm(_a([1, 0, 3], F32, d), ord=0),
    "vector_norm -inf": lambda d: xp.linalg.vector_norm(_a([1, -5, 3], F32, d), ord=-INF),
    "slogdet of a singular matrix": lambda d: xp.linalg.slogdet(_a([[1, 2], [2, 4]], F32, d))[1],
    "matrix_power -2": lambda d: xp.linalg.matrix_power(_a([[1, 2], [3, 4]], F32, d), -2),
    "matrix_rank": lambda d: xp.astype(xp.linalg.matrix_rank(_a([[1, 2], [2, 4]], F32, d)), I32),
    "trace offset": lambda d: xp.linalg.trace(_a([[1, 2], [3, 4]], F32, d), offset=1),
    "fft padded": lambda d: xp.abs(xp.fft.fft(_a([1, 2, 3], C64, d), n=5)),
    "irfft odd length": lambda d: xp.fft.irfft(_a([1, 2, 3], C64, d), n=5),
    "hfft": lambda d: xp.fft.hfft(_a([1, 2, 3], C64, d)),
    "fftfreq with spacing": lambda d: xp.fft.fftfreq(5, d=0.5, dtype=F32, device=d),
    "fftshift one axis": lambda d: xp.fft.fftshift(_a([[1, 2, 3], [4, 5, 6]], F32, d), axes=1),
    # operands that one library refuses where others compute: refused everywhere
    "maximum of complex": lambda d: xp.maximum(_a([1 + 1j], C64, d), _a([2], C64, d)),
    "less of complex and a scalar": lambda d: _a([1 + 1j], C64, d) < 2.0,
    "logaddexp of complex": lambda d: xp.logaddexp(_a([1j], C64, d), _a([1j], C64, d)),
    "imag of a real array": lambda d: xp.imag(_a([1.5], F32, d)),
    "abs of bools": lambda d: xp.abs(_a([True, False], BOOL, d)),
    "square of bools": lambda d: xp.square(_a([True, False], BOOL, d)),
    "shift of bools": lambda d: xp.bitwise_left_shift(_a([True], BOOL, d), _a([True], BOOL, d)),
    "remainder of bools": lambda d: _a([True], BOOL, d) % _a([True], BOOL, d),
    "matmul of bools": lambda d: _a([[True]], BOOL, d) @ _a([[True]], BOOL, d),
    "max of complex": lambda d: xp.max(_a([1 + 1j, 2], C64, d)),
    "argmax of bools": lambda d: xp.argmax(_a([False, True], BOOL, d)),
    "sort of complex": lambda d: xp.sort(_a([2, 1 + 1j], C64, d)),
    "clip of bools": lambda d: xp.clip(_a([True, False], BOOL, d), 0, 1),
    "searchsorted in complex": lambda d: xp.searchsorted(_a([1, 2j], C64, d), _a([1], C64, d)),
    "vecdot of bools": lambda d: xp.vecdot(_a([True], BOOL, d), _a([True], BOOL, d)),
    # searchsorted finds NaNs last, where sort puts them (torch's search went wrong at them)
    # (positions in int32: JAX's default integer without 64-bit mode)
    "searchsorted left among NaNs": lambda d: _i32(
        xp.searchsorted(
            _a([-INF, 1, 2, INF, NAN, NAN], F32, d), _a([-INF, 0, 1, 2, 2.5, INF, NAN], F32, d)
        )
    ),
    "searchsorted right among NaNs": lambda d: _i32(
        xp.searchsorted(
            _a([1, 2, INF, NAN], F32, d), _a([-INF, 1, 2, 2.5, INF, NAN], F32, d), side="right"
        )
    ),
    "searchsorted of a Python NaN": lambda d: _i32(xp.searchsorted(_a([1, NAN], F32, d), NAN)),
    "searchsorted with an int32 sorter among NaNs": lambda d: _i32(
        xp.searchsorted(
            _a([NAN, 2, 1], F32, d), _a([1.5, NAN], F32, d), sorter=_a([2, 1, 0], I32, d)
        )
    ),
    "searchsorted in all NaNs": lambda d: _i32(xp.searchsorted(_a([NAN, NAN], F32, d), 1.0)),
    # a Python bool in an index is a 0-d boolean mask (Dask took it as the int 1)
    "index by True": lambda d: _a([[1, 2], [3, 4]], I32, d)[True],
    "index by False": lambda d: _a([[1, 2], [3, 4]], I32, d)[False],
    "write through True": lambda d: _set(_a([1, 2], I32, d), True, 5),
    # refused everywhere: a second ellipsis (torch took it), qr modes beyond the standard's
    # (NumPy took "r", returning R alone, and "full")
    "index by two ellipses": lambda d: _a([[1, 2], [3, 4]], I32, d)[..., ...],
    "index by two ellipses and an int": lambda d: _a([[1, 2], [3, 4]], I32, d)[0, ..., None, ...],
    "write through two ellipses": lambda d: _set(_a([1, 2], I32, d), (Ellipsis, Ellipsis), 5),
    "qr mode r": lambda d: xp.linalg.qr(xp.ones((3, 2), dtype=F32, device=d), mode="r")[0],
    "qr mode full by position": lambda d: xp.linalg.qr(
        xp.ones((3, 2), dtype=F32, device=d), "full"
    )[0],
    "vector_norm ord fro": lambda d: xp.linalg.vector_norm(_a([3, 4], F32, d), ord="fro"),
    # one-dimensional parameters (Record.vectors): others refused everywhere
    "take of 0-d indices": lambda d: xp.take(_a([1, 2, 3], I32, d), _a(1, I32, d)),
    "take of 2-D indices along an axis": lambda d: xp.take(
        _a([1, 2, 3], I32, d), _a([[1, 0]], I32, d), axis=0
    ),
    "outer of a 0-d array": lambda d: xp.linalg.outer(_a(2, F32, d), _a([1, 2], F32, d)),
    "outer of a matrix": lambda d: xp.linalg.outer(_a([1], F32, d), _a([[1, 2]], F32, d)),
    "searchsorted in a matrix": lambda d: xp.searchsorted(
        _a([[1, 2], [3, 4]], F32, d), _a([[1.5], [3.5]], F32, d)
    ),
    "meshgrid of two dtypes": lambda d: xp.meshgrid(_a([1], I32, d), _a([1], F32, d))[0],
    "broadcast_to a negative size": lambda d: xp.broadcast_to(_a([1], I32, d), (2, -1)),
    "fftn along an axis twice": lambda d: xp.fft.fftn(_a([[1, 2]], C64, d), axes=(1, -1)),
    "fftshift along an axis twice": lambda d: xp.fft.fftshift(_a([1, 2, 3], F32, d), axes=(0, 0)),
    # fill values: a complex one in a real dtype refused (NumPy dropped the imaginary part),
    # a float beyond float32 its infinity (torch refused it)
    "full of a complex in float32": lambda d: xp.full((2,), 1j, dtype=F32, device=d),
    "full_like of a complex in int32": lambda d: xp.full_like(_a([1], I32, d), 2j),
    "full beyond float32": lambda d: xp.full((2,), -1e300, dtype=F32, device=d),
    "full_like beyond float32": lambda d: xp.full_like(_a([1], F32, d), 1e39),
    # Python numbers of 0-d arrays only (torch and Dask converted any one element)
    "float of a one-element array": lambda d: _a(float(_a([1.5], F32, d)), F32, d),
    "int of a one-element array": lambda d: _a(int(_a([[3]], I32, d)), I32, d),
    # no copy where none is allowed, from another library's array too (a cast made one)
    "asarray of NumPy float64 as float32 without a copy": lambda d: xp.asarray(
        np.asarray([1.5]), dtype=F32, device=d, copy=False
    ),
    # (JAX's arrays are immutable: no write could tell a copy, and it gives the reshape)
    "reshape of a transpose without a copy": lambda d: xp.reshape(
        xp.matrix_transpose(_a([[1, 2], [3, 4]], I32, d)), (4,), copy=False
    ),
}

# The standard leaves these to each library, and the backends answer differently; arraymux
# keeps each backend's answer (making them agree would read the data, a synchronisation on
# GPUs, or change values that a library's users rely on):
#
# - integer division and remainder by zero (NumPy: 0; torch on the CPU raises; JAX: -1 - x);
# - casts of NaN, infinities and out-of-range floats to integers (JAX saturates);
# - the sign of the zero that maximum/minimum give for -0 and +0;
# - integers to negative integer powers (NumPy, Dask and array-api-strict raise);
# - array-api-strict refuses what the standard leaves open: clip with min > max, shifts by a
#   negative count, slices starting beyond the end, sums of bools, isin of floats, and
#   operands outside a function's dtype category that every other library computes
#   (`logical_and` of floats, `maximum` of bools, `diff` of bools).
# JAX's arrays are immutable: no write could tell a copy from the array, and JAX computes
# what another library refuses for want of a view.
JAX_COMPUTES = {"reshape of a transpose without a copy"}
STRICT_REFUSES = {
    "diff of bools",
    "diff of bools, axis 0, appended",
}


def _outcome(call: Callable[[xp.Device], Any], device: xp.Device) -> tuple[str, Any]:
    with warnings.catch_warnings():  # (NumPy's, and Dask's where it computes)
        warnings.simplefilter("ignore")
        try:
            r = call(device)
            data = xp.to_numpy(r)  # (Dask raises here, where it computes)
        except (TypeError, ValueError, OverflowError, IndexError) as e:
            return "raises", type(e)
        assert r.device == device, r
        assert tuple(r.shape) == data.shape, f"shape {r.shape} labels data of {data.shape}"
        return str(r.dtype), data


def test_stable_descending_sort_is_the_stable_argsorts_order(device):
    """``sort(x, descending=True)`` (stable by default) is ``x`` in the order of the stable
    ``argsort``, signed zeros included: most libraries sort ascending and reverse, which
    reversed ``-0.0`` and ``0.0`` (the standard keeps elements that compare equal in order)."""
    x = _a([0.0, -0.0, 2.0, -0.0, NAN, 0.0, -INF, 1.0, 0.0], F32, device)
    got = xp.to_numpy(xp.sort(x, descending=True))
    want = xp.to_numpy(xp.take(x, xp.argsort(x, descending=True)))
    assert np.array_equal(got, want, equal_nan=True)
    assert np.signbit(got).tolist() == np.signbit(want).tolist()
    assert np.signbit(got[3:7]).tolist() == [False, True, True, False]


def test_take_along_axis_refuses_an_index_past_the_end(device):
    """An index outside ``[-n, n)`` raises ``IndexError`` on the CPUs (torch's
    ``take_along_dim`` took it modulo ``n``: index 3 of three elements gave the first). JAX
    fills with NaN, its own documented mode; on GPUs CuPy wraps such indices around, and torch
    stops at a device-side assertion, as their own indexing does (the dispatch page lists
    these), so only indices in range are taken there."""
    x = _a([[1.0, 2.0, 3.0]], F32, device)
    ok = xp.take_along_axis(x, _a([[-1, 0, 2]], I32, device), axis=1)
    assert xp.to_numpy(ok).tolist() == [[3.0, 1.0, 3.0]]
    if device.backend == "cupy" or device.place.startswith(("cuda", "gpu")):
        return
    for bad in ([[3]], [[-4]], [[7]]):
        if device.backend == "jax":
            r = xp.take_along_axis(x, _a(bad, I32, device), axis=1)
            assert np.isnan(xp.to_numpy(r)).all()
            continue
        with pytest.raises(IndexError):
            xp.to_numpy(xp.take_along_axis(x, _a(bad, I32, device), axis=1))


def test_squeeze_needs_its_axis(device):
    """``squeeze`` without ``axis`` raises ``TypeError`` naming it on every backend, as the
    standard's signature has it (NumPy, JAX and Dask removed every axis of length 1, torch and
    array-api-strict raised)."""
    x = xp.ones((1, 3, 1), dtype=F32, device=device)
    with pytest.raises(TypeError, match=r"squeeze: missing required argument.*axis"):
        xp.squeeze(x)
    assert xp.squeeze(x, 0).shape == (3, 1)
    assert xp.squeeze(x, axis=(0, -1)).shape == (3,)


def test_a_0d_arrays_axis_is_taken_alike_with_and_without_keywords(device):
    """A 0-d array's axis 0 or -1 gives one outcome per backend whether or not other keywords
    send the call through arraymux's checks: ``sum(x, axis=-1)`` computed on NumPy and torch
    while ``sum(x, axis=-1, dtype=...)`` raised arraymux's ``AxisError`` there (whose message
    called -1 valid). Other axes are refused on every backend."""
    x = _a(2.0, F32, device)

    def outcome(**kw: Any) -> object:
        try:
            return xp.to_numpy(xp.sum(x, **kw)).tolist()
        except (ValueError, IndexError) as e:
            return type(e)

    for axis in (0, -1):
        assert outcome(axis=axis) == outcome(axis=axis, dtype=F32, keepdims=False), axis
    for axis in (1, -2):
        with pytest.raises(xp.AxisError, match="out of range for an array of 0 dimension"):
            xp.sum(x, axis=axis)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_device_gives_the_numpy_devices_answer(device, name):
    if device.backend == "numpy":
        pytest.skip("the reference")
    want = _outcome(CASES[name], xp.Device("numpy"))
    got = _outcome(CASES[name], device)
    if device.backend == "jax" and name in JAX_COMPUTES:
        pytest.skip("JAX's arrays are immutable: no copy to refuse")
    if device.backend == "array_api_strict" and name in STRICT_REFUSES:
        assert got == ("raises", TypeError), f"{name}: {got} on {device}"
        return
    if want[0] == "raises" or got[0] == "raises":
        assert got == want, f"{name}: {got} on {device}, {want} on numpy"
        return
    assert got[0] == want[0], f"{name}: dtype {got[0]} on {device}, {want[0]} on numpy"
    g, w = np.asarray(got[1]), np.asarray(want[1])
    assert g.shape == w.shape, f"{name}: shape {g.shape} on {device}, {w.shape} on numpy"
    if w.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True, err_msg=name)
        # Where both give a zero, its sign too. A value within the tolerance of NumPy's zero
        # is a matter of accuracy, not of a special case (the standard has none for the
        # square root of a negative real: torch's CUDA kernel differs from NumPy there in the
        # sign of the real part).
        zeros = (w.real == 0) & (g.real == 0)
        assert (np.signbit(g.real)[zeros] == np.signbit(w.real)[zeros]).all(), name
    else:
        assert g.tolist() == w.tolist(), f"{name}: {g.tolist()} on {device}, {w.tolist()}"


def test_sums_of_bools_over_no_axis_are_in_the_default_integer(device):
    """torch gave bools back (array-api-compat's sum and prod over ``axis=()``)."""
    if device.backend == "array_api_strict":
        pytest.skip("array-api-strict refuses sums of bools")
    x = _a([[True, False]], BOOL, device)
    default = xp.__array_namespace_info__().default_dtypes(device=device)["integral"]
    for f in (xp.sum, xp.prod):
        r = f(x, axis=())
        assert r.dtype == default, (f, r.dtype)
        assert xp.to_numpy(r).tolist() == [[1, 0]]


# Cases above that every device refuses, with the error each raises (agreement alone would
# also hold if every device computed them).
REFUSED = {
    "index by two ellipses": IndexError,
    "index by two ellipses and an int": IndexError,
    "write through two ellipses": IndexError,
    "qr mode r": ValueError,
    "qr mode full by position": ValueError,
    "vector_norm ord fro": ValueError,
    "take of 0-d indices": ValueError,
    "take of 2-D indices along an axis": ValueError,
    "outer of a 0-d array": ValueError,
    "outer of a matrix": ValueError,
    "searchsorted in a matrix": ValueError,
    "meshgrid of two dtypes": TypeError,
    "broadcast_to a negative size": ValueError,
    "fftn along an axis twice": ValueError,
    "fftshift along an axis twice": ValueError,
    "full of a complex in float32": TypeError,
    "full_like of a complex in int32": TypeError,
    "float of a one-element array": TypeError,
    "int of a one-element array": TypeError,
    "asarray of NumPy float64 as float32 without a copy": ValueError,
    "reshape of a transpose without a copy": ValueError,
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_calls_outside_the_standard_are_refused_by_name(device, name):
    if device.backend == "jax" and name in JAX_COMPUTES:
        pytest.skip("JAX's arrays are immutable: no copy to refuse")
    with pytest.raises(REFUSED[name], match=r"arraymux\."):
        _outcome_or_raise(CASES[name], device)


def _outcome_or_raise(call: Callable[[xp.Device], Any], device: xp.Device) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xp.to_numpy(call(device))
