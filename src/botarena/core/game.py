"""What a game module exports: its facts, rules constructor, protocol, bots and extras."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    reward_signs: tuple[int, ...] | None = None
    """Per seat, +1 when a higher score is better for it, -1 when lower is (Labyrinth's maze
    master shares the adventurers' score and wants it low); None: +1 for every seat."""


@dataclass(frozen=True)
class Game:
    """One hosted game, as registered in `botarena.games`.

    `new_state(seed, options, map, seats)` builds a fresh state; `map` is what `load_map`
    returned for `--map FILE` (None: the rules draw one from the seed). `map_from_header`
    rebuilds that map from a replay header so `verify` needs nothing but the replay.
    `bots` maps built-in bot names to factories of in-process bot objects. A game's own
    subcommands, if any, are the typer app `botarena.games.GAME.cli:app`, mounted lazily as
    `botarena GAME ...` (botarena/cli.py).
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
    """Spaces for the PettingZoo adapter (`botarena.make`), or None."""
    player_factories: Mapping[str, Callable[[str, str], Player]] = field(default_factory=dict)
    """Extra bot-spec prefixes this game understands (Labyrinth's `post:`): prefix ->
    factory(rest_of_spec, whole_spec) returning a Player."""

    @property
    def name(self) -> str:
        return self.info.name

    def read_map(self, spec: str) -> Any:
        """The map of `--map SPEC`: a file, or `GAME:NAME` for one of the game's official
        maps. Raises GameError naming the problem."""
        if self.load_map is None:
            raise GameError(f"{self.name} takes no map file")
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
        return f"botarena.games.{self.name}.bots.{bot}"


def builtin_bots(game: str, classes: Mapping[str, str]) -> dict[str, Callable[[], Any]]:
    """Factories for a game's built-in bots (`name` -> class name in `bots/name.py`), each
    importing its module only when played, so `python -m botarena.games.GAME.bots.NAME`
    does not find its own module already imported by the game's package."""

    def factory(name: str, class_name: str) -> Callable[[], Any]:
        def make() -> Any:
            module = importlib.import_module(f"botarena.games.{game}.bots.{name}")
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
        sys.modules[module].GAME = game  # type: ignore[attr-defined]
        return game

    return __getattr__
