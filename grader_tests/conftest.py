"""Shared set-up for the course's own tests: the harness on the path, one scratch course."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
