"""Examples: queued while pages are read, run once when reading is done.

Pages may be read in parallel worker processes; each queues the examples of
the pages it read in the build state (:attr:`BuildState.queued_examples
<refgen.sphinx.state.BuildState.queued_examples>`, merged back by
``env-merge-info``), and the main process runs them all once every page is
read: one progress bar, one run each, every failure a ``refgen.example``
warning at the ``.py`` line.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.display import status_iterator

from refgen.analysis.model import ExampleBlock, WarningKind
from refgen.evaluate.examples import run_examples
from refgen.sphinx.records import warnings_of
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import build_state, project_of

logger = logging.getLogger(__name__)


def queue_examples(
    env: BuildEnvironment, subject: str, block: ExampleBlock, docname: str = ""
) -> None:
    """Run ``block`` after reading, as the examples of ``docname`` (the page being read)."""
    queued = build_state(env).queued_examples
    queued.setdefault(docname or env.docname, []).append((subject, block))


def run_queued_examples(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read: run the examples of every page read in this build, with
    progress."""
    queued = build_state(env).queued_examples
    jobs = [(docname, *job) for docname in sorted(queued) for job in queued[docname]]
    queued.clear()
    if app.builder.name == "doctest":
        return  # the doctest builder runs these examples itself
    project = project_of(env)
    if project.registry_failed and jobs:
        logger.info("[refgen] examples not run: the registry could not be imported")
        return
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
