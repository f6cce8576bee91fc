"""``python -m loo_tutor`` runs the ``loo-tutor`` command."""

from .cli import main

raise SystemExit(main())
