"""Golden files: output held against a reviewed copy in tests/golden/, shown as a diff.

When a change to the output is intended, regenerate the files and review
their diff in git:

    REFGEN_UPDATE_GOLDEN=1 python -m pytest tests/unit/cli/test_golden_export.py \
        tests/site/test_golden_doctree.py tests/unit/render/test_text_pages.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from tests.conftest import REPO

UPDATE = "REFGEN_UPDATE_GOLDEN"


def assert_matches_golden(text: str, name: str, what: str) -> None:
    """``text`` equals ``tests/golden/<name>``; a unified diff when it does not."""
    golden = REPO / "tests" / "golden" / name
    shown = golden.relative_to(REPO)
    if os.environ.get(UPDATE):
        golden.write_text(text, encoding="utf-8")
        pytest.skip(f"{UPDATE} is set: wrote {shown}; review its diff")
    expected = golden.read_text(encoding="utf-8") if golden.exists() else ""
    if text == expected:
        return
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        text.splitlines(keepends=True),
        f"{shown} (golden)",
        f"{what} (now)",
    )
    pytest.fail(
        f"{what} differs from {shown}; if the change is intended, run\n"
        f"    {UPDATE}=1 python -m pytest tests/\n"
        "and review the diff of the golden file.\n\n" + "".join(diff),
        pytrace=False,
    )


def golden_path(name: str) -> Path:
    return REPO / "tests" / "golden" / name
