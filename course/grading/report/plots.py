"""The instructor page's two charts as HTML, not pictures: the page opens from disk with nothing
else, its numbers read in any browser (screen readers included), and drawing them costs
nothing after the last student (matplotlib's two PNGs took 0.17 s there). The bars are the
students' feedback bars (``feedback.summary.bar_html``): earned in blue over possible in grey.
"""
import math
from bisect import bisect_right
from html import escape

from course.grading.feedback.summary import bar_html
from course.grading.colours import BLUE, GREY

STYLE = f""".chart{{margin:.5em 0 1.5em;max-width:40em}}.chart figcaption{{font-weight:600;
margin-bottom:.4em}}.hist{{display:flex;align-items:flex-end;gap:3px;height:9em;
border-bottom:1px solid #5b6b7c}}.hist div{{flex:1;display:flex;flex-direction:column;
justify-content:flex-end;height:100%;text-align:center;font-size:12px}}.hist i{{display:block;
background:{BLUE}}}.bins{{display:flex;gap:3px}}.bins span{{flex:1;text-align:center;
font-size:11px;color:#5b6b7c}}.axis{{text-align:center;font-size:12px;color:#5b6b7c;margin:.2em 0}}
.bars{{width:100%;margin:0}}.bars td{{border:0;padding:.15em .6em .15em 0;font-size:13px}}
.bars td.n{{white-space:nowrap}}.bars .track{{width:50%}}
.key{{font-size:12px;color:#5b6b7c}}.key b{{display:inline-block;width:.9em;height:.9em;
vertical-align:-.1em;margin:0 .3em 0 .8em}}"""


def bins(scores: list[float], max_score: float) -> list[tuple[float, float, int]]:
    """(low, high, students) of each score band from 0 to ``max_score``: up to 10 bands, each
    a whole number of points wide (a reader's "35–40", never "36.8–41.4") but the last, which
    ends at ``max_score`` and is closed (a full score counts in it), as numpy's and
    matplotlib's ``hist`` count them with these edges."""
    top = max_score or 1
    width = max(1, math.ceil(top / 10))
    count = max(1, math.ceil(top / width))
    edges = [min(top, width * i) for i in range(count + 1)]
    students = [0] * count
    for score in scores:
        if 0 <= score <= top:
            students[min(bisect_right(edges, score) - 1, count - 1)] += 1
    return [(edges[i], edges[i + 1], students[i]) for i in range(count)]


def histogram(scores: list[float], max_score: float, title: str) -> str:
    """How many students got each score band, from 0 to ``max_score``, as columns."""
    bands = bins(scores, max_score)
    most = max(n for _, _, n in bands) or 1
    columns = "".join(f'<div title="{low:g}–{high:g}: {n} students">{n or ""}'
                      f'<i style="height:{100 * n / most * 0.85:.1f}%"></i></div>'
                      for low, high, n in bands)
    labels = "".join(f"<span>{low:g}–{high:g}</span>" for low, high, _ in bands)
    return (f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
            f'<div class="hist">{columns}</div>'
            f'<div class="bins">{labels}</div><p class="axis">score (students per band)</p>'
            "</figure>")


def points_bars(labels: list[str], points: list[float], maxima: list[float], title: str) -> str:
    """A bar per task: points earned over the grey bar of points possible."""
    widest = max(maxima, default=0)
    rows = "".join(
        f'<tr><td>{escape(label)}</td><td class="track">{bar_html(earned, most, widest)}</td>'
        f'<td class="n">{earned:.1f} / {most:g}</td></tr>'
        for label, earned, most in zip(labels, points, maxima))
    return (f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
            f'<table class="bars" aria-label="{escape(title)}">{rows}</table>'
            f'<p class="key"><b style="background:{BLUE}"></b>earned'
            f'<b style="background:{GREY}"></b>possible</p></figure>')
