"""The two colours of the grading pages' charts (the instructor's page and the students'
feedback bars), in one place so both pages read alike."""
BLUE = "#3b6ea5"  # earned
GREY = "#c9d3de"  # possible; also the summary's border
