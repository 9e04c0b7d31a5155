"""Tooling for the course's own developers, never on a grading path: the benchmark, a
throwaway PostgreSQL server, a simulated student machine and a notebook runner."""
