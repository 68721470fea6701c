"""Line breaks in typeset equations: a long equation's MathML cut where a line may end.

MathML Core has no automatic line breaking, so a long equation would overflow
a narrow page. :func:`breakable_at_operators` works on the laid-out tree (not
the source): it cuts the outermost sum, product or call into pieces, each its
own ``<math>`` element, that the browser wraps between.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from refgen.render.math_elements import (
    FUNCTION_APPLICATION,
    MINUS_SIGN,
    MULTIPLICATION_SIGN,
    element,
    math_element,
)

_LOOSEST_FIRST = (frozenset({"+", MINUS_SIGN}), frozenset({MULTIPLICATION_SIGN}))
"""Operators a long equation may start a new line with, by how loosely they bind."""
WRAPPED_CLASS = "refgen-math-lines"


def _infix_operator(node: ET.Element) -> str | None:
    if node.tag == "mrow" and len(node) == 3 and node[1].tag == "mo":
        return node[1].text
    return None


def _outermost_chain(node: ET.Element, operators: frozenset[str] | None = None) -> list[ET.Element]:
    """``a + b − c`` as ``[a, +, b, −, c]``: the terms and operators of the outermost sum
    (or, when there is none, product), never looking inside brackets or fractions; a call
    ``f(a, b)`` as ``[f, ⁡, (, a, ",", b, )]``, its arguments apart."""
    while node.tag == "mrow" and len(node) == 1:
        node = node[0]
    symbol = _infix_operator(node)
    if operators is None and _is_application(node):
        return [node[0], node[1], *node[2]]
    if operators is None and symbol is None and node.tag == "mrow" and len(node) > 1:
        if _is_bracketed(node):  # brackets around the whole equation: break inside them
            return [node[0], *_outermost_chain(node[1]), node[2]]
        # what is converted to a unit (``f(a, b) in GB``, ``(a + b) in GB``): its parts apart
        return [*_outermost_chain(node[0]), *node[1:]]
    if operators is None:
        operators = next((group for group in _LOOSEST_FIRST if symbol in group), frozenset())
    if symbol is None or symbol not in operators:
        return [node]
    return [*_outermost_chain(node[0], operators), node[1], *_outermost_chain(node[2], operators)]


def _is_application(node: ET.Element) -> bool:
    return (
        node.tag == "mrow"
        and len(node) == 3
        and node[1].tag == "mo"
        and node[1].text == FUNCTION_APPLICATION
        and node[2].tag == "mrow"
        and len(node[2]) >= 3
    )


def _is_bracketed(node: ET.Element) -> bool:
    return len(node) == 3 and node[0].text == "(" and node[2].text == ")"


def _breaks(chain: list[ET.Element]) -> list[int]:
    """Where a new line may start: before an operator of the chain, after ``=``, after a
    call's opening bracket and after each comma between its arguments."""
    found = []
    for position, part in enumerate(chain):
        if position == 0:
            continue
        if part.tag == "mspace":  # before the unit a figure is converted to
            found.append(position)
        if part.tag != "mo":
            continue
        if any(part.text in group for group in _LOOSEST_FIRST):
            found.append(position)
        elif part.text == "," and position + 1 < len(chain):
            found.append(position + 1)
        elif part.text == "=" and position + 1 < len(chain):
            found.append(position + 1)  # ``name =`` ends a line, the formula may start the next
        elif part.text == "(" and chain[position - 1].text == FUNCTION_APPLICATION:
            found.append(position + 1)  # a long name's arguments may start the next line
    return sorted(set(found))


def breakable_at_operators(math: ET.Element) -> ET.Element:
    """A ``<math>`` element as a run of ``<math>`` pieces, one per term of its outermost
    sum or product (or argument of its outermost call), each but the first starting with
    its operator: the browser wraps a long equation between pieces, where a reader expects
    a line to break (MathML Core has no automatic line breaking). An equation of one term
    is returned as it is."""
    chain = [part for child in math for part in _outermost_chain(child)]
    starts = _breaks(chain)
    if not starts:
        return math
    pieces: list[ET.Element] = []
    for begin, end in itertools.pairwise([0, *starts, len(chain)]):
        parts = chain[begin:end]
        if pieces and any(parts[0].text in group for group in _LOOSEST_FIRST):
            parts[0].set("form", "infix")  # spaced as between terms, not as a sign
        if pieces:
            pieces.append(element("wbr"))
        pieces.append(math_element(*parts))
    return element("span", *pieces, **{"class": WRAPPED_CLASS})
