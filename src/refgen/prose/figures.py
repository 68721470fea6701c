"""Typed figures: the numbers a sentence states, with their unit and the precision typed.

A figure is a number as people type it (``15.6``, ``6,400``, ``0.0156``,
``1.5×10²³``, ``1.5e23``, ``1.4 trillion``), followed by a unit that the
project's pint registry reads (``ms``, ``GB/s``, ``FLOP``, ``%``) or by none
(a bare number). Its tolerance is half a unit of the last digit typed, in the
unit typed: ``15.6 ms`` is 15.55 to 15.65 ms; an integer's trailing zeros are
not taken as typed digits (``360`` is 355 to 365), and ``about 15 ms`` is
read to a whole unit of its last digit.

What is never a figure: a number inside a word or a name (``A100``,
``GPT-3``, ``Zero7p5B``), a compound (``64-bit``), a version (``3.11.2``), a
year (``2018``, ``the 2020s``), a section, table, figure, page or equation
number (``section 10.2``, ``Table 3``), a citation or equation mark (``[12]``,
``(3)``), a list marker, a date (``July 2018``), a count with a letter suffix
(``7.5B``, ``70 M``), a range (``15–16 ms``, ``12 to 17 ms``), a figure under a
bound (``under 20 ms``, ``at least 2 GB``), and money (``$4.6M``). Those rules
are what keeps the audit's warnings true (:mod:`refgen.prose.audit`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from refgen.prose.passages import Sentence, words

UnitDimension = Callable[[str], "str | None"]
"""The dimension of a unit as typed (``"[time]"``, ``""`` for dimensionless), or None
when the text is not a unit."""

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SEPARATORS = ",\u2009\u202f\u00a0"
_NUMBER = re.compile(
    r"(?P<sign>[-−])?"
    r"(?P<whole>\d{1,3}(?:[" + _SEPARATORS + r"]\d{3})+(?!\d)|\d+)"
    r"(?P<fraction>\.\d+)?"
    r"(?:[eE](?P<e>[-+−]?\d+)(?![\w.])"
    r"|[ \u2009\u202f]?[×x·][ \u2009\u202f]?10"
    r"(?:\^\{?(?P<caret>[-+−]?\d+)\}?|(?P<power>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?"
)
_UNIT_TOKEN = re.compile(r"[A-Za-zµμΩ°%][A-Za-z0-9µμΩ°%²³⁻¹/·*^_]*")
_PER = re.compile(r"(?:\s+(?:per|a|an|each|every)\s+|/)([A-Za-z]+)")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE_WORD = re.compile(r"\s+(thousand|million|billion|trillion)\b")

NOT_UNITS = frozenset(
    words(
        "in a at are am pm as he me us point points mil ton tons bar bars cup cups pint pints "
        "ha gal b t u l c e k C F S R P L E degree degrees line lines hp"
    )
)
"""English words (and letters) that pint would read as a unit after a number: ``in``
is an inch, ``a`` a year, ``at`` an atmosphere, ``are`` 100 m², ``us`` a microsecond."""
COUNT_SUFFIXES = frozenset(words("K M B T G k m b bn"))
"""Letters after a number that mean thousand, million, billion (``7.5B``, ``70 M``),
never a unit: such a number is not read at all."""
EVENTS = frozenset(
    words("step steps iteration update request query batch run epoch token pass layer")
)
"""What a figure may be *per* and still be the scenario's own figure (``15.6 ms per step``)."""
REFERENCE_WORDS = frozenset(
    words(
        "section sections sec § table tables tab fig figure figures chapter chapters ch eq "
        "eqs equation equations page pages p pp algorithm appendix version v line lines row "
        "rows column columns col item items step part listing example examples exercise "
        "exercises problem problems theorem lemma rule footnote ref refs note notes volume "
        "vol issue no nos number lecture slide slides layer stage phase level round iteration "
        "epoch python rank top gpu node device"
    )
)
"""Words after which a number labels something (``section 10.2``, ``Table 3``)."""
MONTHS = frozenset(
    words(
        "january february march april may june july august september october november "
        "december jan feb mar apr jun jul aug sep sept oct nov dec"
    )
)
_APPROXIMATE = re.compile(
    r"(?:about|around|roughly|approximately|approx\.|nearly|almost|some|circa|ca\.|~|≈|∼)\s*$",
    re.IGNORECASE,
)
_BOUND = re.compile(
    r"(?:below|above|beyond|exceeds?|exceeding|less than|more than|"
    r"fewer than|greater than|higher than|lower than|longer than|shorter than|at least|"
    r"at most|up to|no more than|no less than|as (?:much|many|little|few) as|<=?|>=?|≤|≥)"
    r"\s*(?:the\s+|a\s+|an\s+|just\s+|only\s+)?$|\bby\s+$",
    re.IGNORECASE,
)
_ACROSS_OR_BOUND = re.compile(
    r"\b(?:under|over|within)\s+(?:the\s+|a\s+|an\s+|just\s+|only\s+)?$", re.IGNORECASE
)
_WORD_BEFORE = re.compile(r"([^\W\d]+|§)\.?\s*$")
_RANGE_AFTER = re.compile(r"\s*(?:[–—-]|to|and)\s*[-−]?\d")
_RANGE_BEFORE = re.compile(
    r"\d\s*(?:[–—-]|to)\s*$|between\s+(?:\S+\s+and\s+)?$|from\s+$", re.IGNORECASE
)
_NAME_BEFORE = re.compile(r"(?<![\w'’])([A-Z][\w-]*)\s+$")
PERCENT = frozenset({"%", "percent"})
_NOUN_AFTER = re.compile(r"\s+([^\W\d_][\w-]*)")
FUNCTION_WORDS = frozenset(
    words(
        "a an the and or of in on at to by for from with per times is are was were be as that "
        "which who this these those it its than so but if then while when where each every "
        "all more less fewer most least such has was does goes takes makes gives means shows "
        "comes always times cents percents"
    )
)
"""Words after a bare number that say nothing of what it counts."""
_CITATION_CHARACTERS = frozenset("0123456789,; \t\n–-")


@dataclass(frozen=True)
class TypedFigure:
    """A number typed in prose, with its unit, as the audit compares it."""

    start: int
    end: int
    """Offsets in the passage's text."""
    text: str
    """As typed: ``15.6 ms``."""
    value: float
    """The number, in the unit typed."""
    tolerance: float
    """How far from ``value`` a computed figure may be and still agree, in the unit typed."""
    unit: str
    """The unit as typed, or ``""`` for a bare number."""
    dimension: str
    """The unit's dimension (``[time]``); ``""`` for a bare number or a dimensionless unit."""
    per_other: bool = False
    """Per something other than the scenario's event (``2 bytes per parameter``)."""
    counts: str = ""
    """For a bare number, the plural noun after it (``gpus`` in ``16 GPUs``), lower case."""
    aside: bool = False
    """In parentheses (a source's figure, a cluster's size), or a multiple (``3.1x``): an
    aside or a comparison, never a disagreement."""


def figures(sentence: Sentence, dimension_of: UnitDimension) -> Iterator[TypedFigure]:
    """The figures of ``sentence`` outside its code spans, in order."""
    passage = sentence.passage
    text = passage.text
    for match in _NUMBER.finditer(text, sentence.start, sentence.end):
        if passage.in_code(match.start(), match.end()) or not _stands_alone(text, match):
            continue
        if _labels_something(text, match, sentence.start):
            continue
        figure = _figure(text, match, sentence.end, dimension_of)
        if figure is not None:
            yield figure


def _stands_alone(text: str, match: re.Match[str]) -> bool:
    """Not part of a word, a name, a version, a compound, money or a range."""
    start, end = match.start(), match.end()
    before = text[start - 1] if start else " "
    if before.isalnum() or before in "_.$€£#^/\\@":
        return False
    if before in "-−" and start >= 2 and (text[start - 2].isalnum() or text[start - 2] in "-_"):
        return False  # GPT-3, or a second number of a range
    after = text[end : end + 2]
    if re.match(r"[.,]\d|-[^\W\d]|['’]s\b", after + text[end + 2 : end + 3]):
        return False  # 3.11.2, 64-bit, Llama 3's
    return not (_RANGE_AFTER.match(text, end) or _RANGE_BEFORE.search(text, 0, start))


def _labels_something(text: str, match: re.Match[str], floor: int) -> bool:
    """A section or table number, a date, a citation mark, a list marker, a year."""
    before = _WORD_BEFORE.search(text, max(floor, match.start() - 20), match.start())
    word = before.group(1).lower() if before else ""
    if word in REFERENCE_WORDS or word in MONTHS:
        return True
    opening = text.rfind("\n", 0, match.start()) + 1
    if not text[opening : match.start()].strip() and re.match(r"[.)]\s", text[match.end() :]):
        return True  # a list marker
    left, right = match.start(), match.end()
    while left > 0 and text[left - 1] in _CITATION_CHARACTERS:
        left -= 1
    while right < len(text) and text[right] in _CITATION_CHARACTERS:
        right += 1
    if left > 0 and text[left - 1] in "[(" and text[right : right + 1] in ("]", ")"):
        return True  # [12], [3, 4], (3)
    whole = match.group("whole")
    is_year = whole.isdigit() and len(whole) == 4 and 1800 <= int(whole) <= 2100
    unit = _UNIT_TOKEN.match(text, match.end())
    return is_year and not match.group("fraction") and (unit is None or unit.group(0) == "s")


def _figure(
    text: str, match: re.Match[str], limit: int, dimension_of: UnitDimension
) -> TypedFigure | None:
    value, tolerance = number_and_tolerance(match)
    end = match.end()
    scale = _SCALE_WORD.match(text, end)
    if scale:
        value, tolerance = value * _SCALES[scale.group(1)], tolerance * _SCALES[scale.group(1)]
        end = scale.end()
    unit, dimension, end, per_other = _unit_after(text, end, limit, dimension_of)
    if unit is None:
        return None
    if _BOUND.search(text, max(0, match.start() - 30), match.start()):
        return None
    if unit and _ACROSS_OR_BOUND.search(text, max(0, match.start() - 30), match.start()):
        return None  # over 10 ms is a bound; over 64 devices is not
    if not unit and _after_a_name(text, match.start()):
        return None
    if _APPROXIMATE.search(text, max(0, match.start() - 16), match.start()) and (
        "." in match.group(0) or not match.group("whole").endswith("0")
    ):
        tolerance *= 2  # about 15 ms; but about 20 ms already reads as 15 to 25
    noun = _NOUN_AFTER.match(text, end, limit) if not unit else None
    plural = noun.group(1).lower() if noun else ""
    counts = plural if plural.endswith("s") and plural not in FUNCTION_WORDS else ""
    if unit and not dimension and unit not in PERCENT:
        counts = unit.lower()  # 128 tokens: a count of tokens
    typed = text[match.start() : end].rstrip("×xX ")
    multiple = text[match.end() : end].strip() in ("×", "x", "X")
    aside = _in_parentheses(text, match.start()) or multiple
    return TypedFigure(
        match.start(), end, typed, value, tolerance, unit, dimension, per_other, counts, aside
    )


def _in_parentheses(text: str, start: int) -> bool:
    depth = 0
    for char in reversed(text[:start]):
        if char == ")":
            depth += 1
        elif char == "(":
            if depth == 0:
                return True
            depth -= 1
    return False


def _after_a_name(text: str, start: int) -> bool:
    """A bare number right after a capitalised word is part of a name: Llama 3, Python 3."""
    before = _NAME_BEFORE.search(text, max(0, start - 30), start)
    return before is not None and before.group(1).lower() not in NOT_NAMES


NOT_NAMES = FUNCTION_WORDS | frozenset(
    words(
        "its their our about some only both just nearly roughly around approximately almost "
        "over under with every all"
    )
)
"""Capitalised words before a number that do not make it part of a name (The 64 devices)."""


def number_and_tolerance(match: re.Match[str]) -> tuple[float, float]:
    """The number a match of :data:`_NUMBER` spells, and half a unit of its last digit."""
    whole = match.group("whole")
    for separator in _SEPARATORS:
        whole = whole.replace(separator, "")
    fraction = match.group("fraction") or ""
    exponent_text = match.group("e") or match.group("caret") or match.group("power") or "0"
    exponent = int(exponent_text.translate(_SUPERSCRIPT).replace("−", "-"))
    mantissa = float(whole + fraction)
    if fraction:
        step = 10.0 ** -(len(fraction) - 1)
    else:
        zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
        step = 10.0**zeros
    sign = -1.0 if match.group("sign") else 1.0
    return sign * mantissa * 10.0**exponent, step / 2 * 10.0**exponent


def _unit_after(
    text: str, end: int, limit: int, dimension_of: UnitDimension
) -> tuple[str | None, str, int, bool]:
    """The unit typed after a number ending at ``end``: its text, its dimension, where it
    ends and whether the figure is per something else. A unit of None: not a figure."""
    glued = end < len(text) and not text[end].isspace()
    gap = re.match(r"[ \t\n\u00a0\u2009\u202f]?", text[end:]).end()  # type: ignore[union-attr]
    token = _UNIT_TOKEN.match(text, end + gap, limit)
    if token is None:
        if glued and text[end] == "×":
            return "", "", end + 1, False
        bare = not glued or text[end] in ",;:.)]}!?'\"’”"
        return ("" if bare else None), "", end, False
    word = token.group(0)
    if word in ("x", "X"):
        return "", "", token.end(), False  # 9x: a multiple
    if word in COUNT_SUFFIXES:
        return None, "", end, False
    for candidate in _unit_candidates(word):
        if candidate in NOT_UNITS:
            break
        dimension = dimension_of(candidate)
        if dimension is None:
            continue
        unit_end = token.start() + len(candidate)
        return _with_per(text, candidate, dimension, unit_end, limit, dimension_of)
    if glued:
        return None, "", end, False  # 3rd, V100-like glue: not a number of its own
    return "", "", end, False


def _unit_candidates(word: str) -> Iterator[str]:
    """``word``, then shorter and shorter heads of it cut at ``/``, ``·``, ``*``, ``^``."""
    word = word.rstrip("/·*^_")
    while word:
        yield word
        cut = max(word.rfind(c) for c in "/·*^")
        if cut <= 0:
            return
        word = word[:cut]


def _with_per(
    text: str, unit: str, dimension: str, end: int, limit: int, dimension_of: UnitDimension
) -> tuple[str, str, int, bool]:
    """Extend ``unit`` by a ``per X`` or ``/X`` after it when pint reads the whole; else
    note whether the figure is per something other than the scenario's event."""
    per = _PER.match(text, end, limit)
    if per is None:
        return unit, dimension, end, False
    combined = f"{unit}/{per.group(1)}"
    combined_dimension = dimension_of(combined)
    if combined_dimension is not None and per.group(1) not in NOT_UNITS:
        return combined, combined_dimension, per.end(), False
    return unit, dimension, end, per.group(1).lower() not in EVENTS
