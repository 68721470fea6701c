"""The one pint unit registry shared by every scenario and helper.

Quantities from different registries cannot be combined, so everything in
:mod:`refgen_scenarios` builds its units from :data:`ureg`.

The registry is pint's standard one with two kinds of change. Information is a
base dimension here: pint ships ``bit = []``, which makes a byte a plain
number, so a byte count could stand in for a parameter count or a ratio
without complaint; with ``bit = [information]`` a size in bytes, a rate in
bytes per second and a dimensionless multiple stay distinct. And it adds the
units the scenarios count in that pint lacks: floating-point operations
(``FLOP``, with the usual prefixes: ``TFLOP``, ``PFLOP``...), the
petaflop/s-day (``pfs_day``, whose symbol spells it out), tokens (``token``, a
dimensionless count), and
CO2-equivalent emissions (``gCO2e``, ``kgCO2e``, ``tCO2e``) as a dimension of
their own, so grams of emissions never mix with grams of hardware.
"""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path

import pint
import platformdirs


def _standard_definitions() -> list[str]:
    """pint's bundled definitions as one list of lines, with information made a dimension.

    The constants file that the definitions import is inlined, because the
    lines are loaded as text and an ``@import`` would have no folder to
    resolve against.
    """
    package = resources.files("pint")
    lines: list[str] = []
    found: set[str] = set()
    for line in package.joinpath("default_en.txt").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped == "@import constants_en.txt":
            constants = package.joinpath("constants_en.txt").read_text(encoding="utf-8")
            lines.extend(constants.splitlines())
            found.add("constants")
        elif stripped == "bit = []":
            lines.append("bit = [information]")
            found.add("bit")
        else:
            lines.append(line)
    if found != {"constants", "bit"}:
        raise RuntimeError(
            "pint's bundled unit definitions no longer have the expected shape; "
            "refgen_scenarios.units must be updated for this pint version"
        )
    return lines


def _registry() -> pint.UnitRegistry:
    """The registry, loaded through pint's definitions cache when it can be.

    Parsing pint's definitions takes most of the time of importing this
    package. pint caches parsed definition *files*, so the edited definitions
    are written once to a file in pint's cache folder (named by their content)
    and loaded from there; where that folder cannot be written, they are parsed
    from memory.
    """
    lines = _standard_definitions()
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    try:
        folder = Path(platformdirs.user_cache_dir("pint")) / "refgen_scenarios"
        path = folder / f"definitions-{digest}.txt"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(path)
        return pint.UnitRegistry(str(path), cache_folder=":auto:")
    except OSError:
        return pint.UnitRegistry(lines)


ureg: pint.UnitRegistry = _registry()
"""The package's unit registry."""

ureg.define("FLOP = [compute]")
ureg.define("pfs_day = 1e15 * FLOP / second * day = petaflop/s-day")
ureg.define("token = []")
ureg.define("gram_CO2e = [emissions] = gCO2e")
ureg.define("tonne_CO2e = 1e6 * gram_CO2e = tCO2e")

Quantity = ureg.Quantity
"""Quantity class bound to :data:`ureg`; use it in annotations and to build values."""

ureg.formatter.default_format = "~P"
