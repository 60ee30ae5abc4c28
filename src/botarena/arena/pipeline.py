"""From upload to ladder on a worker: claim an upload, build it, play its test game, join.

The web process only stores an upload (status `building`). A worker (`tournament work`, or
one that `arena serve` starts) claims it here, hands the build to its executor like a game
(`build_upload`, in a worker process: the compilers run in the sandbox, as nobody), records
the build log, then hands over one test game against the sample bot (tournament/worker.py's
`play_game`). A crash, time-out or illegal move there keeps the bot out with the reason and
its stderr; a pass adds the version to the ladder (its earlier active version is retired,
its games kept and no longer counted), first in the waiting line. A claim whose worker died
is handed back (tournament/claims.py) and built again from the start.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from botarena.arena.store import Contest, WorkedContests, arena_bots, contests, uploads
from botarena.tournament import filling, ladder, stages
from botarena.tournament.claims import release_gone
from botarena.tournament.store import (
    UPLOAD_SPEC,
    Store,
    finished_values,
    games,
    replays,
    sqlite_folder,
    tournaments,
)

log = logging.getLogger("botarena")
LOG_CAP = 64 << 10
"""A build log is kept up to this many characters (the compiler's own output is capped
already; this bounds what the store and the page hold)."""
STDERR_CAP = 10_000
"""The bot's stderr from its test game, as the replay keeps it."""


def build_dir(store: Store) -> Path:
    """Where uploads are built (the build cache): next to a SQLite store, else in the current
    folder (a PostgreSQL contest's workers share their working folder's cache)."""
    url = store.engine.url.render_as_string(hide_password=False)
    return (sqlite_folder(url) or Path.cwd()) / ".botarena-build"


def _build(job: dict[str, Any], cache: Path, folder: Path) -> tuple[str, Path, Any]:
    """Check the upload of `job` (filename, data, max_source_bytes, name) again, write it
    into `folder` and build it into `cache` (the sandbox runs the compilers): the command
    line that runs it, its built folder, the checked upload. Raises UploadRefused,
    BuildError or OSError."""
    from botarena.arena.uploads import check_upload, write_upload
    from botarena.tournament.build import built_folder

    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        upload = check_upload(
            job["filename"], job["data"], max_source_bytes=job["max_source_bytes"]
        )
        write_upload(upload, folder)
        spec, target = built_folder(
            folder, upload.main, cache, name=job["name"], max_bytes=job["max_source_bytes"]
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return spec, target, upload


def build_upload(job: dict[str, Any]) -> dict[str, Any]:
    """In a worker process: check the upload again, write it into a fresh folder, build its
    main file with its other sources in the sandbox. Returns {spec, language, log} or
    {error, log}."""
    from botarena.arena.uploads import UploadRefused
    from botarena.tournament.build import BuildError

    cache = Path(job["build_dir"])
    folder = cache / "uploads" / uuid.uuid4().hex
    try:
        spec, _, upload = _build(job, cache, folder)
    except UploadRefused as exc:
        return {"error": str(exc), "log": str(exc)}
    except BuildError as exc:
        log = str(exc).replace(f"{folder}/", "")  # the files as their author named them
        return {"error": "the source did not build (see the build log)", "log": _capped(log)}
    except OSError as exc:
        return {
            "error": f"the build could not run: {exc}",
            "log": f"the build could not run: {exc}",
        }
    count = len(upload.files)
    more = f" and {count - 1} other file{'s' * (count > 2)}" if count > 1 else ""
    log = f"{upload.language} source {upload.main}{more}: built without errors."
    return {"spec": spec, "language": upload.language, "log": log}


class JuryFailure(Exception):
    """A game this worker cannot set up (an upload that does not build here though it built
    where it was tested, an artefact that stays corrupt): the game is given back, never
    played or rated here; the message is one line for the worker's log."""


_READY: dict[tuple[str, str], tuple[str, Path]] = {}
"""This process's built uploads: (digest of the upload, cache) -> (command line, folder)."""


def ready(build: dict[str, Any], cache: Path) -> str:
    """The command line of an upload's bot built in this worker's `cache` (the job's
    `builds` entry: upload, filename, data, max_source_bytes, name), built here first when
    the cache lacks it; the built folder is checked against its key (`build.verify`) before
    each game, and one found corrupt is removed and built again. JuryFailure when it cannot
    be: this worker cannot set the game up."""
    from botarena.tournament.build import verify

    key = (hashlib.sha256(build["filename"].encode() + b"\0" + build["data"]).hexdigest(),
           str(cache))  # fmt: skip
    known = _READY.pop(key, None)
    for attempt in range(2):
        if known is None:
            known = _ready_build(build, cache)
        problem = verify(known[1])
        if not problem:
            _READY[key] = known
            return known[0]
        log.warning(
            "upload %s (%s): its built folder %s is not its artefact (%s): %s",
            build["upload"], build["name"], known[1], problem,
            "built again" if attempt == 0 else "given up",
        )  # fmt: skip
        shutil.rmtree(known[1], ignore_errors=True)
        known = None
    raise JuryFailure(f"upload {build['upload']} ({build['name']}): its artefact stays corrupt")


def _ready_build(build: dict[str, Any], cache: Path) -> tuple[str, Path]:
    from botarena.arena.uploads import UploadRefused
    from botarena.tournament.build import BuildError

    try:
        spec, target, _ = _build(build, cache, cache / "uploads" / uuid.uuid4().hex)
    except (UploadRefused, BuildError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise JuryFailure(
            f"upload {build['upload']} ({build['name']}) does not build on this worker: {first}"
        ) from None
    return spec, target


def upload_builds(store: Store, ids: set[int]) -> dict[str, dict[str, Any]]:
    """What a worker needs to build these uploads (`ready`), by their spec `upload:ID`."""
    if not ids:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                uploads.c.id,
                uploads.c.filename,
                uploads.c.source,
                arena_bots.c.name,
                contests.c.settings,
            )
            .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
            .join(contests, contests.c.id == arena_bots.c.contest_id)
            .where(uploads.c.id.in_(ids))
        ).all()
    return {
        f"{UPLOAD_SPEC}{row.id}": {
            "upload": row.id,
            "filename": row.filename,
            "data": bytes(row.source),
            "max_source_bytes": int(row.settings["max_source_bytes"]),
            "name": row.name,
        }
        for row in rows
    }


def _capped(text: str) -> str:
    if len(text) <= LOG_CAP:
        return text
    return text[:LOG_CAP] + f"\n... (log cut at {LOG_CAP >> 10} KiB)"


def failure(document: dict[str, Any] | None, status: str, seat: int = 0) -> str:
    """Why a bot failed its test game, in one line: its status and the first fault the
    replay recorded for its seat."""
    detail = ""
    if document is not None:
        found = (document.get("handshake_faults") or {}).get(str(seat))
        for step in document.get("steps", []) if found is None else ():
            found = next(
                (a["fault"] for a in step["acts"] if a["seat"] == seat and "fault" in a), None
            )
            if found is not None:
                break
        if found:
            detail = str(found[1] or found[0])
    words = {"crashed": "crashed", "timeout": "ran out of time", "invalid": "made an illegal move"}
    said = f"the bot {words.get(status, status)} in its test game against the sample bot"
    return f"{said}: {detail}" if detail else said


@dataclass
class Step:
    """One upload's work in flight on the executor: its build, then its test game."""

    upload_id: int
    contest: Contest
    bot: str
    version: int
    phase: str  # build or test
    job: dict[str, Any]
    spec: str = ""
    seats: list[str] = field(default_factory=list)
    role: str | None = None
    seat: int = 0
    """The upload's seat in its test game (its role's in a role game)."""


class Uploads:
    """The upload queue as one runner works it (runner.work calls `next` and `done`)."""

    def __init__(self, store: Store, runner: str, names: list[str] | None, sandbox: bool) -> None:
        self.store, self.runner, self.sandbox = store, runner, sandbox
        self.contests = WorkedContests(store, names)

    def next(self) -> Step | None:
        """Claim the oldest upload waiting for a build; its build job, or None."""
        known = {c.id: c for c in self.contests.current()}
        if not known:
            return None
        with self.store.transaction() as conn:
            release_gone(conn)
            query = (
                sa.select(uploads.c.id)
                .join(arena_bots, arena_bots.c.id == uploads.c.bot_id)
                .where(
                    uploads.c.status == "building",
                    uploads.c.claimed_by.is_(None),
                    arena_bots.c.contest_id.in_(known),
                )
                .order_by(uploads.c.id)
                .limit(1)
            )
            if conn.dialect.name == "postgresql":
                query = query.with_for_update(of=uploads, skip_locked=True)
            found = conn.execute(query).scalar()
            if found is None:
                return None
            row = conn.execute(
                uploads.update()
                .where(uploads.c.id == found, uploads.c.claimed_by.is_(None))
                .values(claimed_by=self.runner, claimed_at=time.time())
                .returning(uploads.c.id, uploads.c.version, uploads.c.filename, uploads.c.source)
            ).first()
            if row is None:
                return None
            bot = conn.execute(
                sa.select(arena_bots.c.name, arena_bots.c.contest_id, arena_bots.c.role).where(
                    arena_bots.c.id
                    == sa.select(uploads.c.bot_id).where(uploads.c.id == row.id).scalar_subquery()
                )
            ).one()
        contest = known[bot.contest_id]
        job = {
            "kind": "arena-build",
            "filename": row.filename,
            "data": bytes(row.source),
            "max_source_bytes": int(contest.settings["max_source_bytes"]),
            "build_dir": str(build_dir(self.store)),
            "name": bot.name,
        }
        return Step(row.id, contest, bot.name, row.version, "build", job, role=bot.role)

    def done(self, step: Step, result: dict[str, Any] | None) -> Step | None:
        """Record what a step gave (None: its worker process died, or a test game this
        worker could not set up or record, a jury failure: the upload goes back); returns
        the next step (the test game after a build) or None."""
        if result is None or result.get("jury"):
            self._update(step, status="building", claimed_by=None, claimed_at=None)
            return None
        if step.phase == "build":
            return self._built(step, result)
        self._tested(step, result)
        return None

    def _update(self, step: Step, **values: Any) -> bool:
        with self.store.transaction() as conn:
            return self._update_in(conn, step, **values)

    def _update_in(self, conn: Any, step: Step, **values: Any) -> bool:
        return bool(
            conn.execute(
                uploads.update()
                .where(uploads.c.id == step.upload_id, uploads.c.claimed_by == self.runner)
                .values(**values)
            ).rowcount
            == 1
        )

    def _built(self, step: Step, result: dict[str, Any]) -> Step | None:
        if result.get("error"):
            self._update(
                step,
                status="build-failed",
                reason=result["error"],
                build_log=_capped(result.get("log") or ""),
                claimed_by=None,
                finished_at=time.time(),
            )
            return None
        if not self._update(step, status="testing", build_log=result["log"]):
            return None  # the claim was handed back meanwhile: another worker builds it
        contest = step.contest
        label = f"{step.bot}@test{step.version}"
        seats, seat = _test_seats(contest, label, result["spec"], step.role)
        replay_dir = Path(contest.tests.replay_dir)
        seed = int.from_bytes(hashlib.sha256(uuid.uuid4().bytes).digest()[:4], "big") >> 1
        job = {
            "game": contest.ladder.game,
            "seats": [[label, spec, None] for label, spec in seats],
            "seed": seed,
            "map": _test_map(contest, len(seats)),
            "options": contest.ladder.options,
            "replay": str(
                replay_dir / contest.tests.name / f"{label}-{uuid.uuid4().hex[:8]}.json.gz"
            ),
            "sandbox": self.sandbox,
        }
        labels = [label for label, _ in seats]
        return Step(
            step.upload_id,
            contest,
            step.bot,
            step.version,
            "test",
            job,
            result["spec"],
            labels,
            step.role,
            seat,
        )

    def _tested(self, step: Step, result: dict[str, Any]) -> None:
        from botarena.core.replay import load

        document = None
        if not result.get("error"):
            try:
                document = load(result["replay"])
            except Exception:  # a replay that cannot be read costs its stderr, not the result
                document = None
        stderr = (((document or {}).get("stderr") or [])[step.seat :] or [""])[0][:STDERR_CAP]
        reason: str | None
        if result.get("error"):
            passed, reason = False, f"the test game could not be played: {result['error']}"
        else:
            status = result["statuses"][step.seat]
            passed = status == "ok"
            reason = None if passed else failure(document, status, step.seat)
        contest = step.contest
        with self.store.transaction() as conn:
            if not self._update_in(conn, step, claimed_by=self.runner):
                return
            game_id = conn.execute(
                games.insert()
                .values(
                    tournament_id=contest.tests.id,
                    key=f"{contest.tests.name}/{step.seats[step.seat]}/{uuid.uuid4().hex}",
                    round=0,
                    pairing="-".join(step.seats),
                    idx=0,
                    seed=step.job["seed"],
                    map=step.job["map"],
                    seats=step.seats,
                    status="claimed",
                )
                .returning(games.c.id)
            ).scalar_one()
            conn.execute(
                games.update().where(games.c.id == game_id).values(**finished_values(result))
            )
            if document is not None:
                blob = Path(result["replay"]).read_bytes()
                conn.execute(
                    replays.insert().values(game_id=game_id, data=ladder._compressed(blob))
                )
            values: dict[str, Any] = dict(
                test_game_id=game_id, stderr=stderr, claimed_by=None, finished_at=time.time()
            )
            if passed:
                values.update(self._join(conn, step))
            else:
                values.update(status="test-failed", reason=reason)
            self._update_in(conn, step, **values)

    def _join(self, conn: Any, step: Step) -> dict[str, Any]:
        """Put a version that passed on the ladder, in `conn`'s transaction; its upload's
        new columns."""

        contest = step.contest
        bot = conn.execute(
            sa.select(arena_bots).where(
                arena_bots.c.contest_id == contest.id, arena_bots.c.name == step.bot
            )
        ).one()
        if bot.disabled:
            return dict(status="retired", reason="the organiser disabled this bot")
        plan = conn.execute(
            sa.select(tournaments.c.plan).where(tournaments.c.id == contest.ladder.id)
        ).scalar_one()
        deadline = stages.stored_deadline(contest.ladder.name, plan)
        if deadline is not None and time.time() >= deadline:
            return dict(
                status="test-failed", reason="the contest's deadline passed before it was tested"
            )
        spec = f"{UPLOAD_SPEC}{step.upload_id}"  # each worker builds it (`ready`)
        added = filling.add_bot(
            conn, contest.ladder, step.bot, spec, step.role, None, None, step.version
        )
        ladder.join(conn, contest.ladder, added.name, added.label, role=step.role)
        conn.execute(
            uploads.update()
            .where(uploads.c.bot_id == bot.id, uploads.c.status == "active")
            .values(status="retired")
        )
        return dict(status="active", label=added.label, reason=None)


def _test_seats(
    contest: Contest, label: str, spec: str, role: str | None
) -> tuple[list[tuple[str, str]], int]:
    """A test game's seats (label, spec) and the upload's seat among them. In a role
    game the upload sits in its role's seat and each other role's sample bot in its own;
    else the upload sits first and copies of the sample bot fill the game's other seats
    (`sample`, or `sample-1`... when there are several)."""
    if role is not None:
        seats = [
            (label, spec) if other == role else contest.sample(other) for other in contest.roles
        ]
        return seats, contest.roles.index(role)
    count = _min_seats(contest.ladder.game)
    samples = ["sample"] if count == 2 else [f"sample-{i}" for i in range(1, count)]
    return [(label, spec), *((name, contest.sample_bot) for name in samples)], 0


def _min_seats(game: str) -> int:
    from botarena.core.registry import get_game

    return get_game(game).info.min_seats


def _test_map(contest: Contest, seats: int) -> str | None:
    """The test game's map: the ladder's first map for that many players, if it has maps."""
    for path, players in contest.ladder.plan.get("map_players") or []:
        if players == seats:
            return str(path)
    return None
