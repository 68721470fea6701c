"""Die Größen."""

from names_non_ascii.models import Größe


class Registry:
    """Named scenarios."""

    Klein = Größe(länge=1.0)
    """Eine kleine Größe."""
