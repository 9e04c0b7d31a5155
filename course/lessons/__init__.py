"""Student-facing helpers: lesson data, the course tokenizer, widgets and test checks."""
