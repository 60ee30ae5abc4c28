"""A Dask worker plugin that keeps cluster workers from slowing the referees they run.

Its own module, importing Dask at the top: workers import it by name to run the plugin,
while `cluster.py` stays importable (with a clear error) where Dask is not installed.
"""

from __future__ import annotations

from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class QuietWorkers(WorkerPlugin):
    """Stops each worker's sampling profiler (on by default, 100 samples a second): each
    sample takes the GIL from the referee playing there, and a bot is charged the wall time
    its referee lost (2 single-thread workers on 2 cores: 1.58x the games/s of one with it,
    1.91x without). Registered on the scheduler, it reaches the workers there now and those
    that join later."""

    name = "botarena-quiet-workers"
    idempotent = True

    def setup(self, worker: Any) -> None:
        quiet(worker)


def quiet(dask_worker: Any) -> None:
    """Stop a worker's sampling profiler and take it out of the worker's periodic callbacks:
    a joining worker is given its plugins before it starts every periodic callback it holds
    (distributed's Worker.start_unsafe), so one only stopped would start again."""
    for callback in ("profile", "profile-cycle"):
        found = dask_worker.periodic_callbacks.pop(callback, None)
        if found is not None:
            found.stop()
