"""Why a batch stops before its class is graded: the TA's Ctrl-C or a SIGTERM, or a cause the
batch met (its fork server died, a fault that meets every student). One ``Stop`` per run: the
pool stops handing out students when it is set, the command says its cause once and exits
with its code.
"""
import signal

INTERRUPTED = "the run was stopped before this student was graded"


class Stop:
    """Set by a signal (``catch_signals``) or by the batch (``halt``): the first cause wins."""

    def __init__(self):
        self.cause = ""  # one line for the TA
        self.code = 0    # the command's exit code: 130 SIGINT, 143 SIGTERM, 1 otherwise

    @property
    def requested(self) -> bool:
        return bool(self.code)

    def halt(self, cause: str, code: int = 1) -> None:
        if not self.code:
            self.cause, self.code = cause, code

    def catch_signals(self) -> None:
        """SIGINT and SIGTERM stop the batch (``halt``) instead of raising in the middle of it;
        a second Ctrl-C ends the command at once (its workers die with it: ``lifeline``)."""
        signal.signal(signal.SIGINT, self._on_signal)
        signal.signal(signal.SIGTERM, self._on_signal)

    def _on_signal(self, signum: int, frame) -> None:
        name = "Ctrl-C (SIGINT)" if signum == signal.SIGINT else signal.Signals(signum).name
        self.halt(f"stopped by {name}: the students in flight were stopped, those graded "
                  "before are kept; run the same command again to grade the rest",
                  128 + signum)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
