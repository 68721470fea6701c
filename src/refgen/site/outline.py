"""Class outlines: what planning and fingerprinting need of a class, kept across builds.

The site plan needs the helper modules each class calls (their pages), a
class page's fingerprint needs the code of the class's examples (what they
run decides whether they pass), and the prose audit the author's words. All
come from analysing the class (:mod:`refgen.analysis.scenarios`): on a library
of hundreds of classes, most of what a rebuild in which little changed would do
besides importing it.

An :class:`Outline` is kept with the digest of everything the class reaches
(:mod:`refgen.analysis.reach_digest`), refgen's settings and versions: while
that digest is unchanged so is the outline, and the class is not analysed
again. A class that reaches code whose dependencies cannot be known is
analysed at every build.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from refgen import __version__
from refgen.analysis import discovery, model, modules
from refgen.analysis.model import Problem, ScenarioDoc
from refgen.files import replace_atomically
from refgen.prose.docstrings import ClassText, scenario_texts

if TYPE_CHECKING:
    from refgen.project import Project

OUTLINES = "refgen-outlines.pickle"
"""The file, in a build's doctree folder, that keeps the outlines across builds."""

VERSION = hashlib.sha256(
    Path(__file__).read_bytes() + Path(model.__file__).read_bytes() + __version__.encode()
).hexdigest()
"""Outlines are kept only for the refgen that made them (this module and the record of
a problem as they were)."""


@dataclass(frozen=True)
class Outline:
    """What the site needs of one class besides its page."""

    helper_targets: tuple[str, ...] = ()
    """The helpers it calls or references (dotted paths): where each is defined is looked
    up at every build (a function that moved to another module moves its page)."""
    examples: str | None = None
    """The code of its Examples section, if it has one."""
    problem: Problem | None = None
    """Why it cannot be analysed (then it has no page's worth of anything else)."""
    row: str = ""
    """Its row in its category's table: name, summary and where they are written, and the
    name of its headline attribute (whose figure the category shows too)."""
    headline: bool = False
    """Whether the row shows a headline figure: a computed value, which only the class
    page's fingerprint covers."""
    texts: tuple[ClassText, ...] = ()
    """Its author's words the reference shows, for the prose audit (which would otherwise
    analyse every class at every build)."""

    @staticmethod
    def of(scenario: ScenarioDoc) -> Outline:
        examples = scenario.docstring.examples
        row = (scenario.name, scenario.docstring.summary, scenario.location, scenario.headline)
        return Outline(
            tuple(modules.helper_targets(scenario)),
            examples.text if examples is not None else None,
            row=repr(row),
            headline=scenario.headline is not None and bool(scenario.registry_entries),
            texts=tuple(scenario_texts(scenario)),
        )


class Outlines:
    """The outline of each class of a project, kept in ``path`` by the digest of what the
    class reaches."""

    def __init__(self, project: Project, path: Path | None = None) -> None:
        self.project = project
        self.path = path
        self._kept: dict[str, tuple[str, Outline]] = self._load()
        self._current: dict[str, tuple[str, Outline]] = {}

    def _load(self) -> dict[str, tuple[str, Outline]]:
        if self.path is None:
            return {}
        try:
            version, kept = pickle.loads(self.path.read_bytes())
        except Exception:  # missing, damaged, or made by another refgen
            return {}
        return kept if version == VERSION and isinstance(kept, dict) else {}

    def of(self, cls: type, digest: str | None) -> Outline:
        """The outline of ``cls``, whose reach has ``digest`` (None: not known)."""
        dotted = discovery.dotted_path(cls)
        kept = self._kept.get(dotted)
        if digest is not None and kept is not None and kept[0] == digest:
            outline = kept[1]
        else:
            scenario, problem = self.project.analyse(cls)
            outline = Outline.of(scenario) if scenario is not None else Outline(problem=problem)
        if digest is not None:
            self._current[dotted] = (digest, outline)
        return outline

    def has_kept(self, cls: type) -> bool:
        """Whether the last build kept an outline of ``cls``."""
        return discovery.dotted_path(cls) in self._kept

    def keep(self, cls: type, digest: str, outline: Outline) -> None:
        """Keep ``outline`` of ``cls``, made by :meth:`of` before its digest was known."""
        self._current[discovery.dotted_path(cls)] = (digest, outline)

    def save(self) -> None:
        """Keep the outlines of this build's classes."""
        if self.path is None or self._current == self._kept:
            return
        data = pickle.dumps((VERSION, self._current), pickle.HIGHEST_PROTOCOL)
        with contextlib.suppress(OSError):  # the file only saves time
            replace_atomically(self.path, data)
