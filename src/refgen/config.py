"""Settings: every refgen setting declared once, with its type, default and help.

:class:`Settings` is the one declaration. From its fields come the Sphinx
configuration values (``refgen_<name>`` in ``conf.py``), the keys of the
``[tool.refgen]`` table in ``pyproject.toml`` (read by the command line, the
pytest plugin and, through :func:`load_settings`, by ``conf.py`` itself), the
pytest ini options and the settings table of the documentation. Invalid
values are rejected with a :class:`ConfigError` naming the setting and where
it was read.

Only the standard library is used here, so reading the settings costs next to
nothing at start-up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

PYPROJECT = "pyproject.toml"
PREFIX = "refgen_"
"""Prefix of a setting's name in ``conf.py`` and in pytest's ini options."""


class ConfigError(ValueError):
    """A setting exists but cannot be used (bad TOML, wrong type, unknown name)."""


def _setting(
    default: Any,
    kind: str,
    help: str,
    most: int | None = None,
    choices: tuple[str, ...] = (),
) -> Any:
    metadata = {"kind": kind, "help": help, "most": most, "choices": choices}
    return field(default=default, metadata=metadata)


MISSING_DOCSTRINGS = ("summary", "warn", "each")
"""The values of the ``missing_docstrings`` setting."""


@dataclass(frozen=True)
class Settings:
    """What refgen documents and how; one field per setting."""

    modules: tuple[str, ...] = _setting(
        (),
        "dotted names",
        "Dotted names of the scenario modules, in the order their categories appear. "
        "Each module is one category, titled by the first line of its docstring; each "
        "public class in it that declares inputs or properties gets a page.",
    )
    registry: str | None = _setting(
        None,
        "dotted name or None",
        "Dotted path of the registry: a class (or any object) whose public attributes "
        "are named scenario instances. It feeds the examples, the Registry values "
        "tables, the registry page and the scenario role. None builds the class pages "
        "without values.",
    )
    root: str = _setting(
        "reference",
        "folder",
        "Folder, relative to the source directory, that the generated pages are written "
        "to. Its index page is <root>/index. Stubs that refgen wrote earlier and no longer "
        "plans are deleted from it; other files are left alone.",
    )
    title: str = _setting("Reference", "text", "Title of the reference's index page.")
    category_titles: tuple[tuple[str, str], ...] = _setting(
        (),
        "module names and titles",
        "Titles of category pages, by module name, for modules whose docstring does not "
        "open with a title (in conf.py a dict, in pyproject.toml a [tool.refgen."
        "category_titles] table). The module's first docstring line then stays in its "
        "description. A module not named here is titled by that first line.",
    )
    run_examples: bool = _setting(
        True,
        "true or false",
        "Run every class's examples while building, and warn when one fails. Set it to "
        "false to build faster while editing prose; the doctest builder and the pytest "
        "plugin still run them.",
    )
    value_precision: int = _setting(
        5,
        "whole number, 1 or more",
        "Significant figures of every figure the site shows: registry values, headline "
        "figures and values quoted in prose without a format of their own (at most 17, the "
        "digits a float holds). Exact integers always show every digit.",
        most=17,
    )
    eval_timeout: int = _setting(
        60,
        "whole number, 1 or more",
        "Seconds one property of one registry entry, or one class's examples, may run. Past "
        "it, the value is not available (a refgen.value warning) or the example fails (a "
        "refgen.example warning) at its line, and the build goes on: user code never hangs "
        "a build or a command. At most a day (86400).",
        most=86_400,
    )
    missing_docstrings: str = _setting(
        "summary",
        "one of",
        "How the build reports derived attributes without a docstring. \"summary\": no "
        "warning, one line of the build's output that counts them and says how to list them "
        "(refgen check does); -W passes. \"warn\": a refgen.docstring warning per class, at "
        "its class line, naming them. \"each\": a refgen.docstring warning per attribute, at "
        "its own line.",
        choices=MISSING_DOCSTRINGS,
    )
    each_missing_docstring: bool = _setting(
        False,
        "true or false",
        "Old spelling of missing_docstrings = \"each\", which true still means while "
        "missing_docstrings is left at \"summary\".",
    )
    group_warnings: bool = _setting(
        True,
        "true or false",
        "Report more than 5 warnings of one kind that say the same thing of different objects "
        "(a raising helper that fails a property of many registry entries, a docstring "
        "section many classes misspell) as one warning, at the first one's line, that names "
        "how many there are and the next few; refgen check lists every one. Set it to false "
        "for a warning each, at its own line. Missing docstrings are counted, not grouped: "
        "see missing_docstrings.",
    )
    shared_navigation: bool = _setting(
        True,
        "true or false",
        "With the furo theme, generated pages (refgen's, and Sphinx's indices, search and "
        "highlighted source) take the site's navigation from one file, "
        "_static/refgen-navigation.js, written once per build, instead of each page "
        "carrying the whole contents tree: a library of hundreds of classes builds several "
        "times faster, and a page's size no longer grows with the number of pages. Without "
        "JavaScript the sidebar links to the home page and the reference index. Set it to "
        "false for furo's own navigation on every page. Other themes are not affected.",
    )
    checks: bool = _setting(
        False,
        "true or false",
        "Also report, while building, what refgen check finds: Notes without an Equation, "
        "Assumptions or Excludes entry, a class without examples, an undocumented input or "
        "attribute, a description whose stated unit disagrees with the computed one. Each "
        "is a refgen.check warning at its line.",
    )
    prose_audit: bool = _setting(
        True,
        "true or false",
        "At every build, read the project's own pages and the docstrings refgen renders for "
        "figures typed by hand that quote a registry value (15.6 ms in a sentence naming "
        "the entry), and warn (refgen.prose) where one disagrees with the value computed "
        "now. refgen check --prose runs the same audit over any Markdown, Quarto, reST, "
        "LaTeX or text file.",
    )
    site_url: str | None = _setting(
        None,
        "web address or None",
        "Address of the built site (https://example.org/docs), where its reference pages "
        "are published. Scenarios shown in a notebook (%load_ext refgen) then link to "
        "their class's page there. None: no link.",
    )
    source: Path | None = field(default=None, compare=False, metadata={"internal": True})
    """The file the settings were read from, for messages; None for defaults."""
    table: str | None = field(default=None, compare=False, metadata={"internal": True})
    """The TOML table ``source`` holds them in (``tool.refgen``, names without the
    ``refgen_`` prefix); None where each name has the prefix (conf.py, pytest ini)."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], origin: str, prefix: str = "") -> Settings:
        """Settings from ``values`` (keys ``prefix + name``), validated; unknown keys refused.

        ``origin`` names where the values came from, for error messages.
        """
        known = {f"{prefix}{spec.name}": spec for spec in setting_fields()}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ConfigError(
                f"{origin}: unknown setting(s) {', '.join(unknown)}; "
                f"known settings are {', '.join(known)}"
            )
        checked = {
            spec.name: validate(spec, values[key], origin, key)
            for key, spec in known.items()
            if key in values
        }
        titled = [name for name, _ in checked.get("category_titles", ())]
        strays = [name for name in titled if name not in checked.get("modules", ())]
        if strays:  # a misspelt module name would otherwise be ignored
            raise ConfigError(
                f"{origin}: {prefix}category_titles names {', '.join(strays)}, which "
                f"{prefix}modules does not list"
            )
        if checked.get("each_missing_docstring") and checked.get("missing_docstrings") in (
            None,
            MISSING_DOCSTRINGS[0],
        ):
            checked["missing_docstrings"] = "each"
        return cls(**checked)


def setting_fields() -> Iterator[dataclasses.Field[Any]]:
    """The declared settings, in declaration order."""
    for spec in dataclasses.fields(Settings):
        if not spec.metadata.get("internal"):
            yield spec


def validate(spec: dataclasses.Field[Any], value: Any, origin: str, key: str) -> Any:
    """``value`` converted to the setting's type, or a ConfigError naming ``key``."""
    kind = spec.metadata["kind"]

    def refuse() -> ConfigError:
        return ConfigError(f"{origin}: {key} must be {_expected(kind)}, not {value!r}")

    if kind == "dotted names":
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise refuse()
        if not all(isinstance(item, str) and _is_dotted(item) for item in value):
            raise refuse()
        return tuple(value)
    if kind == "dotted name or None":
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not _is_dotted(value):
            raise refuse()
        return value
    if kind == "module names and titles":
        pairs = list(value.items()) if isinstance(value, Mapping) else value
        if not isinstance(pairs, list | tuple):
            raise refuse()
        if not all(
            isinstance(pair, list | tuple)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and _is_dotted(pair[0])
            and isinstance(pair[1], str)
            and pair[1].strip()
            for pair in pairs
        ):
            raise refuse()
        return tuple(sorted((name, title.strip()) for name, title in pairs))
    if kind == "web address or None":
        if value is None or value == "":
            return None
        if not isinstance(value, str) or not _is_web_address(value):
            raise refuse()
        return value.rstrip("/")
    if kind == "one of":
        if value not in spec.metadata["choices"]:
            choices = ", ".join(repr(choice) for choice in spec.metadata["choices"])
            raise ConfigError(f"{origin}: {key} must be one of {choices}, not {value!r}")
        return value
    if kind == "true or false":
        if not isinstance(value, bool):
            raise refuse()
        return value
    if kind == "whole number, 1 or more":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise refuse()
        most = spec.metadata.get("most")
        if most is not None and value > most:
            raise ConfigError(f"{origin}: {key} must be at most {most}, not {value!r}")
        return value
    if not isinstance(value, str) or not value.strip():
        raise refuse()
    if kind == "folder" and not _is_inside(value):
        raise ConfigError(
            f"{origin}: {key} must be a folder inside the source folder "
            f"(relative, without '..'), not {value!r}"
        )
    return value


def _expected(kind: str) -> str:
    return {
        "dotted names": "a list of dotted module names",
        "dotted name or None": "a dotted path (a string) or None",
        "true or false": "true or false",
        "whole number, 1 or more": "a whole number, 1 or more",
        "module names and titles": "a table of dotted module names to non-empty titles",
        "web address or None": "an http:// or https:// address (a string) or None",
    }.get(kind, "a non-empty string")


def _is_inside(folder: str) -> bool:
    """Whether ``folder`` is relative and never climbs out (generated pages stay in the docs)."""
    path = PurePosixPath(folder.replace("\\", "/"))
    return not path.is_absolute() and ".." not in path.parts and ":" not in folder


def _is_web_address(text: str) -> bool:
    """An absolute http(s) address with a host, and nothing a link could not carry as is."""
    parts = urlsplit(text)
    printable = text.isprintable() and not any(c.isspace() or c in "<>\"'`" for c in text)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and printable


def _is_dotted(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or one of its parents."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file():
            return candidate
    return None


def load_settings(start: Path) -> Settings:
    """Read ``[tool.refgen]`` from the nearest ``pyproject.toml`` at or above ``start``.

    A missing file or a file without the table gives the defaults (``source``
    still names the file, so an error message can point at it); a bad table
    raises :class:`ConfigError` naming the file and the setting.
    """
    import tomllib

    path = find_pyproject(start)
    if path is None:
        return Settings()
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    table = data.get("tool", {}).get("refgen", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.refgen] must be a table")
    settings = Settings.from_mapping(table, f"{path} [tool.refgen]")
    return dataclasses.replace(settings, source=path, table="tool.refgen")


COMMAND_LINE = "command line"
"""The ``table`` of settings given as ``refgen`` options (``--module``, ``--registry``)."""


def setting_name(settings: Settings, name: str) -> str:
    """How the setting ``name`` is spelt where the settings came from."""
    if settings.table == COMMAND_LINE:
        return f"--{name.removesuffix('s')}"
    return f"[{settings.table}] {name}" if settings.table else f"{PREFIX}{name}"


def setting_line(settings: Settings, name: str) -> int | None:
    """The line of the settings file that sets ``name``, if it can be found."""
    if settings.source is None:
        return None
    try:
        lines = settings.source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    spelt = name if settings.table else f"{PREFIX}{name}"
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith(spelt) and "=" in line:
            return number
    return 1


def settings_table() -> list[tuple[str, str, str, str]]:
    """``(conf.py name, [tool.refgen] key, default, help)`` of every setting, for the docs."""
    return [
        (f"{PREFIX}{spec.name}", spec.name, _shown_default(spec.default), spec.metadata["help"])
        for spec in setting_fields()
    ]


def _shown_default(value: Any) -> str:
    if isinstance(value, tuple):
        return repr(list(value))
    return repr(value)
