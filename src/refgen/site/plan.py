"""The site plan: which pages a project's reference has, and what each one documents.

Every front end that writes pages asks :func:`plan_pages` (the Sphinx
extension writes a stub for each; the fingerprints of
:mod:`refgen.site.fingerprint` say which of them changed). Planning returns
what it finds wrong with the registry (:attr:`Plan.problems`) with the pages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from refgen.analysis import discovery
from refgen.analysis.model import Problem, RegistryDoc, SourceLocation, WarningKind
from refgen.config import setting_line, setting_name

if TYPE_CHECKING:
    from refgen.project import Project


class PageKind(StrEnum):
    """What a generated page shows; its value names the page's directive (``refgen-<kind>``)."""

    INDEX = "index"
    CATEGORY = "category"
    SCENARIO = "scenario"
    HELPERS = "helpers"
    REGISTRY = "registry"
    REGISTRY_PART = "registry-part"


@dataclass(frozen=True)
class RegistryPart:
    """The entries ``start`` to ``stop`` (a slice) of a registry split over several pages."""

    registry: str
    start: int
    stop: int

    def argument(self) -> str:
        """As its page's directive gives it: ``module.Registry FIRST LAST``."""
        return f"{self.registry} {self.start} {self.stop}"

    @classmethod
    def parse(cls, argument: str) -> RegistryPart:
        registry, start, stop = argument.split()
        return cls(registry, int(start), int(stop))


@dataclass(frozen=True)
class PlannedPage:
    """One generated page: its document name, what it shows and the object it is about."""

    docname: str
    kind: PageKind
    argument: str
    """The module, class or registry path the page documents (the title for ``index``)."""
    children: tuple[str, ...] = ()
    """Document names (relative to the page) listed in its table of contents."""
    part: RegistryPart | None = None
    """The entries a ``registry-part`` page shows."""

    @property
    def directive_argument(self) -> str:
        """The argument of the page's directive in its stub."""
        return self.argument if self.part is None else self.part.argument()

    @classmethod
    def from_directive(
        cls, docname: str, kind: str, argument: str, children: tuple[str, ...]
    ) -> PlannedPage:
        """The page a stub's directive describes (the inverse of :attr:`directive_argument`)."""
        page_kind = PageKind(kind)
        if page_kind is PageKind.REGISTRY_PART:
            part = RegistryPart.parse(argument)
            return cls(docname, page_kind, part.registry, children, part)
        return cls(docname, page_kind, argument, children)


@dataclass(frozen=True)
class Plan:
    """Every page of the site, and the problems planning found (stray registry entries)."""

    pages: list[PlannedPage]
    problems: list[Problem]


LONGEST_PAGE_NAME = 120
"""Bytes of a class page's file name (file systems allow 255, with the suffix)."""


def page_name(class_name: str) -> str:
    """The document name of a class's page in its category folder: the class name,
    except where that would be the category's own ``index`` or too long a file name
    (then shortened and made unique by a hash of the whole name)."""
    if class_name.lower() == "index":
        return f"{class_name}-class"
    if len(class_name.encode()) <= LONGEST_PAGE_NAME:
        return class_name
    digest = hashlib.sha256(class_name.encode()).hexdigest()[:12]
    shortened = class_name.encode()[: LONGEST_PAGE_NAME - 13].decode(errors="ignore")
    return f"{shortened}-{digest}"


def class_page(root: str, module: str, class_name: str) -> str:
    """The document name of the page of class ``class_name`` of the category ``module``."""
    return f"{root}/{module}/{page_name(class_name)}"


REGISTRY_PAGE_SIZE = 200
"""Entries per registry page: a larger registry is split so that no page grows past a
few hundred kilobytes (about 2 KB of HTML an entry)."""


def registry_pages(root: str, qualname: str, entries: int) -> list[PlannedPage]:
    """The registry page, and its parts when it has more than :data:`REGISTRY_PAGE_SIZE`
    entries."""
    if entries <= REGISTRY_PAGE_SIZE:
        return [PlannedPage(f"{root}/registry", PageKind.REGISTRY, qualname)]
    starts = range(0, entries, REGISTRY_PAGE_SIZE)
    parts = [
        PlannedPage(
            f"{root}/registry-{number}",
            PageKind.REGISTRY_PART,
            qualname,
            part=RegistryPart(qualname, start, min(start + REGISTRY_PAGE_SIZE, entries)),
        )
        for number, start in enumerate(starts, 1)
    ]
    children = tuple(part.docname.rpartition("/")[2] for part in parts)
    return [PlannedPage(f"{root}/registry", PageKind.REGISTRY, qualname, children), *parts]


def plan_pages(project: Project, helper_modules: list[str] | None = None) -> Plan:
    """One page per category, class and helper module, the registry page and the index;
    ``helper_modules`` when the caller knows them already (:mod:`refgen.site.outline`)."""
    root = project.settings.root
    pages: list[PlannedPage] = []
    index: list[str] = []
    problems: list[Problem] = []
    for name, module in project.modules.items():
        classes = discovery.scenario_classes(module)
        folder = f"{root}/{name}"
        index.append(f"{name}/index")
        names = tuple(page_name(c.__name__) for c in classes)
        pages.append(PlannedPage(f"{folder}/index", PageKind.CATEGORY, name, names))
        pages += [
            PlannedPage(
                class_page(root, name, cls.__name__), PageKind.SCENARIO, discovery.dotted_path(cls)
            )
            for cls in classes
        ]
    for name in project.helper_modules() if helper_modules is None else helper_modules:
        index.append(f"helpers/{name}")
        pages.append(PlannedPage(f"{root}/helpers/{name}", PageKind.HELPERS, name))
    registry = project.registry
    if registry is not None:
        problems += stray_entries(registry, project.classes)
        index.append("registry")
        pages += registry_pages(root, registry.qualname, len(registry.entries))
    title = project.settings.title
    pages.append(PlannedPage(f"{root}/index", PageKind.INDEX, title, tuple(index)))
    return Plan(pages, problems)


def stray_entries(registry: RegistryDoc, classes: Iterable[type]) -> list[Problem]:
    """The registry entries whose classes no documented module defines, as one problem
    (the registry page lists them all, and ``refgen check`` each)."""
    # Every class found, analysed or not: a class that failed to analyse has a
    # warning of its own, and its entries must not be blamed on the registry.
    documented = {discovery.dotted_path(cls) for cls in classes}
    strays = [entry for entry in registry.entries if entry.scenario not in documented]
    if len(strays) == 1:
        [entry] = strays
        message = (
            f"registry entry {entry.name!r} is a {entry.scenario}, which no module "
            "in refgen_modules defines"
        )
        subject = f"{registry.qualname}.{entry.name}"
        return [Problem(WarningKind.REGISTRY, message, entry.location, subject)]
    if not strays:
        return []
    shown = strays if len(strays) <= 5 else strays[:3]
    named = ", ".join(f"{entry.name} ({entry.scenario})" for entry in shown)
    if len(shown) < len(strays):
        named += (
            f" and {len(strays) - len(shown)} more (`refgen check --kind registry` lists them all)"
        )
    message = (
        f"{len(strays)} registry entries are instances of classes no module in "
        f"refgen_modules defines: {named}"
    )
    return [Problem(WarningKind.REGISTRY, message, registry.location, registry.qualname)]


def empty_reference(project: Project, loading: Sequence[Problem]) -> Problem | None:
    """Why the reference documents nothing, if it does not: no module or registry is
    configured, or the modules hold no scenario class and no registry entry names one.

    None as well when a module or the registry cannot be read (``loading``, the problems
    :meth:`Project.load` returned): that problem says why.
    """
    if project.classes or loading:
        return None
    settings = project.settings
    modules, registry = settings.modules, settings.registry
    if modules:
        names = ", ".join(repr(name) for name in modules)
        holds = "holds" if len(modules) == 1 else "hold"
        reason = (
            f"{setting_name(settings, 'modules')} names {names}, which {holds} no scenario class"
        )
        if registry:
            reason += f", and {setting_name(settings, 'registry')} has no entry"
    elif registry:
        reason = f"{setting_name(settings, 'registry')} names {registry!r}, which has no entry"
    else:
        reason = (
            f"{setting_name(settings, 'modules')} and {setting_name(settings, 'registry')} "
            "name nothing to document"
        )
    line = setting_line(settings, "modules" if modules or not registry else "registry")
    location = SourceLocation(str(settings.source), line) if settings.source and line else None
    return Problem(WarningKind.IMPORT, f"the reference is empty: {reason}", location, "")
