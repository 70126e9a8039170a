"""Pytrees: which values the transforms walk into, and the tree utilities.

A pytree is a value made of nodes, whose children are pytrees, and of leaves. The nodes are
tuples, lists, dicts (their values, in the dict's order), named tuples, and the classes
registered with :func:`register_tree_node` or :func:`register_dataclass`; everything else is
a leaf: Arrays, native arrays, Python scalars, None, strings, other objects. The transforms
take and return pytrees by these rules, and so do torch's pytrees (``torch.utils._pytree``,
which ``torch.func`` follows). JAX's differ in two ways: None is a node without children
there, and a dict's keys are sorted.

A registered class is registered with the engines too (with ``torch.utils._pytree`` and
``jax.tree_util``, when arraymux first uses each), so that its instances pass through
``torch.func`` and ``jax`` as they pass through arraymux's own walks.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar, final

from .._array import Array
from .._backends import on_load

__all__ = [
    "NODES",
    "TreeDef",
    "node_of",
    "register_dataclass",
    "register_tree_node",
    "tree_flatten",
    "tree_leaves",
    "tree_map",
    "tree_structure",
    "tree_unflatten",
]

T = TypeVar("T")


class Node(NamedTuple):
    """A registered class: how to take an instance apart and put one together."""

    flatten: Callable[[Any], tuple[Iterable[Any], Any]]
    unflatten: Callable[[Any, list[Any]], Any]
    #: The names of the children (a dataclass's fields), for the paths in messages; or None.
    names: tuple[str, ...] | None


#: The registered classes (read by the transforms' walks in ``_tree.py``).
NODES: dict[type, Node] = {}

# Classes that are nodes or leaves by arraymux's rules, whatever is registered.
_BUILT_IN = (tuple, list, dict, Array, type(None), bool, int, float, complex, str, bytes)


def register_tree_node(
    cls: type[T],
    flatten: Callable[[T], tuple[Iterable[Any], Hashable]],
    unflatten: Callable[[Hashable, list[Any]], T],
) -> type[T]:
    """Make a class a node of pytrees: the transforms and the tree utilities walk into it.

    Its instances can then hold Arrays anywhere a transform takes or returns a pytree
    (:func:`grad`'s differentiated arguments and gradients, :func:`vmap`, :func:`jit`,
    :func:`on_device`, ...), and :func:`tree_map` and friends reach their Arrays. The class is
    registered with the engines as well (``torch.utils._pytree`` and ``jax.tree_util``), so
    ``torch.func`` and ``jax`` take it too. The functions follow ``jax.tree_util``'s
    convention.

    Parameters
    ----------
    cls
        The class. Its instances are nodes; instances of its subclasses are not (register
        them too).
    flatten
        ``flatten(obj) -> (children, aux)``: the children (an iterable of pytrees) and what
        else is needed to rebuild ``obj`` (hashable and comparable with ``==``: JAX keys its
        compiled functions on it).
    unflatten
        ``unflatten(aux, children) -> obj``: an instance from ``aux`` and a list of children.
        The engines call it with children that are not Arrays (tracers, placeholders), so it
        should not check them.

    Returns
    -------
    type
        ``cls`` itself.

    Raises
    ------
    TypeError
        ``cls`` is not a class, is one of the classes that pytrees already know (tuple, list,
        dict, Array, the Python scalars, str, None), or ``flatten`` or ``unflatten`` is not
        callable.
    ValueError
        ``cls`` is registered already.

    Examples
    --------
    >>> import arraymux as xp
    >>> class Pair:
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    >>> _ = xp.register_tree_node(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    >>> g = xp.grad(lambda p: xp.sum(p.a * p.b))(Pair(xp.asarray([1.0, 2.0]), xp.asarray(3.0)))
    >>> g.a, g.b
    (Array([3., 3.], dtype=float64, device='numpy:cpu'), Array(3., dtype=float64, device='numpy:cpu'))
    """
    _check_class("register_tree_node", cls)
    if not callable(flatten) or not callable(unflatten):
        raise TypeError(
            "arraymux.register_tree_node: flatten and unflatten must be functions: "
            "flatten(obj) -> (children, aux) and unflatten(aux, children) -> obj."
        )
    _register(cls, Node(flatten, unflatten, None))
    return cls


def register_dataclass(
    cls: type[T],
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
) -> type[T]:
    """Make a dataclass a node of pytrees whose children are its data fields.

    As :func:`register_tree_node`, with the flattening written from the fields, as
    ``jax.tree_util.register_dataclass`` does. It returns the class, so it also serves as a
    decorator (``@arraymux.register_dataclass``).

    Parameters
    ----------
    cls
        A dataclass.
    data_fields
        The fields that are children (Arrays, or pytrees of them). By default every field
        that ``__init__`` takes and that is not in ``meta_fields``.
    meta_fields
        The fields that are fixed parts of the structure (sizes, names, flags: hashable
        values). By default the fields that ``__init__`` takes and that are not in
        ``data_fields``; with neither given, those marked static, as JAX marks them:
        ``dataclasses.field(metadata={"static": True})``. Fields that ``__init__`` does not
        take are left to ``__init__`` and ``__post_init__`` to set.

    Returns
    -------
    type
        ``cls`` itself (so that it serves as a decorator).

    Raises
    ------
    TypeError
        ``cls`` is not a dataclass.
    ValueError
        The fields named are not the fields ``__init__`` takes, split in two, or ``cls`` is
        registered already.

    Examples
    --------
    >>> import dataclasses
    >>> import arraymux as xp
    >>> @xp.register_dataclass
    ... @dataclasses.dataclass
    ... class Linear:
    ...     w: xp.Array
    ...     b: xp.Array
    ...     activation: str = dataclasses.field(default="relu", metadata={"static": True})
    >>> p = Linear(xp.asarray([1.0, 2.0]), xp.asarray(0.5))
    >>> xp.tree_map(lambda v: 2 * v, p)
    Linear(w=Array([2., 4.], dtype=float64, device='numpy:cpu'), b=Array(1., dtype=float64, device='numpy:cpu'), activation='relu')
    """
    _check_class("register_dataclass", cls)
    if not dataclasses.is_dataclass(cls):
        raise TypeError(
            f"arraymux.register_dataclass: {cls.__qualname__} is not a dataclass; decorate it "
            "with @dataclasses.dataclass first, or use arraymux.register_tree_node."
        )
    init = [f.name for f in dataclasses.fields(cls) if f.init]
    data = list(data_fields) if data_fields is not None else None
    meta = list(meta_fields) if meta_fields is not None else None
    if data is None and meta is None:
        meta = [f.name for f in dataclasses.fields(cls) if f.init and f.metadata.get("static")]
    if data is None:
        data = [n for n in init if n not in (meta or ())]
    if meta is None:
        meta = [n for n in init if n not in data]
    if sorted(data + meta) != sorted(init) or len(set(data + meta)) != len(data + meta):
        raise ValueError(
            f"arraymux.register_dataclass: data_fields {data} and meta_fields {meta} must "
            f"split the fields that {cls.__qualname__}.__init__ takes, {init}, in two."
        )
    data_names, meta_names = tuple(data), tuple(meta)

    def flatten(obj: Any) -> tuple[list[Any], tuple[Any, ...]]:
        return [getattr(obj, n) for n in data_names], tuple(getattr(obj, n) for n in meta_names)

    def unflatten(aux: tuple[Any, ...], children: list[Any]) -> Any:
        return cls(**dict(zip(data_names, children)), **dict(zip(meta_names, aux)))

    _register(cls, Node(flatten, unflatten, data_names))
    return cls


def _check_class(fname: str, cls: object) -> None:
    if not isinstance(cls, type):
        raise TypeError(f"arraymux.{fname}: expected a class, got {type(cls).__name__}.")
    if cls in _BUILT_IN:
        raise TypeError(
            f"arraymux.{fname}: {cls.__name__} is already a "
            f"{'node' if cls in (tuple, list, dict) else 'leaf'} of every pytree and cannot be "
            "registered."
        )


def _register(cls: type, node: Node) -> None:
    if cls in NODES:
        raise ValueError(
            f"arraymux: {cls.__qualname__} is registered as a pytree node already; a class "
            "is registered once."
        )
    NODES[cls] = node
    on_load("torch", lambda backend: _with_torch(cls, node))
    on_load("jax", lambda backend: _with_jax(cls, node))


def _with_torch(cls: type, node: Node) -> None:
    """Register ``cls`` with torch's pytrees (torch.func, torch.compile), unless it is."""
    import torch.utils._pytree as pytree

    if cls in pytree.SUPPORTED_NODES:
        return

    def flatten(obj: Any) -> tuple[list[Any], Any]:
        children, aux = node.flatten(obj)
        return list(children), aux

    def unflatten(values: Iterable[Any], aux: Any) -> Any:
        return node.unflatten(aux, list(values))

    pytree.register_pytree_node(
        cls, flatten, unflatten, serialized_type_name=f"{cls.__module__}.{cls.__qualname__}"
    )


def _with_jax(cls: type, node: Node) -> None:
    """Register ``cls`` with ``jax.tree_util`` (jax.grad, jax.jit, ...), unless it is."""
    import jax

    def flatten(obj: Any) -> tuple[tuple[Any, ...], Any]:
        children, aux = node.flatten(obj)
        return tuple(children), aux

    def unflatten(aux: Any, children: Iterable[Any]) -> Any:
        return node.unflatten(aux, list(children))

    # A class its author registered with JAX already keeps JAX's registration.
    with contextlib.suppress(ValueError):
        jax.tree_util.register_pytree_node(cls, flatten, unflatten)


# -- the tree structure -----------------------------------------------------------------------

# The kinds of node a TreeDef records (a named tuple's or a registered class's kind is the
# class itself).
_LEAF = None


@final
class TreeDef:
    """The structure of a pytree: its nodes, without its leaves.

    :func:`tree_flatten` and :func:`tree_structure` make them; :func:`tree_unflatten` puts
    leaves into one. Two are equal when their trees have the same nodes in the same places
    (the same dict keys in the same order, equal ``aux`` of registered classes).

    Parameters
    ----------
    kind, meta, children
        Internal: TreeDefs are made by :func:`tree_flatten` and :func:`tree_structure`.

    Examples
    --------
    >>> import arraymux as xp
    >>> treedef = xp.tree_structure({"w": [1.0, 2.0], "b": 0.0})
    >>> treedef
    TreeDef({'w': [*, *], 'b': *})
    >>> treedef.num_leaves
    3
    """

    __slots__ = ("_children", "_kind", "_meta", "_num_leaves")

    def __init__(self, kind: type | None, meta: Any, children: tuple[TreeDef, ...]) -> None:
        self._kind = kind
        self._meta = meta
        self._children = children
        self._num_leaves: int = 1 if kind is _LEAF else sum(c.num_leaves for c in children)

    @property
    def num_leaves(self) -> int:
        """The number of leaves of the trees of this structure."""
        return self._num_leaves

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeDef):
            return NotImplemented
        return (
            self._kind is other._kind
            and _same(self._meta, other._meta)
            and self._children == other._children
        )

    def __hash__(self) -> int:
        try:
            meta = hash(self._meta)
        except TypeError:  # an unhashable aux of a registered class
            meta = 0
        return hash((id(self._kind), meta, self._children))

    def __repr__(self) -> str:
        return f"TreeDef({self._text()})"

    def _text(self) -> str:
        kind, kids = self._kind, [c._text() for c in self._children]
        if kind is _LEAF:
            return "*"
        if kind is list:
            return f"[{', '.join(kids)}]"
        if kind is tuple:
            return f"({kids[0]},)" if len(kids) == 1 else f"({', '.join(kids)})"
        if kind is dict:
            return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(self._meta, kids)) + "}"
        node = NODES.get(kind)
        names = self._meta if node is None else node.names  # a named tuple's: its fields
        if names is not None:
            return f"{kind.__name__}({', '.join(f'{n}={v}' for n, v in zip(names, kids))})"
        return f"{kind.__name__}({', '.join(kids)})"

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """A tree of this structure with ``leaves``, in order (see :func:`tree_unflatten`)."""
        return tree_unflatten(self, leaves)

    # -- building trees -----------------------------------------------------------------------

    def _build(self, leaves: Iterator[object]) -> Any:
        kind = self._kind
        if kind is _LEAF:
            return next(leaves)
        kids = [c._build(leaves) for c in self._children]
        if kind is tuple or kind is list:
            return kind(kids)
        if kind is dict:
            return dict(zip(self._meta, kids))
        node = NODES.get(kind)
        return kind(*kids) if node is None else node.unflatten(self._meta, kids)

    def _up_to(self, tree: Any, out: list[Any], path: str, fname: str, which: int) -> None:
        """The subtrees of ``tree`` at this structure's leaves, appended to ``out``."""
        kind = self._kind
        if kind is _LEAF:
            out.append(tree)
            return
        got = node_of(tree, None)
        if got is None or got[0] is not kind:
            raise _differs(fname, which, path, self, tree)
        _, meta, children, labels = got
        if kind is dict:
            if set(meta) != set(self._meta):
                raise _differs(fname, which, path, self, tree)
            children = [tree[k] for k in self._meta]
            labels = [f"[{k!r}]" for k in self._meta]
        elif len(children) != len(self._children) or not _same(meta, self._meta):
            raise _differs(fname, which, path, self, tree)
        for c, v, label in zip(self._children, children, labels):
            c._up_to(v, out, path + label, fname, which)


def _same(a: object, b: object) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # arrays in an aux compare elementwise: only the same object is equal
        return False


def _differs(fname: str, which: int, path: str, expected: TreeDef, tree: object) -> ValueError:
    return ValueError(
        f"arraymux.{fname}: tree {which} does not have the structure of tree 0 at "
        f"{path or 'the top'}: expected {expected!r} there, got {_short(tree)}. Trees "
        "mapped together must have the same nodes (dicts with the same keys, sequences of "
        "the same length)."
    )


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def node_of(
    tree: Any, is_leaf: Callable[[object], bool] | None
) -> tuple[type, Any, list[object], list[str]] | None:
    """``(kind, meta, children, labels)`` of a node, or None for a leaf."""
    if is_leaf is not None and is_leaf(tree):
        return None
    t = type(tree)
    if t is tuple or t is list:
        return t, None, list(tree), [f"[{i}]" for i in range(len(tree))]
    if t is dict:
        keys = tuple(tree)
        return dict, keys, [tree[k] for k in keys], [f"[{k!r}]" for k in keys]
    node = NODES.get(t)
    if node is not None:
        children, aux = node.flatten(tree)
        children = list(children)
        names = node.names or [f"[{i}]" for i in range(len(children))]
        return t, aux, children, [n if n.startswith("[") else f".{n}" for n in names]
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t, tuple(tree._fields), list(tree), [f".{f}" for f in tree._fields]
    return None


def _flatten(
    tree: object, is_leaf: Callable[[object], bool] | None, leaves: list[object]
) -> TreeDef:
    got = node_of(tree, is_leaf)
    if got is None:
        leaves.append(tree)
        return _LEAF_DEF
    kind, meta, children, _ = got
    return TreeDef(kind, meta, tuple(_flatten(c, is_leaf, leaves) for c in children))


_LEAF_DEF = TreeDef(_LEAF, None, ())


# -- the tree utilities -----------------------------------------------------------------------


def tree_flatten(
    tree: object, is_leaf: Callable[[object], bool] | None = None
) -> tuple[list[Any], TreeDef]:
    """The leaves of a pytree, in order, and its structure.

    Parameters
    ----------
    tree
        A pytree: tuples, lists, dicts, named tuples and registered classes, nested, with
        leaves (anything else: Arrays, scalars, None, ...).
    is_leaf
        A function of a subtree that returns True where the walk should stop and take the
        subtree as a leaf.

    Returns
    -------
    tuple
        ``(leaves, treedef)``: the list of leaves, and a :class:`TreeDef` that
        :func:`tree_unflatten` rebuilds the tree from.

    Examples
    --------
    >>> import arraymux as xp
    >>> leaves, treedef = xp.tree_flatten({"w": [1.0, 2.0], "b": None})
    >>> leaves
    [1.0, 2.0, None]
    >>> xp.tree_unflatten(treedef, [3.0, 4.0, 5.0])
    {'w': [3.0, 4.0], 'b': 5.0}
    """
    return _flat(tree, is_leaf, "tree_flatten")


def _flat(
    tree: object, is_leaf: Callable[[object], bool] | None, fname: str
) -> tuple[list[Any], TreeDef]:
    if is_leaf is not None and not callable(is_leaf):
        raise TypeError(
            f"arraymux.{fname}: is_leaf must be a function of a subtree or None, not "
            f"{type(is_leaf).__name__}."
        )
    leaves: list[Any] = []
    treedef = _flatten(tree, is_leaf, leaves)
    return leaves, treedef


def tree_unflatten(treedef: TreeDef, leaves: Iterable[Any]) -> Any:
    """The pytree of structure ``treedef`` with ``leaves`` in order.

    Parameters
    ----------
    treedef
        A structure from :func:`tree_flatten` or :func:`tree_structure`.
    leaves
        As many leaves as ``treedef`` has.

    Returns
    -------
    pytree
        The tree.

    Raises
    ------
    TypeError
        ``treedef`` is not a :class:`TreeDef`.
    ValueError
        Too few or too many leaves.

    Examples
    --------
    >>> import arraymux as xp
    >>> _, treedef = xp.tree_flatten((1, [2, 3]))
    >>> xp.tree_unflatten(treedef, "abc")
    ('a', ['b', 'c'])
    """
    if not isinstance(treedef, TreeDef):
        raise TypeError(
            f"arraymux.tree_unflatten: treedef must be a TreeDef (from arraymux.tree_flatten), "
            f"not {type(treedef).__name__}."
        )
    values = list(leaves)
    if len(values) != treedef.num_leaves:
        raise ValueError(
            f"arraymux.tree_unflatten: {treedef!r} has {treedef.num_leaves} leaves, but "
            f"{len(values)} were given."
        )
    return treedef._build(iter(values))


def tree_leaves(tree: object, is_leaf: Callable[[object], bool] | None = None) -> list[Any]:
    """The leaves of a pytree, in order.

    Parameters
    ----------
    tree
        A pytree: nested tuples, lists, dicts, named tuples and registered classes.
    is_leaf
        As in :func:`tree_flatten`.

    Returns
    -------
    list
        The leaves, in the order of :func:`tree_flatten` (a dict's in its own order).

    Examples
    --------
    >>> import arraymux as xp
    >>> params = {"w": xp.ones((2, 2)), "b": xp.zeros(2)}
    >>> sum(x.size for x in xp.tree_leaves(params))
    6
    """
    return _flat(tree, is_leaf, "tree_leaves")[0]


def tree_structure(tree: object, is_leaf: Callable[[object], bool] | None = None) -> TreeDef:
    """The structure of a pytree.

    Parameters
    ----------
    tree
        A pytree.
    is_leaf
        As in :func:`tree_flatten`.

    Returns
    -------
    TreeDef
        Its structure.

    Examples
    --------
    >>> import arraymux as xp
    >>> xp.tree_structure([1.0, (2.0, 3.0)]) == xp.tree_structure([4.0, (5.0, 6.0)])
    True
    """
    return _flat(tree, is_leaf, "tree_structure")[1]


def tree_map(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[[object], bool] | None = None,
) -> Any:
    """``f`` applied to every leaf of a pytree (to the leaves in the same places of several).

    Parameters
    ----------
    f
        A function of as many arguments as there are trees.
    tree
        A pytree; its structure is that of the result.
    *rest
        More pytrees with the structure of ``tree`` (where ``tree`` has a leaf, they may have
        any subtree, which ``f`` receives whole). Dicts match by key.
    is_leaf
        As in :func:`tree_flatten` (applied to ``tree``).

    Returns
    -------
    pytree
        A tree of the structure of ``tree`` with ``f(leaf, *others)`` at each leaf.

    Raises
    ------
    ValueError
        A tree of ``rest`` does not have the structure of ``tree``.

    Examples
    --------
    >>> import arraymux as xp
    >>> params = {"w": xp.asarray([1.0, 2.0]), "b": xp.asarray(0.5)}
    >>> grads = xp.grad(lambda p: xp.sum(p["w"] ** 2) + p["b"])(params)
    >>> xp.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    {'w': Array([0.8, 1.6], dtype=float64, device='numpy:cpu'), 'b': Array(0.4, dtype=float64, device='numpy:cpu')}
    """
    if not callable(f):
        raise TypeError(f"arraymux.tree_map: expected a function, got {type(f).__name__}.")
    leaves, treedef = _flat(tree, is_leaf, "tree_map")
    others = []
    for i, other in enumerate(rest, 1):
        found: list[Any] = []
        treedef._up_to(other, found, "", "tree_map", i)
        others.append(found)
    return treedef._build(iter([f(*xs) for xs in zip(leaves, *others)]))
