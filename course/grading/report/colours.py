"""The two colours of the grading pages' charts (the instructor's PNGs and the students' HTML
bars), kept apart from ``plots`` so the feedback page needs no matplotlib."""
BLUE = "#3b6ea5"  # earned
GREY = "#c9d3de"  # possible; also the summary's border
