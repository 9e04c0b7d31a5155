"""What each grading worker would otherwise do on its first student, done once in the workers'
fork server (the last module of ``workers.PRELOAD``), so that every worker is forked with it
done: the course's settings loaded, the feedback page of the assignment's release rendered (its
templates compiled, the lessons' markdown and code rendered into the page's caches), the
schemas a worker checks notebooks with (nbformat's newest, relaxed for nbconvert and strict
for new outputs) and nbgrader's cell-metadata check compiled, and nbgrader's gradebook
mappers configured.

The course and assignment come from ``COURSE_WARM_FOR`` in the fork server's environment (set by
``Workers.started`` only while it starts the fork server). Nothing here opens a gradebook,
starts a thread or reads a student's work; a warm-up that fails leaves the worker to do it on
its first student, as before.
"""
import logging
import os
from pathlib import Path

from course.grading.batch.workers import COURSE_WARM_FOR

log = logging.getLogger(__name__)


def warm(root: Path, assignment: str) -> None:
    import nbformat
    from nbgrader.converters import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory
    from sqlalchemy.orm import configure_mappers

    from course.grading.course_dir import course_config, notebooks
    from course.grading.nbgrader_hooks.preprocessors import SchemaOnceValidator

    config = course_config(root)
    converter = GenerateFeedback(coursedir=CourseDirectory(config=config), config=config)
    exporter = converter.exporter_class(parent=converter, config=converter.config)
    for path in notebooks(root, assignment, "release"):
        release = nbformat.read(path, as_version=4)
        for cell in release.cells:  # scored, as nbgrader's GetGrades leaves a graded copy
            grading = cell.metadata.get("nbgrader", {})
            if grading.get("grade") or grading.get("task"):
                grading.update(score=0, points=grading.get("points", 0))
        exporter.from_notebook_node(release, resources={"nbgrader": {
            "notebook": path.stem, "score": 0, "max_score": 0, "late_penalty": 0}})
    # Grading gives every cell an id, so each graded notebook is of nbformat's newest minor
    # version: nbconvert checks it with the relaxed schema, nbformat each new output with the
    # strict one.
    for relaxed in (True, False):  # nbformat compiles each once per process
        nbformat.validate(nbformat.v4.new_notebook(), relax_add_props=relaxed)
    SchemaOnceValidator().compile()
    configure_mappers()


if os.environ.get(COURSE_WARM_FOR):
    try:
        _root, _assignment = os.environ[COURSE_WARM_FOR].split("\n", 1)
        warm(Path(_root), _assignment)
    except (Exception, SystemExit) as error:  # the fork server must start whatever happens
        log.debug("the workers' warm-up failed: %s", error)
