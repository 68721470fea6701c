"""IPython display (``%load_ext refgen``): scenario instances shown as their reference page.

:func:`load` registers one printer, for every object, with IPython's mime-bundle
formatter. For an instance of a class refgen can analyse (a registry entry, or
one built by hand, of a documented class or of any class outside the installed
packages), it analyses the class, computes the values of that very instance
(user code guarded and bounded by ``eval_timeout``), composes the page of
:mod:`refgen.render.notebook_page`, and gives it in three forms from the same
blocks: ``text/html`` (:class:`~refgen.render.notebook_html.HtmlWriter`, MathML
included), ``text/markdown`` (:class:`~refgen.render.markdown.MarkdownWriter`)
and ``text/plain`` (:class:`~refgen.render.text.TextWriter`). With the
``site_url`` setting, each ends with a link to the class's reference page.

Why the mime-bundle formatter and not one printer per format: the values are
computed once for all three forms, not once each; a class with its own
``__repr__`` (every dataclass) is printed by it before IPython's plain-text
formatter ever asks a printer registered for ``object``; and IPython keeps what
a format's own formatter registered for a class over the bundle. Anything that
is not a scenario gets what IPython gives it without refgen: its own
``_repr_mimebundle_`` if it has one, else nothing from this printer, so its
``_repr_html_`` and its pretty-printed text are untouched.

Settings come from the ``[tool.refgen]`` table of the nearest ``pyproject.toml``
(the folder the kernel started in, or above), as for the command line.
"""

from __future__ import annotations

import functools
import re
import sys
import sysconfig
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from refgen.analysis import discovery
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import RegistryEntryDoc, ScenarioDoc
from refgen.config import Settings, load_settings
from refgen.evaluate import values
from refgen.project import Project
from refgen.render.blocks import Page
from refgen.render.markdown import MarkdownWriter
from refgen.render.notebook_html import HtmlWriter
from refgen.render.notebook_page import instance_page
from refgen.render.text import TextWriter
from refgen.site.plan import class_page

BUNDLE = "_repr_mimebundle_"
THIS_INSTANCE = "this instance"
LINK_LABEL = "Reference page"
_TYPE_NAME = vars(type)["__name__"]
_DISPLAY_METHOD = re.compile(r"_repr_[a-z]+_|_ipython_display_")
"""IPython's display methods (``_repr_html_``, ``_repr_pretty_``, ``_repr_mimebundle_``, ...)."""


class Display:
    """What the notebook shows of scenario instances, for one Project."""

    def __init__(self, settings: Settings) -> None:
        self.project = Project(settings)
        self._not_shown: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()
        """Classes found not to be scenarios, or that cannot be analysed."""

    def bundle(self, obj: object) -> dict[str, str] | None:
        """The page of ``obj`` as HTML, Markdown and text; None when it is no scenario."""
        found = self.scenario_of(obj)
        if found is None:
            return None
        page, link = self.page(found, obj)
        html = HtmlWriter().page(page, link)
        markdown = MarkdownWriter().page(page)
        plain = TextWriter().page(page)
        if link is not None:
            markdown += f"\n[{LINK_LABEL}](<{link}>)\n"
            plain += f"\n{LINK_LABEL}: {link}\n"
        return {"text/plain": plain, "text/html": html, "text/markdown": markdown}

    def scenario_of(self, obj: object) -> ScenarioDoc | None:
        """The analysed record of ``obj``'s class; None when it is not a scenario class."""
        kind = type(obj)  # its real type: ``__class__`` may say anything, or raise
        if kind in self._not_shown:
            return None
        shown, _error = call_user_code(self._may_show, kind)
        scenario = self.project.analyse(kind)[0] if shown else None
        if scenario is None or not (scenario.inputs or scenario.derived):
            self._not_shown[kind] = True
            return None
        return scenario

    def _may_show(self, kind: type) -> bool:
        """A public class (not a class's class) declaring inputs or properties, of a
        module outside the installed packages or of the documented ones."""
        if discovery.is_class(kind) and issubclass(kind, type):
            return False
        name = _TYPE_NAME.__get__(kind)
        if name.startswith("_") or not _declares_members(kind):
            return False
        module = discovery.class_dict(kind).get("__module__")
        if not isinstance(module, str):
            return False
        if not _installed(module):
            return True
        # Installed: shown only when documented (loading the project, so only for a
        # module of one of its packages).
        if module.partition(".")[0] not in _packages(self.project.settings):
            return False
        return discovery.dotted_path(kind) in self.project.documented_classes()

    def page(self, scenario: ScenarioDoc, obj: object) -> tuple[Page, str | None]:
        """The page of ``obj``, its values computed now, and the address of its class's page."""
        settings = self.project.settings
        entry = self._entry(scenario, obj)
        label = entry or RegistryEntryDoc(THIS_INSTANCE, "", scenario.qualname)
        computed = values.entry_values(
            scenario, label, obj, settings.value_precision, settings.eval_timeout
        )
        return instance_page(scenario, computed, self.project.units, entry), self.link(scenario)

    def _entry(self, scenario: ScenarioDoc, obj: object) -> RegistryEntryDoc | None:
        """The registry entry ``obj`` is (the very object), if any."""
        for entry in scenario.registry_entries:
            found = self.project.found_entry(entry)
            if not isinstance(found, str) and found.instance is obj:
                return entry
        return None

    def link(self, scenario: ScenarioDoc) -> str | None:
        """The address of the class's reference page, when the site's is set and the
        class has a page there."""
        settings = self.project.settings
        if settings.site_url is None:
            return None
        if scenario.qualname not in self.project.documented_classes():
            return None
        page = class_page(settings.root, scenario.module, scenario.name)
        return f"{settings.site_url}/{quote(page)}.html#{quote(scenario.qualname)}"


def _declares_members(kind: type) -> bool:
    """Whether a class of ``kind``'s MRO (but ``object``) annotates public fields or has
    public properties, and none says how IPython should show it (``_repr_html_``, ...)."""
    bases = discovery.class_mro(kind)[:-1]
    if any(_shows_itself(discovery.class_dict(base)) for base in bases):
        return False
    for base in bases:
        own = discovery.class_dict(base)
        annotations = own.get("__annotations__")
        if isinstance(annotations, dict) and any(_public(name) for name in annotations):
            return True
        if any(
            _public(name) and issubclass(type(value), property | functools.cached_property)
            for name, value in own.items()
        ):
            return True
    return False


def _shows_itself(own: Mapping[str, Any]) -> bool:
    """A class body that defines how IPython shows its instances: its choice stands."""
    return any(isinstance(name, str) and _DISPLAY_METHOD.fullmatch(name) for name in own)


def _public(name: object) -> bool:
    return isinstance(name, str) and not name.startswith("_")


def _packages(settings: Settings) -> set[str]:
    """The top-level packages of the documented modules and the registry."""
    named = [*settings.modules, *([settings.registry] if settings.registry else [])]
    return {name.partition(".")[0] for name in named}


@functools.cache
def _installed_folders() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(str(Path(paths[n]).resolve()) for n in names if n in paths)


def _installed(module_name: str) -> bool:
    """Whether the module is the standard library's or an installed package's (not the
    user's own code, nor a notebook's ``__main__``)."""
    module = sys.modules.get(module_name)
    file = getattr(module, "__file__", None)
    if not isinstance(file, str):
        return module_name in sys.builtin_module_names
    path = Path(file).resolve()
    return any(path.is_relative_to(folder) for folder in _installed_folders())


# ---------------------------------------------------------------------- IPython


_DISPLAYS: dict[int, tuple[Display, Any]] = {}
"""The display of each shell the extension is loaded in (by ``id``), with its printer."""


def load(ipython: Any, settings: Settings | None = None) -> Display:
    """Register the printer with ``ipython``'s mime-bundle formatter (once)."""
    if id(ipython) in _DISPLAYS:
        return _DISPLAYS[id(ipython)][0]
    display = Display(settings if settings is not None else load_settings(Path.cwd()))
    formatter = ipython.display_formatter.mimebundle_formatter

    def printer(obj: object) -> Any:
        shown = display.bundle(obj)
        if shown is not None:
            return shown
        return _own_bundle(obj)

    formatter.for_type(object, printer)
    _DISPLAYS[id(ipython)] = (display, printer)
    return display


def unload(ipython: Any) -> None:
    """Remove the printer :func:`load` registered, if it is still the one for ``object``."""
    loaded = _DISPLAYS.pop(id(ipython), None)
    if loaded is None:
        return
    formatter = ipython.display_formatter.mimebundle_formatter
    if formatter.type_printers.get(object) is loaded[1]:
        formatter.pop(object)


def _own_bundle(obj: object) -> Any:
    """What the formatter gives ``obj`` without refgen: its ``_repr_mimebundle_``, if any."""
    from IPython.utils.dir2 import get_real_method

    # Typed from IPython 9 on, untyped before: the ignore must hold for both.
    method = get_real_method(obj, BUNDLE)  # type: ignore[no-untyped-call, unused-ignore]
    return method(include=None, exclude=None) if method is not None else None
