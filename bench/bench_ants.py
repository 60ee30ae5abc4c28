"""Ants benchmarks: rules cost per turn, a whole game with 2011-style process bots, the
strength of `swarm` against `greedy`, and replay size against the 2011 format.

The official maps are the 2011 engine's own (tests/data/ants, unpacked by tests/testdata.py).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from original_engine import compared
from tempdirs import readable_tempdir
from testdata import ants_maps

MAPS = ants_maps()
HOLD_BOT = """import sys
for line in sys.stdin:
    if line.startswith(("ready", "go")):
        sys.stdout.write("go\\n")
        sys.stdout.flush()
    elif line.startswith("end"):
        break
"""


def _state(map_name: str, **options):
    from botarena.games.ants import INFO, new_state
    from botarena.games.ants.mapfile import load_map

    ants_map = load_map(str(MAPS / map_name))
    resolved = INFO.resolve_options({k: str(v) for k, v in options.items()})
    return new_state(1, resolved, ants_map, ants_map.players)


def rules_ms_per_turn(map_name: str, turns: int) -> float:
    """Rules alone, in-process, no orders (hold bots), every player's view rendered."""
    state = _state(map_name, turns=turns, cutoff_turn=100_000)
    started = time.perf_counter()
    while not state.is_over():
        for seat in state.to_act():
            state.observation(seat)
        state.apply({})
    return (time.perf_counter() - started) * 1000 / state.turn


def process_game_s(turns: int) -> float:
    """The 2011 speed test: maze_04p_01, 4 process bots sending no orders, no cutoff
    (best of two runs, in seconds)."""
    import botarena

    with readable_tempdir() as folder:
        bot = Path(folder) / "holdbot.py"
        bot.write_text(HOLD_BOT)
        spec = f"{sys.executable} {bot}"
        best = float("inf")
        for _ in range(2):  # the first run also pays for imports and cold caches
            started = time.perf_counter()
            result = botarena.play(
                "ants",
                [spec] * 4,
                seed=1,
                map=MAPS / "maze/maze_04p_01.map",
                turns=turns,
                cutoff_turn=100_000,
            )
            best = min(best, time.perf_counter() - started)
            assert result.turns == turns
    return best


def swarm_win_rate(maps: int, turns: int) -> tuple[float, int]:
    """Share of 2-player games on official maps that `swarm` wins against `greedy`
    (both seats on each map)."""
    import botarena

    two = sorted(p for p in MAPS.glob("*/*.map") if "\nplayers 2\n" in "\n" + p.read_text())
    step = max(1, len(two) // maps)
    wins = games = 0
    for index, path in enumerate(two[::step][:maps]):
        for seat in (0, 1):
            bots = ["builtin:ants/greedy"] * 2
            bots[seat] = "builtin:ants/swarm"
            result = botarena.play("ants", bots, seed=index, map=path, turns=turns)
            wins += result.scores[seat] > result.scores[1 - seat]
            games += 1
    return wins / games, games


def playable_maps(turns: int) -> int:
    """Official maps that start (symmetric food found) and play `turns` turns with a greedy
    bot in every seat."""
    import botarena
    from botarena.games.ants.mapfile import load_map

    playable = 0
    for path in sorted(MAPS.glob("*/*.map")):
        players = load_map(str(path)).players
        result = botarena.play(
            "ants", ["builtin:ants/greedy"] * players, seed=1, map=path, turns=turns
        )
        playable += result.turns == turns or result.end_reason != "turn limit reached"
    return playable


def replay_size_ratio(turns: int) -> float:
    """botarena replay / 2011-format replay of the same game, both gzipped."""
    import botarena
    from botarena.core.replay import load
    from botarena.games.ants.replay2011 import export_replay

    with readable_tempdir() as folder:
        path = Path(folder) / "game.replay.gz"
        botarena.play(
            "ants",
            [
                "builtin:ants/swarm",
                "builtin:ants/greedy",
                "builtin:ants/greedy",
                "builtin:ants/random",
            ],
            seed=7,
            map=MAPS / "maze/maze_04p_01.map",
            turns=turns,
            replay=path,
        )
        ours = path.stat().st_size
        theirs = len(gzip.compress(json.dumps(export_replay(load(path))).encode(), mtime=0))
    return ours / theirs


def engine_game_s(turns: int) -> float | None:
    """The same game under the 2011 engine, when $ANTS_PLAYGAME names its `playgame.py`
    (aichallenge/aichallenge, branch epsilon: it runs on Python 3); None when it is not set."""
    playgame = os.environ.get("ANTS_PLAYGAME")
    if not playgame:
        return None
    with readable_tempdir() as folder:
        bot = Path(folder) / "holdbot.py"
        bot.write_text(HOLD_BOT)
        command = [
            sys.executable,
            playgame,
            "--engine_seed",
            "1",
            "--player_seed",
            "1",
            "--turns",
            str(turns),
            "--cutoff_turn",
            "100000",
            "--nolaunch",
            "--log_dir",
            str(Path(folder) / "logs"),
            "--map_file",
            str(MAPS / "maze/maze_04p_01.map"),
            *[f"{sys.executable} {bot}"] * 4,
        ]
        started = time.perf_counter()
        subprocess.run(command, cwd=Path(playgame).parent, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - started


def side_by_side(turns: int) -> list[dict]:
    ours = process_game_s(turns)
    return [
        {
            "name": f"ants {turns} turns, maze_04p_01, 4 process hold bots",
            "value": ours,
            "unit": "s",
            "goal": f"<= {0.81 * turns / 500:.2f} (2011 engine: {8.1 * turns / 500:.1f})",
        },
        *compared(
            "ants",
            "2011 engine",
            "ANTS_PLAYGAME to its playgame.py",
            ours,
            engine_game_s(turns),
            "<= 0.1",
        ),
    ]


def run(quick: bool) -> list[dict]:
    turns = 100 if quick else 500
    rows = []
    for label, map_name in (
        ("2p", "maze/maze_02p_02.map"),
        ("4p", "maze/maze_04p_01.map"),
        ("8p", "maze/maze_p08_02.map"),
        ("largest 120x200 8p", "cell_maze/cell_maze_p08_04.map"),
    ):
        rows.append(
            {
                "name": f"ants rules per turn, {label} ({map_name.split('/')[1]})",
                "value": rules_ms_per_turn(map_name, turns),
                "unit": "ms",
                "goal": "<= 2 (4p)",
            }
        )
    rows += side_by_side(turns)
    rate, games = swarm_win_rate(4 if quick else 50, 300 if quick else 500)
    rows.append(
        {
            "name": f"ants swarm beats greedy, 2p official maps ({games} games)",
            "value": round(100 * rate, 1),
            "unit": "%",
            "goal": ">= 95",
        }
    )
    if not quick:
        rows.append(
            {
                "name": "ants official maps that start and play 10 turns (greedy bots)",
                "value": playable_maps(10),
                "unit": "maps",
                "goal": "302 of 302",
            }
        )
    rows.append(
        {
            "name": "ants replay size / 2011 replay (gzip, 4p)",
            "value": replay_size_ratio(200 if quick else 500),
            "unit": "x",
            "goal": "<= 2",
        }
    )
    return rows
