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
            extra_compile_args=["-O2"] if platform.system() != "Windows" else [],
        )
    )

setup(ext_modules=ext_modules)
