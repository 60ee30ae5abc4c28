"""The season rehearsal's people over the JSON API (tests/season.py): the contestants'
scripts (sign up, upload, follow, read back), the organiser's log-in, and the client both
use, which waits out a site that cannot answer for a moment (a web process killed, the
store restarting)."""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BOTS = Path(__file__).parent / "data" / "bots"
ADMIN_PASSWORD = "organiser-pw-1"
PASSWORD = "contestant-pw-1"
FINAL = ("active", "retired", "build-failed", "test-failed")
"""The statuses an upload ends in (`retired`: active, then replaced by a later version)."""

TOOLCHAINS = {"c": "gcc", "cpp": "g++", "java": "javac", "go": "go", "rust": "rustc"}
HANG = "import time\ntime.sleep(3600)\n"
CRASH = "import sys\nsys.stderr.write('bye\\n')\nraise SystemExit(3)\n"
UPLOAD_WAIT_S = 900
"""Longest a contestant follows an upload (the workers all gone: the rehearsal fails)."""
STRONGEST = {"amazes": "explorer", "ants": "greedy", "labyrinth": "cartographer"}
"""The built-in bot whose logic the strongest contestant uploads (in Python, by runpy; the
Labyrinth's plays the adventurers)."""
ROLES = {"labyrinth": ("adventurers", "master")}
"""A role game's roles as its uploads name them and its starters are named (each role's
contestants take turns)."""


@dataclass(frozen=True)
class Entry:
    """One upload a contestant sends: its file name, its source and the status expected."""

    filename: str
    source: str
    expect: str
    role: str | None = None


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
    """The season's size: contestants (over the `contests`), seconds of ladder after the
    uploads, the languages uploaded; `outside`, a checkout of maksverver/Amazes (the 2009
    CodeCup Amazes player, docs/research), whose player one more contestant uploads."""

    contestants: int = 8
    ladder_s: float = 30.0
    languages: tuple[str, ...] = ("python", "c", "cpp", "java", "go", "rust")
    finals_top: int = 4
    outside: Path | None = None
    contests: tuple[str, ...] = ("cup", "colony", "maze")  # of season.CONTESTS


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
    release_env: dict[str, str] = field(default_factory=dict)  # the release now running


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
    role: str | None = None,
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
        data, headers["Content-Type"] = _multipart(upload[0], upload[1], {"role": role})
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

    roles = ROLES.get(game)
    if index == 0:
        module = f"botarena.games.{game}.bots.{STRONGEST[game]}"
        code = f"import runpy\nrunpy.run_module({module!r}, run_name='__main__')\n"
        return [Entry("strong.py", code, "active", roles[0] if roles else None)]
    stem = "bot" if roles is None else roles[index % len(roles)]
    role = None if roles is None else stem
    kinds: list[Entry] = []
    for language in languages:
        if language in shipped(game).get(stem, ()):
            code = source(game, stem, language)
            kinds.append(Entry(file_name(stem, language), code, "active", role))
    if game == "amazes":
        walkers = {"c": "walker.c", "go": "walker.go", "rust": "walker.rs"}
        for language, name in walkers.items():
            if language in languages:
                kinds.append(Entry(name, (BOTS / name).read_text(), "active"))
        if "c" in languages:
            kinds.append(Entry("broken.c", (BOTS / "broken.c").read_text(), "build-failed"))
        kinds += [Entry("crash.py", CRASH, "test-failed"), Entry("hang.py", HANG, "test-failed")]
    if roles is not None:
        kinds.append(Entry("crash.py", CRASH, "test-failed", role))
    first = kinds[(index - 1) % len(kinds)]
    first = Entry(first.filename, mark(first, f"{game} contestant {index}"), first.expect, role)
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
        contest = contests[[0, 0, 0, 1, 2][index % 5] % len(contests)]
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
    first = contests[0]
    outside = outside_player(season, plan.outside) if season.games[first] == "amazes" else None
    if outside is not None:
        people.append(Contestant(f"{first}{counts[first]}", first, "127.0.0.250", [outside]))
    return people


OUTSIDE_SOURCES = ("MazeMap.c", "MazeIO.c", "Analysis.c", "AI.c", "player.c")
OUTSIDE_NAME = "player.c"
"""The name the outside program is uploaded under."""
"""The 2009 player's sources, in the order its Makefile makes its one-file submission."""


def outside_player(season: Season, checkout: Path | None) -> Entry | None:
    """The 2009 CodeCup Amazes player as its author submitted it: its sources made into
    one C file by its own tools/compile.pl (perl), as its Makefile's `submission.c` does;
    None, said once, without a checkout or perl."""
    if checkout is None:
        say(season, "no outside program: set BOTARENA_AMAZES_2009 to a checkout of"
                    " maksverver/Amazes (the 2009 CodeCup Amazes player)")  # fmt: skip
        return None
    if shutil.which("perl") is None:
        say(season, "no outside program: its tools/compile.pl needs perl")
        return None
    made = subprocess.run(
        ["perl", str(checkout / "tools" / "compile.pl"), *OUTSIDE_SOURCES],
        cwd=checkout / "src", capture_output=True, text=True, check=True,
    )  # fmt: skip
    say(season, f"outside program: {checkout} (the 2009 player, {len(made.stdout)} bytes of C)")
    return Entry(OUTSIDE_NAME, made.stdout, "active")


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
                    upload=(entry.filename, entry.source.encode()), role=entry.role,
                    address=person.address)
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


def organiser(season: Season, contest: str) -> str:
    if contest not in season.admin:
        body = {"user": "admin", "password": ADMIN_PASSWORD}
        answer = json.loads(request(season.urls[contest], "POST", "/api/login", body=body))
        season.admin[contest] = answer["token"]
    return season.admin[contest]


def contestant_uploads(season: Season, person: Contestant) -> None:
    """A signed-up contestant's uploads and reading (`contestant` without the sign-up)."""
    for entry in person.entries:
        status, seconds = send(season, person, entry)
        person.statuses.append(status)
        if status in ("active", "retired"):
            person.times.append(seconds)
    read_back(season, person)
