"""Build state: the Project of the current build, kept on the Sphinx environment.

The environment is pickled between builds and sent between parallel readers;
the Project pickles as its settings only (its modules and caches are
transient), and a new one is made at every ``builder-inited``.
"""

from __future__ import annotations

from typing import Any

from refgen.project import Project

PROJECT = "refgen_project"
"""Attribute of the environment holding the Project."""


def project_of(env: Any) -> Project:
    """The Project of this build, made when the builder started."""
    project: Project = getattr(env, PROJECT)
    return project


def project_if_any(env: Any) -> Project | None:
    """The Project of this build, or None when planning the pages did not get so far."""
    project: Project | None = getattr(env, PROJECT, None)
    return project


def set_project(env: Any, project: Project) -> None:
    setattr(env, PROJECT, project)
