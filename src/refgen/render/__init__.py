"""Rendering: the typed page model built from analysis and evaluation results.

Rendering computes nothing: every value it shows was computed by
:mod:`refgen.evaluate`. It imports neither Sphinx nor docutils.
"""
