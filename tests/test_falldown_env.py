"""Falldown through the research interfaces: the PettingZoo adapter and reproducible seeds."""

from __future__ import annotations

import warnings
from pathlib import Path

from pettingzoo.test import api_test

import botarena


def test_the_pettingzoo_adapter_passes_the_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(botarena.make("falldown", seed=3, turns=200), num_cycles=300)


def test_one_seed_gives_one_game(tmp_path: Path) -> None:
    bots = ["builtin:falldown/hunter"] + ["builtin:falldown/random"] * 3
    games = []
    for name in ("first.json", "second.json"):
        result = botarena.play("falldown", bots, seed=11, replay=tmp_path / name)
        document = botarena.load_replay(tmp_path / name)
        games.append(
            (
                result.scores,
                result.turns,
                document["header"],
                [
                    (step["frame"], [act["reply"] for act in step["acts"]])
                    for step in document["steps"]
                ],
            )
        )
    assert games[0] == games[1]


def test_a_state_for_research_plays_to_the_end() -> None:
    state = botarena.new_state("falldown", seed=4, turns=40)
    while not state.is_over():
        state.apply({seat: "N" for seat in state.to_act()})
    assert state.step_count == 40 and state.outcome().end_reason == "turns"
