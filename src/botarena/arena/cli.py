"""`botarena arena new|serve|prune|passwd`: make a contest (a ladder and its site), serve it
with workers, drop old replays, reset a password.

Importing this module stays light: the store, the rules and the web server are imported
inside the commands.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.cliparts import DEFAULT_DB, MAX_WORKERS, DbOption, fail, within

ORGANISER = "admin"
MAX_WEB_WORKERS = 64
"""Web processes one `arena serve` runs at most (a machine's cores are the useful bound)."""
SITE_SETTINGS = {
    "max_source_bytes": 1_474_560,
    "uploads_per_hour": 10,
    "max_bots_per_user": 1,
    "challenges_per_hour": 20,
    "keep_replays": 50,
    "compare_games": 400,
}
"""The site's own `-o` keys and their defaults (CodeCup's source limit, one bot a
contestant as CodeCup had, the replays of each version's last 50 ladder games:
tournament/retention.py, the compare games a new version plays at most against the one
it replaced: arena/comparisons.py); `deadline` and the compare games' SPRT
(`compare_sprt`, `compare_alpha`, `compare_beta`) too."""

app = typer.Typer(
    help="Contest sites: contestants sign up, upload bots, watch the ladder.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _settings(pairs: list[str]) -> tuple[dict[str, Any], dict[str, str], float | None]:
    """`-o` pairs split into the site's settings, the game's options and the deadline."""
    from botarena.cliparts import parse_options

    given = parse_options(pairs)
    settings: dict[str, Any] = dict(SITE_SETTINGS)
    for key in SITE_SETTINGS:
        if key in given:
            text = given.pop(key)
            if not text.isdigit() or int(text) < 1:
                fail(f"-o {key}={text}: a whole number, at least 1")
            settings[key] = int(text)
    settings.update(_compare_test(given))
    deadline = None
    if "deadline" in given:
        from botarena.tournament.stages import deadline_at

        text = given.pop("deadline")
        try:
            deadline = deadline_at(text)
        except ValueError as exc:
            fail(f"-o deadline={text}: {exc}")
    return settings, given, deadline


def _compare_test(given: dict[str, str]) -> dict[str, Any]:
    """The compare games' SPRT settings taken out of `given`, checked as `botarena compare`
    checks its own `--sprt`, `--alpha` and `--beta` (absent: compare's defaults)."""
    from botarena.compare import parse_sprt

    found: dict[str, Any] = {}
    if "compare_sprt" in given:
        text = given.pop("compare_sprt")
        try:
            found["compare_sprt"] = list(parse_sprt(text))
        except ValueError as exc:
            fail(f"-o compare_sprt={text}: {exc}")
    for key in ("compare_alpha", "compare_beta"):
        if key in given:
            text = given.pop(key)
            try:
                rate = float(text)
            except ValueError:
                rate = -1.0
            if not 0 < rate < 0.5:
                fail(f"-o {key}={text}: a rate above 0 and below 0.5")
            found[key] = rate
    return found


def _password(path: Path | None) -> tuple[str, bool]:
    """The organiser's password: the file's first line, or a new random one (to print)."""
    if path is None:
        return secrets.token_urlsafe(12), True
    try:
        text = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"--admin-password-file {path}: cannot read it ({exc})")
    password = text[0].strip() if text else ""
    if len(password) < 8:
        fail(f"--admin-password-file {path}: the first line must hold at least 8 characters")
    return password, False


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the contest (and its ladder)")],
    game: Annotated[str, typer.Option("--game", help="the game played")],
    db: DbOption = DEFAULT_DB,
    sample_bot: Annotated[
        list[str] | None,
        typer.Option(
            "--sample-bot",
            help="[ROLE:]SPEC: the bot every upload's test game is played against (default"
            " builtin:GAME/random); it plays on the ladder as `sample`. A role game has one"
            " for each role (default: its first built-in bot of that role), on the ladder as"
            " `sample-ROLE`",
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "-o",
            "--option",
            help="KEY=VALUE: a game option, or the site's max_source_bytes,"
            " uploads_per_hour, max_bots_per_user, challenges_per_hour, keep_replays, deadline,"
            " compare_games, compare_sprt (ELO0,ELO1), compare_alpha, compare_beta",
        ),
    ] = None,
    admin_password_file: Annotated[
        Path | None,
        typer.Option(help="the organiser's password: this file's first line (else one is made)"),
    ] = None,
    max_bots_per_user: Annotated[
        int | None,
        typer.Option(
            help="bots a contestant may have (default 1, as CodeCup had; the same as"
            " -o max_bots_per_user=N)",
            callback=within(1, 1_000_000),
        ),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="seats per ladder game: N or MIN-MAX within the game's range (default its"
            " fewest), as `tournament new --schedule ladder --seats` takes them"
        ),
    ] = None,
) -> None:
    """A new contest: a ladder for GAME, its sample bot, and the organiser's account
    (user `admin`; its password is printed once unless given in a file)."""
    from botarena.arena import store as arena
    from botarena.arena.auth import hash_password
    from botarena.tournament.cli.common import build_dir, name_problem, open_store
    from botarena.tournament.cli.create import seats_option
    from botarena.tournament.manage import BotRequest, Settings, TournamentError, create
    from botarena.tournament.store import sqlite_folder, tournaments

    problem = name_problem(name)
    if problem:
        fail(f"contest name {name!r}: {problem}")
    settings, options, deadline = _settings(option or [])
    if max_bots_per_user is not None:
        settings["max_bots_per_user"] = max_bots_per_user
    password, made = _password(admin_password_file)
    seat_count, seats_range = seats_option(seats)
    rules = _rules(game)
    samples = _samples(rules, sample_bot or [])
    if rules.info.turn_model == "roles":
        settings["roles"] = [role for role, _ in samples]
        settings["sample_bots"] = dict(samples)
    settings["sample_bot"] = samples[0][1]
    replays = (sqlite_folder(db) or Path.cwd()) / "replays"
    with open_store(db, create=True) as store:
        if arena.contest(store, name) is not None or store.tournament(name) is not None:
            fail(f"a contest or tournament {name!r} already exists in this --db")
        try:
            ladder, _ = create(
                store,
                name,
                rules,
                [BotRequest(arena.sample_name(role), spec, role) for role, spec in samples],
                Settings(
                    schedule="ladder",
                    options=options,
                    replay_dir=replays,
                    seats=seat_count,
                    seats_range=seats_range,
                ),
                build_dir(db),
                lambda block: fail(block.splitlines()[0]),
            )
        except TournamentError as exc:
            fail(str(exc))
        with store.transaction() as conn:
            plan = {**ladder.plan, "keep_replays": settings["keep_replays"]}
            if deadline is not None:
                plan["deadline"] = deadline
            conn.execute(
                tournaments.update().where(tournaments.c.id == ladder.id).values(plan=plan)
            )
            arena.add_contest(conn, store, ladder, settings)
        found = arena.contest(store, name)
        assert found is not None
        with store.transaction() as conn:
            arena.add_user(conn, found, ORGANISER, hash_password(password), organiser=True)
    print(f"contest {name}: {game} ladder, " + _said(samples))
    if made:
        print(f"organiser: user {ORGANISER}, password {password}  (shown once: keep it)")
    else:
        print(f"organiser: user {ORGANISER}, password from {admin_password_file}")
    more = "" if db == DEFAULT_DB else f" --db {db}"
    print(f"serve it: botarena arena serve {name}{more}")


@app.command()
def prune(
    name: Annotated[str, typer.Argument(help="the contest")],
    db: DbOption = DEFAULT_DB,
    keep: Annotated[
        int | None,
        typer.Option(
            help="replays each version keeps of its last ladder games (default: the"
            " contest's keep_replays); results are always kept",
            callback=within(0, 10**9),
        ),
    ] = None,
) -> None:
    """Drop the replays of the ladder games that are not among each version's last
    `keep` (the workers do it as they go); the finals, tests and challenges keep theirs."""
    from botarena.arena import store as arena
    from botarena.tournament.cli import open_store
    from botarena.tournament.retention import keep_of
    from botarena.tournament.retention import prune as drop_replays

    with open_store(db) as store:
        found = arena.contest(store, name)
        if found is None:
            known = ", ".join(c.name for c in arena.contests_of(store)) or "none"
            fail(f"no contest {name!r} in this --db (known: {known})")
        ladder = store.tournament(name)
        assert ladder is not None
        keeping = keep if keep is not None else keep_of(ladder)
        if keeping is None:
            fail(f"{name} keeps every replay: give --keep N")
        done = drop_replays(store, ladder, keeping)
    print(
        f"{name}: {done.replays_dropped} replays dropped ({done.bytes_freed / 1e6:.1f} MB),"
        f" {done.replays_kept} kept (each version's last {keeping} ladder games)"
    )


@app.command()
def passwd(
    user: Annotated[str, typer.Argument(help="the user (the organiser is `admin`)")],
    contest: Annotated[str, typer.Option(help="the contest")],
    db: DbOption = DEFAULT_DB,
    password_file: Annotated[
        Path | None,
        typer.Option(help="the new password: this file's first line (else one is made)"),
    ] = None,
) -> None:
    """Reset a user's password (the organiser's too): every token and session of theirs is
    revoked; a new password is printed once unless given in a file."""
    from botarena.arena import store as arena
    from botarena.arena.auth import hash_password
    from botarena.tournament.cli import open_store

    password, made = _password(password_file)
    with open_store(db) as store:
        found = arena.contest(store, contest)
        if found is None:
            known = ", ".join(c.name for c in arena.contests_of(store)) or "none"
            fail(f"no contest {contest!r} in this --db (known: {known})")
        row = arena.user_row(store, found, user)
        if row is None:
            fail(f"no user {user!r} in contest {contest!r}")
        arena.set_password_hash(store, row.id, hash_password(password))
        revoked = arena.revoke_all(store, arena.User(row.id, row.name, row.organiser))
    print(f"{row.name}: password reset; {revoked} token(s) and session(s) revoked")
    if made:
        print(f"the new password (shown once): {password}")


def _rules(game: str) -> Any:
    from botarena.core.registry import get_game

    try:
        return get_game(game)
    except KeyError as exc:
        fail(exc.args[0])


def _samples(rules: Any, given: list[str]) -> list[tuple[str | None, str]]:
    """(role, spec) of the contest's sample bots: one, role None, in a game without roles;
    one for each role, in seat order, in a role game (a `--sample-bot ROLE:SPEC` each, else
    the game's first built-in bot that plays that role)."""
    from botarena.tournament.manage import (
        BotRequest,
        TournamentError,
        check_bot,
        parse_bot_option,
    )

    if rules.info.turn_model != "roles":
        if len(given) > 1:
            fail(f"{rules.name} has no roles: give one --sample-bot")
        return [(None, given[0] if given else _default_sample(rules))]
    roles = [seat.lower() for seat in rules.info.seat_names]
    chosen: dict[str, str] = {}
    try:
        for text in given:
            request = parse_bot_option(rules, text)
            checked = check_bot(rules, request, Path.cwd(), fail)
            assert checked is not None and checked[2] is not None  # no source: nothing built
            chosen[checked[2]] = request.spec or ""
        for name in sorted(rules.bots):
            checked = check_bot(
                rules, BotRequest(None, f"builtin:{rules.name}/{name}"), Path.cwd(), fail
            )
            if checked is not None and checked[2] is not None:
                chosen.setdefault(checked[2], checked[1])
    except TournamentError as exc:
        fail(f"--sample-bot: {exc}")
    missing = [role.replace(" ", "-") for role in roles if role not in chosen]
    if missing:
        fail(f"no sample bot plays the {' and the '.join(missing)}: give --sample-bot ROLE:SPEC")
    return [(role, chosen[role]) for role in roles]


def _said(samples: list[tuple[str | None, str]]) -> str:
    if samples[0][0] is None:
        return f"sample bot {samples[0][1]}"
    return "sample bots " + ", ".join(f"{role}: {spec}" for role, spec in samples)


def _default_sample(rules: Any) -> str:
    """The game's `random` built-in bot, else its first."""
    names = sorted(rules.bots)
    if not names:
        fail(f"{rules.name} has no built-in bot: give --sample-bot SPEC")
    return f"builtin:{rules.name}/{'random' if 'random' in names else names[0]}"


@app.command()
def serve(
    name: Annotated[str, typer.Argument(help="the contest")],
    host: Annotated[str, typer.Option(help="address to serve on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to serve on")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            help="games and builds at once on this machine (0: none here; add"
            " `botarena tournament work` anywhere)"
        ),
    ] = 1,
    web_workers: Annotated[
        int,
        typer.Option(
            help="web processes answering on the port, all over the one store (the site's"
            " state lives there); the ladder's workers still run once",
            callback=within(1, MAX_WEB_WORKERS),
        ),
    ] = 1,
    db: DbOption = DEFAULT_DB,
    insecure_no_sandbox: Annotated[
        bool,
        typer.Option(
            "--insecure-no-sandbox",
            help="serve although uploaded code cannot be confined here (a private,"
            " trusted setup only; every page says so)",
        ),
    ] = False,
) -> None:
    """The contest site (sign up, upload, my bots, the ladder, games in the viewer, admin)
    and its JSON API, with N local workers building uploads and playing the ladder."""
    from botarena.arena import store as arena
    from botarena.arena.api import arena_app
    from botarena.core.sandbox import confinement_missing
    from botarena.tournament.cli import open_store
    from botarena.tournament.store import sqlite_path
    from botarena.web.cli import _server, check_port

    check_port(port)
    path = sqlite_path(db)
    if path is not None and not path.exists():
        fail(f"--db {db}: no such database file (arena new makes one)")
    if not 0 <= workers <= MAX_WORKERS:
        fail(f"--workers must be between 0 and {MAX_WORKERS}")
    if not insecure_no_sandbox:
        missing = confinement_missing()
        if missing:
            fail(
                "arena serve: the sandbox cannot confine uploaded code here (missing: "
                + "; ".join(missing)
                + "); see `botarena doctor`, or give --insecure-no-sandbox for a private,"
                " trusted setup"
            )
    with open_store(db) as store:
        if arena.contest(store, name) is None:
            known = ", ".join(c.name for c in arena.contests_of(store)) or "none"
            fail(f"no contest {name!r} in this --db (known: {known}; arena new makes one)")
        if web_workers == 1:
            server = _server(arena_app(store, name, insecure_no_sandbox), host, port)
        else:
            server = _server(
                _site_in_processes(db, name, insecure_no_sandbox, web_workers),
                host,
                port,
                web_workers,
            )
        helpers = _workers(store, db, name, workers, insecure_no_sandbox)
        note = " WITHOUT A SANDBOX (--insecure-no-sandbox)" if insecure_no_sandbox else ""
        processes = f" in {web_workers} web processes" if web_workers > 1 else ""
        print(
            f"contest {name}: {server.url}{note}{processes} with {workers} local worker(s)"
            f" (Ctrl-C to stop)\nthe organiser's page: {server.url}admin (log in as {ORGANISER})",
            flush=True,
        )
        try:
            if helpers is not None:
                helpers.run_in_thread()
            with contextlib.suppress(KeyboardInterrupt):
                server.run()
        finally:
            if helpers is not None:
                helpers.stop()


def _site_in_processes(db: str, name: str, insecure: bool, processes: int) -> str:
    """The site's app as web processes import it (arena/asgi.py), told which contest and
    store by the environment they inherit, how many they are, and to stop with this one."""
    from botarena.arena import asgi

    os.environ[asgi.CONTEST] = name
    os.environ[asgi.DB] = db
    os.environ[asgi.SERVE_PID] = str(os.getpid())
    os.environ[asgi.PROCESSES] = str(processes)
    if insecure:
        os.environ[asgi.INSECURE] = "1"
    return "botarena.arena.asgi:app"


def _workers(store: Any, db: str, name: str, workers: int, insecure: bool) -> Any:
    """`tournament work` for this contest in a process of its own (the web process never
    builds or plays), `workers` games or builds at once, under a supervisor (core/
    supervisor.py): reaped when it ends, logged, started again after a back-off; the claims
    of one that died go back at once. None for --workers 0."""
    from botarena.core.sandbox import death_signal_setter
    from botarena.core.supervisor import Supervisor

    if workers == 0:
        return None
    argv = [
        sys.executable,
        "-m",
        "botarena",
        "tournament",
        "work",
        "--db",
        db,
        "--tournament",
        name,
        "--workers",
        str(workers),
    ]
    if insecure:
        argv.append("--no-sandbox")

    # the worker stops as by Ctrl-C when `serve` dies, even by kill -9 (it is started by
    # threads that live as long as `serve`: the main one, then the supervisor's)
    stopped_with_serve = death_signal_setter(signum=signal.SIGTERM)

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, env={**os.environ}, preexec_fn=stopped_with_serve
        )

    def given_back(_pid: int, _code: int) -> None:
        store.release_stale()  # reaped: its pid reads dead now, its claims go back

    return Supervisor("worker", start, on_exit=given_back)
