"""Reading built pages: parsed HTML and the parts of a refgen page."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup, Tag

SECTIONS = [
    "Inputs",
    "Derived attributes",
    "Registry values",
    "Sensitivity",
    "Notes",
    "References",
    "Examples",
    "Data flow",
]
"""The h2 sections of a class page, in order."""


def read_html(path: Path) -> BeautifulSoup:
    """A built page, parsed; the line-break hints inside names (``<wbr>``) dropped so that
    a name reads as one string, as it copies from the browser."""
    page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    for hint in page.find_all("wbr"):
        hint.decompose()
    page.smooth()
    return page


def text(node: Tag) -> str:
    """The visible text of ``node`` with whitespace folded."""
    return " ".join(node.get_text(" ").split())


def heading_text(heading: Tag) -> str:
    return heading.get_text().rstrip("¶").strip()


def main(page: BeautifulSoup) -> Tag:
    """The page's content area, without navigation."""
    found = page.select_one("div.body, article[role=main], main")
    assert found is not None, "page has no content area"
    return found


def section(page: BeautifulSoup, title: str) -> Tag:
    """The ``section`` element headed ``title``."""
    for heading in main(page).find_all(["h2", "h3"]):
        if heading_text(heading) == title:
            return heading.parent
    raise AssertionError(f"no section titled {title!r}")


def field_values(container: Tag) -> dict[str, Tag]:
    """Every field list item under ``container``: field name -> value element."""
    fields = {}
    for field_list in container.find_all("dl", class_="field-list"):
        for dt in field_list.find_all("dt", recursive=False):
            fields[dt.get_text().rstrip(":").strip()] = dt.find_next_sibling("dd")
    return fields


def row_cells(page: BeautifulSoup | Tag, anchor: str) -> dict[str, Tag]:
    """The table row of the object whose link target is ``anchor``: heading -> cell."""
    target = page.find(id=anchor)
    assert target is not None, f"no target {anchor!r}"
    row = target.find_parent("tr")
    assert row is not None, f"{anchor!r} is not in a table row"
    headings = [text(th) for th in row.find_parent("table").find("thead").find_all("th")]
    cells = row.find_all(["th", "td"], recursive=False)
    return dict(zip(headings, cells, strict=True))


def last_figure(row: Tag) -> str:
    """The last entry's figure in a Registry values row: its number cell and unit cell."""
    number, unit = row.find_all("td")[-2:]
    return " ".join(filter(None, (number.get_text("").strip(), unit.get_text("").strip())))
