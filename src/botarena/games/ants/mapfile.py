"""The 2011 `.map` format: read (with one-line errors naming file and line), write, bundled maps.

A map holds its size, player count, water and hills. Ants and food letters in a file are
read (they are legal characters) but a normal game ignores them: one ant starts on every hill.
Hills are kept in the 2011 engine's order (owners by first appearance, each owner's hills
row-major), because the engine's random spawn tie-break and food symmetry depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from botarena.core.rules import GameError

MAX_SIDE = 200
"""The longest side a map may have (the map-maker rules; checked before any allocation)."""

ANT_LETTERS = "abcdefghij"
HILL_ANT_LETTERS = "ABCDEFGHIJ"
HILL_DIGITS = "0123456789"


@dataclass
class AntsMap:
    """A parsed map: `water` as a set of (row, col), `hills` as (row, col, owner) in 2011 order."""

    rows: int
    cols: int
    players: int
    water: frozenset[tuple[int, int]]
    hills: list[tuple[int, int, int]]
    name: str = "map"
    ants: list[tuple[int, int, int]] = field(default_factory=list)
    food: list[tuple[int, int]] = field(default_factory=list)

    def hill_counts(self) -> list[int]:
        counts = [0] * self.players
        for _, _, owner in self.hills:
            counts[owner] += 1
        return counts


def parse_map(text: str, name: str = "map") -> AntsMap:
    """Parse `.map` text; raises GameError('NAME: line N: problem')."""
    rows = cols = players = None
    grid: list[str] = []
    water: set[tuple[int, int]] = set()
    hills_by_owner: dict[int, list[tuple[int, int]]] = {}
    ants: list[tuple[int, int, int]] = []
    food: list[tuple[int, int]] = []

    def fail(number: int, problem: str) -> GameError:
        return GameError(f"{name}: line {number}: {problem}")

    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        key, _, value = line.partition(" ")
        key = key.lower()
        if key in ("rows", "cols", "players"):
            try:
                amount = int(value)
            except ValueError:
                raise fail(number, f"{key} needs a whole number, got {value!r}") from None
            if key in ("rows", "cols") and not 1 <= amount <= MAX_SIDE:
                raise fail(number, f"{key} must be between 1 and {MAX_SIDE}, got {amount}")
            if key == "rows":
                rows = amount
            elif key == "cols":
                cols = amount
            else:
                if not 2 <= amount <= 10:
                    raise fail(number, f"player count must be between 2 and 10, got {amount}")
                players = amount
        elif key in ("score", "hive"):
            continue
        elif key == "m":
            if players is None:
                raise fail(number, "players count expected before map lines")
            if cols is None or len(value) != cols:
                raise fail(number, f"row {len(grid)} has {len(value)} columns, expected {cols}")
            if rows is not None and len(grid) == rows:
                raise fail(number, f"more map rows than rows {rows}")
            row = len(grid)
            for col, char in enumerate(value):
                if char == "%":
                    water.add((row, col))
                elif char == ".":
                    continue
                elif char == "*":
                    food.append((row, col))
                elif char in ANT_LETTERS[:players]:
                    ants.append((row, col, ANT_LETTERS.index(char)))
                elif char in HILL_DIGITS[:players]:
                    hills_by_owner.setdefault(HILL_DIGITS.index(char), []).append((row, col))
                elif char in HILL_ANT_LETTERS[:players]:
                    owner = HILL_ANT_LETTERS.index(char)
                    ants.append((row, col, owner))
                    hills_by_owner.setdefault(owner, []).append((row, col))
                else:
                    raise fail(number, f"invalid character {char!r} in map row {row}")
            grid.append(value)
        else:
            raise fail(number, f"unknown line key {key!r}")
    end = text.rstrip("\n").count("\n") + 1  # problems found at the end name the last line
    if rows is None or cols is None or players is None:
        missing = [
            k for k, v in (("rows", rows), ("cols", cols), ("players", players)) if v is None
        ]
        raise fail(end, f"the file ends without {', '.join(missing)}")
    if len(grid) != rows:
        raise fail(end, f"the file ends after {len(grid)} map rows, expected {rows}")
    for owner in range(players):
        if owner not in hills_by_owner:
            raise fail(end, f"the map ends without a hill of player {owner}")
    hills = [(r, c, owner) for owner, locs in hills_by_owner.items() for r, c in locs]
    return AntsMap(rows, cols, players, frozenset(water), hills, name, ants, food)


def load_map(path: str) -> AntsMap:
    """Read a `.map` file; raises GameError naming the file."""
    from botarena.core.reader import MAP, read_text

    return parse_map(read_text(path, MAP), path)


def map_text(ants_map: AntsMap) -> str:
    """The `.map` text of `ants_map`: `rows`, `cols`, `players`, then the `m` lines with
    water, hills, ants (`A`-`J` on a hill of their own) and food, so that parsing it gives
    the same map back (a scenario replay needs its ants and food)."""
    grid = [["."] * ants_map.cols for _ in range(ants_map.rows)]
    for row, col in ants_map.water:
        grid[row][col] = "%"
    for row, col in ants_map.food:
        grid[row][col] = "*"
    for row, col, owner in ants_map.hills:
        grid[row][col] = HILL_DIGITS[owner]
    for row, col, owner in ants_map.ants:
        on_own_hill = grid[row][col] == HILL_DIGITS[owner]
        grid[row][col] = (HILL_ANT_LETTERS if on_own_hill else ANT_LETTERS)[owner]
    lines = [f"rows {ants_map.rows}", f"cols {ants_map.cols}", f"players {ants_map.players}"]
    lines += ["m " + "".join(row) for row in grid]
    return "\n".join(lines) + "\n"


def bundled_map(players: int) -> AntsMap:
    """The official map shipped with botarena for `players` players (used without --map)."""
    from importlib import resources  # here: a game given its map pays nothing for it

    name = f"p{players:02d}.map"
    text = resources.files("botarena.games.ants").joinpath("maps", name).read_text()
    return parse_map(text, f"builtin:{name}")
