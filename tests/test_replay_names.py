"""Replay file names stay valid whatever the bots' and tournament's names (#25): a long
seats part (10 Ants bots of 24 characters; two seats of 116) is cut and ends in a hash of
the whole, and a tournament named like a path trick keeps its replays in its folder."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from botarena.tournament.runner import replay_path


def path_of(seats: list[str], name: str = "cup", game_id: int = 7) -> Path:
    tournament: Any = SimpleNamespace(replay_dir="/r", name=name)
    game: Any = SimpleNamespace(id=game_id, idx=0, seats=seats)
    return Path(replay_path(tournament, game))


def test_ten_ants_bots_of_24_characters() -> None:
    seats = [f"bot{i:02d}-" + "x" * 19 for i in range(10)]
    path = path_of(seats)
    assert len(path.name.encode()) <= 255
    assert path.name.startswith("000007-bot00-xxxxxxxxxxxxxxxxxxx-bot01-")
    assert path.name.endswith("-0.json.gz")
    assert path != path_of([*seats[:9], "other" + "y" * 19])  # the hash tells them apart


def test_two_seats_of_116_characters() -> None:
    path = path_of(["a" * 116, "b" * 116])
    assert len(path.name.encode()) <= 255 and path.parent == Path("/r/cup")


def test_short_names_are_kept_whole() -> None:
    assert path_of(["mine", "explorer"]).name == "000007-mine-explorer-0.json.gz"


def test_path_trick_tournament_names_stay_inside() -> None:
    for name in (".", "..", "../x", "a/../.."):
        path = path_of(["a", "b"], name=name)
        assert os.path.normpath(path).startswith("/r/") and ".." not in path.parts


@given(st.lists(st.text(min_size=1, max_size=300), min_size=1, max_size=12), st.text(max_size=300))
def test_any_names_give_a_valid_file_in_the_replay_folder(seats: list[str], name: str) -> None:
    path = path_of(seats, name=name)
    assert len(path.name.encode()) <= 255 and len(path.parent.name.encode()) <= 255
    assert path.parent.parent == Path("/r") and path.parent.name not in ("", ".", "..")
