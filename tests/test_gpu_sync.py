"""No implicit synchronisation or host transfer that the native program would not make.

On a GPU, a tensor built from host memory (``torch.tensor(0.5, device="cuda")``) is a copy
that synchronises the stream, so code that turns Python scalars into device arrays that way
stalls the queue at every step. These tests run the operations of whole programs (functions
with array and scalar operands, the operators, indexing, creation functions, the transforms,
random numbers, moves) and fail on such a copy:

- on ``torch:cuda``, under ``torch.cuda.set_sync_debug_mode("error")``;
- on ``jax:gpu``, under ``jax.transfer_guard("disallow")`` wherever the native JAX call runs
  under it too;
- on CuPy, by intercepting ``cupy.asarray``/``cupy.array`` of host data;
- and, without a GPU (CI), on ``torch:cpu`` by intercepting every construction of a tensor
  from host data (``torch.tensor``, ``torch.as_tensor``, ``torch.asarray``,
  ``torch.scalar_tensor``, ``torch.from_numpy``): the same code runs on the GPU, where each
  would be a copy; and on ``jax:cpu`` under ``jax.transfer_guard("disallow")``, as on the GPU.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import arraymux as xp

from .conftest import DEVICES


def _operations(device: xp.Device) -> list[tuple[str, Callable[[], Any]]]:
    """(name, thunk) of the operations a program makes, on arrays made beforehand."""
    f = xp.asarray([[0.5, -1.5], [2.0, 3.0]], dtype=xp.float32, device=device)
    s = xp.asarray(1.5, dtype=xp.float32, device=device)  # 0-d
    i = xp.asarray([1, 2, 7], dtype=xp.int32, device=device)
    b = xp.asarray([True, False, True], device=device)
    k = xp.asarray([1, -1], device=device)
    ops: list[tuple[str, Callable[[], Any]]] = [
        ("x * 2", lambda: f * 2),
        ("2 * x", lambda: 2 * f),
        ("1 - x", lambda: 1 - f),
        ("x ** 2", lambda: f**2),
        ("1 / x", lambda: 1 / f),
        ("x / 2", lambda: f / 2),
        ("2.0 ** x", lambda: 2.0**f),
        ("x % 2", lambda: f % 2),
        ("3 % x", lambda: 3 % f),
        ("3 // x", lambda: 3 // f),
        ("s * 0.5 (0-d)", lambda: s * 0.5),
        ("0.5 * s (0-d)", lambda: 0.5 * s),
        ("s + 1 (0-d)", lambda: s + 1),
        ("x < 1", lambda: f < 1),
        ("less(1, x)", lambda: xp.less(1, f)),
        ("x == 2", lambda: f == 2),
        ("maximum(x, 0.0)", lambda: xp.maximum(f, 0.0)),
        ("minimum(0.0, x)", lambda: xp.minimum(0.0, f)),
        ("atan2(x, 1.0)", lambda: xp.atan2(f, 1.0)),
        ("hypot(2.0, x)", lambda: xp.hypot(2.0, f)),
        ("logaddexp(x, 0.0)", lambda: xp.logaddexp(f, 0.0)),
        ("copysign(x, -1.0)", lambda: xp.copysign(f, -1.0)),
        ("nextafter(x, 0.0)", lambda: xp.nextafter(f, 0.0)),
        ("where(x > 0, x, 0.0)", lambda: xp.where(f > 0, f, 0.0)),
        ("clip(x, 0.0, 1.0)", lambda: xp.clip(f, 0.0, 1.0)),
        ("j << 3", lambda: i << 3),
        ("j >> 1", lambda: i >> 1),
        ("j ^ 5", lambda: i ^ 5),
        ("j & 7", lambda: i & 7),
        ("j | 8", lambda: i | 8),
        ("5 ^ j", lambda: 5 ^ i),
        ("b & True", lambda: b & True),
        ("logical_and(b, True)", lambda: xp.logical_and(b, True)),
        ("exp(-x)", lambda: xp.exp(-f)),
        ("1 / (1 + exp(-x))", lambda: 1 / (1 + xp.exp(-f))),
        ("mean(x, axis=0)", lambda: xp.mean(f, axis=0)),
        ("sum(x)", lambda: xp.sum(f)),
        ("x[0]", lambda: f[0]),
        ("x[:, 1]", lambda: f[:, 1]),
        ("x[..., None]", lambda: f[..., None]),
        ("x[::-1]", lambda: f[::-1]),
        ("zeros", lambda: xp.zeros((2, 3), device=device)),
        ("ones_like", lambda: xp.ones_like(f)),
        ("full", lambda: xp.full((2,), 3.5, device=device)),
        ("full_like", lambda: xp.full_like(f, 2.0)),
        ("arange", lambda: xp.arange(5, device=device)),
        ("linspace", lambda: xp.linspace(0.0, 1.0, 5, device=device)),
        ("eye", lambda: xp.eye(3, device=device)),
        ("astype", lambda: xp.astype(f, xp.int32)),
        ("take(x, [1, -1], axis=1)", lambda: xp.take(f, k, axis=1)),
        ("vecdot(x, x)", lambda: xp.vecdot(f, f)),
        ("max(x, axis=1)", lambda: xp.max(f, axis=1)),
        ("argmin(x, axis=0)", lambda: xp.argmin(f, axis=0)),
        ("permute_dims(x, (1, 0))", lambda: xp.permute_dims(f, (1, 0))),
        ("to_device (same device)", lambda: xp.to_device(f, device)),
    ]
    if device.backend != "jax":  # JAX arrays are immutable
        w = xp.asarray([[0.5, -1.5], [2.0, 3.0]], dtype=xp.float32, device=device)
        u = xp.asarray([1, 2, 3], dtype=xp.int32, device=device)
        ops += [
            ("x[0] = 2.0", lambda: w.__setitem__(0, 2.0)),
            ("x[0, 1] = 1", lambda: w.__setitem__((0, 1), 1)),
            ("j[1:] = 7", lambda: u.__setitem__(slice(1, None), 7)),
            ("x[:] = s", lambda: w.__setitem__(slice(None), s)),
        ]
    try:
        xp.asarray([1], dtype=xp.uint32, device=device)
    except xp.ArraymuxError:
        pass
    else:
        v = xp.asarray([1, 2, 3], dtype=xp.uint32, device=device)
        ops += [
            ("uint32 + 1", lambda: v + 1),
            ("uint32 ^ 5", lambda: v ^ 5),
            ("uint32 << 3", lambda: v << 3),
            ("uint32 < 2", lambda: v < 2),
        ]
    return ops


def _transforms(device: xp.Device) -> list[tuple[str, Callable[[], Any]]]:
    w = xp.asarray([0.5, -1.0, 2.0], dtype=xp.float32, device=device)
    x = xp.asarray([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], dtype=xp.float32, device=device)

    def loss(w: Any, x: Any) -> Any:
        z = x @ w
        return xp.mean(1 / (1 + xp.exp(-z)) * 0.5 + xp.maximum(z, 0.0) ** 2)

    def step(w: Any, x: Any) -> Any:
        return xp.tanh(x @ w) * 2.0 - 1.0

    return [
        ("grad", lambda: xp.grad(loss)(w, x)),
        ("value_and_grad", lambda: xp.value_and_grad(loss)(w, x)),
        ("vjp", lambda: xp.vjp(step, w, x)[1](xp.ones((2,), device=device))),
        ("jvp", lambda: xp.jvp(lambda w: step(w, x), (w,), (w,))),
        ("vmap", lambda: xp.vmap(lambda r: step(w, r))(x)),
        ("checkpoint", lambda: xp.grad(xp.checkpoint(loss))(w, x)),
    ]


def _random(device: xp.Device) -> list[tuple[str, Callable[[], Any]]]:
    key = xp.random.key(0, device=device)
    gen = xp.random.Generator(0, device=device)
    return [
        ("random.split", lambda: xp.random.split(key)),
        ("random.uniform", lambda: xp.random.uniform(key, (8,), dtype=xp.float32)),
        ("random.normal", lambda: xp.random.normal(key, (8,), dtype=xp.float32)),
        ("random.integers", lambda: xp.random.integers(key, 0, 10, (8,))),
        ("Generator.normal", lambda: gen.normal(size=(8,))),
    ]


def _rejection(device: xp.Device) -> list[tuple[str, Callable[[], Any]]]:
    """The rejection samplers, whose rounds end when every draw is accepted: an eager GPU
    reads that flag once per round (see :func:`test_rejection_loops_read_only_their_flag`)."""
    key = xp.random.key(0, device=device)
    gen = xp.random.Generator(0, device=device)
    rates = xp.asarray([3.0, 30.0], dtype=xp.float32, device=device)
    return [
        # (integer counts: converted saturating at the dtype's bounds, on the device)
        ("random.poisson", lambda: xp.random.poisson(key, rates, (2,))),
        ("Generator.binomial", lambda: gen.binomial(rates, 0.5)),
        ("random.gamma", lambda: xp.random.gamma(key, rates, (2,))),
    ]


#: Functions whose result's shape depends on the values (the native call waits for the GPU
#: too), and those computed on the host by design (``__array_namespace_info__``, ...).
_DATA_DEPENDENT = frozenset(
    {"nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values", "repeat"}
)


def _every_function(device: xp.Device) -> list[tuple[str, Callable[[], Any]]]:
    """Every element-wise function, reduction, sort, search and cumulative function of the
    table, on float32 (and complex64, where the function takes it) operands and beside a
    Python number: those the device computes. A call that NumPy refuses too (a kind outside
    the function's category, a domain) is left out, as no computation to time; one refused
    here only is a failure of its own, reported with the error."""
    from arraymux._records import RECORDS

    def forms(fn: Callable[..., Any], rule: str, d: xp.Device) -> list[tuple[str, Any]]:
        f = xp.asarray([[0.5, -1.5], [2.0, 0.25]], dtype=xp.float32, device=d)
        z = xp.asarray([[0.5 + 1j, -1.5], [2.0j, 0.25]], dtype=xp.complex64, device=d)
        if rule == "unary":
            return [("x", lambda: fn(f)), ("z", lambda: fn(z))]
        if rule == "binary":
            return [
                ("x, x", lambda: fn(f, f)),
                ("x, 1.5", lambda: fn(f, 1.5)),
                ("1.5, x", lambda: fn(1.5, f)),
                ("z, z", lambda: fn(z, z)),
            ]
        return [("x", lambda: fn(f)), ("x, axis=0", lambda: fn(f, axis=0))]

    def refusal(op: Callable[[], Any]) -> BaseException | None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                op()
        except (TypeError, ValueError, xp.ArraymuxError) as e:
            return e
        return None

    ops: list[tuple[str, Callable[[], Any]]] = []
    for r in RECORDS:
        fn = getattr(xp, r.name, None)
        if r.name in _DATA_DEPENDENT or "." in r.name or fn is None:
            continue
        if r.rule not in ("unary", "binary", "first"):
            continue
        on_numpy = dict(forms(fn, r.rule, xp.Device("numpy")))
        for form, op in forms(fn, r.rule, device):
            name = f"{r.name}({form})"
            e = refusal(op)
            if e is None:
                ops.append((name, op))
            elif refusal(on_numpy[form]) is None:

                def refused(name: str = name, e: BaseException = e) -> None:
                    raise AssertionError(f"{name} computes on NumPy but raised {e!r}")

                ops.append((name, refused))
    return ops


def _run_all(ops: list[tuple[str, Callable[[], Any]]], guard: Callable[[], Any]) -> list[str]:
    """Warm each operation up unguarded (first uses may compile or build plans, natively
    too), then run it under ``guard``; the names of those the guard stopped."""
    failed = []
    for name, op in ops:
        op()
        try:
            with guard():
                op()
        except Exception as e:  # what the guard raises differs per backend
            failed.append(f"{name}: {type(e).__name__}: {str(e)[:160]}")
    return failed


# -- torch: constructions from host data, counted on the CPU ---------------------------------


@contextlib.contextmanager
def _intercepted(
    module: Any, names: tuple[str, ...], refuse: Callable[[str, Callable[..., Any]], Any]
) -> Iterator[None]:
    """While the block runs, ``module``'s functions ``names`` are replaced by ``refuse(name,
    original)``."""
    saved = {n: getattr(module, n) for n in names}
    for n, fn in saved.items():
        setattr(module, n, refuse(n, fn))
    try:
        yield
    finally:
        for n, fn in saved.items():
            setattr(module, n, fn)


def _no_host_tensors() -> contextlib.AbstractContextManager[None]:
    """Fail on any tensor made from host data while the block runs."""
    import torch

    def refuse(n: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def made(*args: Any, **kwargs: Any) -> Any:
            if args and isinstance(args[0], torch.Tensor) and n == "asarray":
                return original(*args, **kwargs)  # a tensor's own memory, not host data
            raise AssertionError(f"torch.{n} of host data")

        return made

    names = ("tensor", "as_tensor", "asarray", "scalar_tensor", "from_numpy")
    return _intercepted(torch, names, refuse)


_TORCH_CPU = [d for d in DEVICES if d.backend == "torch" and d.place == "cpu"]


@pytest.mark.parametrize("device", _TORCH_CPU, ids=str)
@pytest.mark.parametrize(
    "group",
    [_operations, _transforms, _random, _rejection, _every_function],
    ids=lambda g: g.__name__,
)
def test_torch_makes_no_tensor_from_host_data(device, group, monkeypatch):
    # Random draws on torch's CPU compute through NumPy or in C and share the result (no
    # copy), a Generator's too; a GPU computes them with torch, the path run here.
    import arraymux.random._core as random_core
    import arraymux.random._generator as random_generator

    monkeypatch.setattr(
        random_core,
        "_on_torch_cpu",
        lambda kernel, k, params, static: kernel(k, *params, *static),
        raising=True,
    )
    monkeypatch.setattr(random_generator, "host_loop", lambda kind, dtype, device: None)
    monkeypatch.setattr(random_core, "_readable", lambda x: False)  # (apply's CPU detour)
    assert _run_all(group(device), _no_host_tensors) == []


def test_torch_writes_numbers_into_views_with_fill(monkeypatch):
    # torch's own x[key] = number makes a tensor of the number and copies it in, which a GPU
    # may wait for; arraymux fills the view instead (checked on the CPU: no number reaches
    # Tensor.__setitem__, and the values are written).
    torch = pytest.importorskip("torch")
    seen: list[type] = []
    original = torch.Tensor.__setitem__

    def spy(self: Any, key: Any, value: Any) -> None:
        seen.append(type(value))
        original(self, key, value)

    monkeypatch.setattr(torch.Tensor, "__setitem__", spy)
    w = xp.asarray([[0.5, -1.5], [2.0, 3.0]], dtype=xp.float32, device="torch:cpu")
    w[0, 1] = 1
    w[1:] = 2.5
    w[..., 0] = True
    assert xp.to_numpy(w).tolist() == [[1.0, 1.0], [1.0, 2.5]]
    assert not set(seen) & {bool, int, float, complex}
    w[xp.asarray([0], device="torch:cpu")] = 7.0  # a gather's selection: torch's own path
    assert xp.to_numpy(w).tolist() == [[7.0, 7.0], [1.0, 2.5]]


def test_the_torch_guard_catches_a_host_tensor():
    torch = pytest.importorskip("torch")
    with pytest.raises(AssertionError, match=r"torch\.tensor of host data"), _no_host_tensors():
        torch.tensor(0.5)


# -- JAX: transfers the native call does not make --------------------------------------------


def _jax_guard() -> Any:
    import jax

    return jax.transfer_guard("disallow")


_JAX = [d for d in DEVICES if d.backend == "jax"]


@pytest.mark.parametrize("device", _JAX, ids=str)
def test_jax_transfers_no_more_than_native(device):
    import jax
    import jax.numpy as jnp

    f = xp.asarray([[0.5, -1.5], [2.0, 3.0]], dtype=xp.float32, device=device)
    i = xp.asarray([1, 2, 7], dtype=xp.int32, device=device)
    # JAX transfers Python scalars itself (x + 1 is a host-to-device copy of the 1), so
    # arraymux is held to what the native call does: no more transfers than it makes.
    pairs = [
        ("add", lambda: f + f, lambda: f.native + f.native),
        ("matmul", lambda: f @ f, lambda: f.native @ f.native),
        ("exp", lambda: xp.exp(f), lambda: jnp.exp(f.native)),
        ("mean axis", lambda: xp.mean(f, axis=0), lambda: jnp.mean(f.native, axis=0)),
        ("x[0]", lambda: f[0], lambda: f.native[0]),
        ("x[:, 1]", lambda: f[:, 1], lambda: f.native[:, 1]),
        ("x * 2", lambda: f * 2, lambda: f.native * 2),
        ("1 / x", lambda: 1 / f, lambda: 1 / f.native),
        ("j ^ 5", lambda: i ^ 5, lambda: i.native ^ 5),
        ("maximum(x, 0.0)", lambda: xp.maximum(f, 0.0), lambda: jnp.maximum(f.native, 0.0)),
        (
            "where",
            lambda: xp.where(f > 0, f, f),
            lambda: jnp.where(f.native > 0, f.native, f.native),
        ),
        ("zeros", lambda: xp.zeros((2, 3), device=device), lambda: jnp.zeros((2, 3))),
        ("astype", lambda: xp.astype(f, xp.int32), lambda: f.native.astype(jnp.int32)),
        ("sum", lambda: xp.sum(f), lambda: jnp.sum(f.native)),
    ]
    for name, ours, native in pairs:
        ours()
        native()
        try:
            with jax.transfer_guard("disallow"):
                native()
        except Exception:
            continue  # the native call transfers too
        with jax.transfer_guard("disallow"):
            ours()  # raises, naming the transfer, if arraymux adds one
        del name


# -- GPUs ----------------------------------------------------------------------------------

_CUDA = [d for d in DEVICES if d.backend == "torch" and d.place.startswith("cuda")]
_JAX_GPU = [d for d in DEVICES if d.backend == "jax" and d.place.startswith("gpu")]
_CUPY = [d for d in DEVICES if d.backend == "cupy"]


@contextlib.contextmanager
def _torch_sync_errors() -> Iterator[None]:
    import torch

    with warnings.catch_warnings():
        # torch says once that the mode is a prototype: a notice, not a synchronisation
        warnings.filterwarnings("ignore", "Synchronization debug mode is a prototype")
        torch.cuda.set_sync_debug_mode("error")
        try:
            yield
        finally:
            torch.cuda.set_sync_debug_mode("default")


@pytest.mark.skipif(not _CUDA, reason="needs a CUDA device (torch:cuda)")
@pytest.mark.parametrize("device", _CUDA, ids=str)
@pytest.mark.parametrize(
    "group", [_operations, _transforms, _random, _every_function], ids=lambda g: g.__name__
)
def test_torch_cuda_never_synchronises(device, group):
    assert _run_all(group(device), _torch_sync_errors) == []


@pytest.mark.skipif(not _CUDA, reason="needs a CUDA device (torch:cuda)")
@pytest.mark.parametrize("device", _CUDA, ids=str)
def test_rejection_loops_read_only_their_flag(device, monkeypatch):
    """A rejection sampler on torch:cuda reads one boolean per round (whether every draw was
    accepted, or whether a branch is needed), and nothing else: each read is let through the
    guard and counted, any other synchronisation fails."""
    import torch

    from arraymux.random import _loop

    reads = []

    def holds(flag: xp.Array) -> bool:
        torch.cuda.set_sync_debug_mode("default")
        try:
            reads.append(flag.device)
            return bool(flag)
        finally:
            torch.cuda.set_sync_debug_mode("error")

    monkeypatch.setattr(_loop, "holds", holds)
    assert _run_all(_rejection(device), _torch_sync_errors) == []
    assert reads and set(reads) == {device}


def test_rejection_loops_read_through_holds(monkeypatch):
    """The CPU guard of the test above: on an eager device the rejection samplers read their
    flags through ``_loop.holds`` only (the counted reads), and give the same draws."""
    from arraymux.random import _loop

    want = [xp.to_numpy(op()) for _, op in _rejection(xp.Device("torch:cpu"))]
    reads = []

    def holds(flag: xp.Array) -> bool:
        reads.append(flag.device)
        return bool(flag)

    monkeypatch.setattr(_loop, "holds", holds)
    got = [xp.to_numpy(op()) for _, op in _rejection(xp.Device("numpy"))]
    assert reads
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(w, g)


@pytest.mark.skipif(not _JAX_GPU, reason="needs a JAX GPU")
@pytest.mark.parametrize("device", _JAX_GPU, ids=str)
def test_jax_gpu_transfers_no_more_than_native(device):
    test_jax_transfers_no_more_than_native(device)


def _jax_transform_pairs(
    device: xp.Device,
) -> list[tuple[str, Callable[[], Any], Callable[[], Any]]]:
    """(name, arraymux call, the same call written with JAX) for each group of ``_transforms``."""
    import jax
    import jax.numpy as jnp

    def loss(w: Any, x: Any) -> Any:
        z = x @ w
        return jnp.mean(1 / (1 + jnp.exp(-z)) * 0.5 + jnp.maximum(z, 0.0) ** 2)

    def step(w: Any, x: Any) -> Any:
        return jnp.tanh(x @ w) * 2.0 - 1.0

    w = xp.asarray([0.5, -1.0, 2.0], dtype=xp.float32, device=device)
    x = xp.asarray([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], dtype=xp.float32, device=device)
    n, m, ones = w.native, x.native, xp.ones((2,), device=device).native
    natives = {
        "grad": lambda: jax.grad(loss)(n, m),
        "value_and_grad": lambda: jax.value_and_grad(loss)(n, m),
        "vjp": lambda: jax.vjp(step, n, m)[1](ones),
        "jvp": lambda: jax.jvp(lambda w: step(w, m), (n,), (n,)),
        "vmap": lambda: jax.vmap(lambda r: step(n, r))(m),
        "checkpoint": lambda: jax.grad(jax.checkpoint(loss))(n, m),
    }
    ours = dict(_transforms(device))
    assert ours.keys() == natives.keys()
    return [(name, ours[name], natives[name]) for name in natives]


def _transfers_beyond_native(
    pairs: list[tuple[str, Callable[[], Any], Callable[[], Any]]],
) -> list[str]:
    """The names of the pairs whose arraymux call transfers under ``jax.transfer_guard`` where
    the native call does not (JAX moves a Python constant to the device itself in eager
    transforms: ``jax.grad`` of ``x + 1`` copies the 1)."""
    native_free = [
        (name, ours) for name, ours, native in pairs if not _run_all([(name, native)], _jax_guard)
    ]
    return _run_all(native_free, _jax_guard)


@pytest.mark.parametrize("device", _JAX, ids=str)
def test_jax_transforms_transfer_no_more_than_native(device):
    assert _transfers_beyond_native(_jax_transform_pairs(device)) == []


#: The functions whose own jax.numpy version moves a constant to the device (its correction).
_JAX_NATIVE_TRANSFERS = ("std", "var")


@pytest.mark.parametrize("device", _JAX, ids=str)
def test_jax_every_function_transfers_no_more_than_native(device):
    # JAX moves a Python number to the device itself (jnp.add(x, 1.5) transfers the 1.5):
    # the calls with arrays alone must not transfer, as jax.numpy's own do not (the special
    # cases' constants are compiled into the fixes), but where jax.numpy's own moves one too.
    ops = [
        (n, op)
        for n, op in _every_function(device)
        if "1.5" not in n and n.split("(")[0] not in _JAX_NATIVE_TRANSFERS
    ]
    assert len(ops) > 100
    assert _run_all(ops, _jax_guard) == []


def test_jax_numpys_own_std_and_var_move_their_correction():
    # The exception above holds while jax.numpy's own functions transfer: once they do not,
    # arraymux's must not either.
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    f = jnp.asarray([[0.5, -1.5], [2.0, 0.25]], dtype=jnp.float32)
    for name in _JAX_NATIVE_TRANSFERS:
        getattr(jnp, name)(f)
        assert _run_all([(name, lambda n=name: getattr(jnp, n)(f))], _jax_guard), name


@pytest.mark.parametrize("device", _JAX, ids=str)
def test_jax_random_does_not_transfer(device):
    assert _run_all([*_random(device), *_rejection(device)], _jax_guard) == []


def test_the_jax_comparison_catches_a_transfer():
    # A call that moves host data where its native twin moves none is reported.
    jnp = pytest.importorskip("jax.numpy")
    import numpy as np

    dev = next(iter(_JAX), None)
    if dev is None:
        pytest.skip("needs JAX")
    x = xp.asarray([1.0, 2.0], device=dev)
    pairs = [("upload", lambda: x.native + jnp.asarray(np.ones(2)), lambda: x.native + x.native)]
    assert [f.split(":")[0] for f in _transfers_beyond_native(pairs)] == ["upload"]


@pytest.mark.skipif(not _JAX_GPU, reason="needs a JAX GPU")
@pytest.mark.parametrize("device", _JAX_GPU, ids=str)
def test_jax_gpu_transforms_and_random_transfer_no_more_than_native(device):
    # The draws of keys already on the GPU move nothing from the host; the transforms move
    # no more than JAX's own (their Python constants as JAX moves them).
    test_jax_transforms_transfer_no_more_than_native(device)
    test_jax_random_does_not_transfer(device)


def _no_cupy_uploads() -> contextlib.AbstractContextManager[None]:
    """Fail on any CuPy array made from host data while the block runs."""
    import cupy
    import numpy as np

    def refuse(n: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def made(obj: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(obj, np.ndarray | list | tuple | int | float | complex | bool):
                raise AssertionError(f"cupy.{n} of host data")
            return original(obj, *args, **kwargs)

        return made

    return _intercepted(cupy, ("asarray", "array"), refuse)


@pytest.mark.skipif(not _CUPY, reason="needs CuPy and a GPU")
@pytest.mark.parametrize("device", _CUPY, ids=str)
@pytest.mark.parametrize(
    "group",
    [_operations, _transforms, _random, _rejection, _every_function],
    ids=lambda g: g.__name__,
)
def test_cupy_uploads_no_host_data(device, group):
    assert _run_all(group(device), _no_cupy_uploads) == []


@pytest.mark.parametrize(
    ("dtype", "lo", "hi"),
    [
        ("float32", 0.0, 1.0),
        ("float64", None, 0.5),
        ("float32", -1, None),
        ("float64", float("nan"), 1.0),
        ("int8", -5, 100),
        ("int8", -1000, 1000),  # beyond the range: no bound, as array-api-compat
        ("uint8", 2, None),
        ("int64", None, -3),
    ],
)
def test_clip_passes_scalar_bounds_to_the_kernel(dtype, lo, hi):
    # CuPy's clip (and NumPy's) take Python bounds as kernel scalars: array-api-compat's
    # makes each an array from host data (an upload on a GPU) and assigns through boolean
    # masks (a synchronisation). The same helper serves both; here it runs on NumPy, with
    # the compat path refused, and must give compat's answer.
    import array_api_compat.numpy as compat
    import numpy as np

    from arraymux._backends._common import clip

    def refused(*args: Any) -> Any:
        raise AssertionError("array-api-compat's clip, which uploads its bounds")

    x = np.asarray([-7, 0, 1, 3, 120]).astype(dtype)
    got = clip(np, refused)(x, lo, hi)
    want = compat.clip(x, lo, hi)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, want)


def test_clip_leaves_other_bounds_to_array_api_compat():
    import numpy as np

    from arraymux._backends._common import clip

    calls = []

    def base(x: Any, lo: Any, hi: Any) -> Any:
        calls.append((lo, hi))
        return x

    x = np.asarray([1, 2], dtype=np.int8)
    for lo, hi in [(0.5, None), (np.asarray([1, 1], dtype=np.int8), None), (300, None)]:
        clip(np, base)(x, lo, hi)
    assert len(calls) == 3


@pytest.mark.parametrize("device", _TORCH_CPU, ids=str)
def test_torch_maximum_with_a_scalar_fills_no_tensor(device, monkeypatch):
    # maximum(x, 0.0) runs as torch.clamp(x, min=0.0): no 0-d tensor is filled for the 0.0
    # (on a GPU, a kernel of its own per call); NaN, in the bound or in x, gives NaN.
    import torch

    nan = float("nan")
    f = xp.asarray([0.5, -1.5, nan], dtype=xp.float32, device=device)
    i = xp.asarray([1, 5, -3], dtype=xp.int16, device=device)
    cases = [
        (lambda: xp.maximum(f, 0.0), [0.5, 0.0, nan]),
        (lambda: xp.minimum(0.0, f), [0.0, -1.5, nan]),
        (lambda: xp.maximum(f, nan), [nan, nan, nan]),
        (lambda: xp.minimum(f, nan), [nan, nan, nan]),
        (lambda: xp.maximum(i, 2), [2, 5, 2]),
        (lambda: xp.minimum(i, 2), [1, 2, -3]),
    ]
    for op, _ in cases:
        op()  # plans are made on first use
    full = torch.full

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a tensor filled for a Python scalar")

    monkeypatch.setattr(torch, "full", refused)
    filling_none = [cases[i] for i in (0, 1, 4, 5)]  # a NaN bound fills the result itself
    results = [(op(), want) for op, want in filling_none]
    monkeypatch.setattr(torch, "full", full)
    results += [(op(), want) for op, want in (cases[2], cases[3])]
    for r, want in results:
        assert r.dtype == (xp.int16 if isinstance(want[0], int) else xp.float32)
        assert xp.to_numpy(r).tolist() == pytest.approx(want, nan_ok=True)
    # Where torch has no clamp (bool, unsigned) or beside 0-d arrays, torch.maximum and
    # torch.minimum compute as before.
    b = xp.asarray([True, False], device=device)
    assert xp.to_numpy(xp.minimum(b, True)).tolist() == [True, False]
    u = xp.asarray([1, 5], dtype=xp.uint32, device=device)
    assert xp.to_numpy(xp.maximum(u, 2)).tolist() == [2, 5]
    z = xp.maximum(xp.asarray(-1.0, dtype=xp.float32, device=device), 0.0)
    assert z.dtype == xp.float32 and float(z) == 0.0
