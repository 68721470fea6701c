"""The doctree of one class page, held against a reviewed golden file (pseudo-XML).

Any change to what the showcase class page holds (a section, a field, a link,
a value, the MathML of an equation) shows up as a readable diff. Regenerate
with ``REFGEN_UPDATE_GOLDEN=1 python -m pytest tests/site/test_golden_doctree.py``
and review the diff in git.
"""

from __future__ import annotations

import pickle

from refgen.sphinx.compact_tables import expand_tables
from refgen.testing import BuildResult
from tests.conftest import REPO
from tests.golden import assert_matches_golden

PAGE = "reference/refgen_scenarios.training/UpdateWorkingSetScenario"


def test_class_page_doctree_matches_the_golden_file(site: BuildResult) -> None:
    assert site.returncode == 0, site.stderr
    doctree = pickle.loads((site.outdir / ".doctrees" / f"{PAGE}.doctree").read_bytes())
    expand_tables(None, doctree)  # as every writer sees them (tables of data are kept compact)
    srcdir = site.outdir.parent / "docs"
    text = doctree.pformat().replace(str(srcdir), "<docs>").replace(str(REPO), "<repo>")
    assert_matches_golden(
        readable_markup(text), "UpdateWorkingSetScenario.pseudoxml", f"the doctree of {PAGE}"
    )


def readable_markup(pseudo_xml: str) -> str:
    """Pseudo-XML with each MathML or SVG tag of a ``markup`` attribute on a line of its own."""
    lines = []
    for line in pseudo_xml.splitlines():
        head, marker, markup = line.partition(' markup="')
        if not marker:
            lines.append(line)
            continue
        indent = " " * (len(head) - len(head.lstrip()) + 4)
        lines.append(f"{head}>")
        lines += [
            indent + tag for tag in markup.removesuffix('">').replace("><", ">\n<").split("\n")
        ]
    return "\n".join(lines) + "\n"
