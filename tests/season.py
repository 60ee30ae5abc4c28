"""A contest season rehearsed end to end (issue #36), shared by bench/bench_season.py and
tests/test_season.py: real processes that share nothing but the store's URL.

PostgreSQL is started for it; each contest of `CONTESTS` is made with `botarena arena new`
and served by `arena serve --workers 0` (the first in two web processes); three `botarena
tournament work` processes, each in its own folder (its own build cache), play for all of
them, as three machines would. Scripted contestants sign up, upload, update and read over
the JSON API, each from its own loopback address, while the faults are dealt: kill -9 of a
worker mid-build and of one mid-game (a fresh worker in a fresh folder replaces each), of a
web process, a PostgreSQL restart, `botarena store upgrade`. Then a deadline, the finals, the
export; the checks; every process stopped.
"""

from __future__ import annotations

import contextlib
import http.client
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pgserver

BOTS = Path(__file__).parent / "data" / "bots"
ADMIN_PASSWORD = "organiser-pw-1"
PASSWORD = "contestant-pw-1"
FINAL = ("active", "retired", "build-failed", "test-failed")
"""The statuses an upload ends in (`retired`: active, then replaced by a later version)."""

CONTESTS = (
    ("cup", "amazes", 2, ("-o", "budget_ms=3000")),
    ("colony", "ants", 1, ("--seats", "2-4", "-o", "turns=60", "-o", "turntime=200")),
    ("maze", "labyrinth", 1, ()),
)
"""(contest, game, web processes, more `arena new` arguments): a game `arena new` refuses
is left out with a printed line (ladders of role games are being added)."""

TOOLCHAINS = {"c": "gcc", "cpp": "g++", "java": "javac", "go": "go", "rust": "rustc"}
HANG = "import time\ntime.sleep(3600)\n"
CRASH = "import sys\nsys.stderr.write('bye\\n')\nraise SystemExit(3)\n"
UPLOAD_WAIT_S = 900
"""Longest a contestant follows an upload (the workers all gone: the rehearsal fails)."""
STRONGEST = {"amazes": "explorer", "ants": "greedy"}
"""The built-in bot whose logic the strongest contestant uploads (in Python, by runpy)."""


@dataclass(frozen=True)
class Entry:
    """One upload a contestant sends: its file name, its source and the status expected."""

    filename: str
    source: str
    expect: str


@dataclass
class Contestant:
    user: str
    contest: str
    address: str
    entries: list[Entry]
    token: str = ""
    times: list[float] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    replays: int = 0
    missing: list[str] = field(default_factory=list)


@dataclass
class Plan:
    """The season's size: contestants (over the contests), seconds of ladder after the
    uploads, the languages uploaded."""

    contestants: int = 8
    ladder_s: float = 30.0
    languages: tuple[str, ...] = ("python", "c", "cpp", "java", "go", "rust")
    finals_top: int = 4


@dataclass
class Season:
    """What the rehearsal ran and measured."""

    folder: Path
    db: str = ""
    urls: dict[str, str] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    contestants: list[Contestant] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)
    admin: dict[str, str] = field(default_factory=dict)


def say(season: Season, line: str) -> None:
    """A line of the rehearsal's log: printed (stderr) and kept for the report."""
    season.notes.append(line)
    print(f"season: {line}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the HTTP client


class Refused(Exception):
    """The site answered 4xx: (status, reason)."""


def request(
    url: str,
    method: str,
    path: str,
    *,
    token: str = "",
    body: Any = None,
    upload: tuple[str, bytes] | None = None,
    address: str = "127.0.0.1",
    tries: int = 60,
) -> bytes:
    """One request to the site from `address`, retried (1 s apart) while the site cannot
    answer: a web process killed, the store restarting (connection errors, 5xx)."""
    from botarena.arena.remote import _multipart

    host, port = url.split("//")[1].rstrip("/").split(":")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    if upload is not None:
        data, headers["Content-Type"] = _multipart(upload[0], upload[1], None)
    problem = ""
    for _ in range(tries):
        connection = http.client.HTTPConnection(host, int(port), 30, (address, 0))
        try:
            connection.request(method, path, data, headers)
            answer = connection.getresponse()
            raw = answer.read()
            if answer.status < 400:
                return raw
            if answer.status < 500 and answer.status != 429:
                raise Refused(answer.status, raw.decode("utf-8", "replace"))
            problem = f"{answer.status} {raw[:200]!r}"
        except (OSError, http.client.HTTPException) as exc:
            problem = repr(exc)
        finally:
            connection.close()
        time.sleep(1.0)
    raise AssertionError(f"{method} {path}: the site did not answer in {tries} tries: {problem}")


def get(url: str, path: str, token: str = "", address: str = "127.0.0.1") -> Any:
    return json.loads(request(url, "GET", path, token=token, address=address))


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
                start_new_session=True,
            )  # fmt: skip
        self.workers.append(process)
        self.started.append(process)
        return process

    def serve(self, contest: str, web_processes: int) -> str:
        """`arena serve CONTEST --workers 0 --web-workers N`: its address."""
        with self._log(f"serve-{contest}") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "botarena", "arena", "serve", contest, "--db", self.db,
                 "--port", "0", "--workers", "0", "--web-workers", str(web_processes)],
                cwd=self.folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                text=True, start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        self.serves[contest] = process
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


def make_contests(season: Season) -> list[tuple[str, str, int]]:
    """`arena new` for each of `CONTESTS`: (contest, game, web processes) of those made."""
    secret = season.folder / "admin.pw"
    secret.write_text(ADMIN_PASSWORD + "\n")
    made = []
    for contest, game, web, more in CONTESTS:
        args = ["arena", "new", contest, "--game", game, "--db", season.db, *more]
        done = botarena(*args, "--admin-password-file", str(secret), cwd=season.folder, check=False)
        if done.returncode != 0:
            say(season, f"{game} left out: arena new refused it: {done.stderr.strip()}")
            continue
        made.append((contest, game, web))
        season.games[contest] = game
    return made


# ---------------------------------------------------------------- contestants


def available(season: Season, languages: tuple[str, ...]) -> tuple[str, ...]:
    """The languages whose toolchain is installed here (each missing one said once)."""
    kept = []
    for language in languages:
        tool = TOOLCHAINS.get(language)
        if tool is not None and shutil.which(tool) is None:
            say(season, f"{language} left out: its toolchain ({tool}) is missing")
            continue
        kept.append(language)
    return tuple(kept)


def entries_for(game: str, index: int, languages: tuple[str, ...]) -> list[Entry]:
    """The uploads of a game's `index`-th contestant: the strongest first, then the starters
    and the walkers in each language, the faulty ones, in turn; every third one updates."""
    from botarena.core.starters import file_name, shipped, source

    if index == 0:
        module = f"botarena.games.{game}.bots.{STRONGEST[game]}"
        code = f"import runpy\nrunpy.run_module({module!r}, run_name='__main__')\n"
        return [Entry("strong.py", code, "active")]
    kinds: list[Entry] = []
    for language in languages:
        if language in shipped(game).get("bot", ()):
            kinds.append(Entry(file_name("bot", language), source(game, "bot", language), "active"))
    if game == "amazes":
        walkers = {"c": "walker.c", "go": "walker.go", "rust": "walker.rs"}
        for language, name in walkers.items():
            if language in languages:
                kinds.append(Entry(name, (BOTS / name).read_text(), "active"))
        if "c" in languages:
            kinds.append(Entry("broken.c", (BOTS / "broken.c").read_text(), "build-failed"))
        kinds += [Entry("crash.py", CRASH, "test-failed"), Entry("hang.py", HANG, "test-failed")]
    first = kinds[(index - 1) % len(kinds)]
    first = Entry(first.filename, mark(first, f"{game} contestant {index}"), first.expect)
    if index % 3 != 2 or first.expect != "active":
        return [first]
    return [first, Entry(first.filename, mark(first, "version 2"), "active")]


def mark(entry: Entry, words: str) -> str:
    """The entry's source with a comment added (a new version's source differs)."""
    opener = "#" if entry.filename.endswith(".py") else "//"
    return f"{entry.source}\n{opener} {words}\n"


def roster(season: Season, plan: Plan) -> list[Contestant]:
    """`plan.contestants` contestants spread over the contests, the larger share on the
    first; each from its own loopback address (the sign-up limit is per address)."""
    contests = list(season.urls)
    languages = available(season, plan.languages)
    counts = {contest: 0 for contest in contests}
    people = []
    for index in range(plan.contestants):
        contest = contests[0] if index % 4 != 3 or len(contests) == 1 else contests[1]
        number = counts[contest]
        counts[contest] += 1
        game = season.games[contest]
        people.append(
            Contestant(
                user=f"{contest}{number}",
                contest=contest,
                address=f"127.0.{1 + index // 200}.{2 + index % 200}",
                entries=entries_for(game, number, languages),
            )
        )
    return people


def sign_up(season: Season, person: Contestant) -> None:
    url = season.urls[person.contest]
    body = {"user": person.user, "password": PASSWORD}
    try:
        answer = json.loads(
            request(url, "POST", "/api/register", body=body, address=person.address)
        )
    except Refused:  # a retried sign-up that had gone through
        answer = json.loads(request(url, "POST", "/api/login", body=body, address=person.address))
    person.token = answer["token"]


def send(season: Season, person: Contestant, entry: Entry) -> tuple[str, float]:
    """Upload `entry`, then follow the bot until its version ends: (status, seconds)."""
    url = season.urls[person.contest]
    started = time.monotonic()
    try:
        taken = json.loads(
            request(url, "POST", "/api/bots", token=person.token,
                    upload=(entry.filename, entry.source.encode()), address=person.address)
        )  # fmt: skip
        version = taken["version"]
    except Refused as exc:  # a retried upload that had gone through: the same source
        assert exc.args[0] == 409, exc.args
        version = get(url, f"/api/bots/{person.user}", person.token)["version"]
    while time.monotonic() < started + UPLOAD_WAIT_S:
        bot = get(url, f"/api/bots/{person.user}", person.token, person.address)
        status = next(v["status"] for v in bot["versions"] if v["version"] == version)
        if status in FINAL:
            return status, time.monotonic() - started
        time.sleep(0.5)
    raise AssertionError(f"{person.user} v{version}: still {status} after {UPLOAD_WAIT_S} s")


def read_back(season: Season, person: Contestant) -> None:
    """What a contestant reads: their bots, their games, a replay of each kind of game."""
    url = season.urls[person.contest]
    get(url, "/api/me", person.token, person.address)
    games = get(url, f"/api/bots/{person.user}/games?limit=20", person.token, person.address)
    played = [g for g in games["games"] if g["result"] != "void"]  # void unplayed: no replay
    for kind, game in {g["kind"]: g["id"] for g in played}.items():
        try:
            request(url, "GET", f"/api/games/{game}/replay", token=person.token)
            person.replays += 1
        except Refused as exc:
            seen = get(url, f"/api/games/{game}", person.token)
            person.missing.append(f"{kind} game {game} ({seen['status']}, {seen['reason']}):"
                                  f" {exc.args[1]}")  # fmt: skip


# ---------------------------------------------------------------- the organiser and faults


def organiser(season: Season, contest: str) -> str:
    if contest not in season.admin:
        body = {"user": "admin", "password": ADMIN_PASSWORD}
        answer = json.loads(request(season.urls[contest], "POST", "/api/login", body=body))
        season.admin[contest] = answer["token"]
    return season.admin[contest]


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


def upgrade_store(season: Season) -> None:
    """`botarena store upgrade` while the site and the workers run. A throwaway revision
    cannot be added: the migrations take no folder beside their own and every process
    refuses a store of a revision it does not know, so this runs the upgrade at the head."""
    done = botarena("store", "upgrade", "--db", season.db, cwd=season.folder)
    say(season, f"store upgrade mid-season: {done.stdout.strip()}")
    copy = season.folder / "backup.dump"
    programs = f"{pgserver.bindir()}{os.pathsep}{os.environ.get('PATH', '')}"  # pg_dump
    done = botarena("store", "backup", str(copy), "--db", season.db, cwd=season.folder,
                    env={"PATH": programs})  # fmt: skip
    say(season, f"store backup mid-season: {done.stdout.strip()}")


def faults(season: Season, fleet: Fleet, server: pgserver.Server) -> None:
    """The faults, in turn, while the contestants upload."""
    kill_worker(season, fleet, "mid-build", lambda: building(season))
    kill_worker(season, fleet, "mid-game", lambda: playing(season))
    kill_web_process(season, fleet)
    restart_store(season, server)
    upgrade_store(season)


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


def finals(season: Season, contest: str, top: int) -> str:
    """The finals of the top `top` bots, played by the workers: their winner."""
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
    return str(next(row["bot"] for row in standings if row["rank"] == 1))


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
    season.checks["finals winner"] = finals(season, first, plan.finals_top)
    if stop_readers is not None:
        times = stop_readers()
        season.figures["web p95 (ms)"] = percentile(times, 0.95)
        season.figures["web requests"] = len(times)
    season.checks["export"] = export(season, first)


def contestant_uploads(season: Season, person: Contestant) -> None:
    """A signed-up contestant's uploads and reading (`contestant` without the sign-up)."""
    for entry in person.entries:
        status, seconds = send(season, person, entry)
        person.statuses.append(status)
        if status in ("active", "retired"):
            person.times.append(seconds)
    read_back(season, person)


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
    done = botarena("store", "check", "--db", season.db, cwd=season.folder, check=False)
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
        for contest, _game, web in make_contests(season):
            season.urls[contest] = fleet.serve(contest, web)
        for _ in range(3):
            fleet.worker()
        play_season(season, plan, fleet, server, readers)
        season.checks["left by the workers killed"] = orphans(fleet.killed)
        season.checks["workers that stopped by themselves"] = [
            w.returncode
            for w in fleet.workers
            if w.poll() is not None and w.pid not in fleet.killed
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
