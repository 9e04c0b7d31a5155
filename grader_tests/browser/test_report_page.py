"""The instructor page opens from disk in Chromium, with no server, and its plots decode."""
import pytest
from playwright.sync_api import expect

from course.grading.report.page import report_path
from report_class import A1, graded_class

pytestmark = pytest.mark.browser


def test_instructor_page_shows_its_plots(context, artifacts):
    root, _ = graded_class()
    tab = context.new_page()
    try:
        tab.goto(report_path(root, A1).as_uri())
        expect(tab.locator("h1")).to_contain_text(A1)
        images = tab.locator("img")
        expect(images).to_have_count(2)
        for i in range(2):
            image = images.nth(i)
            image.scroll_into_view_if_needed()
            decoded = image.evaluate("img => img.complete && img.naturalWidth > 0 "
                                     "&& img.naturalHeight > 0")
            assert decoded, f"plot {i} ({image.get_attribute('alt')}) did not decode"
            box = image.bounding_box()
            assert box and box["width"] > 100 and box["height"] > 100
        expect(tab.locator("a", has_text="grading log").first).to_be_visible()
        tab.screenshot(path=str(artifacts / f"instructor-page-{A1}.png"), full_page=True)
    finally:
        tab.close()
