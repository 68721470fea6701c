"""The registry."""


class Registry:
    """Named scenarios: none yet."""
