"""The `botarena` command line: games, play, verify, and each game's own subcommands.

Start-up is a budget (`python bench/run.py startup`: `botarena --version` <= 150 ms, a
whole `botarena play GAME ...` <= 300 ms), so this module imports only typer, rich and
the cheap core; every other command is imported when it is run.

Adding a top-level command or group (the one way): write it in its own module, importing
heavy things (numpy, sqlalchemy, starlette, a game's rules...) there or inside the
function, never here; then add one line to `LAZY_COMMANDS` below:

    "tournament": LazyCommand("botarena.tournament.cli:app", "Run tournaments"),
    "doctor": LazyCommand("botarena.doctor:doctor", "Check this machine can run bots"),

A `typer.Typer` target is a group (`botarena tournament run ...`); a function target,
annotated as for `@app.command()`, is one command (`botarena doctor`). The help string is
its line in `botarena --help`. User errors inside: `fail(message)` from `botarena.cliparts`
(which every command line shares), or raise one of `USER_ERRORS`.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from botarena.cliparts import fail, parse_options
from botarena.core.entrypoints import entries
from botarena.core.errors import UserError
from botarena.core.registry import all_infos, game_info, get_game, working
from botarena.core.replay import ReplayError
from botarena.core.rules import GameError, GameInfo
from botarena.core.spec import BotSpecError
from botarena.lazycli import LazyCommand, lazy_group

if TYPE_CHECKING:
    from rich.console import Console


def _game_tools_help(name: str) -> str:
    return f"{game_info(name).title} tools"


def _has_tools(name: str) -> bool:
    """Whether a working game's module has the `cli` submodule of its own commands
    (imports the game's cheap module only, under the registry's guard)."""
    from importlib.util import find_spec

    if not working(name):  # a broken plug-in has no commands; `botarena games` says why
        return False
    try:
        return find_spec(f"{entries()[name].module}.cli") is not None
    except Exception:  # a single-module plug-in: no submodules
        return False


LAZY_COMMANDS: dict[str, LazyCommand] = {
    **{
        name: LazyCommand(
            f"{entry.module}.cli:app",
            partial(_game_tools_help, name),
            partial(_has_tools, name),
        )
        for name, entry in entries().items()
    },
    "tournament": LazyCommand(
        "botarena.tournament.cli:app",
        "Run tournaments: new, run, add-bot, update-bot, standings, games, cross-table, list",
    ),
    "demo": LazyCommand(
        "botarena.tournament.demo:demo",
        "A short tournament of each game with its built-in bots, into ./botarena-demo.db",
    ),
    "arena": LazyCommand(
        "botarena.arena.cli:app",
        "Contest sites: arena new (a ladder, its sample bot, the organiser), arena serve",
    ),
    "remote": LazyCommand(
        "botarena.arena.remote:app",
        "A contest site from the command line: login, upload, bots, games, replay, stderr",
    ),
    "store": LazyCommand(
        "botarena.tournament.storecli:app",
        "The store: upgrade its schema (migrations), back it up, check its integrity",
    ),
    "serve": LazyCommand("botarena.web.cli:serve", "The leaderboard server (read-only, JSON API)"),
    "view": LazyCommand(
        "botarena.web.cli:view", "Watch a replay in the browser (served or one HTML file)"
    ),
    "compare": LazyCommand(
        "botarena.compare:command",
        "Did my change help? NEW against OLD in paired games until an SPRT decides",
    ),
    "doctor": LazyCommand(
        "botarena.doctor:doctor", "Report which sandbox protections this machine gives"
    ),
}
"""Commands imported only when run: `botarena NAME ...` -> where it lives, its help line."""

USER_ERRORS = (GameError, BotSpecError, ReplayError, OSError, UserError)


def _argument_problem(arg: str) -> str | None:
    """Why no file, option or command line can take `arg`, or None. Only a caller in this
    process can pass such an argument (`exec` refuses a NUL; bytes that are not UTF-8
    arrive surrogate-escaped, which the system takes back as they were)."""
    if "\0" in arg:
        return "holds a NUL byte"
    try:
        os.fsencode(arg)
    except UnicodeEncodeError:
        return "is not valid text (a lone surrogate)"
    return None


class _Boundary(lazy_group(LAZY_COMMANDS)):  # type: ignore[misc]
    """The command line's one error boundary, around parsing, lazy imports and every
    command alike (so `CliRunner` meets it too): a user error is one line and exit 2;
    any other exception is a bug, logged with its traceback (core/crashlog.py), told in
    one line naming the log, exit 70. `Stopped` (a signal) and `typer.Exit` pass."""

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        for arg in args or ():  # typer's Path would raise ValueError or UnicodeEncodeError
            problem = _argument_problem(arg)
            if problem is not None:
                from botarena.core.bounds import shown

                print(f"botarena: error: argument {shown(arg)} {problem}", file=sys.stderr)
                sys.exit(2)
        try:
            return super().main(args, *rest, **kwargs)
        except USER_ERRORS as exc:  # a subcommand let one through
            print(f"botarena: error: {exc}", file=sys.stderr)
            sys.exit(2)
        except Exception as exc:
            from botarena.core.crashlog import report_crash

            sys.exit(report_crash(exc))


app = typer.Typer(
    help="Jury software for AI bot-programming contests.",
    no_args_is_help=True,
    add_completion=False,
    cls=_Boundary,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@cache
def _rich_console() -> Console:
    from botarena.core.console import literal_console

    return literal_console()


class _LazyConsole:
    """rich's Console, imported on first use: rich is 20 ms of start-up `--version` and
    `--json` need not pay."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_rich_console(), name)


console = _LazyConsole()


def _print_version(value: bool) -> None:
    if value:
        import botarena

        print(f"botarena {botarena.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="print the version and exit"
        ),
    ] = False,
) -> None:
    pass


@app.command()
def games(
    game: Annotated[str | None, typer.Argument(help="show this game's options")] = None,
) -> None:
    """List the installed games with the package each came from, or one game's options
    with their defaults."""
    from rich.table import Table

    if game is None:
        table = Table("game", "title", "players", "turns", "package")
        for name, info in all_infos().items():  # a broken plug-in: one line on stderr
            seats = (
                str(info.min_seats)
                if info.min_seats == info.max_seats
                else f"{info.min_seats}-{info.max_seats}"
            )
            entry = entries()[name]
            table.add_row(
                info.name, info.title, seats, info.turn_model, f"{entry.package} {entry.version}"
            )
        console.print(table)
        return
    try:
        rules = get_game(game)
    except KeyError as exc:
        fail(exc.args[0])
    info = rules.info
    from rich.markup import escape

    console.print(
        f"[bold]{escape(info.title)}[/] ({info.name}, rules {info.rules_version}),"
        f" seats: {', '.join(info.seat_names)}",
        markup=True,
    )
    from botarena.core.rules import MEMORY_OPTION

    table = Table("option", "default", "meaning")
    for opt in (*info.options, MEMORY_OPTION):
        table.add_row(opt.name, str(opt.default), opt.description)
    console.print(table)
    if rules.bots:
        console.print(
            "built-in bots: " + ", ".join(f"builtin:{info.name}/{name}" for name in rules.bots)
        )


def parse_seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="the game (botarena games lists them)")],
    bots: Annotated[
        list[str], typer.Argument(help="bot specs: builtin:GAME/NAME, a command line, or NAME=SPEC")
    ],
    seed: Annotated[str | None, typer.Option(help="the game's seed (random if omitted)")] = None,
    map_file: Annotated[
        Path | None, typer.Option("--map", help="a map file, or GAME:NAME for an official map")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("-o", "--option", help="a game option KEY=VALUE")
    ] = None,
    replay: Annotated[Path | None, typer.Option(help="write the replay here (.gz: gzip)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    show_stderr: Annotated[
        bool,
        typer.Option(
            "--stderr", help='print each bot\'s stderr (with --json: as its "stderr" list)'
        ),
    ] = False,
    watch: Annotated[bool, typer.Option(help="show the game live in the viewer (browser)")] = False,
    no_sandbox: Annotated[
        bool,
        typer.Option(
            "--no-sandbox", help="run process bots without the sandbox (trusted bots only)"
        ),
    ] = False,
) -> None:
    """Play one game and print the result table."""
    import botarena

    seed_value = parse_seed(seed)
    if isinstance(seed_value, str) and not _game_info(game).string_seeds:
        fail(f"--seed {seed!r} is not an integer")
    if watch:
        from botarena.web.cli import watched

        result = watched(
            game,
            bots,
            seed_value,
            map_file,
            replay,
            parse_options(option or []),
            sandbox=not no_sandbox,
        )
    else:
        try:
            result = botarena.play(
                game,
                bots,
                seed=seed_value,
                map=map_file,
                replay=replay,
                sandbox=not no_sandbox,
                **parse_options(option or []),
            )
        except USER_ERRORS as exc:
            fail(str(exc))
    info = game_info(game)
    clock = _clock_used(info, parse_options(option or []))
    if as_json:
        document = result.to_dict()  # the contract's keys only: the table says the clock
        if show_stderr:  # with --json, each bot's stderr goes into the JSON
            document["stderr"] = result.stderr
        print(json.dumps(document))
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        "seat",
        "bot",
        "score",
        "rank",
        "status",
        "time ms",
        "faults",
        title=f"{result.game} · seed {result.seed} · {result.turns} turns · {result.end_reason}",
    )
    for seat, player in enumerate(result.players):
        table.add_row(
            info.seat_name(seat),
            player.bot,
            f"{player.score:g}",
            str(player.rank),
            player.status,
            f"{player.time_ms:.0f}",
            str(player.faults),
        )
    console.print(table)
    console.print(f"clock: {clock}")
    if result.replay:
        console.print(f"replay: {result.replay}", soft_wrap=True)  # a path is never broken
    if show_stderr:
        for player, text in zip(result.players, result.stderr, strict=True):
            console.print(f"[bold]stderr of {escape(player.bot)}[/]:", markup=True)
            console.print(text or "(empty)")


def _clock_used(info: GameInfo, options: dict[str, str]) -> str:
    """Which clock timed the bots: the `clock` option where the game offers one (the wall,
    as the original engines, unless `-o clock=cpu`), else the CPU limits of its rules."""
    for opt in info.options:
        if opt.name == "clock":
            return str(options.get("clock", opt.default))
    return "cpu"


def _game_info(name: str):
    try:
        return game_info(name)
    except KeyError as exc:
        fail(exc.args[0])


@app.command()
def verify(replay: Annotated[Path, typer.Argument(help="a replay file")]) -> None:
    """Re-play a replay through the rules: exit 0 if every frame and score is reproduced,
    1 naming the first step that differs, 2 if the file is not a readable replay."""
    from botarena.core.replay import load
    from botarena.core.replay import verify as verify_document

    try:
        verdict = verify_document(load(replay))
    except (ReplayError, GameError) as exc:
        fail(f"{replay}: {exc}" if str(replay) not in str(exc) else str(exc))
    if verdict.ok:
        console.print(f"{replay}: {verdict.message}")
        return
    print(f"{replay}: differs: {verdict.message}")
    raise typer.Exit(1)


def main() -> None:
    """Entry point: never a traceback (`_Boundary` answers every exception); a stopping
    signal stops the bots and exits 128 + its number (core/stopping.py)."""
    from botarena.core.stopping import Stopped, install

    install()
    try:
        app()
    except Stopped as stop:
        sys.exit(stop.exit_status)
    finally:
        # The interpreter's exit collects every object left, modules and all: 12-15 ms of
        # every command (a fifth of `play`'s own work in a short game). Frozen objects are
        # skipped by that collection; each is still freed as its last reference goes, and
        # the operating system frees the rest.
        gc.freeze()
