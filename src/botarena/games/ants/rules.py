"""The Ants rules (Google AI Challenge 2011), step for step as the 2011 engine plays them.

One step is one turn: orders are validated against the map as it stands, then the phases run
in the engine's order: move (collisions kill), attack (focus), raze hills, spawn, gather,
spawn food; then scores, vision and the cutoff counters. All randomness comes from one
`random.Random(engine_seed)` used in the 2011 engine's call order, so a botarena game with
the engine's seed, map and orders is the engine's game. See docs/games/ants.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from botarena.core.rules import Clock, GameError, Outcome, State, Status
from botarena.games.ants.mapfile import AntsMap
from botarena.games.ants.symmetry import FoodCycle, MapSymmetry, distance2, food_sets
from botarena.games.ants.view import Observation, Params, PlayerViews

__all__ = ["AIM", "LAND", "AntsState", "Observation", "Params", "ScriptMismatch"]

LAND, FOOD, WATER = -2, -3, -4
HILL_POINTS = 2
RAZE_POINTS = -1
AIM = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
FOOD_KEY = FOOD  # the cutoff counter's key for food left on the map
NO_LEADER = LAND  # the cutoff counter's key when nobody leads
MAX_LOGGED_ERRORS = 10  # order errors kept per seat and turn in the replay


class ScriptMismatch(Exception):
    """A scripted input (a recorded food or spawn) cannot happen under the rules."""

    def __init__(self, turn: int, message: str) -> None:
        super().__init__(f"turn {turn}: {message}")
        self.turn = turn


class Ant:
    __slots__ = ("die_turn", "initial_loc", "killed", "loc", "orders", "owner", "spawn_turn")

    def __init__(self, loc: tuple[int, int], owner: int, spawn_turn: int) -> None:
        self.loc = loc
        self.owner = owner
        self.initial_loc = loc
        self.spawn_turn = spawn_turn
        self.die_turn: int | None = None
        self.orders: list[str] = []
        self.killed = False


class Food:
    __slots__ = ("end_turn", "loc", "owner", "start_turn")

    def __init__(self, loc: tuple[int, int], start_turn: int) -> None:
        self.loc = loc
        self.start_turn = start_turn
        self.end_turn: int | None = None
        self.owner: int | None = None


class Hill:
    __slots__ = ("end_turn", "killed_by", "last_touched", "loc", "owner", "raze_points")

    def __init__(self, loc: tuple[int, int], owner: int) -> None:
        self.loc = loc
        self.owner = owner
        self.end_turn: int | None = None
        self.killed_by: int | None = None
        self.raze_points = False
        self.last_touched = 0


def _draw(rng: random.Random, value: Any) -> int:
    """A 2011 food parameter: a fixed int, or a (low, high) range drawn inclusively."""
    if isinstance(value, (list, tuple)):
        return rng.randrange(value[0], value[1] + 1)
    return int(value)


class AntsState(State):
    """A game of Ants. `food_script`/`spawn_script` replace the random draws when a 2011
    replay is re-simulated (food appearances and spawn tie-breaks are then inputs)."""

    def __init__(
        self,
        seed: int,
        options: Mapping[str, Any],
        ants_map: AntsMap,
        food_script: dict[int, list[tuple[int, int]]] | None = None,
        spawn_script: dict[int, set[tuple[int, int]]] | None = None,
    ) -> None:
        self.map = ants_map
        self.height, self.width = ants_map.rows, ants_map.cols
        self.num_players = players = ants_map.players
        self.engine_seed = int(seed)
        player_seed = options.get("player_seed")
        self.params = Params(
            rows=self.height,
            cols=self.width,
            players=players,
            turns=int(options["turns"]),
            loadtime=int(options["loadtime"]),
            turntime=int(options["turntime"]),
            viewradius2=int(options["viewradius2"]),
            attackradius2=int(options["attackradius2"]),
            spawnradius2=int(options["spawnradius2"]),
            player_seed=self.engine_seed if player_seed in (None, "") else int(player_seed),
        )
        self.strict = bool(options.get("strict", 0))
        self.food_mode = options.get("food", "symmetric")
        self.cutoff_turn = int(options["cutoff_turn"])
        self.cutoff_percent = float(options["cutoff_percent"])
        self.rng = random.Random(self.engine_seed)
        self.food_rate = _draw(self.rng, options["food_rate"])
        self.food_turn = _draw(self.rng, options["food_turn"])
        self.food_start = _draw(self.rng, options["food_start"])
        self.food_visible = _draw(self.rng, options["food_visible"])
        self.food_extra = 0
        """Food owed but not yet placed, in 1/food_turn units: the 2011 engine's Fraction,
        whose denominator is always food_turn (and whose import costs 7 ms of a start)."""
        self.food_script = food_script
        self.spawn_script = spawn_script
        self.invalid_script: dict[int, list[int]] = {}
        """Re-simulation only: seats the 2011 engine killed in --strict mode, by turn."""

        self.turn = 0
        self.grid = [[LAND] * self.width for _ in range(self.height)]
        for row, col in ants_map.water:
            self.grid[row][col] = WATER
        self.land_area = self.height * self.width - len(ants_map.water)
        self.current_ants: dict[tuple[int, int], Ant] = {}
        self.killed_ants: list[Ant] = []
        self.all_ants: list[Ant] = []
        self.all_food: list[Food] = []
        self.current_food: dict[tuple[int, int], Food] = {}
        self.pending_food: dict[tuple[int, int], int] = {}
        self.hills: dict[tuple[int, int], Hill] = {}
        scenario = bool(options.get("scenario", 0))
        for row, col, owner in ants_map.hills:
            hill = Hill((row, col), owner)
            self.hills[hill.loc] = hill
            if not scenario or not ants_map.ants:
                self._add_ant(hill)
        if scenario:  # 2011 --scenario: the map's ants and food, exactly as drawn
            for row, col, owner in sorted(ants_map.ants, key=lambda ant: ant[2]):
                ant = Ant((row, col), owner, 0)
                self.grid[row][col] = owner
                self.all_ants.append(ant)
                self.current_ants[(row, col)] = ant
            self._counts: list[int] | None = None
            for loc in ants_map.food:
                self._add_food(loc)
        self.hive_food = [0] * players
        self.hive_history = [[0] for _ in range(players)]
        first_hills = ants_map.hill_counts()[0]
        self.score = [first_hills] * players
        self.bonus = [0] * players
        self.score_history = [[s] for s in self.score]
        self.killed = [False] * players
        self.cutoff: str | None = None
        self.cutoff_bot = NO_LEADER
        self.cutoff_turns = 0
        self.hill_kill = False
        self.winning_bot: list[int] | None = None
        self.winning_turn = 0
        self.ranking_bots: list[int] | None = None
        self.ranking_turn = 0
        self.orders: list[list[tuple[tuple[int, int], str]]] = [[] for _ in range(players)]
        self.order_errors: list[list[str]] = [[] for _ in range(players)]

        self.bot_status = ["survived"] * players
        self.bot_turns = [0] * players
        self.rule_faults = [0] * players  # strict-mode kills: the rules' own faults
        self.end_observations: dict[int, Observation] = {}

        self._counts = None  # live ants per player, None: recount
        self.views = PlayerViews(
            self.height, self.width, players, ants_map.water, self.params.viewradius2
        )
        self.attack_offsets = self._offsets(self.params.attackradius2)
        self.spawn_offsets = self._offsets(self.params.spawnradius2)
        self._update_vision()

        self._food_cycle: FoodCycle | None = None
        self._visible_cycle: FoodCycle | None = None
        self._start_game()
        self._shuffle_bots()  # the 2011 engine shuffles the bots it asks, every turn
        self._collecting = 0  # the turn whose answers are being collected
        self._over: bool | None = None

    # -- geometry ---------------------------------------------------------------------
    def _offsets(self, radius2: int) -> list[tuple[int, int]]:
        reach = int(radius2**0.5)
        return [
            (dr, dc)
            for dr in range(-reach, reach + 1)
            for dc in range(-reach, reach + 1)
            if 0 < dr * dr + dc * dc <= radius2
        ]

    def _destination(self, loc: tuple[int, int], aim: tuple[int, int]) -> tuple[int, int]:
        return ((loc[0] + aim[0]) % self.height, (loc[1] + aim[1]) % self.width)

    def _nearby_owners(
        self, loc: tuple[int, int], offsets: list[tuple[int, int]], exclude: int | None = None
    ) -> list[Ant]:
        ants = []
        grid, height, width = self.grid, self.height, self.width
        row, col = loc
        for drow, dcol in offsets:
            r, c = (row + drow) % height, (col + dcol) % width
            value = grid[r][c]
            if value >= 0 and value != exclude:
                ants.append(self.current_ants[(r, c)])
        return ants

    # -- the State interface -----------------------------------------------------------
    def to_act(self) -> list[int]:
        self._check_start()
        return [p for p in range(self.num_players) if self.is_alive(p)]

    def observation(self, seat: int) -> Observation:
        self._check_start()
        return self.views.render(self, seat, self.turn + 1)

    def fault(self, seat: int, status: Status, detail: str) -> None:
        """Crash or timeout: the 2011 `kill_player`; its ants stand still from now on."""
        if self.killed[seat]:
            return
        self.bot_status[seat] = "crashed" if status is Status.CRASHED else status.value
        self.bot_turns[seat] = self._collecting
        self.kill_player(seat)

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play one turn; `actions` maps a seat to its order lines (strings)."""
        self._check_start()
        for player in range(self.num_players):
            if self._sent[player]:
                self.bot_turns[player] = self.turn + 1  # 2011: set when the state is sent
        self._start_turn()
        alive_before = [self.is_alive(p) for p in range(self.num_players)]
        if not self.game_over():
            for player in range(self.num_players):
                if self.is_alive(player):
                    invalid = self.do_moves(player, actions.get(player) or [])
                    scripted = player in self.invalid_script.get(self.turn, ())
                    if (invalid and self.strict) or scripted:
                        self.rule_faults[player] += 1
                        self.kill_player(player)
                        self.bot_status[player] = "invalid"
                        self.bot_turns[player] = self.turn
        self.finish_turn()
        for player in range(self.num_players):
            if alive_before[player] and not self.is_alive(player):
                if self.bot_status[player] == "survived":
                    self.bot_status[player] = "eliminated"
                    self.bot_turns[player] = self.turn
                self.end_observations[player] = self.end_observation(player)
        self._after_turn()

    def is_over(self) -> bool:
        self._check_start()
        return bool(self._over)

    def outcome(self) -> Outcome:
        statuses = [
            status if status in ("eliminated", "invalid") else None for status in self.bot_status
        ]
        return Outcome(
            scores=list(self.score),
            end_reason=self.cutoff or "turn limit reached",
            statuses=statuses,
            faults=list(self.rule_faults),
        )

    def clock(self, seat: int) -> Clock:
        return Clock(reply_s=self.params.turntime / 1000)

    def handshake_clock(self, seat: int) -> Clock:
        return Clock(reply_s=self.params.loadtime / 1000)

    def header(self) -> dict[str, Any]:
        from botarena.games.ants.mapfile import map_text

        return {"map": map_text(self.map), "map_name": self.map.name}

    def frame(self) -> dict[str, Any]:
        """Small per-turn check values (replays stay small): scores and live ants, plus the
        turn's order errors by seat (the 2011 engine's error log), when there were any."""
        frame: dict[str, Any] = {"score": list(self.score), "ants": len(self.current_ants)}
        errors = {
            str(seat): lines[:MAX_LOGGED_ERRORS]
            for seat, lines in enumerate(self.order_errors)
            if lines
        }
        if errors:
            frame["order_errors"] = errors
        return frame

    @property
    def step_count(self) -> int:
        return self.turn

    # -- turn bookkeeping --------------------------------------------------------------
    def _check_start(self) -> None:
        """After turn 0's answers (and faults) the 2011 engine checks for a game over."""
        if self._over is None:
            self._over = False
            self._after_turn()

    def _after_turn(self) -> None:
        if self.game_over() or self.turn >= self.params.turns:
            self._over = True
            self.finish_game()
        else:
            self._shuffle_bots()
            self._collecting = self.turn + 1

    def _shuffle_bots(self) -> None:
        self._sent = [self.is_alive(p) for p in range(self.num_players)]
        alive = [p for p in range(self.num_players) if self._sent[p]]
        self.rng.shuffle(alive)

    def _start_turn(self) -> None:
        self.turn += 1
        self.killed_ants = []
        self.orders = [[] for _ in range(self.num_players)]
        self.order_errors = [[] for _ in range(self.num_players)]
        self.hill_kill = False

    # -- orders ------------------------------------------------------------------------
    def do_moves(self, player: int, lines: list[str]) -> bool:
        """Parse and validate one player's order lines; True when some order was invalid."""
        parsed = []
        errors = self.order_errors[player]
        for raw in lines:
            text = raw if isinstance(raw, str) else "o {} {} {}".format(*raw)
            line = text.strip().lower()
            if not line or line[0] == "#":
                continue
            data = line.split()
            if data[0] != "o":
                errors.append(f"{line} # unknown action")
                continue
            if len(data) != 4:
                errors.append(f"{line} # incorrectly formatted order")
                continue
            try:
                loc = int(data[1]), int(data[2])
            except ValueError:
                errors.append(f"{line} # invalid row or col")
                continue
            if data[3] not in AIM:
                errors.append(f"{line} # invalid direction")
                continue
            parsed.append((line, loc, data[3]))
        invalid = bool(errors)
        seen = set()
        valid = []
        for line, loc, direction in parsed:
            if loc in seen:
                errors.append(f"{line} # duplicate order")
                invalid = True
                continue
            try:
                owner = self.grid[loc[0]][loc[1]]
            except IndexError:
                errors.append(f"{line} # out of bounds")
                invalid = True
                continue
            if owner != player:
                errors.append(f"{line} # not player ant")
                invalid = True
                continue
            if loc[0] < 0 or loc[1] < 0:
                errors.append(f"{line} # out of bounds")
                invalid = True
                continue
            dest = self._destination(loc, AIM[direction])
            if self.grid[dest[0]][dest[1]] in (FOOD, WATER):
                errors.append(f"{line} # move blocked (ignored)")
                continue
            valid.append((loc, direction))
            seen.add(loc)
        self.orders[player] = valid
        return invalid

    # -- the phases --------------------------------------------------------------------
    def finish_turn(self) -> None:
        self.do_orders()
        self.do_attack()
        self.do_raze_hills()
        self.do_spawn()
        self.do_gather()
        self.food_extra += self.food_rate * self.num_players
        food_now = self.food_extra // self.food_turn
        left_over = self.do_food(food_now)
        self.food_extra -= (food_now - left_over) * self.food_turn
        self._record(self.score, self.score_history)
        self._record(self.hive_food, self.hive_history)
        self._update_vision()
        self._count_cutoff()
        self.calc_significant_turns()

    def _record(self, values: list[int], history: list[list[int]]) -> None:
        """2011 history rule: dead players' entries grow only when their value changes."""
        for player, value in enumerate(values):
            if self.is_alive(player):
                history[player].append(value)
            elif value != history[player][-1]:
                last = history[player][-1]
                history[player].extend([last] * (self.turn - len(history[player])))
                history[player].append(value)

    def do_orders(self) -> None:
        """Move every ant at once (no order = stay); any square left with 2+ ants kills them."""
        for ant in self.current_ants.values():
            self.grid[ant.loc[0]][ant.loc[1]] = LAND
        moves: dict[Ant, str] = {}
        for orders in self.orders:
            for loc, direction in orders:
                moves[self.current_ants[loc]] = direction
        for ant in self.current_ants.values():
            if ant not in moves:
                moves[ant] = "-"
        arrivals: dict[tuple[int, int], list[Ant]] = {}
        for ant, direction in moves.items():
            ant.loc = self._destination(ant.loc, AIM.get(direction, (0, 0)))
            ant.orders.append(direction)
            arrivals.setdefault(ant.loc, []).append(ant)
        self.current_ants = {}
        self._counts = None
        for loc, ants in arrivals.items():
            if len(ants) == 1:
                self.current_ants[loc] = ants[0]
            else:
                for ant in ants:
                    self._kill_ant(ant)
        for ant in self.current_ants.values():
            self.grid[ant.loc[0]][ant.loc[1]] = ant.owner

    def do_attack(self) -> None:
        """Focus battle: an ant dies iff some enemy in range has no more enemies than it has."""
        offsets = self.attack_offsets
        enemies = {
            ant: self._nearby_owners(ant.loc, offsets, ant.owner)
            for ant in self.current_ants.values()
        }
        doomed = [
            ant
            for ant, near in enemies.items()
            if near and min(len(enemies[enemy]) for enemy in near) <= len(near)
        ]
        for ant in doomed:
            self.current_ants.pop(ant.loc)
            self._kill_ant(ant)

    def do_raze_hills(self) -> None:
        for loc, hill in self.hills.items():
            ant = self.current_ants.get(loc)
            if ant is None:
                continue
            if ant.owner == hill.owner:
                hill.last_touched = self.turn
            elif hill.killed_by is None:
                self._raze(hill, ant.owner)

    def _raze(self, hill: Hill, razer: int) -> None:
        hill.end_turn = self.turn
        hill.killed_by = razer
        self.score[razer] += HILL_POINTS
        if not hill.raze_points:
            hill.raze_points = True
            self.score[hill.owner] += RAZE_POINTS
        self.cutoff_turns = 0

    def do_spawn(self) -> None:
        """Least recently touched hill first; ties random (2011: one draw per hill)."""
        script = self.spawn_script
        for player in range(self.num_players):
            hills = [h for h in self.hills.values() if h.owner == player and h.killed_by is None]
            if script is None:
                keyed = [((h.last_touched, self.rng.random()), h) for h in hills]
            else:
                chosen = script.get(self.turn, set())
                keyed = [((h.last_touched, 0 if h.loc in chosen else 1), h) for h in hills]
            keyed.sort(key=lambda pair: pair[0])
            for _, hill in keyed:
                if self.hive_food[player] > 0 and hill.loc not in self.current_ants:
                    self.hive_food[player] -= 1
                    self._add_ant(hill)

    def do_gather(self) -> None:
        """Food next to one owner's ants goes to its hive; next to several owners, it rots."""
        if len(self.current_ants) < len(self.current_food):
            near: dict[tuple[int, int], set[int]] = {}
            height, width, food = self.height, self.width, self.current_food
            for (row, col), ant in self.current_ants.items():
                for drow, dcol in self.spawn_offsets:
                    loc = ((row + drow) % height, (col + dcol) % width)
                    if loc in food:
                        near.setdefault(loc, set()).add(ant.owner)
            contested = [(loc, near[loc]) for loc in list(food) if loc in near]
        else:
            contested = [
                (loc, {ant.owner for ant in self._nearby_owners(loc, self.spawn_offsets)})
                for loc in list(self.current_food)
            ]
        for loc, owners in contested:
            if len(owners) == 1:
                self._remove_food(loc, owners.pop())
            elif owners:
                self._remove_food(loc, None)

    # -- food --------------------------------------------------------------------------
    def _start_game(self) -> None:
        if self.food_mode == "none" and self.food_script is None:
            return
        starting = (
            self.land_area // self.food_start - self.food_visible * self.num_players
            if self.food_start
            else 0
        )
        if self.food_script is not None:
            self._scripted_food()
            return
        if self.food_visible > 0:
            self._do_food_visible(self.food_visible * self.num_players)
        self.do_food(starting)

    def do_food(self, amount: int) -> int:
        """Schedule `amount` food in symmetric sets; returns what did not fit."""
        if self.food_script is not None:
            self._scripted_food()
            return 0
        if self.food_mode == "none":
            return amount
        if self._food_cycle is None:
            self._food_cycle = FoodCycle(self._food_sets(starting=False))
        left = self._food_cycle.draw(amount, self.rng, self.pending_food)
        self._place_food()
        return left

    def _do_food_visible(self, amount: int) -> int:
        if self._visible_cycle is None:
            self._visible_cycle = FoodCycle(self._food_sets(starting=True))
        left = self._visible_cycle.draw(amount, self.rng, self.pending_food)
        self._place_food()
        return left

    def _food_sets(self, starting: bool) -> list[list[tuple[int, int]]]:
        if not hasattr(self, "_orientation"):
            grid = [list(row) for row in self.grid]  # marked and restored while compared
            hills = [(h.loc[0], h.loc[1], h.owner) for h in self.hills.values()]
            try:
                choices = MapSymmetry(grid, hills).orientations()
            except ValueError as exc:
                raise GameError(
                    f"{self.map.name}: symmetric food needs a symmetric map"
                    f" ({exc}); use -o food=none"
                ) from None
            self._orientation = self.rng.choice(choices)
        allowed = self._initial_vision_squares().__contains__ if starting else None
        return food_sets(
            self.height, self.width, self._orientation, set(self.hills), self.num_players, allowed
        )

    def _initial_vision_squares(self) -> set[tuple[int, int]]:
        """Squares reachable from a hill over land within the view radius (a flood fill)."""
        seen: set[tuple[int, int]] = set()
        radius2 = self.params.viewradius2
        for hill in self.hills.values():
            queue = [hill.loc]
            while queue:
                loc = queue.pop()
                seen.add(loc)
                for aim in AIM.values():
                    nxt = self._destination(loc, aim)
                    if (
                        nxt not in seen
                        and self.grid[nxt[0]][nxt[1]] != WATER
                        and distance2(self.height, self.width, hill.loc, nxt) <= radius2
                    ):
                        queue.append(nxt)
        return seen

    def _place_food(self) -> None:
        for loc in list(self.pending_food):
            if self.grid[loc[0]][loc[1]] == LAND:
                self._add_food(loc)
                self.pending_food[loc] -= 1
                if not self.pending_food[loc]:
                    del self.pending_food[loc]

    def _scripted_food(self) -> None:
        assert self.food_script is not None
        for loc in self.food_script.get(self.turn, []):
            if self.grid[loc[0]][loc[1]] != LAND:
                raise ScriptMismatch(
                    self.turn, f"recorded food at {loc} lands on a square that is not free land"
                )
            self._add_food(loc)

    def _add_food(self, loc: tuple[int, int]) -> None:
        self.grid[loc[0]][loc[1]] = FOOD
        food = Food(loc, self.turn)
        self.current_food[loc] = food
        self.all_food.append(food)

    def _remove_food(self, loc: tuple[int, int], owner: int | None) -> None:
        self.grid[loc[0]][loc[1]] = LAND
        food = self.current_food.pop(loc)
        food.end_turn = self.turn
        if owner is not None:
            food.owner = owner
            self.hive_food[owner] += 1

    # -- ants, players, scores ---------------------------------------------------------
    def _add_ant(self, hill: Hill) -> None:
        self._counts = None
        ant = Ant(hill.loc, hill.owner, self.turn)
        self.grid[hill.loc[0]][hill.loc[1]] = hill.owner
        self.all_ants.append(ant)
        self.current_ants[hill.loc] = ant
        hill.last_touched = self.turn

    def _kill_ant(self, ant: Ant) -> None:
        self._counts = None
        loc = ant.loc
        if self.current_ants.get(loc) is ant:
            del self.current_ants[loc]
        self.grid[loc[0]][loc[1]] = LAND
        self.killed_ants.append(ant)
        ant.killed = True
        ant.die_turn = self.turn
        hill = self.hills.get(loc)
        if hill is not None and hill.owner != self.cutoff_bot and hill.killed_by is None:
            self.hill_kill = True

    def kill_player(self, player: int) -> None:
        """Out of the game: −1 for each of its hills not yet charged; hills stay razable."""
        self.killed[player] = True
        for hill in self.hills.values():
            if hill.owner == player and not hill.raze_points:
                hill.raze_points = True
                self.score[player] += RAZE_POINTS

    def is_alive(self, player: int) -> bool:
        if self.killed[player]:
            return False
        counts = self._counts
        if counts is None:
            counts = self._counts = [0] * self.num_players
            for ant in self.current_ants.values():
                counts[ant.owner] += 1
        return counts[player] > 0

    def remaining_players(self) -> list[int]:
        return [p for p in range(self.num_players) if self.is_alive(p)]

    def is_rank_stabilized(self) -> bool:
        standing = [h.owner for h in self.hills.values() if h.killed_by is None]
        for player in range(self.num_players):
            if not (self.is_alive(player) and player in standing):
                continue
            best = self.score[player] + HILL_POINTS * sum(o != player for o in standing)
            for other in range(self.num_players):
                if other == player:
                    continue
                worst = self.score[other] + RAZE_POINTS * standing.count(other)
                if (self.score[player] < self.score[other] and best >= worst) or (
                    self.score[player] == self.score[other] and best > worst
                ):
                    return False
        return True

    def game_over(self) -> bool:
        """The 2011 checks, in order; sets `cutoff` to the reason as a side effect."""
        alive = len(self.remaining_players())
        if alive < 1:
            self.cutoff = "extermination"
            return True
        if alive == 1:
            self.cutoff = "lone survivor"
            return True
        if self.cutoff_turns >= self.cutoff_turn:
            self.cutoff = (
                "food not being gathered"
                if self.cutoff_bot == FOOD_KEY
                else "ants not razing hills"
            )
            return True
        if self.is_rank_stabilized():
            self.cutoff = "rank stabilized"
            return True
        return False

    def _count_cutoff(self) -> None:
        counts: dict[int, int] = {}
        for ant in self.current_ants.values():
            counts[ant.owner] = counts.get(ant.owner, 0) + 1
        for hill in self.hills.values():
            if hill.killed_by is None:
                counts[hill.owner] = counts.get(hill.owner, 0) + self.hive_food[hill.owner]
        counts[FOOD_KEY] = len(self.current_food)
        total = sum(counts.values())
        for key, count in counts.items():
            if count >= total * self.cutoff_percent:
                if self.cutoff_bot == key:
                    if not self.hill_kill:
                        self.cutoff_turns += 1
                else:
                    self.cutoff_bot = key
                    self.cutoff_turns = 1
                break
        else:
            self.cutoff_bot = NO_LEADER
            self.cutoff_turns = 0

    def calc_significant_turns(self) -> None:
        ordered = sorted(self.score, reverse=True)
        ranking = [ordered.index(s) for s in self.score]
        if self.ranking_bots != ranking:
            self.ranking_turn = self.turn
        self.ranking_bots = ranking
        best = max(self.score)
        winning = [p for p, s in enumerate(self.score) if s == best]
        if self.winning_bot != winning:
            self.winning_turn = self.turn
        self.winning_bot = winning

    def finish_game(self) -> None:
        """Lone survivor: +2 per standing enemy hill, −1 to each owner not yet charged."""
        self.views.forget_picture()  # bonus hills count as razed in the end message
        players = self.remaining_players()
        if len(players) == 1:
            survivor = players[0]
            for hill in self.hills.values():
                if hill.owner == survivor:
                    continue
                if hill.killed_by is None:
                    self.bonus[survivor] += HILL_POINTS
                    hill.killed_by = survivor
                if not hill.raze_points:
                    self.bonus[hill.owner] += RAZE_POINTS
                    hill.raze_points = True
            for player in range(self.num_players):
                self.score[player] += self.bonus[player]
        self.calc_significant_turns()
        if self.cutoff is None:
            self.cutoff = "turn limit reached"

    # -- what each player is told ------------------------------------------------------
    def _update_vision(self) -> None:
        self.views.update(self.current_ants)

    def end_observation(self, player: int) -> Observation:
        """The `end` message: scores, statuses and turns in the player's numbering."""
        obs = self.views.render(self, player, self.turn)
        obs.end = True
        obs.scores = self.views.order_for_player(player, self.score)
        obs.statuses = self.views.order_for_player(player, self.bot_status)
        obs.playerturns = self.views.order_for_player(player, self.bot_turns)
        return obs
