"""A Sphinx extension for ``bench/sphinx_floor.py``: each document replays the nodes
another build read for it.

``.. replay:: DOCNAME`` returns the children of ``DOCNAME``'s pickled doctree from
the folder the ``replay_doctrees`` setting names. refgen's node types and the two
``doctree-resolved`` handlers that turn its pending nodes into writable ones are
registered as refgen registers them, with refgen's memory handling; furo's sidebar
tree is left out. Nothing of refgen's planning or composing runs.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.ext.viewcode import viewcode_anchor
from sphinx.util.docutils import SphinxDirective

from refgen.sphinx import compact_tables, memory, roles
from refgen.sphinx.extension import add_nodes


class ReplayDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        folder = Path(self.config.replay_doctrees)
        doctree = pickle.loads((folder / f"{self.arguments[0]}.doctree").read_bytes())
        # viewcode's anchors were added by the build replayed, which had viewcode on.
        for anchor in list(doctree.findall(viewcode_anchor)):
            anchor.parent.remove(anchor)
        children = list(doctree.children)
        doctree.clear()
        for child in children:  # as if built here: each node knows this document
            for node in child.findall():
                node.document = self.state.document
        return children


def no_sidebar_tree(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Before furo's handler: no navigation tree in the sidebar (refgen writes one tree
    for all its pages, in a script; writing none is cheaper still)."""
    if "toctree" in context:
        context["toctree"] = lambda **options: ""


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("replay_doctrees", "", "env")
    add_nodes(app)
    app.add_directive("replay", ReplayDirective)
    app.connect("doctree-resolved", roles.resolve_source_links, priority=400)
    app.connect("doctree-resolved", compact_tables.expand_tables)
    app.connect("html-page-context", no_sidebar_tree, priority=400)
    # refgen's memory handling, as refgen connects it: without it Sphinx holds every
    # doctree read until it is written, and the collector walks them all, again and again.
    app.connect("builder-inited", lambda app: memory.freeze_what_sphinx_loaded())
    app.connect("doctree-read", memory.release_read_doctrees)
    app.connect("env-purge-doc", memory.let_go_of_pages_read)
    app.connect("write-started", memory.freeze_what_was_read)
    app.connect("doctree-resolved", memory.take_apart_written_doctree, priority=900)
    app.connect("build-finished", memory.forget_build)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
