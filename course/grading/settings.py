"""The course's own settings: one ``Configurable``, every field a trait with its ``help``.

Each field is read, when the settings are made, from ``nbgrader_config.py``
(``c.CourseSettings.<field> = ...``) if it sets it, else from its ``COURSE_*`` environment
variable, else its default. ``configure`` (``course/grading/config.py``) makes them once per
config load and writes what they resolved to into the config, so everything that sees the config
(nbgrader's steps, the kernel manager, the provisioner) sees the same values, and
``course_dir.course_settings(root)`` hands them to the course's own tools. What a sandboxed
kernel's launcher needs of them is one frozen value, ``KernelSettings``
(``CourseSettings.kernel_settings``), handed to it as arguments: the launcher reads no
setting from its environment. Nothing here reads or writes anything at import.

``docs/settings.md`` is ``settings_doc()`` (``python -m course.grading.settings`` prints it).
"""
import argparse
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from traitlets import Bool, Float, Int, Unicode, default
from traitlets.config import Configurable

SQLITE_NAME = "gradebook.db"


@dataclass(frozen=True)
class Limits:
    """What one process tree may use at most, all of its processes together."""
    cpus: float = 1.0
    memory_bytes: int = 1024 ** 3
    processes: int = 512


@dataclass(frozen=True)
class KernelSettings:
    """What a sandboxed kernel's launcher is told, besides its connection file and folder: the
    folders its sandbox covers (the course root, the exchange, ``hidden_roots``, the grader's
    ``home``; ``sandbox.kernel.hidden_roots``) and the limits it holds the kernel to. Made once
    where a kernel is launched (``CourseSettings.kernel_settings``, in the provisioner) and
    handed on whole: as the cold launcher's arguments (``argv``, read back by ``from_argv``)
    or in the warm template's request (``as_dict``, read back by ``from_dict``)."""
    course_root: str = ""
    exchange: str = ""
    hidden_roots: tuple[str, ...] = ()
    home: str = ""
    limits: Limits = field(default_factory=Limits)

    def argv(self) -> list[str]:
        """As the cold launcher's command-line options."""
        options = ["--course-root", self.course_root, "--exchange", self.exchange,
                   "--home", self.home, "--cpus", repr(self.limits.cpus),
                   "--memory-bytes", str(self.limits.memory_bytes),
                   "--processes", str(self.limits.processes)]
        for folder in self.hidden_roots:
            options += ["--hidden-root", folder]
        return options

    @classmethod
    def from_argv(cls, argv: list[str]) -> "KernelSettings":
        """The settings ``argv`` (made by ``argv``) says; anything else in it is an error."""
        parser = argparse.ArgumentParser(prog="course.grading.sandbox.kernel")
        parser.add_argument("--course-root", default="")
        parser.add_argument("--exchange", default="")
        parser.add_argument("--home", default="")
        parser.add_argument("--hidden-root", action="append", default=[])
        parser.add_argument("--cpus", type=float, default=Limits.cpus)
        parser.add_argument("--memory-bytes", type=int, default=Limits.memory_bytes)
        parser.add_argument("--processes", type=int, default=Limits.processes)
        given = parser.parse_args(argv)
        return cls(given.course_root, given.exchange, tuple(given.hidden_root), given.home,
                   Limits(given.cpus, given.memory_bytes, given.processes))

    def as_dict(self) -> dict:
        """As JSON for the warm template's request."""
        return {**asdict(self), "hidden_roots": list(self.hidden_roots)}

    @classmethod
    def from_dict(cls, given: dict) -> "KernelSettings":
        """The settings a request's ``as_dict`` says (its fields, no more)."""
        return cls(str(given["course_root"]), str(given["exchange"]),
                   tuple(map(str, given["hidden_roots"])), str(given["home"]),
                   Limits(float(given["limits"]["cpus"]), int(given["limits"]["memory_bytes"]),
                          int(given["limits"]["processes"])))


class CourseSettings(Configurable):
    """The settings of "Tearing the book" that are not nbgrader's own."""

    root = Unicode(
        "", help="The course folder: the one holding nbgrader_config.py, source/, submitted/ "
                 "and (by default) the gradebook. configure() sets it to nbgrader_config.py's "
                 "folder; each sandboxed kernel's launcher is told it and hides it (the "
                 "kernel's own environment never holds it).",
    ).tag(config=True, env="COURSE_ROOT")
    gradebook_url = Unicode(
        help="The gradebook's database URL (nbgrader's CourseDirectory.db_url). Default: SQLite "
             f"beside the course (root/{SQLITE_NAME}); a TA team can point this at PostgreSQL "
             "instead.",
    ).tag(config=True, env="COURSE_GRADEBOOK_URL")
    exchange = Unicode(
        "/srv/nbgrader/exchange",
        help="The exchange through which assignments are released, fetched, submitted and "
             "collected (nbgrader's Exchange.root); each sandboxed kernel's launcher is told "
             "it and hides it.",
    ).tag(config=True, env="COURSE_EXCHANGE")
    sandbox = Bool(
        True, help="Run every graded notebook in the bubblewrap sandbox (kernel and judge). "
                   "COURSE_SANDBOX=0 turns it off; where bwrap is not installed, grading runs "
                   "unsandboxed and says so.",
    ).tag(config=True, env="COURSE_SANDBOX")
    warm_kernels = Bool(
        True, help="Grading workers (python -m course grade, a cluster's) fork each student's "
                   "kernel from a warm template that has imported what kernels need, into a "
                   "sandbox of the kernel's own (docs/sandbox.md), under a root grader. "
                   "COURSE_WARM_KERNELS=0 starts every kernel cold in bubblewrap, as plain "
                   "nbgrader autograde always does.",
    ).tag(config=True, env="COURSE_WARM_KERNELS")
    cell_timeout = Int(
        30, help="Seconds per cell (nbgrader's Execute.timeout); the slowest correct cell takes "
                 "well under 1. Tests shorten it.",
    ).tag(config=True, env="COURSE_CELL_TIMEOUT")
    test_cell_seconds = Float(
        30.0, help="Seconds one test cell may take in all, every call it makes to the student's "
                   "functions together (each call also has its own limit); past it that cell "
                   "fails, saying so, the call in flight is stopped and the student keeps every "
                   "other cell's points. Tests shorten it.",
    ).tag(config=True, env="COURSE_TEST_CELL_SECONDS")
    startup_timeout = Int(
        60, help="Seconds a kernel may take to answer at start (Execute.startup_timeout; the "
                 "sandbox's answers in about 1); one that does not is killed and the student is "
                 "\"not graded: the kernel did not start\". Tests shorten it.",
    ).tag(config=True, env="COURSE_STARTUP_TIMEOUT")
    hidden_roots = Unicode(
        "", help="More folders every sandboxed kernel hides, separated by the path separator: "
                 "a cluster worker's grading folder (each task's course root and the "
                 "assignment's material with its hidden tests), which the worker adds itself "
                 "(docs/cluster.md).",
    ).tag(config=True, env="COURSE_HIDDEN_ROOTS")
    cluster_certs = Unicode(
        "cluster-certs", help="The folder of the course's cluster certificates (made by "
                              "python -m course cluster-certs) that grade --cluster uses when "
                              "--certs is not given (docs/cluster.md).",
    ).tag(config=True, env="COURSE_CLUSTER_CERTS")
    kernel_cpus = Float(
        1.0, help="CPUs a student's kernel and every process it starts may use together (its "
                  "cgroup's quota, under a root grader; docs/sandbox.md).",
    ).tag(config=True, env="COURSE_KERNEL_CPUS")
    kernel_memory_mb = Int(
        1024, help="MiB a student's kernel and every process it starts may hold together, memfd "
                   "files, SysV shared memory and its /tmp included (its cgroup's limit, under a "
                   "root grader); past it the kernel is killed and the student is not graded.",
    ).tag(config=True, env="COURSE_KERNEL_MEMORY_MB")
    kernel_processes = Int(
        512, help="Processes a student's kernel may have at once, itself included (its "
                  "cgroup's limit under a root grader, and each process's own rlimit).",
    ).tag(config=True, env="COURSE_KERNEL_PROCESSES")
    report_seconds = Float(
        900.0, help="Seconds the instructor's page may take after a batch before a page saying "
                    "it did not finish is written instead (the grades and CSVs are complete).",
    ).tag(config=True, env="COURSE_REPORT_SECONDS")

    def _from_environment(self, name: str):
        trait = self.traits()[name]
        text = os.environ.get(trait.metadata["env"])
        if text is None:
            return trait.default_value
        if isinstance(trait, Bool):
            return text != "0"  # as it always was: anything but "0" leaves it on
        if isinstance(trait, (Int, Float)):
            return type(trait.default_value)(text)
        return text  # as given: no ~ expansion, no quotes removed

    @default("root")
    def _root(self):
        return self._from_environment("root")

    @default("gradebook_url")
    def _gradebook_url(self):
        return self._from_environment("gradebook_url")

    @default("exchange")
    def _exchange(self):
        return self._from_environment("exchange")

    @default("sandbox")
    def _sandbox(self):
        return self._from_environment("sandbox")

    @default("warm_kernels")
    def _warm_kernels(self):
        return self._from_environment("warm_kernels")

    @default("cell_timeout")
    def _cell_timeout(self):
        return self._from_environment("cell_timeout")

    @default("test_cell_seconds")
    def _test_cell_seconds(self):
        return self._from_environment("test_cell_seconds")

    @default("startup_timeout")
    def _startup_timeout(self):
        return self._from_environment("startup_timeout")

    @default("hidden_roots")
    def _hidden_roots(self):
        return self._from_environment("hidden_roots")

    @default("cluster_certs")
    def _cluster_certs(self):
        return self._from_environment("cluster_certs")

    @default("kernel_cpus")
    def _kernel_cpus(self):
        return self._from_environment("kernel_cpus")

    @default("kernel_memory_mb")
    def _kernel_memory_mb(self):
        return self._from_environment("kernel_memory_mb")

    @default("kernel_processes")
    def _kernel_processes(self):
        return self._from_environment("kernel_processes")

    @default("report_seconds")
    def _report_seconds(self):
        return self._from_environment("report_seconds")

    def resolved_gradebook_url(self) -> str:
        """``gradebook_url``, or SQLite beside the course when it is empty."""
        return self.gradebook_url or "sqlite:///" + os.path.join(self.root, SQLITE_NAME)

    def sandboxed(self) -> bool:
        """Whether graded code runs in the sandbox: wanted (``sandbox``) and bwrap installed."""
        return self.sandbox and shutil.which("bwrap") is not None

    def kernel_limits(self):
        """What one student's kernel may use, all its processes together (its cgroup's)."""
        return Limits(cpus=self.kernel_cpus, memory_bytes=self.kernel_memory_mb * 1024 ** 2,
                      processes=self.kernel_processes)

    def kernel_settings(self) -> KernelSettings:
        """What a sandboxed kernel's launcher is told (``KernelSettings``): the course root (none
        when no course is configured, e.g. a kernel started by a test), the exchange, the more
        folders to hide and the grader's home, and the limits it confines the kernel to."""
        return KernelSettings(self.root, self.exchange,
                              tuple(p for p in self.hidden_roots.split(os.pathsep) if p),
                              str(Path.home()), self.kernel_limits())


def environment_variables() -> list[str]:
    """Every ``COURSE_*`` variable the settings read or hand on, in field order."""
    return [trait.metadata["env"] for trait in CourseSettings.class_traits(config=True).values()]


def settings_doc() -> str:
    """``docs/settings.md``: every field, its variable, its default and its help."""
    lines = ["# Settings", "",
             "Generated from `course/grading/settings.py` by `python -m course.grading.settings`"
             " (a test fails when it is out of date).", "",
             "Each is read from `nbgrader_config.py` (`c.CourseSettings.<field> = ...`, before "
             "`configure(c, root)`), else from its environment variable, else its default. "
             "nbgrader's own settings are in `course/grading/config.py`, each with the reason "
             "for its value.", "",
             "| field | variable | default | what it is |", "| --- | --- | --- | --- |"]
    for name, trait in CourseSettings.class_traits(config=True).items():
        variable = f"`{trait.metadata['env']}`"
        shown = f"`{trait.default_value!r}`" if trait.default_value not in ("", None) else "—"
        lines.append(f"| `{name}` | {variable} | {shown} | {trait.help} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(settings_doc(), end="")
