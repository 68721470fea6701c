"""Scenario objects are Python-domain objects: cross-references and objects.inv."""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from urllib.parse import urldefrag

from refgen.testing import BuildResult, write_scenario_project
from tests.html_helpers import main, read_html, row_cells
from tests.sphinx.test_pages import MODULE


def read_inventory(path: Path) -> dict[tuple[str, str], str]:
    """objects.inv as {(role, name): uri}, read per the documented v2 format."""
    raw = path.read_bytes()
    header_end = 0
    for _ in range(4):
        header_end = raw.index(b"\n", header_end) + 1
    entries = {}
    for line in zlib.decompress(raw[header_end:]).decode().splitlines():
        name, role, _priority, uri, _display = line.split(" ", 4)
        entries[(role, name)] = uri.replace("$", name) if uri.endswith("$") else uri
    return entries


def test_inventory_lists_classes_inputs_attributes_and_helpers(site: BuildResult) -> None:
    inventory = read_inventory(site.outdir / "objects.inv")
    cls = "refgen_scenarios.training.UpdateWorkingSetScenario"
    helper = "refgen_scenarios.physics.memory.calc_update_step_traffic"
    assert inventory[("py:class", cls)].startswith("reference/refgen_scenarios.training/Update")
    assert ("py:attribute", f"{cls}.bandwidth") in inventory
    assert ("py:property", f"{cls}.step_floor") in inventory
    assert inventory[("py:function", helper)].startswith("reference/helpers/")
    assert ("py:attribute", "refgen_scenarios.Scenarios.PhoneFullUpdateWorkingSet") in inventory


def test_py_roles_resolve_to_the_generated_entries(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "fruit", {"counting": MODULE}, conf_extra="nitpicky = True\n"
    )
    (project.docs / "prose.rst").write_text(
        "Prose\n=====\n\n"
        "See :py:class:`fruit.counting.Apples`, its input "
        ":py:attr:`fruit.counting.Apples.count` and its figure "
        ":py:attr:`fruit.counting.Apples.doubled`.\n"
    )
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   prose\n")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "prose.html")
    hrefs = [a["href"] for a in main(page).find_all("a", class_="reference internal")]
    assert [urldefrag(h)[1] for h in hrefs] == [
        "fruit.counting.Apples",
        "fruit.counting.Apples.count",
        "fruit.counting.Apples.doubled",
    ]
    target = read_html(result.outdir / "reference" / "fruit.counting" / "Apples.html")
    for href in hrefs:
        assert target.find(id=urldefrag(href)[1]) is not None


HELPERS = '''
    """Helpers"""


    def ring_time(size: float, links: int) -> float:
        """Time of a ring all-reduce."""
        return 2 * (links - 1) * size / links
'''
RING = '''
    """Rings"""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Ring:
        """A ring."""

        size: float = 1.0
        """The size."""
        links: int = 4
        """Links in the ring."""

        @property
        def time(self) -> float:
            """Ring time, the helper imported inside the body."""
            from .helpers import ring_time

            return ring_time(self.size, self.links)

        @property
        def doubled(self) -> float:
            """Twice the ring time, through the helper module imported inside the body."""
            from pkgr import helpers

            return helpers.ring_time(self.size, self.links) * 2
'''


def test_an_equation_links_to_a_helper_imported_inside_the_method_body(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "pkgr", {"rings": RING, "helpers": HELPERS}, documented=["rings"]
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "pkgr.rings" / "Ring.html")
    for name in ("time", "doubled"):
        equation = row_cells(page, f"pkgr.rings.Ring.{name}")["Equation"]
        assert equation.find("math") is not None
        [link] = equation.find_all("a")
        target, anchor = urldefrag(link["href"])
        assert anchor == "pkgr.helpers.ring_time"
        helpers = read_html((result.outdir / "reference" / "pkgr.rings" / target).resolve())
        assert helpers.find(id=anchor) is not None


TWINS = '''
    """Twins"""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Cup:
        """A cup."""

        café: float = 1.0
        """Accented."""
        cafe: float = 2.0
        """Plain."""

        @property
        def total(self) -> float:
            """Reads ``cafe`` only."""
            return self.cafe * 2
'''


def test_names_that_differ_only_by_an_accent_keep_targets_of_their_own(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "twins", {"models": TWINS})
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "twins.models" / "Cup.html")
    for name in ("café", "cafe"):
        cells = row_cells(page, f"twins.models.Cup.{name}")
        assert cells["Name"].get_text().strip() == name
    mention = row_cells(page, "twins.models.Cup.total")["Description"].find("a")
    assert urldefrag(mention["href"])[1] == "twins.models.Cup.cafe"
    inventory = read_inventory(result.outdir / "objects.inv")
    assert inventory[("py:attribute", "twins.models.Cup.café")].endswith("#twins.models.Cup.café")


def test_every_link_to_an_attribute_row_has_its_label_in_latex(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "twins", {"models": TWINS})
    result = project.build("latex", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    tex = next(result.outdir.glob("*.tex")).read_text(encoding="utf-8")
    links = set(re.findall(r"\\hyperref\[\\detokenize\{([^}]*)\}\]", tex))
    labels = set(re.findall(r"\\label\{\\detokenize\{([^}]*)\}\}", tex))
    assert any("Cup.cafe" in link for link in links)
    assert links <= labels, links - labels
