"""Warnings given while pages are written are given again, as a clean build gives them.

Sphinx warns about some things only as it writes a page: a code block that does not
lex, an image no builder can show, a theme's or an extension's handler. refgen keeps
what writing each generated page gave (``src/refgen/sphinx/write_warnings.py``) and
gives it again when a later build does not write that page. Each test builds the
throwaway package ``chain`` (``tests/sphinx/test_stale_fingerprints.py``) with a
second class, Meter, whose page Sphinx writes right after Gauge's, makes something
warn as a page is written, rebuilds writing some pages and not others, and compares
with a clean build: the same warnings (location-less ones too), as many times, and
the same exit status.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from refgen.testing import BuildResult, ScenarioProject
from tests.sphinx.test_incremental import assert_same_as_clean, reread, touch_edit
from tests.sphinx.test_stale_fingerprints import MODELS, REGISTRY, add_page, write_gauges


def does_not_lex(indent: str) -> str:
    """A block Pygments cannot lex as Python, for a docstring indented by ``indent``:
    Sphinx warns as the page is written, not read."""
    return f"\n\n{indent}.. code-block:: python\n\n{indent}   x = 1 $ 2\n{indent}"


WITH_METER = (
    MODELS.replace('"""A gauge."""', f'"""A gauge.{does_not_lex("    ")}"""')
    + """

    @dataclass(frozen=True, kw_only=True)
    class Meter:
        \"\"\"A meter.\"\"\"

        y: float
        \"\"\"Input.\"\"\"
"""
)
"""Gauge, whose docstring does not lex, and Meter, whose page Sphinx writes next."""


@pytest.mark.parametrize("edited", ["A meter.", "A gauge."])
@pytest.mark.parametrize("options", [("--keep-going",), ("-W", "--keep-going")])
def test_a_warning_given_as_a_page_is_written_is_that_pages(
    tmp_path: Path, edited: str, options: tuple[str, ...]
) -> None:
    """Gauge's docstring holds a block that does not lex, which Sphinx warns about as it
    writes Gauge's page. The user edits Meter's docstring (the page written next) or
    Gauge's: the rebuild writes that page alone, and gives the warning once and exits as
    a clean build does. (Failed before for Meter: the warning was kept as Meter's page's,
    so writing Meter's page alone lost it.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    first = project.build("html", *options)
    assert len([w for w in first.warnings if "highlighting_failure" in w]) == 1, first.stderr
    touch_edit(project.module_path("models"), edited, edited.replace(".", ", edited."))
    result = project.build("html", *options)
    assert ("reference/chain.models/Gauge" in reread(result)) == (edited == "A gauge.")
    assert_same_as_clean(project, result, *options)


def test_a_warning_given_as_the_last_page_is_written_is_given_again(tmp_path: Path) -> None:
    """The registry's docstring does not lex: Sphinx warns as it writes the registry's
    page, the last it writes. The user edits a hand-written page: the rebuild does not
    write the registry's page, and gives the warning again as a clean build does.
    (Failed before: what writing the last page gave was kept as no page's.)"""
    written = f'"""Named scenarios.{does_not_lex("        ")}"""'
    project = write_gauges(tmp_path, registry=REGISTRY.replace('"""Named scenarios."""', written))
    about = add_page(project, "about", "About\n=====\n\nNothing yet.\n")
    first = project.build("html", "--keep-going")
    assert len([w for w in first.warnings if "highlighting_failure" in w]) == 1, first.stderr
    touch_edit(about, "Nothing yet.", "Something now.")
    result = project.build("html", "--keep-going")
    assert "reference/registry" not in reread(result)
    assert_same_as_clean(project, result, "--keep-going")


EARLY_TRANSFORM = """
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging as sphinx_logging


class Early(SphinxPostTransform):
    default_priority = -1

    def run(self, **kwargs):
        if self.env.docname.endswith("Meter"):
            sphinx_logging.getLogger("early").warning("early", location=self.env.docname)


def setup(app):
    app.add_post_transform(Early)
"""


def test_a_warning_of_an_early_post_transform_is_its_pages(tmp_path: Path) -> None:
    """conf.py adds a post-transform that runs before any other and warns as Meter's page
    is resolved. The user edits Gauge: the rebuild writes Gauge's page, not Meter's, and
    gives the warning once and exits as a clean build does. (Failed with the page's
    resolving marked by a first post-transform of refgen's: the warning was kept as the
    page's written before.)"""
    project = write_gauges(tmp_path, models=WITH_METER.replace(does_not_lex("    "), ""))
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + EARLY_TRANSFORM)
    options = ("-W", "--keep-going")
    assert [w for w in project.build("html", *options).warnings if "early" in w] != []
    touch_edit(project.module_path("models"), "A gauge.", "A gauge, edited.")
    result = project.build("html", *options)
    assert "reference/chain.models/Meter" not in reread(result)
    assert_same_as_clean(project, result, *options)


@pytest.mark.parametrize("edited", ["", "A meter.", "A gauge."])
def test_a_parallel_rebuild_gives_what_writing_a_page_warned_of(
    tmp_path: Path, edited: str
) -> None:
    """``-j 2 -W``: Gauge's docstring does not lex, which Sphinx's parallel writers warn
    about as they write Gauge's page. A rebuild with nothing changed, or Meter or Gauge
    edited, gives the warning once and exits as a clean build does. (Failed with nothing
    or Meter edited: a writer's warnings reached the build after the pages they belonged
    to, and were kept as no page's or the next page's.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    for number in range(3):  # enough pages for Sphinx to write in parallel
        add_page(project, f"page{number}", f"Page {number}\n======\n\nText.\n")
    options = ("-j", "2", "-W", "--keep-going")
    first = project.build("html", *options)
    assert len([w for w in first.warnings if "highlighting_failure" in w]) == 1, first.stderr
    if edited:
        touch_edit(project.module_path("models"), edited, edited.replace(".", ", edited."))
    result = project.build("html", *options)
    assert_same_as_clean(project, result, *options)


@pytest.mark.parametrize("builder", ["singlehtml", "text"])
def test_builders_sharing_a_doctree_folder_give_their_own_write_warnings(
    tmp_path: Path, builder: str
) -> None:
    """``sphinx -M`` (the Makefile's way) builds html, then ``builder``, into one doctree
    folder; Gauge's docstring does not lex. The second builder gives the warnings a build
    of its own gives: once for singlehtml, which highlights, and none for text, which
    does not. (Failed for singlehtml, which gave the warning twice: each builder gave
    again what the other's writing had warned of.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    shared = str(project.root / "_build" / "doctrees")
    options = ("-W", "--keep-going")
    project.build("html", "-d", shared, *options)
    (project.root / "_build" / builder).mkdir(parents=True)
    result = project.build(
        builder, "-d", shared, *options, outdir=project.root / "_build" / builder
    )
    own = project.build(builder, *options, outdir=project.root / "_build" / f"own-{builder}")
    given = sorted(w.replace(str(result.outdir), "OUT") for w in result.warnings)
    assert given == sorted(w.replace(str(own.outdir), "OUT") for w in own.warnings)
    assert len(given) == (builder == "singlehtml")
    assert result.returncode == own.returncode


ONCE_PER_BUILD = """
from sphinx.util import logging as sphinx_logging


def warn_once(app, pagename, templatename, context, doctree):
    if pagename.startswith("reference/chain.models/") and not pagename.endswith("index"):
        sphinx_logging.getLogger("ctx").warning("a theme option", once=True, location=pagename)


def setup(app):
    app.connect("html-page-context", warn_once)
"""


def test_a_warning_given_once_is_given_again_once(tmp_path: Path) -> None:
    """conf.py warns ``once`` (Sphinx shows the text once per build) as Gauge's and Meter's
    pages are written. A rebuild that writes neither gives it once, as a clean build does.
    (Failed: the warning was given again for each page, without ``once``.)"""
    project = write_gauges(tmp_path, models=WITH_METER.replace(does_not_lex("    "), ""))
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + ONCE_PER_BUILD)
    first = project.build("html", "--keep-going")
    assert len([w for w in first.warnings if "a theme option" in w]) == 1, first.stderr
    (first.outdir / "index.html").unlink()  # Sphinx writes the home page alone
    result = project.build("html", "--keep-going")
    assert_same_as_clean(project, result, "--keep-going")


RESOLVES_ANOTHER_PAGE = """

def embed_about(app, doctree, docname):
    if docname.endswith("Gauge"):
        app.env.get_and_resolve_doctree("about", app.builder)


def setup(app):
    app.connect("doctree-resolved", embed_about, priority=900)
"""


@pytest.mark.parametrize("deleted", ["index.html", "reference/chain.models/Meter.html"])
def test_a_page_resolved_while_another_is_does_not_end_the_build(
    tmp_path: Path, deleted: str
) -> None:
    """conf.py's ``doctree-resolved`` handler resolves the page ``about`` while Gauge's page
    is resolved (as an extension that embeds one page in another does); Gauge's docstring
    does not lex. The build writes every page and warns once; a rebuild that writes
    neither Gauge's page nor ``about`` gives what a clean build gives. (Failed: refgen
    took Gauge's doctree apart before it was written, and the build ended with an
    AttributeError, exit status 2; with that fixed, Gauge's warning was kept as
    ``about``'s.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    add_page(project, "about", "About\n=====\n\nNothing yet.\n")
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + RESOLVES_ANOTHER_PAGE)
    options = ("-W", "--keep-going")
    first = project.build("html", *options)
    assert first.returncode == 1, first.stderr
    assert len([w for w in first.warnings if "highlighting_failure" in w]) == 1
    (first.outdir / deleted).unlink()  # Sphinx writes that page alone
    result = project.build("html", *options)
    assert_same_as_clean(project, result, *options)


def add_to_conf(project: ScenarioProject, text: str) -> None:
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + text)


def without_the_block(models: str = WITH_METER) -> str:
    return models.replace(does_not_lex("    "), "")


LATE_HANDLER = """
from sphinx.util import logging as sphinx_logging


def late(app, doctree, docname):
    if docname.endswith("Gauge"):
        sphinx_logging.getLogger("late").warning("late handler", location=docname)


def setup(app):
    app.connect("doctree-resolved", late)
"""


@pytest.mark.parametrize("deleted", ["Meter", "Gauge"])
def test_a_warning_of_a_later_doctree_resolved_handler_is_its_pages(
    tmp_path: Path, deleted: str
) -> None:
    """conf.py's ``doctree-resolved`` handler, which runs after refgen's, warns on Gauge's
    page. A rebuild that writes Meter's page alone (or Gauge's) gives the warning once,
    as a clean build does. (Failed: it was kept as Meter's page's.)"""
    project = write_gauges(tmp_path, models=without_the_block())
    add_to_conf(project, LATE_HANDLER)
    assert_rewritten_alone_as_clean(project, deleted, ("-W", "--keep-going"))


def assert_rewritten_alone_as_clean(
    project: ScenarioProject, deleted: str, options: tuple[str, ...]
) -> BuildResult:
    """Build, delete the HTML of ``deleted`` (a class: Sphinx writes that page alone),
    build again: what a clean build gives."""
    first = project.build("html", *options)
    assert first.warnings, first.stderr
    (first.outdir / "reference" / "chain.models" / f"{deleted}.html").unlink()
    result = project.build("html", *options)
    assert reread(result) == set()
    assert_same_as_clean(project, result, *options)
    return result


HELD_AT_THE_END = """
from sphinx.util import logging as sphinx_logging


def finishing(app, *args):
    with sphinx_logging.pending_warnings():
        sphinx_logging.getLogger("end").warning("finishing")
    return []


def setup(app):
    app.connect("{event}", finishing, priority=400)
"""


@pytest.mark.parametrize("event", ["html-collect-pages", "build-finished"])
def test_a_warning_given_once_pages_are_written_is_no_pages(tmp_path: Path, event: str) -> None:
    """conf.py warns at ``event`` inside its own ``pending_warnings`` (as Sphinx's writing
    holds warnings back). A rebuild that writes one page gives it once, as a clean build
    does. (Failed: it was kept as the last page's and given twice.)"""
    project = write_gauges(tmp_path, models=without_the_block())
    add_to_conf(project, HELD_AT_THE_END.replace("{event}", event))
    assert_rewritten_alone_as_clean(project, "Meter", ("-W", "--keep-going"))


@pytest.mark.parametrize("deleted", ["Meter", "Gauge"])
def test_a_parallel_builds_image_warning_is_its_pages(tmp_path: Path, deleted: str) -> None:
    """``-j 2``: Gauge's docstring shows an image only a PDF of exists, which Sphinx's HTML
    builder warns about as the build itself prepares Gauge's page for its writer. A
    rebuild that writes Meter's page alone (or Gauge's) gives it once, as a clean build
    does. (Failed: it was kept as Meter's page's.)"""
    image = "\n\n    .. image:: /picture.*\n    "
    project = write_gauges(tmp_path, models=WITH_METER.replace(does_not_lex("    "), image))
    (project.docs / "picture.pdf").write_bytes(b"%PDF-1.4\n")
    for number in range(3):  # enough pages for Sphinx to write in parallel
        add_page(project, f"page{number}", f"Page {number}\n======\n\nText.\n")
    result = assert_rewritten_alone_as_clean(project, deleted, ("-j", "2", "-W", "--keep-going"))
    assert any("a suitable image" in w for w in result.warnings)


ONCE_WITH_AN_ARGUMENT = """
from sphinx.util import logging as sphinx_logging


def warn_once(app, pagename, templatename, context, doctree):
    if pagename.startswith("reference/chain.models/") and not pagename.endswith("index"):
        sphinx_logging.getLogger("ctx").warning("option %s is old", "style", once=True)


def setup(app):
    app.connect("html-page-context", warn_once)
"""


@pytest.mark.parametrize("deleted", ["Meter", "Gauge"])
def test_a_warning_given_once_with_an_argument_is_given_once(tmp_path: Path, deleted: str) -> None:
    """conf.py warns ``once``, with an argument and no location, as each class page is
    written. A rebuild that writes one of them gives it once, as a clean build does.
    (Failed: given again as its text without the argument, Sphinx showed it twice.)"""
    project = write_gauges(tmp_path, models=without_the_block())
    add_to_conf(project, ONCE_WITH_AN_ARGUMENT)
    assert_rewritten_alone_as_clean(project, deleted, ("-W", "--keep-going"))


RESOLVES_GAUGE_AGAIN = """

def collect(app):
    app.env.get_and_resolve_doctree("reference/chain.models/Gauge", app.builder)
    return []


def setup(app):
    app.connect("html-collect-pages", collect)
"""


@pytest.mark.parametrize("options", [("-W", "--keep-going"), ("-j", "2", "-W", "--keep-going")])
def test_a_page_resolved_again_once_written_keeps_its_warnings(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    """conf.py resolves Gauge's page again once every page is written (as an extension
    making a combined page does); Gauge's docstring does not lex. Rebuilds that do not
    write Gauge's page give the warning, as a clean build does. (Failed: resolving it
    again replaced what its writing had warned of with nothing.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    add_to_conf(project, RESOLVES_GAUGE_AGAIN)
    result = assert_rewritten_alone_as_clean(project, "Meter", options)
    again = project.build("html", *options)
    assert sorted(again.warnings) == sorted(result.warnings)
    assert again.returncode == result.returncode


INTERRUPTS = """
import os


def interrupt(app, pagename, templatename, context, doctree):
    if os.path.exists({flag!r}) and pagename.endswith({page!r}):
        raise KeyboardInterrupt


def setup(app):
    app.connect("html-page-context", interrupt)
"""


@pytest.mark.parametrize("options", [("-W", "--keep-going"), ("-j", "2", "-W", "--keep-going")])
def test_a_build_interrupted_as_it_writes_leaves_the_next_as_a_clean_one(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    """Builds in one process (a test session, a notebook). The second is interrupted
    (Ctrl-C) as it writes Meter's page; the third gives what a clean build gives, and
    leaves Python's log record factory as it was. (Failed writing serially: Meter's page
    kept its old output, read by the interrupted build and never written; before that,
    what the interrupted build had kept lost Gauge's warning in the next.)"""
    project = write_gauges(tmp_path, models=WITH_METER)
    for number in range(3):  # enough pages for Sphinx to write in parallel
        add_page(project, f"page{number}", f"Page {number}\n======\n\nText.\n")
    flag = project.root / "interrupt"
    add_to_conf(project, INTERRUPTS.format(flag=str(flag), page="Meter"))
    factory = logging.getLogRecordFactory()
    project.build("html", *options)
    flag.write_text("")
    touch_edit(project.module_path("models"), "A meter.", "A meter, edited.")
    assert project.build("html", *options).returncode != 0
    flag.unlink()
    result = project.build("html", *options)
    assert logging.getLogRecordFactory() is factory
    assert_same_as_clean(project, result, *options)


SETS_ITS_OWN_FACTORY = """
import logging


def set_factory(app, builder):
    app._previous_factory = logging.getLogRecordFactory()
    previous = app._previous_factory
    logging.setLogRecordFactory(lambda *args, **kwargs: previous(*args, **kwargs))


def put_it_back(app, exception):
    logging.setLogRecordFactory(app._previous_factory)


def setup(app):
    app.connect("write-started", set_factory, priority=900)
    app.connect("build-finished", put_it_back, priority=900)
"""


def test_a_log_record_factory_set_over_refgens_is_not_chained_build_after_build(
    tmp_path: Path,
) -> None:
    """``-j 2`` builds in one process; conf.py sets a log record factory of its own over
    refgen's as pages are written, and puts back the one it found once the build ends.
    refgen's is then no longer naming pages, and does not pile up build after build."""
    project = write_gauges(tmp_path, models=WITH_METER)
    for number in range(3):  # enough pages for Sphinx to write in parallel
        add_page(project, f"page{number}", f"Page {number}\n======\n\nText.\n")
    add_to_conf(project, SETS_ITS_OWN_FACTORY)
    original = logging.getLogRecordFactory()
    try:
        for _build in range(3):
            project.build("html", "-j", "2")
            left = logging.getLogRecordFactory()
            assert getattr(left, "builder", None) is None
            assert getattr(left, "previous", original) is original
    finally:
        logging.setLogRecordFactory(original)


BEFORE_ANY_PAGE = """
from sphinx.util import logging as sphinx_logging


def starting(app, builder):
    sphinx_logging.getLogger("start").warning("before any page")


def setup(app):
    app.connect("write-started", starting)
"""


def test_a_warning_given_before_any_page_is_written_is_no_pages(tmp_path: Path) -> None:
    """conf.py warns as Sphinx starts writing, before any page (as a theme's unknown
    option does). After an edit, a rebuild with nothing changed gives it once, as a
    clean build does. (Failed: it was kept as the first page's and given twice.)"""
    project = write_gauges(tmp_path, models=without_the_block())
    add_to_conf(project, BEFORE_ANY_PAGE)
    project.build("html")
    touch_edit(project.module_path("models"), "A meter.", "A meter, edited.")
    project.build("html")
    result = project.build("html")
    assert reread(result) == set()
    assert_same_as_clean(project, result)
