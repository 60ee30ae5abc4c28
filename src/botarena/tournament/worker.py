"""One tournament game played where an executor runs it: a plain job in, a plain result out.

Jobs and results are dicts of plain values so any executor can carry them (a local process
pool now, a cluster later). The replay is written under a temporary name and renamed, so a
replay file is either whole or absent; the store records its path only with the result.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any


@functools.lru_cache(maxsize=64)
def _map(game: str, path: str) -> Any:
    from botarena.games import get_game

    return get_game(game).read_map(path)


def play_game(job: dict[str, Any]) -> dict[str, Any]:
    """Play `job` = {game, seats: [[label, spec, workdir]], seed, map, options, replay};
    return {scores, ranks, statuses, faults, turns, end_reason, replay} or {error}."""
    from botarena import sandbox_limits
    from botarena.core.match import run_match
    from botarena.core.player import ProcessPlayer
    from botarena.core.replay import save
    from botarena.core.rules import GameError
    from botarena.core.spec import BotSpecError, make_player
    from botarena.games import get_game

    try:
        rules = get_game(job["game"])
        options = dict(job["options"])
        limits = sandbox_limits(True, options)  # takes the jury's `memory` out of them
        players = []
        for label, spec, workdir in job["seats"]:
            player = make_player(rules, spec)
            player.name = label
            if isinstance(player, ProcessPlayer):
                player.sandbox = limits
                if workdir:
                    player.cwd = workdir
            players.append(player)
        options = rules.info.resolve_options(options)
        map_data = _map(job["game"], job["map"]) if job.get("map") else None
        result = run_match(
            rules,
            players,
            seed=job["seed"],
            options=options,
            map_data=map_data,
            record=True,
            replay_path=job["replay"],
        )
    except (GameError, BotSpecError, OSError) as exc:
        return {"error": str(exc)}
    except Exception as exc:  # a bug must cost one game, not the tournament
        return {"error": f"{type(exc).__name__}: {exc}"}
    replay = Path(job["replay"])
    replay.parent.mkdir(parents=True, exist_ok=True)
    partial = replay.with_name(f".{os.getpid()}.{replay.name}")
    save(result.document, partial)
    partial.replace(replay)
    return {
        "scores": [p.score for p in result.players],
        "ranks": [p.rank for p in result.players],
        "statuses": [p.status for p in result.players],
        "faults": [p.faults for p in result.players],
        "turns": result.turns,
        "end_reason": result.end_reason,
        "replay": str(replay),
    }
