"""``python -m refgen``: the same command line as the ``refgen`` console script."""

from __future__ import annotations

import sys

from refgen.cli import main

sys.exit(main())
