"""The cores this process may run on, and the one core a match shares with bots that run
only inside their calls."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


def cores() -> int:
    """The cores this process may use (a pinned process: its own), at least 1."""
    allowed = allowed_cores()
    return len(allowed) if allowed is not None else os.cpu_count() or 1


def allowed_cores() -> set[int] | None:
    """The cores this thread may run on, or None where the system does not say."""
    return os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None


@contextlib.contextmanager
def jury_core(wanted: bool) -> Iterator[int | None]:
    """While the block runs, this thread (the referee) runs on one core only, which it
    yields, for bots started inside the block to run on too; the thread's cores are given
    back afterwards. None when not `wanted` or there is a single core anyway.

    Made for ping-pong: when the referee and a bot only ever run one after the other, each
    call on the same core costs a context switch, and across two cores a wake-up of the
    other core, several times dearer on a virtual machine (a trivial C bot's exchange:
    57-75 µs -> 21-25 µs; docs/sandbox.md)."""
    if not wanted or not hasattr(os, "sched_setaffinity") or cores() < 2:
        yield None
        return
    allowed = os.sched_getaffinity(0)
    claimed = _claim_core(allowed)
    if claimed is None:  # every core has a referee of its own: the system balances
        yield None
        return
    core, lock = claimed
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, allowed)
        os.close(lock)


class Loan:
    """A core lent to the bots that run only inside their calls (`calls_core`), until a
    referee pins itself there: it holds no lock, so another game's referee may claim it
    (`reclaimed`), and the bots then go home to their own referee's core."""

    def __init__(self, core: int, lock: int) -> None:
        self.core = core
        self._lock = lock  # the core's lock file, open, not held

    def reclaimed(self) -> bool:
        """Whether a referee holds the core now (a shared lock is refused while it does;
        this one is let go at once)."""
        import fcntl

        try:
            fcntl.flock(self._lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(self._lock, fcntl.LOCK_UN)
        return False

    def close(self) -> None:
        os.close(self._lock)


@contextlib.contextmanager
def calls_core(jury: int | None, allowed: set[int] | None, wanted: bool) -> Iterator[Loan | None]:
    """While the block runs, a core of `allowed` (the referee's cores before it was pinned
    to `jury`) that no referee holds, lent to the bots that run only inside their calls,
    the referee polling for their replies meanwhile; None when not `wanted`, the referee is
    not pinned, or no other core is free (then they share the referee's).

    On a virtual machine a switch between two processes on one core can cost more than a
    wake-up across cores that the referee does not sleep through (a game of 19 000 tiny
    calls to two Node runners: 3.7 s on the referee's core, 2.7 s on a core of theirs). The
    core is lent, not held: a game started meanwhile pins its referee there, and the bots
    go back to this game's core (`Loan.reclaimed`), so that two games on two cores run on
    one each (lent for good, the second game found no core and ran 30% slower)."""
    if not wanted or jury is None or not allowed:
        yield None
        return
    claimed = _claim_core(allowed - {jury})
    if claimed is None:
        yield None
        return
    core, lock = claimed
    import fcntl

    fcntl.flock(lock, fcntl.LOCK_UN)
    loan = Loan(core, lock)
    try:
        yield loan
    finally:
        loan.close()


CORE_LOCKS = "/tmp/.botarena-core-{core}.lock"
"""One file per core, locked (flock) by the referee that runs its game there: two games
played side by side on one machine (two `play`s, unpinned tournament workers, a Python
pool) each take a core of their own, and none piles its bots onto a core another game
uses while a core is idle. In /tmp itself, not $TMPDIR: every process of the machine
must see the same files (a bot's sandbox has a /tmp of its own and never sees them)."""


def _claim_core(allowed: set[int]) -> tuple[int, int] | None:
    """A core of `allowed` that no other referee holds, the one this thread runs on first,
    with the descriptor holding its lock; None when every one is held (or no lock file
    can be opened)."""
    import fcntl

    here = _current_core(allowed)
    for core in sorted(allowed, key=lambda core: core != here):
        lock = _lock_file(CORE_LOCKS.format(core=core))
        if lock is None:
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held by another referee
            os.close(lock)
            continue
        return core, lock
    return None


def _lock_file(path: str) -> int | None:
    """A read-only descriptor of the lock file `path`, made if missing; never through a
    link (someone else's link in /tmp must not make root create a file elsewhere), and an
    existing file opened without O_CREAT (which /tmp's protected_regular refuses on
    another user's file). None when it cannot be had."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(path, flags)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:  # made meanwhile by another referee
        return _lock_file(path)
    except OSError:
        return None


def _current_core(allowed: set[int]) -> int:
    """The core this thread runs on now (field 39 of its stat), else the first allowed."""
    try:
        with open("/proc/thread-self/stat", "rb") as handle:
            stat = handle.read()
        core = int(stat[stat.rfind(b")") + 2 :].split()[36])
    except (OSError, ValueError, IndexError):
        core = -1
    return core if core in allowed else min(allowed)
