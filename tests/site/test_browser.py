"""The site as a reader meets it: the built pages in headless Chromium.

The site is built as the README builds it, served from 127.0.0.1 by a local
http.server, and opened in Debian's Chromium through Playwright. Every request
to another host is blocked and fails the test: the site must need no network.
Without /usr/bin/chromium or the playwright package the browser tests skip;
the accessibility check over every page on disk still runs.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

from refgen.testing import BuildResult
from tests.conftest import REPO
from tests.html_helpers import SECTIONS

ARTIFACTS = REPO / "test-artifacts"
SCENARIO_PAGE = "reference/refgen_scenarios.training/UpdateWorkingSetScenario.html"
STEP_FLOOR = "refgen_scenarios.training.UpdateWorkingSetScenario.step_floor"
DESKTOP = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}


DIAGRAM_LOOK = """() => {
    const style = selector => getComputedStyle(document.querySelector(selector));
    return {
        edge: style('.refgen-diagram .refgen-edge').fill,
        input: style('.refgen-diagram .refgen-input rect').fill,
        derived: style('.refgen-diagram .refgen-derived rect').fill,
        font: style('.refgen-diagram text').fontFamily,
        text: style('.refgen-diagram text').fill,
        arrowhead: style('.refgen-diagram .refgen-arrowhead').fill,
        underline: style('.refgen-diagram a.refgen-node').textDecorationLine,
    };
}"""
"""The data-flow diagram's computed look, which refgen.css gives it."""


# Accessibility basics, one rule set for pages on disk and pages in the browser.


def accessibility_problems(html: str) -> list[str]:
    """What a page gets wrong of the basics: one h1, table headers, image text.

    Inline SVG is checked in the content area (``article[role=main]``), where
    the markup is ours and refgen's; the theme's decorative icons sit in
    controls that carry their own labels.
    """
    page = BeautifulSoup(html, "html.parser")
    problems = []
    h1_count = len(page.find_all("h1"))
    if h1_count != 1:
        problems.append(f"{h1_count} h1 elements, not one")
    for table in page.find_all("table"):
        if table.find("th") is None:
            problems.append(f"table without header cells: {_describe(table)}")
    for img in page.find_all("img"):
        if not (img.get("alt") or "").strip():
            problems.append(f"img without alt text: {img.get('src')}")
    content = page.select_one("article[role=main]") or page
    for svg in content.find_all("svg"):
        if svg.find_parent("svg") is not None:
            continue
        title = svg.find("title", recursive=False)
        label = (svg.get("aria-label") or "").strip() or (title.get_text().strip() if title else "")
        if svg.get("role") != "img" or not label:
            problems.append(f"svg without role=img and a label: {_describe(svg)}")
    return problems


def _describe(node: Any) -> str:
    return f"<{node.name} id={node.get('id')!r} class={node.get('class')!r}>"


def test_every_built_page_meets_the_accessibility_basics(site: BuildResult) -> None:
    assert site.returncode == 0, site.stderr
    pages = sorted(site.outdir.rglob("*.html"))
    assert len(pages) > 20
    found = {
        page.relative_to(site.outdir).as_posix(): problems
        for page in pages
        if (problems := accessibility_problems(page.read_text(encoding="utf-8")))
    }
    assert not found


# The browser.


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(site: BuildResult) -> Iterator[str]:
    """The built site, served on an ephemeral port of 127.0.0.1 until the module ends."""
    assert site.returncode == 0, site.stderr
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(_QuietHandler, directory=str(site.outdir))
    )
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class Reader:
    """One browser tab on the local site, recording what must not happen.

    Requests to any host but 127.0.0.1 are aborted and listed in ``offsite``;
    console errors and uncaught exceptions go to ``errors``; every page opened
    is checked for the accessibility basics, its problems kept in ``problems``.
    """

    def __init__(self, browser: Any, base_url: str, viewport: dict[str, int]) -> None:
        self.base_url = base_url
        self.offsite: list[str] = []
        self.errors: list[str] = []
        self.problems: dict[str, list[str]] = {}
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.page.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"{self.page.url}: {error}"))

    def _route(self, route: Any) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in ("data", "blob") or url.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.offsite.append(route.request.url)
            route.abort("blockedbyclient")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"{self.page.url}: {message.text}")

    def open(self, path: str) -> Any:
        self.page.goto(self.base_url + path, wait_until="load")
        if self.page.locator("div.highlight pre").count():
            # sphinx-copybutton adds its buttons once its clipboard script has
            # loaded; check the page as the reader gets it, buttons included.
            self.page.locator("button.copybtn").first.wait_for(state="attached")
        self.check_page()
        return self.page

    def check_page(self) -> None:
        """The accessibility basics on the page as the browser holds it now."""
        problems = accessibility_problems(self.page.content())
        if problems:
            self.problems[self.page.url] = problems

    def assert_clean(self) -> None:
        assert not self.offsite, f"the site asked for the network: {self.offsite}"
        assert not self.errors, f"console errors: {self.errors}"
        assert not self.problems, f"accessibility problems: {self.problems}"

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def reader(chromium: Any, base_url: str) -> Iterator[Reader]:
    tab = Reader(chromium, base_url, DESKTOP)
    yield tab
    tab.close()


def test_requests_off_the_machine_are_caught(reader: Reader) -> None:
    """The guard itself: a request to another host is aborted and recorded."""
    page = reader.open("index.html")
    outcome = page.evaluate(
        "() => fetch('http://offsite.invalid/x.js').then(() => 'loaded', () => 'blocked')"
    )
    assert outcome == "blocked"
    assert reader.offsite == ["http://offsite.invalid/x.js"]


def test_scenario_page_shows_its_sections_and_renders_its_math(reader: Reader) -> None:
    from playwright.sync_api import expect

    page = reader.open(SCENARIO_PAGE)
    expect(page.locator("article h1")).to_have_text(re.compile(r"^UpdateWorkingSetScenario"))
    for title in SECTIONS:
        heading = page.locator("article h2").filter(has_text=re.compile(rf"^\s*{title}\W*$"))
        expect(heading).to_have_count(1)
        expect(heading).to_be_visible()

    math = page.locator(".refgen-math math").first
    box = math.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0

    fraction = page.locator(".refgen-math mfrac").first
    fraction.scroll_into_view_if_needed()
    height = fraction.bounding_box()["height"]
    line = fraction.evaluate(
        """fraction => {
            const block = fraction.closest('.refgen-math');
            const style = getComputedStyle(block);
            const line = parseFloat(style.lineHeight);
            return Number.isNaN(line) ? 1.2 * parseFloat(style.fontSize) : line;
        }"""
    )
    # Laid out as MathML, numerator stands over denominator; as plain text it
    # would be one line high.
    assert height > line, f"fraction is {height}px high, a line is {line}px"

    # The diagram's look comes from refgen.css: unfilled edges, tinted boxes.
    styles = page.evaluate(DIAGRAM_LOOK)
    assert {key: styles[key] for key in ("edge", "input", "derived", "font")} == {
        "edge": "none",
        "input": "rgb(219, 234, 254)",
        "derived": "rgb(254, 243, 199)",
        "font": "monospace",
    }
    reader.assert_clean()


def test_search_finds_the_scenario_page(reader: Reader) -> None:
    page = reader.open("search.html?q=amplification")
    hit = page.locator(f'#search-results a[href*="{SCENARIO_PAGE}"]').first
    hit.wait_for(state="visible", timeout=15_000)
    reader.check_page()
    reader.assert_clean()


def test_cross_reference_lands_on_the_attribute(reader: Reader) -> None:
    from playwright.sync_api import expect

    page = reader.open("live-values.html")
    page.locator(f'article a[href$="#{STEP_FLOOR}"]').first.click()
    page.wait_for_url(f"**/{SCENARIO_PAGE}#{STEP_FLOOR}")
    reader.check_page()
    assert urlsplit(page.url).fragment == STEP_FLOOR
    expect(page.locator(f'[id="{STEP_FLOOR}"]')).to_be_in_viewport()
    reader.assert_clean()


@pytest.mark.parametrize("name, viewport", [("desktop", DESKTOP), ("narrow", NARROW)])
def test_screenshot_of_the_scenario_page(
    chromium: Any, base_url: str, name: str, viewport: dict[str, int]
) -> None:
    tab = Reader(chromium, base_url, viewport)
    try:
        page = tab.open(SCENARIO_PAGE)
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"UpdateWorkingSetScenario-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
        # Nothing but the wide tables and the diagram, which scroll in their
        # own boxes, may push the page sideways.
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {viewport}"
        tab.assert_clean()
    finally:
        tab.close()


TALLEST_CLASS_PAGE = 6000
"""Pixels at 1280 px wide: everything is kept, but a page must stay scannable."""

BREAKS_OUTSIDE_NAMES = """() => {
    // Where a name shown as code wraps: the character after each line break.
    const found = [];
    for (const code of document.querySelectorAll('article code.refgen-identifier')) {
        const text = code.textContent;
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        let top = null, offset = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i++, offset++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getBoundingClientRect();
                if (!rect.width && !rect.height) continue;
                if (top !== null && rect.top > top + 2 && !'_.'.includes(text[offset - 1])) {
                    found.push(text.slice(0, offset) + '|' + text.slice(offset));
                }
                top = rect.top;
            }
        }
    }
    return found;
}"""


def class_pages(site: BuildResult) -> list[str]:
    pages = sorted(site.outdir.glob("reference/refgen_scenarios.*/*.html"))
    return [p.relative_to(site.outdir).as_posix() for p in pages if p.name != "index.html"]


@pytest.mark.parametrize("name, viewport", [("desktop", DESKTOP), ("narrow", NARROW)])
def test_no_class_page_scrolls_sideways_and_none_is_too_tall(
    chromium: Any, base_url: str, site: BuildResult, name: str, viewport: dict[str, int]
) -> None:
    tab = Reader(chromium, base_url, viewport)
    try:
        heights = {}
        for path in class_pages(site):
            page = tab.open(path)
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {viewport}"
            # The attribute tables fit the text column: a long equation scrolls in its box.
            wide = page.evaluate(
                """() => [...document.querySelectorAll('table.refgen-inputs, table.refgen-derived')]
                    .filter(table => table.scrollWidth > table.parentElement.clientWidth + 1)
                    .map(table => table.className)"""
            )
            assert wide == [], f"{path}: {wide} wider than the text at {viewport}"
            if viewport is DESKTOP:  # long equations wrap at their operators instead
                scrolling = page.evaluate(
                    """() => [...document.querySelectorAll('.refgen-math')]
                        .filter(box => box.scrollWidth > box.clientWidth + 1)
                        .map(box => box.textContent)"""
                )
                assert scrolling == [], f"{path}: equations scroll in their box: {scrolling}"
            heights[path] = page.evaluate("() => document.documentElement.scrollHeight")
        tallest = max(heights, key=heights.__getitem__)
        page = tab.open(tallest)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tallest-class-page-{name}.png"), full_page=True)
        if viewport is DESKTOP:
            assert heights[tallest] <= TALLEST_CLASS_PAGE, (tallest, heights[tallest])
        tab.assert_clean()
    finally:
        tab.close()


@pytest.mark.parametrize(
    "path",
    [SCENARIO_PAGE, "reference/refgen_scenarios.training/index.html", "reference/registry.html"],
)
def test_names_wrap_on_a_phone_only_after_underscores_and_dots(
    chromium: Any, base_url: str, path: str
) -> None:
    tab = Reader(chromium, base_url, NARROW)
    try:
        page = tab.open(path)
        assert page.locator("article code.refgen-identifier").count() > 0
        assert page.evaluate(BREAKS_OUTSIDE_NAMES) == []
        tab.assert_clean()
    finally:
        tab.close()


def test_attribute_tables_become_labelled_cards_on_a_phone(chromium: Any, base_url: str) -> None:
    tab = Reader(chromium, base_url, NARROW)
    try:
        page = tab.open(SCENARIO_PAGE)
        cards = page.evaluate(
            """() => [...document.querySelectorAll('table.refgen-inputs tbody tr')].map(row => {
                const cells = [...row.children];
                return {
                    fits: row.getBoundingClientRect().right <= document.documentElement.clientWidth,
                    stacked: cells[1].getBoundingClientRect().top
                        >= cells[0].getBoundingClientRect().bottom - 1,
                    label: getComputedStyle(cells[1], '::before').content,
                };
            })"""
        )
        assert len(cards) == 8  # the seed page's 6 inputs and the optimizer's widths (issue 39)
        assert all(card == {"fits": True, "stacked": True, "label": '"Type: "'} for card in cards)
        tab.assert_clean()
    finally:
        tab.close()


def test_diagram_opens_at_full_size_and_follows_the_dark_theme(reader: Reader) -> None:
    page = reader.open(SCENARIO_PAGE)
    page.locator("details.refgen-data-flow > summary").click()
    svg = page.locator(".refgen-diagram svg")
    box = svg.bounding_box()
    assert box is not None and abs(box["width"] - float(svg.get_attribute("width"))) < 1
    light = page.evaluate(DIAGRAM_LOOK)
    page.evaluate("() => { document.body.dataset.theme = 'dark'; }")
    dark = page.evaluate(DIAGRAM_LOOK)
    assert light["underline"] == dark["underline"] == "none"  # underscores stay readable
    assert light["input"] == "rgb(219, 234, 254)" and dark["input"] != light["input"]
    assert dark["derived"] != light["derived"]
    assert dark["text"] == dark["arrowhead"] == "rgb(207, 208, 208)"  # furo's dark text
    assert light["text"] != dark["text"]
    ARTIFACTS.mkdir(exist_ok=True)
    svg.screenshot(path=str(ARTIFACTS / "data-flow-dark.png"))
    reader.assert_clean()


def test_equations_are_set_in_the_math_font_shipped_with_the_site(reader: Reader) -> None:
    page = reader.open(SCENARIO_PAGE)
    math = page.locator(".refgen-math math").first
    math.scroll_into_view_if_needed()
    page.evaluate("() => document.fonts.ready")
    used = page.evaluate(
        """() => [...document.fonts]
            .filter(face => face.family.replace(/"/g, '') === 'STIX Two Math refgen')
            .map(face => face.status)"""
    )
    assert used == ["loaded"]  # fetched from the site itself (the reader blocks any other host)
    family = math.evaluate("element => getComputedStyle(element).fontFamily")
    assert family.startswith('"STIX Two Math refgen"')
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("table.refgen-derived").screenshot(path=str(ARTIFACTS / "equations.png"))
    reader.assert_clean()


def test_figures_are_right_aligned_in_their_columns(reader: Reader) -> None:
    alignment = """selector => [...document.querySelectorAll(selector)].map(
        cell => getComputedStyle(cell).textAlign)"""
    page = reader.open(SCENARIO_PAGE)
    numbers = page.evaluate(alignment, "table.refgen-values tbody td:nth-of-type(odd)")
    assert numbers and set(numbers) == {"right"}
    units = page.evaluate(alignment, "table.refgen-values tbody td:nth-of-type(even)")
    assert units and set(units) == {"left"}  # the unit column reads against its numbers
    names = page.evaluate(alignment, "table.refgen-values tbody th")
    assert names and "right" not in names
    page = reader.open("reference/refgen_scenarios.training/index.html")
    headlines = page.evaluate(alignment, "table.refgen-category tbody td.refgen-headline")
    assert headlines and set(headlines) == {"right"}
    reader.assert_clean()


def test_figures_line_up_on_the_decimal_point_with_units_in_their_own_column(
    reader: Reader,
) -> None:
    """In each entry's column the decimal points (where a number's whole part ends) sit at
    one x, whatever the digits after them, and every unit starts at one x after them."""
    page = reader.open("reference/refgen_scenarios.training/TrainingComputeScenario.html")
    columns = page.evaluate(
        """() => {
            const table = document.querySelector("table.refgen-values");
            const rows = [...table.querySelectorAll("tbody tr")];
            const entries = rows[0].querySelectorAll("td").length / 2;
            return [...Array(entries).keys()].map(entry => rows.map(row => {
                const cells = [...row.querySelectorAll("td")];
                const [number, unit] = cells.slice(2 * entry, 2 * entry + 2);
                const whole = number.querySelector(".refgen-whole");
                const text = unit.textContent.trim();
                const range = document.createRange();
                range.selectNodeContents(unit);
                return {
                    point: whole ? whole.getBoundingClientRect().right : null,
                    fraction: number.querySelector(".refgen-fraction")?.textContent ?? "",
                    unit: text ? range.getBoundingClientRect().left : null,
                    unitText: text,
                };
            }));
        }"""
    )
    assert len(columns) == 2
    for cells in columns:
        points = {round(cell["point"], 1) for cell in cells if cell["point"] is not None}
        assert len(points) == 1, cells
        assert {cell["fraction"][:1] for cell in cells} >= {"", "."}  # whole numbers and not
        units = [cell for cell in cells if cell["unit"] is not None]
        assert {"FLOP", "TFLOP/s", "d"} <= {cell["unitText"] for cell in units}
        assert len({round(cell["unit"], 1) for cell in units}) == 1, units
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("table.refgen-values").screenshot(path=str(ARTIFACTS / "registry-values.png"))
    reader.assert_clean()


def test_a_long_equation_breaks_before_its_operators_and_after_its_commas(
    chromium: Any, base_url: str
) -> None:
    tab = Reader(chromium, base_url, NARROW)
    try:
        page = tab.open("reference/refgen_scenarios.training/ActivationMemoryScenario.html")
        anchor = "refgen_scenarios.training.ActivationMemoryScenario.stored"
        lines = page.evaluate(
            """anchor => {
                const row = document.getElementById(anchor).closest("tr");
                const box = row.querySelector(".refgen-math");
                const pieces = [...box.querySelectorAll("math")];
                return {
                    tops: [...new Set(pieces.map(m => Math.round(m.getBoundingClientRect().top)))],
                    starts: pieces.map(m => m.textContent.trim()),
                    scrolls: box.scrollWidth > box.clientWidth + 1,
                };
            }""",
            anchor,
        )
        assert len(lines["tops"]) >= 3, lines  # one equation, several lines on a phone
        assert not lines["scrolls"], lines
        assert lines["starts"][0] == "calc_transformer_activation_bytes\u2061("
        assert all(s.endswith(",") for s in lines["starts"][1:-2]), lines["starts"]
        assert lines["starts"][-1].startswith("in "), lines["starts"]  # the unit on its own
        ARTIFACTS.mkdir(exist_ok=True)
        row = page.locator(f'[id="{anchor}"]').locator("xpath=ancestor::tr")
        row.screenshot(path=str(ARTIFACTS / "long-equation-phone.png"))
        tab.assert_clean()
    finally:
        tab.close()


PHONE_ENTRY = "refgen_scenarios.Scenarios.PhoneFullUpdateWorkingSet"


def test_copy_as_python_copies_the_construction_that_rebuilds_the_entry(
    chromium: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    from refgen_scenarios import Scenarios

    tab = Reader(chromium, base_url, DESKTOP)
    try:
        tab.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=base_url.rstrip("/")
        )
        page = tab.open("reference/registry.html")
        entry = page.locator(f'dt[id="{PHONE_ENTRY}"] + dd')
        button = entry.get_by_role("button", name="Copy as Python")
        button.click()
        expect(entry.locator(".refgen-copy-status")).to_have_text("Copied")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied.startswith("from refgen_scenarios.training import UpdateWorkingSetScenario\n")
        assert copied == entry.locator("pre").inner_text().rstrip("\n")  # what the page shows
        namespace: dict[str, Any] = {}
        exec(copied, namespace)  # pasted into Python, it builds the same scenario
        assert namespace["PhoneFullUpdateWorkingSet"] == Scenarios.PhoneFullUpdateWorkingSet
        assert f"{namespace['PhoneFullUpdateWorkingSet'].step_floor:~}" == "15.625 ms"
        ARTIFACTS.mkdir(exist_ok=True)
        entry.screenshot(path=str(ARTIFACTS / "copy-as-python.png"))
        tab.assert_clean()
    finally:
        tab.close()


def test_registry_values_highlight_the_rows_that_differ(reader: Reader) -> None:
    page = reader.open("reference/refgen_scenarios.inference/KvCacheScenario.html")
    fill = """selector => getComputedStyle(document.querySelector(selector)).backgroundColor"""
    differs = page.evaluate(fill, "table.refgen-values td.refgen-differs")
    same = page.evaluate(fill, "table.refgen-values tbody tr:not(:has(.refgen-differs)) td")
    assert differs != same and differs not in ("rgba(0, 0, 0, 0)", "transparent")
    marked = page.locator("table.refgen-values tbody th.refgen-differs")
    assert marked.count() == 7
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("table.refgen-values").screenshot(path=str(ARTIFACTS / "entries-compared.png"))
    reader.assert_clean()


@pytest.mark.parametrize("name", ["registry.csv", "registry.json"])
def test_registry_values_download_from_the_registry_page(
    chromium: Any, base_url: str, tmp_path: Any, name: str
) -> None:
    import csv
    import json

    tab = Reader(chromium, base_url, DESKTOP)
    try:
        page = tab.open("reference/registry.html")
        link = page.locator("p.refgen-downloads").get_by_role("link", name=name)
        with page.expect_download() as started:
            link.click()
        download = started.value
        assert download.suggested_filename == name
        saved = tmp_path / name
        download.save_as(saved)
        text = saved.read_text(encoding="utf-8")
        if name.endswith(".csv"):
            rows = {(r["entry"], r["attribute"]): r for r in csv.DictReader(text.splitlines())}
            value = rows["PhoneFullUpdateWorkingSet", "step_floor"]
            assert (float(value["magnitude"]), value["units"]) == (15.625, "millisecond")
        else:
            entries = {e["name"]: e for e in json.loads(text)["entries"]}
            values = {v["attribute"]: v for v in entries["PhoneFullUpdateWorkingSet"]["values"]}
            step_floor = values["step_floor"]
            assert (step_floor["magnitude"], step_floor["units"]) == (15.625, "millisecond")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "registry-downloads.png"))  # the page's top
        tab.assert_clean()
    finally:
        tab.close()
