"""Links in docstrings: unmatched anonymous links reported at the docstring, no script links,
no labels of Sphinx's own pages.

A docstring is the author's reST, parsed into a page that holds many others,
and docutils resolves its references for the whole page, by transforms that
run long after parsing (indirect targets, anonymous targets, image
``:target:``, substitutions). So the references and targets parsed from
docstrings are marked (:func:`mark_docstring_links`), and:

- :class:`AnonymousLinks` runs just before docutils pairs anonymous references
  (`` `text`__ ``) with anonymous targets (``__ URL``): when a page's counts
  differ and docstrings hold some of them, the warning is at the first such
  docstring line, not at the generated page, and each reference shows as text;
- :class:`ScriptLinks` runs once every reference is resolved: a docstring's link
  to a script URL (``javascript:``, ``vbscript:``, ``data:``) shows what it
  showed (its text, an image), unlinked;
- :func:`drop_reserved_labels` runs as each docstring is parsed: a label Sphinx
  keeps for its own pages (``genindex``, ``modindex``, ``search``) is left out,
  with a warning at its line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from docutils.utils import get_source_line
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from refgen.analysis.model import SourceLocation, WarningKind
from refgen.sphinx.reporting import warn

FROM_DOCSTRING = "refgen_docstring"
"""The attribute that marks a reference parsed from a docstring."""
_SCRIPT_SCHEMES = ("javascript:", "vbscript:", "data:")


def _elements(roots: Iterable[nodes.Node], kind: type[nodes.Element]) -> list[Any]:
    return [
        found for root in roots if isinstance(root, nodes.Element) for found in root.findall(kind)
    ]


def mark_docstring_links(roots: list[nodes.Node]) -> list[nodes.Node]:
    """``roots``, with every reference and target under them marked as parsed from a
    docstring."""
    for found in [*_elements(roots, nodes.reference), *_elements(roots, nodes.target)]:
        found[FROM_DOCSTRING] = True
    return roots


class AnonymousLinks(SphinxTransform):
    """Report a page's anonymous-link mismatch at the docstring that holds one."""

    default_priority = 439  # just before docutils' AnonymousHyperlinks (440)

    def apply(self, **kwargs: Any) -> None:
        anonymous: list[nodes.Element] = [
            node
            for node in self.document.findall(nodes.Element)
            if isinstance(node, nodes.reference | nodes.target) and node.get("anonymous")
        ]
        references = [node for node in anonymous if isinstance(node, nodes.reference)]
        targets = [node for node in anonymous if isinstance(node, nodes.target)]
        if len(references) == len(targets) or not any(n.get(FROM_DOCSTRING) for n in anonymous):
            return
        source, line = get_source_line(_where_unbalanced(anonymous))
        warn(
            WarningKind.DOCSTRING,
            f"docstring has an anonymous link (`text`__) without its target (__ URL), or a "
            f"target without its link: the page has {len(references)} and "
            f"{len(targets)}; shown as text",
            f"{source}:{line}" if source and line else None,
        )
        for reference in references:
            reference.replace_self(nodes.Text(reference.astext()))
        for target in targets:  # docutils would report the mismatch again, at the page
            target["anonymous"] = False


def _where_unbalanced(anonymous: list[nodes.Element]) -> nodes.Element:
    """The node, of the page's anonymous references and targets in order, after which
    references and targets no longer balance: where one goes unmatched."""
    balance, start = 0, anonymous[0]
    for node in anonymous:
        if balance == 0:
            start = node
        balance += 1 if isinstance(node, nodes.reference) else -1
    return start


def is_script(uri: str) -> bool:
    """Whether a link to ``uri`` would run a script (white space and case ignored,
    as browsers ignore them)."""
    return "".join(uri.split()).lower().startswith(_SCRIPT_SCHEMES)


class ScriptLinks(SphinxPostTransform):
    """Show a docstring's link to a script URL as what it shows (its text, an image),
    once every reference is resolved."""

    default_priority = 900  # after Sphinx's references (10) and every domain's

    def run(self, **kwargs: Any) -> None:
        for reference in list(self.document.findall(nodes.reference)):
            if reference.get(FROM_DOCSTRING) and is_script(reference.get("refuri", "")):
                reference.replace_self(reference.children or [nodes.Text(reference.astext())])


RESERVED_LABELS = {
    "genindex": "general index",
    "modindex": "module index",
    "search": "search page",
}
"""Labels Sphinx keeps for its own pages, and the page each one names."""


def drop_reserved_labels(
    roots: list[nodes.Node],
    document: nodes.document,
    subject: str,
    fallback: SourceLocation | None,
) -> None:
    """Take the labels Sphinx keeps for its own pages out of ``roots``.

    A docstring's ``.. _genindex:`` (or an inline ``_`search```) would take the
    name of the index or the search page, which Sphinx reports at most as a
    duplicate label: each is left out, with one warning at its line naming the
    label and the object, and the rest of the docstring is kept.
    """
    for node in _elements(roots, nodes.Element):
        reserved = [name for name in node["names"] if name in RESERVED_LABELS]
        if not reserved or (isinstance(node, nodes.target) and _links_elsewhere(node)):
            continue
        source, line = get_source_line(node)
        for name in reserved:
            owner = f" of {subject}" if subject else ""
            warn(
                WarningKind.DOCSTRING,
                f"docstring{owner} sets the label {name!r}, which Sphinx keeps for its "
                f"{RESERVED_LABELS[name]}; left out",
                f"{source}:{line}" if source and line else fallback,
            )
            _forget_name(node, name, document)


def locate_targets(roots: list[nodes.Node], lines: StringList) -> None:
    """Give the explicit targets (``.. _name:``) parsed from ``lines`` their line in the
    file: docutils numbers a target by its line in the text it parsed, not the file's."""
    for target in _elements(roots, nodes.target):
        if not target.line:
            continue
        try:
            source, offset = lines.info(target.line - 1)
        except IndexError:
            continue
        if source is not None and offset is not None:
            target.source, target.line = source, offset + 1


def _links_elsewhere(target: nodes.target) -> bool:
    """A hyperlink target with a URL or another target's name: no label, no anchor."""
    return bool(target.get("refuri") or target.get("refname"))


def _forget_name(node: nodes.Element, name: str, document: nodes.document) -> None:
    """``node`` no longer called ``name``, nor the page's anchor of that name."""
    node["names"].remove(name)
    known = document.nameids.pop(name, None)
    document.nametypes.pop(name, None)
    if known is not None and known in node["ids"]:
        node["ids"].remove(known)
        document.ids.pop(known, None)
    empty = isinstance(node, nodes.target) and not node["names"] and not node["ids"]
    if empty and node.parent is not None:
        node.parent.remove(node)  # a root's too: the parsed roots are its parent's children
