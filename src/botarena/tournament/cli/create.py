"""Creating and changing a tournament: `new`, `add-bot`, `update-bot`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.cliparts import (
    DEFAULT_DB,
    MAX_PER_PAIR,
    MAX_PLACES,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_SEED,
    DbOption,
    within,
)
from botarena.tournament.cli.common import (
    build_dir,
    fail,
    find_tournament,
    game_rules,
    name_problem,
    open_store,
    print_build_error,
)


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

    rules = game_rules(game)
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
    seat_count, seats_range = seats_option(seats)
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
                store, name, rules, requests, settings, build_dir(db), print_build_error
            )
        except TournamentError as exc:
            fail(str(exc))
        bots = store.bots(tournament)
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


def seats_option(text: str | None) -> tuple[int | None, tuple[int, int] | None]:
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


SourceOption = Annotated[
    Path | None, typer.Option("--source", help="a source file to build (Python, C, C++, Java...)")
]


def _with_source(request: Any, source: Path | None) -> Any:
    """`add-bot NAME --source FILE`: the positional SPEC is then the bot's name."""
    if source is None:
        return request
    from botarena.tournament.manage import BotRequest

    return BotRequest(request.name or request.spec, None, request.role, source=source)


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
        tournament = find_tournament(store, name)
        rules = game_rules(tournament.game)
        try:
            done = put_bot(
                store,
                tournament,
                rules,
                _with_source(parse_bot_option(rules, spec), source),
                build_dir(db),
                print_build_error,
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
        tournament = find_tournament(store, name)
        rules = game_rules(tournament.game)
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
                store, tournament, rules, request, build_dir(db), print_build_error, update=True
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
