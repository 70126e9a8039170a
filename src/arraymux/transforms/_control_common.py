"""What the engines of arraymux's control flow share: pytrees by the transforms' rules, what a
leaf of a carry is (its shape, dtype and device), the check of a loop's carry from step to step
(:class:`Carry`) and of the results of a conditional's branches (:func:`agree`), and how a
branch is chosen per element where ``vmap`` batches the predicate (:func:`select_all`).

``_control`` runs the control flow in Python; ``_control_jax`` and ``_control_torch`` map it to
the engines' operators; all three read this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from .._array import Array, operand, wrap
from .._devices import TRANSFORM, Device, closure_constant
from .._errors import BackendMismatchError, DeviceMismatchError
from ._pytrees import TreeDef, node_of, tree_flatten, tree_unflatten
from ._tree import device_of

if TYPE_CHECKING:
    from .._dtypes import DType

_R = TypeVar("_R")
_T = TypeVar("_T")
#: An array's shape, dtype and device.
ArrayAval: TypeAlias = "tuple[tuple[int | None, ...], DType, Device]"
#: What a carry keeps of a leaf (see :func:`aval`).
Aval: TypeAlias = "ArrayAval | tuple[str, type] | type | None"

__all__ = [
    "Carry",
    "REVERSE_MESSAGE",
    "SCALAR_KINDS",
    "agree",
    "as_arrays",
    "aval",
    "check_fun",
    "describe",
    "flatten",
    "is_scalar",
    "joins",
    "leaf_paths",
    "placed",
    "scalar",
    "select_all",
    "show",
    "unflatten",
]

# -- pytrees: the transforms' own rules (see ``_pytrees``) ----------------------------------


def flatten(tree: object) -> tuple[list[Any], TreeDef]:
    """``(leaves, structure)`` of a pytree, by the transforms' rules: tuples, lists, dicts (in
    their order), named tuples and registered classes are nodes; everything else, None
    included, is a leaf."""
    return tree_flatten(tree)


def unflatten(structure: TreeDef, leaves: Iterable[object]) -> Any:
    """The pytree of ``structure`` holding ``leaves`` (an iterable), in order."""
    return tree_unflatten(structure, leaves)


def leaf_paths(tree: object, prefix: str = "") -> list[str]:
    """The path of each leaf of ``tree`` (``[0]['w']``, ``.field``), in order."""
    got = node_of(tree, None)
    if got is None:
        return [prefix]
    _, _, children, labels = got
    return [p for c, label in zip(children, labels) for p in leaf_paths(c, prefix + label)]


def show(structure: TreeDef) -> str:
    """A structure as it reads in Python, its leaves as ``*``."""
    return repr(structure)[len("TreeDef(") : -1]


# -- what a leaf is: its shape and dtype ------------------------------------------------------

SCALAR_KINDS = {
    bool: ("bool",),
    int: ("signed integer", "unsigned integer"),
    float: ("real floating",),
    complex: ("complex floating",),
}


def is_scalar(v: object) -> bool:
    """Whether ``v`` is a Python scalar (bool, int, float or complex, not a subclass)."""
    return type(v) in SCALAR_KINDS


def as_arrays(tree: _T, dev: Device, scalar: Callable[[object], bool] | None = None) -> _T:
    """``tree`` with its native arrays wrapped as Arrays, and the Python scalars that
    ``scalar`` picks made 0-d Arrays of ``dev``'s default dtype for their kind (as a carry's
    are on every engine); other leaves as they are, and ``tree`` itself where none changes."""
    leaves, structure = flatten(tree)
    changed = False
    for i, v in enumerate(leaves):
        if type(v) is Array or v is None:
            continue
        if scalar is not None and scalar(v):
            from .._creation_functions import asarray

            leaves[i] = asarray(v, device=dev)
            changed = True
            continue
        op = operand(v)
        if op is not None:
            leaves[i] = wrap(op[0], op[1])
            changed = True
    return unflatten(structure, leaves) if changed else tree


def aval(leaf: object) -> Aval:
    """What a carry must keep of a leaf: ``(shape, DType, Device)`` for an array, the type of
    a Python scalar, None for None; ``("object", type)`` otherwise."""
    if type(leaf) is Array:
        return (leaf.shape, leaf.dtype, leaf._device)
    t = type(leaf)
    if t in SCALAR_KINDS:
        return t
    if leaf is None:
        return None
    op = operand(leaf)
    if op is not None:
        native, dev = op
        return (tuple(native.shape), dev._backend.dtype_from_native(native.dtype), dev)
    return ("object", t)


def describe(a: Aval, other: Aval = None) -> str:
    """An aval as it reads in an error (``float32[3, 2]``, ``a Python float``); with the
    device where ``other``, the aval it is compared with, is on another one."""
    if a is None:
        return "None"
    if isinstance(a, type):
        return f"a Python {a.__name__}"
    if len(a) == 3:
        text = f"{a[1].name}[{', '.join(map(str, a[0]))}]"
        if type(other) is tuple and len(other) == 3 and other[2] is not a[2]:
            text += f" on {a[2]}"
        return text
    return f"a {a[1].__name__}"


def joins(ref: Aval, got: Aval) -> bool:
    """Whether ``got`` may stand where ``ref`` stood: a Python scalar's place takes a 0-d array
    of its kind (JAX's weakly typed scalars)."""
    return (
        isinstance(ref, type)
        and ref in SCALAR_KINDS
        and type(got) is tuple
        and got[0] == ()
        and got[1].kind in SCALAR_KINDS[ref]
    )


class Carry:
    """The structure, shapes and dtypes of a loop's carry (``init_name``), checked after each
    step of ``fname``."""

    __slots__ = ("avals", "fname", "init_name", "single", "structure")

    def __init__(self, fname: str, init: object, init_name: str) -> None:
        leaves, self.structure = flatten(init)
        self.avals = [aval(v) for v in leaves]
        self.fname = fname
        self.init_name = init_name
        # The common carry, one Array: checked without a walk (a Python loop pays it per step).
        self.single: ArrayAval | None = (
            (init.shape, init.dtype, init._device) if type(init) is Array else None
        )

    def check(self, out: object, what: str) -> list[Any]:
        """The leaves of ``out``, a carry that ``what`` returned; a TypeError if it differs."""
        single = self.single
        if (
            single is not None
            and type(out) is Array
            and out._device is single[2]
            and out.dtype == single[1]
            and out.shape == single[0]
        ):
            return [out]
        leaves, structure = flatten(out)
        if structure != self.structure:
            raise TypeError(
                f"arraymux.{self.fname}: {what} returned a carry of structure {show(structure)}, "
                f"but {self.init_name} has structure {show(self.structure)}. The carry must keep "
                "its structure, shapes and dtypes from one step to the next."
            )
        # Read by position in the common case below (no test of which aval it is, per step).
        avals: list[Any] = self.avals
        for i, leaf in enumerate(leaves):
            ref = avals[i]
            # The common case first: an Array of the same shape and dtype.
            if (
                type(leaf) is Array
                and type(ref) is tuple
                and leaf._device is ref[2]
                and leaf.dtype == ref[1]
                and leaf.shape == ref[0]
            ):
                continue
            got = aval(leaf)
            if got == ref:
                continue
            if joins(ref, got):
                avals[i] = got  # from now on, the array it became
                continue
            where = leaf_paths(out)[i] or "the top"
            raise TypeError(
                f"arraymux.{self.fname}: {what} returned {describe(got, ref)} at {where} of "
                f"the carry, but {self.init_name} has {describe(ref, got)} there. The carry must keep "
                "its structure, shapes and dtypes from one step to the next; cast or reshape "
                "the new value (or the initial one) to match."
            )
        return leaves


def check_fun(fname: str, what: str, fun: object) -> None:
    if not callable(fun):
        raise TypeError(f"arraymux.{fname}: {what} must be a function, not {type(fun).__name__}.")


def scalar(fname: str, what: str, value: object, kinds: tuple[str, ...], say: str) -> Any:
    """``value`` checked to be a scalar of ``kinds``: a Python value as it is, else the native
    0-d array."""
    t = type(value)
    if t is bool or (t is int and "signed integer" in kinds):
        return value
    op = operand(value)
    if op is None:
        raise TypeError(
            f"arraymux.{fname}: {what} must be {say} (a Python value or a 0-d array), not "
            f"{type(value).__name__}."
        )
    native, dev = op
    shape = tuple(native.shape)
    if shape != ():
        raise TypeError(
            f"arraymux.{fname}: {what} must be {say}, but it is an array of shape {shape}. "
            "Reduce it first (arraymux.all, arraymux.any, indexing)."
        )
    dt = dev._backend.dtype_from_native(native.dtype)
    if dt.kind not in kinds:
        raise TypeError(f"arraymux.{fname}: {what} must be {say}, not an array of dtype {dt.name}.")
    return native


def placed(fname: str, *groups: tuple[str, object]) -> tuple[Device, list[Any]]:
    """The one device of the arrays of ``groups`` (pairs of name and pytree), and the pytrees;
    in them, arrays that the running transform takes as constants of its computation (NumPy
    arrays read from an enclosing scope while torch computes for NumPy arguments) are made
    arrays of its device, as every function of the namespace makes them."""
    try:
        return device_of(fname, *groups), [t for _, t in groups]
    except (BackendMismatchError, DeviceMismatchError):
        engine = TRANSFORM.device
        if engine is None:
            raise
        trees = []
        for _, tree in groups:
            leaves, structure = flatten(tree)
            for i, v in enumerate(leaves):
                op = operand(v)
                if op is not None and op[1] is not engine:
                    native = closure_constant(op[0], op[1], engine)
                    if native is not None:
                        leaves[i] = wrap(native, engine)
            trees.append(unflatten(structure, leaves))
        named = [(name, t) for (name, _), t in zip(groups, trees)]
        return device_of(fname, *named), trees


REVERSE_MESSAGE = (
    "arraymux.{fname}: reverse-mode differentiation (grad, vjp, jacobian, hessian) through a "
    "loop whose number of steps depends on values is not available, as with "
    "jax.lax.while_loop: the steps are not known before the loop runs. Use arraymux.fori_loop "
    "with Python int bounds or arraymux.scan (both differentiate in reverse mode), or forward "
    "mode (arraymux.jvp)."
)


def select_all(
    fname: str,
    which: Array,
    branches: Sequence[Callable[..., _R]],
    operands: Sequence[object],
    boolean: bool,
) -> _R:
    """Every branch run, and the result of the one ``which`` selects (per element of a
    batch): how ``vmap`` runs a branch on a batched predicate, and the fallback where a
    compiler cannot branch."""
    from .._elementwise_functions import equal
    from .._searching_functions import where

    outs = [b(*operands) for b in branches]
    leaves, structure, avals = agree(fname, outs, boolean)
    n = len(branches)
    if boolean:
        picks = [which]
    else:
        from .._elementwise_functions import clip

        which = clip(which, 0, n - 1)
        picks = [equal(which, k) for k in range(1, n)]
    result: list[object] = []
    for j in range(len(avals)):
        if avals[j] is None:
            result.append(None)
            continue
        v = leaves[0][j]
        for k in range(1, n):
            v = where(picks[k - 1], leaves[k][j], v)
        result.append(v)
    return unflatten(structure, result)


def agree(
    fname: str, outs: Sequence[object], boolean: bool
) -> tuple[list[list[Any]], TreeDef, list[Aval]]:
    """The leaves, the structure and the avals of the branches' results ``outs``, checked to
    agree (a TypeError naming the branches otherwise)."""

    def name(k: int) -> str:
        if boolean:
            return "true_fun" if k else "false_fun"
        return f"branches[{k}]"

    flat = [flatten(o) for o in outs]
    leaves0, structure = flat[0]
    avals = [aval(v) for v in leaves0]
    for k in range(1, len(outs)):
        leaves, s = flat[k]
        if s != structure:
            raise TypeError(
                f"arraymux.{fname}: {name(k)} returns {show(s)}, but {name(0)} returns "
                f"{show(structure)}; every branch must return the same structure, shapes and "
                "dtypes."
            )
        for j, v in enumerate(leaves):
            got = aval(v)
            if got == avals[j]:
                continue
            if joins(avals[j], got):
                avals[j] = got
                continue
            if joins(got, avals[j]):
                continue
            raise TypeError(
                f"arraymux.{fname}: {name(k)} returns {describe(got, avals[j])} at "
                f"{leaf_paths(outs[k])[j] or 'the top'}, but {name(0)} returns "
                f"{describe(avals[j], got)} there; every branch must return the same structure, "
                "shapes and dtypes."
            )
    return [f[0] for f in flat], structure, avals


# -- the loops --------------------------------------------------------------------------------
