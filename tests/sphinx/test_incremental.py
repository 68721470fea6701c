"""Incremental builds re-read only what an edit affects, and never publish a stale number."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from sphinx.search import js_index

from refgen.sphinx.extension import page_model_version
from refgen.sphinx.search_index import index_entries_by_page
from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.html_helpers import last_figure, main, read_html, section, text

MOTION = '''
    """Motion scenarios

    Distance and time.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Trip:
        """A trip at constant speed.

        Examples
        --------
        >>> from travel.registry import Named
        >>> Named.Commute.hours
        2.0
        """

        distance: float
        """Kilometres."""
        speed: float
        """Kilometres per hour."""

        @property
        def hours(self) -> float:
            """Time taken."""
            return self.distance / self.speed
'''
COST = '''
    """Cost scenarios

    Money.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Fare:
        """A fare."""

        price: float
        """Euros."""

        @property
        def with_tip(self) -> float:
            """Price plus ten percent."""
            return self.price * 1.1
'''
REGISTRY = '''
    """Named trips."""

    from travel.cost import Fare
    from travel.motion import Trip


    class Named:
        """Named scenarios."""

        Commute = Trip(distance=120.0, speed=60.0)
        Taxi = Fare(price=10.0)
'''

READING = re.compile(r"reading sources\.\.\. \[\s*\d+%\] (\S+)")


def reread(result: BuildResult) -> set[str]:
    return set(READING.findall(result.stdout))


def touch_edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    later = time.time() + 2
    os.utime(path, (later, later))


@pytest.fixture
def travel(tmp_path: Path) -> ScenarioProject:
    project = write_scenario_project(
        tmp_path,
        "travel",
        {"motion": MOTION, "cost": COST, "registry": REGISTRY},
        registry="registry.Named",
    )
    (project.docs / "story.rst").write_text(
        "Story\n=====\n\nThe commute takes :scenario:`Commute.hours:.1f` hours.\n"
    )
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   story\n")
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    return project


def quoted_hours(result: BuildResult) -> str:
    return text(main(read_html(result.outdir / "story.html")).find(class_="refgen-value"))


def trip_page(result: BuildResult):
    return read_html(result.outdir / "reference" / "travel.motion" / "Trip.html")


def registry_hours(result: BuildResult) -> str:
    table = section(trip_page(result), "Registry values").find("table")
    row = next(r for r in table.find_all("tr") if "hours" in text(r.find(["th", "td"])))
    return last_figure(row)


def test_nothing_changed_rereads_nothing(travel: ScenarioProject) -> None:
    again = travel.build("html", "-W")
    assert reread(again) == set()


def test_rebuild_sees_the_configuration_unchanged(travel: ScenarioProject) -> None:
    """refgen's own settings (its static folder) must not read as a change to conf.py."""
    again = travel.build("html", "-W")
    assert "configuration has changed" not in again.stdout
    assert "targets for 0 source files that are out of date" in again.stdout


def test_registry_input_change_updates_every_page_that_shows_it(travel: ScenarioProject) -> None:
    touch_edit(travel.module_path("registry"), "Trip(distance=120.0", "Trip(distance=90.0")
    touch_edit(travel.module_path("motion"), "    2.0\n", "    1.5\n")
    # A fresh interpreter, as a user's next build: only the pickled environment carries over.
    result = travel.build("html", "-W", isolated=True)
    assert result.returncode == 0, result.stderr
    assert registry_hours(result) == "1.5"
    assert quoted_hours(result) == "1.5"
    # Exactly the pages that show the entry: Fare's page, whose Taxi entry sits in the
    # same registry file, is not read again.
    assert reread(result) == {
        "reference/registry",
        "reference/travel.motion/Trip",
        "reference/travel.motion/index",
        "story",
    }
    category = read_html(result.outdir / "reference" / "travel.motion" / "index.html")
    assert "hours = 1.5 (Commute)" in text(main(category).find("table"))
    # The files built beside the pages follow, though only these pages were read again.
    values = (result.outdir / "reference" / "registry.csv").read_text(encoding="utf-8")
    assert "Commute,travel.motion.Trip,hours,derived,1.5,,,1.5,true," in values
    assert "Taxi,travel.cost.Fare,price,input,10.0,,,10,true," in values
    markdown = (result.outdir / "reference" / "travel.motion" / "Trip.md").read_text()
    assert "| `hours` | 1.5 |" in markdown


def test_property_body_change_rereads_its_pages_only(travel: ScenarioProject) -> None:
    touch_edit(
        travel.module_path("motion"),
        "return self.distance / self.speed",
        "return self.distance / self.speed / 2",
    )
    touch_edit(travel.module_path("motion"), "    2.0\n", "    1.0\n")
    result = travel.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert reread(result) == {
        "reference/travel.motion/Trip",
        "reference/travel.motion/index",
        "story",
    }
    equation = trip_page(result).find(class_="refgen-equation")
    assert equation.get_text() == "self.distance / self.speed / 2"
    assert registry_hours(result) == "1"
    assert quoted_hours(result) == "1.0"


def test_stale_example_is_caught_on_incremental_build(travel: ScenarioProject) -> None:
    touch_edit(travel.module_path("registry"), "speed=60.0", "speed=30.0")
    result = travel.build("html", "--keep-going")
    assert any("example of travel.motion.Trip failed" in w for w in result.warnings)


def test_fixing_a_broken_registry_brings_its_values_back(travel: ScenarioProject) -> None:
    registry = travel.module_path("registry")
    touch_edit(registry, "Trip(distance=120.0", "Trip(distance=undefined_name")
    broken = travel.build("html", "--keep-going")
    assert any("cannot import registry module" in w for w in broken.warnings)
    assert section_titles(trip_page(broken)).count("Registry values") == 0
    touch_edit(registry, "Trip(distance=undefined_name", "Trip(distance=120.0")
    fixed = travel.build("html", "-W")
    assert fixed.returncode == 0, fixed.stderr
    assert "reference/travel.motion/Trip" in reread(fixed)
    assert registry_hours(fixed) == "2"
    assert quoted_hours(fixed) == "2.0"


def section_titles(page) -> list[str]:
    return [text(h).rstrip("¶").strip() for h in main(page).find_all("h2")]


# ---------------------------------------------------------------------- content, not files

CHAIN_MODELS = '''
    """Chained scenarios

    Figures computed two calls away, through private methods and units.
    """

    from dataclasses import dataclass

    from chain import constants, helpers
    from chain.units import ureg


    @dataclass(frozen=True, kw_only=True)
    class Direct:
        """Calls a helper that calls a helper in another module."""

        x: float
        """Input."""

        @property
        def result(self) -> float:
            """Computed two calls away."""
            return helpers.outer(self.x) * constants.SCALE


    @dataclass(frozen=True, kw_only=True)
    class Private:
        """Reaches a helper through a private method."""

        x: float
        """Input."""

        @property
        def result(self) -> float:
            """Computed by a private method."""
            return self._scaled()

        def _scaled(self) -> float:
            from chain.deep import scale

            return scale(self.x)


    @dataclass(frozen=True, kw_only=True)
    class Counted:
        """A figure in a unit the project defines."""

        n: float
        """Widgets."""

        @property
        def gadgets(self) -> float:
            """Widgets in gadgets."""
            return (self.n * ureg.widget).to("gadget").magnitude
'''
CHAIN_HELPERS = '''
    """Helpers that call helpers."""


    def outer(x: float) -> float:
        """One more than inner."""
        from chain.deep import inner

        return inner(x) + 1
'''
CHAIN_DEEP = '''
    """Helpers two calls away."""


    def inner(x: float) -> float:
        """Twice x."""
        return x * 2


    def untraced(function):
        """A decorator without functools.wraps."""

        def wrapper(x):
            return function(x)

        return wrapper


    @untraced
    def scale(x: float) -> float:
        """Ten times x."""
        return x * 10
'''
CHAIN_CONSTANTS = '''
    """Constants the registry reads."""

    RATE = 3.0
    SCALE = 1
'''
CHAIN_UNITS = '''
    """The project's own units."""

    from pathlib import Path

    import pint

    ureg = pint.UnitRegistry()
    ureg.load_definitions(Path(__file__).with_name("units.txt"))
'''
CHAIN_REGISTRY = '''
    """Named chains."""

    from chain.constants import RATE
    from chain.models import Counted, Direct, Private


    class Named:
        """Named scenarios."""

        One = Direct(x=RATE)
        Two = Private(x=1.0)
        Three = Counted(n=8.0)
'''


def write_chain(root: Path) -> ScenarioProject:
    """The chain package: helpers two calls away, constants, units and a registry."""
    project = write_scenario_project(
        root,
        "chain",
        {
            "models": CHAIN_MODELS,
            "helpers": CHAIN_HELPERS,
            "deep": CHAIN_DEEP,
            "constants": CHAIN_CONSTANTS,
            "units": CHAIN_UNITS,
            "registry": CHAIN_REGISTRY,
        },
        registry="registry.Named",
        documented=["models"],
    )
    (project.src / "chain" / "units.txt").write_text("widget = [widget]\ngadget = 2 widget\n")
    return project


@pytest.fixture
def chain(tmp_path: Path) -> ScenarioProject:
    project = write_chain(tmp_path)
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    return project


def chain_value(result: BuildResult, page: str, name: str) -> str:
    found = read_html(result.outdir / "reference" / "chain.models" / f"{page}.html")
    table = section(found, "Registry values").find("table")
    row = next(r for r in table.find_all("tr") if name in text(r.find(["th", "td"])))
    return last_figure(row)


def reference_texts(outdir: Path) -> dict[str, str]:
    """The main text of every reference page, by path."""
    return {
        path.relative_to(outdir).as_posix(): text(main(read_html(path)))
        for path in sorted((outdir / "reference").rglob("*.html"))
    }


def exported_files(outdir: Path) -> dict[str, str]:
    """The files built beside the pages: each page's Markdown, llms.txt, the registry's values."""
    paths = [*(outdir / "reference").rglob("*.md"), *(outdir / "reference").glob("registry.*")]
    paths = [p for p in paths if p.suffix != ".html"]
    return {
        path.relative_to(outdir).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted([*paths, outdir / "llms.txt"])
    }


def highlighted_sources(outdir: Path) -> dict[str, str]:
    """The main part of every highlighted source page (viewcode's), as HTML, by path."""
    return {
        path.relative_to(outdir).as_posix(): str(main(read_html(path)))
        for path in sorted((outdir / "_modules").rglob("*.html"))
    }


def search_index(outdir: Path) -> dict[str, object]:
    """What the search page knows: searchindex.js, read back as data."""
    return js_index.loads((outdir / "searchindex.js").read_text(encoding="utf-8"))


def assert_same_as_clean(project: ScenarioProject, result: BuildResult, *options: str) -> None:
    """``result``, an incremental build with ``options``, gives what a clean one gives."""
    outdir = project.root / "_build" / "clean"
    shutil.rmtree(outdir, ignore_errors=True)  # clean: nothing left from an earlier build
    clean = project.build("html", "-E", *options, outdir=outdir)
    assert reference_texts(result.outdir) == reference_texts(clean.outdir)
    assert exported_files(result.outdir) == exported_files(clean.outdir)
    assert highlighted_sources(result.outdir) == highlighted_sources(clean.outdir)
    assert search_index(result.outdir) == search_index(clean.outdir)
    assert sorted(result.warnings) == sorted(
        w.replace(str(clean.outdir), str(result.outdir)) for w in clean.warnings
    )
    assert result.returncode == clean.returncode


@pytest.mark.parametrize(
    ("module", "old", "new", "page", "name", "value"),
    [
        ("deep", "return x * 2", "return x * 5", "Direct", "result", "16"),
        ("deep", "return x * 10", "return x * 7", "Private", "result", "7"),
        ("constants", "RATE = 3.0", "RATE = 4.0", "Direct", "result", "9"),
        ("constants", "SCALE = 1", "SCALE = 2", "Direct", "result", "14"),
    ],
)
def test_an_edit_anywhere_the_figures_reach_updates_them(
    chain: ScenarioProject, module: str, old: str, new: str, page: str, name: str, value: str
) -> None:
    """A helper two calls away in another module, one reached from a private method
    through a decorator without functools.wraps, a constant the registry's module
    imports and one read as ``module.NAME``; the pages that do not show it stay unread."""
    touch_edit(chain.module_path(module), old, new)
    result = chain.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert chain_value(result, page, name) == value
    assert reread(result) <= {f"reference/chain.models/{page}", "reference/chain.models/index"}
    assert_same_as_clean(chain, result)


def test_a_unit_definitions_file_is_part_of_the_figures(chain: ScenarioProject) -> None:
    assert chain_value(chain.build("html"), "Counted", "gadgets") == "4"
    units = chain.src / "chain" / "units.txt"
    units.write_text(units.read_text().replace("gadget = 2 widget", "gadget = 4 widget"))
    result = chain.build("html", "-W")
    assert chain_value(result, "Counted", "gadgets") == "2"
    assert "reference/chain.models/Direct" not in reread(result)
    assert_same_as_clean(chain, result)


def test_a_new_module_title_reaches_the_pages_of_its_classes(chain: ScenarioProject) -> None:
    """A class page names its category, the module docstring's title."""
    touch_edit(chain.module_path("models"), '"""Chained scenarios', '"""Linked scenarios')
    result = chain.build("html", "-W")
    page = read_html(result.outdir / "reference" / "chain.models" / "Direct.html")
    assert "Linked scenarios" in text(main(page).find("p", class_="refgen-provenance"))
    assert_same_as_clean(chain, result)


def test_a_touch_without_a_change_rereads_nothing(chain: ScenarioProject) -> None:
    for name in ("models", "helpers", "deep", "constants", "registry"):
        touch_edit(chain.module_path(name), "", "")
    result = chain.build("html", "-W")
    assert reread(result) == set()


def test_a_deleted_class_loses_its_page(chain: ScenarioProject) -> None:
    models = chain.module_path("models")
    source = models.read_text()
    start = source.index("@dataclass(frozen=True, kw_only=True)\nclass Counted")
    models.write_text(source[:start])
    registry = chain.module_path("registry")
    touch_edit(registry, "    Three = Counted(n=8.0)\n", "")
    touch_edit(registry, "Counted, ", "")
    result = chain.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert not (result.outdir / "reference" / "chain.models" / "Counted.html").exists()
    assert not (chain.docs / "reference" / "chain.models" / "Counted.rst").exists()
    assert_same_as_clean(chain, result)


def pages_indexed_under(result: BuildResult, entry: str) -> list[str]:
    """The pages the search page offers for a general-index entry."""
    index = search_index(result.outdir)
    return [index["docnames"][place[0]] for place in index["indexentries"].get(entry, [])]


def test_the_search_page_still_finds_classes_whose_pages_were_not_rewritten(
    chain: ScenarioProject,
) -> None:
    """Sphinx's own incremental build forgets the index entries of every page it does
    not write (sphinx-doc/sphinx#12599); refgen's gives them back."""
    touch_edit(chain.module_path("deep"), "return x * 2", "return x * 5")
    result = chain.build("html", "-W")
    assert "reference/chain.models/Counted" not in reread(result)
    assert pages_indexed_under(result, "counted (class in chain.models)") == [
        "reference/chain.models/Counted"
    ]
    assert pages_indexed_under(result, "direct (class in chain.models)") == [
        "reference/chain.models/Direct"
    ]


def test_a_malformed_entry_of_the_previous_index_loses_only_itself() -> None:
    frozen = {
        "docnames": ["a", "b"],
        "indexentries": {
            "widget": [[0, "w", False], [999, "x", False], ["a", "b"]],
            "gadget": [[1, "g", True]],
            "broken": "not a list",
        },
    }
    assert index_entries_by_page(frozen) == {
        "a": [("widget", "w", "")],
        "b": [("gadget", "g", "main")],
    }


@pytest.mark.parametrize("previous", ["Search.setIndex({not json", 'Search.setIndex({"a":1})'])
def test_an_unreadable_search_index_is_written_anew(chain: ScenarioProject, previous: str) -> None:
    """The previous index is only read back: one Sphinx cannot read, or of another
    shape, gives no entries back and stops nothing."""
    (chain.root / "_build" / "html" / "searchindex.js").write_text(previous)
    touch_edit(chain.module_path("deep"), "return x * 2", "return x * 5")
    result = chain.build("html")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert pages_indexed_under(result, "direct (class in chain.models)") == [
        "reference/chain.models/Direct"
    ]


def test_a_new_reference_folder_leaves_no_stale_stubs(chain: ScenarioProject) -> None:
    conf = chain.docs / "conf.py"
    conf.write_text(conf.read_text() + 'refgen_root = "api"\n')
    index = chain.docs / "index.rst"
    index.write_text(index.read_text().replace("reference/index", "api/index"))
    result = chain.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert not list((chain.docs / "reference").rglob("*.rst"))
    assert (chain.docs / "api" / "chain.models" / "Direct.rst").exists()


def test_an_incremental_strict_build_fails_like_a_clean_one(chain: ScenarioProject) -> None:
    touch_edit(
        chain.module_path("models"),
        '"""Reaches a helper through a private method."""\n',
        '"""Reaches a helper through a private method.\n\n'
        '    Notse\n    -----\n    Misspelt.\n    """\n',
    )
    failed = chain.build("html", "-W", "--keep-going")
    assert failed.returncode == 1
    [warning] = [w for w in failed.warnings if "[refgen." in w]
    again = chain.build("html", "-W", "--keep-going")
    assert reread(again) == set()
    assert again.returncode == 1
    assert [w for w in again.warnings if "[refgen." in w] == [warning]


# ---------------------------------------------------------------------- edits

NEW_CLASS = '''

@dataclass(frozen=True, kw_only=True)
class {name}:
    """An added scenario."""

    y: float = {value}
    """Input."""

    @property
    def half(self) -> float:
        """Half of y."""
        return self.y / 2
'''


def _replace_number(path: Path, pattern: str, value: int) -> None:
    path.write_text(re.sub(pattern, lambda m: f"{m.group(1)}{value}", path.read_text()))


def apply_edit(project: ScenarioProject, edit: tuple[str, int], added: list[str]) -> None:
    """One edit a user makes; ``added`` lists the classes added so far, in order."""
    kind, value = edit
    models = project.module_path("models")
    if kind == "helper":
        _replace_number(project.module_path("deep"), r"(return x \* )\d+", value)
    elif kind == "transitive":
        _replace_number(project.module_path("helpers"), r"(return inner\(x\) \+ )\d+", value)
    elif kind == "docstring":
        source = models.read_text()
        models.write_text(re.sub(r"Widgets in \w+", f"Widgets in gadgets{value}", source))
    elif kind == "entry":
        _replace_number(project.module_path("registry"), r"(Two = Private\(x=)\d+", value)
    elif kind == "units":
        units = project.src / "chain" / "units.txt"
        units.write_text(f"widget = [widget]\ngadget = {value} widget\n")
    elif kind == "add":
        name = f"Added{len(added)}{value}"
        models.write_text(models.read_text() + NEW_CLASS.format(name=name, value=value))
        added.append(name)
    elif kind == "rename" and added:
        old, new = added[-1], f"Renamed{value}{added[-1]}"
        models.write_text(models.read_text().replace(f"class {old}:", f"class {new}:"))
        added[-1] = new
    elif kind == "delete" and added:
        source = models.read_text()
        start = source.index(f"\n\n@dataclass(frozen=True, kw_only=True)\nclass {added.pop()}:")
        end = source.find("\n\n@dataclass", start + 2)
        models.write_text(source[:start] + (source[end:] if end != -1 else "\n"))


def test_an_unchanged_build_writes_no_highlighted_source_again(chain: ScenarioProject) -> None:
    """viewcode highlights a module again only when its file changed."""
    highlighted = chain.root / "_build" / "html" / "_modules"
    pages = sorted(p for p in highlighted.rglob("*.html") if p.name != "index.html")
    assert pages  # the module index is listed again at every build; it highlights nothing
    before = {page: page.stat().st_mtime_ns for page in pages}
    result = chain.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert {page: page.stat().st_mtime_ns for page in pages} == before


def test_highlighted_source_follows_an_edit_no_page_shows(chain: ScenarioProject) -> None:
    models = chain.module_path("models")
    models.write_text(models.read_text() + "\n# A note for readers of the source.\n")
    result = chain.build("html", "-W")
    assert reread(result) == set()
    highlighted = result.outdir / "_modules" / "chain" / "models.html"
    assert "A note for readers of the source." in text(read_html(highlighted))


EXAMPLES_ONLY = '''
    """Boxes"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Box:
        """A box.

        Examples
        --------
        >>> from boxes.helpers import double
        >>> double(2)
        4
        """

        size: float = 1.0
        """Edge."""
'''
EXAMPLES_HELPERS = '''
    """Helpers"""


    def double(x: float) -> float:
        """Twice x."""
        return x * 2
'''
MODULE_REGISTRY = '''
    """Named boxes, at module level."""

    from boxes.models import Box

    Small = Box(size=2.0)
'''


def write_boxes(root: Path, models: str = EXAMPLES_ONLY, conf_extra: str = "") -> ScenarioProject:
    """The boxes package: a class whose example calls a helper, a module registry."""
    return write_scenario_project(
        root,
        "boxes",
        {"models": models, "helpers": EXAMPLES_HELPERS, "named": MODULE_REGISTRY},
        registry="named",
        documented=["models"],
        conf_extra=conf_extra,
    )


def test_examples_run_again_when_what_they_call_changes(tmp_path: Path) -> None:
    """The example calls a helper the class does not: the page is the same, the
    example is not, and an incremental -W build fails as a clean one does."""
    project = write_boxes(tmp_path)
    assert project.build("html", "-W").returncode == 0
    touch_edit(project.module_path("helpers"), "return x * 2", "return x * 3")
    failed = project.build("html", "-W", "--keep-going")
    assert failed.returncode == 1
    assert any("example of boxes.models.Box failed" in w for w in failed.warnings)
    assert_same_as_clean(project, failed, "-W", "--keep-going")
    touch_edit(project.module_path("helpers"), "return x * 3", "return x * 2")
    fixed = project.build("html", "-W", "--keep-going")
    assert fixed.returncode == 0, fixed.stderr


def test_a_module_registry_entry_edit_updates_its_class(tmp_path: Path) -> None:
    project = write_boxes(tmp_path)
    assert project.build("html", "-W").returncode == 0
    touch_edit(project.module_path("named"), "Box(size=2.0)", "Box(size=5.0)")
    result = project.build("html", "-W")
    assert "reference/boxes.models/Box" in reread(result)
    assert_same_as_clean(project, result)


SIBLING_MODELS = '''
    """Sibling scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Scaled:
        """Uses a helper from a module next to the package."""

        x: float = 1.0
        """Input."""

        @property
        def scaled(self) -> float:
            """x times the shared factor."""
            from shared_util import factor

            return self.x * factor()
'''
SIBLING_REGISTRY = '''
    """Named."""

    from sib.models import Scaled


    class Named:
        """Named scenarios."""

        One = Scaled(x=2.0)
'''


def test_a_helper_in_a_module_beside_the_package_is_followed(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path,
        "sib",
        {"models": SIBLING_MODELS, "registry": SIBLING_REGISTRY},
        registry="registry.Named",
        documented=["models"],
    )
    shared = project.src / "shared_util.py"
    shared.write_text("def factor() -> float:\n    return 3.0\n")
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    touch_edit(shared, "return 3.0", "return 5.0")
    result = project.build("html", "-W")
    page = read_html(result.outdir / "reference" / "sib.models" / "Scaled.html")
    table = section(page, "Registry values").find("table")
    assert "10" in text(table)
    assert_same_as_clean(project, result)


def test_a_missing_link_target_fails_an_unchanged_strict_build_too(tmp_path: Path) -> None:
    """A ``nitpicky`` warning is given while links are resolved for writing: an
    unchanged page is not written again, and its warning is shown all the same."""
    models = EXAMPLES_ONLY.replace('"""A box.', '"""A box, see :py:func:`boxes.nowhere`.')
    project = write_boxes(tmp_path, models, conf_extra="nitpicky = True\n")
    first = project.build("html", "-W", "--keep-going")
    assert first.returncode == 1
    missing = sorted(w for w in first.warnings if "boxes.nowhere" in w)
    assert missing
    again = project.build("html", "-W", "--keep-going")
    assert reread(again) == set()
    assert again.returncode == 1
    assert sorted(w for w in again.warnings if "boxes.nowhere" in w) == missing


def test_a_new_page_model_rereads_every_page(
    travel: ScenarioProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stored doctrees hold page-model tables: when their definition changes, no page
    # (a hand-written one included) may be written from a table of the old shape.
    monkeypatch.setattr(
        "refgen.sphinx.extension.page_model_version", lambda: page_model_version() + 1
    )
    result = travel.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert {"story", "reference/travel.motion/Trip"} <= reread(result)


OLD_MODELS = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class Old:
    """Kept for an old entry; not documented."""

    size: int = 1
'''

NEW_MODELS = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    """A box."""

    side: float = 2.0
    """Its side."""

    @property
    def volume(self) -> float:
        """Its volume."""
        return self.side**3
'''

MIXED_REGISTRY = '''
from mixed.models import Box
from mixed.legacy import Old


class Named:
    Cube = Box(side=3.0)
    """A cube."""
    Relic = Old(size=2)
    """An entry of a class no page documents."""
'''


def test_a_module_only_a_registry_value_leads_to_is_listed_as_a_clean_build_lists_it(
    tmp_path: Path,
) -> None:
    """viewcode follows a registry entry to its class's module and notes that module with
    nothing documented in it; it forgets such a module whenever any page is read again.
    refgen forgets it in every build, so the module index is the same either way."""
    project = write_scenario_project(
        tmp_path,
        "mixed",
        {"models": NEW_MODELS, "legacy": OLD_MODELS, "registry": MIXED_REGISTRY},
        registry="registry.Named",
        documented=["models"],
    )
    first = project.build("html", "--keep-going")
    assert first.returncode == 0, first.stderr
    touch_edit(project.module_path("models"), "self.side**3", "self.side * self.side**2")
    result = project.build("html", "--keep-going")
    assert reread(result) == {"reference/mixed.models/Box"}
    assert_same_as_clean(project, result, "--keep-going")
    assert "mixed.legacy" not in (result.outdir / "_modules" / "index.html").read_text()


def html_pages(outdir: Path) -> dict[str, str]:
    """Every HTML page of the site, whole: navigation, neighbours and all."""
    return {
        path.relative_to(outdir).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(outdir.rglob("*.html"))
    }


GUIDE = """\
Guide
=====

Hand-written.

Part
----

Detail
~~~~~~
"""


def site_edit(project: ScenarioProject, edit: str, added: list[str]) -> None:
    """An edit that moves pages in the site: a class added or deleted, a page retitled,
    a section moved up a level, a toctree given a caption or numbers."""
    guide = project.docs / "guide.rst"
    if edit == "retitle":
        guide.write_text(guide.read_text().replace("Guide\n=====", "Guide Two\n========="))
    elif edit == "promote":
        guide.write_text(guide.read_text().replace("Detail\n~~~~~~", "Detail\n------"))
    elif edit in ("caption", "numbered"):
        index = project.docs / "index.rst"
        option = ":caption: Contents" if edit == "caption" else ":numbered:"
        toctree = ".. toctree::\n"
        index.write_text(index.read_text().replace(toctree, f"{toctree}   {option}\n"))
    else:
        apply_edit(project, (edit, 3), added)


def write_site(root: Path, conf: str) -> ScenarioProject:
    """The chain project with a hand-written page before the reference."""
    project = write_chain(root)
    (project.docs / "conf.py").write_text((project.docs / "conf.py").read_text() + conf)
    (project.docs / "guide.rst").write_text(GUIDE)
    index = project.docs / "index.rst"
    index.write_text(index.read_text().replace("reference/index", "guide\n   reference/index"))
    return project


@pytest.mark.parametrize(
    "conf",
    [
        "html_theme = 'furo'\n",
        "html_theme = 'alabaster'\nhtml_theme_options = {'sidebar_collapse': False}\n",
    ],
    ids=["furo", "alabaster"],
)
def test_pages_whose_place_in_the_site_changed_are_written_again(tmp_path: Path, conf: str) -> None:
    """A class added or deleted, a page retitled, a section moved or a toctree's options
    changed changes every sidebar that copies the contents tree (highlighted source pages
    too) and the previous and next links of the neighbours: an incremental build writes
    those pages again, so each page equals a clean build's, byte for byte."""
    project = write_site(tmp_path, conf)
    assert project.build("html", "-W").returncode == 0
    added: list[str] = []
    for edit in ["add", "retitle", "promote", "caption", "numbered", "delete"]:
        site_edit(project, edit, added)
        result = project.build("html", "-W")
        assert result.returncode == 0, result.stderr
        clean = project.build("html", "-E", "-W", outdir=tmp_path / f"clean-{edit}")
        assert html_pages(result.outdir) == html_pages(clean.outdir), edit


def test_each_html_builder_sharing_the_environment_writes_what_it_missed(
    tmp_path: Path,
) -> None:
    """``sphinx-build -M`` keeps one environment for every builder: a text build that reads
    the edit leaves the next HTML build to write the pages the edit moved."""
    project = write_site(tmp_path, "html_theme = 'furo'\n")
    doctrees = ("-d", str(tmp_path / "_build" / "doctrees"))
    assert project.build("html", *doctrees).returncode == 0
    site_edit(project, "add", [])
    assert project.build("text", *doctrees).returncode == 0
    result = project.build("html", *doctrees)
    clean = project.build("html", "-E", outdir=tmp_path / "clean")
    assert html_pages(result.outdir) == html_pages(clean.outdir)


def test_a_deleted_class_leaves_no_file_or_folder_under_dirhtml_or_text(
    chain: ScenarioProject,
) -> None:
    for builder in ("dirhtml", "text"):
        assert chain.build(builder, "-W").returncode == 0
    added: list[str] = []
    apply_edit(chain, ("add", 3), added)
    for builder in ("dirhtml", "text"):
        assert chain.build(builder, "-W").returncode == 0
    apply_edit(chain, ("delete", 1), added)
    for builder, leftover in (("dirhtml", "Added03"), ("text", "Added03.txt")):
        result = chain.build(builder, "-W")
        assert result.returncode == 0, result.stderr
        assert not (result.outdir / "reference" / "chain.models" / leftover).exists(), builder
