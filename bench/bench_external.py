"""External referee: per-turn cost of connect4 with its referee in C (examples/connect4-c,
a process spoken to over pipes) beside the same game's Python rules (examples/connect4).

Two figures a game: the rules alone (a recorded game's moves re-applied to a fresh state,
the start of the state left out) and whole games of the built-in random bots as `play`
runs them (recorded, the referee's start included), both per turn. `python bench/run.py
external`; the figures are left out when either example is not installed.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

GAMES = ("connect4", "connect4c")


def _installed() -> bool:
    from botarena.core.entrypoints import entries

    return set(GAMES) <= set(entries())


def _moves(game: str, seed: int) -> list[str]:
    import botarena

    result = botarena._play(
        game,
        [f"builtin:{game}/random"] * 2,
        seed=seed,
        map=None,
        replay=None,
        options={},
        observe=lambda _: None,
    )
    return [act["reply"] for step in result.document["steps"] for act in step["acts"]]


def rules_us_per_turn(game: str, seeds: range) -> float:
    """Median over `seeds` of the time to show, parse and apply a game's moves, per move
    (µs)."""
    from botarena.core.registry import get_game

    rules = get_game(game)
    options = rules.info.resolve_options({})
    samples = []
    for seed in seeds:
        moves = _moves(game, seed)
        state = rules.new_state(seed, options, None, 2)
        started = time.perf_counter()
        for move in moves:  # as the match does: observation, reply parsed, applied
            (seat,) = state.to_act()
            observation = state.observation(seat)
            state.apply({seat: rules.protocol.parse([move], observation)})
        samples.append((time.perf_counter() - started) / len(moves) * 1e6)
    return statistics.median(samples)


def game_us_per_turn(game: str, seeds: range) -> float:
    """Whole recorded games of two random bots, their time over all their turns (µs)."""
    import botarena

    turns, started = 0, time.perf_counter()
    for seed in seeds:
        result = botarena._play(
            game,
            [f"builtin:{game}/random"] * 2,
            seed=seed,
            map=None,
            replay=None,
            options={},
            observe=lambda _: None,
        )
        turns += result.turns
    return (time.perf_counter() - started) / turns * 1e6


def run(quick: bool) -> list[dict[str, Any]]:
    if not _installed():
        return []
    seeds = range(20 if quick else 200)
    rows = []
    for game in GAMES:
        rows.append(
            {
                "name": f"{game}: rules, per turn",
                "value": rules_us_per_turn(game, seeds),
                "unit": "µs",
                "goal": "<= 200" if game == "connect4c" else "",
            }
        )
        rows.append(
            {
                "name": f"{game}: whole recorded game, per turn",
                "value": game_us_per_turn(game, seeds),
                "unit": "µs",
                "goal": "<= 1000" if game == "connect4c" else "",
            }
        )
    return rows
