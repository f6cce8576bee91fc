# ruff: noqa: N999 (the stand-in is imported under the name of the package it stands in for)
"""Part of the live pages' stand-in for IPython (see ``IPython/__init__.py``)."""
