"""Smart quotes on refgen's pages: the same pages as Sphinx's own pass, for less work.

:class:`refgen.sphinx.smart_quotes.PageSmartQuotes` takes Sphinx's pass out
of a refgen page's transforms and runs it on the blocks of text it can change.
Each test builds a library whose docstrings hold what smart quotes educate
(quotes, apostrophes, dashes, ellipses, backslash escapes, a block in a
language of its own, one with no quotes defined) twice: with refgen's pass and
with Sphinx's, and holds the two to the same bytes and the same warnings.
"""

from __future__ import annotations

from pathlib import Path

from refgen.testing import BuildResult, write_scenario_project
from tests.sphinx.test_compact_tables import same_files

QUOTED = '''
    """Quoted things."""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Quote:
        """A "quoted" model -- it's the user's... with `code` and \\\\"escaped\\\\" quotes.

        .. rst-class:: language-de

        Ein "deutsches" Zitat -- mit 'einfachen' Anführungszeichen.

        .. rst-class:: language-xx

        A block in a language smart quotes know nothing of, with nothing to educate.

        Plain words, with nothing to educate, and 1.5 - 2.5 figures.
        """

        rate: float = 2.0
        """The "rate" -- per second... or so . . . or &#34;about&#34; it."""

        label: str = "it's \\"raw\\" -- data..."
        """A label; data keeps its 'straight' quotes."""

        @property
        def doubled(self) -> float:
            """Twice the rate: 'double' it."""
            return 2 * self.rate
'''

PLAIN = '''
    """Plain things."""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Plain:
        """A model with "quotes" in its docstring only."""

        size: float = 1.0
        """Meters."""
'''

SPHINX_PASS = """

from refgen.sphinx.smart_quotes import PageSmartQuotes


def setup(app):
    app.registry.transforms.remove(PageSmartQuotes)
"""

COUNT_EDUCATED = """

from pathlib import Path

import refgen.sphinx.smart_quotes as smart_quotes

_educated = []
_educate = smart_quotes.PageSmartQuotes._educate


def _counting(self, blocks):
    _educated.append(len(blocks))
    _educate(self, blocks)


def _report(app, exception):
    smart_quotes.PageSmartQuotes._educate = _educate
    Path(app.outdir, "educated.txt").write_text(" ".join(map(str, _educated)))


def setup(app):
    smart_quotes.PageSmartQuotes._educate = _counting
    app.connect("build-finished", _report)
"""


def build_both(
    tmp_path: Path, modules: dict[str, str], *options: str, conf: str = ""
) -> dict[str, BuildResult]:
    built = {}
    for name, extra in (("refgen", COUNT_EDUCATED), ("sphinx", SPHINX_PASS)):
        project = write_scenario_project(
            tmp_path / name, "quotes", modules, conf_extra=conf + extra
        )
        built[name] = project.build("html", *options)
    return built


def warnings_of(result: BuildResult, root: Path) -> list[str]:
    return sorted(warning.replace(str(root), "<root>") for warning in result.warnings)


def test_refgen_pages_get_the_quotes_sphinx_gives_them(tmp_path: Path) -> None:
    built = build_both(tmp_path, {"models": QUOTED, "plain": PLAIN}, "--keep-going")
    ours, sphinx = built["refgen"], built["sphinx"]
    assert not same_files(ours.outdir, sphinx.outdir, "*.html")
    assert warnings_of(ours, tmp_path / "refgen") == warnings_of(sphinx, tmp_path / "sphinx")
    assert any("No smart quotes defined" in warning for warning in ours.warnings)
    page = (ours.outdir / "reference" / "quotes.models" / "Quote.html").read_text()
    assert "“quoted”" in page and "it’s" in page and "–" in page and "…" in page
    assert "„deutsches“" in page and "so … or" in page
    assert "it&#x27;s" in page or "it's" in page  # the figure stays as computed
    educated = [int(count) for count in (ours.outdir / "educated.txt").read_text().split()]
    assert educated and all(count > 0 for count in educated)


def test_a_page_with_nothing_to_educate_is_left_alone(tmp_path: Path) -> None:
    built = build_both(tmp_path, {"plain": PLAIN.replace('"quotes"', "quotes")}, "-W")
    ours, sphinx = built["refgen"], built["sphinx"]
    assert ours.returncode == sphinx.returncode == 0, ours.stderr
    assert not same_files(ours.outdir, sphinx.outdir, "*.html")
    assert (ours.outdir / "educated.txt").read_text() == ""


def test_the_action_that_turns_typography_back_to_ascii_reaches_every_block(
    tmp_path: Path,
) -> None:
    typographic = PLAIN.replace('"quotes"', "“quotes” – and …")
    built = build_both(tmp_path, {"plain": typographic}, "-W", conf='\nsmartquotes_action = "-1"\n')
    ours, sphinx = built["refgen"], built["sphinx"]
    assert ours.returncode == sphinx.returncode == 0, ours.stderr
    assert not same_files(ours.outdir, sphinx.outdir, "*.html")
    page = (ours.outdir / "reference" / "quotes.plain" / "Plain.html").read_text()
    assert "“quotes”" not in page and "..." in page
