"""The planning and fingerprint phase against the size of the library: linear, on the deep shape.

Usage (from the repository root, after ``pip install -e '.[test]'``)::

    python bench/fingerprint_scaling.py                 # 600 and 1,800 classes, deep shape
    python bench/fingerprint_scaling.py --sizes 200 600 --shape shallow

For each size it writes the library of ``bench/real_library.py`` and, in a
fresh interpreter per run, loads the Project (imports, not timed) and times
what the build does at ``builder-inited`` after that: the reach graph, the
class outlines and the page plan, then every page's fingerprint
(:class:`refgen.site.fingerprint.SiteIndex`). *Cold* keeps nothing from an
earlier run, as in a clean build: every file is parsed and indexed and every
class analysed. *Warm* has what the previous run kept, as in a rebuild with
nothing changed: nothing is parsed or analysed again. It reports the median of
``--repeat`` runs of each and the ratio of each size's time to the smallest
size's, against the ratio of their sizes (issue 34: three times the classes, at
most 3.5 times the time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from real_library import MODULE, REGISTRY, write_library
from run_real import python_path

MEASURE = """
import json, sys, time
from pathlib import Path
from refgen.config import Settings
from refgen.project import Project
from refgen.site.fingerprint import SiteIndex
from refgen.site.plan import plan_pages

settings = Settings.from_mapping({"modules": [%(module)r], "registry": %(registry)r}, "bench")
project = Project(settings)
project.load()
start = time.perf_counter()
site = SiteIndex(project, Path(sys.argv[1]))
pages = plan_pages(project, site.helper_modules()).pages
found = site.fingerprints(pages)
site.save()
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "pages": len(found.by_page)}))
"""


def run_once(library_root: Path, kept: Path) -> dict[str, float]:
    script = MEASURE % {"module": MODULE, "registry": REGISTRY}
    command = [sys.executable, "-c", script, str(kept)]
    env = dict(os.environ, PYTHONPATH=python_path(library_root), PYTHONDONTWRITEBYTECODE="1")
    output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def measure(size: int, shape: str, repeat: int, workdir: Path) -> dict[str, float]:
    root = workdir / f"{shape}-{size}"
    library = write_library(root, size, shape=shape)
    kept = workdir / f"{shape}-{size}-kept"
    cold, warm = [], []
    pages = 0.0
    for _ in range(repeat):
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir()
        first = run_once(library.root, kept)  # cold: keeps what it learnt
        cold.append(first["seconds"])
        warm.append(run_once(library.root, kept)["seconds"])
        pages = first["pages"]
    return {"cold": statistics.median(cold), "warm": statistics.median(warm), "pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[600, 1800])
    parser.add_argument("--shape", choices=("shallow", "deep"), default="deep")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="refgen-fingerprints-") as tmp:
        found = {size: measure(size, args.shape, args.repeat, Path(tmp)) for size in args.sizes}
    smallest = min(found)
    print(f"#### Planning and fingerprints, {args.shape} shape (median of {args.repeat} runs)\n")
    print("| classes | pages | cold (s) | warm (s) | size ratio | cold ratio | warm ratio |")
    print("|---|---|---|---|---|---|---|")
    for size, times in found.items():
        base = found[smallest]
        print(
            f"| {size} | {times['pages']:.0f} | {times['cold']:.2f} | {times['warm']:.2f} | "
            f"{size / smallest:.1f} | {times['cold'] / base['cold']:.2f} | "
            f"{times['warm'] / base['warm']:.2f} |"
        )


if __name__ == "__main__":
    main()
