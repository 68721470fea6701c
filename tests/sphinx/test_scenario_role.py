"""The {scenario} role quotes live registry values in prose and links them."""

from __future__ import annotations

from urllib.parse import urldefrag

import pytest

from refgen.testing import BuildResult, ScenarioProject
from tests.html_helpers import main, read_html, text
from tests.sphinx.test_registry_values import gadgets, gadgets_site  # noqa: F401  (shared fixtures)


def quoted(page_path) -> list[tuple[str, str]]:
    page = read_html(page_path)
    values = []
    for span in main(page).find_all(class_="refgen-value"):
        link = span.find_parent("a")
        values.append((span.get_text(), urldefrag(link["href"])[1] if link else ""))
    return values


def test_live_values_page_quotes_and_links(site) -> None:
    values = quoted(site.outdir / "live-values.html")
    target = "refgen_scenarios.training.UpdateWorkingSetScenario"
    assert ("15.625 ms", f"{target}.step_floor") in values  # the site's 5 figures
    assert ("800 MB", f"{target}.step_traffic") in values
    assert ("9.0", f"{target}.amplification") in values  # format spec .1f
    assert ("15%", f"{target}.weight_read_share") in values  # format spec .0%


def test_role_in_restructuredtext_with_format_spec(gadgets_site: BuildResult) -> None:  # noqa: F811
    result = gadgets_site
    values = quoted(result.outdir / "quotes.html")
    target = "gadgets.links.Link.seconds"
    assert values[:2] == [("40", target), ("40.00", target)]


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("Nobody.seconds", "no registry scenario 'Nobody'"),
        ("Known.nothing", "Link has no attribute 'nothing'"),
        ("Unknown.seconds", "needs rate, which this scenario does not give"),
        ("Known.broken", "ZeroDivisionError: division by zero"),
    ],
)
def test_bad_quotes_are_warnings_at_document_and_line(
    gadgets: ScenarioProject,  # noqa: F811
    gadgets_site: BuildResult,  # noqa: F811
    quote: str,
    message: str,
) -> None:
    result = gadgets_site
    source = gadgets.docs / "quotes.rst"
    lines = source.read_text().splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if f"`{quote}`" in text)
    matching = [w for w in result.warnings if w.startswith(f"{source}:{line}: WARNING:")]
    assert len(matching) == 1, result.warnings
    assert message in matching[0] and "[refgen.value]" in matching[0]
    page = read_html(result.outdir / "quotes.html")
    assert "Traceback" not in text(main(page))
