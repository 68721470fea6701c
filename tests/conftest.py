"""Shared fixtures: the project's own site, built once per test session; Hypothesis profiles."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from hypothesis import settings

from refgen.testing import BuildResult, sphinx_build
from tests.html_helpers import read_html

pytest_plugins = ["pytester", "tests.marks"]

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"
# How many examples each property runs, by where it runs; a test sets its own count only
# when each example costs a Sphinx build. No deadline: the machines are shared and
# loaded, and the tests that promise speed (linear time) set theirs.
settings.register_profile("dev", max_examples=25, deadline=None)
# CI: more examples, the same ones every run (a failure is reproducible, never flaky),
# with the failing example printed as a blob to replay, and no example database.
settings.register_profile(
    "ci", max_examples=300, deadline=None, derandomize=True, database=None, print_blob=True
)
# A long hunt, by hand:
#     HYPOTHESIS_PROFILE=hunt python -m pytest tests/unit/analysis/test_fuzz_parsers.py
settings.register_profile("hunt", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get(PROFILE_VARIABLE, "dev"))

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def copy_docs(destination: Path) -> Path:
    """A copy of docs/ without build output or generated pages.

    pyproject.toml is copied beside it, since conf.py reads [tool.refgen] from it.
    """
    shutil.copy(REPO / "pyproject.toml", destination.parent / "pyproject.toml")
    return Path(
        shutil.copytree(DOCS, destination, ignore=shutil.ignore_patterns("_build", "reference"))
    )


@pytest.fixture(autouse=True)
def no_leaked_imports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test leaves a throwaway package importable or imported for the tests after it."""
    yield
    temporary = os.path.join(tmp_path_factory.getbasetemp(), "")
    leaked = [
        name
        for name, module in list(sys.modules.items())
        if str(getattr(module, "__file__", None) or "").startswith(temporary)
    ]
    leaked += [entry for entry in sys.path if entry.startswith(temporary)]
    assert leaked == [], (
        "modules or sys.path entries left behind (use refgen.testing.fresh_imports)"
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The docs site built as the README builds it: ``-W --keep-going``."""
    root = tmp_path_factory.mktemp("site")
    srcdir = copy_docs(root / "docs")
    return sphinx_build(srcdir, root / "html", "html", "-W", "--keep-going")


@pytest.fixture(scope="session")
def scenario_page(site: BuildResult) -> BeautifulSoup:
    path = site.outdir / "reference" / "refgen_scenarios.training" / "UpdateWorkingSetScenario.html"
    return read_html(path)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium, for the tests of one module: while it runs, so does a thread of playwright's
    (asyncio's watcher of the driver process), and refgen forks no worker beside a running
    thread, so a browser kept for the session would change the tests run after it."""
    if not CHROMIUM.is_file():
        pytest.skip(
            f"Debian chromium not found at {CHROMIUM}: run `apt-get install -y chromium` "
            "(and fonts-dejavu-core)"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="the playwright package is not installed: run `pip install -e '.[test]'`",
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield browser
        browser.close()
