"""The prose audit through its real interfaces: a Sphinx build and `refgen check --prose`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.project import Project
from refgen.prose.figures import figures
from refgen.prose.passages import Passage, sentences
from refgen.testing import ScenarioProject, write_scenario_project
from tests.sphinx.test_incremental import reread

REPO = Path(__file__).resolve().parents[2]

LINKS = '''
    """Links."""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Link:
        """A link.

        Examples
        --------
        >>> 1
        1
        """

        size: float = 100.0
        """Bytes to send."""
        rate: float = 8.0
        """Bytes a second."""

        @property
        def seconds(self) -> float:
            """Time to send, in seconds."""
            return self.size / self.rate
'''
REGISTRY = '''
    """Registry."""

    from gadgets.links import Link


    class Named:
        """Named links."""

        Slow = Link(size=100.0, rate=8.0)
        """The slow link."""
'''
PAGE = """# Links

The Slow link's seconds come to
{figure} in all, which {{scenario}}`Slow.seconds` shows live.

In 2018 (section 3.2) the Slow link moved a file.
"""


def links_project(root: Path, figure: str, *, conf: str = "") -> ScenarioProject:
    project = write_scenario_project(
        root,
        "gadgets",
        {"links": LINKS, "registry": REGISTRY},
        registry="registry.Named",
        conf_extra='extensions = ["myst_parser", "refgen"]\n' + conf,
    )
    (project.docs / "links.md").write_text(PAGE.format(figure=figure), encoding="utf-8")
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   links\n")
    return project


def prose_warnings(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "[refgen.prose]" in w]


def test_a_wrong_typed_figure_fails_a_w_build_at_the_pages_line(tmp_path: Path) -> None:
    project = links_project(tmp_path, "17.2")
    result = project.build("html", "-W", "--keep-going")
    page = project.docs / "links.md"
    assert result.returncode != 0
    assert prose_warnings(result.warnings) == [
        f"{page}:4: WARNING: typed figure '17.2' disagrees with Slow.seconds, which is 12.5: "
        "write {scenario}`Slow.seconds` to keep it current [refgen.prose]"
    ]


def test_a_right_typed_figure_is_no_warning(tmp_path: Path) -> None:
    result = links_project(tmp_path, "12.5").build("html", "-W")
    assert result.returncode == 0, result.warnings
    assert prose_warnings(result.warnings) == []


def test_the_setting_turns_the_audit_off(tmp_path: Path) -> None:
    project = links_project(tmp_path, "17.2", conf="refgen_prose_audit = False\n")
    result = project.build("html", "-W")
    assert result.returncode == 0, result.warnings


def test_a_registry_change_alone_warns_in_the_next_incremental_build(tmp_path: Path) -> None:
    """The page shows ``Slow.seconds`` live, so it is read again, and its typed figure is
    checked again, as a clean build checks it: never stale. (This test once looked only at
    the last page read, and said the page was not read again.)"""
    project = links_project(tmp_path, "12.5")
    assert project.build("html", "-W").returncode == 0
    registry = project.module_path("registry")
    registry.write_text(registry.read_text().replace("rate=8.0", "rate=10.0"))
    again = project.build("html", "--keep-going")
    assert "links" in reread(again)
    assert prose_warnings(again.warnings) == [
        f"{project.docs / 'links.md'}:4: WARNING: typed figure '12.5' disagrees with "
        "Slow.seconds, which is 10: write {scenario}`Slow.seconds` to keep it current "
        "[refgen.prose]"
    ]
    assert prose_warnings(again.warnings) == prose_warnings(
        project.build("html", "-E", "--keep-going").warnings
    )


def test_a_docstring_figure_is_checked_at_its_py_line(tmp_path: Path) -> None:
    registry = REGISTRY.replace('"""The slow link."""', '"""The slow link: its seconds are 30."""')
    project = write_scenario_project(
        tmp_path, "gadgets", {"links": LINKS, "registry": registry}, registry="registry.Named"
    )
    result = project.build("html", "--keep-going")
    path = project.module_path("registry")
    line = (
        path.read_text().splitlines().index("    \"\"\"The slow link: its seconds are 30.\"\"\"")
        + 1
    )
    assert prose_warnings(result.warnings) == [
        f"{path}:{line}: WARNING: typed figure '30' disagrees with Slow.seconds, which is 12.5: "
        "write :scenario:`Slow.seconds` to keep it current [refgen.prose]"
    ]


def test_a_class_docstring_is_audited_in_a_rebuild_that_analyses_no_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The class's words come from its kept outline: a registry change alone re-checks
    them without analysing the class, and warns as a clean build does."""
    links = LINKS.replace(
        '"""Time to send, in seconds."""',
        '"""Time to send, in seconds: the Slow link\'s seconds are 12.5."""',
    )
    project = write_scenario_project(
        tmp_path, "gadgets", {"links": links, "registry": REGISTRY}, registry="registry.Named"
    )
    assert project.build("html", "-W").returncode == 0
    registry = project.module_path("registry")
    registry.write_text(registry.read_text().replace("rate=8.0", "rate=10.0"))
    analysed: list[type] = []
    analyse = Project.analyse

    def counted(self: Project, cls: type) -> object:
        analysed.append(cls)
        return analyse(self, cls)

    monkeypatch.setattr(Project, "analyse", counted)
    again = project.build("html", "--keep-going")
    path = project.module_path("links")
    line = next(
        number
        for number, text in enumerate(path.read_text().splitlines(), 1)
        if "seconds are 12.5" in text
    )
    assert [c.__name__ for c in analysed if c.__name__ == "Link"] == []
    assert prose_warnings(again.warnings) == [
        f"{path}:{line}: WARNING: typed figure '12.5' disagrees with Slow.seconds, which is "
        "10: write :scenario:`Slow.seconds` to keep it current [refgen.prose]"
    ]
    monkeypatch.undo()
    assert prose_warnings(again.warnings) == prose_warnings(
        project.build("html", "-E", "--keep-going").warnings
    )


CHAPTER = """---
title: "Training on a phone"
---

# On-device training

A full update of PhoneFullUpdateWorkingSet needs a step
floor of {floor}, set by the 51.2 GB/s of its memory.

```{{python}}
floor = 99  # PhoneFullUpdateWorkingSet 99 ms, code, not prose
```

In 2018, section 3.2 showed PhoneFullUpdateWorkingSet moving 800 MB a step.
"""


def check_prose(*paths: str, json_output: bool = False) -> subprocess.CompletedProcess[str]:
    """``refgen check [--format json] --prose PATH...`` in a subprocess, run in the repository
    (so against refgen_scenarios), which must import neither Sphinx nor docutils."""
    code = (
        "import sys; from refgen.cli import main; status = main(sys.argv[1:]); "
        "assert 'sphinx' not in sys.modules and 'docutils' not in sys.modules; sys.exit(status)"
    )
    format_option = ["--format", "json"] if json_output else []
    env = dict(os.environ, NO_COLOR="1")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")])
    env["COLUMNS"] = "1000"  # one finding a line, however wide the terminal
    return subprocess.run(
        [sys.executable, "-c", code, "check", *format_option, "--prose", *paths],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(("floor", "status"), [("17.2 ms", 1), ("0.0156 s", 0), ("16 ms", 0)])
def test_check_prose_on_a_quarto_chapter(tmp_path: Path, floor: str, status: int) -> None:
    chapter = tmp_path / "chapter.qmd"
    chapter.write_text(CHAPTER.format(floor=floor), encoding="utf-8")
    run = check_prose(str(chapter))
    assert run.returncode == status, run.stderr
    output = run.stdout.replace("\n    ", " ")  # a long finding wraps onto indented lines
    lines = output.splitlines()
    if status:
        assert lines[0] == (
            f"{chapter}:8: [prose] typed figure '17.2 ms' disagrees with "
            "PhoneFullUpdateWorkingSet.step_floor, which is 15.625 ms: write "
            "{scenario}`PhoneFullUpdateWorkingSet.step_floor` to keep it current"
        )
    else:
        assert f"{chapter}:8: [prose-quote] typed figure '{floor}' quotes" in lines[0]
    assert f"{chapter}:8: [prose-quote] typed figure '51.2 GB/s' quotes" in output
    assert f"{chapter}:14: [prose-quote] typed figure '800 MB' quotes" in output
    assert "99" not in output and "2018" not in output


def test_check_prose_as_json_and_for_latex(tmp_path: Path) -> None:
    chapter = tmp_path / "chapter.tex"
    chapter.write_text(
        "\\section{Phones}\n% PhoneFullUpdateWorkingSet 99 ms in a comment\n"
        "PhoneFullUpdateWorkingSet needs a step floor of $17.2\\,\\mathrm{ms}$\n"
        "\\cite{jedec2019}.\n",
        encoding="utf-8",
    )
    run = check_prose(str(chapter), json_output=True)
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert data["disagreements"] == 1
    assert [(f["line"], f["kind"]) for f in data["findings"]] == [(3, "prose")]
    assert "refgen show PhoneFullUpdateWorkingSet.step_floor" in data["findings"][0]["message"]


def test_check_prose_refuses_a_missing_file(tmp_path: Path) -> None:
    run = check_prose(str(tmp_path / "nowhere.md"))
    assert run.returncode == 2
    assert "no such file or folder" in run.stderr


def test_our_own_docs_quote_no_figure_wrong() -> None:
    run = check_prose(str(REPO / "docs"))
    assert run.returncode == 0, run.stdout


def dimension_of(unit: str) -> str | None:
    return {"ms": "[time]", "s": "[time]", "MB": "[information]", "GB/s": "[rate]"}.get(unit)


@given(
    value=st.floats(min_value=0.001, max_value=1e6, allow_nan=False),
    places=st.integers(min_value=0, max_value=4),
    unit=st.sampled_from(["ms", "s", "MB", "GB/s"]),
    thousands=st.booleans(),
)
def test_a_figure_formatted_at_any_precision_reads_back_at_that_precision(
    value: float, places: int, unit: str, thousands: bool
) -> None:
    typed = f"{value:{',' if thousands else ''}.{places}f}"
    text = f"It takes {typed} {unit} a step."
    passage = Passage(text, "p.md", 1)
    found = [f for s in sentences(passage) for f in figures(s, dimension_of)]
    assert [(f.text, f.unit) for f in found] == [(f"{typed} {unit}", unit)]
    (figure,) = found
    assert figure.value == float(typed.replace(",", ""))
    assert abs(figure.value - value) <= figure.tolerance * (1 + 1e-9)
    if places:  # an integer's trailing zeros are not typed digits: 360 is 355 to 365
        assert figure.tolerance == pytest.approx(0.5 * 10.0**-places)


@given(st.sampled_from(["1.5×10²³", "1.5e23", "1.5 × 10^23", "1.5x10^{23}"]))
def test_powers_of_ten_read_the_same_every_way(typed: str) -> None:
    passage = Passage(f"Training needs {typed} s.", "p.md", 1)
    (figure,) = [f for s in sentences(passage) for f in figures(s, dimension_of)]
    assert figure.value == pytest.approx(1.5e23)
    assert figure.tolerance == pytest.approx(0.05e23)


def test_a_rebuild_with_nothing_changed_warns_as_the_clean_build_did(tmp_path: Path) -> None:
    """Sphinx checks consistency only when it read a page; the audit runs all the same."""
    project = links_project(tmp_path, "17.2")
    first = project.build("html", "-W", "--keep-going")
    again = project.build("html", "-W", "--keep-going")
    assert "targets for 0 source files that are out of date" in again.stdout
    assert prose_warnings(again.warnings) == prose_warnings(first.warnings) != []
    assert again.returncode == first.returncode != 0
