"""Tearing the book: the course package.

Two halves that never import each other's internals:

* ``course.lessons`` ships to students: lesson data, the offline tokenizer, widgets and the
  checks the notebooks' tests use. It holds no working implementation of a graded function.
* ``course.grading`` is TA and instructor tooling: releases, autograding, the demo class.
"""
