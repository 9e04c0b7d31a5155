"""The course's nbgrader wiring, in one importable function: ``configure(c, root)``.

``nbgrader_config.py`` (read by every nbgrader command run in the course folder, and by
``course_dir.course_config``) calls it, so plain ``nbgrader autograde`` and ``python -m course
grade`` get the same settings; reading this function is reading how grading is put together:
which steps run, in which order, with which of the course's hooks (``nbgrader_hooks``,
``feedback``, ``intake``, ``sandbox``). The course's own settings (``COURSE_*``) are the fields
of ``settings.CourseSettings``; listed in ``docs/settings.md``.

Loading touches nothing outside the config but two idempotent patches of nbgrader classes
(``refuse_links_in_nbgrader``, ``feedback_holds_only_pages``), which plain nbgrader needs
armed: no environment variable is set.
"""
from pathlib import Path

from course.grading.course_dir import COURSE_ID
from course.grading.settings import CourseSettings

A5 = "05-own-docs-verdict"        # its decision card is the student's own file
SANDBOX_KERNEL = "course-sandbox"  # the kernelspec in sandbox/jupyter/kernels


def configure(c, root) -> CourseSettings:
    """Fill the nbgrader config ``c`` for the course at ``root``; returns its settings."""
    from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
    from nbgrader.preprocessors import (
        AssignLatePenalties, CheckCellMetadata, ClearHiddenTests, ClearMarkScheme, ClearOutput,
        ClearSolutions, ComputeChecksums, IgnorePattern, IncludeHeaderFooter,
        InstantiateTests, LimitOutput, LockCells, OverwriteKernelspec, SaveCells,
    )

    from course.grading.feedback.export import (
        TEMPLATE, TEMPLATES_DIR, FeedbackExporter, feedback_holds_only_pages, nbgrader_templates)
    from course.grading.feedback.mark_schemes import ClearMarkSchemes
    from course.grading.feedback.safe_html import StaticOutputs
    from course.grading.feedback.summary import FeedbackSummary
    from course.grading.feedback.task_lists import TaskListsAsText
    from course.grading.intake.handed_in import refuse_links_in_nbgrader
    from course.grading.nbgrader_hooks.execute import GradingExecute
    from course.grading.nbgrader_hooks.gradebook_steps import GetGradesAtOnce, SaveAutoGradesAtOnce
    from course.grading.nbgrader_hooks.preprocessors import (
        ClearWidgetState, DeduplicateIdsCompletely,
        OverwriteCellsNamingTheCell, StderrIsNotFailure, TracebacksWithoutSource, UpgradeCellIds)

    root = str(Path(root).resolve())
    # Read once: what the config already says (c.CourseSettings...), else COURSE_*, else the
    # defaults; written back whole, so whatever sees this config sees the same values.
    settings = CourseSettings(config=c, root=root)
    for name in settings.trait_names(config=True):
        c.CourseSettings[name] = getattr(settings, name)

    c.CourseDirectory.course_id = COURSE_ID
    c.CourseDirectory.root = root
    # SQLite beside the course by default; a TA team can point this at PostgreSQL instead.
    c.CourseDirectory.db_url = settings.resolved_gradebook_url()
    # The exchange through which assignments are released, fetched, submitted and collected.
    c.Exchange.root = settings.exchange
    # `instructor/` folders in source/ hold reference files (e.g. a filled decision card): never released.
    c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "instructor"]

    # Releases: the usual pipeline, plus no saved widget state.
    c.GenerateAssignment.preprocessors = [
        IncludeHeaderFooter, InstantiateTests, LockCells, ClearSolutions, ClearOutput,
        ClearWidgetState, CheckCellMetadata, ComputeChecksums, SaveCells, ClearHiddenTests,
        ClearMarkScheme, ComputeChecksums, CheckCellMetadata,
    ]

    # Autograding: a deleted grade cell is restored from the source rather than lost, and so is a
    # cell whose type was changed, in any nbformat 4 minor version and whatever its cell ids (a
    # cell that still cannot be restored is named); a warning on stderr does not zero a correct test
    # cell. Test cells are judged in a sandbox of their own, never in the student's kernel nor in the
    # grader's process (course/grading/judge/sandbox.py): the kernel only runs the student's
    # functions on the tests' inputs. nbgrader's gradebook steps read a notebook's rows a query
    # per kind, not per cell, and save its grades in one commit (nbgrader_hooks/gradebook_steps.py).
    c.OverwriteCells.add_missing_cells = True
    # The student's decision card is their work, not a copy of the template to restore.
    c.Autograde.exclude_overwriting = {A5: ["chunking_notes.md"]}
    c.Autograde.sanitize_preprocessors = [
        UpgradeCellIds, ClearOutput, DeduplicateIdsCompletely, OverwriteKernelspec,
        OverwriteCellsNamingTheCell, UpgradeCellIds, CheckCellMetadata,
    ]
    c.Autograde.autograde_preprocessors = [
        GradingExecute, IgnorePattern, ClearMetadataPreprocessor,
        StderrIsNotFailure, LimitOutput, SaveAutoGradesAtOnce, AssignLatePenalties,
        CheckCellMetadata,
    ]
    # Seconds per cell (the slowest correct cell takes well under 1); tests shorten it.
    c.Execute.timeout = settings.cell_timeout
    c.Execute.interrupt_on_timeout = True
    # Seconds a kernel may take to answer at start (the sandbox's answers in about 1); one that does
    # not is killed and the student is "not graded: the kernel did not start". Tests shorten it.
    c.Execute.startup_timeout = settings.startup_timeout
    # (nbgrader's Execute always allows errors, not configurably: a failing cell costs that cell,
    # never the whole notebook.)
    c.Execute.shutdown_kernel = "immediate"  # the notebook has run: no graceful shutdown's wait
    # The notebook is validated once after each pass's steps, not after every step: the same check
    # of what is written, at a third of the cost.
    c.Exporter.optimistic_validation = True
    c.LimitOutput.max_lines = 200
    c.LimitOutput.max_traceback = 40

    # Feedback: no hidden test, no mark scheme, and no traceback quoting a test; only outputs a page without scripts
    # can draw; a summary on top that is also the contents (points per task, failed cases by
    # contract rule, what to reread).
    c.GenerateFeedback.preprocessors = [
        GetGradesAtOnce, ClearHiddenTests, ClearMarkSchemes, TaskListsAsText, TracebacksWithoutSource,
        StaticOutputs, FeedbackSummary, CSSHTMLHeaderPreprocessor,
    ]
    # nbconvert's HTML exporter, with compiled templates kept between students and no second parse
    # of each page (feedback/export.py): a third of the cost of each student's feedback. It cleans
    # every student's markdown and HTML with bleach, and its template (nbgrader's, with the summary
    # as contents) fetches nothing from another machine.
    c.GenerateFeedback.exporter_class = FeedbackExporter
    c.FeedbackExporter.template_name = TEMPLATE
    c.FeedbackExporter.extra_template_basedirs = [str(TEMPLATES_DIR), nbgrader_templates()]
    # feedback/ holds the pages only, never a file the student's kernel wrote while graded.
    feedback_holds_only_pages()

    # A submission holding a symbolic or hard link, a device or a fifo is refused before anything
    # is copied (nbgrader's own copy would follow it), by plain `nbgrader autograde` too.
    refuse_links_in_nbgrader()

    # Untrusted code: every graded notebook runs in a bubblewrap sandbox (see
    # course/grading/sandbox/kernel.py for what is and is not enforced), as nobody when the grader
    # is root, talking to the grader over unix sockets (course/grading/sandbox/provisioner.py, named
    # in the kernelspec). Set COURSE_SANDBOX=0 to run without it; where bwrap is not installed,
    # grading runs unsandboxed and says so. The kernel manager (sandbox/kernel_manager.py) finds
    # the kernelspec in the course's own folder, and the provisioner tells each kernel's launcher
    # the course root and the exchange to hide as arguments (settings.KernelSettings): nothing is
    # put in os.environ.
    if settings.sandboxed():
        c.Execute.kernel_name = SANDBOX_KERNEL
        # Every Execute step, not only the autograder's: nbgrader's Validate (the lab's button,
        # `nbgrader validate`) runs plain Execute, whose default kernel manager would not know
        # the course's kernelspec.
        from course.grading.sandbox.kernel_manager import BoundedKernelManager

        c.Execute.kernel_manager_class = BoundedKernelManager
    return settings
