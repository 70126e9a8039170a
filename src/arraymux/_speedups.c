/* The hot path of arraymux in C: the same checks, unwrapping, call and wrapping as the Python
 * functions made in _dispatch.py (binary, unary, first), without the interpreter's frame,
 * attribute and allocation costs. Anything off the fast path (mixed dtypes, scalars, native
 * arrays, other devices, dtype= keywords) is handed to the Python function, which stays the
 * reference implementation and is what torch.compile traces.
 *
 * The module knows arraymux.Array and arraymux.Device only through their __slots__: setup()
 * reads the slot offsets from the member descriptors, so the Python classes stay as they are.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyTypeObject *array_type = NULL, *device_type = NULL;
static Py_ssize_t off_native, off_device, off_dtype; /* slots of Array */
static Py_ssize_t off_fns, off_results, off_backend; /* slots of Device */
static PyObject *type_cache = NULL; /* arraymux._backends._TYPE_CACHE: native type -> backend */
static PyObject *str_dtype = NULL;

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *out)
{
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s has no slot %s", type->tp_name, name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    *out = m->offset;
    return 0;
}

/* A new Array of device `d` wrapping `native` (a new reference, stolen). */
static PyObject *
wrap(PyObject *native, PyObject *d, PyObject *dtype)
{
    PyObject *out = array_type->tp_alloc(array_type, 0);
    if (out == NULL) {
        Py_DECREF(native);
        return NULL;
    }
    SLOT(out, off_native) = native;
    SLOT(out, off_device) = Py_NewRef(d);
    SLOT(out, off_dtype) = Py_NewRef(dtype);
    return out;
}

/* What a function or operator knows: its standard name, the Python function that handles every
 * call off the fast path, and a one-entry cache of the last device's function and result rule
 * (devices are interned and their function tables are built once, so the cache never goes
 * stale; it is refilled whenever another device comes). */
typedef struct {
    PyObject *name;
    PyObject *name1; /* "name(x)": a faster function for calls with the array alone, if any */
    PyObject *slow;
    int keeps_dtype;
    PyObject *device, *fn, *fn1, *rules; /* cache: the device, its functions, result rules */
    PyObject *t_in, *t_out;        /* cache: the last operand dtype and its result dtype */
} entry_t;

/* Fill the cache for device `d`; 0 if the device has no function of that name. */
static int
load(entry_t *e, PyObject *d)
{
    PyObject *fns = SLOT(d, off_fns), *results = SLOT(d, off_results);
    if (fns == NULL || !PyDict_CheckExact(fns)) {
        return 0;
    }
    PyObject *fn = PyDict_GetItemWithError(fns, e->name);
    if (fn == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *fn1 = e->name1 == NULL ? NULL : PyDict_GetItemWithError(fns, e->name1);
    if (fn1 == NULL) {
        PyErr_Clear();
        fn1 = fn;
    }
    PyObject *rules = NULL;
    if (results != NULL && PyDict_CheckExact(results)) {
        rules = PyDict_GetItemWithError(results, e->name);
        if (rules == NULL) {
            PyErr_Clear();
        }
        else if (!PyDict_CheckExact(rules)) {
            rules = NULL;
        }
    }
    Py_INCREF(d);
    Py_INCREF(fn);
    Py_INCREF(fn1);
    Py_XINCREF(rules);
    Py_XSETREF(e->device, d);
    Py_XSETREF(e->fn, fn);
    Py_XSETREF(e->fn1, fn1);
    Py_XSETREF(e->rules, rules);
    Py_CLEAR(e->t_in);
    Py_CLEAR(e->t_out);
    return 1;
}

/* The native dtype of the result on operands of native dtype `t` (borrowed), or None; the
 * cache must hold the operands' device. */
static inline PyObject *
result_dtype(entry_t *e, PyObject *t)
{
    if (t == NULL || t == Py_None || e->rules == NULL) {
        return Py_None;
    }
    if (t == e->t_in) {
        return e->t_out;
    }
    PyObject *r = PyDict_GetItemWithError(e->rules, t);
    if (r == NULL) {
        PyErr_Clear(); /* unknown or unhashable: no rule */
        r = Py_None;
    }
    Py_INCREF(t);
    Py_INCREF(r);
    Py_XSETREF(e->t_in, t);
    Py_XSETREF(e->t_out, r);
    return r;
}

/* Call `fn` (one of the cached functions) with `nargs` positional arguments and `kwnames`,
 * and wrap the result on device `d`: its dtype is `t` itself, or with `use_rules` the result
 * rule's for operands of dtype `t`. `native` is the array operand read from a slot (also in
 * `args`): it, `d` and `t` are held for the call, since the call may run code (another thread,
 * a JAX in-place update) that rebinds the slots they were read from. */
static inline PyObject *
call_and_wrap(entry_t *e, PyObject *fn, PyObject *d, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames, PyObject *t, int use_rules)
{
    Py_INCREF(fn); /* the call may refill the cache */
    Py_INCREF(d);
    Py_XINCREF(t);
    PyObject *r = PyObject_Vectorcall(fn, args, nargs, kwnames);
    Py_DECREF(fn);
    PyObject *out = NULL;
    if (r != NULL) {
        PyObject *out_t;
        if (!use_rules) {
            out_t = t == NULL ? Py_None : t;
        }
        else if (e->device == d) {
            out_t = result_dtype(e, t);
        }
        else {
            out_t = Py_None;
        }
        out = wrap(r, d, out_t);
    }
    Py_DECREF(d);
    Py_XDECREF(t);
    return out;
}

/* x._dtype, read from the native array and cached when unknown; NULL if it cannot be read. */
static inline PyObject *
cached_dtype(PyObject *x)
{
    PyObject *t = SLOT(x, off_dtype);
    if (t != NULL && t != Py_None) {
        return t;
    }
    t = PyObject_GetAttr(SLOT(x, off_native), str_dtype);
    if (t == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_XSETREF(SLOT(x, off_dtype), t);
    return t;
}

static PyObject *
binary_impl(entry_t *e, PyObject *x1, PyObject *x2)
{
    if (Py_TYPE(x1) == array_type && Py_TYPE(x2) == array_type) {
        PyObject *d = SLOT(x1, off_device);
        if (d != NULL && SLOT(x2, off_device) == d && SLOT(x1, off_native) != NULL
            && SLOT(x2, off_native) != NULL) {
            PyObject *t = cached_dtype(x1);
            if (t != NULL && t == cached_dtype(x2) && (d == e->device || load(e, d))) {
                PyObject *args[2] = {Py_NewRef(SLOT(x1, off_native)),
                                     Py_NewRef(SLOT(x2, off_native))};
                PyObject *out = call_and_wrap(e, e->fn, d, args, 2, NULL, t, 1);
                Py_DECREF(args[0]);
                Py_DECREF(args[1]);
                return out;
            }
        }
    }
    PyObject *args[2] = {x1, x2};
    return PyObject_Vectorcall(e->slow, args, 2, NULL);
}

static PyObject *
unary_impl(entry_t *e, PyObject *x)
{
    if (Py_TYPE(x) == array_type) {
        PyObject *d = SLOT(x, off_device);
        PyObject *native = SLOT(x, off_native);
        if (d != NULL && native != NULL && (d == e->device || load(e, d))) {
            Py_INCREF(native);
            PyObject *out = call_and_wrap(e, e->fn, d, &native, 1, NULL, SLOT(x, off_dtype), 1);
            Py_DECREF(native);
            return out;
        }
    }
    return PyObject_CallOneArg(e->slow, x);
}

/* ---- functions: builtins whose __self__ is a module object that carries their entry ----
 *
 * The holder is a module (a subtype of it, with the entry stored after the module's own
 * fields), so that the builtins print and introspect as plain functions of arraymux. */

enum { KIND_BINARY, KIND_UNARY, KIND_FIRST };

static PyTypeObject holder_type = {PyVarObject_HEAD_INIT(NULL, 0)};

#define ENTRY(holder) ((entry_t *)((char *)(holder) + PyModule_Type.tp_basicsize))

static void
clear_entry(entry_t *e)
{
    Py_CLEAR(e->name);
    Py_CLEAR(e->name1);
    Py_CLEAR(e->slow);
    Py_CLEAR(e->device);
    Py_CLEAR(e->fn);
    Py_CLEAR(e->fn1);
    Py_CLEAR(e->rules);
    Py_CLEAR(e->t_in);
    Py_CLEAR(e->t_out);
}

static void
holder_dealloc(PyObject *self)
{
    clear_entry(ENTRY(self));
    PyModule_Type.tp_dealloc(self);
}

static int
holder_traverse(PyObject *self, visitproc visit, void *arg)
{
    entry_t *e = ENTRY(self);
    Py_VISIT(e->slow);
    Py_VISIT(e->device);
    Py_VISIT(e->fn);
    Py_VISIT(e->fn1);
    Py_VISIT(e->rules);
    return PyModule_Type.tp_traverse(self, visit, arg);
}

static PyObject *
binary_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = ENTRY(self);
    if (nargs == 2 && kwnames == NULL) {
        return binary_impl(e, args[0], args[1]);
    }
    return PyObject_Vectorcall(e->slow, args, nargs, kwnames);
}

static PyObject *
unary_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = ENTRY(self);
    if (nargs == 1 && kwnames == NULL) {
        return unary_impl(e, args[0]);
    }
    return PyObject_Vectorcall(e->slow, args, nargs, kwnames);
}

static int
has_dtype_keyword(PyObject *kwnames)
{
    if (kwnames == NULL) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (k == str_dtype || PyUnicode_Compare(k, str_dtype) == 0) {
            return 1;
        }
    }
    return 0;
}

#define FIRST_STACK 8

static PyObject *
first_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = ENTRY(self);
    if (nargs >= 1 && Py_TYPE(args[0]) == array_type && !has_dtype_keyword(kwnames)) {
        PyObject *x = args[0];
        PyObject *d = SLOT(x, off_device);
        PyObject *native = SLOT(x, off_native);
        if (d != NULL && native != NULL && (d == e->device || load(e, d))) {
            Py_ssize_t total = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
            PyObject *small[FIRST_STACK];
            PyObject **stack = small;
            if (total > FIRST_STACK) {
                stack = PyMem_Malloc(total * sizeof(PyObject *));
                if (stack == NULL) {
                    return PyErr_NoMemory();
                }
            }
            stack[0] = Py_NewRef(native);
            for (Py_ssize_t i = 1; i < total; i++) {
                stack[i] = args[i];
            }
            PyObject *t = e->keeps_dtype ? SLOT(x, off_dtype) : NULL;
            PyObject *fn = (nargs == 1 && kwnames == NULL) ? e->fn1 : e->fn;
            PyObject *r = call_and_wrap(e, fn, d, stack, nargs, kwnames, t, 0);
            Py_DECREF(stack[0]);
            if (stack != small) {
                PyMem_Free(stack);
            }
            return r;
        }
    }
    return PyObject_Vectorcall(e->slow, args, nargs, kwnames);
}

/* A name that compares by identity with the keys of the function tables. */
static PyObject *
interned(PyObject *s)
{
    Py_INCREF(s);
    PyUnicode_InternInPlace(&s);
    return s;
}

static PyObject *
make_function(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* function(kind, name, short_name, module_name, doc, slow, keeps_dtype) */
    if (nargs != 7 || !PyLong_Check(args[0]) || !PyUnicode_Check(args[1])
        || !PyUnicode_Check(args[2]) || !PyUnicode_Check(args[3]) || !PyUnicode_Check(args[4])
        || !PyCallable_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "function(kind, name, short_name, module_name, doc, slow, keeps_dtype)");
        return NULL;
    }
    long kind = PyLong_AsLong(args[0]);
    PyCFunction impl = kind == KIND_BINARY  ? (PyCFunction)(void (*)(void))binary_fn
                       : kind == KIND_UNARY ? (PyCFunction)(void (*)(void))unary_fn
                       : kind == KIND_FIRST ? (PyCFunction)(void (*)(void))first_fn
                                            : NULL;
    if (impl == NULL) {
        PyErr_SetString(PyExc_ValueError, "unknown function kind");
        return NULL;
    }
    int keeps = PyObject_IsTrue(args[6]);
    if (keeps < 0) {
        return NULL;
    }
    /* Names and docs live as long as the process, like those of any builtin. */
    const char *short_name = PyUnicode_AsUTF8(args[2]);
    const char *doc = PyUnicode_AsUTF8(args[4]);
    if (short_name == NULL || doc == NULL) {
        return NULL;
    }
    PyMethodDef *def = PyMem_Calloc(1, sizeof(PyMethodDef));
    if (def == NULL || (def->ml_name = strdup(short_name)) == NULL
        || (def->ml_doc = strdup(doc)) == NULL) {
        return PyErr_NoMemory();
    }
    def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
    def->ml_meth = impl;
    PyObject *holder = PyObject_CallOneArg((PyObject *)&holder_type, args[3]);
    if (holder == NULL) {
        return NULL;
    }
    entry_t *e = ENTRY(holder);
    e->name = interned(args[1]);
    if (kind == KIND_FIRST) {
        PyObject *name1 = PyUnicode_FromFormat("%U(x)", args[1]);
        if (name1 == NULL) {
            Py_DECREF(holder);
            return NULL;
        }
        PyUnicode_InternInPlace(&name1);
        e->name1 = name1;
    }
    e->slow = Py_NewRef(args[5]);
    e->keeps_dtype = keeps;
    PyObject *fn = PyCFunction_NewEx(def, holder, args[3]);
    Py_DECREF(holder);
    return fn;
}

/* ---- pytrees: the arguments and results of the transforms ----
 *
 * natives(tree) unwraps the Arrays of a tree of tuples, lists and dicts (Python scalars and
 * None pass through) and checks that they share one device; device_of(tree) only checks;
 * wrap_tree(tree, device) wraps the leaves whose type the type cache maps to the device's
 * backend. Anything else (native arrays, named tuples, other objects, very deep trees) makes
 * them return None: the Python functions handle it. */

static PyObject *slow_marker = NULL; /* returned (as a new reference) up the recursion */

#define MAX_DEPTH 64

static inline int
passes_through(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    return x == Py_None || t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type
           || t == &PyComplex_Type;
}

typedef PyObject *(*leaf_fn)(PyObject *leaf, void *state);

/* `tree` rebuilt with `leaf` applied to every leaf that is not a container. */
static PyObject *
map_tree(PyObject *tree, leaf_fn leaf, void *state, int depth)
{
    PyTypeObject *t = Py_TYPE(tree);
    if (depth > MAX_DEPTH) {
        return Py_NewRef(slow_marker);
    }
    if (t == &PyTuple_Type || t == &PyList_Type) {
        Py_ssize_t n = Py_SIZE(tree);
        PyObject *out = t == &PyTuple_Type ? PyTuple_New(n) : PyList_New(n);
        if (out == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = t == &PyTuple_Type ? PyTuple_GET_ITEM(tree, i)
                                                : PyList_GET_ITEM(tree, i);
            PyObject *r = map_tree(item, leaf, state, depth + 1);
            if (r == NULL || r == slow_marker) {
                Py_DECREF(out);
                return r;
            }
            if (t == &PyTuple_Type) {
                PyTuple_SET_ITEM(out, i, r);
            }
            else {
                PyList_SET_ITEM(out, i, r);
            }
        }
        return out;
    }
    if (t == &PyDict_Type) {
        PyObject *out = PyDict_New();
        if (out == NULL) {
            return NULL;
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(tree, &pos, &k, &v)) {
            PyObject *r = map_tree(v, leaf, state, depth + 1);
            if (r == NULL || r == slow_marker) {
                Py_DECREF(out);
                return r;
            }
            int err = PyDict_SetItem(out, k, r);
            Py_DECREF(r);
            if (err < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        return out;
    }
    return leaf(tree, state);
}

static PyObject *
native_leaf(PyObject *x, void *state)
{
    PyObject **dev = (PyObject **)state;
    if (Py_TYPE(x) == array_type) {
        PyObject *d = SLOT(x, off_device), *native = SLOT(x, off_native);
        if (d == NULL || native == NULL || (*dev != NULL && d != *dev)) {
            return Py_NewRef(slow_marker);
        }
        *dev = d;
        return Py_NewRef(native);
    }
    if (passes_through(x)) {
        return Py_NewRef(x);
    }
    return Py_NewRef(slow_marker);
}

static PyObject *
natives(PyObject *module, PyObject *tree)
{
    /* natives(tree) -> (tree of natives, device) or None */
    if (array_type == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *dev = NULL;
    PyObject *r = map_tree(tree, native_leaf, &dev, 0);
    if (r == NULL) {
        return NULL;
    }
    if (r == slow_marker || dev == NULL) {
        Py_DECREF(r);
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_Pack(2, r, dev);
    Py_DECREF(r);
    return out;
}

/* 1: the tree's Arrays share *dev (set at the first); 0: something else is in it. */
static int
walk_devices(PyObject *tree, PyObject **dev, int depth)
{
    PyTypeObject *t = Py_TYPE(tree);
    if (t == array_type) {
        PyObject *d = SLOT(tree, off_device);
        if (d == NULL || (*dev != NULL && d != *dev)) {
            return 0;
        }
        *dev = d;
        return 1;
    }
    if (passes_through(tree)) {
        return 1;
    }
    if (depth > MAX_DEPTH) {
        return 0;
    }
    if (t == &PyTuple_Type || t == &PyList_Type) {
        Py_ssize_t n = Py_SIZE(tree);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = t == &PyTuple_Type ? PyTuple_GET_ITEM(tree, i)
                                                : PyList_GET_ITEM(tree, i);
            if (!walk_devices(item, dev, depth + 1)) {
                return 0;
            }
        }
        return 1;
    }
    if (t == &PyDict_Type) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(tree, &pos, &k, &v)) {
            if (!walk_devices(v, dev, depth + 1)) {
                return 0;
            }
        }
        return 1;
    }
    return 0;
}

static PyObject *
device_of(PyObject *module, PyObject *tree)
{
    /* device_of(tree) -> the one device of the tree's Arrays, or None */
    PyObject *dev = NULL;
    if (array_type == NULL || !walk_devices(tree, &dev, 0) || dev == NULL) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(dev);
}

typedef struct {
    PyObject *device, *backend, *types; /* types: arraymux._backends._TYPE_CACHE */
} wrap_state;

static PyObject *
wrap_leaf(PyObject *x, void *state)
{
    wrap_state *w = (wrap_state *)state;
    if (passes_through(x)) {
        return Py_NewRef(x);
    }
    PyObject *b = PyDict_GetItemWithError(w->types, (PyObject *)Py_TYPE(x));
    if (b == w->backend) {
        return wrap(Py_NewRef(x), w->device, Py_None);
    }
    if (b == NULL && PyErr_Occurred()) {
        return NULL;
    }
    return Py_NewRef(slow_marker); /* another backend's array, a type not seen yet, ... */
}

static PyObject *
wrap_tree(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* wrap_tree(tree, device) -> tree of Arrays, or None */
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "wrap_tree(tree, device)");
        return NULL;
    }
    if (array_type == NULL || Py_TYPE(args[1]) != device_type) {
        Py_RETURN_NONE;
    }
    PyObject *backend = SLOT(args[1], off_backend);
    if (backend == NULL) {
        Py_RETURN_NONE;
    }
    wrap_state w = {args[1], backend, type_cache};
    PyObject *r = map_tree(args[0], wrap_leaf, &w, 0);
    if (r == slow_marker) {
        Py_DECREF(r);
        Py_RETURN_NONE;
    }
    return r;
}

static PyObject *
setup(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* setup(Array, Device, type_cache): learn where the slots are. */
    if (nargs != 3 || !PyType_Check(args[0]) || !PyType_Check(args[1])
        || !PyDict_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "setup(Array, Device, type_cache)");
        return NULL;
    }
    PyTypeObject *arr = (PyTypeObject *)args[0], *dev = (PyTypeObject *)args[1];
    if (slot_offset(arr, "_native", &off_native) < 0 || slot_offset(arr, "_device", &off_device) < 0
        || slot_offset(arr, "_dtype", &off_dtype) < 0 || slot_offset(dev, "_fns", &off_fns) < 0
        || slot_offset(dev, "_results", &off_results) < 0
        || slot_offset(dev, "_backend", &off_backend) < 0) {
        return NULL;
    }
    Py_XSETREF(type_cache, Py_NewRef(args[2]));
    Py_XSETREF(device_type, (PyTypeObject *)Py_NewRef(dev));
    Py_XSETREF(array_type, (PyTypeObject *)Py_NewRef(arr));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(Array, Device, type_cache): read the slot offsets of the two classes."},
    {"function", (PyCFunction)(void (*)(void))make_function, METH_FASTCALL,
     "function(kind, name, short_name, module_name, doc, slow, keeps_dtype): a builtin that "
     "runs the fast path of `name` and hands every other call to `slow`."},
    {"natives", (PyCFunction)natives, METH_O,
     "natives(tree) -> (tree with its Arrays unwrapped, their one device), or None."},
    {"device_of", (PyCFunction)device_of, METH_O,
     "device_of(tree) -> the one device of the tree's Arrays, or None (as natives, without "
     "building anything)."},
    {"wrap_tree", (PyCFunction)(void (*)(void))wrap_tree, METH_FASTCALL,
     "wrap_tree(tree, device) -> tree with the arrays of the device's backend wrapped as Arrays "
     "on it, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "arraymux._speedups",
    "The compiled hot path of arraymux (optional; the Python functions are the reference).", -1,
    methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    str_dtype = PyUnicode_InternFromString("dtype");
    slow_marker = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    if (str_dtype == NULL || slow_marker == NULL) {
        return NULL;
    }
    holder_type.tp_name = "arraymux._speedups.function_holder";
    holder_type.tp_doc = "The module object behind a compiled arraymux function.";
    holder_type.tp_basicsize = PyModule_Type.tp_basicsize + (Py_ssize_t)sizeof(entry_t);
    holder_type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    holder_type.tp_base = &PyModule_Type;
    holder_type.tp_dealloc = holder_dealloc;
    holder_type.tp_traverse = holder_traverse;
    holder_type.tp_clear = PyModule_Type.tp_clear;
    if (PyType_Ready(&holder_type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "BINARY", KIND_BINARY) < 0
        || PyModule_AddIntConstant(m, "UNARY", KIND_UNARY) < 0
        || PyModule_AddIntConstant(m, "FIRST", KIND_FIRST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
