"""Falldown's built-in bots: `random` like the sample AI, `hunter` strong and never careless,
both also running as contest programs (`READY`, then one letter per state)."""

from __future__ import annotations

import shlex
import sys
from collections import Counter

import pytest

import botarena
from botarena.games.falldown.bots.hunter import HunterBot, Timers
from botarena.games.falldown.bots.random import RandomBot
from botarena.games.falldown.rules import Observation, new_state

RANDOM = "builtin:falldown/random"
HUNTER = "builtin:falldown/hunter"


class Idle:
    """Never does anything: only the hunter's own attacks can drop anybody."""

    def act(self, observation: object) -> str:
        return "N"


def test_random_draws_every_letter_evenly_and_reproducibly() -> None:
    bot = RandomBot()
    bot.setup(0, "7:0")
    state = new_state(0, {}, None, 4)
    letters = [bot.act(state.observation(0)) for _ in range(6000)]
    counts = Counter(letters)
    assert set(counts) == set("URDLAN")
    assert all(850 < count < 1150 for count in counts.values())
    again = RandomBot()
    again.setup(0, "7:0")
    assert [again.act(state.observation(0)) for _ in range(6000)] == letters


@pytest.mark.slow
def test_hunter_beats_three_randoms_in_at_least_44_of_48_seeded_games() -> None:
    """The hunter rotates through the seats. 44 of 48 (92 %) leaves room for sampling
    noise around the goal of 95 %; the 200-game figure is in bench/bench_falldown.py."""
    wins = 0
    for seed in range(48):
        bots = [RANDOM] * 4
        bots[seed % 4] = HUNTER
        result = botarena.play("falldown", bots, seed=seed)
        wins += result.scores[seed % 4] == 1
    assert wins >= 44


def test_hunter_drops_three_idle_players_and_never_falls_itself() -> None:
    for seed in range(12):
        bots: list[object] = [Idle(), Idle(), Idle(), Idle()]
        bots[seed % 4] = HUNTER
        result = botarena.play("falldown", bots, seed=seed)
        assert result.scores[seed % 4] == 1, f"seed {seed}: {result.to_dict()}"


def test_hunter_predicts_when_blocks_fall_and_stand_again() -> None:
    state = new_state(0, {"start": "0,0,R/17,0,L/7,7,U/17,17,L"}, None, 4)
    for command in ("N", "N", "A", "N"):
        state.apply({state.turn % 4: command})
    timers = Timers(state.observation(0))  # slot 4: row 1 of column 2 shows 2, row 0 6
    assert timers.falls[1 * 6 + 2] == 5 and timers.falls[0 * 6 + 2] == 9
    assert timers.enterable(1 * 6 + 2, 5) and not timers.enterable(1 * 6 + 2, 6)
    assert not timers.enterable(1 * 6 + 2, 24) and timers.enterable(1 * 6 + 2, 25)


def test_hunter_leaves_a_block_about_to_fall() -> None:
    """Player 0 stands in block (row 1, column 0), which falls at the end of slot 5; at slot
    4 the only way out in one step is down."""
    blocks = [0] * 36
    blocks[1 * 6 + 0] = 2
    players = ((1, 5, "U", 0), (17, 0, "L", 0), (0, 11, "U", 0), (17, 17, "L", 0))
    assert HunterBot(1).act(Observation(0, 4, tuple(blocks), players)) == "D"


def test_hunter_never_enters_a_block_it_could_not_leave_in_time() -> None:
    """Down from (1,8) is block (row 3, column 0), falling at the end of slot 7: one more
    own turn (slot 4) is not enough to cross it, so the hunter does not go there, although
    everything else is worse than standing still."""
    blocks = [0] * 36
    blocks[3 * 6 + 0] = 4
    players = ((1, 8, "D", 0), (17, 0, "L", 0), (9, 17, "U", 0), (17, 17, "L", 0))
    assert HunterBot(1).act(Observation(0, 0, tuple(blocks), players)) != "D"


def test_hunter_attacks_an_opponent_that_cannot_get_out() -> None:
    """Player 1 stands mid-block in the next block to the right: an attack drops it at the
    end of slot 3, and it has one turn to make the two steps it needs."""
    players = ((0, 4, "R", 0), (4, 4, "U", 0), (0, 17, "U", 0), (17, 17, "L", 0))
    assert HunterBot(1).act(Observation(0, 0, (0,) * 36, players)) == "A"


def test_built_in_bots_run_as_contest_programs() -> None:
    specs = [
        shlex.join([sys.executable, "-m", f"botarena.games.falldown.bots.{name}"])
        for name in ("hunter", "random", "random", "random")
    ]
    result = botarena.play("falldown", specs, seed=3, turns=60, reply_ms=5000, ready_ms=20000)
    assert [player.status for player in result.players] == ["ok"] * 4
    assert result.turns == 60 or 1.0 in result.scores
