"""The grader's second opinion, read outside any kernel: what a submission's code does that
a TA should see (tampering with grading, reading hidden files), and which students' answers
look alike. It hands the batch findings, never a score."""
