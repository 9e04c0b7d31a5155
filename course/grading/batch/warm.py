"""What each grading worker would otherwise do on its first student, done once in the workers'
fork server (``batch.fork_server``, after ``workers.PRELOAD``), so that every worker is forked with it
done: the feedback page of the assignment's release rendered (its
templates compiled, the lessons' markdown and code rendered into the page's caches), the
schemas a worker checks notebooks with (nbformat's newest, relaxed for nbconvert and strict
for new outputs) compiled, and nbgrader's gradebook
mappers configured.

The course and assignment are the fork server's arguments. Nothing here opens a gradebook, starts a thread or reads a student's work.
"""
from pathlib import Path


def warm(root: Path, assignment: str) -> None:
    """Do for ``assignment`` of the course at ``root`` what a worker's first student would."""
    import nbformat
    from nbgrader.converters import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory
    from sqlalchemy.orm import configure_mappers

    from course.grading.course_dir import load_course_config, notebooks

    config = load_course_config(root)  # kept nowhere: each worker loads its own
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
    configure_mappers()

