"""The deep-reach shape: helpers over about 30 modules that call each other, and constants.

``bench/real_library.py`` writes one module of pydantic scenario classes whose
properties call a dozen helpers of one module. The library issue 34 measured
reaches much further from each class, and that is what makes fingerprints
expensive when every page walks its reach afresh:

- ``pkg/physics/``: 30 modules of helpers in three layers. A helper of the top
  layer calls three of the middle layer, each of which calls three
  of the bottom layer, in other modules; modules import one another at
  the top (``from pkg.physics import p03``), by name (``from pkg.physics.p05
  import ...``) and inside function bodies. In each middle module two helpers
  call each other (a strongly connected pair).
- ``pkg/constants/``: four modules of 250 statements each. Most are literals;
  every fifth is computed from earlier ones; every helper reads three to six
  (``hw.HW_017`` through an imported module, or a name imported from it).
- every property of the models calls one or two top-layer helpers (imported
  inside its body, as in the shallow shape), and the arguments of each registry
  entry call three top-layer helpers of other modules.

Each class page then reaches a few hundred source units, and its registry
entries a few hundred more: the scale issue 34 measured (about 250 and 350-500).
Helpers return ``x * factor`` with factors within a percent of 1, so the
figures stay those of the shallow shape, give or take a percent.

Everything is drawn from a seeded ``random.Random``: the same size and seed write
the same files. :class:`CallGraph` records who calls whom, so the benchmark can
pick a helper that a given share of the classes reaches.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

PHYSICS_MODULES = 30
HELPERS_PER_MODULE = 12
LAYERS = 3
"""Modules 0-9 are the bottom layer, 10-19 the middle, 20-29 the top."""
CONSTANT_MODULES = {"hardware": "HW", "network": "NET", "power": "PWR", "economics": "ECO"}
CONSTANTS_PER_MODULE = 250


def helper_name(module: int, index: int) -> str:
    return f"adjust_{module:02d}_{index:02d}"


def module_name(module: int) -> str:
    return f"p{module:02d}"


def layer_of(module: int) -> int:
    return module * LAYERS // PHYSICS_MODULES


@dataclass
class CallGraph:
    """Helper -> the helpers and constants it reads, by qualified name (``p03.adjust_03_07``)."""

    calls: dict[str, list[str]] = field(default_factory=dict)
    constants: dict[str, list[str]] = field(default_factory=dict)

    def reached(self, roots: list[str]) -> set[str]:
        seen: set[str] = set()
        stack = list(roots)
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack += self.calls.get(name, [])
        return seen


def _qualified(module: int, index: int) -> str:
    return f"{module_name(module)}.{helper_name(module, index)}"


def _constants_module(rng: random.Random, prefix: str, title: str) -> str:
    lines = [f'"""{title.capitalize()} constants: stated figures and a few derived ones."""', ""]
    for number in range(CONSTANTS_PER_MODULE):
        name = f"{prefix}_{number:03d}"
        if number >= 10 and number % 5 == 0:
            a, b = rng.sample(range(number - 10, number), 2)
            lines.append(f"{name} = ({prefix}_{a:03d} + {prefix}_{b:03d}) / 2")
        else:
            lines.append(f"{name} = {rng.uniform(0.9, 1.1):.4f}")
    return "\n".join(lines) + "\n"


def _docstring(name: str, layer: int, reads: list[tuple[str, str]]) -> str:
    """A helper's docstring, as long as a documented helper's in a real library."""
    constants = ", ".join(f"``{constant}``" for _, constant in reads)
    return (
        f'    """Scale ``x`` by the {name.replace("_", " ")} factor (layer {layer}).\n\n'
        "    The factor is within a percent of one. It stands for a derating that\n"
        "    a real model would read from a data sheet: the sustained share of a\n"
        "    peak figure, a protocol's overhead or a facility's losses, each taken\n"
        f"    from the stated constants {constants}.\n\n"
        "    Parameters\n    ----------\n    x : Quantity or float\n"
        "        The figure to derate, in any unit; the result keeps it.\n\n"
        "    Returns\n    -------\n    Quantity or float\n"
        "        ``x`` times the factor.\n"
        '    """'
    )


def _constant_reads(rng: random.Random) -> list[tuple[str, str]]:
    """Three to six (module, constant) pairs."""
    found = []
    for _ in range(rng.randint(3, 6)):
        title, prefix = rng.choice(list(CONSTANT_MODULES.items()))
        found.append((title, f"{prefix}_{rng.randrange(CONSTANTS_PER_MODULE):03d}"))
    return found


def _callees(rng: random.Random, module: int) -> list[tuple[int, int]]:
    """Three helpers of the layer below, in other modules."""
    layer = layer_of(module)
    if layer == 0:
        return []
    size = PHYSICS_MODULES // LAYERS
    below = range((layer - 1) * size, layer * size)
    return [(rng.choice(below), rng.randrange(HELPERS_PER_MODULE)) for _ in range(3)]


def _physics_module(rng: random.Random, module: int, graph: CallGraph) -> str:
    """One module of helpers; records their calls and constant reads in ``graph``."""
    layer = layer_of(module)
    imports: set[str] = set()
    functions = []
    for index in range(HELPERS_PER_MODULE):
        name = helper_name(module, index)
        qualified = _qualified(module, index)
        reads = _constant_reads(rng)
        callees = _callees(rng, module)
        graph.calls[qualified] = [_qualified(m, i) for m, i in callees]
        graph.constants[qualified] = [f"{title}.{constant}" for title, constant in reads]
        factor_terms = []
        for number, (title, constant) in enumerate(reads):
            if number % 2:  # a name imported from the constants module
                imports.add(f"from pkg.constants.{title} import {constant}")
                factor_terms.append(f"({constant} - 1)")
            else:  # an attribute of the module, imported under a short name
                short = CONSTANT_MODULES[title].lower()
                imports.add(f"from pkg.constants import {title} as {short}")
                factor_terms.append(f"({short}.{constant} - 1)")
        body = []
        value = "x"
        local = []
        for number, (callee_module, callee_index) in enumerate(callees):
            callee = helper_name(callee_module, callee_index)
            if number == 0:  # imported inside the body
                local.append(f"from pkg.physics.{module_name(callee_module)} import {callee}")
                value = f"{callee}({value})"
            else:  # through the module imported at the top
                imports.add(f"from pkg.physics import {module_name(callee_module)}")
                value = f"{module_name(callee_module)}.{callee}({value})"
        pair = layer == 1 and index in (0, 1)
        if pair:
            graph.calls[qualified].append(_qualified(module, 1 - index))
        signature = f"def {name}(x, depth=0):" if pair else f"def {name}(x):"
        docstring = _docstring(name, layer, reads)
        body.append(signature)
        body.append(docstring)
        body += [f"    {line}" for line in local]
        if pair:  # the two call each other once: a strongly connected pair
            other = helper_name(module, 1 - index)
            body.append("    if depth < 1:")
            body.append(f"        x = {other}(x, depth + 1)")
        factor = " + ".join(factor_terms)
        body.append(f"    spread = ({factor}) / {len(factor_terms)}")
        body.append("    margin = min(max(spread, -0.5), 0.5)")
        body.append(f"    factor = 1 + ({factor}) * 0.01")
        body.append("    if abs(margin) > 0.49:  # a stated figure out of its range: no derating")
        body.append("        factor = 1.0")
        body.append(f"    return {value} * factor")
        functions.append("\n".join(body))
    header = f'"""Physics helpers, layer {layer}: module {module:02d}."""\n\n'
    return header + "\n".join(sorted(imports)) + "\n\n\n" + "\n\n\n".join(functions) + "\n"


def write_physics(folder: Path, seed: int) -> CallGraph:
    """Write ``folder/physics`` and ``folder/constants``; the helpers' call graph."""
    rng = random.Random(seed)
    graph = CallGraph()
    constants = folder / "constants"
    constants.mkdir(parents=True, exist_ok=True)
    (constants / "__init__.py").write_text('"""Stated constants the helpers read."""\n')
    for title, prefix in CONSTANT_MODULES.items():
        (constants / f"{title}.py").write_text(_constants_module(rng, prefix, title))
    physics = folder / "physics"
    physics.mkdir(parents=True, exist_ok=True)
    (physics / "__init__.py").write_text('"""Physics helpers in three layers."""\n')
    for module in range(PHYSICS_MODULES):
        (physics / f"{module_name(module)}.py").write_text(_physics_module(rng, module, graph))
    return graph


def top_helpers(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """``count`` helpers of the top layer, each in a different module."""
    size = PHYSICS_MODULES // LAYERS
    modules = rng.sample(range((LAYERS - 1) * size, PHYSICS_MODULES), count)
    return [(module, rng.randrange(HELPERS_PER_MODULE)) for module in modules]


def deepen_property(rng: random.Random, lines: list[str]) -> tuple[list[str], list[str]]:
    """A property's lines with its returned value passed through one or two top-layer
    helpers (imported inside the body); the helpers called."""
    helpers = top_helpers(rng, rng.choice((1, 1, 2)))
    imports = [f"    from .physics.{module_name(m)} import {helper_name(m, i)}" for m, i in helpers]
    at = next(n for n, line in enumerate(lines) if line.startswith("    return "))
    end = at
    while _open(lines, at, end):
        end += 1
    returned = "\n".join(lines[at : end + 1]).removeprefix("    return ")
    for module, index in helpers:
        returned = f"{helper_name(module, index)}({returned})"
    deepened = [*lines[:at], *imports, *f"    return {returned}".split("\n"), *lines[end + 1 :]]
    return deepened, [_qualified(m, i) for m, i in helpers]


def _open(lines: list[str], start: int, end: int) -> bool:
    """Whether the brackets opened in ``lines[start:end + 1]`` are still open."""
    text = "\n".join(lines[start : end + 1])
    return text.count("(") > text.count(")")


ARGUMENT = re.compile(r"(\w+)=Q_\(([^,]+), (\"[^\"]+\")\)")


def deepen_entry(rng: random.Random, entry: str) -> tuple[str, list[str], list[str]]:
    """A registry entry whose quantity arguments call three top-layer helpers; the helpers'
    import lines and qualified names."""
    helpers = top_helpers(rng, 3)
    names = [helper_name(m, i) for m, i in helpers]
    matches = list(ARGUMENT.finditer(entry))
    for match, name in zip(matches[:3], names, strict=False):
        name_, number, unit = match.groups()
        entry = entry.replace(match.group(0), f"{name_}=Q_({name}({number}), {unit})", 1)
    used = helpers[: len(matches[:3])]
    imports = [f"from .physics.{module_name(m)} import {helper_name(m, i)}" for m, i in used]
    return entry, imports, [_qualified(m, i) for m, i in used]
