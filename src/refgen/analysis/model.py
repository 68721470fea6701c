"""The plain data model that analysis produces and rendering consumes.

Every record is a frozen dataclass holding text and source locations only: no
live Python objects and nothing from Sphinx, so the same model can feed the
Sphinx pages, the command line and a JSON export.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum


class WarningKind(StrEnum):
    """What went wrong; shown as the warning type ``refgen.<kind>``.

    Users silence one kind with ``suppress_warnings = ["refgen.<kind>"]``.
    """

    IMPORT = "import"
    DOCSTRING = "docstring"
    REFERENCE = "reference"
    ANALYSIS = "analysis"
    REGISTRY = "registry"
    VALUE = "value"
    EXAMPLE = "example"
    CHECK = "check"
    REACH = "reach"
    PROSE = "prose"

    @property
    def description(self) -> str:
        return WARNING_DESCRIPTIONS[self]


WARNING_DESCRIPTIONS = {
    WarningKind.IMPORT: "A configured module, the registry's module or a helper module cannot "
    "be imported. The warning gives the exception and where it was raised. Also: the reference "
    "is empty (no module or registry is configured, or the modules hold no scenario class).",
    WarningKind.DOCSTRING: "A docstring has a section that is not a standard numpydoc one, "
    "gives one twice, underlines a title too short to make it a section, or has a part "
    "numpydoc cannot read (a See Also entry that is not a list of names); a docstring names a "
    "file outside the documentation folder or holds raw markup (shown as text); or, with "
    'refgen_missing_docstrings = "warn" or "each", a derived attribute has no docstring (by '
    "default these are counted in one line of the build's output, not warned about).",
    WarningKind.REFERENCE: "An implementation reference (a bare dotted path under References) "
    "cannot be imported.",
    WarningKind.ANALYSIS: "A class or module cannot be analysed at all. The rest of the site "
    "still builds.",
    WarningKind.REGISTRY: "The registry cannot be read, or holds an entry whose class is in none "
    "of the documented modules.",
    WarningKind.VALUE: "A scenario role names an entry or attribute that does not exist, or a "
    "value that cannot be computed; or a derived attribute raises for a registry entry (other "
    "than for lack of an optional input, which the tables show as not available); or a "
    "refgen-sweep names an entry, input or figure that does not exist, gives values that are not "
    "in the input's unit, or has points that cannot be computed.",
    WarningKind.EXAMPLE: "An example prints something other than what its docstring shows, "
    "or raises.",
    WarningKind.REACH: "A page's figures reach code that reads a module by a name the code "
    "computes (importlib.import_module(name), __import__(name), sys.modules[name]), or whose "
    "names cannot be resolved: refgen cannot know what those pages depend on, so it composes "
    "them again at every build and compares them with the last (they are never stale). One "
    "warning per build, at the first such place.",
    WarningKind.PROSE: "A figure typed by hand in a page or a docstring quotes a registry "
    "value (its sentence names the entry, and the attribute or the entry's one value of that "
    "dimension) and disagrees with the value computed at this build, at the precision it was "
    "typed. The warning names the entry, the attribute, both figures and the scenario role "
    "that would keep it current. Turn the audit off with refgen_prose_audit = False.",
    WarningKind.CHECK: "With the checks setting on: what refgen check finds beyond the "
    "problems above (a Notes entry, an example or a docstring missing; a stated unit that "
    "disagrees with the computed one). The message names the rule.",
}


@dataclass(frozen=True)
class SourceLocation:
    """A line in a source file (``line`` counts from 1)."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Problem:
    """Something wrong with the analysed code, reported as a warning."""

    kind: WarningKind
    message: str
    location: SourceLocation | None
    subject: str
    """Dotted name of the object at fault."""


@dataclass(frozen=True)
class NoteEntry:
    """One paragraph of a Notes section: labelled (``Equation: ...``), or free text
    (``label`` empty), which is reST as the author wrote it."""

    label: str
    text: str
    location: SourceLocation | None = None
    """Where the entry's first line is."""


@dataclass(frozen=True)
class Reference:
    """One item of a References section.

    ``target`` is the dotted path of an implementation helper when the item
    names one; literature references have ``target`` None.
    """

    text: str
    target: str | None = None
    location: SourceLocation | None = None
    """Where the item's first line is."""


@dataclass(frozen=True)
class ParameterEntry:
    """One ``name : type`` entry of a Parameters, Returns, Raises, Attributes, ... section.

    In Returns, Yields, Receives, Raises and Warns a line without `` : `` is the
    type alone (``ValueError``), with ``name`` empty.
    """

    name: str
    type: str
    description: str
    """reST as written, lines kept."""
    location: SourceLocation | None = None
    """Where the ``name : type`` line is (the description starts on the next line)."""


@dataclass(frozen=True)
class SeeAlsoName:
    """One name in a See Also entry, and the object it was found to stand for."""

    name: str
    """As written, without its role: ``helper``, ``pkg.mod.Class``, ``~pkg.mod.func``."""
    role: str = ""
    """The role written around it (``func`` in ``:func:`name```), or ``""``."""
    target: str | None = None
    """The dotted path of the object, where analysis found it by name; else None."""

    @property
    def path(self) -> str:
        """The name without a leading ``~``."""
        return self.name.removeprefix("~")

    @property
    def label(self) -> str:
        """What to show: the last part of a name written with ``~``, else the name."""
        return self.path.rpartition(".")[2] if self.name.startswith("~") else self.name


@dataclass(frozen=True)
class SeeAlsoEntry:
    """One entry of a See Also section: one or more names and what they are for."""

    names: tuple[SeeAlsoName, ...]
    description: str = ""
    location: SourceLocation | None = None


@dataclass(frozen=True)
class Passage:
    """A section of free reST text (Warnings), and where its first line is."""

    text: str
    location: SourceLocation


@dataclass(frozen=True)
class ExampleBlock:
    """The Examples section: reST text with doctest blocks, and where it starts."""

    text: str
    location: SourceLocation


ENTRY_SECTIONS = (
    "Parameters",
    "Attributes",
    "Methods",
    "Returns",
    "Yields",
    "Receives",
    "Other Parameters",
    "Raises",
    "Warns",
)
"""The sections of ``name : type`` entries, in the order numpydoc shows them."""


@dataclass(frozen=True)
class Docstring:
    """A docstring split into the standard numpydoc sections.

    Notes holds the scenario convention's labelled entries (Equation,
    Assumptions, Excludes) and any free paragraphs.
    """

    summary: str = ""
    description: str = ""
    description_location: SourceLocation | None = None
    """Where the description's first line is, for warnings about its markup."""
    parameters: tuple[ParameterEntry, ...] = ()
    returns: tuple[ParameterEntry, ...] = ()
    yields: tuple[ParameterEntry, ...] = ()
    receives: tuple[ParameterEntry, ...] = ()
    other_parameters: tuple[ParameterEntry, ...] = ()
    raises: tuple[ParameterEntry, ...] = ()
    warns: tuple[ParameterEntry, ...] = ()
    attributes: tuple[ParameterEntry, ...] = ()
    methods: tuple[ParameterEntry, ...] = ()
    warnings: Passage | None = None
    see_also: tuple[SeeAlsoEntry, ...] = ()
    notes: tuple[NoteEntry, ...] = ()
    references: tuple[Reference, ...] = ()
    examples: ExampleBlock | None = None
    problems: tuple[Problem, ...] = ()

    def note(self, label: str) -> str | None:
        """Text of the Notes entry called ``label``, if there is one."""
        for entry in self.notes:
            if entry.label == label:
                return entry.text
        return None

    def entries(self, title: str) -> tuple[ParameterEntry, ...]:
        """The entries of the section ``title``, one of :data:`ENTRY_SECTIONS`."""
        entries: tuple[ParameterEntry, ...] = getattr(self, section_field(title))
        return entries

    @property
    def entry_sections(self) -> tuple[tuple[str, tuple[ParameterEntry, ...]], ...]:
        """Each section of ``name : type`` entries that the docstring has, in numpydoc's
        order, with its title."""
        return tuple(
            (title, self.entries(title)) for title in ENTRY_SECTIONS if self.entries(title)
        )

    @property
    def implementation_references(self) -> tuple[Reference, ...]:
        return tuple(ref for ref in self.references if ref.target)

    @property
    def literature_references(self) -> tuple[Reference, ...]:
        return tuple(ref for ref in self.references if not ref.target)


def section_field(title: str) -> str:
    """The :class:`Docstring` field of the section ``title``: ``Other Parameters`` is
    ``other_parameters``."""
    return title.lower().replace(" ", "_")


@dataclass(frozen=True)
class Equation:
    """What a derived attribute computes, as far as static analysis can tell.

    ``expression`` is the source of a one-line ``return EXPR`` body, exactly as
    written. Otherwise it is None, ``helpers`` names the functions the body
    calls (dotted paths) and ``reason`` says why no expression is shown.
    """

    expression: str | None
    helpers: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class InputDoc:
    """A stated input of a scenario: a constructor keyword."""

    name: str
    annotation: str
    """The type annotation as written in the source."""
    default: str | None
    """The declared default as written, or None when the input is required."""
    description: str
    location: SourceLocation
    feeds: tuple[str, ...] = ()
    """Derived attributes of the same class that read this input."""
    inherited_from: str | None = None
    """Dotted path of the base class that declares the input, if not this class."""
    description_location: SourceLocation | None = None
    """Where the description's first line is, for warnings about its markup (None: not
    known, and ``location`` stands in)."""


@dataclass(frozen=True)
class DerivedDoc:
    """A derived attribute: a property computed from the inputs."""

    name: str
    qualname: str
    """Dotted path: ``module.Class.name``."""
    description: str
    equation: Equation
    location: SourceLocation
    return_annotation: str = ""
    reads: tuple[str, ...] = ()
    """Inputs and derived attributes this one reads through ``self``."""
    feeds: tuple[str, ...] = ()
    """Derived attributes that read this one."""
    inherited_from: str | None = None
    """Dotted path of the base class that defines the property, if not this class."""
    description_location: SourceLocation | None = None
    """Where the description's first line is, for warnings about its markup (None: not
    known, and ``location`` stands in)."""


@dataclass(frozen=True)
class RegistryEntryDoc:
    """A named instance of a scenario class in the registry."""

    name: str
    registry: str
    """Dotted path of the registry object that holds the entry."""
    scenario: str
    """Dotted path of the entry's class."""
    description: str = ""
    inputs: tuple[tuple[str, str], ...] = ()
    """The keyword arguments of the entry's construction, as written."""
    location: SourceLocation | None = None
    python: str = ""
    """The Python that builds the entry again: the imports of the names its construction
    uses, then the assignment as written (:mod:`refgen.analysis.construction`); empty
    when the registry's source does not show one."""
    description_location: SourceLocation | None = None
    """Where the description's first line is, for warnings about its markup (None: not
    known, and ``location`` stands in)."""


@dataclass(frozen=True)
class RegistryDoc:
    """The registry object and its entries."""

    qualname: str
    title: str
    description: str
    entries: tuple[RegistryEntryDoc, ...]
    location: SourceLocation | None = None
    kind: str = "class"
    """What the registry object is: ``class``, ``dict``, ``mapping``, ``module`` or ``object``."""
    problems: tuple[Problem, ...] = ()
    """Entries left out, each with why (a name that is not an identifier)."""

    def entries_of(self, scenario: str) -> tuple[RegistryEntryDoc, ...]:
        """The entries whose class is ``scenario`` (a dotted path), in registry order."""
        return self._entries_by_class.get(scenario, ())

    @functools.cached_property
    def _entries_by_class(self) -> dict[str, tuple[RegistryEntryDoc, ...]]:
        grouped: dict[str, list[RegistryEntryDoc]] = {}
        for entry in self.entries:
            grouped.setdefault(entry.scenario, []).append(entry)
        return {scenario: tuple(entries) for scenario, entries in grouped.items()}


@dataclass(frozen=True)
class ScenarioDoc:
    """Everything the reference shows about one scenario class."""

    name: str
    module: str
    qualname: str
    category: str
    source_path: str
    """Path of the implementation file relative to the package's parent folder."""
    location: SourceLocation
    docstring: Docstring
    inputs: tuple[InputDoc, ...]
    derived: tuple[DerivedDoc, ...]
    registry_entries: tuple[RegistryEntryDoc, ...] = ()
    problems: tuple[Problem, ...] = ()
    headline: str | None = None
    """The derived attribute whose figure the class's example shows."""

    @property
    def attribute_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.inputs) + tuple(d.name for d in self.derived)

    def attribute(self, name: str) -> InputDoc | DerivedDoc | None:
        items: tuple[InputDoc | DerivedDoc, ...] = (*self.inputs, *self.derived)
        return next((item for item in items if item.name == name), None)


@dataclass(frozen=True)
class EquationStep:
    """One line of a helper's arithmetic as written: ``target = expression``."""

    target: str
    """Assigned name(s), or ``""`` for the returned value."""
    expression: str


@dataclass(frozen=True)
class HelperDoc:
    """A physics helper function that scenarios delegate to."""

    name: str
    qualname: str
    signature: str
    docstring: Docstring
    location: SourceLocation
    steps: tuple[EquationStep, ...] = ()
    """The body as formulas, when it is only assignments and a return."""


@dataclass(frozen=True)
class ModuleDoc:
    """A module of scenario classes (a category) or of helpers."""

    name: str
    title: str
    description: str
    location: SourceLocation
    members: tuple[str, ...] = field(default=())
    """Names of the scenario classes or helpers it defines, in source order."""
