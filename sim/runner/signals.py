"""Ctrl-C during a run: finish the running chunk, keep every finished one, then stop."""

from __future__ import annotations

import signal
import threading
from typing import Callable


class _StopOnSigint:
    """First Ctrl-C: finish the running chunk, then stop. Second: stop at once."""

    def __init__(self, say: Callable[[str], None]):
        self.requested = False
        self._say = say
        self._prev = None

    def __enter__(self) -> "_StopOnSigint":
        if threading.current_thread() is threading.main_thread():
            self._prev = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        self._say("stopping after the running chunk (Ctrl-C again to stop at once)")

    def __exit__(self, *exc) -> None:
        if self._prev is not None:
            signal.signal(signal.SIGINT, self._prev)
