"""The data-flow diagram of a scenario class, as inline SVG.

Inputs sit in the first column; each derived attribute sits one column to the
right of the furthest attribute it reads. Within a column, nodes are ordered
by the average row of what they read, which keeps most edges short. The SVG
needs no JavaScript, no network and no Graphviz; each node links to its entry.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from refgen.analysis.model import ScenarioDoc
from refgen.render.markup import element, internal_href

CHAR_WIDTH = 7.4
NODE_HEIGHT = 24
ROW_GAP = 10
COLUMN_GAP = 56
PADDING = 8


@dataclass(frozen=True)
class PlacedNode:
    name: str
    column: int
    row: int
    is_input: bool


def columns(scenario: ScenarioDoc) -> dict[str, int]:
    """Column of every attribute: 0 for inputs, 1 + deepest read for derived ones."""
    column = {item.name: 0 for item in scenario.inputs}
    reads = {d.name: d.reads for d in scenario.derived}

    def depth(name: str, visiting: frozenset[str] = frozenset()) -> int:
        if name in column:
            return column[name]
        if name in visiting:  # a cycle in the code; place it without recursing forever
            return 1
        below = [depth(r, visiting | {name}) for r in reads.get(name, ())]
        column[name] = 1 + max(below, default=0)
        return column[name]

    for name in reads:
        depth(name)
    return column


def place(scenario: ScenarioDoc) -> list[PlacedNode]:
    """Rows within each column, ordered by the mean row of each node's reads."""
    column = columns(scenario)
    reads = {d.name: d.reads for d in scenario.derived}
    order = [*(i.name for i in scenario.inputs), *(d.name for d in scenario.derived)]
    row: dict[str, int] = {}
    for index in range(max(column.values(), default=0) + 1):
        members = [name for name in order if column[name] == index]

        def barycentre(name: str) -> float:
            rows = [row[r] for r in reads.get(name, ()) if r in row]
            return sum(rows) / len(rows) if rows else float(order.index(name))

        if index > 0:
            members.sort(key=lambda name: (barycentre(name), order.index(name)))
        row.update({name: position for position, name in enumerate(members)})
    inputs = {i.name for i in scenario.inputs}
    return [PlacedNode(name, column[name], row[name], name in inputs) for name in order]


def data_flow_svg(scenario: ScenarioDoc, anchor: Callable[[str], str]) -> ET.Element | None:
    """An SVG drawing of who reads whom; ``anchor(name)`` is each node's target on the page."""
    nodes = place(scenario)
    if not nodes:
        return None
    widths: dict[int, float] = {}
    for node in nodes:
        widths[node.column] = max(widths.get(node.column, 0.0), len(node.name) * CHAR_WIDTH + 16)
    lefts: dict[int, float] = {}
    x = float(PADDING)
    for index in sorted(widths):
        lefts[index] = x
        x += widths[index] + COLUMN_GAP
    width = x - COLUMN_GAP + PADDING
    height = PADDING * 2 + max(n.row + 1 for n in nodes) * (NODE_HEIGHT + ROW_GAP) - ROW_GAP
    box = {n.name: _box(n, lefts, widths) for n in nodes}
    svg = element(
        "svg",
        element("title", text=f"Data flow of {scenario.name}"),
        xmlns="http://www.w3.org/2000/svg",
        role="img",
        width=f"{width:.0f}",
        height=f"{height:.0f}",
        viewBox=f"0 0 {width:.0f} {height:.0f}",
        **{
            "class": "refgen-dataflow",
            "aria-label": f"Data flow of {scenario.name}: inputs on the left, "
            "each derived attribute to the right of what it reads",
        },
    )
    for derived in scenario.derived:
        for source in derived.reads:
            if source in box:
                svg.append(_edge(box[source], box[derived.name], source, derived.name))
    titles = _titles(scenario)
    for node in nodes:
        svg.append(_node(node, box[node.name], internal_href(anchor(node.name)), titles))
    return svg


def _titles(scenario: ScenarioDoc) -> dict[str, str]:
    """Each node's tooltip, and what a screen reader says of it: its role and its edges."""
    none: tuple[str, ...] = ()
    edges = [(i.name, "input", none, i.feeds) for i in scenario.inputs]
    edges += [(d.name, "derived", d.reads, d.feeds) for d in scenario.derived]
    titles = {}
    for name, role, reads, feeds in edges:
        parts = [f"{name} ({role})"]
        if reads:
            parts.append(f"reads {', '.join(reads)}")
        if feeds:
            parts.append(f"feeds {', '.join(feeds)}")
        titles[name] = "; ".join(parts)
    return titles


def _box(node: PlacedNode, lefts: dict[int, float], widths: dict[int, float]) -> tuple[float, ...]:
    top = PADDING + node.row * (NODE_HEIGHT + ROW_GAP)
    return lefts[node.column], top, widths[node.column], NODE_HEIGHT


def _edge(
    source: tuple[float, ...], target: tuple[float, ...], reader_of: str, reader: str
) -> ET.Element:
    x1, y1 = source[0] + source[2], source[1] + source[3] / 2
    x2, y2 = target[0], target[1] + target[3] / 2
    bend = (x2 - x1) / 2
    return element(
        "path",
        d=f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} "
        f"{x2:.1f},{y2:.1f}",
        **{"class": "refgen-edge", "data-from": reader_of, "data-to": reader},
    )


def _node(
    node: PlacedNode, box: tuple[float, ...], href: str, titles: dict[str, str]
) -> ET.Element:
    x, y, width, height = box
    kind = "refgen-input" if node.is_input else "refgen-derived"
    return element(
        "a",
        element("title", text=titles[node.name]),
        element(
            "rect",
            x=f"{x:.1f}",
            y=f"{y:.1f}",
            width=f"{width:.1f}",
            height=f"{height}",
            rx="4",
        ),
        element(
            "text",
            text=node.name,
            x=f"{x + 8:.1f}",
            y=f"{y + height / 2 + 4:.1f}",
        ),
        href=href,
        **{"class": f"refgen-node {kind}"},
    )
