"""Sphinx configuration of the arraymux documentation.

Build it (strict: any warning fails) with ``python -m sphinx -W --keep-going -b html docs
docs/_build/html``. The API reference, the gallery's figures and run-time tables, the
performance plots and the conformance matrix are made while the site is built
(``_ext/arraymux_docs.py``) into ``docs/generated/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import arraymux  # noqa: E402

project = "arraymux"
author = "the arraymux authors"
copyright = "2026, the arraymux authors"
release = version = arraymux.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "arraymux_docs",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# The generated tables and figures that pages include are not pages themselves.
exclude_patterns = [
    "_build",
    "examples/README.md",
    "generated/*.md",
    "generated/performance/*.md",
]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"arraymux {release}"
html_static_path = ["_static"]
html_favicon = "_static/arraymux.svg"
html_css_files = ["arraymux.css"]

# Copy buttons copy the code of a session, not its prompts or what it printed.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos, .gp, .go"

autodoc_typehints = "none"  # the signatures carry the standard's names; types are in the text
autodoc_member_order = "bysource"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
