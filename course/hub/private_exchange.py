"""nbgrader's exchange over per-student folders (the layout of ``exchange_folders``).

nbgrader's own exchange keeps every submission in one ``inbound/`` folder that everyone can
write, each hidden only by a random name, and every feedback page in one ``feedback/``
folder. These subclasses keep nbgrader's file names and behaviour and change only where a
student's files go: ``inbound/STUDENT/`` and ``feedback/STUDENT/``, folders only that student
and the graders can enter. Named in nbgrader's ``ExchangeFactory`` (``exchange_config``).
"""
import base64
import glob
import os
import re
import shutil

from nbgrader.exchange.default import (
    ExchangeCollect,
    ExchangeFetchAssignment,
    ExchangeFetchFeedback,
    ExchangeList,
    ExchangeReleaseAssignment,
    ExchangeReleaseFeedback,
    ExchangeSubmit,
)
from nbgrader.exchange.default.list import _checksum
from nbgrader.utils import check_mode, get_username, notebook_hash


class _ReadableRoot:
    """The exchange's root need only be readable: nbgrader's check wants it writable by all."""

    def ensure_root(self):
        if not check_mode(self.root, read=True, execute=True):
            self.fail(f"The course's exchange {self.root} cannot be read: ask your instructor")

    def own_id(self) -> str:
        """The student this process acts for: the account running it, as in nbgrader."""
        student = self.coursedir.student_id
        if student != "*" and student:
            if any(c in student for c in "*+/"):
                self.fail(f"The student ID should contain no '*', '+' nor '/'; got {student}")
            return student
        return get_username()


class PrivateFetchAssignment(_ReadableRoot, ExchangeFetchAssignment):
    """nbgrader's fetch, from an exchange root no student can write."""


class PrivateReleaseAssignment(ExchangeReleaseAssignment):
    """nbgrader's release into ``outbound/`` (graders are ``groupshared``; root made the folders)."""


class PrivateSubmit(_ReadableRoot, ExchangeSubmit):
    """A submission goes into the student's own ``inbound/STUDENT/`` folder."""

    def init_dest(self):
        course = self.coursedir.course_id
        if not course:
            self.fail("No course id specified. Re-run with --course flag.")
        student = self.own_id()
        if not self.authenticator.has_access(student, course):
            self.fail("You do not have access to this course.")
        self.inbound_path = os.path.join(self.root, course, "inbound", student)
        if not os.path.isdir(self.inbound_path) or not check_mode(self.inbound_path, write=True,
                                                                   execute=True):
            self.fail(f"You have no folder to submit to in the course's exchange "
                      f"({self.inbound_path}): ask your instructor to add you to the class")
        self.cache_path = os.path.join(self.cache, course)
        self.assignment_filename = "+".join(
            [student, self.coursedir.assignment_id, self.timestamp]
            + ([base64.urlsafe_b64encode(os.urandom(9)).decode("ascii")]
               if self.add_random_string else []))


class PrivateCollect(ExchangeCollect):
    """Collects from every ``inbound/STUDENT/`` folder, only what is named after its folder's
    student (a file planted under a classmate's name is not theirs)."""

    def _path_to_record(self, path):
        record = super()._path_to_record(path)
        record["filename"] = os.path.relpath(path, self.inbound_path)
        return record

    def init_src(self):
        course = self.coursedir.course_id
        if not course:
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, course)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path) or not check_mode(self.inbound_path, read=True,
                                                                   execute=True):
            self.fail(f"You cannot read the course's inbound folder: {self.inbound_path}")
        student = self.coursedir.student_id or "*"
        pattern = os.path.join(self.inbound_path, student,
                               f"{student}+{self.coursedir.assignment_id}+*")
        found = [p for p in glob.glob(pattern)
                 if os.path.basename(p).rsplit("+", 3)[0] == os.path.basename(os.path.dirname(p))]
        self.src_records = _latest_per_student([self._path_to_record(p) for p in found],
                                               self._due_date(), self.before_duedate)

    def _due_date(self):
        from nbgrader.api import Gradebook, MissingEntry

        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                return gradebook.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                return None


def _latest_per_student(records: list[dict], due, before_due: bool) -> list[dict]:
    """nbgrader's choice per student: the newest submission (the newest before the due date
    with ``--before-duedate``, when there is one)."""
    chosen = []
    for student in sorted({r["username"] for r in records}):
        mine = sorted((r for r in records if r["username"] == student),
                      key=lambda r: r["timestamp"], reverse=True)
        if due is not None and before_due:
            mine = [r for r in mine if r["timestamp"] <= due] or mine
        chosen.append(mine[0])
    return chosen


class PrivateReleaseFeedback(ExchangeReleaseFeedback):
    """Each student's feedback page goes into their own ``feedback/STUDENT/`` folder."""

    def init_dest(self):
        if not self.coursedir.course_id:
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.outbound_feedback_path = self.dest_path = os.path.join(self.course_path, "feedback")

    def copy_files(self):
        excluded = set(filter(None, (self.coursedir.student_id_exclude or "").split(",")))
        pattern = re.escape(os.path.sep).join([
            self.coursedir.format_path(self.coursedir.feedback_directory, "(?P<student_id>.*)",
                                       self.coursedir.assignment_id, escape=True),
            "(?P<notebook_id>.*).html"])
        for page in glob.glob(os.path.join(self.src_path, "*.html")):
            match = re.match(pattern, page)
            if match is None or match["student_id"] in excluded:
                continue
            student, notebook = match["student_id"], match["notebook_id"]
            folder = os.path.join(self.outbound_feedback_path, student)
            if not os.path.isdir(folder):
                self.log.error("No feedback folder for %s in the exchange (%s): not in the "
                               "class's roster?", student, folder)
                continue
            with open(os.path.join(os.path.dirname(page), "submission_secret.txt")) as handle:
                key = notebook_hash(secret=handle.read(), notebook_id=notebook)
            self.log.info("Releasing feedback for student '%s' on '%s/%s'", student,
                          self.coursedir.assignment_id, notebook)
            temporary = os.path.join(folder, f"{key}-tmp.html")
            shutil.copy(page, temporary)
            shutil.move(temporary, os.path.join(folder, f"{key}.html"))


class PrivateFetchFeedback(_ReadableRoot, ExchangeFetchFeedback):
    """Feedback is looked for in the student's own ``feedback/STUDENT/`` folder."""

    @property
    def outbound_path(self):
        return self._own_feedback

    @outbound_path.setter
    def outbound_path(self, course_feedback):  # nbgrader sets COURSE/feedback: narrowed here
        self._own_feedback = os.path.join(course_feedback, self.own_id())


class PrivateList(_ReadableRoot, ExchangeList):
    """Lists submissions in the per-student folders, and finds a student's feedback in theirs."""

    def init_dest(self):
        super().init_dest()
        if self.inbound:
            course = self.coursedir.course_id or "*"
            student = self.coursedir.student_id or "*"
            self.assignments = sorted(glob.glob(os.path.join(
                self.root, course, "inbound", student,
                f"{student}+{self.coursedir.assignment_id or '*'}+*")))

    def parse_assignment(self, assignment):
        if self.inbound:  # nbgrader's pattern, with the student's folder
            assignment = os.path.join(os.path.dirname(os.path.dirname(assignment)),
                                      os.path.basename(assignment))
        return super().parse_assignment(assignment)

    def parse_assignments(self):
        assignments = super().parse_assignments()
        if self.cached:  # grouped per assignment by nbgrader: each holds its submissions
            for group in assignments:
                for info in group["submissions"]:
                    self._own_feedback(info)
        return assignments

    def _own_feedback(self, info: dict) -> None:
        """nbgrader looked for this submission's feedback in COURSE/feedback/: look again in
        the student's own folder, with the same hash and the same checks."""
        secret_path = os.path.join(info["path"], "submission_secret.txt")
        if not os.path.isfile(secret_path):
            return
        with open(secret_path) as handle:
            secret = handle.read()
        folder = os.path.join(self.root, info["course_id"], "feedback", self.own_id())
        for notebook in info["notebooks"]:
            page = os.path.join(folder, notebook_hash(secret=secret,
                                                      notebook_id=notebook["notebook_id"]) + ".html")
            notebook["has_exchange_feedback"] = os.path.isfile(page)
            if notebook["has_local_feedback"] and notebook["has_exchange_feedback"]:
                notebook["feedback_updated"] = (_checksum(page)
                                                != _checksum(notebook["local_feedback_path"]))
        notebooks = info["notebooks"]
        info["has_exchange_feedback"] = bool(notebooks) and all(
            n["has_exchange_feedback"] for n in notebooks)
        info["feedback_updated"] = any(n["feedback_updated"] for n in notebooks)


def exchange_config(c, root: str, course: str, *, grader: bool) -> None:
    """nbgrader settings for a person on the class server: this exchange, this course."""
    c.Exchange.root = root
    c.CourseDirectory.course_id = course
    c.CourseDirectory.groupshared = grader  # graders share outbound/ and the course folder
    factory = c.ExchangeFactory
    factory.fetch_assignment = f"{__name__}.PrivateFetchAssignment"
    factory.release_assignment = f"{__name__}.PrivateReleaseAssignment"
    factory.submit = f"{__name__}.PrivateSubmit"
    factory.collect = f"{__name__}.PrivateCollect"
    factory.release_feedback = f"{__name__}.PrivateReleaseFeedback"
    factory.fetch_feedback = f"{__name__}.PrivateFetchFeedback"
    factory.list = f"{__name__}.PrivateList"
