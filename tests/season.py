"""A contest season rehearsed end to end (issue #36), shared by bench/bench_season.py and
tests/test_season.py: real processes that share nothing but the store's URL.

PostgreSQL is started for it; each contest of `CONTESTS` is made with `botarena arena new`
and served by `arena serve --workers 0` (the first in two web processes); three `botarena
tournament work` processes, each in its own folder (its own build cache), play for all of
them, as three machines would. Scripted contestants sign up, upload, update and read over
the JSON API, each from its own loopback address, while the faults are dealt: kill -9 of a
worker mid-build and of one mid-game (a fresh worker in a fresh folder replaces each), of a
web process, a PostgreSQL restart, and the move to a new release (a copy of this botarena
with one more schema revision, made for the rehearsal and thrown away: `new_release`). Then
a deadline, the finals, the export; the checks; every process stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pgserver
from seasonapi import (
    ADMIN_PASSWORD,
    OUTSIDE_NAME,
    Contestant,
    Plan,
    Refused,
    Season,
    contestant_uploads,
    get,
    organiser,
    request,
    roster,
    say,
    sign_up,
)

CONTESTS = (
    ("cup", "amazes", 2, ("-o", "budget_ms=3000")),
    ("colony", "ants", 1, ("--seats", "2-4", "-o", "turns=60", "-o", "turntime=200")),
    ("maze", "labyrinth", 1, ("-o", "max_rounds=3")),
)
"""(contest, game, web processes, more `arena new` arguments); a contest `arena new`
refuses is left out with a printed line."""


# ---------------------------------------------------------------- processes


class Fleet:
    """Every process the rehearsal starts, each in a process group of its own, so that
    `stop` ends them and everything they started, even when a check failed."""

    def __init__(self, folder: Path, db: str) -> None:
        self.folder = folder
        self.db = db
        self.workers: list[subprocess.Popen[bytes]] = []
        self.serves: dict[str, subprocess.Popen[str]] = {}
        self.started: list[subprocess.Popen[Any]] = []
        self.killed: list[int] = []
        self.retired: list[int] = []  # workers of the old release, stopped by the upgrade
        self.webs: dict[str, int] = {}
        self.env: dict[str, str] = {}  # the release's: set by the mid-season upgrade
        self.folders = 0

    def _log(self, name: str) -> Any:
        return open(self.folder / f"{name}.log", "ab")

    def worker(self) -> subprocess.Popen[bytes]:
        """`botarena tournament work` in a new folder of its own, as a new machine would."""
        self.folders += 1
        home = self.folder / f"worker{self.folders}"
        home.mkdir()
        os.chmod(home, 0o755)  # the sandboxed bots (nobody) read its build cache
        with self._log(f"worker{self.folders}") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "botarena", "tournament", "work", "--db", self.db,
                 "--workers", "1"],
                cwd=home, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, env={**os.environ, **self.env},
            )  # fmt: skip
        self.workers.append(process)
        self.started.append(process)
        return process

    def serve(self, contest: str, web_processes: int, port: int = 0) -> str:
        """`arena serve CONTEST --workers 0 --web-workers N`: its address."""
        with self._log(f"serve-{contest}") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "botarena", "arena", "serve", contest, "--db", self.db,
                 "--port", str(port), "--workers", "0", "--web-workers", str(web_processes)],
                cwd=self.folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                text=True, start_new_session=True,
                env={**os.environ, **self.env, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        self.serves[contest] = process
        self.webs[contest] = web_processes
        self.started.append(process)
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith(f"contest {contest}: http://"), first
        return first.split()[2]

    def live_workers(self) -> list[subprocess.Popen[bytes]]:
        return [w for w in self.workers if w.poll() is None]

    def stop(self, grace_s: float = 40.0) -> None:
        """SIGTERM to every process started (workers give their games back), then SIGKILL
        to each process group after `grace_s`."""
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        until = time.monotonic() + grace_s
        for process in self.started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.1, until - time.monotonic()))
        for process in self.started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)


def botarena(
    *args: str, cwd: Path, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        cwd=cwd, capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})},
    )  # fmt: skip
    if check:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def fresh_database(server: str, name: str) -> str:
    import sqlalchemy as sa

    engine = sa.create_engine(
        f"{server.replace('postgresql://', 'postgresql+psycopg://', 1)}/postgres",
        isolation_level="AUTOCOMMIT",
    )
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return f"{server}/{name}"


def make_contests(season: Season, wanted: tuple[str, ...]) -> list[tuple[str, str, int]]:
    """`arena new` for each of `CONTESTS` `wanted`: (contest, game, web processes) of those
    made."""
    secret = season.folder / "admin.pw"
    secret.write_text(ADMIN_PASSWORD + "\n")
    made = []
    for contest, game, web, more in CONTESTS:
        if contest not in wanted:
            continue
        args = ["arena", "new", contest, "--game", game, "--db", season.db, *more]
        done = botarena(*args, "--admin-password-file", str(secret), cwd=season.folder, check=False)
        if done.returncode != 0:
            say(season, f"{game} left out: arena new refused it: {done.stderr.strip()}")
            continue
        made.append((contest, game, web))
        season.games[contest] = game
    return made


# ---------------------------------------------------------------- the organiser and faults


def worker_pids(season: Season, contest: str) -> dict[str, int]:
    """The workers' ids as the store names them -> their pids."""
    rows = get(season.urls[contest], "/api/admin/workers", organiser(season, contest))
    return {row["worker"]: row["pid"] for row in rows}


def caught(season: Season, fleet: Fleet, holding: Callable[[], list[str]], wait_s: float) -> int:
    """The pid of one of our live workers holding what `holding` lists (worker ids), as
    soon as one does (at most `wait_s`); 0 if none did."""
    ours = {w.pid for w in fleet.live_workers()}
    until = time.monotonic() + wait_s
    while time.monotonic() < until:
        held = holding()
        if held:
            pids = worker_pids(season, next(iter(season.urls)))
            for worker in held:
                if pids.get(worker) in ours:
                    return pids[worker]
        time.sleep(0.2)
    return 0


def kill_worker(season: Season, fleet: Fleet, what: str, holding: Callable[[], list[str]]) -> None:
    """kill -9 of a worker while it holds `what`, and a fresh worker in a fresh folder."""
    pid = caught(season, fleet, holding, 60.0)
    if pid == 0:
        pid = fleet.live_workers()[0].pid
        say(season, f"no worker caught {what} within 60 s: killing worker {pid} anyway")
    else:
        say(season, f"kill -9 of worker {pid} {what}")
    os.kill(pid, signal.SIGKILL)
    fleet.killed.append(pid)
    fleet.worker()


def building(season: Season) -> list[str]:
    contest = next(iter(season.urls))
    rows = get(season.urls[contest], "/api/admin/uploads", organiser(season, contest))
    return [r["worker"] for r in rows if r["status"] == "building" and r["worker"]]


def playing(season: Season) -> list[str]:
    contest = next(iter(season.urls))
    answer = get(
        season.urls[contest], "/api/admin/games?status=claimed", organiser(season, contest)
    )
    return [g["worker"] for g in answer["games"] if g["worker"]]


def web_children(serve: subprocess.Popen[str]) -> list[int]:
    """The web processes `serve` runs (uvicorn's spawned children)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parent = int(stat[stat.rfind(")") + 2 :].split()[1])
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
                if parent == serve.pid and b"spawn_main" in command:
                    found.append(int(entry))
    return found


def kill_web_process(season: Season, fleet: Fleet) -> None:
    """kill -9 of one of the first contest's web processes; the site must keep answering."""
    contest = next(iter(season.urls))
    serve = fleet.serves[contest]
    before = web_children(serve)
    if len(before) < 2:
        say(season, f"{contest} runs {len(before)} web process(es): no web process killed")
        return
    os.kill(before[0], signal.SIGKILL)
    for _ in range(20):
        get(season.urls[contest], "/api/standings")
    time.sleep(3.0)
    after = web_children(serve)
    season.checks["web processes after a kill -9"] = len(after)
    say(season, f"kill -9 of web process {before[0]}: the site answered; {len(after)} now")


def restart_store(season: Season, server: pgserver.Server) -> None:
    say(season, "PostgreSQL stopped")
    server.stop()
    time.sleep(3.0)
    server.start()
    say(season, "PostgreSQL started again")


REHEARSAL_REVISION = '''"""The rehearsal's new release: a column added mid-season, thrown away."""

import sqlalchemy as sa
from alembic import op

revision = "rehearsal"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rehearsal_note", sa.Text, server_default="kept"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rehearsal_note")
'''


def new_release(folder: Path) -> dict[str, str]:
    """A later botarena release, made for the rehearsal and thrown away with it: a copy of
    this botarena with one more schema revision (`REHEARSAL_REVISION`) and a later version
    (its metadata folder's name): the environment that runs it (PYTHONPATH first)."""
    import re

    import botarena
    from botarena.tournament import migrations

    release = folder / "release2"
    shutil.copytree(Path(botarena.__file__).parent, release / "botarena",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    copied = release / "botarena" / "tournament" / "migrations"
    (copied / "versions" / "9999_rehearsal.py").write_text(
        REHEARSAL_REVISION.replace("{head}", migrations.HEAD)
    )
    listed = (copied / "__init__.py").read_text()
    (copied / "__init__.py").write_text(
        re.sub(r"^REVISIONS = \((.*)\)$", r'REVISIONS = (\1, "rehearsal")', listed, count=1,
               flags=re.MULTILINE)
    )  # fmt: skip
    info = next(
        path
        for entry in sys.path
        if entry and Path(entry).is_dir()
        for path in Path(entry).glob("botarena-*.dist-info")
    )
    later = f"{botarena.__version__}.post1"
    shutil.copytree(info, release / f"botarena-{later}.dist-info")
    return {"PYTHONPATH": str(release)}


def upgrade_release(season: Season, fleet: Fleet) -> None:
    """Mid-season, the move to a new release (`new_release`), as docs/store.md says: the
    site stopped, a backup, the new release's `store upgrade`; the old release's workers,
    left running, stop by themselves (exit 2) once they see the store moved, and a new
    worker of the old release is refused; then the new release's site on the same ports and
    as many new workers. Contestants' requests meanwhile are retried (`request`)."""
    env = new_release(season.folder)
    old = fleet.live_workers()
    for process in fleet.serves.values():
        process.send_signal(signal.SIGTERM)
    for process in fleet.serves.values():
        process.wait(40)
    say(season, "new release: the site stopped")
    copy = season.folder / "backup.dump"
    programs = f"{pgserver.bindir()}{os.pathsep}{os.environ.get('PATH', '')}"  # pg_dump
    done = botarena("store", "backup", str(copy), "--db", season.db, cwd=season.folder,
                    env={"PATH": programs})  # fmt: skip
    say(season, f"store backup mid-season: {done.stdout.strip()}")
    done = botarena("store", "upgrade", "--db", season.db, cwd=season.folder, env=env)
    season.checks["store upgrade mid-season"] = done.stdout.strip()
    say(season, f"store upgrade mid-season, the new release's: {done.stdout.strip()}")
    refused = botarena("tournament", "work", "--db", season.db, "--games", "1",
                       cwd=season.folder, check=False)  # fmt: skip
    season.checks["a worker of the old release after the upgrade"] = (
        refused.returncode, refused.stderr.strip())  # fmt: skip
    fleet.env = env
    season.release_env = env
    for contest, url in season.urls.items():
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        assert fleet.serve(contest, fleet.webs[contest], port) == url
    for _ in old:
        fleet.worker()
    for worker in old:  # meanwhile, each finds the store moved (every 10 s) and stops
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(120)
        fleet.retired.append(worker.pid)
    season.checks["old release's workers' exit codes"] = [w.returncode for w in old]
    say(season, f"the old release's {len(old)} workers stopped by themselves")
    column = store_rows(
        season.db,
        "select count(*) from information_schema.columns"
        " where table_name = 'games' and column_name = 'rehearsal_note'",
    )
    season.checks["column added mid-season"] = column[0][0] == 1
    say(season, "new release: its site and workers started")


def faults(season: Season, fleet: Fleet, server: pgserver.Server) -> None:
    """The faults, in turn, while the contestants upload."""
    kill_worker(season, fleet, "mid-build", lambda: building(season))
    kill_worker(season, fleet, "mid-game", lambda: playing(season))
    kill_web_process(season, fleet)
    restart_store(season, server)
    upgrade_release(season, fleet)


# ---------------------------------------------------------------- the end of the season


def wait_for(what: str, ready: Callable[[], bool], wait_s: float) -> None:
    until = time.monotonic() + wait_s
    while not ready():
        assert time.monotonic() < until, f"{what}: not within {wait_s:.0f} s"
        time.sleep(1.0)


def deadline(season: Season, contest: str, person: Contestant | None) -> None:
    """The deadline set to now: a later upload is refused (403)."""
    url, token = season.urls[contest], organiser(season, contest)
    request(url, "POST", "/api/admin/deadline", token=token, body={"at": time.time() - 1})
    if person is not None:
        try:
            request(url, "POST", "/api/bots", token=person.token, upload=("late.py", b"x = 1\n"))
            season.checks["upload after the deadline"] = "taken"
        except Refused as exc:
            season.checks["upload after the deadline"] = exc.args[0]


def finals(season: Season, contest: str, top: int) -> list[str]:
    """The finals of the top `top` bots (of each role in a role game), played by the
    workers: their winner (each role's, in seat order)."""
    url, token = season.urls[contest], organiser(season, contest)
    body = {"top": top, "schedule": "round-robin", "games_per_pair": 2}
    made = json.loads(request(url, "POST", "/api/admin/finals", token=token, body=body))
    say(season, f"finals {made['tournament']}: {made['bots']}, {made['games']} games")

    def played() -> bool:
        stages = get(url, "/api/stages")
        return any(s["tournament"] == made["tournament"] and s["played"] == s["games"]
                   for s in stages)  # fmt: skip

    wait_for("the finals", played, 300.0)
    standings = get(url, f"/api/stages/{made['tournament']}")["standings"]
    return [str(row["bot"]) for row in standings if row["rank"] == 1]


def export(season: Season, contest: str) -> list[str]:
    """The contest's export: the names of the files in its archive."""
    raw = request(
        season.urls[contest], "GET", "/api/admin/export", token=organiser(season, contest)
    )
    path = season.folder / f"{contest}-export.tar.gz"
    path.write_bytes(raw)
    with tarfile.open(path) as archive:
        return archive.getnames()


def store_rows(db: str, query: str) -> list[Any]:
    import sqlalchemy as sa

    engine = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            return list(conn.exec_driver_sql(query))
    finally:
        engine.dispose()


def store_counters(db: str) -> tuple[int, int, int]:
    """(transactions, rows fetched, games done) of the season's database so far."""
    name = db.rsplit("/", 1)[1]
    (xacts, fetched), = store_rows(
        db,
        "select xact_commit + xact_rollback, tup_fetched from pg_stat_database"
        f" where datname = '{name}'",
    )  # fmt: skip
    (done,) = store_rows(db, "select count(*) from games where status = 'done'")[0]
    return int(xacts), int(fetched), int(done)


def game_times(db: str) -> tuple[list[float], list[float]]:
    """Claim-to-finish seconds of the played games that seated an upload: those of a
    version's first game on its worker (the worker built it) and the later ones."""
    rows = store_rows(
        db,
        "select claimed_by, seats, finished_at - claimed_at from games"
        " where status = 'done' and claimed_at is not null order by finished_at",
    )
    uploads = {label for (label,) in store_rows(db, "select label from arena_uploads")}
    seen: set[tuple[str, str]] = set()
    first, later = [], []
    for worker, seats, seconds in rows:
        labels = json.loads(seats) if isinstance(seats, str) else seats
        new = {(worker, label) for label in labels if label in uploads} - seen
        if not any(label in uploads for label in labels):
            continue
        (first if new else later).append(float(seconds))
        seen |= new
    return first, later


def orphans(groups: list[int]) -> list[str]:
    """Processes still running in the process groups `groups` (of the workers killed -9:
    their pool and games must end with them)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                state, _parent, group = stat[stat.rfind(")") + 2 :].split()[:3]
                if int(group) in groups and state != "Z":
                    found.append(f"{entry}: {stat[: stat.rfind(')') + 1]}")
    return found


def leftovers(markers: tuple[str, ...]) -> list[str]:
    """Processes still running whose command line names one of `markers`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            with contextlib.suppress(OSError):
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
                if any(marker.encode() in command for marker in markers):
                    words = command.replace(b"\0", b" ")[:200]
                    found.append(f"{entry}: {words!r}")
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


# ---------------------------------------------------------------- the season


Readers = Callable[[str, list[tuple[str, str]], str], Callable[[], list[float]]]
"""Started once the contestants signed up: (the first contest's address, its (user, token)
owners, a bot's name) -> a function that stops the readers and gives their times (ms)."""


def play_season(
    season: Season, plan: Plan, fleet: Fleet, server: pgserver.Server, readers: Readers | None
) -> None:
    """From the first sign-up to the export, faults dealt meanwhile."""
    people = roster(season, plan)
    season.contestants = people
    with ThreadPoolExecutor(max_workers=8) as pool:
        for person in people:
            sign_up(season, person)
        first = next(iter(season.urls))
        owners = [(p.user, p.token) for p in people if p.contest == first]
        stop_readers = readers(season.urls[first], owners, owners[0][0]) if readers else None
        started = time.monotonic()
        counters = store_counters(season.db)
        running = [pool.submit(contestant_uploads, season, p) for p in people]
        faults(season, fleet, server)
        for future in running:
            future.result()
    time.sleep(max(0.0, plan.ladder_s - (time.monotonic() - started)))
    measure_ladder(season, counters, started, len(fleet.live_workers()))
    for contest in season.urls:
        deadline(season, contest, next((p for p in people if p.contest == contest), None))
    for contest in season.urls:
        season.checks[f"{contest} finals winners"] = finals(season, contest, plan.finals_top)
    if stop_readers is not None:
        times = stop_readers()
        season.figures["web p95 (ms)"] = percentile(times, 0.95)
        season.figures["web requests"] = len(times)
    season.checks["export"] = export(season, first)
    outside = [p for p in people if p.entries[0].filename == OUTSIDE_NAME]
    if outside:
        season.checks["outside program"] = outside_games(season, outside[0])


def outside_games(season: Season, person: Contestant) -> str:
    """The outside program's upload and the games it played (its test game, the ladder's
    and the finals'; its first version's label is its name, a later one's NAME@vN)."""
    played = store_rows(
        season.db,
        "select count(*) from games where status = 'done' and"
        f" (strpos(cast(seats as text), '\"{person.user}\"') > 0"
        f" or strpos(cast(seats as text), '\"{person.user}@v') > 0)",
    )[0][0]
    return f"{person.user}: {', '.join(person.statuses)}, {played} games played"


def measure_ladder(
    season: Season, counters: tuple[int, int, int], started: float, workers: int
) -> None:
    xacts, fetched, done = (b - a for a, b in zip(counters, store_counters(season.db), strict=True))
    minutes = (time.monotonic() - started) / 60
    season.figures["games played"] = done
    season.figures["games per minute per worker"] = done / minutes / workers
    season.figures["store transactions per game (every client)"] = xacts / max(done, 1)
    season.figures["store rows fetched per game (every client)"] = fetched / max(done, 1)
    times = [t for p in season.contestants for t in p.times]
    season.figures["upload to active p50 (s)"] = percentile(times, 0.5)
    season.figures["upload to active p95 (s)"] = percentile(times, 0.95)


def final_checks(season: Season) -> None:
    """After every process stopped: the store's own state."""
    statuses = store_rows(season.db, "select status, count(*) from games group by status")
    season.checks["games by status"] = {status: count for status, count in statuses}
    uploads = store_rows(season.db, "select status, count(*) from arena_uploads group by status")
    season.checks["uploads by status"] = {status: count for status, count in uploads}
    done = botarena("store", "check", "--db", season.db, cwd=season.folder, check=False,
                    env=season.release_env)  # fmt: skip
    season.checks["store check"] = (done.returncode, (done.stdout + done.stderr).strip())
    first, later = game_times(season.db)
    for share, name in ((0.5, "p50"), (0.95, "p95")):
        season.figures[f"first game of a version on a worker {name} (s)"] = percentile(first, share)
        season.figures[f"later games {name} (s)"] = percentile(later, share)


def rehearse(plan: Plan, readers: Readers | None = None) -> Season:
    """Run the whole season and stop every process it started, even on a failure (then
    each process's log's end is printed); what it measured and found."""
    folder = Path(tempfile.mkdtemp(prefix="botarena-season-"))
    os.chmod(folder, 0o755)
    season = Season(folder)
    server = pgserver.Server()
    fleet: Fleet | None = None
    try:
        server.start()
        season.db = fresh_database(server.url, "season")
        fleet = Fleet(folder, season.db)
        for contest, _game, web in make_contests(season, plan.contests):
            season.urls[contest] = fleet.serve(contest, web)
        for _ in range(3):
            fleet.worker()
        play_season(season, plan, fleet, server, readers)
        season.checks["left by the workers killed"] = orphans(fleet.killed)
        season.checks["workers that stopped by themselves"] = [
            w.returncode
            for w in fleet.workers
            if w.poll() is not None and w.pid not in fleet.killed + fleet.retired
        ]
        fleet.stop()
        final_checks(season)
    except BaseException:
        show_logs(folder)
        raise
    finally:
        if fleet is not None:
            fleet.stop(grace_s=10.0)
        server.remove()
        season.checks["left running"] = leftovers((str(folder), f":{server.port}/"))
        shutil.rmtree(folder, ignore_errors=True)
    return season


def show_logs(folder: Path) -> None:
    for log in sorted(folder.glob("*.log")):
        lines = log.read_text(errors="replace").splitlines()[-15:]
        print(f"--- {log.name}", *lines, sep="\n", file=sys.stderr)
