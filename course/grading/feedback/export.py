"""The HTML exporter of the students' feedback: nbconvert's ``HTMLExporter``, made cheap to call
once per student in a long-lived grading worker.

* Compiled templates are kept for the life of the process (a jinja bytecode cache), so each
  student's page is rendered, not its templates parsed and compiled again.
* The page is not re-parsed with BeautifulSoup afterwards just to add two
  accessibility touches: the missing ``alt`` text of images and ``tabindex`` on input and
  output areas are added to nbconvert's own markup directly.
* What is the same on every student's page (the lessons' markdown, the instructor's code) is
  rendered, highlighted and cleaned once per worker, not once per student.
* Nothing a student wrote runs: markdown, HTML and SVG are cleaned after rendering
  (``safe_html``), with nbconvert's own ``sanitize_html`` switch on for outputs.
* The course's template (``templates/course_feedback``, nbgrader's feedback template with a
  summary of tasks for contents) loads nothing from another machine.
"""
import functools
import os
import re
import stat
from pathlib import Path

from jinja2 import BytecodeCache, FileSystemLoader, pass_context
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from nbconvert.exporters.templateexporter import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from traitlets import Bool

from course.grading import fault_injection
from course.grading.atomic_write import write_bytes
from course.grading.feedback.safe_html import clean

TEMPLATES_DIR = Path(__file__).parent / "templates"
TEMPLATE = "course_feedback"

NO_ALT = 'alt="No description has been provided for this image" '
IMG_WITHOUT_ALT = re.compile(r"<img(?![^>]*\balt=)\s", re.I)
FOCUSABLE = re.compile(r'<div class="(jp-Cell-inputWrapper|[^"]*\bjp-OutputArea-output\b[^"]*)"')


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates, kept in memory for this process (keyed by jinja by template name
    and source checksum, so an edited template is compiled afresh)."""

    def __init__(self):
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket):
        self._code[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = MemoryBytecodeCache()


def accessible(html: str) -> str:
    """What nbconvert's BeautifulSoup pass adds: alt text on images without one, and input and
    output areas reachable with the keyboard."""
    html = IMG_WITHOUT_ALT.sub(lambda m: f"<img {NO_ALT}", html)
    return FOCUSABLE.sub(lambda m: f'<div class="{m.group(1)}" tabindex="0"', html)


class FeedbackExporter(HTMLExporter):
    """``HTMLExporter`` with process-wide compiled templates and no BeautifulSoup pass; it reads
    ``HTMLExporter``'s settings (nbgrader's feedback template among them), and cleans what
    the notebook's markdown and outputs hold."""

    sanitize_html = Bool(True, help="Clean the HTML of markdown and outputs.").tag(config=True)

    def default_filters(self):
        yield from super().default_filters()
        yield ("clean_html", clean)

    @pass_context
    def markdown2html(self, context, source):
        """nbconvert's markdown rendering, cleaned (a markdown link is HTML only once rendered);
        a cell without attachments, whose images are not embedded, is rendered once per
        worker (its rendering depends on its text alone)."""
        if self.embed_images or context.get("cell", {}).get("attachments"):
            return clean(super().markdown2html(context, source))
        key = (source, self.anchor_link_text, self.exclude_anchor_links,
               repr(sorted(self.lexer_options.items())))
        return _remembered(_MARKDOWN, key, lambda: clean(super(FeedbackExporter, self)
                                                          .markdown2html(context, source)))

    def _create_environment(self):
        environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATES
        # last, nbgrader's templates folder: ours extends its ``feedback/index.html.j2``
        environment.loader.loaders.append(FileSystemLoader(nbgrader_templates()))
        return environment

    def from_notebook_node(self, nb, resources=None, **kw):
        """``HTMLExporter.from_notebook_node`` (nbconvert 7.17) with ``accessible`` in place of
        its BeautifulSoup pass. A copy, not a call (no public hook skips that pass):
        grader_tests/test_upstream_hooks.py pins the upstream body it was made from."""
        langinfo = nb.metadata.get("language_info", {})
        lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
        highlight_code = self.filters.get(
            "highlight_code", RememberedHighlight(pygments_lexer=lexer, parent=self))
        resources = self._init_resources(resources)
        filter_data_type = WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources)
        self.register_filter("highlight_code", highlight_code)
        self.register_filter("filter_data_type", filter_data_type)
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        student = (resources.get("nbgrader") or {}).get("student", "")
        fault_injection.reached(self.config, "feedback", student)  # test-only: the page unwritten
        return accessible(html), resources


CACHED = 4096  # entries of each cache below: what one assignment's pages repeat, many times over
_MARKDOWN: dict[tuple, str] = {}
_HIGHLIGHTED: dict[tuple, str] = {}


def _remembered(cache: dict, key, make):
    """``cache[key]``, made by ``make()`` the first time; past ``CACHED`` entries the oldest goes."""
    if key not in cache:
        if len(cache) >= CACHED:
            cache.pop(next(iter(cache)))
        cache[key] = make()
    return cache[key]


class RememberedHighlight(Highlight2HTML):
    """nbconvert's code highlighting, each (source, language, options) drawn once per worker:
    the instructor's code cells are the same on every page."""

    def __call__(self, source, language=None, metadata=None):
        key = (source, language or self.pygments_lexer, (metadata or {}).get("magics_language"),
               repr(sorted(self.extra_formatter_options.items())))
        return _remembered(_HIGHLIGHTED, key,
                           lambda: super(RememberedHighlight, self).__call__(source, language,
                                                                             metadata))


def nbgrader_templates() -> str:
    """The folder of nbgrader's own templates (its feedback template is the base of ours)."""
    import nbgrader.server_extensions.formgrader as formgrader
    return str(Path(formgrader.__file__).parent / "templates")


NBGRADER_FILES = ("submission_secret.txt", "timestamp.txt")  # nbgrader wrote them at submission


def feedback_holds_only_pages() -> None:
    """Make ``nbgrader generate_feedback`` copy no file beside the pages into ``feedback/``:
    nbgrader copies every other file of ``autograded/<student>/<assignment>/``, files the
    student's kernel wrote while graded among them, and ``release_feedback`` hands them out.
    Idempotent. It replaces ``BaseConverter.init_assignment`` for ``GenerateFeedback`` and
    reads its private ``_format_source``/``_format_dest``: test_upstream_hooks.py pins both."""
    from nbgrader.converters import GenerateFeedback

    if getattr(GenerateFeedback.init_assignment, "copies_nothing", False):
        return

    @functools.wraps(GenerateFeedback.init_assignment)
    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        """Only nbgrader's own files that ``release_feedback`` reads (``NBGRADER_FILES``) are
        copied: they and the pages are all that feedback holds."""
        source = Path(self._format_source(assignment_id, student_id))
        dest = Path(self._format_dest(assignment_id, student_id))
        for name in NBGRADER_FILES:
            data = small_file(source, name)
            if data is not None:
                write_bytes(dest / name, data)

    init_assignment.copies_nothing = True
    GenerateFeedback.init_assignment = init_assignment


SMALL_FILE = 64 * 1024  # nbgrader's own files hold a timestamp or a secret


def small_file(folder: Path, name: str) -> bytes | None:
    """The bytes of ``folder/name`` if it is a regular file of at most ``SMALL_FILE`` bytes,
    opened without following a link (the last name's or the folder's); else None."""
    try:
        where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=where)
    except OSError:
        return None
    finally:
        os.close(where)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > SMALL_FILE:
            return None
        return os.read(fd, SMALL_FILE)
    finally:
        os.close(fd)
