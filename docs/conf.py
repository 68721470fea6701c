"""Sphinx configuration of the refgen reference site."""

from pathlib import Path

from refgen.config import load_project_config

project = "refgen"
author = "The refgen developers"
copyright = "2026, the refgen developers"

extensions = [
    "myst_parser",
    "sphinx.ext.doctest",
    "refgen",
]

# What refgen documents: the scenario modules (one category each) and the
# registry. They are kept once, in pyproject.toml's [tool.refgen] table, which
# the `refgen` command and the pytest plugin read too.
_project = load_project_config(Path(__file__).parent)
refgen_modules = list(_project.modules)
refgen_registry = _project.registry

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
nitpicky = True
nitpick_ignore = [("py:class", "Quantity"), ("py:class", "Optional")]

html_theme = "alabaster"
html_title = "refgen reference"
