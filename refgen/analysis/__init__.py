"""Analysis: scenario classes, helpers and the registry read into a plain, typed data model.

Nothing here imports Sphinx or docutils, and nothing evaluates a scenario's
attributes: source files are read with :mod:`ast`, docstrings are split into
sections, equations are taken from property bodies.
"""

from __future__ import annotations

from refgen.analysis.scenarios import (
    analyse_helper,
    analyse_module,
    analyse_registry,
    analyse_scenario,
    clear_caches,
    helper_modules,
    registry_files,
    release_syntax_trees,
)

__all__ = [
    "analyse_helper",
    "analyse_module",
    "analyse_registry",
    "analyse_scenario",
    "clear_caches",
    "helper_modules",
    "registry_files",
    "release_syntax_trees",
]
