"""Fuzz targets shared by tests/test_fuzz.py (hypothesis, a bounded number in CI) and
bench/bench_fuzz.py (10^5 inputs per target): every game's reply parser and the replay, map,
post and Bookmaker readers, each called in-process on one input.

A target answers the documented outcome for its input ("invalid" for a refused input,
"ok" for an accepted one) and lets anything else escape: an exception of another kind is a
fuzzing failure (the jury would crash). Inputs are valid seeds mutated by `mutate`, driven by
a `random.Random` that hypothesis or the bench supplies.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import botarena
from botarena.core.rules import GameError, ProtocolError
from testdata import AMAZES_MAZES, DATA

# bits that break parsers: numbers at and past every bound, separators, control and
# non-ASCII characters, JSON structure
TOKENS = [
    "0",
    "-1",
    "1",
    "7",
    "255",
    "256",
    "65536",
    "2147483648",
    "9" * 30,
    "1e400",
    "nan",
    "NaN",
    "Infinity",
    "-0",
    "1.5",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\x00",
    "\ufeff",
    "é",
    "\U0001f600",
    "\udcff",
    '"',
    "'",
    ",",
    ":",
    "[",
    "]",
    "{",
    "}",
    "[" * 300,
    '{"a":' * 300,
    "[" * 5000 + "]" * 5000,
    "null",
    "true",
    "go",
    "o",
    "N",
    "E",
    "S",
    "W",
    "F",
    "L",
    "R",
    "T",
    "%",
    "*",
    "m ",
    "rows",
    "cols",
    "players",
    "#",
    "```",
    "    ",
    "-",
    "|",
    "+",
]

JSON_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**63,
    10**30,
    1.5,
    "",
    "x",
    [],
    {},
    [[]],
    {"a": None},
    "1",
]


def mutate(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """`text` with a few random edits: a character or span flipped, deleted, repeated, a
    token inserted, lines swapped or cut."""
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        size = len(text)
        at = rng.randint(0, size)
        kind = rng.randrange(7)
        if kind == 0 and size:
            text = (
                text[:at]
                + chr(rng.randrange(0x80 if rng.random() < 0.8 else 0x3000))
                + text[at + 1 :]
            )
        elif kind == 1:
            text = text[:at] + text[at + rng.randint(1, 40) :]
        elif kind == 2:
            span = text[at : at + rng.randint(1, 60)]
            text = text[:at] + span * rng.randint(2, 6) + text[at:]
        elif kind == 3:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif kind == 4:
            lines = text.split("\n")
            rng.shuffle(lines) if len(lines) < 4 else lines.insert(
                rng.randrange(len(lines)), lines.pop(rng.randrange(len(lines)))
            )
            text = "\n".join(lines)
        elif kind == 5:
            text = text[:at]
        else:
            text = "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 12)))
    return text


def mutate_json(value: Any, rng: random.Random) -> Any:
    """`value` (parsed JSON) with one node replaced, deleted or grown."""
    nodes: list[tuple[Any, Any]] = []  # (container, key)
    stack = [value]
    while stack:
        node = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, child in items:
            nodes.append((node, key))
            if len(nodes) < 5000:
                stack.append(child)
    if not nodes:
        return rng.choice(JSON_VALUES)
    container, key = rng.choice(nodes)
    roll = rng.random()
    if roll < 0.15:
        del container[key]
    elif (
        roll < 0.3
        and isinstance(container[key], int | float)
        and not isinstance(container[key], bool)
    ):
        container[key] = container[key] + rng.choice([-1, 1, 10**6, -(10**6)])
    elif roll < 0.4 and isinstance(container, dict):
        container[rng.choice(["x", "reply", "fault", "seat"])] = rng.choice(JSON_VALUES)
    else:
        container[key] = rng.choice(JSON_VALUES)
    return value


@dataclass
class Target:
    """One parser or reader under fuzzing."""

    name: str
    seeds: list[str]
    check: Callable[[bytes], str]  # the documented outcome for one input; raises otherwise
    json_seed: Any = None  # parsed JSON seed, for structural mutations
    counts: dict[str, int] = field(default_factory=dict)

    def one(self, rng: random.Random) -> str:
        """Fuzz one input drawn from `rng`; returns the outcome (a failure escapes)."""
        if self.json_seed is not None and rng.random() < 0.5:
            text = json.dumps(mutate_json(json.loads(json.dumps(self.json_seed)), rng))
        else:
            text = mutate(rng.choice(self.seeds), rng)
        # what arrives is bytes (a pipe, a file): lone surrogates become invalid UTF-8
        outcome = self.check(text.encode("utf-8", "surrogateescape"))
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        return outcome


# -- reply parsers --------------------------------------------------------------------
GAMES = {
    "amazes": (["builtin:amazes/random", "builtin:amazes/random"], {"turns": 3}),
    "ants": (["builtin:ants/greedy", "builtin:ants/random"], {"turns": 3}),
    "falldown": (["builtin:falldown/random"] * 3 + ["builtin:falldown/hunter"], {"turns": 4}),
    "labyrinth": (
        ["builtin:labyrinth/wallfollower", "builtin:labyrinth/static"],
        {"max_rounds": 1},
    ),
}
APPLY_EVERY = 50  # applying to a copy of the state costs milliseconds: a sample of replies


@cache
def recorded(game: str) -> dict[str, Any]:
    """A short recorded game of `game` (its replay document, as `load` reads it)."""
    bots, options = GAMES[game]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        botarena.play(game, bots, seed=7, replay=path, **options)
        return botarena.load_replay(path)


def reply_target(game_name: str) -> Target:
    """The game's reply parser on the first observation of a recorded game; a reply that
    parses is applied (for a sample) to a copy of the state, which must not raise."""
    from botarena.core.replay import rebuild
    from botarena.games import get_game

    game = get_game(game_name)
    document = recorded(game_name)
    state = rebuild(game, document)
    seat = state.to_act()[0]
    observation = state.observation(seat)
    seeds = []
    for step in document["steps"]:
        for act in step["acts"]:
            text = act.get("reply")
            if text is None and act["seat"] == seat:
                try:  # packed against a later observation: its orders may not fit this one
                    text = game.protocol.unpack_reply(act["packed"], observation)
                except (IndexError, ValueError):
                    continue
            if text is not None:
                seeds.append(text)
    parsed = [0]

    def check(data: bytes) -> str:
        text = data.decode("utf-8", errors="replace")  # as ProcessPlayer decodes lines
        try:
            action = game.protocol.parse(text.split("\n"), observation)
        except ProtocolError:
            return "invalid"
        parsed[0] += 1
        if parsed[0] % APPLY_EVERY == 1:
            state.clone().apply({seat: action})
            return "applied"
        return "parsed"

    return Target(f"{game_name} reply", seeds, check)


# -- readers --------------------------------------------------------------------------
class _NotText(GameError):
    """What the reader says of bytes that are not UTF-8 (reader.read_text)."""


def _as_text(data: bytes) -> str:
    """`data` decoded as core.reader.read_text decodes a file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _NotText("not UTF-8") from None


def _map_text(ants: bool) -> str:
    if ants:
        from botarena.games.ants.mapfile import bundled_map, map_text

        return map_text(bundled_map(2))
    return (AMAZES_MAZES / "maze01.txt").read_text()


def amazes_maze_target() -> Target:
    from botarena.games.amazes.maze import check_maze, parse_maze

    def check(data: bytes) -> str:
        try:
            check_maze(parse_maze(_as_text(data), "fuzz"))
        except GameError:
            return "invalid"
        return "ok"

    return Target("amazes maze", [_map_text(False)], check)


def ants_map_target() -> Target:
    from botarena.games.ants.mapcheck import check_map
    from botarena.games.ants.mapfile import parse_map

    def check(data: bytes) -> str:
        try:
            check_map(parse_map(_as_text(data), "fuzz"))
        except GameError:
            return "invalid"
        return "ok"

    return Target("ants map", [_map_text(True)], check)


def post_target() -> Target:
    from botarena.games.labyrinth.post import PostError, parse_post

    folder = Path(botarena.__file__).parent / "games" / "labyrinth" / "posts"
    seeds = [path.read_text() for path in sorted(folder.glob("*.md"))]

    def check(data: bytes) -> str:
        try:
            parse_post(_as_text(data))
        except (PostError, GameError):
            return "invalid"
        return "ok"

    return Target("labyrinth post", seeds, check)


def bookmaker_target() -> Target:
    from botarena.core.reader import parse_json
    from botarena.games.falldown.bookmaker import _game_from

    seed = _bookmaker_seed()

    def check(data: bytes) -> str:
        try:
            _game_from(parse_json(data, "fuzz", "Bookmaker file"))
        except GameError:
            return "invalid"
        return "ok"

    return Target("falldown bookmaker", [seed], check, json_seed=json.loads(seed))


def _bookmaker_seed() -> str:
    """A Bookmaker result from the recordings archive (tests/data/falldown)."""
    import tarfile

    archive = next(iter(sorted((DATA / "falldown").glob("*.tar.xz"))))
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("bookmaker.json"))
        handle = tar.extractfile(member)
        assert handle is not None
        return handle.read().decode()


def replay_target() -> Target:
    """The whole of `verify` on a document: read (JSON, shape), rebuild, re-simulate."""
    from botarena.core.reader import parse_json
    from botarena.core.replay import ReplayError, check_document, verify

    document = recorded("amazes")
    seed = json.dumps(document)

    def check(data: bytes) -> str:
        try:
            verdict = verify(check_document(parse_json(data, "fuzz", "replay"), "fuzz"))
        except (ReplayError, GameError):
            return "unreadable"
        return "ok" if verdict.ok else "differs"

    return Target("replay", [seed], check, json_seed=document)


TARGETS: dict[str, Callable[[], Target]] = {
    **{f"{game} reply": (lambda game=game: reply_target(game)) for game in GAMES},
    "amazes maze": amazes_maze_target,
    "ants map": ants_map_target,
    "labyrinth post": post_target,
    "falldown bookmaker": bookmaker_target,
    "replay": replay_target,
}


@cache
def target(name: str) -> Target:
    """The fuzz target `name`, built once (its seeds come from short recorded games)."""
    return TARGETS[name]()
