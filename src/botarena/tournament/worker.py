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
    from botarena.core.registry import get_game

    return get_game(game).read_map(path)


def play_game(job: dict[str, Any]) -> dict[str, Any]:
    """Play `job` = {game, seats: [[label, spec, workdir]], seed, map, options, replay,
    and sandbox: false for a run told --no-sandbox; a contest's upload seated as
    `upload:ID` comes with its source in `builds` and this worker's `build_dir`};
    return {scores, ranks, statuses, faults, turns, end_reason, replay}, {error}, or {jury}
    for a game this worker cannot set up (given back unplayed). A contest upload's build
    comes the same way (`kind` arena-build: arena/pipeline.py)."""
    if job.get("kind") == "arena-build":
        from botarena.arena.pipeline import build_upload

        return build_upload(job)
    if job.get("builds"):
        from botarena.arena.pipeline import JuryFailure, ready

        try:
            seats = [
                [label, ready(job["builds"][spec], Path(job["build_dir"])), workdir]
                if spec in job["builds"]
                else [label, spec, workdir]
                for label, spec, workdir in job["seats"]
            ]
        except JuryFailure as exc:
            return {"jury": str(exc)}
        job = {**job, "seats": seats}
    from botarena.core.match import run_match
    from botarena.core.rules import GameError
    from botarena.core.setup import set_up
    from botarena.core.spec import BotSpecError

    try:
        setup = set_up(
            job["game"],
            [spec for _, spec, _ in job["seats"]],
            seed=job["seed"],
            options=job["options"],
            map=job.get("map") or None,
            names=[label for label, _, _ in job["seats"]],
            workdirs=[workdir for _, _, workdir in job["seats"]],
            read_map=functools.partial(_map, job["game"]),
            sandbox=job.get("sandbox", True),
        )
        result = run_match(
            setup.game,
            setup.players,
            seed=setup.seed,
            options=setup.options,
            map_data=setup.map_data,
            record=True,
            replay_path=job["replay"],
        )
    except (GameError, BotSpecError, OSError) as exc:
        return {"error": str(exc)}
    except Exception as exc:  # a bug must cost one game, not the tournament
        return {"error": f"{type(exc).__name__}: {exc}"}
    try:
        replay = _saved(result.document, Path(job["replay"]))
    except OSError as exc:  # no folder of this machine takes it: the jury's, not a bot's
        return {"jury": f"the replay could not be written: {exc}"}
    return {
        "scores": [p.score for p in result.players],
        "ranks": [p.rank for p in result.players],
        "statuses": [p.status for p in result.players],
        "faults": [p.faults for p in result.players],
        "turns": result.turns,
        "end_reason": result.end_reason,
        "replay": str(replay),
    }


def _saved(document: dict[str, Any], replay: Path) -> Path:
    """Write the replay at `replay`, else (its folder is the organiser's, on a machine this
    worker is not: it cannot be made here) in this worker's own `replays/` folder: the
    store keeps a copy either way, so no folder need be shared between machines."""
    from botarena.core.replay import save

    try:
        replay.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        replay = Path("replays").resolve() / replay.parent.name / replay.name
        replay.parent.mkdir(parents=True, exist_ok=True)
    partial = replay.with_name(f".{os.getpid()}.{replay.name}")
    save(document, partial)
    partial.replace(replay)
    return replay
