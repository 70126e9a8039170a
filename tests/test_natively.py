"""``xp.natively`` and ``xp.call_natively``: a function of native arrays called on Arrays."""

from __future__ import annotations

import collections
import functools

import numpy as np
import pytest

import arraymux as xp

Pair = collections.namedtuple("Pair", ["first", "second"])


class Result(dict):
    """A dict subclass (as SciPy's ``OptimizeResult``)."""


def _native_type(device: xp.Device) -> type:
    return type(xp.asarray([1.0], device=device).native)


def test_arguments_are_unwrapped_at_any_depth(device):
    x = xp.asarray([1.0, 2.0], device=device)
    seen = {}

    def fun(a, pair, *, nested, scale):
        seen.update(a=a, pair=pair, nested=nested, scale=scale)
        return None

    assert xp.call_natively(fun, x, Pair(x, 3), nested={"k": [x, (x, "s")]}, scale=2.5) is None
    native = _native_type(device)
    assert type(seen["a"]) is native
    assert type(seen["pair"]) is Pair and type(seen["pair"].first) is native
    assert seen["pair"].second == 3
    inner = seen["nested"]["k"]
    assert type(inner) is list and type(inner[0]) is native
    assert type(inner[1]) is tuple and type(inner[1][0]) is native and inner[1][1] == "s"
    assert seen["scale"] == 2.5
    assert seen["a"] is x.native


def test_results_are_wrapped_on_their_device_without_a_copy(device):
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    kept = {}

    def fun(a):
        kept["a"] = a
        return a, [a, 7], {"a": a, "name": "n"}, Pair(a, None)

    out = xp.natively(fun)(x)
    assert type(out) is tuple and len(out) == 4
    for r in (out[0], out[1][0], out[2]["a"], out[3].first):
        assert type(r) is xp.Array
        assert r.device == device
        assert r.native is kept["a"]  # wrapped, not copied
    assert out[1][1] == 7 and out[2]["name"] == "n" and out[3].second is None
    assert type(out[3]) is Pair


def test_a_function_of_the_backends_own_arrays(device):
    """A function written for one backend's arrays runs on that backend's native arrays and
    its result comes back as an Array beside the input."""
    x = xp.asarray([0.25, 0.5, 1.0], device=device)
    ns = x.native.__array_namespace__() if hasattr(x.native, "__array_namespace__") else None
    if ns is None:
        import array_api_compat

        ns = array_api_compat.array_namespace(x.native)
    out = xp.natively(ns.exp)(x)
    assert out.device == device
    xp.testing.assert_close(out, xp.exp(x))


def test_the_result_device_is_the_natives_own():
    """A function that returns a NumPy array for a tensor gives an Array on numpy:cpu: the
    result is where the function put it, and arraymux never moves it."""
    x = xp.asarray([1.0, 2.0], device="torch:cpu")
    out = xp.call_natively(lambda t: t.numpy() * 2, x)
    assert out.device == xp.Device("numpy:cpu")
    assert xp.to_numpy(out).tolist() == [2.0, 4.0]


def test_other_values_pass_through_unchanged():
    x = xp.asarray([1.0, 2.0], device="torch:cpu")
    half = np.float16(0.5)
    out = xp.call_natively(lambda t: (np.float64(2.0), t.numpy().astype(np.float16), half, "s"), x)
    assert type(out[0]) is np.float64  # a NumPy scalar, not NumPy's 0-d result here
    assert type(out[1]) is np.ndarray and out[1].dtype == np.float16  # a dtype arraymux lacks
    assert out[2] is half and out[3] == "s"


def test_numpy_scalars_are_numpys_0d_results_for_numpy_arrays():
    x = xp.asarray([1.0, 2.0, 4.0], device="numpy")
    total, half = xp.call_natively(lambda a: (np.sum(a), np.float16(0.5)), x)
    assert type(total) is xp.Array and total.shape == () and total.device == x.device
    assert float(total) == 7.0
    assert type(half) is np.float16  # a dtype arraymux lacks: left as it is


def test_named_tuples_and_dict_subclasses_keep_their_type():
    x = xp.asarray([1.0, 2.0], device="numpy")
    r = xp.call_natively(lambda a: Result(fun=a, nit=3), x)
    assert type(r) is Result and type(r["fun"]) is xp.Array and r["nit"] == 3


def test_scipy_result_objects_keep_their_fields_and_extra_attributes():
    stats = pytest.importorskip("scipy.stats")
    a = xp.asarray([0.1, 0.5, 0.3, 0.9, 0.2], device="numpy")
    b = xp.asarray([0.6, 0.8, 0.7, 1.1, 0.9], device="numpy")
    native = stats.ttest_ind(a.native, b.native)
    r = xp.natively(stats.ttest_ind)(a, b)
    assert type(r) is type(native)
    assert type(r.statistic) is xp.Array and type(r.pvalue) is xp.Array
    assert float(r.statistic) == pytest.approx(float(native.statistic))
    assert float(r.df) == pytest.approx(float(native.df))  # an attribute: as SciPy made it
    statistic, pvalue = r  # still unpacks as the tuple it is
    assert statistic is r.statistic
    assert float(pvalue) == pytest.approx(float(native.pvalue))
    low, high = r.confidence_interval()  # its methods work on the state it kept
    assert float(low) < float(high)


def test_scipy_takes_its_native_path_for_torch():
    """SciPy recognises a tensor (and calls torch.special), which it cannot do for an Array:
    natively hands it the tensor."""
    torch = pytest.importorskip("torch")
    special = pytest.importorskip("scipy.special")
    x = xp.asarray([0.1, 0.5, 2.0], dtype=xp.float32, device="torch:cpu")
    out = xp.natively(special.erf)(x)
    assert out.device == xp.Device("torch:cpu") and out.dtype == xp.float32
    assert type(out.native) is torch.Tensor
    assert torch.equal(out.native, torch.special.erf(x.native))


def test_differentiable_where_the_function_is(device):
    """Under a transform, the function sees the engine's arrays (torch tensors for NumPy
    arrays too; JAX's traced arrays on JAX)."""
    if device.backend not in ("numpy", "torch", "jax"):
        pytest.skip("no autodiff engine")
    engine = pytest.importorskip("jax.numpy" if device.backend == "jax" else "torch")
    x = xp.asarray([0.5, 1.0], dtype=xp.float32, device=device)
    g = xp.grad(lambda v: xp.sum(xp.natively(engine.sin)(v)))(x)
    assert g.device == device
    np.testing.assert_allclose(xp.to_numpy(g), np.cos([0.5, 1.0]), rtol=1e-6)


def test_the_decorator_keeps_the_functions_name_and_doc():
    def scaled(a, factor=2):
        """Scale a."""
        return a * factor

    wrapped = xp.natively(scaled)
    assert wrapped.__name__ == "scaled" and wrapped.__doc__ == "Scale a."
    assert wrapped.__wrapped__ is scaled
    out = wrapped(xp.asarray([1.0, 2.0], device="numpy"), factor=3)
    assert xp.to_numpy(out).tolist() == [3.0, 6.0]
    part = functools.partial(scaled, factor=4)
    assert xp.to_numpy(xp.natively(part)(xp.asarray([1.0]))).tolist() == [4.0]


def test_errors_of_the_function_pass_through():
    def fails(a):
        raise ValueError("from the function")

    with pytest.raises(ValueError, match="from the function"):
        xp.natively(fails)(xp.asarray([1.0]))


@pytest.mark.parametrize("helper", ["natively", "call_natively"])
def test_a_non_callable_is_refused(helper):
    with pytest.raises(TypeError, match=rf"arraymux\.{helper}: fun must be callable"):
        getattr(xp, helper)(42)


def test_bound_namespaces_have_them(device):
    ns = xp.asarray([1.0], device=device).__array_namespace__()
    assert ns.natively is xp.natively and ns.call_natively is xp.call_natively
