"""The shared unit registry: information is a dimension, and loading is cached."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen_scenarios import units


def test_bytes_have_the_information_dimension() -> None:
    assert units.ureg.byte.dimensionality == units.ureg.parse_units("bit").dimensionality
    assert str(units.ureg.byte.dimensionality) == "[information]"
    assert (800 * units.ureg.MB / (51.2 * units.ureg.GB / units.ureg.s)).to("ms").magnitude == (
        pytest.approx(15.625)
    )


def test_definitions_are_cached_in_a_file_named_by_their_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(units.platformdirs, "user_cache_dir", lambda name: str(tmp_path / name))
    registry = units._registry()
    written = list((tmp_path / "pint" / "refgen_scenarios").glob("definitions-*.txt"))
    assert len(written) == 1
    assert "bit = [information]" in written[0].read_text().splitlines()
    assert str(registry.byte.dimensionality) == "[information]"


def test_an_unwritable_cache_falls_back_to_parsing_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setattr(units.platformdirs, "user_cache_dir", lambda name: str(blocker / name))
    registry = units._registry()
    assert str(registry.byte.dimensionality) == "[information]"
