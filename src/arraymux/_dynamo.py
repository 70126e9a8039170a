"""arraymux inside ``torch.compile``: what is done before dynamo traces anything.

A library function that takes the user's tensors, computes with arraymux and returns tensors
is traced by dynamo when the user compiles code that calls it. Dynamo traces arraymux's Python
functions (and the Python twins of its compiled builtins, see :mod:`arraymux._compiled`), but
not what a first use of a backend does: the registry's lock (a context manager dynamo does not
enter), the import of the backend's modules and its entry points, a device made under a lock.
Each of those would break the user's graph, or fail under ``fullgraph=True``.

So once ``torch._dynamo`` is imported (by the first ``torch.compile`` call, or before arraymux
was), arraymux loads its torch backend at once: the backend and its entry points, the types of
torch's tensors in the backend type cache, a :class:`Device` for every device torch has here,
and the registration of the twins. What dynamo then meets is plain Python over loaded state.
JAX needs none of this: ``jax.jit`` runs Python as it is while it traces.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from typing import Any

from . import _compiled
from ._backends import backend_of_type, get_backend, specs

__all__ = ["prepare", "watch"]

_prepared = False


def prepare() -> None:
    """Load what dynamo cannot trace the first use of (see the module's docstring); once."""
    global _prepared
    if _prepared:
        return
    _prepared = True
    try:
        backend = get_backend("torch")
    except Exception:  # torch without what arraymux needs: its first use says why, later
        return
    import torch

    from ._devices import Device

    specs()  # entry points of third-party backends: read once, outside any trace
    for cls in (torch.Tensor, torch.nn.Parameter):
        backend_of_type(cls)
    # Not the adapter's places(): its torch.cuda.is_available() initialises CUDA's driver
    # (torch 2.13, unless PYTORCH_NVML_BASED_CUDA_CHECK=1), after which the children of a fork
    # cannot use CUDA; importing dynamo must not do that. device_count() asks NVML first.
    places = ["cpu", *(f"cuda:{i}" for i in range(torch.cuda.device_count()))]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        places.append("mps")
    for place in places:
        Device._make(backend, place)
    _compiled.register_for_dynamo()


class _OnDynamoImport:
    """A one-shot import hook that runs :func:`prepare` once ``torch._dynamo`` is imported,
    so that importing arraymux neither imports dynamo (over a second) nor loads a backend."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != "torch._dynamo":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            prepare()

        loader.exec_module = exec_module
        return spec


def watch() -> None:
    """Run :func:`prepare` now if dynamo is loaded, else as soon as it is (at import)."""
    if "torch._dynamo" in sys.modules:
        prepare()
    elif not any(isinstance(f, _OnDynamoImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _OnDynamoImport())
