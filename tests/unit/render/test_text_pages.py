"""Pages as terminal text, held against reviewed golden files, with no Sphinx build.

``refgen show`` prints the blocks the site is built from through
``src/refgen/render/text.py``: a class's whole page (``--page``, ``TextWriter``),
and the summaries of a registry entry and of a helper (``SummaryWriter``).
Each is run here as a user runs it, in this process, 88 columns wide and
without colour, and compared with its file in ``tests/golden/``. Any change to
the text (a heading, a table's layout, a wrapped line, a value) fails with a
unified diff. When the change is intended, regenerate the files and review
their diff in git:

    REFGEN_UPDATE_GOLDEN=1 python -m pytest tests/unit/render/test_text_pages.py
"""

from __future__ import annotations

import sys

import pytest

from refgen.cli import main
from tests.conftest import REPO
from tests.golden import assert_matches_golden

LOOKUPS = {
    "show-page-UpdateWorkingSetScenario.txt": ("--page", "UpdateWorkingSetScenario"),
    "show-entry-PhoneFullUpdateWorkingSet.txt": ("PhoneFullUpdateWorkingSet",),
    "show-helper-calc_update_step_traffic.txt": ("calc_update_step_traffic",),
}
"""Golden file: what ``refgen show`` is asked (a class page, a registry entry, a helper)."""


@pytest.mark.parametrize(
    ("golden", "lookup"), LOOKUPS.items(), ids=[name.split("-")[1] for name in LOOKUPS]
)
def test_refgen_show_prints_the_golden_text(
    golden: str,
    lookup: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(REPO)  # [tool.refgen] of pyproject.toml: refgen_scenarios
    monkeypatch.setattr(sys, "path", list(sys.path))  # the command may add the project's folder
    monkeypatch.setenv("COLUMNS", "88")
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["show", "--no-cache", *lookup]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    assert_matches_golden(printed.out, golden, f"refgen show {' '.join(lookup)}")
