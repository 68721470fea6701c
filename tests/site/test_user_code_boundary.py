"""The Project is the boundary for the user's code: the front ends never guard it themselves.

Every call that may run the user's code goes through a public method of
:class:`refgen.project.Project`, which runs it under the guard and answers with a
value or a reason (``tests/unit/project/test_facade.py``). A front end that
called :func:`refgen.analysis.guard.call_user_code` itself would be guarding what
the facade should: this test names the module and the line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "src" / "refgen"
FRONT_ENDS = (
    *sorted((PACKAGE / "sphinx").glob("*.py")),
    *sorted((PACKAGE / "cli").glob("*.py")),
    *sorted((PACKAGE / "checks").glob("*.py")),
    PACKAGE / "pytest_plugin.py",
)
GUARD = "call_user_code"


def guard_uses(path: Path) -> list[int]:
    """The lines of ``path`` that import, name or call the guard."""
    lines = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        match node:
            case ast.ImportFrom(names=names) if any(alias.name == GUARD for alias in names):
                lines.add(node.lineno)
            case ast.Name(id=name) | ast.Attribute(attr=name) if name == GUARD:
                lines.add(node.lineno)
    return sorted(lines)


def test_the_rule_sees_a_guarded_call(tmp_path: Path) -> None:
    module = tmp_path / "front.py"
    module.write_text(
        "from refgen.analysis.guard import call_user_code\n"
        "from refgen.analysis import guard\n\n"
        "found, error = call_user_code(print)\n"
        "found, error = guard.call_user_code(print)\n"
    )
    assert guard_uses(module) == [1, 4, 5]


def test_no_front_end_guards_the_users_code_itself() -> None:
    assert len(FRONT_ENDS) > 30  # the folders are where this test thinks they are
    found = [f"{path.relative_to(REPO)}:{line}" for path in FRONT_ENDS for line in guard_uses(path)]
    assert not found, (
        "front ends ask the Project, which guards the user's code and answers with a value "
        f"or a reason; these guard it themselves: {', '.join(found)}"
    )
