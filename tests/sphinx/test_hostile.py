"""The hostile corpus: scenario code that raises what nobody expects (tests/hostile/).

Each case is built as a site and run through the command line. Whatever the
code raises (``SystemExit``, ``KeyboardInterrupt``, ``GeneratorExit``, a
``BaseException`` of its own, a value whose text raises), the outcome is one
``refgen.<kind>`` warning at the line marked ``# <- refgen``, the rest of the
site built, a failing exit under ``-W``, and a one-line CLI error without a
traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from refgen.analysis import guard
from refgen.analysis.guard import call_user_code
from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.html_helpers import read_html

CORPUS = Path(__file__).parents[1] / "hostile"
MARK = "# <- refgen"

# case: (warning kind, text the warning holds, the page that must still be built)
EXPECTED = {
    "import_sysexit": ("import", "cannot import scenario module", "reference/index.html"),
    "property_sysexit": ("value", "Gauge.broken cannot be computed", "Gauge.html"),
    "property_keyboardinterrupt": ("value", "KeyboardInterrupt: from the scenario", "Gauge.html"),
    "property_generatorexit": ("value", "GeneratorExit: from the scenario", "Gauge.html"),
    "property_baseexception": ("value", "Odd: neither an Exception nor an exit", "Gauge.html"),
    "registry_sysexit": ("import", "SystemExit: no default for you", "Gauge.html"),
    "example_keyboardinterrupt": ("example", "KeyboardInterrupt: from the example", "Gauge.html"),
    "format_raises": ("value", "cannot format as text: SystemExit: no str", "Gauge.html"),
    "property_hangs": ("value", "TimedOut: did not finish within 1 s", "Gauge.html"),
    "analysis_fails": ("analysis", "RuntimeError: no getter to read", "Broken.html"),
    "example_hangs": ("example", "TimedOut: did not finish within 1 s", "Gauge.html"),
    "import_hangs": ("import", "TimedOut: did not finish within 1 s", "reference/index.html"),
    "message_raises": ("value", "Weird: (its message cannot be shown", "Gauge.html"),
    "message_hangs": ("value", "Endless: (its message cannot be shown", "Gauge.html"),
    "source_nul": ("import", "cannot import scenario module", "reference/index.html"),
    "docstring_assigned": ("example", "docstring_assigned.models.Gauge failed", "Gauge.html"),
    "property_names": ("analysis", "'q\"x' is not named by a Python identifier", "Gauge.html"),
}
TIMEOUT = "refgen_eval_timeout = 1\n"
"""Every case builds with a one-second limit, so a hang costs the suite a second."""


def corpus_project(root: Path, case: str) -> ScenarioProject:
    folder = CORPUS / case
    names = [path.stem for path in folder.glob("*.py")]
    registry = "registry.Registry" if "registry" in names else None
    project = write_scenario_project(
        root,
        case,
        dict.fromkeys(names, ""),
        registry=registry,
        documented=["models"],
        conf_extra=TIMEOUT,
    )
    for name in names:  # byte for byte: encodings, byte-order marks and line endings kept
        shutil.copyfile(folder / f"{name}.py", project.module_path(name))
    return project


def run_module(project: ScenarioProject, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m *argv`` in ``cwd``, importing the project's package."""
    return subprocess.run(
        [sys.executable, "-m", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(project.src)},
        check=False,
    )


def marked_line(project: ScenarioProject, case: str) -> tuple[Path, int]:
    for path in sorted((project.src / case).glob("*.py")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if MARK in line:
                return path, number
    raise AssertionError(f"{case} marks no line with {MARK!r}")


# registry shape: (the entries its page lists, or None for no page; text of the one warning)
SHAPES = {
    "registry_empty": ([], None),
    "registry_dict": (["One", "Two"], None),
    "registry_list": (None, "a class, a module or a mapping, not list"),
    "registry_none": (None, "a class, a module or a mapping, not NoneType"),
    "registry_slots": (["One"], None),
    "registry_inherited": (["One", "Two"], None),
}


CLEAN = {"source_encodings"}
"""Cases that must build with no warning at all."""
OWN_TEST = {
    "dynamic_shapes",
    "docstring_scripts",
    "docstring_files",
    "text_subclass",
    "class_names",
    "module_liars",
    "registry_names",
    "docstring_targets",
    "docstring_markdown",
    "value_addresses",
    "docstring_depth",
}
"""Cases with a test of their own below."""


def test_every_case_in_the_corpus_has_an_expectation() -> None:
    from tests.sphinx.test_hostile_round_two_hidden import CASES as ROUND_TWO
    from tests.sphinx.test_hostile_round_two_locations import CASES as LOCATIONS

    cases = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    assert cases == sorted([*EXPECTED, *SHAPES, *CLEAN, *OWN_TEST, *ROUND_TWO, *LOCATIONS])


def test_lambdas_partials_metaclasses_and_classes_without_source(tmp_path: Path) -> None:
    """Properties from a lambda and a partial, a metaclass, a class made by ``type()``,
    a module ``__getattr__``, and URLs that contain an attribute's name."""
    project = corpus_project(tmp_path, "dynamic_shapes")
    result = project.build("html", "--keep-going", "-D", "refgen_missing_docstrings=each")
    assert result.returncode == 0, result.stderr
    # The one complaint is real: the lambda property of the run-time class has no
    # docstring (a warning, asked for, not the count of them). It points at the
    # module's file, not at a made-up "<module>:0".
    [warning] = [w for w in result.warnings if "[refgen." in w]
    assert warning.startswith(f"{project.module_path('models')}:1: WARNING: ")
    assert "Dynamic.area" in warning and warning.endswith("[refgen.docstring]")
    folder = result.outdir / "reference" / "dynamic_shapes.models"
    shapes = read_html(folder / "Shapes.html")
    assert "https://example.org/step_time.html" in [a.get("href") for a in shapes.find_all("a")]
    values = shapes.find("table", class_="refgen-values").get_text()
    assert "3" in values and "42" in values
    category = read_html(folder / "index.html")
    hrefs = [a.get("href") for a in category.find_all("a")]
    assert "https://example.org/docs/step_time/index.html" in hrefs
    dynamic = (folder / "Dynamic.html").read_text(encoding="utf-8")
    assert "no source code to read" in dynamic


def test_module_level_objects_that_lie_about_their_class_are_never_asked(
    tmp_path: Path,
) -> None:
    """An object whose ``__class__`` says ``type`` and whose ``__bases__`` ends the
    process, and one whose ``__class__`` raises, at module level and as a registry entry:
    discovery, the registry and the unit registries look at real types only. The entry
    is one warning, for what it is, and the site is built."""
    project = corpus_project(tmp_path, "module_liars")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    path, line = marked_line(project, "module_liars")
    [warning] = [w for w in result.warnings if "[refgen." in w]
    assert warning.startswith(f"{path}:{line}: WARNING: ")
    assert "registry entry 'Fake' is a module_liars.registry._RaisesWhenAsked" in warning
    page = read_html(result.outdir / "reference" / "module_liars.models" / "Disk.html")
    assert "2" in page.find("table", class_="refgen-values").get_text()


def test_sources_in_any_encoding_and_non_ascii_names_build_cleanly(tmp_path: Path) -> None:
    """A BOM and CRLF (models.py), latin-1 with a coding line (registry.py), ``Größe``."""
    project = corpus_project(tmp_path, "source_encodings")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "source_encodings.models" / "Größe.html")
    assert page.find(id="source_encodings.models.Größe.doppelt") is not None
    values = page.find("table", class_="refgen-values").get_text()
    assert "Eins" in values and "4" in values
    registry = read_html(result.outdir / "reference" / "registry.html")
    hrefs = [unquote(a["href"]) for a in registry.find_all("a", href=True)]
    links = [href for href in hrefs if "Größe.html" in href]
    assert links
    for link in links:  # every anchor resolves on the class page
        fragment = link.partition("#")[2]
        assert not fragment or page.find(id=fragment) is not None, link
    same_page = [a["href"] for a in page.find_all("a", href=True) if a["href"].startswith("#")]
    same_page = [href for href in same_page if href != "#"]  # the theme's "back to top"
    assert all(page.find(id=unquote(href[1:])) is not None for href in same_page)


@pytest.mark.parametrize("case", sorted(SHAPES))
def test_a_registry_of_any_shape_is_read_or_refused_in_one_warning(
    tmp_path: Path, case: str
) -> None:
    entries, warning_text = SHAPES[case]
    project = corpus_project(tmp_path, case)
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    mine = [w for w in result.warnings if "[refgen." in w]
    if warning_text is None:
        assert mine == []
    else:
        [warning] = mine
        assert warning_text in warning and warning.endswith("[refgen.registry]")
        assert warning.startswith(f"{project.docs / 'conf.py'}:")
    page = result.outdir / "reference" / "registry.html"
    if entries is None:
        assert not page.exists()
    else:
        listed = re.findall(rf'id="{case}\.registry\.Registry\.(\w+)"', page.read_text())
        assert listed == entries
    assert (result.outdir / "reference" / f"{case}.models" / "Gauge.html").exists()


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_the_build_warns_at_the_line_and_goes_on(tmp_path: Path, case: str) -> None:
    kind, text, page = EXPECTED[case]
    project = corpus_project(tmp_path, case)
    result: BuildResult = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr  # a warning under -W, not a crash (2)
    mine = [w for w in result.warnings if "[refgen." in w]
    assert len(mine) == 1, mine
    [warning] = mine
    path, line = marked_line(project, case)
    assert warning.startswith(f"{path}:{line}: WARNING: "), warning
    assert text in warning and warning.endswith(f"[refgen.{kind}]"), warning
    assert "Traceback" not in result.stderr
    assert not [w for w in result.warnings if "[toc." in w]  # no follow-on warnings
    built = list(result.outdir.rglob(Path(page).name))
    assert built, f"{page} was not built"


@pytest.mark.parametrize(
    ("case", "args", "status", "text"),
    [
        ("import_sysexit", ("show", "Gauge"), 2, "cannot import scenario module"),
        ("import_sysexit", ("export", "--json"), 2, "cannot import scenario module"),
        ("property_sysexit", ("show", "Small"), 0, ""),
        ("property_keyboardinterrupt", ("show", "Gauge.broken"), 0, ""),
        ("registry_sysexit", ("show", "Small"), 2, "no default for you"),
        ("format_raises", ("export", "--json"), 0, ""),
        ("property_hangs", ("show", "Gauge.endless"), 0, ""),
    ],
)
def test_the_command_line_gives_one_line_and_never_a_traceback(
    tmp_path: Path, case: str, args: tuple[str, ...], status: int, text: str
) -> None:
    project = corpus_project(tmp_path, case)
    (tmp_path / "pyproject.toml").write_text("[tool.refgen]\neval_timeout = 1\n")
    options = ["--module", f"{case}.models"]
    if (project.src / case / "registry.py").exists():
        options += ["--registry", f"{case}.registry.Registry"]
    completed = run_module(project, tmp_path, "refgen", *options, *args)
    assert completed.returncode == status, completed.stderr
    assert "Traceback" not in completed.stderr
    if status:
        if "--json" in args:  # a script reading JSON gets the failure as a JSON document
            assert json.loads(completed.stdout)["error"]["status"] == status
        else:
            assert completed.stdout == ""
        assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
        assert text in completed.stderr
    else:
        assert completed.stdout


def test_a_real_ctrl_c_still_stops() -> None:
    def interrupted() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        signal.sigtimedwait([], 0)  # let the signal be handled before returning

    # As at a terminal: Python's own Ctrl-C handler (an earlier test or plugin in this
    # process may have installed another one, which refgen leaves in charge).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            call_user_code(interrupted)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_while_the_guard_sets_up_puts_its_handler_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Ctrl-C lands after the guard's handler is in place and before the user's code
    runs (found by review: the handler stayed, and every later guarded call took a
    user-raised KeyboardInterrupt for a real Ctrl-C)."""
    getpid = os.getpid
    pressed = [False]

    def pressing_ctrl_c() -> int:  # the guard asks for the process id while it sets up
        if not pressed[0]:
            pressed[0] = True
            os.kill(getpid(), signal.SIGINT)
            signal.sigtimedwait([], 0)
        return getpid()

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        monkeypatch.setattr(os, "getpid", pressing_ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            call_user_code(lambda: None)
        monkeypatch.setattr(os, "getpid", getpid)
        assert pressed[0]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        test_a_raised_keyboard_interrupt_is_data()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_handler_a_ctrl_c_left_behind_is_put_back_by_the_next_call() -> None:
    """A Ctrl-C that lands as a guarded call ends, before it puts Python's handler back,
    leaves refgen's watcher installed: the next guarded call puts the handler back, and
    takes a user-raised KeyboardInterrupt for data again."""
    left = guard._Interrupts(received=True, running=False, previous=signal.default_int_handler)
    previous = signal.signal(signal.SIGINT, left.handle)
    try:
        test_a_raised_keyboard_interrupt_is_data()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_raised_keyboard_interrupt_is_data() -> None:
    def raising() -> None:
        raise KeyboardInterrupt("from the scenario")

    value, error = call_user_code(raising)
    assert value is None and isinstance(error, KeyboardInterrupt)


def test_a_hang_is_bounded_in_a_parallel_build_too(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "property_hangs")
    result = project.build("html", "-j", "2", "--keep-going")
    assert result.returncode == 0, result.stderr
    [warning] = [w for w in result.warnings if "[refgen." in w]
    assert "TimedOut: did not finish within 1 s" in warning


@pytest.mark.parametrize(
    ("documented", "registry", "setting", "named"),
    [
        (["models", "modells"], None, "refgen_modules", "property_sysexit.modells"),
        (["models", "nowhere.deep"], None, "refgen_modules", "property_sysexit.nowhere.deep"),
        (["models"], "registry.Registri", "refgen_registry", "property_sysexit.registry.Registri"),
        (["models"], "registri.Registry", "refgen_registry", "property_sysexit.registri.Registry"),
    ],
)
def test_a_misspelt_setting_is_reported_at_the_setting(
    tmp_path: Path, documented: list[str], registry: str | None, setting: str, named: str
) -> None:
    folder = CORPUS / "property_sysexit"
    modules = {path.stem: path.read_text(encoding="utf-8") for path in folder.glob("*.py")}
    project = write_scenario_project(
        tmp_path, "property_sysexit", modules, registry=registry, documented=documented
    )
    result = project.build("html", "--keep-going")
    found = [w for w in result.warnings if "which cannot be found" in w]
    assert len(found) == 1, result.warnings
    conf = project.docs / "conf.py"
    line = next(
        number
        for number, text in enumerate(conf.read_text().splitlines(), 1)
        if text.startswith(setting)
    )
    assert found[0].startswith(f"{conf}:{line}: WARNING: ")
    assert f"{setting} names {named!r}, which cannot be found" in found[0]
    assert "importlib" not in found[0] and "refgen/analysis" not in found[0]


def test_a_misspelt_module_in_pyproject_is_one_line_naming_the_setting(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "property_sysexit")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.refgen]\nmodules = ["property_sysexit.modells"]\n', encoding="utf-8"
    )
    completed = run_module(project, tmp_path, "refgen", "show", "Gauge")
    assert completed.returncode == 2
    [line] = completed.stderr.strip().splitlines()
    assert "pyproject.toml:2" in line
    assert "[tool.refgen] modules names 'property_sysexit.modells', which cannot be found" in line


def test_a_class_that_cannot_be_analysed_keeps_a_page_and_the_others_their_category(
    tmp_path: Path,
) -> None:
    project = corpus_project(tmp_path, "analysis_fails")
    result = project.build("html", "--keep-going")
    folder = result.outdir / "reference" / "analysis_fails.models"
    category = read_html(folder / "index.html").find("table", class_="refgen-category")
    assert [a.get_text() for a in category.find_all("a")] == ["Fine"]
    broken = (folder / "Broken.html").read_text(encoding="utf-8")
    assert "cannot document analysis_fails.models.Broken: RuntimeError: no getter to read" in broken


def test_a_class_that_cannot_be_analysed_and_has_no_page_is_warned_about_once(
    tmp_path: Path,
) -> None:
    """Only a registry is configured (``refgen_modules = []``): its classes get no page of
    their own, so the class that cannot be analysed is warned about by planning, once, in
    the clean build and in a rebuild with nothing changed. (Failed while planning left
    every such warning to the class's page.)"""
    project = corpus_project(tmp_path, "analysis_fails")
    conf = project.docs / "conf.py"
    conf.write_text(re.sub(r"refgen_modules = .*", "refgen_modules = []", conf.read_text()))
    for build in range(2):
        result = project.build("html", "-W", "--keep-going")
        mine = [w for w in result.warnings if "[refgen.analysis]" in w]
        assert len(mine) == 1, (build, result.warnings)
        assert "analysis_fails.models.Broken: cannot analyse: RuntimeError" in mine[0]
        assert result.returncode == 1


def test_pytest_reports_a_broken_module_as_one_failed_item_and_runs_the_rest(
    tmp_path: Path,
) -> None:
    broken = (CORPUS / "import_sysexit" / "models.py").read_text(encoding="utf-8")
    fine = (CORPUS / "analysis_fails" / "models.py").read_text(encoding="utf-8")
    project = write_scenario_project(
        tmp_path, "mixed", {"broken": broken, "fine": fine}, documented=["broken", "fine"]
    )
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\ntestpaths = src/mixed\nrefgen_modules =\n    mixed.broken\n    mixed.fine\n"
    )
    completed = run_module(project, tmp_path, "pytest", "-p", "no:cacheprovider", "-q", "-rf")
    out = completed.stdout
    assert completed.returncode == 1, out  # tests failed; not 2 (interrupted) or 4 (usage)
    assert "2 failed" in out, out  # the broken module, and the class that cannot be analysed
    assert "src/mixed/broken.py::import" in out
    assert "src/mixed/fine.py::Broken" in out
    assert "cannot import scenario module 'mixed.broken'" in out
    assert "errors during collection" not in out


def test_an_authors_latin1_page_in_the_reference_folder_is_left_alone(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "property_sysexit")
    own = project.docs / "reference" / "notes.rst"
    own.parent.mkdir(parents=True)
    own.write_bytes("Größen\n======\n\nNotizen über Maße.\n".encode("latin-1"))
    # Sphinx itself reads sources as UTF-8; the author keeps this one out of the build.
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + 'exclude_patterns = ["reference/notes.rst"]\n')
    result = project.build("html", "--keep-going")
    assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr
    assert own.read_bytes() == "Größen\n======\n\nNotizen über Maße.\n".encode("latin-1")
    assert (result.outdir / "reference" / "property_sysexit.models" / "Gauge.html").exists()


def test_docstrings_never_link_a_script(tmp_path: Path) -> None:
    """Docstrings are reST, but a ``javascript:``, ``vbscript:`` or ``data:`` link is text."""
    project = corpus_project(tmp_path, "docstring_scripts")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    pages = [p for p in result.outdir.rglob("*.html") if "_modules" not in p.parts]
    for path in pages:
        hrefs = [a.get("href", "").lower() for a in read_html(path).find_all("a")]
        assert not [h for h in hrefs if h.startswith(("javascript:", "vbscript:", "data:"))], path
    gauge = read_html(result.outdir / "reference" / "docstring_scripts.models" / "Gauge.html")
    assert "a script link" in gauge.get_text()  # the text stays
    assert "https://example.org" in [a.get("href") for a in gauge.find_all("a")]  # real links too


SECRET = "the secret that stays on this machine"


def test_docstrings_never_make_the_build_read_or_publish_a_file_outside_the_docs(
    tmp_path: Path,
) -> None:
    """``:download:``, ``literalinclude``, ``include`` (a standard ``<file>`` too), ``raw
    :file:``, ``csv-table :url:`` and ``image`` pointing outside the documentation folder,
    and ``role``/``meta``/``toctree``, which act beyond the docstring: each one warning, shown as
    text; a download inside the folder is published as Sphinx would."""
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    project = corpus_project(tmp_path, "docstring_files")
    notes = project.docs / "files" / "notes.txt"
    notes.parent.mkdir()
    notes.write_text("notes for readers", encoding="utf-8")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    assert sorted(w.partition(": WARNING: ")[2] for w in result.warnings) == sorted(
        [
            "docstring names a file outside the documentation folder (../../../secret.txt); "
            "shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder (/../secret.txt); "
            "shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder (/../secret.txt) in "
            "`.. literalinclude::`; shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder (/../secret.txt) in "
            "`.. include::`; shown as text [refgen.docstring]",
            "docstring passes raw markup through in `.. raw::`; shown as text [refgen.docstring]",
            "docstring reads a table from a file or a URL in `.. csv-table::`; "
            "shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder (/../secret.txt); "
            "shown as text [refgen.docstring]",
            "docstring names a file outside docutils' standard files "
            "(<../../../../../../../../../../../../../../../../etc/hostname>) in "
            "`.. include::`; shown as text [refgen.docstring]",
            "docstring acts beyond the docstring in `.. role::`; shown as text [refgen.docstring]",
            "docstring acts beyond the docstring in `.. meta::`; shown as text [refgen.docstring]",
            "docstring acts beyond the docstring in `.. title::`; shown as text [refgen.docstring]",
            "docstring acts beyond the docstring in `.. default-domain::`; "
            "shown as text [refgen.docstring]",
            "docstring acts beyond the docstring in `.. toctree::`; "
            "shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder "
            "(data:/../../../../secret.txt); shown as text [refgen.docstring]",
            "docstring names a file outside the documentation folder "
            "(x://../../../../secret.txt) in `.. literalinclude::`; "
            "shown as text [refgen.docstring]",
        ]
    )
    source = project.module_path("models")
    refused = ("Get :download:", ".. literalinclude", ".. include", ".. raw", ".. csv", ".. im")
    refused += (".. role", ".. meta", ".. title", ".. default-domain", ".. toctree")
    lines = [
        number
        for number, text in enumerate(source.read_text().splitlines(), 1)
        if text.lstrip().startswith(refused)
    ]
    assert len(lines) == len(refused) + 2  # two includes, two literalincludes
    warned = sorted(int(w.partition(": WARNING")[0].rpartition(":")[2]) for w in result.warnings)
    assert warned == sorted([lines[0], lines[0], *lines])  # three downloads in one paragraph
    assert all(w.startswith(f"{source}:") for w in result.warnings)
    published = [p for p in result.outdir.rglob("*") if p.is_file()]
    assert not [p for p in published if SECRET.encode() in p.read_bytes()]
    assert [p.read_text() for p in published if p.name == "notes.txt"] == ["notes for readers"]
    page = read_html(result.outdir / "reference" / "docstring_files.models" / "Gauge.html")
    text = page.get_text()
    assert "the secret" in text and ".. raw:: html" in text and "a picture of the secret" in text
    assert page.find("img") is None
    assert page.find("meta", attrs={"http-equiv": "refresh"}) is None
    assert "Another page" not in page.find("title").get_text()


def test_folders_named_like_refgen_or_the_package_in_the_current_directory(
    tmp_path: Path,
) -> None:
    """``python -m sphinx`` puts the current directory first on ``sys.path``: an empty
    ``refgen/`` folder there (a namespace package) must not hide refgen, and a
    package folder hiding the documented one is named in the warning."""
    project = corpus_project(tmp_path, "property_sysexit")
    (tmp_path / "refgen").mkdir()
    result = project.build("html", "--keep-going", isolated=True)
    assert "no setup() function" not in result.stderr
    assert (result.outdir / "reference" / "property_sysexit.models" / "Gauge.html").exists()
    shadow = tmp_path / "property_sysexit"
    shadow.mkdir()
    (shadow / "__init__.py").write_text('"""An old copy of the package."""\n')
    result = project.build("html", "--keep-going", "-E", isolated=True)
    modules, registry = [w for w in result.warnings if "[refgen." in w]
    assert "refgen_modules names 'property_sysexit.models', which cannot be found" in modules
    assert "refgen_registry names 'property_sysexit.registry.Registry'" in registry
    for warning in (modules, registry):
        assert f"'property_sysexit' was imported from {shadow / '__init__.py'}" in warning


@pytest.mark.parametrize("misspelt", ["mixed.modells", "mixd.models"])
def test_pytest_fails_a_misspelt_module_and_runs_the_rest(tmp_path: Path, misspelt: str) -> None:
    """A module name that finds no file (inside an existing package, or with a misspelt
    package) is one failed item naming the setting; it was skipped in silence, exit 0."""
    fine = (CORPUS / "analysis_fails" / "models.py").read_text(encoding="utf-8")
    project = write_scenario_project(tmp_path, "mixed", {"fine": fine}, documented=["fine"])
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\ntestpaths = src/mixed\nrefgen_modules =\n    mixed.fine\n    {misspelt}\n"
    )
    completed = run_module(project, tmp_path, "pytest", "-p", "no:cacheprovider", "-q", "-rf")
    out = completed.stdout
    assert completed.returncode == 1, out
    assert "2 failed" in out, out  # the misspelt module, and the class that cannot be analysed
    assert f"FAILED ::refgen: {misspelt}" in out
    assert f"pytest.ini:3: refgen_modules names {misspelt!r}, which cannot be found" in out
    assert "src/mixed/fine.py::Broken" in out


def test_a_misspelt_module_option_is_named_as_the_option(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "property_sysexit")
    completed = run_module(
        project, tmp_path, "refgen", "--module", "property_sysexit.modells", "show", "Gauge"
    )
    assert completed.returncode == 2
    [line] = completed.stderr.strip().splitlines()
    assert line.startswith("refgen: --module names 'property_sysexit.modells', which cannot be")


def test_a_value_whose_text_is_a_str_subclass_is_shown_as_plain_text(tmp_path: Path) -> None:
    """Its ``__str__`` raised SystemExit: the class page was a stub, the export failed."""
    project = corpus_project(tmp_path, "text_subclass")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "text_subclass.models" / "Gauge.html")
    assert "hello" in page.find("table", class_="refgen-values").get_text()
    options = ["--module", "text_subclass.models", "--registry", "text_subclass.registry.Registry"]
    completed = run_module(project, tmp_path, "refgen", *options, "export", "--json")
    assert completed.returncode == 0, completed.stderr
    assert '"hello"' in completed.stdout


def test_the_command_line_prints_no_bidirectional_override_or_lone_surrogate(
    tmp_path: Path,
) -> None:
    project = write_scenario_project(
        tmp_path,
        "tricky",
        {
            "models": '''
                """Tricky text"""

                from dataclasses import dataclass


                @dataclass(frozen=True)
                class Gauge:
                    """A gauge."""

                    size: float = 1.0
                    """The size."""

                    @property
                    def label(self) -> str:
                        """A label that reads backwards and cannot be encoded."""
                        return "safe\\u202eexe.txt bad\\ud800x"
            ''',
            "registry": '''
                """Named."""

                from tricky.models import Gauge


                class Registry:
                    """Named scenarios."""

                    Small = Gauge()
            ''',
        },
        registry="registry.Registry",
        documented=["models"],
    )
    options = ["--module", "tricky.models", "--registry", "tricky.registry.Registry"]
    shown = run_module(project, tmp_path, "refgen", *options, "show", "Small.label")
    assert shown.returncode == 0, shown.stderr
    assert "\u202e" not in shown.stdout and "safe\ufffdexe.txt" in shown.stdout
    exported = run_module(project, tmp_path, "refgen", *options, "export", "--json")
    assert exported.returncode == 0, exported.stderr
    assert "\u202e" not in exported.stdout and "\\u202e" in exported.stdout
    data = json.loads(exported.stdout)
    assert "safe\u202eexe.txt bad\ud800x" in json.dumps(data, ensure_ascii=False)


def test_class_names_that_make_awkward_file_names_get_pages(tmp_path: Path) -> None:
    """A class called ``index`` took its category's page; a 305-character name
    stopped the build with "File name too long"."""
    project = corpus_project(tmp_path, "class_names")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    folder = result.outdir / "reference" / "class_names.models"
    category = read_html(folder / "index.html").find("table", class_="refgen-category")
    assert [a.get_text() for a in category.find_all("a")] == ["index", "Gauge" + "x" * 300]
    assert read_html(folder / "index-class.html").find(id="class_names.models.index")
    [long_page] = [p for p in folder.glob("Gaugexxx*.html")]
    assert len(long_page.name.encode()) <= 130
