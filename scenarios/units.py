"""The one pint unit registry shared by every scenario and helper.

Quantities from different registries cannot be combined, so everything in
:mod:`scenarios` builds its units from :data:`ureg`.
"""

from __future__ import annotations

import pint

ureg: pint.UnitRegistry = pint.UnitRegistry()
"""The package's unit registry."""

Quantity = ureg.Quantity
"""Quantity class bound to :data:`ureg`; use it in annotations and to build values."""

ureg.formatter.default_format = "~P"
