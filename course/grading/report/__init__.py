"""The instructor's page of a graded assignment (``reports/<assignment>.html``): scores,
failed cases grouped by contract rule, charts, held submissions and the similarity check,
written after a batch together with the Canvas import."""
