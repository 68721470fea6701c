"""HTML fragments for the parts of a class page that need no reST parsing.

A class page's tables and per-attribute fields hold only code, numbers and
links: nothing an author wrote in reST. They are written here as HTML, in the
markup Sphinx's own HTML writer produces for tables and field lists (so themes
style them alike), and reach the page as one ``refgen-html`` node each instead
of dozens of docutils nodes that every transform and writer would walk.

Links to entries on the same page are plain anchors. Links to other pages are
written as :func:`xref` placeholders, which the Sphinx layer resolves through
the Python domain when the page is written. Nothing here imports Sphinx.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape, unescape

XREF_SCHEME = "refgen-xref:"
"""The ``href`` prefix of a link still to be resolved: ``refgen-xref:py:func:pkg.f``."""

XREF = re.compile(r'<a class="([^"]*)" href="refgen-xref:(\w+):(\w+):([^"]+)">(.*?)</a>', re.S)
"""A placeholder link: groups are CSS class, domain, role, target and label."""

_TAG = re.compile(r"<[^>]+>")
_NOT_VERBATIM = re.compile(r"""[`*|\\'"@]|(?<!\w)_|_(?!\w)|://|--|\.\.\.|^\s|\s$""")
_ITEM_END = re.compile(r"</(?:dd|tr)>")
_BLOCK_START = re.compile(r"\s|[-*+\u2022](\s|$)|[-+/]\S|\.\.|>>>|\||#\.|\w+[.)](\s|$)|\(|:")


def code(text: str, css_class: str = "") -> str:
    """Inline code, kept exactly as written; multi-line code as a ``pre`` block."""
    if "\n" in text:
        classes = f"literal-block {css_class}".strip()
        return f'<pre class="{classes}">{escape(text, quote=False)}</pre>'
    classes = f"{css_class} docutils literal notranslate".strip()
    return f'<code class="{classes}">{escape(text, quote=False)}</code>'


def code_body(text: str, css_class: str = "") -> str:
    """Code as a block of its own: a paragraph of inline code, or a ``pre`` block.

    A ``pre`` cannot sit inside a paragraph, so multi-line code stands alone.
    """
    shown = code(text, css_class)
    return shown if "\n" in text else paragraph(shown)


def anchor_link(anchor: str, label: str) -> str:
    """A link to an entry on this page, shown as code like a ``:py:attr:`` reference."""
    return (
        f'<a class="reference internal" href="#{escape(anchor)}">'
        f"{code(label, 'xref py py-attr')}</a>"
    )


def xref(role: str, target: str, label: str | None = None, domain: str = "py") -> str:
    """A cross-reference to an object on another page, resolved when the page is written."""
    shown = label if label is not None else target.rpartition(".")[2]
    return (
        f'<a class="reference internal" href="{XREF_SCHEME}{domain}:{role}:{escape(target)}">'
        f"{code(shown, f'xref {domain} {domain}-{role}')}</a>"
    )


def paragraph(inner: str) -> str:
    return f"<p>{inner}</p>"


def bullet_list(items: Iterable[str]) -> str:
    """A compact bullet list of inner HTML items."""
    return '<ul class="simple">' + "".join(f"<li><p>{item}</p></li>" for item in items) + "</ul>"


def field_list(items: Iterable[tuple[str, str]]) -> str:
    """A field list of ``(label, inner HTML)`` items."""
    parts = ['<dl class="field-list simple">']
    for index, (label, inner) in enumerate(items):
        parity = "odd" if index % 2 == 0 else "even"
        parts.append(
            f'<dt class="field-{parity}">{escape(label)}<span class="colon">:</span></dt>'
            f'<dd class="field-{parity}">{inner}</dd>'
        )
    parts.append("</dl>")
    return "".join(parts)


def table(
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    css_class: str,
    stub_columns: int = 0,
) -> str:
    """A table of ``header`` and ``rows`` of inner HTML cells."""
    parts = [
        f'<table class="docutils align-default colwidths-auto {css_class}">',
        '<thead><tr class="row-odd">',
        *(f'<th class="head"><p>{cell}</p></th>' for cell in header),
        "</tr></thead><tbody>",
    ]
    for index, row in enumerate(rows):
        parts.append(f'<tr class="row-{"even" if index % 2 == 0 else "odd"}">')
        for column, cell in enumerate(row):
            tag = 'th class="stub"' if column < stub_columns else "td"
            parts.append(f"<{tag}><p>{cell}</p></{tag.split()[0]}>")
        parts.append("</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def may_start_block(line: str) -> bool:
    """Whether ``line`` could belong to a reST block construct rather than a paragraph.

    Conservative: a list item, option, directive, comment, doctest, line block,
    field, enumerator, indented line, literal-block marker, or a line of
    punctuation only (a section rule or table border).
    """
    stripped = line.strip()
    return bool(
        _BLOCK_START.match(line)
        or stripped.endswith("::")
        or (stripped != "" and not any(c.isalnum() for c in stripped))
    )


def is_verbatim(text: str) -> bool:
    """Whether docutils would show ``text`` exactly as written, as one paragraph.

    True for prose that holds no block construct (:func:`may_start_block`), no
    inline markup (literals, emphasis, roles, references, substitutions,
    escapes), nothing docutils turns into a link (URIs, e-mail addresses) and
    nothing smart quotes would change (quotes, dashes, ellipses). Such text can
    be written as HTML directly.
    """
    lines = text.split("\n")
    return (
        bool(text)
        and not _NOT_VERBATIM.search(text)
        and not any(may_start_block(line) or not line.strip() for line in lines)
    )


def unlink(html: str) -> str:
    """``html`` with placeholder links replaced by their labels."""
    return XREF.sub(lambda match: match.group(5), html)


def plain_text(html: str) -> str:
    """The visible text of a fragment, for builders other than HTML.

    Fields and table rows end in a semicolon; whitespace is folded.
    """
    parts = _ITEM_END.split(html.replace("</dt><dd", "</dt> <dd"))
    items = (" ".join(unescape(_TAG.sub("", part)).split()) for part in parts)
    return "; ".join(item for item in items if item)
