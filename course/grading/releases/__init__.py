"""What goes to students: the release notebooks regenerated from ``source/`` by nbgrader,
and the students' wheel (``course.lessons`` only)."""
