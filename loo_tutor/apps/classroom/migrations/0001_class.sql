-- Version 1: one class per store, as loo-tutor classroom kept it in class.sqlite3
-- before a store held several classes. AUTO_ID is the only word each engine
-- reads for itself: an integer key the database numbers, in increasing order.
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE students (
    id AUTO_ID,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    joined TEXT NOT NULL
);
CREATE TABLE sessions (
    secret TEXT PRIMARY KEY,
    student INTEGER NOT NULL REFERENCES students(id)
);
CREATE TABLE answers (
    id AUTO_ID,
    student INTEGER NOT NULL REFERENCES students(id),
    check_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    seed INTEGER NOT NULL,
    answer TEXT NOT NULL,
    verdict TEXT NOT NULL,
    rule TEXT NOT NULL,
    message TEXT NOT NULL,
    rule_name TEXT NOT NULL,
    expected TEXT NOT NULL,
    time TEXT NOT NULL,
    UNIQUE (student, check_id)
);
CREATE INDEX answers_by_student ON answers (student, kind, id);
