"""Links in docstrings: unmatched anonymous links reported at the docstring, no script links.

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
  showed (its text, an image), unlinked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from docutils import nodes
from docutils.utils import get_source_line
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from refgen.analysis.model import WarningKind
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
