"""refgen's modules import each other without a cycle, type-checking imports included."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from tests.conftest import REPO

SOURCE = REPO / "src"


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements a module runs on import, ``if TYPE_CHECKING:`` blocks and ``try``
    included (imports inside functions run later, when they are called)."""
    found: list[ast.stmt] = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, ast.If | ast.Try):
            found += module_level_statements(statement.body + statement.orelse)
    return found


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The refgen modules the module ``name`` at ``path`` imports at its top level."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for statement in module_level_statements(tree.body):
        if isinstance(statement, ast.Import):
            found |= {alias.name for alias in statement.names}
        elif isinstance(statement, ast.ImportFrom):
            base = statement.module or ""
            if statement.level:
                anchor = package.rsplit(".", statement.level - 1)[0]
                base = f"{anchor}.{base}" if base else anchor
            for alias in statement.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in (SOURCE / "refgen").rglob("*.py")}
    return {name: imported(name, path, set(paths)) for name, path in paths.items()}


def test_the_graph_sees_type_checking_imports() -> None:
    graph = import_graph()
    assert "refgen.analysis.model" in graph["refgen.analysis.cache"]
    typed_only = "refgen.project" if "refgen.project" in graph else "refgen.analysis.model"
    assert any(typed_only in imports for imports in graph.values())


def test_no_module_of_refgen_imports_itself_through_others() -> None:
    try:
        order = list(TopologicalSorter(import_graph()).static_order())
    except CycleError as error:
        cycle = " -> ".join(error.args[1])
        raise AssertionError(f"import cycle: {cycle}") from None
    assert "refgen.project" in order
