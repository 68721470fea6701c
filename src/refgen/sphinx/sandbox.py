"""What a docstring may make the build read or publish.

Docstrings are the author's reST and are parsed as autodoc parses them, with
two limits, since the code documented may not be the site author's:

- a file a docstring names (``include``, ``literalinclude``, ``image``,
  ``figure``, ``:download:``) must be inside the documentation's source
  folder; Sphinx would otherwise read or copy any file the build can reach;
- a docstring nested deeper than :data:`MAX_DEPTH` (which Sphinx could not
  pickle or write) is not parsed;
- raw markup (the ``raw`` directive or a role made from it), tables read
  from a file or a URL (``csv-table :file:``/``:url:``), and what would act
  beyond the docstring (``role``, ``default-role``, ``default-domain``, ``meta``,
  ``title``) are not allowed.

What is refused is shown as text, with one ``refgen.docstring`` warning at
its line in the Python file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.parsers.rst.directives.misc import Include
from docutils.utils import get_source_line
from sphinx import addnodes
from sphinx.environment import BuildEnvironment

from refgen.analysis.model import SourceLocation, WarningKind
from refgen.sphinx.private import directive_registries
from refgen.sphinx.reporting import warn

Refusal = Callable[[Any], str | None]
"""Given a directive about to run, why a docstring may not run it (None: it may)."""


def inside_sources(env: BuildEnvironment, target: str) -> bool:
    """Whether ``target``, written in the current document, names a file inside the
    source folder (symbolic links followed). Every target is taken as a path, as
    ``include`` and ``literalinclude`` take it: ``data:/../x`` climbs like ``../x``."""
    _relative, absolute = env.relfn2path(target, env.docname)
    return Path(absolute).resolve().is_relative_to(Path(env.srcdir).resolve())


def names_no_file(target: str, data_uri: bool = False) -> bool:
    """Whether Sphinx reads no file for this download or image target: a URL with
    ``://`` (Sphinx links it), or for an image a ``data:`` URI (written inline)."""
    return "://" in target or (data_uri and target.startswith("data:"))


def _outside(directive: Any, *targets: str) -> str | None:
    env: BuildEnvironment = directive.state.document.settings.env
    for target in targets:
        if not inside_sources(env, target):
            return f"names a file outside the documentation folder ({target})"
    return None


def _include_refusal(directive: Any) -> str | None:
    target = directive.arguments[0]
    if target.startswith("<") and target.endswith(">"):  # docutils' own standard files
        standard = Path(Include.standard_include_path).resolve()
        if (standard / target[1:-1]).resolve().is_relative_to(standard):
            return None
        return f"names a file outside docutils' standard files ({target})"
    return _outside(directive, target)


def _literalinclude_refusal(directive: Any) -> str | None:
    return _outside(directive, directive.arguments[0], *directive.options.get("diff", "").split())


def _raw_refusal(directive: Any) -> str | None:
    return "passes raw markup through"


def _site_wide_refusal(directive: Any) -> str | None:
    return "acts beyond the docstring"


def _csv_table_refusal(directive: Any) -> str | None:
    if "file" in directive.options or "url" in directive.options:
        return "reads a table from a file or a URL"
    return None


GUARDS: dict[str, Refusal] = {
    "include": _include_refusal,
    "literalinclude": _literalinclude_refusal,
    "raw": _raw_refusal,
    "csv-table": _csv_table_refusal,
    # A role defined in a docstring (from raw, say) would stay defined for the author's
    # own pages; meta tags (a refresh) act on the whole page, not on the docstring.
    "role": _site_wide_refusal,
    "default-role": _site_wide_refusal,
    "meta": _site_wide_refusal,
    "title": _site_wide_refusal,
    "default-domain": _site_wide_refusal,
    # a table of contents inside an object's entry sends Sphinx's toctree walk into recursion
    "toctree": _site_wide_refusal,
}


def _registered(name: str) -> type[Directive]:
    """The directive class ``name`` names, as docutils would load it."""
    registry, known = directive_registries()
    if name in registry:
        return registry[name]
    module, class_name = known[name]
    directive: type[Directive] = getattr(
        importlib.import_module(f"docutils.parsers.rst.directives.{module}"), class_name
    )
    return directive


MAX_DEPTH = 50
"""How deeply a docstring's nodes may nest. Sphinx pickles, walks and writes a page by
recursion; a docstring nested deeper (a 200-level block quote) would stop the build."""


def too_deep(roots: list[nodes.Node]) -> bool:
    """Whether any node under ``roots`` sits more than :data:`MAX_DEPTH` levels down."""
    level: list[nodes.Node] = list(roots)
    for _depth in range(MAX_DEPTH):
        level = [child for node in level for child in getattr(node, "children", ())]
        if not level:
            return False
    return True


def refuse(
    message: str, location: str | SourceLocation | None, node: nodes.Node | None, shown: str
) -> nodes.Node:
    """Warn that a docstring ``message``; the text ``shown`` instead, inline if ``node``
    (what is refused) sits in a paragraph."""
    warn(WarningKind.DOCSTRING, f"docstring {message}; shown as text", location)
    if node is not None and isinstance(node.parent, nodes.TextElement):
        return nodes.literal(shown, shown)
    return nodes.literal_block(shown, shown)


def _guarded(directive: type[Directive], refusal: Refusal) -> type[Directive]:
    def run(self: Any) -> list[nodes.Node]:
        reason = refusal(self)
        if reason is None:
            return list(directive.run(self))
        source, line = self.state_machine.get_source_and_line(self.lineno)
        message = f"{reason} in `.. {self.name}::`"
        return [refuse(message, f"{source}:{line}", None, self.block_text)]

    return type(f"Docstring{directive.__name__}", (directive,), {"run": run})


@contextmanager
def guarded_directives() -> Iterator[None]:
    """While parsing a docstring, the directives of :data:`GUARDS` check before they run."""
    registry, _known = directive_registries()
    saved = {name: registry.get(name) for name in GUARDS}
    try:
        for name, refusal in GUARDS.items():
            registry[name] = _guarded(saved[name] or _registered(name), refusal)
        yield
    finally:
        for name, original in saved.items():
            if original is None:
                registry.pop(name, None)
            else:
                registry[name] = original


def disarm(roots: list[nodes.Node], env: BuildEnvironment, fallback: SourceLocation | None) -> None:
    """Show as text what parsed docstring nodes would make the build publish: raw
    markup (from a role), and downloads and images of files outside the sources."""
    outside = "names a file outside the documentation folder"
    for root in roots:
        if not isinstance(root, nodes.Element):
            continue
        refused: list[tuple[nodes.Element, str, str]] = [
            (raw, "passes raw markup through", raw.astext()) for raw in root.findall(nodes.raw)
        ]
        for download in root.findall(addnodes.download_reference):
            target = download.get("reftarget", "")
            if not names_no_file(target) and not inside_sources(env, target):
                refused.append((download, f"{outside} ({target})", download.astext()))
        for image in root.findall(nodes.image):
            uri = image.get("uri", "")
            if not names_no_file(uri, data_uri=True) and not inside_sources(env, uri):
                refused.append((image, f"{outside} ({uri})", image.get("alt", uri)))
        for node, message, shown in refused:
            # A role's own source is the page; its paragraph's is the docstring's line.
            inline = isinstance(node.parent, nodes.TextElement)
            source, line = get_source_line(node.parent if inline else node)
            location = f"{source}:{line}" if source and line else fallback
            node.replace_self(refuse(message, location, node, shown))
