"""Evaluation: registry entries instantiated, values computed, examples run; failures as data.

This is the one stage that runs scenario code on purpose. Like analysis, it
imports neither Sphinx nor docutils.
"""
