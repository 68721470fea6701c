"""The ``refgen`` command line, run as a user runs it: in a subprocess.

The commands against our own scenarios are started together (they are
independent, and each spends most of its time importing the scenario
package); the throwaway package proves the failure paths of ``check``.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

import pytest

from refgen.config import ConfigError, Settings, load_settings
from refgen.testing import ScenarioProject, write_scenario_project
from tests.conftest import DOCS, REPO
from tests.html_helpers import SECTIONS

FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+): \[(?P<kind>[a-z-]+)\] (?P<message>.+)$")

# Lookups without the disk cache: each one computes, imports the scenarios and leaves
# nothing in the checkout (tests/test_cli_cache.py tests the cache).
COMMANDS = {
    "show-entry": ("show", "--no-cache", "PhoneFullUpdateWorkingSet"),
    "show-class": ("show", "--no-cache", "UpdateWorkingSetScenario"),
    "show-attribute": (
        "show",
        "--no-cache",
        "refgen_scenarios.training.UpdateWorkingSetScenario.step_floor",
    ),
    "show-entry-attribute": ("show", "--no-cache", "PhoneFullUpdateWorkingSet.step_floor"),
    "show-helper-attribute": ("show", "--no-cache", "UpdateWorkingSetScenario.step_traffic"),
    "show-unknown": ("show", "--no-cache", "UpdateWorkingSet"),
    "show-unknown-attribute": ("show", "--no-cache", "UpdateWorkingSetScenario.step_flor"),
    "search": ("search", "BandWidth"),
    "search-nothing": ("search", "no-such-word-anywhere"),
    "check": ("check",),
    "export-file": ("export", "--json", "-o", "{tmp}/reference.json"),
    "export-stdout": ("export", "--json"),
}
HEAVY = ("sphinx", "docutils", "myst_parser", "matplotlib")
"""Packages the command line must never import."""


@dataclass(frozen=True)
class Run:
    """One finished command: its exit status, output, and every module it imported."""

    returncode: int
    stdout: str
    stderr: str
    modules: frozenset[str]


def refgen(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> Run:
    """``python -m refgen ARGS`` (the console script's code path) under ``-X importtime``."""
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "refgen", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        check=False,
    )
    modules, messages = set(), []
    for line in completed.stderr.splitlines():
        if line.startswith("import time:"):
            modules.add(line.rpartition("|")[2].strip())
        else:
            messages.append(line)
    messages_text = "\n".join(messages) + ("\n" if messages else "")
    return Run(completed.returncode, completed.stdout, messages_text, frozenset(modules))


@pytest.fixture(scope="module")
def tmp_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def runs(tmp_module: Path) -> dict[str, Run]:
    """Every command of :data:`COMMANDS`, run in the repository, side by side."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            key: pool.submit(refgen, *(a.format(tmp=tmp_module) for a in args))
            for key, args in COMMANDS.items()
        }
        return {key: future.result() for key, future in futures.items()}


def class_line(name: str) -> int:
    text = (
        (REPO / "src" / "refgen_scenarios" / "training.py").read_text(encoding="utf-8").splitlines()
    )
    return next(i for i, line in enumerate(text, 1) if line.startswith(f"class {name}"))


# --------------------------------------------------------------------------- show


def test_show_page_prints_the_class_page_from_the_same_blocks_as_the_site() -> None:
    result = refgen("show", "--no-cache", "PhoneFullUpdateWorkingSet", "--page")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    titles = [lines[i - 1] for i, line in enumerate(lines) if line and set(line) == {"-"}]
    assert titles == SECTIONS
    assert re.search(r"^bandwidth +Optional\[Quantity\] +None +DRAM bandwidth", result.stdout, re.M)
    tables = lines[lines.index("Inputs") : lines.index("Registry values")]
    assert max(len(line) for line in tables) <= 88  # cells wrapped at words to fit
    assert re.search(r"^step_floor +15\.625 +ms +", result.stdout, re.M)
    assert ">>> print(scenario.step_floor)" in lines  # examples kept line by line


def test_show_registry_entry_prints_every_value_with_units(runs) -> None:
    result = runs["show-entry"]
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("PhoneFullUpdateWorkingSet\n")
    assert "class refgen_scenarios.training.UpdateWorkingSetScenario" in out
    assert "A 10 M-parameter FP32 model" in out
    assert re.search(r"^  bandwidth +51\.2 GB/s +stated as 51\.2 \* ureg\.GB / ureg\.s$", out, re.M)
    assert re.search(r"^  weights +40 MB$", out, re.M)
    assert re.search(r"^  step_floor +15\.625 ms$", out, re.M)


def test_show_class_prints_summary_inputs_and_equations(runs) -> None:
    result = runs["show-class"]
    assert result.returncode == 0, result.stderr
    out = result.stdout
    line = class_line("UpdateWorkingSetScenario")
    where = f"(src/refgen_scenarios/training.py:{line})"
    assert f"class refgen_scenarios.training.UpdateWorkingSetScenario {where}" in out
    assert "category: Training scenarios" in out
    assert "A full on-device update with Adam" in out
    assert "  bandwidth: Optional[Quantity] = None\n" in out
    assert "  parameters: float (required)\n" in out
    assert "      = (self.step_traffic / self.bandwidth).to('millisecond')\n" in out
    assert "computed by refgen_scenarios.physics.memory.calc_update_step_traffic" in out


def test_show_attribute_prints_equation_data_flow_and_location(runs) -> None:
    result = runs["show-attribute"]
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("UpdateWorkingSetScenario.step_floor\n")
    assert "derived attribute refgen_scenarios.training.UpdateWorkingSetScenario.step_floor" in out
    assert "Traffic-only lower bound on step time in ms" in out
    assert "Equation: (self.step_traffic / self.bandwidth).to('millisecond')" in out
    assert "Reads: step_traffic, bandwidth" in out
    assert re.search(r"defined at src/refgen_scenarios/training\.py:\d+", out)


def test_show_attribute_of_an_entry_also_prints_its_value(runs) -> None:
    result = runs["show-entry-attribute"]
    assert result.returncode == 0, result.stderr
    assert "Equation: (self.step_traffic / self.bandwidth).to('millisecond')" in result.stdout
    assert re.search(r"^Value\n  PhoneFullUpdateWorkingSet +15\.625 ms$", result.stdout, re.M)


def test_show_attribute_computed_by_a_helper_names_the_helper(runs) -> None:
    out = runs["show-helper-attribute"].stdout
    assert "Equation: carried by a helper" in out
    helper = "refgen_scenarios.physics.memory.calc_update_step_traffic"
    assert f"{helper} (src/refgen_scenarios/physics/memory.py:" in out


def test_show_unknown_name_exits_1_with_close_matches(runs) -> None:
    result = runs["show-unknown"]
    assert result.returncode == 1
    assert result.stdout == ""
    assert "'UpdateWorkingSet'" in result.stderr
    assert "did you mean UpdateWorkingSetScenario" in result.stderr
    attribute = runs["show-unknown-attribute"]
    assert attribute.returncode == 1
    assert "did you mean UpdateWorkingSetScenario.step_floor?" in attribute.stderr


# --------------------------------------------------------------------------- search


def test_search_lists_one_line_per_match(runs) -> None:
    result = runs["search"]
    assert result.returncode == 0, result.stderr
    rows = [re.split(r"\s{2,}", line, maxsplit=2) for line in result.stdout.splitlines()]
    assert all(len(row) == 3 for row in rows), result.stdout
    assert ["UpdateWorkingSetScenario.bandwidth", "input"] in [row[:2] for row in rows]
    assert ["UpdateWorkingSetScenario.step_floor", "derived"] in [row[:2] for row in rows]
    assert all(
        "bandwidth" in (name + description).lower() or kind == "class"
        for name, kind, description in rows
    )


def test_search_without_match_exits_1(runs) -> None:
    result = runs["search-nothing"]
    assert result.returncode == 1
    assert result.stdout == ""
    assert "nothing matches" in result.stderr


# --------------------------------------------------------------------------- check


def test_check_is_clean_on_our_scenarios(runs) -> None:
    result = runs["check"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "no findings" in result.stderr


SLOPPY = '''
    """Sloppy scenarios

    Classes with gaps in their metadata, for the check tests.
    """

    from __future__ import annotations

    from dataclasses import dataclass

    import pint

    ureg = pint.UnitRegistry()


    @dataclass(frozen=True, kw_only=True)
    class Sloppy:
        """A scenario with gaps in its metadata.

        Notes
        -----
        Equation: duration = size / rate.

        Caveats
        -------
        Not a section the convention knows.

        References
        ----------
        - pkg.nowhere.helper
        """

        size: float
        """Size of the job in GB."""
        rate: float = 2.0

        @property
        def duration(self) -> float:
            return self.size / self.rate

        @property
        def memory(self):
            """Memory in MB held while it runs."""
            return (self.size * ureg.GB).to('GB')

        @property
        def latency(self):
            """Latency in MB, which it is not."""
            return self.size * ureg.ms

        @property
        def spare(self):
            """Headroom kept in place of a buffer, in ms."""
            return self.size * ureg.ms


    @dataclass(frozen=True, kw_only=True)
    class Tidy:
        """A scenario whose metadata is complete.

        Notes
        -----
        Equation: time = size / rate.
        Assumptions: None worth stating.
        Excludes: Everything else.

        Examples
        --------
        >>> 1 + 1
        2
        """

        size: float
        """Size of the job."""

        @property
        def time(self):
            """ms: the time the job takes."""
            return self.size * ureg.ms

        @property
        def share(self) -> float:
            """Share of the job (dimensionless)."""
            return self.size / 10
'''

REGISTRY = '''
    from pkg.mod import Sloppy, Tidy


    class Registry:
        """Named scenarios."""

        Job = Sloppy(size=3.0)
        """A three-gigabyte job."""

        Rerun = Sloppy(size=5.0, rate=1.0)
        """The same mistakes, reported once."""

        Small = Tidy(size=2.0)
        """A small job."""
'''


def refgen_on_sloppy(tmp_path: Path, *args: str) -> tuple[ScenarioProject, Run]:
    """``refgen ARGS`` on a throwaway package ``pkg`` of :data:`SLOPPY` and :data:`REGISTRY`."""
    project = write_scenario_project(
        tmp_path, "pkg", {"mod": SLOPPY, "reg": REGISTRY}, registry="reg.Registry"
    )
    options = ("--module", "pkg.mod", "--registry", "pkg.reg.Registry")
    run = refgen(*args, *options, cwd=tmp_path, env={"PYTHONPATH": str(project.src)})
    return project, run


def test_check_reports_each_finding_with_location_and_kind(tmp_path: Path) -> None:
    project, result = refgen_on_sloppy(tmp_path, "check")
    assert result.returncode == 1, result.stderr
    source = project.module_path("mod").read_text(encoding="utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(source, 1) if text in line)

    findings = [FINDING.match(line) for line in result.stdout.splitlines()]
    assert all(findings), result.stdout
    got = {(int(m["line"]), m["kind"]) for m in findings if m}
    assert {m["path"] for m in findings if m} == {"src/pkg/mod.py"}
    sloppy = line_of("class Sloppy")
    assert got == {
        (sloppy, "missing-assumptions"),
        (sloppy, "missing-excludes"),
        (sloppy, "missing-example"),
        (sloppy, "reference"),
        (line_of("Caveats"), "docstring"),
        (line_of("rate: float"), "missing-docstring"),
        (line_of("def duration"), "missing-docstring"),
        (line_of("def memory"), "unit-mismatch"),
        (line_of("def latency"), "unit-mismatch"),
    }
    messages = result.stdout
    assert "Sloppy.memory: the description states MB but Job computes 3 GB" in messages
    assert "the page would quote GB" in messages
    assert "Sloppy.latency: the description states MB but Job computes 3 ms" in messages
    assert messages.count("(and 1 more registry entry)") == 2
    assert "a different dimension" in messages
    assert "unknown docstring section 'Caveats'" in messages
    assert "'pkg.nowhere.helper' cannot be imported" in messages
    assert "9 findings in 2 scenario classes" in result.stderr


# --------------------------------------------------------------------------- export


def test_export_matches_the_schema_and_is_deterministic(runs, tmp_module: Path) -> None:
    import jsonschema

    result = runs["export-file"]
    assert result.returncode == 0, result.stderr
    text = (tmp_module / "reference.json").read_text(encoding="utf-8")
    assert runs["export-stdout"].stdout == text
    data = json.loads(text)
    schema = json.loads(
        resources.files("refgen").joinpath("export_schema.json").read_text(encoding="utf-8")
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)

    assert data["schema_version"] == 1
    assert next(iter(data)) == "schema_version"
    assert data["modules"] == list(load_settings(REPO).modules)
    assert [h["qualname"] for h in data["helpers"]] == sorted(
        h["qualname"] for h in data["helpers"]
    )
    scenario = next(c for c in data["classes"] if c["name"] == "UpdateWorkingSetScenario")
    assert scenario["file"] == "refgen_scenarios/training.py"
    assert scenario["line"] == class_line("UpdateWorkingSetScenario")
    assert [n["label"] for n in scenario["notes"]] == ["Equation", "Assumptions", "Excludes"]
    derived = {d["name"]: d for d in scenario["derived"]}
    assert derived["step_floor"]["equation"]["expression"] == (
        "(self.step_traffic / self.bandwidth).to('millisecond')"
    )
    assert derived["step_traffic"]["equation"]["helpers"] == [
        "refgen_scenarios.physics.memory.calc_update_step_traffic"
    ]
    assert "calc_update_step_traffic" in {h["name"] for h in data["helpers"]}
    entry = next(e for e in data["registry_entries"] if e["name"] == "PhoneFullUpdateWorkingSet")
    assert {"name": "parameters", "text": "10e6"} in entry["inputs"]
    values = {v["name"]: v for v in entry["values"]}
    assert values["step_floor"] == {
        "name": "step_floor",
        "kind": "derived",
        "text": "15.625 ms",
        "available": True,
        "reason": "",
    }


# --------------------------------------------------------------------------- lean imports


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_command_imports_sphinx_or_docutils(runs, command: str) -> None:
    run = runs[command]
    assert "refgen.cli" in run.modules  # the import log was read
    # The scenario code was loaded (a failed lookup can hide a package from the log,
    # so check a module every scenario module imports).
    assert "refgen_scenarios.units" in run.modules
    assert not {m for m in run.modules if m.split(".")[0] in HEAVY}


# --------------------------------------------------------------------------- configuration


def test_console_script_is_declared() -> None:
    scripts = metadata.entry_points(group="console_scripts")
    assert [ep.value for ep in scripts if ep.name == "refgen"] == ["refgen.cli:main"]


def test_pyproject_configures_what_docs_conf_documents() -> None:
    conf = runpy.run_path(str(DOCS / "conf.py"))
    config = load_settings(REPO / "docs")
    assert config.source == REPO / "pyproject.toml"
    assert config.modules == tuple(conf["refgen_modules"])
    assert config.registry == conf["refgen_registry"]


def test_config_is_read_from_the_nearest_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.refgen]\nmodules = ["outer.mod"]\n', encoding="utf-8"
    )
    inner = tmp_path / "inner"
    (inner / "deep").mkdir(parents=True)
    (inner / "pyproject.toml").write_text(
        '[tool.refgen]\nmodules = ["a.b", "a.c"]\nregistry = "a.Registry"\n', encoding="utf-8"
    )
    assert load_settings(inner / "deep") == Settings(
        modules=("a.b", "a.c"), registry="a.Registry", source=inner / "pyproject.toml"
    )
    assert load_settings(tmp_path).modules == ("outer.mod",)


@pytest.mark.parametrize(
    "table",
    ['modules = "one.module"', "registry = 3", 'modules = ["a"]\nregistery = "a.R"'],
)
def test_bad_config_is_an_error_naming_the_file(tmp_path: Path, table: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.refgen]\n{table}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(str(tmp_path / "pyproject.toml"))):
        load_settings(tmp_path)


def test_nothing_configured_exits_2_naming_the_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    result = refgen("show", "Anything", cwd=tmp_path)
    assert result.returncode == 2
    assert str(tmp_path / "pyproject.toml") in result.stderr
    assert "[tool.refgen]" in result.stderr
    assert "Traceback" not in result.stderr


NOISY = '''
    """Noisy scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Noisy:
        """A scenario whose figures drive a terminal."""

        size: float = 1.0
        """The size."""

        @property
        def label(self) -> str:
            """A label with an escape sequence, a bell and a carriage return."""
            return "red\\x1b[31m bell\\x07 back\\r over"
'''

NOISY_REGISTRY = '''
    from noisy.mod import Noisy


    class Registry:
        """Named scenarios."""

        Loud = Noisy(size=2.0)
        """A loud one."""
'''


@pytest.mark.parametrize(
    "args",
    [("show", "Loud"), ("show", "Noisy.label"), ("show", "Loud", "--page"), ("search", "Noisy")],
)
def test_terminal_output_never_carries_control_characters(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    project = write_scenario_project(
        tmp_path, "noisy", {"mod": NOISY, "reg": NOISY_REGISTRY}, registry="reg.Registry"
    )
    options = ("--module", "noisy.mod", "--registry", "noisy.reg.Registry")
    result = refgen(*options, *args, cwd=project.root, env={"PYTHONPATH": str(project.src)})
    assert result.returncode == 0, result.stderr
    assert not [c for c in result.stdout if ord(c) < 32 and c not in "\n"], repr(result.stdout)
    if args[0] == "show":
        assert "red\ufffd[31m bell\ufffd back\ufffd over" in result.stdout
