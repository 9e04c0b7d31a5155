"""The class server's grading service: feedback when a student submits (docs/class-server.md).

``policy`` reads the instructor's rules per assignment; ``inbox`` notices submissions in the
private exchange and copies one into the course folder; ``ledger`` remembers every submission
noticed and when each was graded (the rate limits count from it); ``pages`` writes what a
student's ``nbgrader fetch_feedback`` finds; ``rounds`` grades a round of submissions with the
TA's own ``python -m course grade``; ``grading_step`` splits the service into a watcher under
its own account and a root grading step it asks by names; ``due_notes`` puts the due date in
the released assignment; ``loop`` is the service itself (``python -m course hub service``),
which JupyterHub runs as a managed service (``hub_config``).
"""
