"""RivalBot: a reference Amazes opponent built to win the endgame (tests and bench only).

Its own design, not the explorer's, except for the look values it explores by (`lookgain`,
per letter, with its own offsets): an opponent filter over the squared-distance history
whose moves spread by walking distance (Manhattan before the maze is known, steps through
known openings after); a hunt that walks to the filter's likeliest square once all 625
squares are discovered; evasion that refuses to end where a hunter reading its distance
would guess it first (the hunter's guess modelled as the ring square nearest, as the crow
flies, to where the rival stood), or hides on the hunter's own square when it is certain.
"""

from __future__ import annotations

import math
from collections import deque

from botarena.games.amazes.bots.lookgain import LookGains
from botarena.games.amazes.bots.mapping import CENTRE, FRAME, NEIGHBOUR, BotMap
from botarena.games.amazes.bots.tracking import ring as squares_at
from botarena.games.amazes.rules import Observation

LETTER = "FRTL"
FULL = 625
OFFSET, RICH_OFFSET = 6.0, 25.0
"""Moves rank by expected new squares per (letters + OFFSET); once its points are safely
above what sudden death needs, by squares per turn (RICH_OFFSET)."""
FEAR_FROM, FEAR_FULL = 105, 135
"""Own turns from which an opponent may have discovered everything, and by which it
surely may (weights the evasion)."""
CAUGHT = 0.5
"""What ending a turn where the hunter guesses costs, in new squares per letter."""
CANDIDATE_MOVES = 16
SPREAD = 5.0
"""Typical squares an opponent walks in a turn (filter's transition scale)."""


class RivalBot:
    """Completes the maze, hunts from the distance history, evades once it may be hunted."""

    def __init__(self) -> None:
        self.setup(0)

    def setup(self, seat: int, seed: str = "") -> None:
        self.map = BotMap()
        self.square, self.facing, self.turn, self.done = CENTRE, 0, 0, False
        self.belief: dict[int, float] = {}
        self.points = 0.0
        self.distance2 = -1
        self.gains = LookGains()

    def act(self, observation: Observation) -> str:
        before = self.map.count
        self.map.look(self.square, self.facing, observation.corridors)
        self.points += 1.3 * (self.map.count - before)
        self.distance2 = observation.distance2
        self._filter(observation.distance2)
        steps, parent, walked = self._reach()
        target = self._choose(steps, walked)
        path = []
        while target != self.square:
            path.append(target)
            target = parent[target]
        letters = []
        for square in reversed(path):
            d = next(d for d in range(4) if NEIGHBOUR[self.square * 4 + d] == square)
            letters.append(LETTER[(d - self.facing) % 4])
            self.square, self.facing = square, d
            if self.map.discover(square):
                self.points += 1.3
        self.points -= len(letters)
        if self.belief.get(self.square):  # a failed guess: the opponent is elsewhere
            self.belief.pop(self.square)
            total = sum(self.belief.values()) or 1.0
            self.belief = {s: p / total for s, p in self.belief.items()}
        self.turn += 1
        self.done = self.turn >= 150
        return "".join(letters) or "T"

    # -- where the opponent is ---------------------------------------------------------
    def _walking(self, origin: int) -> dict[int, int]:
        steps = {origin: 0}
        queue = deque([origin])
        links = self.map.links
        while queue:
            square = queue.popleft()
            for nxt in links[square]:
                if nxt not in steps:
                    steps[nxt] = steps[square] + 1
                    queue.append(nxt)
        return steps

    def _filter(self, distance2: int) -> None:
        """Bayes over the ring: prior spread from the last belief by walking distance."""
        ring = squares_at(self.map, self.square, distance2)
        if not self.belief:
            self.belief = {s: 1.0 / len(ring) for s in ring} if ring else {}
            return
        known = self.map.count == FULL
        likely = sorted(self.belief.items(), key=lambda item: -item[1])[:8]
        weights = dict.fromkeys(ring, 1e-4)
        for other, p in likely:
            if known:
                walk = self._walking(other)
                for s in ring:
                    far = walk.get(s)
                    if far is not None and far > 0:
                        weights[s] += p * math.exp(-far / SPREAD)
            else:
                orow, ocol = divmod(other, FRAME)
                for s in ring:
                    r, c = divmod(s, FRAME)
                    far = abs(r - orow) + abs(c - ocol)
                    if far:
                        weights[s] += p * math.exp(-far / SPREAD)
        total = sum(weights.values()) or 1.0
        self.belief = {s: w / total for s, w in weights.items()}

    # -- the move ----------------------------------------------------------------------
    def _reach(self) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        links, discovered = self.map.links, self.map.discovered
        steps, parent, walked = {self.square: 0}, {self.square: -1}, {self.square: 0}
        queue = deque([self.square])
        while queue:
            square = queue.popleft()
            if steps[square] == 256:
                continue
            for nxt in links[square]:
                if nxt not in steps:
                    steps[nxt] = steps[square] + 1
                    parent[nxt] = square
                    walked[nxt] = walked[square] + (not discovered[nxt])
                    queue.append(nxt)
        return steps, parent, walked

    def _choose(self, steps: dict[int, int], walked: dict[int, int]) -> int:
        reachable = [s for s in steps if s != self.square]
        if not reachable:
            return self.square
        if self.map.count == FULL:
            return max(reachable, key=lambda s: (round(self.belief.get(s, 0.0), 3), -steps[s]))
        self.gains.refresh(self.map)
        gain = self.gains.gain
        offset = RICH_OFFSET if self.points > 900 else OFFSET
        look = 0.0 if self.turn == 149 else 1.0
        ranked = sorted(
            reachable, key=lambda s: -(walked[s] + look * gain[s]) / (steps[s] + offset)
        )
        fear = min(1.0, max(0.0, (self.turn - FEAR_FROM) / (FEAR_FULL - FEAR_FROM)))
        if fear == 0 or not self.belief:
            return ranked[0]
        hunter, chance = max(self.belief.items(), key=lambda item: item[1])
        if chance > 0.9 and hunter in steps and hunter != self.square:
            return hunter  # the hunter cannot end its turn where it starts
        hunters = sorted(self.belief.items(), key=lambda item: -item[1])[:3]

        def value(s: int) -> float:
            worth = walked[s] + look * gain[s]
            risk = sum(p * self._guessed(h, s) for h, p in hunters)
            return worth / (steps[s] + offset) - fear * CAUGHT * risk

        return max(ranked[:CANDIDATE_MOVES], key=value)

    def _guessed(self, hunter: int, square: int) -> float:
        """1 if a hunter at `hunter`, reading its distance to `square`, would pick `square`
        first: no other ring square lies as near to where the rival stands now."""
        hrow, hcol = divmod(hunter, FRAME)
        row, col = divmod(square, FRAME)
        me_row, me_col = divmod(self.square, FRAME)
        mine = (row - me_row) ** 2 + (col - me_col) ** 2
        ring = squares_at(self.map, hunter, (row - hrow) ** 2 + (col - hcol) ** 2)
        rivals = sum(
            1
            for s in ring
            if s != square and (s // FRAME - me_row) ** 2 + (s % FRAME - me_col) ** 2 <= mine
        )
        return 1.0 / (1 + rivals)
