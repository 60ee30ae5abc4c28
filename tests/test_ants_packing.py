"""Ants replies in the replay: one letter per own ant, as the 2011 replay stores moves."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import botarena
from botarena.core.replay import load, verify
from botarena.games.ants.protocol import PROTOCOL
from botarena.games.ants.rules import Observation, Params
from testdata import ants_maps

PARAMS = Params(
    rows=20,
    cols=20,
    players=2,
    turns=10,
    loadtime=3000,
    turntime=500,
    viewradius2=77,
    attackradius2=5,
    spawnradius2=1,
    player_seed=1,
)
# own ants (owner 0) at (1, 2), (3, 4), (5, 6); an enemy at (2, 2)
TOLD = Observation(turn=3, params=PARAMS, ants=[(1, 2, 0), (2, 2, 1), (3, 4, 0), (5, 6, 0)])


@pytest.mark.parametrize(
    ("text", "packed"),
    [
        ("go", ""),
        ("o 1 2 n\no 5 6 w\ngo", "n-w"),
        ("o 3 4 e\ngo", "-e"),
        ("o 5 6 s\no 1 2 e\ngo", "e-s/2,0"),
    ],
)
def test_orders_of_own_ants_pack_to_letters_and_back(text: str, packed: str) -> None:
    assert PROTOCOL.pack_reply(text, TOLD) == packed
    assert PROTOCOL.unpack_reply(packed, TOLD) == text


@pytest.mark.parametrize(
    "text",
    [
        "o 2 2 n\ngo",  # the enemy's ant: an order error the rules must see
        "o 1 2 x\ngo",  # not a direction
        "o 1 2  n\ngo",  # two spaces
        "o 1 2 N\ngo",  # upper case
        "o 1 2 n\no 1 2 s\ngo",  # the same ant twice
        "hello\ngo",
    ],
)
def test_anything_else_is_not_packed_exactly(text: str) -> None:
    packed = PROTOCOL.pack_reply(text, TOLD)
    assert packed is None or PROTOCOL.unpack_reply(packed, TOLD) != text


def test_a_replay_stores_letters_and_verifies(tmp_path: Path, data: Path) -> None:
    path = tmp_path / "game.json.gz"
    botarena.play(
        "ants",
        ["builtin:ants/greedy", "builtin:ants/random"],
        seed=3,
        map=ants_maps() / "maze/maze_p02_02.map",
        turns=60,
        replay=path,
    )
    document = load(path)
    acts = [act for step in document["steps"] for act in step["acts"]]
    assert acts and all("packed" in act for act in acts)
    assert any(set(act["packed"]) & set("nesw") for act in acts)
    assert verify(document).ok
    raw = json.loads(gzip.decompress(path.read_bytes()))
    assert "o " not in json.dumps(raw["steps"])
