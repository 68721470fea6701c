"""Live preview: sphinx-autobuild serves the site and rebuilds it once per saved edit.

Each test runs the command docs/using-refgen.md gives, as a real server on a
loopback port, on a throwaway project; it saves an edit to the package's source
and reads the served page over HTTP until the new figure is there. Python
writes bytecode as it does for a user (``__pycache__`` in the watched source
folder), and refgen writes its stubs into the docs folder: with the documented
ignores, neither starts a second build.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import http.client
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from refgen.testing import ScenarioProject
from tests.html_helpers import last_figure, section, text
from tests.sphinx.test_incremental import NEW_CLASS, write_chain

pytest.importorskip(
    "sphinx_autobuild",
    reason="sphinx-autobuild is not installed (it comes with pip install -e '.[test]')",
)

COMMAND = [
    "docs",
    "docs/_build/html",
    "--watch",
    "src",
    "--ignore",
    "docs/reference",
    "--re-ignore",
    "__pycache__",
]
"""The arguments of the command docs/using-refgen.md gives, run from the project's root."""

SERVED = 180.0
"""Seconds the first build may take before the site is served (a loaded CI machine)."""
SHOWN = 60.0
"""Seconds from the saved edit until the served page shows it."""
SETTLE = 5.0
"""Seconds to wait after the rebuild for a second one: sphinx-autobuild starts it within
two (watchfiles gathers changes for at most 1.6 s before it reports them)."""

ANSI = re.compile(r"\x1b\[[0-9;]*m")
STARTED = re.compile(r"^\[sphinx-autobuild\] > .* -m sphinx build ", re.MULTILINE)
FINISHED = re.compile(r"^\[sphinx-autobuild\] Serving on ", re.MULTILINE)
STUBS = re.compile(r"\[refgen\] .* (\d+) stubs rewritten")
# Straight to the loopback server, whatever proxy the environment names.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class Server:
    """A running ``sphinx-autobuild`` and the file its output goes to."""

    process: subprocess.Popen[bytes]
    log: Path
    url: str

    def output(self) -> str:
        return ANSI.sub("", self.log.read_text(encoding="utf-8", errors="replace"))

    def builds(self) -> tuple[int, int]:
        """How many builds it has started and finished (an initial build included)."""
        output = self.output()
        return len(STARTED.findall(output)), len(FINISHED.findall(output))

    def page(self, path: str) -> str | None:
        """The served page at ``path``; None until it is served whole (Sphinx writes a
        page in place, so a poll during a rebuild can catch it empty or half written)."""
        try:
            with OPENER.open(f"{self.url}/{path}", timeout=10) as response:
                html = response.read().decode("utf-8")
        except (urllib.error.URLError, OSError, http.client.HTTPException):
            # not served yet, not listening yet, or cut short while the file is written
            return None
        return html if "</html>" in html else None

    def wait_for(self, what: str, found: Callable[[], bool], timeout: float) -> float:
        """Poll ``found`` until it holds; the seconds that took."""
        start = time.monotonic()
        while not found():
            if self.process.poll() is not None:
                pytest.fail(f"sphinx-autobuild exited while waiting for {what}:\n{self.output()}")
            if time.monotonic() - start > timeout:
                pytest.fail(f"no {what} after {timeout:.0f} s; its output:\n{self.output()}")
            time.sleep(0.2)
        return time.monotonic() - start


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the server and whatever it started (its build, its workers): its process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):  # a build it left behind, or itself
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _end_with_parent() -> None:
    """In the server's process: end it when pytest ends, however pytest ends (a killed
    test run would otherwise leave the server running in its own session)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


@contextlib.contextmanager
def serve(project: ScenarioProject, first_page: str) -> Iterator[Server]:
    """``sphinx-autobuild`` with the documented arguments, once ``first_page`` is served."""
    port = free_port()
    env = project.environment()
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as for a user: bytecode lands in src/
    env["PYTHONUNBUFFERED"] = "1"  # its lines reach the log as they are printed
    log = project.root / "sphinx-autobuild.log"
    command = [sys.executable, "-m", "sphinx_autobuild", *COMMAND]
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port)],
            cwd=project.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, ended whole by stop()
            preexec_fn=_end_with_parent,
        )
    try:
        server = Server(process, log, f"http://127.0.0.1:{port}")
        server.wait_for("served site", lambda: server.page(first_page) is not None, SERVED)
        # Served means the watcher is running (it starts before the server accepts).
        yield server
    finally:
        stop(process)


def registry_figure(html: str | None, name: str) -> str | None:
    """The figure of the last registry entry for attribute ``name`` on a served class page."""
    if html is None:
        return None
    page = BeautifulSoup(html, "html.parser")
    for hint in page.find_all("wbr"):
        hint.decompose()
    page.smooth()
    table = section(page, "Registry values").find("table")
    row = next(r for r in table.find_all("tr") if name in text(r.find(["th", "td"])))
    return last_figure(row)


def edit(path: Path, old: str, new: str) -> None:
    """Save ``path`` with ``old`` replaced, as an editor does."""
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    path.write_text(source.replace(old, new), encoding="utf-8")


def assert_one_rebuild(server: Server, started_before: int) -> None:
    """The edit's rebuild has finished, and no other followed it within :data:`SETTLE`."""
    server.wait_for("finished rebuild", lambda: server.builds()[1] >= started_before + 1, SHOWN)
    time.sleep(SETTLE)
    started, finished = server.builds()
    output = server.output()
    assert started - started_before == 1, f"{started - started_before} rebuilds:\n{output}"
    assert finished == started, output


@pytest.fixture
def chain(tmp_path: Path) -> ScenarioProject:
    """helpers.outer calls deep.inner; the registry's module holds entry inputs."""
    return write_chain(tmp_path)


def test_the_documented_command_is_the_one_tested() -> None:
    guide = Path(__file__).resolve().parents[2] / "docs" / "using-refgen.md"
    assert f"sphinx-autobuild {shlex.join(COMMAND)}" in guide.read_text(encoding="utf-8")


def test_an_edited_registry_input_is_served_after_one_rebuild(chain: ScenarioProject) -> None:
    page = "reference/chain.models/Private.html"
    with serve(chain, page) as server:
        assert registry_figure(server.page(page), "result") == "10"
        started_before = server.builds()[0]
        edit(chain.module_path("registry"), "Two = Private(x=1.0)", "Two = Private(x=40.0)")
        server.wait_for(
            "new figure", lambda: registry_figure(server.page(page), "result") == "400", SHOWN
        )
        assert_one_rebuild(server, started_before)


def test_an_edited_helper_two_calls_away_is_served_after_one_rebuild(
    chain: ScenarioProject,
) -> None:
    """Direct.result calls helpers.outer, which calls deep.inner in another module."""
    page = "reference/chain.models/Direct.html"
    with serve(chain, page) as server:
        assert registry_figure(server.page(page), "result") == "7"  # inner(3) + 1
        started_before = server.builds()[0]
        edit(chain.module_path("deep"), "return x * 2", "return x * 20")
        server.wait_for(
            "new figure", lambda: registry_figure(server.page(page), "result") == "61", SHOWN
        )
        assert_one_rebuild(server, started_before)


def test_a_new_class_writes_stubs_and_still_rebuilds_once(chain: ScenarioProject) -> None:
    """A new class means new and changed stubs in docs/reference, written during the
    rebuild: the documented ``--ignore`` keeps them from starting another."""
    page = "reference/chain.models/Added.html"
    with serve(chain, "reference/chain.models/Direct.html") as server:
        started_before = server.builds()[0]
        models = chain.module_path("models")
        models.write_text(models.read_text() + NEW_CLASS.format(name="Added", value=3))
        server.wait_for("new class page", lambda: server.page(page) is not None, SHOWN)
        assert_one_rebuild(server, started_before)
        rewritten = [int(n) for n in STUBS.findall(server.output())]
        assert rewritten[-1] >= 2, rewritten  # its own stub and its category's
