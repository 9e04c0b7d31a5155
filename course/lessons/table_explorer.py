"""The table explorer: a slider over a chunker, and a map of which chunk holds which table row.

The chunker is a parameter (``chunker(text, value) -> list[str]``), so students watch *their
own* ``chunk_table`` (or a fixed chunker, or ``chunk_with_tables``) at work. The figure is a
grid: one column per chunk that touches the table, one line per table row (header first). A
cell is filled when the chunk holds the whole row: gold for the header (so a header repeated in
every group shows as a gold band), blue for a data row that shares its chunk with the header,
red for a data row whose chunk has no header ("what does 12 mean?"). A grey cell marked × is a row
the chunk holds only part of: the row was cut in two.

The rows of the table are given (header first, then the delimiter row if any, then the data
rows), so this module never has to decide what is a table line: that is the student's job.
"""
import time
from html import escape

import ipywidgets as widgets

from ._kit import palette
from ._kit.grading_mode import not_while_grading
from ._kit.lazy import Lazy
from ._kit.png import Blitter, figure_with_axes
from ._kit.wiring import wire
from .checks import time_limit
from .retriever import top_k

np = Lazy("numpy")
LineCollection = Lazy("matplotlib.collections", "LineCollection")

EMPTY, PART, FULL = 0, 1, 2
_HEADER, _DELIM = palette.rgb(palette.GOLD), palette.rgb(palette.PALE_GOLD)
_WITH, _ORPHAN, _CUT = (palette.rgb(c) for c in (palette.BLUE, palette.RED, palette.LIGHT_GREY))
_MIN_PIECE = 3  # a row fragment this long or longer counts as part of the row


def _is_delimiter(row: str) -> bool:
    return "-" in row and set(row.strip()) <= set("|-: ")


def row_coverage(rows, chunks) -> list[list[int]]:
    """For each chunk, for each row: FULL (the whole row), PART (a cut piece of it) or EMPTY.

    A piece is a prefix of a row at the end of the chunk, or a suffix at its start, at least a
    few characters long: what a character-window chunker leaves when it cuts a row in two.
    When rows share a beginning or an end (``| Au…``), the piece is given to the row next to
    the chunk's whole rows.
    """
    grid = []
    for chunk in chunks:
        line = [FULL if row in chunk else EMPTY for row in rows]
        full = [r for r, state in enumerate(line) if state == FULL]
        tail, head = chunk.rstrip("\n"), chunk.lstrip("\n")
        ends = [r for r, row in enumerate(rows) if line[r] == EMPTY and any(
            tail.endswith(row[:k]) for k in range(_MIN_PIECE, len(row)))]
        starts = [r for r, row in enumerate(rows) if line[r] == EMPTY and any(
            head.startswith(row[-k:]) for k in range(_MIN_PIECE, len(row)))]
        for candidates, neighbour in ((ends, full[-1] + 1 if full else None),
                                      (starts, full[0] - 1 if full else None)):
            if neighbour is not None and neighbour in candidates:
                line[neighbour] = PART
            elif neighbour is None and len(candidates) == 1:
                line[candidates[0]] = PART
        grid.append(line)
    return grid


def table_stats(rows, chunks, focus: str | None = None) -> dict:
    """Numbers the explorer shows: chunks, header copies, cut / lost / repeated / orphan rows."""
    rows = list(rows)
    data_from = 2 if len(rows) > 1 and _is_delimiter(rows[1]) else 1
    grid = row_coverage(rows, chunks)
    header_in = [line[0] == FULL for line in grid]
    stats = {"chunks": len(chunks), "header_copies": sum(header_in), "cut": 0, "lost": 0,
             "repeated": 0, "orphans": 0, "focus_with_header": None,
             "rows_per_chunk": [n for n in (sum(state == FULL for state in line[data_from:])
                                            for line in grid) if n]}
    for r in range(data_from, len(rows)):
        holders = [c for c, line in enumerate(grid) if line[r] == FULL]
        if any(line[r] == PART for line in grid):
            stats["cut"] += 1
        if not holders and not any(line[r] == PART for line in grid):
            stats["lost"] += 1
        if len(holders) > 1:
            stats["repeated"] += 1
        with_header = any(header_in[c] for c in holders)
        if not with_header:
            stats["orphans"] += 1
        if focus is not None and rows[r].strip("| ").startswith(focus):
            stats["focus_with_header"] = with_header
    return stats


def _label(row: str) -> str:
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    return (cells[0] or "—")[:14]


def _grid_image(rows, chunks):
    """(RGB image rows x touching chunks, touching chunk indices, cut cells as (x, r))."""
    rows = list(rows)
    data_from = 2 if len(rows) > 1 and _is_delimiter(rows[1]) else 1
    grid = row_coverage(rows, chunks)
    touching = [c for c, line in enumerate(grid) if any(line)] or [0]
    image = np.ones((len(rows), len(touching), 3))
    cuts = []
    for x, c in enumerate(touching):
        line = grid[c] if c < len(grid) else [EMPTY] * len(rows)
        has_header = line[0] == FULL
        for r, state in enumerate(line):
            if state == FULL:
                image[r, x] = (_HEADER if r == 0 else _DELIM if r < data_from
                               else _WITH if has_header else _ORPHAN)
            elif state == PART:
                image[r, x] = _CUT
                cuts.append((x, r))
    return image, touching, cuts


class TableChunksPlot:
    """The row-by-chunk grid as a PNG, redrawn cheaply.

    Everything that never changes (axes, row labels, caption) is rendered once and kept as a
    background; a redraw restores it and draws only the grid, its lines, the cut marks and the
    title (blitting), then encodes the PNG, so a slider's redraw keeps up with the hand.
    """

    def __init__(self, rows, figsize=(7, 3.2), dpi=72):
        self.rows = list(rows)
        n = len(self.rows)
        self.figure, ax = figure_with_axes(figsize, dpi, left=0.17, right=0.98, top=0.88,
                                           bottom=0.1)
        self.ax = ax
        self.picture = ax.imshow(np.ones((n, 1, 3)), aspect="auto", interpolation="nearest",
                                 animated=True)
        every = max(1, -(-n // 10))
        ax.set_yticks(range(0, n, every), [_label(self.rows[r]) for r in range(0, n, every)],
                      fontsize=7)
        ax.set_xticks([])
        ax.set_xlabel("chunks that touch the table, in document order (one column each)",
                      fontsize=8)
        self.columns = LineCollection([], colors="white", linewidths=0.8, animated=True)
        self.lines = LineCollection([], colors="white", linewidths=0.5, animated=True)
        self.cuts = ax.scatter([], [], marker="x", s=14, color=palette.GUIDE_TEXT, linewidths=0.8,
                               animated=True)
        ax.add_collection(self.columns)
        ax.add_collection(self.lines)
        self.title = ax.text(0.5, 1.03, "", transform=ax.transAxes, ha="center", va="bottom",
                             fontsize=9, animated=True)
        self.blitter = Blitter(self.figure)

    def draw(self, chunks, title: str) -> None:
        image, touching, cuts = _grid_image(self.rows, chunks)
        n, m = len(self.rows), len(touching)
        self.picture.set_data(image)
        self.picture.set_extent((-0.5, m - 0.5, n - 0.5, -0.5))
        self.ax.set_xlim(-0.5, m - 0.5)
        self.ax.set_ylim(n - 0.5, -0.5)
        self.columns.set_segments([[(x + 0.5, -0.5), (x + 0.5, n - 0.5)] for x in range(m - 1)])
        self.lines.set_segments([[(-0.5, r + 0.5), (m - 0.5, r + 0.5)] for r in range(n - 1)])
        self.cuts.set_offsets(np.array(cuts, dtype=float).reshape(-1, 2))
        span = f"chunk {touching[0]}" if m == 1 else f"chunks {touching[0]}–{touching[-1]}"
        self.title.set_text(f"{title} · {span} of {len(chunks)}" if chunks else title)

    def png(self) -> bytes:
        """The current drawing as PNG bytes."""
        return self.blitter.png((self.picture, self.columns, self.lines, self.cuts, self.title))


def _summary(stats: dict, focus: str | None) -> list[str]:
    lines = [f"<b class='chunk-count'>{stats['chunks']}</b> chunks · header row in "
             f"<b class='header-copies'>{stats['header_copies']}</b> of them",
             f"data rows: <b class='orphans'>{stats['orphans']}</b> without their header · "
             f"<b class='cut'>{stats['cut']}</b> cut mid-row · <b>{stats['lost']}</b> lost · "
             f"<b>{stats['repeated']}</b> repeated"]
    sizes = stats["rows_per_chunk"]
    lines.append("whole data rows per chunk: " + (
        " · ".join(map(str, sizes[:12])) + (" · …" if len(sizes) > 12 else "") if sizes
        else "none"))
    if focus is not None and stats["focus_with_header"] is not None:
        ok = "yes" if stats["focus_with_header"] else "no"
        lines.append(f"the {escape(focus)} row shares a chunk with the header: <b>{ok}</b>")
    return lines


@not_while_grading
def table_explorer(chunker, text: str, rows, value: int, *, label: str = "rows per group",
                   low: int = 1, high: int = 40, step: int = 1, focus: str | None = None,
                   name: str | None = None):
    """A slider for ``value`` that redraws which chunk of ``chunker(text, value)`` holds which
    of the table's ``rows``; ``focus`` names a row (by its first cell) to follow in the summary.
    """
    rows = list(rows)
    slider = widgets.IntSlider(value=value, min=low, max=high, step=step, description=label,
                               continuous_update=True, style={"description_width": "initial"})
    summary = widgets.HTML()
    image = widgets.Image(format="png")
    plot = TableChunksPlot(rows)
    title = name or getattr(chunker, "__name__", "chunker")
    name = escape(title)

    def redraw(change=None):
        started = time.perf_counter()
        try:
            with time_limit(2, name):
                chunks = chunker(text, slider.value)
            if type(chunks) is not list or not all(type(c) is str for c in chunks):
                raise TypeError(f"expected a list of str, received {type(chunks).__name__}")
        except Exception as error:  # the student's chunker is shown failing, not the widget
            summary.value = f"<b>{name} raised {type(error).__name__}</b>: {escape(str(error))}"
            return
        stats = table_stats(rows, chunks, focus)
        plot.draw(chunks, f"{title}: {label} = {slider.value}")
        image.value = plot.png()
        lines = _summary(stats, focus)
        lines.append("<small>gold: header · blue: row with its header · red: row without it · "
                     "grey ×: row cut in two</small>")
        lines.append(f"<small>redrawn in {1000 * (time.perf_counter() - started):.0f} ms</small>")
        summary.value = "<br>".join(lines)

    return wire(widgets.VBox([widgets.HBox([slider, summary]), image]), redraw, [slider],
                slider=slider, summary=summary, image=image)


def retrieval_side_by_side(query, strategies: dict) -> widgets.HTML:
    """For each strategy (name -> list of chunks): the top chunk for ``query`` (a Question),
    its score, and whether that one chunk holds every part of the question's evidence."""
    columns = []
    for name, chunks in strategies.items():
        texts = [c for c in chunks if isinstance(c, str)]
        best = top_k(query.text, texts, 1)
        if not best:
            columns.append(f"<div class='strategy'><h4>{escape(name)}</h4><p>no chunks</p></div>")
            continue
        index, score = best[0]
        chunk = texts[index]
        ok = all(part in chunk for part in query.evidence)
        verdict = ("<b class='self-sufficient yes'>self-sufficient: yes</b>" if ok else
                   "<b class='self-sufficient no'>self-sufficient: no</b> — missing " +
                   ", ".join(f"<code>{escape(p)}</code>" for p in query.evidence if p not in chunk))
        columns.append(
            f"<div class='strategy' style='flex:1;min-width:0'><h4>{escape(name)}</h4>"
            f"<p>{len(texts)} chunks · top chunk #{index}, cosine {score:.2f}</p>"
            f"<pre style='white-space:pre-wrap;background:{palette.PANEL};padding:6px'>"
            f"{escape(chunk)}</pre>"
            f"<p>{verdict}</p></div>")
    return widgets.HTML(f"<p>Query: <b>{escape(query.text)}</b></p>"
                        f"<div style='display:flex;gap:16px'>{''.join(columns)}</div>")


def alone_with_its_row(chunks, row: str, header: str) -> str:
    """A4's Q2 reveal: all the model gets, the chunk holding ``row``, and whether it holds the
    ``header`` that says what the row's numbers mean (the answer is read off the chunks)."""
    chunk = next(chunk for chunk in chunks if row in chunk)
    enough = header in chunk
    where = ("is in this chunk too" if enough
             else "is in another chunk, so nothing here says\nwhich number is which")
    return (f"All the model gets, the chunk with the row {row!r}:\n\n{chunk}\n\n"
            f"The header row {header!r} {where}: the course's answer is {enough}. Part 3 repeats "
            "the header in\nevery row group for exactly this reason.")
