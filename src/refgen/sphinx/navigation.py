"""The site's navigation for generated pages, rendered once per build and shared.

With furo, each page's sidebar lists the site's whole contents tree, and Sphinx
copies that tree again for every page it writes. For a library of hundreds of
classes the tree is most of each page's bytes and most of the build's time
(``bench/RESULTS.md``). Generated pages (refgen's, and those Sphinx makes:
indices, search, highlighted source) instead carry a placeholder and one
script tag: the tree is rendered once, as furo renders it, into
``_static/refgen-navigation.js``, with links relative to the site's root, and
the script (``navigation.js``) puts it in the sidebar and marks the current page
as Sphinx and furo do. Without JavaScript the sidebar links to the home page
and the reference index. The file is written at the end of every build, so it
follows the contents of pages that were not written again.

Drawing the tree resolves every page's table of contents (0.1-0.25 s of an
edit build of 620 pages, ``bench/RESULTS.md``), and an edit build usually draws
the tree of the last one: the tree is kept in the doctree folder with a digest
of what it is made of (:func:`made_of`), and drawn again when that changes or
when drawing it warned (the next build then warns again, as a clean one does).

The setting ``refgen_shared_navigation`` turns this off; themes other than
furo are left alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import posixpath
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment.adapters.toctree import global_toctree_for_doc
from sphinx.util.osutil import relative_uri

from refgen import __version__
from refgen.files import installed_version, replace_atomically
from refgen.render.markup import escape
from refgen.sphinx.records import warnings_given
from refgen.sphinx.state import build_state, project_of

SCRIPT = "refgen-navigation.js"
MEMO = "refgen-navigation.json"
"""In the doctree folder: furo's tree of the last build, and what it was made of."""
BUILDERS = ("html", "dirhtml")
"""Builders of one page per document with furo's sidebar (not singlehtml, epub)."""
FILL = Path(__file__).with_name("navigation.js")
_PLACE = "refgen-navigation"
"""A document name that is never a page: the tree's links are made relative to it."""


def navigation_is_shared(app: Sphinx) -> bool:
    return (
        "furo" in app.extensions
        and app.builder.name in BUILDERS
        and project_of(app.env).settings.shared_navigation
    )


def shares_navigation(app: Sphinx, pagename: str) -> bool:
    """Whether this page's sidebar takes the shared tree: refgen's pages and the pages
    Sphinx makes (indices, search, highlighted source); hand-written pages keep furo's."""
    generated = pagename in build_state(app.env).planned or pagename not in app.env.all_docs
    return generated and navigation_is_shared(app)


def skip_theme_navigation(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Before furo's handler: give it nothing to copy for a page that shares the tree."""
    if shares_navigation(app, pagename) and "toctree" in context:
        context["toctree"] = lambda **options: ""


def place_shared_navigation(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """After furo's handler: the placeholder and the script, where furo puts its tree."""
    if shares_navigation(app, pagename):
        context["furo_navigation_tree"] = placeholder(app, pagename)


def placeholder(app: Sphinx, pagename: str) -> str:
    builder = app.builder
    page = builder.get_target_uri(pagename)
    to_root = relative_uri(page, "") or ""
    fallback = "".join(
        f'<li class="toctree-l1"><a class="reference internal" href="{escape(to_root + uri)}">'
        f"{escape(title)}</a></li>"
        for uri, title in fallback_links(app)
    )
    return (
        f'<div data-refgen-navigation="" data-root="{escape(to_root)}" '
        f'data-page="{escape(page)}"><noscript><ul>{fallback}</ul></noscript></div>'
        # No "?v=" digest of the tree, unlike Sphinx's static files: a page that was not
        # written again would keep the old one. The script is, like searchindex.js, a file
        # of every build.
        f'<script src="{escape(to_root)}_static/{SCRIPT}"></script>'
    )


def fallback_links(app: Sphinx) -> list[tuple[str, str]]:
    """The home page and the reference index, as (root-relative URI, title)."""
    env = app.env
    reference = f"{project_of(env).settings.root}/index"
    links = []
    for docname in (app.config.root_doc, reference):
        if docname in env.titles:
            links.append((app.builder.get_target_uri(docname), env.titles[docname].astext()))
    return links


def shared_tree(app: Sphinx) -> str:
    """The site's navigation as furo draws it, links relative to the root."""
    state = build_state(app.env)
    if state.navigation is None:
        state.navigation = furo_tree(app)
    return state.navigation


def furo_tree(app: Sphinx) -> str:
    """What furo's sidebar holds for a page outside every toctree, links made root-relative;
    taken from the last build's when what it is made of is the same (:func:`made_of`)."""
    memo = Path(app.doctreedir) / MEMO
    inputs = made_of(app)
    kept = _kept(memo)
    if inputs is not None and kept.get("made_of") == inputs and isinstance(kept.get("html"), str):
        return str(kept["html"])
    with warnings_given() as given:
        fragment = contents_fragment(app)
    # A tree that warned is made again by the next build, which warns again, as a clean
    # build would.
    return furo_navigation(fragment, memo, None if given else inputs)


def made_of(app: Sphinx) -> str | None:
    """A digest of what the shared tree is made of: the contents tree (each page's title,
    sections and toctrees, as :func:`~refgen.sphinx.incremental.contents_tree_digest`
    takes it once every page is read), the builder, the root document, Sphinx's digest of
    the HTML settings and of the tags (what ``only`` directives test), and the versions
    of the code that draws it. None before every page is read."""
    now = build_state(app.env).surroundings_now
    info = getattr(app.builder, "build_info", None)
    if now is None or info is None:
        return None
    versions = [installed_version(name) for name in ("sphinx", "furo", "beautifulsoup4")]
    parts = [
        now[0],
        app.builder.name,
        app.config.root_doc,
        str(info.config_hash),
        str(info.tags_hash),
        *versions,
        __version__,
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),  # how refgen draws it
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def contents_fragment(app: Sphinx) -> str:
    """Sphinx's contents tree as furo asks for it, in HTML, links relative to the root."""
    builder = app.builder
    toctree = global_toctree_for_doc(
        app.env,
        _PLACE,
        builder,
        tags=builder.tags,
        collapse=False,
        titles_only=True,
        maxdepth=-1,
        includehidden=True,
    )
    if toctree is None:
        return ""
    place = builder.get_target_uri(_PLACE)
    for reference in toctree.findall(nodes.reference):
        if reference.get("internal"):
            reference["refuri"] = root_relative(place, reference["refuri"])
    fragment: str = builder.render_partial(toctree)["fragment"]  # type: ignore[attr-defined]
    return fragment


def furo_navigation(fragment: str, memo: Path, inputs: str | None = None) -> str:
    """What furo makes of the contents tree ``fragment``; taken from ``memo`` when the last
    build's fragment and furo were the same (furo parses the whole tree's HTML: most of
    this function's time for a large site, and usually the same tree again). The memo
    keeps ``inputs`` (:func:`made_of`) with it, None when the tree is to be made again."""
    navigation = importlib.import_module("furo.navigation")
    versions = [
        installed_version(name) for name in ("furo", "beautifulsoup4")
    ]  # furo parses with bs4
    key = hashlib.sha256("\0".join([*versions, fragment]).encode("utf-8", "surrogatepass"))
    kept = _kept(memo)
    if kept.get("key") == key.hexdigest() and isinstance(kept.get("html"), str):
        html = str(kept["html"])
    else:
        html = navigation.get_navigation_tree(fragment)
    now = {"key": key.hexdigest(), "made_of": inputs, "html": html}
    if now != kept:
        with contextlib.suppress(OSError):  # only next build's time is lost
            replace_atomically(memo, json.dumps(now).encode())
    return html


def _kept(memo: Path) -> dict[str, Any]:
    """The memo of the last build; empty when it is missing or damaged."""
    try:
        kept = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError, RecursionError):  # made anew
        return {}
    return kept if isinstance(kept, dict) else {}


def root_relative(place: str, href: str) -> str:
    """``href``, relative to the page at ``place``, made relative to the site's root."""
    path, hash_mark, anchor = href.partition("#")
    if path:
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(place), path))
        path = joined + ("/" if path.endswith("/") else "")
    return f"{path}{hash_mark}{anchor}"


def write_shared_navigation(app: Sphinx, exception: BaseException | None) -> None:
    """At the end of the build: the tree and the script that fills the sidebar with it;
    without shared navigation, no such script (a clean build has none)."""
    if exception is not None:
        return
    if not navigation_is_shared(app):
        if app.builder.name in BUILDERS:
            Path(app.outdir, "_static", SCRIPT).unlink(missing_ok=True)
        return
    html = shared_tree(app)
    static = Path(app.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    script = f"var REFGEN_NAVIGATION = {json.dumps(html)};\n{FILL.read_text(encoding='utf-8')}"
    (static / SCRIPT).write_text(script, encoding="utf-8")
