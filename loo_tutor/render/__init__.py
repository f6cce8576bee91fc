"""Drawing as HTML: cards, tables, ledgers, steps and rule links, the charts
and the printed worksheets.

Imports every layer below it, never the widgets or the apps.
"""
