"""TA and instructor tooling: releases, autograding, the demo class. Never imported by lessons."""
import sys

# jsonschema (under nbformat) builds some 35 Earley parsers of ``rfc3987_syntax`` when imported:
# one to two seconds of CPU in every grading process (the command, each worker), for the "iri"
# format that no notebook schema uses. Refused, jsonschema simply goes without that format check
# (python-jsonschema/jsonschema#1428).
sys.modules.setdefault("rfc3987_syntax", None)
