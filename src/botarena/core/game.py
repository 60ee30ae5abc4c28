"""What a game module exports: its facts, rules constructor, protocol, bots and extras."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from botarena.core.bounds import checked_path
from botarena.core.maps import MapNameError, MapShelf, split_map_name
from botarena.core.protocol import Protocol
from botarena.core.rules import GameError, GameInfo, State

if TYPE_CHECKING:
    from botarena.core.player import Player


@dataclass(frozen=True)
class EnvSpec:
    """How a game's texts fit gymnasium spaces for the PettingZoo adapter (botarena/env.py)."""

    observation_charset: str
    observation_max_length: int
    action_charset: str
    action_max_length: int
    action_min_length: int = 1


DEFAULT_ENV_SPEC = EnvSpec(
    observation_charset="".join(map(chr, range(32, 127))) + "\n",
    observation_max_length=1 << 16,
    action_charset="".join(map(chr, range(32, 127))),
    action_max_length=256,
)
"""The spaces of a game that declares no `env_spec`: printable ASCII lines, observations up
to 64 KiB, replies up to 256 characters; so every game runs in the PettingZoo adapter (and
`check_game` runs its `api_test` on every game). A game sending other text declares its own."""


@dataclass(frozen=True)
class Demo:
    """What `botarena demo` plays of a game: a short tournament of these bot specs (each
    `builtin:GAME/NAME` or `NAME=SPEC`), `games_per_pair` games per seating."""

    bots: tuple[str, ...]
    games_per_pair: int = 1


ViewerData = Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]
"""replay -> (derived, replay): what a renderer needs that the replay's frames do not hold,
and the replay to show (e.g. without what `derived` replaces)."""


@dataclass(frozen=True)
class Game:
    """One hosted game, as registered in the entry-point group `botarena.games`
    (core/registry.py).

    `new_state(seed, options, map, seats)` builds a fresh state; `map` is what `load_map`
    returned for `--map FILE` (None: the rules draw one from the seed). `map_from_header`
    rebuilds that map from a replay header so `verify` needs nothing but the replay.
    `bots` maps built-in bot names to factories of in-process bot objects. A game's own
    subcommands, if any, are the typer app `MODULE.cli:app` (`MODULE` the game's module),
    mounted lazily as `botarena GAME ...` (botarena/cli.py).
    """

    info: GameInfo
    new_state: Callable[[int | str, dict[str, Any], Any, int], State]
    protocol: Protocol
    bots: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    load_map: Callable[[str], Any] | None = None
    maps: MapShelf | None = None
    """The official maps shipped with the game, named `GAME:NAME` wherever a map file is
    accepted (`read_map`), or None."""
    map_from_header: Callable[[dict[str, Any]], Any] | None = None
    record_sent: bool = True
    env_spec: EnvSpec | None = None
    """Spaces for the PettingZoo adapter (`botarena.make`), or None for `DEFAULT_ENV_SPEC`."""
    player_factories: Mapping[str, Callable[[str, str], Player]] = field(default_factory=dict)
    """Extra bot-spec prefixes this game understands (e.g. `post:`): prefix ->
    factory(rest_of_spec, whole_spec) returning a Player."""
    demo: Demo | None = None
    """The game's part of `botarena demo`, or None to leave it out."""
    viewer_data: ViewerData | None = None
    """The viewer's derived data of a replay (core's `web.viewdoc` calls it), or None when
    the renderer reads everything off the frames."""
    map_players: Callable[[Any], int | None] | None = None
    """How many players a loaded map is made for (None: any number); see `players_of`."""
    module: str = ""
    """The game's module (`botarena_connect4`); `lazy_game` fills it in."""

    @property
    def name(self) -> str:
        return self.info.name

    def players_of(self, map_data: Any) -> int | None:
        """The number of players `map_data` is made for, or None if any: what tournaments
        choose maps by for a game's seat count (`map_players`, else the map's `players`
        attribute)."""
        if self.map_players is not None:
            return self.map_players(map_data)
        return getattr(map_data, "players", None)

    def read_map(self, spec: str) -> Any:
        """The map of `--map SPEC`: a file, or `GAME:NAME` for one of the game's official
        maps. Raises GameError naming the problem."""
        if self.load_map is None:
            raise GameError(f"{self.name} takes no map file")
        checked_path(spec, "--map")  # a NUL or an over-long name, before any lookup
        named = split_map_name(spec)
        if named is not None:
            game, name = named
            try:
                if game != self.name or self.maps is None:
                    raise MapNameError(f"no such file, and not one of {self.name}'s maps")
                spec = str(self.maps.path(name))
            except MapNameError as exc:
                listing = (
                    f"botarena {self.name} maps lists them"
                    if self.maps
                    else (f"{self.name} ships none")
                )
                raise GameError(f"--map {spec}: {exc} ({listing})") from None
        return self.load_map(spec)

    def bot_module(self, bot: str) -> str:
        """The module that runs built-in `bot` as a process with `python -m`."""
        return f"{self.module}.bots.{bot}"


def builtin_bots(package: str, classes: Mapping[str, str]) -> dict[str, Callable[[], Any]]:
    """Factories for the built-in bots of the game module `package` (`name` -> class name
    in `package/bots/name.py`), each importing its module only when played, so
    `python -m PACKAGE.bots.NAME` does not find its own module already imported."""

    def factory(name: str, class_name: str) -> Callable[[], Any]:
        def make() -> Any:
            module = importlib.import_module(f"{package}.bots.{name}")
            return getattr(module, class_name)()

        return make

    return {name: factory(name, class_name) for name, class_name in classes.items()}


def lazy_game(module: str, build: Callable[[], Game]) -> Callable[[str], Any]:
    """A game package's module `__getattr__` that builds its `GAME` on first use.

    A game's package holds only its cheap facts (`INFO`), so listing the games or starting
    the command line imports no game's rules, protocol or numpy; `build` imports them.
    """

    def __getattr__(name: str) -> Any:
        if name != "GAME":
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        game = build()
        if not game.module:
            game = replace(game, module=module)
        sys.modules[module].GAME = game  # type: ignore[attr-defined]
        return game

    return __getattr__
