# -*- coding: latin-1 -*-
"""Die benannten Größen."""

from source_encodings.models import Größe


class Registry:
    """Benannte Szenarien."""

    Eins = Größe(maß=2.0)
    """Ein Maß von zwei µm."""
