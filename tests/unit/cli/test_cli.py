"""The ``refgen`` command line, run as a user runs it: in a subprocess.

The commands against our own scenarios are started together (they are
independent, and each spends most of its time importing the scenario
package); the throwaway package proves the failure paths of ``check``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import pytest

from refgen.config import ConfigError, Settings, load_settings
from refgen.testing import ScenarioProject, write_scenario_project
from tests.conftest import DOCS, REPO
from tests.html_helpers import SECTIONS

FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+): \[(?P<kind>[a-z-]+)\] (?P<message>.+)$")

# Lookups without the disk cache: each one computes, imports the scenarios and leaves
# nothing in the checkout (tests/unit/cli/test_cli_cache.py tests the cache).
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
    "search": ("search", "BANDWIDTH", "--limit", "0"),
    "search-nothing": ("search", "no-such-word-anywhere"),
    "check": ("check",),
    "export-file": ("export", "--json", "-o", "{tmp}/reference.json"),
    "export-stdout": ("export", "--json"),
    "export-default": ("export",),
    "export-format-json": ("export", "--format", "json"),
    "export-csv": ("export", "--format", "csv"),
    # Every spelling of a name a reader sees on the site, as JSON.
    "json-registry-entry": (
        "show",
        "--no-cache",
        "--format",
        "json",
        "Scenarios.PhoneFullUpdateWorkingSet",
    ),
    "json-dotted-entry": (
        "show",
        "--no-cache",
        "--format",
        "json",
        "refgen_scenarios.Scenarios.PhoneFullUpdateWorkingSet",
    ),
    "json-lowercase-entry": ("show", "--no-cache", "--format", "json", "phonefullupdateworkingset"),
    "json-class-attribute": (
        "show",
        "--no-cache",
        "--format",
        "json",
        "UpdateWorkingSetScenario.step_floor",
    ),
    "json-module-class": (
        "show",
        "--no-cache",
        "--format",
        "json",
        "refgen_scenarios.training.UpdateWorkingSetScenario",
    ),
    "json-helper": ("show", "--no-cache", "--format", "json", "calc_update_step_traffic"),
    "json-misspelt": ("show", "--no-cache", "--format", "json", "PhoneFullUpdateWorkingSt"),
    "json-search-kv-cache": ("search", "--format", "json", "kv cache"),
    "json-search-working-set-phone": ("search", "--format", "json", "working set phone"),
    "json-search-carbon": ("search", "--format", "json", "--limit", "0", "carbon"),
    "json-search-unit": ("search", "--format", "json", "millisecond"),
    "json-search-nothing": ("search", "--format", "json", "no-such-word-anywhere"),
    "json-check": ("check", "--format", "json"),
    "completion-names": ("completion", "--names", "--no-cache"),
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
    """``python -m refgen ARGS`` (the console script's code path) under ``-X importtime``,
    in a terminal 88 columns wide unless ``env`` gives another ``COLUMNS``."""
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "refgen", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "88", **(env or {})},
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


WIDE = {"COLUMNS": "200"}
"""A terminal wide enough that no line of :data:`COMMANDS`' output is wrapped."""


@pytest.fixture(scope="module")
def runs(tmp_module: Path) -> dict[str, Run]:
    """Every command of :data:`COMMANDS`, run in the repository, side by side, on a
    :data:`WIDE` terminal."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            key: pool.submit(refgen, *(a.format(tmp=tmp_module) for a in args), env=WIDE)
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


def test_search_lists_a_row_per_match_best_first(runs) -> None:
    result = runs["search"]
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = [re.split(r"\s{2,}", line, maxsplit=2) for line in lines if not line.startswith(" ")]
    assert all(len(row) == 3 for row in rows), result.stdout
    assert all(line.startswith(" " * 20) for line in lines if line.startswith(" "))  # wrapped
    kinds = {kind for _, kind, _ in rows}
    assert kinds <= {"class", "input", "derived", "entry", "helper"}
    names = [name for name, _, _ in rows]
    assert {"UpdateWorkingSetScenario.bandwidth", "UpdateWorkingSetScenario.step_floor"} <= set(
        names
    )
    # A match in the name ranks above one in the summary, which ranks above the rest.
    assert names.index("UpdateWorkingSetScenario.bandwidth") < names.index(
        "UpdateWorkingSetScenario.step_floor"
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
    run = refgen(*args, *options, cwd=tmp_path, env={**project.environment(), **WIDE})
    return project, run


def test_check_reports_each_finding_with_location_and_kind(tmp_path: Path) -> None:
    project, result = refgen_on_sloppy(tmp_path, "check")
    assert result.returncode == 1, result.stderr
    source = project.module_path("mod").read_text(encoding="utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(source, 1) if text in line)

    # a long message goes on under its finding, indented
    heads = [line for line in result.stdout.splitlines() if not line[:1].isspace()]
    findings = [FINDING.match(line) for line in heads]
    assert all(findings), result.stdout
    got = {(int(m["line"]), m["kind"]) for m in findings if m}
    assert {m["path"] for m in findings if m} == {"src/pkg/mod.py"}
    sloppy = line_of("class Sloppy")
    assert got == {
        (sloppy, "missing-assumptions"),
        (sloppy, "missing-excludes"),
        (sloppy, "missing-example"),
        (line_of("- pkg.nowhere.helper"), "reference"),  # at the reference itself
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
        "magnitude": 15.625,
        "units": "millisecond",
        "available": True,
        "reason": "",
    }
    assert values["bandwidth"]["magnitude"] == 51.2
    assert values["bandwidth"]["units"] == "gigabyte / second"
    assert values["parameters"]["text"] == "10⁷"
    assert values["parameters"]["magnitude"] == 10_000_000
    assert values["parameters"]["units"] == ""


def test_export_is_json_by_default_and_json_is_an_alias(runs) -> None:
    expected = runs["export-stdout"]
    assert expected.returncode == 0, expected.stderr
    for key in ("export-default", "export-format-json"):
        assert runs[key].returncode == 0, runs[key].stderr
        assert runs[key].stdout == expected.stdout


def test_export_csv_gives_a_row_per_value_with_magnitude_and_units(runs) -> None:
    result = runs["export-csv"]
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == [
        "entry",
        "class",
        "attribute",
        "kind",
        "text",
        "magnitude",
        "units",
        "available",
        "reason",
    ]
    exported = json.loads(runs["export-stdout"].stdout)
    assert len(rows) == sum(len(e["values"]) for e in exported["registry_entries"])
    row = next(
        r
        for r in rows
        if (r["entry"], r["attribute"]) == ("PhoneFullUpdateWorkingSet", "step_floor")
    )
    assert row == {
        "entry": "PhoneFullUpdateWorkingSet",
        "class": "refgen_scenarios.training.UpdateWorkingSetScenario",
        "attribute": "step_floor",
        "kind": "derived",
        "text": "15.625 ms",
        "magnitude": "15.625",
        "units": "millisecond",
        "available": "true",
        "reason": "",
    }
    missing = next(
        r
        for r in rows
        if (r["entry"], r["attribute"]) == ("Gpt2XlFp16UpdateWorkingSet", "step_floor")
    )
    assert (missing["available"], missing["magnitude"]) == ("false", "")
    assert "needs bandwidth" in missing["reason"]


# --------------------------------------------------------------------------- names and JSON


def schema_of(definition: str) -> dict[str, Any]:
    """The export schema's ``$defs`` entry ``definition``, as a schema of its own."""
    schema = json.loads(
        resources.files("refgen").joinpath("export_schema.json").read_text(encoding="utf-8")
    )
    return {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}


def validate(data: Any, definition: str) -> None:
    import jsonschema

    jsonschema.Draft202012Validator(schema_of(definition)).validate(data)


def shown_json(run: Run) -> dict[str, Any]:
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    assert list(data) == ["kind", "name", "qualname", "entry", "class", "attribute", "helper"]
    assert [key for key in ("entry", "class", "attribute", "helper") if data[key]] == [data["kind"]]
    return data


@pytest.mark.parametrize(
    "key", ["json-registry-entry", "json-dotted-entry", "json-lowercase-entry"]
)
def test_show_takes_an_entry_as_the_site_names_it(runs, key: str) -> None:
    data = shown_json(runs[key])
    assert data["kind"] == "entry"
    assert data["name"] == "PhoneFullUpdateWorkingSet"
    assert data["qualname"] == "refgen_scenarios.Scenarios.PhoneFullUpdateWorkingSet"
    validate(data["entry"], "registry_entry")
    values = {v["name"]: v for v in data["entry"]["values"]}
    assert (values["step_floor"]["magnitude"], values["step_floor"]["units"]) == (
        15.625,
        "millisecond",
    )


def test_show_takes_class_attribute_and_module_class(runs) -> None:
    attribute = shown_json(runs["json-class-attribute"])
    assert attribute["kind"] == "attribute"
    assert attribute["name"] == "UpdateWorkingSetScenario.step_floor"
    found = attribute["attribute"]
    assert found["kind"] == "derived"
    assert found["input"] is None
    validate(found["derived"], "derived")
    assert found["derived"]["equation"]["expression"] == (
        "(self.step_traffic / self.bandwidth).to('millisecond')"
    )
    assert [v["entry"] for v in found["values"]] == [
        "PhoneFullUpdateWorkingSet",
        "Gpt2XlFp16UpdateWorkingSet",
    ]
    for value in found["values"]:
        validate({k: v for k, v in value.items() if k != "entry"}, "value")
    assert found["values"][0]["magnitude"] == 15.625
    assert found["values"][1]["available"] is False

    scenario = shown_json(runs["json-module-class"])
    assert scenario["kind"] == "class"
    assert scenario["qualname"] == "refgen_scenarios.training.UpdateWorkingSetScenario"
    validate(scenario["class"], "class")

    helper = shown_json(runs["json-helper"])
    assert helper["kind"] == "helper"
    validate(helper["helper"], "helper")


def test_a_misspelt_name_exits_1_suggesting_the_right_one(runs) -> None:
    result = runs["json-misspelt"]
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error["status"] == 1
    assert error["suggestions"][0] == "PhoneFullUpdateWorkingSet"
    assert "did you mean PhoneFullUpdateWorkingSet" in result.stderr


# --------------------------------------------------------------------------- search ranking


def search_json(run: Run) -> dict[str, Any]:
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    assert list(data) == ["query", "tokens", "total", "results"]
    for hit in data["results"]:
        assert list(hit) == ["name", "kind", "qualname", "summary", "score", "matched", "fields"]
    return data


def test_search_kv_cache_finds_the_kv_cache_scenarios_first(runs) -> None:
    data = search_json(runs["json-search-kv-cache"])
    assert data["tokens"] == ["kv", "cache"]
    top = [hit["name"] for hit in data["results"][:5]]
    assert {
        "KvCacheScenario",
        "KvCacheCapacityScenario",
        "BatchDecodeScenario.kv_cache_bytes",
    } <= set(top)
    first = data["results"][0]
    assert first["matched"] == ["kv", "cache"] and first["fields"] == ["name"]


def test_search_working_set_phone_finds_the_phone_entry_first(runs) -> None:
    data = search_json(runs["json-search-working-set-phone"])
    first = data["results"][0]
    assert (first["name"], first["kind"]) == ("PhoneFullUpdateWorkingSet", "entry")
    assert first["matched"] == ["working", "set", "phone"]
    # Every result has at least two of the three words; those with all three come first.
    counts = [len(hit["matched"]) for hit in data["results"]]
    assert min(counts) >= 2 and counts == sorted(counts, reverse=True)


def test_search_carbon_ranks_names_above_descriptions(runs) -> None:
    data = search_json(runs["json-search-carbon"])
    assert data["total"] == len(data["results"])
    names = [hit["name"] for hit in data["results"]]
    assert {"OperationalCarbonScenario", "EmbodiedCarbonScenario"} <= set(names[:4])
    fields = [hit["fields"][0] for hit in data["results"]]
    assert fields == sorted(fields, key=["name", "summary", "text"].index)
    assert "text" in fields  # found in descriptions too, not only in names


def test_search_reaches_units_and_equations(runs) -> None:
    data = search_json(runs["json-search-unit"])
    hits = {hit["name"]: hit for hit in data["results"]}
    assert hits["UpdateWorkingSetScenario.step_floor"]["fields"] == ["text"]


def test_search_without_match_gives_empty_json_and_exits_1(runs) -> None:
    result = runs["json-search-nothing"]
    assert result.returncode == 1
    assert json.loads(result.stdout)["results"] == []


def test_tokens_split_identifiers_and_words() -> None:
    from refgen.cli.search import query_tokens, tokens

    assert tokens("kv_cache_bytes") == ["kv", "cache", "byte"]
    assert tokens("KvCacheCapacityScenario.max_tokens") == [
        "kv",
        "cache",
        "capacity",
        "scenario",
        "max",
        "token",
    ]
    assert tokens("Gpt2XlFp16 HTTPServer") == ["gpt", "2", "xl", "fp", "16", "http", "server"]
    assert tokens("Working-set (MB), in µs") == ["working", "set", "mb", "in", "µs".casefold()]
    assert query_tokens("the KV cache of the phone") == ["kv", "cache", "phone"]
    assert query_tokens("the") == ["the"]


def test_check_json_lists_findings_with_locations(tmp_path: Path) -> None:
    _, result = refgen_on_sloppy(tmp_path, "check", "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert list(data) == ["classes", "without_entries", "findings"]
    assert data["classes"] == 2
    assert len(data["findings"]) == 9
    assert all(list(f) == ["path", "line", "kind", "message"] for f in data["findings"])
    assert {f["path"] for f in data["findings"]} == {"src/pkg/mod.py"}


def test_check_json_is_clean_on_our_scenarios(runs) -> None:
    result = runs["json-check"]
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["findings"] == []


# --------------------------------------------------------------------------- terminal


def test_output_wraps_at_word_boundaries_to_the_terminal_width() -> None:
    narrow = {"COLUMNS": "60"}
    entry = refgen("show", "--no-cache", "PhoneFullUpdateWorkingSet", env=narrow)
    search = refgen("search", "kv cache", env=narrow)
    for result in (entry, search):
        assert result.returncode == 0, result.stderr
        assert max(len(line) for line in result.stdout.splitlines()) <= 60
        assert "\x1b" not in result.stdout  # not a terminal: no colour
    description = json.loads(runs_once("export-stdout"))["registry_entries"][0]["description"]
    words = " ".join(description.split()).split(" ")
    printed = entry.stdout.split()
    assert all(word in printed for word in words)  # no word cut in two


def runs_once(key: str) -> str:
    return refgen(*COMMANDS[key]).stdout


def on_a_terminal(*args: str, env: dict[str, str]) -> str:
    """What ``refgen ARGS`` writes to a pseudo-terminal."""
    import pty

    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "refgen", *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "100", **env},
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait()
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    environment = {k: "" for k in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    styled = on_a_terminal("search", "kv cache", env={**environment, "TERM": "xterm-256color"})
    assert "\x1b[" in styled and "KvCacheScenario" in styled
    plain = on_a_terminal(
        "search", "kv cache", env={**environment, "NO_COLOR": "1", "TERM": "xterm-256color"}
    )
    assert "\x1b" not in plain and "KvCacheScenario" in plain
    piped = refgen("search", "kv cache", env={"FORCE_COLOR": "1"})
    assert "\x1b" not in piped.stdout


# --------------------------------------------------------------------------- completion, version


def test_version() -> None:
    result = refgen("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"refgen {metadata.version('refgen')}"


def test_completion_names_lists_what_show_takes(runs) -> None:
    result = runs["completion-names"]
    assert result.returncode == 0, result.stderr
    names = result.stdout.splitlines()
    assert {
        "PhoneFullUpdateWorkingSet",
        "UpdateWorkingSetScenario",
        "UpdateWorkingSetScenario.step_floor",
        "calc_update_step_traffic",
    } <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_commands_options_and_names(tmp_path: Path) -> None:
    script = refgen("completion", "bash")
    assert script.returncode == 0, script.stderr
    (tmp_path / "refgen.bash").write_text(script.stdout, encoding="utf-8")
    # `refgen` on PATH as this interpreter's module, for the names.
    (tmp_path / "refgen").write_text(f'#!/bin/sh\nexec {sys.executable} -m refgen "$@"\n')
    (tmp_path / "refgen").chmod(0o755)

    def complete(line: str) -> list[str]:
        words = line.split(" ")
        program = (
            f"source {tmp_path / 'refgen.bash'}\n"
            f"COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE='{line}'; "
            f"COMP_POINT={len(line)}\n"
            "_shtab_refgen refgen\n"
            'printf "%s\\n" "${COMPREPLY[@]}"\n'
        )
        done = subprocess.run(
            ["bash", "-c", program],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"},
            check=False,
        )
        return done.stdout.split()

    assert "search" in complete("refgen se")
    assert "--format" in complete("refgen export --fo")
    assert {"json", "csv"} == set(complete("refgen export --format "))
    assert "PhoneFullUpdateWorkingSet" in complete("refgen show PhoneF")


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
    result = refgen(*options, *args, cwd=project.root, env=project.environment())
    assert result.returncode == 0, result.stderr
    assert not [c for c in result.stdout if ord(c) < 32 and c not in "\n"], repr(result.stdout)
    if args[0] == "show":
        assert "red\ufffd[31m bell\ufffd back\ufffd over" in result.stdout
