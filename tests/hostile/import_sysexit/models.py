"""Scenarios whose module exits while it is imported"""

raise SystemExit(0)  # <- refgen
