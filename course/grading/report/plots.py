"""Small matplotlib charts as self-contained ``<img>`` tags (base64 PNG): pages that hold them
open from disk, with no server and no separate image files."""
import base64
import io
from html import escape

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from course.grading.report.colours import BLUE, GREY  # noqa: E402


def img(figure, alt: str) -> str:
    """``figure`` as an ``<img>`` with a PNG data URI; the figure is closed."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=96, bbox_inches="tight")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{data}">'


def histogram(scores: list[float], max_score: float, title: str) -> str:
    """How many students got each score band, from 0 to ``max_score``."""
    figure, axes = plt.subplots(figsize=(6.4, 2.8))
    bins = min(10, max(1, int(max_score))) if max_score else 10
    axes.hist(scores, bins=bins, range=(0, max_score or 1), color=BLUE, edgecolor="white")
    axes.set_xlabel("score")
    axes.set_ylabel("students")
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.set_title(title)
    return img(figure, title)


def points_bars(labels: list[str], points: list[float], maxima: list[float], title: str) -> str:
    """A horizontal bar per task: points earned over the grey bar of points possible."""
    figure, axes = plt.subplots(figsize=(6.4, 0.5 + 0.32 * max(1, len(labels))))
    rows = range(len(labels))
    axes.barh(rows, maxima, color=GREY, label="possible")
    axes.barh(rows, points, color=BLUE, label="earned")
    axes.set_yticks(list(rows), labels, fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("points")
    axes.set_title(title)
    # below the axis, where no bar can be
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.5 / figure.get_figheight() - 0.12),
                ncol=2, fontsize=8, frameon=False)
    return img(figure, title)
