"""The benchmark writes its figures into docs/performance.md: a run replaces only what it measured."""
from course.grading.dev.figures import INTRO, Figures


def test_a_run_replaces_only_the_sections_it_measured(tmp_path, capsys):
    doc = tmp_path / "performance.md"
    first = Figures(doc, argv=[])
    first.add("lessons", "Lessons", "redraw: 12 ms")
    first.add("grading", "Grading", "course: 1.65x")
    first.write()
    second = Figures(doc, argv=["--grading-only"])
    second.add("grading", "Grading", "course: 2.10x")
    second.write()

    text = doc.read_text()
    assert text.startswith(INTRO)
    assert "redraw: 12 ms" in text, "a section this run did not measure is kept"
    assert "course: 2.10x" in text and "1.65x" not in text, "a measured section is replaced"
    assert text.count("<!-- bench:grading -->") == 1
    assert "`python -m course.grading.dev.bench --grading-only`" in text
    assert text.index("bench:lessons") < text.index("bench:grading"), "sections keep their order"
    assert "redraw: 12 ms" in capsys.readouterr().out, "each figure is printed as it is measured"


def test_the_committed_figures_come_from_the_bench():
    from course.grading.dev.figures import PERFORMANCE, _SECTION

    text = PERFORMANCE.read_text(encoding="utf-8")
    sections = list(_SECTION.finditer(text))
    assert sections, f"{PERFORMANCE} holds no section written by the bench"
    for section in sections:
        assert "*Measured " in section.group(0) and "by `python -m course.grading.dev.bench" in section.group(0)
