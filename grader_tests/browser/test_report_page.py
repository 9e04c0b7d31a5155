"""The instructor page opens from disk in Chromium, with no server, and its charts show."""
import pytest
from playwright.sync_api import expect

from course.grading.report.page import report_path
from report_class import A1, graded_class

pytestmark = pytest.mark.browser


def test_instructor_page_shows_its_charts(context, artifacts):
    root, _ = graded_class()
    tab = context.new_page()
    try:
        tab.goto(report_path(root, A1).as_uri())
        expect(tab.locator("h1")).to_contain_text(A1)
        charts = tab.locator("figure.chart")
        expect(charts).to_have_count(2)
        for i in range(2):
            box = charts.nth(i).bounding_box()
            assert box and box["width"] > 300 and box["height"] > 100, f"chart {i} is too small"
        columns = [b for b in (c.bounding_box() for c in tab.locator(".hist i").all()) if b]
        assert sum(b["height"] > 5 for b in columns) == 3, "three score bands hold students"
        earned = [b for b in (c.bounding_box() for c in tab.locator(".bars .track div div").all()) if b]
        assert earned and any(b["width"] > 20 for b in earned), "the earned bars show"
        expect(tab.locator("a", has_text="grading log").first).to_be_visible()
        charts.first.scroll_into_view_if_needed()
        tab.screenshot(path=str(artifacts / f"instructor-page-{A1}.png"), full_page=True)
    finally:
        tab.close()
