"""A strong Falldown player: it predicts every block's fall, never steps where it cannot
get out in time, and attacks the lines opponents stand on when they cannot get out.

Each own turn it scores the six commands: a command is safe when some sequence of its own
later moves survives every known block timer (its own attack included) for the next turns,
and robust when that still holds if any one opponent attacks along its current facing at
its next turn (or in any direction at the turn after). Among safe commands it prefers
attacks likely to drop an opponent, then cells from which it faces an opponent along a block
row or column, out of opponents' lines, and it walks towards such cells.
"""

from __future__ import annotations

import random

from botarena.games.falldown.rules import (
    BLOCK,
    BLOCKS,
    CELLS,
    DX,
    DY,
    FACINGS,
    MIN_DISTANCE,
    Observation,
)

NEVER = 1 << 30
HORIZON = 3
"""Own turns looked ahead after the command (12 slots)."""
NEXT_TURN_THREAT = 150.0
"""Score lost for a command after which one opponent's next attack would drop us: more
than a certain kill is worth (100), so the hunter never trades its life for one opponent."""
LATER_THREAT = 20.0
"""The same for an attack one opponent could make after turning first."""
ESCAPABLE_KILL = 0.4
"""Worth of an attack an opponent could step out of in time (random bots mostly don't)."""
FALLEN_FOR = 20
"""A block that falls at the end of slot f cannot be entered in slots f+1 .. f+19."""


class Timers:
    """When each block falls (end of slot) and until when a fallen block stays down."""

    def __init__(self, observation: Observation) -> None:
        turn = observation.turn
        self.falls = [NEVER] * (BLOCKS * BLOCKS)
        self.down_until = [-1] * (BLOCKS * BLOCKS)  # last slot the block cannot be entered
        for index, value in enumerate(observation.blocks):
            if value > 0:
                self.falls[index] = turn + value - 1
                self.down_until[index] = turn + value - 1 + FALLEN_FOR - 1
            elif value < 0:
                self.down_until[index] = turn - value - 1

    def with_attack(self, bx: int, by: int, facing: int, slot: int) -> Timers:
        """These timers after an attack from block (bx, by) at `slot`."""
        other = Timers.__new__(Timers)
        other.falls = list(self.falls)
        other.down_until = list(self.down_until)
        for index, distance in attack_line(bx, by, facing):
            if self.falls[index] == NEVER and self.down_until[index] < slot:
                other.falls[index] = slot + 4 * distance - 1
                other.down_until[index] = other.falls[index] + FALLEN_FOR - 1
        return other

    def enterable(self, index: int, slot: int) -> bool:
        return not (
            self.falls[index] < slot <= self.down_until[index]
            or (self.falls[index] == NEVER and slot <= self.down_until[index])
        )

    def falls_within(self, index: int, first: int, last: int) -> bool:
        return first <= self.falls[index] <= last


def attack_line(bx: int, by: int, facing: int) -> list[tuple[int, int]]:
    """(block index, distance) for every block an attack from (bx, by) reaches."""
    line = []
    distance = 1
    bx, by = bx + DX[facing], by + DY[facing]
    while 0 <= bx < BLOCKS and 0 <= by < BLOCKS:
        line.append((by * BLOCKS + bx, distance))
        distance += 1
        bx, by = bx + DX[facing], by + DY[facing]
    return line


def block_index(x: int, y: int) -> int:
    return (y // BLOCK) * BLOCKS + x // BLOCK


def exit_moves(x: int, y: int, facing: int) -> int:
    """Fewest steps out of the cell's block sideways to a line along `facing`."""
    along_x = DX[facing] != 0
    offset = (y if along_x else x) % BLOCK
    return min(offset + 1, BLOCK - offset)


class HunterBot:
    """See the module docstring; seeded only to break ties."""

    observation: Observation
    """The state being answered (set at the start of each `act`)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.others: list[tuple[int, tuple[int, int, str, int]]] = []
        """The opponents still on the board: (id, (x, y, facing, wait))."""
        self.approach: list[int] = []
        """Per cell (y * 18 + x): steps to the nearest attack spot."""

    def setup(self, seat: int, seed: str = "") -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> str:
        me = observation.seat
        x, _, _, wait = observation.players[me]
        if x < 0 or wait > 0:
            return "N"
        self.observation = observation
        self.others = [
            (p, row) for p, row in enumerate(observation.players) if p != me and row[0] >= 0
        ]
        base = Timers(observation)
        self.approach = self._approach_map(base)
        scenarios = self._threats(base)
        best, best_score = "N", -float("inf")
        for command in "AURDLN":
            score = self._score(command, base, scenarios) + self.rng.random() * 1e-3
            if score > best_score:
                best, best_score = command, score
        return best

    def _threats(self, base: Timers) -> list[tuple[float, Timers]]:
        """(weight, timers) for each attack one opponent could make soon: along its facing
        at its next turn, or after turning (or waiting) at the turn after."""
        threats = []
        for p, (ox, oy, facing_letter, owait) in self.others:
            bx, by, facing = ox // BLOCK, oy // BLOCK, FACINGS.index(facing_letter)
            slot = self._next_slot(p)
            if owait == 0:
                threats.append((NEXT_TURN_THREAT, base.with_attack(bx, by, facing, slot)))
                threats += [
                    (LATER_THREAT, base.with_attack(bx, by, other, slot + 4))
                    for other in range(4)
                    if other != facing
                ]
            elif owait == 1:
                threats.append((LATER_THREAT, base.with_attack(bx, by, facing, slot + 4)))
        return threats

    def _next_slot(self, seat: int) -> int:
        turn = self.observation.turn
        return turn + (seat - turn) % 4

    # -- safety -----------------------------------------------------------------------------
    def _legal(self, x: int, y: int, nx: int, ny: int, timers: Timers, slot: int) -> bool:
        if not (0 <= nx < CELLS and 0 <= ny < CELLS):
            return False
        if not timers.enterable(block_index(nx, ny), slot):
            return False
        return all(abs(nx - ox) + abs(ny - oy) >= MIN_DISTANCE for _, (ox, oy, _, _) in self.others)

    def _survives(self, x: int, y: int, slot: int, depth: int, timers: Timers, memo: dict) -> bool:
        """Alive at the start of `slot` (an own turn) on (x, y): is there a way through?"""
        key = (x, y, slot)
        if key in memo:
            return memo[key]
        memo[key] = False
        options = [(x, y)] + [(x + DX[d], y + DY[d]) for d in range(4)]
        result = False
        for nx, ny in options:
            if (nx, ny) != (x, y) and not self._legal(x, y, nx, ny, timers, slot):
                continue
            index = block_index(nx, ny)
            if timers.falls_within(index, slot, slot + 3):
                continue
            if depth == 0:
                if not timers.falls_within(index, slot + 4, slot + 7):
                    result = True
                    break
            elif self._survives(nx, ny, slot + 4, depth - 1, timers, memo):
                result = True
                break
        memo[key] = result
        return result

    def _safe_after(self, x: int, y: int, gap: int, timers: Timers) -> bool:
        """Standing on (x, y) after this slot's command, next acting `gap` slots later."""
        turn = self.observation.turn
        if timers.falls_within(block_index(x, y), turn, turn + gap - 1):
            return False
        return self._survives(x, y, turn + gap, HORIZON, timers, {})

    # -- scoring ------------------------------------------------------------------------------
    def _score(self, command: str, base: Timers, scenarios: list[tuple[float, Timers]]) -> float:
        observation = self.observation
        x, y, facing_letter, _ = observation.players[observation.seat]
        facing = FACINGS.index(facing_letter)
        turn = observation.turn
        score = 0.0
        if command == "A":
            kill = self._attack_value(x, y, facing, base)
            if kill <= 0:
                return -float("inf")
            timers = base.with_attack(x // BLOCK, y // BLOCK, facing, turn)
            scenarios = [
                (weight, s.with_attack(x // BLOCK, y // BLOCK, facing, turn))
                for weight, s in scenarios
            ]
            gap = 12
            score += 100 * kill
        else:
            timers, gap = base, 4
            if command != "N":
                facing = FACINGS.index(command)
                nx, ny = x + DX[facing], y + DY[facing]
                if self._legal(x, y, nx, ny, base, turn):
                    x, y = nx, ny
        if not self._safe_after(x, y, gap, timers):
            return -1000.0
        for weight, scenario in scenarios:
            if not self._safe_after(x, y, gap, scenario):
                score -= weight
        return score + self._position_value(x, y, facing, base)

    def _attack_value(self, x: int, y: int, facing: int, timers: Timers) -> float:
        """Expected opponents dropped by attacking now: an opponent n blocks down the line
        has n own turns to get out sideways."""
        turn = self.observation.turn
        value = 0.0
        line = dict(attack_line(x // BLOCK, y // BLOCK, facing))
        for p, (ox, oy, _, owait) in self.others:
            index = block_index(ox, oy)
            if index not in line or timers.falls[index] != NEVER:
                continue
            distance = line[index]
            falls = turn + 4 * distance - 1
            turns = sum(1 for slot in range(turn + 1, falls + 1) if slot % 4 == p)
            free_turns = max(0, turns - owait)
            needed = exit_moves(ox, oy, facing)
            value += 1.0 if needed > free_turns else ESCAPABLE_KILL / (1 + free_turns - needed)
        return value

    def _approach_map(self, timers: Timers) -> list[int]:
        """Steps from each cell to the nearest attack spot: a cell sharing a block row or
        column with an opponent, out of every opponent's facing line (fallen blocks and
        opponents' surroundings are walls)."""
        danger: set[int] = set()
        for _, (ox, oy, ofacing, _) in self.others:
            danger.update(
                index for index, _ in attack_line(ox // BLOCK, oy // BLOCK, FACINGS.index(ofacing))
            )
        turn = self.observation.turn
        open_cells = [
            timers.enterable(block_index(x, y), turn)
            and all(abs(x - ox) + abs(y - oy) >= MIN_DISTANCE for _, (ox, oy, _, _) in self.others)
            for y in range(CELLS)
            for x in range(CELLS)
        ]
        targets = {(ox // BLOCK, oy // BLOCK) for _, (ox, oy, _, _) in self.others}
        distance = [NEVER] * (CELLS * CELLS)
        frontier = []
        for cell in range(CELLS * CELLS):
            x, y = cell % CELLS, cell // CELLS
            bx, by = x // BLOCK, y // BLOCK
            if (
                open_cells[cell]
                and by * BLOCKS + bx not in danger
                and any((bx == tx) != (by == ty) for tx, ty in targets)
            ):
                distance[cell] = 0
                frontier.append(cell)
        while frontier:
            following = []
            for cell in frontier:
                x, y = cell % CELLS, cell // CELLS
                for d in range(4):
                    nx, ny = x + DX[d], y + DY[d]
                    if 0 <= nx < CELLS and 0 <= ny < CELLS:
                        neighbour = ny * CELLS + nx
                        if open_cells[neighbour] and distance[neighbour] == NEVER:
                            distance[neighbour] = distance[cell] + 1
                            following.append(neighbour)
            frontier = following
        return distance

    def _position_value(self, x: int, y: int, facing: int, timers: Timers) -> float:
        """Facing an opponent along a block line is good; standing in an opponent's line,
        on a falling block, or far from any attack spot is bad."""
        bx, by = x // BLOCK, y // BLOCK
        value = 0.0
        line = dict(attack_line(bx, by, facing))
        mine = by * BLOCKS + bx
        for _, (ox, oy, ofacing, owait) in self.others:
            target = block_index(ox, oy)
            if target in line:
                value += 12 + 4 * exit_moves(ox, oy, facing) - line[target]
            theirs = dict(attack_line(ox // BLOCK, oy // BLOCK, FACINGS.index(ofacing)))
            if mine in theirs and owait <= 1:
                value -= 25 * exit_moves(x, y, FACINGS.index(ofacing)) / theirs[mine] ** 2
        steps = self.approach[y * CELLS + x]
        value -= 3 * min(steps, 40)
        if timers.falls[mine] != NEVER:
            value -= 5
        return value


def main() -> None:
    from botarena.games.falldown.bots.process import run_process

    run_process(HunterBot())


if __name__ == "__main__":
    main()
