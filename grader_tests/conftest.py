"""Shared set-up for the course's own tests: the harness on the path, one scratch course."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
# Scratch courses copy nbgrader_config.py: never let them reach a TA's shared gradebook.
os.environ.pop("COURSE_GRADEBOOK_URL", None)
