"""What a student does in JupyterLab, as Playwright steps; waits are on the page's own state."""
import re

from playwright.sync_api import Locator, Page, expect

KERNEL_IDLE = ".jp-NotebookPanel .jp-Notebook-ExecutionIndicator[data-status='idle']"
# The status bar's kernel item ("Python 3 (ipykernel) | Idle"); the toolbar's indicator above
# also reads "idle" before any kernel exists, so readiness needs both.
KERNEL_STATUS = ".jp-StatusBar-TextItem[title^='Change kernel']"
READY = re.compile(r"^(?!No Kernel).*\| Idle$")
ERROR_OUTPUTS = (".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                 ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
REVEAL_OPEN = ".predict-first.open"
REVEAL_LOCKED = ".predict-first.locked"
NONEMPTY = re.compile(r".+")
SLIDER_HANDLE = ".widget-slider [role='slider'], .widget-slider .noUi-handle"


def load_lab(page: Page, lab) -> None:
    """Load JupyterLab in ``page`` with a fresh workspace."""
    page.goto(lab.url("lab", reset=None))
    expect(page.locator(".lm-MenuBar-item").first).to_be_visible(timeout=30_000)
    expect(page.locator(".jp-DirListing-item").first).to_be_visible(timeout=30_000)


def open_notebook(page: Page, path: str) -> Locator:
    """Open ``path`` (relative to the lab's root) with File → Open from Path…; wait for its
    kernel. Returns the notebook."""
    menu(page, "File", "Open from Path…")
    dialog = page.locator(".jp-Dialog")
    dialog.locator("input").fill(path)
    dialog.get_by_role("button", name="Open").click()
    expect(dialog).to_have_count(0)
    name = path.rsplit("/", 1)[-1]
    expect(page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel")).to_have_text(name)
    expect(page.locator(KERNEL_STATUS)).to_have_attribute("title", f"Change kernel for {name}")
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    expect(notebook.locator(".jp-Cell").first).to_be_visible(timeout=30_000)
    wait_idle(page, timeout=30_000)
    return notebook


def reset_lab(page: Page) -> None:
    """Between tests: dismiss dialogs, save and close every tab (the kernels are shut down
    through the server's API by the fixture)."""
    if "/lab" not in page.url:
        raise RuntimeError(f"the lab tab has left the lab: {page.url}")
    for _ in range(5):
        if not page.locator(".jp-Dialog").count():
            break
        page.keyboard.press("Escape")
    expect(page.locator(".jp-Dialog")).to_have_count(0, timeout=5_000)
    menu(page, "File", "Save All", optional=True)
    menu(page, "File", "Close All Tabs", optional=True)
    expect(page.locator(".jp-Dialog")).to_have_count(0, timeout=5_000)
    # With nothing left open, the lab shows its Launcher.
    expect(page.locator("#jp-main-dock-panel .lm-TabBar-tab").filter(
        has_not_text=re.compile("^Launcher$"))).to_have_count(0, timeout=5_000)


def wait_idle(page: Page, timeout: float = 20_000) -> None:
    """Wait until a kernel exists and is idle (both the status bar and the toolbar say so)."""
    expect(page.locator(KERNEL_STATUS)).to_have_text(READY, timeout=timeout)
    expect(page.locator(KERNEL_IDLE)).to_have_count(1, timeout=timeout)


def menu(page: Page, *labels: str, optional: bool = False) -> bool:
    """Click through the main menu, e.g. ``menu(page, "Run", "Run All Cells")``.

    With ``optional``, a disabled last item closes the menu instead and returns False.
    """
    page.locator(".lm-MenuBar-item", has_text=re.compile(f"^{re.escape(labels[0])}$")).click()
    for label in labels[1:]:
        item = page.locator(".lm-Menu:visible .lm-Menu-item",
                            has=page.locator(".lm-Menu-itemLabel",
                                             has_text=re.compile(f"^{re.escape(label)}$")))
        if optional and item.get_attribute("aria-disabled") == "true":
            page.keyboard.press("Escape")
            expect(page.locator(".lm-Menu")).to_have_count(0)
            return False
        item.click()
    return True


def wait_executed(page: Page, notebook: Locator, timeout: float = 60_000) -> None:
    """Wait until every code cell shows an execution count, or until an error has stopped
    the run (error output, kernel idle); then until the kernel is idle."""
    page.wait_for_function(
        """([nb, errors]) => {
            const prompts = [...nb.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
            const done = prompts.length > 0
                && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
            const idle = document.querySelector(
                ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status='idle']");
            return done || (idle && nb.querySelector(errors) !== null);
        }""", arg=[notebook.element_handle(), ERROR_OUTPUTS], timeout=timeout, polling=100)
    wait_idle(page, timeout)


def run_all(page: Page, notebook: Locator) -> None:
    menu(page, "Run", "Run All Cells")
    wait_executed(page, notebook)


def error_outputs(notebook: Locator) -> list[str]:
    return [text[:500] for text in notebook.locator(ERROR_OUTPUTS).all_inner_texts()]


def code_cell(notebook: Locator, index: int) -> Locator:
    return notebook.locator(".jp-CodeCell").nth(index)


def run_cell(page: Page, cell: Locator) -> None:
    """Select ``cell`` (click its prompt: command mode) and run it with Ctrl+Enter."""
    before = cell.locator(".jp-InputArea-prompt").inner_text().strip()
    cell.locator(".jp-InputArea-prompt").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        "([el, before]) => { const t = el.textContent.trim();"
        " return /^\\[\\d+\\]:$/.test(t) && t !== before; }",
        arg=[cell.locator(".jp-InputArea-prompt").element_handle(), before], polling=100)
    wait_idle(page)


def set_cell_source(page: Page, cell: Locator, text: str) -> None:
    """Replace a cell's text by typing, as a student does."""
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)
    page.keyboard.press("Escape")


SUMMARY_JS = """(out) => [...out.querySelectorAll('.widget-html-content')]
    .filter(e => !e.querySelector('.predict-first')).map(e => e.innerText).join('\\n')
    .replace(/redrawn in \\d+ ms/g, '')"""


class Explorer:
    """The first revealed explorer in a notebook (an open reveal with a slider): its slider,
    summary text and figure."""

    def __init__(self, notebook: Locator):
        self.page = notebook.page
        self.output = notebook.locator(".jp-OutputArea-output",
                                       has=self.page.locator(REVEAL_OPEN)).filter(
            has=self.page.locator(SLIDER_HANDLE)).first
        self.handle = self.output.locator(SLIDER_HANDLE).first
        self.readout = self.output.locator(".widget-slider .widget-readout").first
        self.image = self.output.locator("img").first

    def summary_text(self) -> str:
        """The text of the explorer's HTML widgets (not the "your predictions" banner)."""
        return self.output.evaluate(SUMMARY_JS)

    def src(self) -> str:
        return self.image.get_attribute("src") or ""

    def wait_summary_not(self, old: str) -> None:
        self.page.wait_for_function(f"([out, old]) => ({SUMMARY_JS})(out) !== old",
                                    arg=[self.output.element_handle(), old], polling=100)
