"""Intake: what was handed in. Finds the students of an assignment, refuses names that are
patterns and submissions holding links, devices or fifos, and hands the batch a list of
plain student ids whose folders are safe to copy."""
