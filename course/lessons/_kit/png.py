"""The explorers' figures and their PNG bytes for an ``ipywidgets.Image``: a whole figure, a
canvas already drawn, or a figure whose static parts are drawn once (``Blitter``)."""
import io

from .lazy import Lazy

Image = Lazy("PIL.Image")
FigureCanvasAgg = Lazy("matplotlib.backends.backend_agg", "FigureCanvasAgg")
Figure = Lazy("matplotlib.figure", "Figure")  # pyplot-free: no global state, no auto-display


def figure_with_axes(figsize, dpi, **margins):
    """(figure, axes): a figure of one axes, ``margins`` (left, right, top, bottom) as fractions."""
    figure = Figure(figsize=figsize, dpi=dpi)
    ax = figure.add_subplot()
    figure.subplots_adjust(**margins)
    return figure, ax


def figure_png(figure, *, fast: bool = False) -> bytes:
    """``figure`` rendered to PNG; ``fast`` trades a larger file for a quicker redraw."""
    buffer = io.BytesIO()
    options = {"pil_kwargs": {"compress_level": 1}} if fast else {}
    figure.savefig(buffer, format="png", **options)
    return buffer.getvalue()


def canvas_png(canvas) -> bytes:
    """What an Agg ``canvas`` holds now (after blitting only the artists that moved) as PNG."""
    width, height = canvas.get_width_height()
    buffer = io.BytesIO()
    Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).save(
        buffer, format="png", compress_level=1)
    return buffer.getvalue()


class Blitter:
    """Render a figure's static parts once; each redraw paints only the artists that change.

    Restoring the cached background and drawing a few artists takes a few milliseconds, where a
    full ``savefig`` takes tens: this is what keeps the sliders instant.
    """

    def __init__(self, figure):
        self.figure = figure
        self.canvas = FigureCanvasAgg(figure)
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(figure.bbox)

    def png(self, artists) -> bytes:
        """The background with ``artists`` drawn over it, as PNG bytes."""
        self.canvas.restore_region(self.background)
        renderer = self.canvas.get_renderer()
        for artist in artists:
            artist.draw(renderer)
        return canvas_png(self.canvas)
