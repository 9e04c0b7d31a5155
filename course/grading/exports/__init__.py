"""What leaves the course for other systems: the gradebook's CSVs, the per-task table and the
Canvas import, each written whole (``atomic_write``)."""
