"""What the tutor says: narration of deals, the comparison of two rule sets,
the exercises and their answers.

Imports the engine, records and analysis.
"""
