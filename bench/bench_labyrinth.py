"""Labyrinth benchmarks: whole in-process games, the rules alone re-playing recorded replies,
the strength of `cartographer` against `wallfollower` (both facing `warden`), and a game of
JavaScript posts as a whole command beside the original controller's time."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import botarena
import exchanges
from bench_startup import botarena_command, children_cpu_s
from original_engine import compared
from tempdirs import readable_tempdir

ROUNDS = 10
"""Rounds n = 3 ... 12."""

CONTROLLER_COMMIT = "012a96a74c651e483b26aa9ccb902a1ee8845692"
"""The commit of Beefster09/everchanging-labyrinth (its last) whose docs/engine.js the
side-by-side rows were measured with: set LABYRINTH_CONTROLLER to a checkout of it."""

POSTS_SEED = "x9"
"""The seed of the posts games."""

HERE = Path(__file__).resolve().parent


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


def best_run(command: list[str], runs: int = 5) -> tuple[float, float, str]:
    """The best wall time of `runs` whole runs of `command`, that run's CPU (the command and
    its children, user + system) and the last run's output."""
    best, output = (float("inf"), 0.0), ""
    for _ in range(runs):
        cpu, started = children_cpu_s(), time.perf_counter()
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        best = min(best, (time.perf_counter() - started, children_cpu_s() - cpu))
    return best[0], best[1], output


def posts_game(adventurers: Path, master: Path) -> tuple[float, float, tuple[int, int]]:
    """`botarena play labyrinth post:ADVENTURERS post:MAZE_MASTER --seed x9` as a user runs
    it: best wall time of 5, that run's CPU, the adventurers' score and the turns."""
    command = [
        *botarena_command(),
        "play",
        "labyrinth",
        f"post:{adventurers}",
        f"post:{master}",
        "--seed",
        POSTS_SEED,
        "--json",
    ]
    wall, cpu, output = best_run(command)
    played = json.loads(output)
    return wall, cpu, (played["players"][0]["score"], played["turns"])


def controller_game(engine: Path, adventurers: Path, master: Path) -> tuple[float, tuple[int, int]]:
    """The same game under the original controller (bench/labyrinth_controller.js loads
    its engine.js into Node): best wall time of 5, whole process, the score and the turns."""
    command = [
        "node",
        str(HERE / "labyrinth_controller.js"),
        str(engine),
        str(adventurers),
        str(master),
        POSTS_SEED,
    ]
    wall, _, output = best_run(command)
    played = json.loads(output)
    return wall, (played["score"], played["turns"])


def as_post(script: Path, role: str, folder: Path) -> Path:
    """A bot file of the controller's (plain JavaScript) as the post botarena reads."""
    post = folder / f"{script.stem}.md"
    post.write_text(f"# {role}: {script.stem}\n\n```js\n{script.read_text()}\n```\n")
    return post


def posts_rows() -> list[dict]:
    """Each posts game under botarena and, where LABYRINTH_CONTROLLER names a checkout of
    the original controller, the same game under it, side by side in this run."""
    posts = Path(botarena.__file__).parent / "games" / "labyrinth" / "posts"
    checkout = os.environ.get("LABYRINTH_CONTROLLER")
    engine = Path(checkout) / "docs" / "engine.js" if checkout else None
    rows: list[dict] = []
    with readable_tempdir() as name:
        games = [("wallfollower", posts / "wallfollower.md", posts / "static.md")]
        if engine is not None:
            hugger = Path(checkout or "") / "example-bots" / "wall-hugger.js"
            games.insert(
                0,
                (
                    "the controller's wall-hugger",
                    as_post(hugger, "Adventurers", Path(name)),
                    posts / "static.md",
                ),
            )
        for label, adventurers, master in games:
            wall, cpu, outcome = posts_game(adventurers, master)
            floor = exchanges.bare_pipes_game_s(
                "labyrinth", [f"post:{adventurers}", f"post:{master}"], {"seed": POSTS_SEED}, 5
            )
            title = f"labyrinth posts {label} vs static, --seed {POSTS_SEED}"
            rows += [
                {
                    "name": f"{title}, whole `botarena play`, best of 5",
                    "value": wall,
                    "unit": "s",
                    "goal": "",
                },
                {
                    "name": "  its CPU time: jury + both Node runners, user + system",
                    "value": cpu,
                    "unit": "s",
                    "goal": "",
                },
                {
                    "name": "  the floor of a process per post: the game's requests and answers"
                    " on bare pipes, the same runners, one core (bench/exchanges.py)",
                    "value": floor,
                    "unit": "s",
                    "goal": "",
                },
            ]
            theirs = None
            if engine is not None:
                theirs, their_outcome = controller_game(engine, adventurers, master)
                if their_outcome != outcome:
                    raise SystemExit(
                        f"{title}: (score, turns) {their_outcome} under the controller,"
                        f" {outcome} under botarena: not the same game"
                    )
            rows += compared(
                f"labyrinth {label} vs static",
                "original controller",
                f"LABYRINTH_CONTROLLER to a checkout of {CONTROLLER_COMMIT[:7]}",
                wall,
                theirs,
                "<= 2",
            )
            if theirs is not None:
                rows.append(
                    {
                        "name": f"labyrinth {label} vs static: that floor / original controller",
                        "value": floor / theirs,
                        "unit": "x",
                        "goal": "",
                    }
                )
    return rows


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
