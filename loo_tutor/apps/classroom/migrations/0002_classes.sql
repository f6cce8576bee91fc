-- Version 2: several classes in one store. Every table of version 1 is copied
-- into one that names the class of each row (the rows of version 1 are the
-- class 'class', the name a server uses when it is given none), then dropped,
-- children first. A student's id is the store's, not the class's, so sessions,
-- answers and rejoin codes reach their class through their student.
CREATE TABLE IF NOT EXISTS rejoin (
    student INTEGER PRIMARY KEY REFERENCES students(id),
    code TEXT NOT NULL
);
CREATE TABLE class_settings (
    class TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (class, key)
);
INSERT INTO class_settings (class, key, value) SELECT 'class', key, value FROM settings;
CREATE TABLE class_students (
    id AUTO_ID,
    class TEXT NOT NULL,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    joined TEXT NOT NULL,
    UNIQUE (class, folded)
);
INSERT INTO class_students (id, class, name, folded, joined)
    SELECT id, 'class', name, folded, joined FROM students;
CREATE TABLE class_sessions (
    secret TEXT PRIMARY KEY,
    student INTEGER NOT NULL REFERENCES class_students(id)
);
INSERT INTO class_sessions (secret, student) SELECT secret, student FROM sessions;
CREATE TABLE class_answers (
    id AUTO_ID,
    student INTEGER NOT NULL REFERENCES class_students(id),
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
INSERT INTO class_answers (id, student, check_id, kind, seed, answer, verdict, rule, message,
                           rule_name, expected, time)
    SELECT id, student, check_id, kind, seed, answer, verdict, rule, message, rule_name,
           expected, time FROM answers;
CREATE INDEX class_answers_by_student ON class_answers (student, kind, id);
CREATE TABLE class_rejoin (
    student INTEGER PRIMARY KEY REFERENCES class_students(id),
    code TEXT NOT NULL
);
INSERT INTO class_rejoin (student, code) SELECT student, code FROM rejoin;
DROP TABLE rejoin;
DROP TABLE answers;
DROP TABLE sessions;
DROP TABLE students;
DROP TABLE settings;
