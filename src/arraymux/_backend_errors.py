"""A backend's own errors inside an arraymux function: which ones are about the arguments
(:data:`BACKEND_ERRORS`) and how they are explained, named after the function
(:func:`annotated`, :func:`raise_annotated`)."""

from __future__ import annotations

from ._errors import ArraymuxError, AxisError

__all__ = ["BACKEND_ERRORS", "annotated", "raise_annotated"]

#: The errors a backend raises for arguments it refuses: these are explained (named after the
#: arraymux function) and may be retried on the checking path. Any other exception passes
#: through untouched, since libraries use their own for control flow (torch's checkpoint stops
#: its recomputation with one).
BACKEND_ERRORS: tuple[type[Exception], ...] = (
    TypeError,
    ValueError,
    IndexError,
    ArithmeticError,
    LookupError,
    AttributeError,
    NameError,
    RuntimeError,  # NotImplementedError, torch's argument errors
    AssertionError,
    StopIteration,
    BufferError,
)


def annotated(fname: str, device: object, exc: BaseException) -> BaseException:
    """The exception to raise for ``exc``, raised by a backend inside ``arraymux.<fname>``.

    arraymux's own errors, and errors whose message already names the function, are kept.
    ``TypeError``, ``ValueError``, ``IndexError`` and arithmetic errors keep their type (code
    that catches ``numpy.linalg.LinAlgError`` still does) with the function and device put in
    front of their message; a backend's internal error types (``KeyError``, ``NameError``,
    ``AssertionError``, ``StopIteration``, torch's plain ``RuntimeError`` for a bad argument)
    become a ``ValueError``/``TypeError`` that names the function, with the original as its
    cause. Errors that are not about the arguments (memory, interrupts) are left alone."""
    if isinstance(exc, ArraymuxError) or not isinstance(exc, BACKEND_ERRORS):
        return exc
    if isinstance(exc, MemoryError) or type(exc).__name__ == "OutOfMemoryError":
        return exc
    prefix = f"arraymux.{fname}"
    text = str(exc)
    if text.startswith(prefix):
        return exc
    where = f"{prefix} on {device}: " if device is not None else f"{prefix}: "
    if type(exc).__name__ == "AxisError":  # NumPy's and Dask's: arraymux's own, named
        axis_error = AxisError(where + text)
        axis_error.__cause__ = exc
        return axis_error
    if isinstance(exc, TypeError | ValueError | IndexError | ArithmeticError):
        if _str_follows_args(exc):
            old_args = exc.args
            exc.args = (where + exc.args[0],)
            if str(exc) == exc.args[0]:
                return exc
            exc.args = old_args  # a message kept in other fields (NumPy's AxisError)
        exc.add_note(f"(raised by the backend inside {where[:-2]})")
        return exc
    kind: type[Exception] = ValueError
    if isinstance(exc, AttributeError | NameError | KeyError):
        kind = TypeError
    elif isinstance(exc, NotImplementedError):  # the backend lacks this case: say so
        kind = NotImplementedError
    new_exc = kind(f"{where}{type(exc).__name__}: {text or 'the backend refused the arguments'}")
    new_exc.__cause__ = exc
    return new_exc


def _str_follows_args(exc: BaseException) -> bool:
    """Whether ``str(exc)`` is its first argument (so a new first argument shows)."""
    return len(exc.args) == 1 and isinstance(exc.args[0], str) and str(exc) == exc.args[0]


def raise_annotated(fname: str, device: object, e: Exception) -> None:
    """Raise ``e`` (a backend's error inside ``fname``) as :func:`annotated` says; call it in
    an ``except`` block."""
    err = annotated(fname, device, e)
    if err is e:
        raise
    raise err from e
