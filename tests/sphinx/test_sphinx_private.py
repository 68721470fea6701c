"""Sphinx's and docutils' private names: all read in one module, and all still there."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from docutils.utils import new_document
from sphinx.application import Sphinx

from refgen.sphinx import private
from refgen.sphinx.private import PRIVATE_NAMES, PrivateName
from refgen.testing import write_scenario_project

SPHINX_LAYER = Path(private.__file__).parent

MODELS = '''
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Box:
    """A box."""

    side: float = 2.0
    """Side of the box."""

    @property
    def volume(self) -> float:
        """Volume of the box."""
        return self.side**3
'''

PROBE = """

def setup(app):
    from tests.sphinx.test_sphinx_private import note_private_names

    app.connect("build-finished", note_private_names)
"""

FOUND: dict[PrivateName, bool] = {}
"""Whether each private name was there in the test build (filled by its ``conf.py``)."""


def note_private_names(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: look for each private name where refgen reads it."""
    holders = holders_in(app)
    for name in PRIVATE_NAMES:
        FOUND[name] = is_there(holders.get(name.owner) or importlib.import_module(name.owner), name)


def holders_in(app: Sphinx) -> dict[str, object]:
    """The objects of a finished HTML build whose classes hold the private names."""
    document = new_document("probe", app.builder.docsettings)
    return {
        "sphinx.environment.BuildEnvironment": app.env,
        "sphinx.config.Config": app.config,
        "sphinx.events.EventManager": app.events,
        "sphinx.search.IndexBuilder": app.builder.indexer,
        "sphinx.search.SearchLanguage": app.builder.indexer.lang,
        "sphinx.writers.html5.HTML5Translator": app.builder.create_translator(
            document, app.builder
        ),
    }


def is_there(holder: object, name: PrivateName) -> bool:
    if isinstance(holder, ModuleType) and not hasattr(holder, name.name):
        return importlib.util.find_spec(f"{name.owner}.{name.name}") is not None
    return hasattr(holder, name.name)


def test_every_private_name_refgen_reads_is_still_there(tmp_path: Path) -> None:
    """A Sphinx or docutils release that renames one of them fails here, naming the
    refgen feature that depends on it, rather than making a build quietly slower or
    less exact."""
    project = write_scenario_project(tmp_path, "boxes", {"models": MODELS})
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + PROBE)
    FOUND.clear()
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert set(FOUND) == set(PRIVATE_NAMES)
    gone = [
        f"{name.owner}.{name.name} is gone: refgen's {name.feature} depends on it "
        "(see refgen/sphinx/private.py)"
        for name in PRIVATE_NAMES
        if not FOUND[name]
    ]
    assert not gone, "\n".join(gone)


def private_uses(source: str) -> list[str]:
    """Private names ``source`` reads of objects other than its own: attributes, names in
    ``getattr`` and friends, names imported from Sphinx or docutils, private modules."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            named = node.args[1] if node.func.id.endswith("attr") and len(node.args) > 1 else None
            if isinstance(named, ast.Constant) and is_private(str(named.value)):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom) and is_sphinx_or_docutils(node.module or ""):
            module = node.module or ""
            found += [module] if "._" in module else []
            found += [f"{module}.{a.name}" for a in node.names if is_private(a.name)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            found += [text] if is_sphinx_or_docutils(text) and "._" in text else []
    return found


def is_sphinx_or_docutils(dotted: str) -> bool:
    return dotted.split(".")[0] in ("sphinx", "docutils") and " " not in dotted


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_only_the_private_module_reads_private_names() -> None:
    """Every other module of the Sphinx layer goes through ``refgen.sphinx.private``, so
    that module's list is every private name refgen depends on."""
    found = {
        path.name: uses
        for path in sorted(SPHINX_LAYER.glob("*.py"))
        if path.name != "private.py" and (uses := private_uses(path.read_text()))
    }
    assert found == {}


def test_the_scan_finds_private_names() -> None:
    source = (
        "from docutils.parsers.rst.directives import _directives\n"
        "import_name = 'docutils.writers._html_base'\n"
        "cache = app.env._write_doc_doctree_cache\n"
        "titles = getattr(indexer, '_titles')\n"
        "mine = self._own\n"
    )
    assert private_uses(source) == [
        "docutils.parsers.rst.directives._directives",
        "docutils.writers._html_base",
        "app.env._write_doc_doctree_cache",
        "getattr(indexer, '_titles')",
    ]
