"""Where a profiled Sphinx build spends its time, by phase.

Usage, after a build run under cProfile::

    python -m cProfile -o build.prof -m sphinx -b html DOCS OUT
    python bench/profile_phases.py build.prof [--top 25]

Each row is the cumulative time of one function (summed over the functions a
phase names) and its share of the whole build. Phases nest (reading contains
refgen's directives, which contain the analysis), so the shares do not add up
to 100 %. Pickling is split by caller: the environment (``Builder.build``) and
each doctree (``Builder.write_doctree``).
"""

from __future__ import annotations

import argparse
import pstats
from collections.abc import Iterable

Key = tuple[str, int, str]

PHASES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    ("whole build (sphinx.cmd.build.build_main)", (("sphinx/cmd/build.py", "build_main"),)),
    (
        "start-up: Sphinx.__init__ (config, extensions, builder-inited)",
        (("sphinx/application.py", "__init__"),),
    ),
    (
        "  refgen generate_pages (import, analysis, planning, stubs)",
        (("refgen/sphinx/extension.py", "generate_pages"),),
    ),
    ("    importing (Project.load)", (("refgen/project.py", "load"),)),
    ("    analysing every class (Project._analysed)", (("refgen/project.py", "_analysed"),)),
    ("    planning pages (Project.pages)", (("refgen/project.py", "pages"),)),
    ("    writing stubs (write_stubs)", (("refgen/sphinx/stubs.py", "write_stubs"),)),
    ("reading: Builder.read", (("sphinx/builders/__init__.py", "read"),)),
    (
        "  docutils/Sphinx parse of each page (Builder.read_doc)",
        (("sphinx/builders/__init__.py", "read_doc"),),
    ),
    ("  refgen directives (PageDirective.run)", (("refgen/sphinx/directives.py", "run"),)),
    ("    analysis (Project.scenario / _analysed)", (("refgen/project.py", "scenario"),)),
    ("    evaluation (Project.values)", (("refgen/project.py", "values"),)),
    ("    evaluation (Project.headline)", (("refgen/project.py", "headline"),)),
    (
        "    evaluation, anywhere (evaluate.values.entry_values)",
        (("refgen/evaluate/values.py", "entry_values"),),
    ),
    (
        "    page blocks (render: scenario_page)",
        (("refgen/render/scenario_page.py", "scenario_page"),),
    ),
    (
        "    page blocks (render: category/registry pages)",
        (("refgen/render/pages.py", "category_page"), ("refgen/render/pages.py", "registry_page")),
    ),
    ("    node building (NodeBuilder.page)", (("refgen/sphinx/node_builder.py", "page"),)),
    ("      prose parsing (NodeBuilder.prose)", (("refgen/sphinx/node_builder.py", "prose"),)),
    (
        "      py-domain directives (NodeBuilder._domain_directive)",
        (("refgen/sphinx/node_builder.py", "_domain_directive"),),
    ),
    (
        "  docutils/Sphinx transforms (Transformer.apply_transforms)",
        (("docutils/transforms/__init__.py", "apply_transforms"),),
    ),
    (
        "  toctree collector (TocTreeCollector.process_doc)",
        (("sphinx/environment/collectors/toctree.py", "process_doc"),),
    ),
    ("  Node.document property", (("docutils/nodes.py", "document"),)),
    ("writing: Builder.write", (("sphinx/builders/__init__.py", "write"),)),
    (
        "  resolving: BuildEnvironment.get_and_resolve_doctree",
        (("sphinx/environment/__init__.py", "get_and_resolve_doctree"),),
    ),
    (
        "    py-domain lookups (PythonDomain.resolve_xref)",
        (("sphinx/domains/python/__init__.py", "resolve_xref"),),
    ),
    (
        "    py-domain lookups (PythonDomain.find_obj)",
        (("sphinx/domains/python/__init__.py", "find_obj"),),
    ),
    (
        "  HTML builder write_doc (translation and page template)",
        (("sphinx/builders/html/__init__.py", "write_doc"),),
    ),
    (
        "    translating the doctree (Node.walkabout, called by write_doc)",
        (("docutils/nodes.py", "walkabout", "sphinx/builders/html/__init__.py:write_doc"),),
    ),
    (
        "  page template (StandaloneHTMLBuilder.handle_page)",
        (("sphinx/builders/html/__init__.py", "handle_page"),),
    ),
    (
        "    furo html-page-context (_html_page_context)",
        (("furo/__init__.py", "_html_page_context"),),
    ),
    (
        "      furo navigation (_compute_navigation_tree)",
        (("furo/__init__.py", "_compute_navigation_tree"),),
    ),
    (
        "        Sphinx global toctree (global_toctree_for_doc)",
        (("sphinx/environment/adapters/toctree.py", "global_toctree_for_doc"),),
    ),
    (
        "        rendering the toctree (StandaloneHTMLBuilder.render_partial)",
        (("sphinx/builders/html/__init__.py", "render_partial"),),
    ),
    ("        BeautifulSoup parse (BeautifulSoup.__init__)", (("bs4/__init__.py", "__init__"),)),
    (
        "    Jinja template render (BuiltinTemplateLoader.render)",
        (("sphinx/jinja2glue.py", "render"),),
    ),
    ("  search index (IndexBuilder.feed)", (("sphinx/search/__init__.py", "feed"),)),
    (
        "finishing: Builder.finish (search index, objects.inv, viewcode)",
        (("sphinx/builders/html/__init__.py", "finish"),),
    ),
)


def matching(stats: dict[Key, tuple], where: str, name: str) -> Iterable[Key]:
    return (key for key in stats if key[0].endswith(where) and key[2] == name)


def cumulative(stats: dict[Key, tuple], patterns: Iterable[tuple[str, ...]]) -> tuple[float, int]:
    """Summed over the patterns; of the functions one pattern matches, the costliest.

    (A pattern can match an override and the method it calls through ``super()``,
    or a property's getter and setter: adding them would count the time twice.)
    """
    seconds, calls = 0.0, 0
    for where, name, *caller in patterns:
        if caller:  # only the calls this caller makes
            time, count = by_caller(stats, (where, name)).get(caller[0], (0.0, 0))
            seconds, calls = seconds + time, calls + count
            continue
        found = [stats[key] for key in matching(stats, where, name)]
        if found:
            costliest = max(found, key=lambda row: row[3])
            seconds += costliest[3]
            calls += costliest[1]
    return seconds, calls


def by_caller(stats: dict[Key, tuple], callee: tuple[str, ...]) -> dict[str, tuple[float, int]]:
    """Cumulative time of ``callee`` split by its callers."""
    found: dict[str, tuple[float, int]] = {}
    for key in matching(stats, *callee):
        for caller, (_, calls, _, seconds) in stats[key][4].items():
            name = f"{caller[0].rsplit('site-packages/', 1)[-1]}:{caller[2]}"
            before = found.get(name, (0.0, 0))
            found[name] = (before[0] + seconds, before[1] + calls)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=25, help="functions by own time")
    args = parser.parse_args()
    stats: dict[Key, tuple] = pstats.Stats(args.profile).stats  # type: ignore[attr-defined]
    total = cumulative(stats, PHASES[0][1])[0]
    print("| phase | cumulative (s) | share | calls |\n|---|---|---|---|")
    for label, patterns in PHASES:
        seconds, calls = cumulative(stats, patterns)
        print(f"| {label} | {seconds:.1f} | {seconds / total:.1%} | {calls:,} |")
    for label, callee in (
        ("pickle.dump", ("~", "<built-in method _pickle.dump>")),
        ("pickle.loads", ("~", "<built-in method _pickle.loads>")),
    ):
        for caller, (seconds, calls) in sorted(by_caller(stats, callee).items()):
            print(f"| {label} from {caller} | {seconds:.1f} | {seconds / total:.1%} | {calls:,} |")
    print(f"\nTop {args.top} functions by own time (tottime):\n")
    print("| function | own (s) | cumulative (s) | calls |\n|---|---|---|---|")
    ranked = sorted(stats.items(), key=lambda item: -item[1][2])[: args.top]
    for (path, line, name), (_, calls, own, cum, _) in ranked:
        where = path.rsplit("site-packages/", 1)[-1]
        print(f"| {where}:{line} {name} | {own:.1f} | {cum:.1f} | {calls:,} |")


if __name__ == "__main__":
    main()
