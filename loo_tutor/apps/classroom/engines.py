"""Which engine keeps a class: a folder is SQLite's (:class:`~.store.ClassBook`), a
``postgresql://`` address PostgreSQL's (:class:`~.postgres.PostgresBook`).

Both are the same store (:class:`~.store.ClassStore`): the same migrations, the
same queries. The server (``loo-tutor classroom --data``), ``loo-tutor mark
--class`` and ``--assignment`` ask this module for the class, never an engine.
"""

from __future__ import annotations

from pathlib import Path

from .store import DEFAULT_CLASS, LONGEST_NAME, ClassBook, ClassBookError, ClassStore


def is_address(where: str | Path) -> bool:
    """Whether ``where`` (``--data``, ``mark --class``) is a PostgreSQL address, not a folder."""
    return str(where).startswith(("postgresql://", "postgres://"))


def class_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a class of a store (``--class-name``), or ``None``."""
    if not name or len(name) > LONGEST_NAME or not all(
            ch.isascii() and (ch.isalnum() or ch in "-_.") for ch in name):
        return (f"a class's name is 1 to {LONGEST_NAME} letters, digits, '-', '_' or '.', "
                f"not {name!r}")
    return None


def files_folder(where: str | Path, class_name: str = DEFAULT_CLASS) -> Path:
    """The local folder of the class's files (its assignment): the class folder itself for
    SQLite; for a class kept in PostgreSQL, ``loo-class-NAME`` in the current folder."""
    if is_address(where):
        return Path.cwd() / f"loo-class-{class_name}"
    return Path(where)


def open_store(where: str | Path, create: bool = True,
               class_name: str = DEFAULT_CLASS) -> ClassStore:
    """The class ``class_name`` of the store at ``where``: a folder (SQLite, :class:`ClassBook`)
    or a ``postgresql://`` address (:class:`~loo_tutor.apps.classroom.postgres.PostgresBook`,
    whose class's files are in :func:`files_folder`).

    Raises:
        ClassBookError: as the engine's book does, or ``class_name`` cannot name a class.
    """
    problem = class_name_problem(class_name)
    if problem:
        raise ClassBookError(problem)
    if is_address(where):
        try:
            from .postgres import PostgresBook
        except ImportError as exc:  # psycopg missing
            raise ClassBookError("a class kept in PostgreSQL needs psycopg; install it with: "
                                 "pip install 'loo-tutor[postgresql]'") from exc
        return PostgresBook(str(where), create, class_name, files_folder(where, class_name))
    return ClassBook(Path(where), create, class_name)
