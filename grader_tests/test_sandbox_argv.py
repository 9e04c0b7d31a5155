"""The sandboxes' command lines, read without running bubblewrap.

``sandbox.kernel.bwrap_argv`` (the student's kernel), ``judge.sandbox.judge_argv`` (the judge of
test cells) and ``sandbox.spec.workspace_argv`` (the submission's files, copied in; the copy
back out is ``test_bring_back.py``'s) are where the sandbox's promises are written down (README, "What the grading sandbox enforces"). Each
command line is parsed option by option (an option this parser does not know fails the test:
a new one must be thought about here), every descriptor it hands bwrap is resolved to the file
it opens, and the promises are checked on the result: what is read-only, what is hidden, what
exists at all, which namespaces, which environment. The live sandboxes are attacked in
``test_sandbox_attacks.py`` and ``test_judge_sandbox.py``.
"""
import fcntl
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from course.grading.judge import sandbox as judge_sandbox
from course.grading.sandbox import judge as sandbox_judge
from course.grading.sandbox import kernel as sandbox_kernel, spec as sandbox_spec
from course.grading.sandbox.environment import sandbox_environment
from course.grading.settings import KernelSettings

ARITY = {"--ro-bind": 2, "--ro-bind-try": 2, "--bind": 2, "--dev-bind": 2, "--ro-bind-fd": 2,
         "--bind-fd": 2, "--file": 2, "--ro-bind-data": 2, "--bind-data": 2, "--symlink": 2,
         "--setenv": 2, "--dev": 1, "--proc": 1, "--tmpfs": 1, "--dir": 1, "--size": 1,
         "--perms": 1, "--remount-ro": 1, "--chdir": 1, "--uid": 1, "--gid": 1, "--unsetenv": 1,
         "--cap-drop": 1, "--unshare-user": 0, "--unshare-pid": 0, "--unshare-net": 0,
         "--unshare-ipc": 0, "--unshare-uts": 0, "--as-pid-1": 0, "--unshare-cgroup-try": 0, "--unshare-all": 0,
         "--disable-userns": 0, "--die-with-parent": 0, "--new-session": 0, "--clearenv": 0}
# What the provisioner tells a test's kernel launcher: no course, the grader's home.
SETTINGS = KernelSettings(home=str(Path.home()))
FD_OPTIONS = {"--ro-bind-fd": 0, "--bind-fd": 0, "--file": 0, "--ro-bind-data": 0}


@dataclass
class Parsed:
    """A bwrap command line: its options in order, with each descriptor's file, and the
    command it runs."""

    options: list[tuple] = field(default_factory=list)   # (option, *arguments)
    opened: dict[str, str] = field(default_factory=dict)  # descriptor -> the path it opens
    command: list[str] = field(default_factory=list)

    def all(self, option: str) -> list[tuple]:
        return [args for name, *args in self.options if name == option]

    def flags(self) -> set[str]:
        return {name for name, *args in self.options if ARITY[name] == 0}

    def index(self, option: str, *args) -> int:
        return self.options.index((option, *args))

    def targets(self, *options) -> list[str]:
        """Where ``options`` put something (their last argument), in order."""
        return [args[-1] for name, *args in self.options if name in options]

    def modifiers(self, option: str, target: str) -> dict[str, str]:
        """The ``--size`` and ``--perms`` given just before the ``option`` that puts
        something at ``target`` (bwrap applies them to the next operation only)."""
        at = next(i for i, (name, *args) in enumerate(self.options)
                  if name == option and args[-1] == target)
        found = {}
        while at and self.options[at - 1][0] in ("--size", "--perms"):
            at -= 1
            found.setdefault(*self.options[at])
        return found

    def sized(self, option: str, target: str) -> str | None:
        return self.modifiers(option, target).get("--size")


def parse(argv: list[str]) -> Parsed:
    assert argv[0] == "bwrap"
    parsed, at = Parsed(), 1
    while at < len(argv) and argv[at].startswith("--"):
        name = argv[at]
        assert name in ARITY, f"an option this test does not know: {name}"
        args = argv[at + 1:at + 1 + ARITY[name]]
        if name in FD_OPTIONS:
            fd = args[FD_OPTIONS[name]]
            assert fd.isdigit(), (name, args)
            parsed.opened[fd] = os.readlink(f"/proc/self/fd/{fd}")
        parsed.options.append((name, *args))
        at += 1 + ARITY[name]
    parsed.command = argv[at:]
    return parsed


@pytest.fixture
def close_fds():
    """Close every descriptor a command line builder opened for bwrap."""
    before = set(os.listdir("/proc/self/fd"))
    yield
    for fd in set(os.listdir("/proc/self/fd")) - before:
        try:
            os.close(int(fd))
        except OSError:
            pass


@pytest.fixture
def submission(tmp_path):
    """A submission folder with what students hand in, and what intake would refuse."""
    folder = tmp_path / "submitted" / "alice" / "01-packing-by-hand"
    (folder / "data" / "more").mkdir(parents=True)
    (folder / "packing_by_hand.ipynb").write_text('{"hidden": "HIDDEN TESTS"}')
    (folder / "helper.py").write_text("VALUE = 1\n")
    (folder / "data" / "notes.md").write_text("# notes\n")
    (folder / "data" / "old.ipynb").write_text("{}")
    (folder / "data" / "more" / "deep.txt").write_text("deep\n")
    (folder / "outside-link").symlink_to("/etc/passwd")
    (folder / "root-link").symlink_to("/")
    (folder / "data" / "relative-link").symlink_to("../helper.py")
    os.mkfifo(folder / "pipe")
    deep = folder
    for level in range(10):
        deep = deep / f"level{level}"
    deep.mkdir(parents=True)
    (deep / "too-deep.txt").write_text("x")
    (folder / "level0" / "shallow.txt").write_text("x")
    return folder


def _under(path: str, folder: Path) -> bool:
    return Path(path) == folder or folder in Path(path).parents


# --------------------------------------------------------------------------- the submission's files

def test_the_workspace_holds_regular_files_and_folders_only_with_top_notebooks_empty(submission, close_fds):
    parsed = parse(["bwrap", *sandbox_spec.workspace_argv(submission, submission)])
    files = {target: parsed.opened[fd] for fd, target in parsed.all("--file")}
    assert files == {str(submission / p): str(submission / p) for p in
                     ("helper.py", "data/notes.md", "data/old.ipynb", "data/more/deep.txt",
                      "level0/shallow.txt")}
    assert parsed.all("--ro-bind") == [["/dev/null", str(submission / "packing_by_hand.ipynb")]]
    everything = parsed.targets("--file", "--ro-bind", "--dir")
    for left_out in ("outside-link", "root-link", "data/relative-link", "pipe"):
        assert str(submission / left_out) not in everything, left_out
    assert not any("too-deep" in t or "level8" in t for t in everything), "at most 8 folders deep"
    assert all(parsed.modifiers("--file", t) == {"--perms": "0644"} for _, t in parsed.all("--file"))
    assert {name for name, *_ in parsed.options} == {"--file", "--perms", "--ro-bind", "--dir"}


def test_the_workspaces_descriptors_are_read_only_inheritable_and_never_follow_links(submission, close_fds):
    argv = sandbox_spec.workspace_argv(submission, Path("/inside"))
    parsed = parse(["bwrap", *argv])
    assert all(t.startswith("/inside/") for t in parsed.targets("--file", "--ro-bind", "--dir"))
    for fd in parsed.opened:
        fd = int(fd)
        assert os.get_inheritable(fd)
        assert fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
        assert stat.S_ISREG(os.fstat(fd).st_mode)
    with pytest.raises(OSError):
        sandbox_spec.fd(submission / "outside-link")  # O_NOFOLLOW: a link is never opened


def test_the_judge_empties_notebooks_its_own_way(submission, close_fds):
    empty = ("--perms", "0444", "--file", sandbox_spec.fd(Path(os.devnull)))
    parsed = parse(["bwrap", *sandbox_spec.workspace_argv(submission, submission, empty=empty)])
    notebook = str(submission / "packing_by_hand.ipynb")
    assert [parsed.opened[fd] for fd, target in parsed.all("--file") if target == notebook] == [os.devnull]
    assert parsed.modifiers("--file", notebook) == {"--perms": "0444"}, "read-only, and empty"


# --------------------------------------------------------------------------- the student's kernel

@pytest.fixture
def kernel_argv(tmp_path, submission, close_fds):
    runtime = tmp_path / "sandbox-kernels" / "kernel-abc"
    (runtime / "sockets").mkdir(parents=True)
    connection = runtime / "kernel.json"
    connection.write_text("{}")
    return parse(sandbox_kernel.bwrap_argv(str(connection), submission, SETTINGS,
                                           sandbox_environment())), runtime, submission


def test_the_kernels_file_system_is_read_only_but_for_its_runtime_and_its_workspace(kernel_argv):
    parsed, runtime, workdir = kernel_argv
    assert parsed.options[0] == ("--ro-bind", "/", "/")
    assert parsed.all("--bind") == [] and parsed.all("--bind-data") == []
    assert parsed.all("--dev-bind") == [[f"/dev/{name}"] * 2 for name in sandbox_spec.DEVICES]
    assert [(parsed.opened[fd], target) for fd, target in parsed.all("--bind-fd")] == [
        (str(runtime / "sockets"), str(runtime / "sockets"))], "the one writable bind"
    assert (str(runtime), str(runtime)) in [(parsed.opened[fd], target)
                                            for fd, target in parsed.all("--ro-bind-fd")]
    tmpfs = parsed.targets("--tmpfs")
    assert parsed.sized("--tmpfs", str(workdir)) == str(sandbox_kernel.WORKSPACE_BYTES)
    assert parsed.sized("--tmpfs", "/tmp") == parsed.sized("--tmpfs", "/dev/shm") == str(
        sandbox_kernel.TMP_BYTES)
    assert set(tmpfs) == {"/dev", "/dev/shm", "/tmp", "/sys", str(workdir), str(runtime.parent),
                          *map(str, sandbox_kernel.hidden_roots(SETTINGS))}
    assert ("--remount-ro", "/dev") in parsed.options and ("--proc", "/proc") in parsed.options
    # every bind of a file into the workspace comes after the workspace's tmpfs
    workspace_at = parsed.index("--tmpfs", str(workdir))
    assert all(parsed.index("--file", fd, t) > workspace_at for fd, t in parsed.all("--file"))


def test_the_course_roots_home_and_other_kernels_are_covered_and_only_what_runs_is_bound_back(kernel_argv):
    parsed, runtime, workdir = kernel_argv
    hidden = [*sandbox_kernel.hidden_roots(SETTINGS), runtime.parent]
    assert sandbox_kernel.PACKAGE_ROOT in hidden and Path.home().resolve() in hidden
    for folder in hidden:
        assert parsed.sized("--tmpfs", str(folder)) == str(sandbox_kernel.HIDDEN_BYTES)
        assert parsed.index("--remount-ro", str(folder)) > parsed.index("--tmpfs", str(folder))
    kept = {parsed.opened[fd]: target for fd, target in parsed.all("--ro-bind-fd")
            if target not in (str(runtime), *map(str, sandbox_kernel.sys_kept()))}
    assert kept == {str(f): str(f) for f in sandbox_kernel.kept_folders()}
    assert set(kept) == {str(Path(sys.prefix).resolve()), str(Path(sys.base_prefix).resolve()),
                         str(sandbox_kernel.PACKAGE_ROOT / "course")}
    for fd, target in parsed.all("--ro-bind-fd"):
        if target in (str(runtime), *map(str, sandbox_kernel.sys_kept())):
            continue
        folder = next(f for f in hidden if _under(target, f))  # bound back into a covered folder
        assert parsed.index("--tmpfs", str(folder)) < parsed.index("--ro-bind-fd", fd, target)
    # nothing else of a covered folder comes back: not the gradebook, source/ or the config
    for target in parsed.targets("--ro-bind-fd", "--bind-fd", "--file", "--ro-bind", "--dir"):
        if any(_under(target, f) for f in hidden) and not _under(target, workdir):
            assert target in [*kept.values(), str(runtime), str(runtime / "sockets")], target


def test_the_kernel_has_no_privilege_no_network_and_dies_with_the_grader(kernel_argv):
    parsed, runtime, workdir = kernel_argv
    assert {"--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-net",
            "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"} <= parsed.flags()
    assert parsed.all("--cap-drop") == [["ALL"]]
    assert parsed.all("--uid") == [[str(sandbox_kernel.SANDBOX_UID)]] == [["65534"]]
    assert parsed.all("--gid") == [["65534"]] and parsed.all("--chdir") == [[str(workdir)]]
    setenv = parsed.all("--setenv")
    assert dict(map(tuple, setenv)) == sandbox_environment()
    assert parsed.index("--clearenv") < min(parsed.index("--setenv", *a) for a in setenv)
    assert parsed.command == [sys.executable, "-c", sandbox_kernel.LAUNCH, "-f",
                              str(runtime / "kernel.json"), "--HistoryManager.enabled=False"]


def test_the_grading_roots_the_exchange_and_a_home_elsewhere_are_hidden(tmp_path):
    course, exchange, home, more = (tmp_path / name for name in ("course", "exchange", "home",
                                                                 "more"))
    for folder in (course, exchange, home, more):
        folder.mkdir()
    told = KernelSettings(str(course), str(exchange), (str(more),), str(home))
    assert {course, exchange, home, more, sandbox_kernel.PACKAGE_ROOT} <= set(
        sandbox_kernel.hidden_roots(told))
    told = KernelSettings(str(course), str(exchange), (), "/")
    assert Path("/") not in sandbox_kernel.hidden_roots(told), "covering / would hide everything"


def test_what_the_kernel_hides_is_what_its_launcher_is_told_never_its_environment(
        tmp_path, monkeypatch):
    """The folders come from the ``KernelSettings`` handed down from the launcher's entry, and
    no module of the sandbox reads a course setting from the environment."""
    folders = {name: tmp_path / name for name in ("course", "exchange", "more", "home")}
    for folder in folders.values():
        folder.mkdir()
    monkeypatch.setenv("COURSE_ROOT", str(folders["course"]))
    monkeypatch.setenv("COURSE_EXCHANGE", str(folders["exchange"]))
    monkeypatch.setenv("COURSE_HIDDEN_ROOTS", str(folders["more"]))
    monkeypatch.setenv("HOME", str(folders["home"]))
    assert not set(folders.values()) & set(sandbox_kernel.hidden_roots(KernelSettings()))
    sandbox = Path(sandbox_kernel.__file__).parent
    for module in sandbox.glob("*.py"):
        for name in ("COURSE_ROOT", "COURSE_EXCHANGE", "COURSE_HIDDEN_ROOTS"):
            assert name not in module.read_text(), f"{module.name} names {name}"


def test_a_root_graders_kernel_is_an_unprivileged_uid_of_its_own():
    uid, gid = sandbox_kernel.outside_ids()
    if os.geteuid() == 0:
        assert uid == gid == sandbox_kernel.OUTSIDE_BASE + os.getpid() < 2 ** 31
    else:
        assert (uid, gid) == (os.getuid(), os.getgid())


# --------------------------------------------------------------------------- the judge

@pytest.fixture
def judge_argv(submission, close_fds):
    return parse(sandbox_judge.judge_argv(submission, judge_sandbox.ENTRY)), submission


def test_the_judges_root_is_empty_but_for_the_system_the_interpreter_and_the_submission(judge_argv):
    parsed, workdir = judge_argv
    assert ("--ro-bind", "/", "/") not in parsed.options, "the host's root is not the judge's"
    assert parsed.all("--bind") == parsed.all("--bind-fd") == parsed.all("--ro-bind") == []
    assert parsed.all("--dev-bind") == [[f"/dev/{name}"] * 2 for name in sandbox_spec.DEVICES]
    system = {str(f) for f in map(Path, sandbox_judge.SYSTEM_FOLDERS)
              if f.is_dir() and not f.is_symlink()}
    for target, link in ((t, s) for s, t in parsed.all("--symlink")):
        if not target.startswith("/dev/"):
            assert target in sandbox_judge.SYSTEM_FOLDERS and os.readlink(target) == link
    kept = {parsed.opened[fd]: t for fd, t in parsed.all("--ro-bind-fd")}
    assert kept == {str(f): str(f) for f in {*map(Path, system), Path("/etc/ld.so.cache"),
                                             *sandbox_kernel.kept_folders()}}
    allowed = [*map(Path, system), *sandbox_kernel.kept_folders(), workdir, Path("/tmp"),
               Path("/dev"), Path("/proc"), Path("/etc/ld.so.cache")]
    for target in parsed.targets(*(o for o in ARITY if ARITY[o] and o not in (
            "--setenv", "--size", "--perms", "--uid", "--gid", "--unsetenv", "--cap-drop"))):
        if target in sandbox_judge.SYSTEM_FOLDERS or target == "/":
            continue
        assert any(_under(target, f) for f in allowed), f"{target} exists in the judge's sandbox"


def test_no_home_no_course_root_no_gradebook_in_the_judges_sandbox(judge_argv):
    parsed, workdir = judge_argv
    places = parsed.targets("--ro-bind", "--ro-bind-try", "--ro-bind-fd", "--file", "--dir",
                            "--tmpfs", "--symlink")
    for forbidden in ("/home", "/root", "/etc", "/srv", "/var", "/work", str(Path.home()),
                      str(sandbox_kernel.PACKAGE_ROOT)):
        assert forbidden not in places, forbidden
    for target in places:
        for home in (Path("/home"), Path("/root"), Path.home()):
            if _under(target, home):  # only the interpreter may live there (pyenv in /root)
                assert Path(target) in sandbox_kernel.kept_folders(), target
        if _under(target, sandbox_kernel.PACKAGE_ROOT):
            assert Path(target) in sandbox_kernel.kept_folders() or _under(target, workdir), target
    for name in ("gradebook.db", "nbgrader_config.py", "source", "autograded", "submitted"):
        assert str(sandbox_kernel.PACKAGE_ROOT / name) not in places


def test_the_judges_sandbox_is_read_only_and_its_notebooks_empty(judge_argv):
    parsed, workdir = judge_argv
    assert parsed.index("--remount-ro", str(workdir)) > max(
        parsed.index("--file", fd, t) for fd, t in parsed.all("--file"))
    assert ("--remount-ro", "/") in parsed.options
    assert parsed.sized("--tmpfs", "/tmp") == str(sandbox_judge.TMP_BYTES)
    assert parsed.sized("--tmpfs", str(workdir)) == str(sandbox_kernel.WORKSPACE_BYTES)
    notebook = str(workdir / "packing_by_hand.ipynb")
    assert [parsed.opened[fd] for fd, t in parsed.all("--file") if t == notebook] == [os.devnull]
    assert str(workdir / "outside-link") not in parsed.targets("--file", "--ro-bind", "--dir")


def test_the_judge_has_no_privilege_no_network_and_an_empty_environment(judge_argv, monkeypatch):
    parsed, workdir = judge_argv
    assert {"--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-net",
            "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent",
            "--new-session", "--clearenv"} <= parsed.flags()
    assert parsed.all("--cap-drop") == [["ALL"]]
    assert parsed.all("--uid") == parsed.all("--gid") == [["65534"]]
    setenv = parsed.all("--setenv")
    assert dict(map(tuple, setenv)) == sandbox_judge.judge_environment()
    assert "COURSE_GRADEBOOK_URL" not in dict(map(tuple, setenv))
    assert parsed.index("--clearenv") < min(parsed.index("--setenv", *a) for a in setenv)
    assert parsed.command == [sys.executable, "-I", "-c", judge_sandbox.LAUNCH]
    assert parsed.all("--chdir") == [[str(workdir)]]


def test_a_root_graders_judge_is_an_unprivileged_uid_of_its_own():
    uid, gid = sandbox_judge.outside_ids()
    if os.geteuid() == 0:
        assert uid == gid == sandbox_judge.OUTSIDE_BASE + os.getpid() < 2 ** 31
        assert sandbox_judge.OUTSIDE_BASE != sandbox_kernel.OUTSIDE_BASE  # never a kernel's uid
    else:
        assert (uid, gid) == (os.getuid(), os.getgid())


# --------------------------------------------------------------------------- one declaration

def test_a_new_hidden_folder_is_one_entry_and_both_paths_hide_it(tmp_path, close_fds):
    """A mount written once in a ``spec.Spec`` is on bubblewrap's command line and is made by
    the warm fork's ``warm.build`` (run here, as root, in a child of its own mount namespace)."""
    if os.geteuid() != 0:
        pytest.skip("the warm path mounts as root")
    import json

    from course.grading.sandbox import namespaces, warm

    secret = tmp_path / "new-hidden"
    secret.mkdir()
    (secret / "key").write_text("not for the sandbox")
    spec = sandbox_spec.Spec("host", (sandbox_spec.Tmpfs(secret, 65536),), tmp_path, {}, (0, 0, 0))
    parsed = parse(["bwrap", *sandbox_spec.bwrap_options(spec)])
    assert parsed.sized("--tmpfs", str(secret)) == "65536"
    assert parsed.index("--remount-ro", str(secret)) > parsed.index("--tmpfs", str(secret))
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            namespaces.unshare(namespaces.CLONE_NEWNS)
            warm.build(spec, 0, 0)
            mounts = [line.split() for line in open("/proc/self/mountinfo")]
            found = [fields[5] for fields in mounts if fields[4] == str(secret)]
            os.write(write, json.dumps([os.listdir(secret), found]).encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    listing, options = json.loads(os.read(read, 65536) or b"[null, null]")
    os.close(read)
    assert listing == [], "the warm path left the folder's files in sight"
    assert options and {"ro", "nosuid", "nodev"} <= set(options[-1].split(",")), options
    assert (secret / "key").exists(), "made in the child's namespace only"
