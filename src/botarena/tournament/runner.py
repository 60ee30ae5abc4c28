"""The runner: claims games from the store, plays them on an executor, writes results alone.

Only this process writes to the store; workers play games and hand back plain results. The
loop claims a game per free worker and one more for each to start next, commits each result
as it arrives (one transaction, only while the claim is held), and when no game is pending
asks the schedule for the next round (swiss, or none: done). Killed at any moment, it leaves
at most its claimed games unfinished; the next runner hands those back
(store.release_stale) and plays them.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from botarena.tournament import filling, retention, schedule
from botarena.tournament.executors import Executor
from botarena.tournament.store import UPLOAD_SPEC, GameRow, Store, Tournament

STORE_RETRY_S = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
"""Pauses before trying again to record a played game while the store fails (a database
restarting, a dropped connection, a transaction it aborted): a minute of outage costs
no result; past it the worker stops with the error and its claims go back (as it stops,
or once another worker finds it gone)."""
RELEASE_S = 10.0
"""How often a runner looks for claims of dead runners to hand back (besides the supervisor,
which does as soon as it reaps one)."""

QUEUED_PER_SLOT = 1
"""Games claimed and handed to the executor beyond those it is playing, per slot: a worker
that finishes a game starts the next at once instead of waiting while the runner records
the last result and claims another (a few ms a game; measured, it changed no figure)."""


@dataclass
class Progress:
    """What the runner reports after each game (the CLI draws it as a bar)."""

    done: int
    total: int
    last: str


REPLAY_SEATS_CHARS = 100
"""The longest seats part of a replay's file name; a longer one is cut and ends in a hash
of the whole (file names stop at 255 bytes: ten bots of 24 characters pass it)."""


def replay_path(tournament: Tournament, game: GameRow) -> str:
    """The game's replay file: in its tournament's folder (a name that is a path trick
    becomes `_`), named by game id, seats (shortened when long) and index."""
    safe = re.sub(r"[^A-Za-z0-9_.@-]+", "_", "-".join(game.seats))
    if len(safe) > REPLAY_SEATS_CHARS:
        digest = hashlib.sha256("\0".join(game.seats).encode()).hexdigest()[:12]
        safe = f"{safe[: REPLAY_SEATS_CHARS - 13]}-{digest}"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", tournament.name)[:100]
    folder = Path(tournament.replay_dir) / (name if name.strip(".") else "_")
    return str(folder / f"{game.id:06d}-{safe}-{game.idx}.json.gz")


def job_for(
    tournament: Tournament,
    game: GameRow,
    specs: dict[str, tuple[str, str | None]],
    sandbox: bool = True,
) -> dict[str, Any]:
    job = {
        "game": tournament.game,
        "seed": game.seed,
        "map": game.map,
        "options": tournament.options,
        "replay": replay_path(tournament, game),
        "seats": [[label, *specs[label]] for label in game.seats],
    }
    if not sandbox:  # the organiser's --no-sandbox: trusted bots, run unconfined
        job["sandbox"] = False
    return job


JURY_AVOID_S = 600.0
"""How long a worker leaves alone a version whose game it could not set up (a jury
failure): other workers play it meanwhile."""


def with_builds(store: Store, job: dict[str, Any], known: dict[str, dict[str, Any]]) -> None:
    """Give `job` the sources of the uploads it seats (spec `upload:ID`) and this worker's
    build cache, so the worker process builds them there (arena/pipeline.py `ready`).
    `known`: the sources read so far by spec (an upload never changes)."""
    wanted = {spec for _, spec, _ in job["seats"] if spec.startswith(UPLOAD_SPEC)}
    if not wanted:
        return
    from botarena.arena.pipeline import build_dir, upload_builds

    ids = {int(spec[len(UPLOAD_SPEC) :]) for spec in wanted - set(known)}
    known.update(upload_builds(store, {i for i in ids if i >= 0}))
    job["builds"] = {spec: known[spec] for spec in wanted if spec in known}
    job["build_dir"] = str(build_dir(store))


def jury_failed(game: GameRow, result: dict[str, Any]) -> None:
    """Log a game this worker could not set up; it is given back, never rated here."""
    import logging

    logging.getLogger("botarena").warning(
        "botarena: game %s given back unplayed (a jury failure): %s", game.key, result["jury"]
    )


def describe(game: GameRow, result: dict[str, Any]) -> str:
    if result.get("error"):
        return f"{game.key}: error: {result['error']}"
    return " vs ".join(
        f"{seat} {score:g}" for seat, score in zip(game.seats, result["scores"], strict=True)
    )


def extend(store: Store, tournament: Tournament) -> int:
    """Add the schedule's next round when no game is pending or claimed; returns how many
    games were added (0: the schedule is complete, others are still playing, or another
    worker added the same round first: the games' unique keys refuse the second)."""
    import sqlalchemy as sa

    try:
        return _extend(store, tournament)
    except sa.exc.IntegrityError:
        return 0


def _extend(store: Store, tournament: Tournament) -> int:
    with store.transaction() as conn:
        rows = store.games(tournament, conn=conn)
        if any(row.status in ("pending", "claimed") for row in rows):
            return 0
        current = store.bots(tournament, conn=conn)
        labels = {bot.label for bot in current}
        planned = [
            schedule.PlannedGame(row.seats, row.idx, row.seed, row.map, row.round)
            for row in rows
            if row.status != "void"
        ]
        finished = [
            _record(row) for row in rows if row.status == "done" and set(row.seats) <= labels
        ]
        added = schedule.next_round(
            tournament.schedule,
            plan_of(tournament),
            [schedule.Entrant(b.label, b.role) for b in current],
            planned,
            finished,
        )
        return filling.add_games(conn, tournament, added)


def _record(row: GameRow) -> Any:
    from botarena.tournament.records import GameRecord

    return GameRecord(row.key, row.seats, *row.result(), order=row.id)


def plan_of(tournament: Tournament) -> schedule.Plan:
    return schedule.plan_from(tournament.plan, tournament.game)


def expected_total(store: Store, tournament: Tournament) -> int:
    """Games the tournament will have played when complete (scheduled, or known ahead)."""
    counts = store.counts(tournament)
    scheduled = sum(n for status, n in counts.items() if status != "void")
    if tournament.schedule != "swiss":
        return scheduled
    bots = store.bots(tournament)
    ahead = (
        schedule.total_games(
            "swiss", plan_of(tournament), [schedule.Entrant(b.label, b.role) for b in bots]
        )
        or 0
    )
    return max(scheduled, ahead)


def worker_log(store: Store) -> Path:
    """The worker's log file (tracebacks of failed steps): next to a SQLite store, else in
    the current folder."""
    from botarena.tournament.boundary import LOG_NAME
    from botarena.tournament.store import sqlite_folder

    url = store.engine.url.render_as_string(hide_password=False)
    return (sqlite_folder(url) or Path.cwd()) / LOG_NAME


def run(
    store: Store,
    tournament: Tournament,
    executor: Executor,
    report: Callable[[Progress], None] = lambda progress: None,
    sandbox: bool = True,
) -> int:
    """Play everything left (process bots in the sandbox unless `sandbox` is False); returns
    the number of games this runner finished."""
    import sqlalchemy as sa

    from botarena.tournament.boundary import Boundary
    from botarena.tournament.claims import Heartbeat

    store.release_stale()
    store.retry_errors(tournament)
    runner = store.register_runner()
    beating = Heartbeat(store.engine, runner)
    boundary = Boundary(
        worker_log(store), fatal=(sa.exc.OperationalError,), recovers=lambda: _store_back(store)
    )
    specs = {bot.label: (bot.spec, bot.workdir) for bot in store.bots(tournament)}
    sources: dict[str, dict[str, Any]] = {}
    inflight: dict[cf.Future[Any], GameRow] = {}
    played = 0
    counts = store.counts(tournament)
    done = counts.get("done", 0) + counts.get("error", 0)
    total = expected_total(store, tournament)
    report(Progress(done, total, ""))
    try:
        while True:
            while len(inflight) < executor.slots * (1 + QUEUED_PER_SLOT):
                game = store.claim(tournament, runner)
                if game is None:
                    break
                with boundary.step(f"game {game.key}", partial(_release, store, game, runner)):
                    if any(label not in specs for label in game.seats):  # added while we play
                        bots = store.bots(tournament, active_only=False)
                        specs = {bot.label: (bot.spec, bot.workdir) for bot in bots}
                    job = job_for(tournament, game, specs, sandbox)
                    with_builds(store, job, sources)
                    inflight[executor.submit(job)] = game
            if not inflight:
                if extend(store, tournament):
                    total = expected_total(store, tournament)
                    continue
                if store.counts(tournament).get("claimed", 0) == 0:
                    break
                time.sleep(0.5)  # another runner is still playing its claims
                store.release_stale()
            finished, _ = cf.wait(inflight, timeout=RELEASE_S, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                game = inflight.pop(future)
                if isinstance(future.exception(), BrokenProcessPool):
                    _stored(_release, store, game, runner)  # its worker died: another plays it
                    continue
                with boundary.step(
                    f"game {game.key}", partial(_release, store, game, runner), finishes=True
                ):
                    result = future.result()
                    if result.get("jury"):  # unplayed: an error, retried by the next run
                        jury_failed(game, result)
                        result = {"error": f"jury failure: {result['jury']}"}
                    if _stored(store.finish, game.id, runner, result):
                        played += 1
                        done += 1
                    report(Progress(done, total, describe(game, result)))
    finally:
        for future in inflight:
            future.cancel()
        beating.stop()
        store.retire_runner(runner)
    return played


# -- living tournaments: ladders and the workers of any machine ----------------------------
@dataclass
class WorkProgress:
    """What `work` reports after each game: games this worker finished, games/s, the
    leader of the (first) ladder, the last result."""

    played: int
    rate: float
    leader: str
    last: str


class Stop:
    """Set from a signal handler: stop claiming, let the games in progress finish."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self) -> bool:
        return self.asked


def _ladder_job(
    tournament: Tournament,
    game: GameRow,
    specs: dict[str, tuple[str, str | None]],
    sandbox: bool = True,
) -> dict[str, Any]:
    from botarena.tournament.ladder import map_turns

    job = job_for(tournament, game, specs, sandbox)
    turns = map_turns(game.map) if game.map else None
    if turns is not None:  # the map's own length beats the tournament option
        job["options"] = {**job["options"], "turns": str(turns)}
    return job


def _stored(call: Callable[..., Any], *args: Any) -> Any:
    """`call(*args)`, a write of a played game's result or claim, tried again after each
    pause of STORE_RETRY_S while the store fails in a way that passes (SQLAlchemy's
    OperationalError: what a lost connection, a restart or an aborted transaction raise).
    Safe to repeat: a result is committed only while its claim is held, so a write that
    did commit before its connection dropped is not counted again."""
    import logging

    import sqlalchemy as sa

    for pause in STORE_RETRY_S:
        try:
            return call(*args)
        except sa.exc.OperationalError as exc:
            reason = str(exc.orig or exc).strip().splitlines()[0]
            logging.getLogger("botarena").warning(
                f"botarena: the store failed ({reason}): trying again in {pause:g} s"
            )
            time.sleep(pause)
    return call(*args)


def _store_back(store: Store) -> bool:
    """Whether the store answers again within the pauses of STORE_RETRY_S (a PostgreSQL
    restart, a lost connection): what a worker waits for before going on."""
    import logging

    import sqlalchemy as sa

    for pause in STORE_RETRY_S:
        time.sleep(pause)
        try:
            with store.engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
            return True
        except sa.exc.OperationalError as exc:
            reason = str(exc.orig or exc).strip().splitlines()[0]
            logging.getLogger("botarena").warning(
                f"botarena: the store failed ({reason}): trying again in {pause:g} s"
            )
    return False


def _release(store: Store, game: GameRow, runner: str) -> None:
    """Hand one claimed game back (its worker failed): another worker plays it."""
    from botarena.tournament.store import games as games_table

    with store.transaction() as conn:
        conn.execute(
            games_table.update()
            .where(
                games_table.c.id == game.id,
                games_table.c.claimed_by == runner,
                games_table.c.status == "claimed",
            )
            .values(status="pending", claimed_by=None, claimed_at=None)
        )


def _contest_uploads(store: Store, runner: str, names: Sequence[str] | None, sandbox: bool) -> Any:
    """The contest sites' upload queue (arena/pipeline.py) when the store has their tables."""
    import sqlalchemy as sa

    from botarena.arena.pipeline import Uploads

    if not sa.inspect(store.engine).has_table("arena_contests"):
        return None
    return Uploads(store, runner, list(names) if names else None, sandbox)


def _contest_compares(store: Store, runner: str, names: Sequence[str] | None) -> Any:
    """The contest sites' compare games (arena/comparisons.py) when the store has their
    tables."""
    import sqlalchemy as sa

    from botarena.arena.comparisons import Compares

    if not sa.inspect(store.engine).has_table("arena_contests"):
        return None
    return Compares(store, runner, list(names) if names else None)


def work(
    store: Store,
    executor: Executor,
    names: Sequence[str] | None = None,
    *,
    games: int | None = None,
    seconds: float | None = None,
    stop: Callable[[], bool] = lambda: False,
    report: Callable[[WorkProgress], None] = lambda progress: None,
    idle_exit: bool = True,
    sandbox: bool = True,
) -> int:
    """Claim and play games of running tournaments (`names`, default all): pending games
    first (test competitions, finals, finite tournaments), then ladder games chosen on the
    spot, and a contest's compare games in the ladder's spare time: one after each ladder
    game this worker claims, and whenever the ladder has no game for it now. Stops claiming
    after `games` games, `seconds`, or when `stop()`; the games in progress finish and are
    recorded. With nothing to play it returns when `idle_exit` and no ladder runs, else it
    waits for work. Returns the games this worker finished; LadderError once it stopped
    because `botarena store upgrade` moved the store to another release (looked at every
    RELEASE_S, the games in progress finished first). Each
    step is inside the error boundary (tournament/boundary.py)."""
    import random

    import sqlalchemy as sa

    from botarena.tournament import ladder, releases, stages
    from botarena.tournament.boundary import Boundary
    from botarena.tournament.claims import Heartbeat

    rng = random.Random()
    store.release_stale()
    runner = store.register_runner()
    beating = Heartbeat(store.engine, runner)
    boundary = Boundary(
        worker_log(store), fatal=(sa.exc.OperationalError,), recovers=lambda: _store_back(store)
    )
    started = time.monotonic()
    until = None if seconds is None else started + seconds
    inflight: dict[cf.Future[Any], tuple[Tournament, GameRow] | tuple[None, Any]] = {}
    uploads = _contest_uploads(store, runner, names, sandbox)
    compares = _contest_compares(store, runner, names)
    compare_due = False  # a ladder game was claimed since the last compare game
    specs: dict[tuple[int, str], tuple[str, str | None]] = {}
    sources: dict[str, dict[str, Any]] = {}
    avoided: dict[str, float] = {}  # versions whose games this worker could not set up
    given_back: set[int] = set()  # their games, left to other workers
    played, released, turn, leader, looked, extended = 0, time.monotonic(), 0, "", 0.0, 0.0
    known: list[Tournament] = []
    ladders: list[Tournament] = []

    def spec_map(tournament: Tournament) -> dict[str, tuple[str, str | None]]:
        missing = [t for t in (tournament,) if not any(k[0] == t.id for k in specs)]
        for t in missing:
            for bot in store.bots(t, active_only=False):
                specs[(t.id, bot.label)] = (bot.spec, bot.workdir)
        return {label: spec for (tid, label), spec in specs.items() if tid == tournament.id}

    moved: str | None = None  # why this worker's release no longer plays for the store

    def wanted() -> bool:
        if moved or stop() or (until is not None and time.monotonic() >= until):
            return False
        return games is None or played + len(inflight) < games

    def give_back(item: Any) -> Callable[[], object]:
        """What hands `item`'s claim back: a game's, or an upload step's."""
        if isinstance(item, GameRow):
            return partial(_release, store, item, runner)
        assert uploads is not None
        return partial(uploads.done, item, None)

    def claim_next() -> bool:
        """Claim one more item and hand it to the executor; False when there is none."""
        nonlocal turn, extended
        step = uploads.next() if uploads is not None else None
        if step is not None:  # a contest's upload to build: before any game
            with boundary.step(f"upload {step.upload_id}", give_back(step)):
                inflight[executor.submit(step.job)] = (None, step)
            return True
        now = time.monotonic()
        for label in [label for label, since in avoided.items() if now - since > JURY_AVOID_S]:
            del avoided[label]
        pending = [t.id for t in known if t.plan.get("stage") != "compare"]  # spare time only
        claimed = ladder.claim_pending(store, pending, runner, given_back)
        game = claimed[1] if claimed else None
        if game is None and time.monotonic() - extended > 1.0:
            extended = time.monotonic()  # a swiss or adaptive next round, once
            finite = [t for t in known if t.schedule in ("swiss", "adaptive")]
            if any([extend(store, t) for t in finite]):  # the last one is played
                return True
        tournament = next((t for t in known if claimed and t.id == claimed[0]), None)
        if game is None and ladders:
            tournament, game = ladder_or_compare()
        if game is None or tournament is None:
            return False
        with boundary.step(f"game {game.key}", give_back(game)):
            table = spec_map(tournament)
            if not set(game.seats) <= set(table):
                specs.clear()
                table = spec_map(tournament)
            job = _ladder_job(tournament, game, table, sandbox)
            with_builds(store, job, sources)
            inflight[executor.submit(job)] = (tournament, game)
        return True

    def ladder_or_compare() -> tuple[Tournament | None, GameRow | None]:
        """A compare game if one is due (a ladder game was claimed since the last), else a
        ladder game, else (the ladder has none for this worker now) a compare game."""
        nonlocal turn, compare_due
        if compares is not None and compare_due:
            compare_due = False
            found = compares.claim(given_back)
            if found is not None:
                return found  # type: ignore[no-any-return]
        chosen = ladders[turn % len(ladders)]
        turn += 1
        game = ladder.make_and_claim(store, chosen, runner, rng, set(avoided))
        if game is not None:
            compare_due = True
            return chosen, game
        found = compares.claim(given_back) if compares is not None else None
        return (None, None) if found is None else found

    def record(future: cf.Future[Any], tournament: Tournament | None, item: Any) -> None:
        """Record what a finished step gave: an upload's build or test, a game's result."""
        nonlocal played, leader, looked
        died = isinstance(future.exception(), BrokenProcessPool)  # its worker process died
        if tournament is None:  # an upload's build or test game (arena/pipeline.py)
            assert uploads is not None
            follow = uploads.done(item, None if died else future.result())
            if follow is not None:
                inflight[executor.submit(follow.job)] = (None, follow)
            return
        if died:
            _stored(_release, store, item, runner)  # another worker plays it
            return
        result = future.result()
        if result.get("jury"):  # not played: back to the store for another worker
            jury_failed(item, result)
            _stored(_release, store, item, runner)
            given_back.add(item.id)
            avoided.update(dict.fromkeys(item.seats, time.monotonic()))
            return
        ladder_game = tournament.schedule == "ladder"
        if _stored(ladder.finish, store, item, runner, result, ladder_game):
            played += 1
            keep = retention.keep_of(tournament) if ladder_game else None
            if keep is not None and played % retention.PRUNE_EVERY == 0:
                with boundary.step(f"pruning the replays of {tournament.name}"):
                    retention.prune(store, tournament, keep)
            if ladder_game and time.monotonic() - looked > 2.0:
                looked = time.monotonic()  # reading the standings costs O(bots)
                top = ladder.standings(store, tournament)[:1]
                leader = f"{top[0].label} {top[0].ordinal:.2f}" if top else ""
        elapsed = time.monotonic() - started
        report(
            WorkProgress(
                played, played / elapsed if elapsed > 0 else 0.0, leader, describe(item, result)
            )
        )

    try:
        while True:
            with boundary.step("looking for work"):
                known = [t for t in store.tournaments() if names is None or t.name in names]
                ladders = [t for t in known if t.schedule == "ladder"]
                for t in ladders:
                    stages.maybe_test_competition(store, t)
                known = [
                    t
                    for t in store.tournaments()
                    if names is None or t.name in names or t.plan.get("parent") in (names or ())
                ]
                while wanted() and len(inflight) < executor.slots * (1 + QUEUED_PER_SLOT):
                    if not claim_next():
                        break
            if time.monotonic() - released > RELEASE_S:
                with boundary.step("handing back dead runners' claims"):
                    store.release_stale()
                    moved = moved or releases.release_moved(store)
                released = time.monotonic()
            if not inflight:
                if not wanted() or (idle_exit and not ladders):
                    break
                time.sleep(1.0)  # nothing to play yet: wait for add-bot, a new tournament
                continue
            finished, _ = cf.wait(inflight, timeout=RELEASE_S, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                tournament, item = inflight.pop(future)
                what = (
                    f"game {item.key}" if isinstance(item, GameRow) else f"upload {item.upload_id}"
                )
                with boundary.step(what, give_back(item), finishes=True):
                    record(future, tournament, item)
    finally:
        for future in inflight:
            future.cancel()
        beating.stop()
        store.retire_runner(runner)
    if moved:
        raise ladder.LadderError(f"{moved}; it stopped after {played} games")
    return played
