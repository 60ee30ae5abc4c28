"""`botarena tournament ...`: new, run, add-bot, update-bot, standings, games, cross-table, list.

Importing this module stays light: the store (SQLAlchemy), the rules and the ranking are
imported inside the commands that use them.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from botarena.cliparts import (
    DEFAULT_DB,
    MAX_GAMES,
    MAX_PER_PAIR,
    MAX_PLACES,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_SEED,
    MAX_WORKERS,
    DbOption,
    within,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from botarena.tournament.store import Store, Tournament


def name_problem(name: str) -> str:
    """Why `name` cannot name a tournament ('' if it can): it names its replay folder and its
    page on the site, so no path trick (`.`, `..`, a slash) and nothing unprintable."""
    if name.strip() in ("", ".", ".."):
        return "not a name"
    if "/" in name or "\\" in name:
        return "a slash would put its replays in another folder"
    if not name.isprintable():
        return "holds a control character"
    if len(name.encode()) > 100:
        return "longer than 100 bytes"
    return ""


app = typer.Typer(
    help="Tournaments: schedules, a store that survives kill -9, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str) -> NoReturn:
    from botarena.cliparts import fail as cli_fail

    cli_fail(message)


def _console() -> Any:
    from botarena.core.console import literal_console

    return literal_console()


@contextmanager
def open_store(url: str, *, create: bool = False) -> Iterator[Store]:
    """The store at `url`. A SQLite file is made only when `create` (tournament new, demo),
    and removed again if the command that made it fails: a mistake leaves no file behind."""
    from botarena.tournament.store import Store, StoreError, sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.exists() and not create:
        fail(f"--db {url}: no such database file (tournament new makes one)")
    made = path is not None and not path.exists()
    try:
        store = Store.open(url)
    except StoreError as exc:
        fail(str(exc))
    try:
        yield store
    except typer.Exit as stop:
        if made and path is not None and stop.exit_code != 0:
            store.close()
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        raise
    finally:
        store.close()


def _tournament(store: Store, name: str) -> Tournament:
    tournament = store.tournament(name)
    if tournament is None:
        known = ", ".join(t.name for t in store.tournaments()) or "none"
        fail(f"no tournament {name!r} in this --db (known: {known})")
    return tournament


def _rules(game: str) -> Any:
    from botarena.core.registry import get_game

    try:
        return get_game(game)
    except KeyError as exc:
        fail(exc.args[0])


def _build_dir(url: str) -> Path:
    """Built bots are cached next to a SQLite database, else in the current folder."""
    from botarena.tournament.store import sqlite_folder

    return (sqlite_folder(url) or Path.cwd()) / ".botarena-build"


def _print_build_error(block: str) -> None:
    print(block, file=sys.stderr)


def _seats(text: str | None) -> tuple[int | None, tuple[int, int] | None]:
    """--seats N or MIN-MAX, each a whole number of at most MAX_SEATS."""
    from botarena.core.bounds import whole_number
    from botarena.core.rules import GameError

    if text is None:
        return None, None
    low, dash, high = text.partition("-")
    try:
        if dash:
            return None, (
                whole_number(low, "--seats", 1, MAX_SEATS),
                whole_number(high, "--seats", 1, MAX_SEATS),
            )
        return whole_number(text, "--seats", 1, MAX_SEATS), None
    except GameError as exc:
        return fail(f"{exc} (a number N or a range MIN-MAX)")


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the tournament's name")],
    game: Annotated[str, typer.Option(help="the game (botarena games lists them)")],
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", help="a bot: [NAME=]SPEC as in `play`; in role games ROLE:[NAME=]SPEC"
        ),
    ] = None,
    bots_file: Annotated[Path | None, typer.Option("--bots", help="a bots TOML file")] = None,
    schedule: Annotated[
        str | None,
        typer.Option(
            help="round-robin (default), swiss, roles (role games), or adaptive (rounds until the"
            " top is settled)"
        ),
    ] = None,
    games_per_pair: Annotated[
        int, typer.Option(help="games per pairing (seating)", callback=within(1, MAX_PER_PAIR))
    ] = 1,
    rounds: Annotated[
        int, typer.Option(help="swiss: the number of rounds", callback=within(0, MAX_ROUNDS))
    ] = 0,
    seats: Annotated[
        str | None,
        typer.Option(help="seats per game (within the game's seat range); a ladder takes MIN-MAX"),
    ] = None,
    maps: Annotated[
        list[Path] | None,
        typer.Option(
            "--maps",
            help="a map file or a folder of .map files; repeat for several (cycled"
            " over a pairing's games; a ladder draws one per game)",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="the tournament's seed", callback=within(0, MAX_SEED))
    ] = None,
    db: DbOption = DEFAULT_DB,
    option: Annotated[
        list[str] | None, typer.Option("-o", "--option", help="a game option KEY=VALUE")
    ] = None,
    replays: Annotated[Path, typer.Option(help="folder for the replays")] = Path("replays"),
    top: Annotated[
        int,
        typer.Option(help="adaptive: how many places to settle", callback=within(None, MAX_PLACES)),
    ] = 5,
    confidence: Annotated[
        float, typer.Option(help="adaptive: the probability the top order must reach")
    ] = 0.95,
    max_rounds: Annotated[
        int,
        typer.Option(
            help="adaptive: stop after this many rounds", callback=within(None, MAX_ROUNDS)
        ),
    ] = 100,
    test_every: Annotated[
        float | None,
        typer.Option(
            help="ladder: a test competition (round robin of the latest versions) every so many"
            " hours"
        ),
    ] = None,
) -> None:
    """Create a tournament: its bots and its schedule (nothing is played yet)."""
    problem = name_problem(name)
    if problem:
        fail(f"tournament name {name!r}: {problem}")
    from botarena.cliparts import parse_options
    from botarena.tournament.manage import (
        BotRequest,
        Settings,
        TournamentError,
        create,
        parse_bot_option,
    )

    rules = _rules(game)
    if not bot and bots_file is None:
        fail("no bots: give --bot [NAME=]SPEC (repeatable) or --bots FILE.toml")
    requests = [parse_bot_option(rules, text) for text in bot or []]
    if bots_file is not None:
        from botarena.tournament.botsfile import BotsFileError, load_bots_file

        try:
            entries = load_bots_file(bots_file)
        except (BotsFileError, OSError) as exc:
            fail(str(exc))
        requests += [BotRequest(e.name, e.command, e.role, e.workdir, e.source) for e in entries]
    seat_count, seats_range = _seats(seats)
    settings = Settings(
        schedule,
        games_per_pair,
        rounds,
        seat_count,
        tuple(maps or ()),
        seed,
        parse_options(option or []),
        replays,
        top=top,
        confidence=confidence,
        max_rounds=max_rounds,
        seats_range=seats_range,
        test_every=test_every,
    )
    with open_store(db, create=True) as store:
        try:
            tournament, count = create(
                store, name, rules, requests, settings, _build_dir(db), _print_build_error
            )
        except TournamentError as exc:
            fail(str(exc))
        bots = store.bots(tournament)
        from botarena.tournament.ladder import stamp_version

        stamp_version(store)
    if tournament.schedule == "ladder":
        print(
            f"ladder {name}: {game}, {len(bots)} bots; play it with: botarena tournament"
            f" run {name}"
            + ("" if db == DEFAULT_DB else f" --db {db}")
            + " (or `tournament work` on any machine)"
        )
        return
    print(
        f"tournament {name}: {game}, {len(bots)} bots, {tournament.schedule},"
        f" {count} games scheduled; play them with: botarena tournament run {name}"
        + ("" if db == DEFAULT_DB else f" --db {db}")
    )


@app.command()
def run(
    name: Annotated[str, typer.Argument(help="the tournament")],
    workers: Annotated[
        int | None,
        typer.Option(
            help="worker processes (default: one per core; 0: play in this process)",
            callback=within(0, MAX_WORKERS),
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
    dask: Annotated[
        str | None,
        typer.Option(
            help="play on this Dask cluster's workers (tcp://HOST:PORT) instead of locally"
        ),
    ] = None,
    dask_timeout: Annotated[
        float | None,
        typer.Option(
            "--dask-timeout",
            help="seconds to wait for the --dask scheduler to greet and give a worker (default 10)",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="ladder: play this many more games, then stop",
            callback=within(None, MAX_GAMES),
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--for", help="ladder: stop claiming games after this many seconds"),
    ] = None,
    no_sandbox: Annotated[
        bool,
        typer.Option(
            "--no-sandbox",
            help="run process bots unconfined (trusted bots only; needed where bubblewrap"
            " or the memory/pids cgroups are missing)",
        ),
    ] = False,
) -> None:
    """Play what is left, with a progress bar; resumes by itself after any interruption.
    A ladder plays until stopped (Ctrl-C, SIGTERM), --games N more games, or --for S.
    Process bots play in the sandbox; where it cannot confine them, run refuses them."""
    from concurrent.futures.process import BrokenProcessPool

    from botarena.tournament.runner import Executor, LocalExecutor

    if dask is not None and workers is not None:
        fail("--workers and --dask exclude each other (the cluster's workers play)")
    if (games is not None and games < 1) or (seconds is not None and not seconds > 0):
        fail("--games and --for must be positive")
    with open_store(db) as store:
        tournament = _tournament(store, name)
        if not no_sandbox:
            refuse_unconfined([bot.spec for bot in store.bots(tournament)], "tournament run")
        if tournament.schedule == "ladder" or games is not None or seconds is not None:
            if tournament.schedule != "ladder":
                fail(
                    f"--games and --for are for ladders; {name} is a {tournament.schedule}"
                    " tournament (run plays what is left)"
                )
            if dask is not None:
                fail(
                    "--dask plays finite tournaments; a ladder's workers are"
                    " `botarena tournament work --db URL` on each machine"
                )
            if tournament.schedule == "ladder" and len(store.bots(tournament)) < 2:
                fail(
                    f"ladder {name} has {len(store.bots(tournament))} active bot(s): add-bot first"
                )
            _work(store, db, [name], workers, games, seconds, sandbox=not no_sandbox)
            return
        executor: Executor
        if dask is not None:
            from botarena.tournament.cluster import (
                CONNECT_TIMEOUT_S,
                ClusterError,
                DaskExecutor,
            )

            if dask_timeout is not None and not 0 < dask_timeout <= 3600:
                fail("--dask-timeout must be above 0 and at most 3600 seconds")
            try:
                executor = DaskExecutor(dask, dask_timeout or CONNECT_TIMEOUT_S)
            except ClusterError as exc:
                fail(str(exc))
        else:
            specs = [bot.spec for bot in store.bots(tournament)]
            executor = LocalExecutor.for_tournament(tournament, specs, workers)
        try:
            played = play_with_progress(store, tournament, executor, sandbox=not no_sandbox)
        except KeyboardInterrupt:
            print(
                f"interrupted: run `botarena tournament run {name}` again to go on", file=sys.stderr
            )
            raise typer.Exit(130) from None
        except BrokenProcessPool:
            print(
                f"botarena: error: a worker process died; run `botarena tournament run"
                f" {name}` again to go on",
                file=sys.stderr,
            )
            raise typer.Exit(1) from None
        finally:
            executor.shutdown()
        counts = store.counts(tournament)
    errors = counts.get("error", 0)
    print(
        f"{name}: {played} games played now, {counts.get('done', 0)} finished in all"
        + (
            f", {errors} could not be played (see `botarena tournament games {name}`)"
            if errors
            else ""
        )
    )
    if errors:
        raise typer.Exit(1)


def refuse_unconfined(specs: list[str], command: str) -> None:
    """Stop (one line, exit 2) when bots run programs of their own and the sandbox cannot
    confine them here: a tournament runs uploaded code."""
    from botarena.core.sandbox import confinement_missing
    from botarena.core.spec import runs_a_program

    programs = [spec for spec in specs if runs_a_program(spec)]
    if not programs:
        return
    missing = confinement_missing()
    if missing:
        fail(
            f"{command}: the sandbox cannot confine process bots here (missing: "
            + "; ".join(missing)
            + "); see `botarena doctor`, or give --no-sandbox to run them unconfined"
            " (trusted bots only)"
        )


def play_with_progress(
    store: Store, tournament: Tournament, executor: Any, sandbox: bool = True
) -> int:
    """The runner under a rich progress bar: done/total, games/s, ETA, the last result; when
    the output is not a terminal, the same as a plain line every few seconds."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from botarena.tournament import runner

    console = _console()
    if not console.is_terminal:
        from botarena.core.progress import Lines

        with Lines(tournament.name) as lines:
            return runner.run(
                store,
                tournament,
                executor,
                lambda progress: lines.update(progress.done, progress.total, progress.last[:60]),
                sandbox=sandbox,
            )
    columns = (  # the tournament's and bots' names are text, not markup (core/console.py)
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s", markup=False),
        TimeRemainingColumn(),
        TextColumn("{task.fields[last]}", markup=False),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(tournament.name, total=None, rate="-", last="")
        started = bar.get_time()
        first: list[int] = []

        def report(progress: runner.Progress) -> None:
            if not first:
                first.append(progress.done)
            elapsed = bar.get_time() - started
            rate = (progress.done - first[0]) / elapsed if elapsed > 0 else 0.0
            bar.update(
                task,
                completed=progress.done,
                total=progress.total,
                rate=f"{rate:.2f}",
                last=progress.last[:60],
            )

        return runner.run(store, tournament, executor, report, sandbox=sandbox)


def _work(
    store: Store,
    db: str,
    names: list[str] | None,
    workers: int | None,
    games: int | None,
    seconds: float | None,
    idle_exit: bool = True,
    sandbox: bool = True,
) -> None:
    """The living loop of `run` (a ladder) and `work`: progress lines, clean stops."""
    import signal
    import time

    from botarena.tournament import runner
    from botarena.tournament.ladder import LadderError, check_version
    from botarena.tournament.runner import LocalExecutor, Stop

    try:
        check_version(store, db)
    except LadderError as exc:
        fail(str(exc))
    chosen = [store.tournament(n) for n in names] if names else store.tournaments()
    specs = [b.spec for t in chosen if t is not None for b in store.bots(t)]
    first = next((t for t in chosen if t is not None), None)
    executor = (
        LocalExecutor.for_tournament(first, specs, workers)
        if first
        else LocalExecutor(workers if workers is not None else 1)
    )
    stop = Stop()
    tty = sys.stdout.isatty()
    shown = [0.0]

    def asked(signum: int, _frame: Any) -> None:
        if stop.asked:  # a second time: give the games in progress back at once
            raise KeyboardInterrupt
        stop.asked = True
        print(
            "\nstopping: the games in progress finish (again to give them back)",
            file=sys.stderr,
            flush=True,
        )

    def report(progress: runner.WorkProgress) -> None:
        now = time.monotonic()
        if now - shown[0] < 1.0 and not (games and progress.played >= games):
            return
        shown[0] = now
        line = (
            f"{progress.played} games, {progress.rate:.2f} games/s, leader"
            f" {progress.leader or '-'}, last: {progress.last[:70]}"
        )
        print(("\r" + line.ljust(110)) if tty else line, end="" if tty else "\n", flush=True)

    previous = {sig: signal.signal(sig, asked) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        played = runner.work(
            store,
            executor,
            names,
            games=games,
            seconds=seconds,
            stop=stop,
            report=report,
            idle_exit=idle_exit,
            sandbox=sandbox,
        )
    except KeyboardInterrupt:
        played = -1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        executor.shutdown()
    if tty:
        print()
    if played < 0:
        print("stopped: the games in progress were given back", file=sys.stderr)
        raise typer.Exit(130)
    print(f"{played} games played")


@app.command()
def work(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="the store every worker shares:"
            " postgresql://USER@HOST:PORT/DB (or sqlite:///FILE)",
        ),
    ],
    workers: Annotated[
        int | None,
        typer.Option(
            help="games at once (default: one per core; 0: in this process)",
            callback=within(0, MAX_WORKERS),
        ),
    ] = None,
    tournament: Annotated[
        list[str] | None,
        typer.Option("--tournament", help="only this tournament (repeatable; default: all)"),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", help="stop after N games", callback=within(1, MAX_GAMES)),
    ] = None,
    seconds: Annotated[float | None, typer.Option("--for", help="stop after S seconds")] = None,
    no_sandbox: Annotated[
        bool,
        typer.Option("--no-sandbox", help="run process bots unconfined (trusted bots only)"),
    ] = False,
) -> None:
    """A worker on any machine that reaches the store: claims and plays the games of the
    running tournaments (ladders, their test competitions and finals, finite ones), and
    waits for more when there is none, until stopped (Ctrl-C, SIGTERM), --games or --for."""
    with open_store(db) as store:
        chosen = [_tournament(store, name) for name in tournament or []]
        if not no_sandbox:
            specs = [b.spec for t in chosen or store.tournaments() for b in store.bots(t)]
            refuse_unconfined(specs, "tournament work")
        _work(
            store,
            db,
            tournament or None,
            workers,
            games,
            seconds,
            idle_exit=False,
            sandbox=not no_sandbox,
        )


@app.command("retire-bot")
def retire_bot(
    name: Annotated[str, typer.Argument(help="the ladder")],
    botname: Annotated[str, typer.Argument(help="the bot to retire")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Retire a ladder bot: no longer scheduled, out of the standings, its games kept."""
    from botarena.tournament import ladder

    with open_store(db) as store:
        tournament = _ladder(store, name)
        active = ", ".join(sorted({b.name for b in store.bots(tournament)})) or "none"
        with store.transaction() as conn:
            retired = ladder.retire(conn, tournament, botname)
            if not retired:
                fail(f"ladder {name!r} has no active bot {botname!r} (active: {active})")
    print(f"{name}: bot {botname} retired")


def _ladder(store: Store, name: str) -> Tournament:
    tournament = _tournament(store, name)
    if tournament.schedule != "ladder":
        fail(f"{name} is a {tournament.schedule} tournament, not a ladder")
    return tournament


@app.command()
def stage(
    name: Annotated[str, typer.Argument(help="the ladder")],
    deadline: Annotated[
        str, typer.Option(help="ISO time (UTC unless it says), e.g. 2026-12-01T18:00")
    ],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Set the ladder's deadline: after it, new bots and updates are refused."""
    from datetime import UTC, datetime

    from botarena.tournament.ladder import deadline_at
    from botarena.tournament.store import tournaments

    try:
        at = deadline_at(deadline)
    except ValueError as exc:
        fail(f"--deadline: {exc}")
    with open_store(db) as store:
        tournament = _ladder(store, name)
        with store.transaction() as conn:
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament.id)
                .values(plan={**tournament.plan, "deadline": at})
            )
    when = datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")
    print(f"{name}: deadline {when}; after it no new bots or updates")


@app.command()
def finals(
    name: Annotated[str, typer.Argument(help="the ladder")],
    top: Annotated[
        int | None, typer.Option(help="only the ladder's top K", callback=within(None, MAX_PLACES))
    ] = None,
    schedule: Annotated[str, typer.Option(help="adaptive or round-robin")] = "round-robin",
    games_per_pair: Annotated[
        int,
        typer.Option(help="games per pairing (seating)", callback=within(None, MAX_PER_PAIR)),
    ] = 1,
    db: DbOption = DEFAULT_DB,
) -> None:
    """A new tournament NAME-finals over the latest versions of the ladder's active bots (or
    its top K), linked to it; the ladder is frozen (its deadline set to now if later)."""
    from botarena.tournament import ladder

    if schedule not in ("adaptive", "round-robin"):
        fail(f"--schedule {schedule!r}: adaptive or round-robin")
    if games_per_pair < 1 or (top is not None and top < 2):
        fail("--games-per-pair must be at least 1 and --top at least 2")
    with open_store(db) as store:
        try:
            child, count, table = ladder.start_finals(
                store, _ladder(store, name), top, schedule, games_per_pair
            )
        except ValueError as exc:
            fail(str(exc))
    print(
        f"{child.name}: {len(table)} bots, {schedule}, {count} games scheduled; play them"
        f" with: botarena tournament run {child.name}" + ("" if db == DEFAULT_DB else f" --db {db}")
    )


@app.command()
def replay(
    name: Annotated[str, typer.Argument(help="the tournament")],
    key: Annotated[str, typer.Argument(help="the game's key (see `tournament games`)")],
    out: Annotated[Path, typer.Option("-o", "--out", help="where to write it (.json.gz)")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write a game's replay as stored in the database (played on any worker), for `view`."""
    from botarena.tournament import ladder

    with open_store(db) as store:
        tournament = _tournament(store, name)
        found = [g for g in store.games(tournament) if g.key == key]
        if not found:
            fail(f"{name}: no game {key!r} (see `botarena tournament games {name}`)")
        data = ladder.replay_bytes(store, found[0].id)
    if data is None:
        fail(
            f"{name}: game {key!r} has no replay in the database (not finished, or played"
            " before replays were stored)"
        )
    out.write_bytes(data)
    print(f"{out}: view it with: botarena view {out}")


SourceOption = Annotated[
    Path | None, typer.Option("--source", help="a source file to build (Python, C, C++, Java...)")
]


def _with_source(request: Any, source: Path | None) -> Any:
    """`add-bot NAME --source FILE`: the positional SPEC is then the bot's name."""
    if source is None:
        return request
    from botarena.tournament.manage import BotRequest

    return BotRequest(request.name or request.spec, None, request.role, source=source)


@app.command("add-bot")
def add_bot(
    name: Annotated[str, typer.Argument(help="the tournament")],
    spec: Annotated[str, typer.Argument(help="[NAME=]SPEC (role games: ROLE:[NAME=]SPEC)")],
    db: DbOption = DEFAULT_DB,
    source: SourceOption = None,
) -> None:
    """Add a bot; only the games involving it are scheduled. With --source, SPEC is its
    NAME and the source file is built first, as `new` builds a bots file's sources."""
    from botarena.tournament.manage import TournamentError, parse_bot_option, put_bot

    with open_store(db) as store:
        tournament = _tournament(store, name)
        rules = _rules(tournament.game)
        try:
            done = put_bot(
                store,
                tournament,
                rules,
                _with_source(parse_bot_option(rules, spec), source),
                _build_dir(db),
                _print_build_error,
                update=False,
            )
        except TournamentError as exc:
            fail(str(exc))
    if done is None:
        raise typer.Exit(2)
    bot, count = done
    if tournament.schedule == "ladder":
        print(f"{name}: bot {bot.name} added; it plays the next games")
        return
    print(f"{name}: bot {bot.name} added, {count} games scheduled")


@app.command("update-bot")
def update_bot(
    name: Annotated[str, typer.Argument(help="the tournament")],
    botname: Annotated[str, typer.Argument(help="the bot to replace")],
    spec: Annotated[str | None, typer.Argument(help="its new SPEC (or --source)")] = None,
    db: DbOption = DEFAULT_DB,
    source: SourceOption = None,
) -> None:
    """Replace a bot: its old games are kept but no longer counted; its games are replayed."""
    from botarena.tournament.manage import BotRequest, TournamentError, parse_bot_option, put_bot

    with open_store(db) as store:
        tournament = _tournament(store, name)
        rules = _rules(tournament.game)
        old = {b.name: b for b in store.bots(tournament)}.get(botname)
        if (spec is None) == (source is None):
            fail("give the new version as SPEC or as --source FILE (one of them)")
        parsed = parse_bot_option(rules, spec or "")
        request = BotRequest(
            botname,
            parsed.spec or None,
            parsed.role or (old.role if old else None),
            source=source,
        )
        try:
            done = put_bot(
                store, tournament, rules, request, _build_dir(db), _print_build_error, update=True
            )
        except TournamentError as exc:
            fail(str(exc))
    if done is None:
        raise typer.Exit(2)
    bot, count = done
    if tournament.schedule == "ladder":
        print(f"{name}: bot {bot.name} updated to version {bot.version}; it plays the next games")
        return
    print(f"{name}: bot {bot.name} updated to version {bot.version}, {count} games scheduled")


def current_standings(
    store: Store, tournament: Tournament, rank_by: str | None
) -> tuple[list[Any], list[Any], list[str]]:
    """(standings, counted records, bot names) from the store through the ranking."""
    from botarena.tournament import ranking

    records, bots = store.records(tournament)
    names = [bot.name for bot in bots]
    roles = {bot.name: bot.role for bot in bots if bot.role}
    if rank_by is not None and rank_by not in ranking.RANK_METHODS:
        fail(f"--rank-by {rank_by!r}: not one of {', '.join(ranking.RANK_METHODS)}")
    table = ranking.standings(tournament.game, records, names, rank_by=rank_by, roles=roles or None)
    return table, records, names


def print_standings(tournament: Tournament, table: list[Any], rank_by: str | None = None) -> None:
    """The table; ranked by points (a tradition of the game), it shows the points and the irregular
    losses that break their ties, since those decide the order."""
    from rich.table import Table

    from botarena.tournament.ranking import default_rank_by

    by_points = (rank_by or default_rank_by(tournament.game)) == "points"
    has_roles = any(row.role for row in table)
    grid = Table(
        *(["role"] if has_roles else []),
        "#",
        "bot",
        *(["points", "irregular"] if by_points else []),
        "rating",
        "games",
        "mean",
        "W-D-L",
        "faults",
        title=f"{tournament.name} · {tournament.game}",
    )
    for row in table:
        grid.add_row(
            *([row.role or ""] if has_roles else []),
            str(row.rank),
            row.bot + (" (disqualified)" if row.disqualified else ""),
            *([f"{row.points:g}", str(row.irregular)] if by_points else []),
            f"{row.rating:.2f}",
            str(row.games),
            f"{row.mean_score:.1f}",
            f"{row.wins}-{row.draws}-{row.losses}",
            str(row.faults),
        )
    _console().print(grid)


def plot_path(db: str, tournament: Tournament) -> Path:
    from botarena.tournament.store import sqlite_folder

    return (sqlite_folder(db) or Path.cwd()) / f"{tournament.name}-standings.png"


@app.command()
def standings(
    name: Annotated[str, typer.Argument(help="the tournament")],
    as_json: Annotated[bool, typer.Option("--json", help="print a JSON list")] = False,
    rank_by: Annotated[
        str | None,
        typer.Option(help="points, places or mean-score (default: the game's tradition)"),
    ] = None,
    plot: Annotated[bool, typer.Option(help="draw the rating over games as a PNG")] = True,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The standings, ranked the way the game's contest ranked (see docs/standings.md)."""
    with open_store(db) as store:
        tournament = _tournament(store, name)
        if tournament.schedule == "ladder":
            _ladder_standings(store, tournament, as_json)
            return
        table, records, names = current_standings(store, tournament, rank_by)
        rounds = max((row.round for row in store.games(tournament)), default=0)
    if as_json:
        print(json.dumps([row.to_dict() for row in table]))
        return
    print_standings(tournament, table, rank_by)
    from botarena.tournament.ranking import counted_games

    counted = counted_games(tournament.game, records)
    timed_out = sum("timeout" in record.statuses for record in counted)
    dropped = len(records) - len(counted)
    print(
        f"{len(counted)} games counted, {timed_out} with a time-out"
        + (f"; {dropped} of {len(records)} played not counted (strikes)" if dropped else "")
    )
    if tournament.schedule == "adaptive":
        from botarena.tournament import adaptive

        plan = tournament.plan
        decisions = adaptive.decide(
            tournament.game,
            names,
            {row.bot: row.role for row in table},
            records,
            plan["games_per_pair"],
            plan["top"],
            plan["confidence"],
        )
        for line in adaptive.describe(decisions, rounds, plan["max_rounds"]):
            print(line)
    if plot and records:
        from botarena.tournament.ranking import plot_history

        path = plot_history(
            tournament.game, records, names, plot_path(db, tournament), rank_by=rank_by
        )
        print(f"plot: {path}")


def _ladder_standings(store: Store, tournament: Tournament, as_json: bool) -> None:
    """A ladder's table: ordinal μ − 3σ, μ, σ, games, games in the last hour."""
    from rich.table import Table

    from botarena.tournament import ladder

    table = ladder.standings(store, tournament)
    if as_json:
        print(json.dumps([row.to_dict() for row in table]))
        return
    grid = Table(
        "#",
        "bot",
        "version",
        "ordinal",
        "mu",
        "sigma",
        "games",
        "last hour",
        title=f"{tournament.name} · {tournament.game} · ladder",
    )
    for row in table:
        grid.add_row(
            str(row.rank),
            row.bot,
            row.label,
            f"{row.ordinal:.2f}",
            f"{row.mu:.2f}",
            f"{row.sigma:.2f}",
            str(row.games),
            str(row.last_hour),
        )
    _console().print(grid)


@app.command("games")
def list_games(
    name: Annotated[str, typer.Argument(help="the tournament")],
    as_json: Annotated[bool, typer.Option("--json", help="print a JSON list")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Every game: key, bots, scores, status (pending, claimed, done, error, void), why it
    ended (the rules' end reason), replay."""
    with open_store(db) as store:
        rows = store.games(_tournament(store, name))
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "key": r.key,
                        "bots": list(r.seats),
                        "scores": list(r.scores) if r.scores is not None else None,
                        "status": r.status,
                        "replay": r.replay,
                        "end_reason": r.end_reason,  # after the contract's keys
                    }
                    for r in rows
                ]
            )
        )
        return
    from rich.table import Table

    grid = Table("key", "bots", "scores", "status", "ended by", "replay")
    for r in rows:
        grid.add_row(
            r.key,
            " ".join(r.seats),
            " ".join(f"{s:g}" for s in r.scores) if r.scores else "",
            r.status + (f": {r.error}" if r.error else ""),
            r.end_reason or "",
            r.replay or "",
        )
    _console().print(grid)


@app.command("cross-table")
def cross_table(
    name: Annotated[str, typer.Argument(help="the tournament")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Bot x bot, from the row bot's side: its points and wins-draws-losses by place against
    the column bot, over every game they met in (any number of seats, roles too)."""
    from rich.table import Table

    from botarena.tournament import ranking

    with open_store(db) as store:
        tournament = _tournament(store, name)
        records, bots = store.records(tournament)
    names = [bot.name for bot in bots]
    cells = ranking.cross_table(tournament.game, records, names)
    grid = Table("", *names, title=f"{name} · points (W-D-L)")
    for row in names:
        line = []
        for col in names:
            entry = cells.get(row, {}).get(col)
            line.append(
                ""
                if row == col or entry is None
                else f"{entry[3]:g} ({entry[0]}-{entry[1]}-{entry[2]})"
            )
        grid.add_row(row, *line)
    _console().print(grid)


@app.command("list")
def list_tournaments(db: DbOption = DEFAULT_DB) -> None:
    """The tournaments in the store: game, schedule, bots, games finished of scheduled."""
    from rich.table import Table

    with open_store(db) as store:
        grid = Table("name", "game", "schedule", "bots", "finished", "scheduled")
        for tournament in store.tournaments():
            counts = store.counts(tournament)
            parent = tournament.plan.get("parent")
            kind = tournament.schedule + (
                f" ({tournament.plan.get('stage')} of {parent})" if parent else ""
            )
            grid.add_row(
                tournament.name,
                tournament.game,
                kind,
                str(len(store.bots(tournament))),
                str(counts.get("done", 0)),
                str(sum(n for s, n in counts.items() if s != "void")),
            )
    _console().print(grid)
