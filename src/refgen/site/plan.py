"""The site plan: which pages a project's reference has, and what each one documents.

Every front end that writes pages asks :func:`plan_pages` (the Sphinx
extension writes a stub for each; the fingerprints of
:mod:`refgen.site.fingerprint` say which of them changed).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from refgen.analysis import discovery

if TYPE_CHECKING:
    from refgen.project import Project


@dataclass(frozen=True)
class PlannedPage:
    """One generated page: its document name, what it shows and the object it is about."""

    docname: str
    kind: str
    """``index``, ``category``, ``scenario``, ``helpers``, ``registry`` or
    ``registry-part``."""
    argument: str
    """The module, class or registry path the page documents (the title for ``index``)."""
    children: tuple[str, ...] = ()
    """Document names (relative to the page) listed in its table of contents."""


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
    entries (each part's argument: the registry, then the first and last entry index)."""
    if entries <= REGISTRY_PAGE_SIZE:
        return [PlannedPage(f"{root}/registry", "registry", qualname)]
    starts = range(0, entries, REGISTRY_PAGE_SIZE)
    parts = [
        PlannedPage(
            f"{root}/registry-{number}",
            "registry-part",
            f"{qualname} {start} {min(start + REGISTRY_PAGE_SIZE, entries)}",
        )
        for number, start in enumerate(starts, 1)
    ]
    children = tuple(part.docname.rpartition("/")[2] for part in parts)
    return [PlannedPage(f"{root}/registry", "registry", qualname, children), *parts]


def plan_pages(project: Project, helper_modules: list[str] | None = None) -> list[PlannedPage]:
    """One page per category, class and helper module, the registry page and the index;
    ``helper_modules`` when the caller knows them already (:mod:`refgen.site.outline`)."""
    root = project.settings.root
    pages: list[PlannedPage] = []
    index: list[str] = []
    for name, module in project.modules.items():
        classes = discovery.scenario_classes(module)
        folder = f"{root}/{name}"
        index.append(f"{name}/index")
        names = tuple(page_name(c.__name__) for c in classes)
        pages.append(PlannedPage(f"{folder}/index", "category", name, names))
        pages += [
            PlannedPage(
                class_page(root, name, cls.__name__), "scenario", discovery.dotted_path(cls)
            )
            for cls in classes
        ]
    for name in project.helper_modules() if helper_modules is None else helper_modules:
        index.append(f"helpers/{name}")
        pages.append(PlannedPage(f"{root}/helpers/{name}", "helpers", name))
    registry = project.registry
    if registry is not None:
        project.check_registry_classes()
        index.append("registry")
        pages += registry_pages(root, registry.qualname, len(registry.entries))
    pages.append(PlannedPage(f"{root}/index", "index", project.settings.title, tuple(index)))
    return pages
