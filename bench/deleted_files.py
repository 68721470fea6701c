"""What creating many files costs right after many were deleted nearby (bench/RESULTS.md, stop 53).

Usage::

    python bench/deleted_files.py [FOLDER]   # default: a new folder under the system's temp

Writes ``--files`` files of 30 KB into one folder three times: first; again after moving
the folder aside; again right after deleting the folder. Run it when nothing was deleted
nearby in the last five minutes (its own run deletes what it wrote, at the end). On ext4
the third costs several times the second in system time: the inode allocator will not
reuse an inode freed in the last minute (five, while the inode table is not yet written
back), and scans past each one to find another. That is why ``run_real.py`` and
``sphinx_floor.py`` move a clean build's last output aside rather than delete it
(``run_real.Trash``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path


def write_files(folder: Path, count: int) -> tuple[float, float]:
    """Wall and system seconds to write ``count`` files of 30 KB into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    start, before = time.perf_counter(), os.times()
    for number in range(count):
        (folder / f"page{number}.html").write_bytes(b"x" * 30_000)
    return time.perf_counter() - start, os.times().system - before.system


def report(label: str, seconds: tuple[float, float]) -> None:
    print(f"{label + ':':33}{seconds[0]:.2f} s wall, {seconds[1]:.2f} s system")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, help="where to write (it is deleted)")
    parser.add_argument("--files", type=int, default=2500)
    args = parser.parse_args()
    root = args.folder or Path(tempfile.mkdtemp(prefix="refgen-deleted-"))
    out = root / "out"
    try:
        report("first", write_files(out, args.files))
        out.rename(root / "aside")
        report("after moving the folder aside", write_files(out, args.files))
        shutil.rmtree(out)
        report("right after deleting the folder", write_files(out, args.files))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
