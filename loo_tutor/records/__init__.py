"""Deal records: reading their text safely, replaying them with the engine,
the result of a check, and the records shipped with the package.

Imports only the engine.
"""
