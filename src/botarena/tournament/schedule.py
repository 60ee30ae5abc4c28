"""Which games a tournament plays: round robin with seat rotations, swiss rounds, role pairings.

A schedule hands out games one round at a time (`next_round`), given the bots and the games
already scheduled and finished, so a schedule that decides as results come in (swiss, or a
later adaptive one that stops when the ranks are settled) fits the same runner. A round-robin
or roles schedule gives everything in its first round; given again after a bot was added or
updated, it gives only the games that are missing, which are the ones involving that bot.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from botarena.tournament.records import GameRecord

SCHEDULES = ("round-robin", "swiss", "roles", "adaptive", "ladder")
"""`ladder` never schedules ahead: tournament/ladder.py chooses each game when a worker asks."""


@dataclass(frozen=True)
class Entrant:
    """A bot as schedules see it: its label (name, plus `@vN` once updated) and its role."""

    label: str
    role: str | None = None


@dataclass(frozen=True)
class PlannedGame:
    """One game to play: the seats' bot labels in seat order, its index within the pairing,
    its seed and map, and its round."""

    seats: tuple[str, ...]
    index: int
    seed: int
    map: str | None = None
    round: int = 1

    @property
    def pairing(self) -> str:
        return "-".join(self.seats)

    def key(self, tournament: str) -> str:
        """The stable key: tournament, pairing, index, seed."""
        return f"{tournament}/{self.pairing}/{self.index}/{self.seed}"


@dataclass(frozen=True)
class Plan:
    """What a tournament was created with; all a schedule needs besides the bots."""

    seed: int
    seats: int
    games_per_pair: int = 1
    maps: tuple[str, ...] = ()
    rounds: int = 0
    role_names: tuple[str, ...] = field(default=())
    game: str = ""
    top: int = 5
    confidence: float = 0.95
    max_rounds: int = 100
    """The adaptive schedule's: settle the top `top` with `confidence`, within `max_rounds`."""


def plan_from(plan: dict[str, Any], game: str) -> Plan:
    """The `Plan` a tournament was created with, from its stored form."""
    return Plan(
        seed=plan["seed"],
        seats=plan["seats"],
        games_per_pair=plan["games_per_pair"],
        maps=tuple(plan["maps"]),
        rounds=plan["rounds"],
        role_names=tuple(plan["role_names"]),
        game=game,
        top=plan.get("top", 5),
        confidence=plan.get("confidence", 0.95),
        max_rounds=plan.get("max_rounds", 100),
    )


def game_seed(tournament_seed: int, bots: Sequence[str], index: int) -> int:
    """The seed of the index-th game among these bots, whatever their seats: the games of a
    pairing with the seats swapped or rotated are played on the same seeds, as a fair
    double round robin does."""
    text = f"{tournament_seed}|{'|'.join(sorted(bots))}|{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 1


def _games_for(
    plan: Plan,
    seatings: Sequence[tuple[str, ...]],
    group: Sequence[str],
    round_: int = 1,
    first_index: int = 0,
) -> list[PlannedGame]:
    """N games per seating, seeded by the group of bots and the index (maps: `spread_maps`)."""
    games = []
    for seats in seatings:
        for index in range(first_index, first_index + plan.games_per_pair):
            games.append(
                PlannedGame(seats, index, game_seed(plan.seed, group, index), None, round_)
            )
    return games


def spread_maps(
    plan: Plan, games: Sequence[PlannedGame], scheduled: Sequence[PlannedGame]
) -> list[PlannedGame]:
    """`games` with their maps, spread over games rather than pairings (#22). A set of games
    (a group of bots and an index, in every seating) shares one map, as it shares its seed,
    so each bot meets that map in every seat. Sets are handed out index by index, each to a
    map played least overall (so maps are played equally often, within one set), among those
    to the one its bots have played least; then, for schedules of a few hundred sets, swaps
    of two sets' maps that even out every bot's counts. Counts start from `scheduled`."""
    if not plan.maps:
        return list(games)
    played = dict.fromkeys((tuple(sorted(g.seats)), g.index, g.round, g.map) for g in scheduled)
    overall: Counter[str] = Counter(map_ for *_, map_ in played if map_)
    by_bot: Counter[tuple[str, str]] = Counter(
        (bot, map_) for group, _, _, map_ in played if map_ for bot in group
    )
    units = sorted(dict.fromkeys((tuple(sorted(g.seats)), g.index) for g in games), key=_index)
    order = {name: position for position, name in enumerate(plan.maps)}
    chosen: dict[tuple[tuple[str, ...], int], str] = {}
    for group, index in units:
        least = min(overall[m] for m in plan.maps)
        chosen[group, index] = min(
            (m for m in plan.maps if overall[m] == least),
            key=lambda m: (sum(by_bot[bot, m] for bot in group), order[m]),
        )
        overall[chosen[group, index]] += 1
        by_bot.update((bot, chosen[group, index]) for bot in group)
    if len(units) <= SWAP_LIMIT:
        _even_out(units, chosen, by_bot)
    return [replace(g, map=chosen[tuple(sorted(g.seats)), g.index]) for g in games]


SWAP_LIMIT = 300
"""Sets of games up to which `spread_maps` looks for swaps (quadratic in the sets)."""


def _index(unit: tuple[tuple[str, ...], int]) -> int:
    return unit[1]


def _even_out(
    units: list[tuple[tuple[str, ...], int]],
    chosen: dict[tuple[tuple[str, ...], int], str],
    by_bot: Counter[tuple[str, str]],
) -> None:
    """Swap the maps of two sets while that lowers the sum of squares of every bot's count
    per map (overall counts do not change): a few passes, first improvement taken."""

    def change(u: tuple[tuple[str, ...], int], v: tuple[tuple[str, ...], int]) -> int:
        a, b = chosen[u], chosen[v]
        moves: Counter[tuple[str, str]] = Counter()
        for bot in u[0]:
            moves[bot, a] -= 1
            moves[bot, b] += 1
        for bot in v[0]:
            moves[bot, b] -= 1
            moves[bot, a] += 1
        return sum((by_bot[key] + d) ** 2 - by_bot[key] ** 2 for key, d in moves.items() if d)

    for _ in range(3):
        improved = False
        for i, u in enumerate(units):
            for v in units[i + 1 :]:
                if chosen[u] != chosen[v] and change(u, v) < 0:
                    a, b = chosen[u], chosen[v]
                    by_bot.subtract((bot, a) for bot in u[0])
                    by_bot.update((bot, b) for bot in u[0])
                    by_bot.subtract((bot, b) for bot in v[0])
                    by_bot.update((bot, a) for bot in v[0])
                    chosen[u], chosen[v] = b, a
                    improved = True
        if not improved:
            return


def round_robin(plan: Plan, entrants: Sequence[Entrant], round_: int = 1) -> list[PlannedGame]:
    """Every combination of `plan.seats` bots, in each of its rotations (so each bot sits in
    every seat once per combination), `games_per_pair` times: with 2 seats, every ordered
    pair. Every bot meets every other equally often and sits in every seat equally often."""
    labels = sorted(e.label for e in entrants)
    games = []
    for group in itertools.combinations(labels, plan.seats):
        rotations = [group[r:] + group[:r] for r in range(len(group))]
        games += _games_for(plan, rotations, group, round_, (round_ - 1) * plan.games_per_pair)
    return games


def roles(plan: Plan, entrants: Sequence[Entrant], round_: int = 1) -> list[PlannedGame]:
    """Every bot of the first role against every bot of the second (seat 0 is the first
    role, as the game's seats are), `games_per_pair` times each."""
    first, second = plan.role_names
    games = []
    for a in sorted(e.label for e in entrants if e.role == first):
        for b in sorted(e.label for e in entrants if e.role == second):
            games += _games_for(plan, [(a, b)], (a, b), round_, (round_ - 1) * plan.games_per_pair)
    return games


def swiss_round(
    plan: Plan,
    entrants: Sequence[Entrant],
    finished: Sequence[GameRecord],
    played: Sequence[tuple[str, ...]],
    round_: int,
) -> list[PlannedGame]:
    """One swiss round of 2-seat games: bots sorted by points (win 1, draw ½, from the
    rules' places), each paired with the nearest-ranked bot it has not met; the seats go
    to the bot that sat first less often (colours balanced). An odd bot out sits the round
    out (the lowest-ranked one that has not yet)."""
    labels = sorted(e.label for e in entrants)
    points = dict.fromkeys(labels, 0.0)
    for record in finished:
        if len(record.bots) != 2:
            continue
        for bot, rank, other in zip(record.bots, record.ranks, reversed(record.ranks), strict=True):
            if bot in points:
                points[bot] += 1.0 if rank < other else 0.5 if rank == other else 0.0
    met = {frozenset(seats) for seats in played}
    firsts = {label: sum(seats[0] == label for seats in played) for label in labels}
    byes = {label: sum(label not in s for s in played) for label in labels}
    order = sorted(labels, key=lambda b: (-points[b], b))
    if len(order) % 2:
        sitter = min(reversed(order), key=lambda b: byes[b])
        order.remove(sitter)
    pairs = _pair(order, met) or _pair(order, set())
    meetings = Counter(frozenset(seats) for seats in played)
    games = []
    for a, b in pairs or []:
        seats = (a, b) if (firsts[a], a) <= (firsts[b], b) else (b, a)
        # a rematch (once every pairing was played) goes on from the pair's games so far:
        # keys and seeds of its own, not a repeat of the first meeting's
        games += _games_for(plan, [seats], seats, round_, meetings[frozenset(seats)])
    return games


def _pair(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """Pair the top bot with the nearest one it has not met, backtracking when the rest
    cannot be paired; None when no pairing avoids a repeat."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((top, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(top, other), *tail]
    return None


def next_round(
    kind: str,
    plan: Plan,
    entrants: Sequence[Entrant],
    scheduled: Sequence[PlannedGame],
    finished: Sequence[GameRecord],
) -> list[PlannedGame]:
    """The games to add now (none: the schedule is complete). Called when every scheduled
    game is finished, and after a bot is added or updated."""
    return spread_maps(plan, _next_games(kind, plan, entrants, scheduled, finished), scheduled)


def _next_games(
    kind: str,
    plan: Plan,
    entrants: Sequence[Entrant],
    scheduled: Sequence[PlannedGame],
    finished: Sequence[GameRecord],
) -> list[PlannedGame]:
    if kind == "swiss":
        round_ = max((g.round for g in scheduled), default=0) + 1
        if round_ > plan.rounds:
            return []
        live = {e.label for e in entrants}
        played = [g.seats for g in scheduled if set(g.seats) <= live]
        return swiss_round(plan, entrants, finished, played, round_)
    if kind == "adaptive":
        return adaptive_round(plan, entrants, scheduled, finished)
    if kind == "ladder":
        return []
    wanted = roles(plan, entrants) if kind == "roles" else round_robin(plan, entrants)
    have = {(g.seats, g.index) for g in scheduled}
    return [g for g in wanted if (g.seats, g.index) not in have]


def adaptive_round(
    plan: Plan,
    entrants: Sequence[Entrant],
    scheduled: Sequence[PlannedGame],
    finished: Sequence[GameRecord],
) -> list[PlannedGame]:
    """The adaptive schedule (tournament/adaptive.py): the games missing from the rounds so
    far (a bot was added or updated), else, unless the top is settled or the maximum of
    rounds is reached, the next whole round of the base schedule."""
    from botarena.tournament import adaptive

    def base(round_: int) -> list[PlannedGame]:
        return (
            roles(plan, entrants, round_)
            if plan.role_names
            else round_robin(plan, entrants, round_)
        )

    current = max((g.round for g in scheduled), default=0)
    have = {(g.seats, g.index) for g in scheduled}
    missing = [g for r in range(1, current + 1) for g in base(r) if (g.seats, g.index) not in have]
    if missing or current >= plan.max_rounds:
        return missing
    if current:
        roles_of = {e.label: e.role for e in entrants}
        decisions = adaptive.decide(
            plan.game,
            list(roles_of),
            roles_of,
            finished,
            plan.games_per_pair,
            plan.top,
            plan.confidence,
        )
        if adaptive.settled(decisions):
            return []
    return base(current + 1)


def total_games(kind: str, plan: Plan, entrants: Sequence[Entrant]) -> int | None:
    """How many games the whole schedule plays, if known before it starts."""
    if kind == "swiss":
        return plan.rounds * (len(entrants) // 2) * plan.games_per_pair
    if kind in ("adaptive", "ladder"):
        return None
    wanted = roles(plan, entrants) if kind == "roles" else round_robin(plan, entrants)
    return len(wanted)
