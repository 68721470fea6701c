"""The hostile corpus, round two: code and configuration that misbehave in quieter ways.

Each case of ``tests/hostile/`` named in :data:`CASES` is built as a site or run
through the command line, and what it used to get away with is now refused or
reported: spreadsheet formulas in CSV cells, names the export schema refused,
pages the author wrote overwritten, warnings lost to ``logging.disable``, a
process ended by ``os._exit``, an empty reference, ``warnings.simplefilter("error")``,
a file name that is not UTF-8, a format spec a billion characters wide, an
example printing ten megabytes or terminal escapes, and a logarithmic sweep whose
points overflowed.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html
from tests.sphinx.test_hostile import CORPUS, MARK, corpus_project

CASES = {
    "csv_formulas",
    "names_non_ascii",
    "handwritten_pages",
    "logging_disabled",
    "property_os_exit",
    "reference_empty",
    "warnings_as_errors",
    "undecodable_file_name",
    "format_width",
    "example_output",
    "sweep_log_range",
}
"""The corpus cases this module tests (``tests/sphinx/test_hostile.py`` checks every case
is tested)."""


def marked_lines(project: ScenarioProject, case: str) -> list[tuple[Path, int]]:
    """Every line marked ``# <- refgen`` in the case's modules."""
    return [
        (path, number)
        for path in sorted((project.src / case).glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MARK in line
    ]


def refgen_warnings(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "[refgen." in w]


def cli(project: ScenarioProject, cwd: Path, case: str, *args: str) -> tuple[int, str, str]:
    """``refgen --module <case>.models [--registry ...] *args``: status, stdout, stderr."""
    options = ["--module", f"{case}.models"]
    if (project.src / case / "registry.py").exists():
        options += ["--registry", f"{case}.registry.Registry"]
    completed = subprocess.run(
        [sys.executable, "-m", "refgen", *options, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=project.environment(),  # this checkout's refgen, whatever is installed
        check=False,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed.returncode, completed.stdout, completed.stderr


# --------------------------------------------------------------------------- 4: CSV formulas

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list)."""


def csv_rows(text: str) -> dict[str, dict[str, str]]:
    return {row["attribute"]: row for row in csv.DictReader(io.StringIO(text))}


def test_text_cells_a_spreadsheet_would_run_are_neutralised_and_numbers_stay_numbers(
    tmp_path: Path,
) -> None:
    project = corpus_project(tmp_path, "csv_formulas")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    site = (result.outdir / "reference" / "registry.csv").read_bytes().decode()  # "\r" kept
    status, exported, _ = cli(project, tmp_path, "csv_formulas", "export", "--format", "csv")
    assert status == 0
    for text in (site, exported):
        rows = csv_rows(text)
        assert set(rows) == {"label", "offset", "plus", "minus", "at", "tab", "carriage_return"}
        for row in rows.values():
            for column, cell in row.items():
                if column != "magnitude":
                    assert not cell.startswith(FORMULA_STARTS), (column, cell)
        assert rows["label"]["text"] == "'=HYPERLINK(\"https://example.org\", \"click\")"
        assert rows["minus"]["text"] == "'-2+3"
        assert rows["offset"]["magnitude"] == "-1.5"  # a number, as written


# --------------------------------------------------------------------------- 5: names


def test_non_ascii_names_are_exported_as_the_schema_allows(tmp_path: Path) -> None:
    import jsonschema

    project = corpus_project(tmp_path, "names_non_ascii")
    status, out, err = cli(project, tmp_path, "names_non_ascii", "export", "--json")
    assert status == 0, err
    data = json.loads(out)
    schema = json.loads(
        resources.files("refgen").joinpath("export_schema.json").read_text(encoding="utf-8")
    )
    jsonschema.Draft202012Validator(schema).validate(data)
    [scenario] = data["classes"]
    assert scenario["qualname"] == "names_non_ascii.models.Größe"
    assert [d["name"] for d in scenario["derived"]] == ["fläche"]
    assert [i["name"] for i in scenario["inputs"]] == ["länge", "breite"]


# --------------------------------------------------------------------------- 6: own pages


def with_handwritten_pages(project: ScenarioProject) -> dict[Path, bytes]:
    """The case's hand-written pages copied into the docs folder, with their bytes."""
    shutil.copytree(CORPUS / "handwritten_pages" / "docs", project.docs, dirs_exist_ok=True)
    pages = [project.docs / "reference" / "index.rst", project.docs / "reference" / "registry.rst"]
    return {page: page.read_bytes() for page in pages}


def test_pages_the_author_wrote_are_never_overwritten(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "handwritten_pages")
    before = with_handwritten_pages(project)
    result = project.build("html", "--keep-going")
    assert result.returncode == 2, result.stderr  # an error, not a warning or a success
    assert {page: page.read_bytes() for page in before} == before
    assert "refgen will not overwrite pages it did not write!" in result.stderr  # the build stops
    for page in before:
        assert f"{page} was not written by refgen" in result.stderr
    assert not (result.outdir / "reference").exists()  # before writing any page


def test_a_reference_root_of_the_docs_folder_leaves_the_master_page_alone(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "handwritten_pages")
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + 'refgen_root = "."\n', encoding="utf-8")
    master = project.docs / "index.rst"
    before = master.read_bytes()
    result = project.build("html", "--keep-going")
    assert result.returncode == 2, result.stderr
    assert master.read_bytes() == before
    assert f"{master} was not written by refgen" in result.stderr


def test_stubs_refgen_wrote_are_still_rewritten(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "handwritten_pages")
    assert project.build("html", "-W").returncode == 0
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + "html_title = 'Again'\n", encoding="utf-8")
    assert project.build("html", "-W").returncode == 0


# --------------------------------------------------------------------------- 7: logging


def test_a_module_that_disables_logging_still_gets_every_warning(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "logging_disabled")
    try:
        result = project.build("html", "-W", "--keep-going")
    finally:
        logging.disable(logging.NOTSET)  # what the module did to this process
    assert result.returncode == 1, result.stderr
    mine = refgen_warnings(result.warnings)
    assert len(mine) == 2, result.stderr
    for (path, line), warning in zip(marked_lines(project, "logging_disabled"), mine, strict=True):
        assert warning.startswith(f"{path}:{line}: WARNING: "), warning
    assert mine[0].endswith("[refgen.example]") and mine[1].endswith("[refgen.value]")


# --------------------------------------------------------------------------- 8: os._exit


def test_a_property_that_ends_the_process_is_a_failure_not_a_success(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "property_os_exit")
    # In a process of its own: before refgen caught it, the call ended the build's process.
    result = project.build("html", "-W", "--keep-going", isolated=True)
    assert result.returncode == 1, result.stderr
    [warning] = refgen_warnings(result.warnings)
    [(path, line)] = marked_lines(project, "property_os_exit")
    assert warning.startswith(f"{path}:{line}: WARNING: "), warning
    assert "Gauge.broken cannot be computed" in warning and "os._exit(0)" in warning
    page = read_html(result.outdir / "reference" / "property_os_exit.models" / "Gauge.html")
    assert "2" in page.find("table", class_="refgen-values").get_text()
    for args in (("show", "Small"), ("show", "Small.broken"), ("export", "--json")):
        status, out, err = cli(project, tmp_path, "property_os_exit", *args)
        assert status == 0, err
        assert "os._exit(0)" in out, args


# --------------------------------------------------------------------------- 9: empty


def test_a_module_without_scenario_classes_is_an_empty_reference_and_a_warning(
    tmp_path: Path,
) -> None:
    project = corpus_project(tmp_path, "reference_empty")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    [warning] = refgen_warnings(result.warnings)
    conf = project.docs / "conf.py"
    assert warning.startswith(f"{conf}:3: WARNING: "), warning
    assert "the reference is empty" in warning and "'reference_empty.models'" in warning
    assert warning.endswith("[refgen.import]")


def test_no_modules_and_no_registry_is_an_empty_reference_and_a_warning(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "nothing", {}, documented=[])
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    [warning] = refgen_warnings(result.warnings)
    assert warning.startswith(f"{project.docs / 'conf.py'}:3: WARNING: "), warning
    assert "the reference is empty: refgen_modules and refgen_registry name nothing" in warning


# --------------------------------------------------------------------------- 12: warnings


def test_a_module_that_makes_every_warning_an_error_still_builds(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "warnings_as_errors")
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8") + 'extensions.append("sphinx.ext.viewcode")\n',
        encoding="utf-8",
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "warnings_as_errors.models" / "Gauge.html")
    hrefs = [a.get("href", "") for a in page.find_all("a")]
    assert [h for h in hrefs if "_modules/warnings_as_errors/models.html" in h]


# --------------------------------------------------------------------------- 13: file names


def test_a_file_name_that_is_not_utf8_is_no_trouble(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "undecodable_file_name")
    data = os.fsdecode(b"caf\xe9.dat")
    (project.src / "undecodable_file_name" / data).write_bytes(b"menu")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert (result.outdir / "reference" / "undecodable_file_name.models" / "Gauge.html").exists()
    status, out, err = cli(project, tmp_path, "undecodable_file_name", "show", "Small")
    assert status == 0, err
    assert "doubled" in out


# --------------------------------------------------------------------------- 15: resources


def test_a_format_spec_may_not_ask_for_a_billion_characters(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "format_width")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    [warning] = [line for line in result.stderr.splitlines() if "[refgen." in line]
    assert "cannot format with '>1000000000': asks for 1000000000 characters" in warning
    assert warning.endswith("[refgen.value]")
    page = result.outdir / "reference" / "format_width.models" / "Gauge.html"
    assert page.stat().st_size < 200_000


def test_example_output_is_shortened_and_cleaned_in_warnings(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "example_output")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    flood, escapes = sorted(refgen_warnings(result.warnings), key=len, reverse=True)
    assert len(flood) < 10_000
    assert "x… (9,998,001 more characters not shown)" in flood
    assert "red" in escapes
    for character in ("\x1b", "\x07", "\u202e"):
        assert character not in result.stderr
    [(path, flooded), (_, escaped)] = marked_lines(project, "example_output")
    assert flood.startswith(f"{path}:{flooded}: ") and escapes.startswith(f"{path}:{escaped}: ")


# --------------------------------------------------------------------------- 16: log sweeps

SWEEP_PAGE = """\
Sweeps
======

.. refgen-sweep:: Small
   :vary: size
   :from: 1e-300
   :to: 1e300
   :steps: 7
   :log:
   :plot: doubled
"""


def test_a_logarithmic_sweep_over_six_hundred_orders_of_magnitude(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "sweep_log_range")
    (project.docs / "sweeps.rst").write_text(SWEEP_PAGE, encoding="utf-8")
    index = project.docs / "index.rst"
    index.write_text(index.read_text(encoding="utf-8") + "   sweeps\n", encoding="utf-8")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    table = read_html(result.outdir / "sweeps.html").find("table")
    rows = [[c.get_text() for c in row.find_all(["th", "td"])] for row in table.find_all("tr")[1:]]
    assert [size for size, _ in rows] == [
        "10⁻³⁰⁰", "10⁻²⁰⁰", "10⁻¹⁰⁰", "1", "10¹⁰⁰", "10²⁰⁰", "10³⁰⁰"
    ]  # fmt: skip
    assert [doubled for _, doubled in rows][-1] == "2×10³⁰⁰"


# --------------------------------------------------------------------------- the corpus


def test_the_corpus_readme_says_what_every_case_is_in_one_line() -> None:
    readme = (CORPUS / "README.md").read_text(encoding="utf-8").splitlines()
    listed = [line.partition("`")[2].partition("`")[0] for line in readme if line.startswith("- `")]
    cases = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
    assert listed == cases
