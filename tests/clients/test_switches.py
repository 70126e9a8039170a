"""A library whose Array API switch is off meets an Array: NumPy's ufuncs refuse it with the
fix in the message, and a conversion to NumPy by SciPy or scikit-learn warns with
``NumPyFallbackWarning`` instead of handing back NumPy arrays silently.

``tests/conftest.py`` sets ``SCIPY_ARRAY_API=1`` before SciPy is imported, so the cases
without the switch run in a fresh interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import arraymux as xp

pytest.importorskip("scipy")
pytest.importorskip("sklearn")


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "SCIPY_ARRAY_API"}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )


def test_scipy_special_without_the_switch_names_it():
    r = _run(
        """
        import arraymux as xp
        import scipy.special
        x = xp.asarray([0.5, 1.0], device="torch:cpu")
        try:
            scipy.special.erf(x)
        except TypeError as e:
            print(e)
        else:
            print("no error")
        """
    )
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "arraymux.Array.__array_ufunc__: NumPy's ufunc 'erf'" in out
    assert "SCIPY_ARRAY_API=1" in out and "xp.natively(fun)(x)" in out
    assert "xp.to_numpy(x)" in out and "torch arrays" in out


def test_scipy_stats_without_the_switch_warns_and_points_at_the_call():
    r = _run(
        """
        import warnings
        import numpy as np
        import arraymux as xp
        import scipy.stats
        x = xp.asarray(np.arange(6.0), device="torch:cpu")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            z = scipy.stats.zscore(x)  # the line the warning names
        print(type(z).__name__)
        mine = [w for w in caught if w.category is xp.NumPyFallbackWarning]
        print(len(mine) > 0, {w.lineno for w in mine}, {w.filename for w in mine})
        print(mine[0].message)
        with warnings.catch_warnings():
            warnings.simplefilter("error", xp.NumPyFallbackWarning)
            try:
                scipy.stats.zscore(x)
            except xp.NumPyFallbackWarning:
                print("raised")
        """
    )
    assert r.returncode == 0, r.stderr
    kind, seen, message, raised = r.stdout.splitlines()[:4]
    assert kind == "ndarray"  # the result SciPy computes without the switch, as it is
    assert seen == "True {9} {'<string>'}"  # the user's line, not SciPy's internals
    assert message.startswith("SciPy converted an Array on torch:cpu to NumPy")
    assert "SCIPY_ARRAY_API=1" in message and "xp.to_numpy(x)" in message
    assert raised == "raised"


def test_scipy_with_the_switch_does_not_warn():
    r = _run(
        """
        import warnings
        import numpy as np
        import arraymux as xp
        import scipy.stats
        warnings.simplefilter("error", xp.NumPyFallbackWarning)
        x = xp.asarray(np.arange(6.0), device="torch:cpu")
        print(type(scipy.stats.zscore(x)).__name__)
        """,
        SCIPY_ARRAY_API="1",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Array"


def test_sklearn_without_dispatch_warns_with_its_switch():
    from sklearn.preprocessing import StandardScaler

    x = xp.reshape(xp.asarray(np.arange(6.0), device="torch:cpu"), (3, 2))
    with pytest.warns(xp.NumPyFallbackWarning, match=r"array_api_dispatch=True") as caught:
        out = StandardScaler().fit_transform(x)
    assert type(out) is np.ndarray
    assert {w.filename for w in caught if w.category is xp.NumPyFallbackWarning} == {__file__}


def test_own_conversions_do_not_warn():
    x = xp.asarray([1.0, 2.0], device="torch:cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.asarray(x).tolist() == [1.0, 2.0]
        assert xp.to_numpy(x).tolist() == [1.0, 2.0]


def test_numpy_ufuncs_refuse_arrays_with_the_fix(device):
    x = xp.asarray([0.5, 1.0], device=device)
    with pytest.raises(TypeError, match=r"NumPy's ufunc 'sin' was called on an Array") as e:
        np.sin(x)
    assert "xp.sin(x)" in str(e.value) and "SCIPY_ARRAY_API=1" in str(e.value)
    with pytest.raises(TypeError, match=r"ufunc 'add.reduce'"):
        np.add.reduce(x)
    with pytest.raises(TypeError, match=r"'add' was called with out="):
        out = np.zeros(2)
        out += x


def test_numpy_operators_with_an_array_compute_as_its_own():
    """NumPy arrays and scalars on the left of an operator hand over to the Array."""
    x = xp.asarray([1.0, 2.0], device="numpy")
    t = xp.asarray([1.0, 2.0], dtype=xp.float32, device="torch:cpu")
    a = np.array([10.0, 20.0])
    cases = {
        "+": (a + x, [11.0, 22.0]),
        "-": (a - x, [9.0, 18.0]),
        "*": (a * x, [10.0, 40.0]),
        "/": (a / x, [10.0, 10.0]),
        "//": (a // x, [10.0, 10.0]),
        "%": (a % x, [0.0, 0.0]),
        "**": (a**x, [10.0, 400.0]),
        "<": (a < x, [False, False]),
        ">": (a > x, [True, True]),
        "==": (a == x, [False, False]),
        "!=": (a != x, [True, True]),
        "scalar *": (np.float32(2.0) * t, [2.0, 4.0]),
    }
    for op, (r, want) in cases.items():
        assert type(r) is xp.Array, op
        assert xp.to_numpy(r).tolist() == want, op
    assert (np.float32(2.0) * t).dtype == xp.float32  # the scalar takes the Array's dtype
    assert xp.to_numpy(
        np.array([[1.0, 0.0], [0.0, 1.0]]) @ xp.asarray([[2.0], [3.0]])
    ).tolist() == [
        [2.0],
        [3.0],
    ]
    with pytest.raises(xp.BackendMismatchError):
        a + t  # a NumPy array and a tensor: refused as for any two backends
