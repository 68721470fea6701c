"""refgen: compile reference pages for calculation scenarios, checked against the code.

Add ``"refgen"`` to ``extensions`` in a Sphinx ``conf.py`` and set
``refgen_modules`` and ``refgen_registry``. Importing this package does not
import Sphinx; only :func:`setup` does.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def setup(app: Any) -> dict[str, Any]:
    """Sphinx entry point (``extensions = ["refgen"]``)."""
    from refgen.sphinx.extension import setup as setup_extension

    return setup_extension(app)
