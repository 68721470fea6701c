"""Files written by a thread while the build goes on (:class:`refgen.files.WrittenAside`)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from refgen.files import WrittenAside, finish_left_running


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_every_file_is_written_by_another_thread(tmp_path: Path) -> None:
    writers: set[str] = set()

    def noting_write(path: Path, text: str) -> None:
        writers.add(threading.current_thread().name)
        write(path, text)

    files = [(tmp_path / f"page{n}.md", f"# Page {n}\n") for n in range(50)]
    WrittenAside(files, noting_write).finish()
    assert [path.read_text(encoding="utf-8") for path, _ in files] == [t for _, t in files]
    assert writers == {"refgen-files"}


def test_what_stops_the_thread_is_raised_when_the_files_are_waited_for(tmp_path: Path) -> None:
    (tmp_path / "taken.md").mkdir()  # a folder where a file should go
    files = [(tmp_path / "first.md", "one"), (tmp_path / "taken.md", "two")]
    aside = WrittenAside(files, write)
    with pytest.raises(IsADirectoryError):
        aside.finish()
    assert (tmp_path / "first.md").read_text(encoding="utf-8") == "one"


def test_a_failed_build_waits_for_the_thread_without_its_error(tmp_path: Path) -> None:
    (tmp_path / "taken.md").mkdir()
    aside = WrittenAside([(tmp_path / "taken.md", "two")], write)
    aside.join_quietly()
    assert aside.error is not None


def test_files_added_while_the_thread_runs_are_written_too(tmp_path: Path) -> None:
    aside = WrittenAside([(tmp_path / "first.md", "one")], write)
    aside.add(tmp_path / "later.md", "two")
    aside.finish()
    assert (tmp_path / "later.md").read_text(encoding="utf-8") == "two"


def test_a_writer_never_finished_is_finished_by_the_next_caller(tmp_path: Path) -> None:
    aside = WrittenAside([(tmp_path / "first.md", "one")], write)
    finish_left_running()
    assert not aside._thread.is_alive()
    assert (tmp_path / "first.md").read_text(encoding="utf-8") == "one"
