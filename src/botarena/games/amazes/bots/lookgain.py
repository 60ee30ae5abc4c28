"""How many squares a look from each square would discover, kept up to date cheaply.

A look from X sees X's four corridors: the squares along them and the square beyond each
side opening. Squares the bot has discovered count nothing; an edge it does not know yet
counts what the look past it is expected to find (little once the square past it is
discovered: late in the game most unknown edges lie between discovered squares). Only
squares whose corridors pass by a square whose facts changed need a new figure, so each turn
recomputes a few dozen squares instead of every square the bot can reach.
"""

from __future__ import annotations

from botarena.games.amazes.bots.mapping import CELLS, NEIGHBOUR, OPEN, SIDE_EDGE, UNKNOWN, BotMap

UNKNOWN_AHEAD = 1.2
"""Expected squares a look discovers past an unknown edge at the end of a corridor."""
UNKNOWN_AHEAD_SEEN = 0.1
"""The same when the square past the edge is discovered: only the corridor beyond it, if the
edge is open, can hold new squares."""
UNKNOWN_SIDE = 0.5
"""Expected squares a look discovers past an unknown side edge."""


class LookGains:
    """`gain[square]`: expected squares newly discovered by looking from `square`."""

    def __init__(self) -> None:
        self.gain = [0.0] * CELLS

    def refresh(self, bot_map: BotMap) -> None:
        """Recompute the squares whose corridors pass a square touched since last time."""
        edge = bot_map.edge
        dirty = set()
        seeds = set(bot_map.touched)
        bot_map.touched.clear()
        for square in list(seeds):  # an unknown edge's value depends on the square beyond
            seeds.update(n for n in NEIGHBOUR[square * 4 : square * 4 + 4] if n >= 0)
        for square in seeds:
            dirty.add(square)
            for d in range(4):
                here = square
                while edge[SIDE_EDGE[here * 4 + d]] == OPEN:
                    here = NEIGHBOUR[here * 4 + d]
                    dirty.add(here)
        gain = self.gain
        for square in dirty:
            gain[square] = look_gain(bot_map, square)


def look_gain(bot_map: BotMap, square: int) -> float:
    """Expected squares the look from `square` discovers (known ones counted exactly)."""
    discovered, edge = bot_map.discovered, bot_map.edge
    gain = 0.0
    for d in range(4):
        sides = ((d + 3) % 4, (d + 1) % 4)
        here = square
        while True:
            state = edge[SIDE_EDGE[here * 4 + d]]
            if state != OPEN:
                if state == UNKNOWN:
                    beyond = NEIGHBOUR[here * 4 + d]
                    gain += UNKNOWN_AHEAD_SEEN if discovered[beyond] else UNKNOWN_AHEAD
                break
            here = NEIGHBOUR[here * 4 + d]
            if not discovered[here]:
                gain += 1
            for side in sides:
                state = edge[SIDE_EDGE[here * 4 + side]]
                if state == UNKNOWN:
                    gain += 0.0 if discovered[NEIGHBOUR[here * 4 + side]] else UNKNOWN_SIDE
                elif state == OPEN and not discovered[NEIGHBOUR[here * 4 + side]]:
                    gain += 1
    return gain
