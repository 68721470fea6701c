"""Files built with the HTML site: the registry's values as CSV and JSON, llms.txt, Markdown pages.

The Markdown files are the reference as plain text for language models, one
beside every generated page, and ``llms.txt`` lists them.

All are written at ``build-finished`` from the page records
(:class:`~refgen.sphinx.state.PageRecord`): each generated page keeps, from when it was
last read, its Markdown, its one-line summary and the registry values it
computed. A page that is not read again keeps them with its digest, so an
incremental build writes what a clean one writes, and nothing is computed
twice. Files are rewritten only when their text changes; the Markdown file
of a page that no longer exists goes with its HTML
(:func:`refgen.sphinx.incremental.outdated_pages`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from refgen import __version__
from refgen.evaluate.values import EntryValues
from refgen.files import WrittenAside
from refgen.project import Project
from refgen.render.downloads import (
    RenderedEntry,
    download_paths,
    registry_csv,
    registry_json,
)
from refgen.render.markdown import SUFFIX, Listed, Listing, llms_text
from refgen.site.plan import PlannedPage
from refgen.sphinx.state import PageRecord, build_state, project_of
from refgen.sphinx.stubs import write_if_changed

BUILDERS = ("html", "dirhtml")
"""Builders of a site with one page per document, where these files sit beside the pages."""
LLMS = "llms.txt"
DETAILS = (
    "Every link below is one page of the site as Markdown, computed from the scenario "
    "code at the same build as the HTML."
)


def start_markdown_files(app: Sphinx, builder: object) -> None:
    """``write-started``: every page has been read, so its Markdown is known; a thread
    writes the files while the pages are written (creating some hundreds of files is
    mostly waiting on the file system: 0.45 s at the end of the deep bench shape's
    build). Not beside Sphinx's own writing processes, which fork."""
    if app.builder.name in BUILDERS and app.parallel <= 1:
        build_state(app.env).markdown_files = WrittenAside(_markdown_files(app), write_if_changed)


def write_exports(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the Markdown files, ``llms.txt`` and the registry's downloads."""
    state = build_state(app.env)
    started, state.markdown_files = state.markdown_files, None
    if exception is not None or app.builder.name not in BUILDERS:
        if started is not None:
            started.join_quietly()
        return
    if started is not None:
        started.finish()
    else:
        for path, text in _markdown_files(app):
            write_if_changed(path, text)
    planned = [page for page, _fingerprint in state.planned.values()]
    outdir = Path(app.outdir)
    downloads = _write_downloads(project_of(app.env), planned, state.pages, outdir)
    write_if_changed(outdir / LLMS, _llms(app, planned, state.pages, downloads))


def _markdown_files(app: Sphinx) -> list[tuple[Path, str]]:
    """Each generated page's Markdown file and text."""
    state = build_state(app.env)
    found = []
    for page, _fingerprint in state.planned.values():
        record = state.pages.get(page.docname)
        if record is not None and record.markdown:  # None: the worker gives it later
            found.append((markdown_path(app, page.docname), record.markdown))
    return found


def markdown_path(app: Sphinx, docname: str) -> Path:
    """Where the Markdown of ``docname`` is written."""
    return Path(app.outdir) / f"{docname}{SUFFIX}"


def _write_downloads(
    project: Project, planned: list[PlannedPage], known: dict[str, PageRecord], outdir: Path
) -> tuple[str, ...]:
    """``registry.csv`` and ``registry.json`` beside the registry page; their paths."""
    registry = project.registry
    page = next((p for p in planned if p.kind == "registry"), None)
    if registry is None or page is None:
        # A clean build has none: the last build's are of a registry that is gone.
        for path in download_paths(f"{project.settings.root}/registry"):
            (outdir / path).unlink(missing_ok=True)
        return ()
    laid_out = {
        values.qualname: parts
        for record in known.values()
        if len(record.downloads) == len(record.values)
        for values, parts in zip(record.values, record.downloads, strict=True)
    }
    entries: list[EntryValues | RenderedEntry] = []
    for entry in registry.entries:
        found: EntryValues | RenderedEntry | str | None = laid_out.get(
            f"{entry.registry}.{entry.name}"
        )
        if found is None:  # an entry no class page shows: its class is not documented
            read = project.found_entry(entry)
            found = read if isinstance(read, str) else project.entry_values(read.scenario, entry)
        if not isinstance(found, str):
            entries.append(found)
    csv_path, json_path = download_paths(page.docname)
    write_if_changed(outdir / csv_path, registry_csv(entries))
    generator = f"refgen {__version__}"
    write_if_changed(outdir / json_path, registry_json(registry.qualname, generator, entries))
    return csv_path, json_path


SECTION_OF = {
    "index": "Reference",
    "helpers": "Helpers",
    "registry": "Registry",
    "registry-part": "Registry",
}


def _llms(
    app: Sphinx, planned: list[PlannedPage], known: dict[str, PageRecord], downloads: Iterable[str]
) -> str:
    sections: dict[str, list[Listed]] = {"Reference": []}
    heading = "Reference"
    summary = ""
    for page in planned:
        record = known.get(page.docname)
        if record is None or not record.markdown:
            continue
        if page.kind == "index":
            summary = record.summary
        if page.kind == "category":
            heading = record.title
        listed = Listed(record.title, f"{page.docname}{SUFFIX}", record.summary)
        sections.setdefault(SECTION_OF.get(page.kind, heading), []).append(listed)
    sections.setdefault("Guides", []).extend(_guides(app, {p.docname for p in planned}))
    files = [Listed(path.rpartition("/")[2], path, "every registry value") for path in downloads]
    listings = [Listing(name, tuple(pages)) for name, pages in sections.items()]
    listings.append(Listing("Downloads", tuple(files)))
    title = str(app.config.html_title or app.config.project)
    return llms_text(title, summary, DETAILS, listings)


def _guides(app: Sphinx, generated: set[str]) -> list[Listed]:
    """The site's own pages, in the order of its contents: their sources when those are
    Markdown and published with the site, else their HTML."""
    env: Any = app.env
    config = app.config
    found = []
    for docname in _in_contents_order(env):
        if docname in generated or docname not in env.titles:
            continue
        source = env.doc2path(docname)
        if config.html_copy_source and source.suffix == ".md":
            path = f"_sources/{docname}{source.suffix}{config.html_sourcelink_suffix}"
        else:
            path = app.builder.get_target_uri(docname)
        found.append(Listed(env.titles[docname].astext(), path))
    return found


def _in_contents_order(env: Any) -> list[str]:
    """Every document, the root's table of contents first, depth first, then the rest."""
    order: list[str] = []
    pending = [env.config.root_doc]
    while pending:
        docname = pending.pop(0)
        if docname in order:
            continue
        order.append(docname)
        pending[:0] = list(env.toctree_includes.get(docname, []))
    return order + sorted(set(env.found_docs) - set(order))
