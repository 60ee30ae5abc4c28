"""Every installed game keeps the plug-in contract (`botarena.testing.check_game`), and the
kit catches a game that breaks it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from botarena.core.registry import available, get_game
from botarena.testing import check_game
from kitgames import TALLY, installed

SHORT: dict[str, dict[str, Any]] = {
    "amazes": {"turns": 20},
    "falldown": {"turns": 40},
    "ants": {"turns": 5},
    "labyrinth": {"max_rounds": 2, "cpu_limits": 0},  # CPU strikes depend on the machine
}
"""Options that keep each game short here; other games are checked as they come."""


@pytest.mark.slow  # seconds a game: the faulty bots wait out each game's first time limit
@pytest.mark.parametrize("name", available())
def test_every_installed_game_keeps_the_contract(name: str) -> None:
    check_game(name, seeds=range(3), options=SHORT.get(name, {}))


def test_a_clone_that_shares_state_with_its_original_is_caught(monkeypatch) -> None:
    """A State whose clone() forgets the moves played breaks "a clone plays as the
    original"."""
    game = get_game("falldown")
    options = game.info.resolve_options({"turns": 5})
    state_class = type(game.new_state(0, options, None, 4))
    monkeypatch.setattr(state_class, "clone", lambda self: game.new_state(0, options, None, 4))
    with pytest.raises(AssertionError, match="a clone plays as the original"):
        check_game("falldown", seeds=range(1), options={"turns": 5}, pettingzoo=False)


@pytest.mark.slow  # its bot that never answers waits out the default clock (2 s)
def test_a_simultaneous_game_whose_scores_move_every_turn_keeps_the_contract(
    tmp_path: Path,
) -> None:
    """The kit checks a game of a new author's kind: simultaneous, 2 to 4 players, scores
    moving every turn (its PettingZoo `api_test` at 2 and 4 seats among the rest)."""
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        check_game("tally", seeds=range(2))
