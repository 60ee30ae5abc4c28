"""The worker-step error boundary: an unexpected error in one step of a worker's loop is
logged with its traceback, the step's claim is given back, and the worker goes on.

A step is one claim, one result recorded, one upload's build or test recorded. Its error
(a bug, a store that refuses a write) costs that step only: the traceback goes to the
worker's log file, the console gets one line naming it, the claim goes back for another
try, and the loop takes the next item. Past MAX_FAILURES steps in a row that fail, the
state may be broken (a store gone for good): the error is raised, the worker stops, its
claims go back as it stops, and its supervisor starts another after a pause.
"""

from __future__ import annotations

import contextlib
import sys
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from botarena.core.errors import UserError

MAX_FAILURES = 5
"""Steps failing in a row past which a worker stops (for its supervisor to restart it);
an error of `fatal` kind (the store failing) stops it at once unless `recovers` (waiting
for the store a while) says the store answers again."""
LOG_NAME = "botarena-worker.log"


class Boundary:
    """Counts a worker's failing steps in a row and logs each to `log_path`."""

    def __init__(
        self,
        log_path: Path,
        limit: int = MAX_FAILURES,
        fatal: tuple[type[BaseException], ...] = (),
        recovers: Callable[[], bool] = lambda: False,
    ) -> None:
        self.log_path, self.limit, self.fatal = log_path, limit, fatal
        self.recovers = recovers
        self.failures = 0

    @contextlib.contextmanager
    def step(
        self, what: str, give_back: Callable[[], object] = lambda: None, finishes: bool = False
    ) -> Iterator[None]:
        """Run a step: an Exception in it is logged and `give_back` called (the claim goes
        back); raised again only when too many steps failed in a row. A step that
        `finishes` an item (records its result) ends the row when it succeeds; claiming one
        does not, or a worker that claims then always fails would never stop."""
        before = self.failures
        try:
            yield
        except UserError:  # the user's to mend (a damaged store): no retry, one line
            with contextlib.suppress(Exception):
                give_back()
            raise
        except Exception as exc:
            self.failures += 1
            gone = isinstance(exc, self.fatal) and not self.recovers()
            stopping = self.failures > self.limit or gone
            self._log(what, stopping)
            with contextlib.suppress(Exception):  # the lease gives it back otherwise
                give_back()
            if stopping:
                raise
        else:
            if finishes and self.failures == before:  # nothing inside it failed either
                self.failures = 0

    def _log(self, what: str, stopping: bool) -> None:
        ident = uuid.uuid4().hex[:8]
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        text = f"--- {stamp} error {ident} in {what}\n{traceback.format_exc()}\n"
        try:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(text)
            where = f"traceback in {self.log_path}"
        except OSError as exc:  # the log cannot be written: the console gets it all
            where = f"cannot write {self.log_path} ({exc}):\n{text}"
        print(
            f"botarena: internal error {ident} in {what} (given back;"
            f" {'the worker stops' if stopping else 'going on'}); {where}",
            file=sys.stderr,
            flush=True,
        )
