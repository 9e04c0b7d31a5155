"""The student's feedback page: nbconvert's exporter made cheap per student, the summary at the
top, the mark schemes and the "not graded" page, with everything a student wrote sanitised."""
