"""The Python that rebuilds a registry entry: imports as the registry binds them, then the
assignment as written (``refgen.analysis.construction``)."""

from __future__ import annotations

import ast
import textwrap

from refgen.analysis.construction import construction
from refgen.analysis.source import ModuleSource
from refgen.config import load_settings
from refgen.project import Project
from tests.conftest import REPO

REGISTRY = '''
from __future__ import annotations

import math
import numpy as np
from . import units as u
from .kinds import Link, Probe as P
from ..shared import LIMIT

DEFAULT_RATE = 2.5


def twice(x):
    return 2 * x


class Named:
    """Named links."""

    Fast = Link(
        size=twice(10.0),  # doubled
        rate=DEFAULT_RATE * u.ureg.MB / u.ureg.s,
    )
    Slow = P(size=max(1, LIMIT), rate=Fast.rate / 2, note="""two
        lines""")
    Listed = Link(size=sum(x for x in [1.0, math.pi]), rate=np.float64(1.0))
'''


def built(name: str) -> str:
    text = textwrap.dedent(REGISTRY)
    source = ModuleSource("registry.py", text, ast.parse(text))
    [named] = [n for n in source.tree.body if isinstance(n, ast.ClassDef)]
    statements = {
        n.targets[0].id: n
        for n in named.body
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
    }
    return construction(source, statements[name], "pkg.sub.registry", statements)


def test_names_are_imported_as_the_registry_module_binds_them() -> None:
    assert built("Fast") == textwrap.dedent(
        """\
        from pkg.sub import units as u
        from pkg.sub.kinds import Link
        from pkg.sub.registry import DEFAULT_RATE, twice

        Fast = Link(
            size=twice(10.0),  # doubled
            rate=DEFAULT_RATE * u.ureg.MB / u.ureg.s,
        )"""
    )


def test_an_earlier_entry_it_reads_comes_first_and_multiline_strings_keep_their_text() -> None:
    assert built("Slow") == (
        "from pkg.shared import LIMIT\n"
        "from pkg.sub import units as u\n"
        "from pkg.sub.kinds import Link, Probe as P\n"
        "from pkg.sub.registry import DEFAULT_RATE, twice\n"
        "\n"
        "Fast = Link(\n"
        "    size=twice(10.0),  # doubled\n"
        "    rate=DEFAULT_RATE * u.ureg.MB / u.ureg.s,\n"
        ")\n"
        'Slow = P(size=max(1, LIMIT), rate=Fast.rate / 2, note="""two\n'
        '        lines""")'
    )


def test_builtins_and_names_bound_inside_the_expression_need_no_import() -> None:
    assert built("Listed") == (
        "import math\n"
        "import numpy as np\n"
        "from pkg.sub.kinds import Link\n"
        "\n"
        "Listed = Link(size=sum(x for x in [1.0, math.pi]), rate=np.float64(1.0))"
    )


def test_every_entry_of_our_registry_is_rebuilt_equal_by_its_python() -> None:
    from refgen_scenarios import Scenarios

    project = Project(load_settings(REPO))
    assert project.registry is not None
    for entry in project.registry.entries:
        namespace: dict[str, object] = {}
        exec(entry.python, namespace)
        assert namespace[entry.name] == getattr(Scenarios, entry.name), entry.name
