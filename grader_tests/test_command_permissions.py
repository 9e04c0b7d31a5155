"""A course command run by an account that may not write the course's files (on the class
server, a TA's ``export`` after ``grade`` ran as root) says so in one line, naming the file,
its owner and what to do: no traceback. As root only (root grades one student; ``export``
then runs as ``nobody``)."""
import os
import subprocess
import sys

import nbformat
from harness import scratch_course, source_path, submission
from tools import require_for_module

from course.grading.course_dir import tool_env
from course.hub.paths import CLASS_BIN, missing_software

A1 = "01-packing-by-hand"
NOBODY = 65534

require_for_module(None if os.geteuid() == 0 else "not root (it runs a command as nobody)",
                   "a course command without permission")
require_for_module(missing_software(), "a course command without permission")


def test_export_by_an_account_that_may_not_write_the_course_says_so_in_one_line():
    root = scratch_course([A1])
    folder = root / "submitted" / "reference" / A1
    folder.mkdir(parents=True)
    nbformat.write(submission(A1), folder / source_path(A1).name)
    graded = subprocess.run([sys.executable, "-m", "course", "grade", A1, "--jobs", "1",
                             "--course", str(root)], cwd=root, env=tool_env(),
                            capture_output=True, text=True, timeout=600)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    for path in [root, *root.rglob("*")]:  # readable by all, writable by root only
        path.chmod(0o755 if path.is_dir() else 0o644)
    run = subprocess.run([str(CLASS_BIN / "python"), "-m", "course", "export", A1, "--course",
                          str(root)], cwd=root, user=NOBODY, group=NOBODY, extra_groups=[],
                         env={"PATH": f"{CLASS_BIN}:/usr/bin:/bin", "HOME": "/nonexistent"},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    [line] = run.stderr.strip().splitlines()
    assert line.startswith("error: nobody has no permission on ") and str(root) in line, line
    assert "(it belongs to root): run `export` as root" in line and "sudo" in line, line
