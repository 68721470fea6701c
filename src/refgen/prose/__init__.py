"""The prose audit: figures typed by hand in prose, checked against the registry's values.

:mod:`~refgen.prose.passages` holds prose as the audit reads it and splits its
sentences; :mod:`~refgen.prose.figures` finds the figures a sentence types;
:mod:`~refgen.prose.audit` decides which quote a registry value and whether they
agree; :mod:`~refgen.prose.lookup` reads the values from a Project;
:mod:`~refgen.prose.formats` reads Markdown, Quarto, reST, LaTeX and text files,
and :mod:`~refgen.prose.docstrings` the docstrings the reference renders. Nothing
here imports Sphinx or docutils: the build hands in passages read from its
doctrees (:mod:`refgen.sphinx.prose_audit`), ``refgen check --prose`` passages
read from files.
"""

from refgen.prose.audit import Quoted, audit
from refgen.prose.passages import Passage

__all__ = ["Passage", "Quoted", "audit"]
