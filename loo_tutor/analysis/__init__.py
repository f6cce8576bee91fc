"""Play beyond the rules: the exact solver, hints, bots, the estimator of
hidden-card decisions and the strategy lab's simulations.

Imports the engine and records.
"""
