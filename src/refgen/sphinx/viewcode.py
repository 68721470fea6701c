"""Highlighted source pages (``sphinx.ext.viewcode``): the project's modules as refgen reads them.

viewcode asks ``viewcode-find-source`` for a module's text and the lines of
each class and function in it; for a module of the project, refgen answers
from its own reading of the file (:meth:`ModuleSource.definition_tags`):
the lines Sphinx's tokenizer finds (a few rare sources aside: a string
holding U+2028, a header continued by a backslash), several times faster on
a module of thousands of lines. Other modules are left to viewcode.

viewcode keeps what it read in the environment and reads a module again only
when a page that documents it is read; :func:`refresh_highlighted_source`
gives it the current text of every module it shows, edited or not, and
:func:`forget_modules_nothing_documents` makes a clean build list the modules
an incremental one lists.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.build_phase import BuildPhase

from refgen.sphinx.private import viewcode_modules
from refgen.sphinx.state import project_of

Tags = dict[str, tuple[str, int, int]]


def find_source(app: Sphinx, module_name: str) -> tuple[str, Tags] | None:
    """``viewcode-find-source``: the text and definition lines of a project module.

    Answered while Sphinx reads only. When it writes, viewcode asks the same
    event whether a module has a file, and takes an answer for "no file, write
    its page again at every build"; left unanswered, it compares the file's
    time with its page's, and highlights only what changed.
    """
    if app.phase != BuildPhase.READING:
        return None
    return project_of(app.env).module_text_and_tags(module_name)


def refresh_highlighted_source(app: Sphinx) -> None:
    """Give viewcode the current text of every module it shows.

    viewcode reads a module when a page that documents it is read; a module
    edited where no page changed would otherwise keep its old text.
    """
    shown = viewcode_modules(app.env)
    project = project_of(app.env)
    for name, entry in list(shown.items()):
        if not entry:
            continue
        # Sphinx's analyzer imports the module: the Project does it first, under its guard.
        if isinstance(project.import_module(name), str):
            continue
        ModuleAnalyzer.cache.pop(("module", name), None)
        try:
            analyzer = ModuleAnalyzer.for_module(name)
        except PycodeError:  # no source to read
            continue
        if analyzer.code == entry[0]:
            continue
        current = find_source(app, name)
        if current is None:
            try:
                current = analyzer.code, analyzer.find_tags()
            except PycodeError:  # a source Sphinx's parser cannot read
                current = None
        if current is not None:
            shown[name] = (*current, *entry[2:])


def forget_modules_nothing_documents(env: BuildEnvironment) -> None:
    """Once every page is read: forget the modules viewcode noted with no documented object in them.

    viewcode follows a documented value to the module of its class (a registry
    entry whose class no page documents) and notes that module with nothing in
    it to link to. It forgets such a module as soon as any page is read again,
    so a clean build would list a module page that the next incremental build
    no longer lists; refgen forgets them in every build.
    """
    shown = viewcode_modules(env)
    for name, entry in list(shown.items()):
        if entry and not entry[2]:  # (code, tags, used, refname): nothing used
            del shown[name]
