"""Student-facing helpers: lesson data, the course tokenizer, widgets and test checks.

Notebooks import the modules here; what those modules share and no notebook imports (what a
chunk is, the three strategies, the palette, the widget plumbing) is in ``_kit``.
"""
