"""PNG bytes for the widgets' ``ipywidgets.Image``: a whole figure, or a canvas already drawn."""
import io

from .lazy import Lazy

Image = Lazy("PIL.Image")


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
