"""A library shaped like our users': one module of pydantic scenario classes, and its docs.

The shape is the one issue 14 describes (about 600 classes, 18,000 lines, a
registry of about 900 entries, about 1,700 properties). Next to
``bench/synthetic.py`` (many small modules of dataclasses, with numpydoc
sections and examples) it is the other end of what refgen meets:

- ``pkg/models.py``: every scenario class, pydantic v2 ``BaseModel``
  subclasses of one base, inputs declared with ``Field(description=...)`` and
  pint Quantities (``arbitrary_types_allowed``);
- docstrings of plain prose, no numpydoc sections, no examples;
- about 2.8 properties a class, most without a docstring; their bodies do
  arithmetic with Quantities and call helpers imported *inside* the body
  (``from .helpers import ring_traffic``);
- ``pkg/helpers.py``: the helpers, some calling other helpers;
- ``pkg/units.py``: one pint registry, with ``FLOP`` defined on top of it;
- ``pkg/registry.py``: one class whose attributes are the named instances;
  about 1 in 75 entries is of a class in ``pkg/legacy.py``, a module the
  reference does not document.

Everything is drawn from a seeded ``random.Random``: the same size and seed
write the same files. ``write_library(root, classes=N)`` scales entries and
the rest with N. ``shape="deep"`` adds the deep-reach shape of
``bench/deep_reach.py``: helpers over 30 modules calling each other, constants
modules, and properties and registry entries that call them.
"""

from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path

import deep_reach
from synthetic import write_conf

PACKAGE = "pkg"
MODULE = f"{PACKAGE}.models"
REGISTRY = f"{PACKAGE}.registry.Registry"
ENTRIES_PER_CLASS = 1.48
LEGACY_SHARE = 75
"""One registry entry in this many instantiates a class of the undocumented module."""
PROPERTY_DOCSTRING_SHARE = 0.12
"""Share of properties that have a docstring (most have none)."""


@dataclass(frozen=True)
class Input:
    name: str
    unit: str
    """A pint unit; ``int`` for a count, ``float`` for a plain number."""
    low: float
    high: float
    description: str

    def value(self, rng: random.Random) -> str:
        if self.unit == "int":
            return str(rng.randint(int(self.low), int(self.high)))
        number = _round(rng.uniform(self.low, self.high))
        return number if self.unit == "float" else f'Q_({number}, "{self.unit}")'

    @property
    def annotation(self) -> str:
        return {"int": "int", "float": "float"}.get(self.unit, "Quantity")


@dataclass(frozen=True)
class Derived:
    name: str
    helpers: tuple[str, ...]
    """Imported inside the body, from the helpers module."""
    body: str
    """Lines after the import; ``self.<input>`` and ``self.<derived>`` as needed."""
    needs: tuple[str, ...] = ()
    """Other derived attributes of the family this one reads."""
    annotation: str = "Quantity"
    doc: str = ""


def _round(number: float) -> str:
    return f"{number:.3g}"


@dataclass(frozen=True)
class Family:
    topic: str
    prose: str
    inputs: tuple[Input, ...]
    derived: tuple[Derived, ...]


FAMILIES = (
    Family(
        "AllReduce",
        "the gradient exchange of data-parallel training over a ring or a tree of links",
        (
            Input("payload", "GB", 0.5, 40, "Bytes every device contributes to the exchange."),
            Input("devices", "int", 2, 1024, "Number of devices taking part."),
            Input("bandwidth", "GB/s", 10, 400, "Bandwidth of one link, each way."),
            Input("latency", "microsecond", 1, 30, "Latency of one hop."),
            Input("efficiency", "float", 0.5, 0.95, "Share of the link bandwidth achieved."),
        ),
        (
            Derived(
                "traffic",
                ("ring_traffic",),
                'return ring_traffic(self.payload, self.devices).to("GB")',
                doc="Bytes each device sends in a ring all-reduce.",
            ),
            Derived(
                "ring_time",
                ("ring_time", "effective_bandwidth"),
                "link = effective_bandwidth(self.bandwidth, self.efficiency)\n"
                'return ring_time(self.payload, self.devices, link, self.latency).to("ms")',
            ),
            Derived(
                "tree_time",
                ("tree_time", "effective_bandwidth"),
                "link = effective_bandwidth(self.bandwidth, self.efficiency)\n"
                'return tree_time(self.payload, self.devices, link, self.latency).to("ms")',
            ),
            Derived(
                "bus_bandwidth",
                (),
                'return (self.payload / self.ring_time).to("GB/s")',
                needs=("ring_time",),
            ),
            Derived(
                "tree_over_ring",
                (),
                "return float(self.tree_time / self.ring_time)",
                needs=("ring_time", "tree_time"),
                annotation="float",
            ),
        ),
    ),
    Family(
        "Carbon",
        "the energy a fleet draws over a run and the operational carbon it emits",
        (
            Input("power", "kW", 0.3, 12, "Power drawn by one device under load."),
            Input("devices", "int", 8, 4096, "Number of devices running."),
            Input("duration", "hour", 1, 2000, "Length of the run."),
            Input("intensity", "kg/kWh", 0.02, 0.8, "Carbon intensity of the grid."),
            Input("pue", "float", 1.05, 1.6, "Power usage effectiveness of the site."),
        ),
        (
            Derived(
                "energy",
                ("energy_used",),
                "return energy_used(self.power * self.devices, self.duration) * self.pue",
                doc="Energy drawn from the grid, facility overhead included.",
            ),
            Derived(
                "carbon",
                ("operational_carbon",),
                "return operational_carbon(\n"
                "    self.power * self.devices, self.duration, self.intensity, self.pue\n"
                ')\n',
            ),
            Derived(
                "carbon_per_device",
                (),
                'return (self.carbon / self.devices).to("kg")',
                needs=("carbon",),
            ),
            Derived(
                "average_power",
                (),
                'return (self.energy / self.duration).to("kW")',
                needs=("energy",),
            ),
        ),
    ),
    Family(
        "Compute",
        "the time a training run takes on a number of accelerators",
        (
            Input("operations", "EFLOP", 1, 5e5, "Floating-point operations of the whole run."),
            Input("peak_rate", "TFLOP/s", 50, 2000, "Peak rate of one device."),
            Input("utilisation", "float", 0.2, 0.6, "Share of the peak rate achieved."),
            Input("devices", "int", 8, 16384, "Number of devices."),
            Input("parallel_fraction", "float", 0.9, 0.9999, "Share of the work that scales."),
        ),
        (
            Derived(
                "run_time",
                ("compute_time",),
                "rate = self.peak_rate * self.devices\n"
                'return compute_time(self.operations, rate, self.utilisation).to("day")',
            ),
            Derived(
                "speedup",
                ("amdahl_speedup",),
                "return amdahl_speedup(self.parallel_fraction, self.devices)",
                annotation="float",
                doc="Speed-up over one device by Amdahl's law.",
            ),
            Derived(
                "scaled_run_time",
                ("compute_time", "scaled_time"),
                "single = compute_time(self.operations, self.peak_rate, self.utilisation)\n"
                'return scaled_time(single, self.parallel_fraction, self.devices).to("day")',
            ),
            Derived(
                "device_hours",
                (),
                'return (self.run_time * self.devices).to("hour")',
                needs=("run_time",),
            ),
        ),
    ),
    Family(
        "Memory",
        "the memory a model's weights and optimizer state take on each device",
        (
            Input("parameters", "float", 1e8, 4e11, "Number of model parameters."),
            Input("bytes_per_parameter", "byte", 2, 18, "Bytes kept per parameter."),
            Input("overhead", "float", 0.05, 0.4, "Extra share for buffers and fragmentation."),
            Input("devices", "int", 1, 512, "Devices the state is sharded over."),
            Input("bandwidth", "GB/s", 1, 60, "Read bandwidth of the checkpoint store."),
        ),
        (
            Derived(
                "footprint",
                ("memory_footprint",),
                "return memory_footprint(self.parameters, self.bytes_per_parameter, self.overhead)",
            ),
            Derived(
                "per_device",
                ("memory_footprint", "shard_size"),
                "total = memory_footprint(self.parameters, self.bytes_per_parameter, "
                "self.overhead)\nreturn shard_size(total, self.devices)",
            ),
            Derived(
                "load_time",
                ("transfer_time",),
                'return transfer_time(self.per_device, self.bandwidth).to("s")',
                needs=("per_device",),
            ),
        ),
    ),
    Family(
        "Checkpoint",
        "the failures a long run meets and the time its checkpoints cost",
        (
            Input("devices", "int", 64, 32768, "Number of devices in the job."),
            Input("mtbf", "hour", 5000, 200000, "Mean time between failures of one device."),
            Input("duration", "hour", 24, 2000, "Length of the run."),
            Input("write_time", "minute", 0.5, 15, "Time to write one checkpoint."),
            Input("restart", "minute", 5, 60, "Time to restart after a failure."),
        ),
        (
            Derived(
                "failures",
                ("failures_expected",),
                "return failures_expected(self.devices, self.mtbf, self.duration)",
                annotation="float",
            ),
            Derived(
                "interval",
                ("checkpoint_interval",),
                "job_mtbf = self.mtbf / self.devices\n"
                "return checkpoint_interval(self.write_time, job_mtbf)",
                doc="Young's checkpoint interval for the whole job.",
            ),
            Derived(
                "lost_time",
                ("checkpoint_interval", "lost_hours"),
                "every = checkpoint_interval(self.write_time, self.mtbf / self.devices)\n"
                "return lost_hours(\n"
                "    self.devices, self.mtbf, self.duration, self.write_time, every, "
                "self.restart\n)",
            ),
            Derived(
                "goodput",
                (),
                "return float(1 - self.lost_time / self.duration)",
                needs=("lost_time",),
                annotation="float",
            ),
        ),
    ),
    Family(
        "Serving",
        "the queue in front of a pool of model servers",
        (
            Input("arrival_rate", "1/s", 5, 2000, "Requests arriving each second."),
            Input("service_time", "ms", 5, 400, "Time one server spends on a request."),
            Input("servers", "int", 2, 400, "Number of servers in the pool."),
        ),
        (
            Derived(
                "load",
                ("utilisation_of",),
                "return utilisation_of(self.arrival_rate / self.servers, self.service_time)",
                annotation="float",
            ),
            Derived(
                "wait",
                ("mean_wait",),
                "per_server = self.arrival_rate / self.servers\n"
                'return mean_wait(per_server, self.service_time).to("ms")',
                doc="Mean time a request waits before a server takes it.",
            ),
            Derived(
                "in_flight",
                ("in_flight",),
                "return in_flight(self.arrival_rate, self.service_time + self.wait)",
                needs=("wait",),
                annotation="float",
            ),
        ),
    ),
    Family(
        "Roofline",
        "the time one kernel takes, bound by compute or by memory bandwidth",
        (
            Input("operations", "GFLOP", 1, 5000, "Floating-point operations of the kernel."),
            Input("size", "GB", 0.01, 40, "Bytes the kernel reads and writes."),
            Input("peak_rate", "TFLOP/s", 50, 2000, "Peak rate of the device."),
            Input("bandwidth", "GB/s", 500, 8000, "Memory bandwidth of the device."),
        ),
        (
            Derived(
                "intensity",
                ("arithmetic_intensity",),
                'return arithmetic_intensity(self.operations, self.size).to("FLOP/byte")',
            ),
            Derived(
                "attainable_rate",
                ("roofline_rate", "arithmetic_intensity"),
                "intensity = arithmetic_intensity(self.operations, self.size)\n"
                'return roofline_rate(self.peak_rate, self.bandwidth, intensity).to("TFLOP/s")',
            ),
            Derived(
                "kernel_time",
                ("roofline_time",),
                "return roofline_time(\n"
                "    self.operations, self.size, self.peak_rate, self.bandwidth\n"
                ').to("ms")',
            ),
        ),
    ),
)

HELPERS = '''"""Calculations the scenario models share."""

import math

from .units import ureg


def transfer_time(size, bandwidth):
    """Time to move ``size`` at ``bandwidth``."""
    return (size / bandwidth).to("s")


def ring_traffic(size, devices):
    return 2 * (devices - 1) / devices * size


def ring_time(size, devices, bandwidth, latency):
    steps = 2 * (devices - 1)
    return transfer_time(ring_traffic(size, devices), bandwidth) + steps * latency


def tree_time(size, devices, bandwidth, latency):
    depth = math.ceil(math.log2(max(devices, 2)))
    return 2 * depth * (latency + transfer_time(size, bandwidth))


def effective_bandwidth(bandwidth, efficiency):
    return bandwidth * efficiency


def energy_used(power, duration):
    """Energy drawn at ``power`` for ``duration``, in kWh."""
    return (power * duration).to("kWh")


def carbon_mass(energy, intensity):
    return (energy * intensity).to("kg")


def operational_carbon(power, duration, intensity, pue):
    return carbon_mass(energy_used(power, duration) * pue, intensity).to("t")


def amdahl_speedup(parallel_fraction, devices):
    return 1 / ((1 - parallel_fraction) + parallel_fraction / devices)


def compute_time(operations, rate, utilisation):
    return (operations / (rate * utilisation)).to("s")


def scaled_time(duration, parallel_fraction, devices):
    return (duration / amdahl_speedup(parallel_fraction, devices)).to("hour")


def memory_footprint(parameters, bytes_per_parameter, overhead):
    return (parameters * bytes_per_parameter * (1 + overhead)).to("GB")


def shard_size(size, devices):
    return (size / devices).to("GB")


def failures_expected(devices, mtbf, duration):
    return float(devices * duration / mtbf)


def checkpoint_interval(write_time, mtbf):
    """Young's first-order optimum: the square root of 2 x write time x MTBF."""
    return ((2 * write_time * mtbf) ** 0.5).to("minute")


def lost_hours(devices, mtbf, duration, write_time, interval, restart):
    writing = duration / interval * write_time
    rework = failures_expected(devices, mtbf, duration) * (interval / 2 + restart)
    return (writing + rework).to("hour")


def utilisation_of(arrival_rate, service_time):
    return float(arrival_rate * service_time)


def mean_wait(arrival_rate, service_time):
    load = min(utilisation_of(arrival_rate, service_time), 0.95)
    return service_time * load / (1 - load)


def in_flight(arrival_rate, time_in_system):
    """Little's law: requests in the system at once."""
    return float(arrival_rate * time_in_system)


def arithmetic_intensity(operations, size):
    return operations / size


def roofline_rate(peak_rate, bandwidth, intensity):
    return min(peak_rate, (bandwidth * intensity).to(peak_rate.units))


def roofline_time(operations, size, peak_rate, bandwidth):
    rate = roofline_rate(peak_rate, bandwidth, arithmetic_intensity(operations, size))
    return (operations / rate).to("s")
'''

UNITS = '''"""The pint registry every model and helper uses."""

import pint

ureg = pint.UnitRegistry()
ureg.define("FLOP = [computation]")
Q_ = ureg.Quantity
'''

LEGACY = '''"""Scenarios kept for old entries of the registry; not part of the reference."""

from pydantic import BaseModel, ConfigDict


class LegacyThroughput(BaseModel):
    """Requests a server handled, as the old reports counted them."""

    model_config = ConfigDict(frozen=True)

    requests: int
    seconds: float

    @property
    def rate(self):
        return self.requests / self.seconds
'''

PLACES = (
    *("Edge", "Cloud", "Campus", "Regional", "Hyperscale", "Research", "Startup"),
    *("Sovereign", "Burst", "Spot", "Reserved", "Shared", "Dedicated", "Hybrid"),
    *("Nordic", "Coastal", "Desert", "Alpine", "Metro", "Rural", "Orbital"),
)
SUBJECTS = (
    *("Vision", "Speech", "Language", "Recommender", "Protein", "Weather", "Robotics"),
    *("Search", "Translation", "Retrieval", "Ranking", "Video", "Code", "Chat"),
    *("Fraud", "Genomics", "Chemistry", "Maps", "Audio", "Ads", "Finance"),
)
SIZES = ("Small", "Base", "Large", "Peak", "Lean", "Spare", "Dense", "Wide")
CONTEXTS = (
    "a team planning next quarter's capacity",
    "a procurement review comparing two offers",
    "a reliability review after an incident",
    "the yearly sustainability report",
    "a research group sizing its first cluster",
    "an operator choosing between two regions",
    "a product team setting a latency budget",
)
REMARKS = (
    "The figures are first-order estimates; they leave out contention and stragglers.",
    "Inputs come from the vendor's data sheet unless the entry says otherwise.",
    "Numbers were checked against one measured run and agreed within a few percent.",
    "The model assumes a steady state; warm-up and tear-down are not counted.",
    "Use it to compare options, not to predict a bill.",
    "Every input is stated per device unless its description says otherwise.",
    "The estimate is deliberately simple so that reviewers can redo it by hand.",
)


@dataclass(frozen=True)
class ModelClass:
    name: str
    family: Family
    derived: tuple[Derived, ...]


def _choose_derived(rng: random.Random, family: Family) -> tuple[Derived, ...]:
    """Two to four of the family's derived attributes, with those they read."""
    by_name = {d.name: d for d in family.derived}
    count = min(len(family.derived), rng.choice((2, 2, 2, 3, 3, 3)))
    chosen = set(d.name for d in rng.sample(family.derived, count))
    for name in list(chosen):
        chosen.update(by_name[name].needs)
    return tuple(d for d in family.derived if d.name in chosen)


def _class_names(rng: random.Random, count: int) -> list[str]:
    names = [f"{p}{s}" for p in PLACES for s in SUBJECTS]
    rng.shuffle(names)
    return [
        names[i % len(names)] + ("" if i < len(names) else str(i // len(names) + 1))
        for i in range(count)
    ]


def _docstring(rng: random.Random, cls: ModelClass) -> str:
    summary = f"{cls.name} {cls.family.topic.lower()} estimate."
    body = f"It covers {cls.family.prose}, written for {rng.choice(CONTEXTS)}. " + " ".join(
        rng.sample(REMARKS, rng.randint(0, 2))
    )
    lines = [summary, "", *textwrap.wrap(body, 72)]
    if rng.random() < 0.15:
        lines += ["", *textwrap.wrap(rng.choice(REMARKS), 72)]
    return "\n".join(f"    {line}" if line else "" for line in lines).lstrip()


def _property(rng: random.Random, derived: Derived, deep: Deepening | None = None) -> str:
    returns = f" -> {derived.annotation}" if rng.random() < 0.6 else ""
    lines = [f"def {derived.name}(self){returns}:"]
    if rng.random() < PROPERTY_DOCSTRING_SHARE:
        doc = derived.doc or f"{derived.name.replace('_', ' ').capitalize()} of the scenario."
        lines.append(f'    """{doc}"""')
    if derived.helpers:
        lines.append(f"    from .helpers import {', '.join(derived.helpers)}")
        if "\n" in derived.body.strip():
            lines.append("")
    lines += [f"    {line}" if line else "" for line in derived.body.rstrip().split("\n")]
    if deep is not None:
        lines, called = deep_reach.deepen_property(deep.rng, lines)
        deep.called.setdefault(deep.current, []).extend(called)
    return "\n    @property\n" + "".join(f"    {line}\n" if line else "\n" for line in lines)


@dataclass
class Deepening:
    """The deep-reach shape's own random numbers (the shallow shape's stay as they were)
    and the top-layer helpers each class and its entries call."""

    rng: random.Random
    graph: deep_reach.CallGraph
    called: dict[str, list[str]]
    current: str = ""


def _model_source(rng: random.Random, cls: ModelClass, deep: Deepening | None = None) -> str:
    fields = []
    for item in cls.family.inputs:
        if rng.random() < 0.85:
            declared = f'Field(description="{item.description}")'
        else:
            declared = f"Field({item.value(rng)})"
        fields.append(f"    {item.name}: {item.annotation} = {declared}\n")
    if deep is not None:
        deep.current = f"{cls.name}{cls.family.topic}"
    properties = "".join(_property(rng, d, deep) for d in cls.derived)
    return (
        f"\n\nclass {cls.name}{cls.family.topic}(ScenarioModel):\n"
        f'    """{_docstring(rng, cls)}\n    """\n\n'
        f"{''.join(fields)}{properties}"
    )


MODELS_HEADER = '''"""Scenario models

Every scenario the capacity team maintains, one pydantic model each.
"""

from pint import Quantity
from pydantic import BaseModel, ConfigDict, Field

from .units import Q_


class ScenarioModel(BaseModel):
    """Base of every scenario: frozen, and accepting pint Quantities as inputs."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
'''


@dataclass(frozen=True)
class Library:
    root: Path
    """The folder to put on ``sys.path``."""
    classes: list[str]
    entries: int
    properties: int
    lines: int
    edit: tuple[str, str]
    """An edit of one property body of one class: text before, text after."""
    shape: str = "shallow"
    helper_edit: tuple[str, str, str] | None = None
    """The deep shape's edit of one helper: its file (under ``root``), text before, after."""
    helper_reach: tuple[str, int] | None = None
    """That helper, and how many classes reach it (from their bodies or their entries)."""
    helper_classes: tuple[str, ...] = ()
    """The classes that reach it."""


HELPER_SHARE = 0.10
"""The share of classes the edited helper of the deep shape is reached from."""


def write_library(
    root: Path, classes: int = 600, seed: int = 14, shape: str = "shallow"
) -> Library:
    """Write ``root/pkg``: the models, helpers, units, legacy and registry modules (and,
    for ``shape="deep"``, the physics and constants packages)."""
    rng = random.Random(seed)
    deep = None
    if shape == "deep":
        graph = deep_reach.write_physics(root / PACKAGE, seed)
        deep = Deepening(random.Random(seed + 1), graph, {})
    folder = root / PACKAGE
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(f'"""Capacity scenarios ({classes} models)."""\n')
    (folder / "units.py").write_text(UNITS)
    (folder / "helpers.py").write_text(HELPERS)
    (folder / "legacy.py").write_text(LEGACY)
    names = _class_names(rng, classes)
    models = [
        ModelClass(name, family, _choose_derived(rng, family))
        for name, family in ((n, rng.choice(FAMILIES)) for n in names)
    ]
    source = MODELS_HEADER + "".join(_model_source(rng, m, deep) for m in models)
    (folder / "models.py").write_text(source)
    registry, count = _registry(rng, models, deep)
    (folder / "registry.py").write_text(registry)
    first = models[0]
    line = next(
        line.strip()
        for line in source.split(f"class {first.name}{first.family.topic}(")[1].split("\n")
        if line.strip().startswith("return ")
    )
    library = Library(
        root=root,
        classes=[f"{m.name}{m.family.topic}" for m in models],
        entries=count,
        properties=sum(len(m.derived) for m in models),
        lines=source.count("\n"),
        edit=(line, line.replace("return ", "return 1 * ", 1)),
        shape=shape,
    )
    if deep is None:
        return library
    helper, reached_from = _helper_reached_by_a_share(deep, len(models))
    reaching = tuple(
        name for name, called in deep.called.items() if helper in deep.graph.reached(called)
    )
    module, name = helper.split(".")
    path = f"{PACKAGE}/physics/{module}.py"
    before = _factor_line(root / path, name)
    return replace(
        library,
        helper_edit=(path, before, before.replace("* 0.01", "* 0.02")),
        helper_reach=(helper, reached_from),
        helper_classes=reaching,
    )


def _helper_reached_by_a_share(deep: Deepening, classes: int) -> tuple[str, int]:
    """The helper reached from the number of classes nearest :data:`HELPER_SHARE` of them."""
    reached_from: dict[str, int] = {}
    for called in deep.called.values():
        for helper in deep.graph.reached(called):
            reached_from[helper] = reached_from.get(helper, 0) + 1
    wanted = HELPER_SHARE * classes
    helper = min(sorted(reached_from), key=lambda h: abs(reached_from[h] - wanted))
    return helper, reached_from[helper]


def _factor_line(path: Path, function: str) -> str:
    """The line of ``function`` in ``path`` that sets its factor (unique in the file)."""
    text = path.read_text()
    body = text[text.index(f"def {function}(") :]
    line = next(line for line in body.split("\n") if "factor = 1 + " in line)
    assert text.count(line) == 1, line
    return line


def _registry(
    rng: random.Random, models: list[ModelClass], deep: Deepening | None = None
) -> tuple[str, int]:
    entries = []
    imports: set[str] = set()
    for model in models:
        copies = 2 if rng.random() < ENTRIES_PER_CLASS - 1 else 1
        for size in rng.sample(SIZES, copies):
            values = ", ".join(f"{i.name}={i.value(rng)}" for i in model.family.inputs)
            entry = f"    {model.name}{size} = {model.name}{model.family.topic}({values})\n"
            if deep is not None:
                entry, imported, called = deep_reach.deepen_entry(deep.rng, entry)
                imports.update(imported)
                deep.called.setdefault(f"{model.name}{model.family.topic}", []).extend(called)
            if rng.random() < 0.3:
                entry += f'    """{model.name} at {size.lower()} scale."""\n'
            entries.append(entry)
    legacy = max(1, len(entries) // LEGACY_SHARE)
    for number in range(legacy):
        entries.insert(
            rng.randrange(len(entries)),
            f"    LegacyReport{number:02d} = LegacyThroughput("
            f"requests={rng.randint(100, 10000)}, seconds={rng.randint(10, 600)})\n",
        )
    text = (
        '"""Named scenarios: the figures our reports quote."""\n\n'
        "from .legacy import LegacyThroughput\nfrom .models import *  # noqa: F403\n"
        + "".join(f"{line}\n" for line in sorted(imports))
        + "from .units import Q_\n\n\nclass Registry:\n"
        '    """Every named scenario, one attribute each."""\n\n' + "".join(entries)
    )
    return text, len(entries)


def write_refgen_docs(docs: Path, theme: str = "furo") -> None:
    write_conf(
        docs,
        f"""
        extensions = ["refgen"]
        refgen_modules = [{MODULE!r}]
        refgen_registry = {REGISTRY!r}
        html_theme = {theme!r}
        """,
    )
    (docs / "index.rst").write_text("Library\n=======\n\n.. toctree::\n\n   reference/index\n")


def write_automodule_docs(docs: Path, theme: str = "furo") -> None:
    """Plain autodoc: one page, ``automodule :members:``."""
    write_conf(
        docs,
        f"""
        extensions = ["sphinx.ext.autodoc"]
        html_theme = {theme!r}
        """,
    )
    (docs / "index.rst").write_text(f"Library\n=======\n\n.. automodule:: {MODULE}\n   :members:\n")


def write_autosummary_docs(docs: Path, theme: str = "furo") -> None:
    """autodoc + autosummary: one page per class (members and undocumented members)."""
    write_conf(
        docs,
        f"""
        extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary"]
        autosummary_generate = True
        autodoc_default_options = {{"members": True, "undoc-members": True}}
        templates_path = ["_templates"]
        html_theme = {theme!r}
        """,
    )
    templates = docs / "_templates" / "autosummary"
    templates.mkdir(parents=True, exist_ok=True)
    (templates / "module.rst").write_text(
        "{{ fullname | escape | underline }}\n\n.. automodule:: {{ fullname }}\n   :no-members:\n\n"
        ".. autosummary::\n   :toctree:\n\n{% for item in classes %}   {{ item }}\n{% endfor %}\n"
    )
    (templates / "class.rst").write_text(
        "{{ objname | escape | underline }}\n\n.. currentmodule:: {{ module }}\n\n"
        ".. autoclass:: {{ objname }}\n   :members:\n   :undoc-members:\n"
    )
    (docs / "index.rst").write_text(
        f"Library\n=======\n\n.. autosummary::\n   :toctree: api\n\n   {MODULE}\n"
    )


def write_pyproject(root: Path) -> None:
    """``[tool.refgen]`` for the command line, run from ``root``."""
    (root / "pyproject.toml").write_text(
        f'[tool.refgen]\nmodules = ["{MODULE}"]\nregistry = "{REGISTRY}"\n'
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--size", type=int, default=600, help="number of scenario classes")
    parser.add_argument("--shape", choices=("shallow", "deep"), default="shallow")
    args = parser.parse_args()
    library = write_library(args.root / "src", args.size, shape=args.shape)
    write_pyproject(args.root / "src")
    write_refgen_docs(args.root / "docs")
    print(
        f"{len(library.classes)} classes, {library.properties} properties, "
        f"{library.entries} registry entries, {library.lines} lines in {MODULE}"
    )
