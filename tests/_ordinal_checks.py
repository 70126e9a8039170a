"""Where an array's data lives, read from the native array itself, and a sweep of every function
and transform on one device that reports each result whose data is elsewhere.

Used by ``test_multi_device.py`` for any backend with two devices of one kind: two GPUs (torch,
CuPy, JAX), or JAX's host split in two (``XLA_FLAGS=--xla_force_host_platform_device_count=2``).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import arraymux as xp
from arraymux._function_table import TABLE


def native_place(a: Any) -> str:
    """The place of ``a``'s data as its own library reports it, in arraymux's spelling
    (``"cuda:1"`` for torch, ``"1"`` for CuPy, ``"gpu:1"`` / ``"cpu:1"`` for JAX)."""
    n = a.native if isinstance(a, xp.Array) else a
    lib = type(n).__module__.split(".")[0]
    if lib == "torch":
        d = n.device
        return "cpu" if d.type == "cpu" else f"{d.type}:{d.index}"
    if lib == "cupy":
        return str(n.device.id)
    if lib in ("jax", "jaxlib"):
        (d,) = n.devices()
        platform = "gpu" if d.platform in ("gpu", "cuda", "rocm") else d.platform
        return f"{platform}:{d.id}"
    if lib == "numpy":
        return "cpu"
    raise TypeError(f"no known device for a {type(n).__name__}")


def misplaced(out: Any, device: xp.Device) -> list[str]:
    """The arrays in ``out`` (an array or a tuple/list of them) labelled or stored off
    ``device``, each as ``"labelled L, data on P"``."""
    bad = []
    for a in out if isinstance(out, tuple | list) else (out,):
        if not isinstance(a, xp.Array):
            continue
        where = native_place(a)
        if a.device != device or where != device.place:
            bad.append(f"labelled {a.device}, data on {device.backend}:{where}")
    return bad


def _set(x: xp.Array, key: Any, value: Any) -> xp.Array:
    x[key] = value
    return x


def sweep(d1: xp.Device, d0: xp.Device) -> list[str]:
    """Call every elementwise function of the table, a set of the others, the creation
    functions, the default device and every transform with arrays on ``d1`` (``d0``: another
    device of the same backend); return what landed elsewhere or failed, one line each."""
    bad: list[str] = []

    def check(what: str, call: Any) -> None:
        try:
            out = call()
        except Exception as e:  # a failure is reported with the others, not raised
            bad.append(f"{what}: raised {type(e).__name__}: {e}"[:300])
            return
        bad.extend(f"{what}: {line}" for line in misplaced(out, d1))

    f32 = xp.asarray([0.5, 0.25, 2.0], dtype=xp.float32, device=d1)
    i32 = xp.asarray([1, 2, 3], dtype=xp.int32, device=d1)
    b = xp.asarray([True, False, True], device=d1)
    for e in TABLE:
        if e.rule not in ("unary", "binary"):
            continue
        fn = attrgetter(e.name)(xp)
        for x in (f32, i32, b):
            try:
                out = fn(x) if e.rule == "unary" else fn(x, x)
            except (TypeError, ValueError, NotImplementedError):
                continue  # a dtype the function refuses (each backend its own way)
            except Exception as err:
                bad.append(f"{e.name}({x.dtype}): raised {type(err).__name__}: {err}"[:300])
                continue
            bad.extend(f"{e.name}({x.dtype}): {line}" for line in misplaced(out, d1))
    m = xp.reshape(xp.arange(1.0, 5.0, dtype=xp.float32, device=d1), (2, 2))
    m = m + xp.eye(2, dtype=xp.float32, device=d1)
    calls = {
        "sum": lambda: xp.sum(f32),
        "mean": lambda: xp.mean(f32),
        "sort": lambda: xp.sort(f32),
        "argsort": lambda: xp.argsort(f32),
        "cumulative_sum": lambda: xp.cumulative_sum(f32),
        "repeat": lambda: xp.repeat(f32, 2),
        "take": lambda: xp.take(f32, i32 - 1),
        "where": lambda: xp.where(b, f32, 0.0),
        "concat": lambda: xp.concat([f32, f32]),
        "unique_values": lambda: xp.unique_values(i32),
        "nonzero": lambda: xp.nonzero(b),
        "getitem": lambda: f32[1:],
        "getitem(indices)": lambda: f32[i32 - 1],
        "getitem(mask)": lambda: f32[b],
        "setitem(mask)": lambda: _set(xp.asarray(f32, copy=True), b, 0.0),
        "matmul": lambda: m @ m,
        "linalg.inv": lambda: xp.linalg.inv(m),
        "linalg.eigh": lambda: tuple(xp.linalg.eigh(m + m.T)),
        "fft.fft": lambda: xp.fft.fft(f32),
        "fft.fftfreq": lambda: xp.fft.fftfreq(4, device=d1),
        "zeros": lambda: xp.zeros(2, device=d1),
        "empty": lambda: xp.empty(2, device=d1),
        "arange": lambda: xp.arange(3, device=d1),
        "full": lambda: xp.full(2, 1.0, device=d1),
        "linspace": lambda: xp.linspace(0, 1, 3, device=d1),
        "eye": lambda: xp.eye(2, device=d1),
        "zeros_like": lambda: xp.zeros_like(f32),
        "asarray(list)": lambda: xp.asarray([1.0], device=d1),
        "asarray(Array on d0)": lambda: xp.asarray(xp.ones(2, device=d0), device=d1),
        "to_device(d0 -> d1)": lambda: xp.to_device(xp.ones(2, device=d0), d1),
        "random.normal": lambda: xp.random.normal(xp.random.key(0, device=d1), (3,)),
    }
    for name, call in calls.items():
        check(name, call)

    def in_context() -> Any:
        with xp.default_device(d1):
            return xp.ones(2), xp.asarray([1.0, 2.0]), xp.arange(2)

    def global_default() -> Any:
        xp.set_default_device(d1)
        try:
            return xp.ones(2), xp.asarray([1.0, 2.0]), xp.arange(2)
        finally:
            xp.set_default_device(None)

    check("default_device context", in_context)
    check("set_default_device", global_default)

    def f(v: Any) -> Any:
        return xp.sum(xp.sin(v) ** 2)

    check("grad", lambda: xp.grad(f)(f32))
    check("value_and_grad", lambda: xp.value_and_grad(f)(f32))
    check("hessian", lambda: xp.hessian(f)(f32))
    check("jacobian", lambda: xp.jacobian(xp.sin)(f32))
    check("vmap", lambda: xp.vmap(xp.sin)(xp.stack([f32, f32])))
    check("jit", lambda: xp.jit(f)(f32))
    check("jit(grad)", lambda: xp.jit(xp.grad(f))(f32))
    check("checkpoint", lambda: xp.grad(xp.checkpoint(f))(f32))
    check("jvp", lambda: xp.jvp(f, (f32,), (xp.ones(3, dtype=xp.float32, device=d1),)))

    def vjp() -> Any:
        value, back = xp.vjp(f, f32)
        return (value, *back(xp.asarray(1.0, dtype=xp.float32, device=d1)))

    check("vjp", vjp)
    # A function run on d0 from arrays on d1: values and derivatives come back to d1.
    on0 = xp.on_device(f, d0)
    check("on_device d1 -> d0", lambda: on0(f32))
    check("grad through on_device d1 -> d0", lambda: xp.grad(on0)(f32))
    check("vmap(grad) through on_device", lambda: xp.vmap(xp.grad(on0))(xp.stack([f32, f32])))
    if d0.backend in ("torch", "cupy") and native_place(f32) != "cpu":
        # torch.func cannot differentiate a move between GPUs twice: a clear refusal.
        try:
            xp.hessian(on0)(f32)
        except xp.TransformUnavailableError as e:
            if "between two GPUs" not in str(e):
                bad.append(f"hessian through on_device: unclear refusal: {e}")
        else:
            bad.append("hessian through on_device: torch.func differentiated twice between GPUs")
    else:
        check("hessian through on_device", lambda: xp.hessian(on0)(f32))
    return bad
