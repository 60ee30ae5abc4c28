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
    check_game(name, seeds=range(2), options=SHORT.get(name, {}))  # 3 cost 40 s of CI


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


STARTERS = {
    "starters/__init__.py": "",
    "starters/bot.py": "import sys\nfor line in sys.stdin:\n    print(2, flush=True)\n",
    "starters/bot.cpp": "int main() { return 0 }\n",
}
"""A Python starter that plays, and a C++ one that does not build."""


@pytest.mark.slow
def test_a_starter_that_does_not_build_is_caught(tmp_path: Path) -> None:
    tally = {**TALLY, **STARTERS}
    with (
        installed(tmp_path, "tallygame", tally, "tally = tallygame"),
        pytest.raises(AssertionError) as caught,
    ):
        check_game("tally", seeds=range(1), pettingzoo=False)
    first = str(caught.value).splitlines()[0]
    assert first == "tally, seed 0, 2 seats, starter bot.cpp in seat 0: broken promise: it builds"


@pytest.mark.slow
def test_a_starter_that_plays_badly_is_caught(tmp_path: Path) -> None:
    answers_four = {
        "starters/bot.py": "import sys\nfor line in sys.stdin:\n    print(4, flush=True)\n"
    }
    with (
        installed(tmp_path, "tallygame", {**TALLY, **answers_four}, "tally = tallygame"),
        pytest.raises(
            AssertionError,
            match=r"starter bot.py in seat 0: broken promise: it plays a game without a fault"
            r" \(invalid;",
        ),
    ):
        check_game("tally", seeds=range(1), pettingzoo=False)
