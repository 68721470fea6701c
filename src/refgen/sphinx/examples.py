"""Examples: queued while pages are read, run once when reading is done.

Pages may be read in parallel worker processes; each queues the examples of
the pages it read in the environment (merged back by ``env-merge-info``), and
the main process runs them all at ``env-updated``: one progress bar, one run
each, every failure a ``refgen.example`` warning at the ``.py`` line.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.display import status_iterator

from refgen.analysis.model import ExampleBlock, WarningKind
from refgen.evaluate.examples import run_examples
from refgen.sphinx.records import warnings_of
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import project_of

logger = logging.getLogger(__name__)

PENDING = "refgen_pending_examples"


def _pending(env: Any) -> dict[str, list[tuple[str, ExampleBlock]]]:
    if not hasattr(env, PENDING):
        setattr(env, PENDING, {})
    pending: dict[str, list[tuple[str, ExampleBlock]]] = getattr(env, PENDING)
    return pending


def queue_examples(env: Any, subject: str, block: ExampleBlock, docname: str = "") -> None:
    """Run ``block`` after reading, as the examples of ``docname`` (the page being read)."""
    _pending(env).setdefault(docname or env.docname, []).append((subject, block))


def purge_examples(app: Sphinx, env: Any, docname: str) -> None:
    _pending(env).pop(docname, None)


def merge_examples(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    _pending(env).update(_pending(other))


def run_queued_examples(app: Sphinx, env: Any) -> list[str]:
    """Run the examples of every page read in this build, with progress."""
    queued = _pending(env)
    jobs = [(docname, *job) for docname in sorted(queued) for job in queued[docname]]
    queued.clear()
    if app.builder.name == "doctest":
        return []  # the doctest builder runs these examples itself
    project = project_of(env)
    if project.registry_failed and jobs:
        logger.info("[refgen] examples not run: the registry could not be imported")
        return []
    for docname, subject, block in status_iterator(
        jobs,
        "[refgen] running examples... ",
        "darkgreen",
        len(jobs),
        app.verbosity,
        stringify_func=lambda job: job[1],
    ):
        with warnings_of(env, docname):  # shown again while the page is not re-read
            for failure in run_examples(block, subject, project.settings.eval_timeout).failures:
                warn(WarningKind.EXAMPLE, failure.describe(with_location=False), failure.location)
    return []
