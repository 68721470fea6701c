"""Benchmark refgen against autodoc + autosummary and against static reST pages.

Usage (from the repository root, after ``pip install -e '.[test]'``)::

    python bench/run.py            # N = 100 and 500, writes bench/RESULTS.md
    python bench/run.py --sizes 50 # a quick run, printed only

For each size it writes a synthetic package (bench/synthetic.py) and three
Sphinx projects documenting the same classes, one page per class and per
module: refgen; sphinx.ext.autodoc with autosummary; and the pages refgen
generates, written out beforehand as static reST. Every build runs in its own
process on a fresh copy; wall time and the child's peak RSS are recorded.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_conf, write_package

PACKAGE = "synth"
READING = re.compile(r"reading sources\.\.\. \[\s*\d+%\] (\S+)")


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mib: float
    reread: int
    returncode: int


def sphinx(src: Path, out: Path, package_root: Path, *options: str, builder: str = "html") -> Run:
    env = dict(os.environ, PYTHONPATH=str(package_root), PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1")
    command = [sys.executable, "-m", "sphinx", "-b", builder, *options, str(src), str(out)]
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=err, text=True)
        # wait4 reaps the child and reports its own peak RSS (not that of all children).
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode != 0:
        print(stderr[-2000:], file=sys.stderr)
    reread = len(set(READING.findall(stdout)))
    return Run(seconds, usage.ru_maxrss / 1024, reread, process.returncode)


def refgen_project(docs: Path, modules: list[str]) -> None:
    write_conf(
        docs,
        f"""
        extensions = ["refgen", "sphinx.ext.doctest"]
        refgen_modules = {modules!r}
        refgen_registry = "{PACKAGE}.registry.Named"
        """,
    )
    (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n   reference/index\n")


def autodoc_project(docs: Path, modules: list[str]) -> None:
    write_conf(
        docs,
        """
        extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.viewcode",
                      "sphinx.ext.doctest"]
        autosummary_generate = True
        autodoc_default_options = {"members": True, "undoc-members": True}
        templates_path = ["_templates"]
        """,
    )
    templates = docs / "_templates" / "autosummary"
    templates.mkdir(parents=True)
    (templates / "module.rst").write_text(
        "{{ fullname | escape | underline }}\n\n.. automodule:: {{ fullname }}\n   :no-members:\n\n"
        ".. autosummary::\n   :toctree:\n\n{% for item in classes %}   {{ item }}\n{% endfor %}\n"
    )
    (templates / "class.rst").write_text(
        "{{ objname | escape | underline }}\n\n.. currentmodule:: {{ module }}\n\n"
        ".. autoclass:: {{ objname }}\n   :members:\n   :undoc-members:\n"
    )
    listing = "".join(f"   {m}\n" for m in modules)
    (docs / "index.rst").write_text(
        f"Bench\n=====\n\n.. autosummary::\n   :toctree: api\n\n{listing}"
    )


def static_project(docs: Path, modules: list[str], package_root: Path) -> None:
    """The pages refgen generates, rendered once and written out as plain reST."""
    script = f"""
import sys
from pathlib import Path
from refgen import analysis, discovery, render, values
from refgen.pages import plan_site
docs = Path({str(docs)!r})
registry = analysis.analyse_registry("{PACKAGE}.registry.Named")
plan = plan_site({modules!r}, "{PACKAGE}.registry.Named", "reference", "Reference")
for page in plan.pages:
    directive, _, argument = page.text.split("\\n\\n", 1)[1].partition(":: ")
    argument = argument.splitlines()[0]
    if "refgen-scenario" in directive:
        doc = analysis.analyse_scenario(discovery.resolve(argument), registry)
        lines = render.render_scenario(doc, values.scenario_values(doc), 5)
    elif "refgen-category" in directive:
        module = discovery.import_module(argument)
        docs_ = [analysis.analyse_scenario(c) for c in discovery.scenario_classes(module)]
        lines = render.render_category(analysis.analyse_module(argument), docs_)
    elif "refgen-registry" in directive:
        lines = render.render_registry(registry)
    elif "refgen-index" in directive:
        entries = [line.strip() for line in page.text.splitlines() if line.startswith("   ")]
        lines = render.render_index("Reference", "Static.", entries)
    else:
        continue
    path = docs / (page.docname + ".rst")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\\n".join(lines) + "\\n")
"""
    env = dict(os.environ, PYTHONPATH=str(package_root))
    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    write_conf(docs, 'extensions = ["refgen"]\nrefgen_modules = []\nrefgen_root = "_unused"\n')
    (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n   reference/index\n")


def edit_one_module(package_root: Path) -> None:
    """Change one property body in the first module, as an author would."""
    path = package_root / PACKAGE / "group000.py"
    text = path.read_text()
    path.write_text(
        text.replace("return self.alpha * self.beta", "return self.beta * self.alpha", 1)
    )
    later = time.time() + 2
    os.utime(path, (later, later))


def fastest(repeat: int, build: Callable[[], Run], leftovers: list[Path]) -> Run:
    """The quickest of ``repeat`` clean builds (timeit's rule: slower runs measure noise).

    Before each, ``leftovers`` (the output and any pages the build generates
    into its sources) are deleted, so that every repeat starts from scratch.
    """
    runs = []
    for _ in range(repeat):
        for path in leftovers:
            shutil.rmtree(path, ignore_errors=True)
        runs.append(build())
    return min(runs, key=lambda run: run.seconds)


GENERATED = {"refgen": "reference", "autodoc": "api", "static": None}
"""Where each project's build writes pages into its own sources."""


def measure(size: int, workdir: Path, repeat: int = 1) -> dict[str, dict[str, Run]]:
    results: dict[str, dict[str, Run]] = {}
    for kind in ("refgen", "autodoc", "static"):
        runs: dict[str, Run] = {}
        for label, options in (("clean", ()), ("parallel", ("-j", "2"))):
            root = workdir / f"{kind}-{label}"
            package_root = root / "src"
            modules = write_package(package_root, PACKAGE, size)
            docs = root / "docs"
            if kind == "refgen":
                refgen_project(docs, modules)
            elif kind == "autodoc":
                autodoc_project(docs, modules)
            else:
                static_project(docs, modules, package_root)
            generated = [docs / GENERATED[kind]] if GENERATED[kind] else []
            build = partial(sphinx, docs, root / "html", package_root, *options)
            runs[label] = fastest(repeat, build, [root / "html", *generated])
            if label == "clean":
                edit_one_module(package_root)
                runs["incremental"] = sphinx(docs, root / "html", package_root)
                if kind != "static":
                    runs["examples"] = sphinx(
                        docs, root / "doctest", package_root, builder="doctest"
                    )
        results[kind] = runs
        summary = ", ".join(f"{k} {v.seconds:.1f}s" for k, v in runs.items())
        print(f"N={size} {kind}: {summary}", flush=True)
    return results


TARGETS = (
    ("refgen clean / autodoc clean", ("refgen", "clean"), ("autodoc", "clean"), "<=", 0.8),
    ("refgen clean / static reST clean", ("refgen", "clean"), ("static", "clean"), "<=", 1.1),
    ("refgen serial / refgen -j 2", ("refgen", "clean"), ("refgen", "parallel"), ">=", 1.5),
    (
        "refgen incremental / refgen clean",
        ("refgen", "incremental"),
        ("refgen", "clean"),
        "<=",
        0.15,
    ),
)


def _row(size: int, kind: str, runs: dict[str, Run]) -> str:
    examples = f"{runs['examples'].seconds:.1f}" if "examples" in runs else "n/a"
    return (
        f"| {size} | {kind} | {runs['clean'].seconds:.1f} | {runs['parallel'].seconds:.1f} | "
        f"{runs['incremental'].seconds:.1f} | {runs['incremental'].reread} | {examples} | "
        f"{runs['clean'].peak_mib:.0f} |"
    )


def _check(size: int, results: dict[str, dict[str, Run]]) -> list[str]:
    lines = []
    for name, (kind_a, run_a), (kind_b, run_b), operator, bound in TARGETS:
        value = results[kind_a][run_a].seconds / results[kind_b][run_b].seconds
        met = value <= bound if operator == "<=" else value >= bound
        verdict = "met" if met else "NOT met"
        lines.append(f"| {size} | {name} | {value:.2f} | {operator} {bound} | {verdict} |")
    memory = results["refgen"]["clean"].peak_mib / results["autodoc"]["clean"].peak_mib
    lines.append(f"| {size} | refgen peak RSS / autodoc peak RSS | {memory:.2f} | reported | |")
    return lines


def report(all_results: dict[int, dict[str, dict[str, Run]]]) -> str:
    timings = [
        "| N | project | clean (s) | -j 2 (s) | incremental (s) | pages re-read | "
        "examples (s) | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    checks = ["| N | ratio | measured | target | |", "|---|---|---|---|---|"]
    for size, results in all_results.items():
        timings += [_row(size, kind, runs) for kind, runs in results.items()]
        checks += _check(size, results)
    return "\n".join(
        ["### Timings", "", *timings, "", "### Ratios against the targets", "", *checks]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    parser.add_argument(
        "--repeat", type=int, default=2, help="clean and -j 2 builds: keep the fastest of this many"
    )
    args = parser.parse_args()
    all_results = {}
    with tempfile.TemporaryDirectory(prefix="refgen-bench-") as tmp:
        for size in args.sizes:
            workdir = Path(tmp) / f"n{size}"
            all_results[size] = measure(size, workdir, args.repeat)
            shutil.rmtree(workdir)
    table = report(all_results)
    print(table)
    if args.write:
        (Path(__file__).parent / "RESULTS.md").write_text(
            "# Benchmark results\n\n"
            f"Measured on this machine ({os.cpu_count()} cores) with "
            f"`python bench/run.py --write --sizes {' '.join(map(str, args.sizes))} "
            f"--repeat {args.repeat}` (clean and `-j 2` times: the fastest of {args.repeat}).\n\n"
            f"{table}\n"
        )


if __name__ == "__main__":
    main()
