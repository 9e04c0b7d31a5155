"""Timings for the course, printed (never asserted).

    python -m course.grading.dev.bench [--students 40] [--stall-runs 100] [--jobs N] [--rounds 3]

* widget redraw of the packing explorer;
* run-all of every instructor notebook in a fresh kernel;
* token-chunker throughput (the instructor's ``chunk_by_tokens``);
* a class of ``--students`` solved submissions graded by plain ``nbgrader autograde`` and by
  ``python -m course grade`` (as a TA runs it, with the workers it starts by itself, or
  ``--jobs N``; the same course settings, separate scratch copies; as
  root also with ``COURSE_WARM_KERNELS=0``, every kernel started cold in bubblewrap),
  each timed as the whole command a TA waits for, with its CPU use (``--rounds`` pairs in
  turn, and the median ratio: this shared machine's speed drifts by a third between runs);
* one grader against two at once on one PostgreSQL gradebook (``bench_graders.py``);
* kernel start: seconds from start to a kernel that answers, plain ``python3`` and the
  ``course-sandbox`` kernel (median of a few starts, in a scratch submission folder);
* stalls: ``--stall-runs`` autogrades of a notebook that displays ipywidgets (``interact``
  and ``Output``), counting notebooks in which any cell hit its timeout (``--grading-only``
  counts them too);
* ``--burner``: ten honest classmates' grading seconds beside a student who sleeps and beside
  one whose 60 children burn CPU (each kernel's cgroup gives it one CPU, under a root grader);
* ``--cluster``: the same class graded by the local command (``--jobs 1``, ``--jobs 2``) and on
  a Dask cluster of this machine (a scheduler and one, then two, workers as processes, over TLS):
  seconds per submission, and what a task costs beyond the local command's work;
* ``--service`` (as root; not part of the default run): the class server's grading service,
  submit-to-feedback for one student (median, 95th percentile over ``--service-times``) and a
  burst of ``--service-students`` within a minute, beside the batch's per-student time in the
  same run (``bench_service.py``);
* the students' wheel: its size, its install into a fresh venv (with ipykernel and nbclient,
  pip's cache warm) and run-all of every solved release notebook there
  (``--student-wheel-only`` measures just this).
"""
import argparse
import contextlib
import copy
import importlib.util
import os
import shutil
import subprocess
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from course.grading.batch import pool as batch
from course.grading.attempts import attempts
from course.grading.batch.workers import default_jobs
from course.grading.dev import bench_graders, bench_service
from course.grading.dev import run_notebooks as notebook_runner
from course.grading.dev.figures import PERFORMANCE, Figures
from course.grading.course_dir import A1, BIN, ROOT, assignments, nbgrader, notebooks, tool_env
from course.grading.dev.student_venv import fresh_venv, release_copy, run_notebooks
from course.grading.releases.wheel import build
from course.grading.submissions import grade_id, is_test_cell, reference_submission, solutions

WIDGET_CELLS = [
    "import ipywidgets as w\nfrom IPython.display import display",
    *[f"w.interact(lambda limit: len(pack_paragraphs(HANDBOOK, limit)), limit=(20, 400, {k}))"
      for k in (10, 20, 40)],
    *[f"out = w.Output()\ndisplay(out)\nwith out:\n    print('inside an Output widget', {k})"
      for k in range(3)],
]


def _instructor_code(assignment: str, grade_id: str) -> dict:
    namespace: dict = {}
    source = notebooks(ROOT, assignment, "source")[0]
    exec(solutions(nbformat.read(source, as_version=4))[grade_id], namespace)
    return namespace


def redraw_ms() -> tuple[float, float]:
    """Median and worst redraw of the packing explorer over a full slider sweep."""
    from course.lessons.packing_explorer import packing_explorer
    from course.lessons.paragraph_sets import HANDBOOK

    box = packing_explorer(_instructor_code(A1, "pack_paragraphs")["pack_paragraphs"], HANDBOOK)
    times = []
    for value in range(box.slider.min, box.slider.max + 1, box.slider.step):
        started = time.perf_counter()
        box.slider.value = value
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def run_all_seconds(assignment: str) -> float:
    """Seconds to execute the instructor's notebook top to bottom in a fresh kernel (a copy of
    its folder, so the source keeps no outputs)."""
    source = notebooks(ROOT, assignment, "source")[0]
    with tempfile.TemporaryDirectory(prefix="bench-run-all-") as scratch:
        copy = Path(scratch) / source.parent.name
        shutil.copytree(source.parent, copy)
        return notebook_runner.run(str(copy / source.name), timeout=120)


def token_throughput() -> float:
    """Tokens per second through the instructor's chunk_by_tokens (512-token windows)."""
    from course.lessons.documents import POLICY
    from course.lessons.tokens import count_tokens

    chunk_by_tokens = _instructor_code("02-overlap-math", "chunk_by_tokens")["chunk_by_tokens"]
    text = (POLICY + "\n") * 200
    started = time.perf_counter()
    chunk_by_tokens(text, 512, 64)
    return count_tokens(text) / (time.perf_counter() - started)


def kernel_start_seconds(kernel_name: str, runs: int = 5) -> float:
    """Median seconds from starting ``kernel_name`` to its first answered request."""
    from jupyter_client.manager import KernelManager

    from course.grading.sandbox.kernel_manager import course_kernel_specs

    folder = Path(tempfile.mkdtemp(prefix="bench-kernel-"))
    times = []
    try:
        for _ in range(runs):
            started = time.perf_counter()
            # Over IPC, as graded kernels are: over TCP ipykernel warns on the terminal.
            km = KernelManager(kernel_name=kernel_name, transport="ipc", ip=str(folder / "kernel"),
                               kernel_spec_manager=course_kernel_specs())
            km.start_kernel(cwd=str(folder))
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=60)
            kc.execute_interactive("pass", timeout=60)
            times.append(time.perf_counter() - started)
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return statistics.median(times)


def judge_cost(runs: int = 5) -> dict[str, tuple[float, float]]:
    """What judging A1's test cells costs per student: in the judge's own sandbox (a new one
    per student, as graded: started in bubblewrap, and, under a root grader, forked from a
    worker's warm template), against the same cells judged in this process (as before the
    judge had a sandbox). Name -> (median wall seconds, median CPU seconds of this process and
    all it started, the kernel's serving included, which is the same in all: counted by a
    cgroup of its own under a root grader, else this process and its waited children)."""
    import resource

    nb = reference_submission(ROOT / "source" / A1 / "packing_by_hand.ipynb",
                              ROOT / "release" / A1 / "packing_by_hand.ipynb")
    source = nbformat.read(ROOT / "source" / A1 / "packing_by_hand.ipynb", as_version=4)
    tests = [(grade_id(c), c.source) for c in source.cells if is_test_cell(c)]
    with _tree_cpu(resource) as tree_cpu:
        return _judge_cost(runs, nb, tests, tree_cpu)


def _judge_cost(runs: int, nb, tests, tree_cpu) -> dict[str, tuple[float, float]]:
    from jupyter_client.manager import KernelManager

    from course.grading.judge.core import Judge
    from course.grading.judge.sandbox import JudgeSandbox
    from course.grading.judge.kernel_link import Link
    from course.grading.sandbox.template import Template, fork_from

    folder = Path(tempfile.mkdtemp(prefix="bench-judge-"))
    # Over IPC, as graded kernels are: over TCP ipykernel warns on the terminal.
    km = KernelManager(kernel_name="python3", transport="ipc", ip=str(folder / "kernel"))
    km.start_kernel(cwd=str(folder))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    template = Template(folder / "template.log")
    address = template.ensure()  # None unless root
    found: dict[str, list[tuple[float, float]]] = {"sandboxed judge (bubblewrap)": [],
                                                   "in-process judge": []}
    if address:
        found["sandboxed judge (forked from a warm template)"] = []
    try:
        for cell in nb.cells:
            if cell.cell_type == "code" and not is_test_cell(cell):
                kc.execute_interactive(cell.source, timeout=60, output_hook=lambda msg: None)
        for _ in range(runs):
            for name in found:
                fork_from(address if "forked" in name else None)
                link = Link(km, timeout=30, interrupt=km.interrupt_kernel,
                            restart=lambda: km.restart_kernel(now=True), alive=km.is_alive)
                cpu = tree_cpu()
                started = time.perf_counter()
                judge = (Judge(link, str(folder)) if name == "in-process judge"
                         else JudgeSandbox(link, str(folder), timeout=30))
                for gid, code in tests:
                    judge.run(code, gid)
                if isinstance(judge, JudgeSandbox):
                    judge.close()
                found[name].append((time.perf_counter() - started, tree_cpu() - cpu))
                link.close()
                fork_from(None)
    finally:
        template.stop()
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        shutil.rmtree(folder, ignore_errors=True)
    return {name: (statistics.median(w for w, _ in times), statistics.median(c for _, c in times))
            for name, times in found.items()}


@contextlib.contextmanager
def _tree_cpu(resource):
    """A function giving the CPU seconds this process and all it starts inside the block have
    used: this process in a cpuacct cgroup of its own while inside, where one can be made (a
    root grader: it also counts what a warm template forks), else this process and its waited
    children."""
    from course.grading.sandbox import cgroups

    if cgroups.status() is not None:
        yield lambda: time.process_time() + _children_cpu(resource)
        return
    own = cgroups.HIERARCHIES / "cpuacct" / cgroups.own_group("cpuacct").lstrip("/")
    folder = own / f"bench-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    (folder / "cgroup.procs").write_text(str(os.getpid()))
    try:
        yield lambda: int((folder / "cpuacct.usage").read_text()) / 1e9
    finally:
        (own / "cgroup.procs").write_text(str(os.getpid()))
        for _ in range(100):  # until what it started has left it
            try:
                folder.rmdir()
                break
            except OSError:
                time.sleep(0.05)


def _children_cpu(resource) -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _class(students: int, extra_cells=()) -> Path:
    """A scratch course holding ``students`` solved A1 submissions."""
    root = Path(tempfile.mkdtemp(prefix="bench-"))
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(ROOT / "source" / A1, root / "source" / A1)
    nbgrader("generate_assignment", A1, "--force", root=root)
    release = notebooks(root, A1, "release")[0]
    nb = reference_submission(notebooks(root, A1, "source")[0], release)
    nb.cells += [nbformat.v4.new_code_cell(code) for code in extra_cells]
    for i in range(students):
        folder = root / "submitted" / f"student-{i:03d}" / A1
        folder.mkdir(parents=True)
        nbformat.write(_own_words(nb, f"student-{i:03d}"), folder / release.name)
    return root


def _own_words(nb, student: str):
    """``nb`` with every answer cell made this student's own (a comment in their code, a line
    in their prose), as in a real class: no cache may find one student's work in another's."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source += (f"\n# written by {student}" if cell.cell_type == "code"
                            else f"\n\n(My own words, {student}.)")
    return nb


def _busy_seconds() -> float:
    """CPU seconds the whole machine has been busy since boot (``/proc/stat``): unlike
    rusage, it also counts sandboxed kernels that are killed and never waited for."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _timed(argv: list[str], root: Path, **env: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds the machine was busy) of one command run in ``root`` (with
    ``env`` added to its environment); run it on an otherwise idle machine, since the CPU is
    counted machine-wide."""
    before = _busy_seconds()
    started = time.perf_counter()
    subprocess.run(argv, cwd=root, env={**tool_env(), **env}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - started
    return wall, _busy_seconds() - before


def plain_vs_parallel(students: int, jobs: int | None) -> dict[str, tuple[float, float]]:
    """The whole commands a TA waits for, on two copies of one class, one after the other:
    plain ``nbgrader autograde`` (grades only) and ``python -m course grade`` with ``jobs``
    workers, or as many as it starts by itself (grades, feedback, CSVs, class report).
    Name -> (wall seconds, CPU seconds)."""
    roots = [_class(students) for _ in range(3 if os.geteuid() == 0 else 2)]
    workers = ["--jobs", str(jobs)] if jobs else []
    named = (f"python -m course grade {' '.join(workers)}" if jobs else
             f"python -m course grade (its {default_jobs()} workers)")
    course = lambda root: [str(BIN / "python"), "-m", "course", "grade", A1, *workers,
                           "--course", str(root)]
    try:
        timings = {
            "plain nbgrader autograde": _timed(
                [str(BIN / "nbgrader"), "autograde", A1, "--create", "--force"], roots[0]),
            named: _timed(course(roots[1]), roots[1]),
        }
        if len(roots) > 2:  # a root grader forks warm kernels; this is the same, cold
            timings[f"{named}, kernels cold (COURSE_WARM_KERNELS=0)"] = _timed(
                course(roots[2]), roots[2], COURSE_WARM_KERNELS="0")
        return timings
    finally:
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)


def burner(children: int = 60, seconds: float = 10) -> str:
    """Cell code whose ``children`` forked children (sharing the kernel's pages) spin for
    ``seconds`` of wall time each, waited for (also ``test_kernel_cgroups``' burner)."""
    return f"""
import os, time
children = []
for _ in range({children}):
    pid = os.fork()
    if pid == 0:
        end = time.time() + {seconds}
        while time.time() < end:
            pass
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
"""


SLEEPER = "import time\ntime.sleep(10)"


def beside_a_burner(honest: int = 10, jobs: int = 2) -> dict[str, float]:
    """Seconds each of ``honest`` classmates takes to grade (mean of their attempts) when the
    class also holds a student who sleeps 10 s, and when it holds one whose 60 children burn
    CPU for 10 s instead (graded first, so it runs beside them)."""
    seconds = {}
    for name, code in (("beside a sleeper", SLEEPER), ("beside a CPU burner", burner())):
        root = _class(honest)
        try:
            release = notebooks(root, A1, "release")[0]
            nb = reference_submission(notebooks(root, A1, "source")[0], release)
            nb.cells.append(nbformat.v4.new_code_cell(code))
            folder = root / "submitted" / "aaa-first" / A1
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / release.name)
            started = time.perf_counter()
            outcomes = batch.grade(A1, root, jobs=jobs, progress=lambda *a, **k: None)
            seconds[f"{name}, whole class"] = time.perf_counter() - started
            times = [t.seconds for o in outcomes if o.student_id != "aaa-first"
                     for t in attempts(root, A1, o.student_id)[-1:]]
            seconds[name] = statistics.mean(times)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return seconds


def _burner_figures(figures: Figures) -> None:
    seconds = beside_a_burner()
    sleeper, burner = seconds["beside a sleeper"], seconds["beside a CPU burner"]
    figures.add("burner", "A CPU burner in the class",
                f"10 honest classmates, --jobs 2, each graded in {sleeper:.2f} s beside a "
                f"student who sleeps 10 s and {burner:.2f} s beside one whose 60 children burn "
                f"CPU for 10 s ({burner / sleeper - 1:+.0%}; whole class "
                f"{seconds['beside a sleeper, whole class']:.1f} s and "
                f"{seconds['beside a CPU burner, whole class']:.1f} s)")


def similarity_seconds(students: int) -> float:
    """Seconds for the class report's similarity check over ``students`` submissions (all
    alike: every pair matches, the worst case)."""
    from course.grading.second_opinion.similarity import similar_pairs

    root = _class(students)
    try:
        started = time.perf_counter()
        similar_pairs(root, A1, [f"student-{i:03d}" for i in range(students)])
        return time.perf_counter() - started
    finally:
        shutil.rmtree(root, ignore_errors=True)


def stalls(runs: int, jobs: int) -> tuple[int, int]:
    """(notebooks with a cell timeout, notebooks graded) over ``runs`` widget notebooks."""
    root = _class(runs, WIDGET_CELLS)
    try:
        outcomes = batch.grade(A1, root, jobs=jobs, progress=lambda *a, **k: None)
        stalled = 0
        for outcome in outcomes:  # one notebook each: did its last grading see a cell time out?
            tries = attempts(root, A1, outcome.student_id)
            stalled += bool(tries and tries[-1].cell_timeouts)
        return stalled, sum(o.score is not None for o in outcomes)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def student_wheel() -> tuple[int, float, dict[str, float]]:
    """The students' wheel: its bytes, seconds to install it into a fresh venv, and seconds
    to run each solved release notebook in that venv's kernels."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-wheel-"))
    try:
        wheel = build(scratch / "dist")
        started = time.perf_counter()
        fresh_venv(scratch / "venv", wheel, "ipykernel", "nbclient")
        install = time.perf_counter() - started
        seconds, _ = run_notebooks(scratch / "venv", release_copy(scratch / "class", solved=True),
                                   cwd=scratch)
        return wheel.stat().st_size, install, {p.parent.name: s for p, s in seconds.items()}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _student_wheel_figures(figures: Figures) -> None:
    size, install, runs = student_wheel()
    figures.add("wheel", "The students' wheel",
                f"students' wheel: {size / 1024:.0f} KiB; fresh-venv install {install:.1f} s; "
                f"run-all of the solved releases {sum(runs.values()):.1f} s "
                f"({', '.join(f'{a[:2]} {s:.1f} s' for a, s in runs.items())})")


def _grading_figures(figures: Figures, students: int, jobs: int, rounds: int = 1) -> None:
    """Plain against the course's command, ``rounds`` times in turn: on a shared machine one
    run can be 30% off the next, so the ratio quoted is the median of the rounds'."""
    def add(line):
        figures.add("grading", "A class graded: plain nbgrader against the course's command", line)

    add(f"whole command, {students} solved submissions of {A1} (start to prompt):")
    ratios = []
    for number in range(1, rounds + 1):
        timings = plain_vs_parallel(students, jobs)
        for name, (wall, cpu) in timings.items():
            add(f"  {f'round {number}, ' if rounds > 1 else ''}{name}: {wall:.1f} s, "
                f"{wall / students:.2f} s each, CPU {cpu / students:.2f} s each "
                f"({cpu / wall / (os.cpu_count() or 1):.0%} of {os.cpu_count()} cores, "
                "machine-wide)")
        (plain, _), (course, _), *_ = timings.values()
        ratios.append(plain / course)
    add(f"  the course's command is {statistics.median(ratios):.2f}x plain nbgrader's speed"
        + (f" (median of {rounds} rounds: {', '.join(f'{r:.2f}x' for r in ratios)})"
           if rounds > 1 else ""))


def cluster_vs_local(students: int) -> dict[str, float]:
    """Wall seconds of the whole grading command on copies of one class: locally with one and
    two workers, and on a cluster of this machine with one and two workers (started before the
    command, as a TA's would be). Name -> seconds."""
    from course.grading.cluster.certs import make_certs
    from course.grading.cluster.local import LocalCluster

    scratch = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    workers = Path(tempfile.mkdtemp(prefix="bench-cluster-workers-", dir="/var/tmp"))
    workers.chmod(0o755)
    roots = []
    try:
        make_certs(scratch / "certs")
        seconds = {}

        def timed(name: str, *options: str) -> None:
            root = _class(students)
            roots.append(root)
            seconds[name], _ = _timed([str(BIN / "python"), "-m", "course", "grade", A1,
                                       "--course", str(root), *options], root)

        timed("local --jobs 1", "--jobs", "1")
        timed("local --jobs 2", "--jobs", "2")
        with LocalCluster(workers, scratch / "certs") as cluster:
            for count in (1, 2):
                cluster.add_worker(f"w{count}")
                timed(f"cluster, {count} worker{'s' if count > 1 else ''}", "--cluster",
                      cluster.address, "--certs", str(scratch / "certs"))
        return seconds
    finally:
        for folder in (scratch, workers, *roots):
            shutil.rmtree(folder, ignore_errors=True)


def _cluster_figures(figures: Figures, students: int) -> None:
    def add(line):
        figures.add("cluster", "A class on a Dask cluster of this machine", line)

    seconds = cluster_vs_local(students)
    add(f"whole command, {students} solved submissions of {A1}, local against a cluster of "
        "this machine (scheduler and workers as processes, TLS):")
    for name, wall in seconds.items():
        add(f"  {name}: {wall:.1f} s, {wall / students:.2f} s each")
    for count, jobs in ((1, 1), (2, 2)):
        extra = (seconds[f"cluster, {count} worker{'s' if count > 1 else ''}"]
                 - seconds[f"local --jobs {jobs}"]) / students
        add(f"  overhead per task, {count} worker{'s' if count > 1 else ''} against "
            f"--jobs {jobs}: {extra:+.2f} s")


def _judge_figures(figures: Figures) -> None:
    for name, (wall, cpu) in judge_cost().items():
        figures.add("judge", "What judging costs",
                    f"{name}, A1's test cells for one student: {wall:.2f} s, {cpu:.2f} CPU-s")


def _lesson_figures(figures: Figures) -> None:
    def add(line):
        figures.add("lessons", "Lessons: explorers, run-all, tokens", line)

    median, worst = redraw_ms()
    add(f"packing explorer redraw: median {median:.0f} ms, worst {worst:.0f} ms")
    for assignment in assignments():
        add(f"run-all {assignment}: {run_all_seconds(assignment):.2f} s")
    add(f"chunk_by_tokens: {token_throughput():,.0f} tokens/s")


def _stall_figures(figures: Figures, runs: int, jobs: int) -> None:
    stalled, graded = stalls(runs, jobs)
    figures.add("stalls", "Stalls",
                f"stalls: {stalled} of {graded} widget notebooks graded hit a cell timeout")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--stall-runs", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=None,
                        help="workers of the course's command (default: as many as it starts "
                             f"by itself, here {default_jobs()})")
    parser.add_argument("--student-wheel-only", action="store_true")
    parser.add_argument("--judge-only", action="store_true",
                        help="only what the judge's sandbox costs per student")
    parser.add_argument("--rounds", type=int, default=3,
                        help="plain against the course's command this many times in turn")
    parser.add_argument("--grading-only", action="store_true",
                        help="only plain nbgrader against the course's command")
    parser.add_argument("--no-write", action="store_true",
                        help=f"print only; do not update {PERFORMANCE.relative_to(ROOT)}")
    parser.add_argument("--burner", action="store_true",
                        help="only honest classmates graded beside a sleeper and a CPU burner")
    parser.add_argument("--cluster", action="store_true",
                        help="only the local command against a Dask cluster of this machine")
    parser.add_argument("--service", action="store_true",
                        help="only the class server's grading service beside the batch (root)")
    parser.add_argument("--service-students", type=int, default=50,
                        help="students of --service: one alone, then the rest in a burst")
    parser.add_argument("--service-times", type=int, default=10,
                        help="submissions of --service's one student, one after another")
    args = parser.parse_args(argv)
    jobs = args.jobs or default_jobs()  # for the widget notebooks' stall count
    figures = Figures(argv=argv)
    if args.service:
        for line in bench_service.report(args.service_students, args.service_times,
                                         args.jobs or 2):
            figures.add("service", "Feedback when a student submits: the grading service", line)
    elif args.cluster:
        _cluster_figures(figures, args.students)
    elif args.judge_only:
        _judge_figures(figures)
    elif args.student_wheel_only:
        _student_wheel_figures(figures)
    elif args.grading_only:
        _grading_figures(figures, args.students, args.jobs, args.rounds)
        if args.stall_runs:
            _stall_figures(figures, args.stall_runs, jobs)
    elif args.burner:
        _burner_figures(figures)
    else:
        _lesson_figures(figures)
        for kernel in ("python3", "course-sandbox"):
            figures.add("kernels", "Kernel start",
                        f"kernel start, {kernel}: {kernel_start_seconds(kernel):.2f} s")
        _judge_figures(figures)
        _grading_figures(figures, args.students, args.jobs, args.rounds)
        figures.add("graders", "Several graders, one PostgreSQL gradebook", bench_graders.report(8))
        if importlib.util.find_spec("distributed") is not None:
            _cluster_figures(figures, 8)
        figures.add("similarity", "The similarity check",
                    f"similarity check, {args.students} submissions of {A1}: "
                    f"{similarity_seconds(args.students):.1f} s")
        _stall_figures(figures, args.stall_runs, jobs)
        _burner_figures(figures)
        _student_wheel_figures(figures)
    if not args.no_write:
        print(f"figures written to {figures.write().relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    main()
