"""A game that declares no clock gets the platform's default per-reply limit, so a bot that
never answers costs a game seconds, not forever; the kit plays such bots (#38)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

import botarena
from botarena.core.registry import get_game
from botarena.core.rules import DEFAULT_CLOCK, Clock
from botarena.testing import check_game
from kitgames import TALLY, installed

HANGS = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(3600)'"
CRASHES = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"


def test_the_default_clock_is_two_seconds_a_reply(tmp_path: Path) -> None:
    assert Clock(reply_s=2.0) == DEFAULT_CLOCK
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        state = get_game("tally").new_state(0, {"turns": 6}, None, 2)
        assert state.clock(0) == state.handshake_clock(1) == Clock(reply_s=2.0)


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("bot", "status", "waited_ms"), [(HANGS, "timeout", 2000), (CRASHES, "crashed", 0)]
)
def test_a_faulty_bot_in_a_game_without_a_clock_leaves_and_the_game_goes_on(
    tmp_path: Path, bot: str, status: str, waited_ms: float
) -> None:
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        result = botarena.play("tally", [bot, "builtin:tally/three", "builtin:tally/three"])
    faulty, *others = result.players
    assert (faulty.status, faulty.faults, faulty.score) == (status, 1, 0)
    # its wait is counted from the read of its reply on, its deadline from the step's start,
    # before every seat was sent its turn: 1.9 ms less under a loaded CI (core/match.py)
    assert waited_ms - 50 <= faulty.time_ms < waited_ms + 1000
    assert result.turns == 6  # the others play every turn: 3 each, the same number
    assert [player.score for player in others] == [18, 18]


def test_the_kit_refuses_a_game_whose_clock_never_ends_a_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        state_class = type(get_game("tally").new_state(0, {"turns": 6}, None, 2))
        monkeypatch.setattr(state_class, "clock", lambda self, seat: Clock())
        with pytest.raises(AssertionError, match="the first exchange with a bot has a time limit"):
            check_game("tally", seeds=range(1), pettingzoo=False)
