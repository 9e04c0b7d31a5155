"""TA and instructor tooling: releases, autograding, the demo class. Never imported by lessons."""
