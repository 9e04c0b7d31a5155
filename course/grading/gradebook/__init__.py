"""The gradebook beside nbgrader's: made ready once before several graders share it
(SQLite or PostgreSQL), and every student's grading outcome kept in it, for the exports
and the report to read."""
