"""The API reference: a page per public object of arraymux, generated from its namespaces.

Every public name of ``arraymux`` and of its namespaces (``linalg``, ``fft``, ``random``,
``special``, ``testing``, ``testing.strategies``, and any namespace module ``arraymux.__all__``
gains) gets a page of its own, ``generated/api/<qualified name>.rst``; a page per category
lists them. Nothing here names a function: a name added to ``__all__`` gets its page and its
place in a category at the next build (by its section in the standard's function table, else
by the module that defines it, else under "More functions").

What autodoc and napoleon do not (and what this module adds, all derived from data):

- the dtypes' and constants' pages (``py:data`` objects, so the index and the search list
  them), with an example executed while the site is built;
- ``Array``'s page: attributes, indexing, operators (from the operator tables of
  ``arraymux._operators``), conversions and DLPack;
- under each function's docstring, "See also" (its family of functions, then its category)
  and links to the standard's page and to the NumPy, PyTorch and JAX (or SciPy) counterparts
  that exist in the installed libraries.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

# -- categories -------------------------------------------------------------------------------

#: Sections of the standard (the function table's ``section``) -> page title.
SECTIONS = {
    "creation_functions": "Creation functions",
    "data_type_functions": "Data type functions",
    "elementwise_functions": "Elementwise functions",
    "indexing_functions": "Indexing functions",
    "linear_algebra_functions": "Linear algebra functions",
    "manipulation_functions": "Manipulation functions",
    "searching_functions": "Searching functions",
    "set_functions": "Set functions",
    "sorting_functions": "Sorting functions",
    "statistical_functions": "Statistical functions",
    "utility_functions": "Utility functions",
}
#: arraymux's own names, by the module that defines them (the longest prefix wins) -> page.
BY_MODULE = {
    "arraymux._array": "arrays-and-devices",
    "arraymux._devices": "arrays-and-devices",
    "arraymux._dtypes": "arrays-and-devices",
    "arraymux._default_dtypes": "arrays-and-devices",
    "arraymux._narrowing": "arrays-and-devices",
    "arraymux._namespace": "arrays-and-devices",
    "arraymux._info": "arrays-and-devices",
    "arraymux._data_type_functions": "arrays-and-devices",
    "arraymux._transfer": "moving-data",
    "arraymux._natively": "native-functions",
    "arraymux._clients": "native-functions",
    "arraymux.transforms": "transforms",
    "arraymux.transforms._control": "control-flow",
    "arraymux.transforms._pytrees": "trees",
    "arraymux.transforms._tree": "trees",
}
#: Page -> (title, one line on what it holds). Pages of namespaces take their module's line.
PAGES = {
    "arrays-and-devices": (
        "Arrays, devices and defaults",
        "The array, devices, default devices and dtypes.",
    ),
    "moving-data": (
        "Moving data",
        "Between devices and backends, to NumPy, and waiting for results.",
    ),
    "native-functions": (
        "Calling functions of native arrays",
        "Code written for one backend's own arrays, on Arrays.",
    ),
    "transforms": (
        "Transforms",
        "Derivatives, batching, compilation and checkpoints through torch.func and JAX.",
    ),
    "control-flow": (
        "Control flow",
        "Branches and loops that every transform and engine can trace.",
    ),
    "trees": (
        "Trees",
        "Nested containers of arrays (pytrees) and the classes that take part in them.",
    ),
    "errors": (
        "Errors and warnings",
        "What arraymux raises, and the built-in exceptions they also are.",
    ),
    "dtypes": (
        "Data types",
        "The standard's dtypes; each backend's own dtype objects are accepted too.",
    ),
    "constants": ("Constants", "The standard's constants and the namespace's version."),
    "other": ("More functions", "Public names of arraymux that no other page lists."),
    "creation_functions": (
        "Creation functions",
        "Arrays made on ``device=``, else on the default device.",
    ),
    "data_type_functions": ("Data type functions", "Casts, promotion and what the dtypes hold."),
    "elementwise_functions": (
        "Elementwise functions",
        "One value per element, operands broadcast and promoted by the standard's rules.",
    ),
    "indexing_functions": ("Indexing functions", "Elements picked by integer arrays of indices."),
    "linear_algebra_functions": (
        "Linear algebra functions",
        "Matrix and tensor products in the main namespace.",
    ),
    "manipulation_functions": (
        "Manipulation functions",
        "Shapes, axes, and arrays joined or split, without arithmetic.",
    ),
    "searching_functions": (
        "Searching functions",
        "Where values are: extrema, non-zero elements, sorted positions.",
    ),
    "set_functions": (
        "Set functions",
        "Unique values, their counts and positions, and membership.",
    ),
    "sorting_functions": ("Sorting functions", "Sorted values and the indices that sort them."),
    "statistical_functions": (
        "Statistical functions",
        "Reductions: sums, products, means, extrema and spreads.",
    ),
    "utility_functions": ("Utility functions", "Truth tests over axes and differences along one."),
}
assert set(SECTIONS) <= set(PAGES), "every section of the standard has a page"
#: Namespaces documented besides ``arraymux`` (modules in ``arraymux.__all__`` come too).
EXTRA_NAMESPACES = ("arraymux.testing", "arraymux.testing.strategies")
NAMESPACE_TITLES = {
    "arraymux.linalg": "The linalg extension",
    "arraymux.fft": "The fft extension",
    "arraymux.random": "Random numbers",
    "arraymux.special": "Special functions",
    "arraymux.testing": "Testing tools",
    "arraymux.testing.strategies": "Hypothesis strategies",
}
ORDER = [
    "arrays-and-devices",
    "dtypes",
    "constants",
    "moving-data",
    "native-functions",
    "transforms",
    "control-flow",
    "trees",
    "errors",
    *SECTIONS,
    "other",
]

#: What each constant is (the standard's constants are fixed; another public value is shown
#: with its repr).
CONSTANTS = {
    "__array_api_version__": "The version of the Array API standard this namespace follows.",
    "e": "Euler's number, the base of the natural logarithm, as a Python float.",
    "pi": "The ratio of a circle's circumference to its diameter, as a Python float.",
    "inf": "Positive infinity (IEEE 754), as a Python float.",
    "nan": "Not a number (IEEE 754 NaN), as a Python float.",
    "newaxis": "``None``: in an index, a new axis of length one (``x[:, xp.newaxis]``).",
}

# -- "See also": families of functions a reader of one wants to know about --------------------

FAMILIES = """
sin cos tan asin acos atan atan2
sinh cosh tanh asinh acosh atanh
exp expm1 log log1p log2 log10 logaddexp
add subtract multiply divide floor_divide remainder pow negative positive reciprocal
round floor ceil trunc
equal not_equal less less_equal greater greater_equal
logical_and logical_or logical_xor logical_not
bitwise_and bitwise_or bitwise_xor bitwise_invert bitwise_left_shift bitwise_right_shift
isfinite isinf isnan signbit
abs sign copysign
maximum minimum clip max min
sqrt square hypot
real imag conj
sum prod cumulative_sum cumulative_prod
mean std var
max min argmax argmin
where nonzero searchsorted count_nonzero
sort argsort
unique_all unique_counts unique_inverse unique_values isin
zeros ones empty full zeros_like ones_like empty_like full_like
arange linspace eye meshgrid
asarray from_dlpack to_device to_numpy
tril triu
reshape squeeze expand_dims broadcast_to broadcast_arrays
concat stack unstack
flip roll moveaxis permute_dims matrix_transpose
repeat tile
take take_along_axis
matmul tensordot vecdot
all any diff
astype can_cast result_type isdtype
finfo iinfo finfo_object iinfo_object
devices get_default_device set_default_device default_device
get_default_dtypes set_default_dtypes default_dtypes
narrowing set_narrowing
synchronize block_until_ready
grad value_and_grad vjp jvp jacobian hessian
vmap jit checkpoint on_device
stop_gradient custom_vjp custom_jvp
cond switch while_loop fori_loop scan
tree_map tree_leaves tree_flatten tree_unflatten tree_structure
register_tree_node register_dataclass TreeDef
natively call_natively
cholesky eigh eigvalsh eig eigvals
inv solve pinv det slogdet matrix_rank
qr svd svdvals
matrix_norm vector_norm
cross outer trace diagonal matrix_power
fft ifft fftn ifftn
rfft irfft rfftn irfftn hfft ihfft
fftfreq rfftfreq fftshift ifftshift
key split fold_in bits
integers uniform normal truncated_normal bernoulli
permutation choice categorical
gamma loggamma beta dirichlet chisquare
exponential laplace logistic gumbel weibull_min pareto lognormal t
binomial poisson multivariate_normal
erf erfc erfcx erfinv
gamma gammaln loggamma rgamma gammasgn digamma psi polygamma multigammaln
gammainc gammaincc gammaincinv gammainccinv
beta betaln betainc betaincc betaincinv binom poch
ndtr ndtri log_ndtr
expit logit exp2 exp10 expm1 exprel
i0 i0e i1 i1e k0 k0e k1 k1e j0 j1
entr rel_entr kl_div huber pseudo_huber
boxcox boxcox1p inv_boxcox inv_boxcox1p
bdtr bdtrc bdtri nbdtr nbdtrc nbdtri
chdtr chdtrc chdtri fdtr fdtrc fdtri gdtr gdtrc pdtr pdtrc pdtri
assert_close assert_same_device default_tolerance
arrays dtypes shapes mutually_broadcastable_shapes devices
"""


def _families() -> list[list[str]]:
    return [line.split() for line in FAMILIES.strip().splitlines()]


# -- counterparts in other libraries ----------------------------------------------------------

_NUMPY = "https://numpy.org/doc/stable/reference/generated/{}.html"
_NUMPY_RANDOM = "https://numpy.org/doc/stable/reference/random/generated/{}.html"
_TORCH = "https://docs.pytorch.org/docs/stable/generated/{}.html"
_TORCH_SPECIAL = "https://docs.pytorch.org/docs/stable/special.html#{}"
_JAX = "https://docs.jax.dev/en/latest/_autosummary/{}.html"
_SCIPY = "https://docs.scipy.org/doc/scipy/reference/generated/{}.html"
_SPEC = "https://data-apis.org/array-api/2025.12"

#: arraymux's own functions -> their counterparts (library, dotted name); a name the installed
#: library lacks is left out.
OWN_COUNTERPARTS = {
    "grad": [("JAX", "jax.grad"), ("PyTorch", "torch.func.grad")],
    "value_and_grad": [("JAX", "jax.value_and_grad"), ("PyTorch", "torch.func.grad_and_value")],
    "vjp": [("JAX", "jax.vjp"), ("PyTorch", "torch.func.vjp")],
    "jvp": [("JAX", "jax.jvp"), ("PyTorch", "torch.func.jvp")],
    "jacobian": [("JAX", "jax.jacrev"), ("PyTorch", "torch.func.jacrev")],
    "hessian": [("JAX", "jax.hessian"), ("PyTorch", "torch.func.hessian")],
    "vmap": [("JAX", "jax.vmap"), ("PyTorch", "torch.vmap")],
    "jit": [("JAX", "jax.jit"), ("PyTorch", "torch.compile")],
    "checkpoint": [("JAX", "jax.checkpoint")],
    "stop_gradient": [("JAX", "jax.lax.stop_gradient"), ("PyTorch", "torch.Tensor.detach")],
    "custom_vjp": [("JAX", "jax.custom_vjp"), ("PyTorch", "torch.autograd.Function")],
    "custom_jvp": [("JAX", "jax.custom_jvp")],
    "cond": [("JAX", "jax.lax.cond"), ("PyTorch", "torch.cond")],
    "switch": [("JAX", "jax.lax.switch")],
    "while_loop": [("JAX", "jax.lax.while_loop")],
    "fori_loop": [("JAX", "jax.lax.fori_loop")],
    "scan": [("JAX", "jax.lax.scan")],
    "tree_map": [("JAX", "jax.tree.map")],
    "tree_leaves": [("JAX", "jax.tree.leaves")],
    "tree_flatten": [("JAX", "jax.tree.flatten")],
    "tree_unflatten": [("JAX", "jax.tree.unflatten")],
    "tree_structure": [("JAX", "jax.tree.structure")],
    "register_tree_node": [("JAX", "jax.tree_util.register_pytree_node")],
    "register_dataclass": [("JAX", "jax.tree_util.register_dataclass")],
    "to_device": [("PyTorch", "torch.Tensor.to"), ("JAX", "jax.device_put")],
    "to_numpy": [("NumPy", "numpy.asarray")],
    "synchronize": [("JAX", "jax.block_until_ready"), ("PyTorch", "torch.cuda.synchronize")],
    "block_until_ready": [("JAX", "jax.block_until_ready"), ("PyTorch", "torch.cuda.synchronize")],
}
#: arraymux.random's names whose JAX (or NumPy Generator) counterpart is named otherwise.
RANDOM_JAX = {"integers": "randint", "weibull_min": "weibull_min", "loggamma": "loggamma"}
RANDOM_NUMPY = {"key": None, "split": None, "fold_in": None, "bits": "bit_generator"}


def _resolve(dotted: str) -> Any:
    """The object at ``dotted`` in an installed library, or None."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except Exception:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p, None)
            if obj is None:
                return None
        return obj
    return None


def _url(library: str, dotted: str) -> str:
    if dotted.startswith("numpy.random.Generator"):
        return _NUMPY_RANDOM.format(dotted)
    if library == "NumPy":
        return _NUMPY.format(dotted)
    if library == "SciPy":
        return _SCIPY.format(dotted)
    if library == "PyTorch":
        return (_TORCH_SPECIAL if dotted.startswith("torch.special.") else _TORCH).format(dotted)
    return _JAX.format(dotted)


def counterparts(qualname: str) -> list[tuple[str, str, str]]:
    """``(library, dotted name, url)`` of each counterpart of ``qualname`` that exists, the
    standard's page first."""
    from arraymux._docstrings import spec_url
    from arraymux._function_table import TABLE

    module, _, name = qualname.rpartition(".")
    sub = module.removeprefix("arraymux").lstrip(".")
    standard = {e.name for e in TABLE}
    out: list[tuple[str, str, str]] = []
    key = f"{sub}.{name}" if sub else name
    candidates: list[tuple[str, str]] = []
    if key in standard:
        out.append(("Array API standard", key, spec_url(key)))
        prefix = f"{sub}." if sub else ""
        candidates = [
            ("NumPy", f"numpy.{prefix}{name}"),
            ("PyTorch", f"torch.{prefix}{name}"),
            ("JAX", f"jax.numpy.{prefix}{name}"),
        ]
    elif sub == "special":
        candidates = [
            ("SciPy", f"scipy.special.{name}"),
            ("PyTorch", f"torch.special.{name}"),
            ("JAX", f"jax.scipy.special.{name}"),
        ]
    elif sub == "random":
        np_name = RANDOM_NUMPY.get(name, name)
        if np_name is not None:
            candidates.append(("NumPy", f"numpy.random.Generator.{np_name}"))
        candidates.append(("JAX", f"jax.random.{RANDOM_JAX.get(name, name)}"))
    elif not sub:
        candidates = OWN_COUNTERPARTS.get(name, [])
    for library, dotted in candidates:
        obj = _resolve(dotted)
        if obj is None or not callable(obj):
            continue
        out.append((library, dotted, _url(library, dotted)))
    return out


# -- what the reference lists ------------------------------------------------------------------


def namespaces() -> list[ModuleType]:
    """``arraymux`` and each namespace documented beside it."""
    import arraymux

    mods = [arraymux]
    for n in arraymux.__all__:
        obj = getattr(arraymux, n)
        if inspect.ismodule(obj):
            mods.append(obj)
    for name in EXTRA_NAMESPACES:
        mods.append(importlib.import_module(name))
    return mods


def _page_of(name: str, obj: Any) -> str:
    """The category page of the top-level name ``name``."""
    import arraymux
    from arraymux._function_table import TABLE

    sections = {e.name: e.section for e in TABLE}
    if name in sections:
        return sections[name]
    if isinstance(obj, arraymux.DType):
        return "dtypes"
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return "errors"
    if not callable(obj):
        return "constants"
    module = getattr(obj, "__module__", "") or ""
    best = ""
    for prefix in BY_MODULE:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    return BY_MODULE[best] if best else "other"


def _page_slug(module: str) -> str:
    return module.removeprefix("arraymux.").replace(".", "-")


def reference_entries() -> dict[str, list[str]]:
    """Category page -> the qualified names it lists (in ``__all__``'s order)."""
    pages: dict[str, list[str]] = {}
    for mod in namespaces():
        for n in mod.__all__:
            obj = getattr(mod, n)
            if inspect.ismodule(obj):
                continue
            page = _page_of(n, obj) if mod.__name__ == "arraymux" else _page_slug(mod.__name__)
            pages.setdefault(page, []).append(f"{mod.__name__}.{n}")
    return pages


def _title(page: str) -> tuple[str, str]:
    if page in PAGES:
        return PAGES[page]
    module = "arraymux." + page.replace("-", ".")
    mod = importlib.import_module(module)
    line = " ".join((mod.__doc__ or "").strip().split("\n\n")[0].split())
    return NAMESPACE_TITLES.get(module, f"``{module}``"), line


# -- the pages -------------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file holds it already (Sphinx rereads changed files only)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _heading(text: str, char: str = "=") -> list[str]:
    return [text, char * len(text), ""]


def _executed(code: str) -> list[str]:
    """A doctest block of ``code``, run now: each line's output as Python prints it."""
    import arraymux

    globs: dict[str, Any] = {"xp": arraymux}
    lines = [">>> import arraymux as xp"]
    for line in code.strip().splitlines():
        lines.append(f">>> {line}")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                value = eval(compile(line, "<example>", "eval"), globs)
            except SyntaxError:
                exec(compile(line, "<example>", "exec"), globs)
                value = None
        if value is not None:
            print(repr(value), file=buf)
        lines += buf.getvalue().rstrip("\n").splitlines()
    return lines


def _cpu_devices() -> list[Any]:
    import arraymux

    return [
        d
        for d in arraymux.devices()
        if not d.simulated
        and (d.backend in ("numpy", "dask", "array_api_strict") or d.place.startswith("cpu"))
    ]


def _dtype_page(name: str, dtype: Any) -> list[str]:
    import arraymux

    lines = [
        ".. currentmodule:: arraymux",
        "",
        f".. py:data:: {name}",
        "   :type: arraymux.DType",
        "",
    ]
    body = [
        f"The standard's ``{name}`` dtype: {dtype.kind}"
        + (f", {dtype.bits} bits." if dtype.bits else "."),
        "",
        "Pass it as ``dtype=`` to creation functions and :func:`astype`; ``Array.dtype`` returns",
        "it. A device that cannot hold it raises :class:`UnsupportedDTypeError` rather than",
        "hand back another dtype.",
        "",
        ".. list-table:: On the devices of the machine that built this page",
        "   :header-rows: 1",
        "",
        "   * - device",
        "     - native dtype",
    ]
    for d in _cpu_devices():
        if d.supports(dtype):
            native = arraymux.zeros(1, dtype=dtype, device=d).native.dtype
            shown = f"``{_native_name(native)}``"
        else:
            shown = "not held (raises ``UnsupportedDTypeError``)"
        body += [f"   * - ``{d}``", f"     - {shown}"]
    body += ["", ".. rubric:: Examples", ""]
    kind = dtype.kind
    code = [f"xp.{name}.kind, xp.{name}.bits"]
    if kind in ("real floating", "complex floating"):
        code.append(f"xp.finfo(xp.{name}).eps")
    elif kind in ("signed integer", "unsigned integer"):
        code.append(f"xp.iinfo(xp.{name}).min, xp.iinfo(xp.{name}).max")
    code.append(f"xp.ones(2, dtype=xp.{name})")
    body += _executed("\n".join(code))
    body += [
        "",
        ".. seealso::",
        "",
        f"   `Data types <{_SPEC}/API_specification/data_types.html>`__ in the standard ·",
        f"   `numpy.{name} <https://numpy.org/doc/stable/reference/arrays.scalars.html>`__ ·",
        "   `torch.dtype <https://docs.pytorch.org/docs/stable/tensor_attributes.html>`__ ·",
        f"   `jax.numpy.{name} <{_JAX.format('jax.numpy.' + name)}>`__ ·",
        "   :doc:`all data types <dtypes>`",
    ]
    return lines + ["   " + b if b else "" for b in body]


def _native_name(native: Any) -> str:
    module = type(native).__module__.split(".")[0]
    text = str(native)
    if module == "numpy" or text in ("bool", "float32", "float64"):
        return f"numpy.{getattr(native, 'name', text)}" if module == "numpy" else text
    return text if "." in text else f"{module}.{text}"


def _constant_page(name: str, value: Any) -> list[str]:
    what = CONSTANTS.get(name) or f"A public value of the namespace: ``{value!r}``."
    lines = [
        ".. currentmodule:: arraymux",
        "",
        f".. py:data:: {name}",
        f"   :type: {type(value).__name__ if value is not None else 'None'}",
        f"   :value: {value!r}",
        "",
        f"   {what}",
        "",
        "   .. rubric:: Examples",
        "",
    ]
    lines += ["   " + b for b in _executed(f"xp.{name}")]
    if name in ("e", "pi", "inf", "nan", "newaxis"):
        lines += [
            "",
            "   .. seealso::",
            "",
            f"      `{name} <{_SPEC}/API_specification/generated/array_api.constants.{name}.html>`__"
            " in the standard · :doc:`all constants <constants>`",
        ]
    return lines


# Python's operator syntax for each operator method (the language's, not arraymux's).
_UNARY_SYNTAX = {"neg": "-x", "pos": "+x", "abs": "abs(x)", "invert": "~x"}


def _array_page() -> list[str]:
    """``Array``: its docstring, then its members grouped for a reader."""
    from arraymux import Array
    from arraymux._operators import _COMPARISONS, _OPERATORS, _SYMBOLS, _UNARY

    out = [".. currentmodule:: arraymux", "", ".. autoclass:: Array", ""]
    members = {
        n: inspect.getattr_static(Array, n)
        for n in vars(Array)
        if not (n.startswith("_") and not n.startswith("__")) and n not in ("__slots__",)
    }
    shown: set[str] = set()

    def section(title: str, names: Iterable[str], how: Callable[[str], str]) -> None:
        names = [n for n in names if n in members and n not in shown]
        if not names:
            return
        out.extend(_heading(title, "-"))
        for n in names:
            out.extend([f".. {how(n)}:: Array.{n}", ""])
            shown.add(n)

    properties = [n for n, v in members.items() if isinstance(v, property)]
    section("Attributes", properties, lambda n: "autoproperty")
    section(
        "Methods",
        [n for n, v in members.items() if inspect.isfunction(v) and not n.startswith("__")]
        + ["__array_namespace__"],
        lambda n: "automethod",
    )
    section("Indexing", ["__getitem__", "__setitem__"], lambda n: "automethod")
    # Operators, from the tables that install them.
    out.extend(_heading("Operators", "-"))
    out += [
        "Each operator calls the namespace's function, so it follows the same rules (one",
        "backend and device, the standard's promotion); a Python scalar may stand on either",
        "side. The in-place forms write into the array and refuse a result of another dtype",
        "or shape.",
        "",
    ]
    ops = [(fn, op, _SYMBOLS[fn]) for fn, op in _OPERATORS.items()]
    comparisons = {
        "equal": "==",
        "not_equal": "!=",
        "less": "<",
        "less_equal": "<=",
        "greater": ">",
        "greater_equal": ">=",
    }
    for fn, op, symbol in ops:
        out += [
            f".. py:method:: Array.__{op}__(other, /)",
            f"                Array.__r{op}__(other, /)",
            f"                Array.__i{op}__(other, /)",
            "",
            f"   ``x {symbol} y``, ``y {symbol} x`` (a scalar ``y``) and ``x {symbol}= y``:"
            f" :func:`arraymux.{fn}`.",
            "",
        ]
        shown.update({f"__{op}__", f"__r{op}__", f"__i{op}__"})
    for fn, op in _COMPARISONS.items():
        out += [
            f".. py:method:: Array.__{op}__(other, /)",
            "",
            f"   ``x {comparisons.get(fn, fn)} y``: :func:`arraymux.{fn}` (an array of bools).",
            "",
        ]
        shown.add(f"__{op}__")
    for fn, op in _UNARY.items():
        out += [
            f".. py:method:: Array.__{op}__()",
            "",
            f"   ``{_UNARY_SYNTAX.get(op, op)}``: :func:`arraymux.{fn}`.",
            "",
        ]
        shown.add(f"__{op}__")
    section(
        "Python scalars and sequences",
        ["__bool__", "__int__", "__float__", "__complex__", "__index__", "__len__", "__iter__"],
        lambda n: "automethod",
    )
    section("DLPack", ["__dlpack__", "__dlpack_device__"], lambda n: "automethod")
    section("NumPy", ["__array__", "__array_ufunc__"], lambda n: "automethod")
    rest = [
        n
        for n, v in members.items()
        if n not in shown
        and (inspect.isfunction(v) or isinstance(v, property))
        and (getattr(v, "__doc__", None) or "").strip()
        and n not in ("__init__", "__repr__", "__str__", "__getstate__", "__setstate__")
    ]
    section("Other members", rest, lambda n: "automethod")
    return out


def _object_page(module: str, name: str, obj: Any, page: str) -> str:
    import arraymux

    qual = f"{module}.{name}"
    # Orphans, linked from their category's table: in a toctree, the ~400 pages would each
    # draw a sidebar of all the others (the theme's navigation is quadratic in the pages).
    title = _title(page)[0].strip("`")
    lines = [":orphan:", "", ".. rst-class:: arraymux-object", "", *_heading(qual)]
    lines += [f"*In* :doc:`{title} <{page}>`", ""]
    if module == "arraymux" and isinstance(obj, arraymux.DType):
        lines += _dtype_page(name, obj)
    elif module == "arraymux" and name == "Array":
        lines += _array_page()
    elif not callable(obj):
        lines += _constant_page(name, obj)
    else:
        lines += [f".. currentmodule:: {module}", ""]
        if isinstance(obj, type) and issubclass(obj, BaseException):
            lines += [f".. autoexception:: {name}", "   :show-inheritance:"]
        elif isinstance(obj, type):
            lines += [f".. autoclass:: {name}", "   :members:"]
        else:
            lines += [f".. autofunction:: {name}"]
    return "\n".join(lines) + "\n"


def _category_page(page: str, names: list[str]) -> str:
    title, line = _title(page)
    lines = _heading(title)
    if line:
        lines += [line, ""]
    module = names[0].rpartition(".")[0]
    if page in ("dtypes", "constants"):
        lines += [
            f".. currentmodule:: {module}",
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 20 80",
            "",
            "   * - name",
            "     - what it is",
        ]
        import arraymux

        for q in names:
            n = q.rpartition(".")[2]
            obj = getattr(arraymux, n)
            what = (
                f"{obj.kind}" + (f", {obj.bits} bits" if obj.bits else "")
                if page == "dtypes"
                else CONSTANTS.get(n, repr(obj))
            )
            lines += [f"   * - :data:`{q}`", f"     - {what}"]
        lines.append("")
    else:
        lines += [f".. currentmodule:: {module}", "", ".. autosummary::", "   :nosignatures:", ""]
        lines += [f"   {q.rpartition('.')[2]}" for q in names]
        lines.append("")
    return "\n".join(lines)


def api_pages(out: Path) -> None:
    """Write the reference into ``out``: ``index.md``, a page per category, a page per object
    (and remove the pages of names that are gone)."""
    entries = reference_entries()
    written = {"index.md"}
    for page, names in entries.items():
        _write(out / f"{page}.rst", _category_page(page, names))
        written.add(f"{page}.rst")
        for q in names:
            module, _, name = q.rpartition(".")
            obj = getattr(importlib.import_module(module), name)
            _write(out / f"{q}.rst", _object_page(module, name, obj, page))
            written.add(f"{q}.rst")
    if out.exists():
        for stale in out.iterdir():
            if stale.is_file() and stale.name not in written:
                stale.unlink()
    order = [*ORDER, *sorted(p for p in entries if p not in ORDER)]
    toc = [p for p in order if p in entries]
    total = sum(len(v) for v in entries.values())
    index = [
        "# API reference",
        "",
        f"Every public name of `arraymux` and its namespaces, {total} in all, each on a page of",
        "its own: its signature, parameters, what it returns and raises, an example with its",
        "output, related functions, and its counterparts in the standard, NumPy, PyTorch and",
        "JAX. The functions of the standard run on the backend and device of their first array",
        "operand.",
        "",
        "| page | names | what it holds |",
        "|---|---|---|",
    ]
    for p in toc:
        title, line = _title(p)
        index.append(f"| [{title.strip('`')}]({p}.rst) | {len(entries[p])} | {line} |")
    index += ["", "```{toctree}", ":maxdepth: 1", ":hidden:", "", *toc, "```", ""]
    _write(out / "index.md", "\n".join(index))


# -- "See also" and counterparts under each docstring -----------------------------------------


def _related(qualname: str) -> list[str]:
    """Qualified names of the functions of ``qualname``'s families, in its namespace."""
    module, _, name = qualname.rpartition(".")
    mod = importlib.import_module(module)
    public = set(getattr(mod, "__all__", ()))
    out: list[str] = []
    for family in _families():
        if name in family:
            out += [n for n in family if n != name and n in public and n not in out]
    return [f"{module}.{n}" for n in out]


def _category_of(qualname: str) -> tuple[str, str] | None:
    for page, names in _entries().items():
        if qualname in names:
            return page, _title(page)[0]
    return None


_CACHE: dict[str, Any] = {}


def _entries() -> dict[str, list[str]]:
    """``reference_entries()``, computed once per build."""
    if "entries" not in _CACHE:
        _CACHE["entries"] = reference_entries()
    return _CACHE["entries"]


def _role(obj: Any) -> str:
    if isinstance(obj, type):
        return "exc" if issubclass(obj, BaseException) else "class"
    return "func"


def see_also_lines(qualname: str) -> list[str]:
    """The rst of the "See also" box under ``qualname``'s docstring (empty if none)."""
    parts = []
    for q in _related(qualname):
        module, _, name = q.rpartition(".")
        obj = getattr(importlib.import_module(module), name, None)
        if obj is None:
            continue
        parts.append(f":{_role(obj)}:`~{q}`")
    category = _category_of(qualname)
    links = [f"`{lib}: {dotted} <{url}>`__" for lib, dotted, url in counterparts(qualname)]
    if not parts and not links and category is None:
        return []
    lines = [".. seealso::", ""]
    if parts:
        lines += ["   " + ", ".join(parts), ""]
    if category is not None:
        page, title = category
        lines += [f"   All of :doc:`{title.strip('`')} <{page}>`.", ""]
    if links:
        lines += ["   **Elsewhere:** " + " · ".join(links), ""]
    return lines


def _documented(qualname: str) -> bool:
    return any(qualname in names for names in _entries().values())


def process_docstring(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """After napoleon: put the "See also" box before the Examples of each documented function
    and class (at the end where there are none)."""
    if what not in ("function", "class", "exception") or not _documented(name):
        return
    extra = see_also_lines(name)
    if not extra:
        return
    at = next(
        (i for i, line in enumerate(lines) if re.match(r"\.\. rubric:: Examples\s*$", line)),
        len(lines),
    )
    lines[at:at] = [*extra, ""]


def setup(app: Any) -> None:
    # Napoleon turns the numpy sections into rst at priority 500; this runs after it.
    app.connect("autodoc-process-docstring", process_docstring, priority=600)
