"""refgen: compile reference pages for calculation scenarios, checked against the code.

Add ``"refgen"`` to ``extensions`` in a Sphinx ``conf.py`` and set
``refgen_modules`` and ``refgen_registry``. Importing this package does not
import Sphinx; only :func:`setup` does. In IPython or Jupyter, ``%load_ext refgen``
shows scenario instances as their reference page (:mod:`refgen.notebook`, imported
only then).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def setup(app: Any) -> dict[str, Any]:
    """Sphinx entry point (``extensions = ["refgen"]``)."""
    from refgen.sphinx.extension import setup as setup_extension

    return setup_extension(app)


def load_ipython_extension(ipython: Any) -> None:
    """IPython entry point (``%load_ext refgen``): scenario instances display as pages."""
    from refgen.notebook import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """IPython's ``%unload_ext refgen``: objects display as they did before."""
    from refgen.notebook import unload

    unload(ipython)
