"""Files as prose: the paragraphs of a Markdown, Quarto, reST, LaTeX or text file, as passages.

What is not prose is left out (front matter, code blocks and chunks, directives
other than admonitions, literal blocks, comments, headings, LaTeX's verbatim
and display math); inline code, roles and links are kept as code spans (their
names count, their figures do not); citations, references and URLs are
dropped. Line breaks are kept, so each passage's offsets give the file's lines.
This reads text with regular expressions, not a parser: it serves
``refgen check --prose`` outside a Sphinx project, where no parser is loaded
(a Sphinx build reads its own pages from the doctree instead).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from refgen.prose.passages import Passage, PassageBuilder, words

FORMATS = {".md": "markdown", ".markdown": "markdown", ".qmd": "markdown", ".rst": "rst"}
FORMATS |= {".tex": "latex", ".txt": "text", ".text": "text"}
"""File suffixes the audit reads, and how; any other file is read as text."""

ADMONITIONS = frozenset(
    words(
        "note warning tip important caution attention hint danger error seealso admonition "
        "callout-note callout-tip callout-warning callout-important callout-caution"
    )
)

_LIST_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#\.|[a-z][.)])\s+")
_MD_INLINE = re.compile(
    r"(?P<drop><!--.*?-->|!\[[^\]]*\]\([^)]*\)|\[\^[^\]]*\]|\[-?@[^\]]*\]|(?<!\w)@[\w:-]+)"
    r"|(?P<role>\{[\w:-]+\}`[^`]*`)"
    r"|(?P<code>`+)(?P<literal>.+?)(?P=code)"
    r"|(?P<math>\$\$?[^$]+\$\$?)"
    r"|\[(?P<label>[^\]]*)\]\((?P<url>[^)]*)\)",
    re.DOTALL,
)
_RST_INLINE = re.compile(
    r"(?P<role>:[\w:+-]+:`[^`]*`)"
    r"|``(?P<literal>.+?)``"
    r"|`(?P<label>[^`<]*?)\s*<(?P<url>[^>]*)>`__?"
    r"|(?P<drop>\[\w+\]_|\[#\w*\]_|\|[^|\n]+\|)"
    r"|`(?P<interpreted>[^`]+)`_{0,2}",
    re.DOTALL,
)
_TEX_INLINE = re.compile(
    r"(?P<drop>\\(?:cite\w*|ref|eqref|autoref|cref|Cref|label|footnote|url|href)\*?"
    r"(?:\[[^\]]*\])*\{[^}]*\})"
    r"|(?P<quantity>\\(?:SI|qty)\{(?P<number>[^}]*)\}\{(?P<unit>[^}]*)\})"
    r"|(?P<math>\$[^$]+\$)"
    r"|(?P<code>\\(?:verb|texttt|lstinline)(?:\|[^|]*\||\{[^}]*\}))",
)
_SIUNITX = {
    "milli": "m", "micro": "µ", "nano": "n", "kilo": "k", "mega": "M", "giga": "G",
    "tera": "T", "peta": "P", "second": "s", "byte": "B", "bit": "bit", "hour": "h",
    "minute": "min", "watt": "W", "joule": "J", "percent": "%", "meter": "m", "metre": "m",
    "gram": "g", "per": "/",
}  # fmt: skip
_MATH_FIGURE = re.compile(
    r"\$\s*([-−]?[\d.,{}]+(?:\s*\\times\s*10\^\{?[-−]?\d+\}?)?)\s*"
    r"(?:\\[,;: ]|~|\s)*(?:\\(?:mathrm|text|mathit)\{([^}]*)\}|(\\%|%))?\s*\$"
)


def passages_of_file(path: Path) -> list[Passage]:
    """The prose of the file at ``path``, by the format its suffix names."""
    text = path.read_text(encoding="utf-8", errors="replace")
    kind = FORMATS.get(path.suffix.lower(), "text")
    return passages_of_text(text, str(path), kind)


def passages_of_text(text: str, path: str, kind: str) -> list[Passage]:
    """The prose of ``text``, written as ``kind`` (``markdown``, ``rst``, ``latex``,
    ``text``), with ``path`` for its locations."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks = {
        "markdown": _markdown_paragraphs,
        "rst": _rst_paragraphs,
        "latex": _latex_paragraphs,
    }.get(kind, _text_paragraphs)
    inline = {"markdown": _markdown_inline, "rst": _rst_inline, "latex": _latex_inline}.get(
        kind, _plain_inline
    )
    syntax = {"markdown": "myst", "rst": "rst"}.get(kind, "text")
    found = []
    for first, paragraph in blocks(lines):
        builder = PassageBuilder(path, first, syntax)
        inline(builder, "\n".join(_LIST_MARKER.sub("", line, count=1) for line in paragraph))
        passage = builder.passage()
        if passage is not None:
            found.append(passage)
    return found


Paragraphs = Iterator[tuple[int, list[str]]]
"""Each paragraph's first line (from 1) and its lines."""


def _grouped(lines: list[str], skip: Callable[[int], int]) -> Paragraphs:
    """Paragraphs split at blank lines and list items; ``skip(index)`` is how many lines
    from ``index`` are not prose (0 when the line is)."""
    current: list[str] = []
    start = 0
    index = 0
    while index < len(lines):
        skipped = skip(index)
        line = lines[index]
        if skipped or not line.strip() or (current and _LIST_MARKER.match(line)):
            if current:
                yield start + 1, current
                current = []
            if skipped:
                index += skipped
                continue
            if not line.strip():
                index += 1
                continue
        if not current:
            start = index
        current.append(line)
        index += 1
    if current:
        yield start + 1, current


def _text_paragraphs(lines: list[str]) -> Paragraphs:
    return _grouped(lines, lambda index: 0)


def _markdown_paragraphs(lines: list[str]) -> Paragraphs:
    def skip(index: int) -> int:
        line = lines[index]
        if index == 0 and line.strip() == "---":  # YAML front matter
            return _through(lines, index, lambda text: text.strip() in ("---", "..."))
        fence = re.match(r"\s*(`{3,}|~{3,})\s*\{?([\w.-]*)", line)
        if fence:
            close = fence.group(1)
            length = _through(lines, index, lambda text: text.strip().startswith(close))
            if fence.group(2).lstrip(".") in ADMONITIONS:
                return 1  # an admonition's body is prose; its closing fence is skipped alone
            return length
        stripped = line.strip()
        if stripped.startswith(("#", ":::", "<", "|---", "| ---", "---", "***", ":")) and not (
            stripped.startswith("|")
        ):
            return 1  # a heading, a div fence, HTML, a rule, a directive option
        if re.fullmatch(r"\|?[\s:|-]+\|?", stripped) and "-" in stripped:
            return 1  # a table's rule
        if line.startswith(("    ", "\t")) and index and not lines[index - 1].strip():
            return _indented(lines, index)
        return 0

    for first, paragraph in _grouped(lines, skip):
        if paragraph[0].lstrip().startswith("|"):  # a table: each row on its own
            yield from ((first + n, [row]) for n, row in enumerate(paragraph))
        else:
            yield first, paragraph


def _rst_paragraphs(lines: list[str]) -> Paragraphs:
    def skip(index: int) -> int:
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _is_rule(line) or (line.strip() and _is_rule(following)):
            return 1  # a title and its rules
        directive = re.match(r"\.\.\s+([\w-]+)::", line)
        if directive and directive.group(1) in ADMONITIONS:
            return 1 + _options(lines, index + 1)
        if line.startswith(".."):
            return 1 + _indented(lines, index + 1)  # a directive, a comment, a target
        if index and lines[index - 1].rstrip().endswith("::") and line.strip():
            return _indented(lines, index)
        return 0

    return _grouped(lines, skip)


def _latex_paragraphs(lines: list[str]) -> Paragraphs:
    lines = [re.sub(r"(?<!\\)%.*", "", line) for line in lines]  # comments, lines kept

    def skip(index: int) -> int:
        line = lines[index].strip()
        begun = _LATEX_HIDDEN.match(line)
        if begun:
            end = f"\\end{{{begun.group(1)}{begun.group(2)}}}"
            return _through(lines, index, lambda text: end in text)
        if line.startswith("\\[") or line.startswith("$$"):
            return _through(lines, index, lambda text: "\\]" in text or "$$" in text[2:])
        if _LATEX_STRUCTURE.match(line):
            return 1
        return 0

    for first, paragraph in _grouped(lines, skip):
        yield first, [re.sub(r"^\s*\\item(\[[^\]]*\])?\s*", "", line) for line in paragraph]


_LATEX_HIDDEN = re.compile(
    r"\\begin\{(verbatim|lstlisting|minted|equation|align|figure|table|tabular|displaymath|"
    r"eqnarray|gather|multline)(\*?)\}"
)
_LATEX_STRUCTURE = re.compile(
    r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|caption|label|begin|end|"
    r"documentclass|usepackage|title|author)\b"
)


def _through(lines: list[str], index: int, closes: Callable[[str], bool]) -> int:
    """Lines from ``index`` through the next line that ``closes`` (all the rest if none)."""
    for later in range(index + 1, len(lines)):
        if closes(lines[later]):
            return later - index + 1
    return len(lines) - index


def _indented(lines: list[str], index: int) -> int:
    """How many lines from ``index`` are indented or blank, up to the last indented one."""
    last = index
    for later in range(index, len(lines)):
        if lines[later].strip() and not lines[later].startswith((" ", "\t")):
            break
        if lines[later].strip():
            last = later + 1
    return max(last - index, 0)


def _options(lines: list[str], index: int) -> int:
    count = 0
    while index + count < len(lines) and re.match(r"\s+:[\w-]+:", lines[index + count]):
        count += 1
    return count


def _is_rule(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 3 and len(set(stripped)) == 1 and not stripped[0].isalnum()


def _blank(text: str) -> str:
    """What is dropped, reduced to its line breaks."""
    return "\n" * text.count("\n")


def _markdown_inline(builder: PassageBuilder, text: str) -> None:
    position = 0
    for match in _MD_INLINE.finditer(text):
        builder.text(text[position : match.start()])
        if match.group("drop"):
            builder.text(_blank(match.group(0)))
        elif match.group("label") is not None:
            builder.text(match.group("label"))
            builder.code_span(match.group("url").replace("\n", " "))
        elif match.group("math") and _math_figure(match.group(0)):
            builder.text(_math_figure(match.group(0)) or "")
        else:
            builder.code_span(match.group(0))
        position = match.end()
    builder.text(text[position:])


def _rst_inline(builder: PassageBuilder, text: str) -> None:
    position = 0
    for match in _RST_INLINE.finditer(text):
        builder.text(text[position : match.start()])
        if match.group("drop"):
            builder.text(_blank(match.group(0)))
        elif match.group("label") is not None:
            builder.text(match.group("label"))
            builder.code_span(match.group("url"))
        else:
            builder.code_span(match.group(0))
        position = match.end()
    builder.text(text[position:])


def _latex_inline(builder: PassageBuilder, text: str) -> None:
    text = re.sub(r"\\(?:emph|textbf|textit|textsc|mbox)\{([^}]*)\}", r"\1", text)
    text = text.replace("~", " ").replace("\\,", "\u2009").replace("\\%", "%")
    text = re.sub(r"\s*\\times\s*10\^\{?([-−]?\d+)\}?", r"×10^\1", text)
    position = 0
    for match in _TEX_INLINE.finditer(text):
        builder.text(text[position : match.start()])
        if match.group("drop"):
            builder.text(_blank(match.group(0)))
        elif match.group("quantity"):
            builder.text(f"{match.group('number')} {_siunitx(match.group('unit'))}")
        elif match.group("math") and _math_figure(match.group(0)):
            builder.text(_math_figure(match.group(0)) or "")
        else:
            builder.code_span(match.group(0))
        position = match.end()
    builder.text(text[position:])


def _plain_inline(builder: PassageBuilder, text: str) -> None:
    builder.text(text)


def _siunitx(unit: str) -> str:
    """``\\milli\\second`` as ``ms``; a unit written as text stays as written."""
    return re.sub(r"\\(\w+)\s*", lambda m: _SIUNITX.get(m.group(1), m.group(1)), unit).strip()


def _math_figure(math: str) -> str | None:
    """``$15.6\\,\\mathrm{ms}$`` as ``15.6 ms``: math that is one figure is prose."""
    found = _MATH_FIGURE.fullmatch(math.replace("×10^", "\\times 10^"))
    if found is None or not any(c.isdigit() for c in found.group(1)):
        return None
    number = re.sub(r"\s*\\times\s*10\^\{?([-−]?\d+)\}?", r"×10^\1", found.group(1))
    number = number.replace("{,}", ",").replace("{", "").replace("}", "")
    unit = found.group(2) or ("%" if found.group(3) else "")
    return f"{number} {unit}".strip()
