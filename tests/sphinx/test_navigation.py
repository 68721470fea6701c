"""The shared navigation: generated pages take furo's tree from one file, written once.

A page's size must not grow with the number of pages, and the sidebar a
reader sees must be the one furo would have drawn: the same entries, links,
classes and open toggles. The build tests read the HTML; the browser tests
compare, in Chromium, the filled sidebar with furo's own from a build with
``refgen_shared_navigation = False``.
"""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from refgen.sphinx import navigation
from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.sphinx.test_write_warnings import INTERRUPTS

CLASS = '''
class {name}(BaseModel):
    """{name}: a scenario of {module}."""

    size: int = 1

    @property
    def double(self) -> int:
        """Twice the size."""
        return 2 * self.size
'''


def module_source(module: str, names: list[str]) -> str:
    classes = "".join(CLASS.format(name=name, module=module) for name in names)
    return f'"""{module.title()} scenarios."""\n\nfrom pydantic import BaseModel\n{classes}'


CATEGORIES = {"training": ["AlphaScenario", "BetaScenario"], "serving": ["GammaScenario"]}
REGISTRY = '''"""Named scenarios."""

from navpkg.training import BetaScenario


class Named:
    SmallBeta = BetaScenario(size=1)
    """A small one."""
    LargeBeta = BetaScenario(size=3)
    """A large one."""
'''


def write_project(root: Path, conf_extra: str) -> ScenarioProject:
    modules = {module: module_source(module, names) for module, names in CATEGORIES.items()}
    modules["registry"] = REGISTRY
    project = write_scenario_project(
        root, "navpkg", modules, registry="registry.Named", conf_extra=conf_extra
    )
    # A hand-written page beside the reference, as a real site has.
    (project.docs / "guide.rst").write_text("Guide\n=====\n\nProse.\n", encoding="utf-8")
    index = project.docs / "index.rst"
    index.write_text(
        index.read_text(encoding="utf-8").replace(
            "   reference/index", "   guide\n   reference/index"
        ),
        encoding="utf-8",
    )
    return project


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    """The same project built with the shared navigation, with furo's own, and with alabaster."""
    furo = 'html_theme = "furo"\n'
    own = furo + "refgen_shared_navigation = False\n"
    confs = {
        "shared": ("html", furo),
        "furo": ("html", own),
        "alabaster": ("html", ""),
        "shared-dirhtml": ("dirhtml", furo),
        "furo-dirhtml": ("dirhtml", own),
    }
    built = {}
    for name, (builder, conf) in confs.items():
        project = write_project(tmp_path_factory.mktemp(name), textwrap.dedent(conf))
        built[name] = project.build(builder, "-W")
        assert built[name].returncode == 0, built[name].stderr
    return built


CLASS_PAGE = "reference/navpkg.training/BetaScenario.html"


def shared_script(result: BuildResult) -> str:
    return (result.outdir / "_static" / "refgen-navigation.js").read_text(encoding="utf-8")


def test_an_incremental_build_shares_the_tree_a_clean_one_would(tmp_path: Path) -> None:
    """furo's tree is kept between builds (:func:`navigation.furo_navigation`), and only
    while what it is made of is the same: a retitled page shows under its new title."""
    project = write_project(tmp_path / "site", 'html_theme = "furo"\n')
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    assert ">Guide<" in shared_script(first)
    guide = project.docs / "guide.rst"
    guide.write_text("Handbook\n========\n\nProse.\n", encoding="utf-8")
    again = project.build("html", "-W")
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    assert ">Handbook<" in shared_script(again)
    assert ">Guide<" not in shared_script(again)
    assert shared_script(again) == shared_script(clean)


def test_furos_tree_is_made_again_only_for_another_fragment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    furo_navigation = importlib.import_module("furo.navigation")
    made: list[str] = []
    real = furo_navigation.get_navigation_tree

    def counted(fragment: str) -> str:
        made.append(fragment)
        return str(real(fragment))

    monkeypatch.setattr(furo_navigation, "get_navigation_tree", counted)
    memo = tmp_path / navigation.MEMO
    one = '<ul><li class="toctree-l1"><a href="a.html">A</a></li></ul>'
    other = one.replace(">A<", ">B<")
    first = navigation.furo_navigation(one, memo)
    assert navigation.furo_navigation(one, memo) == first
    assert made == [one]
    assert ">B<" in navigation.furo_navigation(other, memo)
    assert made == [one, other]
    memo.write_text("{not json", encoding="utf-8")
    assert navigation.furo_navigation(other, memo) == navigation.furo_navigation(other, memo)
    assert made == [one, other, other]
    memo.write_text("[" * 200_000, encoding="utf-8")  # too deep for the JSON parser
    assert ">B<" in navigation.furo_navigation(other, memo)
    assert made == [one, other, other, other]


def test_the_tree_is_drawn_again_only_when_what_it_is_made_of_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sphinx resolves the site's whole contents tree to draw the shared tree: a build
    whose contents tree, builder, settings and tags are the last build's takes the
    tree it kept (:func:`navigation.made_of`). An edit to a scenario draws no tree; a
    retitled page, the dirhtml builder or another tag does, as a clean build would."""
    drawn: list[str] = []
    real = navigation.contents_fragment

    def counted(app: Any) -> str:
        drawn.append(app.builder.name)
        return real(app)

    monkeypatch.setattr(navigation, "contents_fragment", counted)
    project = write_project(tmp_path / "site", 'html_theme = "furo"\n')
    assert project.build("html", "-W").returncode == 0
    assert drawn == ["html"]
    assert project.build("html", "-W").returncode == 0  # nothing changed
    training = project.module_path("training")
    training.write_text(training.read_text().replace("2 * self.size", "3 * self.size"))
    again = project.build("html", "-W")
    assert "Twice" in (again.outdir / CLASS_PAGE).read_text()  # the page was written
    assert drawn == ["html"]
    guide = project.docs / "guide.rst"
    guide.write_text("Handbook\n========\n\nProse.\n", encoding="utf-8")
    retitled = project.build("html", "-W")
    assert drawn == ["html", "html"]
    assert ">Handbook<" in shared_script(retitled)
    tagged = project.build("html", "-W", "-t", "draft")
    assert drawn == ["html", "html", "html"]
    assert shared_script(tagged) == shared_script(retitled)
    project.build("dirhtml", "-W", outdir=tmp_path / "site" / "_build" / "html")
    assert drawn == ["html", "html", "html", "dirhtml"]


def test_a_tree_that_warned_is_drawn_again_and_warns_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A toctree lists a page without a title: Sphinx warns as it draws the tree. The
    tree is not kept, so the next build draws it and warns again, as a clean one does.
    (Kept, the no-op build after gave no warning.)"""
    project = write_project(tmp_path / "site", 'html_theme = "furo"\n')
    (project.docs / "untitled.rst").write_text("Only prose.\n", encoding="utf-8")
    guide = project.docs / "guide.rst"
    guide.write_text(guide.read_text() + "\n.. toctree::\n\n   untitled\n")
    first = project.build("html")
    assert any("doesn't have a title" in w for w in first.warnings)
    drawn: list[str] = []
    real = navigation.contents_fragment
    monkeypatch.setattr(
        navigation, "contents_fragment", lambda app: drawn.append("tree") or real(app)
    )
    again = project.build("html")
    assert any("doesn't have a title" in w for w in again.warnings)
    assert drawn == ["tree"]


def sidebar(result: BuildResult, page: str) -> Any:
    html = (result.outdir / page).read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").select_one(".sidebar-tree")


def test_a_generated_page_carries_a_placeholder_not_the_tree(
    builds: dict[str, BuildResult],
) -> None:
    tree = sidebar(builds["shared"], CLASS_PAGE)
    holder = tree.select_one("[data-refgen-navigation]")
    assert holder is not None
    assert holder["data-page"] == CLASS_PAGE
    assert holder["data-root"] == "../../"
    assert tree.select("li a[href]") == holder.select("noscript a[href]")
    fallback = [link["href"] for link in holder.select("noscript a")]
    assert fallback == ["../../index.html", "../../reference/index.html"]
    assert "GammaScenario" not in str(tree)
    script = tree.select_one("script[src]")
    assert script["src"] == "../../_static/refgen-navigation.js"  # the same on every page


def test_the_shared_file_holds_every_page_with_links_from_the_root(
    builds: dict[str, BuildResult],
) -> None:
    script = (builds["shared"].outdir / "_static" / "refgen-navigation.js").read_text()
    for href in (
        "guide.html",
        "reference/index.html",
        "reference/navpkg.serving/GammaScenario.html",
        CLASS_PAGE,
    ):
        assert f'href=\\"{href}\\"' in script
    assert "current" not in script.split("\n", 1)[0]


def test_hand_written_pages_keep_furos_own_tree(builds: dict[str, BuildResult]) -> None:
    tree = sidebar(builds["shared"], "guide.html")
    assert tree.select_one("[data-refgen-navigation]") is None
    assert tree.select_one('a[href="reference/navpkg.serving/GammaScenario.html"]') is not None


@pytest.mark.parametrize("page", ["genindex.html", "search.html", "_modules/navpkg/training.html"])
def test_pages_sphinx_makes_share_the_tree_too(builds: dict[str, BuildResult], page: str) -> None:
    tree = sidebar(builds["shared"], page)
    assert tree.select_one("[data-refgen-navigation]") is not None
    assert "GammaScenario" not in str(tree)


@pytest.mark.parametrize("name", ["furo", "alabaster"])
def test_the_setting_off_or_another_theme_leaves_the_theme_alone(
    builds: dict[str, BuildResult], name: str
) -> None:
    html = (builds[name].outdir / CLASS_PAGE).read_text(encoding="utf-8")
    assert "data-refgen-navigation" not in html
    assert "Serving scenarios" in html  # the theme's own tree lists the other category
    assert not (builds[name].outdir / "_static" / "refgen-navigation.js").exists()


@pytest.mark.parametrize("name", ["shared", "alabaster"])
def test_generated_pages_link_no_stub_as_their_source(
    builds: dict[str, BuildResult], name: str
) -> None:
    """A generated page's source is a one-directive stub: no "show source" link, no copy;
    a hand-written page keeps both."""
    outdir = builds[name].outdir
    page = (outdir / CLASS_PAGE).read_text(encoding="utf-8")
    assert "_sources/" not in page
    assert not (outdir / "_sources" / "reference").exists()
    assert '_sources/guide.rst.txt"' in (outdir / "guide.html").read_text(encoding="utf-8")
    assert (outdir / "_sources" / "guide.rst.txt").is_file()


def contents_of(result: BuildResult, page: str) -> list[str]:
    """The entries of furo's "On this page" of ``page``."""
    html = (result.outdir / page).read_text(encoding="utf-8")
    return [link.get_text() for link in BeautifulSoup(html, "html.parser").select(".toc-tree a")]


def test_generated_pages_enter_tables_of_contents_only_as_deep_as_their_kind(
    builds: dict[str, BuildResult],
) -> None:
    """A class page lists its sections; a registry page only its title, so
    furo draws no "On this page" for it, rather than a section per registry entry."""
    furo = builds["furo"]
    assert {"Inputs", "Derived attributes", "Registry values"} <= set(contents_of(furo, CLASS_PAGE))
    assert contents_of(furo, "reference/registry.html") == []


# In the browser: the filled sidebar against furo's own.

DESCRIBE_SIDEBAR = """(root) => [...document.querySelectorAll('.sidebar-tree li')].map(item => {
    const link = item.querySelector(':scope > a');
    const toggle = item.querySelector(':scope > input.toctree-checkbox');
    const classes = list => Array.from(list).sort().join(' ');
    return {
        item: classes(item.classList),
        link: classes(link.classList),
        text: link.textContent,
        href: link.href.replace(root, ''),
        open: toggle ? toggle.checked : null,
    };
})"""


@pytest.mark.parametrize(
    "builder, page",
    [
        ("", CLASS_PAGE),
        ("", "reference/navpkg.serving/index.html"),
        ("", "reference/index.html"),
        ("", "reference/navpkg.serving/GammaScenario.html"),
        ("", "genindex.html"),
        ("", "_modules/navpkg/training.html"),
        ("-dirhtml", "reference/navpkg.training/BetaScenario/index.html"),
    ],
)
def test_the_filled_sidebar_is_the_one_furo_draws(
    chromium: Any, builds: dict[str, BuildResult], builder: str, page: str
) -> None:
    tab = chromium.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        seen = {}
        for name in ("shared", "furo"):
            root = builds[name + builder].outdir.as_uri() + "/"
            tab.goto(root + page, wait_until="load")
            seen[name] = tab.evaluate(DESCRIBE_SIDEBAR, root)
            assert tab.locator(".sidebar-tree [data-refgen-navigation]").count() == 0
    finally:
        tab.close()
    assert errors == []
    assert len(seen["furo"]) > 5
    assert seen["shared"] == seen["furo"]
    current = [entry for entry in seen["shared"] if "current-page" in entry["item"]]
    if page.startswith("reference/"):
        assert len(current) == 1 and current[0]["href"].endswith("#")
    else:  # not in any toctree
        assert current == []


def highlighted_source_pages(outdir: Path) -> dict[str, str]:
    """viewcode's pages, whole (title, sidebar and all), by path."""
    return {
        page.relative_to(outdir).as_posix(): page.read_text(encoding="utf-8")
        for page in sorted((outdir / "_modules").rglob("*.html"))
    }


def conf_with(project: ScenarioProject, line: str | None, *, instead_of: str = "") -> None:
    conf = project.docs / "conf.py"
    text = conf.read_text(encoding="utf-8")
    text = text.replace(instead_of, "") if instead_of else text
    conf.write_text(text + (f"{line}\n" if line else ""), encoding="utf-8")


SCRIPTED = "def setup(app):\n    app.add_js_file('extra.js')\n"
"""An extension of the user's that adds a script to every page."""

SETTINGS = {
    "html_title": 'html_title = "Brand New"',
    "release": 'release = "2.0"',  # an environment setting: in documentation_options.js
    "extension": 'extensions.append("scripted")',
}


@pytest.mark.parametrize(
    ("setting", "shared"),
    [("html_title", True), ("html_title", False), ("release", True), ("extension", False)],
)
def test_a_setting_of_every_page_reaches_the_highlighted_source(
    tmp_path: Path, setting: str, shared: bool
) -> None:
    """The user changes a setting every page shows (the HTML title, the release, an
    extension adding a script): Sphinx writes every page again, and viewcode's pages
    (written again only when their module is newer) show it too, as in a clean build.
    (Failed before; the HTML title with and without the shared navigation found by a
    review, the release and the extension by a second.)"""
    conf = 'html_theme = "furo"\nhtml_title = "Site"\n'
    project = write_project(
        tmp_path / "site", conf + ("" if shared else "refgen_shared_navigation = False\n")
    )
    (project.src / "scripted.py").write_text(SCRIPTED, encoding="utf-8")  # imported afresh
    first = project.build("html", "-W")
    assert first.returncode == 0
    before = highlighted_source_pages(first.outdir)
    conf_with(project, SETTINGS[setting])
    again = project.build("html", "-W")
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    pages = highlighted_source_pages(again.outdir)
    assert pages == highlighted_source_pages(clean.outdir)
    assert pages.keys() == before.keys()
    assert all(pages[path] != before[path] for path in pages)  # each shows the change
    shown = {"html_title": "Brand New", "release": "", "extension": "extra.js"}[setting]
    assert all(shown in text for text in pages.values())


def site_pages(outdir: Path) -> dict[str, str]:
    """Every HTML page of the site, whole, by path."""
    return {
        page.relative_to(outdir).as_posix(): page.read_text(encoding="utf-8")
        for page in sorted(outdir.rglob("*.html"))
    }


def test_a_build_stopped_after_a_setting_changed_leaves_no_page_of_the_old_one(
    tmp_path: Path,
) -> None:
    """The user sets ``html_title`` and stops the build (Ctrl-C) while it writes pages:
    Sphinx has already recorded the new settings, so the next build would write only
    what changed. Every page the stopped build did not write is written then, as a clean
    build writes it. (Failed before: the pages after the one stopped at kept the old
    title for good; found by a review.)"""
    project = write_project(tmp_path / "site", 'html_theme = "furo"\n')
    flag = project.root / "interrupt"
    conf_with(project, INTERRUPTS.format(flag=str(flag), page="BetaScenario"))
    assert project.build("html", "-W").returncode == 0
    conf_with(project, 'html_title = "Brand New"')
    flag.write_text("")
    assert project.build("html", "-W").returncode != 0
    flag.unlink()
    again = project.build("html", "-W")
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    pages = site_pages(again.outdir)
    assert all("Brand New" in text for path, text in pages.items() if path != "search.html")
    assert pages == site_pages(clean.outdir)


def test_turning_the_shared_navigation_off_and_on_reaches_every_page(tmp_path: Path) -> None:
    """Off: no page keeps the placeholder, and the script a clean build has no copy of is
    gone; on again: viewcode's pages take the shared tree again. (Failed before: the
    highlighted source kept the other one; found by a review.)"""
    project = write_project(tmp_path / "site", 'html_theme = "furo"\n')
    first = project.build("html", "-W")
    script = first.outdir / "_static" / navigation.SCRIPT
    assert script.exists()
    off = "refgen_shared_navigation = False"
    for line, instead_of in [(off, ""), (None, off + "\n")]:
        conf_with(project, line, instead_of=instead_of)
        again = project.build("html", "-W")
        clean = project.build("html", "-W", outdir=tmp_path / f"clean-{line}")
        assert script.exists() == (line is None)
        pages = highlighted_source_pages(again.outdir)
        assert pages == highlighted_source_pages(clean.outdir)
        assert all(("data-refgen-navigation" in text) == (line is None) for text in pages.values())
