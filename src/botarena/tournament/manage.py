"""Creating tournaments and adding or updating bots: everything checked, then one transaction.

A bot is checked before anything is written (its spec names something runnable, its source
builds, its role is known in a role game), so a bad bot leaves the store as it was; a bot
whose source does not build is left out with the compiler's message and the rest go on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import Any

from botarena import check_options
from botarena.core.game import Game
from botarena.core.roles import role_named
from botarena.tournament import filling, ladder, releases, schedule, stages
from botarena.tournament.runner import plan_of
from botarena.tournament.store import Bot, Store, Tournament


class TournamentError(ValueError):
    """A user's mistake in a tournament command; the message is one line for stderr."""


@dataclass(frozen=True)
class BotRequest:
    """A bot as given on the command line or in a bots file, before it is checked."""

    name: str | None
    spec: str | None
    role: str | None = None
    workdir: Path | None = None
    source: Path | None = None


def roles_of(rules: Game) -> list[str]:
    """A role game's roles (its seat names in lower case, in seat order); empty for other
    games. Which words name them: core/roles.py."""
    if rules.info.turn_model != "roles":
        return []
    return [seat.lower() for seat in rules.info.seat_names]


def parse_bot_option(rules: Game, text: str) -> BotRequest:
    """`--bot [ROLE:][NAME=]SPEC`; the ROLE prefix only in role games."""
    prefix, colon, rest = text.partition(":")
    role = role_named(prefix, roles_of(rules)) if colon else None
    if role is not None:
        text = rest
    name, eq, spec = text.partition("=")
    if eq and name.strip().isidentifier():
        return BotRequest(name.strip(), spec.strip(), role)
    return BotRequest(None, text.strip(), role)


def _known_role(rules: Game, player: Any) -> str | None:
    """The role a bot declares itself: a built-in bot's class, a post's header
    (both carry the seat they must sit in)."""
    for holder in (getattr(player, "bot", None), getattr(player, "post", None)):
        seat = getattr(holder, "seat", None)
        if isinstance(seat, int) and 0 <= seat < len(rules.info.seat_names):
            return rules.info.seat_names[seat].lower()
    return None


def check_bot(
    rules: Game, request: BotRequest, build_dir: Path, on_build_error: Callable[[str], None]
) -> tuple[str, str, str | None] | None:
    """(name, spec, role) of a runnable bot; None when its source did not build (the
    message went to `on_build_error`); TournamentError for anything else wrong."""
    from botarena.core.spec import BotSpecError, make_player

    spec = request.spec
    if request.source is not None:
        from botarena.tournament.build import BuildError, build_bot

        try:
            spec = build_bot(request.source, build_dir, name=request.name or request.source.stem)
        except BuildError as exc:
            on_build_error(str(exc))
            return None
    if not spec:
        raise TournamentError(f"bot {request.name or '?'}: no command and no source")
    try:
        player = make_player(rules, spec)
    except BotSpecError as exc:
        raise TournamentError(str(exc)) from None
    name = request.name or player.name
    role = request.role or _known_role(rules, player)
    roles = roles_of(rules)
    if roles:
        if role is None:
            known = " or ".join(sorted(r.replace(" ", "-") for r in roles))
            raise TournamentError(
                f"bot {name}: its role is not known; give it as"
                f" --bot {known.split(' or ')[0]}:{name}=SPEC or `role` in"
                f" the bots file ({known})"
            )
        named = role_named(role, roles)
        if named is None:
            raise TournamentError(f"bot {name}: unknown role {role!r}")
        role = named
    elif role is not None:
        raise TournamentError(f"bot {name}: {rules.name} has no roles")
    return name, spec, role


@dataclass(frozen=True)
class Settings:
    """What `tournament new` was given besides the name, game and bots."""

    schedule: str | None = None
    games_per_pair: int = 1
    rounds: int = 0
    seats: int | None = None
    maps: Sequence[Path] = ()
    seed: int | None = None
    options: dict[str, str] | None = None
    replay_dir: Path = Path("replays")
    top: int = 5
    confidence: float = 0.95
    max_rounds: int = 100
    seats_range: tuple[int, int] | None = None
    test_every: float | None = None


def map_files(paths: Sequence[Path | str]) -> list[str]:
    """--maps: official maps (GAME:NAME) and files as given, folders as their `*.map`
    files (sorted); files as absolute paths."""
    from botarena.core.maps import split_map_name

    found: list[str] = []
    for path in paths:
        if split_map_name(str(path)):
            found.append(str(path))
        elif Path(path).is_dir():
            inside = sorted(Path(path).glob("*.map"))
            if not inside:
                raise TournamentError(f"--maps {path}: a folder without .map files")
            found += [str(m.resolve()) for m in inside]
        else:
            found.append(str(Path(path).resolve()))
    return found


def _ladder_plan(rules: Game, settings: Settings) -> dict[str, Any]:
    """A ladder's plan: seats (a number or a range), the maps with their player counts (each
    game fills a map drawn first), the test-competition period; in a role game its roles
    in seat order, one seat each."""
    from botarena.core.rules import GameError

    info = rules.info
    roles = [seat.lower() for seat in info.seat_names] if info.turn_model == "roles" else []
    if roles and (settings.seats_range or settings.seats not in (None, len(roles))):
        raise TournamentError(
            f"--seats: a ladder of {info.name} has one seat a role ({len(roles)} seats)"
        )
    low, high = settings.seats_range or (settings.seats or len(roles) or info.min_seats,) * 2
    map_players = []
    for path in map_files(settings.maps):
        if rules.load_map is None:
            raise TournamentError(f"--maps: {info.name} takes no map file")
        try:
            loaded = rules.read_map(path)
        except (GameError, OSError) as exc:
            raise TournamentError(f"--maps {path}: {exc}") from None
        players = rules.players_of(loaded) or low
        if not low <= players <= high and (settings.seats or settings.seats_range):
            continue  # outside the seats asked for: not drawn
        map_players.append([path, players])
    if settings.maps and not map_players:
        raise TournamentError(f"--maps: no map for {low}-{high} players")
    for seats in (low, high):
        if not info.min_seats <= seats <= info.max_seats:
            raise TournamentError(
                f"--seats {seats}: {info.name} has {info.min_seats} to {info.max_seats} seats"
            )
    if low > high:
        raise TournamentError(f"--seats {low}-{high}: the smaller number first")
    if settings.test_every is not None and not settings.test_every > 0:
        raise TournamentError("--test-every must be a positive number of hours")
    seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(2**31)
    return {
        "seed": seed,
        "seats": low,
        "seats_range": [low, high],
        "games_per_pair": 1,
        "maps": [m[0] for m in map_players],
        "map_players": map_players,
        "rounds": 0,
        "role_names": roles,
        "roles": roles,
        "game": info.name,
        "test_every": settings.test_every,
        "deadline": None,
    }


def _plan(rules: Game, settings: Settings, bot_count: int) -> tuple[str, dict[str, Any]]:
    info = rules.info
    kind = settings.schedule or ("roles" if info.turn_model == "roles" else "round-robin")
    if kind not in schedule.SCHEDULES:
        raise TournamentError(f"--schedule {kind!r}: not one of {', '.join(schedule.SCHEDULES)}")
    if kind == "ladder":
        return kind, _ladder_plan(rules, settings)
    if settings.seats_range or settings.test_every is not None:
        raise TournamentError("--seats MIN-MAX and --test-every are for --schedule ladder")
    if kind != "adaptive" and (kind == "roles") != (info.turn_model == "roles"):
        raise TournamentError(
            f"--schedule {kind}: {info.name} is"
            f"{'' if info.turn_model == 'roles' else ' not'} a role game"
            f"{' (use roles)' if info.turn_model == 'roles' else ''}"
        )
    if settings.games_per_pair < 1:
        raise TournamentError("--games-per-pair must be at least 1")
    from botarena.core.maps import split_map_name
    from botarena.core.rules import GameError

    maps = [str(m) if split_map_name(str(m)) else str(Path(m).resolve()) for m in settings.maps]
    seats = settings.seats
    for path in maps:
        try:
            loaded = rules.read_map(path)
        except (GameError, OSError) as exc:
            raise TournamentError(f"--maps {path}: {exc}") from None
        players = getattr(loaded, "players", None)
        if seats is None and players:
            seats = players
        if players and players != seats:
            raise TournamentError(
                f"--maps {path}: a {players}-player map, the games have {seats} seats"
            )
    if seats is None:
        every_bot = kind == "round-robin" or (kind == "adaptive" and info.turn_model != "roles")
        seats = (
            max(info.min_seats, min(info.max_seats, bot_count)) if every_bot else (info.min_seats)
        )
    if not info.min_seats <= seats <= info.max_seats:
        raise TournamentError(
            f"--seats {seats}: {info.name} has {info.min_seats} to {info.max_seats} seats"
        )
    if kind == "adaptive":
        if settings.top < 1:
            raise TournamentError("--top must be at least 1")
        if not 0.5 <= settings.confidence < 1:
            raise TournamentError(
                f"--confidence {settings.confidence:g}: must be at least 0.5 and below 1"
            )
        if settings.max_rounds < 3:
            raise TournamentError("--max-rounds must be at least 3 (a round's spread needs three)")
    if kind == "swiss":
        if seats != 2:
            raise TournamentError("--schedule swiss pairs bots: 2-seat games only")
        if settings.rounds < 1:
            raise TournamentError("--schedule swiss needs --rounds N (N >= 1)")
    seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(2**31)
    role_names = (
        [s.lower() for s in info.seat_names]
        if info.turn_model == "roles" and kind in ("roles", "adaptive")
        else []
    )
    return kind, {
        "seed": seed,
        "seats": seats,
        "games_per_pair": settings.games_per_pair,
        "maps": maps,
        "rounds": settings.rounds,
        "role_names": role_names,
        "game": info.name,
        "top": settings.top,
        "confidence": settings.confidence,
        "max_rounds": settings.max_rounds,
    }


def create(
    store: Store,
    name: str,
    rules: Game,
    requests: Sequence[BotRequest],
    settings: Settings,
    build_dir: Path,
    on_build_error: Callable[[str], None],
) -> tuple[Tournament, int]:
    """A new tournament with its bots and first round, in one transaction; returns it and
    the number of games scheduled."""
    if not name or "/" in name:
        raise TournamentError(f"tournament name {name!r}: must be non-empty, without '/'")
    if store.tournament(name) is not None:
        raise TournamentError(f"tournament {name!r} already exists (in this --db)")
    options = rules.info.contest_options(settings.options or {})
    try:  # checked; the given strings are stored, resolved again by each game
        check_options(rules.info, options)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    checked = []
    for request in requests:
        bot = check_bot(rules, request, build_dir, on_build_error)
        if bot is not None:
            checked.append((request, bot))
    names = [bot[0] for _, bot in checked]
    for bot_name in names:
        if names.count(bot_name) > 1:
            raise TournamentError(f"two bots are named {bot_name!r}: name them NAME=SPEC")
    kind, plan = _plan(rules, settings, len(checked))
    if len(checked) < plan["seats"] and kind not in ("roles", "ladder"):
        raise TournamentError(
            f"{len(checked)} bot(s) for {plan['seats']}-seat games: not enough to play"
        )
    with store.transaction() as conn:
        tournament = filling.create(
            conn,
            name,
            rules.name,
            kind,
            plan,
            options,
            str(settings.replay_dir.resolve()),
        )
        for request, (bot_name, spec, role) in checked:
            added = filling.add_bot(
                conn,
                tournament,
                bot_name,
                spec,
                role,
                _path(request.workdir),
                _path(request.source),
            )
            if kind == "ladder":
                ladder.join(conn, tournament, added.name, added.label, added.role)
        scheduled = _schedule_more(store, conn, tournament)
    releases.stamp_version(store)  # every tournament's store names the release that plays it
    return tournament, scheduled


def _path(path: Path | None) -> str | None:
    return None if path is None else str(path.resolve())


def _schedule_more(store: Store, conn: Any, tournament: Tournament) -> int:
    """After bots changed: the games the schedule now wants that are not there yet (for
    swiss, the first round only, when nothing was scheduled)."""
    rows = store.games(tournament, conn=conn)
    if tournament.schedule == "swiss" and rows:
        return 0
    current = store.bots(tournament, conn=conn)
    planned = [
        schedule.PlannedGame(row.seats, row.idx, row.seed, row.map, row.round)
        for row in rows
        if row.status != "void"
    ]
    added = schedule.next_round(
        tournament.schedule,
        plan_of(tournament),
        [schedule.Entrant(b.label, b.role) for b in current],
        planned,
        [],
    )
    return filling.add_games(conn, tournament, added)


def put_bot(
    store: Store,
    tournament: Tournament,
    rules: Game,
    request: BotRequest,
    build_dir: Path,
    on_build_error: Callable[[str], None],
    *,
    update: bool,
) -> tuple[Bot, int] | None:
    """Add a bot (`update` False; its name must be new) or a new version of one (`update`
    True; the name must exist). Returns the bot and the games scheduled for it, or None if
    its source did not build."""
    refuse_if_frozen(tournament)
    checked = check_bot(rules, request, build_dir, on_build_error)
    if checked is None:
        return None
    name, spec, role = checked
    existing = {bot.name: bot for bot in store.bots(tournament)}
    if update and name not in existing:
        raise TournamentError(f"tournament {tournament.name!r} has no bot {name!r}")
    if not update and name in existing:
        raise TournamentError(
            f"tournament {tournament.name!r} already has a bot {name!r} (update-bot replaces it)"
        )
    with store.transaction() as conn:
        bot = filling.add_bot(
            conn, tournament, name, spec, role, _path(request.workdir), _path(request.source)
        )
        if tournament.schedule == "ladder":
            ladder.join(conn, tournament, bot.name, bot.label, bot.role)
        return bot, _schedule_more(store, conn, tournament)


def refuse_if_frozen(tournament: Tournament, now: float | None = None) -> None:
    """After a ladder's deadline (tournament stage) no bot is added or updated."""
    stage = tournament.plan.get("stage")
    if stage is not None:
        raise TournamentError(
            f"tournament {tournament.name!r} is the {stage} of"
            f" {tournament.plan.get('parent')!r}: its bots are frozen"
        )
    deadline = stages.stored_deadline(tournament.name, tournament.plan)
    if deadline is not None and (time.time() if now is None else now) >= deadline:
        from datetime import datetime

        when = datetime.fromtimestamp(deadline, UTC).isoformat(timespec="seconds")
        raise TournamentError(
            f"tournament {tournament.name!r} is frozen since its deadline"
            f" {when}: no new bots or updates"
        )
