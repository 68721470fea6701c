"""Any sequence of edits a user makes gives, after each incremental build, what a clean build gives.

The chain package of ``tests/sphinx/test_incremental.py`` is extended with every way a
figure can depend on code its property does not name: a class attribute set
after the class body, a monkeypatch from another module, a constant imported
inside a function body, a module read by a literal name
(``importlib.import_module("chain.tables")``), a helper in a module that is a
symbolic link to a file outside the package, and a hand-written page whose
duplicate description of a class warns on the class's page, and a docstring whose
code block does not lex (a warning given as its page is written). The package is a
regular one or a namespace package (no ``__init__.py``). Hypothesis draws edit
sequences; after each edit the incremental build must equal a clean build
(pages, exports, highlighted source, search index, warnings, exit status) and
read again exactly the pages whose content changed and the pages edited by hand,
with the other halves of any duplicate they warned of.
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refgen.testing import BuildResult, ScenarioProject
from tests.sphinx.test_incremental import (
    _replace_number,
    apply_edit,
    assert_same_as_clean,
    reference_texts,
    reread,
    write_chain,
)

REACHED = '''
    """Reached scenarios

    Figures from code the properties name only indirectly.
    """

    import importlib
    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Tuned:
        """Reads attributes set after its body and from another module."""

        EFFICIENCY = 0.5

        x: float
        """Input."""

        @property
        def result(self) -> float:
            """x times two factors."""
            return self.x * self.EFFICIENCY * self.FACTOR


    Tuned.FACTOR = 2


    @dataclass(frozen=True, kw_only=True)
    class Indirect:
        """Reads constants imported in its body or by a module's name, and a linked helper."""

        x: float
        """Input."""

        @property
        def result(self) -> float:
            """x boosted, times two constants."""
            from chain.linked import boost
            from chain.tables import W

            return boost(self.x) * W * importlib.import_module("chain.tables").V
'''
TABLES = '''
    """Constants read by a name in a string, and inside a function body."""

    V = 2
    W = 3
'''
PATCHES = '''
    """A monkeypatch of a scenario class, from another module."""

    import chain.reached

    chain.reached.Tuned.EFFICIENCY = 0.7
'''
LINKED = '''"""A helper kept outside the package, linked into it."""


def boost(x: float) -> float:
    """Twice x."""
    return x * 2
'''
REGISTRY_ADDITIONS = '''
    from chain import patches  # noqa: F401  (its patch is part of the figures)
    from chain.reached import Indirect, Tuned
'''
DUPLICATE = ".. py:class:: chain.models.Direct\n"
INDIRECT_SUMMARY = "and a linked helper."
UNLEXABLE = "\n\n    .. code-block:: python\n\n       x = 1 $ 2\n    "
"""For Indirect's docstring: a block Sphinx warns about as it writes the page."""
ABOUT = ":orphan:\n\nAbout\n=====\n\nThe chain package.\n\n"


def write_reaching_chain(root: Path, namespace: bool) -> ScenarioProject:
    """The chain package, with the modules above and a hand-written page ``about``."""
    project = write_chain(root)
    package = project.src / "chain"
    for name, source in {"reached": REACHED, "tables": TABLES, "patches": PATCHES}.items():
        (package / f"{name}.py").write_text(_dedented(source))
    registry = package / "registry.py"
    text = registry.read_text().replace(
        '"""Named chains."""\n', '"""Named chains."""\n' + _dedented(REGISTRY_ADDITIONS)
    )
    registry.write_text(text + "    Four = Tuned(x=1.0)\n    Five = Indirect(x=1.0)\n")
    outside = root / "outside" / "linked.py"
    outside.parent.mkdir()
    outside.write_text(LINKED)
    os.symlink(os.path.join("..", "..", "outside", "linked.py"), package / "linked.py")
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text().replace("'chain.models']", "'chain.models', 'chain.reached']"))
    (project.docs / "about.rst").write_text(ABOUT + DUPLICATE)
    if namespace:
        (package / "__init__.py").unlink()
    return project


def _dedented(source: str) -> str:
    return textwrap.dedent(source).lstrip("\n")


def apply_reaching_edit(project: ScenarioProject, kind: str, value: int) -> None:
    """One edit to what the figures reach indirectly."""
    package = project.src / "chain"
    if kind == "after-body":
        _replace_number(package / "reached.py", r"(Tuned\.FACTOR = )\d+", value)
    elif kind == "patch":
        _replace_number(package / "patches.py", r"(EFFICIENCY = 0\.)\d+", value)
    elif kind == "inner-import":
        _replace_number(package / "tables.py", r"(W = )\d+", value)
    elif kind == "literal-import":
        _replace_number(package / "tables.py", r"(V = )\d+", value)
    elif kind == "linked":
        _replace_number(project.root / "outside" / "linked.py", r"(return x \* )\d+", value)
    elif kind == "unlexable":  # a warning given as the page is written: comes, or goes
        reached = package / "reached.py"
        text = reached.read_text().replace(INDIRECT_SUMMARY + UNLEXABLE, INDIRECT_SUMMARY)
        if value % 2:
            text = text.replace(INDIRECT_SUMMARY, INDIRECT_SUMMARY + UNLEXABLE)
        reached.write_text(text)
    elif kind == "duplicate":  # the line that caused a warning goes
        about = project.docs / "about.rst"
        about.write_text(about.read_text().replace(DUPLICATE, ""))
    else:
        raise ValueError(kind)


REACHING = [
    "after-body",
    "patch",
    "inner-import",
    "literal-import",
    "linked",
    "duplicate",
    "unlexable",
]
EDITS = st.tuples(
    st.sampled_from(
        ["helper", "transitive", "docstring", "entry", "units", "add", "rename", "delete"]
        + REACHING
    ),
    st.integers(min_value=1, max_value=9),
)
EDITED_BY_HAND = {"duplicate": "about"}


def apply_any_edit(project: ScenarioProject, edit: tuple[str, int], added: list[str]) -> None:
    kind, value = edit
    if kind in REACHING:
        apply_reaching_edit(project, kind, value)
    else:
        apply_edit(project, edit, added)


WARNING_AT = re.compile(r"/docs/(\S+?)\.rst:\d+: WARNING: .*other instance in (\S+?)(?:,|$)")


def with_duplicates(result: BuildResult, pages: set[str]) -> set[str]:
    """``pages`` and every page that ``result`` warned is the other half of a duplicate
    with one of them: such pages are read together."""
    pairs = WARNING_AT.findall(result.stderr)
    found = set(pages)
    while True:
        more = {a for a, b in pairs if b in found} | {b for a, b in pairs if a in found}
        if more <= found:
            return found
        found |= more


# Three examples, not the profile's count: each is a clean build and one incremental
# build per edit, and a clean build again to compare with.
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(EDITS, min_size=1, max_size=4), namespace=st.booleans())
@example(edits=[("add", 3), ("rename", 2), ("units", 4), ("delete", 1)], namespace=False)
@example(edits=[("entry", 5), ("docstring", 2), ("transitive", 7), ("helper", 3)], namespace=True)
@example(edits=[("after-body", 3), ("patch", 9), ("inner-import", 4)], namespace=False)
@example(edits=[("literal-import", 5), ("linked", 7), ("duplicate", 1)], namespace=True)
@example(edits=[("unlexable", 1), ("after-body", 3), ("unlexable", 2)], namespace=False)
def test_any_edit_sequence_builds_what_a_clean_build_builds(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[str, int]], namespace: bool
) -> None:
    """After every edit, the incremental output equals a clean build's, and the pages
    read again are exactly the pages whose content changed (and the new ones) and the
    pages edited by hand, with the other halves of any duplicate they warned of."""
    root = tmp_path_factory.mktemp("edits")
    project = write_reaching_chain(root, namespace)
    last = project.build("html", "-W", "--keep-going")
    before = reference_texts(last.outdir)
    added: list[str] = []
    for edit in edits:
        apply_any_edit(project, edit, added)
        result = project.build("html", "-W", "--keep-going")
        after = reference_texts(result.outdir)
        assert_same_as_clean(project, result, "-W", "--keep-going")
        changed = {
            page.removesuffix(".html") for page, body in after.items() if before.get(page) != body
        }
        by_hand = {EDITED_BY_HAND[edit[0]]} & reread(result) if edit[0] in EDITED_BY_HAND else set()
        expected = with_duplicates(last, changed | by_hand)
        assert reread(result) == expected, edit
        before, last = after, result
