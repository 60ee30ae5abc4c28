"""The one way to set up a match: the game, its players, options, limits, seed and map.

`botarena.play` (and `play --watch`), the tournament worker and `compare` all go through
`set_up`, so a bot spec, an option or a map means the same wherever it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from botarena.core.game import Game
from botarena.core.player import Player, ProcessPlayer
from botarena.core.rules import GameError, GameInfo


@dataclass
class Setup:
    """What `run_match` takes: the rules, a player per seat, the seed, the resolved
    options and the map (None: the rules draw one)."""

    game: Game
    players: list[Player]
    seed: int | str
    options: dict[str, Any]
    map_data: Any = None


def sandbox_limits(sandbox: Any, options: dict[str, Any]) -> Any:
    """The `Sandbox` for a `sandbox` argument (True: the default limits, False: none, or a
    `Sandbox`), with the jury's `memory` option taken out of `options`; raises GameError
    for a bad `memory`."""
    from botarena.core import sandbox as boxes

    base = (
        sandbox
        if isinstance(sandbox, boxes.Sandbox)
        else (boxes.DEFAULT if sandbox else boxes.NONE)
    )
    try:
        return base.with_options(options)
    except ValueError as exc:
        raise GameError(str(exc)) from None


def check_options(info: GameInfo, options: dict[str, Any]) -> dict[str, Any]:
    """The game's options resolved from `options`, which may also hold the jury's own
    `memory` (MiB, checked, not a game option): checked up front by commands that play
    later (tournaments, compare). Raises GameError naming the option."""
    given = dict(options)
    sandbox_limits(True, given)
    return info.resolve_options(given)


def find_game(name: str) -> Game:
    """The installed game `name`; GameError naming the installed ones."""
    from botarena.core.registry import get_game

    try:
        return get_game(name)
    except KeyError as exc:
        raise GameError(exc.args[0]) from None


def set_up(
    game: str,
    bots: Sequence[Any],
    *,
    seed: int | str | None,
    options: dict[str, Any],
    map: str | None = None,
    sandbox: Any = True,
    names: Sequence[str] | None = None,
    workdirs: Sequence[str | None] | None = None,
    read_map: Callable[[str], Any] | None = None,
) -> Setup:
    """Check everything and build the players: a seat count the game takes, the options
    (the jury's `memory` sets the sandbox's limit), the seed (drawn when None), the map
    (`read_map`, default the game's own, for `--map` files and `GAME:NAME`), and a player
    per bot spec or bot object, process players in `sandbox` and their `workdirs`. Names:
    `names` per seat, else the specs' with repeats suffixed (`random#2`). Raises GameError
    or BotSpecError."""
    from botarena.core.spec import make_player, unique_names

    rules = find_game(game)
    info = rules.info
    if not info.min_seats <= len(bots) <= info.max_seats:
        seats = (
            str(info.min_seats)
            if info.min_seats == info.max_seats
            else f"{info.min_seats} to {info.max_seats}"
        )
        raise GameError(f"{game} needs {seats} bots, {len(bots)} given")
    options = dict(options)
    limits = sandbox_limits(sandbox, options)
    resolved = info.resolve_options(options)
    if seed is not None:
        seed = info.check_seed(seed)
    map_data = None if map is None else (read_map or rules.read_map)(str(map))
    players = [make_player(rules, bot) for bot in bots]
    for seat, player in enumerate(players):
        if isinstance(player, ProcessPlayer):
            player.sandbox = limits
            if limits.enabled:
                refuse_unresolved_shim(player.argv)
            if workdirs is not None and workdirs[seat]:
                player.cwd = workdirs[seat]
    if names is None:
        unique_names(players)
    else:
        for player, name in zip(players, names, strict=True):
            player.name = name
    if seed is None:
        import random  # not secrets: its hmac and hashlib imports cost start-up

        seed = random.SystemRandom().randrange(2**31)
    return Setup(rules, players, seed, resolved, map_data)


def refuse_unresolved_shim(argv: list[str]) -> None:
    """Before the game: a bot command whose program is an interpreter shim the sandbox
    cannot resolve is refused (ShimError, one line naming what to give); see core/shims.py."""
    import os
    import shutil

    from botarena.core.shims import resolve

    program = shutil.which(argv[0], path=os.environ.get("PATH"))
    if program is not None:
        resolve(os.path.abspath(program))
