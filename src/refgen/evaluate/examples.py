"""Running the Examples section of a docstring and reporting failures by file line.

The Sphinx build, the pytest plugin and the command line share this runner, so
an example is checked the same way wherever it runs. Failures carry the
``.py`` file and the line of the failing ``>>>`` prompt.
"""

from __future__ import annotations

import doctest
from dataclasses import dataclass

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import ExampleBlock, SourceLocation

OPTION_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MOST_SHOWN = 2_000
"""Characters of an example's output a failure keeps: an example may print megabytes."""


@dataclass(frozen=True)
class ExampleFailure:
    """One ``>>>`` statement whose output differed or which raised."""

    subject: str
    location: SourceLocation
    source: str
    expected: str
    got: str

    def describe(self, with_location: bool = True) -> str:
        """The failure as text; every line after the first is indented."""
        where = f" at {self.location}" if with_location else ""
        return (
            f"example of {self.subject} failed{where}\n"
            f"{_indent('>>> ' + self.source.strip())}\n"
            f"    expected:\n{_indent(self.expected, 8)}\n"
            f"    got:\n{_indent(self.got, 8)}"
        )


@dataclass(frozen=True)
class ExampleRun:
    """The outcome of running one Examples block."""

    subject: str
    attempted: int
    failures: tuple[ExampleFailure, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


def shortened(text: str) -> str:
    """``text`` up to :data:`MOST_SHOWN` characters, saying how many more there were."""
    if len(text) <= MOST_SHOWN:
        return text
    return f"{text[:MOST_SHOWN]}… ({len(text) - MOST_SHOWN:,} more characters not shown)\n"


def _indent(text: str, width: int = 4) -> str:
    lines = text.rstrip("\n").split("\n")
    return "\n".join(" " * width + line for line in lines)


class _CollectingRunner(doctest.DocTestRunner):
    """A doctest runner that records failures instead of printing them."""

    def __init__(self, subject: str) -> None:
        super().__init__(verbose=False, optionflags=OPTION_FLAGS)
        self.subject = subject
        self.collected: list[ExampleFailure] = []
        self.started: list[doctest.Example] = []
        self.current: doctest.Example | None = None

    def report_start(self, out, test, example):  # type: ignore[no-untyped-def]
        self.current = example
        self.started.append(example)

    def record(self, test: doctest.DocTest, example: doctest.Example, got: str) -> None:
        line = (test.lineno or 0) + example.lineno + 1
        self.collected.append(
            ExampleFailure(
                self.subject,
                SourceLocation(test.filename or "<unknown>", line),
                example.source,
                shortened(example.want or "(nothing)\n"),
                shortened(got or "(nothing)\n"),
            )
        )

    def report_failure(self, out, test, example, got):  # type: ignore[no-untyped-def]
        self.record(test, example, got)

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[no-untyped-def]
        exception_type, exception, _ = exc_info
        self.record(test, example, f"{exception_type.__name__}: {exception}\n")


def run_examples(block: ExampleBlock, subject: str, timeout: float | None = None) -> ExampleRun:
    """Run every ``>>>`` statement of ``block`` in a fresh namespace, within ``timeout`` s."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, subject, block.location.path, block.location.line - 1)
    runner = _CollectingRunner(subject)
    result, error = call_user_code(
        runner.run, test, None, lambda _text: None, True, timeout=timeout
    )
    if error is not None:  # timed out, or the example raised what doctest lets through
        if runner.current is not None:
            runner.record(test, runner.current, describe_error(error) + "\n")
        return ExampleRun(subject, len(runner.started), tuple(runner.collected))
    assert result is not None
    return ExampleRun(subject, result.attempted, tuple(runner.collected))
