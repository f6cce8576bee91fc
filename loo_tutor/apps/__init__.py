"""The programs: the ``loo-tutor`` command line and the classroom server.

The top layer: nothing in the package imports it.
"""
