"""Plots of parameter sweeps, drawn with matplotlib as inline SVG.

:func:`sweep_svg` draws a computed :class:`~refgen.evaluate.sweeps.Sweep`: the
varied input along the x axis, one panel per unit among the figures (figures
in the same unit share a panel and a legend), axes labelled with the names
and pint units, gaps left as breaks in the line. Nothing is computed here
but the drawing.

matplotlib is imported inside :func:`sweep_svg` only, so nothing that merely
imports refgen (the command line above all) pays for it. It draws with its
SVG backend on a figure of its own (no pyplot, no global figure), with a fixed
hash salt and no metadata, so the same sweep gives the same bytes at every
build. The SVG it writes is read back into an element tree and made fit for a
page: its ids prefixed (several plots may share a page), its document-wide
style sheet and metadata dropped, and given ``role="img"``, a label and a
title. It reaches HTML through :func:`refgen.render.markup.serialize`, like
every other SVG.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

from refgen.evaluate.sweeps import Series, Sweep
from refgen.render.markup import element

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType  # noqa: TID251  (types only: nothing imported)

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
WIDTH = 6.4
"""Inches; at matplotlib's 72 points an inch, 460.8 pt."""
PANEL_HEIGHT = 2.6
"""Inches per panel, plus :data:`MARGIN_HEIGHT` for the x axis."""
MARGIN_HEIGHT = 0.8
STYLE: dict[RcKeyType, Any] = {
    "svg.hashsalt": "refgen",
    "svg.fonttype": "none",  # text stays text: selectable, and read by screen readers
    "path.simplify": False,  # a line through every point, even three in a row
    "font.size": 10.0,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}
"""matplotlib settings for every sweep plot, whatever the user's matplotlibrc says."""
LOOKS = (("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"))
"""Marker and line style of the first, second, ... figure of a panel: lines that lie on
each other stay apart, and colour is not the only difference between them."""
_URL = re.compile(r"url\(#([^)]+)\)")


def panels(sweep: Sweep) -> list[tuple[str, list[Series]]]:
    """The figures grouped by unit, in the order they were asked for."""
    grouped: dict[str, list[Series]] = {}
    for series in sweep.figures:
        grouped.setdefault(series.unit, []).append(series)
    return list(grouped.items())


def description(sweep: Sweep) -> str:
    """What the plot shows, in one sentence (its title and its label for screen readers)."""
    assert sweep.input is not None
    names = ", ".join(series.name for series in sweep.figures)
    present = [m for m in sweep.input.magnitudes if m is not None]
    low, high = sweep.input.texts[0], sweep.input.texts[-1]
    if present and present[0] > present[-1]:
        low, high = high, low
    unit = f" {sweep.input.unit}" if sweep.input.unit else ""
    return f"{names} of {sweep.entry_name} as {sweep.input.name} varies from {low} to {high}{unit}"


def line_id(series: Series) -> str:
    """The id (before the plot's prefix) of the group holding a figure's line and markers."""
    return f"line-{series.name}"


def axis_label(name: str, unit: str) -> str:
    return f"{name} ({unit})" if unit else name


def sweep_svg(sweep: Sweep, prefix: str) -> ET.Element:
    """The plot of ``sweep`` as an SVG element; ``prefix`` starts each of its ids."""
    import matplotlib  # noqa: TID251
    from matplotlib.figure import Figure  # noqa: TID251

    assert sweep.input is not None
    groups = panels(sweep)
    with matplotlib.rc_context(STYLE):
        figure = Figure(
            figsize=(WIDTH, MARGIN_HEIGHT + PANEL_HEIGHT * len(groups)), layout="constrained"
        )
        axes = figure.subplots(len(groups), 1, sharex=True, squeeze=False)[:, 0]
        for ax, (unit, members) in zip(axes, groups, strict=True):
            _draw_panel(ax, sweep.input, unit, members, sweep.request.log)
        axes[-1].set_xlabel(axis_label(sweep.input.name, sweep.input.unit), parse_math=False)
        written = io.StringIO()
        figure.savefig(written, format="svg", metadata={"Date": None, "Creator": None})
    return _for_a_page(ET.fromstring(written.getvalue()), prefix, description(sweep))


def _draw_panel(ax: Any, x: Series, unit: str, members: list[Series], log: bool) -> None:
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: TID251

    xs = [_plotted(m) for m in x.magnitudes]
    for number, series in enumerate(members):
        marker, line = LOOKS[number % len(LOOKS)]
        ys = [_plotted(m) for m in series.magnitudes]
        ax.plot(xs, ys, marker=marker, linestyle=line, markersize=4, gid=line_id(series))
    if len(members) == 1:
        ax.set_ylabel(axis_label(members[0].name, unit), parse_math=False)
    else:
        if unit:
            ax.set_ylabel(f"({unit})", parse_math=False)
        legend = ax.legend([series.name for series in members])
        for label in legend.get_texts():
            label.set_parse_math(False)
    ax.ticklabel_format(axis="y", style="plain", useOffset=False)  # each tick its own number
    if log:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())


def _plotted(magnitude: float | None) -> float:
    """A gap is NaN, which matplotlib leaves as a break in the line."""
    return math.nan if magnitude is None else float(magnitude)


# ---------------------------------------------------------------------- the SVG for a page


def _local(name: str) -> str:
    """``g`` for ``{http://www.w3.org/2000/svg}g``, ``href`` for xlink's ``href``."""
    return name.rpartition("}")[2]


def _for_a_page(svg: ET.Element, prefix: str, label: str) -> ET.Element:
    """matplotlib's document as an inline SVG of one page (see the module's docstring)."""
    ids = {value: f"{prefix}{value}" for node in svg.iter() if (value := node.get("id"))}

    def renamed(value: str) -> str:
        if value.startswith("#") and value[1:] in ids:
            return f"#{ids[value[1:]]}"
        return _URL.sub(lambda found: f"url(#{ids.get(found.group(1), found.group(1))})", value)

    def rebuilt(node: ET.Element) -> ET.Element | None:
        tag = _local(node.tag)
        if tag in ("metadata", "style"):
            return None
        attributes = {_local(key): value for key, value in node.attrib.items()}
        if "id" in attributes:
            attributes["id"] = ids[attributes["id"]]
        attributes = {key: renamed(value) for key, value in attributes.items()}
        made = element(tag, **attributes)
        made.text, made.tail = node.text, node.tail
        made.extend(child for child in map(rebuilt, node) if child is not None)
        return made

    page_svg = rebuilt(svg)
    assert page_svg is not None
    page_svg.attrib.update(
        {
            "xmlns": SVG_NAMESPACE,
            "role": "img",
            "aria-label": label,
            # matplotlib's style sheet, on this drawing only
            "stroke-linejoin": "round",
            "stroke-linecap": "butt",
        }
    )
    page_svg.attrib.pop("version", None)
    page_svg.insert(0, element("title", text=label))
    return page_svg
