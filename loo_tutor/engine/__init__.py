"""The rules engine: cards, rules and variant profiles, the deal machines of
three-card Loo and Pam Loo, legality, sessions and one player's view.

The bottom layer: it imports nothing else of the package.
"""
