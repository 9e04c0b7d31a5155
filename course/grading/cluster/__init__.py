"""Grade a class on a Dask distributed cluster: ``python -m course grade A --cluster ADDRESS``.

Its job: the same grading as the local pool (``batch.grade_one``: intake, the sandboxed kernel,
the judge's sandbox, the budget, the retry and the second opinion), done on other machines,
with the TA's process alone writing the course root and the gradebook.

* ``material``: what a worker holds. The TA's process packs, once per assignment, the
  assignment's *grading material*: the release's files, the non-notebook files of ``source/``
  that nbgrader copies over a submission, the course's ``nbgrader_config.py`` and a new SQLite
  file holding only the assignment's definition as nbgrader stored it at release (its cells,
  with the hidden tests the judge runs; no solution, since nbgrader saves the cells after
  removing them; no student, no score). Each task then carries one submission's files as bytes.
  A worker never receives ``source/`` notebooks, the course's gradebook or another student's
  work.
* ``worker``: runs on each Dask worker. It refuses every task when it cannot sandbox (no
  bwrap), builds a throwaway course root per task in its own folder, and grades it in a
  long-lived grading process of its own (killed, with its kernels, past the budget). It hands
  back the outcome, the autograded folder, the feedback folder, the student's log and the
  scores nbgrader put in the throwaway gradebook.
* ``client``: the TA's side. It sends the tasks, and for each result, once, writes the files
  into the course root, the scores into the gradebook (the rule nbgrader's ``SaveAutoGrades``
  applies, so manual grades are kept) and the outcome into ``class_record``, printing a
  progress line; then ``cycle.run_cycle`` writes the exports and the table as it does locally.
* ``certs``: the course's own certificate authority and the certificates of the scheduler,
  the workers and the TA's client (``python -m course cluster-certs DIR``), and the
  ``distributed.security.Security`` each side uses: nothing talks without TLS.
* ``local``: start a scheduler and workers as processes of this machine (tests, bench).

See docs/cluster.md for running one on two machines, on Slurm and on Kubernetes.
"""
