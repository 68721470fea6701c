"""Time refgen's docstring parser on the benchmark libraries (issue 15).

Usage (from the repository root)::

    python bench/docstring_parse.py              # 600 classes of each library
    python bench/docstring_parse.py --size 150 --repeat 7

It writes the library of ``bench/real_library.py`` (plain prose docstrings,
few of its properties documented) and the package of ``bench/synthetic.py``
(Notes, References and Examples in every class docstring), and reads our own
``refgen_scenarios`` (whose helpers have Parameters and Returns); it collects every
docstring with ``ast`` and parses each the way analysis does:
``parse_docstring`` for modules, classes and functions, ``summary`` for
properties and documented attributes. It prints the best of ``--repeat``
runs per library, and the time to import the parser in a fresh interpreter.
Run it with ``PYTHONPATH`` pointing at the ``src`` folder of the version to
measure.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from real_library import write_library
from synthetic import write_package

from refgen.analysis.docstrings import parse_docstring, summary

OWN_LIBRARY = Path(__file__).resolve().parents[1] / "src" / "refgen_scenarios"
"""Our own library: its helpers' docstrings have Parameters and Returns sections."""
UNDERLINE = re.compile(r"\n[ \t]*-{3,}[ \t]*\n")


@dataclass(frozen=True)
class Found:
    text: str
    path: str
    line: int
    attribute: bool
    """A property's or an attribute's docstring (analysis reads only its summary)."""


def _is_property(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id in ("property", "cached_property")
        for d in node.decorator_list
    )


def _string(node: ast.stmt) -> ast.Constant | None:
    value = node.value if isinstance(node, ast.Expr) else None
    return value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def docstrings(path: Path) -> Iterator[Found]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            continue
        body = node.body
        first = _string(body[0]) if body else None
        if first is not None:
            yield Found(str(first.value), str(path), first.lineno, _is_property(node))
        for before, after in itertools.pairwise(body):
            literal = _string(after)
            if literal is not None and isinstance(before, ast.AnnAssign):
                yield Found(str(literal.value), str(path), literal.lineno, True)


def parse_all(found: list[Found]) -> None:
    for item in found:
        if item.attribute:
            summary(item.text)
        else:
            parse_docstring(item.text, item.path, item.line, "bench")


def best_of(repeat: int, work: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def import_time() -> float:
    """Seconds to import the parser in a fresh interpreter (best of five)."""
    code = (
        "import time; s = time.perf_counter(); import refgen.analysis.docstrings; "
        "print(time.perf_counter() - s)"
    )
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(5)
    ]
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=600, help="classes in each library")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write_library(root / "real", classes=args.size)
        write_package(root / "synthetic", "synth", args.size)
        libraries = {
            "real": root / "real",
            "synthetic": root / "synthetic",
            "refgen_scenarios": OWN_LIBRARY,
        }
        for name, folder in libraries.items():
            found = [f for p in sorted(folder.rglob("*.py")) for f in docstrings(p)]
            sections = sum(1 for f in found if UNDERLINE.search(f.text))
            seconds = best_of(args.repeat, lambda found=found: parse_all(found))
            print(
                f"{name}: {len(found)} docstrings ({sections} with sections, "
                f"{sum(f.attribute for f in found)} attribute docstrings): "
                f"{seconds * 1000:.1f} ms, {seconds / len(found) * 1e6:.1f} µs each"
            )
    print(f"import refgen.analysis.docstrings: {import_time() * 1000:.1f} ms")


if __name__ == "__main__":
    main()
