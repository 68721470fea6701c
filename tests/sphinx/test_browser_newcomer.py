"""A newcomer's library in Chromium: the filter box over a big category, and Sensitivity
tables lined up on the decimal point.

The throwaway site of ``tests/sphinx/test_newcomer_pages.py``, served from 127.0.0.1
and read through the same :class:`~tests.test_browser.Reader` (no network,
no console errors, the accessibility basics).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from refgen.testing import BuildResult, ScenarioProject
from tests.site.test_browser import DESKTOP, Reader, _QuietHandler
from tests.sphinx.test_newcomer_pages import CLASSES, newcomer  # noqa: F401 (the fixture)

CATEGORY = "reference/newcomer.gpus/index.html"


@pytest.fixture(scope="module")
def newcomer_url(newcomer: tuple[ScenarioProject, BuildResult]) -> Iterator[str]:  # noqa: F811
    handler = partial(_QuietHandler, directory=str(newcomer[1].outdir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="newcomer-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def tab(chromium: Any, newcomer_url: str) -> Iterator[Reader]:
    reader = Reader(chromium, newcomer_url, DESKTOP)
    yield reader
    reader.close()


VISIBLE_ROWS = """() => [...document.querySelectorAll("table.refgen-category tbody tr")]
    .filter(row => row.offsetParent !== null)
    .map(row => row.textContent.trim())"""


def test_the_filter_box_narrows_a_big_category_to_the_rows_typed(tab: Reader) -> None:
    page = tab.open(CATEGORY)
    box = page.get_by_label(f"Filter the {CLASSES + 1} scenarios")
    assert len(page.evaluate(VISIBLE_ROWS)) == CLASSES + 1

    box.fill("gpuconfig3")
    shown = page.evaluate(VISIBLE_ROWS)
    assert shown == ["GPUConfig3", *(f"GPUConfig3{n}" for n in range(CLASSES - 30))]
    assert page.locator(".refgen-filter-count").text_content() == (
        f"{len(shown)} of {CLASSES + 1} shown"
    )

    box.fill("cluster SETTINGS")  # every word, any case
    assert page.evaluate(VISIBLE_ROWS) == ["ClusterSettings"]
    box.fill("")
    assert len(page.evaluate(VISIBLE_ROWS)) == CLASSES + 1
    tab.check_page()
    tab.assert_clean()


def test_without_javascript_the_whole_table_shows_and_no_box(
    chromium: Any, newcomer_url: str
) -> None:
    context = chromium.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(newcomer_url + CATEGORY, wait_until="load")
        assert page.locator(".refgen-filter").count() == 0
        assert len(page.evaluate(VISIBLE_ROWS)) == CLASSES + 1
    finally:
        context.close()


def test_sensitivity_columns_line_up_on_the_decimal_point(tab: Reader) -> None:
    page = tab.open("reference/newcomer.gpus/GPUConfig1.html")
    columns = page.evaluate(
        """() => {
            const table = document.querySelector("table.refgen-elasticities");
            const rows = [...table.querySelectorAll("tbody tr")];
            const count = rows[0].querySelectorAll("td").length;
            return [...Array(count).keys()].map(i => rows.map(row => {
                const whole = row.querySelectorAll("td")[i].querySelector(".refgen-whole");
                return whole ? whole.getBoundingClientRect().right : null;
            }).filter(x => x !== null));
        }"""
    )
    assert columns and all(columns)
    for points in columns:
        assert len({round(x, 1) for x in points}) == 1, points
    tab.assert_clean()
