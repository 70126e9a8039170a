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
#include <stdint.h>
#include <string.h>
#include <math.h>

static PyTypeObject *array_type = NULL, *device_type = NULL;
static Py_ssize_t off_native, off_device, off_dtype; /* slots of Array */
static Py_ssize_t off_fns, off_results, off_backend, off_known; /* slots of Device */
static Py_ssize_t off_plain_index;                                /* slot of Device */
static PyObject *type_cache = NULL; /* arraymux._backends.TYPE_CACHE: native type -> backend */
static PyObject *bool_keywords = NULL; /* arraymux._signatures.BOOL_KEYWORDS: a frozenset */
static PyObject *words = NULL;         /* arraymux._signatures.WORDS: a frozenset */
static PyObject *str_dtype = NULL;
static PyObject *str_ndim = NULL;
static PyObject *str_variable = NULL, *str_next_functions = NULL; /* autograd nodes */
static PyObject *str_refused = NULL;
static PyObject *str_wrapped = NULL;

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

/* Clear the error of a lookup whose failure sends the call to the Python path (an unknown or
 * unhashable dtype, a plan that could not be made). An interrupt met there, while a dtype's
 * __hash__ or a planner ran Python code, is not dropped with it: it is signalled again, and
 * raised at the next check for signals, as soon as Python code runs. */
static void
clear_error(void)
{
    int interrupted = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt);
    PyErr_Clear();
    if (interrupted) {
        PyErr_SetInterrupt();
    }
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
    PyObject *name1; /* "name(x)" ("name(x1, x2)" for binary functions): a faster function
                      * for plain calls (the array alone; two arrays of one dtype), if any */
    PyObject *name1_skip; /* "name(x) not for": a frozenset of operand dtypes it must not take */
    PyObject *slow;
    int keeps_dtype;
    Py_ssize_t max_args; /* "first" functions: most positional arguments the standard allows */
    PyObject *keywords;  /* "first" functions: a frozenset of the keyword names it allows */
    PyObject *device, *fn, *fn1, *rules; /* cache: the device, its functions, result rules */
    PyObject *fn1_skip;            /* cache: the device's "name(x) not for" set, or NULL */
    PyObject *fn_inner, *refused;  /* cache: where the device's function refuses operands of
                                    * some dtypes (a Python wrapper, _backends._refusing), the
                                    * function it wraps and those dtypes; else NULL */
    PyObject *known;               /* cache: the device's native dtype -> arraymux dtype map */
    PyObject *t_in, *t_out;        /* cache: the last operand dtype and its result dtype */
    PyObject *t_ok;                /* cache: the last result dtype found in `known` */
    /* cache, per position of the scalar: the last array-and-scalar call's device, native
     * dtype, scalar type and plan (a tuple, or None: see _compiled.scalar_plan) */
    PyObject *s_device[2], *s_dtype[2], *s_type[2], *s_plan[2];
} entry_t;

/* None or a Python number (exact types: nothing a subclass could override). */
static inline int
passes_through(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    return x == Py_None || t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type
           || t == &PyComplex_Type;
}

static inline int
is_device(PyObject *d)
{
    return d != NULL && Py_TYPE(d) == device_type;
}

/* Fill the cache for device `d` (a Device, held by the caller); 0 if the device has no
 * function of that name. Every object read here is held before anything else is looked up: a
 * lookup may run Python code (a dtype's __eq__) that changes the dicts it came from. */
static int
load(entry_t *e, PyObject *d)
{
    PyObject *fns = SLOT(d, off_fns), *results = SLOT(d, off_results);
    PyObject *known = SLOT(d, off_known);
    if (fns == NULL || !PyDict_CheckExact(fns) || known == NULL || !PyDict_CheckExact(known)) {
        return 0;
    }
    Py_INCREF(fns);
    Py_XINCREF(results);
    Py_INCREF(known);
    PyObject *fn = PyDict_GetItemWithError(fns, e->name);
    Py_XINCREF(fn);
    PyObject *fn1 = NULL, *skip = NULL;
    if (fn != NULL && e->name1 != NULL) {
        fn1 = PyDict_GetItemWithError(fns, e->name1);
        Py_XINCREF(fn1);
        if (fn1 != NULL && e->name1_skip != NULL) {
            skip = PyDict_GetItemWithError(fns, e->name1_skip);
            if (skip != NULL && PyFrozenSet_CheckExact(skip)) {
                Py_INCREF(skip);
            }
            else {
                skip = NULL;
            }
        }
    }
    PyObject *rules = NULL;
    if (fn != NULL && results != NULL && PyDict_CheckExact(results)) {
        rules = PyDict_GetItemWithError(results, e->name);
        if (rules != NULL && PyDict_CheckExact(rules)) {
            Py_INCREF(rules);
        }
        else {
            rules = NULL;
        }
    }
    clear_error(); /* a missing or unhashable entry is no entry */
    Py_DECREF(fns);
    Py_XDECREF(results);
    if (fn == NULL) {
        Py_XDECREF(fn1);
        Py_XDECREF(skip);
        Py_XDECREF(rules);
        Py_DECREF(known);
        return 0;
    }
    if (fn1 == NULL) {
        fn1 = Py_NewRef(fn);
    }
    /* A refusing wrapper: its set and the function inside it (read once per device). */
    PyObject *refused = PyObject_GetAttr(fn, str_refused);
    PyObject *inner = NULL;
    if (refused != NULL && PyFrozenSet_CheckExact(refused)) {
        inner = PyObject_GetAttr(fn, str_wrapped);
    }
    if (inner == NULL || !PyCallable_Check(inner)) {
        Py_CLEAR(inner);
        Py_CLEAR(refused);
    }
    clear_error();
    Py_INCREF(d);
    Py_XSETREF(e->device, d);
    Py_XSETREF(e->fn, fn);
    Py_XSETREF(e->fn1, fn1);
    Py_XSETREF(e->fn1_skip, skip);
    Py_XSETREF(e->fn_inner, inner);
    Py_XSETREF(e->refused, refused);
    Py_XSETREF(e->rules, rules);
    Py_XSETREF(e->known, known);
    Py_CLEAR(e->t_in);
    Py_CLEAR(e->t_out);
    Py_CLEAR(e->t_ok);
    return 1;
}

/* The cached function for a plain call on operands of native dtype `t`, which the caller
 * holds (a new reference): the device's "name(x)" (or "name(x1, x2)") function, except for
 * the dtypes its "not for" set names, where the full function handles the call. All three
 * are held before the set's lookup, whose hash of `t` might run Python code that refills
 * the cache for another device. */
static PyObject *
plain_fn(entry_t *e, PyObject *t)
{
    PyObject *fn = Py_NewRef(e->fn1);
    PyObject *skip = Py_XNewRef(e->fn1_skip);
    if (skip != NULL) {
        PyObject *fn_all = Py_NewRef(e->fn);
        if (PySet_Contains(skip, t) != 0) {
            clear_error();
            Py_SETREF(fn, Py_NewRef(fn_all));
        }
        Py_DECREF(fn_all);
        Py_DECREF(skip);
    }
    return fn;
}

/* The native dtype of the result on operands of native dtype `t`, or None (a new reference);
 * the cache must hold the operands' device. */
static PyObject *
result_dtype(entry_t *e, PyObject *t)
{
    if (t == NULL || t == Py_None || e->rules == NULL) {
        Py_RETURN_NONE;
    }
    if (t == e->t_in) {
        return Py_NewRef(e->t_out);
    }
    PyObject *rules = Py_NewRef(e->rules); /* hashing `t` may run Python code */
    PyObject *r = PyDict_GetItemWithError(rules, t);
    if (r == NULL) {
        clear_error(); /* unknown or unhashable: no rule */
        r = Py_None;
    }
    Py_INCREF(r);
    Py_DECREF(rules);
    Py_INCREF(t);
    Py_XSETREF(e->t_in, t);
    Py_XSETREF(e->t_out, Py_NewRef(r));
    return r;
}

/* The dtype of result `r` of device `d` when it is a dtype of the standard (a new reference),
 * else NULL with no exception set: the caller then hands the call to the Python function,
 * which explains or corrects it (NumPy's float16 from small integers, say). */
static PyObject *
checked_dtype(entry_t *e, PyObject *d, PyObject *r)
{
    PyObject *rt = PyObject_GetAttr(r, str_dtype);
    if (rt == NULL) {
        clear_error();
        return NULL;
    }
    if (rt == e->t_ok && e->device == d) {
        return rt;
    }
    if (e->device != d || e->known == NULL) {
        Py_DECREF(rt);
        return NULL;
    }
    PyObject *known = Py_NewRef(e->known);
    int found = PyDict_Contains(known, rt);
    Py_DECREF(known);
    if (found != 1) {
        clear_error();
        Py_DECREF(rt);
        return NULL;
    }
    if (e->device == d) {
        Py_XSETREF(e->t_ok, Py_NewRef(rt));
    }
    return rt;
}

/* Returned by call_and_wrap when the result has no dtype of the standard: the caller then
 * runs the Python function instead (a marker, never seen outside this file). */
static PyObject *use_python = NULL;
/* arraymux._backend_errors.BACKEND_ERRORS: the errors of refused arguments, which the Python function
 * explains; any other exception (a library's control flow) passes through as it is. */
static PyObject *backend_errors = NULL;
/* arraymux._compiled.scalar_plan(name, device, dtype, scalar_type, position) */
static PyObject *scalar_planner = NULL;
/* arraymux._compiled.where_plan(device, condition_dtype, dtype) */
static PyObject *where_planner = NULL;

/* Call `fn` (one of the cached functions, held by the caller) with `nargs` positional arguments
 * and `kwnames`, and wrap the result on device `d` (held by the caller): its dtype is `t`
 * itself, or with `use_rules` the result rule's for operands of dtype `t`; a result whose dtype
 * no rule gives is checked to be one of the standard's (else `use_python` is returned). */
static inline PyObject *
call_and_wrap(entry_t *e, PyObject *fn, PyObject *d, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames, PyObject *t, int use_rules)
{
    PyObject *r = PyObject_Vectorcall(fn, args, nargs, kwnames);
    if (r == NULL) {
        /* The backend refused the arguments: the Python function checks them and raises an
         * error that names the function (memory errors and interrupts pass as they are). */
        if (backend_errors != NULL && PyErr_ExceptionMatches(backend_errors)) {
            PyErr_Clear();
            return Py_NewRef(use_python);
        }
        return NULL;
    }
    PyObject *out_t;
    if (!use_rules) {
        out_t = Py_NewRef(t == NULL ? Py_None : t);
    }
    else {
        out_t = e->device == d ? result_dtype(e, t) : Py_NewRef(Py_None);
        if (out_t == Py_None) {
            Py_DECREF(out_t);
            out_t = checked_dtype(e, d, r);
            if (out_t == NULL) {
                Py_DECREF(r);
                return Py_NewRef(use_python);
            }
        }
    }
    PyObject *out = wrap(r, d, out_t);
    Py_DECREF(out_t);
    return out;
}

/* The native dtype of `x`, whose native array `native` the caller holds: the cached one, else
 * read from `native` (which may run Python code) and cached if `x` still wraps `native`. A new
 * reference, or NULL (no exception set) if it cannot be read. */
static PyObject *
cached_dtype(PyObject *x, PyObject *native)
{
    PyObject *t = SLOT(x, off_dtype);
    if (t != NULL && t != Py_None) {
        return Py_NewRef(t);
    }
    t = PyObject_GetAttr(native, str_dtype);
    if (t == NULL) {
        clear_error();
        return NULL;
    }
    if (SLOT(x, off_native) == native) {
        Py_XSETREF(SLOT(x, off_dtype), Py_NewRef(t));
    }
    return t;
}

/* An exact Python scalar the fast path takes beside an array (not None). */
static inline int
is_scalar(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    return t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type;
}

/* The plan for an array of native dtype `t` on device `d` beside a scalar of type `type` at
 * `pos`: the entry's cached one, else asked of scalar_planner (and cached). A new reference:
 * a tuple, or None (also where the planner failed). */
static PyObject *
scalar_plan(entry_t *e, PyObject *d, PyObject *t, PyTypeObject *type, int pos)
{
    if (e->s_plan[pos] != NULL && e->s_device[pos] == d && e->s_dtype[pos] == t
        && e->s_type[pos] == (PyObject *)type) {
        return Py_NewRef(e->s_plan[pos]);
    }
    if (scalar_planner == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *pos_obj = PyLong_FromLong(pos);
    if (pos_obj == NULL) {
        clear_error();
        Py_RETURN_NONE;
    }
    PyObject *args[5] = {e->name, d, t, (PyObject *)type, pos_obj};
    PyObject *plan = PyObject_Vectorcall(scalar_planner, args, 5, NULL);
    Py_DECREF(pos_obj);
    if (plan == NULL
        || !(plan == Py_None || (PyTuple_CheckExact(plan) && PyTuple_GET_SIZE(plan) == 6))) {
        clear_error();
        Py_XDECREF(plan);
        Py_RETURN_NONE;
    }
    Py_XSETREF(e->s_device[pos], Py_NewRef(d));
    Py_XSETREF(e->s_dtype[pos], Py_NewRef(t));
    Py_XSETREF(e->s_type[pos], Py_NewRef((PyObject *)type));
    Py_XSETREF(e->s_plan[pos], Py_NewRef(plan));
    return plan;
}

/* 1 if the int `value` is within [lo, hi] (Python ints, or None for no bound); 0 if not or
 * if it cannot be told (the Python path decides). */
static int
int_in_range(PyObject *value, PyObject *lo, PyObject *hi)
{
    if (lo == Py_None && hi == Py_None) {
        return 1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        clear_error();
        return 0;
    }
    if (overflow) {
        return 0;
    }
    long long bound;
    if (lo != Py_None) {
        bound = PyLong_AsLongLongAndOverflow(lo, &overflow);
        if ((bound == -1 && PyErr_Occurred()) || overflow || v < bound) {
            clear_error();
            return 0;
        }
    }
    if (hi != Py_None) {
        bound = PyLong_AsLongLongAndOverflow(hi, &overflow);
        if (bound == -1 && PyErr_Occurred()) {
            clear_error();
            return 0;
        }
        if (!overflow && v > bound) { /* overflow: hi beyond long long, v within it */
            return 0;
        }
    }
    return 1;
}

/* `array` (an exact Array) and `value` (an exact Python scalar) at position `pos` of the
 * call: the plan's function called on the native array and the scalar itself, or use_python
 * (a new reference) where the call must take the Python path. */
static PyObject *
scalar_impl(entry_t *e, PyObject *array, PyObject *value, int pos)
{
    PyObject *d = SLOT(array, off_device);
    PyObject *native = SLOT(array, off_native);
    if (!is_device(d) || native == NULL) {
        return Py_NewRef(use_python);
    }
    Py_INCREF(d);
    Py_INCREF(native);
    PyObject *out = Py_NewRef(use_python);
    PyObject *t = cached_dtype(array, native);
    PyObject *plan = t == NULL ? NULL : scalar_plan(e, d, t, Py_TYPE(value), pos);
    if (plan != NULL && plan != Py_None) {
        PyObject *fn = PyTuple_GET_ITEM(plan, 0), *rt = PyTuple_GET_ITEM(plan, 1);
        int ok = Py_TYPE(value) != &PyLong_Type
                 || int_in_range(value, PyTuple_GET_ITEM(plan, 2), PyTuple_GET_ITEM(plan, 3));
        PyObject *zero_d = PyTuple_GET_ITEM(plan, 4);
        if (ok && zero_d != Py_False) {
            /* The plan's function takes arrays of one or more dimensions; a 0-d array takes
             * the plan's 0-d function where it has one (else the Python path). */
            PyObject *ndim = PyObject_GetAttr(native, str_ndim);
            long nd = ndim != NULL && PyLong_CheckExact(ndim) ? PyLong_AsLong(ndim) : -1;
            Py_XDECREF(ndim);
            clear_error();
            if (nd == 0 && zero_d != Py_True && PyCallable_Check(zero_d)) {
                fn = zero_d;
            }
            else {
                ok = nd > 0;
            }
        }
        if (ok) {
            int first = pos || PyTuple_GET_ITEM(plan, 5) == Py_True; /* the array first */
            PyObject *nargs[2] = {first ? native : value, first ? value : native};
            Py_DECREF(out);
            out = call_and_wrap(e, fn, d, nargs, 2, NULL, rt, 0);
        }
    }
    Py_XDECREF(plan);
    Py_XDECREF(t);
    Py_DECREF(native);
    Py_DECREF(d);
    return out;
}

static PyObject *
binary_impl(entry_t *e, PyObject *x1, PyObject *x2)
{
    PyObject *args[2] = {x1, x2};
    if (Py_TYPE(x1) == array_type && Py_TYPE(x2) == array_type) {
        PyObject *d = SLOT(x1, off_device);
        PyObject *n1 = SLOT(x1, off_native), *n2 = SLOT(x2, off_native);
        if (is_device(d) && SLOT(x2, off_device) == d && n1 != NULL && n2 != NULL) {
            /* Reading a dtype may run Python code that rebinds or deletes the slots: hold
             * what was read from them, and use only that. */
            Py_INCREF(d);
            Py_INCREF(n1);
            Py_INCREF(n2);
            PyObject *out = Py_NewRef(use_python);
            PyObject *t1 = cached_dtype(x1, n1);
            PyObject *t2 = t1 == NULL ? NULL : cached_dtype(x2, n2);
            if (t1 != NULL && t1 == t2 && (d == e->device || load(e, d))) {
                /* "name(x1, x2)" where the device has one (torch's matmul without the Python
                 * wrapper of its integer fallback), except for the dtypes it is not for. */
                PyObject *fn = plain_fn(e, t1);
                PyObject *nargs[2] = {n1, n2};
                Py_DECREF(out);
                out = call_and_wrap(e, fn, d, nargs, 2, NULL, t1, 1);
                Py_DECREF(fn);
            }
            Py_XDECREF(t1);
            Py_XDECREF(t2);
            Py_DECREF(n1);
            Py_DECREF(n2);
            Py_DECREF(d);
            if (out != use_python) {
                return out;
            }
            Py_DECREF(out);
        }
    }
    else if ((Py_TYPE(x1) == array_type && is_scalar(x2))
             || (Py_TYPE(x2) == array_type && is_scalar(x1))) {
        int pos = Py_TYPE(x1) == array_type;
        PyObject *out = scalar_impl(e, pos ? x1 : x2, pos ? x2 : x1, pos);
        if (out != use_python) {
            return out;
        }
        Py_DECREF(out);
    }
    return PyObject_Vectorcall(e->slow, args, 2, NULL);
}

static PyObject *
unary_impl(entry_t *e, PyObject *x)
{
    if (Py_TYPE(x) == array_type) {
        PyObject *d = SLOT(x, off_device);
        PyObject *native = SLOT(x, off_native);
        if (is_device(d) && native != NULL) {
            Py_INCREF(d);
            Py_INCREF(native);
            PyObject *out = Py_NewRef(use_python);
            PyObject *t = cached_dtype(x, native);
            if (t != NULL && (d == e->device || load(e, d))) {
                /* The device's "name(x)" function where it has one, except for the operand
                 * dtypes it is not for (complex special cases: the full function). */
                PyObject *fn = plain_fn(e, t);
                Py_DECREF(out);
                out = call_and_wrap(e, fn, d, &native, 1, NULL, t, 1);
                Py_DECREF(fn);
            }
            Py_XDECREF(t);
            Py_DECREF(native);
            Py_DECREF(d);
            if (out != use_python) {
                return out;
            }
            Py_DECREF(out);
        }
    }
    return PyObject_CallOneArg(e->slow, x);
}

/* ---- functions: builtins whose __self__ is a module object that carries their entry ----
 *
 * The holder is a module (a subtype of it, with the entry stored after the module's own
 * fields), so that the builtins print and introspect as plain functions of arraymux. */

enum { KIND_BINARY, KIND_UNARY, KIND_FIRST, KIND_WHERE };

static PyTypeObject holder_type = {PyVarObject_HEAD_INIT(NULL, 0)};

#define ENTRY(holder) ((entry_t *)((char *)(holder) + PyModule_Type.tp_basicsize))

/* Every object an entry holds: the garbage collector visits and clears the same ones. */
#define ENTRY_OBJECTS(X) \
    X(name) X(name1) X(name1_skip) X(slow) X(keywords) X(device) \
    X(fn) X(fn1) X(fn1_skip) X(fn_inner) X(refused) X(rules) X(known) X(t_in) \
    X(t_out) X(t_ok) X(s_device[0]) X(s_device[1]) X(s_dtype[0]) X(s_dtype[1]) \
    X(s_type[0]) X(s_type[1]) X(s_plan[0]) X(s_plan[1])

static void
clear_entry(entry_t *e)
{
#define CLEAR(field) Py_CLEAR(e->field);
    ENTRY_OBJECTS(CLEAR)
#undef CLEAR
}

static void
holder_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    clear_entry(ENTRY(self));
    PyModule_Type.tp_dealloc(self);
}

static int
holder_traverse(PyObject *self, visitproc visit, void *arg)
{
    entry_t *e = ENTRY(self);
#define VISIT(field) Py_VISIT(e->field);
    ENTRY_OBJECTS(VISIT)
#undef VISIT
    return PyModule_Type.tp_traverse(self, visit, arg);
}

static int
holder_clear(PyObject *self)
{
    clear_entry(ENTRY(self));
    return PyModule_Type.tp_clear(self);
}

/* The entry of a function's holder, or NULL (with RuntimeError) once the holder was cleared. */
static inline entry_t *
live_entry(PyObject *self)
{
    entry_t *e = ENTRY(self);
    if (e->slow == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "arraymux: this function was cleared");
        return NULL;
    }
    return e;
}

static PyObject *
binary_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = live_entry(self);
    if (e == NULL) {
        return NULL;
    }
    if (nargs == 2 && kwnames == NULL) {
        return binary_impl(e, args[0], args[1]);
    }
    return PyObject_Vectorcall(e->slow, args, nargs, kwnames);
}

static PyObject *
unary_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = live_entry(self);
    if (e == NULL) {
        return NULL;
    }
    if (nargs == 1 && kwnames == NULL) {
        return unary_impl(e, args[0]);
    }
    return PyObject_Vectorcall(e->slow, args, nargs, kwnames);
}

/* The plan of where on device `d` for a condition of native dtype `tc` and operands of native
 * dtype `t` (all held by the caller): the entry's cached one, else asked of where_planner (and
 * cached in the entry's first scalar slots, which where has no other use for). A new
 * reference: a tuple of six, or None. */
static PyObject *
where_plan(entry_t *e, PyObject *d, PyObject *tc, PyObject *t)
{
    if (e->s_plan[0] != NULL && e->s_device[0] == d && e->s_dtype[0] == t && e->s_type[0] == tc) {
        return Py_NewRef(e->s_plan[0]);
    }
    if (where_planner == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *args[3] = {d, tc, t};
    PyObject *plan = PyObject_Vectorcall(where_planner, args, 3, NULL);
    if (plan == NULL
        || !(plan == Py_None || (PyTuple_CheckExact(plan) && PyTuple_GET_SIZE(plan) == 6))) {
        clear_error();
        Py_XDECREF(plan);
        Py_RETURN_NONE;
    }
    Py_XSETREF(e->s_device[0], Py_NewRef(d));
    Py_XSETREF(e->s_dtype[0], Py_NewRef(t));
    Py_XSETREF(e->s_type[0], Py_NewRef(tc));
    Py_XSETREF(e->s_plan[0], Py_NewRef(plan));
    return plan;
}

/* 1 if the Python scalar `x` meets arrays of the plan's dtype as it is (the flags and the int
 * range of the plan, see _compiled.where_plan); 0 sends the call to the Python function. */
static int
where_scalar_ok(PyObject *plan, PyObject *x)
{
    PyTypeObject *type = Py_TYPE(x);
    if (type == &PyFloat_Type) {
        return PyTuple_GET_ITEM(plan, 1) == Py_True;
    }
    if (type == &PyBool_Type) {
        return PyTuple_GET_ITEM(plan, 2) == Py_True;
    }
    if (type == &PyLong_Type) {
        return PyTuple_GET_ITEM(plan, 3) == Py_True
               && int_in_range(x, PyTuple_GET_ITEM(plan, 4), PyTuple_GET_ITEM(plan, 5));
    }
    return 0;
}

/* where(condition, x1, x2): Arrays of one device, a bool condition and operands of one native
 * dtype (or a Python scalar that keeps it) go to the device's function as they are; anything
 * else to the Python function, which checks, promotes and explains. */
static PyObject *
where_impl(entry_t *e, PyObject *const *args)
{
    PyObject *c = args[0];
    PyObject *first = Py_TYPE(args[1]) == array_type ? args[1] : args[2];
    if (Py_TYPE(c) != array_type || Py_TYPE(first) != array_type) {
        return Py_NewRef(use_python);
    }
    PyObject *d = SLOT(c, off_device);
    /* The natives of the condition and of the Array operands (NULL for a scalar), read before
     * anything runs Python code (a dtype read), and held. */
    PyObject *n[3] = {SLOT(c, off_native), NULL, NULL};
    if (!is_device(d) || n[0] == NULL) {
        return Py_NewRef(use_python);
    }
    for (int i = 1; i < 3; i++) {
        PyObject *x = args[i];
        if (Py_TYPE(x) == array_type) {
            n[i] = SLOT(x, off_native);
            if (SLOT(x, off_device) != d || n[i] == NULL) {
                return Py_NewRef(use_python);
            }
        }
        else if (!is_scalar(x)) {
            return Py_NewRef(use_python);
        }
    }
    Py_INCREF(d);
    for (int i = 0; i < 3; i++) {
        Py_XINCREF(n[i]);
    }
    PyObject *out = Py_NewRef(use_python);
    PyObject *tc = cached_dtype(c, n[0]);
    PyObject *t = tc == NULL ? NULL : cached_dtype(first, first == args[1] ? n[1] : n[2]);
    int ok = t != NULL;
    for (int i = 1; ok && i < 3; i++) {
        if (n[i] != NULL && n[i] != (first == args[1] ? n[1] : n[2])) {
            PyObject *ti = cached_dtype(args[i], n[i]);
            ok = ti == t;
            Py_XDECREF(ti);
        }
    }
    PyObject *plan = ok ? where_plan(e, d, tc, t) : NULL;
    if (plan != NULL && plan != Py_None) {
        PyObject *nargs[3] = {n[0], n[1] != NULL ? n[1] : args[1], n[2] != NULL ? n[2] : args[2]};
        ok = (n[1] != NULL || where_scalar_ok(plan, args[1]))
             && (n[2] != NULL || where_scalar_ok(plan, args[2]));
        if (ok) {
            PyObject *fn = Py_NewRef(PyTuple_GET_ITEM(plan, 0));
            Py_DECREF(out);
            out = call_and_wrap(e, fn, d, nargs, 3, NULL, t, 0);
            Py_DECREF(fn);
        }
    }
    Py_XDECREF(plan);
    Py_XDECREF(t);
    Py_XDECREF(tc);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(n[i]);
    }
    Py_DECREF(d);
    return out;
}

static PyObject *
where_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = live_entry(self);
    /* the fast path's result, its error (NULL), or use_python: the Python function's call */
    PyObject *out = e == NULL                         ? NULL
                    : nargs == 3 && kwnames == NULL ? where_impl(e, args)
                                                    : Py_NewRef(use_python);
    if (out == use_python) {
        Py_DECREF(out);
        out = PyObject_Vectorcall(e->slow, args, nargs, kwnames);
    }
    return out;
}

/* 1 if the keywords are all names the function allows (exact strings, no dtype=, which the
 * Python function converts); 0 sends the call to the Python function. */
static int
keywords_ok(entry_t *e, PyObject *kwnames)
{
    if (kwnames == NULL) {
        return 1;
    }
    if (e->keywords == NULL) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (!PyUnicode_CheckExact(k) || k == str_dtype) {
            return 0;
        }
        int found = PySet_Contains(e->keywords, k); /* exact str: no Python code runs */
        if (found != 1) {
            clear_error();
            return 0;
        }
    }
    return 1;
}

/* 1 if `x` cannot hide an array: None, a Python number other than a bool, one of the
 * standard's strings (WORDS: NumPy's qr took mode="r"), or a tuple or list of those numbers
 * and None (a shape, axes). Anything else (arrays, NumPy scalars, nested sequences, bools:
 * JAX and Dask read axis=True as the axis 1) goes to the Python function, which checks and
 * converts it. */
static int
plain(PyObject *x)
{
    if (PyBool_Check(x)) {
        return 0;
    }
    if (passes_through(x)) {
        return 1;
    }
    if (PyUnicode_CheckExact(x)) {
        int found = words == NULL ? 0 : PySet_Contains(words, x);
        if (found < 0) {
            clear_error();
        }
        return found == 1;
    }
    if (PyTuple_CheckExact(x) || PyList_CheckExact(x)) {
        Py_ssize_t n = Py_SIZE(x); /* nothing below runs Python code */
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_CheckExact(x) ? PyTuple_GET_ITEM(x, i) : PyList_GET_ITEM(x, i);
            if (PyBool_Check(item) || !passes_through(item)) {
                return 0;
            }
        }
        return 1;
    }
    return 0;
}

/* 1 if keyword argument `value` named `name` (an exact str) may go to the backend as it is:
 * a plain value, or a bool for one of the standard's bool parameters (keepdims, stable...). */
static int
plain_keyword(PyObject *name, PyObject *value)
{
    if (PyBool_Check(value)) {
        int found = bool_keywords == NULL ? 0 : PySet_Contains(bool_keywords, name);
        if (found < 0) {
            clear_error();
        }
        return found == 1;
    }
    return plain(value);
}

#define FIRST_STACK 8

static PyObject *
first_fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    entry_t *e = live_entry(self);
    if (e == NULL) {
        return NULL;
    }
    Py_ssize_t total = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    int fast = nargs >= 1 && Py_TYPE(args[0]) == array_type
               && (e->max_args < 0 || nargs <= e->max_args) && keywords_ok(e, kwnames);
    for (Py_ssize_t i = 1; fast && i < total; i++) {
        fast = i < nargs ? plain(args[i]) : plain_keyword(PyTuple_GET_ITEM(kwnames, i - nargs), args[i]);
    }
    if (fast) {
        PyObject *x = args[0];
        PyObject *d = SLOT(x, off_device);
        PyObject *native = SLOT(x, off_native);
        if (is_device(d) && native != NULL) {
            Py_INCREF(d);
            Py_INCREF(native);
            PyObject *t = e->keeps_dtype ? SLOT(x, off_dtype) : NULL;
            Py_XINCREF(t);
            PyObject *r = Py_NewRef(use_python);
            if (d == e->device || load(e, d)) {
                Py_DECREF(r);
                PyObject *small[FIRST_STACK];
                PyObject **stack = small;
                if (total > FIRST_STACK) {
                    stack = PyMem_Malloc(total * sizeof(PyObject *));
                }
                if (stack == NULL) {
                    r = PyErr_NoMemory();
                }
                else {
                    stack[0] = native;
                    for (Py_ssize_t i = 1; i < total; i++) {
                        stack[i] = args[i];
                    }
                    PyObject *fn;
                    if (nargs == 1 && kwnames == NULL) {
                        /* Held first: reading the operand's dtype below may run Python code
                         * that refills the cache for another device. */
                        PyObject *fn_all = Py_NewRef(e->fn);
                        PyObject *skip = Py_XNewRef(e->fn1_skip);
                        fn = Py_NewRef(e->fn1);
                        if (skip != NULL) {
                            /* Not for these operand dtypes (torch's sum of unsigned integers):
                             * the full function then, which handles them. */
                            PyObject *xt = cached_dtype(x, native);
                            int found = xt == NULL ? 1 : PySet_Contains(skip, xt);
                            Py_XDECREF(xt);
                            if (found != 0) {
                                clear_error();
                                Py_SETREF(fn, Py_NewRef(fn_all));
                            }
                            Py_DECREF(skip);
                        }
                        Py_DECREF(fn_all);
                    }
                    else {
                        fn = Py_NewRef(e->fn);
                        if (e->refused != NULL) {
                            /* The wrapped function itself where the operand's dtype is not
                             * refused (the wrapper's check, without its frame). Held first:
                             * the dtype's hash may run Python code. */
                            PyObject *inner = Py_NewRef(e->fn_inner);
                            PyObject *refused = Py_NewRef(e->refused);
                            PyObject *xt = cached_dtype(x, native);
                            int found = xt == NULL ? 1 : PySet_Contains(refused, xt);
                            Py_XDECREF(xt);
                            if (found == 0) {
                                Py_SETREF(fn, inner);
                            }
                            else {
                                clear_error();
                                Py_DECREF(inner);
                            }
                            Py_DECREF(refused);
                        }
                    }
                    r = call_and_wrap(e, fn, d, stack, nargs, kwnames, t, 0);
                    Py_DECREF(fn);
                    if (stack != small) {
                        PyMem_Free(stack);
                    }
                }
            }
            Py_XDECREF(t);
            Py_DECREF(native);
            Py_DECREF(d);
            if (r != use_python) {
                return r;
            }
            Py_DECREF(r);
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

static void
free_def(PyMethodDef *def)
{
    if (def != NULL) {
        free((void *)def->ml_name);
        free((void *)def->ml_doc);
        PyMem_Free(def);
    }
}

static PyObject *
make_function(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* function(kind, name, short_name, module_name, doc, slow, keeps_dtype, max_args,
     *          keywords) */
    if (nargs != 9 || !PyLong_Check(args[0]) || !PyUnicode_Check(args[1])
        || !PyUnicode_Check(args[2]) || !PyUnicode_Check(args[3]) || !PyUnicode_Check(args[4])
        || !PyCallable_Check(args[5]) || !PyLong_Check(args[7])
        || !(args[8] == Py_None || PyFrozenSet_CheckExact(args[8]))) {
        PyErr_SetString(PyExc_TypeError,
                        "function(kind, name, short_name, module_name, doc, slow, keeps_dtype, "
                        "max_args, keywords)");
        return NULL;
    }
    long kind = PyLong_AsLong(args[0]);
    PyCFunction impl = kind == KIND_BINARY  ? (PyCFunction)(void (*)(void))binary_fn
                       : kind == KIND_UNARY ? (PyCFunction)(void (*)(void))unary_fn
                       : kind == KIND_FIRST ? (PyCFunction)(void (*)(void))first_fn
                       : kind == KIND_WHERE ? (PyCFunction)(void (*)(void))where_fn
                                            : NULL;
    if (impl == NULL) {
        PyErr_SetString(PyExc_ValueError, "unknown function kind");
        return NULL;
    }
    int keeps = PyObject_IsTrue(args[6]);
    if (keeps < 0) {
        return NULL;
    }
    Py_ssize_t max_args = PyLong_AsSsize_t(args[7]);
    if (max_args == -1 && PyErr_Occurred()) {
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
        free_def(def);
        return PyErr_NoMemory();
    }
    def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
    def->ml_meth = impl;
    PyObject *holder = PyObject_CallOneArg((PyObject *)&holder_type, args[3]);
    if (holder == NULL) {
        free_def(def);
        return NULL;
    }
    entry_t *e = ENTRY(holder);
    e->name = interned(args[1]);
    {
        const char *plain_args = kind == KIND_BINARY ? "x1, x2" : "x";
        e->name1 = PyUnicode_FromFormat("%U(%s)", args[1], plain_args);
        e->name1_skip = e->name1 == NULL
                            ? NULL
                            : PyUnicode_FromFormat("%U(%s) not for", args[1], plain_args);
        if (e->name1_skip == NULL) {
            Py_DECREF(holder); /* clears what was made */
            free_def(def);
            return NULL;
        }
        PyUnicode_InternInPlace(&e->name1);
        PyUnicode_InternInPlace(&e->name1_skip);
    }
    e->slow = Py_NewRef(args[5]);
    e->keeps_dtype = keeps;
    e->max_args = max_args;
    e->keywords = args[8] == Py_None ? NULL : Py_NewRef(args[8]);
    PyObject *fn = PyCFunction_NewEx(def, holder, args[3]);
    Py_DECREF(holder);
    if (fn == NULL) {
        free_def(def);
    }
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

typedef PyObject *(*leaf_fn)(PyObject *leaf, void *state);

/* `tree` rebuilt with `leaf` applied to every leaf that is not a container. `leaf` and the
 * dict insertions may run Python code (a key's __hash__, a type's metaclass) that changes a
 * list or dict being walked: each item is held while it is visited, and a container whose size
 * changed sends the walk to the Python functions (which iterate as Python does). */
static PyObject *
map_tree(PyObject *tree, leaf_fn leaf, void *state, int depth)
{
    PyTypeObject *t = Py_TYPE(tree);
    if (depth > MAX_DEPTH) {
        return Py_NewRef(slow_marker);
    }
    if (t == &PyTuple_Type || t == &PyList_Type) {
        int is_tuple = t == &PyTuple_Type;
        Py_ssize_t n = Py_SIZE(tree);
        PyObject *out = is_tuple ? PyTuple_New(n) : PyList_New(n);
        if (out == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (Py_SIZE(tree) != n) {
                Py_DECREF(out);
                return Py_NewRef(slow_marker);
            }
            PyObject *item = Py_NewRef(is_tuple ? PyTuple_GET_ITEM(tree, i)
                                                : PyList_GET_ITEM(tree, i));
            PyObject *r = map_tree(item, leaf, state, depth + 1);
            Py_DECREF(item);
            if (r == NULL || r == slow_marker) {
                Py_DECREF(out);
                return r;
            }
            if (is_tuple) {
                PyTuple_SET_ITEM(out, i, r);
            }
            else {
                PyList_SET_ITEM(out, i, r);
            }
        }
        if (Py_SIZE(tree) != n) {
            Py_DECREF(out);
            return Py_NewRef(slow_marker);
        }
        return out;
    }
    if (t == &PyDict_Type) {
        PyObject *out = PyDict_New();
        if (out == NULL) {
            return NULL;
        }
        Py_ssize_t n = PyDict_GET_SIZE(tree);
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(tree, &pos, &k, &v)) {
            Py_INCREF(k);
            Py_INCREF(v);
            PyObject *r = map_tree(v, leaf, state, depth + 1);
            int err = 0;
            if (r != NULL && r != slow_marker) {
                err = PyDict_SetItem(out, k, r);
                Py_DECREF(r);
            }
            Py_DECREF(k);
            Py_DECREF(v);
            if (r == NULL || r == slow_marker || err < 0) {
                Py_DECREF(out);
                return err < 0 ? NULL : r;
            }
            if (PyDict_GET_SIZE(tree) != n) {
                Py_DECREF(out);
                return Py_NewRef(slow_marker);
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
        if (!is_device(d) || native == NULL || (*dev != NULL && d != *dev)) {
            return Py_NewRef(slow_marker);
        }
        if (*dev == NULL) {
            *dev = Py_NewRef(d); /* held: the walk may run Python code that rebinds slots */
        }
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
    if (r == NULL || r == slow_marker || dev == NULL) {
        Py_XDECREF(dev);
        if (r == NULL) {
            return NULL;
        }
        Py_DECREF(r);
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_Pack(2, r, dev);
    Py_DECREF(r);
    Py_DECREF(dev);
    return out;
}

/* 1: the tree's Arrays share *dev (set at the first); 0: something else is in it. */
static int
walk_devices(PyObject *tree, PyObject **dev, int depth)
{
    PyTypeObject *t = Py_TYPE(tree);
    if (t == array_type) {
        PyObject *d = SLOT(tree, off_device);
        if (!is_device(d) || (*dev != NULL && d != *dev)) {
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

/* 1 if every leaf of `tree` (tuples, lists and dicts) is an Array whose native dtype (cached,
 * or read and cached) is in the frozenset `dtypes`; 0 if not, or if it cannot be told (the
 * caller then checks in Python); -1 on error. Each node and leaf is held while its dtype
 * is looked up (hashing and comparing a dtype may run Python code). */
static int
walk_dtypes(PyObject *tree, PyObject *dtypes, int depth)
{
    PyTypeObject *t = Py_TYPE(tree);
    if (t == array_type) {
        PyObject *native = SLOT(tree, off_native);
        if (native == NULL) {
            return 0;
        }
        Py_INCREF(native);
        PyObject *dt = cached_dtype(tree, native); /* reads and caches it if need be */
        Py_DECREF(native);
        if (dt == NULL) {
            return 0;
        }
        int found = PySet_Contains(dtypes, dt);
        Py_DECREF(dt);
        if (found < 0) {
            clear_error(); /* an unhashable dtype: not known here */
            return 0;
        }
        return found;
    }
    if (depth > MAX_DEPTH) {
        return 0;
    }
    if (t == &PyTuple_Type || t == &PyList_Type || t == &PyDict_Type) {
        /* A tuple of the items (a copy for lists and dicts): looking a dtype up may run
         * Python code, which must not shrink what is being walked. */
        PyObject *items = t == &PyDict_Type   ? PyDict_Values(tree)
                          : t == &PyList_Type ? PyList_AsTuple(tree)
                                              : Py_NewRef(tree);
        if (items == NULL) {
            return -1;
        }
        int ok = 1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(items); /* a tuple, or the dict's values */
        for (Py_ssize_t i = 0; i < n && ok == 1; i++) {
            ok = walk_dtypes(PySequence_Fast_GET_ITEM(items, i), dtypes, depth + 1);
        }
        Py_DECREF(items);
        return ok;
    }
    return 0;
}

static PyObject *
dtypes_in(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* dtypes_in(tree, dtypes) -> True if every leaf is an Array of a dtype in the frozenset */
    if (nargs != 2 || !PyFrozenSet_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "dtypes_in(tree, frozenset)");
        return NULL;
    }
    if (array_type == NULL) {
        Py_RETURN_FALSE;
    }
    Py_INCREF(args[0]);
    int ok = walk_dtypes(args[0], args[1], 0);
    Py_DECREF(args[0]);
    if (ok < 0) {
        return NULL;
    }
    return PyBool_FromLong(ok);
}

/* A walk's result as the builtins return it: None where the walk met a leaf it leaves to the
 * Python functions (`r`, a new reference, or NULL with an exception set). */
static PyObject *
walked(PyObject *r)
{
    if (r == slow_marker) {
        Py_DECREF(r);
        Py_RETURN_NONE;
    }
    return r;
}

typedef struct {
    PyObject *device, *backend, *types; /* types: arraymux._backends.TYPE_CACHE */
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
    if (b == NULL) {
        /* A type not seen yet (the results of a compiled function, whose arrays the user
         * never passed in natively): an array class of the device's backend is learnt here,
         * as backend_of_type would, so the next walk takes it at once. */
        PyObject *classes = PyObject_GetAttrString(w->backend, "array_classes");
        if (classes == NULL) {
            return NULL;
        }
        int is = PyTuple_Check(classes) ? PyObject_IsInstance(x, classes) : 0;
        Py_DECREF(classes);
        if (is < 0) {
            return NULL;
        }
        if (is) {
            PyObject *tp = Py_NewRef((PyObject *)Py_TYPE(x));
            int failed = PyDict_SetItem(w->types, tp, w->backend);
            Py_DECREF(tp);
            if (failed) {
                return NULL;
            }
            return wrap(Py_NewRef(x), w->device, Py_None);
        }
    }
    return Py_NewRef(slow_marker); /* another backend's array, ... */
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
    wrap_state w = {args[1], Py_NewRef(backend), Py_NewRef(type_cache)};
    PyObject *r = map_tree(args[0], wrap_leaf, &w, 0);
    Py_DECREF(w.backend);
    Py_DECREF(w.types);
    return walked(r);
}

typedef struct {
    PyObject *type, *fn, *device; /* device: NULL, or where the results are wrapped */
} convert_state;

static PyObject *
convert_leaf(PyObject *x, void *state)
{
    convert_state *c = (convert_state *)state;
    if ((PyObject *)Py_TYPE(x) == c->type) {
        PyObject *r = PyObject_CallOneArg(c->fn, x);
        if (r == NULL || c->device == NULL) {
            return r;
        }
        return wrap(r, c->device, Py_None);
    }
    if (passes_through(x)) {
        return Py_NewRef(x);
    }
    return Py_NewRef(slow_marker);
}

static PyObject *
convert_tree(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* convert_tree(tree, type, fn, device=None) -> tree, or None */
    if (nargs < 3 || nargs > 4 || !PyType_Check(args[1]) || !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "convert_tree(tree, type, fn, device=None)");
        return NULL;
    }
    PyObject *device = nargs == 4 && args[3] != Py_None ? args[3] : NULL;
    if (device != NULL && (array_type == NULL || Py_TYPE(device) != device_type)) {
        Py_RETURN_NONE;
    }
    /* Held: `fn` runs Python code, which may drop the caller's references. */
    convert_state c = {Py_NewRef(args[1]), Py_NewRef(args[2]), Py_XNewRef(device)};
    PyObject *tree = Py_NewRef(args[0]);
    PyObject *r = map_tree(tree, convert_leaf, &c, 0);
    Py_DECREF(tree);
    Py_DECREF(c.type);
    Py_DECREF(c.fn);
    Py_XDECREF(c.device);
    return walked(r);
}

/* ---- operators: Array's number and comparison slots ----
 *
 * The operators of Array are Python methods (what torch.compile traces and what the type's
 * dict shows) that call the builtins above; CPython reaches them through its generic slot
 * functions, a dict lookup and a Python frame per operator. number_slots() puts C functions in
 * the slots instead: for two exact Arrays (or one, for the unary operators) they run the
 * builtin's fast path directly, and hand every other call to the generic slot function they
 * replaced, which calls the Python method as before. Assigning an operator on the class later
 * makes CPython put its generic slot function back, so the Python methods stay the reference. */

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL, OP_AND, OP_OR,
    OP_XOR, OP_LSHIFT, OP_RSHIFT, OP_LT, OP_LE, OP_EQ, OP_NE, OP_GT, OP_GE, OP_NEG, OP_POS,
    OP_ABS, OP_INVERT, N_OPS
};
static const char *const op_names[N_OPS] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
    "lshift", "rshift", "lt", "le", "eq", "ne", "gt", "ge", "neg", "pos", "abs", "invert",
};
static PyObject *op_holders[N_OPS]; /* the holder of each operator's builtin, or NULL */
static richcmpfunc op_richcompare;
static unaryfunc op_unary[4];

static PyObject *op_dunders[OP_RSHIFT + 1][2]; /* "__add__" and "__radd__", interned */
static const Py_ssize_t op_offsets[OP_RSHIFT + 1] = {
    offsetof(PyNumberMethods, nb_add),          offsetof(PyNumberMethods, nb_subtract),
    offsetof(PyNumberMethods, nb_multiply),     offsetof(PyNumberMethods, nb_true_divide),
    offsetof(PyNumberMethods, nb_floor_divide), offsetof(PyNumberMethods, nb_remainder),
    offsetof(PyNumberMethods, nb_power),        offsetof(PyNumberMethods, nb_matrix_multiply),
    offsetof(PyNumberMethods, nb_and),          offsetof(PyNumberMethods, nb_or),
    offsetof(PyNumberMethods, nb_xor),          offsetof(PyNumberMethods, nb_lshift),
    offsetof(PyNumberMethods, nb_rshift),
};

/* 1 if `type`'s slot `i` is `slot` (the type is Array, or a subclass that inherited it). */
static inline int
has_slot(PyTypeObject *type, int i, void *slot)
{
    PyNumberMethods *nb = type->tp_as_number;
    return nb != NULL && *(void **)((char *)nb + op_offsets[i]) == slot;
}

/* type(self).<name>(self, other), or NotImplemented where the type has no such attribute: what
 * CPython's generic slot functions call. The method is held across the call. */
static PyObject *
call_special(PyObject *self, PyObject *name, PyObject *other)
{
    PyObject *meth = _PyType_Lookup(Py_TYPE(self), name);
    if (meth == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_INCREF(meth);
    PyObject *r;
    descrgetfunc get = Py_TYPE(meth)->tp_descr_get;
    if (get != NULL && PyType_HasFeature(Py_TYPE(meth), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
        PyObject *args[2] = {self, other};
        r = PyObject_Vectorcall(meth, args, 2, NULL);
    }
    else if (get != NULL) {
        PyObject *bound = get(meth, self, (PyObject *)Py_TYPE(self));
        r = bound == NULL ? NULL : PyObject_CallOneArg(bound, other);
        Py_XDECREF(bound);
    }
    else {
        r = PyObject_CallOneArg(meth, other);
    }
    Py_DECREF(meth);
    return r;
}

/* The binary operator `i` as CPython's generic slot function does it (the Python methods,
 * the reflected one first for a subclass that overrides it), for every call off the fast path:
 * CPython's own function cannot be called from here, as it recognises the types it serves by
 * their slot being itself. */
static PyObject *
generic_binary(int i, PyObject *self, PyObject *other, void *slot)
{
    PyObject *name = op_dunders[i][0], *rname = op_dunders[i][1];
    int do_other = !Py_IS_TYPE(self, Py_TYPE(other)) && has_slot(Py_TYPE(other), i, slot);
    if (has_slot(Py_TYPE(self), i, slot)) {
        PyObject *r;
        if (do_other && PyType_IsSubtype(Py_TYPE(other), Py_TYPE(self))
            && _PyType_Lookup(Py_TYPE(other), rname) != _PyType_Lookup(Py_TYPE(self), rname)) {
            r = call_special(other, rname, self);
            if (r != Py_NotImplemented) {
                return r;
            }
            Py_DECREF(r);
            do_other = 0;
        }
        r = call_special(self, name, other);
        if (r != Py_NotImplemented || Py_IS_TYPE(other, Py_TYPE(self))) {
            return r;
        }
        Py_DECREF(r);
    }
    if (do_other) {
        return call_special(other, rname, self);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

/* 1 for the operands the builtins' fast path takes: two exact Arrays, or an exact Array and
 * an exact Python scalar on either side (which the reflected method would pass on as it is). */
static inline int
fast_operands(PyObject *v, PyObject *w)
{
    return Py_TYPE(v) == array_type ? Py_TYPE(w) == array_type || is_scalar(w)
                                    : Py_TYPE(w) == array_type && is_scalar(v);
}

static inline PyObject *
binary_op(int i, PyObject *v, PyObject *w, void *slot)
{
    PyObject *holder = op_holders[i];
    if (holder == NULL || !fast_operands(v, w)) {
        return generic_binary(i, v, w, slot);
    }
    Py_INCREF(holder); /* held across the call: the fast path may run Python code */
    PyObject *out = binary_impl(ENTRY(holder), v, w);
    Py_DECREF(holder);
    return out;
}

#define BINARY_SLOT(fname, i)                                   \
    static PyObject *fname(PyObject *v, PyObject *w)            \
    {                                                           \
        return binary_op(i, v, w, (void *)fname);               \
    }
BINARY_SLOT(slot_add, OP_ADD)
BINARY_SLOT(slot_sub, OP_SUB)
BINARY_SLOT(slot_mul, OP_MUL)
BINARY_SLOT(slot_truediv, OP_TRUEDIV)
BINARY_SLOT(slot_floordiv, OP_FLOORDIV)
BINARY_SLOT(slot_mod, OP_MOD)
BINARY_SLOT(slot_matmul, OP_MATMUL)
BINARY_SLOT(slot_and, OP_AND)
BINARY_SLOT(slot_or, OP_OR)
BINARY_SLOT(slot_xor, OP_XOR)
BINARY_SLOT(slot_lshift, OP_LSHIFT)
BINARY_SLOT(slot_rshift, OP_RSHIFT)

static PyObject *
slot_pow(PyObject *v, PyObject *w, PyObject *z)
{
    if (z == Py_None) {
        return binary_op(OP_POW, v, w, (void *)slot_pow);
    }
    /* pow(x, y, modulo): as CPython, only x's own __pow__ is asked (Array's refuses it). */
    if (!has_slot(Py_TYPE(v), OP_POW, (void *)slot_pow)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *meth = PyObject_GetAttr(v, op_dunders[OP_POW][0]);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *args[2] = {w, z};
    PyObject *r = PyObject_Vectorcall(meth, args, 2, NULL);
    Py_DECREF(meth);
    return r;
}

static PyObject *
slot_richcompare(PyObject *v, PyObject *w, int op)
{
    /* Py_LT..Py_GE are 0..5, in the order of OP_LT..OP_GE. */
    PyObject *holder = op >= Py_LT && op <= Py_GE ? op_holders[OP_LT + op] : NULL;
    if (holder == NULL || Py_TYPE(v) != array_type
        || !(Py_TYPE(w) == array_type || is_scalar(w))) {
        return op_richcompare(v, w, op);
    }
    Py_INCREF(holder);
    PyObject *out = binary_impl(ENTRY(holder), v, w);
    Py_DECREF(holder);
    return out;
}

#define UNARY_SLOT(fname, i)                                     \
    static PyObject *fname(PyObject *x)                          \
    {                                                            \
        PyObject *holder = op_holders[i];                        \
        if (holder == NULL || Py_TYPE(x) != array_type) {        \
            return op_unary[(i) - OP_NEG](x);                    \
        }                                                        \
        Py_INCREF(holder);                                       \
        PyObject *out = unary_impl(ENTRY(holder), x);            \
        Py_DECREF(holder);                                       \
        return out;                                              \
    }
UNARY_SLOT(slot_neg, OP_NEG)
UNARY_SLOT(slot_pos, OP_POS)
UNARY_SLOT(slot_abs, OP_ABS)
UNARY_SLOT(slot_invert, OP_INVERT)

/* The holder of `fn` if it is a builtin made by function() of the expected kind, else NULL. */
static PyObject *
holder_of(PyObject *fn, PyCFunction impl)
{
    if (!PyCFunction_Check(fn) || PyCFunction_GET_FUNCTION(fn) != impl) {
        return NULL;
    }
    PyObject *self = PyCFunction_GET_SELF(fn);
    return self != NULL && Py_IS_TYPE(self, &holder_type) ? self : NULL;
}

static PyObject *
number_slots(PyObject *module, PyObject *ops)
{
    /* number_slots({"add": builtin, ..., "eq": builtin, "neg": builtin}) */
    if (array_type == NULL || !PyDict_CheckExact(ops)) {
        PyErr_SetString(PyExc_TypeError, "number_slots(dict) after setup()");
        return NULL;
    }
    PyNumberMethods *nb = array_type->tp_as_number;
    if (nb == NULL || !(array_type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        PyErr_SetString(PyExc_TypeError, "Array has no number slots of its own");
        return NULL;
    }
    for (int i = 0; i <= OP_RSHIFT && op_dunders[i][0] == NULL; i++) {
        op_dunders[i][0] = PyUnicode_FromFormat("__%s__", op_names[i]);
        op_dunders[i][1] = PyUnicode_FromFormat("__r%s__", op_names[i]);
        if (op_dunders[i][0] == NULL || op_dunders[i][1] == NULL) {
            Py_CLEAR(op_dunders[i][0]);
            Py_CLEAR(op_dunders[i][1]);
            return NULL;
        }
        PyUnicode_InternInPlace(&op_dunders[i][0]);
        PyUnicode_InternInPlace(&op_dunders[i][1]);
    }
    PyObject *found[N_OPS] = {NULL};
    for (int i = 0; i < N_OPS; i++) {
        PyObject *fn = PyDict_GetItemString(ops, op_names[i]);
        if (fn == NULL) {
            continue;
        }
        found[i] = holder_of(fn, i >= OP_NEG ? (PyCFunction)(void (*)(void))unary_fn
                                             : (PyCFunction)(void (*)(void))binary_fn);
        if (found[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "number_slots: %s is not a compiled function",
                         op_names[i]);
            return NULL;
        }
    }
    /* Every slot must be CPython's generic one (the class defines the operator in Python):
     * the replaced function is what every other call goes to. */
    binaryfunc *fields[] = {&nb->nb_add, &nb->nb_subtract, &nb->nb_multiply,
                            &nb->nb_true_divide, &nb->nb_floor_divide, &nb->nb_remainder,
                            NULL, &nb->nb_matrix_multiply, &nb->nb_and, &nb->nb_or,
                            &nb->nb_xor, &nb->nb_lshift, &nb->nb_rshift};
    binaryfunc slots[] = {slot_add, slot_sub, slot_mul, slot_truediv, slot_floordiv, slot_mod,
                          NULL, slot_matmul, slot_and, slot_or, slot_xor, slot_lshift,
                          slot_rshift};
    unaryfunc *ufields[] = {&nb->nb_negative, &nb->nb_positive, &nb->nb_absolute,
                            &nb->nb_invert};
    unaryfunc uslots[] = {slot_neg, slot_pos, slot_abs, slot_invert};
    for (int i = 0; i <= OP_RSHIFT; i++) {
        if (found[i] == NULL) {
            continue;
        }
        if (i == OP_POW ? nb->nb_power == NULL : *fields[i] == NULL) {
            goto missing;
        }
        if (i == OP_POW) {
            nb->nb_power = slot_pow;
        }
        else {
            *fields[i] = slots[i];
        }
    }
    int any_compare = 0;
    for (int i = OP_LT; i <= OP_GE; i++) {
        any_compare |= found[i] != NULL;
    }
    if (any_compare) {
        if (array_type->tp_richcompare == NULL) {
            goto missing;
        }
        if (array_type->tp_richcompare != slot_richcompare) {
            op_richcompare = array_type->tp_richcompare;
            array_type->tp_richcompare = slot_richcompare;
        }
    }
    for (int i = OP_NEG; i < N_OPS; i++) {
        if (found[i] == NULL) {
            continue;
        }
        if (*ufields[i - OP_NEG] == NULL) {
            goto missing;
        }
        if (*ufields[i - OP_NEG] != uslots[i - OP_NEG]) {
            op_unary[i - OP_NEG] = *ufields[i - OP_NEG];
            *ufields[i - OP_NEG] = uslots[i - OP_NEG];
        }
    }
    for (int i = 0; i < N_OPS; i++) {
        Py_XSETREF(op_holders[i], Py_XNewRef(found[i]));
    }
    Py_RETURN_NONE;
missing:
    PyErr_SetString(PyExc_TypeError,
                    "number_slots: Array must define each operator in Python first");
    return NULL;
}

/* -- Indexing ---------------------------------------------------------------------------------
 *
 * x[key] of an exact Array whose device indexes plainly (Device._plain_index: a mutable, eager
 * backend that indexes on its own) and a basic key (ints below INDEX_CHECKED, slices of such
 * ints with a positive step, None and ..., alone or in a tuple) is the native x[key], wrapped
 * with the Array's device and dtype: what Array.__getitem__ does for that key, without its
 * frame and its look at the key item by item. Every other call, and every call whose native
 * indexing raises, goes to Array.__getitem__ (which runs it again and explains the error). */

static binaryfunc op_subscript; /* the class's own slot: Array.__getitem__ */

#define INDEX_CHECKED (1LL << 31) /* _arguments.INDEX_CHECKED */

static int
small_index(PyObject *k)
{
    if (!PyLong_CheckExact(k)) {
        return 0;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
    return !overflow && v >= -INDEX_CHECKED && v < INDEX_CHECKED;
}

static int
basic_item(PyObject *k)
{
    if (k == Py_None || k == Py_Ellipsis) {
        return 1;
    }
    if (PyLong_CheckExact(k)) {
        return small_index(k);
    }
    if (PySlice_Check(k)) {
        PySliceObject *s = (PySliceObject *)k;
        if (s->step != Py_None && !(small_index(s->step) && PyLong_AsLongLong(s->step) > 0)) {
            return 0; /* (torch takes no negative step: its adapter does) */
        }
        return (s->start == Py_None || small_index(s->start))
               && (s->stop == Py_None || small_index(s->stop));
    }
    return 0;
}

static int
basic_key(PyObject *key)
{
    if (!PyTuple_CheckExact(key)) {
        return basic_item(key);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    int ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(key, i);
        if (!basic_item(k) || (k == Py_Ellipsis && ellipses++)) {
            return 0; /* (a second ellipsis: Array.__getitem__ refuses it) */
        }
    }
    return 1;
}

static PyObject *
slot_subscript(PyObject *self, PyObject *key)
{
    if (Py_TYPE(self) != array_type || !basic_key(key)) {
        return op_subscript(self, key);
    }
    PyObject *d = SLOT(self, off_device), *native = SLOT(self, off_native);
    PyObject *dtype = SLOT(self, off_dtype);
    if (d == NULL || native == NULL || SLOT(d, off_plain_index) != Py_True) {
        return op_subscript(self, key);
    }
    /* Strong references: the native indexing may run Python code. */
    Py_INCREF(d);
    Py_INCREF(native);
    dtype = Py_NewRef(dtype == NULL ? Py_None : dtype);
    PyObject *r = PyObject_GetItem(native, key);
    Py_DECREF(native);
    PyObject *out;
    if (r != NULL) {
        out = wrap(r, d, dtype);
    }
    else if (PyErr_ExceptionMatches(PyExc_Exception)) {
        PyErr_Clear();
        out = op_subscript(self, key);
    }
    else {
        out = NULL; /* KeyboardInterrupt, SystemExit: as they came */
    }
    Py_DECREF(d);
    Py_DECREF(dtype);
    return out;
}

static PyObject *
index_slot(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (array_type == NULL) {
        PyErr_SetString(PyExc_TypeError, "index_slot() after setup()");
        return NULL;
    }
    PyMappingMethods *mp = array_type->tp_as_mapping;
    if (mp == NULL || mp->mp_subscript == NULL
        || !(array_type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        PyErr_SetString(PyExc_TypeError, "Array has no __getitem__ of its own");
        return NULL;
    }
    if (mp->mp_subscript != slot_subscript) {
        op_subscript = mp->mp_subscript;
        mp->mp_subscript = slot_subscript;
    }
    Py_RETURN_NONE;
}

static PyObject *
setup(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* setup(Array, Device, type_cache, backend_errors, scalar_planner, where_planner,
     * bool_keywords, words): learn where the slots are. */
    if (nargs != 8 || !PyType_Check(args[0]) || !PyType_Check(args[1])
        || !PyDict_CheckExact(args[2]) || !PyTuple_CheckExact(args[3])
        || !PyCallable_Check(args[4]) || !PyCallable_Check(args[5])
        || !PyFrozenSet_CheckExact(args[6]) || !PyFrozenSet_CheckExact(args[7])) {
        PyErr_SetString(PyExc_TypeError, "setup(Array, Device, type_cache, backend_errors, "
                                         "scalar_planner, where_planner, bool_keywords, words)");
        return NULL;
    }
    PyTypeObject *arr = (PyTypeObject *)args[0], *dev = (PyTypeObject *)args[1];
    if (slot_offset(arr, "_native", &off_native) < 0 || slot_offset(arr, "_device", &off_device) < 0
        || slot_offset(arr, "_dtype", &off_dtype) < 0 || slot_offset(dev, "_fns", &off_fns) < 0
        || slot_offset(dev, "_results", &off_results) < 0
        || slot_offset(dev, "_backend", &off_backend) < 0
        || slot_offset(dev, "_known", &off_known) < 0
        || slot_offset(dev, "_plain_index", &off_plain_index) < 0) {
        return NULL;
    }
    Py_XSETREF(type_cache, Py_NewRef(args[2]));
    Py_XSETREF(backend_errors, Py_NewRef(args[3]));
    Py_XSETREF(scalar_planner, Py_NewRef(args[4]));
    Py_XSETREF(where_planner, Py_NewRef(args[5]));
    Py_XSETREF(bool_keywords, Py_NewRef(args[6]));
    Py_XSETREF(words, Py_NewRef(args[7]));
    Py_XSETREF(device_type, (PyTypeObject *)Py_NewRef(dev));
    Py_XSETREF(array_type, (PyTypeObject *)Py_NewRef(arr));
    Py_RETURN_NONE;
}

/* threefry2x32(k0, k1, counter, out0, out1): Threefry-2x32 (20 rounds) of the counters
 * (0, counter[i]) with the key words k0 and k1 (ints, taken modulo 2**32), written to out0[i]
 * and out1[i]; `counter` may be an int instead, the first of consecutive counters (modulo
 * 2**32). The buffers are C-contiguous arrays of 32-bit unsigned words of one
 * length (NumPy uint32: the Python function in arraymux/random/_threefry.py is the
 * reference, and the tests compare the two); the outputs are writable and may be the counter
 * itself. The loop runs without the GIL: the buffers are held until it ends. */
static int
word_buffer(PyObject *obj, Py_buffer *view, int writable, const char *fname, const char *what)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        return -1;
    }
    const char *f = view->format == NULL ? "B" : view->format;
    if (*f == '=' || *f == '<' || *f == '@') {
        f++;
    }
    if (view->itemsize != 4 || !(strcmp(f, "I") == 0 || strcmp(f, "L") == 0)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: %s must hold 32-bit unsigned words (uint32), not items of "
                     "format %s and %zd bytes", fname, what, view->format == NULL ? "B" : view->format,
                     view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The call's argument count and its two key words (ints, modulo 2**32); -1 with an error
 * naming `signature` (the function's) otherwise. */
static int
key_words(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *signature,
          uint32_t *k0, uint32_t *k1)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", signature, want);
        return -1;
    }
    if (!PyLong_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "%s: the key words must be ints", signature);
        return -1;
    }
    *k0 = (uint32_t)PyLong_AsUnsignedLongLongMask(args[0]);
    if (PyErr_Occurred()) {
        return -1;
    }
    *k1 = (uint32_t)PyLong_AsUnsignedLongLongMask(args[1]);
    return PyErr_Occurred() ? -1 : 0;
}

/* The counters of a Threefry call: a uint32 buffer (*held set to 1: release it), or a
 * Python int, the first of consecutive counters modulo 2**32 (*held 0, *start set). */
static int
counter_arg(PyObject *obj, Py_buffer *view, uint32_t *start, int *held, const char *fname)
{
    *held = 0;
    *start = 0;
    if (PyLong_Check(obj)) {
        *start = (uint32_t)PyLong_AsUnsignedLongLongMask(obj);
        return PyErr_Occurred() ? -1 : 0;
    }
    if (word_buffer(obj, view, 0, fname, "the counter") < 0) {
        return -1;
    }
    *held = 1;
    return 0;
}

#define ROTL32(v, r) (((v) << (r)) | ((v) >> (32 - (r))))
#define MIX(r) do { x0 += x1; x1 = ROTL32(x1, r) ^ x0; } while (0)

/* The rounds of independent counters vectorise (4, 8 or 16 words per instruction) where GCC
 * optimises this loop fully; the rest of the module keeps the default level. Their
 * operations are integer ones and one exact product (no sum to fuse): every copy gives the
 * same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
/* one copy for AVX-512 machines (16 words an instruction, and a rotation in one: 131072
 * uniform floats 277 -> 103 us on a 2-core Xeon), one for AVX2 machines (8 words) and one
 * for the others, chosen when the module loads */
#define VECTORISED __attribute__((optimize("O3"), target_clones("avx512f", "avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define VECTORISED __attribute__((optimize("O3")))
#else
#define VECTORISED
#endif

/* The 20 rounds on the counter words (c0, c) (THREEFRY: c0 = 0); the two words out. */
#define THREEFRY(c) THREEFRY_OF(0u, c)
#define THREEFRY_OF(c0, c)                                                                    \
    uint32_t x0 = (c0) + k0, x1 = (c) + k1;                                                   \
    MIX(13); MIX(15); MIX(26); MIX(6);                                                        \
    x0 += k1; x1 += k2 + 1u;                                                                  \
    MIX(17); MIX(29); MIX(16); MIX(24);                                                       \
    x0 += k2; x1 += k0 + 2u;                                                                  \
    MIX(13); MIX(15); MIX(26); MIX(6);                                                        \
    x0 += k0; x1 += k1 + 3u;                                                                  \
    MIX(17); MIX(29); MIX(16); MIX(24);                                                       \
    x0 += k1; x1 += k2 + 4u;                                                                  \
    MIX(13); MIX(15); MIX(26); MIX(6);                                                        \
    x0 += k2; x1 += k0 + 5u

/* Two loops, one over a buffer of counters and one over consecutive counters from `start`:
 * each vectorises (a choice inside one loop would not). */
static void VECTORISED
threefry_rounds(uint32_t k0, uint32_t k1, const uint32_t *in, uint32_t start, uint32_t *y0,
                uint32_t *y1, Py_ssize_t n)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    if (in != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            THREEFRY(in[i]);
            y0[i] = x0;
            y1[i] = x1;
        }
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++) {
            THREEFRY(start + (uint32_t)i);
            y0[i] = x0;
            y1[i] = x1;
        }
    }
}

/* float32 in [0, 1) of each counter's words, as jax.random.uniform makes them: the top 23
 * bits of y0 ^ y1, times 2**-23 (both exact). */
static void VECTORISED
uniform_rounds(uint32_t k0, uint32_t k1, uint32_t start, float *out, Py_ssize_t n)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    for (Py_ssize_t i = 0; i < n; i++) {
        THREEFRY(start + (uint32_t)i);
        out[i] = (float)((x0 ^ x1) >> 9) * 0x1p-23f;
    }
}

/* uniform_f32(k0, k1, start, out): the floats of uniform_rounds for the consecutive counters
 * from the int `start` (modulo 2**32) into `out`, a C-contiguous float32 buffer. */
static PyObject *
uniform_f32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "uniform_f32(k0, k1, start, out) takes 4 arguments");
        return NULL;
    }
    for (int a = 0; a < 3; a++) {
        if (!PyLong_Check(args[a])) {
            PyErr_SetString(PyExc_TypeError,
                            "uniform_f32: the key words and the first counter must be ints");
            return NULL;
        }
    }
    uint32_t w[3];
    for (int a = 0; a < 3; a++) {
        w[a] = (uint32_t)PyLong_AsUnsignedLongLongMask(args[a]);
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_buffer o;
    if (PyObject_GetBuffer(args[3], &o, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    const char *f = o.format == NULL ? "B" : o.format;
    if (*f == '=' || *f == '<' || *f == '@') {
        f++;
    }
    if (o.itemsize != 4 || strcmp(f, "f") != 0) {
        PyErr_SetString(PyExc_TypeError, "uniform_f32: out must hold float32");
        PyBuffer_Release(&o);
        return NULL;
    }
    float *out = (float *)o.buf;
    Py_ssize_t n = o.len / 4;
    Py_BEGIN_ALLOW_THREADS
    uniform_rounds(w[0], w[1], w[2], out, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

static PyObject *
threefry2x32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1;
    if (key_words(args, nargs, 5, "threefry2x32(k0, k1, counter, out0, out1)", &k0, &k1) < 0) {
        return NULL;
    }
    /* zeroed buffers release as nothing: one exit releases whatever was taken */
    Py_buffer c = {0}, o0 = {0}, o1 = {0};
    PyObject *result = NULL;
    uint32_t start;
    int held;
    if (counter_arg(args[2], &c, &start, &held, "threefry2x32") < 0
        || word_buffer(args[3], &o0, 1, "threefry2x32", "out0") < 0
        || word_buffer(args[4], &o1, 1, "threefry2x32", "out1") < 0) {
        goto done;
    }
    if (o1.len != o0.len || (held && o0.len != c.len)) {
        PyErr_SetString(PyExc_ValueError,
                        "threefry2x32: the counter and the two outputs must have one length");
        goto done;
    }
    const uint32_t *in = held ? (const uint32_t *)c.buf : NULL;
    uint32_t *y0 = (uint32_t *)o0.buf, *y1 = (uint32_t *)o1.buf;
    Py_ssize_t n = o0.len / 4;
    Py_BEGIN_ALLOW_THREADS
    threefry_rounds(k0, k1, in, start, y0, y1, n);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&c);
    PyBuffer_Release(&o0);
    PyBuffer_Release(&o1);
    return result;
}


/* normal_f32(k0, k1, counter, out, constants): float32 standard normals of the Threefry words
 * of the counters (0, counter[i]) (or, for an int counter, of consecutive ones from it), as jax.random.normal makes them: the top 23 bits of
 * y0 ^ y1 as a float u in [0, 1), v = max(2u + lo, lo), then sqrt(2) * erfinv(v) by Giles'
 * approximation, its log1p and log as arraymux/random/_special.py writes them with exactly
 * rounded float32 operations (the reference, which the tests compare with). `constants` is
 * a float64 buffer of the NORMAL_CONSTANTS numbers that _special.py lays out, so that the
 * coefficients have one source. Every operation is one IEEE float32 operation, rounded
 * once: products are never fused with sums (fp-contract off). */
#define NORMAL_CONSTANTS 48
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define EXACT __attribute__((optimize("O3", "fp-contract=off")))
#define INLINED __attribute__((always_inline))
#else
#define EXACT
#define INLINED
#endif
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define CLONED __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONED
#endif

typedef struct {
    float log1p_p[7], log1p_q[7], logf_p[9], erfinv_small[9], erfinv_large[9];
    float ln2_hi, ln2_lo, sqrt_half, log1p_limit, lo, sqrt2, unit;
} normal_constants;

#define H(c) p = p * x; p = p + (c)
static inline float EXACT INLINED
horner7_f32(float x, const float *c)
{
    float p = x * c[0];
    p = p + c[1];
    H(c[2]); H(c[3]); H(c[4]); H(c[5]); H(c[6]);
    return p;
}

static inline float EXACT INLINED
horner9_f32(float x, const float *c)
{
    float p = x * c[0];
    p = p + c[1];
    H(c[2]); H(c[3]); H(c[4]); H(c[5]); H(c[6]); H(c[7]); H(c[8]);
    return p;
}
#undef H

/* log(y) for positive normal y: y = m * 2**e with m in [sqrt(1/2), sqrt(2)), Cephes' logf. */
static inline float EXACT INLINED
log_f32(float y, const normal_constants *K)
{
    uint32_t b, mb;
    memcpy(&b, &y, 4);
    mb = (b & 0x007fffffu) | 0x3f000000u; /* frexp's mantissa, in [1/2, 1) */
    float m;
    memcpy(&m, &mb, 4);
    float e = (float)((int32_t)(b >> 23) - 126);
    /* both sides of every choice are computed, as the NumPy code does: a choice between two
     * values, not a branch, which the vectoriser may turn into a blend */
    int low = m < K->sqrt_half;
    float m2 = m * 2.0f, e1 = e - 1.0f;
    m = low ? m2 : m;
    e = low ? e1 : e;
    float f = m - 1.0f;
    float z = f * f;
    float r = horner9_f32(f, K->logf_p);
    r = r * f;
    r = r * z;
    float t = e * K->ln2_lo;
    r = r + t;
    t = z * 0.5f;
    r = r - t;
    float out = f + r;
    t = e * K->ln2_hi;
    return out + t;
}

static inline float EXACT INLINED
log1p_f32(float x, const normal_constants *K)
{
    int small = fabsf(x) < K->log1p_limit;
    float xs = small ? x : 0.0f;
    float z = xs * xs;
    float ratio = horner7_f32(xs, K->log1p_p) / horner7_f32(xs, K->log1p_q);
    float a = z * -0.5f;
    float b = xs * z;
    b = b * ratio;
    float near = xs + (a + b);
    float y = 1.0f + x;
    float far = log_f32(small ? 1.0f : y, K);
    return small ? near : far;
}

/* v, the uniform float of counter c moved to (-1, 1), and w = -log1p(-v * v), the steps of
 * the comment above up to the choice between Giles' two polynomials. */
static inline void EXACT INLINED
normal_head(uint32_t k0, uint32_t k1, uint32_t k2, uint32_t c, const normal_constants *K,
            float *v_out, float *w_out)
{
    THREEFRY(c);
    float u = (float)((x0 ^ x1) >> 9) * K->unit;
    float v = u * 2.0f;
    v = v + K->lo;
    v = v < K->lo ? K->lo : v;
    float xx = v * v;
    *v_out = v;
    *w_out = -log1p_f32(-xx, K);
}

/* sqrt(2) * erfinv(v) of v and w by the polynomial for w < 5 (the centre), or by both with a
 * choice between them (`tails`). */
static inline float EXACT INLINED
normal_centre(float v, float w, const normal_constants *K)
{
    float p = horner9_f32(w - 2.5f, K->erfinv_small);
    p = p * v;
    return p * K->sqrt2;
}

static inline float EXACT INLINED
normal_tails(float v, float w, const normal_constants *K)
{
    int lt = w < 5.0f;
    float t_small = w - 2.5f, t_large = sqrtf(w) - 3.0f;
    float t = lt ? t_small : t_large;
    float p_small = horner9_f32(t, K->erfinv_small);
    float p_large = horner9_f32(t, K->erfinv_large);
    float p = lt ? p_small : p_large;
    p = p * v;
    return p * K->sqrt2;
}

/* The normals of a block of at most NORMAL_BLOCK counters. w >= 5 (|v| > 0.9966) is rare:
 * a block of 32 holds one with probability about 0.1, so the polynomial for the tails and
 * its square root are computed only for the blocks that need them. Every float is the same
 * either way: the choice of a block only skips values that the choice of an element would
 * throw away. */
#define NORMAL_BLOCK 32
static inline void EXACT INLINED
normal_block(uint32_t k0, uint32_t k1, uint32_t k2, const uint32_t *restrict c,
             float *restrict out, const normal_constants *restrict K)
{
    float v[NORMAL_BLOCK], w[NORMAL_BLOCK];
    int tails = 0;
    for (int j = 0; j < NORMAL_BLOCK; j++) {
        normal_head(k0, k1, k2, c[j], K, &v[j], &w[j]);
        tails |= !(w[j] < 5.0f);
    }
    if (!tails) {
        for (int j = 0; j < NORMAL_BLOCK; j++) {
            out[j] = normal_centre(v[j], w[j], K);
        }
    }
    else {
        for (int j = 0; j < NORMAL_BLOCK; j++) {
            out[j] = normal_tails(v[j], w[j], K);
        }
    }
}

static void EXACT CLONED
normal_rounds(uint32_t k0, uint32_t k1, const uint32_t *in, uint32_t start, float *out,
              Py_ssize_t n, const normal_constants *K)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    uint32_t c[NORMAL_BLOCK];
    Py_ssize_t i = 0;
    for (; i + NORMAL_BLOCK <= n; i += NORMAL_BLOCK) {
        for (int j = 0; j < NORMAL_BLOCK; j++) {
            c[j] = in != NULL ? in[i + j] : start + (uint32_t)(i + j);
        }
        normal_block(k0, k1, k2, c, out + i, K);
    }
    for (; i < n; i++) {
        float v, w;
        normal_head(k0, k1, k2, in != NULL ? in[i] : start + (uint32_t)i, K, &v, &w);
        out[i] = normal_tails(v, w, K);
    }
}

static PyObject *
normal_f32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1;
    if (key_words(args, nargs, 5, "normal_f32(k0, k1, counter, out, constants)", &k0, &k1) < 0) {
        return NULL;
    }
    /* zeroed buffers release as nothing: one exit releases whatever was taken */
    Py_buffer c = {0}, o = {0}, k = {0};
    PyObject *result = NULL;
    uint32_t start;
    int held;
    if (counter_arg(args[2], &c, &start, &held, "normal_f32") < 0
        || PyObject_GetBuffer(args[3], &o, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0
        || PyObject_GetBuffer(args[4], &k, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        goto done;
    }
    const char *fo = o.format == NULL ? "B" : o.format, *fk = k.format == NULL ? "B" : k.format;
    if (*fo == '=' || *fo == '<' || *fo == '@') {
        fo++;
    }
    if (*fk == '=' || *fk == '<' || *fk == '@') {
        fk++;
    }
    if (o.itemsize != 4 || strcmp(fo, "f") != 0) {
        PyErr_SetString(PyExc_TypeError, "normal_f32: out must hold float32");
        goto done;
    }
    if (held && o.len != c.len) {
        PyErr_SetString(PyExc_ValueError, "normal_f32: the counter and out must have one length");
        goto done;
    }
    if (k.itemsize != 8 || strcmp(fk, "d") != 0 || k.len != 8 * NORMAL_CONSTANTS) {
        PyErr_SetString(PyExc_TypeError, "normal_f32: constants must be 48 float64 numbers");
        goto done;
    }
    const double *d = (const double *)k.buf;
    normal_constants K;
    float *fields[] = {K.log1p_p, K.log1p_q, K.logf_p, K.erfinv_small, K.erfinv_large};
    int sizes[] = {7, 7, 9, 9, 9};
    int at = 0;
    for (int f = 0; f < 5; f++) {
        for (int j = 0; j < sizes[f]; j++) {
            fields[f][j] = (float)d[at++];
        }
    }
    K.ln2_hi = (float)d[at++];
    K.ln2_lo = (float)d[at++];
    K.sqrt_half = (float)d[at++];
    K.log1p_limit = (float)d[at++];
    K.lo = (float)d[at++];
    K.sqrt2 = (float)d[at++];
    K.unit = (float)d[at++];
    const uint32_t *in = held ? (const uint32_t *)c.buf : NULL;
    float *out = (float *)o.buf;
    Py_ssize_t n = o.len / 4;
    Py_BEGIN_ALLOW_THREADS
    normal_rounds(k0, k1, in, start, out, n, &K);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&c);
    PyBuffer_Release(&o);
    PyBuffer_Release(&k);
    return result;
}

/* An output buffer of the loops below: C-contiguous, writable, aligned to its items, its
 * items of `size` bytes and of one of the struct formats in `formats` (after a byte-order
 * mark); -1 with a TypeError naming `what` otherwise (nothing held). */
static int
out_buffer(PyObject *obj, Py_buffer *view, const char *formats, int sizes, const char *fname,
           const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        return -1;
    }
    const char *f = view->format == NULL ? "B" : view->format;
    if (*f == '=' || *f == '<' || *f == '@') {
        f++;
    }
    Py_ssize_t size = view->itemsize;
    int size_ok = (size == 1 || size == 2 || size == 4 || size == 8) && (sizes & (int)size);
    if (!size_ok || f[0] == '\0' || f[1] != '\0' || strchr(formats, f[0]) == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a buffer of %s, not of items of format %s "
                     "and %zd bytes", fname, what, sizes == 8 ? "float64" : "integers",
                     view->format == NULL ? "B" : view->format, size);
        PyBuffer_Release(view);
        return -1;
    }
    if ((uintptr_t)view->buf % (uintptr_t)size != 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be aligned to its items", fname, what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The first counter of a loop over consecutive counters (an int, modulo 2**32). */
static int
start_arg(PyObject *obj, uint32_t *start, const char *fname)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: the first counter must be an int", fname);
        return -1;
    }
    *start = (uint32_t)PyLong_AsUnsignedLongLongMask(obj);
    return PyErr_Occurred() ? -1 : 0;
}

/* threefry_pair(k0, k1, c0, c1) -> (y0, y1): Threefry-2x32 of one counter (c0, c1) with the
 * key words k0, k1 (all ints, modulo 2**32), as ints: the keys of fold_in and split derived
 * on the host (the Python function threefry2x32_int is the reference). */
static PyObject *
threefry_pair(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1, c0, c1;
    if (key_words(args, nargs, 4, "threefry_pair(k0, k1, c0, c1)", &k0, &k1) < 0
        || start_arg(args[2], &c0, "threefry_pair") < 0
        || start_arg(args[3], &c1, "threefry_pair") < 0) {
        return NULL;
    }
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    THREEFRY_OF(c0, c1);
    return Py_BuildValue("(kk)", (unsigned long)x0, (unsigned long)x1);
}

/* The keys of split and of a generator's calls: the words (y0, y1) of the consecutive
 * counters (0, start + i), written as the pair out[2i], out[2i + 1]. */
static void VECTORISED
key_rounds(uint32_t k0, uint32_t k1, uint32_t start, uint32_t *restrict out, Py_ssize_t n)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    for (Py_ssize_t i = 0; i < n; i++) {
        THREEFRY(start + (uint32_t)i);
        out[2 * i] = x0;
        out[2 * i + 1] = x1;
    }
}

/* threefry_keys(k0, k1, start, out): the keys of key_rounds into `out`, a C-contiguous
 * buffer of an even number of uint32 words (an (n, 2) array of keys). */
static PyObject *
threefry_keys(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1, start;
    Py_buffer o;
    if (key_words(args, nargs, 4, "threefry_keys(k0, k1, start, out)", &k0, &k1) < 0
        || start_arg(args[2], &start, "threefry_keys") < 0
        || word_buffer(args[3], &o, 1, "threefry_keys", "out") < 0) {
        return NULL;
    }
    if (o.len % 8 != 0 || ((uintptr_t)o.buf % 4u) != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "threefry_keys: out must hold pairs of words, aligned to its items");
        PyBuffer_Release(&o);
        return NULL;
    }
    uint32_t *out = (uint32_t *)o.buf;
    Py_ssize_t n = o.len / 8;
    Py_BEGIN_ALLOW_THREADS
    key_rounds(k0, k1, start, out, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

/* float64 in [0, 1) of each counter's words, as jax.random.uniform makes them: the high
 * word times 2**20 plus the top 20 bits of the low word (an integer below 2**52, exact),
 * times 2**-52 (exact): NumPy's operations in _core.floats, each exact. */
static void EXACT CLONED
uniform64_rounds(uint32_t k0, uint32_t k1, uint32_t start, double *out, Py_ssize_t n)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    for (Py_ssize_t i = 0; i < n; i++) {
        THREEFRY(start + (uint32_t)i);
        double hi = (double)x0 * 1048576.0;
        double lo = (double)(x1 >> 12);
        out[i] = (hi + lo) * 0x1p-52;
    }
}

/* uniform_f64(k0, k1, start, out): the floats of uniform64_rounds for the consecutive
 * counters from the int `start` (modulo 2**32) into `out`, a C-contiguous float64 buffer. */
static PyObject *
uniform_f64(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1, start;
    Py_buffer o;
    if (key_words(args, nargs, 4, "uniform_f64(k0, k1, start, out)", &k0, &k1) < 0
        || start_arg(args[2], &start, "uniform_f64") < 0
        || out_buffer(args[3], &o, "d", 8, "uniform_f64", "out") < 0) {
        return NULL;
    }
    double *out = (double *)o.buf;
    Py_ssize_t n = o.len / 8;
    Py_BEGIN_ALLOW_THREADS
    uniform64_rounds(k0, k1, start, out, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

/* x mod d for words x and a divisor 2 <= d < 2**32 by its magic number and shift (see
 * divider_of): the quotient x / d as the high word of a product, a halved difference and a
 * shift (Granlund and Montgomery, "Division by invariant integers using multiplication",
 * 1994, in libdivide's branch-free form), then x - q * d: exact for every x and d, and a
 * loop of them vectorises (the hardware's division does not). */
static inline uint32_t
mod_by(uint32_t x, uint32_t d, uint32_t magic, uint32_t shift)
{
    uint32_t q = (uint32_t)(((uint64_t)x * magic) >> 32);
    uint32_t t = ((x - q) >> 1) + q;
    return x - (t >> shift) * d;
}

/* The magic number and shift of mod_by for 2 <= d < 2**32. */
static void
divider_of(uint32_t d, uint32_t *magic, uint32_t *shift)
{
    uint32_t log2d = 0;
    while ((d >> log2d) > 1u) {
        log2d++;
    }
    if ((d & (d - 1u)) == 0) { /* 2**log2d: q = 0, t = x / 2 */
        *magic = 0;
        *shift = log2d - 1u;
        return;
    }
    uint64_t n = UINT64_C(1) << (32 + log2d);
    uint32_t m = (uint32_t)(n / d), rem = (uint32_t)(n % d);
    m += m; /* modulo 2**32 */
    uint32_t twice = rem + rem;
    if (twice >= d || twice < rem) {
        m += 1u;
    }
    *magic = m + 1u;
    *shift = log2d;
}

/* jax.random.randint's values, as _core._integers_kernel computes them: the two keys of
 * split(k) (Threefry of the counters (0, 0) and (0, 1)), the words hi and lo of each
 * counter from them, offset = ((hi mod span) * (2**32 mod span) + lo mod span) mod span in
 * uint32 arithmetic (lo itself for span 2**32, 0 for span 1), and low + offset written as
 * an integer of `size` bytes (two's complement: the bits of every integer dtype's value).
 * One loop per size and kind of span, each vectorised (both keys' rounds, the remainders and
 * the store in one pass). */
typedef struct {
    uint32_t a0, a1, a2, b0, b1, b2, d, magic, shift, multiplier;
} integer_plan;

static inline uint32_t
integer_word(const integer_plan *p, uint32_t c, int kind)
{
    uint32_t lo, hi;
    {
        const uint32_t k0 = p->b0, k1 = p->b1, k2 = p->b2;
        THREEFRY(c);
        lo = x0 ^ x1;
    }
    if (kind == 0) { /* span 2**32 */
        return lo;
    }
    if (kind == 2) { /* span 1 */
        return 0u;
    }
    {
        const uint32_t k0 = p->a0, k1 = p->a1, k2 = p->a2;
        THREEFRY(c);
        hi = x0 ^ x1;
    }
    uint32_t o = mod_by(hi, p->d, p->magic, p->shift) * p->multiplier
                 + mod_by(lo, p->d, p->magic, p->shift);
    return mod_by(o, p->d, p->magic, p->shift);
}

#define INTEGER_LOOP(type, kind)                                                              \
    for (Py_ssize_t i = 0; i < n; i++) {                                                      \
        ((type *)out)[i] = (type)(low + integer_word(&p, start + (uint32_t)i, kind));        \
    }

static void VECTORISED
integer_rounds(uint32_t k0, uint32_t k1, uint32_t start, uint64_t span, uint64_t low,
               char *restrict out, Py_ssize_t size, Py_ssize_t n)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    integer_plan p = {0};
    {
        THREEFRY(0u);
        p.a0 = x0;
        p.a1 = x1;
        p.a2 = x0 ^ x1 ^ 0x1BD11BDAu;
    }
    {
        THREEFRY(1u);
        p.b0 = x0;
        p.b1 = x1;
        p.b2 = x0 ^ x1 ^ 0x1BD11BDAu;
    }
    int kind = span == (UINT64_C(1) << 32) ? 0 : span == 1u ? 2 : 1;
    if (kind == 1) {
        p.d = (uint32_t)span;
        divider_of(p.d, &p.magic, &p.shift);
        /* 2**32 mod span with JAX's wrapping square: (2**16 mod span)**2 mod 2**32, mod span */
        uint32_t m16 = (uint32_t)(UINT64_C(65536) % span);
        p.multiplier = mod_by(m16 * m16, p.d, p.magic, p.shift);
    }
    switch (size * 4 + kind) {
    case 4: INTEGER_LOOP(uint8_t, 0) break;
    case 5: INTEGER_LOOP(uint8_t, 1) break;
    case 6: INTEGER_LOOP(uint8_t, 2) break;
    case 8: INTEGER_LOOP(uint16_t, 0) break;
    case 9: INTEGER_LOOP(uint16_t, 1) break;
    case 10: INTEGER_LOOP(uint16_t, 2) break;
    case 16: INTEGER_LOOP(uint32_t, 0) break;
    case 17: INTEGER_LOOP(uint32_t, 1) break;
    case 18: INTEGER_LOOP(uint32_t, 2) break;
    case 32: INTEGER_LOOP(uint64_t, 0) break;
    case 33: INTEGER_LOOP(uint64_t, 1) break;
    default: INTEGER_LOOP(uint64_t, 2) break;
    }
}
#undef INTEGER_LOOP

/* integers(k0, k1, start, out, span, low): the values of integer_rounds for the consecutive
 * counters from the int `start` (modulo 2**32) into `out`, a C-contiguous buffer of
 * integers of 1, 2, 4 or 8 bytes; `span` an int in [1, 2**32], `low` an int (taken modulo
 * 2**64: low + offset must fit out's items, as the caller's bounds ensure). */
static PyObject *
integers(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1, start;
    if (key_words(args, nargs, 6, "integers(k0, k1, start, out, span, low)", &k0, &k1) < 0
        || start_arg(args[2], &start, "integers") < 0) {
        return NULL;
    }
    if (!PyLong_Check(args[4]) || !PyLong_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "integers: span and low must be ints");
        return NULL;
    }
    int overflow = 0;
    long long span = PyLong_AsLongLongAndOverflow(args[4], &overflow);
    if (span == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow || span < 1 || span > (1LL << 32)) {
        PyErr_SetString(PyExc_ValueError, "integers: span must be in [1, 2**32]");
        return NULL;
    }
    uint64_t low = (uint64_t)PyLong_AsUnsignedLongLongMask(args[5]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer o;
    if (out_buffer(args[3], &o, "bBhHiIlLqQ", 1 | 2 | 4 | 8, "integers", "out") < 0) {
        return NULL;
    }
    char *out = (char *)o.buf;
    Py_ssize_t size = o.itemsize, n = o.len / o.itemsize;
    Py_BEGIN_ALLOW_THREADS
    integer_rounds(k0, k1, start, (uint64_t)span, low, out, size, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

/* normal_f64(k0, k1, start, out, constants): float64 standard normals of the Threefry words
 * of the consecutive counters (0, start + i), as jax.random.normal makes them and as
 * _core.normal_of computes them with NumPy's float64 operations: u of uniform64_rounds,
 * v = max(2u + lo, lo), w = -log1p(-(v * v)) by _special.log1p (Cephes' rational function
 * after an exact reduction to [sqrt(1/2), sqrt(2)): frexp of a positive normal number, here
 * read from its bits), Giles' three polynomials of erfinv with a choice between them, times
 * v, times sqrt(2). Every operation is one IEEE float64 operation (+, -, *, /, sqrt), rounded
 * once, in NumPy's order; both sides of every choice are computed, as NumPy's where does.
 * `constants` is the float64 buffer of NORMAL64_CONSTANTS numbers that _special.py lays
 * out. */
#define NORMAL64_CONSTANTS 76
typedef struct {
    double log_p[6], log_q[6], erfinv_6[23], erfinv_16[19], erfinv_big[17];
    double ln2_hi, ln2_lo, sqrt_half, lo, sqrt2;
} normal64_constants;

static inline double EXACT INLINED
horner_f64(double x, const double *c, int n)
{
    double p = x * c[0];
    p = p + c[1];
    /* unrolled, so that the loop over the counters vectorises */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 32
#endif
    for (int j = 2; j < n; j++) {
        p = p * x;
        p = p + c[j];
    }
    return p;
}

static inline double EXACT INLINED
normal64_of(uint32_t y0, uint32_t y1, const normal64_constants *K)
{
    double hi = (double)y0 * 1048576.0, lo = (double)(y1 >> 12);
    double u = (hi + lo) * 0x1p-52;
    double v = u * 2.0;
    v = v + K->lo;
    v = v < K->lo ? K->lo : v;
    /* log1p(x) of x = -(v * v) */
    double x = -(v * v);
    double y = 1.0 + x;
    int near = (y >= K->sqrt_half) & (y < 2.0 * K->sqrt_half);
    double r = near ? 1.0 : y; /* positive and normal: y >= 2**-52 */
    uint64_t b;
    memcpy(&b, &r, 8);
    uint64_t mb = (b & UINT64_C(0x000fffffffffffff)) | UINT64_C(0x3fe0000000000000);
    double m;
    memcpy(&m, &mb, 8); /* frexp's mantissa, in [1/2, 1) */
    double e = (double)((int32_t)(b >> 52) - 1022);
    int low = m < K->sqrt_half;
    double m2 = m * 2.0, e1 = e - 1.0;
    m = low ? m2 : m;
    e = low ? e1 : e;
    double fm = m - 1.0;
    double f = near ? x : fm;
    e = near ? 0.0 : e;
    double z = f * f;
    double t = z * horner_f64(f, K->log_p, 6);
    t = t / horner_f64(f, K->log_q, 6);
    double s = f * t;
    double el = e * K->ln2_lo;
    s = s + el;
    double zh = z * 0.5;
    s = s - zh;
    double eh = e * K->ln2_hi;
    double log1p = (f + s) + eh;
    double w = -log1p;
    /* erfinv(v) */
    int lt6 = w < 6.25, lt16 = w < 16.0;
    double root = sqrt(w);
    double p6 = horner_f64(w - 3.125, K->erfinv_6, 23);
    double p16 = horner_f64(root - 3.25, K->erfinv_16, 19);
    double pbig = horner_f64(root - 5.0, K->erfinv_big, 17);
    double p = lt6 ? p6 : (lt16 ? p16 : pbig);
    p = p * v;
    return p * K->sqrt2;
}

static void EXACT CLONED
normal64_rounds(uint32_t k0, uint32_t k1, uint32_t start, double *restrict out, Py_ssize_t n,
                const normal64_constants *restrict K)
{
    const uint32_t k2 = k0 ^ k1 ^ 0x1BD11BDAu;
    for (Py_ssize_t i = 0; i < n; i++) {
        THREEFRY(start + (uint32_t)i);
        out[i] = normal64_of(x0, x1, K);
    }
}

static PyObject *
normal_f64(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t k0, k1, start;
    if (key_words(args, nargs, 5, "normal_f64(k0, k1, start, out, constants)", &k0, &k1) < 0
        || start_arg(args[2], &start, "normal_f64") < 0) {
        return NULL;
    }
    Py_buffer o = {0}, k = {0};
    PyObject *result = NULL;
    if (out_buffer(args[3], &o, "d", 8, "normal_f64", "out") < 0
        || PyObject_GetBuffer(args[4], &k, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        goto done;
    }
    const char *fk = k.format == NULL ? "B" : k.format;
    if (*fk == '=' || *fk == '<' || *fk == '@') {
        fk++;
    }
    if (k.itemsize != 8 || strcmp(fk, "d") != 0 || k.len != 8 * NORMAL64_CONSTANTS) {
        PyErr_SetString(PyExc_TypeError, "normal_f64: constants must be 76 float64 numbers");
        goto done;
    }
    normal64_constants K;
    const double *d = (const double *)k.buf;
    double *fields[] = {K.log_p, K.log_q, K.erfinv_6, K.erfinv_16, K.erfinv_big};
    int sizes[] = {6, 6, 23, 19, 17};
    int at = 0;
    for (int f = 0; f < 5; f++) {
        for (int j = 0; j < sizes[f]; j++) {
            memcpy(&fields[f][j], &d[at++], 8);
        }
    }
    memcpy(&K.ln2_hi, &d[at++], 8);
    memcpy(&K.ln2_lo, &d[at++], 8);
    memcpy(&K.sqrt_half, &d[at++], 8);
    memcpy(&K.lo, &d[at++], 8);
    memcpy(&K.sqrt2, &d[at++], 8);
    double *out = (double *)o.buf;
    Py_ssize_t n = o.len / 8;
    Py_BEGIN_ALLOW_THREADS
    normal64_rounds(k0, k1, start, out, n, &K);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&o);
    PyBuffer_Release(&k);
    return result;
}

#undef EXACT
#undef INLINED
#undef CLONED
#undef THREEFRY
#undef THREEFRY_OF
#undef MIX
#undef ROTL32
#undef VECTORISED

/* graph_reaches(roots, mine, accumulate, inner): whether the autograd graph below the nodes
 * of the list `roots` reaches a leaf (a node of exactly the type `accumulate`) whose
 * `variable` is not in `mine` (a set of ids) and has no true attribute `inner`. The Python
 * twin, and the reference, is the walk of arraymux.transforms._torch._reaches_beyond; a
 * training step calls it once, after its forward pass, where torch's own work has taken the
 * CPU's caches and the Python loop costs several microseconds. Every node is held (by the
 * stack, the set of nodes seen or the tuple of its parent's edges) while it is read, and the
 * arguments for the whole call: reading a node's edges or a leaf's attribute may run Python
 * code. */
#if PY_VERSION_HEX >= 0x030D0000
#define LOOKUP_ATTR PyObject_GetOptionalAttr
#else
#define LOOKUP_ATTR _PyObject_LookupAttr
#endif

/* 1 if the leaf node `node` stands for a tensor that is not ours, 0 if not, -1 on error. */
static int
foreign_leaf(PyObject *node, PyObject *mine, PyObject *inner)
{
    PyObject *v = PyObject_GetAttr(node, str_variable);
    if (v == NULL) {
        return -1;
    }
    PyObject *id = PyLong_FromVoidPtr(v);
    int ours = id == NULL ? -1 : PySet_Contains(mine, id);
    Py_XDECREF(id);
    if (ours != 0) {
        Py_DECREF(v);
        return ours < 0 ? -1 : 0;
    }
    PyObject *flag = NULL;
    int has = LOOKUP_ATTR(v, inner, &flag);
    Py_DECREF(v);
    if (has <= 0) {
        return has < 0 ? -1 : 1;
    }
    int marked = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return marked < 0 ? -1 : !marked;
}

static PyObject *
graph_reaches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyList_Check(args[0]) || !PyAnySet_Check(args[1])
        || !PyType_Check(args[2]) || !PyUnicode_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "graph_reaches(roots: list, mine: set, accumulate: type, inner: str)");
        return NULL;
    }
    PyObject *mine = Py_NewRef(args[1]), *accumulate = Py_NewRef(args[2]);
    PyObject *inner = Py_NewRef(args[3]);
    PyObject *stack = PySequence_List(args[0]); /* a copy: the caller's list stays as it is */
    PyObject *seen = stack == NULL ? NULL : PySet_New(stack);
    PyObject *result = NULL;
    if (seen == NULL) {
        goto done;
    }
    while (PyList_GET_SIZE(stack) > 0) {
        Py_ssize_t n = PyList_GET_SIZE(stack);
        PyObject *node = Py_NewRef(PyList_GET_ITEM(stack, n - 1));
        if (PyList_SetSlice(stack, n - 1, n, NULL) < 0) {
            Py_DECREF(node);
            goto done;
        }
        PyObject *edges = PyObject_GetAttr(node, str_next_functions);
        Py_DECREF(node);
        /* A tuple (a copy of any other sequence): a node's __hash__ or a leaf's attribute may
         * run Python code that changes a list of edges while it is walked. */
        PyObject *fast = edges == NULL ? NULL : PySequence_Tuple(edges);
        Py_XDECREF(edges);
        if (fast == NULL) {
            goto done;
        }
        Py_ssize_t m = PyTuple_GET_SIZE(fast);
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *edge = PyTuple_GET_ITEM(fast, i); /* held by `fast` */
            if (!PyTuple_Check(edge) || PyTuple_GET_SIZE(edge) != 2) {
                PyErr_SetString(PyExc_TypeError, "an edge of next_functions is not a pair");
                Py_DECREF(fast);
                goto done;
            }
            PyObject *next = PyTuple_GET_ITEM(edge, 0); /* held by `edge` */
            if (Py_TYPE(next) == (PyTypeObject *)accumulate) {
                int foreign = foreign_leaf(next, mine, inner);
                if (foreign != 0) {
                    Py_DECREF(fast);
                    result = foreign < 0 ? NULL : Py_NewRef(Py_True);
                    goto done;
                }
                continue;
            }
            if (next == Py_None) {
                continue;
            }
            int known = PySet_Contains(seen, next);
            if (known < 0 || (!known && (PySet_Add(seen, next) < 0
                                         || PyList_Append(stack, next) < 0))) {
                Py_DECREF(fast);
                goto done;
            }
        }
        Py_DECREF(fast);
    }
    result = Py_NewRef(Py_False);
done:
    Py_XDECREF(stack);
    Py_XDECREF(seen);
    Py_DECREF(mine);
    Py_DECREF(accumulate);
    Py_DECREF(inner);
    return result;
}
#undef LOOKUP_ATTR

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(Array, Device, type_cache, backend_errors, scalar_planner, where_planner): read "
     "the slot offsets of the two classes; keep the type cache, the errors that the Python "
     "functions explain and the functions that plan array-and-scalar calls and where."},
    {"function", (PyCFunction)(void (*)(void))make_function, METH_FASTCALL,
     "function(kind, name, short_name, module_name, doc, slow, keeps_dtype): a builtin that "
     "runs the fast path of `name` and hands every other call to `slow`."},
    {"natives", (PyCFunction)natives, METH_O,
     "natives(tree) -> (tree with its Arrays unwrapped, their one device), or None."},
    {"device_of", (PyCFunction)device_of, METH_O,
     "device_of(tree) -> the one device of the tree's Arrays, or None (as natives, without "
     "building anything)."},
    {"dtypes_in", (PyCFunction)(void (*)(void))dtypes_in, METH_FASTCALL,
     "dtypes_in(tree, dtypes) -> True if every leaf of the tree is an Array whose cached native "
     "dtype is in the frozenset dtypes (False where that cannot be told from the Arrays)."},
    {"wrap_tree", (PyCFunction)(void (*)(void))wrap_tree, METH_FASTCALL,
     "wrap_tree(tree, device) -> tree with the arrays of the device's backend wrapped as Arrays "
     "on it, or None."},
    {"convert_tree", (PyCFunction)(void (*)(void))convert_tree, METH_FASTCALL,
     "convert_tree(tree, type, fn, device=None) -> tree with every leaf of exactly `type` "
     "replaced by fn(leaf) (wrapped as an Array on `device` if given), or None where the tree "
     "holds other leaves than those, Python scalars and None."},
    {"threefry2x32", (PyCFunction)(void (*)(void))threefry2x32, METH_FASTCALL,
     "threefry2x32(k0, k1, counter, out0, out1): Threefry-2x32 of the counters (0, counter[i]) "
     "with the key words k0 and k1 into out0[i] and out1[i] (uint32 buffers of one length); "
     "an int counter is the first of consecutive ones."},
    {"uniform_f32", (PyCFunction)(void (*)(void))uniform_f32, METH_FASTCALL,
     "uniform_f32(k0, k1, start, out): float32 in [0, 1) of the Threefry words of the counters "
     "(0, start + i), as jax.random.uniform makes them, into out."},
    {"normal_f32", (PyCFunction)(void (*)(void))normal_f32, METH_FASTCALL,
     "normal_f32(k0, k1, counter, out, constants): float32 standard normals of the Threefry "
     "words of the counters (0, counter[i]), as jax.random.normal makes them, into out."},
    {"threefry_pair", (PyCFunction)(void (*)(void))threefry_pair, METH_FASTCALL,
     "threefry_pair(k0, k1, c0, c1) -> (y0, y1): Threefry-2x32 of the counter (c0, c1) with "
     "the key words k0 and k1, as ints."},
    {"threefry_keys", (PyCFunction)(void (*)(void))threefry_keys, METH_FASTCALL,
     "threefry_keys(k0, k1, start, out): the words (y0, y1) of Threefry of the counters "
     "(0, start + i) as the pairs out[2i], out[2i + 1] (an (n, 2) uint32 array of keys)."},
    {"uniform_f64", (PyCFunction)(void (*)(void))uniform_f64, METH_FASTCALL,
     "uniform_f64(k0, k1, start, out): float64 in [0, 1) of the Threefry words of the counters "
     "(0, start + i), as jax.random.uniform makes them, into out."},
    {"normal_f64", (PyCFunction)(void (*)(void))normal_f64, METH_FASTCALL,
     "normal_f64(k0, k1, start, out, constants): float64 standard normals of the Threefry words "
     "of the counters (0, start + i), as jax.random.normal makes them, into out."},
    {"integers", (PyCFunction)(void (*)(void))integers, METH_FASTCALL,
     "integers(k0, k1, start, out, span, low): low + the offsets in [0, span) of "
     "jax.random.randint for the counters start + i, into out (integers of 1 to 8 bytes)."},
    {"graph_reaches", (PyCFunction)(void (*)(void))graph_reaches, METH_FASTCALL,
     "graph_reaches(roots, mine, accumulate, inner) -> whether the autograd graph below the "
     "nodes `roots` reaches a leaf node of type `accumulate` whose variable's id is not in the "
     "set `mine` and whose attribute `inner` is not true."},
    {"number_slots", (PyCFunction)number_slots, METH_O,
     "number_slots({'add': builtin, ..., 'eq': builtin, 'neg': builtin}): run the fast path "
     "of each builtin from Array's operator slots for exact Arrays."},
    {"index_slot", (PyCFunction)index_slot, METH_NOARGS,
     "index_slot(): run x[key] of exact Arrays and basic keys on devices that index plainly "
     "from Array's subscript slot (every other call goes to Array.__getitem__)."},
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
    str_refused = PyUnicode_InternFromString("refused");
    str_wrapped = PyUnicode_InternFromString("__wrapped__");
    str_ndim = PyUnicode_InternFromString("ndim");
    str_variable = PyUnicode_InternFromString("variable");
    str_next_functions = PyUnicode_InternFromString("next_functions");
    slow_marker = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    use_python = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    if (str_dtype == NULL || str_ndim == NULL || str_variable == NULL
        || str_next_functions == NULL || str_refused == NULL || str_wrapped == NULL
        || slow_marker == NULL || use_python == NULL) {
        return NULL;
    }
    holder_type.tp_name = "arraymux._speedups.function_holder";
    holder_type.tp_doc = "The module object behind a compiled arraymux function.";
    holder_type.tp_basicsize = PyModule_Type.tp_basicsize + (Py_ssize_t)sizeof(entry_t);
    holder_type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    holder_type.tp_base = &PyModule_Type;
    holder_type.tp_dealloc = holder_dealloc;
    holder_type.tp_traverse = holder_traverse;
    holder_type.tp_clear = holder_clear;
    if (PyType_Ready(&holder_type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "BINARY", KIND_BINARY) < 0
        || PyModule_AddIntConstant(m, "UNARY", KIND_UNARY) < 0
        || PyModule_AddIntConstant(m, "FIRST", KIND_FIRST) < 0
        || PyModule_AddIntConstant(m, "WHERE", KIND_WHERE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
