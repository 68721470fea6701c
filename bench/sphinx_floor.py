"""What Sphinx alone costs to build refgen's pages: the floor under a clean build.

Usage (from the repository root, after ``pip install -e '.[test]'``)::

    python bench/sphinx_floor.py --shape deep --rounds 3

Each round writes the library of ``bench/real_library.py`` and, with the furo theme:

- builds refgen's project from scratch (``refgen``);
- builds automodule's one-page project from scratch (``automodule``);
- builds a **replay** project from scratch: one document per document of refgen's
  build, of the same name, whose only directive hands Sphinx the nodes refgen's build
  read for it, unpickled from that build's doctree folder (``bench/replay_ext.py``).
  Sphinx then does all it does for a refgen page (parse a stub, run every read
  transform, pickle, resolve, run the post-transforms, write HTML through refgen's
  own node visitors, index for search), while nothing is imported, analysed, planned,
  composed or evaluated.

The replay build is a floor for any design that gives each class a page of its own
with this content: refgen's clean build can only go below it by making the pages
smaller. The unpickling it adds is timed on its own and reported beside it; its
pages carry no Python-domain objects (none are registered), so their links to
classes are written as text, and it writes no highlighted module sources: both make
the floor lower, never higher.
"""

from __future__ import annotations

import argparse
import pickle
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from medians import median_interval
from real_library import write_automodule_docs, write_library, write_refgen_docs
from run_real import Build, Trash, sphinx

REPLAY_CONF = """\
import sys
sys.path.insert(0, {bench!r})
extensions = ["replay_ext"]
html_theme = "furo"
replay_doctrees = {doctrees!r}
"""


def write_replay_docs(docs: Path, doctrees: Path, trash: Trash) -> int:
    """One stub per doctree of refgen's build, replaying it; returns how many."""
    trash.take(docs)
    docs.mkdir(parents=True)
    bench = str(Path(__file__).parent.resolve())
    (docs / "conf.py").write_text(REPLAY_CONF.format(bench=bench, doctrees=str(doctrees)))
    count = 0
    for doctree in sorted(doctrees.rglob("*.doctree")):
        docname = doctree.relative_to(doctrees).with_suffix("").as_posix()
        stub = docs / f"{docname}.rst"
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(f".. replay:: {docname}\n")
        count += 1
    return count


def unpickle_seconds(doctrees: Path) -> float:
    """Reading back every doctree once, as the replay directive does."""
    start = time.perf_counter()
    for doctree in doctrees.rglob("*.doctree"):
        pickle.loads(doctree.read_bytes())
    return time.perf_counter() - start


def measure_round(root: Path, number: int, trash: Trash) -> dict[str, float]:
    """Each build from scratch; what it replaces is moved aside (:class:`run_real.Trash`)."""
    refgen, automodule, replay = root / "refgen", root / "automodule", root / "replay"
    builds: dict[str, Build] = {}
    trash.take(refgen / "html", refgen / "docs" / "reference")
    builds["refgen"] = sphinx(refgen / "docs", refgen / "html", root / "src")
    # A copy, so the next round's clean refgen build cannot change what is replayed.
    doctrees = root / "doctrees"
    trash.take(doctrees)
    shutil.copytree(refgen / "html" / ".doctrees", doctrees)
    (doctrees / "environment.pickle").unlink()
    pages = write_replay_docs(replay / "docs", doctrees, trash)
    trash.take(automodule / "html")
    builds["automodule"] = sphinx(automodule / "docs", automodule / "html", root / "src")
    trash.take(replay / "html")
    builds["replay"] = sphinx(replay / "docs", replay / "html", root / "src")
    for kind, build in builds.items():
        assert build.returncode == 0, kind
    figures = {kind: build.seconds for kind, build in builds.items()}
    figures["unpickle"] = unpickle_seconds(doctrees)
    figures["pages"] = pages
    timed = ", ".join(f"{kind} {s:.2f}s" for kind, s in figures.items() if kind != "pages")
    print(f"round {number + 1}: {timed} ({pages} documents)", flush=True)
    return figures


def report(rounds: list[dict[str, float]]) -> str:
    def ratios(top: str, bottom: str, less: str | None = None) -> list[float]:
        return [(r[top] - (r[less] if less else 0)) / r[bottom] for r in rounds]

    lines = [
        "| measure | median | 95 % interval of the median | each round |",
        "|---|---|---|---|",
    ]
    for label, values in (
        ("replay (Sphinx alone, refgen's doctrees) / automodule", ratios("replay", "automodule")),
        (
            "replay less its unpickling / automodule",
            ratios("replay", "automodule", "unpickle"),
        ),
        ("refgen clean / replay", ratios("refgen", "replay")),
        ("refgen clean / automodule", ratios("refgen", "automodule")),
    ):
        each = ", ".join(f"{v:.2f}" for v in values)
        low, high = median_interval(values)
        median = statistics.median(values)
        lines.append(f"| {label} | **{median:.2f}** | {low:.2f}-{high:.2f} | {each} |")
    seconds = ", ".join(
        f"{kind} {statistics.median(r[kind] for r in rounds):.2f}"
        for kind in ("refgen", "automodule", "replay", "unpickle")
    )
    lines.append(f"\nMedian seconds: {seconds}; {int(rounds[0]['pages'])} documents replayed.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=600)
    parser.add_argument("--shape", choices=("shallow", "deep"), default="deep")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build here and keep it (default: a temp dir)")
    parser.add_argument(
        "--delete-before-clean",
        action="store_true",
        help="delete each last output just before the build that replaces it (see run_real.Trash)",
    )
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="refgen-floor-"))
    trash = Trash(root / "trash", delete=args.delete_before_clean)
    write_library(root / "src", args.size, shape=args.shape)
    write_refgen_docs(root / "refgen" / "docs")
    write_automodule_docs(root / "automodule" / "docs")
    rounds = [measure_round(root, number, trash) for number in range(args.rounds)]
    print(report(rounds))
    trash.empty()
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
