"""Analysis: scenario classes, helpers and the registry read into a plain, typed data model.

Nothing here imports Sphinx or docutils, and nothing evaluates a scenario's
attributes: source files are read with :mod:`ast`, docstrings are split into
sections (:mod:`~refgen.analysis.docstrings`), equations are taken from
property bodies (:mod:`~refgen.analysis.equations`). The records
(:mod:`~refgen.analysis.model`) are memoised by an
:class:`~refgen.analysis.cache.AnalysisCache` that the Project owns.
"""
