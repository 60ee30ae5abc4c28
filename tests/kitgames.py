"""Tiny games installed for a test only, to try the conformance kit (`check_game`) on what a
new author writes: `tally`, simultaneous for 2 to 4 players, whose scores move every turn
and which keeps the platform's default clock (it does not override `clock()`)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from botarena.core import registry, sandbox

TALLY = {
    "__init__.py": '''
"""Tally: every turn each player names 1, 2 or 3 and scores it, doubled if nobody else
named the same number. Simultaneous, 2 to 4 players, no clock of its own."""
from botarena.core.game import Game, builtin_bots, lazy_game
from botarena.core.rules import GameInfo, Option, RankBy, TurnModel

INFO = GameInfo(
    name="tally", title="Tally", min_seats=2, max_seats=4, seat_names=("A", "B", "C", "D"),
    turn_model=TurnModel.SIMULTANEOUS, rules_version="tally-1", rank_by=RankBy.POINTS,
    options=(Option("turns", 6, "turns in a game", int, 1, 100),),
)
BOTS = builtin_bots(__name__, {"random": "RandomBot", "three": "ThreeBot"})


def _game() -> Game:
    from botarena.core.game import EnvSpec
    from tallygame.rules import PROTOCOL, new_state

    return Game(info=INFO, new_state=new_state, protocol=PROTOCOL, bots=BOTS,
                env_spec=EnvSpec("0123456789 \\n", 64, "123", 1))


__getattr__ = lazy_game(__name__, _game)
''',
    "rules.py": '''
"""Tally's rules and wire format: a bot reads `TURN SCORE` and answers 1, 2 or 3."""
from collections.abc import Callable, Mapping
from typing import Any

from botarena.core.protocol import Protocol
from botarena.core.rules import Outcome, ProtocolError, State, Status


class TallyState(State):
    def __init__(self, seats: int, turns: int) -> None:
        self.scores = [0] * seats
        self.turn, self.turns = 0, turns
        self.out: set[int] = set()

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [s for s in range(len(self.scores)) if s not in self.out]

    def observation(self, seat: int) -> tuple[int, int]:
        return self.turn, self.scores[seat]

    def apply(self, actions: Mapping[int, Any]) -> None:
        for seat, number in actions.items():
            alone = list(actions.values()).count(number) == 1
            self.scores[seat] += number * (2 if alone else 1)
        self.turn += 1

    def is_over(self) -> bool:
        return self.turn >= self.turns or len(self.out) == len(self.scores)

    def outcome(self) -> Outcome:
        return Outcome(list(self.scores), "turns played")

    def fault(self, seat: int, status: Status, detail: str) -> None:
        self.out.add(seat)

    def frame(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "out": sorted(self.out)}

    @property
    def step_count(self) -> int:
        return self.turn


class TallyProtocol(Protocol):
    def encode(self, observation: tuple[int, int]) -> str:
        return f"{observation[0]} {observation[1]}\\n"

    def parse(self, lines: list[str], observation: Any) -> int:
        text = lines[0].strip() if lines else ""
        if text not in ("1", "2", "3"):
            raise ProtocolError(f"{text!r} is not 1, 2 or 3")
        return int(text)

    def read_observation(self, readline: Callable[[], str]) -> tuple[int, int] | None:
        words = readline().split()
        return (int(words[0]), int(words[1])) if len(words) == 2 else None


PROTOCOL = TallyProtocol()


def new_state(seed: Any, options: dict[str, Any], map: Any, seats: int) -> TallyState:
    return TallyState(seats, options["turns"])
''',
    "bots/__init__.py": "",
    "bots/random.py": """
import random


class RandomBot:
    def __init__(self) -> None:
        self.rng = random.Random(0)

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(seed)

    def act(self, observation: object) -> int:
        return self.rng.choice((1, 2, 3))


if __name__ == "__main__":
    from botarena.core.botmain import run_stdio
    from tallygame.rules import PROTOCOL

    run_stdio(RandomBot(), PROTOCOL)
""",
    "bots/three.py": """
class ThreeBot:
    def act(self, observation: object) -> int:
        return 3


if __name__ == "__main__":
    from botarena.core.botmain import run_stdio
    from tallygame.rules import PROTOCOL

    run_stdio(ThreeBot(), PROTOCOL)
""",
}
"""The files of the package `tallygame`."""


def write_package(site: Path, package: str, files: dict[str, str], entries: str) -> Path:
    """The package `package` (its `files`) and its metadata as pip leaves them in `site`,
    registering `entries` in the group `botarena.games`; returns the package's folder."""
    metadata = site / f"{package}-1.0.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_text(f"[botarena.games]\n{entries}\n")
    for name, text in files.items():
        path = site / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())
    return site / package


def forget_games() -> None:
    """Let the registry look at the installed packages again."""
    for cached in (
        registry._distributions,
        registry._scan,
        registry.entries,
        registry.available,
        registry._broken,
        sandbox._game_tops,
    ):
        cached.cache_clear()


@contextlib.contextmanager
def installed(folder: Path, package: str, files: dict[str, str], entries: str) -> Iterator[Path]:
    """The package `package` installed as a game while the block runs, in `folder/site` put
    on sys.path (and on PYTHONPATH, for process bots); gives the package's folder."""
    site = folder / "site"
    site.mkdir(exist_ok=True)
    site.chmod(0o755)
    made = write_package(site, package, files, entries)
    sys.path.insert(0, str(site))
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(site)
    forget_games()
    try:
        yield made
    finally:
        sys.path.remove(str(site))
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
        for name in [name for name in sys.modules if name.split(".")[0] == package]:
            del sys.modules[name]
        forget_games()
