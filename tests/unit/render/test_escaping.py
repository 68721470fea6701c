"""The one escaping path: data reaches HTML, SVG and MathML as text, never as markup."""

from __future__ import annotations

import pickle
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.render.blocks import Markup
from refgen.render.markup import element, escape, internal_href, parse, serialize, xml_safe
from refgen.render.mathml import assignment, expression_to_mathml
from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "`x <javascript:alert(1)>`_",
    ":download:`../../secret.txt`",
    "a & b \x1b[31m\x07\r",
]


@pytest.mark.parametrize("data", HOSTILE)
def test_escaped_text_holds_no_markup(data: str) -> None:
    shown = escape(data)
    assert "<" not in shown and ">" not in shown and '"' not in shown
    assert "\x1b" not in shown and "\x07" not in shown


@given(st.text())
def test_element_text_and_attributes_round_trip_as_data(data: str) -> None:
    made = element("g", element("title", text=data), label=data)
    parsed = ET.fromstring(serialize(made))
    assert parsed.get("label") == xml_safe(data)
    title = parsed.find("title")
    assert title is not None and len(title) == 0  # no element came out of the data
    assert (title.text or "") == xml_safe(data).replace("\r\n", "\n").replace("\r", "\n")


@given(st.text())
def test_serialized_data_never_opens_a_tag(data: str) -> None:
    parsed = ET.fromstring(serialize(element("math", element("mi", text=data))))
    assert [child.tag for child in parsed.iter()] == ["math", "mi"]


TREES = st.recursive(
    st.builds(lambda text: element("mi", text=text), st.text()),
    lambda children: st.builds(
        lambda kids, label, tail: _with_tail(element("mrow", *kids, label=label), tail),
        st.lists(children, max_size=3),
        st.text(),
        st.text(),
    ),
    max_leaves=8,
)


def _with_tail(made: ET.Element, tail: str) -> ET.Element:
    for child in made:
        child.tail = xml_safe(tail)
    return made


@given(TREES)
def test_parse_reads_back_the_tree_serialize_wrote(tree: ET.Element) -> None:
    tree.set("xmlns", "http://www.w3.org/1998/Math/MathML")
    written = serialize(tree)
    as_read = written.replace("\r\n", "\n").replace("\r", "\n")  # as any XML reader sees it
    assert serialize(parse(written)) == as_read


@given(TREES)
def test_markup_made_in_another_process_comes_back_as_the_same_markup(tree: ET.Element) -> None:
    made = Markup(tree, ("refgen-math",), searchable=False)
    shipped = pickle.dumps(made)
    assert b"ElementTree" not in shipped  # pickled as its markup, not as an element tree
    back = pickle.loads(shipped)
    assert (back.markup, back.classes, back.searchable) == (serialize(tree), made.classes, False)
    assert serialize(back.element) == serialize(parse(serialize(tree)))


@pytest.mark.parametrize("data", HOSTILE)
def test_an_equation_string_literal_is_text_in_mathml(data: str) -> None:
    result = expression_to_mathml(f"table[{data!r}]")
    shown = result.mathml or ""
    assert "<img" not in shown and "<script" not in shown
    assignment_result = assignment(data, expression_to_mathml("a + b"))
    root = ET.fromstring(assignment_result.mathml or "")
    assert [child.tag.rpartition("}")[2] for child in root][:2] == ["mi", "mo"]
    assert root[0].text is not None and "<img" not in serialize(root[0]).replace("&lt;img", "")


@pytest.mark.parametrize("anchor", ['x" onload="y', "a b", "a<b"])
def test_links_in_drawings_only_point_into_the_page(anchor: str) -> None:
    with pytest.raises(ValueError, match="not an anchor"):
        internal_href(anchor)
    assert internal_href("pkg.Class.step_time") == "#pkg.Class.step_time"
    assert internal_href("javascript:alert(1)").startswith("#")  # a fragment, never a URL


# --------------------------------------------------------------------------- in a built site

HOSTILE_MODULE = '''
    """Hostile scenarios

    Values and source whose text looks like markup.
    """

    from dataclasses import dataclass

    MARKUP = "`x <javascript:alert(1)>`_ <img src=x onerror=alert(1)> :download:`../../secret.txt`"


    def lookup(label):
        """Look a label up.

        Returns
        -------
        str
        """
        table = {}
        table["<img src=x onerror=alert(2)>"] = label
        return table["<img src=x onerror=alert(2)>"]


    class BadMessage(Exception):
        def __str__(self):
            raise RuntimeError("the message itself fails")


    @dataclass(frozen=True)
    class Hostile:
        """A scenario whose figures are markup-like strings.

        Examples
        --------
        >>> from pkgh.registry import Named
        >>> print(Named.Evil.label)  # doctest: +ELLIPSIS
        `x <javascript:alert(1)>`_ ...
        """

        name: str = "<img src=x onerror=alert(3)>"
        """A name with a default that looks like HTML."""

        @property
        def label(self) -> str:
            """The label, as computed."""
            return MARKUP

        @property
        def tagged(self) -> str:
            """A literal in the equation."""
            return self.name + "<img src=x onerror=alert(4)>"

        @property
        def quoted(self) -> str:
            """The "quoted" figure's straight quotes, double dash and dots, as computed."""
            return '"straight"' + " and 'single' -- then..."

        @property
        def unprintable(self) -> float:
            """Raises an error whose own message raises."""
            raise BadMessage()

        @property
        def looked_up(self) -> str:
            """Through a helper."""
            return lookup(self.name)
'''

HOSTILE_REGISTRY = '''
    from pkgh.hostile import Hostile


    class Named:
        """Named scenarios."""

        Evil = Hostile(name="<script>alert(5)</script>")
        """An entry whose input is markup."""
'''


@pytest.fixture(scope="module")
def hostile_project(tmp_path_factory: pytest.TempPathFactory) -> ScenarioProject:
    return write_scenario_project(
        tmp_path_factory.mktemp("hostile"),
        "pkgh",
        {"hostile": HOSTILE_MODULE, "registry": HOSTILE_REGISTRY},
        registry="registry.Named",
    )


@pytest.fixture(scope="module")
def hostile_site(hostile_project: ScenarioProject) -> Path:
    project = hostile_project
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    # The one warning: the property whose error cannot even describe itself.
    [warning] = result.warnings
    assert "Hostile.unprintable cannot be computed" in warning
    assert "BadMessage: (its message cannot be shown: str() failed)" in warning
    assert warning.startswith(f"{project.module_path('hostile')}:")
    return result.outdir


def _pages(outdir: Path) -> list[Path]:
    return [p for p in outdir.rglob("*.html") if "_modules" not in p.parts]


def test_markup_in_values_defaults_and_equations_is_shown_as_text(hostile_site: Path) -> None:
    page = read_html(hostile_site / "reference" / "pkgh.hostile" / "Hostile.html")
    shown = page.get_text()
    assert "<img src=x onerror=alert(1)>" in shown  # the computed value, as text
    assert "<img src=x onerror=alert(3)>" in shown  # the declared default
    assert "<img src=x onerror=alert(4)>" in shown  # the equation's string literal
    assert "<script>alert(5)</script>" in shown  # the registry input
    for pages in _pages(hostile_site):
        html = read_html(pages)
        assert not html.find_all("img", onerror=True), pages
        assert not html.find_all("script", string=lambda s: s and "alert" in s), pages
        hrefs = [a.get("href", "") for a in html.find_all("a")]
        assert not [h for h in hrefs if "javascript:" in h], pages


def test_values_are_shown_exactly_as_computed(hostile_site: Path) -> None:
    page = read_html(hostile_site / "reference" / "pkgh.hostile" / "Hostile.html")
    values = page.find("table", class_="refgen-values").get_text()
    assert "\"straight\" and 'single' -- then..." in values  # no curly quotes or dashes


def test_prose_gets_smart_quotes_and_values_keep_theirs(hostile_site: Path) -> None:
    page = read_html(hostile_site / "reference" / "pkgh.hostile" / "Hostile.html")
    shown = page.get_text()
    assert "The \u201cquoted\u201d figure\u2019s straight quotes" in shown
    assert "\"straight\" and 'single' -- then..." in shown


def test_without_smart_quotes_prose_keeps_straight_ones(hostile_project: ScenarioProject) -> None:
    result = hostile_project.build(
        "html", "-D", "smartquotes=0", outdir=hostile_project.root / "_build" / "straight"
    )
    page = read_html(result.outdir / "reference" / "pkgh.hostile" / "Hostile.html")
    assert "The \"quoted\" figure's straight quotes" in page.get_text()


def test_a_markup_headline_on_the_category_page_is_text(hostile_site: Path) -> None:
    page = read_html(hostile_site / "reference" / "pkgh.hostile" / "index.html")
    table = page.find("table", class_="refgen-category")
    assert "`x <javascript:alert(1)>`_" in table.get_text()
    assert not table.find_all("img")


def test_no_value_makes_the_build_publish_a_file(hostile_site: Path) -> None:
    assert not list(hostile_site.rglob("secret.txt"))
    assert not (hostile_site / "_downloads").exists()


def test_terminal_text_carries_no_control_characters() -> None:
    from refgen.analysis.model import SourceLocation
    from refgen.render.blocks import Page, Paragraph, Prose, Table, Text
    from refgen.render.text import TextWriter

    hostile = "red\x1b[31m bell\x07 back\r over"
    page = Page(
        hostile,
        (
            Paragraph((Text(hostile),)),
            Prose(hostile),
            Table(((Paragraph((Text(hostile),)),),), (((Paragraph((Text(hostile),)),),),)),
        ),
        SourceLocation("x.py", 1),
    )
    shown = TextWriter().page(page)
    assert not [c for c in shown if ord(c) < 32 and c != "\n"], repr(shown)
    assert "red\ufffd[31m bell\ufffd" in shown
