"""The student's sandbox: each graded notebook's kernel runs in bubblewrap, as nobody, with no
network, behind a kernelspec (``jupyter/``) and a provisioner of IPC sockets. It hands the
Execute step a kernel it can talk to and stop in bounded time."""
