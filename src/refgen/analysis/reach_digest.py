"""Content-addressed digests of the reach graph: each node's covers all it reaches.

A node's digest is made of its own text and its children's digests, so it
changes exactly when the text of anything it reaches changes, or what one of
them refers to. Helpers that call each other (a strongly connected component,
found with Tarjan's algorithm) share one digest, made of all their texts and
the digests of what they reach outside. Every node is digested once per build:
a page's fingerprint then combines the digests of its few roots, instead of
walking and hashing everything it reaches again.

A node that reads a module by a name the code computes (:attr:`Reach.unknowable
<refgen.analysis.reach.Reach.unknowable>`) makes every digest above it
*unknown*: a page that reaches it can never be taken as unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from refgen.analysis.reach import Reach
from refgen.analysis.reach_files import Node


@dataclass(frozen=True)
class Digest:
    """What a node reaches, in one value."""

    hexdigest: str
    unknowable: frozenset[Node]
    """The nodes it reaches whose dependencies cannot be known (usually none)."""


class DigestGraph:
    """Digests of the nodes of one :class:`Reach`, each computed once."""

    def __init__(self, reach: Reach) -> None:
        self.reach = reach
        self._done: dict[Node, Digest] = {}

    def of(self, node: Node) -> Digest:
        if node not in self._done:
            self._settle(node)
        return self._done[node]

    def _settle(self, root: Node) -> None:
        """Digest ``root`` and everything it reaches that has no digest yet (Tarjan's
        strongly connected components, without recursion: reach can be deep)."""
        order: dict[Node, int] = {root: 0}
        low: dict[Node, int] = {root: 0}
        stack: list[Node] = [root]
        on_stack: set[Node] = {root}
        walk: list[tuple[Node, Iterator[Node]]] = [(root, iter(self.reach.children(root)))]
        while walk:
            node, children = walk[-1]
            for child in children:
                if child in self._done:
                    continue
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    walk.append((child, iter(self.reach.children(child))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], order[child])
            else:
                walk.pop()
                if walk:
                    parent = walk[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == order[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    self._finish(members)

    def _finish(self, members: list[Node]) -> None:
        """One component: every child outside it already has its digest."""
        inside = set(members)
        outside = {
            child
            for member in members
            for child in self.reach.children(member)
            if child not in inside
        }
        hashed = hashlib.sha256()
        for unit in sorted(self.reach.unit(member) for member in members):
            hashed.update(unit.encode())
        hashed.update(b"\1")
        reached = [self._done[child] for child in outside]
        for hexdigest in sorted({digest.hexdigest for digest in reached}):
            hashed.update(hexdigest.encode())
        unknowable = frozenset(m for m in members if m in self.reach.unknowable).union(
            *(digest.unknowable for digest in reached)
        )
        digest = Digest(hashed.hexdigest(), unknowable)
        for member in members:
            self._done[member] = digest

    def combined(self, roots: Iterable[Node], *extra: str, also: Iterable[Digest] = ()) -> Digest:
        """One digest for what ``roots`` reach together, with other text (settings) and
        digests already combined (``also``)."""
        digests = [self.of(root) for root in roots]
        hashed = hashlib.sha256()
        for hexdigest in sorted({digest.hexdigest for digest in digests}):
            hashed.update(hexdigest.encode())
        hashed.update(b"\1")
        for text in extra:
            hashed.update(f"{text}\0".encode("utf-8", "surrogateescape"))
        hashed.update(b"\1")
        kept = list(also)
        for digest in kept:
            hashed.update(digest.hexdigest.encode())
        unknowable = frozenset().union(*(d.unknowable for d in [*digests, *kept]))
        return Digest(hashed.hexdigest(), unknowable)
