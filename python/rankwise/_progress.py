"""The stages of a long command (checking, computing, writing), shown on stderr
with rich when it is a terminal and the work has taken more than a second;
nothing otherwise, so that logs and pipes stay clean."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

DELAY_SECONDS = 1.0


class _Stages:
    """A callable told each stage's name; after `delay` seconds of work it draws
    a spinner with the current stage, and clears it at the end."""

    def __init__(self, console: Any, delay: float) -> None:
        self._console = console
        self._lock = threading.Lock()
        self._current = "starting"
        self._status: Any = None
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True
        self._timer.start()

    def _text(self) -> str:
        return f"rankwise: {self._current}…"

    def _show(self) -> None:
        with self._lock:
            if self._status is None and self._current is not None:
                self._status = self._console.status(self._text())
                self._status.start()

    def __call__(self, name: str) -> None:
        with self._lock:
            self._current = name
            if self._status is not None:
                self._status.update(self._text())

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            self._current = None
            if self._status is not None:
                self._status.stop()


@contextmanager
def stages(console: Any = None, delay: float = DELAY_SECONDS) -> Iterator[Callable[[str], None]]:
    """Yields the function to call at each stage. Without a console given, one
    on stderr if stderr is a terminal and rich is installed; else it does nothing."""
    if console is None and sys.stderr.isatty():
        # imported only where it shows something: a piped command does not pay for it
        try:
            from rich.console import Console
        except ImportError:
            pass
        else:
            console = Console(stderr=True)
    if console is None:
        yield lambda name: None
        return
    shown = _Stages(console, delay)
    try:
        yield shown
    finally:
        shown.close()
