"""The lessons' plumbing: what the explorers share and no notebook imports.

``chunks`` (what a chunk is: its text, body, place, and the code fences of a document),
``strategies`` (the three chunkers the explorers run side by side), ``palette`` (the colours),
``lanes`` (one strategy's chunks drawn as a lane), and the widget plumbing: ``wiring``, ``png``,
``lazy``, ``grading_mode``; and ``failed_case``, the message a failed check raises (the checks
write it, the grader's report reads it back).
"""
