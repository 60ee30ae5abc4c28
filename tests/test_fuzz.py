"""Fuzzing, bounded for CI: every game's reply parser and the replay, map, post and
Bookmaker readers, on mutated valid inputs drawn by hypothesis, never raise anything but
their documented refusal (tests/fuzzing.py; `python bench/run.py fuzz` runs 10^5 each)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import TARGETS, mutate, target


@pytest.mark.parametrize("name", sorted(TARGETS))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=st.randoms(use_true_random=False))
def test_mutated_inputs_end_in_the_documented_outcome(name: str, rng: random.Random) -> None:
    outcome = target(name).one(rng)
    assert outcome in {"invalid", "parsed", "applied", "ok", "differs", "unreadable"}


@given(rng=st.randoms(use_true_random=False), text=st.text(max_size=40))
def test_mutate_changes_its_input_and_stays_text(rng: random.Random, text: str) -> None:
    assert isinstance(mutate(text, rng, rounds=1), str)


def test_the_bookmaker_reader_refuses_a_list_as_a_command() -> None:
    """Found by fuzzing: a command that is a JSON list crashed with TypeError."""
    from botarena.core.rules import GameError
    from botarena.games.falldown.bookmaker import _game_from

    document = {
        "winner": -1,
        "replay": {
            "initial": [["0", "0", "U"], ["3", "3", "D"], ["6", "6", "L"], ["9", "9", "R"]],
            "commands": [["U"]],
        },
    }
    with pytest.raises(GameError, match=r"\"replay.commands\"\[0\] is \['U'\], not one of"):
        _game_from(document)
