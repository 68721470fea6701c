"""The ``refgen-sweep`` directive: a registry entry's figures plotted as one input varies.

In reST::

    .. refgen-sweep:: PhoneFullUpdateWorkingSet
       :vary: bandwidth
       :values: 25 GB/s, 51.2 GB/s, 100 GB/s
       :plot: step_floor

and in MyST the same options inside a ```` ```{refgen-sweep} ```` fence.
``:from:``/``:to:``/``:steps:`` space the values evenly instead of ``:values:``,
and ``:log:`` logarithmically. The Project computes the sweep
(:mod:`refgen.evaluate.sweeps`), :mod:`refgen.render.sweeps` lays it out as
blocks (a sentence, the SVG plot, the data table) and
:class:`~refgen.sphinx.node_builder.NodeBuilder` makes them nodes.

Every option is read by evaluation, so a bad one (an unknown entry, input or
figure, values in another unit) is a ``refgen.value`` warning at the
directive's line, and the page says the sweep is not available; a point the
user's code cannot compute is a gap in the plot and one warning. The page
keeps a digest of what each sweep showed (:func:`sweep_shown`), so an
incremental build reads it again exactly when a sweep would show something
else (:mod:`refgen.sphinx.incremental`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
from collections.abc import Callable
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from refgen.analysis.failures import describe_error
from refgen.analysis.model import SourceLocation, WarningKind
from refgen.evaluate.sweep_request import SweepRequest
from refgen.evaluate.sweeps import Sweep
from refgen.project import Project
from refgen.render.blocks import text
from refgen.render.sweeps import sweep_blocks
from refgen.sphinx.node_builder import NodeBuilder, locate_nodes
from refgen.sphinx.records import note_sweep
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import project_of

MOST_GAPS_NAMED = 5
"""Gaps a warning names one by one; it counts the rest."""


def request_of(argument: str, options: dict[str, str | None]) -> SweepRequest:
    """The directive's argument and options as a request (checked by evaluation)."""

    def option(name: str) -> str:
        return (options.get(name) or "").strip()

    return SweepRequest(
        entry=argument.strip(),
        vary=option("vary"),
        plot=tuple(dict.fromkeys(name for name in re.split(r"[\s,]+", option("plot")) if name)),
        values=tuple(
            value.strip() for value in re.split(r"[,\n]", option("values")) if value.strip()
        ),
        start=option("from"),
        stop=option("to"),
        steps=option("steps"),
        log="log" in options,
    )


def shown_digest(swept: Sweep) -> str:
    """What a sweep shows, as one string to compare: its data and the drawing's version."""
    drawn_by = importlib.metadata.version("matplotlib")
    return f"{hashlib.sha256(repr(swept).encode()).hexdigest()}\0matplotlib {drawn_by}"


def sweep_shown(project: Project, key: str) -> str:
    """What the sweep of ``key`` (:meth:`SweepRequest.key`) shows at this build."""
    return shown_digest(project.sweep(SweepRequest.from_key(key)))


class SweepDirective(SphinxDirective):
    """``.. refgen-sweep:: Entry`` with ``:vary:``, ``:values:`` or ``:from:``/``:to:``
    (``:steps:``, ``:log:``) and ``:plot:``."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "vary": directives.unchanged,
        "values": directives.unchanged,
        "from": directives.unchanged,
        "to": directives.unchanged,
        "steps": directives.unchanged,
        "log": directives.flag,
        "plot": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        project = project_of(self.env)
        request = request_of(self.arguments[0], self.options)
        swept = project.sweep(request)
        note_sweep(self.env, request.key(), shown_digest(swept))
        if project.registry_failed:  # reported once, when the pages were planned
            return self._not_available(request, "the registry cannot be read")
        if swept.problem:
            return self._refused(request, swept.problem)
        self._report_gaps(swept)
        prefix = f"refgen-sweep{self.env.new_serialno('refgen-sweep')}-"
        try:  # the sweep is plain data; matplotlib may still refuse to draw some of it
            built = sweep_blocks(swept, prefix)
        except Exception as failure:
            return self._refused(request, f"cannot draw it: {describe_error(failure)}")
        shown = NodeBuilder(self).blocks(built)
        locate_nodes(
            shown, SourceLocation(self.env.doc2path(self.env.docname).as_posix(), self.lineno)
        )
        container = nodes.container("", *shown, classes=["refgen-sweep"])
        return [container]

    def _refused(self, request: SweepRequest, reason: str) -> list[nodes.Node]:
        warn(WarningKind.VALUE, f"cannot sweep {request.entry}: {reason}", self.get_location())
        return self._not_available(request, reason)

    def _not_available(self, request: SweepRequest, reason: str) -> list[nodes.Node]:
        return NodeBuilder(self).block(text(f"Sweep of {request.entry} not available: {reason}"))

    def _report_gaps(self, swept: Sweep) -> None:
        messages = swept.gap_messages()
        if not messages:
            return
        named = "; ".join(messages[:MOST_GAPS_NAMED])
        more = len(messages) - MOST_GAPS_NAMED
        rest = f"; and {more} more" if more > 0 else ""
        count = f"{len(messages)} point{'s' if len(messages) > 1 else ''}"
        warn(
            WarningKind.VALUE,
            f"sweep of {swept.entry_name}: {count} not available, left out of the plot: "
            f"{named}{rest}",
            self.get_location(),
        )
