"""``loo-tutor classroom``: the book's notebooks served as apps to a class (Voila).

One job per module; :mod:`.server` runs the server and says what it does.
Nothing here imports Voila: the kernels are started as
``python -m loo_tutor.apps.classroom.kernel`` and import this package first.
"""
