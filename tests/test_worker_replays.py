"""Where a worker writes a game's replay: the tournament's folder, else (a folder of the
organiser's machine, which cannot be made on this one) the worker's own `replays/`; a replay
no folder takes is a jury failure, given back, never charged to a bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from botarena.core.replay import load
from botarena.tournament.worker import play_game


def _job(replay: Path) -> dict[str, Any]:
    return {
        "game": "amazes",
        "seats": [
            ["a", "builtin:amazes/random", None],
            ["b", "builtin:amazes/random", None],
        ],
        "seed": 7,
        "map": None,
        "options": {},
        "replay": str(replay),
        "sandbox": False,
    }


def test_the_replay_goes_to_the_tournaments_folder(tmp_path: Path) -> None:
    wanted = tmp_path / "replays" / "cup" / "000001-a-b-0.json.gz"
    result = play_game(_job(wanted))
    assert result["replay"] == str(wanted)
    assert _bots_and_turns(wanted) == (["a", "b"], result["turns"])


def test_a_folder_this_machine_cannot_make_falls_back_to_the_workers_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    organisers = tmp_path / "organiser"
    organisers.write_text("a file where the organiser's folder would be\n")
    worker = tmp_path / "worker"
    worker.mkdir()
    monkeypatch.chdir(worker)
    result = play_game(_job(organisers / "cup" / "000001-a-b-0.json.gz"))
    moved = worker / "replays" / "cup" / "000001-a-b-0.json.gz"
    assert result["replay"] == str(moved)
    assert _bots_and_turns(moved) == (["a", "b"], result["turns"])
    assert sorted(p.name for p in moved.parent.iterdir()) == [moved.name]  # no partial file


def test_a_replay_no_folder_takes_is_a_jury_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "organiser").write_text("not a folder\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "replays").write_text("not a folder either\n")
    result = play_game(_job(tmp_path / "organiser" / "cup" / "g.json.gz"))
    assert set(result) == {"jury"}
    assert result["jury"].startswith("the replay could not be written: ")


def _bots_and_turns(path: Path) -> tuple[list[str], int]:
    """The seats' names and the turns the replay file at `path` records."""
    found = load(path)["result"]
    return [player["bot"] for player in found["players"]], found["turns"]
