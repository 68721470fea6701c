"""The prose audit in a build: typed figures in pages and docstrings, checked at every build.

A page written by hand is not read again when only the registry changes, yet a
figure it types can go stale then. So the audit runs at every build, over the
doctree of every page refgen did not generate (read back from the
environment) and over the docstrings the reference renders
(:mod:`refgen.prose.docstrings`), and reports each disagreement as a
``refgen.prose`` warning at the page's or the ``.py`` file's line: an
incremental build warns exactly as a clean one does.

Figures are read from text nodes only: code, math, raw markup and refgen's own
quoted values are names at most (a ``{scenario}`` role names its entry and
attribute), never figures.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from refgen.analysis.model import SourceLocation, WarningKind
from refgen.prose.audit import audit
from refgen.prose.docstrings import docstring_passages
from refgen.prose.lookup import Lookup
from refgen.prose.passages import Passage, PassageBuilder
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import build_state

_CODE = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.math,
    nodes.raw,
    nodes.reference,
    addnodes.pending_xref,
)
"""Nodes whose text is names at most: code, math, markup, links and quoted values."""
_SKIPPED = (nodes.footnote_reference, nodes.citation_reference, nodes.substitution_reference)
_ROLE_TARGET = re.compile(r"`([^`:]+)")


def audit_pages(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read (``env-updated``): warn about every typed figure that
    disagrees with the registry, in the project's own pages and the docstrings the
    reference renders."""
    state = build_state(env)
    project = state.project
    if project is None or not project.settings.prose_audit or project.registry is None:
        return
    generated = set(state.planned)
    passages: list[Passage] = []
    for docname in sorted(env.all_docs):
        if docname not in generated:
            passages += doctree_passages(env.get_doctree(docname), str(env.doc2path(docname)))
    passages += docstring_passages(project, state.class_texts)
    for quote in audit(passages, Lookup(project)):
        if not quote.agrees:
            warn(WarningKind.PROSE, quote.message, SourceLocation(quote.path, quote.line))


def doctree_passages(doctree: nodes.document, path: str) -> list[Passage]:
    """Each paragraph of ``doctree`` as a passage at its line of ``path``."""
    syntax = "rst" if path.endswith(".rst") else "myst"
    found = []
    for paragraph in doctree.findall(nodes.paragraph):
        if _inside_code(paragraph) or paragraph.line is None:
            continue
        builder = PassageBuilder(path, int(paragraph.line), syntax)
        for kind, text in _pieces(paragraph):
            builder.code_span(text) if kind == "code" else builder.text(text)
        passage = builder.passage()
        if passage is not None:
            found.append(passage)
    return found


def _inside_code(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (*_CODE, nodes.comment)):
            return True
        parent = parent.parent
    return False


def _pieces(node: nodes.Element) -> Iterator[tuple[str, str]]:
    """The paragraph's text, in order: ``("text", ...)`` or ``("code", ...)`` pieces."""
    for child in node.children:
        if isinstance(child, nodes.Text):
            yield "text", str(child)
        elif isinstance(child, _SKIPPED):
            continue
        elif isinstance(child, _CODE):
            yield "code", _names_in(child)
        elif isinstance(child, nodes.Element):
            yield from _pieces(child)


def _names_in(node: Any) -> str:
    """What a code node names: a scenario role's ``Entry.attribute``, a link's target and
    its text; its text alone otherwise (line breaks as spaces, so lines stay put)."""
    names = [str(node.get("reftarget", "") or node.get("refuri", ""))]
    role = _ROLE_TARGET.search(str(node.rawsource or ""))
    if role and "scenario" in str(node.rawsource):
        names.append(role.group(1))
    names.append(node.astext())
    return " ".join(" ".join(name.split()) for name in names if name)
