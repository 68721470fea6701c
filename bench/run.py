"""Benchmark refgen against autodoc + autosummary and against static reST pages.

Usage (from the repository root, after ``pip install -e '.[test]'``)::

    python bench/run.py --write    # N = 100 and 500, writes bench/RESULTS.md
    python bench/run.py --sizes 50 # a quick run, printed only

For each size it writes a synthetic package (bench/synthetic.py) and three
Sphinx projects documenting the same classes, one page per class and per
module: refgen; sphinx.ext.autodoc with autosummary; and the pages refgen
generates, written out beforehand as static reST. Every build runs in its own
process; wall time and the child's peak RSS are recorded.

The projects are built in ``--rounds`` rounds. In each round every project is
built from scratch with ``-j 2`` and serially, then rebuilt with nothing
changed (Sphinx's fixed cost) and after a one-module edit. The static project
has no Python to read, so its edit touches the pages refgen re-read: what
Sphinx alone spends on the same incremental work. Each ratio is taken within
a round and the median over rounds is reported, with every round's value.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_conf, write_package

PACKAGE = "synth"
READING = re.compile(r"reading sources\.\.\. \[\s*\d+%\] (\S+)")


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mib: float
    docnames: frozenset[str]
    """The documents this build read."""
    returncode: int

    @property
    def reread(self) -> int:
        return len(self.docnames)


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
    docnames = frozenset(READING.findall(stdout))
    return Run(seconds, usage.ru_maxrss / 1024, docnames, process.returncode)


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
    script = Path(__file__).parent / "static_pages.py"
    registry = f"{PACKAGE}.registry.Named"
    env = dict(os.environ, PYTHONPATH=str(package_root))
    command = [sys.executable, str(script), str(docs), *modules, "--registry", registry]
    subprocess.run(command, env=env, check=True)
    write_conf(docs, 'extensions = ["refgen"]\nrefgen_modules = []\nrefgen_root = "_unused"\n')
    (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n   reference/index\n")


EDIT = ("return self.alpha * self.beta", "return self.beta * self.alpha")


def edit_one_module(package_root: Path) -> None:
    """Change one property body in the first module, as an author would (each call toggles it)."""
    path = package_root / PACKAGE / "group000.py"
    text = path.read_text()
    old, new = EDIT if EDIT[0] in text else EDIT[::-1]
    path.write_text(text.replace(old, new, 1))
    touch_later(path)


def touch_later(path: Path) -> None:
    later = time.time() + 2
    os.utime(path, (later, later))


@dataclass(frozen=True)
class Project:
    kind: str
    root: Path

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def package_root(self) -> Path:
        return self.root / "src"

    def output(self, label: str) -> Path:
        return self.root / f"html-{label}"

    @property
    def generated(self) -> list[Path]:
        """Pages the build writes into its own sources."""
        folder = {"refgen": "reference", "autodoc": "api"}.get(self.kind)
        return [self.docs / folder] if folder else []

    def build(self, label: str = "clean", builder: str = "html") -> Run:
        options = ("-j", "2") if label == "parallel" else ()
        return sphinx(self.docs, self.output(label), self.package_root, *options, builder=builder)

    def build_from_scratch(self, label: str) -> Run:
        for path in (self.output(label), *self.generated):
            shutil.rmtree(path, ignore_errors=True)
        return self.build(label)


def make_project(kind: str, root: Path, size: int) -> Project:
    project = Project(kind, root)
    modules = write_package(project.package_root, PACKAGE, size)
    if kind == "refgen":
        refgen_project(project.docs, modules)
    elif kind == "autodoc":
        autodoc_project(project.docs, modules)
    else:
        static_project(project.docs, modules, project.package_root)
    return project


KINDS = ("refgen", "static", "autodoc")
"""In the order each round builds them: refgen and static, the tightest ratio, side by side."""

Round = dict[str, dict[str, Run]]
"""One round's builds: project kind -> build label -> run."""


def measure(size: int, workdir: Path, rounds: int = 1) -> list[Round]:
    """Build every project ``rounds`` times over; ratios are then taken within a round.

    A round first builds every project with ``-j 2``, then each one clean
    followed by its two rebuilds (every build of the round from scratch except
    the rebuilds). The machine's speed drifts by 10-30 % over
    minutes, so comparing builds made minutes apart, not the fastest of each,
    keeps that drift out of the ratios.
    """
    projects = {kind: make_project(kind, workdir / kind, size) for kind in KINDS}
    all_rounds = []
    for number in range(rounds):
        runs: Round = {kind: {} for kind in KINDS}
        for kind, project in projects.items():
            runs[kind]["parallel"] = project.build_from_scratch("parallel")
        refgen_reread: frozenset[str] = frozenset()
        for kind, project in projects.items():
            runs[kind]["clean"] = project.build_from_scratch("clean")
            runs[kind] |= rebuilds(project, refgen_reread)
            if kind == "refgen":
                refgen_reread = runs[kind]["incremental"].docnames
            summary = ", ".join(f"{k} {v.seconds:.1f}s" for k, v in runs[kind].items())
            print(f"N={size} round {number + 1} {kind}: {summary}", flush=True)
        all_rounds.append(runs)
    for kind, project in projects.items():
        if kind != "static":
            all_rounds[-1][kind]["examples"] = project.build("examples", builder="doctest")
    return all_rounds


def rebuilds(project: Project, pages_to_touch: frozenset[str]) -> dict[str, Run]:
    """Rebuild with nothing changed, then after a one-module edit.

    The static project has no Python to read, so its edit touches the pages
    refgen re-read: Sphinx's own cost of re-reading and re-writing those pages.
    """
    runs = {"unchanged": project.build()}
    edit_one_module(project.package_root)
    for docname in pages_to_touch if project.kind == "static" else ():
        touch_later(project.docs / f"{docname}.rst")
    runs["incremental"] = project.build()
    return runs


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


CONTEXT = (
    ("static serial / static -j 2", ("static", "clean"), ("static", "parallel")),
    ("autodoc serial / autodoc -j 2", ("autodoc", "clean"), ("autodoc", "parallel")),
    ("static, same pages re-read / static clean", ("static", "incremental"), ("static", "clean")),
    ("static, nothing changed / static clean", ("static", "unchanged"), ("static", "clean")),
    ("refgen, nothing changed / refgen clean", ("refgen", "unchanged"), ("refgen", "clean")),
)
"""Ratios reported beside the targets: what Sphinx itself gives on the same pages."""


def _median_run(rounds: list[Round], kind: str, label: str) -> Run | None:
    """The middle run by time (of an even count, the slower of the middle two)."""
    runs = sorted((r[kind][label] for r in rounds if label in r[kind]), key=lambda run: run.seconds)
    return runs[len(runs) // 2] if runs else None


def _row(size: int, kind: str, rounds: list[Round]) -> str:
    def seconds(label: str) -> str:
        run = _median_run(rounds, kind, label)
        return f"{run.seconds:.1f}" if run else "n/a"

    clean = _median_run(rounds, kind, "clean")
    incremental = _median_run(rounds, kind, "incremental")
    assert clean and incremental
    return (
        f"| {size} | {kind} | {seconds('clean')} | {seconds('parallel')} | "
        f"{seconds('unchanged')} | {seconds('incremental')} | {incremental.reread} | "
        f"{seconds('examples')} | {clean.peak_mib:.0f} |"
    )


def _ratios(rounds: list[Round], a: tuple[str, str], b: tuple[str, str]) -> list[float]:
    """The ratio within each round (builds made minutes apart)."""
    return [r[a[0]][a[1]].seconds / r[b[0]][b[1]].seconds for r in rounds]


def _ratio_cells(values: list[float]) -> tuple[float, str]:
    median = statistics.median(values)
    return median, f"{median:.2f} | {', '.join(f'{v:.2f}' for v in values)}"


def _check(size: int, rounds: list[Round]) -> list[str]:
    lines = []
    for name, a, b, operator, bound in TARGETS:
        median, cells = _ratio_cells(_ratios(rounds, a, b))
        met = median <= bound if operator == "<=" else median >= bound
        verdict = "met" if met else "NOT met"
        lines.append(f"| {size} | {name} | {cells} | {operator} {bound} | {verdict} |")
    for name, a, b in CONTEXT:
        lines.append(f"| {size} | {name} | {_ratio_cells(_ratios(rounds, a, b))[1]} | reported | |")
    memory = [r["refgen"]["clean"].peak_mib / r["autodoc"]["clean"].peak_mib for r in rounds]
    cells = _ratio_cells(memory)[1]
    lines.append(f"| {size} | refgen peak RSS / autodoc peak RSS | {cells} | reported | |")
    return lines


def report(all_results: dict[int, list[Round]]) -> str:
    timings = [
        "| N | project | clean (s) | -j 2 (s) | nothing changed (s) | incremental (s) | "
        "pages re-read | examples (s) | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    checks = [
        "| N | ratio | median | each round | target | |",
        "|---|---|---|---|---|---|",
    ]
    for size, rounds in all_results.items():
        timings += [_row(size, kind, rounds) for kind in KINDS]
        checks += _check(size, rounds)
    return "\n".join(
        ["### Timings (median of the rounds)", "", *timings, "", "### Ratios", "", *checks]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    parser.add_argument(
        "--rounds", type=int, default=3, help="build every project this many times over"
    )
    args = parser.parse_args()
    all_results = {}
    with tempfile.TemporaryDirectory(prefix="refgen-bench-") as tmp:
        for size in args.sizes:
            workdir = Path(tmp) / f"n{size}"
            all_results[size] = measure(size, workdir, args.rounds)
            shutil.rmtree(workdir)
    table = report(all_results)
    print(table)
    if args.write:
        (Path(__file__).parent / "RESULTS.md").write_text(
            "# Benchmark results\n\n"
            f"Measured on this machine ({os.cpu_count()} cores) with "
            f"`python bench/run.py --write --sizes {' '.join(map(str, args.sizes))} "
            f"--rounds {args.rounds}`.\n\n"
            f"{table}\n"
        )


if __name__ == "__main__":
    main()
