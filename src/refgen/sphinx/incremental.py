"""Incremental builds by content: a page is read again exactly when what it shows changes.

Sphinx decides what to re-read from file times; refgen pages depend on code
all over the project, and a ``touch`` changes nothing they show. So, for
every generated page, the build state keeps a
:class:`~refgen.sphinx.state.PageRecord`:

- the *fingerprint* of the source its content can depend on, taken at
  ``builder-inited`` (:meth:`refgen.project.Project.fingerprints`);
- the *digest* of the page it read (:func:`refgen.site.compose.page_digest`);
- the *warnings* reading it gave (and its examples, when they ran).

At ``env-get-outdated`` a page whose fingerprint is unchanged is left alone;
one whose fingerprint changed is composed again, and re-read only if its
digest changed. A class page whose registry values changed has changed: its
values are computed (a quarter of the cost of composing it) and it is re-read
without being composed first, its elasticities and page made by the worker
while the pages are read (on the deep bench shape, a helper edit that changes
62 pages' figures went from 6.9 to 5.9 s: bench/RESULTS.md).

Pages that quote values (the ``scenario`` role) keep the values they quoted and
are re-read when one changes; pages that plot sweeps (``refgen-sweep``) keep a
digest of each sweep's data and are re-read when a sweep's data changes. The
warnings of every page that is not re-read are shown again, so an incremental
build reports, and fails under ``-W``, exactly as a clean one. Output files of
generated pages that no longer exist are deleted.

Sphinx writes a page again when it was read again, or when it holds a toctree
that lists a page added or removed. Every HTML page also shows its place in the
site: the previous and next pages, and, in a theme's sidebar, the site's whole
contents tree. Once every page is read (``env-updated``), refgen adds the pages whose neighbours
changed and, when the tree changed (a class added, renamed or deleted, a title
edited), every page whose sidebar holds its own copy of the tree (with furo's
shared navigation, only the hand-written pages; :mod:`refgen.sphinx.navigation`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from refgen.project import Project
from refgen.render.markdown import SUFFIX as MARKDOWN
from refgen.site.compose import values_differ
from refgen.site.plan import PlannedPage
from refgen.sphinx.ahead_events import compose_early
from refgen.sphinx.examples import queue_examples
from refgen.sphinx.navigation import navigation_is_shared, shares_navigation
from refgen.sphinx.records import replay
from refgen.sphinx.state import PageRecord, Relations, StoredWarning, build_state, project_of
from refgen.sphinx.sweeps import sweep_shown
from refgen.sphinx.viewcode import refresh_highlighted_source
from refgen.sphinx.write_warnings import kept_warnings
from refgen.sphinx.written import last_written, page_layout

# ---------------------------------------------------------------------- events


def outdated_pages(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: the pages whose content changed though their stub did not."""
    project = project_of(env)
    state = build_state(env)
    known = state.pages
    outdated: list[str] = []
    moved: list[tuple[str, PlannedPage, str]] = []
    for docname, (page, fingerprint) in state.planned.items():
        if docname in added or docname in changed:
            continue
        record = known.get(docname)
        if record is None or record.fingerprint is None or "problems" not in vars(record):
            outdated.append(docname)  # new, or kept by a refgen that did not keep problems
        elif record.fingerprint != fingerprint:
            moved.append((docname, page, fingerprint))
    # A page whose fingerprint changed is composed again, to see whether it changed; a
    # class page whose values changed has, and is composed as it is read (by the worker).
    to_compare = []
    for docname, page, fingerprint in moved:
        if _values_changed(project, page, known[docname]):
            outdated.append(docname)
        else:
            to_compare.append((docname, page, fingerprint))
    moved = to_compare
    stubs = [(page, env.doc2path(docname).as_posix()) for docname, page, _ in moved]
    composed_again = compose_early(app, stubs)
    for docname, page, fingerprint in moved:
        record = known[docname]
        recorded = composed_again[docname]
        if isinstance(recorded, str) or recorded.digest != record.digest:
            if not isinstance(recorded, str) and state.ahead is not None:
                state.ahead.keep_page(page, recorded)  # read next, as composed
            outdated.append(docname)
            continue
        record.fingerprint = fingerprint
        # Same page, other code: its examples may pass or fail differently now.
        record.example_warnings = []
        for subject, block in recorded.composed.examples:
            queue_examples(env, subject, block, docname)
    kept = [d for d in known if d not in added | changed | removed and d not in outdated]
    for docname in kept:
        record = known[docname]
        quoted = bool(record.quotes) and _quotes_changed(project, record.quotes)
        if quoted or _sweeps_changed(project, getattr(record, "sweeps", {})):
            outdated.append(docname)
    read_again = added | changed | removed | set(outdated)
    _read_duplicates_together(app, env, read_again, outdated)
    state.anything_read = bool(read_again)
    for docname in kept:
        if docname in outdated:  # read with a page that holds the other half of a duplicate
            continue
        record = known[docname]
        if _other_pages(record.warnings) & read_again:
            # A duplicate description or label: the warning is about the other page too,
            # which this build reads again; so is this one, to warn as a clean build does.
            outdated.append(docname)
            continue
        # Warnings given while writing are given again once the build knows which pages
        # it writes (write_warnings.finish).
        replay(record.warnings + record.example_warnings)
    refresh_highlighted_source(app)
    _delete_outputs(app, {d for d in removed if d in known})
    return outdated


def pages_with_unresolved_links(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Once every page is read: generated pages whose links did not all resolve when last written
    (the warnings ``nitpicky`` gives) are written again when any page was read: a page
    read may now hold the target, and a clean build would link to it."""
    state = build_state(env)
    if not state.anything_read:
        return []
    known = state.pages
    return sorted(d for d, warnings in kept_warnings(app).items() if warnings and d in known)


def pages_whose_surroundings_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Once every page is read: the pages to write again because their neighbours or the contents
    tree in their sidebar changed, though nothing they hold did.

    Compared with what this builder and output folder last finished writing
    (:mod:`refgen.sphinx.written`): builders that share the environment
    (``sphinx-build -M``) each compare with what they wrote, and a build that
    stopped while it wrote pages is not taken to have written them. Every page,
    when what shapes every page changed since (:func:`~refgen.sphinx.written.page_layout`).
    """
    if app.builder.format != "html":
        return []
    tree = contents_tree_digest(env)
    relations: Relations = {
        docname: tuple((related, _title(env, related)) for related in neighbours)
        for docname, neighbours in env.collect_relations().items()
    }
    build_state(env).surroundings_now = (tree, relations)
    written = last_written(app)
    if written is not None and written.layout != page_layout(app):
        # Every page, as Sphinx writes them when it sees the change (a build stopped
        # after seeing it may have written some only), and viewcode's, which it does not.
        _delete_highlighted_source(app)
        return sorted(env.all_docs)
    last = written.surroundings if written is not None else None
    if last is None:
        return []
    last_tree, last_relations = last
    pages = {
        docname for docname, related in relations.items() if last_relations.get(docname) != related
    }
    if tree != last_tree:
        pages |= {docname for docname in env.all_docs if not shares_navigation(app, docname)}
        if not navigation_is_shared(app):
            _delete_highlighted_source(app)
    return sorted(pages & set(env.all_docs))


def _delete_highlighted_source(app: Sphinx) -> None:
    """viewcode writes a module's page only when the module is newer than it: without the
    page, it writes it again, with the new contents tree in its sidebar."""
    for page in Path(app.outdir, "_modules").rglob("*.html"):
        page.unlink(missing_ok=True)


def _title(env: Any, docname: str | None) -> str:
    return marked_up(env.titles[docname]) if docname in env.titles else ""


def marked_up(node: nodes.Node) -> str:
    """A title's text with its markup, as a sidebar or a link shows it (``*About*`` is not
    ``About``): each element's name around what it holds."""
    if not isinstance(node, nodes.Element):
        return str(node)
    inner = "".join(marked_up(child) for child in node.children)
    return inner if isinstance(node, nodes.title) else f"<{node.tagname}>{inner}</>"


def contents_tree_digest(env: Any) -> str:
    """What every page's copy of the site's contents tree is made of: each page's title,
    its sections, nested as they are, with their numbers, and its toctrees (what they
    list, under which titles, and their options), with the condition of each ``only``
    directive they are in and the page's ``tocdepth``."""
    digest = hashlib.sha256()
    for docname in sorted(env.all_docs):
        sections: list[str] = []
        if docname in env.tocs:
            _outline(env.tocs[docname], sections)
        numbers = repr(sorted(env.toc_secnumbers.get(docname, {}).items()))
        depth = repr(env.metadata.get(docname, {}).get("tocdepth"))  # cuts what it lists
        listed = env.toctree_includes.get(docname, [])
        for part in (docname, _title(env, docname), *sections, numbers, depth, *listed):
            digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()


def _outline(node: nodes.Element, parts: list[str]) -> None:
    """A page's sections as their titles and anchors, a bracket around each nested list,
    and its toctrees' options (``pformat`` says the same, about ten times slower)."""
    for child in node.children:
        if isinstance(child, nodes.bullet_list):
            parts.append("(")
            _outline(child, parts)
            parts.append(")")
        elif isinstance(child, nodes.reference):
            parts += [marked_up(child), child.get("anchorname", "")]
        elif isinstance(child, addnodes.toctree):  # childless here: its options say it all
            parts.append(repr(sorted(child.attributes.items())))
        elif isinstance(child, addnodes.only):  # shown or not by the builder's tags
            parts.append(f"only {child.get('expr', '')} (")
            _outline(child, parts)
            parts.append(")")
        elif isinstance(child, nodes.Element):
            _outline(child, parts)


OTHER_INSTANCE = re.compile(r"other instance in (\S+?)(?:,|$)")
"""How Sphinx's domains name the page of the other half of a duplicate (an object
description, a label, a citation, a glossary term)."""


def _read_duplicates_together(
    app: Sphinx, env: Any, read_again: set[str], outdated: list[str]
) -> None:
    """A page that warned of a duplicate is read with the page holding the other half, and
    both are forgotten before either is read (Sphinx forgets each just before reading it,
    so the first read would still see the other's old half and warn twice): they then
    warn as in a clean build."""
    known = build_state(env).pages
    together: set[str] = set()
    for docname in sorted(read_again):
        others = _other_pages(known[docname].warnings) if docname in known else set()
        others &= set(env.found_docs)
        if others:
            together |= {docname, *others}
        for other in sorted(others - read_again):
            outdated.append(other)
            read_again.add(other)
    for docname in sorted(together & set(env.all_docs)):
        app.events.emit("env-purge-doc", env, docname)
        env.clear_doc(docname)


def _other_pages(warnings: list[StoredWarning]) -> set[str]:
    """The pages that the warnings given while reading a page name as the other half."""
    return {match for message, *_ in warnings for match in OTHER_INSTANCE.findall(message)}


def _values_changed(project: Project, page: PlannedPage, record: PageRecord) -> bool:
    """Whether the class page ``page`` shows registry values other than ``record`` kept:
    computing them is a quarter of composing the page (the elasticities are most of
    the rest). False when they cannot be told."""
    if page.kind != "scenario" or not record.values:
        return False
    scenario = project.scenario_named(page.argument)
    if isinstance(scenario, str):
        return False
    found = project.values(scenario)
    return not isinstance(found, str) and values_differ(record.values, found)


def _quotes_changed(project: Any, quotes: dict[str, str]) -> bool:
    return any(quote_shown(project, text) != shown for text, shown in quotes.items())


def _sweeps_changed(project: Any, sweeps: dict[str, str]) -> bool:
    return any(sweep_shown(project, key) != shown for key, shown in sweeps.items())


def quote_shown(project: Any, text: str) -> str:
    """What the ``scenario`` role shows for ``text``, as one string to compare."""
    quoted = project.quote(text)
    value = quoted.value.text if quoted.value is not None else ""
    return f"{quoted.target}\0{value}\0{quoted.problem}"


def _delete_outputs(app: Sphinx, docnames: set[str]) -> None:
    """A clean build would not have these pages' output: delete it."""
    for docname in docnames:
        output = _output_file(app, docname)
        if output is not None:
            output.unlink(missing_ok=True)
            _remove_empty_folders(output.parent, Path(app.outdir))
        Path(app.outdir, f"{docname}{MARKDOWN}").unlink(missing_ok=True)
        Path(app.doctreedir, f"{docname}.doctree").unlink(missing_ok=True)


def _output_file(app: Sphinx, docname: str) -> Path | None:
    """Where the builder writes a page: its own answer, else the page name and its suffix
    (the text builder's); None for a builder that writes no file per page."""
    filename = getattr(app.builder, "get_outfilename", None)
    if filename is not None:
        return Path(filename(docname))
    suffix = getattr(app.builder, "out_suffix", None)
    return Path(app.outdir, f"{docname}{suffix}") if isinstance(suffix, str) and suffix else None


def _remove_empty_folders(folder: Path, outdir: Path) -> None:
    """``dirhtml`` writes ``name/index.html``: the folder goes with its last file."""
    while folder != outdir and folder.is_relative_to(outdir):
        try:
            folder.rmdir()
        except OSError:  # not empty: other pages or files are in it
            return
        folder = folder.parent
