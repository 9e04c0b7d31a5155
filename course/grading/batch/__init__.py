"""The batch run: a class graded by N worker processes sharing one gradebook, each student
by nbgrader's autograde through the course's config, retried once when a kernel dies, held
for review when the second opinion disagrees. It hands ``cycle`` one ``Outcome`` per student."""
