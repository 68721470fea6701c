"""Does ``gc.freeze()`` after loading make a refgen build of the real-library shape faster?

Usage (from the repository root)::

    python bench/gc_freeze.py --size 200 --rounds 2

Two copies of the refgen project of ``bench/real_library.py``; one calls
``gc.freeze()`` at ``env-before-read-docs`` (after refgen has imported and
analysed the library at ``builder-inited``), from its ``conf.py``, without
touching refgen. Clean builds alternate (plain, frozen, frozen, plain, ...) so
that the machine's drift falls on both; the ratio is taken within each round.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from real_library import write_library, write_refgen_docs
from run_real import Project

FREEZE = """
import gc


def setup(app):
    app.connect("env-before-read-docs", lambda *args: gc.freeze())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="refgen-gc-") as tmp:
        projects = {}
        for label in ("plain", "frozen"):
            root = Path(tmp) / label
            library = write_library(root / "src", args.size)
            write_refgen_docs(root / "docs")
            if label == "frozen":
                with (root / "docs" / "conf.py").open("a") as conf:
                    conf.write(FREEZE)
            projects[label] = Project("refgen", root, library)
        ratios = []
        for number in range(args.rounds):
            order = ("plain", "frozen") if number % 2 == 0 else ("frozen", "plain")
            builds = {label: projects[label].clean() for label in order}
            ratio = builds["frozen"].seconds / builds["plain"].seconds
            ratios.append(ratio)
            print(
                f"round {number + 1}: plain {builds['plain'].seconds:.1f} s "
                f"({builds['plain'].peak_mib:.0f} MiB), frozen {builds['frozen'].seconds:.1f} s "
                f"({builds['frozen'].peak_mib:.0f} MiB), frozen / plain {ratio:.2f}",
                flush=True,
            )
        print(f"median frozen / plain: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
