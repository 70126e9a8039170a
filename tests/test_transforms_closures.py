"""Closures as constants under every transform, stop_gradient, the tree utilities, and
arraymux inside the user's own torch.compile and jax.jit.

Each test runs on every device of the ``device`` fixture; on the backends without an engine
(Dask, array-api-strict) the transforms refuse, and stop_gradient and the tree utilities work
as they do everywhere.
"""

from __future__ import annotations

import collections
import dataclasses
import importlib.util
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import arraymux as xp
from _transform_checks import NEEDS_JAX, NEEDS_TORCH, TORCH_SCRIPT_WARNINGS, arr, close

pytestmark = TORCH_SCRIPT_WARNINGS


A_NP = np.array([[1.0, -2.0, 0.5, 0.0], [0.3, 0.2, -0.1, 1.0], [2.0, 0.0, 1.0, -1.0]])
W_NP = np.array([0.5, -0.25, 1.0, 2.0])


def engine(device: xp.Device) -> bool:
    """Whether transforms run for arrays of ``device``."""
    return device.backend in ("numpy", "torch", "jax", "cupy")


def refused(device, call):
    with pytest.raises(xp.TransformUnavailableError, match="no autodiff or tracing engine"):
        call()


# -- closures ---------------------------------------------------------------------------------


def test_the_reproducer_of_a_loss_closing_over_numpy_data():
    A = xp.asarray(np.ones((3, 4), np.float32))
    w = xp.asarray(np.ones(4, np.float32))
    g = xp.grad(lambda w: xp.sum(xp.tanh(xp.matmul(A, w))))(w)
    assert g.device == xp.Device("numpy") and g.dtype == xp.float32
    close(g, 3 * (1 - np.tanh(4.0) ** 2) * np.ones(4))


def _tanh_loss_grad():
    t = np.tanh(A_NP @ W_NP)
    return A_NP.T @ (1 - t**2)


CASES = {
    "grad": (
        lambda A, w: xp.grad(lambda w: xp.sum(xp.tanh(A @ w)))(w),
        _tanh_loss_grad(),
    ),
    "value_and_grad": (
        lambda A, w: xp.value_and_grad(lambda w: xp.sum(xp.tanh(A @ w)))(w)[1],
        _tanh_loss_grad(),
    ),
    "grad-has_aux": (
        # The closure itself returned as aux: a constant, on the arguments' device.
        lambda A, w: xp.grad(lambda w: (xp.sum(A @ w), A), has_aux=True)(w),
        (A_NP.sum(axis=0), A_NP),
    ),
    "vjp": (
        lambda A, w: xp.vjp(lambda w: A @ w, w)[1](A @ w)[0],
        A_NP.T @ (A_NP @ W_NP),
    ),
    "jvp": (lambda A, w: xp.jvp(lambda w: A @ w, (w,), (w * 0 + 1,))[1], A_NP.sum(axis=1)),
    "jacobian": (lambda A, w: xp.jacobian(lambda w: xp.tanh(A @ w) * 0 + A @ w)(w), A_NP),
    "hessian": (lambda A, w: xp.hessian(lambda w: xp.sum((A @ w) ** 2))(w), 2 * A_NP.T @ A_NP),
    "vmap": (
        lambda A, w: xp.vmap(lambda row: xp.sum(row * w))(A),  # w closed over, rows mapped
        A_NP @ W_NP,
    ),
    "vmap-closure-first": (
        lambda A, w: xp.vmap(lambda v: A @ v)(xp.stack([w, 2 * w])),
        np.stack([A_NP @ W_NP, 2 * A_NP @ W_NP]),
    ),
    "jit": (lambda A, w: xp.jit(lambda w: A @ w)(w), A_NP @ W_NP),
    "checkpoint": (
        lambda A, w: xp.grad(lambda w: xp.sum(xp.checkpoint(lambda v: xp.tanh(A @ v))(w)))(w),
        _tanh_loss_grad(),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_closures_are_constants_under_every_transform(device, case):
    run, expected = CASES[case]
    A, w = arr(A_NP, device), arr(W_NP, device)
    if not engine(device):
        refused(device, lambda: run(A, w))
        return
    out = run(A, w)
    results = out if isinstance(out, tuple) else (out,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for got, want in zip(results, expected):
        assert got.device == w.device, case
        close(got, want, tol=1e-4)


def test_closures_inside_on_device(device):
    """The crossed function's closures are on its own device; the caller's are on the
    caller's, including inside a transform of either."""
    A, w = arr(A_NP, device), arr(W_NP, device)
    inner = xp.on_device(lambda v: xp.sum(xp.tanh(A @ v)), device)
    close(inner(w), np.sum(np.tanh(A_NP @ W_NP)))
    if not engine(device):
        refused(device, lambda: xp.grad(inner)(w))
        return
    close(xp.grad(inner)(w), _tanh_loss_grad(), tol=1e-4)


def test_checkpoint_recomputes_in_the_transforms_state(device):
    """The recomputation of a checkpoint sees the transform's device and constants, also where
    torch runs the backward pass on a thread of its own (GPU tensors)."""
    A, w = arr(A_NP, device), arr(W_NP, device)
    block = xp.checkpoint(lambda v: xp.tanh(A @ v) * xp.ones(3, dtype=xp.float32))
    if not engine(device):
        refused(device, lambda: xp.grad(lambda v: xp.sum(block(v)))(w))
        return
    close(xp.grad(lambda v: xp.sum(block(v)))(w), _tanh_loss_grad(), tol=1e-4)
    close(xp.jacobian(block)(w), A_NP * (1 - np.tanh(A_NP @ W_NP) ** 2)[:, None], tol=1e-4)


@NEEDS_TORCH
def test_on_device_to_numpy_inside_a_torch_transform_sees_numpy_closures():
    A = arr(A_NP, "numpy")
    f = xp.on_device(lambda v: xp.sum(xp.tanh(A @ v)), "numpy")
    g = xp.grad(f)(arr(W_NP, "torch:cpu"))
    assert g.device == xp.Device("torch:cpu")
    close(g, _tanh_loss_grad(), tol=1e-4)


@NEEDS_TORCH
def test_closures_meet_the_arguments_in_every_kind_of_call():
    A, w = arr(A_NP, "numpy"), arr(W_NP, "numpy")
    idx = xp.asarray(np.array([2, 0]))

    def f(w):
        a = xp.where(A[0] > 0, w, A[1])  # the generic path, the closure first and last
        b = xp.stack([A[2], w])  # a sequence with the closure first
        c = xp.concat([w, A[0]])
        d = xp.zeros((2, 4))
        d[0] = A[0]  # the closure written into an array of the transform
        d[1] = w
        e = xp.take(w, idx) * A[idx, 0]  # an index of the closure's device: converted
        h = xp.sum(A[0][xp.argsort(w)]) * w[0]  # the closure indexed by the transform's array
        return xp.sum(a) + xp.sum(b * b) + xp.sum(c) + xp.sum(d * w) + xp.sum(e) + h + A[0, 0] * 0

    g = xp.grad(f)(w)
    mask = A_NP[0] > 0
    expected = mask + 2 * W_NP + 1 + A_NP[0] + 2 * W_NP
    expected[2] += A_NP[2, 0]
    expected[0] += A_NP[0, 0] + A_NP[0].sum()
    close(g, expected)


@NEEDS_TORCH
def test_a_constant_indexed_by_an_array_of_the_transform():
    table = arr(np.arange(12.0).reshape(4, 3), "numpy")
    rows = xp.vmap(lambda i: table[i])(xp.asarray(np.array([3, 1])))
    assert rows.device == xp.Device("numpy")
    close(rows, np.arange(12.0).reshape(4, 3)[[3, 1]])


@NEEDS_TORCH
def test_numpy_closures_cross_to_torch_without_a_copy(monkeypatch):
    from arraymux.transforms import _torch

    seen = []
    to_engine = _torch.to_engine

    def spy(native):
        out = to_engine(native)
        seen.append((native, out))
        return out

    monkeypatch.setattr(_torch, "to_engine", spy)
    A = arr(A_NP, "numpy")
    xp.grad(lambda w: xp.sum(A @ w))(arr(W_NP, "numpy"))
    crossed = [(n, t) for n, t in seen if n is A.native]
    assert crossed, "the closure did not cross where it met the argument"
    for native, tensor in crossed:
        assert tensor.data_ptr() == native.ctypes.data
        assert not tensor.requires_grad


def test_gradients_only_for_the_arguments(device):
    """The same array as the argument and as a closure: only the argument's place is
    differentiated (JAX's semantics)."""
    A = arr(A_NP, device)
    if not engine(device):
        refused(device, lambda: xp.grad(lambda m: xp.sum(m * A))(A))
        return
    close(xp.grad(lambda m: xp.sum(m * A))(A), A_NP)
    g, aux = xp.grad(lambda m: (xp.sum(m * A * A), xp.sum(A)), has_aux=True)(A)
    close(g, A_NP**2)
    close(aux, A_NP.sum())


@NEEDS_TORCH
def test_a_transform_inside_a_transform_of_numpy_arrays_keeps_the_derivatives():
    """The inner transform's arguments are NumPy arrays and its function closes over what the
    outer one differentiates: it computes with torch, and its results stay torch tensors of
    the outer computation (moved to NumPy, they would lose their derivatives)."""
    A, w = arr(A_NP, "numpy"), arr(W_NP, "numpy")

    def outer(v):
        per_row = xp.vmap(lambda row: xp.sum(row * v))(A)
        pulled = xp.vjp(lambda u: u * v, A[0])[1](A[1])[0]
        tangent = xp.jvp(lambda u: u * v, (A[0],), (A[1],))[1]
        inner = xp.grad(lambda u: xp.sum(u * v * v))(A[2])
        return xp.sum(per_row) + xp.sum(pulled) + xp.sum(tangent) + xp.sum(inner)

    g = xp.grad(outer)(w)
    assert g.device == xp.Device("numpy")
    close(g, A_NP.sum(axis=0) + 2 * A_NP[1] + 2 * W_NP)


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("jax") is None,
    reason="torch and jax",
)
def test_closures_on_another_backend_still_raise():
    w_np, w_torch, w_jax = arr(W_NP, "numpy"), arr(W_NP, "torch:cpu"), arr(W_NP, "jax:cpu")
    A_np, A_torch, A_jax = arr(A_NP, "numpy"), arr(A_NP, "torch:cpu"), arr(A_NP, "jax:cpu")
    for A, w in ((A_jax, w_np), (A_np, w_torch), (A_np, w_jax), (A_torch, w_jax)):
        with pytest.raises(xp.BackendMismatchError, match="enclosing scope") as info:
            xp.grad(lambda w, A=A: xp.sum(A @ w))(w)
        assert str(A.device) in str(info.value)
        with pytest.raises(xp.BackendMismatchError):
            xp.vmap(lambda w, A=A: A @ w)(xp.stack([w, w]))


@NEEDS_JAX
def test_a_closure_on_another_jax_device_raises():
    code = textwrap.dedent(
        """
        import arraymux as xp
        a = xp.ones(3, device="jax:cpu:1")
        try:
            xp.grad(lambda w: xp.sum(a * w))(xp.ones(3, device="jax:cpu:0"))
        except xp.DeviceMismatchError as e:
            print("raised", "jax:cpu:1" in str(e))
        """
    )
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2")
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert res.stdout.split() == ["raised", "True"], res.stderr[-2000:]


# -- stop_gradient ----------------------------------------------------------------------------


def test_stop_gradient_stops_every_order(device):
    x = arr([1.0, 3.0], device)

    def f(x):
        return xp.sum(x * xp.stop_gradient(x) ** 2)

    if not engine(device):
        refused(device, lambda: xp.grad(f)(x))
        return
    close(xp.grad(f)(x), [1.0, 9.0])
    close(xp.hessian(f)(x), np.zeros((2, 2)))
    close(xp.jvp(f, (x,), (xp.ones_like(x),))[1], 10.0)
    close(xp.jacobian(lambda x: xp.stop_gradient(x) * x)(x), np.diag([1.0, 3.0]))
    close(xp.vmap(lambda r: xp.grad(f)(r))(xp.stack([x, 2 * x])), [[1.0, 9.0], [4.0, 36.0]])


def test_stop_gradient_keeps_value_dtype_and_device(device):
    x = arr([1.5, -2.0], device)
    y = xp.stop_gradient(x)
    assert type(y) is xp.Array and y.device == x.device and y.dtype == x.dtype
    close(y, [1.5, -2.0])
    tree = xp.stop_gradient({"a": x, "b": [x, 2.0, None]})
    assert tree["b"][1:] == [2.0, None]
    close(tree["b"][0], [1.5, -2.0])
    native = xp.stop_gradient(x.native)
    assert type(native) is xp.Array and native.device == x.device
    if device.backend in ("numpy", "dask", "array_api_strict"):  # nothing to stop: as it is
        assert y is x


def test_stop_gradient_refuses_a_native_array_of_no_standard_dtype():
    # It wrapped a NumPy string array as an Array whose dtype no one could read.
    with pytest.raises(TypeError, match=r"arraymux\.stop_gradient: an array of dtype <U1"):
        xp.stop_gradient(np.array(["a"]))
    with pytest.raises(TypeError, match=r"arraymux\.stop_gradient"):
        xp.stop_gradient({"w": np.array([1.0], dtype=np.float16)})


@NEEDS_TORCH
def test_stop_gradient_of_a_tensor_that_requires_grad():
    import torch

    t = torch.ones(3, requires_grad=True)
    y = xp.stop_gradient(xp.asarray(t))
    assert not y.native.requires_grad
    assert y.native.data_ptr() == t.data_ptr()


@NEEDS_TORCH
def test_stop_gradient_compiles_under_jit():
    x = arr([1.0, 3.0], "torch:cpu")
    f = xp.jit(xp.grad(lambda x: xp.sum(x * xp.stop_gradient(x))))
    close(f(x), [1.0, 3.0])
    close(f(2 * x), [2.0, 6.0])


# -- tree utilities ---------------------------------------------------------------------------

Point = collections.namedtuple("Point", ["x", "y"])


def test_flatten_and_unflatten():
    tree = {"a": [1, (2, 3)], "b": None, "c": Point(4, {"d": 5})}
    leaves, treedef = xp.tree_flatten(tree)
    assert leaves == [1, 2, 3, None, 4, 5]
    assert treedef.num_leaves == 6
    assert xp.tree_unflatten(treedef, leaves) == tree
    assert xp.tree_leaves(tree) == leaves
    assert xp.tree_structure(tree) == treedef
    assert hash(xp.tree_structure(tree)) == hash(treedef)
    assert repr(treedef) == "TreeDef({'a': [*, (*, *)], 'b': *, 'c': Point(x=*, y={'d': *})})"
    assert xp.tree_structure((1,)) != xp.tree_structure([1])
    assert xp.tree_structure({"a": 1, "b": 2}) != xp.tree_structure({"b": 1, "a": 2})
    rebuilt = treedef.unflatten(range(6))
    assert type(rebuilt["c"]) is Point and rebuilt["c"].y == {"d": 5}
    assert xp.tree_leaves([[1], [2, [3]]], is_leaf=lambda t: t == [2, [3]]) == [1, [2, [3]]]


def test_tree_leaves_of_arrays(device):
    params = {"w": xp.ones((2, 3), device=device), "b": xp.zeros(3, device=device)}
    leaves = xp.tree_leaves(params)
    assert [tuple(x.shape) for x in leaves] == [(2, 3), (3,)]
    assert all(type(x) is xp.Array for x in leaves)  # an Array is a leaf


def test_tree_map_of_several_trees(device):
    p = {"w": arr([1.0, 2.0], device), "b": arr(0.5, device)}
    g = {"b": arr(1.0, device), "w": arr([10.0, 20.0], device)}  # another key order
    out = xp.tree_map(lambda a, b: a - 0.1 * b, p, g)
    assert list(out) == ["w", "b"]
    close(out["w"], [0.0, 0.0])
    close(out["b"], 0.4)
    # Where the first tree has a leaf, the others may have any subtree.
    assert xp.tree_map(lambda a, b: (a, b), [1, 2], [[3], {"k": 4}]) == [(1, [3]), (2, {"k": 4})]


def test_tree_errors():
    with pytest.raises(ValueError, match=r"tree_map: tree 1 .* at \['a'\]"):
        xp.tree_map(lambda a, b: a, {"a": [1, 2]}, {"a": [1]})
    with pytest.raises(ValueError, match="tree 2"):
        xp.tree_map(lambda a, b, c: a, {"a": 1}, {"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match=r"tree_map: tree 1 .* at the top"):
        xp.tree_map(lambda a, b: a, (1, 2), [1, 2])
    with pytest.raises(TypeError, match="tree_map: expected a function"):
        xp.tree_map(1, [1])
    _, treedef = xp.tree_flatten([1, 2])
    with pytest.raises(ValueError, match="has 2 leaves, but 3 were given"):
        xp.tree_unflatten(treedef, [1, 2, 3])
    with pytest.raises(TypeError, match="treedef must be a TreeDef"):
        xp.tree_unflatten([1, 2], [1, 2])
    # is_leaf given something that is not a function (an array, by position): named at once
    for fn in (xp.tree_flatten, xp.tree_leaves, xp.tree_structure):
        with pytest.raises(TypeError, match=rf"arraymux\.{fn.__name__}: is_leaf must be a"):
            fn([1, 2], xp.ones(2))
    with pytest.raises(TypeError, match=r"arraymux\.tree_map: is_leaf .* not int"):
        xp.tree_map(lambda a: a, [1], is_leaf=3)
    assert xp.tree_leaves([1, (2, 3)], None) == [1, 2, 3]


class Pair:
    """A user's class registered with register_tree_node."""

    def __init__(self, first, second):
        self.first, self.second = first, second


xp.register_tree_node(Pair, lambda p: ((p.first, p.second), None), lambda _, ch: Pair(*ch))


@xp.register_dataclass
@dataclasses.dataclass
class Layer:
    """A user's dataclass: two data fields and one fixed one."""

    w: object
    b: object
    scale: float = dataclasses.field(default=1.0, metadata={"static": True})


@dataclasses.dataclass(frozen=True)
class Frozen:
    w: object
    name: str


xp.register_dataclass(Frozen, meta_fields=["name"])


def test_registration_errors():
    with pytest.raises(TypeError, match="register_tree_node: expected a class"):
        xp.register_tree_node(Pair(1, 2), lambda p: ((), None), lambda a, c: None)
    with pytest.raises(TypeError, match="dict is already a node"):
        xp.register_tree_node(dict, lambda p: ((), None), lambda a, c: None)
    with pytest.raises(TypeError, match="Array is already a leaf"):
        xp.register_tree_node(xp.Array, lambda p: ((), None), lambda a, c: None)
    with pytest.raises(ValueError, match="registered as a pytree node already"):
        xp.register_tree_node(Pair, lambda p: ((), None), lambda a, c: None)
    with pytest.raises(TypeError, match="flatten and unflatten must be functions"):
        xp.register_tree_node(type("Other", (), {}), None, None)
    with pytest.raises(TypeError, match="is not a dataclass"):
        xp.register_dataclass(type("NotData", (), {}))

    @dataclasses.dataclass
    class Two:
        a: object
        b: object

    with pytest.raises(ValueError, match=r"must split the fields .* \['a', 'b'\]"):
        xp.register_dataclass(Two, data_fields=["a"], meta_fields=["c"])


def test_registered_classes_are_nodes_of_the_tree_utilities():
    tree = [Pair(1, Layer(2, 3, scale=4.0)), Frozen(5, "f")]
    leaves, treedef = xp.tree_flatten(tree)
    assert leaves == [1, 2, 3, 5]
    assert repr(treedef) == "TreeDef([Pair(*, Layer(w=*, b=*)), Frozen(w=*)])"
    rebuilt = xp.tree_unflatten(treedef, [10, 20, 30, 50])
    assert rebuilt[0].second == Layer(20, 30, scale=4.0) and rebuilt[1] == Frozen(50, "f")
    assert xp.tree_structure(Frozen(1, "f")) != xp.tree_structure(Frozen(1, "g"))
    with pytest.raises(ValueError, match="tree 1"):
        xp.tree_map(lambda a, b: a, Frozen(1, "f"), Frozen(1, "g"))


def test_registered_classes_pass_through_the_transforms(device):
    w, x = arr([1.0, 2.0], device), arr([3.0, 4.0], device)
    params = Pair(Layer(w, arr(0.5, device), scale=2.0), Frozen(w * 0 + 1, "g"))

    def loss(p, x):
        layer = p.first
        return xp.sum(layer.scale * (layer.w * x + layer.b) * p.second.w)

    if not engine(device):
        refused(device, lambda: xp.grad(loss)(params, x))
        return
    g = xp.grad(loss)(params, x)
    assert type(g) is Pair and type(g.first) is Layer and g.first.scale == 2.0
    assert g.second.name == "g"
    close(g.first.w, [6.0, 8.0])
    close(g.first.b, 4.0)
    close(g.second.w, 2 * (np.array([1.0, 2.0]) * [3.0, 4.0] + 0.5))
    value, g2 = xp.value_and_grad(loss)(params, x)
    close(value, 2 * (3 + 8 + 1))
    close(g2.first.w, [6.0, 8.0])
    batched = xp.vmap(lambda layer: layer.w * layer.b)(
        Layer(xp.stack([w, 2 * w]), xp.stack([w, w]))
    )
    close(batched, [[1.0, 4.0], [2.0, 8.0]])
    out = xp.vmap(lambda v: Pair(v, 2 * v))(w)
    assert type(out) is Pair
    close(out.second, [2.0, 4.0])
    jitted = xp.jit(lambda p: Layer(p.w * p.scale, p.b, p.scale))
    for scale in (2.0, 3.0):  # a fixed field: part of the structure
        res = jitted(Layer(w, x, scale=scale))
        assert type(res) is Layer and res.scale == scale
        close(res.w, [scale, 2 * scale])
    pulled = xp.vjp(lambda p: p.first * p.second, Pair(w, x))[1](xp.ones_like(w))[0]
    assert type(pulled) is Pair
    close(pulled.first, [3.0, 4.0])
    tangent = xp.jvp(lambda p: p.first * p.second, (Pair(w, x),), (Pair(w, w),))[1]
    close(tangent, [4.0, 12.0])


def test_registered_classes_cross_devices(device):
    crossed = xp.on_device(lambda p: Pair(Frozen(p.first.w + 1, p.first.name), p.second), device)
    res = crossed(Pair(Frozen(arr([1.0], device), "label"), 7))
    assert type(res) is Pair and res.first.name == "label" and res.second == 7
    close(res.first.w, [2.0])


@NEEDS_TORCH
@NEEDS_JAX
def test_registered_classes_are_registered_with_the_engines():
    import jax
    import torch.utils._pytree as pytree

    xp.asarray(1.0, device="torch:cpu")
    xp.asarray(1.0, device="jax:cpu")
    assert pytree.tree_leaves(Pair(1, Layer(2, 3))) == [1, 2, 3]
    assert jax.tree_util.tree_leaves(Pair(1, Frozen(2, "x"))) == [1, 2]


# -- arraymux inside the user's compiled code -------------------------------------------------


def _fresh(code: str, tmp_path, timeout: int = 500) -> list[str]:
    """The printed words of ``code`` run in a fresh process, where no arraymux backend is
    loaded yet (a cache of its own for inductor: the same time whatever ran before)."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path))
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout.split()


USER_LIBRARY = textwrap.dedent(
    """
    import warnings; warnings.simplefilter("ignore")
    import arraymux as xp

    def softplus_energy(t):  # what a library writes: a native tensor in, one out
        x = xp.asarray(t)
        y = xp.log(1 + xp.exp(x)) * 2 - xp.stop_gradient(x)
        return xp.sum(xp.tanh(y) * x).native
    """
)


@NEEDS_TORCH
@pytest.mark.timeout(900)
@pytest.mark.parametrize("first", ["arraymux", "dynamo"])
def test_torch_compile_of_user_code_that_calls_arraymux(tmp_path, first):
    """A library function of tensors written with arraymux compiles in one graph under the
    user's torch.compile(fullgraph=True), its first use of arraymux's torch backend included
    (arraymux imported before dynamo or after it), with the results of the eager call."""
    imports = (
        "import torch, torch._dynamo\n" if first == "dynamo" else "import torch\n"
    ) + USER_LIBRARY
    code = imports + textwrap.dedent(
        """
    t = torch.linspace(-1, 1, 5)
    compiled = torch.compile(lambda t: xp.sum(xp.tanh(xp.asarray(t)) * 2).native, fullgraph=True)
    first = compiled(t)
    energy = torch.compile(softplus_energy, fullgraph=True)(t)
    explained = torch._dynamo.explain(softplus_energy)(t)
    eager = softplus_energy(t)
    print(
        torch.allclose(first, torch.sum(torch.tanh(t)) * 2),
        torch.allclose(energy, eager),
        explained.graph_count,
        explained.graph_break_count,
    )
    """
    )
    assert _fresh(code, tmp_path) == ["True", "True", "1", "0"]


@NEEDS_JAX
@pytest.mark.timeout(600)
def test_jax_jit_of_user_code_that_calls_arraymux(tmp_path):
    code = USER_LIBRARY + textwrap.dedent(
        """
    import jax, jax.numpy as jnp
    a = jnp.linspace(-1, 1, 5)
    traces = []
    def counted(a):
        traces.append(1)
        return softplus_energy(a)
    f = jax.jit(counted)
    first, again = f(a), f(a + 1)
    eager = softplus_energy(a)
    print(bool(jnp.allclose(first, eager)), len(traces), type(first).__name__)
    """
    )
    assert _fresh(code, tmp_path) == ["True", "1", "ArrayImpl"]
