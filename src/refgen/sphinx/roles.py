"""Roles and source links: values quoted in prose, and links to highlighted source."""

from __future__ import annotations

import sys
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import make_refnode

from refgen.analysis.model import WarningKind
from refgen.sphinx.incremental import quote_shown
from refgen.sphinx.nodes import pending_source_link
from refgen.sphinx.private import viewcode_modules
from refgen.sphinx.records import note_quote
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import project_of


class ScenarioValueRole(SphinxRole):
    """``:scenario:`Entry.attribute``` or ``:scenario:`Entry.attribute:.1f```.

    Quotes a value of a registry scenario, computed at this build, and links it
    to the attribute's entry. The optional format spec applies to the number;
    units are always pint's short pretty form.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        fallback: list[nodes.Node] = [
            nodes.literal(self.rawtext, self.text, classes=["refgen-value", "unavailable"])
        ]
        project = project_of(self.env)
        note_quote(self.env, self.text, quote_shown(project, self.text))
        if project.registry_failed:
            return fallback, []  # reported once, when the pages were planned
        quoted = project.quote(self.text)
        if quoted.problem or quoted.value is None:
            warn(
                WarningKind.VALUE,
                f"cannot quote {self.text!r}: {quoted.problem}",
                self.get_location(),
            )
            return fallback, []
        text = nodes.inline(quoted.value.text, quoted.value.text, classes=["refgen-value"])
        text["support_smartquotes"] = False  # the value exactly as computed
        reference = addnodes.pending_xref(
            self.rawtext,
            text,
            refdomain="py",
            reftype="attr",
            reftarget=quoted.target,
            refexplicit=True,
            refwarn=True,
        )
        return [reference], []


def resolve_source_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: point source links at viewcode's module pages, or leave plain
    text.

    An event handler, not a post-transform: a post-transform reaches the builder only
    through ``SphinxTransform.app``, deprecated for Sphinx 11.
    """
    modules = viewcode_modules(app.env)
    for node in list(doctree.findall(pending_source_link)):
        module_name, _, fullname = _split(node["reftarget"], modules)
        if app.builder.format == "html" and modules.get(module_name):
            page = "_modules/" + module_name.replace(".", "/")
            ref = make_refnode(app.builder, docname, page, fullname, node.children[0].deepcopy())
            node.replace_self(ref)
        else:
            node.replace_self(node.children[0].deepcopy())


def _split(target: str, modules: dict[str, Any]) -> tuple[str, str, str]:
    parts = target.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        if module_name in modules or module_name in sys.modules:
            return module_name, ".", ".".join(parts[split:])
    return target.rpartition(".")
