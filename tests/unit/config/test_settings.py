"""Settings: declared once, and every front end reads the same declaration."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen.config import PREFIX, ConfigError, Settings, setting_fields, settings_table
from refgen.testing import write_scenario_project
from tests.html_helpers import heading_text, main, read_html, text

ONE_CLASS = '''
    """Tiny scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Tiny:
        """A scenario."""

        size: float = 1.0
        """The size."""
'''


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("modules", "a.b", "a list of dotted module names"),
        ("modules", ["a.b", "not a name"], "a list of dotted module names"),
        ("registry", 3, "a dotted path"),
        ("value_precision", 0, "a whole number, 1 or more"),
        ("value_precision", True, "a whole number, 1 or more"),
        ("value_precision", "5", "a whole number, 1 or more"),
        ("value_precision", 400, "at most 17"),
        ("eval_timeout", -1, "a whole number, 1 or more"),
        ("eval_timeout", 10**9, "at most 86400"),
        ("run_examples", "yes", "true or false"),
        ("root", "", "a non-empty string"),
        ("root", "../outside", "a folder inside the source folder"),
        ("root", "/etc", "a folder inside the source folder"),
        ("root", "api/../../up", "a folder inside the source folder"),
        ("category_titles", "Models", "a table of dotted module names to non-empty titles"),
        ("category_titles", {"pkg.models": ""}, "a table of dotted module names"),
        ("category_titles", {"not a module": "Models"}, "a table of dotted module names"),
        ("category_titles", {"pkg.models": 3}, "a table of dotted module names"),
        ("site_url", "javascript:alert(1)", "an http:// or https:// address"),
        ("site_url", "example.org/docs", "an http:// or https:// address"),
        ("site_url", "https://example.org/<docs>", "an http:// or https:// address"),
        ("site_url", 3, "an http:// or https:// address"),
    ],
)
def test_a_bad_value_is_refused_naming_the_setting(key: str, value: object, expected: str) -> None:
    with pytest.raises(ConfigError, match=rf"here: {key} must be {expected}"):
        Settings.from_mapping({key: value}, "here")


def test_an_unknown_setting_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(
        ConfigError, match=r"unknown setting.*registery.*known settings are modules"
    ):
        Settings.from_mapping({"registery": "a.B"}, "here")


def test_conf_py_names_are_the_declared_names_with_the_prefix() -> None:
    names = [row[0] for row in settings_table()]
    assert names == [f"{PREFIX}{spec.name}" for spec in setting_fields()]
    assert "refgen_modules" in names and "refgen_checks" in names


def test_every_setting_is_a_sphinx_config_value() -> None:
    registered: list[str] = []

    class Recorder:
        def add_config_value(self, name: str, *args: object, **kwargs: object) -> None:
            registered.append(name)

        def __getattr__(self, name: str) -> object:
            return lambda *args, **kwargs: None

    from refgen.sphinx.extension import setup

    setup(Recorder())  # type: ignore[arg-type]
    assert registered == [f"{PREFIX}{spec.name}" for spec in setting_fields()]


def test_an_unknown_refgen_name_in_conf_py_stops_the_build(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "tiny", {"models": ONE_CLASS}, conf_extra="refgen_valu_precision = 3\n"
    )
    result = project.build("html")
    assert result.returncode != 0
    assert "unknown setting(s) refgen_valu_precision" in result.stderr


def test_a_bad_conf_py_value_stops_the_build_naming_the_setting(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "tiny", {"models": ONE_CLASS}, conf_extra="refgen_value_precision = 0\n"
    )
    result = project.build("html")
    assert result.returncode != 0
    assert "refgen_value_precision must be a whole number, 1 or more" in result.stderr


def test_every_setting_is_a_pytest_ini_option(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nrefgen_value_precision = 3\n")
    result = pytester.runpytest("--help")
    for spec in setting_fields():
        result.stdout.fnmatch_lines([f"*{PREFIX}{spec.name}*"])


SENTENCE_FIRST = '''
    """This module holds the scenarios we use to size the cluster.

    They are grouped by team.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Tiny:
        """A scenario."""

        size: float = 1.0
        """The size."""
'''


def test_category_titles_name_a_category_whose_docstring_opens_with_a_sentence(
    tmp_path: Path,
) -> None:
    project = write_scenario_project(
        tmp_path,
        "sized",
        {"cluster": SENTENCE_FIRST},
        conf_extra='refgen_category_titles = {"sized.cluster": "Cluster sizing"}\n',
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    folder = result.outdir / "reference" / "sized.cluster"
    category = read_html(folder / "index.html")
    assert heading_text(main(category).find("h1")) == "Cluster sizing"
    body = text(main(category))
    assert "This module holds the scenarios we use to size the cluster." in body
    assert "They are grouped by team." in body
    page = read_html(folder / "Tiny.html")
    provenance = main(page).find(class_="refgen-provenance")
    assert provenance.find("a").get_text() == "Cluster sizing"
    index = read_html(result.outdir / "reference" / "index.html")
    assert "Cluster sizing" in text(main(index))


def test_category_titles_are_a_table_in_pyproject() -> None:
    settings = Settings.from_mapping(
        {"modules": ["a.mod", "b.mod"], "category_titles": {"b.mod": "Bees", "a.mod": "Ants"}},
        "pyproject.toml",
    )
    assert settings.category_titles == (("a.mod", "Ants"), ("b.mod", "Bees"))
    assert hash(settings)  # a cache key, as every setting


def test_a_category_title_for_a_module_not_documented_is_refused() -> None:
    with pytest.raises(
        ConfigError, match=r"here: refgen_category_titles names pkg\.modles, which refgen_modules"
    ):
        Settings.from_mapping(
            {
                "refgen_modules": ["pkg.models"],
                "refgen_category_titles": {"pkg.modles": "Typo"},
            },
            "here",
            prefix="refgen_",
        )
