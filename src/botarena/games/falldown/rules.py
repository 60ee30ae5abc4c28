"""The rules of Falldown (JavaChallenge 2015), slot by slot as the original engine plays them.

Pure and deterministic: the start cells and facings come from the seed (or the `start`
option), everything else from the commands. One slot is one player's turn; see
docs/games/falldown.md for the arithmetic and every decision on the rule text's open points.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from botarena.core.rules import Clock, GameError, Outcome, State, Status
from botarena.games.falldown import DEFAULT_TURNS

SEATS = 4
CELLS = 18
BLOCK = 3
BLOCKS = CELLS // BLOCK  # 6 blocks a side
BACK_AFTER = 20
"""A block that falls at the end of slot t stands again from slot t + 20 (the engine shows
-19 in slot t + 1 and counts up to 0)."""
NO_FALL = -1
ATTACK_WAIT = 3
"""The wait counter an attack sets; decremented in the same slot, so the next 2 own turns
are forced `N`."""
MIN_DISTANCE = 4
"""Living players are never closer than this (Manhattan); moves that would break it fail."""
FACINGS = "URDL"
COMMANDS = frozenset("URDLAN")
JAVA_BLANKS = "".join(chr(code) for code in range(0x21))
"""What Java's `String.trim` removes at both ends: every character up to U+0020."""
DIRECTION = {letter: index for index, letter in enumerate(FACINGS)}
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)


@dataclass(frozen=True)
class Start:
    """A player's start: column `x`, row `y` (0..17) and facing (`U R D L`)."""

    x: int
    y: int
    facing: str


class Observation:
    """What the acting bot reads: its id, the slot `turn`, the 36 block values (block row
    major) and the 4 players `(x, y, facing, wait)` (`x = y = -1` once fallen).

    The jury builds it from the blocks' fall and return slots; the 36 values are worked out
    only when somebody reads `blocks` (random bots never do).
    """

    __slots__ = ("_blocks", "_timers", "players", "seat", "turn")

    def __init__(
        self,
        seat: int,
        turn: int,
        blocks: tuple[int, ...] | None,
        players: tuple[tuple[int, int, str, int], ...],
        timers: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    ) -> None:
        self.seat = seat
        self.turn = turn
        self._blocks = blocks
        self._timers = timers
        self.players = players

    @property
    def blocks(self) -> tuple[int, ...]:
        if self._blocks is None:
            assert self._timers is not None
            self._blocks = block_values(*self._timers, self.turn)
        return self._blocks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and (
            (self.seat, self.turn, self.blocks, self.players)
            == (other.seat, other.turn, other.blocks, other.players)
        )

    def __repr__(self) -> str:
        return (
            f"Observation(seat={self.seat}, turn={self.turn}, blocks={self.blocks},"
            f" players={self.players})"
        )


def block_values(falls: Iterable[int], backs: Iterable[int], turn: int) -> tuple[int, ...]:
    """The values the engine prints for blocks at the start of slot `turn`: `v > 0` falls at
    the end of slot `turn + v - 1`, `v < 0` stands again from slot `turn - v`, 0 stands.
    Per block, `fall` is the slot at whose end it falls (-1: none pending), `back` the first
    slot it stands again after its last fall. (One expression over all 36: an exchange
    encodes them every slot, and a call per block was its largest cost.)"""
    return tuple(
        fall - turn + 1 if fall >= turn else turn - back if turn < back else 0
        for fall, back in zip(falls, backs, strict=True)
    )


def command_of(line: str) -> str:
    """The command a reply line means: its first space-separated token after Java's trim,
    if that is exactly one of `U R D L A N`, else `N` (never a fault).

    >>> [command_of(text) for text in ("U extra", " R ", "\\tL", "R\\tL", "u", "")]
    ['U', 'R', 'L', 'N', 'N', 'N']
    """
    token = line.strip(JAVA_BLANKS).split(" ", 1)[0]
    return token if token in COMMANDS else "N"


def block_of(x: int, y: int) -> int:
    """The index (block row * 6 + block column) of the block holding cell (x, y)."""
    return (y // BLOCK) * BLOCKS + x // BLOCK


class FalldownState(State):
    """A game of Falldown in progress: slot `turn` is played by player `turn % 4`."""

    def __init__(
        self,
        starts: tuple[Start, ...],
        turns: int = DEFAULT_TURNS,
        reply_s: float = 0.1,
        ready_s: float = 1.0,
    ) -> None:
        check_starts(starts)
        self.starts = starts
        self.max_turns = turns
        self.ready_s = ready_s
        self.turn = 0
        self._fall = [NO_FALL] * (BLOCKS * BLOCKS)
        """Per block: the slot at whose end it falls, or NO_FALL."""
        self._back = [0] * (BLOCKS * BLOCKS)
        """Per block: the first slot it stands again after its last fall."""
        self._falling: dict[int, list[int]] = {}
        """Slot -> the blocks that fall at its end."""
        self.x = [start.x for start in starts]
        self.y = [start.y for start in starts]
        self.facing = [FACINGS.index(start.facing) for start in starts]
        self.wait = [0] * SEATS
        self.alive = [True] * SEATS
        self.last_command = ["N"] * SEATS
        self.commands: list[str] = []
        """The command carried out in each slot, as the original engine logs it."""
        self.silent = [False] * SEATS
        """Seats whose bot was stopped (timeout) or ended (crash): no more exchanges."""
        self._falls: list[int] = []
        self._fallen_blocks: list[int] = []
        self._timers_view: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._rows = [self._row(p) for p in range(SEATS)]
        self._players_view: tuple[tuple[int, int, str, int], ...] | None = None
        self._living = SEATS
        self._clock = Clock(reply_s=reply_s)

    # -- who acts and what they see -------------------------------------------------------
    def to_act(self) -> list[int]:
        seat = self.turn & 3
        if self.silent[seat]:
            return []
        return [seat]

    def observation(self, seat: int) -> Observation:
        if self._timers_view is None:
            self._timers_view = (tuple(self._fall), tuple(self._back))
        if self._players_view is None:
            self._players_view = tuple(self._rows)
        return Observation(seat, self.turn, None, self._players_view, self._timers_view)

    @property
    def blocks(self) -> list[int]:
        """The 36 block values as the engine prints them now (block row major)."""
        return list(block_values(self._fall, self._back, self.turn))

    def _row(self, p: int) -> tuple[int, int, str, int]:
        """Player `p` as the engine prints it: `(x, y, facing, wait)`, x = y = -1 if fallen."""
        if self.alive[p]:
            return (self.x[p], self.y[p], FACINGS[self.facing[p]], self.wait[p])
        return (-1, -1, FACINGS[self.facing[p]], self.wait[p])

    # -- one slot ---------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play slot `turn`: the acting player's command (`N` without an answer, when
        waiting, or for anything but `U R D L A N`), its wait, then every block's timer."""
        seat = self.turn & 3
        action = actions.get(seat)
        command = action if action in COMMANDS else "N"
        if self.alive[seat]:
            waiting = self.wait[seat]
            if waiting:
                command = "N"
                self.wait[seat] = waiting - 1
            elif command == "A":
                self._attack(seat)
                self.wait[seat] = ATTACK_WAIT - 1
            elif command != "N":
                self._move(seat, DIRECTION[command])
            if waiting or command != "N":
                self._rows[seat] = self._row(seat)
                self._players_view = None
            self.last_command[seat] = command
        else:
            command = self.last_command[seat]
        self.commands.append(command)
        if self.turn in self._falling:
            self._refresh()
        elif self._falls or self._fallen_blocks:
            self._falls, self._fallen_blocks = [], []
        self.turn += 1

    def _move(self, seat: int, direction: int) -> None:
        """Face `direction`; step unless off the board, into a fallen block, or within
        Manhattan distance 3 of another living player."""
        self.facing[seat] = direction
        nx, ny = self.x[seat] + DX[direction], self.y[seat] + DY[direction]
        if not (0 <= nx < CELLS and 0 <= ny < CELLS) or self.turn < self._back[block_of(nx, ny)]:
            return
        for other in range(SEATS):
            if (
                other != seat
                and self.alive[other]
                and abs(nx - self.x[other]) + abs(ny - self.y[other]) < MIN_DISTANCE
            ):
                return
        self.x[seat], self.y[seat] = nx, ny

    def _attack(self, seat: int) -> None:
        """Every standing block in the facing line, n blocks away, falls 4n slots later;
        blocks already falling or fallen are skipped, the line goes on past them."""
        direction = self.facing[seat]
        bx, by = self.x[seat] // BLOCK, self.y[seat] // BLOCK
        dx, dy = DX[direction], DY[direction]
        turn = self.turn
        distance = 1
        bx, by = bx + dx, by + dy
        while 0 <= bx < BLOCKS and 0 <= by < BLOCKS:
            index = by * BLOCKS + bx
            if self._fall[index] < turn and self._back[index] <= turn:
                fall = turn + 4 * distance - 1
                self._fall[index] = fall
                self._falling.setdefault(fall, []).append(index)
                self._timers_view = None
            distance += 1
            bx, by = bx + dx, by + dy

    def _refresh(self) -> None:
        """The end of the slot: blocks whose time has come fall, with the players on them;
        they stand again 20 slots later."""
        fallen = self._falling.pop(self.turn)
        self._falls = []
        self._timers_view = None
        fallen.sort()
        self._fallen_blocks = fallen
        for index in fallen:
            self._fall[index] = NO_FALL
            self._back[index] = self.turn + BACK_AFTER
        for p in range(SEATS):
            if self.alive[p] and block_of(self.x[p], self.y[p]) in fallen:
                self.alive[p] = False
                self._living -= 1
                self._falls.append(p)
                self._rows[p] = self._row(p)
                self._players_view = None

    # -- faults and the end -----------------------------------------------------------------
    def fault(self, seat: int, status: Status, detail: str) -> None:
        """The bot is stopped (or ended by itself): its player stays on the board and does
        `N`. (Lines an exited bot had sent before it ended are still read, one a slot, as
        the original engine's reader does: the core reports the end of output only after
        them.)"""
        self.silent[seat] = True

    def living(self) -> list[int]:
        return [p for p in range(SEATS) if self.alive[p]]

    def winner(self) -> int:
        """The only player still on the board, or -1 (a draw) while none or several are."""
        living = self.living()
        return living[0] if len(living) == 1 else -1

    def is_over(self) -> bool:
        return self.turn >= self.max_turns or self._living == 1

    def outcome(self) -> Outcome:
        winner = self.winner()
        scores: list[float] = [1 if p == winner else 0 for p in range(SEATS)]  # integers
        if winner >= 0:
            reason = "survivor"
        elif self.turn >= self.max_turns:
            reason = "turns"
        else:
            reason = "unfinished"
        return Outcome(scores=scores, end_reason=reason)

    def clock(self, seat: int) -> Clock:
        return self._clock

    def handshake_clock(self, seat: int) -> Clock:
        return Clock(reply_s=self.ready_s)

    @property
    def step_count(self) -> int:
        return self.turn

    # -- pictures -------------------------------------------------------------------------
    def frame(self) -> dict[str, Any]:
        """After slot `slot`: its actor and command, the blocks (timers), the players, and
        who and which blocks fell at its end."""
        played = self.turn - 1
        blocks = self.blocks
        return {
            "slot": played,
            "seat": played & 3 if played >= 0 else None,
            "command": self.commands[-1] if self.commands else None,
            "blocks": [blocks[row * BLOCKS : (row + 1) * BLOCKS] for row in range(BLOCKS)],
            "players": [
                {
                    "x": self.x[p],
                    "y": self.y[p],
                    "facing": FACINGS[self.facing[p]],
                    "wait": self.wait[p],
                    "alive": self.alive[p],
                }
                for p in range(SEATS)
            ],
            "falls": list(self._falls),
            "fallen_blocks": list(self._fallen_blocks),
        }

    def header(self) -> dict[str, Any]:
        return {
            "initial": [[str(s.x), str(s.y), s.facing] for s in self.starts],
            "max_turns": self.max_turns,
        }


# -- starts -------------------------------------------------------------------------------
def check_starts(starts: tuple[Start, ...]) -> None:
    """Raise GameError unless there are 4 starts on the board, pairwise more than 3 apart."""
    if len(starts) != SEATS:
        raise GameError(f"falldown needs {SEATS} start cells, {len(starts)} given")
    for p, start in enumerate(starts):
        if not (0 <= start.x < CELLS and 0 <= start.y < CELLS):
            raise GameError(
                f"start of player {p}: cell {start.x},{start.y} is off the {CELLS}x{CELLS} board"
            )
        if start.facing not in FACINGS:
            raise GameError(f"start of player {p}: facing {start.facing!r} is not one of U R D L")
        for q in range(p):
            other = starts[q]
            if abs(start.x - other.x) + abs(start.y - other.y) < MIN_DISTANCE:
                raise GameError(f"starts of players {q} and {p} are within Manhattan distance 3")


def parse_starts(text: str) -> tuple[Start, ...]:
    """`X,Y,D/X,Y,D/X,Y,D/X,Y,D` (column first, as the engine's `replay.initial`) to starts;
    raises ValueError naming the problem."""
    parts = text.split("/")
    if len(parts) != SEATS:
        raise ValueError(f"{len(parts)} starts, expected {SEATS} as X,Y,D/X,Y,D/X,Y,D/X,Y,D")
    starts = []
    for part in parts:
        fields = [field.strip() for field in part.split(",")]
        if len(fields) != 3:
            raise ValueError(f"start {part!r} is not X,Y,D")
        try:
            x, y = int(fields[0]), int(fields[1])
        except ValueError:
            raise ValueError(f"start {part!r}: X and Y must be integers") from None
        starts.append(Start(x, y, fields[2]))
    result = tuple(starts)
    try:
        check_starts(result)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    return result


def start_option(text: str) -> str:
    """The `start` option's parser: checks it, keeps the text (empty: draw from the seed)."""
    if text.strip():
        parse_starts(text)
    return text.strip()


ALL_CELLS = tuple((x, y) for y in range(CELLS) for x in range(CELLS))


def draw_starts(rng: random.Random) -> tuple[Start, ...]:
    """Players 0..3 in turn: a uniform cell more than 3 from those placed, a uniform facing."""
    starts: list[Start] = []
    cells: tuple[tuple[int, int], ...] | list[tuple[int, int]] = ALL_CELLS
    for _ in range(SEATS):
        x, y = rng.choice(cells)
        starts.append(Start(x, y, rng.choice(FACINGS)))
        cells = [(cx, cy) for cx, cy in cells if abs(cx - x) + abs(cy - y) >= MIN_DISTANCE]
    return tuple(starts)


def new_state(seed: int | str, options: dict[str, Any], map_data: Any, seats: int) -> FalldownState:
    """A new game: starts from the `start` option, else drawn from the seed."""
    if seats != SEATS:
        raise GameError(f"falldown is a {SEATS}-player game; {seats} bots were given")
    start_text = options.get("start") or ""
    starts = parse_starts(start_text) if start_text else draw_starts(random.Random(seed))
    return FalldownState(
        starts,
        turns=options.get("turns", DEFAULT_TURNS),
        reply_s=options.get("reply_ms", 100) / 1000,
        ready_s=options.get("ready_ms", 1000) / 1000,
    )
