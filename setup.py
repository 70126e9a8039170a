"""Builds the optional compiled hot path; arraymux works without it (pure Python)."""

import platform

from setuptools import Extension, setup

ext_modules = []
if platform.python_implementation() == "CPython":
    ext_modules.append(
        Extension(
            "arraymux._speedups",
            ["src/arraymux/_speedups.c"],
            optional=True,  # no compiler: install the pure-Python package
            # The loops of random numbers vectorise where sqrt sets no errno and floating-point
            # operations are not taken to trap (IEEE's default; neither changes a result, and
            # nothing in the module reads errno or traps).
            extra_compile_args=(
                ["-O2", "-fno-math-errno", "-fno-trapping-math"]
                if platform.system() != "Windows"
                else []
            ),
        )
    )

setup(ext_modules=ext_modules)
