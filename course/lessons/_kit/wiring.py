"""The last step every explorer shares: redraw on each change, draw once, expose the parts."""


def wire(box, redraw, controls, **parts):
    """Make ``box`` redraw whenever one of ``controls`` changes value and draw it once now.

    ``box.redraw`` and the named ``parts`` (its slider, summary, image, …) are kept on the box
    for benchmarks and tests.
    """
    for control in controls:
        control.observe(redraw, names="value")
    redraw()
    box.redraw = redraw
    for name, part in parts.items():
        setattr(box, name, part)
    return box
