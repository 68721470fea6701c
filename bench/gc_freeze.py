"""Does ``gc.freeze()`` after loading make a refgen build of the real-library shape faster?

Usage (from the repository root)::

    python bench/gc_freeze.py --size 200 --rounds 2

refgen calls ``gc.freeze()`` at the end of ``builder-inited``, once it has
imported and analysed the library, and ``gc.unfreeze()`` when the build ends.
Two copies of the refgen project of ``bench/real_library.py``: "frozen" is
refgen as it is; "plain" calls ``gc.unfreeze()`` at ``env-before-read-docs``
from its ``conf.py``, which undoes the freeze before any page is read. Clean
builds alternate (plain, frozen, frozen, plain, ...) so
that the machine's drift falls on both; the ratio is taken within each round,
of wall time and of the build process's CPU time (steadier on a shared machine).
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

UNFREEZE = """
import gc


def setup(app):
    app.connect("env-before-read-docs", lambda *args: gc.unfreeze())
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
            if label == "plain":
                with (root / "docs" / "conf.py").open("a") as conf:
                    conf.write(UNFREEZE)
            projects[label] = Project("refgen", root, library)
        ratios, cpu_ratios = [], []
        for number in range(args.rounds):
            order = ("plain", "frozen") if number % 2 == 0 else ("frozen", "plain")
            builds = {label: projects[label].clean() for label in order}
            ratio = builds["frozen"].seconds / builds["plain"].seconds
            cpu_ratio = builds["frozen"].cpu_seconds / builds["plain"].cpu_seconds
            ratios.append(ratio)
            cpu_ratios.append(cpu_ratio)
            print(
                f"round {number + 1}: "
                + ", ".join(
                    f"{label} {build.seconds:.1f} s wall, {build.cpu_seconds:.1f} s CPU, "
                    f"{build.peak_mib:.0f} MiB"
                    for label, build in builds.items()
                )
                + f"; frozen / plain {ratio:.2f} wall, {cpu_ratio:.2f} CPU",
                flush=True,
            )
        print(
            f"median frozen / plain: {statistics.median(ratios):.2f} wall, "
            f"{statistics.median(cpu_ratios):.2f} CPU"
        )


if __name__ == "__main__":
    main()
