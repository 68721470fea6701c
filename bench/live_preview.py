"""The edit-to-page latency of a live preview: sphinx-autobuild, save, new figure served.

Usage (from the repository root, after ``pip install -e '.[test]'``)::

    python bench/live_preview.py                      # our site, 4 edits
    python bench/live_preview.py --rounds 6
    python bench/live_preview.py --library /tmp/live_deep

``--library ROOT`` takes a library that ``bench/real_library.py`` wrote
(``ROOT/src`` holds the package ``pkg``, ``ROOT/docs`` its docs; the deep shape:
``python bench/real_library.py ROOT --size 600 --shape deep``) and edits an
integer input of the first entry of ``pkg/registry.py``. Without it, the site in
``docs/`` and the bandwidth of ``PhoneFullUpdateWorkingSet`` in
``src/refgen_scenarios/registry.py``. ``--file``, ``--old``, ``--new`` and
``--page`` give any other edit. Each edited file is put back as it was at the end.

It starts ``sphinx-autobuild`` with the arguments docs/using-refgen.md gives (as
absolute paths; the output in a temporary folder) on a free loopback port, in an
environment where Python writes bytecode, as for a user. Once the first build is
served it saves the edit and the reverse edit by turns, and for each reports, in
seconds after the save:

- **detected**: sphinx-autobuild's "Detected changes" line;
- **planned**: refgen's "pages planned" line of the rebuild (a new Sphinx process
  started, the library imported and analysed, the pages fingerprinted);
- **served**: the first complete response for the class page that differs from
  the page before the save (polled every 0.05 s): the edit-to-page latency;
- **built**: the "Serving on" line that ends the rebuild;

and how many builds the save started, counted a few seconds after the rebuild
ended (it should be 1). Output lines are timed as the script reads them.

The code measured is whichever ``refgen`` the interpreter imports (put a
checkout's ``src`` first on ``PYTHONPATH`` to measure that one).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
STARTED = re.compile(r"\[sphinx-autobuild\] > .* -m sphinx build ")
FINISHED = re.compile(r"\[sphinx-autobuild\] Serving on ")
DETECTED = re.compile(r"\[sphinx-autobuild\] Detected changes")
PLANNED = re.compile(r"\[refgen\] \d+ scenario classes, \d+ pages planned")
SETTLE = 5.0
"""Seconds after a rebuild within which a second one would have started."""
STAGES = {
    "detected": "sphinx-autobuild reports the change",
    "planned": "refgen has planned the pages (Sphinx started, library imported, fingerprints)",
    "served": "the class page served differs from the one before the save",
    "built": "the rebuild has ended (sphinx-autobuild's Serving on line)",
}
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class Edit:
    file: Path
    old: str
    new: str
    page: str
    """The page that shows the edited figure, relative to the site's root."""


@dataclass(frozen=True)
class Site:
    docs: Path
    watch: Path
    python_path: list[Path]
    edit: Edit


def our_site() -> Site:
    registry = REPO / "src" / "refgen_scenarios" / "registry.py"
    return Site(
        REPO / "docs",
        REPO / "src",
        [REPO / "src"],
        Edit(
            registry,
            "bandwidth=51.2 * ureg.GB / ureg.s,",
            "bandwidth=60.0 * ureg.GB / ureg.s,",
            "reference/refgen_scenarios.training/UpdateWorkingSetScenario.html",
        ),
    )


ENTRY = re.compile(r"^    \w+ = (\w+)\((.*?\b\w+=)(\d+)([,)])", re.MULTILINE)


def bench_library(root: Path) -> Site:
    """A library of bench/real_library.py: an integer input of the registry's first entry."""
    registry = root / "src" / "pkg" / "registry.py"
    found = ENTRY.search(registry.read_text(encoding="utf-8"))
    if found is None:
        sys.exit(f"no entry with an integer input in {registry}")
    old = found.group(0)
    new = old.replace(
        f"={found.group(3)}{found.group(4)}", f"={int(found.group(3)) + 1}{found.group(4)}"
    )
    page = f"reference/pkg.models/{found.group(1)}.html"
    return Site(root / "docs", root / "src", [root / "src"], Edit(registry, old, new, page))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> bytes | None:
    try:
        with OPENER.open(url, timeout=10) as response:
            return response.read()
    except (urllib.error.URLError, OSError, http.client.HTTPException):
        return None  # not served yet, or cut short while the file was being written


class Server:
    def __init__(self, site: Site, outdir: Path, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONUNBUFFERED"] = "1"
        env["NO_COLOR"] = "1"
        env["PYTHONPATH"] = os.pathsep.join(
            [*map(str, site.python_path), *filter(None, [env.get("PYTHONPATH")])]
        )
        command = [
            sys.executable,
            "-m",
            "sphinx_autobuild",
            str(site.docs),
            str(outdir),
            "--watch",
            str(site.watch),
            "--ignore",
            str(site.docs / "reference"),
            "--re-ignore",
            "__pycache__",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]
        self.lines: list[tuple[float, str]] = []
        """Each line it printed, as it was read, with the time it was read."""
        self.process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.log.open("w", encoding="utf-8") as log:
            for raw in self.process.stdout:
                line = ANSI.sub("", raw.decode("utf-8", "replace")).rstrip("\n")
                self.lines.append((time.perf_counter(), line))
                print(line, file=log, flush=True)

    def after(self, start: float, pattern: re.Pattern[str]) -> float | None:
        """Seconds from ``start`` to the first line since then that matches ``pattern``."""
        return next(
            (t - start for t, line in list(self.lines) if t >= start and pattern.match(line)), None
        )

    def builds(self) -> tuple[int, int]:
        lines = [line for _, line in list(self.lines)]
        return sum(bool(STARTED.match(x)) for x in lines), sum(
            bool(FINISHED.match(x)) for x in lines
        )

    def page(self, path: str) -> bytes | None:
        found = fetch(f"{self.url}/{path}")
        return found if found is not None and b"</html>" in found else None

    def wait(self, what: str, done, timeout: float, step: float = 0.05) -> float:
        start = time.perf_counter()
        while not done():
            if self.process.poll() is not None:
                sys.exit(f"sphinx-autobuild exited waiting for {what}; see {self.log}")
            if time.perf_counter() - start > timeout:
                sys.exit(f"no {what} after {timeout:.0f} s; see {self.log}")
            time.sleep(step)
        return time.perf_counter() - start

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def measure(site: Site, rounds: int, timeout: float, keep_log: Path | None) -> None:
    edit = site.edit
    original = edit.file.read_text(encoding="utf-8")
    if original.count(edit.old) != 1:
        sys.exit(f"{edit.file} does not hold {edit.old!r} exactly once")
    with tempfile.TemporaryDirectory(prefix="live-preview-") as temporary:
        log = keep_log or Path(temporary) / "sphinx-autobuild.log"
        server = Server(site, Path(temporary) / "html", log)
        try:
            first = server.wait("first build", lambda: server.page(edit.page), timeout, 0.5)
            print(f"first build served after {first:.1f} s; {edit.page}")
            times: dict[str, list[float]] = {key: [] for key in STAGES}
            for number in range(rounds):
                old, new = (edit.old, edit.new) if number % 2 == 0 else (edit.new, edit.old)
                before = server.page(edit.page)
                started_before = server.builds()[0]
                text = edit.file.read_text(encoding="utf-8")
                saved = time.perf_counter()
                edit.file.write_text(text.replace(old, new), encoding="utf-8")
                server.wait(
                    "new page", lambda b=before: server.page(edit.page) not in (None, b), timeout
                )
                served = time.perf_counter() - saved
                server.wait(
                    "end of rebuild", lambda n=started_before: server.builds()[1] > n, timeout
                )
                time.sleep(SETTLE)
                count = server.builds()[0] - started_before
                found = {
                    "detected": server.after(saved, DETECTED),
                    "planned": server.after(saved, PLANNED),
                    "served": served,
                    "built": server.after(saved, FINISHED),
                }
                for key, value in found.items():
                    times[key].append(value if value is not None else float("nan"))
                print(
                    f"edit {number + 1}: "
                    + ", ".join(f"{key} {value:.2f} s" for key, value in found.items() if value)
                    + f"; {count} build{'s' * (count != 1)}",
                    flush=True,
                )
                server.wait("quiet server", lambda: len(set(server.builds())) == 1, timeout)
            print(f"over {rounds} edits, seconds after the save (median, min, max):")
            for key, values in times.items():
                print(
                    f"  {key:9} {statistics.median(values):6.2f} {min(values):6.2f} "
                    f"{max(values):6.2f}  {STAGES[key]}"
                )
        finally:
            server.stop()
            edit.file.write_text(original, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, help="a library bench/real_library.py wrote")
    parser.add_argument("--rounds", type=int, default=4, help="edits, alternating (default 4)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for each wait")
    parser.add_argument("--file", type=Path, help="the file to edit")
    parser.add_argument("--old", help="text in --file to replace")
    parser.add_argument("--new", help="its replacement")
    parser.add_argument("--page", help="the page showing the figure, e.g. reference/x/C.html")
    parser.add_argument("--log", type=Path, help="keep sphinx-autobuild's output in this file")
    args = parser.parse_args()
    site = bench_library(args.library.resolve()) if args.library else our_site()
    if args.file or args.old or args.new or args.page:
        given = Edit(
            args.file.resolve() if args.file else site.edit.file,
            args.old or site.edit.old,
            args.new or site.edit.new,
            args.page or site.edit.page,
        )
        site = Site(site.docs, site.watch, site.python_path, given)
    measure(site, args.rounds, args.timeout, args.log)


if __name__ == "__main__":
    main()
