"""Sphinx configuration of the refgen reference site."""

project = "refgen"
author = "The refgen developers"
copyright = "2026, the refgen developers"

extensions = [
    "myst_parser",
    "sphinx.ext.doctest",
    "refgen",
]

# What refgen documents: the scenario modules (one category each) and the registry.
refgen_modules = [
    "scenarios.training",
    "scenarios.inference",
    "scenarios.reliability",
    "scenarios.sustainability",
]
refgen_registry = "scenarios.Scenarios"

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
nitpicky = True
nitpick_ignore = [("py:class", "Quantity"), ("py:class", "Optional")]

html_theme = "alabaster"
html_title = "refgen reference"
