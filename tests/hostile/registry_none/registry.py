"""The registry."""

Registry = None
