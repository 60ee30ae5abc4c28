"""The PettingZoo adapter passes PettingZoo's own API test and is reproducible."""

from __future__ import annotations

import warnings
from pathlib import Path

from pettingzoo.test import api_test

import botarena
from kitgames import TALLY, installed


def test_amazes_passes_the_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(botarena.make("amazes", seed=1), num_cycles=400)


def test_the_env_plays_the_rules_game() -> None:
    env = botarena.make("amazes", seed=4, turns=2)
    env.reset()
    observation, *_ = env.last()
    assert observation["text"].startswith("Start\n")
    state = botarena.new_state("amazes", seed=4, turns=2)
    assert observation["text"] == botarena.games.get_game("amazes").protocol.encode(
        state.observation(0)
    )
    moves = 0
    for _agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else "T")
        moves += 1
    assert moves == 4 + 2  # two turns each, then each agent is stepped out once
    state.apply({0: "T"})
    state.apply({1: "T"})
    state.apply({0: "T"})
    state.apply({1: "T"})
    assert state.is_over()


def test_an_illegal_action_is_the_rules_fault() -> None:
    env = botarena.make("amazes", seed=4)
    env.reset()
    env.step("X")
    assert "illegal character" in env.infos["red"]["fault"]
    assert env.state.faults[0] is not None


def test_a_simultaneous_game_whose_scores_move_every_turn_passes_the_api_test(
    tmp_path: Path,
) -> None:
    """While a simultaneous turn collects its actions one by one, the previous turn's
    rewards are not left in place (PettingZoo's `last()` would count them again)."""
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        for seats in (2, 3):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                api_test(botarena.make("tally", seed=1, seats=seats, turns=30), num_cycles=100)


def test_rewards_are_paid_once_when_the_turn_is_applied(tmp_path: Path) -> None:
    with installed(tmp_path, "tallygame", TALLY, "tally = tallygame"):
        env = botarena.make("tally", seed=1, turns=2)
        env.reset()
        env.step("3")  # a collects: nothing is applied yet
        assert env.rewards == {"a": 0, "b": 0}
        env.step("1")  # b's answer completes the turn: a scores 3 alone, b 1 alone
        assert env.rewards == {"a": 6, "b": 2}
        assert env.last()[1] == 6  # a's accumulated reward, seen when a acts again
        env.step("2")
        assert env.rewards == {"a": 0, "b": 0}
        assert env.last()[1] == 2  # b's reward of the applied turn, seen once
