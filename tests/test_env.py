"""The PettingZoo adapter passes PettingZoo's own API test and is reproducible."""

from __future__ import annotations

import warnings

from pettingzoo.test import api_test

import botarena


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
