"""Commands run as a throwaway Unix account (its uid, gid and groups, its home's environment),
for the class server's tests."""
import os
import pwd
import shutil
import subprocess
from pathlib import Path

from course.hub.paths import CLASS_BIN


def run_as(user: str, *cmd: str, cwd: Path, config: Path, check: bool = True):
    """Run ``cmd`` as ``user`` with ``config`` as its JUPYTER_CONFIG_PATH (as a spawned server has)."""
    account = pwd.getpwnam(user)
    env = {"HOME": account.pw_dir, "USER": user, "LOGNAME": user,
           "PATH": f"{CLASS_BIN}{os.pathsep}/usr/bin:/bin", "JUPYTER_CONFIG_PATH": str(config),
           "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(cmd, cwd=cwd, env=env, user=account.pw_uid, group=account.pw_gid,
                            extra_groups=os.getgrouplist(user, account.pw_gid),
                            capture_output=True, text=True, timeout=180, check=False)
    if check:
        assert result.returncode == 0, (f"{user}: {' '.join(cmd[:3])} failed:\n"
                                        f"{result.stdout}{result.stderr}")
    return result


def nbgrader_as(user: str, *args: str, cwd: Path, config: Path, exchange: Path, check=True):
    """``nbgrader ARGS`` as ``user`` on the exchange at ``exchange``."""
    return run_as(user, str(CLASS_BIN / "nbgrader"), *args, f"--Exchange.root={exchange}",
                  cwd=cwd, config=config, check=check)


def feedback_page(root: Path, student: str, assignment: str, owner: str) -> Path:
    """A feedback page where ``nbgrader generate_feedback`` writes it for this collected
    submission, with its timestamp and secret beside it (release_feedback reads them), owned by
    ``owner`` as if that grader had generated it. (Grading is tested elsewhere.)"""
    from harness import source_path

    submitted = root / "submitted" / student / assignment
    folder = root / "feedback" / student / assignment
    folder.mkdir(parents=True)
    for name in ("timestamp.txt", "submission_secret.txt"):
        shutil.copy(submitted / name, folder / name)
    page = folder / f"{source_path(assignment).stem}.html"
    page.write_text(f"<html><body>feedback for {student}: 40 / 40</body></html>")
    for path in (root / "feedback", root / "feedback" / student, folder, *folder.iterdir()):
        shutil.chown(path, owner)
    return page
