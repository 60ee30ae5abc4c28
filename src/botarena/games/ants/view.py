"""What each player is shown: fog of war, enemies numbered in the order first seen, and the
content of the 2011 `render_changes` text (new water, hills, ants, food, dead ants)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from botarena.games.ants.observation import Observation, Params
from botarena.games.ants.vision import Vision

__all__ = ["Observation", "Params", "PlayerViews"]


class Piece(Protocol):
    """An ant or a hill as the view reads it (rules.Ant, rules.Hill)."""

    @property
    def loc(self) -> tuple[int, int]: ...

    @property
    def owner(self) -> int: ...


class HillPiece(Piece, Protocol):
    @property
    def killed_by(self) -> int | None: ...


class Board(Protocol):
    """What the view reads of the game's state (rules.AntsState), so that the view needs
    nothing of the rules and the rules import the view alone."""

    @property
    def params(self) -> Params: ...

    @property
    def hills(self) -> Mapping[tuple[int, int], HillPiece]: ...

    @property
    def current_ants(self) -> Mapping[tuple[int, int], Piece]: ...

    @property
    def current_food(self) -> Mapping[tuple[int, int], Any]: ...

    @property
    def killed_ants(self) -> Sequence[Piece]: ...


class PlayerViews:
    """Every player's vision, revealed water and numbering of the others (the 2011 `switch`:
    itself 0, the others 1, 2, ... in the order it first saw them)."""

    def __init__(
        self,
        rows: int,
        cols: int,
        players: int,
        water: Iterable[tuple[int, int]],
        viewradius2: int,
    ) -> None:
        self.players = players
        self.switch: list[list[int | None]] = [
            [None] * players + list(range(-5, 0)) for _ in range(players)
        ]
        for player in range(players):
            self.switch[player][player] = 0
        self.vision = vision = Vision(rows, cols, viewradius2, players)
        self.ever_seen: list[int] = [0] * rows
        """Per row, who has ever seen each square (a `vision.Sight`)."""
        self.water_rows = [0] * rows
        """Per row, every player's bit of each water square."""
        for row, col in water:
            self.water_rows[row] |= vision.field << col * players
        self.sight: list[int] = [0] * rows
        """Per row, who sees each square this turn (a `vision.Sight`)."""
        self.revealed_water: list[list[tuple[int, int]]] = [[] for _ in range(players)]
        self._picture: dict[str, list] | None = None

    def update(self, current_ants: Mapping[tuple[int, int], Piece]) -> None:
        """After a turn: who sees what, water seen for the first time, enemies newly met
        (numbered in row-major order of the squares where they are seen)."""
        ants = [(loc[0], loc[1], ant.owner) for loc, ant in current_ants.items()]
        vision = self.vision
        self.sight = sight = vision.bits(ants)
        self._picture = None
        revealed: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        self.revealed_water = revealed
        ever_seen, water_rows = self.ever_seen, self.water_rows
        for row, seen in enumerate(sight):
            new = seen & ~ever_seen[row]
            if not new:
                continue
            ever_seen[row] |= seen
            fresh = new & water_rows[row]
            while fresh:  # lowest square first: row-major, as the 2011 engine lists water
                col = ((fresh & -fresh).bit_length() - 1) // self.players
                who = fresh >> col * self.players & vision.field
                fresh ^= who << col * self.players
                for player in range(self.players):
                    if who >> player & 1:
                        revealed[player].append((row, col))
        waiting = [p for p in range(self.players) if None in self.switch[p][: self.players]]
        if waiting:
            for row, col, owner in sorted(ants):
                seen_by = vision.who(sight, row, col)
                for player in waiting:
                    if seen_by >> player & 1 and self.switch[player][owner] is None:
                        self.number(player, owner)

    def forget_picture(self) -> None:
        """The state changed after the turn (the lone-survivor bonus razes hills)."""
        self._picture = None

    def number(self, player: int, owner: int) -> int:
        """`owner` in `player`'s numbering, giving it the next number if it has none yet."""
        switch = self.switch[player]
        if switch[owner] is None:
            switch[owner] = self.players - switch.count(None)
        return switch[owner]  # type: ignore[return-value]

    def _sorted_picture(self, state: Board) -> dict[str, list]:
        """Everything a viewer may be shown this turn, sorted once, with who sees each (what
        nobody sees is left out, but for dead ants: their owner is told of them anyway)."""
        if self._picture is None:
            sight, players, field = self.sight, self.players, self.vision.field

            def seen(items: list, unseen_too: bool = False) -> list:
                shown = [
                    (*item, mask)
                    for item in items
                    # most rows are seen by nobody: their integer is 0, no shift needed
                    if (mask := sight[item[0]] and sight[item[0]] >> item[1] * players & field)
                    or unseen_too
                ]
                shown.sort()
                return shown

            self._picture = {
                "h": seen([(*h.loc, h.owner) for h in state.hills.values() if h.killed_by is None]),
                "a": seen([(*loc, ant.owner) for loc, ant in state.current_ants.items()]),
                "f": seen(list(state.current_food)),
                "d": seen([(*ant.loc, ant.owner) for ant in state.killed_ants], True),
            }
        return self._picture

    def render(self, state: Board, player: int, turn: int) -> Observation:
        """The 2011 `render_changes`: new water, then visible hills, ants, food, dead ants
        (its own dead ants even out of sight)."""
        mask = 1 << player
        picture = self._sorted_picture(state)
        number = self.number
        return Observation(  # the others are numbered in this order: hills, ants, dead
            turn=turn,
            params=state.params,
            water=list(self.revealed_water[player]),
            hills=[(r, c, number(player, o)) for r, c, o, who in picture["h"] if who & mask],
            ants=[(r, c, number(player, o)) for r, c, o, who in picture["a"] if who & mask],
            food=[(r, c) for r, c, who in picture["f"] if who & mask],
            dead=[
                (r, c, number(player, o))
                for r, c, o, who in picture["d"]
                if who & mask or o == player
            ],
        )

    def order_for_player(self, player: int, data: list[Any]) -> list[Any]:
        """`data` (one entry per player) in `player`'s numbering; None for players unseen."""
        switch = self.switch[player]
        return [
            None if i not in switch else data[switch.index(i)]
            for i in range(max(len(data), self.players))
        ]
