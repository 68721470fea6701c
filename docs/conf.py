"""Sphinx configuration of the refgen reference site."""

import logging
from pathlib import Path

from refgen.config import load_settings

project = "refgen"
author = "The refgen developers"
copyright = "2026, the refgen developers"

extensions = [
    "myst_parser",
    "sphinx.ext.doctest",
    "sphinx_copybutton",
    "refgen",
]

# What refgen documents: the scenario modules (one category each) and the
# registry. They are kept once, in pyproject.toml's [tool.refgen] table, which
# the `refgen` command and the pytest plugin read too.
_project = load_settings(Path(__file__).parent)
refgen_modules = list(_project.modules)
refgen_registry = _project.registry
# Hold the library to refgen check's rules at every build (-W makes them errors).
refgen_checks = True


# MyST prints its whole configuration at every build; the build's own lines are
# what a reader of the output needs.
class _WithoutMystConfiguration(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "MdParserConfig(" not in record.getMessage()


logging.getLogger("sphinx.myst_parser.sphinx_ext.main").addFilter(_WithoutMystConfiguration())

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
nitpicky = True
nitpick_ignore = [("py:class", "Quantity"), ("py:class", "Optional")]

html_theme = "furo"
html_title = "refgen reference"
templates_path = ["_templates"]
# Furo links neither the general index nor the module index; the Reference
# section and the search box are how a reader finds a class or an attribute.
html_use_index = False
html_domain_indices = False

# Copy buttons on code blocks copy what a reader would type: for doctest
# examples, the code after the ``>>> `` and ``... `` prompts, without the
# prompts and without the expected output.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
# The button's icon, labelled for screen readers (the default icon has no role).
copybutton_image_svg = (
    '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Copy to clipboard" '
    'width="44" height="44" viewBox="0 0 24 24" stroke-width="1.5" stroke="currentColor" '
    'fill="none" stroke-linecap="round" stroke-linejoin="round">'
    "<title>Copy to clipboard</title>"
    '<rect x="8" y="8" width="12" height="12" rx="2"/>'
    '<path d="M16 8v-2a2 2 0 0 0 -2 -2h-8a2 2 0 0 0 -2 2v8a2 2 0 0 0 2 2h2"/>'
    "</svg>"
)
