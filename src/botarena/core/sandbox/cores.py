"""Which cores a bot's threads run on: a bot that joined the referee's core, on its turn,
between its turns and at its end (`Confinement.join_core`); a bot moved to a core whole."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class JoinedCore:
    """A bot that joined the referee's core (`Confinement.join_core`): its process, its
    cores on its turn (the referee's), between its turns (the others) and at its end."""

    pid: int
    turn: set[int]
    away: set[int]
    before: set[int]

    @classmethod
    def join(cls, pids: list[int], core: int) -> JoinedCore | None:
        """Run the bot of `pids` on `core` only, if it is one process running one thread;
        None (nothing moved) otherwise or if it is gone meanwhile."""
        if len(pids) != 1:
            return None
        try:
            if len(os.listdir(f"/proc/{pids[0]}/task")) != 1:
                return None
            before = os.sched_getaffinity(pids[0])
            os.sched_setaffinity(pids[0], {core})
        except OSError:  # gone meanwhile
            return None
        return cls(pids[0], {core}, before - {core} or before, before)

    def to_turn(self) -> None:
        """Onto the referee's core, to be woken there."""
        with contextlib.suppress(OSError):
            os.sched_setaffinity(self.pid, self.turn)

    def to_away(self) -> None:
        """Onto the other cores, between its turns."""
        with contextlib.suppress(OSError):
            os.sched_setaffinity(self.pid, self.away)

    def give_back(self) -> None:
        """Its cores back, to end in parallel with the others."""
        with contextlib.suppress(OSError):
            os.sched_setaffinity(self.pid, self.before)

    def give_back_if_threaded(self) -> bool:
        """Every thread its cores back if it runs more than one thread; whether it does."""
        try:
            threads = [int(tid) for tid in os.listdir(f"/proc/{self.pid}/task")]
        except OSError:
            return False
        if len(threads) <= 1:
            return False
        for tid in threads:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(tid, self.before)
        return True


def pin_threads(pids: list[int], cores: set[int]) -> None:
    """Every thread of the processes `pids` onto `cores` (those gone meanwhile skipped)."""
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in threads:
            with contextlib.suppress(OSError, ValueError):
                os.sched_setaffinity(int(tid), cores)
