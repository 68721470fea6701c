"""The Sphinx layer: the extension, its directives and roles, and incremental bookkeeping.

The only subpackage that imports Sphinx or docutils.
"""
