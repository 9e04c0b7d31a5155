"""No graded question is answered by anything the student sees before it.

Walks every source notebook in order. For each graded multiple-choice or numeric question (a
solution cell that sets names to literals which a later test cell checks), it collects what a
student sees before the question: every earlier cell as released (no solution, no hidden test,
no mark scheme), the source of every explorer an earlier cell runs (what it prints shows
before the question too), the flashcard decks of this assignment and the ones before it (a
later deck reviews this one's answers: spaced repetition) and the course analogy (shown at the
top of assignment 1). The answer must not show there:

* a multiple-choice answer: no run of six words of the right option's text;
* a number, string or list: no visible check ``expect(…, value)`` or ``… == value`` on it;
* a list of numbers: not written out in the prose (e.g. "200, 60 and 150");
* a set, list, tuple or dict answer, graded or only predicted: not the example its question
  gives (e.g. `{"fixed"}`);
* every answer, and every prediction that has them: none of the giveaway phrases that review
  once found before the question (paraphrases a word-match cannot see), so they cannot come
  back.
"""
import ast
import importlib
import inspect
import re
from functools import lru_cache

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.lessons.analogy import TEXTS as ANALOGY
from course.lessons.flashcard_decks import DECKS
from harness import visible

ASSIGNMENTS = assignments()
NGRAM = 6

# Phrases that once answered a question before it was asked (found by review, now removed).
GIVEAWAYS = {
    "needs_two_sections": ["which no boundary rule fixes"],
    "understanding": ["needs a sentence from each", "which no boundary rule fixes"],
    "apac_alone_enough": ["the model just cannot read it", "three tokens with no meaning"],
    "fixed_top_has_header": ["retrieval may well find that chunk", "where fixed chunks cannot"],
    "groups_at_10": ["number of groups\", len(groups), 4"],
    "threshold_effect": ["never fewer: a gap that cuts"],
    "overlap_evidence": ["it stores text another window already holds",
                         "the overlap itself are not new evidence", "overlap only repeats text",
                         "it holds nothing new", "competes for a slot in the top-k"],
    "overflow_at_500": ["characters into a token", "a token or more per character"],
    "row_without_header_possible": ["nothing smaller keeps a row with its header",
                                    "use `max_rows = 1` anyway",
                                    "if not even one row per group fits"],
    # issue 44: the explorer's summary, assignment 5's deck and the introduction said these
    "cost_source": ["sentences to find the cuts", "more sentences per section, a bigger bill",
                    "you embed every sentence", "every sentence is embedded to find the cuts",
                    "a model call per sentence", "the index needs one vector per chunk"],
    "worth_it_when": ["boundaries still feel wrong", "transcripts, support chats",
                      "structure first; semantic chunking",
                      "the only strategy here that finds the topics"],
    "fix_for_torn_rule": ["keeps all nine rules whole", "so every rule, whole",
                          "what if the sentence end came first"],
    "why_chunk_time": ["part 5's q2 asks what this demonstration shows", "✗ wrong section",
                       "which section was it? nothing in it says"],
}

# Predictions (not graded, but predict-first) that a paragraph before them once answered.
PREDICTION_GIVEAWAYS = {
    "predicted_complete_hotel": ["chunkers cut the hotel rule"],
    "predicted_complete_travel": ["misses at top-1 everywhere"],
    # walk 4: the contractors' retrieval line printed, and a note said who wins, before demo 3
    "predicted_fates": ["won by the heading path", "[contractor_leave]"],
}

def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def ngrams(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + NGRAM]) for i in range(len(w) - NGRAM + 1)}


def _solution_values(source: str) -> dict:
    """Names set to literals inside the solution markers, e.g. {"chunks_at_200": 3}."""
    match = re.search(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", source, re.S)
    values = {}
    if match:
        try:
            tree = ast.parse(match.group(1))
        except SyntaxError:
            return {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                try:
                    values[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    pass
    return values


def _option(question: str, letter: str, block: str | None = None) -> str | None:
    """The text of option ``letter`` ("A" or "a") in a question cell (or its ``**Q1.**`` block)."""
    if block:
        found = re.search(rf"\*\*{block}\.\*\*(.*?)(?=\*\*Q\d\.\*\*|\Z)", question, re.S)
        question = found.group(1) if found else ""
    pattern = (rf"^\* \*\*{letter}\*\* — (.*?)(?=^\* |\Z)" if letter.isupper()
               else rf"^\* {letter}\) (.*?)(?=^\* |\Z)")
    found = re.search(pattern, question, re.S | re.M)
    return found.group(1) if found else None


def answers_and_questions(cells):
    """(index, cell, question index) of each ungraded answer cell (graded answers and
    predictions), with the markdown cell above it that asks the question."""
    for index, cell in enumerate(cells):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("solution") or meta.get("grade"):
            continue
        q = index - 1
        while q > 0 and cells[q].cell_type != "markdown":
            q -= 1
        yield index, cell, q


@lru_cache(maxsize=None)
def questions(assignment):
    """[(name, value, question cell index, option text or None, cells)] of graded answers."""
    found = []
    for path in notebooks(ROOT, assignment, "source"):
        cells = nbformat.read(path, as_version=4).cells
        tested = "\n".join(c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade")
                           and c.cell_type == "code")
        for index, cell, q in answers_and_questions(cells):
            for name, value in _solution_values(cell.source).items():
                if not re.search(rf"\b{name}\b", tested):
                    continue
                answers = value.items() if isinstance(value, dict) else [(None, value)]
                for block, answer in answers:
                    option = (_option(cells[q].source, answer, block)
                              if isinstance(answer, str) and re.fullmatch(r"[A-Da-d]", answer)
                              else None)
                    label = f"{name}[{block}]" if block else name
                    found.append((label, name, answer, q, option, tuple(cells)))
    return found


def deck_text(assignment: str) -> str:
    """The decks a student has met by ``assignment``: its own and the earlier ones."""
    return " ".join(f"{c.front} {c.back}" for key, deck in DECKS.items()
                    if key <= assignment[:2] for c in deck)


EXPLORER = re.compile(r"(explorer|stepper|side_by_side)$")


def explorer_sources(cells) -> dict[int, str]:
    """{cell index: source of the course modules whose explorers that code cell runs}."""
    imported = {}
    for cell in cells:
        for module, name in re.findall(r"from (course\.lessons\.\w+) import \(?([\w\s,]+)\)?",
                                       cell.source if cell.cell_type == "code" else ""):
            imported.update({n.strip(): module for n in name.split(",") if n.strip()})
    found = {}
    for index, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(visible(cell.source))
        except SyntaxError:
            continue
        called = {node.func.id for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        modules = {imported[n] for n in called if EXPLORER.search(n) and n in imported}
        if modules:
            found[index] = " ".join(inspect.getsource(importlib.import_module(m))
                                    for m in sorted(modules))
    return found


def _checks_value(code: str, value) -> bool:
    """True if visible code checks something against ``value`` (expect(…, value) or == value)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        candidates = []
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "expect" \
                and len(node.args) >= 3:
            candidates.append(node.args[2])
        if isinstance(node, ast.Compare):
            candidates += node.comparators
        for candidate in candidates:
            try:
                if type(ast.literal_eval(candidate)) is type(value) \
                        and ast.literal_eval(candidate) == value:
                    return True
            except ValueError:
                pass
    return False


def leaks(label, name, value, q, option, cells, assignment="06") -> list[str]:
    before = [(i, visible(c.source), c.cell_type) for i, c in enumerate(cells[:q])]
    before += [(f"{i} (its explorer)", text, "markdown")
               for i, text in explorer_sources(cells).items() if i < q]
    before.append(("the flashcard decks", deck_text(assignment), "markdown"))
    before.append(("the analogy", " ".join(ANALOGY.values()), "markdown"))  # shown in A1
    found = []
    option_grams = ngrams(option) if option else set()
    numeric = not isinstance(value, bool) and isinstance(value, (int, str, list, tuple))
    for where, text, kind in before:
        lower = " ".join(text.lower().split())
        shared = option_grams & ngrams(text)
        if shared:
            found.append(f"cell {where} repeats the right option: {' '.join(sorted(shared)[0])!r}")
        for phrase in GIVEAWAYS.get(name, []) + PREDICTION_GIVEAWAYS.get(name, []):
            if phrase in lower:
                found.append(f"cell {where} holds the giveaway {phrase!r}")
        if numeric and kind == "code" and not (isinstance(value, str) and len(value) == 1) \
                and _checks_value(text, value):
            found.append(f"cell {where} checks a value against {value!r}")
        if isinstance(value, list) and len(value) > 1 and all(type(v) is int for v in value):
            spelled = r"[,\s]+(?:and\s+)?".join(str(v) for v in value)
            if re.search(rf"\b{spelled}\b", text):
                found.append(f"cell {where} spells out {value!r}")
    return found


CASES = [(a, case) for a in ASSIGNMENTS for case in questions(a)]


def test_the_walk_finds_the_graded_questions():
    labels = {case[0] for _, case in CASES}
    for name in ("chunks_at_200", "sizes_at_200", "understanding", "overlap_evidence",
                 "k_by_hand", "fix_for_torn_rule", "groups_at_10", "apac_alone_enough",
                 "KNOWLEDGE[Q1]", "cost_source", "worth_it_when", "threshold_effect"):
        assert name in labels, f"{name} is not found as a graded question"
    letters = [case for _, case in CASES if isinstance(case[2], str) and len(case[2]) == 1
               and case[2].upper() in "ABCD"]
    assert letters and all(case[4] for case in letters), \
        [case[0] for case in letters if not case[4]]


@pytest.mark.parametrize("assignment,case", CASES, ids=[f"{a[:2]}-{c[0]}" for a, c in CASES])
def test_no_answer_shows_before_its_question(assignment, case):
    label, name, value, q, option, cells = case
    found = leaks(*case, assignment=assignment)
    assert not found, f"{assignment} {label} (asked in cell {q}): " + "; ".join(found)


def predictions(assignment):
    """[(name, value, question cell index, cells)] of the predictions with giveaway phrases."""
    found = []
    for path in notebooks(ROOT, assignment, "source"):
        cells = tuple(nbformat.read(path, as_version=4).cells)
        for index, cell, q in answers_and_questions(cells):
            for name, value in _solution_values(cell.source).items():
                if name in PREDICTION_GIVEAWAYS:
                    found.append((name, name, value, q, None, cells))
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_prediction_is_given_away_before_it(assignment):
    found = [f"{case[0]}: {problem}" for case in predictions(assignment)
             for problem in leaks(*case, assignment=assignment)]
    assert not found, f"{assignment}: " + "; ".join(found)


def test_the_walk_would_catch_a_leak():
    """The checks fire on the leaks review found: an option quoted early, a visible test."""
    cases = {case[0]: case for _, case in CASES}
    label, name, value, q, option, cells = cases["overlap_evidence"]
    early = nbformat.v4.new_markdown_cell("Remember: " + option)
    assert leaks(label, name, value, q + 1, option, (early,) + cells)
    label, name, value, q, option, cells = cases["groups_at_10"]
    test = nbformat.v4.new_code_cell('expect("groups", len(groups), 4)')
    assert leaks(label, name, value, q + 1, option, (test,) + cells)
    label, name, value, q, option, cells = cases["sizes_at_200"]
    prose = nbformat.v4.new_markdown_cell("They pack into chunks of 200, 60 and 150 words.")
    assert leaks(label, name, value, q + 1, option, (prose,) + cells)


# --- a question's example is not its answer --------------------------------------------------

EXAMPLE = re.compile(r"`([\[{(][^`]*)`")


def examples(question: str) -> list:
    """The container literals a question cell shows in code spans, e.g. ``{"fixed": 1}``."""
    found = []
    for span in EXAMPLE.findall(question):
        try:
            found.append(ast.literal_eval(span))
        except (ValueError, SyntaxError):
            pass
    return found


def example_leaks(cells) -> list[str]:
    """Answer cells (graded or predictions) whose solution is the example the question shows."""
    found = []
    for index, cell, q in answers_and_questions(cells):
        shown = examples(visible(cells[q].source))
        for name, value in _solution_values(cell.source).items():
            if isinstance(value, (set, list, tuple, dict)) and value in shown:
                found.append(f"{name} = {value!r} is the example of its question (cell {q})")
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_example_is_the_answer(assignment):
    for path in notebooks(ROOT, assignment, "source"):
        found = example_leaks(nbformat.read(path, as_version=4).cells)
        assert not found, f"{path.name}: " + "; ".join(found)


def test_the_example_check_would_catch_a_leak():
    question = nbformat.v4.new_markdown_cell('Set `guess` to a set, e.g. `{"fixed"}`.')
    answer = nbformat.v4.new_code_cell('guess = None\n### BEGIN SOLUTION\nguess = {"fixed"}\n'
                                       '### END SOLUTION')
    answer.metadata["nbgrader"] = {"solution": True, "grade": False}
    assert example_leaks([question, answer])
    question.source = 'Set `guess` to a set, e.g. `{"recursive"}`.'
    assert not example_leaks([question, answer])


# --- a prediction is graded for commitment, not correctness ----------------------------------

REVEAL = re.compile(r"reveal_after\(\s*\[([^\]]*)\]")
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)


def graded_before_reveal(cells) -> list[tuple[int, list[str], int]]:
    """(test cell index, names, reveal cell index) of each graded test cell that checks a name
    a later ``reveal_after([...])`` shows the answer to."""
    revealed = {}
    for index, cell in enumerate(cells):
        if cell.cell_type == "code":
            for names in REVEAL.findall(cell.source):
                for name in re.findall(r"[\"'](\w+)", names):
                    revealed.setdefault(name, index)
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "code" or not cell.metadata.get("nbgrader", {}).get("grade"):
            continue
        names = [n for n, at in revealed.items() if at > index and re.search(rf"\b{n}\b",
                                                                              cell.source)]
        if names:
            found.append((index, names, min(revealed[n] for n in names)))
    return found


def _equals_value(code: str, value) -> bool:
    """True if ``code`` compares something with ``==`` to ``value`` (its type too)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq) for op in node.ops):
            for side in [node.left, *node.comparators]:
                try:
                    literal = ast.literal_eval(side)
                except ValueError:
                    continue
                if type(literal) is type(value) and literal == value:
                    return True
    return False


def graded_for_correctness(cells, index: int) -> list[str]:
    """Why the graded cell at ``index`` rewards the right answer rather than a committed one."""
    source = cells[index].source
    hidden = " ".join(HIDDEN.findall(source))
    answer = next((c for c in reversed(cells[:index])
                   if c.metadata.get("nbgrader", {}).get("solution")), None)
    values = _solution_values(answer.source) if answer is not None else {}
    why = []
    if re.search(r"\bexpect\(", hidden):
        why.append("its hidden test compares the answer with an expected value")
    for name, value in values.items():
        if _equals_value(hidden, value):
            why.append(f"its hidden test checks {name} == {value!r}")
    if "prediction=True" not in visible(source):
        why.append("its visible check does not say it is a prediction (prediction=True)")
    q = index - 1
    while q > 0 and not (cells[q].cell_type == "markdown" and "points" in cells[q].source):
        q -= 1
    if "for committing" not in cells[q].source:
        why.append(f"its heading (cell {q}) does not say it is graded for committing")
    return why


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_prediction_before_its_reveal_is_graded_for_commitment(assignment):
    """A graded answer asked before the cell that reveals it stays editable after the reveal,
    so grading its correctness would reward editing: any valid answer earns its points."""
    for path in notebooks(ROOT, assignment, "source"):
        cells = nbformat.read(path, as_version=4).cells
        found = [f"cell {i} ({', '.join(names)}, revealed in cell {at}): " + "; ".join(why)
                 for i, names, at in graded_before_reveal(cells)
                 if (why := graded_for_correctness(cells, i))]
        assert not found, f"{path.name}: " + " | ".join(found)


def test_the_commitment_check_finds_the_graded_predictions():
    cases = {a: [names for _, names, _ in graded_before_reveal(
        nbformat.read(p, as_version=4).cells)] for a in ASSIGNMENTS
        for p in notebooks(ROOT, a, "source")}
    flat = {n for found in cases.values() for names in found for n in names}
    assert {"row_without_header_possible", "fixed_top_has_header", "chunks_at_200",
            "cost_source"} <= flat, flat
    cell = nbformat.v4.new_code_cell(
        'expect_form("x is True or False", type(x) is bool, received=x, prediction=True)\n'
        '### BEGIN HIDDEN TESTS\nexpect("Q: x", x, False, reveal=False)\n### END HIDDEN TESTS')
    cell.metadata["nbgrader"] = {"grade": True, "solution": False}
    answer = nbformat.v4.new_code_cell("x = None\n### BEGIN SOLUTION\nx = False\n"
                                       "### END SOLUTION")
    answer.metadata["nbgrader"] = {"grade": False, "solution": True}
    heading = nbformat.v4.new_markdown_cell("### Q · x? (2 points for committing: any valid answer)")
    cells = [heading, answer, cell]
    assert graded_for_correctness(cells, 2) == \
        ["its hidden test compares the answer with an expected value"]


def test_part_6_does_not_say_what_180_40_severs_before_asking_it():
    """Walk 7: Part 6's instructions said "at the lab's 180/40 nothing is severed" one cell
    before the prediction that asks how many answers 180/40 severs."""
    cells = nbformat.read(notebooks(ROOT, "05-own-docs-verdict", "release")[0], as_version=4).cells
    ask = next(i for i, c in enumerate(cells) if "predicted_severed_at_180 =" in c.source
               and c.cell_type == "code")
    said = [i for i, c in enumerate(cells[:ask]) if re.search(
        r"180\s*/\s*40\D{0,40}\b(nothing|no answer|none)\b[^.]{0,30}sever", c.source, re.I)]
    assert not said, f"cells {said} say what 180/40 severs before cell {ask} asks it"


# --- a reveal computes its answer --------------------------------------------------------------

TYPED_ANSWER = re.compile(r"answer is:? *(?:True|False|[A-Da-d]\b|\d|[\"'])")


def typed_answers(cells) -> list[str]:
    """Code cells whose source states an answer ("the course's answer is False"): a student
    reads a cell's code before running it, so a reveal must work its answer out at run time."""
    return [f"cell {i}: {m.group(0)!r}" for i, cell in enumerate(cells) if cell.cell_type == "code"
            for m in TYPED_ANSWER.finditer(cell.source)]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_code_cell_types_its_answer(assignment):
    """Round 14's walker read A4's Q2 reveal cell, right under the answer cell: its source said
    "the course's answer is False" before the student committed."""
    for path in notebooks(ROOT, assignment, "release"):
        cells = nbformat.read(path, as_version=4).cells
        assert not typed_answers(cells), f"{path.name}: {typed_answers(cells)}"


def test_the_typed_answer_check_would_catch_a_leak():
    cell = nbformat.v4.new_code_cell('text_view("nothing here says which: the course\'s answer is False.")')
    assert typed_answers([cell])
