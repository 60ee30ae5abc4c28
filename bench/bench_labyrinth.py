"""Labyrinth benchmarks: whole in-process games, the rules alone re-playing recorded replies,
the strength of `cartographer` against `wallfollower` (both facing `warden`), and a game of
JavaScript posts as a whole command beside the original controller's time."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from bench_startup import botarena_command, children_cpu_s

ROUNDS = 10
"""Rounds n = 3 ... 12."""

ORIGINAL_POSTS_GAME_S = 0.50
"""The original controller (Beefster09/everchanging-labyrinth 012a96a under Node 20, its bots
in-process) playing a wall follower against a static depth-first maze, 10 435 turns, whole
process: measured on this machine type for issue 11 ("The repository stands on its own,
starts fast, and beats the original engines end to end"). The controller is not installable
here, so its time is recorded, not re-measured."""

POSTS_SEED = "x9"
"""The seed of the posts game issue 11 measured (wallfollower vs static: 9 552 turns)."""


class Recording:
    """Wraps an in-process bot and keeps every answer it gives, in order."""

    def __init__(self, bot: Any, answers: list[Any]) -> None:
        self.bot, self.answers = bot, answers

    def setup(self, seat: int, seed: str) -> None:
        self.bot.setup(seat, seed)

    def act(self, call: Any) -> Any:
        answer = self.bot.act(call)
        self.answers.append(answer)
        return answer


def whole_games(seeds: list[str]) -> tuple[float, list[list[Any]], int]:
    """Cartographer against warden in-process for rounds n = 3..12: turns a second, the
    answers given (for the rules-alone figure) and the turns played."""
    import botarena
    from botarena.games.labyrinth.bots.cartographer import Cartographer
    from botarena.games.labyrinth.bots.warden import Warden

    recordings, turns, spent = [], 0, 0.0
    for seed in seeds:
        answers: list[Any] = []
        bots = [Recording(Cartographer(), answers), Recording(Warden(), answers)]
        started = time.perf_counter()
        result = botarena.play("labyrinth", bots, seed=seed, max_rounds=ROUNDS)
        spent += time.perf_counter() - started
        turns += result.turns
        recordings.append(answers)
    return turns / spent, recordings, turns


def rules_alone(seeds: list[str], recordings: list[list[Any]], observe: bool) -> float:
    """Turns a second re-playing recorded answers through the state, with (or without)
    building every call's arguments (the visions, the maze master's view)."""
    from botarena.games.labyrinth.rules import LabyrinthState

    best = 0.0
    for _ in range(3):
        turns, started = 0, time.perf_counter()
        for seed, answers in zip(seeds, recordings, strict=True):
            state = LabyrinthState(seed, max_rounds=ROUNDS)
            replies = iter(answers)
            while not state.is_over():
                seat = state.to_act()[0]
                if observe:
                    state.observation(seat)
                state.apply({seat: next(replies)})
            turns += state.total_turns
        best = max(best, turns / (time.perf_counter() - started))
    return best


def average_score(adventurers: str, seeds: list[str]) -> float:
    """The adventurers' average game score against `warden` (default options)."""
    import botarena

    scores = [
        botarena.play(
            "labyrinth", [f"builtin:labyrinth/{adventurers}", "builtin:labyrinth/warden"], seed=seed
        ).scores[0]
        for seed in seeds
    ]
    return sum(scores) / len(scores)


def posts_game() -> tuple[float, float]:
    """`botarena play labyrinth post:wallfollower.md post:static.md --seed x9` as a user
    runs it: the best wall time of 5 whole runs and that run's CPU (jury and both Node
    runners, user + system)."""
    import botarena

    posts = Path(botarena.__file__).parent / "games" / "labyrinth" / "posts"
    command = [
        *botarena_command(),
        "play",
        "labyrinth",
        f"post:{posts / 'wallfollower.md'}",
        f"post:{posts / 'static.md'}",
        "--seed",
        POSTS_SEED,
    ]
    best = (float("inf"), 0.0)
    for _ in range(5):
        cpu, started = children_cpu_s(), time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best = min(best, (time.perf_counter() - started, children_cpu_s() - cpu))
    return best


def posts_rows() -> list[dict]:
    wall, cpu = posts_game()
    goal = 4 * ORIGINAL_POSTS_GAME_S
    return [
        {
            "name": f"labyrinth posts wallfollower vs static, --seed {POSTS_SEED} (9 552 turns),"
            " whole `botarena play`, best of 5",
            "value": wall,
            "unit": "s",
            "goal": f"<= {goal:.1f}",
        },
        {
            "name": "  its CPU time: jury + both Node runners, user + system",
            "value": cpu,
            "unit": "s",
            "goal": "",
        },
        {
            "name": "labyrinth original controller, wall follower vs static DFS maze (10 435"
            " turns), recorded for issue 11",
            "value": ORIGINAL_POSTS_GAME_S,
            "unit": "s",
            "goal": "",
        },
        {
            "name": "labyrinth posts game / original controller's game",
            "value": wall / ORIGINAL_POSTS_GAME_S,
            "unit": "x",
            "goal": "<= 4",
        },
    ]


def run(quick: bool) -> list[dict]:
    seeds = [f"bench{i}" for i in range(3 if quick else 10)]
    rate, recordings, turns = whole_games(seeds)
    rows = [
        {
            "name": f"labyrinth in-process cartographer vs warden, n = 3..12 ({turns} turns)",
            "value": rate,
            "unit": "turns/s",
            "goal": "",
        },
        {
            "name": "labyrinth rules alone, recorded replies, with every call's arguments",
            "value": rules_alone(seeds, recordings, True),
            "unit": "turns/s",
            "goal": ">= 20000",
        },
        {
            "name": "labyrinth rules alone, recorded replies, apply only",
            "value": rules_alone(seeds, recordings, False),
            "unit": "turns/s",
            "goal": ">= 20000",
        },
    ]
    strength_seeds = [f"strength{i}" for i in range(3 if quick else 12)]
    for name in ("cartographer", "wallfollower"):
        rows.append(
            {
                "name": f"labyrinth {name} vs warden, average adventurer score"
                f" ({len(strength_seeds)} games)",
                "value": average_score(name, strength_seeds),
                "unit": "points",
                "goal": "cartographer > wallfollower",
            }
        )
    return rows + posts_rows()
