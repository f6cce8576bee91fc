"""``loo-tutor classroom``: the book's notebooks served as apps to a class (Voila).

One job per module (ARCHITECTURE.md has the table):

* :mod:`.server`: the command, from its arguments to the running server, and
  what it says; :mod:`.app`: the Voila application with the class's routes;
* :mod:`.adapter`: every reach past the public API of Voila, Jupyter Server
  and Tornado, each checked against the pinned versions;
* :mod:`.handlers`: the HTTP handlers; :mod:`.identity`: who is asking;
  :mod:`.doors`: limits and checks; :mod:`.pages`: the classroom's own pages;
* :mod:`.store`: the class store; :mod:`.admission`: how many at once;
  :mod:`.kernels` and :mod:`.kernel`: the kernels; :mod:`.notebooks`: what is
  served and how it is listed.

Nothing here imports Voila: the kernels are started as
``python -m loo_tutor.apps.classroom.kernel`` and import this package first.
"""
