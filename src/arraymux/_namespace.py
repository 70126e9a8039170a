"""Selecting the version of the standard: ``arraymux.namespace(api_version=...)``."""

from __future__ import annotations

import types
from typing import Any

from ._function_table import NEW_IN_2025_12

__all__ = ["SUPPORTED_VERSIONS", "namespace"]

SUPPORTED_VERSIONS = ("2024.12", "2025.12")
_VIEWS: dict[str, types.ModuleType] = {}


def namespace(api_version: str | None = None) -> Any:
    """The arraymux namespace for one version of the standard.

    ``"2025.12"`` (the default) is the ``arraymux`` module itself. ``"2024.12"`` is a module
    with the same functions, minus the names the 2025.12 revision added
    (``broadcast_shapes``, ``isin``, ``linalg.eig``, ``linalg.eigvals``).

    Examples
    --------
    >>> import arraymux as xp
    >>> ns = xp.namespace("2024.12")
    >>> ns.__array_api_version__, hasattr(ns, "isin")
    ('2024.12', False)
    """
    import arraymux

    if api_version is None or api_version == "2025.12":
        return arraymux
    if api_version not in SUPPORTED_VERSIONS:
        raise ValueError(
            f"arraymux.namespace: arraymux implements the Array API standard "
            f"{', '.join(SUPPORTED_VERSIONS)}; not {api_version!r}."
        )
    if api_version not in _VIEWS:
        view = types.ModuleType(f"arraymux[{api_version}]", arraymux.__doc__)
        drop = {n for n in NEW_IN_2025_12 if "." not in n}
        for name in arraymux.__all__:
            if name not in drop:
                setattr(view, name, getattr(arraymux, name))
        for sub in ("linalg", "fft"):
            mod = types.ModuleType(f"arraymux[{api_version}].{sub}")
            src = getattr(arraymux, sub)
            gone = {n.split(".", 1)[1] for n in NEW_IN_2025_12 if n.startswith(sub + ".")}
            for name in src.__all__:
                if name not in gone:
                    setattr(mod, name, getattr(src, name))
            setattr(view, sub, mod)
        from ._info import _info_2024_12

        view.__array_namespace_info__ = _info_2024_12  # type: ignore[attr-defined]
        view.__array_api_version__ = api_version  # type: ignore[attr-defined]
        _VIEWS[api_version] = view
    return _VIEWS[api_version]
