
"""Part of the live pages' stand-in for IPython (see ``IPython/__init__.py``)."""
