"""``python -m loo_tutor`` runs the ``loo-tutor`` command."""

from .apps.cli import main

raise SystemExit(main())
