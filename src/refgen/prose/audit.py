"""The audit: which typed figures quote a registry value, and whether they still agree.

A figure (:mod:`refgen.prose.figures`) quotes a registry value when its
sentence names a registry entry (by name, or in a role or a link) and either

- names one of the entry's attributes (``step_floor``, "step floor") whose
  value has the figure's dimension (a bare number: a plain or dimensionless
  value), or
- the figure has a unit and the entry has exactly one value of its dimension, or
  exactly one within a factor of ten of the figure (``1.5×10²³ FLOP`` is not the
  6 FLOP a parameter a token).

The quote agrees when the computed value, in the unit typed, is within the
figure's tolerance (half a unit of the last digit typed). A false warning is
worse than a missed quote, so a disagreement is reported only when the figure
can quote one value alone, no other figure of the sentence quotes that value,
and the sentence is not a what-if or a comparison (``if``, ``would``,
``than``...); anything less certain is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from refgen.prose.figures import PERCENT, TypedFigure, figures
from refgen.prose.passages import Passage, Sentence, sentences


@dataclass(frozen=True)
class Computed:
    """A registry value as the audit compares it."""

    text: str
    """As refgen shows it: ``15.625 ms``."""
    dimension: str
    """``[time]``; ``""`` for a plain number or a dimensionless quantity."""


class Registry(Protocol):
    """What the audit asks of a project's registry (:class:`refgen.prose.lookup.Lookup`)."""

    def entries(self) -> Sequence[str]: ...

    def attributes(self, entry: str) -> Sequence[str]: ...

    def dimension_of(self, unit: str) -> str | None: ...

    def computed(self, entry: str, attribute: str) -> Computed | None: ...

    def in_unit(self, entry: str, attribute: str, unit: str) -> float | None: ...


@dataclass(frozen=True)
class Quoted:
    """A typed figure that quotes a registry value, and whether it agrees."""

    path: str
    line: int
    typed: str
    entry: str
    attribute: str
    computed: str
    agrees: bool
    syntax: str = "myst"

    @property
    def role(self) -> str:
        """What would keep the figure current, as the page spells a role."""
        target = f"{self.entry}.{self.attribute}"
        if self.syntax == "myst":
            return f"{{scenario}}`{target}`"
        if self.syntax == "rst":
            return f":scenario:`{target}`"
        return f"`refgen show {target}` (or the scenario role, in a Sphinx page)"

    @property
    def message(self) -> str:
        subject = f"{self.entry}.{self.attribute}"
        if self.agrees:
            return (
                f"typed figure {self.typed!r} quotes {subject} ({self.computed}); "
                f"{self.role} would keep it current"
            )
        return (
            f"typed figure {self.typed!r} disagrees with {subject}, which is "
            f"{self.computed}: write {self.role} to keep it current"
        )


WHAT_IF = re.compile(
    r"\b(?:if|would|could|might|were|suppose|supposing|imagine|instead|twice|half|double|"
    r"doubles|doubled|doubling|halve|halves|halved|triple|thrice|than|versus|vs|unlike|whereas|"
    r"rather|compared|comparison|hypothetical|hypothetically|assume|assuming|say|e\.g)\b",
    re.IGNORECASE,
)
"""Words that make a sentence a what-if or a comparison: its figures may be anything."""


def audit(passages: Iterable[Passage], registry: Registry) -> list[Quoted]:
    """Every quote of a registry value in ``passages``, agreeing or not, in order."""
    entries = registry.entries()
    if not entries:
        return []
    names = _name_pattern(entries)
    found: list[Quoted] = []
    for passage in passages:
        for sentence in sentences(passage):
            found += audit_sentence(sentence, registry, names)
    return found


def _name_pattern(names: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(names), key=len, reverse=True)
    return re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w])")


def audit_sentence(sentence: Sentence, registry: Registry, names: re.Pattern[str]) -> list[Quoted]:
    """The quotes of one sentence (see the module's docstring for when one is reported)."""
    named = list(dict.fromkeys(m.group(0) for m in names.finditer(sentence.text)))
    subject = sentence.passage.subject
    if subject and subject not in named:
        named.append(subject)
    if not named:
        return []
    typed = list(figures(sentence, registry.dimension_of))
    if not typed:
        return []
    attributes = {entry: _named_attributes(sentence.text, registry, entry) for entry in named}
    agreeing: list[tuple[TypedFigure, Quoted]] = []
    disagreeing: list[tuple[TypedFigure, Quoted]] = []
    explicit = [entry for entry in named if entry != subject or _names(sentence, entry, names)]
    for figure in typed:
        quotes = [
            _quote(sentence, registry, figure, entry, attribute)
            for entry, attribute in _candidates(registry, figure, named, explicit, attributes)
        ]
        good = [q for q in quotes if q.agrees]
        elsewhere = [] if good else _agreeing_elsewhere(sentence, registry, figure, named)
        if good or (elsewhere and figure.dimension):
            agreeing.append((figure, (good or elsewhere)[0]))
        elif elsewhere or figure.aside:
            continue  # one of the entry's values after all, or an aside
        elif len(quotes) == 1 and _within_reach(registry, figure, quotes[0]):
            disagreeing.append((figure, quotes[0]))
    return sorted(
        [q for _, q in agreeing] + _certain(disagreeing, agreeing, sentence, attributes),
        key=lambda q: q.line,
    )


def _certain(
    disagreeing: list[tuple[TypedFigure, Quoted]],
    agreeing: list[tuple[TypedFigure, Quoted]],
    sentence: Sentence,
    attributes: dict[str, list[str]],
) -> list[Quoted]:
    """The disagreements to report: none in a what-if or a comparison, none of a value
    another figure of the sentence quotes right, none of a value two figures may quote."""
    prose = _prose_only(sentence)
    for name in {name for names in attributes.values() for name in names}:
        prose = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", " ", prose)  # an attribute
    if WHAT_IF.search(prose):  # called doubled is not a what-if
        return []
    quoted_right = {(q.entry, q.attribute) for _, q in agreeing}
    counts: dict[tuple[str, str], int] = {}
    for _, quote in disagreeing:
        counts[quote.entry, quote.attribute] = counts.get((quote.entry, quote.attribute), 0) + 1
    return [
        quote
        for _, quote in disagreeing
        if (quote.entry, quote.attribute) not in quoted_right
        and counts[quote.entry, quote.attribute] == 1
    ]


def _prose_only(sentence: Sentence) -> str:
    """The sentence with its code spans blanked (``if`` in code is not a what-if)."""
    chars = list(sentence.text)
    for low, high in sentence.passage.code:
        for index in range(max(low, sentence.start), min(high, sentence.end)):
            chars[index - sentence.start] = " "
    return "".join(chars)


def _named_attributes(text: str, registry: Registry, entry: str) -> list[str]:
    """The entry's attributes the sentence names: as written (``step_floor``) or as words
    ("step floor", "Bandwidth")."""
    found = []
    for attribute in registry.attributes(entry):
        spelled = [re.escape(attribute)]
        if "_" in attribute:
            spelled.append(r"\s+".join(map(re.escape, attribute.split("_"))))
        pattern = r"(?<![\w])(?:" + "|".join(spelled) + r")(?![\w])"
        if re.search(pattern, text, re.IGNORECASE):
            found.append(attribute)
    return found


def _names(sentence: Sentence, entry: str, names: re.Pattern[str]) -> bool:
    return any(m.group(0) == entry for m in names.finditer(sentence.text))


def _candidates(
    registry: Registry,
    figure: TypedFigure,
    named: Sequence[str],
    explicit: Sequence[str],
    attributes: dict[str, list[str]],
) -> list[tuple[str, str]]:
    """The values ``figure`` may quote: a named attribute of its dimension; failing that,
    for a figure with a dimension, the one value of its dimension of an entry the sentence
    names itself (not only the entry a docstring is about)."""
    by_name = [
        (entry, attribute)
        for entry in named
        for attribute in attributes[entry]
        if _dimension(registry, entry, attribute) == figure.dimension
        and _may_count(attribute, figure.counts)
        and _may_be_percent(registry, figure, entry, attribute)
    ]
    if by_name or not figure.dimension or figure.per_other:
        return by_name
    found = []
    for entry in explicit:
        same = [
            a
            for a in registry.attributes(entry)
            if _dimension(registry, entry, a) == figure.dimension
        ]
        near = [a for a in same if _near(registry, figure, entry, a)]
        if len({_rounded(registry.in_unit(entry, a, figure.unit)) for a in near}) == 1:
            near = near[:1]  # one figure in two units: FLOP and petaflop/s-days
        if len(same) == 1 or len(near) == 1:
            found.append((entry, (near or same)[0]))
    return found


def _agreeing_elsewhere(
    sentence: Sentence, registry: Registry, figure: TypedFigure, named: Sequence[str]
) -> list[Quoted]:
    """Quotes of any value of the named entries with which ``figure`` agrees: a figure
    that is one of the entry's values is never a disagreement with another."""
    found = []
    for entry in named:
        for attribute in registry.attributes(entry):
            if _dimension(registry, entry, attribute) != figure.dimension:
                continue
            if not _may_be_percent(registry, figure, entry, attribute):
                continue
            quote = _quote(sentence, registry, figure, entry, attribute)
            if quote.agrees:
                found.append(quote)
    return found


REACH = 10.0
"""A figure further than this factor from the value it would quote is taken for another
figure (a disagreement is a stale or mistyped quote, not a different order of magnitude)."""


def _within_reach(registry: Registry, figure: TypedFigure, quote: Quoted) -> bool:
    return _near(registry, figure, quote.entry, quote.attribute)


def _rounded(value: float | None) -> str:
    return f"{value:.9g}"


def _near(registry: Registry, figure: TypedFigure, entry: str, attribute: str) -> bool:
    """Whether the value is within a factor :data:`REACH` of the figure."""
    value = registry.in_unit(entry, attribute, figure.unit)
    if value is None or value == 0 or figure.value == 0:
        return value == figure.value == 0
    ratio = figure.value / value
    return 1 / REACH <= ratio <= REACH


def _may_be_percent(registry: Registry, figure: TypedFigure, entry: str, attribute: str) -> bool:
    """A percentage quotes a fraction or a ratio, never a count (65% is not 1.3×10¹⁰)."""
    if figure.unit not in PERCENT:
        return True
    value = registry.in_unit(entry, attribute, "")
    return value is not None and abs(value) <= 10


def _may_count(attribute: str, noun: str) -> bool:
    """Whether a bare number counting ``noun`` (``16 GPUs``) may be ``attribute``: one of
    its words is the noun, singular or plural (``gpus_per_node``); any noun for none."""
    if not noun:
        return True
    stem = noun.removesuffix("es") if noun.endswith("ses") else noun.removesuffix("s")
    words = {
        w.removesuffix("es") if w.endswith("ses") else w.removesuffix("s")
        for w in attribute.lower().split("_")
    }
    return stem in words


def _dimension(registry: Registry, entry: str, attribute: str) -> str | None:
    computed = registry.computed(entry, attribute)
    return computed.dimension if computed is not None else None


def _quote(
    sentence: Sentence, registry: Registry, figure: TypedFigure, entry: str, attribute: str
) -> Quoted:
    computed = registry.computed(entry, attribute)
    assert computed is not None  # a candidate has a value
    value = registry.in_unit(entry, attribute, figure.unit)
    agrees = value is not None and abs(value - figure.value) <= figure.tolerance * (
        1 + 1e-9
    ) + 1e-12 * abs(figure.value)
    passage = sentence.passage
    return Quoted(
        passage.path,
        passage.line_at(figure.start),
        " ".join(figure.text.split()),
        entry,
        attribute,
        computed.text,
        agrees,
        passage.syntax,
    )
