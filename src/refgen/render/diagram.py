"""The data-flow diagram of a scenario class, as inline SVG.

Inputs sit in the first column; each derived attribute sits one column to the
right of the furthest attribute it reads. Within a column, nodes are ordered
by the average row of what they read, which keeps most edges short. The SVG
needs no JavaScript, no network and no Graphviz; each node links to its row.
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
    """An SVG drawing of who reads whom; ``anchor(name)`` is each node's target on the page.

    None when there is nothing to draw: no attribute, or no derived attribute to read
    the inputs (a row of unconnected inputs says nothing).
    """
    nodes = place(scenario)
    if not nodes or not scenario.derived:
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
    arrow = f"refgen-arrow-{scenario.name}"
    svg.append(_arrowhead(arrow))
    for derived in scenario.derived:
        for source in derived.reads:
            if source in box:
                edge = _edge(box[source], box[derived.name], source, derived.name)
                edge.set("marker-end", f"url(#{arrow})")
                svg.append(edge)
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


def _arrowhead(marker_id: str) -> ET.Element:
    """The arrowhead every edge ends in, drawn in the text colour (so in dark mode too)."""
    return element(
        "defs",
        element(
            "marker",
            element("path", d="M0,0 L10,5 L0,10 z", **{"class": "refgen-arrowhead"}),
            id=marker_id,
            viewBox="0 0 10 10",
            refX="10",
            refY="5",
            markerWidth="7",
            markerHeight="7",
            orient="auto",
        ),
    )


def _edge(
    source: tuple[float, ...], target: tuple[float, ...], reader_of: str, reader: str
) -> ET.Element:
    """A curve from ``source``'s right side to ``target``'s left side that crosses no box.

    Boxes stand in rows shared by every column, so the gaps between rows and between
    columns are free: an edge between neighbouring columns bends within their gap; a
    longer one bends into the row gap next to its target, runs along it, and bends
    out again in the column gap before the target. An edge that runs backwards (code
    whose properties read each other in a cycle) takes the same lanes.
    """
    x1, y1 = source[0] + source[2], source[1] + source[3] / 2
    x2, y2 = target[0], target[1] + target[3] / 2
    bend = COLUMN_GAP / 2
    if 0 < x2 - x1 <= COLUMN_GAP + 0.5:
        path = f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} "
    else:
        above = y1 < y2  # run along the gap on the source's side of the target row
        lane = target[1] - ROW_GAP / 2 if above else target[1] + target[3] + ROW_GAP / 2
        path = (
            f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x1 + bend:.1f},{lane:.1f} "
            f"{x1 + COLUMN_GAP:.1f},{lane:.1f} L{x2 - COLUMN_GAP:.1f},{lane:.1f} "
            f"C{x2 - bend:.1f},{lane:.1f} {x2 - bend:.1f},{y2:.1f} "
        )
    return element(
        "path",
        d=path + f"{x2:.1f},{y2:.1f}",
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
